// The latency heatmap (HeatmapModel, HeatmapView): every cell against a brute-force count over
// the events of a real session file, the histogram-only path from interval snapshots, the
// colour scales as painted, and a click or drag on cells filtering the event table to exactly
// the cells' events.
#include "core/sessionstore.h"
#include "gui/heatmapview.h"
#include "gui/mainwindow.h"
#include "gui/models/eventmodels.h"
#include "gui/models/heatmapmodel.h"
#include "gui/models/sessionmodel.h"
#include "gui/resultspage.h"

#include <QApplication>
#include <QComboBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace bpflens;

namespace {

constexpr quint64 StartNs = 50'000'000'000ull;
constexpr quint64 SecondNs = 1'000'000'000ull;
constexpr int Seconds = 4;
constexpr int BlockPerSecond = 700;

// Latencies over twelve log2 buckets (4 µs .. 16 ms), denser in some buckets and seconds than
// others, so cells differ in count; two processes so a pid filter changes them.
BlockEvent blockEvent(int second, int i)
{
    BlockEvent e;
    e.timeNs = StartNs + quint64(second) * SecondNs + quint64(i) * (SecondNs / BlockPerSecond) +
               quint64(i % 7) * 13;
    e.dev = 253u << 20;
    e.sector = quint64(i) * 8;
    e.bytes = 4096;
    e.pid = i % 3 ? 100 : 200;
    e.comm = i % 3 ? QByteArrayLiteral("dd") : QByteArrayLiteral("fio");
    e.disk = QByteArrayLiteral("vda");
    e.op = QByteArrayLiteral("Write");
    const int bucket = 12 + (i * i + second * 5) % (6 + 2 * second);
    e.queueNs = quint64(i % 5) * 100;
    e.deviceNs = (quint64(1) << bucket) + quint64((i * 7919) % (1 << bucket));
    return e;
}

HistogramSnapshot runqlat(int second)
{
    HistogramSnapshot h;
    h.probeId = QStringLiteral("runqlat");
    h.timeNs = StartNs + quint64(second + 1) * SecondNs;
    h.intervalNs = SecondNs;
    h.histogram = Log2Histogram(HistogramUnit::Microseconds);
    for (int s = 1; s < 6 + second; ++s)
        h.histogram.addToSlot(s, quint64((s * 11 + second * 3) % 40 + 1));
    return h;
}

QString writeSession(const QDir &dir, QString *error)
{
    const QString path = dir.filePath(QStringLiteral("heatmap.bpflens"));
    SessionInfo info;
    info.appVersion = QStringLiteral("0.1.0");
    info.host = QStringLiteral("testhost");
    info.startMonotonicNs = StartNs;
    info.probes = {{QStringLiteral("block"), {}, QStringLiteral("tp_btf/block_rq_complete")},
                   {QStringLiteral("runqlat"), {}, QStringLiteral("tp_btf/sched_switch")}};
    SessionWriter writer;
    if (!writer.create(path, info, error))
        return {};
    for (int s = 0; s < Seconds; ++s) {
        RecordBatch batch;
        for (int i = 0; i < BlockPerSecond; ++i)
            batch.block.append(blockEvent(s, i));
        batch.histograms << runqlat(s);
        if (!writer.writeBatch(batch, error))
            return {};
    }
    if (!writer.finish(StartNs + quint64(Seconds) * SecondNs, error))
        return {};
    return path;
}

// Over HeatmapView::WorkerThreshold events: 4 s of 40 000 requests each.
QString writeLargeSession(const QDir &dir, QString *error)
{
    const QString path = dir.filePath(QStringLiteral("large.bpflens"));
    SessionInfo info;
    info.appVersion = QStringLiteral("0.1.0");
    info.host = QStringLiteral("testhost");
    info.startMonotonicNs = StartNs;
    info.probes = {{QStringLiteral("block"), {}, QStringLiteral("tp_btf/block_rq_complete")}};
    SessionWriter writer;
    if (!writer.create(path, info, error))
        return {};
    constexpr int PerSecond = 40'000;
    for (int s = 0; s < Seconds; ++s) {
        RecordBatch batch;
        for (int i = 0; i < PerSecond; ++i) {
            BlockEvent e = blockEvent(s, i % BlockPerSecond);
            e.timeNs = StartNs + quint64(s) * SecondNs + quint64(i) * (SecondNs / PerSecond);
            batch.block.append(e);
        }
        if (!writer.writeBatch(batch, error))
            return {};
    }
    if (!writer.finish(StartNs + quint64(Seconds) * SecondNs, error))
        return {};
    return path;
}

// Column c's first nanosecond, as the bins promise it: floor(span * c / columns) after the
// start (the products here fit in 64 bits).
quint64 edge(quint64 start, quint64 end, int columns, int c)
{
    return start + (end - start) * quint64(c) / quint64(columns);
}

} // namespace

