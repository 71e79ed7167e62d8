#pragma once

#include "core/events.h"
#include "core/stacks.h"

#include <QAbstractTableModel>

#include <functional>

namespace bpflens {

class SessionModel;

// How one event's stack is named where there is room for a single function (an event table's
// cell, the timeline's hover text).
namespace StackNames {
// The frame that says what the event was doing, 0 when the stack is unknown or empty:
// - a CPU sample: its leaf, the function the CPU was running;
// - an off-CPU wait: the function it blocked in, the first frame (leaf first) that is not the
//   scheduler's own. Every wait's kernel stack starts with __schedule, schedule and often
//   schedule_timeout or io_schedule, so the leaf would name the same few functions for every
//   wait; the frame below them (anon_pipe_read, do_wait, folio_wait_bit, do_nanosleep) is what
//   tells a pipe from a disk from a sleep. A stack of scheduler frames only keeps its leaf.
quint32 keyFrame(const StackTable &stacks, EventType type, quint32 stackId);
int keyFrameIndex(const StackTable &stacks, EventType type, quint32 stackId); // -1: none
// Scheduler plumbing every off-CPU stack passes through (kernel/sched: schedule, __schedule,
// schedule_timeout, schedule_hrtimeout_range, io_schedule, preempt_schedule, __cond_resched,
// the completion waits' common loop).
bool isSchedulerFrame(const StackFrame &frame);
// The key frame's name ("vfs_write"); "[no stack]" when the event has none.
QString keyFunction(const StackTable &stacks, EventType type, quint32 stackId);
// The frame that says what an off-wake wait's waker was doing when it woke the wait: the first
// frame (leaf first) that is not the wakeup's own plumbing. Every waker's stack starts with
// try_to_wake_up and, for a wait queue, __wake_up_common and a wake function, so the leaf
// would name the same few functions for every wakeup; the frame below them (anon_pipe_write,
// futex_wake, hrtimer_wakeup, unix_stream_sendmsg) tells a pipe from a lock from a timer. A
// stack of wakeup frames only keeps its leaf.
quint32 wakerKeyFrame(const StackTable &stacks, quint32 stackId);
int wakerKeyFrameIndex(const StackTable &stacks, quint32 stackId); // -1: none
// The scheduler's and the wait queues' wakeup plumbing (kernel/sched/core.c, wait.c,
// wait_bit.c: try_to_wake_up, wake_up_process, wake_up_q, __wake_up*, the wake functions).
bool isWakeupFrame(const StackFrame &frame);
// The waker's key frame's name; "[no stack]" when the wakeup has none.
QString wakerKeyFunction(const StackTable &stacks, quint32 stackId);
} // namespace StackNames

// The frames of one event's stack, leaf first (kernel frames, then user frames), as the details
// pane lists them. A stack the unwinder or the kernel cut short ends in a marker row that says
// so, so a short stack is not mistaken for a complete one.
class StackFramesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        FunctionColumn,
        ModuleColumn, // the file name; the whole path in the tool tip
        SourceColumn, // "file.c:12" where DWARF had it; the whole path in the tool tip
        KindColumn,   // "kernel" or "user", with ", inlined" for a function inlined there
        ColumnCount
    };
    Q_ENUM(Columns)
    enum Roles
    {
        FrameIdRole = Qt::UserRole + 1, // quint32 StackTable frame id; 0 for the marker row
        FrameKindRole,                  // int(FrameKind); invalid for the marker row
        IsKeyFrameRole,                 // bool: the frame the tables name the event by
        IsMarkerRole,                   // bool: the "stack cut short" row
        IsInlinedRole,                  // bool: a function the compiler inlined into the next
    };
    Q_ENUM(Roles)

    explicit StackFramesModel(QObject *parent = nullptr);

    // The stack of the event (type, stackId) from the table; a null table or an unknown id
    // shows nothing. The table must outlive the model or be replaced first.
    void setStack(const StackTable *stacks, EventType type, quint32 stackId);
    // An off-wake wait's waker's stack, its key frame StackNames::wakerKeyFrame.
    void setWakerStack(const StackTable *stacks, quint32 stackId);
    void clear() { setStack(nullptr, EventType::CpuSample, 0); }
    // A call path that is not a whole recorded stack (a stack chart's box: its function, then
    // its callers), leaf first, with the flags of the stack it is part of. The first row is the
    // key frame.
    void setFrames(const StackTable *stacks, const QList<quint32> &frames, quint8 flags);
    quint32 stackId() const { return m_stackId; }
    // The rows of frames, without the marker row.
    int frameCount() const { return int(m_frames.size()); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QString markerText() const;
    void setStack(const StackTable *stacks, quint32 stackId,
                  const std::function<int(const StackTable &, quint32)> &keyRow);

    const StackTable *m_stacks = nullptr;
    quint32 m_stackId = 0;
    bool m_shown = false; // a stack or a call path is set
    quint8 m_flags = 0;
    QList<quint32> m_frames;
    int m_keyRow = -1;
};

} // namespace bpflens
