// "Explain this spike" (core/spikeexplain): a real session file with a known spike (dd writing
// /var/tmp/x to vda, slowly, in one tenth of the recording) among random background events of
// several types and CPU samples with stacks. Every row of the ranking, over the spike's range,
// other ranges and filters, is compared with a brute-force count over the events the test wrote,
// written here per type without the declarations' help.
#include "core/sessioninfo.h"
#include "core/sessionstore.h"
#include "core/spikeexplain.h"
#include "core/toplists.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace bpflens;

namespace {

constexpr quint64 StartNs = 1000000000ull;
constexpr quint64 TickNs = 1000000;                    // one round of events per millisecond
constexpr quint64 SpikeA = StartNs + 400 * TickNs;     // the spike: [SpikeA, SpikeB)
constexpr quint64 SpikeB = StartNs + 500 * TickNs;     //
constexpr int FunctionDim = int(Dimension::Error) + 1; // the CPU functions' place in Item::keys

// One event as the brute force sees it.
struct Item
{
    quint64 timeNs;
    quint32 pid;
    QByteArray comm;
    QList<int> dims;          // the dimensions its type has besides process and command
    QMap<int, QString> keys;  // its values there (none for an open that succeeded)
    QList<QByteArray> search; // what the text filter searches besides comm
    bool hasLatency = false;
    quint64 latencyNs = 0;
    bool isBlock = false;
};

QString text(const QByteArray &b)
{
    return QString::fromUtf8(b);
}

RecordBatch makeBatch(QList<Item> *items)
{
    QRandomGenerator rng(7);
    const QByteArray comms[] = {"tar", "sh", "postgres", "dd"};
    const QByteArray paths[] = {"/etc/passwd", "/var/log/syslog", "/var/tmp/x",
                                "/usr/lib/libc.so.6"};
    const QByteArray disks[] = {"vda", "nvme0n1"};
    const QByteArray ops[] = {"Read", "Write", "Sync-Write"};
    RecordBatch b;
    // Frames: 1 memcpy_erms (kernel), 2 main, 3 ext4_file_write_iter (kernel); stacks leaf
    // first: 1 = ext4 <- main, 2 = memcpy <- main, 3 = main.
    const char *symbols[] = {"memcpy_erms", "main", "ext4_file_write_iter"};
    for (quint32 f = 1; f <= 3; ++f)
        b.frames.append(FrameDefinition{f,
                                        {f == 2 ? FrameKind::User : FrameKind::Kernel,
                                         0x1000 * f,
                                         f == 2 ? QByteArray("/usr/bin/dd") : QByteArray("vmlinux"),
                                         {},
                                         symbols[f - 1]}});
    b.stacks.append(StackDefinition{1, 0, {3, 2}});
    b.stacks.append(StackDefinition{2, 0, {1, 2}});
    b.stacks.append(StackDefinition{3, 0, {2}});
    const QString leafOf[] = {QString(), QStringLiteral("ext4_file_write_iter"),
                              QStringLiteral("memcpy_erms"), QStringLiteral("main")};

    int spikeOpens = 0;
    for (int i = 0; i < 1000; ++i) {
        const quint64 t = StartNs + quint64(i) * TickNs;
        const bool spike = t >= SpikeA && t < SpikeB && rng.bounded(10) < 9;
        const QByteArray comm = spike ? QByteArray("dd") : comms[rng.bounded(4)];
        const quint32 pid = comm == "dd" ? (spike ? 700 : 701) : 100 + rng.bounded(3);
        {
            BlockEvent e;
            e.timeNs = t + 1;
            e.pid = pid;
            e.comm = comm;
            e.disk = spike ? QByteArray("vda") : disks[rng.bounded(2)];
            e.op = spike ? QByteArray("Write") : ops[rng.bounded(3)];
            e.bytes = 4096;
            e.queueNs = rng.bounded(50000);
            e.deviceNs = spike ? 20000000 + rng.bounded(5000000) : 1000 + rng.bounded(12000000);
            Item it{e.timeNs, pid, comm, {int(Dimension::Disk), int(Dimension::Operation)}, {}, {}};
            it.keys[int(Dimension::Disk)] = text(e.disk);
            it.keys[int(Dimension::Operation)] = text(e.op);
            it.search = {e.disk, e.op};
            it.hasLatency = it.isBlock = true;
            it.latencyNs = e.queueNs + e.deviceNs;
            b.block.append(e);
            items->append(it);
        }
        if (i % 2 == 0) {
            OpenEvent e;
            e.timeNs = t + 2;
            e.pid = pid;
            e.comm = comm;
            // One file opened once, in the spike only: "only inside", and no explanation.
            e.path = spike ? (spikeOpens++ == 3 ? QByteArray("/etc/once.conf")
                                                : QByteArray("/var/tmp/x"))
                           : paths[rng.bounded(4)];
            e.ret = rng.bounded(6) == 0 ? -2 : 3;
            Item it{e.timeNs, pid, comm, {int(Dimension::File), int(Dimension::Error)}, {}, {}};
            it.keys[int(Dimension::File)] = text(e.path);
            if (e.ret < 0)
                it.keys[int(Dimension::Error)] = QStringLiteral("ENOENT");
            it.search = {e.path};
            b.open.append(e);
            items->append(it);
        }
        if (i % 3 == 0) {
            FsSlowEvent e;
            e.timeNs = t + 3;
            e.pid = pid;
            e.comm = comm;
            e.op = spike ? 'W' : "RWOF"[rng.bounded(4)];
            e.filename = spike ? QByteArray("x") : paths[rng.bounded(4)].mid(5);
            e.fs = "ext4";
            e.latencyNs = 10000 + rng.bounded(30000000);
            Item it{e.timeNs, pid, comm, {int(Dimension::File), int(Dimension::Operation)}, {}, {}};
            it.keys[int(Dimension::File)] = text(e.filename);
            it.keys[int(Dimension::Operation)] = QString(QLatin1Char(char(e.op)));
            it.search = {e.filename, e.fs};
            it.hasLatency = true;
            it.latencyNs = e.latencyNs;
            b.fsSlow.append(e);
            items->append(it);
        }
        if (i % 5 == 0) {
            TcpConnectEvent e;
            e.timeNs = t + 4;
            e.pid = pid;
            e.comm = comm;
            e.daddr = {10, 0, 0, quint8(1 + rng.bounded(3))};
            e.dport = 443;
            e.ret = rng.bounded(4) == 0 ? -111 : 0;
            Item it{e.timeNs, pid, comm, {int(Dimension::Destination), int(Dimension::Error)},
                    {},       {}};
            it.keys[int(Dimension::Destination)] = QStringLiteral("10.0.0.%1:443").arg(e.daddr[3]);
            if (e.ret < 0)
                it.keys[int(Dimension::Error)] = QStringLiteral("ECONNREFUSED");
            b.tcpConnect.append(e);
            items->append(it);
        }
        {
            CpuSampleEvent e;
            e.timeNs = t + 5;
            e.pid = pid;
            e.tid = pid;
            e.comm = comm;
            e.stackId = spike ? 2 : rng.bounded(4); // 0: no stack
            Item it{e.timeNs, pid, comm, {FunctionDim}, {}, {}};
            if (e.stackId)
                it.keys[FunctionDim] = leafOf[e.stackId];
            b.cpuSample.append(e);
            items->append(it);
        }
    }
    return b;
}

bool passes(const Item &it, const EventFilter &f)
{
    if ((f.minLatencyNs || f.maxLatencyNs) && !it.hasLatency)
        return false;
    if (f.minLatencyNs && it.latencyNs < f.minLatencyNs)
        return false;
    if (f.maxLatencyNs && it.latencyNs >= f.maxLatencyNs)
        return false;
    if (f.pid >= 0 && qint64(it.pid) != f.pid)
        return false;
    if (!f.comm.isEmpty() && it.comm != f.comm)
        return false;
    if (f.text.isEmpty())
        return true;
    const QByteArray needle = f.text.toLower();
    if (it.comm.toLower().contains(needle))
        return true;
    for (const QByteArray &s : it.search) {
        if (s.toLower().contains(needle))
            return true;
    }
    return false;
}

double wilsonLower(qint64 k, qint64 total)
{
    if (total == 0)
        return 0;
    const double n = double(total), p = double(k) / n, z = 1.96, z2 = z * z;
    return (p + z2 / (2 * n) - z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

struct Expected
{
    int dim;
    QString key;
    qint64 inside = 0, outside = 0, insideTotal = 0, outsideTotal = 0;
    // The documented score: the Wilson lower bound (95%) of the inside share minus the
    // outside share.
    double score() const
    {
        return wilsonLower(inside, insideTotal) -
               (outsideTotal ? double(outside) / double(outsideTotal) : 0);
    }
};

// Every over-represented value with the documented support (at least 5 events inside and 1% of
// the range's events that could have had one; all of them with supported false), in the
// documented order: score, inside count, dimension, key.
QList<Expected> bruteForce(const QList<Item> &items, quint64 start, quint64 end,
                           const EventFilter &f, bool blockOnly, bool supported = true)
{
    std::map<std::pair<int, QString>, Expected> values;
    std::map<int, std::pair<qint64, qint64>> totals;
    for (const Item &it : items) {
        if (!passes(it, f) || (blockOnly && !it.isBlock))
            continue;
        const bool inside = it.timeNs >= start && it.timeNs < end;
        QMap<int, QString> keys = it.keys;
        QList<int> dims = it.dims;
        dims << int(Dimension::Process) << int(Dimension::Command);
        keys[int(Dimension::Process)] = QString::number(it.pid) + u' ' + text(it.comm);
        keys[int(Dimension::Command)] = text(it.comm);
        for (int d : std::as_const(dims)) {
            ++(inside ? totals[d].first : totals[d].second);
            if (!keys.contains(d))
                continue;
            Expected &e = values[{d, keys[d]}];
            e.dim = d;
            e.key = keys[d];
            ++(inside ? e.inside : e.outside);
        }
    }
    QList<Expected> out;
    for (auto &[k, e] : values) {
        e.insideTotal = totals[e.dim].first;
        e.outsideTotal = totals[e.dim].second;
        const bool support =
            supported ? e.inside >= 5 && 100 * e.inside >= e.insideTotal : e.inside > 0;
        if (support && e.score() > 0)
            out.append(e);
    }
    std::sort(out.begin(), out.end(), [](const Expected &x, const Expected &y) {
        if (x.score() != y.score())
            return x.score() > y.score();
        if (x.inside != y.inside)
            return x.inside > y.inside;
        if (x.dim != y.dim)
            return x.dim < y.dim;
        return x.key < y.key;
    });
    return out;
}

int dimIndex(const ExplainRow &r)
{
    return r.dimension ? int(*r.dimension) : FunctionDim;
}

} // namespace

Q_DECLARE_METATYPE(bpflens::EventFilter)

class TestSpikeExplain : public QObject
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
        const QString path = m_dir.filePath(QStringLiteral("spike.bpflens"));
        SessionInfo info = sessionInfoForThisHost();
        info.startMonotonicNs = StartNs;
        SessionWriter w;
        QString error;
        QVERIFY2(w.create(path, info, &error), qPrintable(error));
        QVERIFY2(w.writeBatch(b, &error), qPrintable(error));
        QVERIFY2(w.finish(StartNs + 1000 * TickNs, &error), qPrintable(error));
        QVERIFY2(SessionReader::open(path, &m_data, &error), qPrintable(error));
    }