class TestHeatmap : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cellsMatchBruteForce_data();
    void cellsMatchBruteForce();
    void snapshotsMatchBruteForce();
    void scalesAsPainted();
    void clickFiltersTableToTheCell();
    void dragSelectsARectangle();
    void snapshotSelectionTakesItsSnapshots();
    void emptyRangeSaysSo();
    void hiddenTabWaitsUntilShown();
    void largeRangeIsBinnedOnTheWorker();
    void stridesGiveTheSameBins();
    void closingWhileWorkersReadTheStore();

private:
    QTemporaryDir m_dir;
    QString m_path;
    SessionData m_data;
};

void TestHeatmap::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    QString error;
    m_path = writeSession(QDir(m_dir.path()), &error);
    QVERIFY2(!m_path.isEmpty(), qPrintable(error));
    QVERIFY2(SessionReader::open(m_path, &m_data, &error), qPrintable(error));
    QCOMPARE(m_data.events.count(EventType::Block), qsizetype(Seconds * BlockPerSecond));
}

void TestHeatmap::cellsMatchBruteForce_data()
{
    QTest::addColumn<quint64>("start");
    QTest::addColumn<quint64>("end");
    QTest::addColumn<int>("columns");
    QTest::addColumn<qint64>("pid");
    QTest::newRow("whole session") << StartNs << StartNs + Seconds * SecondNs << 400 << qint64(-1);
    QTest::newRow("odd range, 7 columns")
        << StartNs + 333'333'333 << StartNs + 2 * SecondNs + 17 << 7 << qint64(-1);
    QTest::newRow("more columns than events")
        << StartNs + SecondNs << StartNs + SecondNs + 5'000'000 << 1000 << qint64(-1);
    QTest::newRow("pid filter") << StartNs << StartNs + Seconds * SecondNs << 123 << qint64(200);
}

