#pragma once

#include "core/eventschema.h"

namespace bpflens {

// A memory reclaim span of one task (reclaim, like bcc's drsnoop plus cgroup-limit reclaim and
// compactsnoop): direct reclaim (an allocation the machine could not satisfy at once), memcg
// reclaim (a charge over a memory cgroup's memory.max or memory.high, v1's limit) or the
// compaction of a zone (an allocation's, kcompactd's, or a write to /proc/sys/vm/compact_memory):
// its end (timeNs, as for every type with a latency but offcpu's) and its latency, with the
// pages it reclaimed (0 for a compaction).
struct ReclaimEvent
{
    enum Kind : quint8
    {
        Direct = 1,
        Memcg = 2,
        Compaction = 3, // compaction of a zone: no pages reclaimed, pagesReclaimed 0
    };
    quint64 timeNs = 0;
    quint64 latencyNs = 0;
    quint64 pagesReclaimed = 0;
    quint32 pid = 0;
    quint32 tid = 0;
    QByteArray comm;
    quint8 kind = Direct;
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown.
    quint64 cgroupId = 0;
    bool operator==(const ReclaimEvent &) const = default;

    static QString kindName(quint8 kind);
};

inline QString ReclaimEvent::kindName(quint8 kind)
{
    switch (kind) {
    case Direct:
        return QStringLiteral("direct");
    case Memcg:
        return QStringLiteral("memcg");
    case Compaction:
        return QStringLiteral("compaction");
    }
    return QString::number(kind);
}

template<>
struct EventTraits<ReclaimEvent>
{
    using E = ReclaimEvent;
    static constexpr const char *probeId = "reclaim";
    static constexpr const char *wireName = "reclaim";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "Memory reclaim");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::latencyNs, FieldKind::U64>{"latency_ns", "latency"},
        Field<&E::pagesReclaimed, FieldKind::U64>{"pages_reclaimed", "pages reclaimed"},
        Field<&E::pid, FieldKind::U32, true>{"pid"},
        Field<&E::tid, FieldKind::U32, true>{"tid"},
        Field<&E::comm, FieldKind::Bytes, true>{"comm"},
        Field<&E::kind, FieldKind::U8, true>{"kind"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto latency = std::tuple{&E::latencyNs};
    static constexpr LaneStyle lane{0x9c6b30, true};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::tid>("tid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "TID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        {"kind", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Kind"), Format::Text, Everywhere,
         [](const E &e) { return QVariant(E::kindName(e.kind)); }},
        column<E, &E::pagesReclaimed>(
            "pages_reclaimed", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Pages reclaimed")),
        column<E, &E::latencyNs>("latency_ns",
                                 QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Latency"),
                                 Format::Duration),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
