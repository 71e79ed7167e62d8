// The tcpaccept probe on the real kernel: this process accepts connections it made itself on
// loopback listeners, through accept4() and the old accept(), with a known number queued at
// each accept, so every field of every event is known exactly.
#include "helper/engine.h"
#include "tests/engine/nettestutil.h"
#include "tests/testutil.h"

#include <QTest>

#include <cerrno>
#include <fcntl.h>
#include <memory>
#include <netinet/tcp.h>
#include <sys/syscall.h>
#include <sys/un.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr int Queued = 5;
constexpr int Backlog = 16;

// The listen queue's length as TCP_INFO gives it for a listening socket (tcpi_unacked).
int queued(int listener)
{
    tcp_info info{};
    socklen_t len = sizeof(info);
    if (getsockopt(listener, IPPROTO_TCP, TCP_INFO, &info, &len) != 0)
        return -1;
    return int(info.tcpi_unacked);
}

quint16 localPort(int fd)
{
    sockaddr_storage a{};
    socklen_t len = sizeof(a);
    getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
    return ntohs(a.ss_family == AF_INET ? reinterpret_cast<sockaddr_in *>(&a)->sin_port
                                        : reinterpret_cast<sockaddr_in6 *>(&a)->sin6_port);
}

// The system calls themselves: which one libc's accept() makes is libc's business.
int acceptCall(int listener, bool four)
{
#if defined(SYS_accept)
    if (!four)
        return int(syscall(SYS_accept, listener, nullptr, nullptr));
#endif
    return int(syscall(SYS_accept4, listener, nullptr, nullptr, SOCK_CLOEXEC));
}

struct Recorded
{
    QList<TcpAcceptEvent> events;
    quint64 lost = 0;
    bool ok = false;
};

// Runs work under the probe filtered to this process, and collects until count events arrived
// (or 5 s passed) and the engine stopped.
template<typename Work>
Recorded record(int count, Work &&work)
{
    Recorded r;
    Engine engine;
    QList<ProbeConfig> req{
        {QStringLiteral("tcpaccept"), {{QStringLiteral("pid"), qint64(getpid())}}, {}}};
    QString error;
    if (!engine.start(req, &error)) {
        qWarning("start: %s", qPrintable(error));
        return r;
    }
    if (!work())
        return r;
    auto take = [&](const RecordBatch &b) {
        r.events += b.events<TcpAcceptEvent>();
        for (const ProbeStats &s : b.stats)
            r.lost = s.eventsLost;
    };
    const quint64 deadline = Engine::monotonicNowNs() + 5000000000ull;
    while (r.events.size() < count && Engine::monotonicNowNs() < deadline) {
        RecordBatch b;
        engine.poll(50, b);
        take(b);
    }
    RecordBatch last;
    engine.stop(&last);
    take(last);
    r.ok = true;
    return r;
}

} // namespace

class TestTcpAccept : public QObject
{
    Q_OBJECT

    void checkFamily(int family)
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        // IPv6 switched off for lo (a sysctl) is the machine's set-up, not the kernel's: the
        // test switches it on for itself; only a kernel without IPv6 skips.
        const test::Ipv6Loopback v6(family);
        if (!v6.error().isEmpty())
            QSKIP(qPrintable(v6.error()));

