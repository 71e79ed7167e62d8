// bpflens-cli diff's comparison (core/sessiondiff): two real session files with known block
// requests, histogram snapshots and execs, written and read back; the merged histograms'
// percentiles, the counts and the rows of every top-list dimension are checked against what the
// test put in, computed here by brute force. A session compared with itself shows no change.
// Profiles: sessions with known on-CPU and off-CPU stacks (function names root first), whose
// per-function shares and deltas are recomputed here from those stacks.
#include "core/histogram.h"
#include "core/sessiondiff.h"
#include "core/sessioninfo.h"
#include "core/sessionstore.h"

#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace bpflens;

namespace {

constexpr quint64 StartNs = 1000000000ull;

struct Spec
{
    // latency (µs) of each block request, in two histogram snapshots (first half, second half)
    QList<quint64> latenciesUs;
    QHash<QByteArray, int> blockByComm;
    int execs = 0;
    HistogramUnit unit = HistogramUnit::Microseconds;
    bool withRunqlat = false;
};

bool write(const QString &path, const Spec &s, QString *error)
{
    SessionInfo info = sessionInfoForThisHost({{QStringLiteral("block"), {}, {}}});
    info.startMonotonicNs = StartNs;
    SessionWriter w;
    if (!w.create(path, info, error))
        return false;
    RecordBatch b;
    quint64 t = StartNs;
    for (auto it = s.blockByComm.cbegin(); it != s.blockByComm.cend(); ++it) {
        for (int i = 0; i < it.value(); ++i) {
            BlockEvent e;
            e.timeNs = ++t;
            e.comm = it.key();
            e.disk = "vda";
            e.op = "Write";
            b.block.append(e);
        }
    }
    for (int i = 0; i < s.execs; ++i) {
        ExecEvent e;
        e.timeNs = ++t;
        e.comm = "sh";
        b.exec.append(e);
    }
    // The latencies in two snapshots of the same histogram, as a recording's intervals.
    const qsizetype half = s.latenciesUs.size() / 2;
    for (int part = 0; part < 2; ++part) {
        HistogramSnapshot h;
        h.probeId = QStringLiteral("block");
        h.key = QStringLiteral("vda");
        h.timeNs = StartNs + quint64(part + 1) * 1000000000ull;
        h.intervalNs = 1000000000ull;
        h.histogram = Log2Histogram(s.unit);
        const qsizetype from = part ? half : 0, to = part ? s.latenciesUs.size() : half;
        for (qsizetype i = from; i < to; ++i)
            h.histogram.add(s.latenciesUs[i] * 1000 / unitDivisor(s.unit));
        b.histograms.append(h);
    }
    if (s.withRunqlat) {
        HistogramSnapshot h;
        h.probeId = QStringLiteral("runqlat");
        h.timeNs = StartNs + 1000000000ull;
        h.histogram.add(5);
        b.histograms.append(h);
    }
    return w.writeBatch(b, error) && w.finish(StartNs + 3000000000ull, error);
}

// The brute-force histogram of a list of µs latencies, for its percentiles.
Log2Histogram expected(const QList<quint64> &us)
{
    Log2Histogram h(HistogramUnit::Microseconds);
    for (quint64 v : us)
        h.add(v);
    return h;
}

// A stack as the test states it: function names root first, and its weight (samples or ns).
struct Weighted
{
    QList<const char *> names; // empty: an event without a stack
    quint64 weight = 1;
    QStringList path() const
    {
        QStringList out;
        for (const char *n : names)
            out << QString::fromLatin1(n);
        return out;
    }
};

// Writes the stacks as a recording would: frames and stacks interned in first-seen order (or
// the reverse with reversed, so the two sessions number the same function differently),
// on-CPU stacks as weight samples, off-CPU ones as one wait of weight ns each.
bool writeProfile(const QString &path, const QList<Weighted> &onCpu, const QList<Weighted> &offCpu,
                  bool reversed, QString *error)
{
    SessionInfo info = sessionInfoForThisHost(
        {{QStringLiteral("profile"), {}, {}}, {QStringLiteral("offcpu"), {}, {}}});
    info.startMonotonicNs = StartNs;
    SessionWriter w;
    if (!w.create(path, info, error))
        return false;
    RecordBatch b;
    QStringList names;
    for (const QList<Weighted> &list : {onCpu, offCpu})
        for (const Weighted &x : list)
            for (const QString &n : x.path())
                if (!names.contains(n))
                    names.append(n);
    if (reversed)
        std::reverse(names.begin(), names.end());
    for (qsizetype i = 0; i < names.size(); ++i) {
        // The kernel's own functions as kernel frames: their module reads "[vmlinux]".
        const bool kernel = names[i].startsWith(QLatin1String("k_"));
        b.frames.append(
            {quint32(i + 1), StackFrame{kernel ? FrameKind::Kernel : FrameKind::User,
                                        0x1000 + quint64(i) * 0x100,
                                        kernel ? QByteArray("vmlinux") : QByteArray("/usr/bin/app"),
                                        {},
                                        names[i].toUtf8()}});
    }
    QList<QStringList> stacks;
    auto stackId = [&](const QStringList &pathRootFirst) -> quint32 {
        if (pathRootFirst.isEmpty())
            return 0;
        qsizetype at = stacks.indexOf(pathRootFirst);
        if (at < 0) {
            stacks.append(pathRootFirst);
            at = stacks.size() - 1;
            QList<quint32> leafFirst;
            for (auto it = pathRootFirst.crbegin(); it != pathRootFirst.crend(); ++it)
                leafFirst.append(quint32(names.indexOf(*it) + 1));
            b.stacks.append({quint32(at + 1), 0, leafFirst});
        }
        return quint32(at + 1);
    };
    quint64 t = StartNs;
    for (const Weighted &x : onCpu) {
        for (quint64 k = 0; k < x.weight; ++k) {
            CpuSampleEvent e;
            e.timeNs = ++t;
            e.pid = e.tid = 7;
            e.comm = "app";
            e.stackId = stackId(x.path());
            b.cpuSample.append(e);
        }
    }
    for (const Weighted &x : offCpu) {
        OffCpuEvent e;
        e.timeNs = ++t;
        e.pid = e.tid = 7;
        e.comm = "app";
        e.offNs = x.weight;
        e.stackId = stackId(x.path());
        b.offCpu.append(e);
    }
    return w.writeBatch(b, error) && w.finish(t + 1, error);
}

// Brute force over the stacks as stated: a function's self is the weight of the stacks it is
// the leaf of, its total the weight of the stacks it is on (once however often it recurses).
struct Expected
{
    quint64 total = 0;
    QHash<QString, std::pair<quint64, quint64>> functions; // self, total
};
Expected bruteForce(const QList<Weighted> &stacks)
{
    Expected e;
    for (const Weighted &x : stacks) {
        e.total += x.weight;
        const QStringList path = x.path();
        if (path.isEmpty())
            continue;
        e.functions[path.last()].first += x.weight;
        const QStringList once(QSet<QString>(path.cbegin(), path.cend()).values());
        for (const QString &n : once)
            e.functions[n].second += x.weight;
    }
    return e;
}

// A session of opens, block requests, connects and slow file operations whose keys depend on
// seed: the same seed, the same events.
RecordBatch mixedBatch(int seed)
{
    RecordBatch b;
    const QByteArray comms[] = {"dd", "tar", "sh", "postgres", "cc1plus"};
    const QByteArray paths[] = {"/etc/passwd", "/var/log/syslog", "/tmp/x", "/usr/lib/libc.so.6",
                                "/srv/new-in-b"};
    const QByteArray disks[] = {"vda", "nvme0n1", "sdb"};
    const QByteArray ops[] = {"Read", "Write", "Sync-Write", "Flush"};
    quint64 t = StartNs;
    // Seed 2 has more of everything, and its fifth path, command and disk are new.
    const int n = 200 + seed * 37;
    const int kinds = seed == 1 ? 4 : 5;
    for (int i = 0; i < n; ++i) {
        const int k = (i * (seed + 2) + i / 7) % kinds;
        const QByteArray comm = comms[k];
        const quint32 pid = 100 + quint32(k);
        OpenEvent o;
        o.timeNs = ++t;
        o.pid = pid;
        o.comm = comm;
        o.path = paths[(i + seed) % kinds];
        o.ret = i % (5 + seed) == 0 ? -2 : (i % 11 == 0 ? -13 : 3);
        b.open.append(o);
        BlockEvent e;
        e.timeNs = ++t;
        e.pid = pid;
        e.comm = comm;
        e.disk = disks[(i / 3 + seed) % (seed == 1 ? 2 : 3)];
        e.op = ops[(i + i / 5 * seed) % 4];
        b.block.append(e);
        if (i % 3 == 0) {
            TcpConnectEvent c;
            c.timeNs = ++t;
            c.pid = pid;
            c.comm = comm;
            c.family = 4;
            c.daddr = {10, 0, 0, quint8(1 + (i / 3 + seed) % 4)};
            c.dport = i % 2 ? 443 : 80;
            c.ret = i % (4 + seed) == 0 ? -111 : 0;
            b.tcpConnect.append(c);
        }
        if (i % 2 == 0) {
            FsSlowEvent f;
            f.timeNs = ++t;
            f.pid = pid;
            f.comm = comm;
            f.op = quint8("RWOF"[(i / 2 + seed) % 4]);
            f.filename = paths[(i * seed) % kinds].mid(5);
            f.fs = "ext4";
            b.fsSlow.append(f);
        }
    }
    return b;
}

bool writeMixed(const QString &path, int seed, QString *error)
{
    SessionInfo info = sessionInfoForThisHost({{QStringLiteral("open"), {}, {}},
                                               {QStringLiteral("block"), {}, {}},
                                               {QStringLiteral("tcpconnect"), {}, {}},
                                               {QStringLiteral("fsslower"), {}, {}}});
    info.startMonotonicNs = StartNs;
    SessionWriter w;
    return w.create(path, info, error) && w.writeBatch(mixedBatch(seed), error) &&
           w.finish(StartNs + 3000000000ull, error);
}

// Per type and dimension (in Dimension order within a type), the events per key's text, as
// the Top tab spells the keys, counted from the batch without the declarations.
using KeyCounts = QMap<std::pair<EventType, Dimension>, QMap<QString, qint64>>;

KeyCounts mixedCounts(int seed)
{
    const RecordBatch b = mixedBatch(seed);
    KeyCounts out;
    auto add = [&](EventType type, Dimension d, const QString &key) {
        QMap<QString, qint64> &m = out[{type, d}];
        if (!key.isEmpty())
            ++m[key];
    };
    auto common = [&](EventType type, quint32 pid, const QByteArray &comm) {
        add(type, Dimension::Process, QStringLiteral("%1 %2").arg(pid).arg(QLatin1String(comm)));
        add(type, Dimension::Command, QString::fromLatin1(comm));
    };
    auto errorName = [](qint32 ret) {
        return ret == -2     ? QStringLiteral("ENOENT")
               : ret == -13  ? QStringLiteral("EACCES")
               : ret == -111 ? QStringLiteral("ECONNREFUSED")
                             : QString();
    };
    for (const OpenEvent &e : b.open) {
        common(EventType::Open, e.pid, e.comm);
        add(EventType::Open, Dimension::File, QString::fromLatin1(e.path));
        add(EventType::Open, Dimension::Error, errorName(e.ret));
    }
    for (const BlockEvent &e : b.block) {
        common(EventType::Block, e.pid, e.comm);
        add(EventType::Block, Dimension::Disk, QString::fromLatin1(e.disk));
        add(EventType::Block, Dimension::Operation, QString::fromLatin1(e.op));
    }
    for (const TcpConnectEvent &e : b.tcpConnect) {
        common(EventType::TcpConnect, e.pid, e.comm);
        add(EventType::TcpConnect, Dimension::Destination,
            QStringLiteral("10.0.0.%1:%2").arg(e.daddr[3]).arg(e.dport));
        add(EventType::TcpConnect, Dimension::Error, errorName(e.ret));
    }
    for (const FsSlowEvent &e : b.fsSlow) {
        common(EventType::FsSlow, e.pid, e.comm);
        add(EventType::FsSlow, Dimension::File, QString::fromLatin1(e.filename));
        add(EventType::FsSlow, Dimension::Operation, QString(QLatin1Char(char(e.op))));
    }
    return out;
}

} // namespace

