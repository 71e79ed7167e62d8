#pragma once

#include "gui/models/viewstate.h"

#include <QHash>

#include <array>
#include <atomic>
#include <vector>

namespace bpflens {

class EventFilterModel;
class SessionModel;

// What one lane of the timeline draws for a time range at a given width. The cost follows
// the pixels, not the events: per pixel column the count is the difference of two binary
// searches, and only sparse ranges (a few events per pixel) visit events one by one.
struct LaneBins
{
    enum Category : quint8
    {
        Read,
        Write,
        Other,
        CategoryCount
    };
    struct Span
    {
        double x0 = 0, x1 = 0; // pixel columns, may reach outside [0, width)
        qsizetype index = -1;  // store index
        Category category = Other;
        int row = 0; // sub-row, so overlapping block requests stay visible
    };

    EventType type = EventType::Exec;
    int width = 0;
    bool dense = false;
    qsizetype total = 0;                     // accepted events in the range (by event time)
    std::vector<quint32> counts;             // per column
    std::vector<float> share[CategoryCount]; // dense block lanes: estimated share per column
    std::vector<Span> spans;                 // sparse: one entry per event (ticks have x0 == x1)
    int rows = 1;
    quint32 maxCount = 0;
};

// What the binner needs beyond binary searches, built once per lane and extended as live
// events arrive: how many of the lane's accepted events up to every Stride-th one were reads and
// writes. Any range of accepted events then has exact per-category counts from two cells and at
// most 2 * (Stride - 1) events, so a dense block lane costs O(columns * Stride) at every zoom
// instead of touching the events of each column.
// It also keeps the time of every Stride-th accepted event (0.5 bytes per event): the column
// edges are searched in that small array, and only the last step reads at most Stride
// neighbouring rows of the store. Searching the rows themselves cost a dependent cache miss per
// probe, a dozen or more per column and lane at full zoom-out.
class LaneSummary
{
public:
    static constexpr qsizetype Stride = 16;

    // Brings the summary up to the lane's accepted sequence: extends it when only events were
    // appended (the live path), rebuilds it otherwise. Only block lanes carry categories.
    void update(const EventFilterModel &lane, const SessionModel &session);
    void clear();
    // Accepted events [0, k) per category; k <= summarizedCount().
    void countsBefore(const EventFilterModel &lane, const SessionModel &session, qsizetype k,
                      quint32 out[3]) const;
    qsizetype summarizedCount() const { return m_count; }
    // First accepted position k >= from whose time is >= t (acceptedCount() if none); from must
    // itself be such an answer for some earlier t, or 0. Needs summarizedCount() ==
    // lane.acceptedCount().
    qsizetype lowerBoundFrom(const EventFilterModel &lane, const SessionModel &session,
                             qsizetype from, quint64 t) const;

private:
    LaneBins::Category category(const SessionModel &session, qsizetype storeIndex) const;

    qsizetype m_count = 0;
    qsizetype m_lastIndex = -1; // store index of accepted event m_count - 1
    bool m_block = false;
    // m_cum[j] counts reads and writes among accepted events [0, j * Stride).
    std::vector<std::array<quint32, 2>> m_cum;
    std::vector<quint64> m_times; // m_times[j]: time of accepted event j * Stride
    quint32 m_run[2] = {};        // the counts over [0, m_count)
    mutable QHash<const char *, LaneBins::Category> m_categories; // interned op -> category
    mutable const char *m_lastOp = nullptr;
    mutable LaneBins::Category m_lastCategory = LaneBins::Other;
};

// CPU samples per process over a time range, one density row per process: the timeline's CPU
// lanes, so a spike in another lane can be matched with what ran then. The busiest processes
// of the range come first; the rest share one "other" lane.
struct ProcessCpuBins
{
    struct Lane
    {
        qint64 pid = -1; // -1: the "other" lane
        QByteArray comm; // the command of the process's first sample in the range
        quint64 total = 0;
        int processes = 1;           // the "other" lane: how many processes it holds
        std::vector<quint32> counts; // per column
    };
    int width = 0;
    quint32 maxCount = 0; // over every lane's columns, so lanes compare by height
    std::vector<Lane> lanes;
};

// The bytes one process held in recorded allocations over time (memleak): a memory lane of the
// timeline, from outstandingBytesOverTime() (core/allocations.h).
struct ProcessMemory
{
    qint64 pid = -1;
    QByteArray comm;                     // the command of its first allocation
    QList<QPair<quint64, quint64>> held; // (time, bytes held from then on), in time order
    quint64 peak = 0;                    // over the whole recording
};

// A process's held bytes on the pixel columns of a range: per column the least and the most it
// held there (one value where nothing changed, so consecutive columns draw a step line; both
// where it changed), and the most of the range, which the lane is scaled to and labels.
struct MemoryColumns
{
    int width = 0;
    int first = 0; // columns before it lie before the process's first recorded allocation
    std::vector<quint64> low, high; // per column
    quint64 peak = 0;
    int peakColumn = -1; // where the range first held its peak; -1: nothing held in the range
    quint64 peakNs = 0;  // when it first held it (the range's start if held before)
};

class TimelineBinner
{
public:
    // At most this many processes get a memory lane (the largest peaks).
    static constexpr int MaxMemoryLanes = 4;
    // Every process with allocations in the session, the largest peak first (then the lower
    // pid), each held as outstandingBytesOverTime() sums it: one pass over the allocations for
    // every process together. The timeline computes it in a worker at each session change;
    // cancel (polled) stops it early, its result then to be dropped.
    static QList<ProcessMemory> memoryByProcess(const SessionModel &session,
                                                const std::atomic_bool *cancel = nullptr);
    static MemoryColumns binMemory(const ProcessMemory &memory, quint64 startNs, quint64 endNs,
                                   int width);
    // What the process held at t (0 before its first allocation).
    static quint64 heldAt(const ProcessMemory &memory, quint64 t);

    // At most this many processes get a CPU lane of their own.
    static constexpr int MaxProcessLanes = 8;
    // One pass over the range's samples (plus one over the processes): cheap next to the
    // event lanes' binning, and cached per zoom level by the timeline. With samples (the CPU
    // samples lane's filter model) only its accepted samples count: a process the window's
    // filter hides gets no lane, as its samples are gone from the CPU samples lane too.
    static ProcessCpuBins binCpuByProcess(const SessionModel &session, quint64 startNs,
                                          quint64 endNs, int width, int maxLanes = MaxProcessLanes,
                                          const EventFilterModel *samples = nullptr);
    // Sparse drawing below this many events per pixel column on average.
    static constexpr double SparseEventsPerColumn = 2.0;
    static constexpr int MaxSpanRows = 4;
    // Dense block lanes read their exact read/write/other shares from a LaneSummary; without
    // one, bin() builds a temporary one (a full pass over the lane).
    static LaneBins bin(const EventFilterModel &lane, const SessionModel &session, quint64 startNs,
                        quint64 endNs, int width, const LaneSummary *summary = nullptr);
    static LaneBins::Category categoryOf(const QByteArray &op);
};

} // namespace bpflens