    void rowsMatchBruteForce_data()
    {
        QTest::addColumn<quint64>("start");
        QTest::addColumn<quint64>("end");
        QTest::addColumn<EventFilter>("filter");
        QTest::addColumn<bool>("blockOnly");
        const quint64 all = std::numeric_limits<quint64>::max();
        QTest::newRow("spike") << SpikeA << SpikeB << EventFilter{} << false;
        QTest::newRow("spike, slow requests")
            << SpikeA << SpikeB << EventFilter{{}, -1, {}, 10000000, 0} << false;
        QTest::newRow("spike, block only") << SpikeA << SpikeB << EventFilter{} << true;
        QTest::newRow("latency window")
            << SpikeA << SpikeB << EventFilter{{}, -1, {}, 1000000, 8000000} << false;
        QTest::newRow("text") << SpikeA << SpikeB << EventFilter{"TMP", -1, {}, 0, 0} << false;
        QTest::newRow("quiet range")
            << StartNs + 100 * TickNs << StartNs + 300 * TickNs << EventFilter{} << false;
        QTest::newRow("everything") << quint64(0) << all << EventFilter{} << false;
        QTest::newRow("nothing inside") << quint64(0) << StartNs << EventFilter{} << false;
    }

    void rowsMatchBruteForce()
    {
        QFETCH(quint64, start);
        QFETCH(quint64, end);
        QFETCH(EventFilter, filter);
        QFETCH(bool, blockOnly);
        ExplainQuery q;
        q.startNs = start;
        q.endNs = end;
        q.filter = filter;
        q.limit = 0;
        if (blockOnly)
            q.type = EventType::Block;
        const Explanation x = explainRange(m_data.events, q, &m_data.stacks);
        const QList<Expected> expected = bruteForce(m_items, start, end, filter, blockOnly);
        QCOMPARE(x.rows.size(), expected.size());
        for (qsizetype k = 0; k < expected.size(); ++k) {
            const ExplainRow &r = x.rows[k];
            const Expected &e = expected[k];
            const QByteArray where = QByteArray::number(k) + ": " + r.key.toUtf8();
            QCOMPARE(dimIndex(r), e.dim);
            QVERIFY2(r.key == e.key, where + " vs " + e.key.toUtf8());
            QCOMPARE(r.inside, e.inside);
            QCOMPARE(r.outside, e.outside);
            QCOMPARE(r.insideTotal, e.insideTotal);
            QCOMPARE(r.outsideTotal, e.outsideTotal);
        }
        qint64 inside = 0, outside = 0;
        for (const Item &it : std::as_const(m_items)) {
            if (!passes(it, filter) || (blockOnly && !it.isBlock))
                continue;
            ++((it.timeNs >= start && it.timeNs < end) ? inside : outside);
        }
        QCOMPARE(x.insideEvents, inside);
        QCOMPARE(x.outsideEvents, outside);
        // The limit keeps the first rows.
        q.limit = 3;
        const Explanation top3 = explainRange(m_data.events, q, &m_data.stacks);
        QCOMPARE(top3.rows.size(), std::min<qsizetype>(3, expected.size()));
        for (qsizetype k = 0; k < top3.rows.size(); ++k)
            QCOMPARE(top3.rows[k].key, x.rows[k].key);
    }

