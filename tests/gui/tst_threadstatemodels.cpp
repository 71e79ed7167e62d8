// The Threads view's models (issue #33) on a known chain of thread states
// (threadstatetestdata.h): the lanes grouped by process, busiest first, following the filter,
// the visible range and folded processes; the per-pixel merge of spans; the critical path and
// its shares as tables under QAbstractItemModelTester.
#include "gui/models/criticalpathmodel.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/threadstatemodel.h"
#include "gui/models/viewstate.h"
#include "tests/gui/threadstatetestdata.h"

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

using namespace bpflens;
using namespace bpflens::test;

namespace {

using E = ThreadStateEvent;

QStringList labels(const ThreadStateModel &m)
{
    QStringList out;
    for (const ThreadStateModel::Row &r : m.rows())
        out << (r.isProcess ? QStringLiteral("P ") : QStringLiteral("  ")) +
                   ThreadStateModel::rowLabel(r);
    return out;
}

QStringList names(std::initializer_list<const char *> list)
{
    QStringList out;
    for (const char *s : list)
        out << QString::fromUtf8(s);
    return out;
}

QString cell(const QAbstractItemModel &m, int row, int column)
{
    return m.index(row, column).data().toString().trimmed();
}

} // namespace

class TestThreadStateModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        QLocale::setDefault(QLocale::c());
        m_session = std::make_unique<SessionModel>();
        m_state = std::make_unique<ViewState>();
        m_session->setSession(threadStateSession());
        m_state->setFullRange(m_session->firstTimeNs(), m_session->endTimeNs());
    }

    void lanesGroupedByProcessBusiestFirst()
    {
        ThreadStateModel m(m_session.get(), m_state.get());
        QVERIFY(!m.isEmpty());
        // Process 100 ran 98 ms (helper 50, reader 48), writer 33, short 3.
        QCOMPARE(labels(m), names({"P reader 100", "  helper 101", "  reader 100", "P writer 200",
                                   "  writer 200", "P short 300", "  short 300"}));
        QCOMPARE(m.rows().at(0).threads, 2);
        QCOMPARE(m.rowOfThread(200), 4);
        QCOMPARE(m.rowOfProcess(300), 5);
    }

    void lanesFollowTheFilter()
    {
        ThreadStateModel m(m_session.get(), m_state.get());
        QSignalSpy changed(&m, &ThreadStateModel::rowsChanged);
        EventFilter f;
        f.pid = 200;
        m_state->setFilter(f);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(labels(m), names({"P writer 200", "  writer 200"}));
        f = {};
        f.comm = "helper";
        m_state->setFilter(f);
        QCOMPARE(labels(m), names({"P reader 100", "  helper 101"}));
        QCOMPARE(m.rows().at(0).threads, 1);
        // The text filter searches the command and the waker's: reader was woken by writer.
        f = {};
        f.text = "WRIT";
        m_state->setFilter(f);
        QCOMPARE(labels(m),
                 names({"P reader 100", "  reader 100", "P writer 200", "  writer 200"}));
        f.text = "nothing like it";
        m_state->setFilter(f);
        QVERIFY(m.rows().isEmpty());
    }

    void lanesFollowTheRangeAndFolding()
    {
        ThreadStateModel m(m_session.get(), m_state.get());
        QCOMPARE(m.rows().size(), 7);
        // short exited at 3 ms: zoomed past it, it has no lane.
        m_state->setRange(ThreadsStartNs + 50 * Ms, ThreadsStartNs + 100 * Ms);
        QCOMPARE(m.rowOfProcess(300), -1);
        QCOMPARE(m.rows().size(), 5);
        m_state->resetRange();
        m.setCollapsed(100, true);
        QCOMPARE(labels(m), names({"P reader 100", "P writer 200", "  writer 200", "P short 300",
                                   "  short 300"}));
        QCOMPARE(m.rows().at(0).threads, 2);
        QCOMPARE(m.rowOfThread(100), -1);
        m.setCollapsed(100, false);
        QCOMPARE(m.rowOfThread(100), 2);
    }

    void spansMergedPerPixel()
    {
        ThreadStateModel m(m_session.get(), m_state.get());
        const quint64 a = ThreadsStartNs, b = ThreadsStartNs + 100 * Ms;
        // A pixel per millisecond: each span's own state.
        std::vector<quint8> px = m.laneStates(100, a, b, 100);
        QCOMPARE(px[5], quint8(E::Running));
        QCOMPARE(px[30], quint8(E::Sleeping));
        QCOMPARE(px[60], quint8(E::Runnable));
        QCOMPARE(px[61], quint8(E::Runnable));
        QCOMPARE(px[62], quint8(E::Running));
        // Ten per pixel: [60, 70) ms is 2 ms runnable and 8 running, so it is running.
        px = m.laneStates(100, a, b, 10);
        QCOMPARE(px[0], quint8(E::Running));
        QCOMPARE(px[1], quint8(E::Sleeping));
        QCOMPARE(px[6], quint8(E::Running));
        // [0, 10) ms of short: 3 ms running, the rest not recorded, yet drawn as running.
        QCOMPARE(m.laneStates(300, a, b, 10)[0], quint8(E::Running));
        QCOMPARE(m.laneStates(300, a, b, 10)[1], quint8(0));
        // Zoomed into the pipe wait: every column is sleeping.
        px = m.laneStates(100, a + 20 * Ms, a + 30 * Ms, 50);
        QVERIFY(std::all_of(px.cbegin(), px.cend(), [](quint8 s) { return s == E::Sleeping; }));
        QCOMPARE(m.spanAt(100, a + 61 * Ms), m.index().spans(100).at(2));
        QCOMPARE(m.spanAt(300, a + 50 * Ms), qsizetype(-1));
    }

    void busyThreadsMergedFromTheirSummary()
    {
        // 8192 spans: running 3 µs of every 4 for the first half, sleeping 3 of every 4 for the
        // second; zoomed out, a pixel holds dozens of them and is drawn from the buckets.
        SessionData d = threadStateSession();
        quint64 t = ThreadsStartNs;
        for (int k = 0; k < 4096; ++k) {
            const bool first = k < 2048;
            for (quint8 state : {E::Running, E::Sleeping}) {
                ThreadStateEvent e = threadSpan(500, 500, "busy", 0, 0, state);
                e.timeNs = t;
                e.durNs = (state == E::Running) == first ? 3000 : 1000;
                t += e.durNs;
                d.events.append(e);
            }
        }
        m_session->setSession(std::move(d));
        ThreadStateModel m(m_session.get(), m_state.get());
        const std::vector<quint8> px = m.laneStates(500, ThreadsStartNs, t, 100);
        for (int c = 0; c < 100; ++c)
            QCOMPARE(int(px[size_t(c)]), c < 50 ? int(E::Running) : int(E::Sleeping));
        // Zoomed in to a few spans per pixel, from the spans themselves.
        const std::vector<quint8> near =
            m.laneStates(500, ThreadsStartNs, ThreadsStartNs + 40000, 10);
        QCOMPARE(int(near[0]), int(E::Running));
        QCOMPARE(m.laneStates(500, ThreadsStartNs, ThreadsStartNs + 4000, 4000)[3500],
                 quint8(E::Sleeping));
    }

    void criticalPathTable()
    {
        ThreadStateModel lanes(m_session.get(), m_state.get());
        CriticalPathModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        CriticalPathSharesModel shares;
        QAbstractItemModelTester sharesTester(
            &shares, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const CriticalPath path = criticalPath(m_session->events(), lanes.index(), 100,
                                               ThreadsStartNs, ThreadsStartNs + 100 * Ms);
        m.setPath(path, ThreadsStartNs);
        shares.setPath(path);
        QCOMPARE(m.rowCount(), 6);
        using C = CriticalPathModel;
        const QStringList threads = names(
            {"reader 100", "writer 200", "writer 200", "writer 200", "reader 100", "reader 100"});
        const QStringList states =
            names({"Running", "Sleeping", "Runnable", "Running", "Runnable", "Running"});
        for (int r = 0; r < 6; ++r) {
            QCOMPARE(cell(m, r, C::ThreadColumn), threads[r]);
            QCOMPARE(cell(m, r, C::StateColumn), states[r]);
        }
        QCOMPARE(cell(m, 1, C::WakerColumn), QStringLiteral("[irq]"));
        QCOMPARE(cell(m, 1, C::ReasonColumn), QStringLiteral("sleep"));
        QCOMPARE(cell(m, 1, C::StartColumn),
                 EventTableModel::formatTime(ThreadsStartNs + 10 * Ms, ThreadsStartNs));
        QCOMPARE(cell(m, 1, C::DurationColumn), EventTableModel::formatDuration(30 * Ms));
        QCOMPARE(m.index(1, 0).data(C::DepthRole).toInt(), 1);
        QCOMPARE(m.index(5, 0).data(C::DepthRole).toInt(), 0);
        QCOMPARE(cell(m, 0, C::CpuColumn), QStringLiteral("1"));
        QCOMPARE(m.index(3, 0).data(C::SpanRole).value<qsizetype>(),
                 lanes.index().spans(200).at(3));
        QCOMPARE(m.headerData(C::WakerColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Woken by"));

        // reader ran 10 + 38 of 100 ms: the longest share, then writer's sleep (30 ms).
        QCOMPARE(cell(shares, 0, CriticalPathSharesModel::ThreadColumn),
                 QStringLiteral("reader 100"));
        QCOMPARE(cell(shares, 0, CriticalPathSharesModel::ShareColumn), QStringLiteral("48.0 %"));
        QCOMPARE(cell(shares, 1, CriticalPathSharesModel::StateColumn),
                 QStringLiteral("Sleeping (sleep)"));
        QCOMPARE(shares.index(1, 0).data(CriticalPathSharesModel::NsRole).toULongLong(), 30 * Ms);

        m.clear();
        shares.clear();
        QCOMPARE(m.rowCount(), 0);
        QCOMPARE(shares.rowCount(), 0);
    }

    void emptySession()
    {
        SessionModel empty;
        ViewState state;
        ThreadStateModel m(&empty, &state);
        QVERIFY(m.isEmpty());
        QVERIFY(m.rows().isEmpty());
        QVERIFY(m.laneStates(1, 0, 100, 10) == std::vector<quint8>(10, 0));
    }

private:
    std::unique_ptr<SessionModel> m_session;
    std::unique_ptr<ViewState> m_state;
};

QTEST_GUILESS_MAIN(TestThreadStateModels)
#include "tst_threadstatemodels.moc"
