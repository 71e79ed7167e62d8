// The tcpconnect probe on the real kernel: connects from this process to loopback listeners
// it owns, with their exact ports, addresses and results.
#include "engine.h"
#include "nettestutil.h"
#include "testutil.h"

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
        Endpoint ep;
        const int listener = listenOn(family, &ep, connects);
        if (listener < 0 && family == AF_INET6)
            QSKIP("no IPv6 loopback on this machine");
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
        bool found = false;
        for (const ProbeStatus &s : engine.probes()) {
            if (s.info.id != QLatin1String("tcpconnect"))
                continue;
            found = true;
            QVERIFY2(s.availability.available, qPrintable(s.availability.reason));
            QVERIFY(!s.availability.attachPath.contains(QStringLiteral("kprobe")));
            if (engine.kernel().hasBtfTracepoint(QStringLiteral("inet_sock_set_state")))
                QCOMPARE(s.availability.attachPath,
                         QStringLiteral("tp_btf/inet_sock_set_state, tp_btf/tcp_receive_reset, "
                                        "tp_btf/tcp_retransmit_skb"));
            QVERIFY(startProbe(engine, {}));
            // What attached is what was announced.
            QCOMPARE(m_attachPath, s.availability.attachPath);
            engine.stop();
        }
        QVERIFY(found);
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
