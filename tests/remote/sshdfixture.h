#pragma once

// A real sshd on 127.0.0.1 for the remote recording tests (tst_remote, tst_remoterecord): a
// private one on a free port, with its own host key, client keys and known_hosts in a temporary
// directory. The "remote" bpflens-cli is this build's, put first in the session's PATH by
// authorized_keys' environment= option.

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

namespace bpflens::test {

inline QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

inline bool writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

// The processes whose environment holds tag (sshd's children for this test only).
inline QList<pid_t> processesTagged(const QByteArray &tag, const QByteArray &commandPart)
{
    QList<pid_t> pids;
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool ok = false;
        const pid_t pid = entry.toInt(&ok);
        if (!ok)
            continue;
        QFile env(QStringLiteral("/proc/%1/environ").arg(pid));
        QFile cmd(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (!env.open(QIODevice::ReadOnly) || !cmd.open(QIODevice::ReadOnly))
            continue;
        if (env.readAll().contains(tag) && cmd.readAll().contains(commandPart))
            pids.append(pid);
    }
    return pids;
}

// The children of parent (by /proc/PID/stat's ppid).
inline QList<pid_t> childrenOf(qint64 parent)
{
    QList<pid_t> pids;
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        const QString stat = readAll(QStringLiteral("/proc/%1/stat").arg(entry));
        const QStringList f =
            stat.mid(stat.lastIndexOf(QLatin1Char(')')) + 2).split(QLatin1Char(' '));
        if (f.size() > 1 && f.at(1).toLongLong() == parent)
            pids.append(entry.toInt());
    }
    return pids;
}

// The parent of pid (0 if it is gone).
inline pid_t parentOf(pid_t pid)
{
    const QString stat = readAll(QStringLiteral("/proc/%1/stat").arg(pid));
    const QStringList f = stat.mid(stat.lastIndexOf(QLatin1Char(')')) + 2).split(QLatin1Char(' '));
    return f.size() > 1 ? pid_t(f.at(1).toInt()) : 0;
}

// Files in dir(): hostkey(.pub); client keys "present" (its sessions find bpflens-cli in
// binDir) and "absent" (a host without BPF Lens); known_hosts (sshd's key for [127.0.0.1]:port)
// and empty_known_hosts; "ssh", a wrapper that keeps the user's ~/.ssh/config out.
class SshdFixture
{
public:
    SshdFixture() = default;
    SshdFixture(const SshdFixture &) = delete;
    SshdFixture &operator=(const SshdFixture &) = delete;
    ~SshdFixture() { stop(); }

    // Whether openssh-server and openssh-client are installed.
    static bool installed()
    {
        return QFile::exists(QStringLiteral("/usr/sbin/sshd")) &&
               !QStandardPaths::findExecutable(QStringLiteral("ssh")).isEmpty();
    }

    struct Options
    {
        // A user without a login shell (a system user like "daemon", whom the test bus's polkit
        // rule lets trace) who may log in with the "present" key besides root: sshd runs in a
        // mount namespace of its own where /etc/passwd gives that user /bin/sh. Nothing on the
        // machine changes.
        QString loginUser;
        // More environment for the "present" key's sessions, e.g.
        // "DBUS_SYSTEM_BUS_ADDRESS=unix:path=..." for a private system bus
        // (tests/helper/testbus.h).
        QByteArray environment;
        // Directories covered with an empty tmpfs in sshd's mount namespace (a host whose
        // kernel lacks what they offer, e.g. /sys/kernel/tracing). Nothing on the machine
        // changes.
        QStringList hiddenDirs;
    };

    bool start(const QString &binDir, QString *error) { return start(binDir, Options{}, error); }