        Endpoint ep;
        const int listener = listenOn(family, &ep, Backlog);
        QVERIFY(listener >= 0);
        QList<int> clients;
        QList<quint16> clientPorts;
        QList<int> accepted;
        bool queuedAll = false;
        const Recorded r = record(2 * Queued, [&] {
            // Queued connections first, then each accept takes one: Queued - 1 ... 0 remain.
            // Twice, through accept4 and through accept.
            for (bool four : {true, false}) {
                for (int i = 0; i < Queued; ++i) {
                    const int c = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
                    if (c < 0 ||
                        ::connect(c, reinterpret_cast<const sockaddr *>(&ep.addr), ep.len) != 0)
                        return false;
                    clients << c;
                    clientPorts << localPort(c);
                }
                // The handshake's last ACK may still be on its way to the listener.
                for (int spin = 0; spin < 500 && queued(listener) < Queued; ++spin)
                    usleep(1000);
                queuedAll = queued(listener) == Queued;
                for (int i = 0; i < Queued; ++i)
                    accepted << acceptCall(listener, four);
            }
            return true;
        });
        QVERIFY(r.ok);
        QVERIFY(queuedAll);
        for (int fd : std::as_const(accepted))
            QVERIFY2(fd >= 0, "an accept failed");
        QCOMPARE(r.lost, quint64(0));
        QCOMPARE(r.events.size(), 2 * Queued);
        const auto addr = addressBytes(family);
        for (int i = 0; i < r.events.size(); ++i) {
            const TcpAcceptEvent &e = r.events[i];
            QCOMPARE(e.pid, quint32(getpid()));
            QCOMPARE(e.tid, quint32(gettid()));
            QCOMPARE(e.uid, quint32(getuid()));
            QCOMPARE(e.comm, ownComm());
            QCOMPARE(int(e.family), family == AF_INET ? 4 : 6);
            QCOMPARE(e.laddr, addr);
            QCOMPARE(e.raddr, addr);
            QCOMPARE(e.lport, ep.port());
            // accepted in the order the handshakes completed: the clients' order
            QCOMPARE(e.rport, clientPorts[i]);
            QCOMPARE(e.backlog, quint32(Queued - 1 - i % Queued));
            QCOMPARE(e.backlogMax, quint32(Backlog));
            if (i)
                QVERIFY(e.timeNs > r.events[i - 1].timeNs);
        }
        for (int fd : std::as_const(accepted))
            close(fd);
        for (int fd : std::as_const(clients))
            close(fd);
        close(listener);
    }

    // The probe attaches to the syscalls' tracepoints through tracefs (tp/syscalls/...), which
    // systemd mounts at boot; a CI machine had none mounted.
    std::unique_ptr<TracefsMount> m_tracefs;

private Q_SLOTS:
    void initTestCase()
    {
        if (geteuid() != 0)
            return;
        m_tracefs = std::make_unique<TracefsMount>();
        QVERIFY2(m_tracefs->error().isEmpty(), qPrintable(m_tracefs->error()));
    }

    void cleanupTestCase() { m_tracefs.reset(); }

    void ipv4() { checkFamily(AF_INET); }
    void ipv6() { checkFamily(AF_INET6); }

    // Accepts that give no TCP connection give no event: an empty queue (EAGAIN), a descriptor
    // that is not a socket (ENOTSOCK), and a Unix socket's accept.
    void noConnectionNoEvent()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        Endpoint ep;
        const int listener = listenOn(AF_INET, &ep, Backlog);
        QVERIFY(listener >= 0);
        QVERIFY(fcntl(listener, F_SETFL, O_NONBLOCK) == 0);
        const int unix = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un un{};
        un.sun_family = AF_UNIX;
        // abstract: nothing on disk
        const QByteArray name = QByteArray("bpflens-tcpaccept-") + QByteArray::number(getpid());
        memcpy(un.sun_path + 1, name.constData(), size_t(name.size()));
        const socklen_t unLen = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + name.size());
        QVERIFY(bind(unix, reinterpret_cast<sockaddr *>(&un), unLen) == 0 && listen(unix, 4) == 0);
        int errors[2] = {};
        int unixAccepted = -1;
        const Recorded r = record(1, [&] {
            errors[0] = acceptCall(listener, true) < 0 ? errno : 0;
            errors[1] = acceptCall(STDIN_FILENO, true) < 0 ? errno : 0;
            const int c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (::connect(c, reinterpret_cast<sockaddr *>(&un), unLen) != 0)
                return false;
            unixAccepted = acceptCall(unix, true);
            close(c);
            // and one TCP accept, so the recording is known to have run
            const int t = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (::connect(t, reinterpret_cast<const sockaddr *>(&ep.addr), ep.len) != 0)
                return false;
            int a = -1;
            for (int spin = 0; spin < 500 && a < 0; ++spin) {
                a = acceptCall(listener, true);
                if (a < 0)
                    usleep(1000);
            }
            close(t);
            close(a);
            return a >= 0;
        });
        QVERIFY(r.ok);
        QCOMPARE(errors[0], EAGAIN);
        QCOMPARE(errors[1], ENOTSOCK);
        QVERIFY(unixAccepted >= 0);
        // Only the TCP accept: the spins' EAGAINs, the Unix socket and stdin gave nothing.
        QCOMPARE(r.events.size(), 1);
        QCOMPARE(r.events[0].lport, ep.port());
        close(unixAccepted);
        close(unix);
        close(listener);
    }
};

QTEST_GUILESS_MAIN(TestTcpAccept)
#include "tst_tcpaccept.moc"
