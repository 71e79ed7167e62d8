// The tcpretrans probe on the real kernel, in network namespaces this test makes: a veth pair
// whose peer never sees the segments sent to it (the sender's neighbour entry for the peer names
// a MAC address nobody has), so every SYN and every data segment sent there is lost, and TCP
// sends it again. Each socket's own count of its retransmits (TCP_INFO's tcpi_total_retrans)
// says how many events it must have: connects into the void (tcp_syn_retries = 1, so they end
// within seconds) retransmit their SYNs, and a connection established first and then cut
// retransmits its data (tail-loss probes, which the kernel does not count there, come on top).
#include "helper/engine.h"
#include "helper/tcpretransprobe.h"
#include "tests/engine/nettestutil.h"
#include "tests/testutil.h"

#include <QFile>
#include <QSet>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr int SynConnects = 3; // per family
const char *const BogusMac = "02:00:00:00:00:02";

bool sh(const QByteArray &command)
{
    return system(command.constData()) == 0;
}

struct ChildReport
{
    quint16 synPorts[2][SynConnects] = {}; // [family 4, 6][connect]
    int synErrors[2][SynConnects] = {};
    quint32 synRetrans[2][SynConnects] = {}; // tcpi_total_retrans
    quint16 dataPort = 0;                    // the established connection's source port
    int dataWritten = 0;
    quint32 dataRetrans = 0;
    // The namespace's own counters (/proc/net/netstat): tail-loss probes (retransmits that
    // tcpi_total_retrans leaves out) and failed retransmits (traced since 6.9, not counted).
    quint64 lossProbes = 0;
    quint64 retransFails = 0;
    char failure[200] = {};
};

void fail(ChildReport *r, const char *what)
{
    snprintf(r->failure, sizeof(r->failure), "%s (errno %d)", what, errno);
}

quint32 totalRetrans(int fd)
{
    tcp_info info{};
    socklen_t len = sizeof(info);
    getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len);
    return info.tcpi_total_retrans;
}

