// bpflens-helper on a private system bus with the real polkitd: D-Bus activation, polkit
// decisions for root, nobody and a user a rules.d file grants, the stream over the passed fd,
// hostile callers, callers that die, limits and idle exit.
#include "client/helperclient.h"
#include "core/protocol.h"
#include "core/sessionstore.h"
#include "dbusapi/helperapi.h"
#include "tests/helper/testbus.h"
#include "tests/testutil.h"

#include <QDBusArgument>
#include <QDBusConnectionInterface>
#include <QDBusPendingCallWatcher>
#include <QDBusReply>
#include <QDBusVariant>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTest>
#include <QThread>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <poll.h>
#include <sys/mount.h>
#include <unistd.h>

using namespace bpflens;
using namespace bpflens::test;
namespace api = bpflens::helperapi;

namespace {

struct StreamResult
{
    QList<StreamMessage> messages;
    QString error;
    bool ended = false;
};

// Reads the stream until its end frame (or timeoutMs), as a client does.
StreamResult readStream(int fd, int timeoutMs)
{
    StreamResult r;
    StreamReader reader;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs && !reader.atEnd() && !reader.hasError()) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) > 0 && reader.readFrom(fd) == StreamReader::ReadResult::Closed)
            break;
        while (reader.hasMessage())
            r.messages.append(reader.takeMessage());
    }
    while (reader.hasMessage())
        r.messages.append(reader.takeMessage());
    r.ended = reader.atEnd();
    r.error = reader.errorString();
    return r;
}

QDBusMessage startCall(const QList<QVariant> &args)
{
    QDBusMessage m = QDBusMessage::createMethodCall(api::ServiceName, api::ObjectPath,
                                                    api::Interface, QStringLiteral("StartSession"));
    m.setArguments(args);
    return m;
}

QVariant probes(const QList<ProbeConfig> &list)
{
    return api::probesArgument(list);
}

struct Run
{
    int status = -1;
    QString out;
    QString err;
};

Run runAs(const QString &user, const QStringList &command, const QProcessEnvironment &env)
{
    QProcess p;
    p.setProcessEnvironment(env);
    QStringList args = command;
    if (!user.isEmpty()) {
        const QString group = user == QLatin1String("nobody") ? QStringLiteral("nogroup") : user;
        args = QStringList{QStringLiteral("--reuid=") + user, QStringLiteral("--regid=") + group,
                           QStringLiteral("--clear-groups")} +
               command;
        p.start(QStringLiteral("setpriv"), args);
    } else {
        p.start(args.takeFirst(), args);
    }
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

// A directory every user may write into, for unprivileged recorders' session files.
QString sharedOutputDir(const TestBus &bus)
{
    const QString d = bus.dir() + QStringLiteral("/out");
    QDir().mkpath(d);
    QFile::setPermissions(d, QFileDevice::Permissions(0x7777));
    return d;
}

// Alive and not a zombie waiting for dbus-daemon to reap it.
bool processRunning(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray s = stat.readAll();
    const qsizetype close = s.lastIndexOf(')');
    return close > 0 && s.mid(close + 2, 1) != "Z";
}

int countExecOf(const SessionData &data, const QByteArray &program)
{
    int n = 0;
    for (qsizetype i = 0; i < data.events.count(EventType::Exec); ++i)
        n += data.events.exec(i).filename == program ? 1 : 0;
    return n;
}

int countOpensOf(const SessionData &data, const QByteArray &path)
{
    int n = 0;
    for (qsizetype i = 0; i < data.events.count(EventType::Open); ++i)
        n += data.events.open(i).path == path ? 1 : 0;
    return n;
}

} // namespace