void TestHeatmap::cellsMatchBruteForce()
{
    QFETCH(quint64, start);
    QFETCH(quint64, end);
    QFETCH(int, columns);
    QFETCH(qint64, pid);
    SessionModel session;
    SessionData copy;
    QString error;
    QVERIFY2(SessionReader::open(m_path, &copy, &error), qPrintable(error));
    session.setSession(std::move(copy), m_path);
    const QList<HeatmapSource> sources = HeatmapModel::sources(session);
    QCOMPARE(sources.size(), 2); // block events, runqlat snapshots
    QCOMPARE(sources.at(0).kind, HeatmapSource::Events);
    QCOMPARE(sources.at(0).type, EventType::Block);
    EventFilter filter;
    filter.pid = pid;
    filter.minLatencyNs = 1 << 20; // a selection's window must not thin the map out
    filter.maxLatencyNs = 1 << 21;
    const HeatmapBins bins =
        HeatmapModel::build(session, sources.at(0), filter, start, end, columns);
    QCOMPARE(bins.columns, columns);
    QCOMPARE(bins.unit, HistogramUnit::Nanoseconds);

    std::vector<quint64> expected(size_t(columns) * HeatmapBins::Slots, 0);
    quint64 total = 0;
    for (qsizetype i = 0; i < m_data.events.count(EventType::Block); ++i) {
        const BlockEvent e = m_data.events.event<BlockEvent>(i);
        if (e.timeNs < start || e.timeNs >= end || (pid >= 0 && e.pid != quint32(pid)))
            continue;
        int c = 0;
        while (!(e.timeNs >= edge(start, end, columns, c) &&
                 e.timeNs < edge(start, end, columns, c + 1)))
            ++c;
        const quint64 ns = e.queueNs + e.deviceNs;
        int slot = 0;
        while (slot < 63 && ns >= (quint64(2) << slot))
            ++slot;
        ++expected[size_t(c) * HeatmapBins::Slots + size_t(slot)];
        ++total;
    }
    QVERIFY(total > 0);
    QCOMPARE(bins.total, total);
    quint32 max = 0;
    for (int c = 0; c < columns; ++c) {
        QCOMPARE(bins.columnStartNs(c), edge(start, end, columns, c));
        for (int s = 0; s < HeatmapBins::Slots; ++s) {
            const quint64 want = expected[size_t(c) * HeatmapBins::Slots + size_t(s)];
            if (bins.count(c, s) != want)
                QFAIL(qPrintable(QStringLiteral("cell %1/%2: %3, brute force %4")
                                     .arg(c)
                                     .arg(s)
                                     .arg(bins.count(c, s))
                                     .arg(want)));
            max = std::max(max, quint32(want));
            if (want) {
                QVERIFY(s >= bins.minSlot && s <= bins.maxSlot);
            }
        }
    }
    QCOMPARE(bins.maxCount, max);
}

void TestHeatmap::snapshotsMatchBruteForce()
{
    SessionModel session;
    SessionData copy = m_data;
    session.setSession(std::move(copy), m_path);
    const HeatmapSource source = HeatmapModel::sources(session).at(1);
    QCOMPARE(source.kind, HeatmapSource::Snapshots);
    QCOMPARE(source.probeId, QStringLiteral("runqlat"));
    // Asked for 300 columns over 4 one-second intervals: one column per interval, since a
    // snapshot cannot be split.
    const quint64 start = StartNs, end = StartNs + Seconds * SecondNs + 1;
    const HeatmapBins bins = HeatmapModel::build(session, source, {}, start, end, 300);
    QCOMPARE(bins.unit, HistogramUnit::Microseconds);
    QCOMPARE(bins.columns, Seconds);
    quint64 total = 0;
    for (int c = 0; c < bins.columns; ++c) {
        for (int s = 0; s < HeatmapBins::Slots; ++s) {
            quint64 want = 0;
            for (const HistogramSnapshot &h : m_data.histograms) {
                // A snapshot covers (timeNs - interval, timeNs]: its column holds timeNs - 1.
                if (h.timeNs - 1 >= edge(start, end, bins.columns, c) &&
                    h.timeNs - 1 < edge(start, end, bins.columns, c + 1))
                    want += h.histogram.slot(s);
            }
            QCOMPARE(quint64(bins.count(c, s)), want);
            total += want;
        }
    }
    QCOMPARE(bins.total, total);
    for (int c = 0; c < bins.columns; ++c)
        QVERIFY2(bins.histogram(c, c, 0, HeatmapBins::Slots - 1).count() > 0, "an empty column");
    // The selection histogram of all cells is the Histograms tab's cumulative merge.
    Log2Histogram merged(HistogramUnit::Microseconds);
    for (const HistogramSnapshot &h : m_data.histograms)
        merged.merge(h.histogram);
    const Log2Histogram all = bins.histogram(0, bins.columns - 1, 0, HeatmapBins::Slots - 1);
    for (int s = 0; s < HeatmapBins::Slots; ++s)
        QCOMPARE(all.slot(s), merged.slot(s));
    // A bucket in µs is 1000 times the ns window.
    QCOMPARE(bins.slotLowNs(3), quint64(8000));
    QCOMPARE(bins.slotEndNs(3), quint64(16000));
}

