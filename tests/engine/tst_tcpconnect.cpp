// The tcpconnect probe on the real kernel: connects from this process to loopback listeners
// it owns, with their exact ports, addresses and results.
#include "core/probecatalog.h"
#include "helper/engine.h"
#include "tests/engine/nettestutil.h"
#include "tests/testutil.h"

#include <QProcess>
#include <QSet>
#include <QTest>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr int connects = 50;

QByteArray bpfPrograms()
{
    QProcess p;
    p.start(QStringLiteral("bpftool"), {QStringLiteral("prog"), QStringLiteral("show")});
    p.waitForFinished(10000);
    return p.readAllStandardOutput();
}

// Connects count times to ep (accepting each), returns the local ports used, or the errno of
// a failed connect as a negative value in the list.
QList<int> connectMany(const Endpoint &ep, int listener, int count)
{
    QList<int> ports;
    for (int i = 0; i < count; ++i) {
        const int fd = socket(ep.family, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (connect(fd, reinterpret_cast<const sockaddr *>(&ep.addr), ep.len) != 0) {
            ports << -errno;
            close(fd);
            continue;
        }
        sockaddr_storage local{};
        socklen_t len = sizeof(local);
        getsockname(fd, reinterpret_cast<sockaddr *>(&local), &len);
        ports << ntohs(ep.family == AF_INET ? reinterpret_cast<sockaddr_in *>(&local)->sin_port
                                            : reinterpret_cast<sockaddr_in6 *>(&local)->sin6_port);
        if (listener >= 0) {
            const int a = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (a >= 0)
                close(a);
        }
        close(fd);
    }
    return ports;
}

// Records until count events of this process towards port arrived (or 5 s passed).
QList<TcpConnectEvent> collect(Engine &engine, quint16 dport, int count, RecordBatch *all)
{
    QList<TcpConnectEvent> mine;
    auto take = [&](const RecordBatch &b) {
        for (const TcpConnectEvent &e : b.tcpConnect) {
            if (e.pid == quint32(getpid()) && e.dport == dport)
                mine << e;
        }
        all->tcpConnect += b.tcpConnect;
        all->stats += b.stats;
    };
    const quint64 deadline = Engine::monotonicNowNs() + 5000000000ull;
    while (mine.size() < count && Engine::monotonicNowNs() < deadline) {
        RecordBatch b;
        engine.poll(50, b);
        take(b);
    }
    RecordBatch last;
    engine.stop(&last);
    take(last);
    return mine;
}

} // namespace

class TestTcpConnect : public QObject
{
    Q_OBJECT
private:
    bool startProbe(Engine &engine, const QVariantMap &options)
    {
        QList<ProbeConfig> req{{QStringLiteral("tcpconnect"), options, {}}};
        QString error;
        if (!engine.start(req, &error)) {
            qWarning("start: %s", qPrintable(error));
            return false;
        }
        m_attachPath = req.first().attachPath;
        return true;
    }

    void checkFamily(int family)
    {
        // IPv6 switched off for lo (a sysctl) is the machine's set-up, not the kernel's: the
        // test switches it on for itself; only a kernel without IPv6 skips.
        const test::Ipv6Loopback v6(family);
        if (!v6.error().isEmpty())
            QSKIP(qPrintable(v6.error()));

        Endpoint ep;
        const int listener = listenOn(family, &ep, connects);
        QVERIFY(listener >= 0);

        Engine engine;
        QVERIFY(startProbe(engine, {{QStringLiteral("pid"), qint64(getpid())}}));
        QVERIFY(bpfPrograms().contains("tcpconnect_"));

        // A child's connects to the same port must not pass the pid filter.
        const pid_t child = fork();
        if (child == 0) {
            connectMany(ep, -1, 5);
            _exit(0);
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        // The child's connects sit in the backlog; drain them so ours fit.
        for (int i = 0; i < 5; ++i) {
            const int a = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (a >= 0)
                close(a);
        }

        const QList<int> ports = connectMany(ep, listener, connects);
        close(listener);
        RecordBatch all;
        const QList<TcpConnectEvent> events = collect(engine, ep.port(), connects, &all);

        QTRY_VERIFY_WITH_TIMEOUT(!bpfPrograms().contains("tcpconnect_"), 5000);
        QCOMPARE(ports.size(), connects);
        for (int p : ports)
            QVERIFY2(p > 0, "a loopback connect failed");
        QCOMPARE(events.size(), connects);
        // Nothing but this process passed the filter: not the child, not anyone else.
        for (const TcpConnectEvent &e : std::as_const(all.tcpConnect))
            QCOMPARE(e.pid, quint32(getpid()));
        QSet<int> seen;
        const auto addr = addressBytes(family);
        for (const TcpConnectEvent &e : events) {
            QCOMPARE(e.ret, 0);
            QCOMPARE(int(e.family), family == AF_INET ? 4 : 6);
            QCOMPARE(e.daddr, addr);
            QCOMPARE(e.saddr, addr);
            QCOMPARE(e.dport, ep.port());
            QCOMPARE(e.uid, quint32(getuid()));
            QCOMPARE(e.comm, ownComm());
            QVERIFY(e.timeNs > engine.startMonotonicNs());
            QVERIFY(e.timeNs <= Engine::monotonicNowNs());
            seen.insert(e.sport);
        }
        // Each event carries the source port of its own connect.
        QCOMPARE(seen, QSet<int>(ports.cbegin(), ports.cend()));
        QVERIFY(!all.stats.isEmpty());
        QCOMPARE(all.stats.last().eventsLost, quint64(0));
        QVERIFY(all.stats.last().runCount > 0);
    }

    QString m_attachPath;

private Q_SLOTS:
    void availability()
    {
        BPFLENS_REQUIRE_ROOT("probes the kernel");
        Engine engine;
        const std::optional<ProbeStatus> s = engine.probe(QStringLiteral("tcpconnect"));
        QVERIFY(s);
        QVERIFY2(s->availability.available, qPrintable(s->availability.reason));
        QVERIFY(!s->availability.attachPath.contains(QStringLiteral("kprobe")));
        if (engine.kernel().hasBtfTracepoint(QStringLiteral("inet_sock_set_state")))
            QCOMPARE(s->availability.attachPath,
                     QStringLiteral("tp_btf/inet_sock_set_state, tp_btf/tcp_receive_reset, "
                                    "tp_btf/tcp_retransmit_skb"));
        QVERIFY(startProbe(engine, {}));
        // What attached is what was announced.
        QCOMPARE(m_attachPath, s->availability.attachPath);
        engine.stop();
    }

    void ipv4ConnectsFilteredByPid()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        checkFamily(AF_INET);
    }

