// bpflens-helper as a hardened system service (issue #18), on a private system bus with the real
// polkitd (TestBus):
//  - fuzz: at least 100 000 messages from a seeded PRNG, from 4 connections at once (3 root, 1
//    nobody), written on the wire by hand (rawbus.h): every interface and member the helper has,
//    random ones, random signatures and values (nested variants, long strings, huge integers,
//    fds of every kind), call sequences (start then stop twice, stop unknown sessions, many
//    starts at once) and connections that close in the middle of calls. Afterwards the helper
//    is the same process, records correctly, holds no BPF object and no more fds than before,
//    and exits with status 0 and no sanitizer report.
//  - soak: 200 start/stop cycles from 4 concurrent clients, 20 of them SIGKILLed mid-session;
//    then no BPF object left, and the helper's fds and RSS back to where they were.
// The worker processes are this binary again (--fuzz-worker, --soak-worker, --soak-victim).
#include "client/helperclient.h"
#include "core/protocol.h"
#include "core/records.h"
#include "dbusapi/helperapi.h"
#include "tests/helper/rawbus.h"
#include "tests/helper/testbus.h"
#include "tests/testutil.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTest>
#include <QThread>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <poll.h>
#include <random>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <thread>
#include <unistd.h>

using namespace bpflens;
using namespace bpflens::test;
namespace api = bpflens::helperapi;

namespace {

const QByteArray Service = "io.github.bpflens.Helper1";
const QByteArray HelperPath = "/io/github/bpflens/Helper1";
const QByteArray HelperIface = "io.github.bpflens.Helper1";
const QByteArray SessionIface = "io.github.bpflens.Helper1.Session";
const QByteArray SessionPrefix = "/io/github/bpflens/Helper1/session/";

// ---------------------------------------------------------------------------------------------
// Random messages

class Gen
{
public:
    explicit Gen(quint64 seed)
        : m_rng(seed)
    {
    }

    quint64 next() { return m_rng(); }
    int range(int lo, int hi) { return lo + int(next() % quint64(hi - lo + 1)); }
    bool chance(double p) { return double(next() % 1000000) < p * 1000000.0; }
    template<typename T>
    const T &pick(const QList<T> &list)
    {
        return list[qsizetype(next() % quint64(list.size()))];
    }

    // A name of D-Bus member grammar.
    QByteArray memberName(int maxLen)
    {
        static const QByteArray first = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_";
        static const QByteArray rest = first + "0123456789";
        const int len = chance(0.05) ? maxLen : range(1, qMin(maxLen, 24));
        QByteArray s(1, first[qsizetype(next() % quint64(first.size()))]);
        while (s.size() < len)
            s.append(rest[qsizetype(next() % quint64(rest.size()))]);
        return s;
    }

    QByteArray interfaceName()
    {
        QByteArray s = memberName(20);
        for (int n = range(1, 4); n > 0; --n)
            s += '.' + memberName(20);
        return s.left(255);
    }

    QByteArray objectPath()
    {
        if (chance(0.1))
            return "/";
        QByteArray s;
        for (int n = range(1, chance(0.05) ? 40 : 6); n > 0; --n)
            s += '/' + memberName(16);
        return s;
    }

    // Valid UTF-8 without NUL, of lengths from 0 to a few MiB.
    QByteArray string()
    {
        static const QList<QByteArray> interesting = {"exec",
                                                      "open",
                                                      "block",
                                                      "runqlat",
                                                      "tcpconnect",
                                                      "cachestat",
                                                      "fsslower",
                                                      "iostack",
                                                      "tppair",
                                                      "comm",
                                                      "pid",
                                                      "cgroup",
                                                      "disk",
                                                      "true",
                                                      "false",
                                                      "-1",
                                                      "0",
                                                      "18446744073709551616",
                                                      "99999999999999999999999999",
                                                      "1e308",
                                                      "nan",
                                                      "/",
                                                      "..",
                                                      "../../../../etc/shadow",
                                                      "/sys/fs/cgroup/../../etc",
                                                      "/sys/fs/cgroup",
                                                      "%s%s%n%n",
                                                      "block:block_rq_issue",
                                                      "sched:sched_switch",
                                                      ":",
                                                      "a:b:c",
                                                      "io.github.bpflens.Helper1",
                                                      "Version",
                                                      "\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80",
                                                      "\x01\x02\x7f",
                                                      "  "};
        if (chance(0.3))
            return pick(interesting);
        int len = range(0, 32);
        if (chance(0.1))
            len = range(100, 5000);
        if (chance(0.005))
            len = range(65536, 1 << 20);
        static const QList<QByteArray> chars = {"a",
                                                "Z",
                                                "0",
                                                "/",
                                                ".",
                                                ":",
                                                "%",
                                                "\\",
                                                "\"",
                                                "\x01",
                                                "\x1f",
                                                "\x7f",
                                                "\xc3\xa9",
                                                "\xe4\xb8\xad",
                                                "\xf0\x9f\x98\x80",
                                                "\xef\xbf\xbd",
                                                " "};
        QByteArray s;
        s.reserve(len + 4);
        if (chance(0.5)) {
            const QByteArray c = pick(chars);
            while (s.size() < len)
                s += c;
        } else {
            while (s.size() < len)
                s += pick(chars);
        }
        return s;
    }

    // One complete type.
    QByteArray type(int depth)
    {
        static const QByteArray basic = "ybnqiuxtdsogh";
        const int r = range(0, 99);
        if (depth >= 6 || r < 55)
            return QByteArray(1, basic[qsizetype(next() % quint64(basic.size()))]);
        if (r < 70)
            return 'a' + type(depth + 1);
        if (r < 78)
            return "a{" + QByteArray(1, basic[qsizetype(next() % quint64(basic.size()))]) +
                   type(depth + 1) + '}';
        if (r < 90) {
            QByteArray s = "(";
            for (int n = range(1, 4); n > 0; --n)
                s += type(depth + 1);
            return s + ')';
        }
        return "v";
    }

    QByteArray signature(int maxArgs)
    {
        for (;;) {
            QByteArray s;
            for (int n = range(0, maxArgs); n > 0; --n)
                s += type(0);
            if (s.size() <= 255)
                return s;
        }
    }

private:
    std::mt19937_64 m_rng;
};

// File descriptors of many kinds, sent where a signature has an h.
class FdPool
{
public:
    FdPool()
    {
        int p[2];
        if (::pipe2(p, O_CLOEXEC) == 0)
            m_fds << p[0] << p[1];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) == 0)
            m_fds << p[0] << p[1];
        if (::socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, p) == 0)
            m_fds << p[0];
        m_fds << ::open("/dev/null", O_RDWR | O_CLOEXEC) << ::open("/", O_PATH | O_CLOEXEC)
              << ::open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
              << ::open("/proc/self/status", O_RDONLY | O_CLOEXEC) << ::eventfd(0, EFD_CLOEXEC)
              << ::epoll_create1(EPOLL_CLOEXEC) << ::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC)
              << ::memfd_create("bpflens-fuzz", MFD_CLOEXEC);
        m_fds.removeAll(-1);
    }
    ~FdPool()
    {
        for (int fd : m_fds)
            ::close(fd);
    }
    int pick(Gen &g) const { return m_fds[qsizetype(g.next() % quint64(m_fds.size()))]; }