void TestHeatmap::scalesAsPainted()
{
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
    // Narrower than a laptop screen: the views now have its whole width (no probe dock), and
    // at 1366 px the test session's cells hold at most 4 requests, too few to tell a full cell
    // from a small one.
    w.resize(1000, 768);
    HeatmapView *view = w.results()->heatmapView();
    w.results()->showView(view);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    view->setCurrentSource(0);
    view->refresh();
    const HeatmapBins &bins = view->bins();
    QVERIFY(bins.maxCount > 4);
    // A cell holding the maximum, one with a small count and an empty one inside the rows.
    int fullC = -1, fullS = -1, smallC = -1, smallS = -1, emptyC = -1, emptyS = -1;
    for (int c = 0; c < bins.columns; ++c) {
        for (int s = bins.minSlot; s <= bins.maxSlot; ++s) {
            const quint32 n = bins.count(c, s);
            if (n == bins.maxCount && fullC < 0)
                fullC = c, fullS = s;
            else if (n > 0 && n <= bins.maxCount / 4 && smallC < 0)
                smallC = c, smallS = s;
            else if (n == 0 && emptyC < 0)
                emptyC = c, emptyS = s;
        }
    }
    QVERIFY(fullC >= 0 && smallC >= 0 && emptyC >= 0);
    for (const bool log : {true, false}) {
        view->setLogScale(log);
        const QImage shot = view->plot()->grab().toImage();
        auto pixel = [&](int c, int s) {
            const QRect r = view->cellRect(c, s);
            return QColor(shot.pixel(r.center()));
        };
        QCOMPARE(pixel(fullC, fullS), HeatmapView::colorMap(1.0));
        QCOMPARE(pixel(smallC, smallS),
                 HeatmapView::cellColor(bins.count(smallC, smallS), bins.maxCount, log));
        QCOMPARE(pixel(emptyC, emptyS), w.palette().color(QPalette::Base));
    }
    // Log shows a few events brighter than linear does (viridis brightens towards yellow).
    const quint32 n = bins.count(smallC, smallS);
    const QColor logColor = HeatmapView::cellColor(n, bins.maxCount, true);
    const QColor linearColor = HeatmapView::cellColor(n, bins.maxCount, false);
    QVERIFY2(qGray(logColor.rgb()) > qGray(linearColor.rgb()),
             qPrintable(QStringLiteral("%1 of %2: log %3, linear %4")
                            .arg(n)
                            .arg(bins.maxCount)
                            .arg(logColor.name(), linearColor.name())));
    // An empty cell is no selection: the range and the tables stay.
    const quint64 rangeStart = w.viewState()->startNs();
    QTest::mouseClick(view->plot(), Qt::LeftButton, {}, view->cellRect(emptyC, emptyS).center());
    QVERIFY(!view->hasSelection());
    QCOMPARE(w.viewState()->startNs(), rangeStart);
    QCOMPARE(w.viewState()->filter().maxLatencyNs, quint64(0));
    QVERIFY(view->cellToolTip(fullC, fullS)
                .contains(QLatin1String("events: ") + QLocale().toString(bins.maxCount)));
}