// A TcpExt counter of the calling thread's network namespace.
quint64 tcpExt(const QByteArray &name)
{
    QFile f(QStringLiteral("/proc/net/netstat"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (qsizetype i = 0; i + 1 < lines.size(); ++i) {
        if (!lines[i].startsWith("TcpExt:") || !lines[i + 1].startsWith("TcpExt:"))
            continue;
        const QList<QByteArray> names = lines[i].simplified().split(' ');
        const QList<QByteArray> values = lines[i + 1].simplified().split(' ');
        const qsizetype at = names.indexOf(name);
        return at > 0 && at < values.size() ? values[at].toULongLong() : 0;
    }
    return 0;
}

quint16 sourcePort(int fd)
{
    sockaddr_storage a{};
    socklen_t len = sizeof(a);
    getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
    return ntohs(a.ss_family == AF_INET ? reinterpret_cast<sockaddr_in *>(&a)->sin_port
                                        : reinterpret_cast<sockaddr_in6 *>(&a)->sin6_port);
}

sockaddr_storage address(int family, const char *text, quint16 port, socklen_t *len)
{
    sockaddr_storage a{};
    if (family == AF_INET) {
        auto *in = reinterpret_cast<sockaddr_in *>(&a);
        in->sin_family = AF_INET;
        in->sin_port = htons(port);
        inet_pton(AF_INET, text, &in->sin_addr);
        *len = sizeof(sockaddr_in);
    } else {
        auto *in6 = reinterpret_cast<sockaddr_in6 *>(&a);
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons(port);
        inet_pton(AF_INET6, text, &in6->sin6_addr);
        *len = sizeof(sockaddr_in6);
    }
    return a;
}

// In the child, in its own network namespace (A) with the peer's end of the veth pair in the
// named namespace peerNs (B, where a listener takes the established connection).
void childWork(ChildReport *r, const QByteArray &peerNs, int go)
{
    if (unshare(CLONE_NEWNET) != 0)
        return fail(r, "unshare(CLONE_NEWNET)");
    const QByteArray n = " -n " + peerNs + " ";
    if (!sh("ip link set lo up && ip link add v0 type veth peer name v1 netns " + peerNs +
            " && ip link set v0 up && ip addr add 10.77.0.1/24 dev v0"
            " && ip -6 addr add fd77::1/64 dev v0 nodad"
            " && ip" +
            n + "link set lo up && ip" + n +
            "link set v1 up"
            " && ip" +
            n +
            "addr add 10.77.0.2/24 dev v1"
            " && ip neigh add 10.77.0.9 lladdr " +
            BogusMac +
            " dev v0 nud permanent"
            " && ip -6 neigh add fd77::9 lladdr " +
            BogusMac + " dev v0 nud permanent"))
        return fail(r, "setting up the veth pair");
    QFile retries(QStringLiteral("/proc/sys/net/ipv4/tcp_syn_retries"));
    if (!retries.open(QIODevice::WriteOnly) || retries.write("1\n") != 2)
        return fail(r, "tcp_syn_retries");
    retries.close();

    // The listener in B, for the connection that is established and then cut.
    const int ns = open(("/run/netns/" + peerNs).constData(), O_RDONLY | O_CLOEXEC);
    const int self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    if (ns < 0 || self < 0 || setns(ns, CLONE_NEWNET) != 0)
        return fail(r, "entering the peer's namespace");
    const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    socklen_t len = 0;
    sockaddr_storage peer = address(AF_INET, "10.77.0.2", 7777, &len);
    if (bind(listener, reinterpret_cast<sockaddr *>(&peer), len) != 0 || listen(listener, 4) != 0)
        return fail(r, "the peer's listener");
    if (setns(self, CLONE_NEWNET) != 0)
        return fail(r, "leaving the peer's namespace");

    char byte = 0;
    if (read(go, &byte, 1) != 1)
        return fail(r, "waiting for the probe");

    // SYNs into the void: one retransmit each, then ETIMEDOUT.
    QList<pollfd> fds;
    const char *targets[2] = {"10.77.0.9", "fd77::9"};
    for (int f = 0; f < 2; ++f) {
        const int family = f ? AF_INET6 : AF_INET;
        for (int i = 0; i < SynConnects; ++i) {
            const int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            sockaddr_storage a = address(family, targets[f], 9, &len);
            if (::connect(fd, reinterpret_cast<sockaddr *>(&a), len) == 0 || errno != EINPROGRESS)
                return fail(r, "a connect into the void");
            r->synPorts[f][i] = sourcePort(fd);
            fds.append({fd, POLLOUT, 0});
        }
    }

    // Meanwhile, a connection that works, then loses its peer: data retransmits.
    const int c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (::connect(c, reinterpret_cast<sockaddr *>(&peer), len) != 0)
        return fail(r, "connecting to the peer");
    r->dataPort = sourcePort(c);
    if (!sh(QByteArray("ip neigh replace 10.77.0.2 lladdr ") + BogusMac + " dev v0 nud permanent"))
        return fail(r, "cutting the peer off");
    const char data[1000] = {};
    r->dataWritten = int(write(c, data, sizeof(data)));
    // Its retransmission timeouts come 0.2, 0.6, 1.4 and 3 s after the write: count and close
    // (at once, with a reset: no retransmits as an orphan) between two of them.
    usleep(2200000);
    r->dataRetrans = totalRetrans(c);
    const linger hard{1, 0};
    setsockopt(c, SOL_SOCKET, SO_LINGER, &hard, sizeof(hard));
    close(c);
    r->lossProbes = tcpExt("TCPLossProbes");
    r->retransFails = tcpExt("TCPRetransFail");

    // The SYNs' connects end after their one retransmit (1 s) and its wait (2 s more).
    for (int f = 0; f < 2; ++f) {
        for (int i = 0; i < SynConnects; ++i) {
            pollfd &p = fds[f * SynConnects + i];
            poll(&p, 1, 15000);
            int err = 0;
            socklen_t el = sizeof(err);
            getsockopt(p.fd, SOL_SOCKET, SO_ERROR, &err, &el);
            r->synErrors[f][i] = err;
            r->synRetrans[f][i] = totalRetrans(p.fd);
            close(p.fd);
        }
    }
    close(listener);
}

struct Recorded
{
    QList<TcpRetransEvent> events;
    QList<CounterSample> counters;
    quint64 lost = 0;
    quint64 unseen = 0; // hits the kernel ran no program for (recursion_misses), any socket's
    QString attachPath;
    pid_t pid = 0;
    ChildReport report;
    bool ok = false;
};

Recorded record()
{
    Recorded r;
    const QByteArray peerNs = "bpflens-tst-retrans-" + QByteArray::number(getpid());
    if (!sh("ip netns add " + peerNs)) {
        qWarning("cannot make the network namespace %s", peerNs.constData());
        return r;
    }
    auto *report = static_cast<ChildReport *>(mmap(
        nullptr, sizeof(ChildReport), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
    *report = {};
    int go[2];
    if (pipe2(go, O_CLOEXEC) != 0)
        return r;
    const pid_t child = fork();
    if (child == 0) {
        close(go[1]);
        childWork(report, peerNs, go[0]);
        _exit(0);
    }
    close(go[0]);
    // a child that failed its set-up has closed its end: its report says why, not a SIGPIPE
    signal(SIGPIPE, SIG_IGN);
    r.pid = child;
    Engine engine;
    QList<ProbeConfig> req{
        {QStringLiteral("tcpretrans"),
         {{QStringLiteral("pid"), qint64(child)}, {QStringLiteral("interval"), 500}},
         {}}};
    QString error;
    const bool started = engine.start(req, &error);
    if (!started)
        qWarning("start: %s", qPrintable(error));
    r.attachPath = req.first().attachPath;
    (void)!write(go[1], "g", 1);
    close(go[1]);
    auto take = [&](const RecordBatch &b) {
        r.events += b.events<TcpRetransEvent>();
        r.counters += b.counters;
        for (const ProbeStats &st : b.stats) {
            r.lost = st.eventsLost;
            r.unseen = st.eventsUnseen;
        }
    };
    int status = 0;
    while (started && waitpid(child, &status, WNOHANG) == 0) {
        RecordBatch b;
        engine.poll(50, b);
        take(b);
    }
    if (!started)
        waitpid(child, &status, 0);
    RecordBatch last;
    engine.stop(&last);
    take(last);
    r.report = *report;
    munmap(report, sizeof(ChildReport));
    sh("ip netns del " + peerNs);
    r.ok = started && WIFEXITED(status);
    return r;
}

} // namespace

class TestTcpRetrans : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void retransmits()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs and makes network namespaces");
        const Recorded r = record();
        QVERIFY(r.ok);
        QVERIFY2(!r.report.failure[0], r.report.failure);
        const bool tlpHooked = r.attachPath.contains(QLatin1String("tcp_send_loss_probe"));
        qInfo("attached: %s", qPrintable(r.attachPath));

        // Every SYN retransmit of every connect, as a SYN in SYN_SENT, by the child.
        const std::array<quint8, 16> void4 = [] {
            std::array<quint8, 16> a{};
            inet_pton(AF_INET, "10.77.0.9", a.data());
            return a;
        }();
        const std::array<quint8, 16> void6 = [] {
            std::array<quint8, 16> a{};
            inet_pton(AF_INET6, "fd77::9", a.data());
            return a;
        }();
        // Retransmits the socket counted and no event reports, over every connection.
        qsizetype missing = 0;
        qsizetype synEvents = 0;
        for (int f = 0; f < 2; ++f) {
            for (int i = 0; i < SynConnects; ++i) {
                QCOMPARE(r.report.synErrors[f][i], ETIMEDOUT);
                const quint16 port = r.report.synPorts[f][i];
                QList<TcpRetransEvent> mine;
                for (const TcpRetransEvent &e : r.events) {
                    if (e.sport == port && e.dport == 9 && e.family == (f ? 6 : 4))
                        mine << e;
                }
                QString times;
                for (const TcpRetransEvent &e : std::as_const(mine))
                    times += QStringLiteral(" %1").arg(e.timeNs / 1e9, 0, 'f', 3);
                qInfo("IPv%d connect from port %u: %u retransmits, events at%s", f ? 6 : 4, port,
                      r.report.synRetrans[f][i], qPrintable(times));
                QVERIFY(r.report.synRetrans[f][i] >= 1);
                // Never more events than the socket's own count; fewer only as the kernel's
                // skipped runs allow (below).
                QVERIFY2(quint32(mine.size()) <= r.report.synRetrans[f][i],
                         qPrintable(QStringLiteral("%1 events, %2 retransmits")
                                        .arg(mine.size())
                                        .arg(r.report.synRetrans[f][i])));
                missing += qsizetype(r.report.synRetrans[f][i]) - mine.size();
                synEvents += mine.size();
                for (const TcpRetransEvent &e : std::as_const(mine)) {
                    QCOMPARE(int(e.kind), int(TcpRetransEvent::Syn));
                    QCOMPARE(TcpRetransEvent::stateName(e.state), QStringLiteral("SYN_SENT"));
                    QCOMPARE(e.daddr, f ? void6 : void4);
                    QCOMPARE(e.pid, quint32(r.pid));
                    QCOMPARE(e.comm, ownComm());
                }
            }
        }

        // The established connection's data went again (a tail-loss probe first where one can
        // be told apart), in ESTABLISHED, to the peer.
        QCOMPARE(r.report.dataWritten, 1000);
        QList<TcpRetransEvent> data;
        for (const TcpRetransEvent &e : r.events) {
            if (e.sport == r.report.dataPort && e.dport == 7777)
                data << e;
        }
        QVERIFY2(!data.isEmpty(), "the cut connection retransmitted nothing");
        for (const TcpRetransEvent &e : std::as_const(data))
            qInfo("data retransmit at %.3f s: %s", (e.timeNs - data.first().timeNs) / 1e9,
                  qPrintable(TcpRetransEvent::kindName(e.kind)));
        qsizetype tlps = 0;
        for (const TcpRetransEvent &e : std::as_const(data)) {
            QVERIFY(e.kind == TcpRetransEvent::Retransmit ||
                    e.kind == TcpRetransEvent::TailLossProbe);
            tlps += e.kind == TcpRetransEvent::TailLossProbe;
            QCOMPARE(TcpRetransEvent::stateName(e.state), QStringLiteral("ESTABLISHED"));
            QCOMPARE(formatAddress(4, e.daddr), QByteArray("10.77.0.2"));
            QCOMPARE(e.pid, quint32(r.pid));
        }
        // The connection's own count of its retransmits, and the namespace's count of tail-loss
        // probes (only this connection could send one), which the socket's count includes from
        // some kernel on (6.18 does) and leaves out before, and of failed retransmits (traced
        // since 6.9, never counted by the socket).
        QVERIFY(r.report.dataRetrans >= 1);
        const qsizetype low = qsizetype(r.report.dataRetrans);
        const qsizetype high = low + qsizetype(r.report.lossProbes + r.report.retransFails);
        QVERIFY2(data.size() <= high,
                 qPrintable(QStringLiteral("%1 events: %2 retransmits, %3 tail-loss probes, %4 "
                                           "failed")
                                .arg(data.size())
                                .arg(r.report.dataRetrans)
                                .arg(r.report.lossProbes)
                                .arg(r.report.retransFails)));
        missing += qMax<qsizetype>(0, low - data.size());

        // Every retransmit has its event, but for hits the kernel ran no program for. It says
        // so for some (recursion_misses: unseen, whose socket's it cannot say); for others it
        // does not. Seen on 6.18 under CPU load, in about one run in 30 with three busy loops
        // beside it: ftrace recorded the tcp_retransmit_skb hit (in a softirq on top of another
        // process), the program's run_cnt did not grow, and recursion_misses stayed 0. One such
        // hit a run is allowed, and said; more fail.
        constexpr qsizetype UncountedSkips = 1;
        if (r.unseen)
            qInfo("the kernel skipped the programs %llu times (recursion misses)",
                  static_cast<unsigned long long>(r.unseen));
        if (missing)
            qInfo("%lld retransmits have no event", static_cast<long long>(missing));
        QVERIFY2(missing <= qsizetype(r.unseen) + UncountedSkips,
                 qPrintable(QStringLiteral("%1 retransmits without an event: %2 unseen, %3 lost")
                                .arg(missing)
                                .arg(r.unseen)
                                .arg(r.lost)));
        if (tlpHooked)
            QCOMPARE(quint64(tlps), r.report.lossProbes);
        else
            QCOMPARE(tlps, 0);
        QCOMPARE(r.lost, quint64(0));

        // Nothing but the child's sockets passed the pid filter.
        QCOMPARE(r.events.size(), synEvents + data.size());

        // The per-connection counters add up to the events, connection by connection.
        QHash<QString, double> counted;
        for (const CounterSample &c : r.counters) {
            QCOMPARE(c.probeId, QStringLiteral("tcpretrans"));
            counted[c.name] += c.value;
        }
        QHash<QString, double> expected;
        for (const TcpRetransEvent &e : r.events)
            expected[TcpRetransProbe::connectionCounter(e)] += 1;
        QCOMPARE(counted, expected);
    }
};

QTEST_GUILESS_MAIN(TestTcpRetrans)
#include "tst_tcpretrans.moc"
