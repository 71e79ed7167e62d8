// record --host against a real sshd on 127.0.0.1 (tests/remote/sshdfixture.h): the "remote"
// bpflens-cli is this build's.

#include "tests/helper/testbus.h"
#include "tests/remote/sshdfixture.h"
#include "tests/testutil.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <bpf/bpf.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using bpflens::test::processesTagged;
using bpflens::test::readAll;
using bpflens::test::writeFile;

struct Run
{
    int status = -1;
    QString out;
    QString err;
};

// The BPF programs a process holds open, by id (fdinfo's prog_id).
QList<quint32> programIdsOf(pid_t pid)
{
    QList<quint32> ids;
    const QString dir = QStringLiteral("/proc/%1/fdinfo").arg(pid);
    for (const QString &fd : QDir(dir).entryList(QDir::Files)) {
        static const QRegularExpression progId(QStringLiteral("^prog_id:\\s*(\\d+)$"),
                                               QRegularExpression::MultilineOption);
        const QRegularExpressionMatch m = progId.match(readAll(dir + QLatin1Char('/') + fd));
        if (m.hasMatch())
            ids.append(m.captured(1).toUInt());
    }
    return ids;
}

// Exited: no such process, or a zombie its parent has not reaped yet (its files, and so its BPF
// programs, are released either way).
bool processGone(pid_t pid)
{
    const QString stat = readAll(QStringLiteral("/proc/%1/stat").arg(pid));
    return stat.isEmpty() || stat.mid(stat.lastIndexOf(QLatin1Char(')')) + 2, 1) == u"Z";
}

bool programLoaded(quint32 id)
{
    const int fd = bpf_prog_get_fd_by_id(id);
    if (fd < 0)
        return false;
    ::close(fd);
    return true;
}

} // namespace

class TestRemote : public QObject
{
    Q_OBJECT

    bpflens::test::SshdFixture m_sshd;
    int m_port = 0;
    QByteArray m_tag;

    QString path(const QString &name) const { return m_sshd.path(name); }

