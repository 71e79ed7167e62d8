#include "tests/helper/testbus.h"

#include <QDBusConnectionInterface>
#include <QDBusReply>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTest>
#include <QThread>

#include <bpf/bpf.h>

#include <csignal>
#include <unistd.h>

namespace bpflens::test {

namespace {

const QString HelperName = QStringLiteral("io.github.bpflens.Helper1");

bool writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    f.write(data);
    f.close();
    return f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                            QFileDevice::ReadGroup | QFileDevice::ReadOther);
}

bool makePublicDir(const QString &path)
{
    return QDir().mkpath(path) &&
           QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                           QFileDevice::ExeOwner | QFileDevice::ReadGroup |
                                           QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                           QFileDevice::ExeOther);
}

void endProcess(QProcess &p)
{
    if (p.state() == QProcess::NotRunning)
        return;
    p.terminate();
    if (!p.waitForFinished(5000)) {
        p.kill();
        p.waitForFinished(5000);
    }
}

} // namespace

TestBus::TestBus() = default;

TestBus::~TestBus()
{
    stop();
}

bool TestBus::start(const Options &options, QString *error)
{
    if (!m_dir.isValid() || !makePublicDir(m_dir.path())) {
        *error = QStringLiteral("cannot create a temporary directory");
        return false;
    }
    const QString d = m_dir.path();
    const QString socket = d + QStringLiteral("/system_bus_socket");
    m_address = QStringLiteral("unix:path=") + socket;

    // polkit sees only our action and, if asked, a rule for the user daemon.
    const QString actions = d + QStringLiteral("/polkit-actions");
    const QString rules = d + QStringLiteral("/polkit-rules");
    const QString services = d + QStringLiteral("/services");
    if (!makePublicDir(actions) || !makePublicDir(rules) || !makePublicDir(services)) {
        *error = QStringLiteral("cannot create the bus directories in %1").arg(d);
        return false;
    }
    QFile policy(QStringLiteral(BPFLENS_SOURCE_DIR "/resources/io.github.bpflens.policy"));
    if (!policy.open(QIODevice::ReadOnly) ||
        !writeFile(actions + QStringLiteral("/io.github.bpflens.policy"), policy.readAll())) {
        *error = QStringLiteral("cannot copy the polkit policy");
        return false;
    }
    if (options.grantDaemon &&
        !writeFile(
            rules + QStringLiteral("/50-bpflens-test.rules"),
            "polkit.addRule(function(action, subject) {\n"
            "    if (action.id == \"io.github.bpflens.trace\" && subject.user == \"daemon\")\n"
            "        return polkit.Result.YES;\n"
            "});\n")) {
        *error = QStringLiteral("cannot write the polkit rule");
        return false;
    }
    // D-Bus activation of the helper that was just built, as on a real system, through a
    // wrapper that records how each helper process exited (helperExitProblems()).
    const QString wrapper = d + QStringLiteral("/run-helper");
    if (!writeFile(wrapper, QStringLiteral("#!/bin/sh\n"
                                           "\"%1\" \"$@\" &\n"
                                           "pid=$!\n"
                                           "wait $pid\n"
                                           "status=$?\n"
                                           "echo \"$pid $status\" >> \"%2\"\n"
                                           "exit $status\n")
                                .arg(QStringLiteral(BPFLENS_HELPER), exitsFile())
                                .toUtf8()) ||
        !QFile::setPermissions(wrapper, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                            QFileDevice::ExeOwner)) {
        *error = QStringLiteral("cannot write the helper's wrapper");
        return false;
    }
    if (!writeFile(
            services + QStringLiteral("/io.github.bpflens.Helper1.service"),
            QStringLiteral("[D-BUS Service]\nName=%1\nExec=%2 --idle-timeout %3\nUser=root\n")
                .arg(HelperName, wrapper, options.helperIdleTimeout)
                .toUtf8())) {
        *error = QStringLiteral("cannot write the activation file");
        return false;
    }
    // The system bus's default policy, with our service directory and no setuid launch helper.
    const QString config = d + QStringLiteral("/bus.conf");
    if (!writeFile(
            config,
            QStringLiteral(
                R"(<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <listen>unix:path=%1</listen>
  <auth>EXTERNAL</auth>
  <servicedir>%2</servicedir>
  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus"
           send_interface="org.freedesktop.DBus.Introspectable"/>
    <allow send_destination="org.freedesktop.DBus"
           send_interface="org.freedesktop.DBus.Properties"/>
  </policy>
  <include>/usr/share/dbus-1/system.d/org.freedesktop.PolicyKit1.conf</include>
  <include>%3</include>
</busconfig>
)")
                .arg(socket, services,
                     QStringLiteral(BPFLENS_SOURCE_DIR "/resources/io.github.bpflens.Helper1.conf"))
                .toUtf8())) {
        *error = QStringLiteral("cannot write the bus configuration");
        return false;
    }

    QProcessEnvironment env = environment();
    m_daemon.setProcessEnvironment(env);
    // Into files, not pipes: a test busy elsewhere (waiting for its own children) must not
    // leave a pipe full, which blocks dbus-daemon in write() and with it the whole bus. The
    // activated helper inherits dbus-daemon's stderr.
    m_daemon.setProcessChannelMode(QProcess::MergedChannels);
    m_daemon.setStandardOutputFile(d + QStringLiteral("/dbus-daemon.log"));
    m_daemon.start(QStringLiteral("dbus-daemon"),
                   {QStringLiteral("--config-file=") + config, QStringLiteral("--nofork"),
                    QStringLiteral("--nopidfile"), QStringLiteral("--nosyslog")});
    if (!m_daemon.waitForStarted(5000)) {
        *error = QStringLiteral("cannot start dbus-daemon: %1").arg(m_daemon.errorString());
        return false;
    }
    for (QDeadlineTimer t(10000); !QFileInfo::exists(socket); QThread::msleep(10)) {
        if (t.hasExpired() || m_daemon.state() == QProcess::NotRunning) {
            *error = QStringLiteral("dbus-daemon did not start: %1").arg(log());
            return false;
        }
    }

    m_polkit.setProcessEnvironment(env);
    m_polkit.setProcessChannelMode(QProcess::MergedChannels);
    m_polkit.setStandardOutputFile(d + QStringLiteral("/polkitd.log"));
    m_polkit.start(QStringLiteral("unshare"),
                   {QStringLiteral("-m"), QStringLiteral("--propagation"),
                    QStringLiteral("private"), QStringLiteral("sh"), QStringLiteral("-c"),
                    QStringLiteral("mount --bind \"$1\" /usr/share/polkit-1/actions && "
                                   "mount --bind \"$2\" /etc/polkit-1/rules.d && "
                                   "exec /usr/lib/polkit-1/polkitd --no-debug"),
                    QStringLiteral("sh"), actions, rules});
    if (!m_polkit.waitForStarted(5000)) {
        *error = QStringLiteral("cannot start polkitd: %1").arg(m_polkit.errorString());
        return false;
    }
    // polkitd reads every action and rules file first; on a loaded machine that takes a while.
    // The setup connection is made again while it is not connected: one made while dbus-daemon
    // was still setting up (or refused under load) never reconnects by itself, and a check
    // through it would wait out the limit with polkitd long registered.
    const QString setup = QStringLiteral("testbus-setup");
    QDBusConnection bus = connect(setup);
    for (QDeadlineTimer t(60000);
         !bus.isConnected() ||
         !bus.interface()
              ->isServiceRegistered(QStringLiteral("org.freedesktop.PolicyKit1"))
              .value();
         QThread::msleep(20)) {
        if (t.hasExpired() || m_polkit.state() == QProcess::NotRunning) {
            const QString names =
                bus.isConnected()
                    ? bus.interface()->registeredServiceNames().value().join(QLatin1Char(' '))
                    : QStringLiteral("not connected: ") + bus.lastError().message();
            *error =
                QStringLiteral("polkitd did not come up (%1; the bus's names: %2): %3")
                    .arg(m_polkit.state() == QProcess::NotRunning
                             ? QStringLiteral("it exited with status %1").arg(m_polkit.exitCode())
                             : QStringLiteral("still running after 60 s"),
                         names, log());
            QDBusConnection::disconnectFromBus(setup);
            return false;
        }
        if (!bus.isConnected()) {
            QDBusConnection::disconnectFromBus(setup);
            bus = connect(setup);
        }
    }
    QDBusConnection::disconnectFromBus(QStringLiteral("testbus-setup"));
    return true;
}

