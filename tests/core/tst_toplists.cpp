// Top lists and latency statistics (core/toplists): a real session file with known events of
// several types, written and read back; every row of every dimension and metric, over the whole
// session, a sub-range and with filters, is compared with a brute-force computation over the
// events the test wrote, written here per type without the declarations' help.
#include "core/eventfilter.h"
#include "core/openflags.h"
#include "core/sessioninfo.h"
#include "core/sessionstore.h"
#include "core/toplists.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>

using namespace bpflens;

namespace {

constexpr quint64 StartNs = 1000000000ull;

// One event as the brute force sees it.
struct Item
{
    EventType type;
    qsizetype index;
    quint64 timeNs;
    quint32 pid;
    QByteArray comm;
    QMap<Dimension, QString> keys;
    QList<QByteArray> searched;
    bool hasLatency = false;
    quint64 latencyNs = 0;
    bool hasBytes = false;
    quint64 bytes = 0;
};

QString text(const QByteArray &b)
{
    return QString::fromUtf8(b);
}

RecordBatch makeBatch(QList<Item> *items)
{
    QRandomGenerator rng(42);
    const QByteArray comms[] = {"dd", "tar", "sh", "postgres"};
    const QByteArray paths[] = {"/etc/passwd", "/var/log/syslog", "/tmp/x", "/usr/lib/libc.so.6"};
    const QByteArray disks[] = {"vda", "nvme0n1"};
    // "W" is also one of fsslower's operations: one row of both types.
    const QByteArray ops[] = {"Read", "Write", "Sync-Write", "W"};
    RecordBatch b;
    auto base = [&](EventType type, qsizetype index, quint64 t, quint32 pid,
                    const QByteArray &comm) {
        Item it{type, index, t, pid, comm, {}, {}};
        return it;
    };
    for (int i = 0; i < 300; ++i) {
        const quint64 t = StartNs + quint64(i) * 1000000;
        const QByteArray comm = comms[rng.bounded(4)];
        const quint32 pid = 100 + rng.bounded(3) + (comm == "dd" ? 0 : 10);
        {
            OpenEvent e;
            e.timeNs = t + 1;
            e.pid = pid;
            e.comm = comm;
            e.path = paths[rng.bounded(4)];
            e.ret = rng.bounded(5) == 0 ? -2 : (rng.bounded(7) == 0 ? -13 : 3);
            Item it = base(EventType::Open, b.open.size(), e.timeNs, pid, comm);
            it.keys[Dimension::File] = text(e.path);
            if (e.ret < 0)
                it.keys[Dimension::Error] =
                    e.ret == -2 ? QStringLiteral("ENOENT") : QStringLiteral("EACCES");
            it.searched = {e.path};
            b.open.append(e);
            items->append(it);
        }
        {
            BlockEvent e;
            e.timeNs = t + 2;
            e.pid = pid;
            e.comm = comm;
            e.disk = disks[rng.bounded(2)];
            e.op = ops[rng.bounded(4)];
            e.bytes = 512u * (1 + rng.bounded(64));
            e.queueNs = rng.bounded(50000);
            e.deviceNs = 1000 + rng.bounded(2000000);
            Item it = base(EventType::Block, b.block.size(), e.timeNs, pid, comm);
            it.keys[Dimension::Disk] = text(e.disk);
            it.keys[Dimension::Operation] = text(e.op);
            it.searched = {e.disk, e.op};
            it.hasLatency = it.hasBytes = true;
            it.latencyNs = e.queueNs + e.deviceNs;
            it.bytes = e.bytes;
            b.block.append(e);
            items->append(it);
        }
        if (i % 2 == 0) {
            FsSlowEvent e;
            e.timeNs = t + 3;
            e.pid = pid;
            e.comm = comm;
            e.op = "RWOF"[rng.bounded(4)];
            e.filename = paths[rng.bounded(4)].mid(5);
            e.fs = "ext4";
            e.bytes = rng.bounded(100000);
            e.latencyNs = 10000 + rng.bounded(90000000);
            Item it = base(EventType::FsSlow, b.fsSlow.size(), e.timeNs, pid, comm);
            it.keys[Dimension::File] = text(e.filename);
            it.keys[Dimension::Operation] = QString(QLatin1Char(char(e.op)));
            it.searched = {e.filename, e.fs};
            it.hasLatency = it.hasBytes = true;
            it.latencyNs = e.latencyNs;
            it.bytes = e.bytes;
            b.fsSlow.append(e);
            items->append(it);
        }
        if (i % 3 == 0) {
            TcpConnectEvent e;
            e.timeNs = t + 4;
            e.pid = pid;
            e.comm = comm;
            e.daddr = {10, 0, 0, quint8(1 + rng.bounded(3))};
            e.dport = rng.bounded(2) ? 443 : 80;
            e.ret = rng.bounded(4) == 0 ? -111 : 0;
            Item it = base(EventType::TcpConnect, b.tcpConnect.size(), e.timeNs, pid, comm);
            it.keys[Dimension::Destination] =
                QStringLiteral("10.0.0.%1:%2").arg(e.daddr[3]).arg(e.dport);
            if (e.ret < 0)
                it.keys[Dimension::Error] = QStringLiteral("ECONNREFUSED");
            b.tcpConnect.append(e);
            items->append(it);
        }
        if (i % 5 == 0) {
            TcpLifeEvent e;
            e.timeNs = t + 5;
            e.pid = pid;
            e.comm = comm;
            e.raddr = {10, 0, 0, quint8(1 + rng.bounded(3))};
            e.rport = 443;
            e.txBytes = rng.bounded(1000000);
            e.rxBytes = rng.bounded(1000000);
            e.durationNs = rng.bounded(1000000000);
            Item it = base(EventType::TcpLife, b.tcpLife.size(), e.timeNs, pid, comm);
            it.keys[Dimension::Destination] = QStringLiteral("10.0.0.%1:443").arg(e.raddr[3]);
            it.hasLatency = it.hasBytes = true;
            it.latencyNs = e.durationNs;
            it.bytes = e.txBytes + e.rxBytes;
            b.tcpLife.append(e);
            items->append(it);
        }
        if (i % 4 == 0) {
            ExecEvent e;
            e.timeNs = t + 6;
            e.pid = pid;
            e.comm = comm;
            e.filename = "/bin/true";
            e.retval = i % 8 == 0 ? -2 : 0;
            Item it = base(EventType::Exec, b.exec.size(), e.timeNs, pid, comm);
            if (e.retval < 0)
                it.keys[Dimension::Error] = QStringLiteral("ENOENT");
            it.searched = {e.filename};
            b.exec.append(e);
            items->append(it);
        }
    }
    return b;
}

bool passes(const Item &it, const EventFilter &f)
{
    if (f.pid >= 0 && qint64(it.pid) != f.pid)
        return false;
    if (!f.comm.isEmpty() && it.comm != f.comm)
        return false;
    if (f.minLatencyNs && it.hasLatency && it.latencyNs < f.minLatencyNs)
        return false;
    if (f.text.isEmpty())
        return true;
    const QByteArray needle = f.text.toLower();
    if (it.comm.toLower().contains(needle))
        return true;
    for (const QByteArray &s : it.searched) {
        if (s.toLower().contains(needle))
            return true;
    }
    return false;
}

quint64 rank(std::vector<quint64> v, double fraction)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    // Nearest rank: the smallest value with at least fraction of the values at or below it.
    for (size_t k = 0; k < v.size(); ++k) {
        if (double(k + 1) >= fraction * double(v.size()) - 1e-9)
            return v[k];
    }
    return v.back();
}