    void ipv6ConnectsFilteredByPid()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        checkFamily(AF_INET6);
    }

    // tcpconnect -P: only the listed destination ports; and a source port list. Three
    // listeners, 4 connects to each: with ports=A,B only A's and B's are reported, and the
    // counters per destination count exactly 4 for each of them and nothing for C. Then
    // sourcePorts with two connects bound to known local ports and two not.
    void portFiltersAndCountsPerDestination()
    {
        Endpoint a, b, c;
        const int la = listenOn(AF_INET, &a, 8);
        const int lb = listenOn(AF_INET, &b, 8);
        const int lc = listenOn(AF_INET, &c, 8);
        QVERIFY(la >= 0 && lb >= 0 && lc >= 0);
        Engine engine;
        QVERIFY(startProbe(
            engine, {{QStringLiteral("pid"), qint64(getpid())},
                     {QStringLiteral("ports"), QStringLiteral("%1,%2").arg(a.port()).arg(b.port())},
                     {QStringLiteral("interval"), 100}}));
        for (int i = 0; i < 4; ++i) {
            connectMany(a, la, 1);
            connectMany(c, lc, 1);
            connectMany(b, lb, 1);
        }
        RecordBatch all;
        QHash<QString, double> counted;
        const quint64 deadline = Engine::monotonicNowNs() + 5000000000ull;
        while (all.tcpConnect.size() < 8 && Engine::monotonicNowNs() < deadline) {
            RecordBatch batch;
            engine.poll(50, batch);
            all.tcpConnect += batch.tcpConnect;
            for (const CounterSample &s : std::as_const(batch.counters))
                counted[s.name] += s.value;
        }
        RecordBatch last;
        engine.stop(&last);
        all.tcpConnect += last.tcpConnect;
        for (const CounterSample &s : std::as_const(last.counters))
            counted[s.name] += s.value;
        int toA = 0, toB = 0;
        for (const TcpConnectEvent &e : std::as_const(all.tcpConnect)) {
            QVERIFY2(e.dport == a.port() || e.dport == b.port(),
                     qPrintable(QString::number(e.dport)));
            toA += e.dport == a.port();
            toB += e.dport == b.port();
        }
        QCOMPARE(toA, 4);
        QCOMPARE(toB, 4);
        const QString nameA = QStringLiteral("127.0.0.1:%1").arg(a.port());
        const QString nameB = QStringLiteral("127.0.0.1:%1").arg(b.port());
        QCOMPARE(counted.value(nameA), 4.0);
        QCOMPARE(counted.value(nameB), 4.0);
        QVERIFY(!counted.contains(QStringLiteral("127.0.0.1:%1").arg(c.port())));
        QCOMPARE(counted.size(), 2);

        // sourcePorts: two connects from bound local ports, one listed, one not, and one
        // unbound.
        Endpoint free1, free2;
        const int f1 = listenOn(AF_INET, &free1, 1);
        const int f2 = listenOn(AF_INET, &free2, 1);
        QVERIFY(f1 >= 0 && f2 >= 0);
        close(f1);
        close(f2); // two local ports that were free a moment ago
        Engine second;
        QVERIFY(
            startProbe(second, {{QStringLiteral("pid"), qint64(getpid())},
                                {QStringLiteral("sourcePorts"), QString::number(free1.port())}}));
        auto connectFrom = [&](quint16 port) {
            const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            const int one = 1;
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
            Endpoint local = loopback(AF_INET);
            reinterpret_cast<sockaddr_in *>(&local.addr)->sin_port = htons(port);
            const bool ok =
                (!port || bind(fd, reinterpret_cast<sockaddr *>(&local.addr), local.len) == 0) &&
                ::connect(fd, reinterpret_cast<const sockaddr *>(&a.addr), a.len) == 0;
            const int acc = accept4(la, nullptr, nullptr, SOCK_CLOEXEC);
            close(acc);
            close(fd);
            return ok;
        };
        QVERIFY(connectFrom(free1.port()));
        QVERIFY(connectFrom(free2.port()));
        QVERIFY(connectFrom(0));
        RecordBatch fromPorts;
        const QList<TcpConnectEvent> mine = collect(second, a.port(), 1, &fromPorts);
        QTest::qWait(200); // (collect stopped at the first; a wrong second would be in the stop)
        QCOMPARE(fromPorts.tcpConnect.size(), 1);
        QCOMPARE(mine.size(), 1);
        QCOMPARE(mine[0].sport, free1.port());
        close(la);
        close(lb);
        close(lc);
    }

    void badPortListsAreRefused()
    {
        QVariantMap normalized;
        QString error;
        QVERIFY(ProbeCatalog::validate(QStringLiteral("tcpconnect"),
                                       {{QStringLiteral("ports"), QStringLiteral("80, 443")}},
                                       &normalized, &error));
        for (const QString &bad : {QStringLiteral("80,http"), QStringLiteral("0"),
                                   QStringLiteral("65536"), QStringLiteral("80,,443")}) {
            QVERIFY2(!ProbeCatalog::validate(QStringLiteral("tcpconnect"),
                                             {{QStringLiteral("ports"), bad}}, &normalized, &error),
                     qPrintable(bad));
            QVERIFY2(error.contains(QStringLiteral("is not a port")), qPrintable(error));
        }
        QStringList many;
        for (int i = 1; i <= 17; ++i)
            many << QString::number(1000 + i);
        QVERIFY(!ProbeCatalog::validate(
            QStringLiteral("tcpconnect"),
            {{QStringLiteral("sourcePorts"), many.join(QLatin1Char(','))}}, &normalized, &error));
        QVERIFY2(error.contains(QStringLiteral("at most 16")), qPrintable(error));
        // and the engine refuses it too, loading nothing
        Engine engine;
        QList<ProbeConfig> req{
            {QStringLiteral("tcpconnect"), {{QStringLiteral("ports"), QStringLiteral("x")}}, {}}};
        QVERIFY(!engine.start(req, &error));
        QVERIFY2(error.contains(QStringLiteral("is not a port")), qPrintable(error));
    }

    void refusedConnectReportsError()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        // A port that was just free and is not listened on: the kernel answers with a reset.
        Endpoint ep = loopback(AF_INET);
        const int probe = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        QCOMPARE(bind(probe, reinterpret_cast<sockaddr *>(&ep.addr), ep.len), 0);
        QCOMPARE(getsockname(probe, reinterpret_cast<sockaddr *>(&ep.addr), &ep.len), 0);
        close(probe);

        Engine engine;
        QVERIFY(startProbe(engine, {{QStringLiteral("pid"), qint64(getpid())}}));
        const QList<int> result = connectMany(ep, -1, 1);
        QCOMPARE(result, QList<int>{-ECONNREFUSED});
        RecordBatch all;
        const QList<TcpConnectEvent> events = collect(engine, ep.port(), 1, &all);
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.first().ret, -ECONNREFUSED);
        QCOMPARE(events.first().daddr, addressBytes(AF_INET));
        QVERIFY(events.first().sport != 0);
        QTRY_VERIFY_WITH_TIMEOUT(!bpfPrograms().contains("tcpconnect_"), 5000);
    }

    void unfilteredSeesConnects()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        Endpoint ep;
        const int listener = listenOn(AF_INET, &ep, connects);
        QVERIFY(listener >= 0);
        Engine engine;
        QVERIFY(startProbe(engine, {}));
        // A forked child's connects are seen too, under the child's pid.
        const pid_t child = fork();
        if (child == 0) {
            connectMany(ep, -1, 5);
            _exit(0);
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        for (int i = 0; i < 5; ++i) {
            const int a = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (a >= 0)
                close(a);
        }
        const QList<int> ports = connectMany(ep, listener, connects);
        close(listener);
        RecordBatch all;
        const QList<TcpConnectEvent> events = collect(engine, ep.port(), connects, &all);
        QCOMPARE(events.size(), connects);
        int fromChild = 0;
        for (const TcpConnectEvent &e : std::as_const(all.tcpConnect)) {
            if (e.pid == quint32(child) && e.dport == ep.port() && e.ret == 0)
                ++fromChild;
        }
        QCOMPARE(fromChild, 5);
        QCOMPARE(all.stats.last().eventsLost, quint64(0));
        QTRY_VERIFY_WITH_TIMEOUT(!bpfPrograms().contains("tcpconnect_"), 5000);
    }
};

QTEST_GUILESS_MAIN(TestTcpConnect)
#include "tst_tcpconnect.moc"
