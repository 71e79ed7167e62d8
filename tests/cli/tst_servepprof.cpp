// serve's pull endpoint for continuous profilers (root: records the profile, offcpu and memleak
// probes in the serve process): `go tool pprof -raw http://127.0.0.1:PORT/debug/pprof/profile?
// seconds=2` as a user types it finds callchain_fp's functions; the off-CPU path finds
// sleepchain's; the heap path leaker's blocks, to the byte; the
// answer carries the headers Go's net/http/pprof sends; unit= keeps one slice's samples; bad
// seconds, pids, containers and units answer 400 with the reason, a fifth profile at once 429.
#include "core/cgroups.h"
#include "tests/gopprof.h"
#include "tests/helper/testbus.h"
#include "tests/testutil.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace bpflens::test;

namespace {

struct Reply
{
    QByteArray status; // "HTTP/1.1 200 OK"
    QByteArray headers;
    QByteArray body;
};

// One request over a connection of its own, as serve answers one per connection.
Reply get(quint16 port, const QByteArray &target, int timeoutMs = 30000)
{
    Reply r;
    QTcpSocket s;
    s.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!s.waitForConnected(5000))
        return r;
    s.write("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    QByteArray all;
    QElapsedTimer t;
    t.start();
    while (s.state() == QAbstractSocket::ConnectedState && t.elapsed() < timeoutMs) {
        s.waitForReadyRead(100);
        all += s.readAll();
    }
    all += s.readAll();
    const qsizetype end = all.indexOf("\r\n\r\n");
    if (end < 0)
        return r;
    const QByteArray head = all.left(end);
    r.status = head.left(head.indexOf("\r\n"));
    r.headers = head.mid(head.indexOf("\r\n") + 2);
    r.body = all.mid(end + 4);
    return r;
}

// `bpflens-cli serve --direct` (root: the probes in its own process) on a port of its own,
// stopped by SIGINT when it goes out of scope.
class DirectServe
{
public:
    DirectServe()
    {
        m_process.start(QStringLiteral(BPFLENS_CLI),
                        {QStringLiteral("serve"), QStringLiteral("--direct"),
                         QStringLiteral("--probe"), QStringLiteral("runqlat"),
                         QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")});
        static const QRegularExpression serving(QStringLiteral("Serving http://127.0.0.1:(\\d+)/"));
        QRegularExpressionMatch m;
        for (int i = 0; i < 600 && !m.hasMatch() && m_process.state() != QProcess::NotRunning;
             ++i) {
            m_process.waitForReadyRead(100);
            m_said += m_process.readAllStandardError();
            m = serving.match(QString::fromUtf8(m_said));
        }
        if (m.hasMatch())
            m_port = quint16(m.captured(1).toUInt());
    }
    ~DirectServe()
    {
        if (m_process.state() != QProcess::NotRunning) {
            ::kill(pid_t(m_process.processId()), SIGINT);
            m_process.waitForFinished(30000);
        }
    }
    // 0 when it did not say where it serves (said() tells why).
    quint16 port() const { return m_port; }
    QByteArray said() const { return m_said; }
    QProcess &process() { return m_process; }

private:
    QProcess m_process;
    QByteArray m_said;
    quint16 m_port = 0;
};

} // namespace

class TestServePprof : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pprofEndpoint();
    void heapEndpoint();
    void throughTheHelper();
};

void TestServePprof::pprofEndpoint()
{
    BPFLENS_REQUIRE_ROOT("serve records the profile and offcpu probes in-process");
    if (goTool().isEmpty()) {
        if (qEnvironmentVariableIsSet("CI"))
            QFAIL("go is missing (Debian package golang-go; see .ci/deps --tests)");
        QSKIP("go tool pprof is not installed (Debian package golang-go)");
    }
    QTemporaryDir dir;
    DirectServe serve;
    const quint16 port = serve.port();
    QVERIFY2(port, serve.said().constData());
    const QString base = QStringLiteral("http://127.0.0.1:%1").arg(port);

    // What a user types, while callchain_fp spins: for longer than both profiles below take
    // (go tool pprof's start and its fetch can take seconds on a loaded machine), then killed.
    QProcess spinner;
    spinner.start(QStringLiteral(BPFLENS_TEST_PROGRAMS) + QStringLiteral("/callchain_fp"),
                  {QStringLiteral("60")});
    QVERIFY(spinner.waitForStarted());
    const PprofRun raw =
        goPprof({QStringLiteral("-raw"), base + QStringLiteral("/debug/pprof/profile?seconds=2")},
                dir.path());
    QVERIFY2(raw.status == 0, qPrintable(raw.said()));
    for (const char *expected :
         {"samples/count cpu/nanoseconds", "PeriodType: cpu nanoseconds", "Period: 10101010",
          "leaf_spin", "chain_a", "comm:[callchain_fp]", "/callchain_fp "}) {
        QVERIFY2(raw.out.contains(expected),
                 qPrintable(QString::fromUtf8(expected) + QLatin1Char('\n') +
                            QString::fromUtf8(raw.out.left(3000))));
    }
    // -top with pid= names only that process.
    const PprofRun top = goPprof(
        {QStringLiteral("-top"),
         base + QStringLiteral("/debug/pprof/profile?seconds=1&pid=%1").arg(spinner.processId())},
        dir.path());
    QVERIFY2(top.status == 0, qPrintable(top.said()));
    const QHash<QString, TopRow> rows = parseTop(top.out);
    QVERIFY2(rows.value(QStringLiteral("chain_a")).cumPercent > 80, top.out.constData());
    QVERIFY2(top.out.contains("bpflens-cli serve, 1 s, pid "), top.out.constData());
    spinner.kill();
    spinner.waitForFinished();

    // unit= keeps one unit's samples: callchain_fp in a slice of the test's own under the cgroup
    // v2 mount (found, not assumed), inlinechain spinning beside it outside the slice.
    QString why;
    const QString mount = bpflens::cgroup2Mount(&why);
    QVERIFY2(!mount.isEmpty(), qPrintable(why));
    const QString slice = QStringLiteral("bpflens-pprof-%1.slice").arg(getpid());
    const QByteArray sliceDir = QFile::encodeName(mount + QLatin1Char('/') + slice);
    QVERIFY2(::mkdir(sliceDir.constData(), 0755) == 0, strerror(errno));
    QProcess outside;
    outside.start(QStringLiteral(BPFLENS_TEST_PROGRAMS) + QStringLiteral("/inlinechain"),
                  {QStringLiteral("4")});
    QVERIFY(outside.waitForStarted());
    spinner.start(QStringLiteral(BPFLENS_TEST_PROGRAMS) + QStringLiteral("/callchain_fp"),
                  {QStringLiteral("4")});
    QVERIFY(spinner.waitForStarted());
    const auto removeSlice = qScopeGuard([&] {
        spinner.kill();
        spinner.waitForFinished();
        outside.kill();
        outside.waitForFinished();
        ::rmdir(sliceDir.constData());
    });
    {
        QFile procs(QFile::decodeName(sliceDir) + QStringLiteral("/cgroup.procs"));
        QVERIFY(procs.open(QIODevice::WriteOnly));
        QVERIFY(procs.write(QByteArray::number(spinner.processId())) > 0);
    }
    const PprofRun inUnit =
        goPprof({QStringLiteral("-top"),
                 base + QStringLiteral("/debug/pprof/profile?seconds=2&unit=%1").arg(slice)},
                dir.path());
    QVERIFY2(inUnit.status == 0, qPrintable(inUnit.said()));
    const QHash<QString, TopRow> unitRows = parseTop(inUnit.out);
    QVERIFY2(unitRows.value(QStringLiteral("chain_a")).cumPercent > 80, inUnit.out.constData());
    QVERIFY2(!inUnit.out.contains("inline_"), inUnit.out.constData());
    QVERIFY2(inUnit.out.contains("unit " + slice.toUtf8()), inUnit.out.constData());

    // The headers of Go's handler.
    const Reply ok = get(port, "/debug/pprof/profile?seconds=1");
    QCOMPARE(ok.status, QByteArray("HTTP/1.1 200 OK"));
    for (const char *header : {"Content-Type: application/octet-stream\r\n",
                               "Content-Disposition: attachment; filename=\"profile\"\r\n",
                               "X-Content-Type-Options: nosniff\r\n"})
        QVERIFY2((ok.headers + "\r\n").contains(header), ok.headers.constData());
    QCOMPARE(ok.body.left(2), QByteArray("\x1f\x8b"));

    // Bad parameters: 400 with the reason.
    const QList<std::pair<QByteArray, QByteArray>> bad{
        {"seconds=0", "seconds=0: expected a whole number of seconds from 1 to 300"},
        {"seconds=1000000000",
         "seconds=1000000000: expected a whole number of seconds from 1 to 300"},
        {"seconds=soon", "seconds=soon: expected a whole number of seconds from 1 to 300"},
        {"seconds=2&pid=me", "pid=me: expected a process id"},
        {"seconds=2&container=nginx",
         "container=nginx: not a container id (hex digits, or a pod UID)"},
        {"seconds=2&container=", "container=: expected a container id"},
        {"seconds=2&unit=a%20b.service",
         "unit=a b.service: not a systemd unit name (letters, digits and :-_.\\@, up to 256 "
         "characters)"},
        {"secs=2", "unknown parameter secs: this endpoint takes seconds, pid, container and "
                   "unit"}};
    for (const auto &[query, reason] : bad) {
        const Reply r = get(port, "/debug/pprof/profile?" + query);
        QVERIFY2(r.status == "HTTP/1.1 400 Bad Request", query.constData());
        QCOMPARE(r.body, reason + '\n');
    }

    // Five at once: four are recorded, the fifth is told to come back.
    QList<QTcpSocket *> sockets;
    for (int i = 0; i < 5; ++i) {
        auto *s = new QTcpSocket(this);
        s->connectToHost(QStringLiteral("127.0.0.1"), port);
        QVERIFY(s->waitForConnected(5000));
        s->write("GET /debug/pprof/profile?seconds=2 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        s->flush();
        sockets << s;
        QTest::qWait(50); // in order: the fifth comes last
    }
    QMap<QByteArray, int> statuses;
    for (QTcpSocket *s : std::as_const(sockets)) {
        QByteArray all;
        QElapsedTimer t;
        t.start();
        while (s->state() == QAbstractSocket::ConnectedState && t.elapsed() < 30000) {
            s->waitForReadyRead(100);
            all += s->readAll();
        }
        all += s->readAll();
        ++statuses[all.left(all.indexOf("\r\n"))];
        delete s;
    }
    QCOMPARE(statuses.value("HTTP/1.1 200 OK"), 4);
    QCOMPARE(statuses.value("HTTP/1.1 429 Too Many Requests"), 1);

    // Off-CPU: sleepchain's waits.
    QProcess sleeper;
    sleeper.start(QStringLiteral(BPFLENS_SLEEPCHAIN), {QStringLiteral("60"), QStringLiteral("50")});
    QVERIFY(sleeper.waitForStarted());
    const PprofRun off = goPprof(
        {QStringLiteral("-top"),
         base + QStringLiteral("/debug/pprof/offcpu?seconds=2&pid=%1").arg(sleeper.processId())},
        dir.path());
    QVERIFY2(off.status == 0, qPrintable(off.said()));
    QVERIFY2(off.out.contains("Type: off_cpu\n"), off.out.constData());
    QVERIFY2(parseTop(off.out).value(QStringLiteral("sleep_a")).cumPercent > 80,
             off.out.constData());
    sleeper.kill();
    sleeper.waitForFinished();

    ::kill(pid_t(serve.process().processId()), SIGINT);
    QVERIFY(serve.process().waitForFinished(30000));
    QCOMPARE(serve.process().exitCode(), 0);
}

// GET /debug/pprof/heap?seconds=N&pid=P: the leaker's allocations made during the request,
// as go tool pprof reads a Go heap profile. Exact: each of leaker's rounds keeps 20 blocks of
// 4000 bytes under bpflens_leak and frees its 50 of bpflens_churn at once.
void TestServePprof::heapEndpoint()
{
    BPFLENS_REQUIRE_ROOT("serve records the memleak probe in-process");
    if (goTool().isEmpty()) {
        if (qEnvironmentVariableIsSet("CI"))
            QFAIL("go is missing (Debian package golang-go; see .ci/deps --tests)");
        QSKIP("go tool pprof is not installed (Debian package golang-go)");
    }
    constexpr quint64 Leaks = 20, LeakSize = 4000;
    constexpr int Churns = 50, Rounds = 3;
    QTemporaryDir dir;
    DirectServe serve;
    const quint16 port = serve.port();
    QVERIFY2(port, serve.said().constData());

    QProcess leaker;
    leaker.start(QStringLiteral(BPFLENS_LEAKER), {QString::number(Churns)});
    QVERIFY2(leaker.waitForReadyRead(10000) && leaker.read(1) == "r",
             qPrintable(leaker.errorString()));
    const auto stopLeaker = qScopeGuard([&] {
        leaker.kill();
        leaker.waitForFinished();
    });
    // The request runs for its 6 seconds on a thread of its own; the rounds are made well
    // after the probe attached (a few hundred ms, more under a sanitizer) and well before the
    // recording ends, so each is whole in the profile.
    Reply reply;
    std::thread request([&] {
        reply =
            get(port, "/debug/pprof/heap?seconds=6&pid=" + QByteArray::number(leaker.processId()));
    });
    auto joinRequest = qScopeGuard([&] { request.join(); });
    QTest::qWait(2500);
    for (int i = 0; i < Rounds; ++i) {
        QVERIFY(leaker.write("g") == 1 && leaker.waitForReadyRead(10000) && leaker.read(1) == "d");
        QTest::qWait(100);
    }
    request.join();
    joinRequest.dismiss();
    QCOMPARE(reply.status, QByteArray("HTTP/1.1 200 OK"));
    QCOMPARE(reply.body.left(2), QByteArray("\x1f\x8b"));
    const QString heap = dir.filePath(QStringLiteral("heap.pb.gz"));
    {
        QFile f(heap);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(reply.body) == reply.body.size());
    }
    const PprofRun raw = goPprof({QStringLiteral("-raw"), heap}, dir.path());
    QVERIFY2(raw.status == 0, qPrintable(raw.said()));
    QVERIFY2(raw.out.contains("alloc_objects/count alloc_space/bytes inuse_objects/count "
                              "inuse_space/bytes[dflt]"),
             raw.out.left(3000).constData());
    QVERIFY2(raw.out.contains("bpflens-cli serve, 6 s, pid "), raw.out.left(3000).constData());
    QByteArray shown;
    const auto top = [&](const QStringList &args) {
        const PprofRun r =
            goPprof(QStringList{QStringLiteral("-top")} + args + QStringList{heap}, dir.path());
        shown = r.out + r.err;
        return r.status == 0 ? parseTop(r.out) : QHash<QString, TopRow>{};
    };
    const QHash<QString, TopRow> inuse =
        top({QStringLiteral("-unit=B"), QStringLiteral("-sample_index=inuse_space")});
    QVERIFY2(inuse.value(QStringLiteral("bpflens_leak")).flat ==
                 QString::number(Rounds * Leaks * LeakSize) + QLatin1Char('B'),
             shown.constData());
    QVERIFY(!inuse.contains(QStringLiteral("bpflens_churn")) ||
            inuse.value(QStringLiteral("bpflens_churn")).flat == QLatin1String("0"));
    const QHash<QString, TopRow> allocated = top({QStringLiteral("-sample_index=alloc_objects")});
    QCOMPARE(allocated.value(QStringLiteral("bpflens_churn")).flat,
             QString::number(Rounds * Churns));

    // Without a process it is the kernel's allocations: here 50 eventfds this test opens
    // during the request and keeps until the answer, each context one kmalloc in do_eventfd.
    Reply kernel;
    std::thread kernelRequest([&] { kernel = get(port, "/debug/pprof/heap?seconds=4", 120000); });
    QTest::qWait(2500); // after the probe attached, before the recording ends
    QList<int> eventfds;
    for (int i = 0; i < 50; ++i)
        eventfds.append(eventfd(0, EFD_CLOEXEC));
    kernelRequest.join();
    for (const int fd : std::as_const(eventfds))
        ::close(fd);
    QCOMPARE(kernel.status, QByteArray("HTTP/1.1 200 OK"));
    {
        QFile f(heap);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
                f.write(kernel.body) == kernel.body.size());
    }
    const PprofRun kernelRaw = goPprof({QStringLiteral("-raw"), heap}, dir.path());
    QVERIFY2(kernelRaw.status == 0, qPrintable(kernelRaw.said()));
    QVERIFY2(kernelRaw.out.contains("bpflens-cli serve, 4 s, the kernel's allocations") &&
                 kernelRaw.out.contains("[kernel.kallsyms]") &&
                 kernelRaw.out.contains("do_eventfd"),
             kernelRaw.out.left(3000).constData());
    const Reply gone = get(port, "/debug/pprof/heap?seconds=1&pid=999999999");
    QCOMPARE(gone.status, QByteArray("HTTP/1.1 500 Internal Server Error"));
    QVERIFY2(gone.body.startsWith("could not record the profile: ") &&
                 gone.body.contains("999999999"),
             gone.body.constData());
}

