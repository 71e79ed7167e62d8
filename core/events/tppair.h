#pragma once

#include "core/eventschema.h"

namespace bpflens {

// Two tracepoints paired by a key (the tppair probe), recorded when the pair was slow enough.
// The identity is the start side's, where the pid/comm filters apply.
struct TpPairEvent
{
    quint64 timeNs = 0; // the end tracepoint
    quint32 pid = 0;
    quint32 tid = 0;
    quint64 key = 0; // the value both sides were paired by (a tid, a pointer, an id)
    quint64 latencyNs = 0;
    QByteArray comm;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const TpPairEvent &) const = default;
};

template<>
struct EventTraits<TpPairEvent>
{
    using E = TpPairEvent;
    static constexpr const char *probeId = "tppair";
    static constexpr const char *wireName = "tracepoint pair";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "Tracepoint pairs");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::tid, FieldKind::U32>{"tid"},
        Field<&E::key, FieldKind::U64>{"key"},
        Field<&E::latencyNs, FieldKind::U64>{"latency_ns"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto latency = std::tuple{&E::latencyNs};
    static constexpr LaneStyle lane{0x1f9ea8, true};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::tid>("tid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "TID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        column<E, &E::key>("key", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Key"),
                           Format::Hex),
        column<E, &E::latencyNs>("latency_ns",
                                 QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Latency"),
                                 Format::Duration),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
