// What the Histograms tab leads with and how it states percentiles (#29 points 6 and 7): the
// machine-wide chart of each probe (biolatency, runqlat) before the per-key charts, those by
// their samples, the one-sample "bitesize — bash" last; a log2 histogram's percentiles as the
// bucket they fall in, in units that say what they are, the count with its plural.
#include "core/sessionstore.h"
#include "core/units.h"
#include "gui/histogramview.h"
#include "gui/mainwindow.h"
#include "gui/resultspage.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLocale>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace bpflens;

namespace {

constexpr quint64 StartNs = 5'000'000'000ull;
constexpr quint64 SecondNs = 1'000'000'000ull;

HistogramSnapshot snapshot(const QString &probe, const QString &key, HistogramUnit unit, int second,
                           quint64 value, quint64 count)
{
    HistogramSnapshot h;
    h.probeId = probe;
    h.key = key;
    h.timeNs = StartNs + quint64(second + 1) * SecondNs;
    h.intervalNs = SecondNs;
    h.histogram = Log2Histogram(unit);
    h.histogram.add(value, count);
    return h;
}

// Sorted by probe and key, as a session holds them: bitesize's per-command charts come first.
QList<HistogramSnapshot> snapshots()
{
    QList<HistogramSnapshot> out;
    for (int s = 0; s < 2; ++s) {
        out << snapshot(QStringLiteral("bitesize"), QStringLiteral("bash"),
                        HistogramUnit::Kilobytes, s, 4, s == 0 ? 1 : 0)
            << snapshot(QStringLiteral("bitesize"), QStringLiteral("dd"), HistogramUnit::Kilobytes,
                        s, 1024, 200)
            << snapshot(QStringLiteral("bitesize"), QStringLiteral("tar"), HistogramUnit::Kilobytes,
                        s, 64, 30)
            << snapshot(QStringLiteral("block"), QString(), HistogramUnit::Microseconds, s, 300,
                        230)
            << snapshot(QStringLiteral("runqlat"), QString(), HistogramUnit::Microseconds, s, 9,
                        500);
    }
    return out;
}

} // namespace

class TestHistogramLead : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale::c());
    }

    void machineWideChartsLead()
    {
        const QList<HistogramEntry> entries =
            HistogramView::compute(snapshots(), 0, ~0ull, HistogramMode::Cumulative);
        QStringList order;
        for (const HistogramEntry &e : entries)
            order << e.probeId + u'/' + e.key;
        QCOMPARE(order, QStringList({QStringLiteral("block/"), QStringLiteral("runqlat/"),
                                     QStringLiteral("bitesize/dd"), QStringLiteral("bitesize/tar"),
                                     QStringLiteral("bitesize/bash")}));
        // Zoomed into the second second, where bash has nothing: the order stays.
        const QList<HistogramEntry> zoomed = HistogramView::compute(
            snapshots(), StartNs + 2 * SecondNs, ~0ull, HistogramMode::Cumulative);
        QCOMPARE(zoomed.last().key, QStringLiteral("bash"));
        QCOMPARE(zoomed.first().probeId, QStringLiteral("block"));
    }

    void theTabShowsThemInThatOrder()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("lead.bpflens"));
        SessionInfo info;
        info.appVersion = QStringLiteral("0.1.0");
        info.host = QStringLiteral("testhost");
        info.startMonotonicNs = StartNs;
        SessionWriter writer;
        QString error;
        QVERIFY2(writer.create(path, info, &error), qPrintable(error));
        RecordBatch b;
        b.histograms = snapshots();
        QVERIFY2(writer.writeBatch(b, &error), qPrintable(error));
        QVERIFY2(writer.finish(StartNs + 3 * SecondNs, &error), qPrintable(error));
        writer.close();

        MainWindow w;
        QVERIFY2(w.openFile(path, &error), qPrintable(error));
        w.results()->showView(w.results()->histogramView());
        const QList<QChartView *> views = w.results()->histogramView()->chartViews();
        QCOMPARE(views.size(), 5);
        QVERIFY2(views.first()->chart()->title().startsWith(QLatin1String("<b>block</b>")),
                 qPrintable(views.first()->chart()->title()));
        QVERIFY2(views.last()->chart()->title().contains(QStringLiteral("bitesize — bash")),
                 qPrintable(views.last()->chart()->title()));
        // One 4 KiB request: its bucket, 4 to 7 KiB, and one sample.
        QCOMPARE(views.last()->chart()->title(),
                 QStringLiteral("<b>bitesize — bash</b><br>p50 in 4–7 KiB · p99 in 4–7 KiB "
                                "(darker bars) · 1 sample"));
    }

    void percentilesAreBucketRanges()
    {
        Log2Histogram h(HistogramUnit::Microseconds);
        h.add(100, 90);  // 64-127 µs
        h.add(3000, 10); // 2048-4095 µs
        QCOMPARE(HistogramView::summaryText(h),
                 QStringLiteral("p50 in 64–127 µs · p99 in 2048–4095 µs (darker bars) · 100 "
                                "samples"));
        QCOMPARE(percentileSlot(h, 0.5), 6);
        QCOMPARE(percentileSlot(h, 0.9), 6);
        QCOMPARE(percentileSlot(h, 0.91), 11);
        Log2Histogram values(HistogramUnit::Value);
        values.add(1, 1);
        QCOMPARE(HistogramView::summaryText(values),
                 QStringLiteral("p50 in 0–1 · p99 in 0–1 (darker bars) · 1 sample"));
    }
};

QTEST_MAIN(TestHistogramLead)
#include "tst_histogramlead.moc"