struct Expected
{
    qint64 count = 0;
    quint64 latency = 0;
    std::vector<quint64> latencies;
    quint64 bytes = 0;
    quint64 latencyTypes = 0; // bit (1 << type) per type counted in latency, and in bytes
    quint64 bytesTypes = 0;
};

std::map<QString, Expected> bruteForce(const QList<Item> &items, Dimension d, quint64 start,
                                       quint64 end, const EventFilter &f)
{
    std::map<QString, Expected> out;
    for (const Item &it : items) {
        if (it.timeNs < start || it.timeNs >= end || !passes(it, f))
            continue;
        QString key;
        if (d == Dimension::Process)
            key = QString::number(it.pid) + QLatin1Char(' ') + text(it.comm);
        else if (d == Dimension::Command)
            key = text(it.comm);
        else if (it.keys.contains(d))
            key = it.keys[d];
        else
            continue;
        Expected &e = out[key];
        ++e.count;
        if (it.hasLatency) {
            e.latency += it.latencyNs;
            e.latencies.push_back(it.latencyNs);
            e.latencyTypes |= quint64(1) << int(it.type);
        }
        if (it.hasBytes) {
            e.bytes += it.bytes;
            e.bytesTypes |= quint64(1) << int(it.type);
        }
    }
    return out;
}

} // namespace

