// The stack chart tab (issue #29, "stacks where you click"), on the real main window at
// 1366x768 with a session file: it sits in the CPU group beside the flame graph, maps a time to
// the timeline's x (within a pixel) before and after a wheel zoom in it, which zooms the
// timeline too; clicking a box lists the box's call path whole below the chart and selects its
// first sample, whose stack the Events tab's details then list; the process filter narrows
// its threads; a session without CPU samples gets a sentence instead of an empty chart.
#include "core/sessionstore.h"
#include "gui/detailspane.h"
#include "gui/mainwindow.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/stackframes.h"
#include "gui/models/viewstate.h"
#include "gui/profilepage.h"
#include "gui/resultspage.h"
#include "gui/stackchartview.h"
#include "gui/timeaxis.h"
#include "gui/timelinewidget.h"
#include "tests/gui/guitestdata.h"
#include "tests/gui/profiletestdata.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace bpflens;
using namespace bpflens::test;

namespace {

QString writeProfileSession(const QDir &dir, QString *error)
{
    const QString path = dir.filePath(QStringLiteral("stacks.bpflens"));
    const SessionData d = profileSession();
    SessionWriter writer;
    if (!writer.create(path, d.info, error) || !writer.writeBatch(profileBatch(), error) ||
        !writer.finish(d.info.endMonotonicNs, error))
        return {};
    return path;
}

int globalX(const QWidget *w, double x)
{
    return qRound(w->mapToGlobal(QPointF(x, 0)).x());
}

int threadOf(const StackChartModel &m, quint32 tid)
{
    for (int t = 0; t < m.threadCount(); ++t) {
        if (m.thread(t).tid == tid)
            return t;
    }
    return -1;
}

} // namespace