    // The scan split into chunks over threads (more chunks than threads, a key's run cut by
    // chunk ends, sizes that do not divide the events) ranks exactly as the brute force does.
    void splitScanMatchesBruteForce()
    {
        const quint64 all = std::numeric_limits<quint64>::max();
        const QList<std::tuple<quint64, quint64, EventFilter>> cases{
            {SpikeA, SpikeB, EventFilter{}},
            {SpikeA, SpikeB, EventFilter{{}, -1, {}, 10000000, 0}},
            {SpikeA, SpikeB, EventFilter{"TMP", -1, {}, 0, 0}},
            {0, all, EventFilter{}}};
        for (const ScanSplit split : {ScanSplit{2, 7}, ScanSplit{3, 1}, ScanSplit{8, 50}}) {
            for (const auto &[start, end, filter] : cases) {
                ExplainQuery q;
                q.startNs = start;
                q.endNs = end;
                q.filter = filter;
                q.limit = 0;
                const Explanation x =
                    explainRange(m_data.events, q, &m_data.stacks, nullptr, split);
                const QList<Expected> expected = bruteForce(m_items, start, end, filter, false);
                QCOMPARE(x.rows.size(), expected.size());
                for (qsizetype k = 0; k < expected.size(); ++k) {
                    const ExplainRow &r = x.rows[k];
                    const Expected &e = expected[k];
                    QCOMPARE(dimIndex(r), e.dim);
                    QCOMPARE(r.key, e.key);
                    QCOMPARE(r.inside, e.inside);
                    QCOMPARE(r.outside, e.outside);
                    QCOMPARE(r.insideTotal, e.insideTotal);
                    QCOMPARE(r.outsideTotal, e.outsideTotal);
                }
                qint64 inside = 0, outside = 0;
                for (const Item &it : std::as_const(m_items)) {
                    if (passes(it, filter))
                        ++((it.timeNs >= start && it.timeNs < end) ? inside : outside);
                }
                QCOMPARE(x.insideEvents, inside);
                QCOMPARE(x.outsideEvents, outside);
            }
        }
    }

