// One time axis (issue #29): the timeline, the heatmap and the counters map a time to the same
// screen x in the window (within a pixel), share their plot's left edge and their ticks' step,
// and no visible range starts before the session did. On the real main window at 1366x768,
// on a session file with block I/O, histograms and page cache counters.
#include "core/sessionstore.h"
#include "gui/countersview.h"
#include "gui/heatmapview.h"
#include "gui/mainwindow.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"
#include "gui/resultspage.h"
#include "gui/timeaxis.h"
#include "gui/timelinewidget.h"
#include "tests/gui/guitestdata.h"

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

using namespace bpflens;
using namespace bpflens::test;

namespace {

// The GUI test session with cachestat's counters, whose first interval began 0.27 s before the
// session did (the probe's first read comes 0.73 s after the start, for a one-second interval).
QString writeSession(const QDir &dir, QString *error)
{
    const QString path = dir.filePath(QStringLiteral("axis.bpflens"));
    SessionInfo info = guiInfo();
    info.probes.append({QStringLiteral("cachestat"), {}, QStringLiteral("kprobe/…")});
    SessionWriter writer;
    if (!writer.create(path, info, error))
        return {};
    for (int b = 0; b < Batches; ++b) {
        RecordBatch batch = guiBatch(b);
        const quint64 t = StartNs + 730'000'000ull + quint64(b) * SecondNs;
        batch.counters << CounterSample{QStringLiteral("cachestat"), t, SecondNs,
                                        QStringLiteral("hits"), double(100 + 50 * b)}
                       << CounterSample{QStringLiteral("cachestat"), t, SecondNs,
                                        QStringLiteral("misses"), double(10 * b)};
        if (!writer.writeBatch(batch, error))
            return {};
    }
    if (!writer.finish(StartNs + quint64(Batches) * SecondNs, error))
        return {};
    return path;
}

int globalX(const QWidget *w, double x)
{
    return qRound(w->mapToGlobal(QPointF(x, 0)).x());
}

} // namespace

