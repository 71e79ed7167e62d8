#pragma once

#include "core/eventschema.h"

namespace bpflens {

// A thread off the CPU for at least the probe's minimum time, joined with the wakeup that ended
// it (offwake, like BCC's offwaketime): the blocked thread's span and stack as OffCpuEvent has
// them, and who woke it, when (wakeNs, CLOCK_MONOTONIC) and from where (wakerStackId, the
// waker's kernel and user stack at sched_waking; an id into the session's StackTable).
//
// The waker is a thread (wakerTid, wakerPid, wakerComm), or an interrupt: wakerComm "[irq]"
// (a hardware interrupt: a timer's expiry, an I/O completion) or "[softirq]" (a softirq served
// on whichever thread it interrupted), with tid and pid 0 and only a kernel stack. A span whose
// wakeup was not seen (a preempted thread, which is never woken; a wakeup lost to a full map)
// has wakeNs 0 and an empty wakerComm. The waker's own wait, and its waker, are the waker
// thread's offwake event that ended at or before wakeNs (a chain is a join, docs/offwake.md).
struct OffWakeEvent
{
    quint64 timeNs = 0;
    quint64 offNs = 0;
    quint32 pid = 0;
    quint32 tid = 0;
    quint32 stackId = 0;
    QByteArray comm;
    quint64 wakeNs = 0;
    quint32 wakerPid = 0;
    quint32 wakerTid = 0;
    quint32 wakerStackId = 0;
    QByteArray wakerComm;
    // The blocked task's cgroup v2 id (its directory's inode number; core/cgroups.h names it);
    // 0 when unknown.
    quint64 cgroupId = 0;
    bool operator==(const OffWakeEvent &) const = default;
};

template<>
struct EventTraits<OffWakeEvent>
{
    using E = OffWakeEvent;
    static constexpr const char *probeId = "offwake";
    static constexpr const char *wireName = "off wake";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "Off-wake");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::offNs, FieldKind::U64>{"off_ns", "off-CPU time"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::tid, FieldKind::U32>{"tid"},
        Field<&E::stackId, FieldKind::U32>{"stack_id", "stack id"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::wakeNs, FieldKind::U64>{"wake_ns", "wakeup time"},
        Field<&E::wakerPid, FieldKind::U32>{"waker_pid", "waker pid"},
        Field<&E::wakerTid, FieldKind::U32>{"waker_tid", "waker tid"},
        Field<&E::wakerStackId, FieldKind::U32>{"waker_stack_id", "waker stack id"},
        Field<&E::wakerComm, FieldKind::Bytes>{"waker_comm", "waker comm"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto searched = std::tuple{&E::wakerComm};
    static constexpr auto latency = std::tuple{&E::offNs};
    static constexpr LaneStyle lane{0xb05c8a, true};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::tid>("tid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "TID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        column<E, &E::offNs>("off_ns",
                             QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Off-CPU time"),
                             Format::Duration),
        column<E, &E::stackId>("stack_id", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Stack")),
        column<E, &E::wakerComm>(
            "waker_comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Woken by"), Format::Bytes),
        column<E, &E::wakerPid>("waker_pid",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Waker PID")),
        column<E, &E::wakerTid>("waker_tid",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Waker TID")),
        // CLOCK_MONOTONIC ns like time_ns in SQL, so that a waker's own wait joins on it; 0: none
        column<E, &E::wakeNs>("wake_ns",
                              QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Woken at (ns)"),
                              Format::Number, InCsv),
        {"wake_delay_ns", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Wakeup to running"),
         Format::Duration, Everywhere,
         [](const E &e) {
             const quint64 end = e.timeNs + e.offNs;
             return QVariant::fromValue(e.wakeNs && e.wakeNs <= end ? end - e.wakeNs : quint64(0));
         }},
        column<E, &E::wakerStackId>("waker_stack_id",
                                    QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Waker stack")),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
