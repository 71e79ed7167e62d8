#pragma once

#include "core/eventschema.h"

namespace bpflens {

// A block I/O request completed (biosnoop, biolatency).
struct BlockEvent
{
    quint64 timeNs = 0;   // completion time
    quint32 dev = 0;      // major << 20 | minor, as the kernel's dev_t
    quint32 cmdFlags = 0; // raw req->cmd_flags
    quint64 sector = 0;
    quint32 bytes = 0;
    quint32 pid = 0;      // the task that issued (or queued) the request
    quint64 queueNs = 0;  // insert -> issue, 0 when not queued through the scheduler
    quint64 deviceNs = 0; // issue -> complete
    QByteArray disk;      // "vda"
    QByteArray op;        // decoded like biolatency -F: "Sync-Write"
    QByteArray comm;
    static quint32 major(quint32 dev) { return dev >> 20; }
    static quint32 minor(quint32 dev) { return dev & ((1u << 20) - 1); }
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const BlockEvent &) const = default;
};

template<>
struct EventTraits<BlockEvent>
{
    using E = BlockEvent;
    static constexpr const char *probeId = "block";
    static constexpr const char *wireName = "block";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "Block I/O");
    // Device, flags, disk and operation repeat from request to request: keyed.
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::dev, FieldKind::U32, true>{"dev"},
        Field<&E::cmdFlags, FieldKind::U32, true>{"cmd_flags"},
        Field<&E::sector, FieldKind::U64>{"sector"},
        Field<&E::bytes, FieldKind::U32>{"bytes"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::queueNs, FieldKind::U64>{"queue_ns"},
        Field<&E::deviceNs, FieldKind::U64>{"device_ns"},
        Field<&E::disk, FieldKind::Bytes, true>{"disk"},
        Field<&E::op, FieldKind::Bytes, true>{"op"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto searched = std::tuple{&E::disk, &E::op};
    static constexpr auto latency = std::tuple{&E::queueNs, &E::deviceNs};
    static constexpr auto bytes = std::tuple{&E::bytes};
    static constexpr auto top =
        std::tuple{TopBy<Dimension::Disk, &E::disk>{}, TopBy<Dimension::Operation, &E::op>{}};
    static constexpr LaneStyle lane{};
    static constexpr Column<E> columns[] = {
        column<E, &E::disk>("disk", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Disk"),
                            Format::Bytes),
        {"dev_major", nullptr, Format::Number, InCsv,
         [](const E &e) { return QVariant(E::major(e.dev)); }},
        {"dev_minor", nullptr, Format::Number, InCsv,
         [](const E &e) { return QVariant(E::minor(e.dev)); }},
        {nullptr, QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Device"), Format::Text, InDetails,
         [](const E &e) {
             return QVariant(QStringLiteral("%1:%2").arg(E::major(e.dev)).arg(E::minor(e.dev)));
         }},
        column<E, &E::op>("op", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Operation"),
                          Format::Bytes),
        column<E, &E::cmdFlags>("cmd_flags",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command flags"),
                                Format::Hex, InCsv | InDetails),
        column<E, &E::sector>("sector", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Sector")),
        column<E, &E::bytes>("bytes", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Bytes")),
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        column<E, &E::queueNs>("queue_ns", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Queue"),
                               Format::Duration, Everywhere,
                               QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Queue time")),
        column<E, &E::deviceNs>(
            "device_ns", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Device"), Format::Duration,
            Everywhere, QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Device time")),
        {nullptr, QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Issued at"), Format::Time,
         InDetails, [](const E &e) { return QVariant::fromValue(e.timeNs - e.deviceNs); }},
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