    QProcessEnvironment cliEnvironment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("BPFLENS_SSH"), m_sshd.ssh());
        return env;
    }

    // record --host root@127.0.0.1:PORT with the given client key and known_hosts.
    QStringList recordArgs(const QString &key, const QString &knownHosts,
                           const QString &output) const
    {
        QStringList args{QStringLiteral("record"), QStringLiteral("--host"),
                         QStringLiteral("root@127.0.0.1:%1").arg(m_port)};
        for (const QString &o : m_sshd.sshOptions(key, knownHosts))
            args << QStringLiteral("--ssh-option") << o;
        return args << QStringLiteral("--quiet") << QStringLiteral("-o") << output;
    }

    Run runCli(const QStringList &args) const
    {
        QProcess p;
        p.setProcessEnvironment(cliEnvironment());
        p.start(QStringLiteral(BPFLENS_CLI), args);
        Run r;
        if (!p.waitForFinished(60000)) {
            p.kill();
            p.waitForFinished();
            r.err = QStringLiteral("timed out");
            return r;
        }
        r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
        r.out = QString::fromUtf8(p.readAllStandardOutput());
        r.err = QString::fromUtf8(p.readAllStandardError());
        return r;
    }

    qint64 queryCount(const QString &session, const QString &sql) const
    {
        const Run r = runCli({QStringLiteral("query"), session, sql, QStringLiteral("--format"),
                              QStringLiteral("csv")});
        const QStringList lines = r.out.trimmed().split(QLatin1Char('\n'));
        if (r.status != 0 || lines.size() != 2)
            return -1;
        return lines.at(1).toLongLong();
    }

    // A meta value of the session file, as its SQLite table holds it.
    QString metaValue(const QString &session, const QString &key) const
    {
        const Run r = runCli({QStringLiteral("query"), session,
                              QStringLiteral("SELECT value FROM meta WHERE key = '%1'").arg(key),
                              QStringLiteral("--format"), QStringLiteral("csv")});
        const QStringList lines = r.out.trimmed().split(QLatin1Char('\n'));
        if (r.status != 0 || lines.size() != 2)
            return QStringLiteral("(query failed: %1 %2)").arg(r.out, r.err);
        return lines.at(1);
    }

    bool waitForFile(const QString &file, QProcess &recorder)
    {
        for (int i = 0; i < 3000; ++i) {
            if (QFile::exists(file))
                return true;
            if (recorder.state() == QProcess::NotRunning)
                return false;
            QTest::qWait(20);
        }
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("the remote side records BPF probes as root over ssh");
        if (!bpflens::test::SshdFixture::installed()) {
            if (bpflens::test::rootRequired())
                QFAIL("needs openssh-server and openssh-client (.ci/deps installs them)");
            QSKIP("needs openssh-server and openssh-client");
        }
        QString error;
        QVERIFY2(m_sshd.start(QFileInfo(QStringLiteral(BPFLENS_CLI)).path(), &error),
                 qPrintable(error));
        m_port = m_sshd.port();
        m_tag = m_sshd.tag();
    }

    void cleanupTestCase() { m_sshd.stop(); }

    // exec + open recorded on the "remote" host while a known workload runs: the local file
    // holds exactly those events.
    void recordsRemoteEventsIntoLocalFile()
    {
        const QString session = path(QStringLiteral("remote.bpflens"));
        const QString tag = QStringLiteral("rmt%1").arg(getpid() % 100000);
        const QString program = path(tag);
        QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
        QFile::setPermissions(program, QFileDevice::ExeOwner | QFileDevice::ReadOwner);
        const QString opened = path(tag + QStringLiteral("-opened.txt"));
        QVERIFY(writeFile(opened, "x"));

        // An option value the remote shell must not interpret: quotes, $(...), backquotes.
        const QString injected = path(QStringLiteral("injected"));
        const QString line = QStringLiteral("it's \"$(touch %1)\" `touch %1` ;").arg(injected);
        QProcess recorder;
        recorder.setProcessEnvironment(cliEnvironment());
        recorder.start(
            QStringLiteral(BPFLENS_CLI),
            recordArgs(QStringLiteral("present"), QStringLiteral("known_hosts"), session)
                << QStringLiteral("--probe-json")
                << QStringLiteral("{\"id\": \"exec\", \"options\": {\"comm\": \"%1\", "
                                  "\"line\": \"%2\"}}")
                       .arg(tag, QString(line).replace(QLatin1Char('"'), QStringLiteral("\\\"")))
                << QStringLiteral("--probe") << QStringLiteral("open:pid=%1").arg(getpid()));
        QVERIFY2(waitForFile(session, recorder), recorder.readAllStandardError().constData());

        const int execs = 4;
        for (int i = 0; i < execs; ++i)
            QCOMPARE(QProcess::execute(program, {QStringLiteral("arg%1").arg(i), line}), 0);
        // Not matching the line filter: not recorded.
        QCOMPARE(QProcess::execute(program, {QStringLiteral("other")}), 0);
        const int opens = 9;
        for (int i = 0; i < opens; ++i) {
            QFile f(opened);
            QVERIFY(f.open(QIODevice::ReadOnly));
        }
        // Ctrl-C stops the remote side; every event it saw still arrives.
        ::kill(pid_t(recorder.processId()), SIGINT);
        QVERIFY(recorder.waitForFinished(30000));
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QVERIFY2(recorder.exitCode() == 0, qPrintable(err));
        QVERIFY2(
            err.contains(QStringLiteral(" events (0 lost) on root@127.0.0.1:%1 into ").arg(m_port)),
            qPrintable(err));

        QCOMPARE(queryCount(session,
                            QStringLiteral("SELECT count(*) FROM exec WHERE comm = '%1'").arg(tag)),
                 qint64(execs));
        QCOMPARE(queryCount(session, QStringLiteral("SELECT count(*) FROM open WHERE path LIKE "
                                                    "'%%1-opened.txt'")
                                         .arg(tag)),
                 qint64(opens));
        QVERIFY2(!QFile::exists(injected), "the remote shell ran a command from an option value");
        // The remote side ended its stream: the file says the recording finished.
        const Run shown = runCli({QStringLiteral("show"), session});
        QCOMPARE(shown.status, 0);
        QVERIFY2(!shown.out.contains(QStringLiteral("did not finish")), qPrintable(shown.out));
        // The target as typed, besides the remote machine's own name.
        const QString target = QStringLiteral("root@127.0.0.1:%1").arg(m_port);
        QCOMPARE(metaValue(session, QStringLiteral("ssh_target")), target);
        QCOMPARE(metaValue(session, QStringLiteral("host")), QSysInfo::machineHostName());
        QVERIFY2(shown.out.contains(QStringLiteral("\nVia       ssh %1\n").arg(target)),
                 qPrintable(shown.out));
        QVERIFY(processesTagged(m_tag, "--stream-fd").isEmpty());
    }

    // The case: an ordinary user on the "remote" host (daemon, whom the test bus's polkit
    // rule lets trace) records through that host's helper; its bpflens-cli loads nothing itself
    // and passes the helper's stream on. polkit saying no is an error, and no file is left.
    void unprivilegedUserRecordsThroughTheHelper()
    {
        for (const bool granted : {true, false}) {
            bpflens::test::TestBus bus;
            QString error;
            bpflens::test::TestBus::Options busOptions;
            busOptions.grantDaemon = granted;
            QVERIFY2(bus.start(busOptions, &error), qPrintable(error));
            // daemon cannot run what is under /root: a copy it can.
            const QString cli = bus.publicCopy(QStringLiteral(BPFLENS_CLI));
            QVERIFY(!cli.isEmpty());
            bpflens::test::SshdFixture sshd;
            bpflens::test::SshdFixture::Options sshdOptions;
            sshdOptions.loginUser = QStringLiteral("daemon");
            sshdOptions.environment = "DBUS_SYSTEM_BUS_ADDRESS=" + bus.address().toUtf8();
            QVERIFY2(sshd.start(QFileInfo(cli).path(), sshdOptions, &error), qPrintable(error));
            const QString host = QStringLiteral("daemon@127.0.0.1:%1").arg(sshd.port());
            QStringList args{QStringLiteral("record"), QStringLiteral("--host"), host};
            for (const QString &o :
                 sshd.sshOptions(QStringLiteral("present"), QStringLiteral("known_hosts")))
                args << QStringLiteral("--ssh-option") << o;
            const QString session = path(QStringLiteral("daemon-%1.bpflens").arg(granted));
            const QString tag = QStringLiteral("dmn%1").arg(getpid() % 100000);
            const QString program = path(tag);
            QFile::remove(program);
            QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
            QFile::setPermissions(program, QFileDevice::ExeOwner | QFileDevice::ReadOwner);
            const QString opened = path(tag + QStringLiteral("-opened.txt"));
            QVERIFY(writeFile(opened, "x"));
            args << QStringLiteral("--quiet") << QStringLiteral("-o") << session
                 << QStringLiteral("--probe") << QStringLiteral("exec:comm=%1").arg(tag)
                 << QStringLiteral("--probe") << QStringLiteral("open:pid=%1").arg(getpid());
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("BPFLENS_SSH"), sshd.ssh());
            QProcess recorder;
            recorder.setProcessEnvironment(env);
            recorder.start(QStringLiteral(BPFLENS_CLI), args);
            if (!granted) {
                QVERIFY(recorder.waitForFinished(60000));
                const QString err = QString::fromUtf8(recorder.readAllStandardError());
                QCOMPARE(recorder.exitCode(), 5);
                QVERIFY2(
                    err.contains(host + QStringLiteral(": bpflens-cli: not authorised: "
                                                       "polkit denied io.github.bpflens.trace")),
                    qPrintable(err + bus.log()));
                QVERIFY(!QFile::exists(session));
                continue;
            }
            QVERIFY2(waitForFile(session, recorder),
                     qPrintable(QString::fromUtf8(recorder.readAllStandardError()) + bus.log()));
            // The remote side is daemon's bpflens-cli, holding no BPF program: the helper
            // (root, activated on the bus) holds them.
            const QList<pid_t> remote = processesTagged(sshd.tag(), "--stream-fd");
            QCOMPARE(remote.size(), 1);
            const passwd *daemonUser = getpwnam("daemon");
            QVERIFY(daemonUser);
            QVERIFY2(readAll(QStringLiteral("/proc/%1/status").arg(remote.first()))
                         .contains(QRegularExpression(
                             QStringLiteral("\\nUid:\\s+%1\\s").arg(daemonUser->pw_uid))),
                     "the remote bpflens-cli does not run as daemon");
            QCOMPARE(bpflens::test::bpfObjectsOf(remote.first()).programs, 0);
            QVERIFY(bus.helperPid() > 0);
            QVERIFY(bpflens::test::bpfObjectsOf(bus.helperPid()).programs > 0);

            const int execs = 5;
            for (int i = 0; i < execs; ++i)
                QCOMPARE(QProcess::execute(program, {QStringLiteral("arg%1").arg(i)}), 0);
            const int opens = 7;
            for (int i = 0; i < opens; ++i) {
                QFile f(opened);
                QVERIFY(f.open(QIODevice::ReadOnly));
            }
            ::kill(pid_t(recorder.processId()), SIGINT);
            QVERIFY(recorder.waitForFinished(30000));
            const QString err = QString::fromUtf8(recorder.readAllStandardError());
            QVERIFY2(recorder.exitCode() == 0, qPrintable(err + bus.log()));
            QVERIFY2(err.contains(QStringLiteral(" events (0 lost) on %1 into ").arg(host)),
                     qPrintable(err));
            QCOMPARE(queryCount(session, QStringLiteral("SELECT count(*) FROM exec WHERE comm = "
                                                        "'%1'")
                                             .arg(tag)),
                     qint64(execs));
            QCOMPARE(queryCount(session, QStringLiteral("SELECT count(*) FROM open WHERE path "
                                                        "LIKE '%%1-opened.txt'")
                                             .arg(tag)),
                     qint64(opens));
            const Run shown = runCli({QStringLiteral("show"), session});
            QVERIFY2(!shown.out.contains(QStringLiteral("did not finish")), qPrintable(shown.out));
            QCOMPARE(metaValue(session, QStringLiteral("ssh_target")), host);
            QVERIFY2(shown.out.contains(QStringLiteral("\nVia       ssh %1\n").arg(host)),
                     qPrintable(shown.out));
            QTRY_VERIFY_WITH_TIMEOUT(processesTagged(sshd.tag(), "--stream-fd").isEmpty(), 5000);
            QCOMPARE(bus.helperExitProblems(), QString());
        }
    }

    void unknownHostKeyIsRefused()
    {
        const QString session = path(QStringLiteral("unknown-key.bpflens"));
        const Run r = runCli(
            recordArgs(QStringLiteral("present"), QStringLiteral("empty_known_hosts"), session)
            << QStringLiteral("--probe") << QStringLiteral("exec"));
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains(
                     QStringLiteral("ssh refused the host key of root@127.0.0.1:%1").arg(m_port)),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("known_hosts")), qPrintable(r.err));
        QVERIFY(!QFile::exists(session));
        // Nothing was added to the known hosts either.
        QCOMPARE(readAll(path(QStringLiteral("empty_known_hosts"))), QString());
    }

    void hostWithoutBpflensCli()
    {
        const QString session = path(QStringLiteral("absent.bpflens"));
        const Run r =
            runCli(recordArgs(QStringLiteral("absent"), QStringLiteral("known_hosts"), session)
                   << QStringLiteral("--probe") << QStringLiteral("exec"));
        QCOMPARE(r.status, 1);
        QVERIFY2(
            r.err.contains(
                QStringLiteral("bpflens-cli is not installed on root@127.0.0.1:%1").arg(m_port)),
            qPrintable(r.err));
        QVERIFY(!QFile::exists(session));
    }

    void badHostIsAUsageError()
    {
        for (const QString &host : {QStringLiteral("-oProxyCommand=x"), QStringLiteral("a b"),
                                    QStringLiteral("host:99999"), QString()}) {
            const Run r = runCli({QStringLiteral("record"), QStringLiteral("--host"), host,
                                  QStringLiteral("--probe"), QStringLiteral("exec")});
            QCOMPARE(r.status, 2);
            QVERIFY2(r.err.startsWith(QStringLiteral("bpflens-cli: --host ")), qPrintable(r.err));
        }
    }

    // Killing the ssh client mid-recording: the local file keeps what arrived, the message says
    // the connection was lost, and the remote bpflens-cli is gone with its programs detached
    // within about a second.
    void killedSshClientEndsBothSides()
    {
        const QString session = path(QStringLiteral("lost.bpflens"));
        const QString opened = path(QStringLiteral("lost-opened.txt"));
        QVERIFY(writeFile(opened, "x"));
        QProcess recorder;
        recorder.setProcessEnvironment(cliEnvironment());
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       recordArgs(QStringLiteral("present"), QStringLiteral("known_hosts"), session)
                           << QStringLiteral("--probe")
                           << QStringLiteral("open:pid=%1").arg(getpid()));
        QVERIFY2(waitForFile(session, recorder), recorder.readAllStandardError().constData());
        const QList<pid_t> remote = processesTagged(m_tag, "--stream-fd");
        QCOMPARE(remote.size(), 1);
        const QList<quint32> programs = programIdsOf(remote.first());
        QVERIFY(!programs.isEmpty());
        const int opens = 5;
        for (int i = 0; i < opens; ++i) {
            QFile f(opened);
            QVERIFY(f.open(QIODevice::ReadOnly));
        }
        // The stream sends a frame a few times a second: these opens reach the file first.
        QTest::qWait(1500);

        // ssh is the recorder's child (the wrapper execs it).
        const QList<pid_t> children = bpflens::test::childrenOf(recorder.processId());
        QCOMPARE(children.size(), 1);
        const pid_t ssh = children.first();
        QElapsedTimer sinceKill;
        sinceKill.start();
        QVERIFY(::kill(ssh, SIGKILL) == 0);

        // Gone within two seconds of the kill, its programs with it.
        while (sinceKill.elapsed() < 2000 && !processGone(remote.first()))
            QTest::qWait(10);
        QVERIFY2(processGone(remote.first()),
                 "the remote bpflens-cli still runs 2 s after its ssh client was killed");
        qInfo("remote bpflens-cli gone %lld ms after its ssh client was killed",
              qint64(sinceKill.elapsed()));
        // The kernel frees a closed program after an RCU grace period: detached at once, gone
        // from the program list up to a second or so later.
        auto anyLoaded = [&] {
            return std::any_of(programs.cbegin(), programs.cend(), programLoaded);
        };
        while (sinceKill.elapsed() < 2500 && anyLoaded())
            QTest::qWait(10);
        QVERIFY2(!anyLoaded(), "a remote BPF program is still loaded 2.5 s after the kill");
        qInfo("its %lld BPF programs unloaded %lld ms after the kill", qint64(programs.size()),
              qint64(sinceKill.elapsed()));
        QVERIFY(recorder.state() == QProcess::NotRunning || recorder.waitForFinished(15000));
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QCOMPARE(recorder.exitCode(), 6);
        QVERIFY2(
            err.contains(QStringLiteral("connection to root@127.0.0.1:%1 lost after ").arg(m_port)),
            qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("holds everything received")), qPrintable(err));

        // A valid session with what arrived before the kill.
        QCOMPARE(queryCount(session, QStringLiteral("SELECT count(*) FROM open WHERE path LIKE "
                                                    "'%lost-opened.txt'")),
                 qint64(opens));
    }

    // The network going silent without closing anything (here: the sshd serving the
    // connection stopped with SIGSTOP, so the kernel still acknowledges every packet and only
    // ssh's keepalives can tell): the recording ends with the same message and exit status as a
    // killed ssh, keeping what arrived before, and the remote side goes once sshd runs again.
    void silentlyDeadConnectionEndsTheRecording()
    {
        const QString session = path(QStringLiteral("frozen.bpflens"));
        const QString opened = path(QStringLiteral("frozen-opened.txt"));
        QVERIFY(writeFile(opened, "x"));
        QProcess recorder;
        QProcessEnvironment env = cliEnvironment();
        // A keepalive a second (the default is 5 s): ssh gives up after 3 unanswered ones.
        env.insert(QStringLiteral("BPFLENS_SSH_ALIVE_SECONDS"), QStringLiteral("1"));
        recorder.setProcessEnvironment(env);
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       recordArgs(QStringLiteral("present"), QStringLiteral("known_hosts"), session)
                           << QStringLiteral("--probe")
                           << QStringLiteral("open:pid=%1").arg(getpid()));
        QVERIFY2(waitForFile(session, recorder), recorder.readAllStandardError().constData());
        const QList<pid_t> remote = processesTagged(m_tag, "--stream-fd");
        QCOMPARE(remote.size(), 1);
        const QList<quint32> programs = programIdsOf(remote.first());
        QVERIFY(!programs.isEmpty());
        // The remote shell execs bpflens-cli: its parent is the sshd process of this
        // connection, a child of the listening sshd.
        const pid_t sessionSshd = bpflens::test::parentOf(remote.first());
        QVERIFY(sessionSshd > 0);
        QCOMPARE(bpflens::test::parentOf(sessionSshd), m_sshd.listenerPid());
        // Whatever fails below, that sshd runs again (and ends) before the next test.
        bool frozen = false;
        const auto thaw = qScopeGuard([&] {
            if (frozen)
                ::kill(sessionSshd, SIGCONT);
        });
        const int opens = 4;
        for (int i = 0; i < opens; ++i) {
            QFile f(opened);
            QVERIFY(f.open(QIODevice::ReadOnly));
        }
        QTest::qWait(1500);

        QElapsedTimer sinceFreeze;
        sinceFreeze.start();
        QVERIFY(::kill(sessionSshd, SIGSTOP) == 0);
        frozen = true;
        // Made after the freeze: they cannot arrive.
        for (int i = 0; i < 3; ++i) {
            QFile f(opened);
            QVERIFY(f.open(QIODevice::ReadOnly));
        }
        // 3 keepalives a second apart unanswered: ssh exits 3-4 s after the last packet.
        QVERIFY2(recorder.waitForFinished(20000),
                 "record --host still runs 20 s after its connection went silent");
        qInfo("record --host ended %lld ms after the connection went silent",
              qint64(sinceFreeze.elapsed()));
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QCOMPARE(recorder.exitCode(), 6);
        QVERIFY2(err.contains(QStringLiteral("root@127.0.0.1:%1: Timeout, server 127.0.0.1 not "
                                             "responding")
                                  .arg(m_port)),
                 qPrintable(err));
        QVERIFY2(
            err.contains(QStringLiteral("connection to root@127.0.0.1:%1 lost after ").arg(m_port)),
            qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("holds everything received")), qPrintable(err));
        QCOMPARE(queryCount(session, QStringLiteral("SELECT count(*) FROM open WHERE path LIKE "
                                                    "'%frozen-opened.txt'")),
                 qint64(opens));
        const Run shown = runCli({QStringLiteral("show"), session});
        QCOMPARE(shown.status, 0);

        // Running again, sshd finds its client gone and closes the channel: the remote
        // bpflens-cli ends and its programs go with it.
        QVERIFY(!processGone(remote.first()));
        QElapsedTimer sinceThaw;
        sinceThaw.start();
        QVERIFY(::kill(sessionSshd, SIGCONT) == 0);
        frozen = false;
        while (sinceThaw.elapsed() < 2000 && !processGone(remote.first()))
            QTest::qWait(10);
        QVERIFY2(processGone(remote.first()),
                 "the remote bpflens-cli still runs 2 s after its sshd was let run again");
        auto anyLoaded = [&] {
            return std::any_of(programs.cbegin(), programs.cend(), programLoaded);
        };
        while (sinceThaw.elapsed() < 2500 && anyLoaded())
            QTest::qWait(10);
        QVERIFY2(!anyLoaded(), "a remote BPF program is still loaded 2.5 s after sshd ran again");
        qInfo("remote bpflens-cli gone %lld ms after sshd ran again", qint64(sinceThaw.elapsed()));
        QVERIFY(processesTagged(m_tag, "--stream-fd").isEmpty());
    }

    // The keepalive and connect timeout are added only where the user's ssh configuration (or
    // --ssh-option) leaves ssh's defaults: a value the user chose is kept.
    void liveOptionsYieldToTheUsersSshConfig()
    {
        const QString log = path(QStringLiteral("ssh-args.log"));
        const QString config = path(QStringLiteral("user_ssh_config"));
        QVERIFY(writeFile(config, "ServerAliveInterval 42\nConnectTimeout 9\n"));
        // ssh with the user's config (or none), logging how it was called.
        auto wrapper = [&](const QString &name, const QString &configFile) {
            const QString file = path(name);
            QVERIFY(writeFile(file, "#!/bin/sh\necho \"$*\" >> '" + QFile::encodeName(log) +
                                        "'\nexec ssh -F '" + QFile::encodeName(configFile) +
                                        "' \"$@\"\n"));
            QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        };
        wrapper(QStringLiteral("ssh-noconfig"), QStringLiteral("/dev/null"));
        wrapper(QStringLiteral("ssh-userconfig"), config);
        // The connecting call (not ssh -G) of one record --host run, against a host without
        // bpflens-cli: it fails at once, after ssh has run.
        auto connectArgs = [&](const QString &ssh, const QStringList &more) {
            QFile::remove(log);
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("BPFLENS_SSH"), path(ssh));
            p.setProcessEnvironment(env);
            p.start(QStringLiteral(BPFLENS_CLI),
                    recordArgs(QStringLiteral("absent"), QStringLiteral("known_hosts"),
                               path(QStringLiteral("none.bpflens")))
                        << more << QStringLiteral("--probe") << QStringLiteral("exec"));
            if (!p.waitForFinished(30000) || p.exitCode() != 1)
                return QStringLiteral("(record --host: %1)")
                    .arg(QString::fromUtf8(p.readAllStandardError()));
            const QStringList calls = readAll(log).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QStringList connecting;
            for (const QString &c : calls)
                if (!c.startsWith(QLatin1String("-G ")))
                    connecting << c;
            return connecting.size() == 1 ? connecting.first()
                                          : QStringLiteral("(calls: %1)").arg(calls.join(u'|'));
        };
        const QString defaults = connectArgs(QStringLiteral("ssh-noconfig"), {});
        QVERIFY2(defaults.contains(QStringLiteral("-o ServerAliveInterval=5 -o "
                                                  "ServerAliveCountMax=3 -o ConnectTimeout=15")),
                 qPrintable(defaults));
        const QString configured = connectArgs(QStringLiteral("ssh-userconfig"), {});
        QVERIFY2(!configured.contains(QStringLiteral("ServerAlive")) &&
                     !configured.contains(QStringLiteral("ConnectTimeout")) &&
                     configured.contains(QStringLiteral("IdentityFile=")),
                 qPrintable(configured));
        const QString optioned =
            connectArgs(QStringLiteral("ssh-noconfig"),
                        {QStringLiteral("--ssh-option"), QStringLiteral("ServerAliveInterval=30")});
        QVERIFY2(!optioned.contains(QStringLiteral("ServerAliveInterval=5")) &&
                     !optioned.contains(QStringLiteral("ServerAliveCountMax")) &&
                     optioned.contains(QStringLiteral("ServerAliveInterval=30")) &&
                     optioned.contains(QStringLiteral("ConnectTimeout=15")),
                 qPrintable(optioned));
    }

    // The same as daemon, recording through the remote host's helper: the relay (daemon's
    // bpflens-cli) must notice its ssh client gone and stop the helper's session, so that the
    // helper's programs are detached as promptly as the root recorder's own.
    void killedSshClientEndsNonRootRecording()
    {
        bpflens::test::TestBus bus;
        QString error;
        bpflens::test::TestBus::Options busOptions;
        busOptions.grantDaemon = true;
        QVERIFY2(bus.start(busOptions, &error), qPrintable(error));
        const QString cli = bus.publicCopy(QStringLiteral(BPFLENS_CLI));
        QVERIFY(!cli.isEmpty());
        bpflens::test::SshdFixture sshd;
        bpflens::test::SshdFixture::Options sshdOptions;
        sshdOptions.loginUser = QStringLiteral("daemon");
        sshdOptions.environment = "DBUS_SYSTEM_BUS_ADDRESS=" + bus.address().toUtf8();
        QVERIFY2(sshd.start(QFileInfo(cli).path(), sshdOptions, &error), qPrintable(error));
        const QString host = QStringLiteral("daemon@127.0.0.1:%1").arg(sshd.port());
        QStringList args{QStringLiteral("record"), QStringLiteral("--host"), host};
        for (const QString &o :
             sshd.sshOptions(QStringLiteral("present"), QStringLiteral("known_hosts")))
            args << QStringLiteral("--ssh-option") << o;
        const QString session = path(QStringLiteral("daemon-lost.bpflens"));
        const QString opened = path(QStringLiteral("daemon-lost-opened.txt"));
        QVERIFY(writeFile(opened, "x"));
        args << QStringLiteral("--quiet") << QStringLiteral("-o") << session
             << QStringLiteral("--probe") << QStringLiteral("open:pid=%1").arg(getpid());
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("BPFLENS_SSH"), sshd.ssh());
        QProcess recorder;
        recorder.setProcessEnvironment(env);
        recorder.start(QStringLiteral(BPFLENS_CLI), args);
        QVERIFY2(waitForFile(session, recorder),
                 qPrintable(QString::fromUtf8(recorder.readAllStandardError()) + bus.log()));
        const QList<pid_t> relay = processesTagged(sshd.tag(), "--stream-fd");
        QCOMPARE(relay.size(), 1);
        QVERIFY(bus.helperPid() > 0);
        // The helper's programs for this recording: it holds none when no session runs.
        const QList<quint32> programs = bpflens::test::bpfObjectsOf(bus.helperPid()).programIds;
        QVERIFY(!programs.isEmpty());
        const int opens = 6;
        for (int i = 0; i < opens; ++i) {
            QFile f(opened);
            QVERIFY(f.open(QIODevice::ReadOnly));
        }
        QTest::qWait(1500);

        const QList<pid_t> children = bpflens::test::childrenOf(recorder.processId());
        QCOMPARE(children.size(), 1);
        QElapsedTimer sinceKill;
        sinceKill.start();
        QVERIFY(::kill(children.first(), SIGKILL) == 0);

        while (sinceKill.elapsed() < 2000 && !processGone(relay.first()))
            QTest::qWait(10);
        QVERIFY2(processGone(relay.first()),
                 "the remote relay still runs 2 s after its ssh client was killed");
        const qint64 relayGoneMs = sinceKill.elapsed();
        // The helper outlives the relay; its session's programs must not.
        auto anyLoaded = [&] {
            return std::any_of(programs.cbegin(), programs.cend(), programLoaded);
        };
        while (sinceKill.elapsed() < 2500 && anyLoaded())
            QTest::qWait(10);
        QVERIFY2(!anyLoaded(), qPrintable(QStringLiteral("a program of the helper is still "
                                                         "loaded 2.5 s after the kill\n") +
                                          bus.log()));
        qInfo("non-root: relay gone %lld ms, the helper's %lld programs unloaded %lld ms after "
              "the kill",
              relayGoneMs, qint64(programs.size()), qint64(sinceKill.elapsed()));
        QVERIFY2(bus.helperPid() > 0, "the helper exited instead of ending the session");
        QCOMPARE(bpflens::test::bpfObjectsOf(bus.helperPid()).programs, 0);

        QVERIFY(recorder.state() == QProcess::NotRunning || recorder.waitForFinished(15000));
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QCOMPARE(recorder.exitCode(), 6);
        QVERIFY2(err.contains(QStringLiteral("connection to %1 lost after ").arg(host)),
                 qPrintable(err));
        QCOMPARE(queryCount(session, QStringLiteral("SELECT count(*) FROM open WHERE path LIKE "
                                                    "'%daemon-lost-opened.txt'")),
                 qint64(opens));
        QCOMPARE(metaValue(session, QStringLiteral("ssh_target")), host);
        QCOMPARE(bus.helperExitProblems(), QString());
    }
};

QTEST_GUILESS_MAIN(TestRemote)
#include "tst_remote.moc"