class TestSessionDiff : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    SessionData load(const Spec &s, const char *name)
    {
        const QString path = m_dir.filePath(QLatin1String(name));
        QString error;
        SessionData d;
        if (!write(path, s, &error) || !SessionReader::open(path, &d, &error))
            qFatal("%s", qPrintable(error));
        return d;
    }

private Q_SLOTS:
    void selfDiffShowsNoChange()
    {
        Spec s;
        s.latenciesUs = {100, 120, 130, 900, 4000, 70, 80};
        s.blockByComm = {{"dd", 5}, {"kworker", 2}};
        s.execs = 3;
        const SessionData a = load(s, "a.bpflens");
        const SessionDiff d = diffSessions(a, a);
        QCOMPARE(d.histograms.size(), 1);
        for (double f : {0.5, 0.9, 0.99})
            QCOMPARE(d.histograms[0].percentileA(f), d.histograms[0].percentileB(f));
        QCOMPARE(d.histograms[0].a, d.histograms[0].b);
        QVERIFY(d.onlyInA.isEmpty() && d.onlyInB.isEmpty() && d.unitMismatch.isEmpty());
        QCOMPARE(d.events.size(), 2);
        for (const SessionDiff::Events &e : d.events) {
            QCOMPARE(e.a, e.b);
            QVERIFY(e.by(Dimension::Command));
            for (const SessionDiff::Keys &k : e.dimensions) {
                for (const SessionDiff::Key &key : k.keys)
                    QCOMPARE(key.a, key.b);
            }
        }
        // Block's dimensions, each with its keys.
        const SessionDiff::Events &block = d.events[1];
        QCOMPARE(block.type, EventType::Block);
        QCOMPARE(block.dimensions.size(), 4);
        QCOMPARE(block.by(Dimension::Disk)->keys.size(), 1);
        QCOMPARE(block.by(Dimension::Disk)->keys[0].key, QStringLiteral("vda"));
        QCOMPARE(block.by(Dimension::Disk)->keys[0].a, 7);
        QVERIFY(!block.by(Dimension::File));

        // Every dimension of several types, each session read from its own file: the same
        // numbers on both sides.
        QTemporaryDir dir;
        QString error;
        SessionData x, y;
        const QString path = dir.filePath(QStringLiteral("mixed.bpflens"));
        QVERIFY2(writeMixed(path, 7, &error), qPrintable(error));
        QVERIFY2(SessionReader::open(path, &x, &error), qPrintable(error));
        QVERIFY2(SessionReader::open(path, &y, &error), qPrintable(error));
        const SessionDiff m = diffSessions(x, y, 0);
        int keys = 0;
        for (const SessionDiff::Events &e : m.events) {
            QCOMPARE(e.a, e.b);
            for (const SessionDiff::Keys &k : e.dimensions) {
                for (const SessionDiff::Key &key : k.keys) {
                    QCOMPARE(key.a, key.b);
                    QVERIFY(key.a > 0);
                    ++keys;
                }
            }
        }
        QVERIFY(keys > 50);
    }

    void slowerDiskShowsInThePercentiles()
    {
        Spec a, b;
        for (int i = 0; i < 100; ++i) {
            a.latenciesUs.append(100 + quint64(i));     // 64..127 and 128..255 µs
            b.latenciesUs.append(i < 90 ? 110 : 20000); // the slowest tenth at 20 ms
        }
        a.blockByComm = {{"dd", 100}};
        b.blockByComm = {{"dd", 60}, {"tar", 40}};
        b.execs = 2;
        b.withRunqlat = true;
        const SessionDiff d = diffSessions(load(a, "slow-a.bpflens"), load(b, "slow-b.bpflens"));
        QCOMPARE(d.histograms.size(), 1);
        const SessionDiff::Histogram &h = d.histograms[0];
        QCOMPARE(h.probeId, QStringLiteral("block"));
        QCOMPARE(h.key, QStringLiteral("vda"));
        // The two snapshots of each file merged: all 100 samples, as the test added them.
        QCOMPARE(h.a, expected(a.latenciesUs));
        QCOMPARE(h.b, expected(b.latenciesUs));
        for (double f : {0.5, 0.9, 0.99}) {
            QCOMPARE(h.percentileA(f), expected(a.latenciesUs).percentile(f));
            QCOMPARE(h.percentileB(f), expected(b.latenciesUs).percentile(f));
        }
        // p99 went from the 128..255 µs bucket to the 16..32 ms one.
        QVERIFY(h.percentileA(0.99) < 256);
        QVERIFY(h.percentileB(0.99) >= 16384);
        QCOMPARE(d.onlyInB, QStringList{QStringLiteral("runqlat")});

        QCOMPARE(d.events.size(), 2);
        QCOMPARE(d.events[0].type, EventType::Exec);
        QCOMPARE(d.events[0].a, 0);
        QCOMPARE(d.events[0].b, 2);
        QCOMPARE(d.events[1].type, EventType::Block);
        QCOMPARE(d.events[1].a, 100);
        QCOMPARE(d.events[1].b, 100);
        const QList<SessionDiff::Key> &c = d.events[1].by(Dimension::Command)->keys;
        QCOMPARE(c.size(), 2);
        QCOMPARE(c[0].key, QStringLiteral("dd"));
        QCOMPARE(c[0].a, 100);
        QCOMPARE(c[0].b, 60);
        QCOMPARE(c[1].key, QStringLiteral("tar"));
        QCOMPARE(c[1].a, 0);
        QCOMPARE(c[1].b, 40);
        QVERIFY(std::isinf(relativeChange(double(c[1].a), double(c[1].b))));
        QCOMPARE(relativeChange(100, 60), -0.4);
    }

    // Milliseconds against microseconds are the same kind of value: compared in A's unit.
    // Kbytes against microseconds are not.
    void unitsAreConvertedOrRefused()
    {
        Spec a, b;
        a.latenciesUs = {3000, 3000, 3000, 3000};
        b.latenciesUs = a.latenciesUs;
        b.unit = HistogramUnit::Milliseconds;
        const SessionDiff d = diffSessions(load(a, "us.bpflens"), load(b, "ms.bpflens"));
        QCOMPARE(d.histograms.size(), 1);
        // 3 ms in the 2..3 ms bucket: 2000..3999 µs in A's buckets, 2..3 ms in B's.
        QVERIFY2(d.histograms[0].percentileB(0.5) >= 2000 &&
                     d.histograms[0].percentileB(0.5) < 4000,
                 qPrintable(QString::number(d.histograms[0].percentileB(0.5))));
        Spec k = a;
        k.unit = HistogramUnit::Kilobytes;
        const SessionDiff m = diffSessions(load(a, "us2.bpflens"), load(k, "kb.bpflens"));
        QVERIFY(m.histograms.isEmpty());
        QCOMPARE(m.unitMismatch, QStringList{QStringLiteral("block/vda")});
    }

    SessionData loadProfile(const QList<Weighted> &on, const QList<Weighted> &off, bool reversed,
                            const char *name)
    {
        const QString path = m_dir.filePath(QLatin1String(name));
        QString error;
        SessionData d;
        if (!writeProfile(path, on, off, reversed, &error) ||
            !SessionReader::open(path, &d, &error))
            qFatal("%s", qPrintable(error));
        return d;
    }

    // Every function's self and total share in A and B and their deltas, against the brute
    // force over the stacks; the ranking by the larger change of share; a function only B
    // has; recursion counted once; samples without a stack in the total.
    void profilesAreComparedByFunction()
    {
        const QList<Weighted> onA = {
            {{"main", "compute"}, 50},
            {{"main", "compute", "malloc"}, 30},
            {{"main", "write", "k_entry", "k_vfs_write"}, 15},
            {{"main", "walk", "walk", "walk"}, 4}, // recursion
            {{}, 1},                               // no stack
        };
        const QList<Weighted> onB = {
            {{"main", "compute"}, 20},
            {{"main", "compute", "malloc"}, 90},
            {{"main", "write", "k_entry", "k_vfs_write"}, 15},
            {{"main", "json_parse"}, 25}, // only in B
            {{"main", "walk", "walk"}, 2},
        };
        const QList<Weighted> offA = {{{"main", "write", "k_entry", "k_io_schedule"}, 900'000'000},
                                      {{"main", "poll", "k_schedule"}, 100'000'000}};
        const QList<Weighted> offB = {{{"main", "write", "k_entry", "k_io_schedule"}, 300'000'000},
                                      {{"main", "poll", "k_schedule"}, 700'000'000},
                                      {{"main", "poll", "k_schedule"}, 500'000'000}};
        const SessionData a = loadProfile(onA, offA, false, "p-a.bpflens");
        const SessionData b = loadProfile(onB, offB, true, "p-b.bpflens");
        const SessionDiff d = diffSessions(a, b, 0);
        QCOMPARE(d.profiles.size(), 2);
        QVERIFY(d.profileOnlyInA.isEmpty() && d.profileOnlyInB.isEmpty());
        for (const SessionDiff::Profile &p : d.profiles) {
            const Expected ea = bruteForce(p.offCpu ? offA : onA);
            const Expected eb = bruteForce(p.offCpu ? offB : onB);
            QCOMPARE(p.totalA, ea.total);
            QCOMPARE(p.totalB, eb.total);
            QCOMPARE(p.eventsA, p.offCpu ? offA.size() : qsizetype(ea.total));
            QCOMPARE(p.eventsB, p.offCpu ? offB.size() : qsizetype(eb.total));
            QSet<QString> names;
            for (auto it = ea.functions.cbegin(); it != ea.functions.cend(); ++it)
                names.insert(it.key());
            for (auto it = eb.functions.cbegin(); it != eb.functions.cend(); ++it)
                names.insert(it.key());
            // Every function is in the list: each one's share changed (B's totals differ).
            QCOMPARE(p.functions.size(), names.size());
            double previous = 2;
            for (const SessionDiff::Function &f : p.functions) {
                QVERIFY2(names.contains(f.name), qPrintable(f.name));
                const auto fa = ea.functions.value(f.name), fb = eb.functions.value(f.name);
                QCOMPARE(f.selfA, fa.first);
                QCOMPARE(f.totalA, fa.second);
                QCOMPARE(f.selfB, fb.first);
                QCOMPARE(f.totalB, fb.second);
                const double selfDelta =
                    double(fb.first) / double(eb.total) - double(fa.first) / double(ea.total);
                const double totalDelta =
                    double(fb.second) / double(eb.total) - double(fa.second) / double(ea.total);
                QCOMPARE(p.shareB(f.selfB) - p.shareA(f.selfA), selfDelta);
                QCOMPARE(p.shareB(f.totalB) - p.shareA(f.totalA), totalDelta);
                const double change = std::max(std::abs(selfDelta), std::abs(totalDelta));
                QCOMPARE(p.change(f), change);
                QVERIFY(change <= previous); // the largest change first
                previous = change;
                QCOMPARE(f.module, f.name.startsWith(QLatin1String("k_"))
                                       ? QStringLiteral("[vmlinux]")
                                       : QStringLiteral("app"));
            }
        }
        // The numbers a reader checks first: compute's self share fell from 50 of 100 samples
        // to 20 of 152 and leads the on-CPU list, then malloc (30 of 100 to 90 of 152);
        // io_schedule's share of the waits fell from 90% to 20%.
        const SessionDiff::Profile &on = d.profiles[0];
        QVERIFY(!on.offCpu);
        QCOMPARE(on.functions[0].name, QStringLiteral("compute"));
        QCOMPARE(on.functions[1].name, QStringLiteral("malloc"));
        QCOMPARE(on.totalA, 100u);
        QCOMPARE(on.totalB, 152u);
        const SessionDiff::Profile &off = d.profiles[1];
        QVERIFY(off.offCpu);
        QCOMPARE(off.totalB, 1'500'000'000u);
        const auto io =
            std::find_if(off.functions.cbegin(), off.functions.cend(),
                         [](const auto &f) { return f.name == QLatin1String("k_io_schedule"); });
        QVERIFY(io != off.functions.cend());
        QCOMPARE(off.shareA(io->selfA), 0.9);
        QCOMPARE(off.shareB(io->selfB), 0.2);

        // With itself: both profiles present, nothing changed.
        for (const SessionData *s : {&a, &b}) {
            const SessionDiff self = diffSessions(*s, *s, 0);
            QCOMPARE(self.profiles.size(), 2);
            for (const SessionDiff::Profile &p : self.profiles) {
                QCOMPARE(p.totalA, p.totalB);
                QVERIFY(p.functions.isEmpty());
            }
        }
        // Top keeps the largest changes.
        const SessionDiff top2 = diffSessions(a, b, 2);
        QCOMPARE(top2.profiles[0].functions.size(), 2);
        QCOMPARE(top2.profiles[0].functions[0].name, d.profiles[0].functions[0].name);
        QCOMPARE(top2.profiles[0].functions[1].name, d.profiles[0].functions[1].name);
    }

    void profileOnOneSideIsNamed()
    {
        const SessionData a = loadProfile({{{"main"}, 3}}, {}, false, "one-a.bpflens");
        const SessionData b = loadProfile({}, {{{"main"}, 5}}, false, "one-b.bpflens");
        const SessionDiff d = diffSessions(a, b);
        QVERIFY(d.profiles.isEmpty());
        QCOMPARE(d.profileOnlyInA, QStringList{QStringLiteral("on-CPU")});
        QCOMPARE(d.profileOnlyInB, QStringList{QStringLiteral("off-CPU")});
    }

    void topKeepsTheBusiest()
    {
        Spec a;
        a.blockByComm = {{"a", 1}, {"b", 5}, {"c", 3}};
        Spec b;
        b.blockByComm = {{"a", 9}, {"d", 2}};
        const SessionDiff d = diffSessions(load(a, "t-a.bpflens"), load(b, "t-b.bpflens"), 2);
        const SessionDiff::Keys *commands = d.events[0].by(Dimension::Command);
        QCOMPARE(commands->keys.size(), 2);
        QCOMPARE(commands->keys[0].key, QStringLiteral("a"));
        QCOMPARE(commands->keys[1].key, QStringLiteral("b"));
        QCOMPARE(commands->total, 4);
    }

    // Every dimension of every type of two different sessions: each key's counts in A and in B
    // as the test counts them from the events it wrote, all keys (top 0), and with a top the
    // busiest by the larger count, then by key.
    void topListRowsMatchBruteForce()
    {
        QString error;
        SessionData a, b;
        const QString pa = m_dir.filePath(QStringLiteral("mixed-a.bpflens"));
        const QString pb = m_dir.filePath(QStringLiteral("mixed-b.bpflens"));
        QVERIFY2(writeMixed(pa, 1, &error), qPrintable(error));
        QVERIFY2(writeMixed(pb, 2, &error), qPrintable(error));
        QVERIFY2(SessionReader::open(pa, &a, &error), qPrintable(error));
        QVERIFY2(SessionReader::open(pb, &b, &error), qPrintable(error));
        const KeyCounts ea = mixedCounts(1), eb = mixedCounts(2);
        const SessionDiff d = diffSessions(a, b, 0);
        const QList<EventType> types{EventType::Open, EventType::Block, EventType::TcpConnect,
                                     EventType::FsSlow};
        QCOMPARE(d.events.size(), types.size());
        for (const SessionDiff::Events &e : d.events) {
            QVERIFY(types.contains(e.type));
            // The dimensions the type has, in order.
            QList<Dimension> dims;
            for (auto it = ea.cbegin(); it != ea.cend(); ++it) {
                if (it.key().first == e.type)
                    dims.append(it.key().second);
            }
            QList<Dimension> got;
            for (const SessionDiff::Keys &k : e.dimensions)
                got.append(k.dimension);
            QCOMPARE(got, dims);
            for (const SessionDiff::Keys &k : e.dimensions) {
                const QMap<QString, qint64> &ka = ea.value({e.type, k.dimension});
                const QMap<QString, qint64> &kb = eb.value({e.type, k.dimension});
                QSet<QString> all;
                for (auto it = ka.cbegin(); it != ka.cend(); ++it)
                    all.insert(it.key());
                for (auto it = kb.cbegin(); it != kb.cend(); ++it)
                    all.insert(it.key());
                const QString where = QStringLiteral("%1/%2")
                                          .arg(QLatin1String(probeIdOf(e.type)))
                                          .arg(int(k.dimension));
                QVERIFY2(k.total == all.size(), qPrintable(where));
                QVERIFY2(k.keys.size() == all.size(), qPrintable(where));
                for (const SessionDiff::Key &key : k.keys) {
                    QVERIFY2(key.a == ka.value(key.key) && key.b == kb.value(key.key),
                             qPrintable(where + QLatin1Char(' ') + key.key));
                }
                for (qsizetype i = 1; i < k.keys.size(); ++i) {
                    const auto &p = k.keys[i - 1], &q = k.keys[i];
                    const qint64 mp = std::max(p.a, p.b), mq = std::max(q.a, q.b);
                    QVERIFY(mp > mq || (mp == mq && p.key < q.key));
                }
            }
            QCOMPARE(e.a, a.events.count(e.type));
            QCOMPARE(e.b, b.events.count(e.type));
        }
        // The values the writer makes differ between the sessions: some only in B, some
        // changed, so the rows are not a copy of one side.
        const SessionDiff::Keys *errors = d.events[0].by(Dimension::Error);
        QCOMPARE(d.events[0].type, EventType::Open);
        QVERIFY(errors && !errors->keys.isEmpty());
        const SessionDiff::Keys *files = d.events[0].by(Dimension::File);
        QVERIFY(std::any_of(files->keys.cbegin(), files->keys.cend(),
                            [](const auto &k) { return k.a == 0 && k.b > 0; }));
        QVERIFY(std::any_of(files->keys.cbegin(), files->keys.cend(),
                            [](const auto &k) { return k.a > 0 && k.b > 0 && k.a != k.b; }));

        // With a top: the first rows of the full list, and the total before the cut.
        const SessionDiff top3 = diffSessions(a, b, 3);
        for (qsizetype t = 0; t < top3.events.size(); ++t) {
            for (qsizetype k = 0; k < top3.events[t].dimensions.size(); ++k) {
                const SessionDiff::Keys &cut = top3.events[t].dimensions[k];
                const SessionDiff::Keys &full = d.events[t].dimensions[k];
                QCOMPARE(cut.total, full.total);
                QCOMPARE(cut.keys.size(), std::min<qsizetype>(3, full.keys.size()));
                for (qsizetype i = 0; i < cut.keys.size(); ++i)
                    QCOMPARE(cut.keys[i].key, full.keys[i].key);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestSessionDiff)
#include "tst_sessiondiff.moc"