QString TestBus::exitsFile() const
{
    return m_dir.filePath(QStringLiteral("helper-exits"));
}

bool TestBus::stopHelper(int timeoutMs)
{
    const qint64 pid = helperPid();
    if (pid == 0)
        return true;
    ::kill(pid_t(pid), SIGTERM);
    for (QDeadlineTimer t(timeoutMs); !t.hasExpired(); QThread::msleep(10)) {
        QFile exits(exitsFile());
        if (exits.open(QIODevice::ReadOnly)) {
            for (const QByteArray &line : exits.readAll().split('\n')) {
                if (line.split(' ').value(0).toLongLong() == pid)
                    return true;
            }
        }
    }
    return false;
}

QString TestBus::helperExitProblems()
{
    QStringList problems;
    QFile exits(exitsFile());
    if (exits.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : exits.readAll().split('\n')) {
            const QList<QByteArray> f = line.split(' ');
            if (f.size() == 2 && f[1] != "0")
                problems << QStringLiteral("helper %1 exited with status %2")
                                .arg(QString::fromLatin1(f[0]), QString::fromLatin1(f[1]));
        }
    }
    const QString text = log();
    for (const char *report : {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                               "runtime error:", "SUMMARY: UndefinedBehaviorSanitizer"}) {
        if (text.contains(QLatin1String(report)))
            problems
                << QStringLiteral("a sanitizer report (%1) in the log").arg(QLatin1String(report));
    }
    return problems.join(QStringLiteral("; "));
}

