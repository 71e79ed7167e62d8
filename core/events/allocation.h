#pragma once

#include "core/eventschema.h"

#include <QCoreApplication>

namespace bpflens {

// A block of memory a recorded process allocated (memleak, docs/memory.md): when, by which
// function, its address and size, where (the stack, an id into the session's StackTable, its
// leaf the allocator's caller), and how long it lived: until it was freed, until the process
// ended, or until the recording did, the end saying which. With sampling (sampleEvery=N) each
// event stands for weight allocations.
struct AllocationEvent
{
    enum Function : quint8
    {
        Malloc = 0,
        Calloc = 1,
        Realloc = 2,
        Reallocarray = 3,
        PosixMemalign = 4,
        AlignedAlloc = 5,
        Memalign = 6,
        Valloc = 7,
        Pvalloc = 8,
        Mmap = 9,
        // The kernel's (no process given): the address of a page allocation is its page frame
        // number.
        Kmalloc = 10,
        KmemCacheAlloc = 11,
        PageAlloc = 12,
    };
    enum End : quint8
    {
        Freed = 0,       // free, realloc or munmap gave it back
        Outstanding = 1, // still allocated when the recording ended
        Exited = 2,      // still allocated when its process ended
    };
    quint64 timeNs = 0;
    quint64 durNs = 0; // from the allocation to its end
    quint32 pid = 0;
    quint32 tid = 0;
    QByteArray comm;
    quint8 function = Malloc;
    quint8 end = Freed;
    quint64 size = 0; // bytes asked for
    quint64 address = 0;
    quint32 stackId = 0;
    quint32 weight = 1; // allocations this event stands for: the probe's sampling
    // The task's cgroup v2 id (its directory's inode number; core/cgroups.h names it); 0 when
    // unknown.
    quint64 cgroupId = 0;
    bool operator==(const AllocationEvent &) const = default;

    // Not freed while it was recorded: what a leak is made of.
    bool live() const { return end != Freed; }
    // Allocated at or before t and not yet freed then.
    bool liveAt(quint64 t) const { return timeNs <= t && (end != Freed || timeNs + durNs > t); }

    static QString functionName(quint8 function);
    static QString endName(quint8 end);
    // The end as the window says it, in the user's language (CSV and SQL keep endName's word).
    static const char *endTitle(quint8 end);
};

inline QString AllocationEvent::functionName(quint8 function)
{
    static const char *const names[] = {
        "malloc",        "calloc",           "realloc",   "reallocarray", "posix_memalign",
        "aligned_alloc", "memalign",         "valloc",    "pvalloc",      "mmap",
        "kmalloc",       "kmem_cache_alloc", "page_alloc"};
    return function < std::size(names) ? QLatin1String(names[function]) : QString::number(function);
}

inline QString AllocationEvent::endName(quint8 end)
{
    switch (end) {
    case Freed:
        return QStringLiteral("freed");
    case Outstanding:
        return QStringLiteral("outstanding");
    case Exited:
        return QStringLiteral("exited");
    }
    return QString::number(end);
}

inline const char *AllocationEvent::endTitle(quint8 end)
{
    switch (end) {
    case Freed:
        return QT_TRANSLATE_NOOP("bpflens::Allocations", "freed");
    case Outstanding:
        return QT_TRANSLATE_NOOP("bpflens::Allocations", "in use at the end");
    case Exited:
        return QT_TRANSLATE_NOOP("bpflens::Allocations", "process exited");
    }
    return "";
}

template<>
struct EventTraits<AllocationEvent>
{
    using E = AllocationEvent;
    static constexpr const char *probeId = "memleak";
    static constexpr const char *wireName = "allocation";
    static constexpr const char *title = QT_TRANSLATE_NOOP("SessionModel", "Allocations");
    static constexpr auto fields = std::tuple{
        Field<&E::timeNs, FieldKind::Time>{"time_ns"},
        Field<&E::durNs, FieldKind::U64>{"dur_ns", "duration"},
        Field<&E::pid, FieldKind::U32, true>{"pid"},
        Field<&E::tid, FieldKind::U32, true>{"tid"},
        Field<&E::comm, FieldKind::Bytes, true>{"comm"},
        Field<&E::function, FieldKind::U8, true>{"function"},
        Field<&E::end, FieldKind::U8, true>{"end"},
        Field<&E::size, FieldKind::U64>{"size"},
        Field<&E::address, FieldKind::U64>{"address"},
        Field<&E::stackId, FieldKind::U32>{"stack_id", "stack id"},
        Field<&E::weight, FieldKind::U32, true>{"weight"},
        Field<&E::cgroupId, FieldKind::U64, true>{"cgroup_id", "cgroup id"},
    };
    static constexpr auto latency = std::tuple{&E::durNs};
    static constexpr LaneStyle lane{0xb5651d, true};
    static constexpr Column<E> columns[] = {
        column<E, &E::pid>("pid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "PID")),
        column<E, &E::tid>("tid", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "TID")),
        column<E, &E::comm>("comm", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Command"),
                            Format::Bytes),
        {"function", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Function"), Format::Text,
         Everywhere, [](const E &e) { return QVariant(E::functionName(e.function)); }},
        column<E, &E::size>("size", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Size"),
                            Format::Size),
        column<E, &E::address>("address", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Address"),
                               Format::Hex),
        {"end", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "End"), Format::Text, InCsv,
         [](const E &e) { return QVariant(E::endName(e.end)); }},
        {"end_title", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "End"), Format::Text,
         InTable | InDetails,
         [](const E &e) {
             const char *t = E::endTitle(e.end);
             return QVariant(*t ? QCoreApplication::translate("bpflens::Allocations", t)
                                : QString::number(e.end));
         }},
        column<E, &E::durNs>("dur_ns", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Lifetime"),
                             Format::Duration),
        column<E, &E::stackId>("stack_id", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Stack")),
        column<E, &E::weight>("weight", QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Weight")),
        column<E, &E::cgroupId>("cgroup_id",
                                QT_TRANSLATE_NOOP("bpflens::EventTableModel", "Cgroup ID"),
                                Format::Number, InCsv | InDetails),
    };
};

} // namespace bpflens
