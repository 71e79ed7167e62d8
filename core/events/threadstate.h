#pragma once

#include "core/eventschema.h"

#include <QCoreApplication>

namespace bpflens {

// One span of one thread's scheduling state (threadstate): from timeNs for durNs the thread was
// running on a CPU, waiting in a run queue, or blocked, as the kernel's sched_switch, sched_waking
// and sched_wakeup_new tell it. A recorded thread's spans follow each other without a gap from
// its first transition to the end of the recording (or its exit).
//
// A blocked span (Sleeping, Uninterruptible, Stopped) carries where it blocked (stackId, the
// kernel stack at the switch-out; reason, what that stack says it waited for) and, when a wakeup
// ended it, who woke it: a thread (wakerPid, wakerTid, wakerComm) or an interrupt (wakerComm
// "[irq]" or "[softirq]", tid and pid 0), with the waker's kernel stack at the wakeup
// (wakerStackId). The span after a wakeup is Runnable (reason Woken) until the thread runs;
// a thread preempted while running is Runnable with reason Preempted.
struct ThreadStateEvent
{
    enum State : quint8
    {
        Running = 1,
        Runnable = 2,
        Sleeping = 3,        // TASK_INTERRUPTIBLE (and TASK_IDLE: D without load, kernel threads)
        Uninterruptible = 4, // TASK_UNINTERRUPTIBLE ('D'), TASK_KILLABLE
        Stopped = 5,         // stopped by a signal or traced
    };
    enum Reason : quint8
    {
        NoReason = 0, // running, or a blocked span whose stack was not taken (before the recording)
        Preempted = 1,   // runnable: it was running and was put back in the run queue
        Woken = 2,       // runnable: it was woken and waits for a CPU
        Created = 3,     // runnable: a new thread, not yet run
        Io = 4,          // blocked on block I/O or a page's I/O (io_schedule, folio_wait_bit)
        Futex = 5,       // a futex (pthread mutexes and condition variables, most user-space locks)
        Lock = 6,        // a kernel lock: mutex, rw-semaphore
        Sleep = 7,       // nanosleep, clock_nanosleep, a timed wait with nothing else
        Pipe = 8,        // reading or writing a pipe
        Socket = 9,      // a socket: receive, send, accept, connect
        Poll = 10,       // epoll_wait, poll, select
        PageFault = 11,  // in a page fault, waiting for something not named above
        Child = 12,      // wait4/waitid for a child
        Signal = 13,     // pause, sigsuspend, sigtimedwait
        Other = 14,      // a kernel stack none of the above names
        KernelIdle = 15, // a kernel thread waiting for work (worker_thread, smpboot_thread_fn)
    };

    quint64 timeNs = 0; // the span's start
    quint64 durNs = 0;
    quint32 pid = 0;
    quint32 tid = 0;
    QByteArray comm;
    quint8 state = Running;
    quint8 reason = NoReason;
    // Running: the CPU it ran on; Runnable: the CPU it then ran on (0 when it did not run before
    // the recording ended); blocked: the CPU it blocked on.
    quint32 cpu = 0;
    quint32 stackId = 0;
    quint32 wakerPid = 0;
    quint32 wakerTid = 0;
    QByteArray wakerComm;
    quint32 wakerStackId = 0;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown.
    quint64 cgroupId = 0;
    bool operator==(const ThreadStateEvent &) const = default;