void TestHeatmap::clickFiltersTableToTheCell()
{
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
    w.resize(1366, 768);
    HeatmapView *view = w.results()->heatmapView();
    w.results()->showView(view);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    view->setCurrentSource(0);
    view->refresh();
    const HeatmapBins before = view->bins();
    // The fullest cell of the middle of the session.
    int col = before.columns / 2, slot = -1;
    for (int s = before.minSlot; s <= before.maxSlot; ++s) {
        if (slot < 0 || before.count(col, s) > before.count(col, slot))
            slot = s;
    }
    QVERIFY(before.count(col, slot) > 0);
    const quint64 t0 = before.columnStartNs(col), t1 = before.columnStartNs(col + 1);
    quint64 expected = 0;
    for (qsizetype i = 0; i < m_data.events.count(EventType::Block); ++i) {
        const BlockEvent e = m_data.events.event<BlockEvent>(i);
        const quint64 ns = e.queueNs + e.deviceNs;
        if (e.timeNs >= t0 && e.timeNs < t1 && Log2Histogram::slotOf(ns) == slot)
            ++expected;
    }
    QCOMPARE(quint64(before.count(col, slot)), expected);

    QTest::mouseClick(view->plot(), Qt::LeftButton, {}, view->cellRect(col, slot).center());
    QVERIFY(view->hasSelection());
    QCOMPARE(w.viewState()->startNs(), t0);
    QCOMPARE(w.viewState()->endNs(), t1);
    QCOMPARE(w.viewState()->filter().minLatencyNs, Log2Histogram::slotLow(slot));
    QCOMPARE(w.viewState()->filter().maxLatencyNs, Log2Histogram::slotHigh(slot) + 1);
    QTableView *table = w.results()->tableView(EventType::Block);
    QTRY_COMPARE(quint64(table->model()->rowCount()), expected);
    QCOMPARE(view->selectionHistogram().count(), expected);
    QCOMPARE(view->selectionHistogram().slot(slot), expected);
    for (int r = 0; r < table->model()->rowCount(); ++r) {
        const QModelIndex i = table->model()->index(r, 0);
        const quint64 ns = i.data(EventTableModel::LatencyNsRole).toULongLong();
        QCOMPARE(Log2Histogram::slotOf(ns), slot);
    }
    QVERIFY(view->selectionText().contains(QLocale().toString(expected)));

    // Clearing gives back the range and every latency.
    view->clearSelection();
    QVERIFY(!view->hasSelection());
    QCOMPARE(w.viewState()->filter().maxLatencyNs, quint64(0));
    QCOMPARE(w.viewState()->filter().minLatencyNs, quint64(0));
    QCOMPARE(w.viewState()->startNs(), w.viewState()->fullStartNs());
    QTRY_COMPARE(table->model()->rowCount(), Seconds * BlockPerSecond);
}