    // What the user reads for the spike's slow requests: dd (pid 700) writing to vda tops the
    // list with nearly all of the range's slow requests and few of those outside it.
    void slowRequestsOfTheSpikeAreDd()
    {
        ExplainQuery q;
        q.startNs = SpikeA;
        q.endNs = SpikeB;
        q.filter.minLatencyNs = 20000000;
        q.type = EventType::Block;
        const Explanation x = explainRange(m_data.events, q, &m_data.stacks);
        QVERIFY(x.rows.size() >= 3);
        QStringList top;
        for (qsizetype k = 0; k < 4; ++k)
            top << x.rows[k].key;
        QVERIFY2(top.contains(QStringLiteral("700 dd")), qPrintable(top.join(u',')));
        QVERIFY2(top.contains(QStringLiteral("dd")), qPrintable(top.join(u',')));
        const ExplainRow &dd = *std::find_if(x.rows.begin(), x.rows.end(), [](const ExplainRow &r) {
            return r.key == QLatin1String("700 dd");
        });
        QVERIFY2(dd.insideShare() > 0.85, qPrintable(QString::number(dd.insideShare())));
        QCOMPARE(dd.outside, 0); // pid 700 only runs in the spike
        QVERIFY(std::isinf(dd.lift()));
        QVERIFY(dd.filter.has_value());
        QCOMPARE(dd.filter->pid, 700);
        QCOMPARE(dd.filter->comm, QByteArray("dd"));
        // The CPU samples of the spike are in memcpy_erms, not block events: not in this list.
        for (const ExplainRow &r : x.rows)
            QVERIFY(r.dimension.has_value());
    }