    bool blocked() const { return state >= Sleeping && state <= Stopped; }
    // The plain names CSV, SQL, JSON lines and the CLI use ("running", "io"); the window says
    // them in the user's language (stateTitle, reasonTitle).
    static QString stateName(quint8 state);
    static QString reasonName(quint8 reason);
    static const char *stateTitle(quint8 state);
    static const char *reasonTitle(quint8 reason);
};

inline QString ThreadStateEvent::stateName(quint8 state)
{
    switch (state) {
    case Running:
        return QStringLiteral("running");
    case Runnable:
        return QStringLiteral("runnable");
    case Sleeping:
        return QStringLiteral("sleeping");
    case Uninterruptible:
        return QStringLiteral("uninterruptible");
    case Stopped:
        return QStringLiteral("stopped");
    }
    return QString::number(state);
}

inline QString ThreadStateEvent::reasonName(quint8 reason)
{
    static const char *const names[] = {
        "",     "preempted", "woken", "created",    "io",    "futex",  "lock",  "sleep",
        "pipe", "socket",    "poll",  "page_fault", "child", "signal", "other", "kernel_idle"};
    return reason < std::size(names) ? QString::fromLatin1(names[reason]) : QString::number(reason);
}

// Untranslated source texts, context "bpflens::ThreadStates": the window translates them.
inline const char *ThreadStateEvent::stateTitle(quint8 state)
{
    switch (state) {
    case Running:
        return QT_TRANSLATE_NOOP("bpflens::ThreadStates", "Running");
    case Runnable:
        return QT_TRANSLATE_NOOP("bpflens::ThreadStates", "Runnable");
    case Sleeping:
        return QT_TRANSLATE_NOOP("bpflens::ThreadStates", "Sleeping");
    case Uninterruptible:
        return QT_TRANSLATE_NOOP("bpflens::ThreadStates", "Uninterruptible (D)");
    case Stopped:
        return QT_TRANSLATE_NOOP("bpflens::ThreadStates", "Stopped");
    }
    return "";
}

inline const char *ThreadStateEvent::reasonTitle(quint8 reason)
{
    static const char *const titles[] = {
        "",
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "preempted"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "woken, waiting for a CPU"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "new thread"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "I/O"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "futex"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "kernel lock"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "sleep"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "pipe"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "socket"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "poll"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "page fault"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "waiting for a child"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "signal"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "other"),
        QT_TRANSLATE_NOOP("bpflens::ThreadStates", "kernel thread waiting for work"),
    };
    return reason < std::size(titles) ? titles[reason] : "";
}

template<>
struct EventTraits<ThreadStateEvent>
{
    using E = ThreadStateEvent;
    static constexpr const char *probeId = "threadstate";
    static constexpr const char *wireName = "thread state";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "Thread states");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::durNs, FieldKind::U64>{"dur_ns", "duration"},
        Field<&E::pid, FieldKind::U32, true>{"pid"},
        Field<&E::tid, FieldKind::U32, true>{"tid"},
        Field<&E::comm, FieldKind::Bytes, true>{"comm"},
        Field<&E::state, FieldKind::U8, true>{"state"},
        Field<&E::reason, FieldKind::U8, true>{"reason"},
        Field<&E::cpu, FieldKind::U32, true>{"cpu"},
        Field<&E::stackId, FieldKind::U32>{"stack_id", "stack id"},
        Field<&E::wakerPid, FieldKind::U32>{"waker_pid", "waker pid"},
        Field<&E::wakerTid, FieldKind::U32>{"waker_tid", "waker tid"},
        Field<&E::wakerComm, FieldKind::Bytes>{"waker_comm", "waker comm"},
        Field<&E::wakerStackId, FieldKind::U32>{"waker_stack_id", "waker stack id"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto searched = std::tuple{&E::wakerComm};
    static constexpr auto latency = std::tuple{&E::durNs};
    static constexpr LaneStyle lane{0x5a8f3c, true};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::tid>("tid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "TID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        {"state", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "State"), Format::Text, InCsv,
         [](const E &e) { return QVariant(E::stateName(e.state)); }},
        {"state_title", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "State"), Format::Text,
         InTable | InDetails,
         [](const E &e) {
             const char *t = E::stateTitle(e.state);
             return QVariant(*t ? QCoreApplication::translate("bpflens::ThreadStates", t)
                                : QString::number(e.state));
         }},
        {"reason", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Reason"), Format::Text, InCsv,
         [](const E &e) { return QVariant(E::reasonName(e.reason)); }},
        {"reason_title", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Reason"), Format::Text,
         InTable | InDetails,
         [](const E &e) {
             const char *t = E::reasonTitle(e.reason);
             return QVariant(*t || e.reason == E::NoReason
                                 ? QCoreApplication::translate("bpflens::ThreadStates", t)
                                 : QString::number(e.reason));
         }},
        column<E, &E::durNs>("dur_ns", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Duration"),
                             Format::Duration),
        column<E, &E::cpu>("cpu", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "CPU")),
        column<E, &E::wakerComm>(
            "waker_comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Woken by"), Format::Bytes),
        column<E, &E::wakerPid>("waker_pid",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Waker PID")),
        column<E, &E::wakerTid>("waker_tid",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Waker TID")),
        column<E, &E::stackId>("stack_id", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Stack"),
                               Format::Number, InCsv | InDetails),
        column<E, &E::wakerStackId>("waker_stack_id",
                                    QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Waker stack"),
                                    Format::Number, InCsv | InDetails),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
