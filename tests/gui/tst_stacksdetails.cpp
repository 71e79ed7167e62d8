// Stacks where you click (issue #29): a selected CPU sample or off-CPU wait lists its frames in
// the details pane, the event tables name each event's function instead of a stack id (an
// off-CPU wait by the function it blocked in, below the scheduler's frames), and a range
// dragged on the timeline scopes the flame graph. Real widgets, shown and read as a user would.
#include "gui/detailspane.h"
#include "gui/flamegraphview.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/stackframes.h"
#include "gui/models/viewstate.h"
#include "gui/profilepage.h"
#include "gui/timelinewidget.h"
#include "tests/gui/profiletestdata.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLabel>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <QTreeView>
#include <QTreeWidget>

using namespace bpflens;
using namespace bpflens::test;

namespace {

enum SchedFrame : quint32
{
    ScheduleInnerFrame = ParseFrame + 1, // __schedule
    ScheduleFrame,                       // schedule
    IoScheduleFrame,                     // io_schedule
    FolioWaitFrame,                      // folio_wait_bit
    VfsReadFrame,                        // vfs_read
    ReadFrame,                           // read (libc)
    TryToWakeUpFrame,                    // try_to_wake_up
    AutoremoveWakeFrame,                 // autoremove_wake_function
    WakeUpCommonFrame,                   // __wake_up_common
    PipeWriteFrame,                      // anon_pipe_write
};
constexpr quint32 DiskWaitStack = 5;    // __schedule … folio_wait_bit … vfs_read … read, main
constexpr quint32 OnlySchedStack = 6;   // __schedule, schedule: nothing below them
constexpr quint32 PipeWakeStack = 7;    // try_to_wake_up … anon_pipe_write, vfs_write … main
constexpr qsizetype DiskWaitEvent = 2;  // the off-CPU events, time-sorted after the test data's
constexpr qsizetype SchedOnlyEvent = 3; // two
constexpr qsizetype NoStackEvent = 4;

void must(bool ok, const QString &error)
{
    if (!ok)
        qFatal("test data: %s", qPrintable(error));
}

// profileSession() with off-CPU waits as the kernel records them: the scheduler's frames first.
SessionData sessionWithWaits()
{
    SessionData d = profileSession();
    QString error;
    auto frame = [&](quint32 id, FrameKind kind, const char *module, const char *symbol) {
        must(d.stacks.add(FrameDefinition{id, StackFrame{kind, 0x1000u * id, module, {}, symbol}},
                          &error),
             error);
    };
    frame(ScheduleInnerFrame, FrameKind::Kernel, "vmlinux", "__schedule");
    frame(ScheduleFrame, FrameKind::Kernel, "vmlinux", "schedule");
    frame(IoScheduleFrame, FrameKind::Kernel, "vmlinux", "io_schedule");
    frame(FolioWaitFrame, FrameKind::Kernel, "vmlinux", "folio_wait_bit");
    frame(VfsReadFrame, FrameKind::Kernel, "vmlinux", "vfs_read");
    frame(ReadFrame, FrameKind::User, "/usr/lib/x86_64-linux-gnu/libpython3.11.so.1.0",
          "_PyEval_EvalFrameDefault");
    must(d.stacks.add(
             StackDefinition{DiskWaitStack,
                             0,
                             {ScheduleInnerFrame, ScheduleFrame, IoScheduleFrame, FolioWaitFrame,
                              VfsReadFrame, EntryFrame, ReadFrame, MainFrame}},
             &error),
         error);
    must(d.stacks.add(
             StackDefinition{OnlySchedStack, NoUserStack, {ScheduleInnerFrame, ScheduleFrame}},
             &error),
         error);
    quint64 at = ProfileStartNs + 101 * SampleStepNs;
    for (quint32 stack : {DiskWaitStack, OnlySchedStack, 0u}) {
        OffCpuEvent e;
        e.timeNs = ++at;
        e.offNs = 5'000'000;
        e.pid = e.tid = 100;
        e.stackId = stack;
        e.comm = "app";
        d.events.append(e);
    }
    return d;
}

struct Fixture
{
    SessionModel session;
    ViewState state;
    DetailsPane details{&session, &state};

