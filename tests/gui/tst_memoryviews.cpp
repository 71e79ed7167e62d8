// The memory views of issue #34 part 1 on real widgets, with allocations whose sums are known:
// the Flame Graph's "Memory in use" (exactly the bytes not freed by the range's end, a range
// ending before a free counting the block, bytes in boxes, status, tool tips and trees, sampled
// events by weight, the empty states), the timeline's memory lanes (one per process, the peak
// labelled, following the range and the filter), and an allocation in the event table and the
// details pane (formatted size, address, end, lifetime, its stack).
#include "gui/colors.h"
#include "gui/detailspane.h"
#include "gui/flamegraphview.h"
#include "gui/mainwindow.h"
#include "gui/memorypage.h"
#include "gui/models/eventmodels.h"
#include "gui/models/memorymodels.h"
#include "gui/models/overviewmodel.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/stackframes.h"
#include "gui/models/timelinebins.h"
#include "gui/models/viewstate.h"
#include "gui/overviewpage.h"
#include "gui/profilepage.h"
#include "gui/resultspage.h"
#include "gui/timelinewidget.h"
#include "gui/translations.h"
#include "tests/gui/profiletestdata.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QScopeGuard>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr quint64 Ms = 1'000'000;
constexpr quint64 T0 = ProfileStartNs;
constexpr quint64 SessionEnd = T0 + 1000 * Ms;
constexpr quint32 ParseStack = 5; // parse, whole (profiletestdata.h's stack 4 is truncated)

// The allocations, by the profile's stacks (profiletestdata.h):
//   app (pid 100): 4000 B by main → compute at 10 ms, never freed;
//                  1000 B by main → compute → malloc at 20 ms, freed at 50 ms;
//                  2000 B by the same stack at 30 ms, freed at 900 ms;
//                   300 B by main → compute at 70 ms, freed at 80 ms;
//   parser (pid 200): 8192 B by parse (stack 5) at 60 ms, still allocated when it exited.
// In use over the whole session: 4000 + 8192 = 12192 B in 2 blocks. At 100 ms: 2000 more.
// app held 4000, 5000, 7000 (its peak, from 30 ms), 6000, 6300, 6000, then 4000 from 900 ms.
AllocationEvent allocation(quint64 atMs, quint32 pid, quint32 stack, quint64 size,
                           std::optional<quint64> freedAtMs, quint32 weight = 1)
{
    AllocationEvent e;
    e.timeNs = T0 + atMs * Ms;
    e.pid = e.tid = pid;
    e.comm = pid == 200 ? "parser" : "app";
    e.function = AllocationEvent::Malloc;
    e.size = size;
    e.address = 0x55550000a000ull + atMs * 0x100;
    e.stackId = stack;
    e.weight = weight;
    if (freedAtMs) {
        e.end = AllocationEvent::Freed;
        e.durNs = (*freedAtMs - atMs) * Ms;
    } else {
        e.end = pid == 200 ? AllocationEvent::Exited : AllocationEvent::Outstanding;
        e.durNs = (pid == 200 ? 500 * Ms : SessionEnd - e.timeNs) - (pid == 200 ? atMs * Ms : 0);
    }
    return e;
}

SessionData memorySession(quint32 weight = 1)
{
    SessionData d;
    d.info.schemaVersion = 1;
    d.info.startMonotonicNs = T0;
    d.info.endMonotonicNs = SessionEnd;
    d.info.probes = {{QStringLiteral("memleak"), {}, QStringLiteral("uprobe/libc.so.6")}};
    QString error;
    if (!d.stacks.addDefinitions(profileBatch(), &error) ||
        !d.stacks.add(StackDefinition{ParseStack, 0, {ParseFrame}}, &error))
        qFatal("test data: %s", qPrintable(error));
    d.events.append(allocation(10, 100, 1, 4000, std::nullopt, weight));
    d.events.append(allocation(20, 100, 2, 1000, 50, weight));
    d.events.append(allocation(30, 100, 2, 2000, 900, weight));
    d.events.append(allocation(60, 200, ParseStack, 8192, std::nullopt, weight));
    d.events.append(allocation(70, 100, 1, 300, 80, weight));
    return d;
}