Q_DECLARE_METATYPE(bpflens::EventFilter)

class TestTopLists : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    SessionData m_data;
    QList<Item> m_items;

private Q_SLOTS:
    void initTestCase()
    {
        const RecordBatch b = makeBatch(&m_items);
        const QString path = m_dir.filePath(QStringLiteral("top.bpflens"));
        SessionInfo info = sessionInfoForThisHost();
        info.startMonotonicNs = StartNs;
        SessionWriter w;
        QString error;
        QVERIFY2(w.create(path, info, &error), qPrintable(error));
        QVERIFY2(w.writeBatch(b, &error), qPrintable(error));
        QVERIFY2(w.finish(StartNs + 400000000ull, &error), qPrintable(error));
        QVERIFY2(SessionReader::open(path, &m_data, &error), qPrintable(error));
    }

    void rowsMatchBruteForce_data()
    {
        QTest::addColumn<int>("dimension");
        QTest::addColumn<int>("metric");
        QTest::addColumn<quint64>("start");
        QTest::addColumn<quint64>("end");
        QTest::addColumn<EventFilter>("filter");
        const quint64 all = std::numeric_limits<quint64>::max();
        const quint64 midA = StartNs + 50000000, midB = StartNs + 170000000;
        for (int d = 0; d <= int(Dimension::Error); ++d) {
            for (int m = 0; m <= int(TopMetric::Bytes); ++m) {
                const QByteArray name =
                    (dimensionName(Dimension(d)) + QLatin1Char('/') + metricName(TopMetric(m)))
                        .toUtf8();
                QTest::newRow(name + "/all") << d << m << quint64(0) << all << EventFilter{};
                QTest::newRow(name + "/range") << d << m << midA << midB << EventFilter{};
                QTest::newRow(name + "/text")
                    << d << m << quint64(0) << all << EventFilter{"LOG", -1, {}, 0};
                QTest::newRow(name + "/pid+latency")
                    << d << m << midA << all << EventFilter{{}, 111, "tar", 500000};
            }
        }
    }

    void rowsMatchBruteForce()
    {
        QFETCH(int, dimension);
        QFETCH(int, metric);
        QFETCH(quint64, start);
        QFETCH(quint64, end);
        QFETCH(EventFilter, filter);
        TopQuery q;
        q.dimension = Dimension(dimension);
        q.metric = TopMetric(metric);
        q.startNs = start;
        q.endNs = end;
        q.filter = filter;
        q.limit = 0;
        const TopList list = topList(m_data.events, q);
        const auto expected = bruteForce(m_items, q.dimension, start, end, filter);
        QCOMPARE(list.keys, qint64(expected.size()));
        QCOMPARE(list.rows.size(), qsizetype(expected.size()));
        qint64 events = 0;
        quint64 previous = std::numeric_limits<quint64>::max();
        for (const TopRow &r : list.rows) {
            const auto it = expected.find(r.key);
            QVERIFY2(it != expected.end(), qPrintable(r.key));
            const Expected &e = it->second;
            QCOMPARE(r.count, e.count);
            QCOMPARE(r.totalLatencyNs, e.latency);
            QCOMPARE(r.latencyCount, qint64(e.latencies.size()));
            QCOMPARE(r.p99LatencyNs, rank(e.latencies, 0.99));
            QCOMPARE(r.bytes, e.bytes);
            QCOMPARE(r.latencyTypes, e.latencyTypes);
            QCOMPARE(r.bytesTypes, e.bytesTypes);
            events += r.count;
            const quint64 value = q.metric == TopMetric::Count     ? quint64(r.count)
                                  : q.metric == TopMetric::Latency ? r.totalLatencyNs
                                  : q.metric == TopMetric::P99     ? r.p99LatencyNs
                                                                   : r.bytes;
            QVERIFY2(value <= previous, "rows are sorted by the metric, largest first");
            previous = value;
        }
        QCOMPARE(list.events, events);
        // The limit keeps the first rows.
        q.limit = 3;
        const TopList top3 = topList(m_data.events, q);
        QCOMPARE(top3.rows.size(), std::min<qsizetype>(3, list.rows.size()));
        for (qsizetype k = 0; k < top3.rows.size(); ++k)
            QCOMPARE(top3.rows[k].key, list.rows[k].key);
    }

    // A row's filter selects exactly its events, in every dimension.
    // A process whose block requests and file system operations both have latencies: its
    // "total latency" over every type would add disk time to file system time. The list says
    // which types each sum is of; of one type, none mixes.
    void unlikeQuantitiesAreMarked()
    {
        TopQuery q;
        q.dimension = Dimension::Command;
        q.limit = 0;
        const TopList all = topList(m_data.events, q);
        QVERIFY(mixesTypes(all.latencyTypes));
        QVERIFY(std::any_of(all.rows.begin(), all.rows.end(),
                            [](const TopRow &r) { return mixesTypes(r.latencyTypes); }));
        q.type = EventType::Block;
        const TopList block = topList(m_data.events, q);
        QCOMPARE(block.latencyTypes, typeBit(EventType::Block));
        QCOMPARE(block.bytesTypes, typeBit(EventType::Block));
        for (const TopRow &r : block.rows) {
            QCOMPARE(r.latencyTypes, typeBit(EventType::Block));
            QVERIFY(!mixesTypes(r.bytesTypes));
        }
    }

    void rowFiltersSelectTheirEvents()
    {
        for (Dimension d : {Dimension::Process, Dimension::Command}) {
            TopQuery q;
            q.dimension = d;
            q.limit = 0;
            const TopList list = topList(m_data.events, q);
            QVERIFY(!list.rows.isEmpty());
            for (const TopRow &r : list.rows) {
                QVERIFY(r.filter.has_value());
                qint64 n = 0;
                for (const Item &it : std::as_const(m_items))
                    n += passes(it, *r.filter) ? 1 : 0;
                QCOMPARE(n, r.count);
            }
        }
        // The declared dimensions: the filter selects exactly the row's events, counted by the
        // matcher over every event of every type. Files are where a substring would not do
        // (fsslower's file name "passwd" is in open's "/etc/passwd"), and fsslower's operations are
        // single characters.
        for (Dimension d : {Dimension::File, Dimension::Disk, Dimension::Destination,
                            Dimension::Operation, Dimension::Error}) {
            TopQuery q;
            q.dimension = d;
            q.limit = 0;
            const TopList list = topList(m_data.events, q);
            QVERIFY(!list.rows.isEmpty());
            for (const TopRow &r : list.rows) {
                QVERIFY(r.filter.has_value());
                const EventMatcher matcher(*r.filter);
                qint64 n = 0;
                for (const Item &it : std::as_const(m_items))
                    n += matcher.accepts(m_data.events, it.type, it.index) ? 1 : 0;
                QVERIFY2(n == r.count, qPrintable(r.key));
                qint64 expected = 0;
                for (const Item &it : std::as_const(m_items))
                    expected += it.keys.value(d) == r.key ? 1 : 0;
                QCOMPARE(r.count, expected);
            }
        }
    }

    // The scan split into chunks over threads (more chunks than threads, chunks that end in
    // the middle of a run of one key, sizes that do not divide the events) gives exactly the
    // brute-force rows and statistics.
    void splitScansMatchBruteForce_data()
    {
        QTest::addColumn<int>("threads");
        QTest::addColumn<qsizetype>("chunk");
        QTest::newRow("2 threads, chunks of 7") << 2 << qsizetype(7);
        QTest::newRow("3 threads, chunks of 1") << 3 << qsizetype(1);
        QTest::newRow("2 threads, chunks of 64") << 2 << qsizetype(64);
        QTest::newRow("8 threads, chunks of 13") << 8 << qsizetype(13);
    }

    void splitScansMatchBruteForce()
    {
        QFETCH(int, threads);
        QFETCH(qsizetype, chunk);
        const ScanSplit split{threads, chunk};
        const quint64 all = std::numeric_limits<quint64>::max();
        const quint64 midA = StartNs + 50000000, midB = StartNs + 170000000;
        const QList<std::tuple<quint64, quint64, EventFilter>> cases{
            {0, all, EventFilter{}},
            {midA, midB, EventFilter{}},
            {midA, all, EventFilter{{}, 111, "tar", 500000}},
            {0, all, EventFilter{"LOG", -1, {}, 0}}};
        for (const auto &[start, end, filter] : cases) {
            for (int d = 0; d <= int(Dimension::Error); ++d) {
                TopQuery q;
                q.dimension = Dimension(d);
                q.startNs = start;
                q.endNs = end;
                q.filter = filter;
                q.limit = 0;
                const TopList list = topList(m_data.events, q, nullptr, split);
                const auto expected = bruteForce(m_items, q.dimension, start, end, filter);
                QCOMPARE(list.rows.size(), qsizetype(expected.size()));
                qint64 events = 0;
                for (const TopRow &r : list.rows) {
                    const auto it = expected.find(r.key);
                    QVERIFY2(it != expected.end(), qPrintable(r.key));
                    QCOMPARE(r.count, it->second.count);
                    QCOMPARE(r.totalLatencyNs, it->second.latency);
                    QCOMPARE(r.p99LatencyNs, rank(it->second.latencies, 0.99));
                    QCOMPARE(r.bytes, it->second.bytes);
                    events += r.count;
                }
                QCOMPARE(list.events, events);
                // The same rows in the same order as one thread's.
                const TopList one = topList(m_data.events, q, nullptr, ScanSplit{1, 0});
                QCOMPARE(list.rows.size(), one.rows.size());
                for (qsizetype k = 0; k < one.rows.size(); ++k)
                    QCOMPARE(list.rows[k].key, one.rows[k].key);
            }
            const QList<LatencyStats> stats =
                latencyStats(m_data.events, start, end, filter, std::nullopt, nullptr, split);
            std::map<std::pair<int, QString>, std::vector<const Item *>> groups;
            for (const Item &it : std::as_const(m_items)) {
                if (!it.hasLatency || it.timeNs < start || it.timeNs >= end || !passes(it, filter))
                    continue;
                QString key;
                if (it.type == EventType::Block)
                    key =
                        it.keys[Dimension::Disk] + QLatin1Char(' ') + it.keys[Dimension::Operation];
                else if (it.type == EventType::FsSlow)
                    key = it.keys[Dimension::Operation];
                groups[{int(it.type), key}].push_back(&it);
            }
            QCOMPARE(stats.size(), qsizetype(groups.size()));
            for (const LatencyStats &s : stats) {
                const auto g = groups.find({int(s.type), s.key});
                QVERIFY2(g != groups.end(), qPrintable(s.key));
                std::vector<quint64> v;
                const Item *slowest = nullptr;
                for (const Item *it : g->second) {
                    v.push_back(it->latencyNs);
                    if (!slowest || it->latencyNs > slowest->latencyNs)
                        slowest = it; // the first of equals, as documented
                }
                QCOMPARE(s.count, qint64(v.size()));
                QCOMPARE(s.minNs, *std::min_element(v.begin(), v.end()));
                QCOMPARE(s.maxNs, slowest->latencyNs);
                QCOMPARE(s.maxIndex, slowest->index);
                QCOMPARE(s.p50Ns, rank(v, 0.5));
                QCOMPARE(s.p90Ns, rank(v, 0.9));
                QCOMPARE(s.p99Ns, rank(v, 0.99));
                QCOMPARE(s.p999Ns, rank(v, 0.999));
            }
        }
    }

    // The percentiles count latencies into buckets, then keep only those of the buckets the
    // ranks fall in: every result must still be the exact nearest rank. Each disk below is a
    // case that could break that: one event, all equal, ties inside a bucket (1020..1023 share
    // one, 1024 starts the next), ranks exactly on bucket edges, values across the whole
    // 64-bit range; every split of the scan over threads.
    void percentilesAreExactOnHardCases()
    {
        QRandomGenerator rng(7);
        QMap<QByteArray, std::vector<quint64>> cases;
        cases["one"] = {12345};
        cases["equal"] = std::vector<quint64>(1000, 777777);
        for (int i = 0; i < 1000; ++i) // p50 is the last 1023, p90 the 1024s
            cases["edge"].push_back(i < 500 ? 1023 : 1024);
        for (int i = 0; i < 1000; ++i) // four values per bucket, heavily tied
            cases["ties"].push_back(1020 + quint64(rng.bounded(8)));
        for (int i = 0; i < 2000; ++i) {
            // Bucket bounds and their neighbours at many scales; small exact values too.
            const int shift = rng.bounded(40);
            const quint64 v = (quint64(128 + rng.bounded(128)) << shift) - quint64(rng.bounded(2));
            cases["bounds"].push_back(i % 10 == 0 ? quint64(rng.bounded(300)) : v);
        }
        for (int i = 0; i < 3000; ++i)
            cases["wide"].push_back(rng.generate64() >> rng.bounded(64));
        cases["wide"].push_back(~quint64(0));

        RecordBatch b;
        quint64 t = StartNs;
        for (auto it = cases.cbegin(); it != cases.cend(); ++it) {
            for (quint64 v : it.value()) {
                BlockEvent e;
                e.timeNs = ++t;
                e.disk = it.key();
                e.op = "Read";
                e.comm = "dd";
                e.deviceNs = v;
                b.block.append(e);
            }
        }
        const QString path = m_dir.filePath(QStringLiteral("ranks.bpflens"));
        SessionInfo info = sessionInfoForThisHost();
        info.startMonotonicNs = StartNs;
        SessionWriter w;
        QString error;
        QVERIFY2(w.create(path, info, &error), qPrintable(error));
        QVERIFY2(w.writeBatch(b, &error), qPrintable(error));
        QVERIFY2(w.finish(t + 1, &error), qPrintable(error));
        SessionData data;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));

        for (const ScanSplit split : {ScanSplit{1, 0}, ScanSplit{2, 7}, ScanSplit{3, 1},
                                      ScanSplit{8, 13}, ScanSplit{2, 64}}) {
            const QList<LatencyStats> stats =
                latencyStats(data.events, 0, std::numeric_limits<quint64>::max(), {},
                             EventType::Block, nullptr, split);
            QCOMPARE(stats.size(), cases.size());
            for (const LatencyStats &st : stats) {
                const QByteArray disk = st.key.section(QLatin1Char(' '), 0, 0).toUtf8();
                QVERIFY2(cases.contains(disk), qPrintable(st.key));
                const std::vector<quint64> &v = cases[disk];
                const QByteArray what = disk + " split " + QByteArray::number(split.threads) + "/" +
                                        QByteArray::number(split.chunkEvents);
                QVERIFY2(st.count == qint64(v.size()), what);
                QVERIFY2(st.minNs == *std::min_element(v.begin(), v.end()), what);
                QVERIFY2(st.maxNs == *std::max_element(v.begin(), v.end()), what);
                QVERIFY2(st.p50Ns == rank(v, 0.5), what);
                QVERIFY2(st.p90Ns == rank(v, 0.9), what);
                QVERIFY2(st.p99Ns == rank(v, 0.99), what);
                QVERIFY2(st.p999Ns == rank(v, 0.999), what);
            }
        }
    }

    void latencyStatsMatchBruteForce()
    {
        const quint64 start = StartNs + 20000000, end = StartNs + 260000000;
        const EventFilter filter{{}, -1, {}, 0};
        const QList<LatencyStats> stats = latencyStats(m_data.events, start, end, filter);
        // Brute force: block per "disk op", fsslower per op, tcplife as a whole.
        std::map<std::pair<int, QString>, std::vector<const Item *>> groups;
        for (const Item &it : std::as_const(m_items)) {
            if (!it.hasLatency || it.timeNs < start || it.timeNs >= end)
                continue;
            QString key;
            if (it.type == EventType::Block)
                key = it.keys[Dimension::Disk] + QLatin1Char(' ') + it.keys[Dimension::Operation];
            else if (it.type == EventType::FsSlow)
                key = it.keys[Dimension::Operation];
            groups[{int(it.type), key}].push_back(&it);
        }
        QCOMPARE(stats.size(), qsizetype(groups.size()));
        for (const LatencyStats &s : stats) {
            const auto g = groups.find({int(s.type), s.key});
            QVERIFY2(g != groups.end(), qPrintable(s.key));
            std::vector<quint64> v;
            quint64 sum = 0;
            const Item *slowest = nullptr;
            for (const Item *it : g->second) {
                v.push_back(it->latencyNs);
                sum += it->latencyNs;
                if (!slowest || it->latencyNs > slowest->latencyNs)
                    slowest = it;
            }
            QCOMPARE(s.count, qint64(v.size()));
            QCOMPARE(s.minNs, *std::min_element(v.begin(), v.end()));
            QCOMPARE(s.maxNs, *std::max_element(v.begin(), v.end()));
            QCOMPARE(s.meanNs, double(sum) / double(v.size()));
            QCOMPARE(s.p50Ns, rank(v, 0.5));
            QCOMPARE(s.p90Ns, rank(v, 0.9));
            QCOMPARE(s.p99Ns, rank(v, 0.99));
            QCOMPARE(s.p999Ns, rank(v, 0.999));
            QCOMPARE(s.maxIndex, slowest->index);
            quint64 ns = 0;
            QVERIFY(m_data.events.latencyNs(s.type, s.maxIndex, &ns));
            QCOMPARE(ns, s.maxNs);
        }
    }

    void namesRoundTrip()
    {
        for (int d = 0; d <= int(Dimension::Error); ++d)
            QCOMPARE(dimensionFromName(dimensionName(Dimension(d))), Dimension(d));
        for (int m = 0; m <= int(TopMetric::Bytes); ++m)
            QCOMPARE(metricFromName(metricName(TopMetric(m))), TopMetric(m));
        QVERIFY(!dimensionFromName(QStringLiteral("disks")));
        QVERIFY(typeHasDimension(EventType::Block, Dimension::Disk));
        QVERIFY(!typeHasDimension(EventType::Exec, Dimension::Disk));
    }

    void emptyRangeHasNoRows()
    {
        TopQuery q;
        q.startNs = StartNs + 900000000ull;
        QCOMPARE(topList(m_data.events, q).rows.size(), 0);
        QVERIFY(latencyStats(m_data.events, q.startNs, q.endNs, {}).isEmpty());
    }

    void cancelStops()
    {
        std::atomic_bool cancel{true};
        TopQuery q;
        QCOMPARE(topList(m_data.events, q, &cancel).rows.size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestTopLists)
#include "tst_toplists.moc"
