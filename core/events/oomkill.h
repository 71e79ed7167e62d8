#pragma once

#include "core/eventschema.h"

namespace bpflens {

// An OOM kill (oomkill, like libbpf-tools' oomkill): the victim (pid, comm, its memory as the
// kernel's "Killed process" line gives it, its cgroup), the task that ran the OOM killer (the one
// whose allocation or charge failed; often the victim itself) and the constraint: what ran out.
struct OomKillEvent
{
    // The kernel's enum oom_constraint, plus Unknown.
    enum Constraint : quint8
    {
        Unknown = 0,
        Global = 1, // CONSTRAINT_NONE: the machine's memory
        Cpuset = 2,
        MemoryPolicy = 3,
        Memcg = 4, // a memory cgroup's limit (memory.max, v1's memory.limit_in_bytes)
    };
    quint64 timeNs = 0;
    quint32 pid = 0; // the victim's
    QByteArray comm;
    quint64 totalVmBytes = 0;
    quint64 anonRssBytes = 0;
    quint64 fileRssBytes = 0;
    quint64 shmemRssBytes = 0;
    quint64 pgtablesBytes = 0;
    qint32 oomScoreAdj = 0;
    quint8 constraint = Unknown;
    quint32 triggerPid = 0;
    quint32 triggerTid = 0;
    QByteArray triggerComm;
    // The victim's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown.
    quint64 cgroupId = 0;
    bool operator==(const OomKillEvent &) const = default;

    quint64 rssBytes() const { return anonRssBytes + fileRssBytes + shmemRssBytes; }
    static QString constraintName(quint8 constraint);
};

inline QString OomKillEvent::constraintName(quint8 constraint)
{
    switch (constraint) {
    case Global:
        return QStringLiteral("global");
    case Cpuset:
        return QStringLiteral("cpuset");
    case MemoryPolicy:
        return QStringLiteral("mempolicy");
    case Memcg:
        return QStringLiteral("memcg");
    case Unknown:
        return QStringLiteral("unknown");
    }
    return QString::number(constraint);
}

template<>
struct EventTraits<OomKillEvent>
{
    using E = OomKillEvent;
    static constexpr const char *probeId = "oomkill";
    static constexpr const char *wireName = "oom kill";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "OOM kill");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::pid, FieldKind::U32>{"pid"},
        Field<&E::comm, FieldKind::Bytes>{"comm"},
        Field<&E::totalVmBytes, FieldKind::U64>{"total_vm_bytes", "total VM"},
        Field<&E::anonRssBytes, FieldKind::U64>{"anon_rss_bytes", "anonymous RSS"},
        Field<&E::fileRssBytes, FieldKind::U64>{"file_rss_bytes", "file RSS"},
        Field<&E::shmemRssBytes, FieldKind::U64>{"shmem_rss_bytes", "shmem RSS"},
        Field<&E::pgtablesBytes, FieldKind::U64>{"pgtables_bytes", "page tables"},
        Field<&E::oomScoreAdj, FieldKind::S32>{"oom_score_adj", "oom_score_adj"},
        Field<&E::constraint, FieldKind::U8>{"constraint"},
        Field<&E::triggerPid, FieldKind::U32>{"trigger_pid", "trigger pid"},
        Field<&E::triggerTid, FieldKind::U32>{"trigger_tid", "trigger tid"},
        Field<&E::triggerComm, FieldKind::Bytes>{"trigger_comm", "trigger comm"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto searched = std::tuple{&E::triggerComm};
    static constexpr LaneStyle lane{0xc0392b, true};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        // Not "constraint": an SQL keyword, and the column is a table's in bpflens-cli query.
        {"oom_constraint", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Constraint"),
         Format::Text, Everywhere,
         [](const E &e) { return QVariant(E::constraintName(e.constraint)); }},
        {nullptr, QT_TRANSLATE_NOOP("bpflens::EventTableModel", "RSS"), Format::Size,
         InTable | InDetails, [](const E &e) { return QVariant::fromValue(e.rssBytes()); }},
        column<E, &E::totalVmBytes>("total_vm_bytes",
                                    QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Total VM"),
                                    Format::Size),
        column<E, &E::anonRssBytes>("anon_rss_bytes",
                                    QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Anonymous RSS"),
                                    Format::Size, InCsv | InDetails),
        column<E, &E::fileRssBytes>("file_rss_bytes",
                                    QT_TRANSLATE_NOOP("bpflens::EventTableModel", "File RSS"),
                                    Format::Size, InCsv | InDetails),
        column<E, &E::shmemRssBytes>("shmem_rss_bytes",
                                     QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Shmem RSS"),
                                     Format::Size, InCsv | InDetails),
        column<E, &E::pgtablesBytes>("pgtables_bytes",
                                     QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Page tables"),
                                     Format::Size, InCsv | InDetails),
        column<E, &E::oomScoreAdj>("oom_score_adj",
                                   QT_TRANSLATE_NOOP("bpflens::EventTableModel", "oom_score_adj"),
                                   Format::Number, InCsv | InDetails),
        column<E, &E::triggerComm>("trigger_comm",
                                   QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Triggered by"),
                                   Format::Bytes),
        column<E, &E::triggerPid>("trigger_pid",
                                  QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Trigger PID")),
        column<E, &E::triggerTid>("trigger_tid",
                                  QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Trigger TID"),
                                  Format::Number, InCsv | InDetails),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
