// record --host against a real sshd on 127.0.0.1: a private one on a free port, with its own
// host key, client keys and known_hosts in a temporary directory. The "remote" bpflens-cli is
// this build's, put first in the session's PATH by authorized_keys' environment= option.

#include "testutil.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <bpf/bpf.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <sys/stat.h>
#include <unistd.h>

namespace {

struct Run
{
    int status = -1;
    QString out;
    QString err;
};

QString readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool writeFile(const QString &path, const QByteArray &text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

// The processes whose environment holds tag (sshd's children for this test only).
QList<pid_t> processesTagged(const QByteArray &tag, const QByteArray &commandPart)
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

// ssh's own files stay out: no ~/.ssh/config or known_hosts of whoever runs the test.
const char *const SshWrapper = "#!/bin/sh\nexec ssh -F /dev/null \"$@\"\n";

} // namespace

class TestRemote : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_port = 0;
    QByteArray m_tag;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    QProcessEnvironment cliEnvironment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("BPFLENS_SSH"), path(QStringLiteral("ssh")));
        return env;
    }

    // record --host root@127.0.0.1:PORT with the given client key and known_hosts.
    QStringList recordArgs(const QString &key, const QString &knownHosts,
                           const QString &output) const
    {
        return {QStringLiteral("record"),
                QStringLiteral("--host"),
                QStringLiteral("root@127.0.0.1:%1").arg(m_port),
                QStringLiteral("--ssh-option"),
                QStringLiteral("IdentityFile=") + path(key),
                QStringLiteral("--ssh-option"),
                QStringLiteral("IdentitiesOnly=yes"),
                QStringLiteral("--ssh-option"),
                QStringLiteral("UserKnownHostsFile=") + path(knownHosts),
                QStringLiteral("--ssh-option"),
                QStringLiteral("GlobalKnownHostsFile=/dev/null"),
                QStringLiteral("--quiet"),
                QStringLiteral("-o"),
                output};
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
        const QString sshd = QStringLiteral("/usr/sbin/sshd");
        if (!QFile::exists(sshd) ||
            QStandardPaths::findExecutable(QStringLiteral("ssh")).isEmpty()) {
            if (bpflens::test::rootRequired())
                QFAIL("needs openssh-server and openssh-client (.ci/deps installs them)");
            QSKIP("needs openssh-server and openssh-client");
        }
        QVERIFY(m_dir.isValid());
        // sshd refuses to start without its privilege separation directory.
        QDir().mkpath(QStringLiteral("/run/sshd"));
        m_tag = "BPFLENS_REMOTE_TEST=" + QByteArray::number(getpid()) + "-" +
                QFile::encodeName(QFileInfo(m_dir.path()).fileName());
        for (const char *key : {"hostkey", "present", "absent"}) {
            QCOMPARE(QProcess::execute(QStringLiteral("ssh-keygen"),
                                       {QStringLiteral("-q"), QStringLiteral("-t"),
                                        QStringLiteral("ed25519"), QStringLiteral("-N"), QString(),
                                        QStringLiteral("-f"), path(QString::fromLatin1(key))}),
                     0);
        }
        // A free port: taken and given back; sshd binds it just after.
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost));
            m_port = probe.serverPort();
        }
        const QByteArray binDir = QFile::encodeName(QFileInfo(QStringLiteral(BPFLENS_CLI)).path());
        // Two client keys: one whose sessions find this build's bpflens-cli, one whose PATH
        // lacks it (a host without BPF Lens).
        const QByteArray authorized =
            "environment=\"PATH=" + binDir + ":/usr/sbin:/usr/bin:/sbin:/bin\",environment=\"" +
            m_tag + "\" " + readAll(path(QStringLiteral("present.pub"))).toUtf8() +
            "environment=\"PATH=/usr/bin:/bin\",environment=\"" + m_tag + "\" " +
            readAll(path(QStringLiteral("absent.pub"))).toUtf8();
        QVERIFY(writeFile(path(QStringLiteral("authorized_keys")), authorized));
        const QString hostPub = readAll(path(QStringLiteral("hostkey.pub"))).trimmed();
        QVERIFY(writeFile(path(QStringLiteral("known_hosts")),
                          QStringLiteral("[127.0.0.1]:%1 %2\n").arg(m_port).arg(hostPub).toUtf8()));
        QVERIFY(writeFile(path(QStringLiteral("empty_known_hosts")), QByteArray()));
        QVERIFY(writeFile(path(QStringLiteral("ssh")), SshWrapper));
        QFile::setPermissions(path(QStringLiteral("ssh")),
                              QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        const QByteArray config =
            "Port " + QByteArray::number(m_port) + "\nListenAddress 127.0.0.1\nHostKey " +
            QFile::encodeName(path(QStringLiteral("hostkey"))) + "\nPidFile " +
            QFile::encodeName(path(QStringLiteral("sshd.pid"))) + "\nAuthorizedKeysFile " +
            QFile::encodeName(path(QStringLiteral("authorized_keys"))) +
            "\nPermitRootLogin prohibit-password\nPasswordAuthentication no\n"
            "KbdInteractiveAuthentication no\nUsePAM no\nStrictModes no\n"
            "PermitUserEnvironment yes\nLogLevel ERROR\n";
        QVERIFY(writeFile(path(QStringLiteral("sshd_config")), config));
        m_sshd.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_sshd.start(sshd, {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"),
                            path(QStringLiteral("sshd_config"))});
        QVERIFY(m_sshd.waitForStarted());
        // Listening once its pid file is there.
        for (int i = 0; i < 250 && !QFile::exists(path(QStringLiteral("sshd.pid"))); ++i) {
            QVERIFY2(m_sshd.state() == QProcess::Running, "sshd exited");
            QTest::qWait(20);
        }
        QVERIFY(QFile::exists(path(QStringLiteral("sshd.pid"))));
    }

    void cleanupTestCase()
    {
        if (m_sshd.state() != QProcess::NotRunning) {
            m_sshd.terminate();
            m_sshd.waitForFinished(5000);
        }
    }

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
        QVERIFY(processesTagged(m_tag, "--stream-fd").isEmpty());
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
        pid_t ssh = -1;
        for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
            const QString stat = readAll(QStringLiteral("/proc/%1/stat").arg(entry));
            const QStringList f =
                stat.mid(stat.lastIndexOf(QLatin1Char(')')) + 2).split(QLatin1Char(' '));
            if (f.size() > 1 && f.at(1).toLongLong() == recorder.processId())
                ssh = entry.toInt();
        }
        QVERIFY(ssh > 0);
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
};

QTEST_GUILESS_MAIN(TestRemote)
#include "tst_remote.moc"