private:
    QList<int> m_fds;
};

qsizetype typeEnd(const QByteArray &sig, qsizetype pos)
{
    const char c = sig[pos];
    if (c == 'a')
        return typeEnd(sig, pos + 1);
    if (c == '(' || c == '{') {
        const char close = c == '(' ? ')' : '}';
        ++pos;
        while (sig[pos] != close)
            pos = typeEnd(sig, pos);
        return pos + 1;
    }
    return pos + 1;
}

class ValueWriter
{
public:
    ValueWriter(Gen &g, const FdPool &fds, QList<int> *messageFds, qsizetype budget)
        : m_g(g)
        , m_pool(fds)
        , m_fds(messageFds)
        , m_budget(budget)
    {
    }

    void write(Marshaller &m, const QByteArray &sig)
    {
        for (qsizetype pos = 0; pos < sig.size(); pos = typeEnd(sig, pos))
            value(m, sig, pos, 0);
    }

    void value(Marshaller &m, const QByteArray &sig, qsizetype pos, int depth)
    {
        const char c = sig[pos];
        switch (c) {
        case 'y':
            m.u8(quint8(m_g.next()));
            break;
        case 'b':
            m.u32(m_g.next() & 1);
            break;
        case 'n':
        case 'q':
            m.u16(quint16(interestingInt()));
            break;
        case 'i':
        case 'u':
            m.u32(quint32(interestingInt()));
            break;
        case 'x':
        case 't':
            m.u64(interestingInt());
            break;
        case 'd': {
            static const QList<double> doubles = {0.0,
                                                  -0.0,
                                                  1.0,
                                                  -1.0,
                                                  1e308,
                                                  -1e308,
                                                  4.9e-324,
                                                  NAN,
                                                  INFINITY,
                                                  -INFINITY,
                                                  9007199254740993.0,
                                                  4294967296.0,
                                                  0.5};
            const double d = m_g.chance(0.7) ? m_g.pick(doubles) : 0.0;
            quint64 bits;
            memcpy(&bits, &d, 8);
            m.u64(m_g.chance(0.7) ? bits : m_g.next());
            break;
        }
        case 's':
            m.string(m_g.string());
            break;
        case 'o':
            m.string(m_g.objectPath());
            break;
        case 'g':
            m.signature(m_g.signature(4));
            break;
        case 'h':
            if (m_fds->size() < 8)
                m_fds->append(m_pool.pick(m_g));
            m.u32(quint32(m_g.next() % quint64(m_fds->size())));
            break;
        case 'v': {
            // Sometimes deeply nested variants (v in v in v...), within D-Bus's depth limit.
            QByteArray inner = depth < 16 && m_g.chance(0.3) ? QByteArray("v") : m_g.type(3);
            if (depth >= 16 && inner.contains('v'))
                inner = "s";
            m.signature(inner);
            value(m, inner, 0, depth + 1);
            break;
        }
        case 'a': {
            const char element = sig[pos + 1];
            const qsizetype lengthAt = m.beginArray(element);
            const qsizetype start = m.arrayStart();
            int count = m_g.range(0, 4);
            if (m_g.chance(0.05))
                count = m_g.range(5, element == 'y' ? 200000 : 300);
            if (element == '{') {
                const qsizetype keyAt = pos + 2;
                const qsizetype valueAt = typeEnd(sig, keyAt);
                for (int i = 0; i < count && m.data.size() < m_budget; ++i) {
                    m.align(8);
                    value(m, sig, keyAt, depth + 1);
                    value(m, sig, valueAt, depth + 1);
                }
            } else if (element == 'y') {
                for (int i = 0; i < count; ++i)
                    m.u8(quint8(m_g.next()));
            } else {
                for (int i = 0; i < count && m.data.size() < m_budget; ++i)
                    value(m, sig, pos + 1, depth + 1);
            }
            m.endArray(lengthAt, start);
            break;
        }
        case '(': {
            m.align(8);
            for (qsizetype p = pos + 1; sig[p] != ')'; p = typeEnd(sig, p))
                value(m, sig, p, depth + 1);
            break;
        }
        default:
            qFatal("bad signature %s", sig.constData());
        }
    }

private:
    quint64 interestingInt()
    {
        static const QList<quint64> ints = {0,
                                            1,
                                            quint64(-1),
                                            quint64(INT_MAX),
                                            quint64(INT_MIN),
                                            quint64(UINT_MAX),
                                            quint64(LLONG_MAX),
                                            quint64(LLONG_MIN),
                                            65535,
                                            65536,
                                            quint64(getpid()),
                                            1000000000000ULL};
        return m_g.chance(0.6) ? m_g.pick(ints) : m_g.next() >> m_g.range(0, 63);
    }

    Gen &m_g;
    const FdPool &m_pool;
    QList<int> *m_fds;
    qsizetype m_budget;
};

// StartSession's a(sa{sv}) with probe ids and options that are valid, almost valid or not.
QByteArray startSessionBody(Gen &g, const FdPool &pool, QList<int> *fds, bool valid,
                            const QByteArray &comm)
{
    Marshaller m;
    const qsizetype lengthAt = m.beginArray('(');
    const qsizetype start = m.arrayStart();
    if (valid) {
        m.align(8);
        m.string("exec");
        const qsizetype optionsAt = m.beginArray('{');
        const qsizetype optionsStart = m.arrayStart();
        m.align(8);
        m.string("comm");
        m.signature("s");
        m.string(comm);
        m.endArray(optionsAt, optionsStart);
    } else {
        static const QList<QByteArray> ids = {"exec",       "open",      "block",    "runqlat",
                                              "tcpconnect", "cachestat", "fsslower", "iostack",
                                              "tppair",     "",          "nope",     "EXEC"};
        static const QList<QByteArray> keys = {
            "comm",     "pid", "cgroup", "disk",         "min_us",     "tracepoint",
            "start",    "end", "stack",  "allFds",       "failedOnly", "",
            "comm\x01", "x",   "ports",  "histogram_ms", "uid",        "tid"};
        const int probes = g.chance(0.02) ? g.range(30, 40) : g.range(0, 3);
        for (int i = 0; i < probes; ++i) {
            m.align(8);
            m.string(g.chance(0.8) ? g.pick(ids) : g.string());
            const qsizetype optionsAt = m.beginArray('{');
            const qsizetype optionsStart = m.arrayStart();
            const int options = g.chance(0.02) ? g.range(30, 40) : g.range(0, 3);
            ValueWriter values(g, pool, fds, 1 << 20);
            for (int j = 0; j < options; ++j) {
                m.align(8);
                m.string(g.chance(0.8) ? g.pick(keys) : g.string());
                // Mostly plain values, sometimes anything (arrays, structs, nested variants).
                static const QList<QByteArray> plain = {"b", "i", "u", "x", "t",
                                                        "n", "q", "y", "d", "s"};
                const QByteArray t = g.chance(0.8) ? g.pick(plain) : g.type(1);
                m.signature(t);
                values.value(m, t, 0, 1);
            }
            m.endArray(optionsAt, optionsStart);
        }
    }
    m.endArray(lengthAt, start);
    return m.data;
}