class TestHelper : public QObject
{
    Q_OBJECT
    TestBus m_bus;
    QDBusConnection m_root{QString()};
    std::unique_ptr<TracefsMount> m_tracefs;

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("runs dbus-daemon, polkitd and the helper, which loads BPF programs");
        api::registerTypes(); // before any connection's thread can need them
        // listTracepoints names tracefs's groups.
        m_tracefs = std::make_unique<TracefsMount>();
        QVERIFY2(m_tracefs->error().isEmpty(), qPrintable(m_tracefs->error()));
        QString error;
        QVERIFY2(m_bus.start(&error), qPrintable(error));
        m_root = m_bus.connect(QStringLiteral("root"));
        QVERIFY(m_root.isConnected());
    }

    void cleanupTestCase()
    {
        QDBusConnection::disconnectFromBus(QStringLiteral("root"));
        m_bus.stop();
        m_tracefs.reset();
    }

    void cleanup()
    {
        if (QTest::currentTestFailed())
            qWarning().noquote() << "bus, polkit and helper said:\n" << m_bus.log();
    }

    void activationAndListProbes()
    {
        // The first call starts the helper through the activation file.
        HelperClient client(m_root);
        QString why;
        QVERIFY2(client.isReachable(&why), qPrintable(why));
        QString kernel;
        QList<HelperClient::ProbeEntry> list;
        HelperClient::Error error;
        QVERIFY2(client.listProbes(&kernel, &list, &error), qPrintable(error.message));
        QVERIFY(m_bus.helperPid() > 0);
        QVERIFY(!kernel.isEmpty());
        QStringList ids;
        for (const auto &e : list)
            ids << e.info.id;
        for (const char *id : {"exec", "open", "block", "runqlat", "tcpconnect"})
            QVERIFY2(ids.contains(QLatin1String(id)), qPrintable(ids.join(QLatin1Char(' '))));
        for (const auto &e : list) {
            if (e.info.id == QLatin1String("exec")) {
                QVERIFY(e.availability.available);
                QVERIFY2(e.availability.attachPath.contains(QStringLiteral("sched_process_exec")),
                         qPrintable(e.availability.attachPath));
            }
        }
        // The version, and the introspection data of the XML in resources/.
        QDBusMessage get = QDBusMessage::createMethodCall(
            api::ServiceName, api::ObjectPath, QStringLiteral("org.freedesktop.DBus.Properties"),
            QStringLiteral("Get"));
        get << api::Interface << QStringLiteral("Version");
        const QDBusMessage version = m_root.call(get);
        QCOMPARE(version.type(), QDBusMessage::ReplyMessage);
        QCOMPARE(version.arguments().value(0).value<QDBusVariant>().variant().toUInt(),
                 api::Version);
        const QDBusMessage xml = m_root.call(QDBusMessage::createMethodCall(
            api::ServiceName, api::ObjectPath,
            QStringLiteral("org.freedesktop.DBus.Introspectable"), QStringLiteral("Introspect")));
        QVERIFY2(xml.arguments().value(0).toString().contains(
                     QStringLiteral("<arg name=\"probes\" type=\"a(sa{sv})\" direction=\"in\"/>")),
                 qPrintable(xml.arguments().value(0).toString()));
    }

    void listTracepoints()
    {
        HelperClient client(m_root);
        QStringList names;
        HelperClient::Error error;
        QVERIFY2(client.listTracepoints(&names, &error), qPrintable(error.message));
        // What tppair's completer offers: the kernel's BTF tracepoints with tracefs's groups.
        QVERIFY2(names.size() > 100, qPrintable(names.join(QLatin1Char(' '))));
        for (const char *tp : {"block:block_rq_issue", "sched:sched_switch"})
            QVERIFY2(names.contains(QLatin1String(tp)), tp);
        QStringList sorted = names;
        sorted.sort();
        QCOMPARE(names, sorted);
        // Arguments are refused with a clear error; the helper goes on serving.
        const qint64 helper = m_bus.helperPid();
        QDBusMessage m = QDBusMessage::createMethodCall(
            api::ServiceName, api::ObjectPath, api::Interface, QStringLiteral("ListTracepoints"));
        m << QString(100000, QLatin1Char('x')) << 7;
        const QDBusMessage bad = m_root.call(m, QDBus::Block, 10000);
        QCOMPARE(bad.errorName(), api::ErrorInvalidArgs);
        QVERIFY2(bad.errorMessage().contains(QStringLiteral("takes no arguments, got \"si\"")),
                 qPrintable(bad.errorMessage()));
        QCOMPARE(m_bus.helperPid(), helper);
    }

    void rootRecordsThroughTheStream()
    {
        HelperClient client(m_root);
        const QString tag = QStringLiteral("hlpr%1").arg(getpid() % 100000);
        const QString program = m_bus.dir() + QLatin1Char('/') + tag;
        QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
        QFile::setPermissions(program, QFileDevice::ExeOwner | QFileDevice::ReadOwner);
        const QString opened = m_bus.dir() + QStringLiteral("/opened-") + tag;
        QVERIFY(QFile(opened).open(QIODevice::WriteOnly));

        HelperClient::Session session;
        HelperClient::Error error;
        QVERIFY2(client.startSession(
                     {{QStringLiteral("exec"), {{QStringLiteral("comm"), tag}}, {}},
                      {QStringLiteral("open"), {{QStringLiteral("pid"), qint64(getpid())}}, {}},
                      {QStringLiteral("block"), {}, {}}},
                     &session, &error),
                 qPrintable(error.name + QLatin1Char(' ') + error.message));
        QVERIFY(session.path.startsWith(api::SessionPathPrefix));
        QVERIFY(bpfObjectsOf(m_bus.helperPid()).programs > 0);

        const int execs = 3;
        for (int i = 0; i < execs; ++i)
            QCOMPARE(QProcess::execute(program, {}), 0);
        const int opens = 5;
        for (int i = 0; i < opens; ++i) {
            QFile f(opened);
            QVERIFY(f.open(QIODevice::ReadOnly));
        }
        // Block I/O that must reach the disk: O_DIRECT writes and fsync to a file on /.
        const QString direct = QStringLiteral("/var/tmp/bpflens-helper-test-%1").arg(getpid());
        const int fd = ::open(direct.toLocal8Bit().constData(),
                              O_CREAT | O_WRONLY | O_DIRECT | O_CLOEXEC, 0600);
        QVERIFY(fd >= 0);
        void *buf = nullptr;
        QCOMPARE(posix_memalign(&buf, 4096, 65536), 0);
        memset(buf, 'x', 65536);
        for (int i = 0; i < 8; ++i)
            QCOMPARE(::pwrite(fd, buf, 65536, off_t(i) * 65536), ssize_t(65536));
        ::fsync(fd);
        ::close(fd);
        free(buf);
        ::unlink(direct.toLocal8Bit().constData());

        QTest::qWait(1200); // at least two batch frames
        QVERIFY2(client.stopSession(session.path, &error), qPrintable(error.message));
        // Stop replies once every probe is detached.
        QCOMPARE(bpfObjectsOf(m_bus.helperPid()).total(), 0);

        const StreamResult stream = readStream(session.fd, 10000);
        ::close(session.fd);
        QVERIFY2(stream.ended, qPrintable(stream.error));
        QVERIFY(stream.messages.size() >= 3);
        QCOMPARE(stream.messages.first().type, StreamFrameType::Hello);
        QCOMPARE(stream.messages.last().type, StreamFrameType::End);
        QCOMPARE(stream.messages.last().end.reason, StreamEndReason::Stopped);

        // Into a session file, as the CLI and the GUI do.
        const QString file = m_bus.dir() + QStringLiteral("/root.bpflens");
        SessionWriter writer;
        QString why;
        const SessionInfo &info = stream.messages.first().info;
        QCOMPARE(info.probes.size(), 3);
        QVERIFY(info.probes[0].attachPath.contains(QStringLiteral("sched_process_exec")));
        QVERIFY(writer.create(file, info, &why));
        for (const StreamMessage &m : stream.messages) {
            if (m.type == StreamFrameType::Batch)
                QVERIFY2(writer.writeBatch(m.batch, &why), qPrintable(why));
        }
        QVERIFY(writer.finish(stream.messages.last().end.endMonotonicNs, &why));
        SessionData data;
        QVERIFY2(SessionReader::open(file, &data, &why), qPrintable(why));
        QCOMPARE(countExecOf(data, program.toUtf8()), execs);
        QCOMPARE(countOpensOf(data, opened.toUtf8()), opens);
        QVERIFY(data.events.count(EventType::Block) > 0);
        QVERIFY(!data.stats.isEmpty());
    }

    void sessionEndedSignal()
    {
        HelperClient client(m_root);
        HelperClient::Session session;
        HelperClient::Error error;
        QVERIFY(client.startSession({{QStringLiteral("runqlat"), {}, {}}}, &session, &error));
        QVERIFY(m_root.connect(api::ServiceName, session.path, api::SessionInterface,
                               QStringLiteral("SessionEnded"), this,
                               SLOT(onSessionEnded(QString))));
        m_ended.clear();
        QVERIFY(client.stopSession(session.path, &error));
        QTRY_COMPARE(m_ended, QStringList{QStringLiteral("stopped")});
        m_root.disconnect(api::ServiceName, session.path, api::SessionInterface,
                          QStringLiteral("SessionEnded"), this, SLOT(onSessionEnded(QString)));
        ::close(session.fd);
        // The session object is gone.
        const QDBusMessage again = m_root.call(QDBusMessage::createMethodCall(
            api::ServiceName, session.path, api::SessionInterface, QStringLiteral("Stop")));
        QCOMPARE(again.errorName(), api::ErrorNoSuchSession);
    }

    void onSessionEnded(const QString &reason) { m_ended.append(reason); }

    void hostileCalls_data()
    {
        QTest::addColumn<QList<QVariant>>("args");
        QTest::addColumn<QString>("errorName");
        QTest::addColumn<QString>("message");
        auto one = [](const QString &id, const QVariantMap &options) {
            return QList<QVariant>{probes({{id, options, {}}})};
        };
        const QString mega(1024 * 1024, QLatin1Char('x'));
        QTest::newRow("no arguments")
            << QList<QVariant>{} << api::ErrorInvalidArgs << "takes a(sa{sv}), got \"\"";
        QTest::newRow("a string") << QList<QVariant>{QStringLiteral("exec")}
                                  << api::ErrorInvalidArgs << "got \"s\"";
        QTest::newRow("a string list") << QList<QVariant>{QStringList{QStringLiteral("exec")}}
                                       << api::ErrorInvalidArgs << "got \"as\"";
        QTest::newRow("a map") << QList<QVariant>{QVariantMap{{QStringLiteral("exec"), 1}}}
                               << api::ErrorInvalidArgs << "got \"a{sv}\"";
        QTest::newRow("two arguments")
            << QList<QVariant>{probes({{QStringLiteral("exec"), {}, {}}}), 5}
            << api::ErrorInvalidArgs << "got \"a(sa{sv})i\"";
        QTest::newRow("no probe") << QList<QVariant>{probes({})} << api::ErrorInvalidArgs
                                  << "no probe selected";
        QTest::newRow("unknown probe") << one(QStringLiteral("nosuch"), {}) << api::ErrorInvalidArgs
                                       << "unknown probe \"nosuch\"";
        QTest::newRow("bogus tracepoint")
            << one(QStringLiteral("tracepoint:sched/sched_nosuch"), {}) << api::ErrorInvalidArgs
            << "unknown probe \"tracepoint:sched/sched_nosuch\"";
        QTest::newRow("1 MB probe id") << one(mega, {}) << api::ErrorInvalidArgs << "unknown probe";
        QTest::newRow("1 MB option name") << one(QStringLiteral("exec"), {{mega, 1}})
                                          << api::ErrorInvalidArgs << "probe exec has no option";
        QTest::newRow("1 MB comm") << one(QStringLiteral("exec"), {{QStringLiteral("comm"), mega}})
                                   << api::ErrorInvalidArgs << "is longer than 15 bytes";
        QTest::newRow("1 MB cgroup")
            << one(QStringLiteral("exec"), {{QStringLiteral("cgroup"), mega}})
            << api::ErrorInvalidArgs << "is longer than 4096 bytes";
        QTest::newRow("pid as text")
            << one(QStringLiteral("exec"), {{QStringLiteral("pid"), QStringLiteral("one")}})
            << api::ErrorInvalidArgs << "option pid: expects a whole number";
        QTest::newRow("pid as double")
            << one(QStringLiteral("exec"), {{QStringLiteral("pid"), 1.5}}) << api::ErrorInvalidArgs
            << "option pid: expects a whole number";
        QTest::newRow("pid as list")
            << one(QStringLiteral("exec"), {{QStringLiteral("pid"), QVariantList{1, 2}}})
            << api::ErrorInvalidArgs << "option pid: expects a boolean, number or string";
        QTest::newRow("negative pid") << one(QStringLiteral("exec"), {{QStringLiteral("pid"), -5}})
                                      << api::ErrorInvalidArgs << "-5 is out of range";
        QTest::newRow("enormous pid")
            << one(QStringLiteral("exec"),
                   {{QStringLiteral("pid"), std::numeric_limits<qint64>::max()}})
            << api::ErrorInvalidArgs << "9223372036854775807 is out of range";
        QTest::newRow("uid beyond int64")
            << one(QStringLiteral("exec"),
                   {{QStringLiteral("uid"), std::numeric_limits<quint64>::max()}})
            << api::ErrorInvalidArgs << "option uid: expects a whole number";
        QTest::newRow("bool as text")
            << one(QStringLiteral("block"), {{QStringLiteral("queued"), QStringLiteral("maybe")}})
            << api::ErrorInvalidArgs << "option queued: expects true or false";
        QTest::newRow("bad choice")
            << one(QStringLiteral("block"), {{QStringLiteral("units"), QStringLiteral("years")}})
            << api::ErrorInvalidArgs << "\"years\" is not one of usecs, msecs";
        QTest::newRow("no such disk")
            << one(QStringLiteral("block"),
                   {{QStringLiteral("disk"), QStringLiteral("nosuchdisk9")}})
            << api::ErrorInvalidArgs << "no disk named \"nosuchdisk9\"";
        QTest::newRow("cgroup escape")
            << one(QStringLiteral("exec"),
                   {{QStringLiteral("cgroup"), QStringLiteral("../../../etc")}})
            << api::ErrorInvalidArgs << "is not a cgroup directory";
        QTest::newRow("twice") << QList<QVariant>{probes({{QStringLiteral("exec"), {}, {}},
                                                          {QStringLiteral("exec"), {}, {}}})}
                               << api::ErrorInvalidArgs << "probe exec is selected twice";
        QList<ProbeConfig> many;
        for (int i = 0; i < 40; ++i)
            many.append({QStringLiteral("exec"), {}, {}});
        QTest::newRow("40 probes")
            << QList<QVariant>{probes(many)} << api::ErrorInvalidArgs << "more than 32 probes";
    }

    void hostileCalls()
    {
        QFETCH(QList<QVariant>, args);
        QFETCH(QString, errorName);
        QFETCH(QString, message);
        const qint64 helper = m_bus.helperPid();
        const QDBusMessage reply = m_root.call(startCall(args), QDBus::Block, 30000);
        QCOMPARE(reply.type(), QDBusMessage::ErrorMessage);
        QCOMPARE(reply.errorName(), errorName);
        QVERIFY2(reply.errorMessage().contains(message),
                 qPrintable(reply.errorMessage().left(300)));
        QVERIFY2(reply.errorMessage().size() < 600, "error messages quote bad values shortened");
        // Nothing attached, and the same helper still serves.
        QCOMPARE(m_bus.helperPid(), helper);
        QCOMPARE(bpfObjectsOf(helper).total(), 0);
    }

    void hostileCallsOtherMembers()
    {
        auto call = [this](const QString &path, const QString &iface, const QString &member,
                           const QList<QVariant> &args = {}) {
            QDBusMessage m = QDBusMessage::createMethodCall(api::ServiceName, path, iface, member);
            m.setArguments(args);
            return m_root.call(m, QDBus::Block, 10000);
        };
        QCOMPARE(call(api::ObjectPath, api::Interface, QStringLiteral("LoadProgram")).errorName(),
                 QStringLiteral("org.freedesktop.DBus.Error.UnknownMethod"));
        QCOMPARE(
            call(api::ObjectPath, api::Interface, QStringLiteral("ListProbes"), {1}).errorName(),
            api::ErrorInvalidArgs);
        QCOMPARE(call(api::SessionPathPrefix + QStringLiteral("999999"), api::SessionInterface,
                      QStringLiteral("Stop"))
                     .errorName(),
                 api::ErrorNoSuchSession);
        QCOMPARE(call(api::SessionPathPrefix + QStringLiteral("x"), api::SessionInterface,
                      QStringLiteral("Stop"))
                     .errorName(),
                 api::ErrorNoSuchSession);
        QCOMPARE(call(QStringLiteral("/elsewhere"), api::Interface, QStringLiteral("ListProbes"))
                     .errorName(),
                 QStringLiteral("org.freedesktop.DBus.Error.UnknownObject"));
        QCOMPARE(
            call(api::ObjectPath, QStringLiteral("org.freedesktop.DBus.Properties"),
                 QStringLiteral("Set"),
                 {api::Interface, QStringLiteral("Version"), QVariant::fromValue(QDBusVariant(2u))})
                .errorName(),
            QStringLiteral("org.freedesktop.DBus.Error.PropertyReadOnly"));

        // Another caller cannot stop someone else's session.
        HelperClient client(m_root);
        HelperClient::Session session;
        HelperClient::Error error;
        QVERIFY(client.startSession({{QStringLiteral("runqlat"), {}, {}}}, &session, &error));
        {
            QDBusConnection other = m_bus.connect(QStringLiteral("other"));
            HelperClient intruder(other);
            QVERIFY(!intruder.stopSession(session.path, &error));
            QCOMPARE(error.name, api::ErrorNotAuthorized);
        }
        QDBusConnection::disconnectFromBus(QStringLiteral("other"));
        QVERIFY(client.stopSession(session.path, &error));
        ::close(session.fd);
    }

    void hundredSessionsAtOnce()
    {
        const qint64 helper = m_bus.helperPid();
        QList<QDBusPendingCall> calls;
        for (int i = 0; i < 100; ++i) {
            QDBusMessage m =
                startCall({probes({{QStringLiteral("exec"),
                                    {{QStringLiteral("comm"), QStringLiteral("nomatch")}},
                                    {}}})});
            calls.append(m_root.asyncCall(m, 60000));
        }
        QStringList sessions;
        QList<int> fds;
        int busy = 0;
        for (QDBusPendingCall &c : calls) {
            c.waitForFinished();
            const QDBusMessage r = c.reply();
            if (r.type() == QDBusMessage::ReplyMessage) {
                HelperClient::Session s;
                HelperClient::Error e;
                QVERIFY(HelperClient::takeSession(r, &s, &e));
                sessions << s.path;
                fds << s.fd;
            } else {
                QCOMPARE(r.errorName(), api::ErrorBusy);
                QVERIFY2(r.errorMessage().contains(QStringLiteral("at most 4")),
                         qPrintable(r.errorMessage()));
                ++busy;
            }
        }
        // One user may run four sessions at a time; every other call is refused, not queued.
        QCOMPARE(sessions.size(), 4);
        QCOMPARE(busy, 96);
        QCOMPARE(m_bus.helperPid(), helper);
        HelperClient client(m_root);
        for (const QString &path : std::as_const(sessions)) {
            HelperClient::Error e;
            QVERIFY2(client.stopSession(path, &e), qPrintable(e.message));
        }
        QCOMPARE(bpfObjectsOf(helper).total(), 0);
        // A slot is free as soon as Stop returns (the stream's tail may still be on its way):
        // the user can start four again at once, before reading or closing the old streams.
        QList<HelperClient::Session> again;
        for (int i = 0; i < 4; ++i) {
            HelperClient::Session s;
            HelperClient::Error e;
            QVERIFY2(client.startSession({{QStringLiteral("runqlat"), {}, {}}}, &s, &e),
                     qPrintable(QStringLiteral("session %1: %2").arg(i).arg(e.message)));
            again << s;
        }
        for (const HelperClient::Session &s : std::as_const(again)) {
            HelperClient::Error e;
            QVERIFY(client.stopSession(s.path, &e));
            ::close(s.fd);
        }
        for (int fd : std::as_const(fds))
            ::close(fd);
    }

    void killedClientIsDetachedWithinASecond()
    {
        const qint64 helper = m_bus.helperPid();
        QVERIFY(helper > 0);
        const QString file = m_bus.dir() + QStringLiteral("/killed.bpflens");
        QProcess recorder;
        recorder.setProcessEnvironment(m_bus.environment());
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       {QStringLiteral("record"), QStringLiteral("--probe"), QStringLiteral("exec"),
                        QStringLiteral("--probe"), QStringLiteral("open"),
                        QStringLiteral("--probe"), QStringLiteral("block"), QStringLiteral("-o"),
                        file});
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(file) || recorder.state() == QProcess::NotRunning,
                                 20000);
        QVERIFY2(QFile::exists(file), recorder.readAllStandardError().constData());
        const BpfObjects during = bpfObjectsOf(helper);
        QVERIFY(during.programs >= 3);
        QVERIFY(during.links >= 3);
        QTest::qWait(500);
        QElapsedTimer t;
        ::kill(pid_t(recorder.processId()), SIGKILL);
        t.start();
        recorder.waitForFinished(5000);
        bool gone = false;
        while (t.elapsed() < 5000 && !gone) {
            gone = bpfObjectsOf(helper).total() == 0;
            for (quint32 id : during.programIds)
                gone = gone && !programLoaded(id);
            if (!gone)
                QThread::msleep(5);
        }
        const qint64 ms = t.elapsed();
        qInfo("helper detached %d programs %lld ms after its client was killed",
              int(during.programIds.size()), ms);
        QVERIFY(gone);
        QVERIFY2(ms < 1000, qPrintable(QString::number(ms)));
        QCOMPARE(m_bus.helperPid(), helper);
    }

    void nobodyIsNotAuthorised()
    {
        const qint64 helper = m_bus.helperPid();
        const QString cli = m_bus.publicCopy(QStringLiteral(BPFLENS_CLI));
        const QString file = sharedOutputDir(m_bus) + QStringLiteral("/nobody.bpflens");
        const Run r =
            runAs(QStringLiteral("nobody"),
                  {cli, QStringLiteral("record"), QStringLiteral("--probe"), QStringLiteral("exec"),
                   QStringLiteral("--duration"), QStringLiteral("1s"), QStringLiteral("-o"), file},
                  m_bus.environment());
        QCOMPARE(r.status, 3);
        QVERIFY2(
            r.err.contains(QStringLiteral("not authorised: polkit denied io.github.bpflens.trace")),
            qPrintable(r.err));
        QVERIFY(!QFile::exists(file));
        QCOMPARE(m_bus.helperPid(), helper);
        QCOMPARE(bpfObjectsOf(helper).total(), 0);
        // Listing needs no authorisation.
        const Run listed =
            runAs(QStringLiteral("nobody"), {cli, QStringLiteral("probes")}, m_bus.environment());
        QCOMPARE(listed.status, 0);
        QVERIFY2(listed.out.contains(QStringLiteral("via tp_btf/sched_process_exec")),
                 qPrintable(listed.out + listed.err));
    }

    void grantedUserRecords()
    {
        const QString cli = m_bus.publicCopy(QStringLiteral(BPFLENS_CLI));
        const QString dir = sharedOutputDir(m_bus);
        const QString file = dir + QStringLiteral("/daemon.bpflens");
        // daemon execs a uniquely named copy of true while it records.
        const QString tag = QStringLiteral("dmn%1").arg(getpid() % 100000);
        const QString program = m_bus.publicCopy(QStringLiteral("/bin/true"));
        const QString named = dir + QLatin1Char('/') + tag;
        QVERIFY(QFile::rename(program, named));
        QProcess recorder;
        recorder.setProcessEnvironment(m_bus.environment());
        recorder.start(QStringLiteral("setpriv"),
                       {QStringLiteral("--reuid=daemon"), QStringLiteral("--regid=daemon"),
                        QStringLiteral("--clear-groups"), cli, QStringLiteral("record"),
                        QStringLiteral("--probe"), QStringLiteral("exec:comm=") + tag,
                        QStringLiteral("--duration"), QStringLiteral("3s"), QStringLiteral("-o"),
                        file});
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(file) || recorder.state() == QProcess::NotRunning,
                                 20000);
        QVERIFY2(QFile::exists(file), recorder.readAllStandardError().constData());
        for (int i = 0; i < 2; ++i)
            QCOMPARE(QProcess::execute(named, {}), 0);
        QVERIFY(recorder.waitForFinished(20000));
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QCOMPARE(recorder.exitCode(), 0);
        QVERIFY2(err.contains(QStringLiteral("Recorded ")), qPrintable(err));
        SessionData data;
        QString why;
        QVERIFY2(SessionReader::open(file, &data, &why), qPrintable(why));
        QCOMPARE(countExecOf(data, named.toUtf8()), 2);
        QVERIFY(data.info.endMonotonicNs > data.info.startMonotonicNs);
        // The file belongs to the user who recorded, not to root.
        QCOMPARE(QFileInfo(file).ownerId(), 1u);
    }

    // The uprobe probe through the helper as an unprivileged user: the user's own process
    // resolves the function and opens the binary; a binary the user may not read is refused
    // before the helper is asked; the helper refuses descriptors that prove nothing (O_PATH)
    // and offsets outside the file's code, whoever calls.
    void uprobesOnlyOnBinariesTheCallerCanRead()
    {
        const QString cli = m_bus.publicCopy(QStringLiteral(BPFLENS_CLI));
        const QString dir = sharedOutputDir(m_bus);
        const QString target = m_bus.publicCopy(QStringLiteral(BPFLENS_UPROBETARGET));
        const QString secret = dir + QStringLiteral("/secret-target");
        QFile::remove(secret);
        QVERIFY(QFile::copy(target, secret));
        QVERIFY(QFile::setPermissions(secret, QFileDevice::ReadOwner | QFileDevice::ExeOwner));

        // A binary daemon cannot read: refused with the reason, nothing asked of the helper.
        const QString refusedFile = dir + QStringLiteral("/secret.bpflens");
        const Run refused = runAs(
            QStringLiteral("daemon"),
            {cli, QStringLiteral("record"), QStringLiteral("--probe"),
             QStringLiteral("uprobe:target=") + secret + QStringLiteral(":bpflens_count"),
             QStringLiteral("--duration"), QStringLiteral("1s"), QStringLiteral("-o"), refusedFile},
            m_bus.environment());
        QCOMPARE(refused.status, 2);
        QVERIFY2(refused.err.contains(QLatin1String("Permission denied")), qPrintable(refused.err));
        QVERIFY(!QFile::exists(refusedFile));

        // One daemon can read: its calls are counted per argument, exactly.
        const QString file = dir + QStringLiteral("/uprobe.bpflens");
        QProcess recorder;
        recorder.setProcessEnvironment(m_bus.environment());
        recorder.start(
            QStringLiteral("setpriv"),
            {QStringLiteral("--reuid=daemon"), QStringLiteral("--regid=daemon"),
             QStringLiteral("--clear-groups"), cli, QStringLiteral("record"),
             QStringLiteral("--probe"),
             QStringLiteral("uprobe:target=") + target + QStringLiteral(":bpflens_count,key=arg1"),
             QStringLiteral("--duration"), QStringLiteral("3s"), QStringLiteral("-o"), file});
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(file) || recorder.state() == QProcess::NotRunning,
                                 20000);
        QVERIFY2(QFile::exists(file), recorder.readAllStandardError().constData());
        QCOMPARE(QProcess::execute(target, {QStringLiteral("x:5:21"), QStringLiteral("y:6:4")}), 0);
        QVERIFY(recorder.waitForFinished(20000));
        QCOMPARE(recorder.exitCode(), 0);
        SessionData data;
        QString why;
        QVERIFY2(SessionReader::open(file, &data, &why), qPrintable(why));
        QHash<QString, double> calls;
        for (const CounterSample &c : std::as_const(data.counters))
            calls[c.name] += c.value;
        QCOMPARE(calls.value(QStringLiteral("arg1=5")), 21.0);
        QCOMPARE(calls.value(QStringLiteral("arg1=6")), 4.0);
        // The session names the file that was probed.
        QCOMPARE(data.info.probes.value(0).options.value(QStringLiteral("target")).toString(),
                 QFileInfo(target).canonicalFilePath() + QStringLiteral(":bpflens_count"));

        // Hostile descriptors and offsets, straight over D-Bus: refused by the helper's own
        // check, with the reason, and nothing loaded.
        HelperClient client(m_root);
        const QVariantMap options{{QStringLiteral("target"), target + QStringLiteral(":f")}};
        const auto startWith = [&](int fd, quint64 offset) {
            ProbeConfig p{QStringLiteral("uprobe"), options, {}};
            p.file = SharedFd::adopt(fd);
            p.fileOffset = offset;
            HelperClient::Session session;
            HelperClient::Error error;
            const bool ok = client.startSession({p}, &session, &error);
            if (ok) {
                client.stopSession(session.path, &error);
                ::close(session.fd);
            }
            return ok ? QStringLiteral("started") : error.name + QLatin1Char(' ') + error.message;
        };
        const QByteArray path = secret.toLocal8Bit();
        QString answer = startWith(::open(path.constData(), O_PATH | O_CLOEXEC), 0x1000);
        QVERIFY2(answer.startsWith(api::ErrorInvalidArgs) &&
                     answer.contains(QLatin1String("O_PATH")),
                 qPrintable(answer));
        answer = startWith(::open(path.constData(), O_RDONLY | O_CLOEXEC), 0);
        QVERIFY2(answer.startsWith(api::ErrorInvalidArgs) &&
                     answer.contains(QLatin1String("not in an executable segment")),
                 qPrintable(answer));
        answer = startWith(::open("/etc/hostname", O_RDONLY | O_CLOEXEC), 0);
        QVERIFY2(answer.contains(QLatin1String("not an ELF file")), qPrintable(answer));
        answer = startWith(-1, 0);
        QVERIFY2(answer.startsWith(api::ErrorInvalidArgs) &&
                     answer.contains(QLatin1String("needs the file")),
                 qPrintable(answer));
        QCOMPARE(bpfObjectsOf(m_bus.helperPid()).total(), 0);
    }

    void exitsWhenIdleButNotWhileRecording()
    {
        // A bus of its own: a short idle timeout, and no rule for daemon.
        TestBus bus;
        QString error;
        TestBus::Options options;
        options.helperIdleTimeout = QStringLiteral("1.5");
        options.grantDaemon = false;
        QVERIFY2(bus.start(options, &error), qPrintable(error));
        {
            QDBusConnection c = bus.connect(QStringLiteral("idle"));
            HelperClient client(c);
            HelperClient::Session s;
            HelperClient::Error e;
            QVERIFY2(client.startSession({{QStringLiteral("runqlat"), {}, {}}}, &s, &e),
                     qPrintable(e.message));
            const qint64 pid = bus.helperPid();
            QVERIFY(pid > 0);
            QTest::qWait(3000);
            QCOMPARE(bus.helperPid(), pid); // a running session keeps it alive
            QVERIFY(client.stopSession(s.path, &e));
            ::close(s.fd);
            QElapsedTimer t;
            t.start();
            QVERIFY(bus.waitForHelperGone(6000));
            qInfo("helper exited %lld ms after its last session", t.elapsed());
            QVERIFY(t.elapsed() >= 1000);
            QTRY_VERIFY_WITH_TIMEOUT(!processRunning(pid), 3000);
            // The next call activates it again.
            QString kernel;
            QList<HelperClient::ProbeEntry> list;
            QVERIFY(client.listProbes(&kernel, &list, &e));
            QVERIFY(bus.helperPid() > 0);
        }
        QDBusConnection::disconnectFromBus(QStringLiteral("idle"));
    }

private:
    QStringList m_ended;
};

QTEST_GUILESS_MAIN(TestHelper)

#include "tst_helper.moc"