void TestBus::stop()
{
    // The helper first, while the bus still tells which process it is.
    if (m_daemon.state() != QProcess::NotRunning) {
        if (const qint64 pid = helperPid())
            m_helperPids.append(pid);
    }
    for (qint64 pid : std::as_const(m_helperPids)) {
        if (::kill(pid_t(pid), SIGTERM) == 0) {
            // The helper is dbus-daemon's child: it reaps it, we only wait for it to be gone.
            for (QDeadlineTimer t(5000); ::kill(pid_t(pid), 0) == 0 && !t.hasExpired();)
                QThread::msleep(10);
            if (::kill(pid_t(pid), 0) == 0)
                ::kill(pid_t(pid), SIGKILL);
        }
    }
    m_helperPids.clear();
    endProcess(m_polkit);
    endProcess(m_daemon);
}

QString TestBus::log()
{
    QString text;
    for (const char *name : {"/dbus-daemon.log", "/polkitd.log"}) {
        QFile f(m_dir.path() + QLatin1String(name));
        if (f.open(QIODevice::ReadOnly))
            text += QString::fromLocal8Bit(f.readAll());
    }
    return text;
}

QProcessEnvironment TestBus::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"), m_address);
    return env;
}

QDBusConnection TestBus::connect(const QString &name) const
{
    return QDBusConnection::connectToBus(m_address, name);
}

QString TestBus::publicCopy(const QString &binary) const
{
    const QString copy = m_dir.filePath(QFileInfo(binary).fileName());
    QFile::remove(copy);
    if (!QFile::copy(binary, copy))
        return {};
    QFile::setPermissions(copy, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                    QFileDevice::ExeOwner | QFileDevice::ReadGroup |
                                    QFileDevice::ExeGroup | QFileDevice::ReadOther |
                                    QFileDevice::ExeOther);
    return copy;
}

qint64 TestBus::helperPid() const
{
    const QString name = QStringLiteral("testbus-pid");
    qint64 pid = 0;
    {
        QDBusConnection bus = connect(name);
        if (bus.isConnected() && bus.interface()->isServiceRegistered(HelperName).value()) {
            const QDBusReply<uint> reply = bus.interface()->servicePid(HelperName);
            if (reply.isValid())
                pid = reply.value();
        }
    }
    QDBusConnection::disconnectFromBus(name);
    if (pid && !m_helperPids.contains(pid))
        m_helperPids.append(pid);
    return pid;
}

bool TestBus::waitForHelperGone(int timeoutMs) const
{
    for (QDeadlineTimer t(timeoutMs); !t.hasExpired(); QThread::msleep(20)) {
        if (helperPid() == 0)
            return true;
    }
    return false;
}

BpfObjects bpfObjectsOf(qint64 pid)
{
    BpfObjects o;
    const QString fdDir = QStringLiteral("/proc/%1/fd").arg(pid);
    // The object's id from /proc/PID/fdinfo/FD ("prog_id:", "map_id:", "link_id:").
    auto idOf = [pid](const QString &fd, const QByteArray &key, QList<quint32> *ids) {
        QFile info(QStringLiteral("/proc/%1/fdinfo/%2").arg(pid).arg(fd));
        if (!info.open(QIODevice::ReadOnly))
            return;
        for (const QByteArray &line : info.readAll().split('\n')) {
            if (line.startsWith(key))
                ids->append(line.mid(key.size()).trimmed().toUInt());
        }
    };
    for (const QString &fd : QDir(fdDir).entryList(QDir::Files | QDir::System)) {
        char buf[256] = {};
        const QByteArray path = (fdDir + QLatin1Char('/') + fd).toLocal8Bit();
        const ssize_t n = ::readlink(path.constData(), buf, sizeof(buf) - 1);
        if (n <= 0)
            continue;
        const QByteArray kind(buf, int(n));
        if (kind == "anon_inode:bpf-prog") {
            ++o.programs;
            idOf(fd, "prog_id:", &o.programIds);
        } else if (kind == "anon_inode:bpf_link") {
            ++o.links;
            idOf(fd, "link_id:", &o.linkIds);
        } else if (kind == "anon_inode:bpf-map") {
            ++o.maps;
            idOf(fd, "map_id:", &o.mapIds);
        }
    }
    return o;
}

bool programLoaded(quint32 id)
{
    const int fd = bpf_prog_get_fd_by_id(id);
    if (fd < 0)
        return false;
    ::close(fd);
    return true;
}

bool mapLoaded(quint32 id)
{
    const int fd = bpf_map_get_fd_by_id(id);
    if (fd < 0)
        return false;
    ::close(fd);
    return true;
}

bool linkLoaded(quint32 id)
{
    const int fd = bpf_link_get_fd_by_id(id);
    if (fd < 0)
        return false;
    ::close(fd);
    return true;
}

} // namespace bpflens::test