struct Stats
{
    qint64 sent = 0, replies = 0, returns = 0, errors = 0, unanswered = 0, reconnects = 0, cut = 0,
           sessions = 0, badFd = 0, fdsSent = 0, signalsSent = 0, noReplyCalls = 0;
    QMap<QByteArray, qint64> errorNames;
};

// One fuzzing connection (a process of its own): count messages or until deadlineMs.
int fuzzWorker(const QString &address, quint64 seed, qint64 count, qint64 deadlineMs)
{
    Gen g(seed);
    FdPool pool;
    Stats st;
    RawBus bus;
    QString error;
    if (!bus.open(address, &error)) {
        fprintf(stderr, "worker: %s\n", qPrintable(error));
        return 2;
    }
    QElapsedTimer clock;
    clock.start();
    const QByteArray comm = "fz" + QByteArray::number(seed % 100000);
    struct Pending
    {
        int kind = 0; // 0 plain, 1 valid StartSession, 2 second Stop of a sequence
        int fd = -1;  // the stream of a sequence, closed with the second Stop's reply
    };
    std::map<quint32, Pending> pending;
    constexpr size_t Window = 16;
    qint64 lastValidStart = 0;

    auto handle = [&](RawMessage &r) {
        const auto it = pending.find(r.replySerial);
        if (r.type != RawMessage::MethodReturn && r.type != RawMessage::Error) {
            for (int fd : r.fds)
                ::close(fd);
            return;
        }
        ++st.replies;
        if (r.type == RawMessage::Error) {
            ++st.errors;
            ++st.errorNames[r.errorName];
        } else {
            ++st.returns;
        }
        Pending p;
        if (it != pending.end()) {
            p = it->second;
            pending.erase(it);
        }
        if (p.kind == 1 && r.type == RawMessage::MethodReturn && r.signature == "oh" &&
            r.fds.size() == 1) {
            ++st.sessions;
            quint32 len;
            memcpy(&len, r.body.constData(), 4);
            const QByteArray path = r.body.mid(4, len);
            const int fd = r.fds.takeFirst();
            // Stop twice; the stream closed before, in between or after.
            const int order = g.range(0, 2);
            int keep = fd;
            if (order == 0) {
                ::close(fd);
                keep = -1;
            }
            bool handedOver = false;
            for (int i = 0; i < 2; ++i) {
                RawMessage stop;
                stop.path = path;
                stop.interface = g.chance(0.8) ? SessionIface : QByteArray();
                stop.member = "Stop";
                stop.destination = Service;
                if (const quint32 s = bus.send(stop)) {
                    ++st.sent;
                    pending[s] = Pending{i == 1 ? 2 : 0, i == 1 ? keep : -1};
                    handedOver = i == 1;
                }
                if (i == 0 && order == 1 && keep >= 0) {
                    ::close(keep);
                    keep = -1;
                }
            }
            if (keep >= 0 && !handedOver)
                ::close(keep);
        }
        if (p.kind == 2 && p.fd >= 0)
            ::close(p.fd);
        for (int fd : r.fds)
            ::close(fd);
    };

    auto drain = [&](int timeoutMs) {
        RawMessage r;
        if (!bus.receive(&r, timeoutMs))
            return false;
        handle(r);
        while (bus.hasBuffered() && bus.receive(&r, 0))
            handle(r);
        return true;
    };

    auto reconnect = [&] {
        for (auto &[serial, p] : pending) {
            if (p.fd >= 0)
                ::close(p.fd);
        }
        st.unanswered += qint64(pending.size());
        pending.clear();
        ++st.reconnects;
        return bus.open(address, &error);
    };

    auto randomCall = [&](RawMessage &m) {
        static const QList<QByteArray> helperMembers = {"ListProbes", "ListTracepoints",
                                                        "StartSession"};
        static const QList<QByteArray> propMembers = {"Get", "GetAll", "Set"};
        static const QList<QByteArray> propSigs = {"ss", "s", "ssv", "", "sss", "sv"};
        m.destination = Service;
        const int r = g.range(0, 99);
        QByteArray sig;
        QByteArray body;
        bool custom = false;
        if (r < 40) {
            m.path = HelperPath;
            m.interface = g.chance(0.9) ? HelperIface : QByteArray();
            m.member = g.chance(0.85) ? g.pick(helperMembers) : g.memberName(255);
            if (m.member == "StartSession" && g.chance(0.6)) {
                sig = "a(sa{sv})";
                body = startSessionBody(g, pool, &m.fds, false, comm);
                custom = true;
            } else if (m.member != "StartSession" && g.chance(0.4)) {
                custom = true; // no arguments, as it should be
            }
        } else if (r < 52) {
            m.path = g.chance(0.9) ? HelperPath : SessionPrefix + QByteArray::number(g.range(0, 9));
            m.interface = "org.freedesktop.DBus.Properties";
            m.member = g.chance(0.9) ? g.pick(propMembers) : g.memberName(40);
            if (g.chance(0.5)) {
                sig = g.pick(propSigs);
                Marshaller b;
                for (char c : sig) {
                    if (c == 's')
                        b.string(g.chance(0.5) ? (g.chance(0.5) ? HelperIface : "Version")
                                               : g.string());
                    else if (c == 'v') {
                        b.signature("u");
                        b.u32(quint32(g.next()));
                    }
                }
                body = b.data;
                custom = true;
            }
        } else if (r < 56) {
            static const QList<QByteArray> paths = {
                HelperPath,          HelperPath + "/session",
                SessionPrefix + "1", "/",
                "/io/github",        SessionPrefix + "18446744073709551615"};
            m.path = g.chance(0.8) ? g.pick(paths) : g.objectPath();
            m.interface = "org.freedesktop.DBus.Introspectable";
            m.member = g.chance(0.9) ? QByteArray("Introspect") : g.memberName(30);
            custom = g.chance(0.7);
        } else if (r < 60) {
            m.path = g.chance(0.5) ? HelperPath : g.objectPath();
            m.interface = "org.freedesktop.DBus.Peer";
            m.member = g.chance(0.5) ? QByteArray("Ping") : QByteArray("GetMachineId");
            if (g.chance(0.1))
                m.member = g.memberName(30);
            custom = g.chance(0.7);
        } else if (r < 78) {
            static const QList<QByteArray> suffixes = {"0",
                                                       "1",
                                                       "2",
                                                       "3",
                                                       "4",
                                                       "5",
                                                       "17",
                                                       "18446744073709551615",
                                                       "18446744073709551616",
                                                       "00001",
                                                       "_1",
                                                       "abc",
                                                       "1/2",
                                                       "999999999"};
            m.path = SessionPrefix + g.pick(suffixes);
            if (g.chance(0.1))
                m.path = HelperPath + "/session";
            m.interface =
                g.chance(0.8) ? SessionIface : (g.chance(0.5) ? QByteArray() : HelperIface);
            m.member = g.chance(0.8) ? QByteArray("Stop") : g.memberName(40);
            custom = g.chance(0.6);
        } else if (r < 95) {
            m.path = g.chance(0.3) ? HelperPath : g.objectPath();
            m.interface = g.chance(0.3) ? QByteArray() : g.interfaceName();
            m.member = g.memberName(255);
        } else {
            m.path = HelperPath;
            m.member = g.chance(0.5) ? QByteArray("StartSession") : g.memberName(30);
        }
        if (!custom) {
            sig = g.signature(g.chance(0.1) ? 16 : 4);
            Marshaller b;
            ValueWriter(g, pool, &m.fds, g.chance(0.01) ? (4 << 20) : (64 << 10)).write(b, sig);
            body = b.data;
        }
        m.signature = sig;
        m.body = body;
    };

    auto validStart = [&](RawMessage &m) {
        m.destination = Service;
        m.path = HelperPath;
        m.interface = HelperIface;
        m.member = "StartSession";
        m.signature = "a(sa{sv})";
        m.body = startSessionBody(g, pool, &m.fds, true, comm);
    };

    while (st.sent < count && clock.elapsed() < deadlineMs) {
        if (!bus.isOpen() && !reconnect()) {
            fprintf(stderr, "worker: %s\n", qPrintable(error));
            return 2;
        }
        while (pending.size() >= Window) {
            if (!drain(30000)) {
                fprintf(stderr, "worker: no reply for 30 s (%zu pending)\n", pending.size());
                if (!bus.isOpen())
                    break;
                st.unanswered += qint64(pending.size());
                pending.clear();
            }
        }
        if (!bus.isOpen())
            continue;
        while (bus.hasBuffered())
            drain(0);

        const int kind = g.range(0, 999);
        if (kind < 6 && clock.elapsed() - lastValidStart > 150) {
            // A session that really records: started, then stopped twice.
            lastValidStart = clock.elapsed();
            const int burst = g.chance(0.2) ? 6 : 1; // sometimes many at once
            for (int i = 0; i < burst; ++i) {
                RawMessage m;
                validStart(m);
                if (const quint32 s = bus.send(m)) {
                    ++st.sent;
                    pending[s] = Pending{1, -1};
                }
            }
        } else if (kind < 9) {
            // A connection that goes away in the middle of its calls.
            RawBus other;
            if (other.open(address, &error)) {
                for (int n = g.range(1, 8); n > 0; --n) {
                    RawMessage m;
                    if (g.chance(0.3))
                        validStart(m);
                    else
                        randomCall(m);
                    if (other.send(m)) {
                        ++st.sent;
                        st.fdsSent += m.fds.size();
                    }
                }
                if (g.chance(0.3)) {
                    RawMessage m;
                    randomCall(m);
                    const QByteArray whole = m.body;
                    other.sendPartial(m, g.range(1, 40 + int(whole.size())));
                }
                ++st.cut;
                if (g.chance(0.5))
                    QThread::msleep(quint64(g.range(0, 20)));
                other.close();
            }
        } else if (kind < 11) {
            // An fd that is closed by the time it is sent: the kernel refuses it (EBADF).
            int p[2];
            if (::pipe2(p, O_CLOEXEC) == 0) {
                ::close(p[0]);
                ::close(p[1]);
                RawMessage m;
                m.destination = Service;
                m.path = HelperPath;
                m.interface = HelperIface;
                m.member = "StartSession";
                m.signature = "h";
                Marshaller b;
                b.u32(0);
                m.body = b.data;
                m.fds = {p[0]};
                if (bus.send(m) == 0 && errno == EBADF)
                    ++st.badFd;
                else
                    ++st.sent; // cannot happen unless the number was reused
            }
        } else if (kind < 25) {
            // A signal to the helper, or a call that wants no reply.
            RawMessage m;
            randomCall(m);
            if (kind < 18) {
                m.type = RawMessage::Signal;
                m.interface = g.interfaceName();
                ++st.signalsSent;
            } else {
                m.flags = 1;
                ++st.noReplyCalls;
            }
            if (bus.send(m)) {
                ++st.sent;
                st.fdsSent += m.fds.size();
            }
        } else {
            RawMessage m;
            randomCall(m);
            if (const quint32 s = bus.send(m)) {
                ++st.sent;
                st.fdsSent += m.fds.size();
                pending[s] = Pending{};
            }
        }
    }
    // Every call is answered.
    QElapsedTimer wait;
    wait.start();
    while (!pending.empty() && bus.isOpen() && wait.elapsed() < 60000)
        drain(1000);
    for (auto &[serial, p] : pending) {
        if (p.fd >= 0)
            ::close(p.fd);
    }
    st.unanswered += qint64(pending.size());
    printf("STATS sent=%lld replies=%lld returns=%lld errors=%lld unanswered=%lld reconnects=%lld "
           "cut=%lld sessions=%lld badfd=%lld fds=%lld signals=%lld noreply=%lld ms=%lld\n",
           st.sent, st.replies, st.returns, st.errors, st.unanswered, st.reconnects, st.cut,
           st.sessions, st.badFd, st.fdsSent, st.signalsSent, st.noReplyCalls, clock.elapsed());
    for (auto it = st.errorNames.cbegin(); it != st.errorNames.cend(); ++it)
        printf("ERROR %s %lld\n", it.key().constData(), it.value());
    fflush(stdout);
    return 0;
}

