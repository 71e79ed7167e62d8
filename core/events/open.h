#pragma once

#include "core/eventschema.h"
#include "core/openflags.h"

namespace bpflens {

// A file was opened (opensnoop).
struct OpenEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint32 tid = 0;
    quint32 uid = 0;
    qint32 flags = 0;
    quint32 mode = 0;
    qint32 ret = 0; // fd, or -errno
    QByteArray comm;
    QByteArray path;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown (sessions recorded before BPF Lens kept it).
    quint64 cgroupId = 0;
    bool operator==(const OpenEvent &) const = default;
};

template<>
struct EventTraits<OpenEvent>
{
    using E = OpenEvent;
    static constexpr const char *probeId = "open";
    static constexpr const char *wireName = "open";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "Open");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::tid, FieldKind::U32>{"tid"},
        Field<&E::uid, FieldKind::U32>{"uid"},
        Field<&E::flags, FieldKind::S32>{"flags"},
        Field<&E::mode, FieldKind::U32>{"mode"},
        Field<&E::ret, FieldKind::S32>{"ret"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::path, FieldKind::Bytes>{"path"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto searched = std::tuple{&E::path};
    static constexpr auto top =
        std::tuple{TopBy<Dimension::File, &E::path>{}, TopBy<Dimension::Error, &E::ret>{}};
    static constexpr LaneStyle lane{0x8e5cc8};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::tid>("tid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "TID")),
        column<E, &E::uid>("uid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "UID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        // Raw in CSV; "O_WRONLY|O_CREAT" where people read it.
        {"flags", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Flags"), Format::Hex, Everywhere,
         &schema::memberValue<&E::flags>, nullptr,
         [](const E &e) { return OpenFlags::text(e.flags); }},
        column<E, &E::mode>("mode", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Mode"),
                            Format::Octal),
        // The fd, or the error's name ("ENOENT") as opensnoop's ERR column shows it.
        {"ret", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Return"), Format::Number, Everywhere,
         &schema::memberValue<&E::ret>, nullptr,
         [](const E &e) { return e.ret < 0 ? errnoName(-e.ret) : QString::number(e.ret); }},
        column<E, &E::path>("path", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Path"),
                            Format::Bytes),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
