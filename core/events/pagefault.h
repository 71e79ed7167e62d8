#pragma once

#include "core/eventschema.h"

namespace bpflens {

// A user-space page fault (pagefault), as the kernel counts it in the task's min_flt or
// maj_flt: where it happened (the stack, an id into the session's StackTable), whether it was
// major, the faulting address and what it was (its mapping's kind). With sampling (every=N)
// each event stands for weight faults.
struct PageFaultEvent
{
    enum Kind : quint8
    {
        Unknown = 0, // the kernel has no bpf_find_vma (before 5.17), or the mm was busy
        Anon = 1,
        File = 2,
        Stack = 3, // the main thread's stack
        Heap = 4,  // the brk heap
    };
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint32 tid = 0;
    QByteArray comm;
    bool major = false;
    quint8 kind = Unknown;
    quint64 address = 0;
    quint32 stackId = 0;
    quint32 weight = 1; // faults this event stands for: the probe's sampling period
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown.
    quint64 cgroupId = 0;
    bool operator==(const PageFaultEvent &) const = default;

    static QString kindName(quint8 kind);
};

inline QString PageFaultEvent::kindName(quint8 kind)
{
    switch (kind) {
    case Unknown:
        return QStringLiteral("unknown");
    case Anon:
        return QStringLiteral("anon");
    case File:
        return QStringLiteral("file");
    case Stack:
        return QStringLiteral("stack");
    case Heap:
        return QStringLiteral("heap");
    }
    return QString::number(kind);
}

template<>
struct EventTraits<PageFaultEvent>
{
    using E = PageFaultEvent;
    static constexpr const char *probeId = "pagefault";
    static constexpr const char *wireName = "page fault";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "Page faults");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::pid, FieldKind::U32, true>{"pid"},
        Field<&E::tid, FieldKind::U32, true>{"tid"},
        Field<&E::comm, FieldKind::Bytes, true>{"comm"},
        Field<&E::major, FieldKind::Flag, true>{"major"},
        Field<&E::kind, FieldKind::U8, true>{"kind"},
        Field<&E::address, FieldKind::U64>{"address"},
        Field<&E::stackId, FieldKind::U32>{"stack_id", "stack id"},
        Field<&E::weight, FieldKind::U32, true>{"weight"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr LaneStyle lane{0x8a9a1c, true};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::tid>("tid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "TID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        column<E, &E::major>("major", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Major"),
                             Format::YesNo),
        {"kind", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Kind"), Format::Text, Everywhere,
         [](const E &e) { return QVariant(E::kindName(e.kind)); }},
        column<E, &E::address>("address", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Address"),
                               Format::Hex),
        column<E, &E::stackId>("stack_id", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Stack")),
        column<E, &E::weight>("weight", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Weight")),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