// ---------------------------------------------------------------------------------------------
// Soak clients

// Starts an exec session (retrying while the helper is Busy); the stream fd, or -1.
int startRecording(RawBus &bus, const QByteArray &comm, QByteArray *path, QByteArray *why,
                   int *busy)
{
    Gen g(1);
    FdPool none;
    for (int attempt = 0; attempt < 400; ++attempt) {
        RawMessage m;
        m.destination = Service;
        m.path = HelperPath;
        m.interface = HelperIface;
        m.member = "StartSession";
        m.signature = "a(sa{sv})";
        m.body = startSessionBody(g, none, &m.fds, true, comm);
        const quint32 serial = bus.send(m);
        RawMessage r;
        while (serial && bus.receive(&r, 30000)) {
            if (r.replySerial != serial) {
                for (int fd : r.fds)
                    ::close(fd);
                continue;
            }
            if (r.type == RawMessage::MethodReturn && r.fds.size() == 1) {
                quint32 len;
                memcpy(&len, r.body.constData(), 4);
                *path = r.body.mid(4, len);
                return r.fds.first();
            }
            if (r.errorName != api::ErrorBusy.toLatin1()) {
                *why = r.errorName + ' ' + r.body.mid(4);
                return -1;
            }
            ++*busy;
            break;
        }
        if (!bus.isOpen()) {
            *why = "connection lost";
            return -1;
        }
        QThread::msleep(50);
    }
    *why = "busy for 20 s";
    return -1;
}