    void functionsOfTheSpike()
    {
        ExplainQuery q;
        q.startNs = SpikeA;
        q.endNs = SpikeB;
        q.type = EventType::CpuSample;
        const Explanation x = explainRange(m_data.events, q, &m_data.stacks);
        const auto fn = std::find_if(x.rows.begin(), x.rows.end(),
                                     [](const ExplainRow &r) { return !r.dimension; });
        QVERIFY(fn != x.rows.end());
        QCOMPARE(fn->key, QStringLiteral("memcpy_erms"));
        QCOMPARE(explainDimensionName(fn->dimension), QStringLiteral("function"));
        // Without the stack table there are no functions to rank.
        const Explanation none = explainRange(m_data.events, q, nullptr);
        for (const ExplainRow &r : none.rows)
            QVERIFY(r.dimension.has_value());
    }

    // A value seen once or twice in the range is no explanation however rare it is outside:
    // the ranges below have such values, and none is listed.
    void fewEventsAreNotListed()
    {
        const quint64 all = std::numeric_limits<quint64>::max();
        const QList<std::tuple<quint64, quint64, EventFilter>> cases{
            {SpikeA, SpikeB, EventFilter{}},
            {SpikeA, SpikeB, EventFilter{{}, -1, {}, 10000000, 0}},
            {SpikeA, SpikeB, EventFilter{{}, -1, {}, 1000000, 8000000}},
            {SpikeA, SpikeB, EventFilter{"TMP", -1, {}, 0, 0}},
            {StartNs + 100 * TickNs, StartNs + 300 * TickNs, EventFilter{}},
            {0, all, EventFilter{}}};
        qsizetype unsupported = 0;
        for (const auto &[start, end, filter] : cases) {
            ExplainQuery q;
            q.startNs = start;
            q.endNs = end;
            q.filter = filter;
            q.limit = 0;
            const Explanation x = explainRange(m_data.events, q, &m_data.stacks);
            for (const Expected &e : bruteForce(m_items, start, end, filter, false, false)) {
                if (e.inside >= 5 && 100 * e.inside >= e.insideTotal)
                    continue;
                ++unsupported;
                for (const ExplainRow &r : x.rows)
                    QVERIFY2(!(dimIndex(r) == e.dim && r.key == e.key), qPrintable(r.key));
            }
            for (const ExplainRow &r : x.rows) {
                QVERIFY(r.isSupported());
                QVERIFY2(r.inside >= 5 && double(r.inside) >= 0.01 * double(r.insideTotal),
                         qPrintable(r.key));
            }
        }
        QVERIFY(unsupported > 0);
        QVERIFY(!hasMinimumSupport(4, 10));
        QVERIFY(hasMinimumSupport(5, 500));
        QVERIFY(!hasMinimumSupport(5, 501));
    }

    void cancelledGivesNothing()
    {
        std::atomic_bool cancel{true};
        ExplainQuery q;
        q.startNs = SpikeA;
        q.endNs = SpikeB;
        const Explanation x = explainRange(m_data.events, q, &m_data.stacks, &cancel);
        QVERIFY(x.rows.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestSpikeExplain)
#include "tst_spikeexplain.moc"