// The top-down node reached by the frames from the root, -1 if none.
qint32 nodeOf(const CallTree &t, const QList<quint32> &frames)
{
    qint32 at = 0;
    for (quint32 f : frames) {
        qint32 next = -1;
        for (qint32 c : t.node(at).children) {
            if (t.node(c).frame == f)
                next = c;
        }
        if (next < 0)
            return -1;
        at = next;
    }
    return at;
}

struct PageFixture
{
    SessionModel session;
    ViewState state;
    ProfilePage page;

    explicit PageFixture(SessionData data, ProfilePage::Mode mode = ProfilePage::Mode::Memory)
        : page(&session, &state, nullptr, mode)
    {
        session.setSession(std::move(data));
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        page.resize(1200, 700);
        page.show();
        page.refresh();
    }
    void setRange(quint64 fromMs, quint64 toMs)
    {
        state.setRange(T0 + fromMs * Ms, T0 + toMs * Ms);
        page.refresh();
    }
    QString toolTip(const QList<quint32> &frames)
    {
        FlameGraphView *flame = page.flameGraph();
        const qint32 node = nodeOf(page.profile()->topDown, frames);
        const auto *box = flame->boxAt(flame->nodeRect(node).center());
        return box ? flame->toolTipFor(*box) : QString();
    }
};

} // namespace