int soakVictim(const QString &address)
{
    RawBus bus;
    QString error;
    if (!bus.open(address, &error))
        return 2;
    QByteArray path, why;
    int busy = 0;
    const int fd = startRecording(bus, "victim", &path, &why, &busy);
    if (fd < 0) {
        fprintf(stderr, "victim: %s\n", why.constData());
        return 3;
    }
    printf("started\n");
    fflush(stdout);
    for (;;)
        ::pause(); // until SIGKILL
}

int soakWorker(const QString &address, quint64 seed, int cycles)
{
    Gen g(seed);
    RawBus bus;
    QString error;
    if (!bus.open(address, &error)) {
        fprintf(stderr, "soak: %s\n", qPrintable(error));
        return 2;
    }
    int done = 0, busy = 0, failures = 0;
    for (int c = 0; c < cycles; ++c) {
        QByteArray path, why;
        const int fd =
            startRecording(bus, "soak" + QByteArray::number(seed % 1000), &path, &why, &busy);
        if (fd < 0) {
            fprintf(stderr, "soak: cycle %d: %s\n", c, why.constData());
            ++failures;
            continue;
        }
        StreamReader reader;
        QElapsedTimer t;
        t.start();
        const int recordMs = g.range(50, 300);
        while (t.elapsed() < recordMs) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 20) > 0)
                reader.readFrom(fd);
        }
        RawMessage stop;
        stop.destination = Service;
        stop.path = path;
        stop.interface = SessionIface;
        stop.member = "Stop";
        const quint32 serial = bus.send(stop);
        RawMessage r;
        bool stopped = false;
        while (serial && bus.receive(&r, 30000)) {
            if (r.replySerial == serial) {
                stopped = r.type == RawMessage::MethodReturn;
                break;
            }
        }
        t.restart();
        while (!reader.atEnd() && !reader.hasError() && t.elapsed() < 10000) {
            pollfd p{fd, POLLIN, 0};
            if (::poll(&p, 1, 100) > 0 && reader.readFrom(fd) == StreamReader::ReadResult::Closed)
                break;
        }
        bool endedStopped = false;
        bool hello = false;
        while (reader.hasMessage()) {
            const StreamMessage m = reader.takeMessage();
            hello = hello || m.type == StreamFrameType::Hello;
            if (m.type == StreamFrameType::End)
                endedStopped = m.end.reason == StreamEndReason::Stopped;
        }
        ::close(fd);
        if (!stopped || !hello || !reader.atEnd() || !endedStopped) {
            fprintf(stderr, "soak: cycle %d: stop %d hello %d end %d stopped %d %s\n", c,
                    int(stopped), int(hello), int(reader.atEnd()), int(endedStopped),
                    qPrintable(reader.errorString()));
            ++failures;
            continue;
        }
        ++done;
    }
    printf("SOAK cycles=%d busy=%d failures=%d\n", done, busy, failures);
    fflush(stdout);
    return failures ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Measurements

int fdCount(qint64 pid)
{
    return int(
        QDir(QStringLiteral("/proc/%1/fd").arg(pid)).entryList(QDir::Files | QDir::System).size());
}