class TestStackChartView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale::c());
        QVERIFY(m_dir.isValid());
        QString error;
        m_path = writeProfileSession(QDir(m_dir.path()), &error);
        QVERIFY2(!m_path.isEmpty(), qPrintable(error));
        m_emptyPath = writeGuiSession(QDir(m_dir.path()), &error);
        QVERIFY2(!m_emptyPath.isEmpty(), qPrintable(error));
    }

    void sitsBesideTheFlameGraph()
    {
        MainWindow w;
        QVERIFY(w.openFile(m_path));
        ResultsPage *results = w.results();
        results->showView(results->stackChart());
        QCOMPARE(results->currentView(), results->stackChart());
        QCOMPARE(results->tabs()->tabText(results->tabs()->currentIndex()), QStringLiteral("&CPU"));
        QCOMPARE(results->viewTitle(results->stackChart()), QStringLiteral("Stac&k Chart"));
        results->showView(results->profilePage());
        QCOMPARE(results->tabs()->tabText(results->tabs()->currentIndex()), QStringLiteral("&CPU"));
    }

    void sharesTheTimelinesAxis()
    {
        MainWindow w;
        QVERIFY(w.openFile(m_path));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ResultsPage *results = w.results();
        StackChartView *chart = results->stackChart();
        results->showView(chart);
        QTRY_VERIFY(chart->builds() > 0);
        QVERIFY(!chart->isShowingEmptyState());
        StackChartPlot *plot = chart->plot();
        TimelineWidget *timeline = results->timeline();
        QTRY_COMPARE(globalX(plot, plot->plotRect().left()),
                     globalX(timeline, timeline->plotRect().left()));

        auto agree = [&](const char *when) {
            const quint64 s = w.viewState()->startNs(), e = w.viewState()->endNs();
            for (quint64 t : {s, s + (e - s) / 3, s + (e - s) / 2, e - 1}) {
                const int chartX = globalX(plot, plot->xForTime(t));
                const int lineX = globalX(timeline, timeline->xForTime(t));
                QVERIFY2(std::abs(chartX - lineX) <= 1,
                         qPrintable(QStringLiteral("%1, t=%2: chart x %3, timeline x %4")
                                        .arg(QLatin1String(when))
                                        .arg(t - s)
                                        .arg(chartX)
                                        .arg(lineX)));
            }
            // And where a box is drawn: malloc's box starts at the 50th sample.
            const int app = threadOf(chart->model(), 100);
            QVERIFY(app >= 0);
            const QRectF box = plot->boxRect(app, 2, 0);
            QVERIFY(!box.isEmpty());
            const quint64 mallocStart = ProfileStartNs + 50 * SampleStepNs;
            if (mallocStart >= s) {
                QVERIFY2(std::abs(globalX(plot, box.left()) -
                                  globalX(timeline, timeline->xForTime(mallocStart))) <= 1,
                         when);
            }
        };
        agree("whole session");
        if (QTest::currentTestFailed())
            return;

        // A wheel zoom in the chart zooms the timeline: one range, one axis.
        const quint64 before = w.viewState()->endNs() - w.viewState()->startNs();
        const QPoint at(plot->plotRect().left() + plot->plotRect().width() / 2,
                        plot->plotRect().top() + 5);
        QWheelEvent wheel(at, plot->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(plot, &wheel);
        QVERIFY(w.viewState()->endNs() - w.viewState()->startNs() < before * 3 / 4);
        QVERIFY(w.viewState()->isZoomed());
        QCOMPARE(timeline->axis().ticks().first().label, plot->axis().ticks().first().label);
        agree("zoomed");
        if (QTest::currentTestFailed())
            return;

        // Lane names wider than the chart's thread names (German's are): the chart's plot
        // starts where the timeline's does, not at its own column's edge.
        TimeAxisGroup::of(w.viewState())->setNeeds(timeline, plot->leftNeed() + 90, 1);
        QTRY_COMPARE(globalX(timeline, timeline->plotRect().left()),
                     globalX(timeline, plot->leftNeed() + 90));
        QCOMPARE(globalX(plot, plot->plotRect().left()),
                 globalX(timeline, timeline->plotRect().left()));
        agree("wider lane names");
    }

    void clickingABoxShowsItsStack()
    {
        MainWindow w;
        QVERIFY(w.openFile(m_path));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ResultsPage *results = w.results();
        StackChartView *chart = results->stackChart();
        results->showView(chart);
        QTRY_VERIFY(chart->builds() > 0);
        StackChartPlot *plot = chart->plot();
        const int app = threadOf(chart->model(), 100);
        QVERIFY(app >= 0);
        // malloc, two below main: main → compute(int) → malloc.
        const QRectF box = plot->boxRect(app, 2, 0);
        QVERIFY(!box.isEmpty());
        QTest::mouseClick(plot, Qt::LeftButton, {}, box.center().toPoint());
        QVERIFY(chart->hasSelection());
        QCOMPARE(chart->selectedDepth(), 2);

        // Below the chart: the box's function first (bold), then its callers, each whole.
        QTreeView *frames = chart->framesView();
        QVERIFY(frames->isVisible());
        const QAbstractItemModel *m = frames->model();
        QCOMPARE(m->rowCount(), 3);
        const QStringList expected{QStringLiteral("malloc"), QStringLiteral("compute(int)"),
                                   QStringLiteral("main")};
        for (int r = 0; r < 3; ++r) {
            const QModelIndex index = m->index(r, StackFramesModel::FunctionColumn);
            QCOMPARE(index.data().toString(), expected[r]);
            QVERIFY2(frames->visualRect(index).width() >=
                         frames->fontMetrics().horizontalAdvance(expected[r]),
                     qPrintable(expected[r]));
        }
        QVERIFY(m->index(0, 0).data(Qt::FontRole).value<QFont>().bold());
        QCOMPARE(m->index(1, StackFramesModel::ModuleColumn).data().toString(),
                 QStringLiteral("app"));
        QVERIFY(chart->selectionLabel()->text().contains(QStringLiteral("30 sample(s)")));

        // The box's first sample is the window's selected event: the details list its stack.
        const EventRef selected = w.viewState()->selectedEvent();
        QCOMPARE(selected.type, EventType::CpuSample);
        QCOMPARE(selected.index, qsizetype(50));
        QCOMPARE(results->detailsPane()->frames()->stackId(), 2u);
        QCOMPARE(results->detailsPane()
                     ->frames()
                     ->index(0, StackFramesModel::FunctionColumn)
                     .data()
                     .toString(),
                 QStringLiteral("malloc"));

        // A click where the thread ran no deeper clears the selection: vfs_write, four deep,
        // only ran from 800 ms on.
        const int rowH = plot->rowHeight();
        const QPoint beside(int(plot->xForTime(ProfileStartNs + 100'000'000ull)),
                            StackChartPlot::AxisHeight + 3 * rowH + rowH / 2 - plot->scrollY());
        QVERIFY(plot->plotRect().contains(beside));
        QTest::mouseClick(plot, Qt::LeftButton, {}, beside);
        QVERIFY(!chart->hasSelection());
        QCOMPARE(frames->model()->rowCount(), 0);
    }

    void followsTheProcessFilter()
    {
        MainWindow w;
        QVERIFY(w.openFile(m_path));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ResultsPage *results = w.results();
        StackChartView *chart = results->stackChart();
        results->showView(chart);
        QTRY_VERIFY(chart->builds() > 0);
        QCOMPARE(chart->plot()->bands().size(), qsizetype(2));
        EventFilter f;
        f.pid = 200;
        w.viewState()->setFilter(f);
        QTRY_COMPARE(chart->plot()->bands().size(), qsizetype(1));
        QCOMPARE(chart->plot()->threadLabel(chart->plot()->bands().first().thread),
                 QStringLiteral("parser (200)"));
        f.pid = 4242;
        w.viewState()->setFilter(f);
        QTRY_VERIFY(chart->isShowingEmptyState());
        QVERIFY(chart->emptyText().contains(QStringLiteral("filter")));
    }

    void sessionWithoutSamplesSaysSo()
    {
        MainWindow w;
        QVERIFY(w.openFile(m_emptyPath));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        StackChartView *chart = w.results()->stackChart();
        w.results()->showView(chart);
        QTRY_VERIFY(chart->builds() > 0);
        QVERIFY(chart->isShowingEmptyState());
        auto *empty = chart->findChild<QLabel *>(QStringLiteral("stackChartEmpty"));
        QVERIFY(empty && empty->isVisible());
        QVERIFY(empty->text().startsWith(QStringLiteral("No CPU samples in this session.")));
    }

    // The merge runs on a worker (issue #29: not on the GUI thread): the tab shows its result
    // when it arrives, and a merge superseded by a filter change before its result was taken
    // is dropped, never shown, even if the worker had finished it.
    void mergesOnAWorkerAndDropsStaleResults()
    {
        MainWindow w;
        QVERIFY(w.openFile(m_path));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ResultsPage *results = w.results();
        StackChartView *chart = results->stackChart();
        QList<StackChartQuery> shown;
        connect(chart, &StackChartView::built, this, [&] { shown << chart->model().query(); });
        results->showView(chart);
        QTRY_VERIFY(chart->isComputing() || chart->builds() > 0);
        QTRY_COMPARE(chart->builds(), 1);
        QVERIFY(!chart->isComputing());
        QCOMPARE(shown.size(), qsizetype(1));
        QCOMPARE(chart->plot()->bands().size(), qsizetype(2));

        // A second filter while the first one's merge runs: that merge's result is dropped
        // (even when it is ready before the next merge starts), only the second one's boxes
        // are shown. A merge of this small session may finish before the test sees it run:
        // then again, with another first filter.
        bool caught = false;
        for (int attempt = 0; attempt < 20 && !caught; ++attempt) {
            const int builds = chart->builds();
            EventFilter f;
            f.pid = attempt % 2 == 0 ? 100 : -1;
            w.viewState()->setFilter(f);
            QTRY_VERIFY(chart->isComputing() || chart->builds() > builds);
            if (!chart->isComputing())
                continue;
            caught = true;
            const qsizetype delivered = shown.size();
            f.pid = 200;
            w.viewState()->setFilter(f);
            QTRY_COMPARE(chart->builds(), builds + 1);
            QTRY_VERIFY(!chart->isComputing());
            QTest::qWait(50); // nothing more arrives
            QCOMPARE(chart->builds(), builds + 1);
            QCOMPARE(shown.size(), delivered + 1);
            QCOMPARE(shown.last().pid, qint64(200));
        }
        QVERIFY2(caught, "no merge was seen running in 20 attempts");
        QCOMPARE(chart->model().query().pid, qint64(200));
        QCOMPARE(chart->plot()->bands().size(), qsizetype(1));
        QCOMPARE(chart->plot()->threadLabel(chart->plot()->bands().first().thread),
                 QStringLiteral("parser (200)"));
    }

    // A CPU sample clicked on the timeline selects the box of its own function in the stack
    // chart beside it (not the box's first sample: the window's selection stays the clicked
    // sample), and the frames below the chart are its stack.
    void timelineClickSelectsTheSamplesBox()
    {
        MainWindow w;
        QVERIFY(w.openFile(m_path));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ResultsPage *results = w.results();
        StackChartView *chart = results->stackChart();
        results->showView(chart);
        QTRY_VERIFY(chart->builds() > 0);
        QVERIFY(!chart->hasSelection());
        TimelineWidget *timeline = results->timeline();
        QVERIFY(timeline->isVisible());
        const QRect lane = timeline->laneRect(EventType::CpuSample);
        QVERIFY(!lane.isNull());
        // Sample 65: main → compute → malloc, inside malloc's box (samples 50 to 79).
        const QPoint at(qRound(timeline->xForTime(ProfileStartNs + 65 * SampleStepNs)),
                        lane.center().y());
        QTest::mouseClick(timeline, Qt::LeftButton, {}, at);
        QCOMPARE(w.viewState()->selectedEvent(), (EventRef{EventType::CpuSample, 65}));
        QVERIFY(chart->hasSelection());
        const int app = threadOf(chart->model(), 100);
        QCOMPARE(chart->selectedThread(), app);
        QCOMPARE(chart->selectedDepth(), 2);
        QCOMPARE(chart->selectedIndex(), qsizetype(0));
        QCOMPARE(chart->framesView()
                     ->model()
                     ->index(0, StackFramesModel::FunctionColumn)
                     .data()
                     .toString(),
                 QStringLiteral("malloc"));
        const QRectF box = chart->plot()->boxRect(app, 2, 0);
        QVERIFY(chart->plot()->plotRect().contains(box.center().toPoint()));

        // A click on an empty stretch of the lane selects nothing: nor does the chart.
        const QPoint empty(
            qRound(timeline->xForTime(ProfileStartNs + 101 * SampleStepNs + SampleStepNs / 2)),
            lane.center().y());
        QTest::mouseClick(timeline, Qt::LeftButton, {}, empty);
        QVERIFY(!w.viewState()->selectedEvent().isValid());
        QVERIFY(!chart->hasSelection());
    }

    // A sample selected in the Events tab's table: the stack chart, shown afterwards, has its
    // box selected and its threads scrolled so that the box is in sight.
    void tableSelectionScrollsToTheBox()
    {
        MainWindow w;
        QVERIFY(w.openFile(m_path));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        ResultsPage *results = w.results();
        StackChartView *chart = results->stackChart();
        results->showView(chart);
        QTRY_VERIFY(chart->builds() > 0);
        // The chart as short as it goes, its splitter's handle dragged up: the parser's band
        // is below its fold.
        auto *splitter = chart->findChild<QSplitter *>(QStringLiteral("stackChartSplitter"));
        QVERIFY(splitter);
        QWidget *handle = splitter->handle(1);
        const QPoint grip(handle->width() / 2, handle->height() / 2);
        QTest::mousePress(handle, Qt::LeftButton, {}, grip);
        QTest::mouseMove(handle, grip - QPoint(0, 2000));
        QTest::mouseRelease(handle, Qt::LeftButton, {}, grip - QPoint(0, 2000));
        QTRY_VERIFY(chart->scrollBar()->maximum() > 0);
        chart->scrollBar()->setValue(0);
        const int parser = threadOf(chart->model(), 200);
        QVERIFY(parser >= 0);
        StackChartPlot *plot = chart->plot();
        QVERIFY(!plot->plotRect().contains(plot->boxRect(parser, 1, 0).center().toPoint()));

        QTableView *table = results->tableView(EventType::CpuSample);
        results->showView(table);
        QTRY_VERIFY(table->isVisible());
        // Row 97: a sample of parse (stack 4, truncated: parse one below the marker).
        table->selectRow(97);
        QCOMPARE(w.viewState()->selectedEvent(), (EventRef{EventType::CpuSample, 97}));

        results->showView(chart);
        QTRY_VERIFY(chart->isVisible());
        QVERIFY(chart->hasSelection());
        QCOMPARE(chart->selectedThread(), parser);
        QCOMPARE(chart->selectedDepth(), 1);
        QTRY_VERIFY(chart->scrollBar()->value() > 0);
        QTRY_VERIFY(plot->plotRect().contains(plot->boxRect(parser, 1, 0).center().toPoint()));
        QCOMPARE(chart->framesView()
                     ->model()
                     ->index(0, StackFramesModel::FunctionColumn)
                     .data()
                     .toString(),
                 QStringLiteral("parse"));
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
    QString m_emptyPath;
};

QTEST_MAIN(TestStackChartView)
#include "tst_stackchartview.moc"