class TestMemoryViews : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QLocale::setDefault(QLocale::c());
        // The English plural forms ("2 blocks") come from bpflens_en.ts.
        installTranslations(QLocale::c());
    }

    // The flame graph's root holds exactly the bytes in use; a session whose only stacks are
    // allocations opens on them.
    void memoryInUseOverTheSession()
    {
        {
            // The CPU profile is about the CPU: memory in use is the Memory group's.
            PageFixture cpu(memorySession(), ProfilePage::Mode::Cpu);
            QCOMPARE(cpu.page.kindCombo()->findData(int(ProfileKind::MemoryInUse)), -1);
            QVERIFY(cpu.page.kind() != ProfileKind::MemoryInUse);
        }
        PageFixture f(memorySession());
        QCOMPARE(f.page.kind(), ProfileKind::MemoryInUse);
        QVERIFY(f.page.kindCombo()->isHidden()); // one kind: nothing to choose
        QVERIFY(!f.page.isShowingEmptyState());
        const Profile &p = *f.page.profile();
        QCOMPARE(p.total, 12192u);
        QCOMPARE(p.inUseBlocks, 2u);
        QCOMPARE(p.allocatedBytes, 15492u);
        QCOMPARE(p.allocatedBlocks, 5u);
        QCOMPARE(p.sampleEvery, 1u);
        QCOMPARE(p.topDown.root().total, 12192u);
        // Boxes as wide as their bytes.
        FlameGraphView *flame = f.page.flameGraph();
        const double w = flame->width();
        QCOMPARE(flame->nodeRect(0).width(), w);
        QCOMPARE(flame->nodeRect(nodeOf(p.topDown, {MainFrame, ComputeFrame})).width(),
                 w * 4000 / 12192);
        QCOMPARE(flame->nodeRect(nodeOf(p.topDown, {ParseFrame})).width(), w * 8192 / 12192);
        QCOMPARE(nodeOf(p.topDown, {MainFrame, ComputeFrame, MallocFrame}), -1); // all freed
        QCOMPARE(flame->frameName(0), QStringLiteral("all memory in use"));
        QCOMPARE(f.page.statusLabel()->text(), QStringLiteral("In use: 11.9 KiB in 2 blocks"));
        QVERIFY(f.page.statusLabel()->toolTip().contains(
            QStringLiteral("Allocated in the range: 15.1 KiB in 5 blocks")));
        const QString tip = f.toolTip({ParseFrame});
        QVERIFY2(tip.contains(QStringLiteral("Total: 8.0 KiB (67.2%)")), qPrintable(tip));
        QVERIFY2(!tip.contains(QStringLiteral("sample")), qPrintable(tip));
        // The age of the oldest block under a box, to the range's end (the session's, 1000 ms):
        // parse's block from 60 ms, compute's from 10 ms.
        QCOMPARE(f.page.profile()->oldestAgeNs(nodeOf(p.topDown, {ParseFrame})), qint64(940 * Ms));
        QVERIFY2(tip.contains(
                     QStringLiteral("Oldest block: allocated 940.00 ms before the range's end")),
                 qPrintable(tip));
        QVERIFY(f.toolTip({MainFrame, ComputeFrame})
                    .contains(QStringLiteral("Oldest block: allocated 990.00 ms")));
        QCOMPARE(f.page.profile()->oldestAgeNs(0), qint64(990 * Ms));
        f.page.searchEdit()->setText(QStringLiteral("compute"));
        QCOMPARE(f.page.searchLabel()->text(),
                 QStringLiteral("compute: 32.8% of memory in use (3.9 KiB)"));
        f.page.searchEdit()->clear();

        // The picture says the bytes of the boxes wide enough for them: the root's 11.9 KiB.
        const QImage picture = flame->render();
        QVERIFY(!picture.isNull());

        // The trees and the function list count bytes.
        QAbstractItemModelTester topDown(f.page.topDownModel(),
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester functions(f.page.functionModel(),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester bottomUp(f.page.bottomUpModel(),
                                          QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QAbstractItemModel *tree = f.page.topDownView()->model();
        QCOMPARE(tree->index(0, CallTreeModel::FunctionColumn).data().toString(),
                 QStringLiteral("parse"));
        QCOMPARE(tree->index(0, CallTreeModel::TotalColumn).data().toString(),
                 QStringLiteral("8.0 KiB"));
        QCOMPARE(tree->index(0, CallTreeModel::TotalPercentColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("8.0 KiB of 11.9 KiB"));
        QCOMPARE(
            tree->index(1, CallTreeModel::TotalColumn).data(CallTreeModel::CostRole).toULongLong(),
            4000u);
        FunctionListModel *list = f.page.functionModel();
        const int compute = list->rowForFrame(ComputeFrame);
        QVERIFY(compute >= 0);
        QCOMPARE(list->index(compute, CallTreeModel::SelfColumn).data().toString(),
                 QStringLiteral("3.9 KiB"));
        QVERIFY(f.page.topDownModel()
                    ->headerData(CallTreeModel::SelfColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("allocated itself")));
    }

    // A range's end decides what is in use: a block freed after it counts, one freed before it
    // does not; the growth between two moments is the range between them.
    void rangeEndDecidesWhatIsInUse()
    {
        PageFixture f(memorySession());
        f.setRange(0, 100);
        // 4000 (never freed) + 2000 (freed at 900 ms, after the range) + 8192; not the 1000 freed
        // at 50 ms nor the 300 freed at 80 ms.
        QCOMPARE(f.page.profile()->total, 14192u);
        QCOMPARE(f.page.profile()->inUseBlocks, 3u);
        QCOMPARE(
            f.page.profile()
                ->topDown
                .node(nodeOf(f.page.profile()->topDown, {MainFrame, ComputeFrame, MallocFrame}))
                .total,
            2000u);
        const QString tip = f.toolTip({MainFrame, ComputeFrame, MallocFrame});
        QVERIFY2(tip.contains(QStringLiteral("Total: 2.0 KiB (14.1%)")), qPrintable(tip));
        // Its block from 30 ms, aged to the range's end at 100 ms.
        QVERIFY2(
            tip.contains(QStringLiteral("Oldest block: allocated 70.00 ms before the range's end")),
            qPrintable(tip));
        // Ending before the free at 50 ms, the 1000 B block is in use too.
        f.setRange(0, 45);
        QCOMPARE(f.page.profile()->total, 4000u + 1000u + 2000u);
        // Growth between 25 ms and 65 ms: what was allocated then and still held at 65 ms.
        f.setRange(25, 65);
        QCOMPARE(f.page.profile()->total, 2000u + 8192u);
        QCOMPARE(f.page.statusLabel()->text(), QStringLiteral("In use: 10.0 KiB in 2 blocks"));

        // Everything allocated in [65, 90) ms was freed by 90 ms: said, not a blank graph.
        f.setRange(65, 90);
        QVERIFY(f.page.isShowingEmptyState());
        QVERIFY2(f.page.emptyText().startsWith(QStringLiteral(
                     "Every block allocated in this range was freed by its end (1 block, 300 B).")),
                 qPrintable(f.page.emptyText()));
        // Nothing allocated at all.
        f.setRange(100, 800);
        QVERIFY(f.page.isShowingEmptyState());
        QVERIFY(f.page.emptyText().startsWith(QStringLiteral("No allocations in this range.")));
        // The filter's process.
        f.state.resetRange();
        EventFilter byPid;
        byPid.pid = 100;
        f.state.setFilter(byPid);
        f.page.refresh();
        QCOMPARE(f.page.profile()->total, 4000u);
    }

    // Sampled recordings (sampleEvery=4): each event counts its weight, and the views say so.
    void sampledEventsWeighTheirAllocations()
    {
        PageFixture f(memorySession(4));
        QCOMPARE(f.page.profile()->total, 4u * 12192);
        QCOMPARE(f.page.profile()->inUseBlocks, 8u);
        QCOMPARE(f.page.profile()->sampleEvery, 4u);
        QCOMPARE(f.page.statusLabel()->text(),
                 QStringLiteral("In use: 47.6 KiB in 8 blocks, each event standing for 4 "
                                "allocations"));
        const QString tip = f.toolTip({ParseFrame});
        QVERIFY2(tip.contains(QStringLiteral("Total: 32.0 KiB (67.2%)")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("each recorded allocation stands for 4 allocations")),
                 qPrintable(tip));
        QVERIFY(f.page.statusLabel()->toolTip().contains(QStringLiteral("sampleEvery=4")));
    }

    void sessionWithoutAllocations()
    {
        PageFixture f(profileSession(), ProfilePage::Mode::Cpu);
        // Not offered, so not chosen; asked for anyway, the page keeps its kind.
        f.page.setKind(ProfileKind::MemoryInUse);
        QVERIFY(f.page.kind() != ProfileKind::MemoryInUse);
    }

    // The timeline: a memory lane per process under the Allocations lane, largest peak first,
    // a step line scaled to the range's peak and labelled with it.
    void timelineMemoryLanes()
    {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        TimelineWidget *tl = window.results()->timeline();
        window.session()->setSession(memorySession());
        // Summed in a worker, not by the GUI thread at the session change.
        QVERIFY(tl->isComputingMemory());
        QVERIFY(tl->memoryLanes().isEmpty());
        tl->setMinimumHeight(300); // lanes with room for their labels
        QTRY_COMPARE(tl->memoryLanes().size(), 2);
        QVERIFY(!tl->isComputingMemory());
        QCOMPARE(tl->memoryLaneLabel(0), QStringLiteral("parser 200"));
        QCOMPARE(tl->memoryLaneLabel(1), QStringLiteral("app 100"));
        const auto &app = tl->memoryLanes()[1];
        QCOMPARE(app.memory.peak, 7000u);
        QCOMPARE(app.columns.peak, 7000u);
        QCOMPARE(app.columns.peakNs, T0 + 30 * Ms);
        QCOMPARE(tl->memoryPeakLabel(0), QStringLiteral("peak 8.0 KiB"));
        QCOMPARE(tl->memoryPeakLabel(1), QStringLiteral("peak 6.8 KiB"));
        QCOMPARE(TimelineBinner::heldAt(app.memory, T0 + 55 * Ms), 6000u);
        QCOMPARE(TimelineBinner::heldAt(app.memory, T0 + 75 * Ms), 6300u);
        QCOMPARE(TimelineBinner::heldAt(app.memory, T0 + 950 * Ms), 4000u);
        QCOMPARE(TimelineBinner::heldAt(app.memory, T0), 0u);

        // Below the Allocations lane, apart from each other; the labels inside their lanes, right
        // of the names' column.
        const QRect allocations = tl->laneRect(EventType::Allocation);
        QVERIFY(!allocations.isNull());
        const QRect parser = tl->memoryLaneRect(0);
        const QRect appLane = tl->memoryLaneRect(1);
        QVERIFY(parser.top() > allocations.bottom());
        QVERIFY(appLane.top() > parser.bottom());
        QVERIFY(appLane.height() >= tl->fontMetrics().height() + 4);
        for (int k = 0; k < 2; ++k) {
            const QRect label = tl->memoryPeakLabelRect(k);
            QVERIFY(!label.isNull());
            QVERIFY(tl->memoryLaneRect(k).contains(label));
            QVERIFY(label.left() >= tl->plotRect().left());
            QVERIFY(label.width() >= tl->fontMetrics().horizontalAdvance(tl->memoryPeakLabel(k)));
        }

        // The step line in the picture: at the peak's time near the lane's top, at 5 ms (before
        // app's first block) nothing, at 950 ms (4000 of 7000 B) lower than the peak.
        const QImage image = tl->grab().toImage();
        const QColor line = colors::eventType(EventType::Allocation, tl->palette());
        auto lineY = [&](quint64 t) {
            const int x = int(tl->xForTime(t)) + 1;
            for (int y = appLane.top(); y <= appLane.bottom(); ++y) {
                if (image.pixelColor(x, y) == line)
                    return y;
            }
            return -1;
        };
        const int atPeak = lineY(T0 + 40 * Ms);
        QVERIFY(atPeak >= 0);
        QVERIFY(atPeak <= appLane.top() + 4);
        QCOMPARE(lineY(T0 + 5 * Ms), -1);
        const int late = lineY(T0 + 950 * Ms);
        QVERIFY(late > atPeak);
        // 4000 of 7000 bytes: the line at 4/7 of the height above the bottom.
        const double expected = appLane.bottom() - 4000.0 / 7000.0 * (appLane.height() - 4);
        QVERIFY2(std::abs(late - expected) <= 2, qPrintable(QString::number(late)));

        // Zoomed to [60, 1000) ms the peak is what app held at 60 ms, 6300 at 70 ms.
        window.viewState()->setRange(T0 + 60 * Ms, SessionEnd);
        QTRY_COMPARE(tl->memoryLanes()[1].columns.peak, 6300u);
        QCOMPARE(tl->memoryPeakLabel(1), QStringLiteral("peak 6.2 KiB"));
        window.viewState()->resetRange();

        // The filter bar's process: its lane alone; a command no process has: none.
        EventFilter byPid;
        byPid.pid = 100;
        window.viewState()->setFilter(byPid);
        QTRY_COMPARE(tl->memoryLanes().size(), 1);
        QCOMPARE(tl->memoryLaneLabel(0), QStringLiteral("app 100"));
        EventFilter byComm;
        byComm.comm = "nobody";
        window.viewState()->setFilter(byComm);
        QTRY_COMPARE(tl->memoryLanes().size(), 0);
        window.viewState()->setFilter({});

        // Collapsing the Allocations lane folds the memory lanes into it.
        QTRY_COMPARE(tl->memoryLanes().size(), 2);
        tl->setLaneCollapsed(EventType::Allocation, true);
        QVERIFY(tl->memoryLaneRect(0).isNull());
        tl->setLaneCollapsed(EventType::Allocation, false);
        QVERIFY(!tl->memoryLaneRect(0).isNull());
    }

    // The Memory group's Top Stacks: the stacks holding memory at the range's end with their
    // bytes, blocks and oldest block's age, the selected one's frames below.
    void topStacks()
    {
        SessionModel session;
        ViewState state;
        MemoryPage page(&session, &state);
        page.resize(900, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QAbstractItemModelTester tester(page.stackModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(page.isShowingEmptyState());
        session.setSession(memorySession());
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        QTRY_VERIFY(!page.isComputing());
        QVERIFY(!page.isShowingEmptyState());
        const MemoryStackModel *m = page.stackModel();
        QCOMPARE(m->rowCount(), 2);
        auto cell = [m](int row, int column) { return m->index(row, column).data().toString(); };
        QCOMPARE(m->rows()[0].stackId, ParseStack);
        QCOMPARE(m->rows()[0].bytes, 8192u);
        QCOMPARE(m->rows()[0].blocks, 1u);
        QCOMPARE(m->rows()[0].ageNs, qint64(940 * Ms));
        QCOMPARE(cell(0, MemoryStackModel::FunctionColumn), QStringLiteral("parse"));
        QCOMPARE(cell(0, MemoryStackModel::BytesColumn), QStringLiteral("8.0 KiB"));
        QCOMPARE(cell(0, MemoryStackModel::BlocksColumn), QStringLiteral("1"));
        QCOMPARE(cell(0, MemoryStackModel::OldestColumn), QStringLiteral("940.00 ms"));
        QCOMPARE(cell(1, MemoryStackModel::FunctionColumn), QStringLiteral("compute(int)"));
        QCOMPARE(m->rows()[1].bytes, 4000u);
        QCOMPARE(cell(1, MemoryStackModel::OldestColumn), QStringLiteral("990.00 ms"));
        QCOMPARE(page.statusLabel()->text(),
                 QStringLiteral("In use at the range's end: 11.9 KiB in 2 blocks · 2 stacks"));
        // The largest is selected; another's frames, leaf first, and memleak's line.
        QCOMPARE(page.selectedStack(), ParseStack);
        QVERIFY(page.selectStack(1));
        QCOMPARE(page.frames()->rowCount(), 2);
        QCOMPARE(page.frames()->index(0, 0).data().toString(), QStringLiteral("compute(int)"));
        QCOMPARE(page.frames()->index(1, 0).data().toString(), QStringLiteral("main"));
        QCOMPARE(page.stackLabel()->text(),
                 QStringLiteral("3.9 KiB in 1 allocation from this stack, the oldest allocated "
                                "990.00 ms before the range's end"));
        QVERIFY(page.framesView()->isVisible());

        // [0, 100) ms: the 2000 B block freed at 900 ms is in use at 100 ms; ages to 100 ms. The
        // selected stack stays selected.
        state.setRange(T0, T0 + 100 * Ms);
        QTRY_VERIFY(!page.isComputing());
        QCOMPARE(m->rowCount(), 3);
        QCOMPARE(m->rows()[1].stackId, 1u);
        QCOMPARE(m->rows()[2].stackId, 2u);
        QCOMPARE(m->rows()[2].bytes, 2000u);
        QCOMPARE(m->rows()[2].ageNs, qint64(70 * Ms));
        QCOMPARE(page.selectedStack(), 1u);
        // Sorting by age: the oldest first.
        page.stackView()->sortByColumn(MemoryStackModel::OldestColumn, Qt::DescendingOrder);
        QCOMPARE(
            page.stackView()->model()->index(0, MemoryStackModel::FunctionColumn).data().toString(),
            QStringLiteral("compute(int)"));
        QCOMPARE(
            page.stackView()->model()->index(0, MemoryStackModel::OldestColumn).data().toString(),
            QStringLiteral("90.00 ms"));

        // Everything allocated in [65, 90) ms was freed by then: said.
        state.setRange(T0 + 65 * Ms, T0 + 90 * Ms);
        QTRY_VERIFY(!page.isComputing());
        QVERIFY(page.isShowingEmptyState());
        QVERIFY2(page.emptyText().startsWith(QStringLiteral(
                     "Every block allocated in this range was freed by its end (1 block, 300 B).")),
                 qPrintable(page.emptyText()));

        // Sampled: each event counts its weight.
        session.setSession(memorySession(4));
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        QTRY_VERIFY(!page.isComputing());
        QCOMPARE(m->rows()[0].bytes, 4u * 8192);
        QCOMPARE(m->rows()[0].blocks, 4u);
        QVERIFY2(page.statusLabel()->text().contains(
                     QStringLiteral("each event standing for 4 allocations")),
                 qPrintable(page.statusLabel()->text()));
    }

    // Memory results where a user looks for them: a Memory group of its own (shown for a session
    // with allocations), the CPU group about the CPU.
    void memoryGroup()
    {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ResultsPage *results = window.results();
        QTabWidget *tabs = results->tabs();
        auto memoryTab = [&]() -> int {
            for (int i = 0; i < tabs->count(); ++i) {
                if (tabs->tabText(i).remove(u'&') == QLatin1String("Memory"))
                    return i;
            }
            return -1;
        };
        QVERIFY(memoryTab() >= 0);
        window.session()->setSession(profileSession());
        QVERIFY(!tabs->isTabVisible(memoryTab()));
        window.session()->setSession(memorySession());
        QVERIFY(tabs->isTabVisible(memoryTab()));
        QCOMPARE(results->profilePage()->kindCombo()->findData(int(ProfileKind::MemoryInUse)), -1);

        results->showView(results->memoryProfilePage());
        QCOMPARE(tabs->currentIndex(), memoryTab());
        QCOMPARE(results->currentView(), results->memoryProfilePage());
        QCOMPARE(results->viewTitle(results->memoryProfilePage()).remove(u'&'),
                 QStringLiteral("Flame Graph"));
        results->memoryProfilePage()->refresh();
        QCOMPARE(results->memoryProfilePage()->profile()->total, 12192u);
        QCOMPARE(results->currentChartWidget(), results->memoryProfilePage()->flameGraph());
        results->showView(results->memoryPage());
        QCOMPARE(results->currentView(), results->memoryPage());
        QCOMPARE(results->viewTitle(results->memoryPage()).remove(u'&'),
                 QStringLiteral("Top Stacks"));
        QTRY_COMPARE(results->memoryPage()->stackModel()->rowCount(), 2);
    }

    // The Overview sums allocations as memory, not as a latency: in use at the end, the peak,
    // the growth and the largest stacks, exactly.
    void overviewSummarisesMemory()
    {
        SessionModel session;
        ViewState state;
        OverviewPage page(&session, &state);
        page.resize(1000, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        session.setSession(memorySession());
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        QTRY_VERIFY(!page.isComputing());
        QVERIFY(page.memoryView()->isVisible());
        QAbstractItemModelTester tester(page.memoryModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const MemoryOverview &m = page.memoryModel()->memory();
        QCOMPARE(m.inUseBytes, 12192u);
        QCOMPARE(m.inUseBlocks, 2u);
        QCOMPARE(m.allocatedBytes, 15492u);
        QCOMPARE(m.allocatedBlocks, 5u);
        // app 7000 from 30 ms, 6000 from 50 ms, parser's 8192 from 60 ms, app's 300 at 70 ms.
        QCOMPARE(m.peakBytes, 14492u);
        QCOMPARE(m.peakNs, T0 + 70 * Ms);
        QCOMPARE(m.heldAtStartBytes, 0u);
        QCOMPARE(m.heldAtEndBytes, 12192u);
        QCOMPARE(m.growthBytes(), 12192);
        QCOMPARE(m.top.size(), 2);
        QCOMPARE(m.top[0].stackId, ParseStack);
        const QAbstractItemModel *model = page.memoryModel();
        auto text = [model](int row, int column) {
            return model->index(row, column).data().toString();
        };
        using M = OverviewMemoryModel;
        QCOMPARE(model->rowCount(), M::StackRows + 2);
        QCOMPARE(text(M::InUseRow, M::WhatColumn), QStringLiteral("In use at the end"));
        QCOMPARE(text(M::InUseRow, M::AmountColumn),
                 QStringLiteral("11.9 KiB in 2 blocks from 2 stacks"));
        QCOMPARE(text(M::PeakRow, M::AmountColumn), QStringLiteral("14.2 KiB at 0.070 s"));
        QCOMPARE(text(M::GrowthRow, M::AmountColumn), QStringLiteral("+11.9 KiB"));
        QCOMPARE(text(M::AllocatedRow, M::AmountColumn), QStringLiteral("15.1 KiB in 5 blocks"));
        QCOMPARE(text(M::StackRows, M::WhatColumn), QStringLiteral("Allocated in parse"));
        QCOMPARE(text(M::StackRows, M::AmountColumn),
                 QStringLiteral("8.0 KiB in 1 block, the oldest 940.00 ms old"));
        QCOMPARE(text(M::StackRows + 1, M::WhatColumn),
                 QStringLiteral("Allocated in compute(int)"));
        // Not a latency: memleak's row has no percentiles of lifetimes.
        const OverviewProbeModel *probes = page.probeModel();
        int memleak = -1;
        for (int r = 0; r < probes->rowCount(); ++r) {
            if (probes->index(r, 0).data().toString() == QLatin1String("memleak"))
                memleak = r;
        }
        QVERIFY(memleak >= 0);
        QVERIFY(!probes->probes()[memleak].hasLatency);
        QVERIFY(!probes->index(memleak, OverviewProbeModel::P99Column)
                     .data()
                     .toString()
                     .contains(QStringLiteral("ms")));

        // [25, 65) ms: held 4000 + 1000 at 25 ms, 4000 + 2000 + 8192 at 65 ms.
        state.setRange(T0 + 25 * Ms, T0 + 65 * Ms);
        QTRY_VERIFY(!page.isComputing());
        const MemoryOverview &z = page.memoryModel()->memory();
        QCOMPARE(z.heldAtStartBytes, 5000u);
        QCOMPARE(z.heldAtEndBytes, 14192u);
        QCOMPARE(z.growthBytes(), 9192);
        QCOMPARE(z.peakBytes, 14192u);
        QCOMPARE(z.inUseBytes, 2000u + 8192u);

        // Activating a stack leads to the Memory group.
        QList<OverviewPage::View> requested;
        connect(&page, &OverviewPage::viewRequested, this,
                [&requested](OverviewPage::View view, EventType) { requested << view; });
        Q_EMIT page.memoryView()->activated(page.memoryModel()->index(M::StackRows, 0));
        QCOMPARE(requested, QList<OverviewPage::View>{OverviewPage::View::Memory});

        // A session without allocations shows no memory section.
        session.setSession(profileSession());
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        QTRY_VERIFY(!page.isComputing());
        QVERIFY(!page.memoryView()->isVisible());
        QVERIFY(!page.memoryHeading()->isVisible());
    }

    // An allocation in its table and in the details pane, with its stack.
    void allocationInTableAndDetails()
    {
        SessionModel session;
        session.setSession(memorySession());
        EventTableModel table(&session, EventType::Allocation);
        QAbstractItemModelTester tester(&table,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto column = [&](const QString &title) {
            for (int c = 0; c < table.columnCount(); ++c) {
                if (table.headerData(c, Qt::Horizontal).toString() == title)
                    return c;
            }
            return -1;
        };
        auto cell = [&](int row, const QString &title) {
            const int c = column(title);
            return c < 0 ? QStringLiteral("<no %1 column>").arg(title)
                         : table.index(row, c).data().toString();
        };
        QCOMPARE(table.rowCount(), 5);
        QCOMPARE(cell(0, QStringLiteral("Function")), QStringLiteral("malloc"));
        QCOMPARE(cell(0, QStringLiteral("Size")), QStringLiteral("3.9 KiB"));
        QCOMPARE(cell(0, QStringLiteral("Address")), QStringLiteral("0x55550000aa00"));
        QCOMPARE(cell(0, QStringLiteral("End")), QStringLiteral("in use at the end"));
        QCOMPARE(cell(1, QStringLiteral("End")), QStringLiteral("freed"));
        QCOMPARE(cell(3, QStringLiteral("End")), QStringLiteral("process exited"));
        QCOMPARE(cell(1, QStringLiteral("Lifetime")), QStringLiteral("30.00 ms"));
        // The stack's column names the allocator's caller, not a second "Function".
        QCOMPARE(cell(1, QStringLiteral("Allocated in")), QStringLiteral("malloc"));
        QCOMPARE(cell(0, QStringLiteral("Allocated in")), QStringLiteral("compute(int)"));
        int functions = 0;
        for (int c = 0; c < table.columnCount(); ++c)
            functions +=
                table.headerData(c, Qt::Horizontal).toString() == QLatin1String("Function");
        QCOMPARE(functions, 1);

        ViewState state;
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        DetailsPane details(&session, &state);
        details.resize(700, 500);
        details.show();
        QVERIFY(QTest::qWaitForWindowExposed(&details));
        state.setSelectedEvent({EventType::Allocation, 0});
        QVERIFY(details.framesView()->isVisible());
        const QAbstractItemModel *frames = details.framesView()->model();
        QCOMPARE(frames->rowCount(), 2);
        QCOMPARE(frames->index(0, 0).data().toString(), QStringLiteral("compute(int)"));
        QCOMPARE(frames->index(1, 0).data().toString(), QStringLiteral("main"));
        QStringList fields;
        for (int i = 0; i < details.tree()->topLevelItemCount(); ++i)
            fields << details.tree()->topLevelItem(i)->text(0) + QStringLiteral(": ") +
                          details.tree()->topLevelItem(i)->text(1);
        for (const char *expected : {"Function: malloc", "Size: 3.9 KiB", "End: in use at the end",
                                     "Allocated in: compute(int)", "Stack id: 1"})
            QVERIFY2(fields.contains(QLatin1String(expected)), qPrintable(fields.join(u'\n')));
    }
};

QTEST_MAIN(TestMemoryViews)
#include "tst_memoryviews.moc"