qint64 rssKiB(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

// BPF programs, maps and links bpftool says this process holds ("pids"), -1 without bpftool.
struct BpftoolCount
{
    int programs = -1, maps = -1, links = -1;
    int total() const { return programs + maps + links; }
};

BpftoolCount bpftoolCount(qint64 pid)
{
    BpftoolCount c;
    auto count = [pid](const char *kind) {
        QProcess p;
        p.start(QStringLiteral("bpftool"),
                {QStringLiteral("-j"), QLatin1String(kind), QStringLiteral("show")});
        if (!p.waitForFinished(30000) || p.exitCode() != 0)
            return -1;
        int n = 0;
        for (const QJsonValue &o : QJsonDocument::fromJson(p.readAllStandardOutput()).array()) {
            for (const QJsonValue &owner : o.toObject().value(QStringLiteral("pids")).toArray())
                n += owner.toObject().value(QStringLiteral("pid")).toInteger() == pid ? 1 : 0;
        }
        return n;
    };
    c.programs = count("prog");
    c.maps = count("map");
    c.links = count("link");
    return c;
}

qint64 envInt(const char *name, qint64 fallback)
{
    bool ok = false;
    const qint64 v = qEnvironmentVariable(name).toLongLong(&ok);
    return ok ? v : fallback;
}

// Collects the ids of every BPF program, map and link the helper holds while a run goes on
// (every 20 ms), so that afterwards each can be checked to be gone from the kernel; this does
// not depend on bpftool knowing which process holds what (it needs BPF iterators for that).
class BpfIdSampler
{
public:
    explicit BpfIdSampler(qint64 pid)
        : m_thread([this, pid] {
            while (!m_stop) {
                const BpfObjects o = bpfObjectsOf(pid);
                {
                    std::lock_guard lock(m_mutex);
                    for (quint32 id : o.programIds)
                        m_programs.insert(id);
                    for (quint32 id : o.mapIds)
                        m_maps.insert(id);
                    for (quint32 id : o.linkIds)
                        m_links.insert(id);
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        })
    {
    }
    ~BpfIdSampler() { stop(); }
    void stop()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
    }
    // "N programs, M maps, L links seen; K still loaded" after stop().
    QString leftovers(int *left) const
    {
        int n = 0;
        for (quint32 id : m_programs)
            n += programLoaded(id) ? 1 : 0;
        for (quint32 id : m_maps)
            n += mapLoaded(id) ? 1 : 0;
        for (quint32 id : m_links)
            n += linkLoaded(id) ? 1 : 0;
        *left = n;
        return QStringLiteral("%1 programs, %2 maps, %3 links seen in the helper; %4 still loaded")
            .arg(m_programs.size())
            .arg(m_maps.size())
            .arg(m_links.size())
            .arg(n);
    }

private:
    std::atomic<bool> m_stop{false};
    std::mutex m_mutex;
    QSet<quint32> m_programs, m_maps, m_links;
    std::thread m_thread;
};

bool sanitized()
{
#ifdef BPFLENS_ASAN_BUILD
    return true;
#else
    return false;
#endif
}

QString selfBinary()
{
    return QCoreApplication::applicationFilePath();
}

} // namespace

class TestDbusFuzz : public QObject
{
    Q_OBJECT
    TestBus m_bus;
    QDBusConnection m_root{QString()};
    QString m_worker; // this binary, where nobody may run it
    bool m_bpftoolPids = true;

    qint64 startHelper()
    {
        HelperClient client(m_root);
        QString kernel;
        QList<HelperClient::ProbeEntry> list;
        HelperClient::Error error;
        if (!client.listProbes(&kernel, &list, &error))
            qWarning() << "ListProbes:" << error.message;
        return m_bus.helperPid();
    }

    // A real recording with a known workload: three execs of a uniquely named program.
    void recordsCorrectly()
    {
        HelperClient client(m_root);
        const QString tag = QStringLiteral("fzok%1").arg(getpid() % 100000);
        const QString program = m_bus.dir() + QLatin1Char('/') + tag;
        QFile::remove(program);
        QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
        QFile::setPermissions(program, QFileDevice::ExeOwner | QFileDevice::ReadOwner);
        HelperClient::Session session;
        HelperClient::Error error;
        QVERIFY2(
            client.startSession({{QStringLiteral("exec"), {{QStringLiteral("comm"), tag}}, {}}},
                                &session, &error),
            qPrintable(error.name + QLatin1Char(' ') + error.message));
        // Whether bpftool names the helper as the holder of its objects (it needs BPF iterators).
        const BpftoolCount during = bpftoolCount(m_bus.helperPid());
        m_bpftoolPids = during.programs > 0;
        if (!m_bpftoolPids)
            qInfo("this bpftool does not report which process holds a BPF object: the leftover "
                  "checks use the ids the helper held");
        for (int i = 0; i < 3; ++i)
            QCOMPARE(QProcess::execute(program, {}), 0);
        QTest::qWait(700);
        QVERIFY2(client.stopSession(session.path, &error), qPrintable(error.message));
        StreamReader reader;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 10000 && !reader.atEnd() && !reader.hasError()) {
            pollfd p{session.fd, POLLIN, 0};
            if (::poll(&p, 1, 100) > 0 &&
                reader.readFrom(session.fd) == StreamReader::ReadResult::Closed)
                break;
        }
        ::close(session.fd);
        QVERIFY2(reader.atEnd(), qPrintable(reader.errorString()));
        int execs = 0;
        while (reader.hasMessage()) {
            const StreamMessage m = reader.takeMessage();
            if (m.type != StreamFrameType::Batch)
                continue;
            for (const ExecEvent &e : m.batch.events<ExecEvent>())
                execs += e.filename == program.toUtf8() ? 1 : 0;
        }
        QCOMPARE(execs, 3);
    }

    // Waits until the helper holds no BPF object and at most maxFds fds.
    bool settle(qint64 pid, int maxFds, int timeoutMs)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            if (bpfObjectsOf(pid).total() == 0 && fdCount(pid) <= maxFds)
                return true;
            QThread::msleep(50);
        }
        return false;
    }

    void checkCleanExit()
    {
        QVERIFY(m_bus.stopHelper(sanitized() ? 60000 : 15000));
        const QString problems = m_bus.helperExitProblems();
        QVERIFY2(problems.isEmpty(), qPrintable(problems + QLatin1Char('\n') + m_bus.log()));
    }

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("runs dbus-daemon, polkitd and the helper, which loads BPF programs");
        api::registerTypes();
        QString error;
        QVERIFY2(m_bus.start(&error), qPrintable(error));
        m_root = m_bus.connect(QStringLiteral("root"));
        QVERIFY(m_root.isConnected());
        m_worker = m_bus.publicCopy(selfBinary());
        QVERIFY(!m_worker.isEmpty());
    }

    void cleanupTestCase()
    {
        QDBusConnection::disconnectFromBus(QStringLiteral("root"));
        m_bus.stop();
    }

    void cleanup()
    {
        if (QTest::currentTestFailed())
            qWarning().noquote() << "bus, polkit and helper said:\n" << m_bus.log().right(20000);
    }

    void fuzz()
    {
        const qint64 total = envInt("BPFLENS_FUZZ_MESSAGES", 100000);
        // CI's budget: the dev suite sends all of them (about 90 s); under ASan, several times
        // slower, what 60 s send counts, as the libFuzzer targets get 30 s each there.
        const qint64 capMs = envInt("BPFLENS_FUZZ_SECONDS", sanitized() ? 60 : 120) * 1000;
        const quint64 seed = quint64(envInt("BPFLENS_FUZZ_SEED", 20261123));
        qInfo("seed %llu (BPFLENS_FUZZ_SEED), %lld messages, at most %lld s", seed, total,
              capMs / 1000);
        const qint64 pid = startHelper();
        QVERIFY(pid > 0);
        const int fds0 = fdCount(pid);
        const qint64 rss0 = rssKiB(pid);
        const BpfObjects bpf0 = bpfObjectsOf(pid);
        QCOMPARE(bpf0.total(), 0);
        if (qEnvironmentVariableIsSet("BPFLENS_FD_PROBE")) {
            for (int kind = 0; kind <= 10; ++kind) {
                const int before = fdCount(pid);
                QProcess::execute(m_worker, {QStringLiteral("--fd-probe"), m_bus.address(),
                                             QString::number(kind)});
                qInfo("kind %d: %d -> %d fds", kind, before, fdCount(pid));
            }
        }

        BpfIdSampler sampler(pid);
        constexpr int Workers = 4;
        QList<QProcess *> workers;
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < Workers; ++i) {
            auto *p = new QProcess(this);
            p->setProcessChannelMode(QProcess::SeparateChannels);
            const QStringList args = {QStringLiteral("--fuzz-worker"), m_bus.address(),
                                      QString::number(seed * 4 + quint64(i)),
                                      QString::number(total / Workers), QString::number(capMs)};
            if (i == Workers - 1) // one connection of a user polkit does not authorise
                p->start(QStringLiteral("setpriv"),
                         QStringList{QStringLiteral("--reuid=nobody"),
                                     QStringLiteral("--regid=nogroup"),
                                     QStringLiteral("--clear-groups"), m_worker} +
                             args);
            else
                p->start(m_worker, args);
            workers << p;
        }
        qint64 sent = 0, replies = 0, unanswered = 0, reconnects = 0, sessions = 0, cut = 0,
               badFd = 0, fdsSent = 0;
        QMap<QString, qint64> errors;
        for (QProcess *p : workers) {
            QVERIFY(p->waitForFinished(int(capMs + 180000)));
            const QString out = QString::fromUtf8(p->readAllStandardOutput());
            const QString err = QString::fromUtf8(p->readAllStandardError());
            QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0,
                     qPrintable(out + err));
            for (const QString &line : out.split(QLatin1Char('\n'))) {
                if (line.startsWith(QStringLiteral("STATS "))) {
                    qInfo().noquote() << "worker:" << line;
                    QMap<QString, qint64> v;
                    for (const QString &kv : line.mid(6).split(QLatin1Char(' ')))
                        v.insert(kv.section(QLatin1Char('='), 0, 0),
                                 kv.section(QLatin1Char('='), 1).toLongLong());
                    sent += v.value(QStringLiteral("sent"));
                    replies += v.value(QStringLiteral("replies"));
                    unanswered += v.value(QStringLiteral("unanswered"));
                    reconnects += v.value(QStringLiteral("reconnects"));
                    sessions += v.value(QStringLiteral("sessions"));
                    cut += v.value(QStringLiteral("cut"));
                    badFd += v.value(QStringLiteral("badfd"));
                    fdsSent += v.value(QStringLiteral("fds"));
                } else if (line.startsWith(QStringLiteral("ERROR "))) {
                    errors[line.section(QLatin1Char(' '), 1, 1)] +=
                        line.section(QLatin1Char(' '), 2, 2).toLongLong();
                }
            }
            if (!err.isEmpty())
                qInfo().noquote() << "worker stderr:" << err.left(2000);
        }
        const double seconds = double(t.elapsed()) / 1000.0;
        qInfo("%lld messages (%lld fds, %lld cut connections, %lld sessions recorded, %lld "
              "closed fds refused by the kernel) in %.1f s: %.0f messages/s; %lld replies",
              sent, fdsSent, cut, sessions, badFd, seconds, double(sent) / seconds, replies);
        for (auto it = errors.cbegin(); it != errors.cend(); ++it)
            qInfo("  %6lld %s", it.value(), qPrintable(it.key()));
        qDeleteAll(workers);

        QCOMPARE(m_bus.helperPid(), pid); // no crash, no restart
        QCOMPARE(unanswered, 0);
        // dbus-daemon drops a connection that sends an invalid message: the generator's.
        QCOMPARE(reconnects, 0);
        // A helper that hung or died shows as the bus's own errors.
        QCOMPARE(errors.value(QStringLiteral("org.freedesktop.DBus.Error.NoReply")), 0);
        QCOMPARE(errors.value(QStringLiteral("org.freedesktop.DBus.Error.ServiceUnknown")), 0);
        if (t.elapsed() < capMs)
            QVERIFY2(sent >= total, qPrintable(QString::number(sent)));
        else if (sent < total)
            qWarning("the time cap ended the run after %lld of %lld messages", sent, total);
        QVERIFY(sessions > 0);

        QVERIFY2(settle(pid, fds0, 15000),
                 qPrintable(QStringLiteral("%1 BPF objects, %2 fds (%3 before)")
                                .arg(bpfObjectsOf(pid).total())
                                .arg(fdCount(pid))
                                .arg(fds0)));
        const BpftoolCount left = bpftoolCount(pid);
        qInfo("helper after fuzzing: %d fds (%d before), VmRSS %lld KiB (%lld before); bpftool: "
              "%d programs, %d maps, %d links",
              fdCount(pid), fds0, rssKiB(pid), rss0, left.programs, left.maps, left.links);
        QVERIFY(left.programs <= 0 && left.maps <= 0 && left.links <= 0); // -1: no bpftool
        sampler.stop();
        // The kernel frees a map from a workqueue and a program after an RCU grace period,
        // once the last reference is gone: on a busy machine that lags the close by seconds.
        int stillLoaded = 0;
        for (QDeadlineTimer freed(20000);
             sampler.leftovers(&stillLoaded), stillLoaded > 0 && !freed.hasExpired();)
            QThread::msleep(200);
        qInfo().noquote() << sampler.leftovers(&stillLoaded);
        QCOMPARE(stillLoaded, 0);
        recordsCorrectly();
        QCOMPARE(m_bus.helperPid(), pid);
        QVERIFY(settle(pid, fds0, 10000));
        checkCleanExit();
    }

    void soak()
    {
        const int lanes = 4;
        const int rounds = int(envInt("BPFLENS_SOAK_ROUNDS", 5));
        const int cyclesPerWorker = 9; // plus one killed client per round: 10 cycles
        const qint64 pid = startHelper();
        QVERIFY(pid > 0);
        auto runWorker = [this](quint64 seed, int cycles, QString *out) {
            QProcess p;
            p.start(m_worker, {QStringLiteral("--soak-worker"), m_bus.address(),
                               QString::number(seed), QString::number(cycles)});
            const bool ok = p.waitForFinished(300000) && p.exitStatus() == QProcess::NormalExit &&
                            p.exitCode() == 0;
            *out = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
            return ok;
        };
        // A client killed while its session runs, or (early) while StartSession is pending.
        auto runVictim = [this](quint64 seed, QString *out) {
            QProcess p;
            p.start(m_worker, {QStringLiteral("--soak-victim"), m_bus.address()});
            if (!p.waitForStarted(10000))
                return false;
            if (seed % 4 == 0) {
                QThread::msleep(seed % 150);
            } else {
                if (!p.waitForReadyRead(60000)) {
                    *out = QString::fromUtf8(p.readAllStandardError());
                    return false;
                }
                QThread::msleep(50 + seed % 300);
            }
            ::kill(pid_t(p.processId()), SIGKILL);
            return p.waitForFinished(10000);
        };
        // Warm-up: what a helper that has recorded once holds.
        QString out;
        QVERIFY2(runWorker(7, 2, &out), qPrintable(out));
        QVERIFY2(runVictim(1, &out), qPrintable(out));
        QVERIFY(settle(pid, INT_MAX, 10000));
        QTest::qWait(300);
        const int fds0 = fdCount(pid);
        const qint64 rss0 = rssKiB(pid);

        BpfIdSampler sampler(pid);
        QElapsedTimer t;
        t.start();
        std::atomic<int> failures{0};
        QStringList reports;
        std::mutex reportsMutex;
        std::vector<std::thread> threads;
        for (int lane = 0; lane < lanes; ++lane) {
            threads.emplace_back([&, lane] {
                for (int round = 0; round < rounds; ++round) {
                    const quint64 seed = quint64(lane * 1000 + round);
                    QString o;
                    if (!runVictim(seed * 7 + 1, &o)) {
                        ++failures;
                        std::lock_guard lock(reportsMutex);
                        reports << QStringLiteral("victim: ") + o;
                    }
                    if (!runWorker(seed, cyclesPerWorker, &o)) {
                        ++failures;
                        std::lock_guard lock(reportsMutex);
                        reports << o;
                    }
                }
            });
        }
        for (std::thread &th : threads)
            th.join();
        const qint64 ms = t.elapsed();
        QVERIFY2(failures == 0, qPrintable(reports.join(QLatin1Char('\n'))));
        QVERIFY2(settle(pid, fds0 + 2, 15000),
                 qPrintable(QStringLiteral("%1 BPF objects, %2 fds (%3 before)")
                                .arg(bpfObjectsOf(pid).total())
                                .arg(fdCount(pid))
                                .arg(fds0)));
        QTest::qWait(300);
        const int fds1 = fdCount(pid);
        const qint64 rss1 = rssKiB(pid);
        const BpftoolCount left = bpftoolCount(pid);
        const int cycles = lanes * rounds * (cyclesPerWorker + 1);
        qInfo("%d cycles (%d clients killed) in %.1f s; helper fds %d -> %d, VmRSS %lld -> %lld "
              "KiB (%+.1f%%); bpftool: %d programs, %d maps, %d links",
              cycles, lanes * rounds, double(ms) / 1000.0, fds0, fds1, rss0, rss1,
              100.0 * double(rss1 - rss0) / double(rss0), left.programs, left.maps, left.links);
        sampler.stop();
        // The kernel frees a map from a workqueue and a program after an RCU grace period,
        // once the last reference is gone: on a busy machine that lags the close by seconds.
        int stillLoaded = 0;
        for (QDeadlineTimer freed(20000);
             sampler.leftovers(&stillLoaded), stillLoaded > 0 && !freed.hasExpired();)
            QThread::msleep(200);
        qInfo().noquote() << sampler.leftovers(&stillLoaded);
        QCOMPARE(m_bus.helperPid(), pid);
        QVERIFY(left.programs <= 0 && left.maps <= 0 && left.links <= 0); // -1: no bpftool
        QCOMPARE(stillLoaded, 0);
        QVERIFY(fds1 <= fds0 + 2);
        // glibc keeps freed arenas; ASan keeps freed memory in its quarantine.
        const qint64 slackKiB = sanitized() ? 256 * 1024 : qMax<qint64>(8 * 1024, rss0 / 10);
        QVERIFY2(rss1 <= rss0 + slackKiB, qPrintable(QString::number(rss1 - rss0)));
        checkCleanExit();
    }
};

