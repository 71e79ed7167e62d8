#pragma once

#include "core/eventschema.h"

namespace bpflens {

// A slow file-system operation (fsslower), or any single operation with a latency.
struct FsSlowEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint8 op = 0; // 'R', 'W', 'O', 'F'
    quint64 bytes = 0;
    quint64 offset = 0;
    quint64 latencyNs = 0;
    QByteArray fs; // "ext4"
    QByteArray comm;
    QByteArray filename;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const FsSlowEvent &) const = default;
};

template<>
struct EventTraits<FsSlowEvent>
{
    using E = FsSlowEvent;
    static constexpr const char *probeId = "fsslower";
    static constexpr const char *wireName = "fs slow";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "Slow file ops");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::op, FieldKind::U8>{"op"},
        Field<&E::bytes, FieldKind::U64>{"bytes"},
        Field<&E::offset, FieldKind::U64>{"offset"},
        Field<&E::latencyNs, FieldKind::U64>{"latency_ns"},
        Field<&E::fs, FieldKind::Bytes>{"fs"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::filename, FieldKind::Bytes>{"filename"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto searched = std::tuple{&E::filename, &E::fs};
    static constexpr auto latency = std::tuple{&E::latencyNs};
    static constexpr auto bytes = std::tuple{&E::bytes};
    static constexpr auto top =
        std::tuple{TopBy<Dimension::File, &E::filename>{}, TopBy<Dimension::Operation, &E::op>{}};
    static constexpr LaneStyle lane{0xc83c5a, true};
    static constexpr Column<E> columns[] = {
        column<E, &E::fs>("fs", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "File system"),
                          Format::Bytes),
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        {"op", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Operation"), Format::Char, Everywhere,
         [](const E &e) { return QVariant(int(e.op)); }},
        column<E, &E::bytes>("bytes", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Bytes")),
        column<E, &E::offset>("offset", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Offset")),
        column<E, &E::latencyNs>("latency_ns",
                                 QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Latency"),
                                 Format::Duration),
        column<E, &E::filename>(
            "filename", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "File name"), Format::Bytes),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