// Not root: serve records the profile through the helper (as daemon, whom the test bus's polkit
// rule lets trace), one helper session per request.
void TestServePprof::throughTheHelper()
{
    BPFLENS_REQUIRE_ROOT("the helper loads BPF programs");
    if (goTool().isEmpty())
        QSKIP("go tool pprof is not installed (Debian package golang-go)");
    bpflens::test::TestBus bus;
    QString error;
    QVERIFY2(bus.start(&error), qPrintable(error));
    const QString cli = bus.publicCopy(QStringLiteral(BPFLENS_CLI));
    QVERIFY(!cli.isEmpty());
    QProcess serve;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"), bus.address());
    serve.setProcessEnvironment(env);
    serve.start(QStringLiteral("setpriv"),
                {QStringLiteral("--reuid=daemon"), QStringLiteral("--regid=daemon"),
                 QStringLiteral("--clear-groups"), cli, QStringLiteral("serve"),
                 QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                 QStringLiteral("--probe"), QStringLiteral("runqlat")});
    QByteArray said;
    static const QRegularExpression serving(QStringLiteral("Serving http://127.0.0.1:(\\d+)/"));
    QRegularExpressionMatch m;
    for (int i = 0; i < 600 && !m.hasMatch() && serve.state() != QProcess::NotRunning; ++i) {
        serve.waitForReadyRead(100);
        said += serve.readAllStandardError();
        m = serving.match(QString::fromUtf8(said));
    }
    QVERIFY2(m.hasMatch(), qPrintable(QString::fromUtf8(said) + bus.log()));
    QTemporaryDir dir;
    QProcess spinner;
    spinner.start(QStringLiteral(BPFLENS_TEST_PROGRAMS) + QStringLiteral("/callchain_fp"),
                  {QStringLiteral("4")});
    QVERIFY(spinner.waitForStarted());
    const PprofRun raw = goPprof(
        {QStringLiteral("-raw"),
         QStringLiteral("http://127.0.0.1:%1/debug/pprof/profile?seconds=2").arg(m.captured(1))},
        dir.path());
    QVERIFY2(raw.status == 0, qPrintable(raw.said() + bus.log()));
    QVERIFY2(raw.out.contains("leaf_spin") && raw.out.contains("comm:[callchain_fp]"),
             raw.out.left(3000).constData());
    spinner.waitForFinished(30000);
    serve.terminate();
    QVERIFY(serve.waitForFinished(20000));
    QCOMPARE(serve.exitCode(), 0);
    QCOMPARE(bus.helperExitProblems(), QString());
}

QTEST_MAIN(TestServePprof)
#include "tst_servepprof.moc"