// Debugging aid: sends five messages carrying an fd to one kind of target and waits for the
// replies (--fd-probe ADDRESS KIND); compare the helper's fds before and after.
int fdProbe(const QString &address, int kind)
{
    RawBus bus;
    QString error;
    if (!bus.open(address, &error))
        return 2;
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    for (int i = 0; i < 5; ++i) {
        RawMessage m;
        m.destination = Service;
        m.path = HelperPath;
        m.interface = HelperIface;
        m.member = "ListProbes";
        m.signature = "h";
        Marshaller b;
        b.u32(0);
        m.fds = {fd};
        switch (kind) {
        case 1:
            m.member = "StartSession";
            break;
        case 2:
            m.interface = "org.freedesktop.DBus.Properties";
            m.member = "Get";
            break;
        case 3:
            m.interface = "org.freedesktop.DBus.Introspectable";
            m.member = "Introspect";
            break;
        case 4:
            m.interface = "org.freedesktop.DBus.Peer";
            m.member = "Ping";
            break;
        case 5:
            m.path = SessionPrefix + "1";
            m.interface = SessionIface;
            m.member = "Stop";
            break;
        case 6:
            m.path = "/nowhere";
            break;
        case 7:
            m.type = RawMessage::Signal;
            break;
        case 8:
            m.flags = 1;
            break;
        case 9: {
            m.member = "StartSession";
            m.signature = "a(sa{sv})";
            Marshaller c;
            const qsizetype at = c.beginArray('(');
            const qsizetype st = c.arrayStart();
            c.align(8);
            c.string("exec");
            const qsizetype oat = c.beginArray('{');
            const qsizetype ost = c.arrayStart();
            c.align(8);
            c.string("comm");
            c.signature("h");
            c.u32(0);
            c.endArray(oat, ost);
            c.endArray(at, st);
            b = c;
            break;
        }
        case 10:
            m.interface = "org.freedesktop.DBus.Introspectable";
            m.member = "Nope";
            break;
        default:
            break;
        }
        m.body = b.data;
        const quint32 serial = bus.send(m);
        RawMessage r;
        while (kind != 7 && kind != 8 && serial && bus.receive(&r, 5000)) {
            if (r.replySerial == serial) {
                printf("%d: %s %s\n", kind, r.errorName.constData(),
                       r.body.mid(4, 100).constData());
                break;
            }
        }
    }
    QThread::msleep(300);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--fd-probe") == 0 && argc == 4)
        return fdProbe(QString::fromLocal8Bit(argv[2]), atoi(argv[3]));
    if (argc >= 2 && strcmp(argv[1], "--fuzz-worker") == 0 && argc == 6)
        return fuzzWorker(QString::fromLocal8Bit(argv[2]), strtoull(argv[3], nullptr, 10),
                          strtoll(argv[4], nullptr, 10), strtoll(argv[5], nullptr, 10));
    if (argc >= 2 && strcmp(argv[1], "--soak-worker") == 0 && argc == 5)
        return soakWorker(QString::fromLocal8Bit(argv[2]), strtoull(argv[3], nullptr, 10),
                          atoi(argv[4]));
    if (argc >= 2 && strcmp(argv[1], "--soak-victim") == 0 && argc == 3)
        return soakVictim(QString::fromLocal8Bit(argv[2]));
    QCoreApplication app(argc, argv);
    TestDbusFuzz test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_dbusfuzz.moc"
