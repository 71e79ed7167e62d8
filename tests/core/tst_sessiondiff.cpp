// bpflens-cli diff's comparison (core/sessiondiff): two real session files with known block
// requests, histogram snapshots and execs, written and read back; the merged histograms'
// percentiles, the counts and the commands are checked against what the test put in, computed
// here by brute force. A session compared with itself shows no change.
#include "histogram.h"
#include "sessiondiff.h"
#include "sessioninfo.h"
#include "sessionstore.h"

#include <QTemporaryDir>
#include <QTest>

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
            for (const SessionDiff::Command &c : e.commands)
                QCOMPARE(c.a, c.b);
        }
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
        const QList<SessionDiff::Command> &c = d.events[1].commands;
        QCOMPARE(c.size(), 2);
        QCOMPARE(c[0].comm, QStringLiteral("dd"));
        QCOMPARE(c[0].a, 100);
        QCOMPARE(c[0].b, 60);
        QCOMPARE(c[1].comm, QStringLiteral("tar"));
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

    void topKeepsTheBusiest()
    {
        Spec a;
        a.blockByComm = {{"a", 1}, {"b", 5}, {"c", 3}};
        Spec b;
        b.blockByComm = {{"a", 9}, {"d", 2}};
        const SessionDiff d = diffSessions(load(a, "t-a.bpflens"), load(b, "t-b.bpflens"), 2);
        QCOMPARE(d.events[0].commands.size(), 2);
        QCOMPARE(d.events[0].commands[0].comm, QStringLiteral("a"));
        QCOMPARE(d.events[0].commands[1].comm, QStringLiteral("b"));
    }
};

QTEST_GUILESS_MAIN(TestSessionDiff)
#include "tst_sessiondiff.moc"
