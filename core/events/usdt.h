#pragma once

#include "core/eventschema.h"

namespace bpflens {

// A hit of a USDT probe (the usdt probe, with events on): its arguments as the probe's specs
// read them, and the string argument the hits are counted by, when they are.
struct UsdtEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint32 tid = 0;
    QByteArray args; // "42 -3 140737488348400": each argument in decimal, signed as its spec says
    QByteArray text; // a str(argN) key's text
    QByteArray comm;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const UsdtEvent &) const = default;
};

template<>
struct EventTraits<UsdtEvent>
{
    using E = UsdtEvent;
    static constexpr const char *probeId = "usdt";
    static constexpr const char *wireName = "USDT probe hit";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "USDT probe hits");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::tid, FieldKind::U32>{"tid"},
        Field<&E::args, FieldKind::Bytes>{"args"},
        Field<&E::text, FieldKind::Bytes>{"text"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto searched = std::tuple{&E::args, &E::text};
    static constexpr LaneStyle lane{0x2a9d8f, true};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::tid>("tid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "TID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        column<E, &E::args>("args", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Arguments"),
                            Format::Bytes),
        column<E, &E::text>("text", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "String"),
                            Format::Bytes),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
