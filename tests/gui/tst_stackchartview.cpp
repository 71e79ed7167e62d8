// The stack chart tab (issue #29, "stacks where you click"), on the real main window at
// 1366x768 with a session file: it sits in the CPU group beside the flame graph, maps a time to
// the timeline's x (within a pixel) before and after a wheel zoom in it, which zooms the
// timeline too; clicking a box lists the box's call path whole below the chart and selects its
// first sample, whose stack the Events tab's details then list; the process filter narrows
// its threads; a session without CPU samples gets a sentence instead of an empty chart.
#include "detailspane.h"
#include "guitestdata.h"
#include "mainwindow.h"
#include "profilepage.h"
#include "profiletestdata.h"
#include "resultspage.h"
#include "sessionmodel.h"
#include "sessionstore.h"
#include "stackchartview.h"
#include "stackframes.h"
#include "timeaxis.h"
#include "timelinewidget.h"
#include "viewstate.h"

#include <QHeaderView>
#include <QLabel>
#include <QStandardPaths>
#include <QTabWidget>
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

private:
    QTemporaryDir m_dir;
    QString m_path;
    QString m_emptyPath;
};

QTEST_MAIN(TestStackChartView)
#include "tst_stackchartview.moc"
