#pragma once

#include "core/eventschema.h"

namespace bpflens {

// A call of a user-space function (the uprobe probe) that took at least the probe's threshold,
// from entry to return, with the argument the calls are counted by: its value, or for a string
// argument its text.
struct UprobeCallEvent
{
    quint64 timeNs = 0; // the return
    quint32 pid = 0;
    quint32 tid = 0;
    quint64 latencyNs = 0;
    quint8 keyKind = 0;   // what the calls were counted by: 0 nothing, 1 argument, 2 string
    quint64 argument = 0; // an integer key's value (0 for a string key or none)
    QByteArray text;      // a string key's text
    QByteArray comm;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const UprobeCallEvent &) const = default;
};

template<>
struct EventTraits<UprobeCallEvent>
{
    using E = UprobeCallEvent;
    static constexpr const char *probeId = "uprobe";
    static constexpr const char *wireName = "user function call";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "User function calls");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::tid, FieldKind::U32>{"tid"},
        Field<&E::latencyNs, FieldKind::U64>{"latency_ns"},
        Field<&E::keyKind, FieldKind::U8>{"key_kind"},
        Field<&E::argument, FieldKind::U64>{"argument"},
        Field<&E::text, FieldKind::Bytes>{"text"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto searched = std::tuple{&E::text};
    static constexpr auto latency = std::tuple{&E::latencyNs};
    static constexpr LaneStyle lane{0x8e5ac8, true};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::tid>("tid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "TID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        // Raw in CSV; where people read it, signed as the counters name it ("arg1=-3"), and
        // empty when the calls were not counted by an argument's value.
        {"argument", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Argument"), Format::Number,
         Everywhere, &schema::memberValue<&E::argument>, nullptr,
         [](const E &e) {
             return e.keyKind == 0 || e.keyKind == 2 ? QString()
                                                     : QString::number(qint64(e.argument));
         }},
        column<E, &E::text>("text", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "String"),
                            Format::Bytes),
        column<E, &E::latencyNs>("latency_ns",
                                 QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Latency"),
                                 Format::Duration),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
