// The Threads tab (issue #33) as a user sees it, on a known chain of thread states
// (threadstatetestdata.h): a lane per thread under its process, a span's state colour where its
// time is, a click choosing a thread and selecting its span, the critical path on the lanes and
// as a table (writer's sleep woken by [irq], writer running, then reader running) that changes
// with the thread chosen, a row of it selecting its span; the results offer the tab only for a
// session with thread states.
#include "gui/models/criticalpathmodel.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/threadstatemodel.h"
#include "gui/models/viewstate.h"
#include "gui/resultspage.h"
#include "gui/threadstateview.h"
#include "tests/gui/threadstatetestdata.h"

#include <QLocale>
#include <QPushButton>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace bpflens;
using namespace bpflens::test;

namespace {

using E = ThreadStateEvent;

QString cell(const QAbstractItemModel &m, int row, int column)
{
    return m.index(row, column).data().toString().trimmed();
}

// Colours compared with a little slack: the state's colour as painted, not an exact RGB.
bool near(QColor a, QColor b)
{
    return std::abs(a.red() - b.red()) <= 3 && std::abs(a.green() - b.green()) <= 3 &&
           std::abs(a.blue() - b.blue()) <= 3;
}

} // namespace

class TestThreadStateView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale::c());
    }

    void init()
    {
        m_session = std::make_unique<SessionModel>();
        m_state = std::make_unique<ViewState>();
        m_session->setSession(threadStateSession());
        m_state->setFullRange(m_session->firstTimeNs(), m_session->endTimeNs());
        m_view = std::make_unique<ThreadStateView>(m_session.get(), m_state.get());
        m_view->resize(1000, 640);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view.get()));
    }

    void cleanup() { m_view.reset(); }

    void lanesAndColours()
    {
        ThreadStatePlot *plot = m_view->plot();
        QVERIFY(!m_view->isShowingEmptyState());
        for (quint32 tid : {100u, 101u, 200u, 300u})
            QVERIFY2(!plot->laneRect(tid).isNull(), qPrintable(QString::number(tid)));
        // Grouped: helper and reader under process 100, writer below its own header.
        QVERIFY(plot->laneRect(101).top() < plot->laneRect(100).top());
        QVERIFY(plot->laneRect(100).top() < plot->laneRect(200).top());
        const QImage image = plot->grab().toImage();
        const QRect reader = plot->laneRect(100);
        auto colourAt = [&](quint32 tid, quint64 ms) {
            const QRect lane = plot->laneRect(tid);
            return image.pixelColor(int(plot->xForTime(ThreadsStartNs + ms * Ms)), lane.top() + 1);
        };
        const QPalette pal = plot->palette();
        QVERIFY(near(colourAt(100, 30), ThreadStatePlot::stateColor(E::Sleeping, pal)));
        QVERIFY(near(colourAt(100, 66), ThreadStatePlot::stateColor(E::Running, pal)));
        QVERIFY(near(colourAt(101, 50), ThreadStatePlot::stateColor(E::Uninterruptible, pal)));
        QVERIFY(near(colourAt(200, 20), ThreadStatePlot::stateColor(E::Sleeping, pal)));
        // short exited at 3 ms: nothing drawn after it.
        QVERIFY(near(colourAt(300, 50), pal.color(QPalette::Base)) ||
                near(colourAt(300, 50), pal.color(QPalette::AlternateBase)));
        QVERIFY(!near(ThreadStatePlot::stateColor(E::Sleeping, pal),
                      ThreadStatePlot::stateColor(E::Running, pal)));
        QVERIFY(reader.width() > 500);
        // Running spans wide enough say their CPU.
        QCOMPARE(plot->spanToolTip(m_view->model()->index().spans(100).at(3))
                     .section(QLatin1Char('\n'), 0, 0),
                 QStringLiteral("Running on CPU 1"));
        QVERIFY(plot->spanToolTip(m_view->model()->index().spans(100).at(1))
                    .contains(QStringLiteral("Woken by: writer 200")));
    }

    void clickChoosesThreadAndSelectsSpan()
    {
        ThreadStatePlot *plot = m_view->plot();
        QVERIFY(!m_view->criticalPathButton()->isEnabled());
        const QRect lane = plot->laneRect(100);
        const QPoint at(int(plot->xForTime(ThreadsStartNs + 30 * Ms)), lane.center().y());
        QTest::mouseClick(plot, Qt::LeftButton, {}, at);
        QCOMPARE(m_view->chosenThread(), 100u);
        QVERIFY(m_view->criticalPathButton()->isEnabled());
        const EventRef sel = m_state->selectedEvent();
        QCOMPARE(sel.type, EventType::ThreadState);
        QCOMPARE(sel.index, m_view->model()->index().spans(100).at(1));
        QVERIFY(m_view->threadLabel()->text().contains(QStringLiteral("reader 100")));
        // A click on a process's name folds its threads.
        const QRect header = plot->rowRect(m_view->model()->rowOfProcess(100));
        QTest::mouseClick(plot, Qt::LeftButton, {}, QPoint(20, header.center().y()));
        QVERIFY(plot->laneRect(100).isNull());
        QVERIFY(m_view->model()->isCollapsed(100));
    }

    void criticalPathOnLanesAndInTable()
    {
        ThreadStatePlot *plot = m_view->plot();
        m_view->chooseThread(100);
        const QImage before = plot->grab().toImage();
        QTest::mouseClick(m_view->criticalPathButton(), Qt::LeftButton);
        QVERIFY(m_view->hasCriticalPath());
        QVERIFY(m_view->pathTable()->isVisible());
        const QAbstractItemModel &m = *m_view->pathTable()->model();
        using C = CriticalPathModel;
        QCOMPARE(m.rowCount(), 6);
        QCOMPARE(cell(m, 1, C::ThreadColumn), QStringLiteral("writer 200"));
        QCOMPARE(cell(m, 1, C::StateColumn), QStringLiteral("Sleeping"));
        QCOMPARE(cell(m, 1, C::WakerColumn), QStringLiteral("[irq]"));
        QCOMPARE(cell(m, 3, C::ThreadColumn), QStringLiteral("writer 200"));
        QCOMPARE(cell(m, 3, C::StateColumn), QStringLiteral("Running"));
        QCOMPARE(cell(m, 5, C::ThreadColumn), QStringLiteral("reader 100"));
        QCOMPARE(cell(m, 5, C::StateColumn), QStringLiteral("Running"));
        QVERIFY(m_view->sharesTable()->model()->rowCount() >= 4);
        QVERIFY(m_view->pathLabel()->text().contains(QStringLiteral("reader 100")));

        // On the lanes: helper, off the path, is dimmed; writer's running step keeps its colour.
        QTRY_VERIFY(!plot->laneRect(101).isNull());
        const QImage after = plot->grab().toImage();
        auto at = [&](const QImage &img, quint32 tid, quint64 ms) {
            return img.pixelColor(int(plot->xForTime(ThreadsStartNs + ms * Ms)),
                                  plot->laneRect(tid).top() + 1);
        };
        const QPalette pal = plot->palette();
        QVERIFY(near(at(before, 101, 50), ThreadStatePlot::stateColor(E::Uninterruptible, pal)));
        QVERIFY(!near(at(after, 101, 50), ThreadStatePlot::stateColor(E::Uninterruptible, pal)));
        QVERIFY(near(at(after, 200, 50), ThreadStatePlot::stateColor(E::Running, pal)));
        // writer's sleep after it woke reader is off the path: dimmed.
        QVERIFY(!near(at(after, 200, 85), ThreadStatePlot::stateColor(E::Sleeping, pal)));

        // A row selects its step's span.
        m_view->pathTable()->selectRow(1);
        QCOMPARE(m_state->selectedEvent().index, m_view->model()->index().spans(200).at(1));

        // Another thread, another path: helper's I/O wait was ended by an interrupt.
        m_view->chooseThread(101);
        m_view->computeCriticalPath();
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(cell(m, 1, C::ThreadColumn), QStringLiteral("helper 101"));
        QCOMPARE(cell(m, 1, C::StateColumn), QStringLiteral("Uninterruptible (D)"));
        QCOMPARE(cell(m, 1, C::ReasonColumn), QStringLiteral("I/O"));

        // Zoomed in, the path is of the visible range only.
        m_view->chooseThread(100);
        m_state->setRange(ThreadsStartNs + 61 * Ms, ThreadsStartNs + 100 * Ms);
        m_view->computeCriticalPath();
        QCOMPARE(m.rowCount(), 2);
        QTest::mouseClick(m_view->clearPathButton(), Qt::LeftButton);
        QVERIFY(!m_view->hasCriticalPath());
        QVERIFY(!m_view->pathTable()->isVisible());
    }

    void manyThreadsScroll()
    {
        SessionData d = threadStateSession();
        for (quint32 k = 0; k < 200; ++k)
            d.events.append(threadSpan(1000 + k, 1000 + k, "many", 0, 100, E::Sleeping));
        m_session->setSession(std::move(d));
        m_state->setFullRange(m_session->firstTimeNs(), m_session->endTimeNs());
        QTRY_VERIFY(m_view->scrollBar()->maximum() > 0);
        const int last = int(m_view->model()->rows().size()) - 1;
        const quint32 tid = m_view->model()->rows().at(last).tid;
        QVERIFY(m_view->plot()->laneRect(tid).isNull());
        m_view->scrollBar()->setValue(m_view->scrollBar()->maximum());
        QVERIFY(!m_view->plot()->laneRect(tid).isNull());
    }

    void tabOnlyWithThreadStates()
    {
        m_view.reset();
        ResultsPage page(m_session.get(), m_state.get());
        QTabWidget *tabs = page.tabs();
        const int index = tabs->indexOf(page.threadStateView());
        QVERIFY(index >= 0);
        QVERIFY(tabs->isTabVisible(index));
        SessionData other;
        other.info.startMonotonicNs = ThreadsStartNs;
        ExecEvent exec;
        exec.timeNs = ThreadsStartNs + 5;
        exec.comm = "true";
        other.events.append(exec);
        m_session->setSession(std::move(other));
        QVERIFY(!tabs->isTabVisible(index));
        QVERIFY(page.threadStateView()->isShowingEmptyState());
        m_session->setSession(threadStateSession());
        QVERIFY(tabs->isTabVisible(index));
        QVERIFY(!page.threadStateView()->isShowingEmptyState());
    }

private:
    std::unique_ptr<SessionModel> m_session;
    std::unique_ptr<ViewState> m_state;
    std::unique_ptr<ThreadStateView> m_view;
};

QTEST_MAIN(TestThreadStateView)
#include "tst_threadstateview.moc"