    Fixture()
    {
        session.setSession(sessionWithWaits());
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        details.resize(420, 600);
        details.show();
    }
    QStringList row(int r) const
    {
        QStringList cells;
        const QAbstractItemModel *m = details.framesView()->model();
        for (int c = 0; c < m->columnCount(); ++c)
            cells << m->index(r, c).data().toString();
        return cells;
    }
    bool bold(int r) const
    {
        return details.framesView()->model()->index(r, 0).data(Qt::FontRole).value<QFont>().bold();
    }
};

} // namespace

class TestStacksDetails : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void stackFramesModelIsConsistent()
    {
        const SessionData d = sessionWithWaits();
        StackFramesModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        model.setStack(&d.stacks, EventType::OffCpu, DiskWaitStack);
        QCOMPARE(model.rowCount(), 8);
        QCOMPARE(model.index(3, StackFramesModel::FunctionColumn).data().toString(),
                 QStringLiteral("folio_wait_bit"));
        QCOMPARE(model.index(3, 0).data(StackFramesModel::FrameIdRole).toUInt(), FolioWaitFrame);
        QVERIFY(model.index(3, 0).data(StackFramesModel::IsKeyFrameRole).toBool());
        QCOMPARE(model.index(7, StackFramesModel::ModuleColumn).data().toString(),
                 QStringLiteral("app"));
        QCOMPARE(model.index(7, 0).data(StackFramesModel::FrameKindRole).toInt(),
                 int(FrameKind::User));
        // A stack the unwinder cut short ends in a row that says so.
        model.setStack(&d.stacks, EventType::CpuSample, 4);
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(model.index(1, 0).data(StackFramesModel::IsMarkerRole).toBool());
        model.setStack(&d.stacks, EventType::CpuSample, 99); // not defined
        QCOMPARE(model.rowCount(), 0);
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void blockingFunctionSkipsTheScheduler()
    {
        const SessionData d = sessionWithWaits();
        QCOMPARE(StackNames::keyFunction(d.stacks, EventType::OffCpu, DiskWaitStack),
                 QStringLiteral("folio_wait_bit"));
        // A CPU sample is named by its leaf, whatever it is.
        QCOMPARE(StackNames::keyFunction(d.stacks, EventType::CpuSample, DiskWaitStack),
                 QStringLiteral("__schedule"));
        QCOMPARE(StackNames::keyFunction(d.stacks, EventType::OffCpu, 3),
                 QStringLiteral("vfs_write"));
        // Nothing but the scheduler: its leaf rather than nothing.
        QCOMPARE(StackNames::keyFunction(d.stacks, EventType::OffCpu, OnlySchedStack),
                 QStringLiteral("__schedule"));
        QCOMPARE(StackNames::keyFrame(d.stacks, EventType::OffCpu, 0), 0u);
        for (const char *name :
             {"schedule", "__schedule", "schedule_timeout", "schedule_hrtimeout_range_clock",
              "io_schedule_timeout", "preempt_schedule_irq", "__cond_resched", "__wait_for_common"})
            QVERIFY2(
                StackNames::isSchedulerFrame(StackFrame{FrameKind::Kernel, 1, "vmlinux", {}, name}),
                name);
        for (const char *name : {"do_wait", "anon_pipe_read", "do_nanosleep", "futex_wait_queue",
                                 "ep_poll", "folio_wait_bit", "scheduler_tick"})
            QVERIFY2(!StackNames::isSchedulerFrame(
                         StackFrame{FrameKind::Kernel, 1, "vmlinux", {}, name}),
                     name);
        // A user function named like the kernel's is the program's own.
        QVERIFY(!StackNames::isSchedulerFrame(
            StackFrame{FrameKind::User, 1, "/usr/bin/app", {}, "schedule"}));
    }

    void selectedSampleShowsItsFrames()
    {
        Fixture f;
        QVERIFY(!f.details.framesView()->isVisible());        // nothing selected
        f.state.setSelectedEvent({EventType::CpuSample, 85}); // stack 3
        QVERIFY(f.details.framesView()->isVisible());
        QCOMPARE(f.details.framesView()->model()->rowCount(), 4);
        // No source lines in this session: the source column is empty, and hidden.
        QCOMPARE(f.row(0), (QStringList{QStringLiteral("vfs_write"), QStringLiteral("vmlinux"),
                                        QString(), QStringLiteral("kernel")}));
        QCOMPARE(f.row(1),
                 (QStringList{QStringLiteral("entry_SYSCALL_64"), QStringLiteral("vmlinux"),
                              QString(), QStringLiteral("kernel")}));
        QCOMPARE(f.row(2), (QStringList{QStringLiteral("write"), QStringLiteral("libc.so.6"),
                                        QString(), QStringLiteral("user")}));
        QCOMPARE(f.row(3), (QStringList{QStringLiteral("main"), QStringLiteral("app"), QString(),
                                        QStringLiteral("user")}));
        QVERIFY(f.details.framesView()->isColumnHidden(StackFramesModel::SourceColumn));
        QVERIFY(f.bold(0)); // the sample's own function
        QVERIFY(!f.bold(1));
        // The fields name the function, not a number.
        QCOMPARE(f.details.value(QStringLiteral("Function")), QStringLiteral("vfs_write"));
        QCOMPARE(f.details.value(QStringLiteral("Stack id")), QStringLiteral("3"));
        // Every frame is on screen, its name not cut, in a 420-pixel wide pane.
        QTreeView *view = f.details.framesView();
        QVERIFY(QTest::qWaitForWindowExposed(&f.details));
        for (int r = 0; r < 4; ++r) {
            const QModelIndex i = view->model()->index(r, StackFramesModel::FunctionColumn);
            const QRect rect = view->visualRect(i);
            QVERIFY2(view->viewport()->rect().contains(rect), qPrintable(i.data().toString()));
            QVERIFY2(view->fontMetrics().horizontalAdvance(i.data().toString()) < rect.width(),
                     qPrintable(i.data().toString()));
        }
        // The whole module path and where the frame lies, for a name the column cuts.
        const QString tip = view->model()
                                ->index(2, StackFramesModel::ModuleColumn)
                                .data(Qt::ToolTipRole)
                                .toString();
        QVERIFY2(tip.contains(QStringLiteral("/usr/lib/x86_64-linux-gnu/libc.so.6")),
                 qPrintable(tip));

        // Another sample replaces the frames; a truncated one says it is.
        f.state.setSelectedEvent({EventType::CpuSample, 97}); // stack 4, user stack truncated
        QCOMPARE(f.details.framesView()->model()->rowCount(), 2);
        QCOMPARE(f.row(0).first(), QStringLiteral("parse"));
        QVERIFY(f.row(1).first().startsWith(QStringLiteral("[truncated")));
        QVERIFY(f.details.framesView()
                    ->model()
                    ->index(1, 0)
                    .data(Qt::FontRole)
                    .value<QFont>()
                    .italic());
    }

    void selectedWaitShowsWhereItBlocked()
    {
        Fixture f;
        f.state.setSelectedEvent({EventType::OffCpu, DiskWaitEvent});
        QCOMPARE(f.details.value(QStringLiteral("Blocked in")), QStringLiteral("folio_wait_bit"));
        QCOMPARE(f.details.framesView()->model()->rowCount(), 8);
        QCOMPARE(f.row(0).first(), QStringLiteral("__schedule"));
        QCOMPARE(f.row(3).first(), QStringLiteral("folio_wait_bit"));
        QVERIFY(!f.bold(0));
        QVERIFY(f.bold(3)); // below the scheduler's frames

        // In a narrow dock a long module name and the kind leave the function most of the
        // width, in German too ("Benutzer").
        f.details.resize(260, 600);
        QCoreApplication::processEvents();
        QTreeView *view = f.details.framesView();
        const int function = view->columnWidth(StackFramesModel::FunctionColumn);
        QVERIFY2(function >= view->viewport()->width() / 2,
                 qPrintable(QStringLiteral("function column %1 of %2")
                                .arg(function)
                                .arg(view->viewport()->width())));
        QCOMPARE(f.row(6).at(StackFramesModel::ModuleColumn),
                 QStringLiteral("libpython3.11.so.1.0"));

        // A wait without a stack says so, with no frames under it.
        f.state.setSelectedEvent({EventType::OffCpu, NoStackEvent});
        QCOMPARE(f.details.value(QStringLiteral("Blocked in")), QStringLiteral("[no stack]"));
        QCOMPARE(f.details.value(QStringLiteral("Stack id")), QStringLiteral("none"));
        QCOMPARE(f.details.framesView()->model()->rowCount(), 0);

        // A new session: the old frames are gone before anything could paint them.
        f.session.setSession(profileSession());
        QCOMPARE(f.details.framesView()->model()->rowCount(), 0);
    }

    // An off-wake wait (#33): its blocked stack as an off-CPU wait's, and below it the line
    // naming its waker and the waker's frames at the wakeup; an interrupt and a wait without a
    // wakeup say so; other events hide the waker's part.
    void selectedOffWakeShowsItsWaker()
    {
        SessionData d = sessionWithWaits();
        quint64 at = ProfileStartNs + 200 * SampleStepNs;
        auto wait = [&](const char *wakerComm, quint32 wakerTid, quint32 wakerStack) {
            OffWakeEvent e;
            e.timeNs = ++at;
            e.offNs = 5'000'000;
            e.pid = e.tid = 100;
            e.stackId = DiskWaitStack;
            e.comm = "app";
            e.wakeNs = wakerComm[0] ? e.timeNs + 4'000'000 : 0;
            e.wakerPid = wakerTid ? 300 : 0;
            e.wakerTid = wakerTid;
            e.wakerComm = wakerComm;
            e.wakerStackId = wakerStack;
            d.events.append(e);
        };
        QString error;
        auto frame = [&](quint32 id, const char *symbol) {
            must(d.stacks.add(
                     FrameDefinition{
                         id, StackFrame{FrameKind::Kernel, 0x1000u * id, "vmlinux", {}, symbol}},
                     &error),
                 error);
        };
        frame(TryToWakeUpFrame, "try_to_wake_up");
        frame(AutoremoveWakeFrame, "autoremove_wake_function");
        frame(WakeUpCommonFrame, "__wake_up_common");
        frame(PipeWriteFrame, "anon_pipe_write");
        const QList<quint32> writeStack = d.stacks.stack(3).frames; // vfs_write … main
        must(d.stacks.add(StackDefinition{PipeWakeStack, 0,
                                          QList<quint32>{TryToWakeUpFrame, AutoremoveWakeFrame,
                                                         WakeUpCommonFrame, PipeWriteFrame} +
                                              writeStack},
                          &error),
             error);
        wait("writer", 301, 3); // vfs_write, entry_SYSCALL_64, write, main
        wait("[irq]", 0, OnlySchedStack);
        wait("", 0, 0);
        wait("writer", 301, PipeWakeStack);
        // Thread states: a wait on the pipe the writer ended, the run after it, and a wait no
        // wakeup ended within the recording.
        auto state_ = [&](quint8 s, quint64 at, const char *wakerComm, quint32 wakerTid,
                          quint32 wakerStack) {
            ThreadStateEvent e;
            e.timeNs = 1'000'000'000ull + at * 1'000'000;
            e.durNs = 1'000'000;
            e.pid = 200;
            e.tid = 201;
            e.comm = "app";
            e.state = s;
            e.reason = s == ThreadStateEvent::Sleeping ? ThreadStateEvent::Pipe : 0;
            e.wakerPid = wakerTid ? 300 : 0;
            e.wakerTid = wakerTid;
            e.wakerComm = wakerComm;
            e.wakerStackId = wakerStack;
            d.events.append(e);
        };
        state_(ThreadStateEvent::Sleeping, 1, "writer", 301, PipeWakeStack);
        state_(ThreadStateEvent::Running, 2, "", 0, 0);
        state_(ThreadStateEvent::Sleeping, 3, "", 0, 0);
        SessionModel session;
        ViewState state;
        DetailsPane details{&session, &state};
        session.setSession(std::move(d));
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        details.resize(420, 700);
        details.show();

        state.setSelectedEvent({EventType::OffWake, 0});
        QVERIFY(details.wakerPanel()->isVisible());
        QCOMPARE(details.value(QStringLiteral("Blocked in")), QStringLiteral("folio_wait_bit"));
        QCOMPARE(details.value(QStringLiteral("Woken by")), QStringLiteral("writer"));
        QCOMPARE(details.value(QStringLiteral("Waker TID")), QStringLiteral("301"));
        QCOMPARE(details.value(QStringLiteral("Wakeup to running")), QStringLiteral("1.00 ms"));
        QCOMPARE(details.wakerLabel()->text(),
                 QStringLiteral("Woken by writer (PID 300, TID 301), whose stack was:"));
        QCOMPARE(details.wakerFrames()->rowCount(), 4);
        QCOMPARE(details.wakerFrames()->index(0, 0).data().toString(), QStringLiteral("vfs_write"));
        QCOMPARE(details.wakerFrames()->index(3, 0).data().toString(), QStringLiteral("main"));

        state.setSelectedEvent({EventType::OffWake, 1});
        QCOMPARE(details.wakerLabel()->text(),
                 QStringLiteral("Woken from an interrupt ([irq]), whose stack was:"));
        QCOMPARE(details.wakerFrames()->rowCount(), 2);

        state.setSelectedEvent({EventType::OffWake, 2});
        QCOMPARE(details.wakerLabel()->text(),
                 QStringLiteral("Its wakeup was not seen (preempted, or lost)."));
        QCOMPARE(details.wakerFrames()->rowCount(), 0);

        // A wakeup through a wait queue: the waker is named by the function below the
        // wakeup's own frames, in the details, in bold among its frames and in the table.
        state.setSelectedEvent({EventType::OffWake, 3});
        QCOMPARE(details.value(QStringLiteral("Woken from")), QStringLiteral("anon_pipe_write"));
        QCOMPARE(details.wakerFrames()->rowCount(), 8);
        for (int r = 0; r < 8; ++r)
            QCOMPARE(
                details.wakerFrames()->index(r, 0).data(StackFramesModel::IsKeyFrameRole).toBool(),
                r == 3);
        EventTableModel table(&session, EventType::OffWake);
        QAbstractItemModelTester tester(&table,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        int column = -1;
        for (int c = 0; c < table.columnCount(); ++c) {
            if (table.headerData(c, Qt::Horizontal).toString() == QStringLiteral("Woken from"))
                column = c;
        }
        QVERIFY(column >= 0);
        QCOMPARE(table.index(0, column).data().toString(), QStringLiteral("vfs_write"));
        QCOMPARE(table.index(1, column).data().toString(), QStringLiteral("__schedule"));
        QCOMPARE(table.index(2, column).data().toString(), QString()); // no wakeup seen
        QCOMPARE(table.index(3, column).data().toString(), QStringLiteral("anon_pipe_write"));
        QCOMPARE(table.index(3, column).data(EventTableModel::RawValueRole).toUInt(),
                 PipeWakeStack);

        // A thread state's wait shows its waker as an off-wake wait does; a run has none.
        state.setSelectedEvent({EventType::ThreadState, 0});
        QVERIFY(details.wakerPanel()->isVisible());
        QCOMPARE(details.value(QStringLiteral("Reason")), QStringLiteral("pipe"));
        QCOMPARE(details.value(QStringLiteral("Woken from")), QStringLiteral("anon_pipe_write"));
        QCOMPARE(details.wakerLabel()->text(),
                 QStringLiteral("Woken by writer (PID 300, TID 301), whose stack was:"));
        QCOMPARE(details.wakerFrames()->rowCount(), 8);
        state.setSelectedEvent({EventType::ThreadState, 1});
        QVERIFY(!details.wakerPanel()->isVisible());
        state.setSelectedEvent({EventType::ThreadState, 2});
        QVERIFY(details.wakerPanel()->isVisible());
        QCOMPARE(details.wakerLabel()->text(),
                 QStringLiteral("No wakeup seen ended this wait (it lasted past the recording, "
                                "or its wakeup was not seen)."));
        QCOMPARE(details.wakerFrames()->rowCount(), 0);

        state.setSelectedEvent({EventType::OffCpu, DiskWaitEvent});
        QVERIFY(!details.wakerPanel()->isVisible());
        QCOMPARE(details.wakerFrames()->rowCount(), 0);
    }

    void tablesNameTheFunction()
    {
        SessionModel session;
        session.setSession(sessionWithWaits());
        for (EventType type : {EventType::CpuSample, EventType::OffCpu}) {
            EventTableModel model(&session, type);
            QAbstractItemModelTester tester(&model,
                                            QAbstractItemModelTester::FailureReportingMode::QtTest);
            QTableView view;
            view.setModel(&model);
            view.resize(1000, 400);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            const int column = model.columnCount() - 1;
            const QString header = model.headerData(column, Qt::Horizontal).toString();
            QCOMPARE(header, type == EventType::CpuSample ? QStringLiteral("Function")
                                                          : QStringLiteral("Blocked in"));
            auto cell = [&](int row) { return model.index(row, column).data().toString(); };
            if (type == EventType::CpuSample) {
                QCOMPARE(cell(0), QStringLiteral("compute(int)"));
                QCOMPARE(cell(60), QStringLiteral("malloc"));
                QCOMPARE(cell(85), QStringLiteral("vfs_write"));
                QCOMPARE(model.index(60, column).data(Qt::ToolTipRole).toString(),
                         QStringLiteral("malloc\nin /usr/lib/x86_64-linux-gnu/libc.so.6"));
            } else {
                QCOMPARE(cell(0), QStringLiteral("vfs_write"));
                QCOMPARE(cell(int(DiskWaitEvent)), QStringLiteral("folio_wait_bit"));
                QCOMPARE(cell(int(SchedOnlyEvent)), QStringLiteral("__schedule"));
                QCOMPARE(cell(int(NoStackEvent)), QStringLiteral("[no stack]"));
            }
            // The id stays the raw value, as CSV writes it.
            QCOMPARE(model.index(0, column).data(EventTableModel::RawValueRole).toUInt(),
                     type == EventType::CpuSample ? 1u : 3u);
            // Names read from the left, as every text column.
            QCOMPARE(model.index(0, column).data(Qt::TextAlignmentRole).value<Qt::Alignment>() &
                         Qt::AlignHorizontal_Mask,
                     Qt::AlignLeft);
        }
    }

    void timelineRangeScopesTheFlameGraph()
    {
        // Shift+drag over 0.5 … 0.8 s of the timeline: the flame graph sums those samples only
        // (stack 2: main → compute → malloc), through ViewState's range.
        SessionModel session;
        ViewState state;
        session.setSession(profileSession());
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        EventTableModel samples(&session, EventType::CpuSample);
        EventFilterModel lane(&samples, &state);
        TimelineWidget timeline(&session, &state, {&lane});
        ProfilePage page(&session, &state);
        timeline.resize(1000, 200);
        page.resize(1000, 500);
        timeline.show();
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        page.refresh();
        QTRY_VERIFY(page.profile());
        QCOMPARE(page.profile()->total, 100u);

        const int y = timeline.laneRect(EventType::CpuSample).center().y();
        // Halfway between samples 49 and 50, and 79 and 80: about 8 pixels from either.
        const int x1 =
            qRound(timeline.xForTime(ProfileStartNs + 49 * SampleStepNs + SampleStepNs / 2));
        const int x2 =
            qRound(timeline.xForTime(ProfileStartNs + 79 * SampleStepNs + SampleStepNs / 2));
        QTest::mousePress(&timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(x1, y));
        QTest::mouseMove(&timeline, QPoint((x1 + x2) / 2, y));
        QTest::mouseMove(&timeline, QPoint(x2, y));
        QTest::mouseRelease(&timeline, Qt::LeftButton, Qt::ShiftModifier, QPoint(x2, y));
        QVERIFY(state.isZoomed());
        QTRY_COMPARE(page.profile()->total, 30u);
        const CallTree &tree = page.profile()->topDown;
        // Every box above the root is main → compute → malloc, each the graph's whole width.
        qint32 node = 0;
        for (quint32 frame : {MainFrame, ComputeFrame, MallocFrame}) {
            QCOMPARE(tree.node(node).children.size(), 1);
            node = tree.node(node).children.first();
            QCOMPARE(tree.node(node).frame, frame);
            QCOMPARE(page.flameGraph()->nodeRect(node).width(),
                     page.flameGraph()->nodeRect(0).width());
        }
        // Back to the whole session: all of it again.
        state.resetRange();
        QTRY_COMPARE(page.profile()->total, 100u);
    }
};

QTEST_MAIN(TestStacksDetails)
#include "tst_stacksdetails.moc"