class TestTimeAxis : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        QString error;
        m_path = writeSession(QDir(m_dir.path()), &error);
        QVERIFY2(!m_path.isEmpty(), qPrintable(error));
    }

    void visibleRangeNeverStartsBeforeZero()
    {
        MainWindow w;
        QVERIFY(w.openFile(m_path));
        ViewState *state = w.viewState();
        QVERIFY(state->fullStartNs() >= StartNs);
        QVERIFY(state->startNs() >= StartNs);
        // Panning and zooming out as far as they go stay there too.
        state->zoom(0.25, StartNs + SecondNs);
        state->pan(-qint64(10 * SecondNs));
        QCOMPARE(state->startNs(), StartNs);
        state->zoom(100, StartNs);
        QCOMPARE(state->startNs(), StartNs);
        // The counters' first interval is still drawn (its sample is inside the range).
        QVERIFY(w.results()->countersView()->series(QStringLiteral("hits")));
        QCOMPARE(w.results()->countersView()->series(QStringLiteral("hits"))->count(), Batches);
        // And the timeline's first tick is 0 s at the plot's left edge, not -0.27 s.
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const TimeAxis axis = w.results()->timeline()->axis();
        QVERIFY(!axis.ticks().isEmpty());
        QCOMPARE(axis.ticks().first().relNs, 0.0);
        QCOMPARE(axis.ticks().first().x, double(w.results()->timeline()->plotRect().left()));
    }

    void axesShareTheirLeftEdge()
    {
        MainWindow w;
        QVERIFY(w.openFile(m_path));
        w.resize(1366, 768);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        TimelineWidget *timeline = w.results()->timeline();
        const QList<quint64> times{StartNs, StartNs + SecondNs + SecondNs / 2,
                                   StartNs + quint64(Batches) * SecondNs - 1};

        // The heatmap: its columns' left edges where the timeline has their start times.
        HeatmapView *heatmap = w.results()->heatmapView();
        w.results()->showView(heatmap);
        QTRY_VERIFY(!heatmap->bins().isEmpty() && !heatmap->isComputing());
        QTRY_COMPARE(globalX(heatmap->plot(), heatmap->cellRect(0, heatmap->bins().maxSlot).left()),
                     globalX(timeline, timeline->plotRect().left()));
        const HeatmapBins &bins = heatmap->bins();
        for (quint64 t : times) {
            const int c = bins.columnOf(t);
            const int mapX = globalX(heatmap->plot(), heatmap->cellRect(c, bins.maxSlot).left());
            const int lineX = globalX(timeline, timeline->xForTime(bins.columnStartNs(c)));
            QVERIFY2(std::abs(mapX - lineX) <= 1,
                     qPrintable(QStringLiteral("t=%1: heatmap x %2, timeline x %3")
                                    .arg(t - StartNs)
                                    .arg(mapX)
                                    .arg(lineX)));
        }
        // The last column ends where the timeline's plot does.
        const QRect last = heatmap->cellRect(bins.columns - 1, bins.maxSlot);
        QVERIFY(std::abs(globalX(heatmap->plot(), last.right() + 1) -
                         globalX(timeline,
                                 timeline->plotRect().left() + timeline->plotRect().width())) <= 1);

        // The counters: the same for the chart's plot and a sample's point.
        CountersView *counters = w.results()->countersView();
        w.results()->showView(counters);
        QChartView *chart = counters->countsChart();
        QTRY_VERIFY(chart->isVisible());
        QTRY_COMPARE(globalX(chart, counters->plotSpan(chart).first),
                     globalX(timeline, timeline->plotRect().left()));
        QLineSeries *hits = counters->series(QStringLiteral("hits"));
        QVERIFY(hits);
        for (int i = 0; i < hits->count(); ++i) {
            const QPointF p = chart->chart()->mapToPosition(hits->at(i), hits);
            const QPointF inViewport =
                chart->viewportTransform().map(chart->chart()->mapToScene(p));
            const int chartX = globalX(chart->viewport(), inViewport.x());
            const quint64 t = StartNs + quint64(std::llround(hits->at(i).x() * 1e9));
            const int lineX = globalX(timeline, timeline->xForTime(t));
            QVERIFY2(std::abs(chartX - lineX) <= 1,
                     qPrintable(QStringLiteral("sample %1: chart x %2, timeline x %3")
                                    .arg(i)
                                    .arg(chartX)
                                    .arg(lineX)));
        }
        // The same ticks: the chart's step is the timeline's.
        auto *x = qobject_cast<QValueAxis *>(chart->chart()->axes(Qt::Horizontal).first());
        QVERIFY(x);
        QCOMPARE(x->tickInterval(), timeline->axis().tickStepNs() / 1e9);
        QCOMPARE(x->min(), 0.0);

        // Zoomed, the three still agree.
        w.viewState()->setRange(StartNs + SecondNs, StartNs + 2 * SecondNs);
        QTRY_COMPARE(globalX(chart, counters->plotSpan(chart).first),
                     globalX(timeline, timeline->plotRect().left()));
        // (A refresh makes new axes.)
        x = qobject_cast<QValueAxis *>(chart->chart()->axes(Qt::Horizontal).first());
        QCOMPARE(x->min(), 1.0);
        QCOMPARE(x->max(), 2.0);
    }

    // A page whose view on the axis is destroyed with it, as its child: the group must not call
    // the page back from inside that destruction, when the page's own members are already gone
    // but its connections are not yet (the heatmap's background job was used after it was freed
    // when the window closed).
    void aDestroyedViewDoesNotCallItsPageBack()
    {
        ViewState state;
        auto *group = TimeAxisGroup::of(&state);
        struct Page : QWidget
        {
            bool destroying = false;
            ~Page() override { destroying = true; }
        };
        auto *page = new Page;
        auto *view = new QWidget(page);
        group->add(view, 10, 10);
        bool calledWhileDestroying = false;
        QObject::connect(group, &TimeAxisGroup::changed, page, [&calledWhileDestroying, page] {
            calledWhileDestroying = calledWhileDestroying || page->destroying;
        });
        delete page;
        QVERIFY(!calledWhileDestroying);
        QCoreApplication::processEvents();
        // The others still hear of it, later.
        QSignalSpy changed(group, &TimeAxisGroup::changed);
        auto *other = new QWidget;
        group->add(other, 0, 0);
        changed.clear();
        delete other;
        QCOMPARE(changed.size(), 0);
        QTRY_COMPARE(changed.size(), 1);
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

QTEST_MAIN(TestTimeAxis)
#include "tst_timeaxis.moc"
