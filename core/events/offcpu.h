#pragma once

#include "core/eventschema.h"

namespace bpflens {

// A thread off the CPU for at least the probe's minimum time (offcpu): from the moment it was
// switched out (timeNs) until it ran again, and the stack it blocked in (an id into the
// session's StackTable, core/stacks.h; 0 when none could be taken).
struct OffCpuEvent
{
    quint64 timeNs = 0;
    quint64 offNs = 0;
    quint32 pid = 0;
    quint32 tid = 0;
    quint32 stackId = 0;
    QByteArray comm;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const OffCpuEvent &) const = default;
};

template<>
struct EventTraits<OffCpuEvent>
{
    using E = OffCpuEvent;
    static constexpr const char *probeId = "offcpu";
    static constexpr const char *wireName = "off cpu";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "Off-CPU");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::offNs, FieldKind::U64>{"off_ns", "off-CPU time"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::tid, FieldKind::U32>{"tid"},
        Field<&E::stackId, FieldKind::U32>{"stack_id", "stack id"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto latency = std::tuple{&E::offNs};
    static constexpr LaneStyle lane{0x8a5cc8, true};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::tid>("tid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "TID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        column<E, &E::offNs>("off_ns",
                             QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Off-CPU time"),
                             Format::Duration),
        column<E, &E::stackId>("stack_id", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Stack")),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