    bool start(const QString &binDir, const Options &options, QString *error)
    {
        auto failWith = [&](const QString &why) {
            *error = why;
            return false;
        };
        if (!m_dir.isValid())
            return failWith(QStringLiteral("no temporary directory"));
        // sshd refuses to start without its privilege separation directory.
        QDir().mkpath(QStringLiteral("/run/sshd"));
        m_tag = "BPFLENS_REMOTE_TEST=" + QByteArray::number(getpid()) + "-" +
                QFile::encodeName(QFileInfo(m_dir.path()).fileName());
        for (const char *key : {"hostkey", "present", "absent"}) {
            if (QProcess::execute(QStringLiteral("ssh-keygen"),
                                  {QStringLiteral("-q"), QStringLiteral("-t"),
                                   QStringLiteral("ed25519"), QStringLiteral("-N"), QString(),
                                   QStringLiteral("-f"), path(QString::fromLatin1(key))}) != 0)
                return failWith(QStringLiteral("ssh-keygen failed"));
        }
        // A free port: taken and given back; sshd binds it just after.
        {
            QTcpServer probe;
            if (!probe.listen(QHostAddress::LocalHost))
                return failWith(QStringLiteral("no free port"));
            m_port = probe.serverPort();
        }
        const QByteArray bin = QFile::encodeName(binDir);
        const QByteArray extra = options.environment.isEmpty()
                                     ? QByteArray()
                                     : ",environment=\"" + options.environment + "\"";
        const QByteArray authorized =
            "environment=\"PATH=" + bin + ":/usr/sbin:/usr/bin:/sbin:/bin\",environment=\"" +
            m_tag + "\"" + extra + " " + readAll(path(QStringLiteral("present.pub"))).toUtf8() +
            "environment=\"PATH=/usr/bin:/bin\",environment=\"" + m_tag + "\" " +
            readAll(path(QStringLiteral("absent.pub"))).toUtf8();
        const QString hostPub = readAll(path(QStringLiteral("hostkey.pub"))).trimmed();
        const QByteArray config =
            "Port " + QByteArray::number(m_port) + "\nListenAddress 127.0.0.1\nHostKey " +
            QFile::encodeName(path(QStringLiteral("hostkey"))) + "\nPidFile " +
            QFile::encodeName(path(QStringLiteral("sshd.pid"))) + "\nAuthorizedKeysFile " +
            QFile::encodeName(path(QStringLiteral("authorized_keys"))) +
            "\nPermitRootLogin prohibit-password\nPasswordAuthentication no\n"
            "KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n"
            "PermitUserEnvironment yes\nLogLevel ERROR\n";
        if (!writeFile(path(QStringLiteral("authorized_keys")), authorized) ||
            !writeFile(path(QStringLiteral("known_hosts")),
                       QStringLiteral("[127.0.0.1]:%1 %2\n").arg(m_port).arg(hostPub).toUtf8()) ||
            !writeFile(path(QStringLiteral("empty_known_hosts")), QByteArray()) ||
            !writeFile(path(QStringLiteral("ssh")), "#!/bin/sh\nexec ssh -F /dev/null \"$@\"\n") ||
            !writeFile(path(QStringLiteral("sshd_config")), config))
            return failWith(QStringLiteral("cannot write the fixture's files"));
        QFile::setPermissions(path(QStringLiteral("ssh")),
                              QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        m_sshd.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        const QStringList sshdArgs{QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                                   path(QStringLiteral("sshd_config"))};
        QString namespaceSetup;
        for (const QString &dir : options.hiddenDirs)
            namespaceSetup +=
                QStringLiteral("mount -t tmpfs -o size=4k,mode=755 none '%1' && ").arg(dir);
        if (options.loginUser.isEmpty() && namespaceSetup.isEmpty()) {
            m_sshd.start(QStringLiteral("/usr/sbin/sshd"), sshdArgs);
        } else if (options.loginUser.isEmpty()) {
            m_sshd.start(QStringLiteral("unshare"),
                         QStringList{QStringLiteral("-m"), QStringLiteral("--propagation"),
                                     QStringLiteral("private"), QStringLiteral("/bin/sh"),
                                     QStringLiteral("-c"),
                                     namespaceSetup + QStringLiteral("exec /usr/sbin/sshd \"$@\""),
                                     QStringLiteral("sh")}
                             << sshdArgs);
        } else {
            QStringList passwd;
            bool found = false;
            for (QString line : readAll(QStringLiteral("/etc/passwd")).split(QLatin1Char('\n'))) {
                QStringList f = line.split(QLatin1Char(':'));
                if (f.size() == 7 && f.first() == options.loginUser) {
                    f.last() = QStringLiteral("/bin/sh");
                    line = f.join(QLatin1Char(':'));
                    found = true;
                }
                passwd << line;
            }
            if (!found)
                return failWith(QStringLiteral("no user %1").arg(options.loginUser));
            // sshd reads authorized_keys as that user.
            const auto readable = QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                  QFileDevice::ReadGroup | QFileDevice::ReadOther;
            if (!writeFile(path(QStringLiteral("passwd")),
                           passwd.join(QLatin1Char('\n')).toUtf8()) ||
                !QFile::setPermissions(path(QStringLiteral("passwd")), readable) ||
                !QFile::setPermissions(path(QStringLiteral("authorized_keys")), readable) ||
                !QFile::setPermissions(m_dir.path(), readable | QFileDevice::ExeOwner |
                                                         QFileDevice::ExeGroup |
                                                         QFileDevice::ExeOther))
                return failWith(QStringLiteral("cannot write the fixture's passwd"));
            m_sshd.start(
                QStringLiteral("unshare"),
                QStringList{QStringLiteral("-m"), QStringLiteral("--propagation"),
                            QStringLiteral("private"), QStringLiteral("/bin/sh"),
                            QStringLiteral("-c"),
                            namespaceSetup + QStringLiteral("mount --bind \"$0\" /etc/passwd && "
                                                            "exec /usr/sbin/sshd \"$@\""),
                            path(QStringLiteral("passwd"))}
                    << sshdArgs);
        }
        if (!m_sshd.waitForStarted())
            return failWith(QStringLiteral("sshd did not start"));
        // Listening once its pid file is there.
        for (int i = 0; i < 250 && !QFile::exists(path(QStringLiteral("sshd.pid"))); ++i) {
            if (m_sshd.state() != QProcess::Running)
                return failWith(QStringLiteral("sshd exited"));
            QTest::qWait(20);
        }
        if (!QFile::exists(path(QStringLiteral("sshd.pid"))))
            return failWith(QStringLiteral("sshd wrote no pid file"));
        return true;
    }

    void stop()
    {
        if (m_sshd.state() != QProcess::NotRunning) {
            m_sshd.terminate();
            m_sshd.waitForFinished(5000);
        }
    }

    QString path(const QString &name) const { return m_dir.filePath(name); }
    int port() const { return m_port; }
    // The listening sshd; each connection is served by a child of it.
    pid_t listenerPid() const
    {
        return pid_t(readAll(path(QStringLiteral("sshd.pid"))).trimmed().toInt());
    }
    // In the environment of every session this sshd runs (see processesTagged()).
    QByteArray tag() const { return m_tag; }
    // The ssh wrapper, for BPFLENS_SSH.
    QString ssh() const { return path(QStringLiteral("ssh")); }

    // The ssh options that make a client use key (a file in dir()) and knownHosts only.
    QStringList sshOptions(const QString &key, const QString &knownHosts) const
    {
        return {QStringLiteral("IdentityFile=") + path(key), QStringLiteral("IdentitiesOnly=yes"),
                QStringLiteral("UserKnownHostsFile=") + path(knownHosts),
                QStringLiteral("GlobalKnownHostsFile=/dev/null")};
    }

private:
    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_port = 0;
    QByteArray m_tag;
};

} // namespace bpflens::test