void TestHeatmap::dragSelectsARectangle()
{
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
    w.resize(1366, 768);
    HeatmapView *view = w.results()->heatmapView();
    w.results()->showView(view);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    view->setCurrentSource(0);
    view->refresh();
    const HeatmapBins before = view->bins();
    const int c0 = before.columns / 5, c1 = before.columns / 2;
    const int s0 = before.minSlot + 2, s1 = before.maxSlot - 2;
    QVERIFY(s0 < s1);
    quint64 expected = 0;
    for (int c = c0; c <= c1; ++c) {
        for (int s = s0; s <= s1; ++s)
            expected += before.count(c, s);
    }
    // The same sum from the events themselves.
    quint64 brute = 0;
    for (qsizetype i = 0; i < m_data.events.count(EventType::Block); ++i) {
        const BlockEvent e = m_data.events.event<BlockEvent>(i);
        const int slot = Log2Histogram::slotOf(e.queueNs + e.deviceNs);
        if (e.timeNs >= before.columnStartNs(c0) && e.timeNs < before.columnStartNs(c1 + 1) &&
            slot >= s0 && slot <= s1)
            ++brute;
    }
    QCOMPARE(expected, brute);
    QVERIFY(expected > 0);

    // From the bottom right to the top left: a rectangle either way.
    QWidget *plot = view->plot();
    const QPoint from = view->cellRect(c1, s0).center();
    const QPoint to = view->cellRect(c0, s1).center();
    QTest::mousePress(plot, Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, to, plot->mapToGlobal(to), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QApplication::sendEvent(plot, &move);
    QTest::mouseRelease(plot, Qt::LeftButton, {}, to);
    QVERIFY(view->hasSelection());
    QTableView *table = w.results()->tableView(EventType::Block);
    QTRY_COMPARE(quint64(table->model()->rowCount()), expected);
    QCOMPARE(view->selectionHistogram().count(), expected);
    for (int s = s0; s <= s1; ++s) {
        quint64 n = 0;
        for (int c = c0; c <= c1; ++c)
            n += before.count(c, s);
        QCOMPARE(view->selectionHistogram().slot(s), n);
    }
    // Zooming elsewhere ends the selection (the latency window stays for the user to clear).
    w.viewState()->resetRange();
    view->refresh();
    QVERIFY(!view->hasSelection());
    QVERIFY(w.viewState()->filter().maxLatencyNs > 0);
    view->clearSelection();
    QCOMPARE(w.viewState()->filter().maxLatencyNs, quint64(0));
    QTRY_COMPARE(table->model()->rowCount(), Seconds * BlockPerSecond);
}

void TestHeatmap::snapshotSelectionTakesItsSnapshots()
{
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
    HeatmapView *view = w.results()->heatmapView();
    view->setCurrentSource(1);
    view->refresh();
    const HeatmapBins before = view->bins();
    QCOMPARE(before.source.probeId, QStringLiteral("runqlat"));
    for (int c = 0; c < before.columns; ++c) {
        const Log2Histogram cell = before.histogram(c, c, 0, HeatmapBins::Slots - 1);
        if (cell.isEmpty())
            continue;
        view->selectCells(c, c, 0, HeatmapBins::Slots - 1);
        QVERIFY(view->hasSelection());
        // The range holds exactly the snapshots of the column, as the Histograms tab takes
        // them: their merge is the column and the selection's histogram.
        Log2Histogram merged(HistogramUnit::Microseconds);
        int snapshots = 0;
        for (const HistogramSnapshot &h : m_data.histograms) {
            if (h.probeId == QLatin1String("runqlat") && h.timeNs >= w.viewState()->startNs() &&
                h.timeNs < w.viewState()->endNs()) {
                merged.merge(h.histogram);
                ++snapshots;
            }
        }
        QVERIFY(snapshots > 0);
        for (int s = 0; s < HeatmapBins::Slots; ++s) {
            QCOMPARE(cell.slot(s), merged.slot(s));
            QCOMPARE(view->selectionHistogram().slot(s), merged.slot(s));
        }
        view->clearSelection();
        QCOMPARE(w.viewState()->startNs(), w.viewState()->fullStartNs());
    }
}

void TestHeatmap::emptyRangeSaysSo()
{
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
    HeatmapView *view = w.results()->heatmapView();
    view->setCurrentSource(0);
    // Before the first event: the session starts at StartNs, the first request 0 ns later,
    // so a range inside the first event's gap.
    w.viewState()->setRange(StartNs + 1'000, StartNs + 1'400'000);
    view->refresh();
    quint64 brute = 0;
    for (qsizetype i = 0; i < m_data.events.count(EventType::Block); ++i) {
        const quint64 t = m_data.events.timeNs(EventType::Block, i);
        brute += t >= w.viewState()->startNs() && t < w.viewState()->endNs();
    }
    QCOMPARE(brute, quint64(0));
    QVERIFY(view->bins().isEmpty());
    QCOMPARE(view->emptyText(), QStringLiteral("No events with a latency in this range"));

    // A session without latencies has no sources and says why.
    MainWindow empty;
    QCOMPARE(empty.results()->heatmapView()->sources().size(), 0);
    QVERIFY(empty.results()->heatmapView()->emptyText().contains(
        QLatin1String("no events with a latency")));
}

// Zooming while another tab is shown costs the heatmap nothing; showing its tab brings the
// map up to the range.
void TestHeatmap::hiddenTabWaitsUntilShown()
{
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
    w.resize(1366, 768);
    w.results()->tabs()->setCurrentIndex(0); // Summary
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    HeatmapView *view = w.results()->heatmapView();
    QVERIFY(!view->isVisible());
    const quint64 before = view->bins().endNs;
    const quint64 start = w.viewState()->startNs();
    const quint64 end = start + (w.viewState()->endNs() - start) / 4;
    w.viewState()->setRange(start, end);
    QCoreApplication::processEvents();
    QCOMPARE(view->bins().endNs, before);
    w.results()->showView(view);
    QCoreApplication::processEvents();
    QCOMPARE(view->bins().startNs, start);
    QCOMPARE(view->bins().endNs, end);
}

// A range of more events than the worker threshold is binned off the GUI thread: refresh()
// returns at once, the old map stays until the new bins arrive, and those equal a build on
// the GUI thread. A newer, smaller range decided meanwhile is not overwritten by the late result.
void TestHeatmap::largeRangeIsBinnedOnTheWorker()
{
    QString error;
    const QString path = writeLargeSession(QDir(m_dir.path()), &error);
    QVERIFY2(!path.isEmpty(), qPrintable(error));
    MainWindow w;
    QVERIFY2(w.openFile(path, &error), qPrintable(error));
    w.resize(1366, 768);
    HeatmapView *view = w.results()->heatmapView();
    w.results()->showView(view);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_VERIFY(!view->isComputing());
    const quint64 total = quint64(Seconds) * 40'000;
    QVERIFY(total > quint64(HeatmapView::WorkerThreshold));
    QCOMPARE(view->bins().total, total);

    QSignalSpy refreshed(view, &HeatmapView::refreshed);
    view->refresh();
    QVERIFY(view->isComputing());
    QVERIFY(refreshed.wait(20'000));
    QVERIFY(!view->isComputing());
    const HeatmapBins expected =
        HeatmapModel::build(*w.session(), view->bins().source, w.viewState()->filter(),
                            w.viewState()->startNs(), w.viewState()->endNs(), view->bins().columns);
    QCOMPARE(view->bins().total, total);
    QCOMPARE(view->bins().counts, expected.counts);

    // The whole range on the worker, then at once 10 ms of it (400 events, built in place).
    view->refresh();
    QVERIFY(view->isComputing());
    const quint64 a = StartNs + SecondNs, b = a + SecondNs / 100;
    w.viewState()->setRange(a, b);
    view->refresh();
    QVERIFY(!view->isComputing());
    QCOMPARE(view->bins().startNs, a);
    QCOMPARE(view->bins().total, quint64(400));
    QTest::qWait(1500); // the whole range's result, had it been kept, would be here by now
    QCOMPARE(view->bins().startNs, a);
    QCOMPARE(view->bins().total, quint64(400));
}

// Whole strides added from their summary give exactly the bins of reading every event: ranges
// that start and end inside strides, columns narrower and wider than a stride, bursts and
// gaps, a stride whose last event sits on a column's edge, and strides extended after a live
// append in time order.
void TestHeatmap::stridesGiveTheSameBins()
{
    constexpr qsizetype S = HeatmapStrides::StrideEvents;
    // Event i at a time with bursts (many events per microsecond) and a gap of a second.
    auto timeOf = [](int i) {
        quint64 t = StartNs + quint64(i / 40) * 9'000 + quint64(i % 40) * 3;
        if (i >= 60'000)
            t += SecondNs;
        return t;
    };
    auto batchOf = [&](int from, int to) {
        RecordBatch batch;
        for (int i = from; i < to; ++i) {
            BlockEvent e = blockEvent(i % Seconds, i % BlockPerSecond);
            e.timeNs = timeOf(i);
            batch.block.append(e);
        }
        return batch;
    };
    SessionModel session;
    session.setSession(SessionData{});
    session.append(batchOf(0, 70'000));
    const HeatmapSource source{HeatmapSource::Events, EventType::Block, {}, {}};
    std::shared_ptr<const HeatmapStrides> strides =
        HeatmapModel::buildStrides(session, EventType::Block);
    QVERIFY(strides);
    QCOMPARE(strides->strides(), 70'000 / S);

    const quint64 end = timeOf(69'999) + 1;
    // A column edge exactly after stride 3's last event, and one on it.
    const quint64 onEdge = timeOf(int(4 * S) - 1);
    struct Case
    {
        quint64 start, end;
        int columns;
    };
    QList<Case> cases{{StartNs, end, 640},
                      {StartNs, end, 7},
                      {StartNs, end, 1},
                      {StartNs, end, 5000},
                      {timeOf(1000) + 1, timeOf(50'001), 33},
                      {timeOf(513), timeOf(30'000), 2},
                      {StartNs, onEdge + 1, 1},
                      {StartNs, onEdge, 1},
                      {StartNs + 5, StartNs + 2 * (onEdge - StartNs), 2},
                      {StartNs, StartNs + 2 * (onEdge - StartNs), 2}};
    // Random ones too, reproducible.
    quint64 seed = 12345;
    auto next = [&seed] {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return seed >> 17;
    };
    for (int k = 0; k < 40; ++k) {
        const quint64 a = StartNs + next() % (end - StartNs);
        const quint64 b = a + 1 + next() % (end - a);
        cases.append({a, b, int(1 + next() % 900)});
    }
    EventFilter latencyWindow;
    latencyWindow.minLatencyNs = 1 << 14; // the map ignores it: strides still apply
    latencyWindow.maxLatencyNs = 1 << 16;
    QVERIFY(HeatmapModel::usesStrides(source, latencyWindow));
    EventFilter byPid;
    byPid.pid = 200;
    QVERIFY(!HeatmapModel::usesStrides(source, byPid));
    auto check = [&](const EventFilter &filter) -> QString {
        for (const Case &c : std::as_const(cases)) {
            const HeatmapBins plain =
                HeatmapModel::build(session, source, filter, c.start, c.end, c.columns);
            const HeatmapBins fast = HeatmapModel::build(session, source, filter, c.start, c.end,
                                                         c.columns, nullptr, strides.get());
            if (plain.total == 0 && c.start <= timeOf(59'999) && filter.pid < 0)
                return QStringLiteral("[%1, %2): no events").arg(c.start).arg(c.end);
            if (fast.counts != plain.counts || fast.total != plain.total ||
                fast.maxCount != plain.maxCount)
                return QStringLiteral("[%1, %2) in %3 columns: %4 events, %5 without strides")
                    .arg(c.start)
                    .arg(c.end)
                    .arg(c.columns)
                    .arg(fast.total)
                    .arg(plain.total);
        }
        return QString();
    };
    QString why = check(latencyWindow);
    QVERIFY2(why.isEmpty(), qPrintable(why));
    why = check(byPid);
    QVERIFY2(why.isEmpty(), qPrintable(why));

    // Live: more events in time order; the old strides are kept and new ones added.
    session.append(batchOf(70'000, 90'000));
    const std::shared_ptr<const HeatmapStrides> extended =
        HeatmapModel::buildStrides(session, EventType::Block, strides);
    QCOMPARE(extended->strides(), 90'000 / S);
    QVERIFY(std::equal(strides->counts.begin(), strides->counts.end(), extended->counts.begin()));
    const std::shared_ptr<const HeatmapStrides> fresh =
        HeatmapModel::buildStrides(session, EventType::Block);
    QCOMPARE(extended->counts, fresh->counts);
    QCOMPARE(extended->lastNs, fresh->lastNs);
    strides = extended;
    cases.append({StartNs, timeOf(89'999) + 1, 640});
    why = check({});
    QVERIFY2(why.isEmpty(), qPrintable(why));
    // Up to date strides are returned as they are.
    QCOMPARE(HeatmapModel::buildStrides(session, EventType::Block, extended).get(), extended.get());
}

// The window closed while the heatmap's, the Top tab's and the Explain tab's workers still
// read the store: the session model goes first among the window's children, so they must stop
// before it does (under ASan this was a heap-use-after-free in the Top tab's worker).
void TestHeatmap::closingWhileWorkersReadTheStore()
{
    QString error;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = writeLargeSession(QDir(dir.path()), &error);
    QVERIFY2(!path.isEmpty(), qPrintable(error));
    for (int i = 0; i < 3; ++i) {
        auto w = std::make_unique<MainWindow>();
        QVERIFY2(w->openFile(path, &error), qPrintable(error));
        w->results()->showView(w->results()->heatmapView());
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        w->viewState()->setRange(StartNs, StartNs + quint64(Seconds) * SecondNs - 1);
        w->results()->heatmapView()->refresh();
        QVERIFY(w->results()->heatmapView()->isComputing());
        w.reset();
    }
}

QTEST_MAIN(TestHeatmap)
#include "tst_heatmap.moc"
