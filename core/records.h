#pragma once

#include "core/cgroups.h"
#include "core/events.h"
#include "core/histogram.h"
#include "core/sharedfd.h"
#include "core/stacks.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QVariantMap>

namespace bpflens {

// One histogram's counts for one interval [timeNs - intervalNs, timeNs]. key separates the
// histograms of one probe: "" for a single one, a disk ("vda"), a flag set ("Sync-Write"),
// a process ("1234 comm"), or an I/O stack cell ("read/vfs").
struct HistogramSnapshot
{
    QString probeId;
    QString key;
    quint64 timeNs = 0;
    quint64 intervalNs = 0;
    Log2Histogram histogram;
    bool operator==(const HistogramSnapshot &) const = default;
};

// Cumulative per-probe counters at timeNs. Nothing is lost silently: eventsLost counts every
// record the kernel could not deliver. runCount/runTimeNs come from the kernel's BPF stats.
struct ProbeStats
{
    QString probeId;
    quint64 timeNs = 0;
    quint64 eventsSeen = 0;
    // Lost, one number per cause (cumulative, like the rest):
    // - eventsLost: records with no room, dropped in the kernel (the ring buffer or a tracking
    //   map was full) or unreadable when drained;
    // - eventsUnseen: a stage the kernel never ran the program for (a block request's
    //   completion), so its event could not be made;
    // - unfinished: requests seen starting and still open when the probe stopped (in flight,
    //   or ended unseen: the two cannot be told apart then). Set in the last stats only.
    quint64 eventsLost = 0;
    quint64 eventsUnseen = 0;
    quint64 unfinished = 0;
    quint64 runCount = 0;
    quint64 runTimeNs = 0;
    bool operator==(const ProbeStats &) const = default;
};

// A probe's counter over one interval [timeNs - intervalNs, timeNs] (not cumulative), for probes
// whose output is a few numbers per interval rather than events or histograms (cachestat:
// "hits", "misses", ...). A ratio is a value too, hence double.
struct CounterSample
{
    QString probeId;
    quint64 timeNs = 0;
    quint64 intervalNs = 0;
    QString name;
    double value = 0;
    bool operator==(const CounterSample &) const = default;
};

// A probe as it was asked for and as it attached.
struct ProbeConfig
{
    QString id;
    QVariantMap options;
    QString attachPath; // e.g. "tp_btf/sched_process_exec", as the engine reports it
    // A probe that attaches into a user-space file (uprobe): the file, opened by whoever asked
    // for the probe (client/binarytarget.h), and the offset of the function in it. Never
    // stored: a session keeps the options and the attach path.
    SharedFd file = {};
    quint64 fileOffset = 0;
    // tppair whose two user-space sides are in two binaries: the end's file (its offsets are in
    // the options, as the start's).
    SharedFd file2 = {};
    bool operator==(const ProbeConfig &) const = default;
};

struct SessionInfo
{
    int schemaVersion = 0;
    QString appVersion;
    QString host;
    // How the recording reached host, as the user typed it for record --host or Record on Host
    // ("daemon@127.0.0.1:2222"); empty for a recording on this computer.
    QString sshTarget;
    QString kernelRelease;
    QDateTime startWall; // UTC wall-clock time at startMonotonicNs
    quint64 startMonotonicNs = 0;
    quint64 endMonotonicNs = 0; // 0 while recording
    QList<ProbeConfig> probes;
    bool operator==(const SessionInfo &) const = default;
};

// What flows from the engine to its consumers (session writer, wire protocol, GUI models): one
// list per event type (named as in BPFLENS_EVENT_TYPES), then histograms, stats and counters.
// frames and stacks define the stack ids the batch's events refer to (first use first): a
// consumer adds them to its StackTable before it looks at the events.
struct RecordBatch
{
    QList<FrameDefinition> frames;
    QList<StackDefinition> stacks;
#define BPFLENS_BATCH_LIST(Name, Struct, member, number) QList<Struct> member;
    BPFLENS_EVENT_TYPES(BPFLENS_BATCH_LIST)
#undef BPFLENS_BATCH_LIST
    QList<HistogramSnapshot> histograms;
    QList<ProbeStats> stats;
    QList<CounterSample> counters;
    // The cgroups this batch's events name for the first time in the recording (an event may
    // name one an earlier batch defined, or none the recorder could resolve).
    QList<CgroupPath> cgroups;

    // The list of events of type E.
    template<typename E>
    QList<E> &events();
    template<typename E>
    const QList<E> &events() const
    {
        return const_cast<RecordBatch *>(this)->events<E>();
    }

    bool isEmpty() const;
    qsizetype eventCount() const;
    // Moves every record of from to the end of this batch.
    void append(RecordBatch &&from);
    void clear()
    {
        *this = RecordBatch{};
    }
    bool operator==(const RecordBatch &) const = default;
};

#define BPFLENS_BATCH_ACCESSOR(Name, Struct, member, number)                                       \
    template<>                                                                                     \
    inline QList<Struct> &RecordBatch::events<Struct>()                                            \
    {                                                                                              \
        return member;                                                                             \
    }
BPFLENS_EVENT_TYPES(BPFLENS_BATCH_ACCESSOR)
#undef BPFLENS_BATCH_ACCESSOR

inline bool RecordBatch::isEmpty() const
{
    bool empty = histograms.isEmpty() && stats.isEmpty() && counters.isEmpty() &&
                 frames.isEmpty() && stacks.isEmpty() && cgroups.isEmpty();
    forEachEventType([&]<typename E>() { empty = empty && events<E>().isEmpty(); });
    return empty;
}

inline qsizetype RecordBatch::eventCount() const
{
    qsizetype n = 0;
    forEachEventType([&]<typename E>() { n += events<E>().size(); });
    return n;
}

inline void RecordBatch::append(RecordBatch &&from)
{
    frames += std::move(from.frames);
    stacks += std::move(from.stacks);
    forEachEventType([&]<typename E>() { events<E>() += std::move(from.events<E>()); });
    histograms += std::move(from.histograms);
    stats += std::move(from.stats);
    counters += std::move(from.counters);
    cgroups += std::move(from.cgroups);
}

} // namespace bpflens
