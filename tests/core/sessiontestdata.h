#pragma once

#include "core/records.h"
#include "core/sessioninfo.h"

#include <QRandomGenerator>

// Deterministic, deliberately awkward events for the store, session and CSV tests.
namespace bpflens::test {

inline QByteArray hostilePath(quint32 n)
{
    // Comma, quote, CR, LF, backslash, a lone continuation byte, an overlong NUL and a valid
    // multi-byte character, mixed into otherwise ordinary paths.
    static const QByteArray parts[] = {
        QByteArrayLiteral("/usr/lib/libc.so.6"),
        QByteArrayLiteral("/tmp/a,b"),
        QByteArrayLiteral("/tmp/say \"hi\""),
        QByteArrayLiteral("/tmp/line\nbreak\rreturn"),
        QByteArrayLiteral("C:\\windows\\x41"),
        QByteArrayLiteral("/tmp/latin1-\xe9t\xe9"),
        QByteArrayLiteral("/tmp/\xc0\x80overlong\xff"),
        QByteArrayLiteral("/tmp/caf\xc3\xa9/\xe2\x82\xac"),
    };
    return parts[n % std::size(parts)] + '/' + QByteArray::number(n % 50);
}

inline ExecEvent makeExec(quint64 t, quint32 n)
{
    ExecEvent e;
    e.timeNs = t;
    e.pid = 1000 + n;
    e.ppid = 1;
    e.uid = n % 3 ? 0 : 1000;
    e.retval = n % 5 ? 0 : -2;
    e.comm = QByteArrayLiteral("bash");
    e.filename = QByteArrayLiteral("/usr/bin/") + QByteArray::number(n % 7);
    e.argv = {QByteArrayLiteral("ls"), QByteArrayLiteral("-l"), hostilePath(n),
              QByteArrayLiteral("with space")};
    if (n % 4 == 0)
        e.argv.append(QByteArray()); // an empty argument must survive
    if (n % 6 == 0)
        e.argv.clear();
    e.argvTruncated = n % 3 == 0;
    return e;
}

inline OpenEvent makeOpen(quint64 t, quint32 n)
{
    OpenEvent e;
    e.timeNs = t;
    e.pid = 200 + n % 17;
    e.tid = e.pid + n % 3;
    e.uid = n % 2 ? 0 : 1000;
    e.flags = 0x80000 | int(n % 4);
    e.mode = 0644;
    e.ret = n % 9 ? int(3 + n % 20) : -13;
    e.comm = n % 2 ? QByteArrayLiteral("cat") : QByteArrayLiteral("comm\xff");
    e.path = hostilePath(n);
    return e;
}

inline BlockEvent makeBlock(quint64 t, quint32 n)
{
    BlockEvent e;
    e.timeNs = t;
    e.dev = (253u << 20) | (n % 2);
    e.cmdFlags = n % 2 ? 0x1 : 0x800;
    e.sector = 123456789ull * n;
    e.bytes = 4096 * (1 + n % 8);
    e.pid = 77 + n % 5;
    e.queueNs = n % 3 ? 0 : 1000 + n;
    e.deviceNs = 50000 + n * 7;
    e.disk = n % 2 ? QByteArrayLiteral("vda") : QByteArrayLiteral("vdb");
    e.op = n % 2 ? QByteArrayLiteral("Write") : QByteArrayLiteral("Sync-Read");
    e.comm = QByteArrayLiteral("kworker/0:1");
    return e;
}

inline TcpConnectEvent makeTcp(quint64 t, quint32 n)
{
    TcpConnectEvent e;
    e.timeNs = t;
    e.pid = 500 + n;
    e.uid = 1000;
    e.family = n % 2 ? 4 : 6;
    for (int i = 0; i < (e.family == 4 ? 4 : 16); ++i) {
        e.saddr[size_t(i)] = quint8(i * 3 + n);
        e.daddr[size_t(i)] = quint8(255 - i);
    }
    if (e.family == 6) {
        e.saddr[4] = e.saddr[5] = e.saddr[6] = e.saddr[7] = 0;
    }
    e.sport = quint16(40000 + n);
    e.dport = 443;
    e.ret = n % 11 ? 0 : -111;
    e.comm = QByteArrayLiteral("curl");
    return e;
}

inline FsSlowEvent makeFsSlow(quint64 t, quint32 n)
{
    FsSlowEvent e;
    e.timeNs = t;
    e.pid = 900 + n % 4;
    e.op = "RWOF"[n % 4];
    e.bytes = 1ull << (n % 40);
    e.offset = 0xffffffff00000000ull + n; // beyond 2^63 must round-trip too
    e.latencyNs = 10000000 + n;
    e.fs = QByteArrayLiteral("ext4");
    e.comm = QByteArrayLiteral("postgres");
    e.filename = hostilePath(n + 3);
    return e;
}

inline TpPairEvent makeTpPair(quint64 t, quint32 n)
{
    TpPairEvent e;
    e.timeNs = t;
    e.pid = 4000 + n % 9;
    e.tid = e.pid + n % 2;
    e.key = n % 3 ? 0xffff888812340000ull + n : n; // kernel pointers are beyond 2^63
    e.latencyNs = n % 5 ? 1000ull * n : ~quint64(0) - n;
    e.comm = n % 2 ? QByteArrayLiteral("jbd2/vda1-8") : QByteArrayLiteral("fioþ");
    return e;
}

// Adds tracepoint-pair events to a batch made by makeBatch() (schema 1 cannot hold them).
inline RecordBatch withTpPairs(RecordBatch batch, int count)
{
    const quint64 t0 = batch.open.isEmpty() ? 1000 : batch.open.first().timeNs;
    for (int i = 0; i < count; ++i)
        batch.tpPair.append(
            makeTpPair(t0 + quint64(i) * 1000 + 500, quint32(t0 / 1000) + quint32(i)));
    return batch;
}

inline HistogramSnapshot makeHistogram(quint64 t, quint32 n)
{
    HistogramSnapshot h;
    h.probeId = n % 2 ? QStringLiteral("block") : QStringLiteral("runqlat");
    h.key = n % 2 ? QStringLiteral("vda") : QString();
    h.timeNs = t;
    h.intervalNs = 1000000000;
    h.histogram = Log2Histogram(HistogramUnit(n % 4)); // every unit, Kbytes included
    for (int s = 0; s < int(n % 20); s += 2)
        h.histogram.addToSlot(s, quint64(s * 10 + n));
    h.histogram.setSum(n * 12345);
    return h;
}

inline ProbeStats makeStats(quint64 t, quint32 n)
{
    ProbeStats s;
    s.probeId = n % 2 ? QStringLiteral("open") : QStringLiteral("exec");
    s.timeNs = t;
    s.eventsSeen = n * 100;
    s.eventsLost = n;
    s.eventsUnseen = n * 2;
    s.unfinished = n % 3;
    s.runCount = n * 1000;
    s.runTimeNs = ~quint64(0) - n;
    return s;
}

// cachestat's six counters, plus one of another probe so that probe filters have something to
// drop. Values include fractions, a subnormal, a huge value and integers past 2^53.
inline CounterSample makeCounter(quint64 t, quint32 n)
{
    static const char *const names[] = {"accesses", "added",    "dirtied", "misses",
                                        "hits",     "hitRatio", "inflight"};
    CounterSample c;
    c.probeId = n % 7 == 6 ? QStringLiteral("block") : QStringLiteral("cachestat");
    c.name = QString::fromLatin1(names[n % 7]);
    c.timeNs = t;
    c.intervalNs = 1000000000ull + n;
    switch (n % 5) {
    case 0:
        c.value = n * 1000.0;
        break;
    case 1:
        c.value = 1.0 / (n + 3); // not exact in decimal
        break;
    case 2:
        c.value = 9007199254740993.0 + 2.0 * n; // beyond 2^53
        break;
    case 3:
        c.value = n % 2 ? 4.9e-324 * (n + 1) : 1.7e308 / (n + 1);
        break;
    default:
        c.value = -0.5 - n;
        break;
    }
    return c;
}

// One batch with every kind of record; batch b spans [base + b s, base + (b + 1) s).
inline RecordBatch makeBatch(quint64 base, quint32 b, int eventsPerType)
{
    RecordBatch batch;
    const quint64 t0 = base + quint64(b) * 1000000000ull;
    for (int i = 0; i < eventsPerType; ++i) {
        const quint64 t = t0 + quint64(i) * 1000;
        const quint32 n = b * quint32(eventsPerType) + quint32(i);
        batch.exec.append(makeExec(t, n));
        batch.open.append(makeOpen(t, n));
        batch.block.append(makeBlock(t, n));
        batch.tcpConnect.append(makeTcp(t, n));
        batch.fsSlow.append(makeFsSlow(t, n));
    }
    for (quint32 i = 0; i < 4; ++i) {
        batch.histograms.append(makeHistogram(t0 + 999000000, b * 4 + i));
        batch.stats.append(makeStats(t0 + 999000000, b * 4 + i));
    }
    for (quint32 i = 0; i < 7; ++i)
        batch.counters.append(makeCounter(t0 + 999000000, b * 7 + i));
    return batch;
}

inline SessionInfo makeInfo()
{
    SessionInfo info = sessionInfoForThisHost(
        {{QStringLiteral("open"),
          {{QStringLiteral("pid"), qint64(42)},
           {QStringLiteral("failed"), true},
           {QStringLiteral("name"), QStringLiteral("caf\u00e9")}},
          QStringLiteral("tp/syscalls/sys_enter_openat")},
         {QStringLiteral("block"), {}, QStringLiteral("tp_btf/block_rq_complete")}});
    info.startMonotonicNs = 5000000000ull;
    info.startWall = QDateTime(QDate(2024, 2, 29), QTime(23, 59, 59, 250), Qt::UTC);
    return info;
}

} // namespace bpflens::test
