#pragma once

#include "core/eventschema.h"

namespace bpflens {

// One on-CPU sample (profile): what a CPU was running when the sampling timer fired. The stack
// is an id into the session's StackTable (core/stacks.h); 0 when none could be taken.
struct CpuSampleEvent
{
    quint64 timeNs = 0;
    quint32 cpu = 0;
    quint32 pid = 0; // thread group; 0 for the idle task
    quint32 tid = 0;
    quint32 stackId = 0;
    QByteArray comm;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const CpuSampleEvent &) const = default;
};

template<>
struct EventTraits<CpuSampleEvent>
{
    using E = CpuSampleEvent;
    static constexpr const char *probeId = "profile";
    static constexpr const char *wireName = "cpu sample";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "CPU samples");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::cpu, FieldKind::U32>{"cpu"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::tid, FieldKind::U32>{"tid"},
        Field<&E::stackId, FieldKind::U32>{"stack_id", "stack id"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr LaneStyle lane{0x3f7fbf, true};
    static constexpr Column<E> columns[] = {
        column<E, &E::cpu>("cpu", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "CPU")),
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::tid>("tid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "TID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        column<E, &E::stackId>("stack_id", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Stack")),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
