#pragma once

#include "core/eventfilter.h"
#include "core/events.h"
#include "core/histogram.h"
#include "core/scansplit.h"
#include "core/spikeexplain.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <limits>
#include <optional>

namespace bpflens {

struct SessionData;

// The Overview (issue #29, "lead with the answer"): per probe what it recorded, the top
// processes by each kind of cost, and what is worth a look. Shared by the GUI's Overview tab
// and anything else that wants the same answer for a range and a filter.

// Whether comm is one of BPF Lens' own processes (bpflens, bpflens-cli, bpflens-helper,
// bpflens-symbolizer), as the kernel keeps a comm: cut to 15 bytes.
bool isOwnProcessName(const QByteArray &comm);

struct OverviewQuery
{
    quint64 startNs = 0; // the visible range, [startNs, endNs)
    quint64 endNs = std::numeric_limits<quint64>::max();
    EventFilter filter;
    // The whole recording, where spikes are looked for: a spike is measured against the rest of
    // the recording, not against the rest of a zoomed range.
    quint64 fullStartNs = 0;
    quint64 fullEndNs = std::numeric_limits<quint64>::max();
    bool includeOwn = false; // BPF Lens' own processes in the top lists
    int topLimit = 5;        // rows per cost
    // The spike ranking is over the whole recording and costs a scan of it: a caller that only
    // changed the range keeps the spikes it has.
    bool findSpikes = true;
};

// One probe of the session.
struct ProbeOverview
{
    enum class Kind : quint8
    {
        Events,     // the probe records events (exec, open, block, profile, ...)
        Histograms, // only histograms, counted in the kernel (runqlat, bitesize, iostack)
        Counters,   // only counters per interval (cachestat)
        Nothing,    // configured, but nothing of it is in the session
    };
    QString probeId;
    Kind kind = Kind::Nothing;
    std::optional<EventType> type; // Events: the type its events are

    // Events: in the range, passing the filter.
    qint64 events = 0;
    // Types with a latency: exact percentiles by nearest rank (docs/top.md) of those events.
    bool hasLatency = false;
    quint64 p50Ns = 0;
    quint64 p99Ns = 0;
    quint64 maxNs = 0;

    // Histograms: the snapshots whose interval ends in the range, every key merged (the
    // filter does not apply: the kernel counted them). Percentiles are bucket ranges: the
    // slots of a log2 histogram, not values. -1: none (no samples, or keys that are stages of
    // the same requests, as iostack's, which cannot be merged).
    quint64 samples = 0;
    qint64 intervals = 0;
    HistogramUnit unit = HistogramUnit::Microseconds;
    int p50Slot = -1;
    int p99Slot = -1;
    int maxSlot = -1;

    // Losses over the whole recording (the probe's counters are cumulative, not per range);
    // hasStats false when the session has no counters of the probe.
    bool hasStats = false;
    quint64 lost = 0;       // no room in the ring buffer or a map: real losses
    quint64 unseen = 0;     // a stage the kernel ran no program for: not a full buffer
    quint64 unfinished = 0; // still open at the stop
};

// The kinds of cost a process is ranked by, each in its own unit: they are never added.
enum class CostKind : quint8
{
    CpuSamples, // profile samples (the idle task left out)
    OffCpuTime, // offcpu: time off the CPU, ns
    BlockTime,  // block: queue + device time of the requests, ns
    Opens,      // open calls
    Connects,   // tcpconnect attempts
};
inline constexpr int CostKindCount = int(CostKind::Connects) + 1;
// The event type a cost is counted from.
EventType costEventType(CostKind kind);
// Whether the cost is a time (ns) rather than a count.
bool costIsTime(CostKind kind);

struct CostRow
{
    qint64 pid = -1;
    QByteArray comm;
    quint64 value = 0; // the cost: a count, or ns
    qint64 events = 0;
    bool own = false; // a BPF Lens process
};

struct CostList
{
    CostKind kind = CostKind::CpuSamples;
    QList<CostRow> rows;  // largest first, then by pid; without own processes unless asked
    quint64 total = 0;    // of every process in the range under the filter (own ones included)
    qint64 processes = 0; // distinct processes before the cut (own ones included)
    quint64 ownValue = 0; // BPF Lens' own share of total
};

// Something worth a look, each pointing at what shows it.
struct Finding
{
    enum class Kind : quint8
    {
        Spike,    // a burst of one type's events over the whole recording, and what it held
        Errors,   // calls that failed with one errno (ENOENT opens, ECONNREFUSED connects)
        RunQueue, // run-queue latency p99 far above its p50
        Losses,   // a probe lost events (a full buffer)
    };
    Kind kind = Kind::Spike;
    EventType type = EventType::Exec; // Spike, Errors
    QString probeId;                  // RunQueue, Losses

    // Spike: the burst's range, its events against the recording's usual rate per the same
    // time, and the value most over-represented in it (unset when none is).
    quint64 startNs = 0;
    quint64 endNs = 0;
    qint64 count = 0;  // Spike: events in the burst; Errors: failed calls; Losses: lost
    double factor = 0; // Spike: times the median rate; RunQueue: p99 / p50
    std::optional<ExplainRow> cause;

    // Errors
    qint32 error = 0;  // negative errno
    QString errorName; // "ENOENT"
    qint64 total = 0;  // calls of the type in the range under the filter
    // Of count, BPF Lens' own processes' (counted all the same: the filter the link sets
    // cannot leave them out, and the numbers must be what it shows).
    qint64 ownCount = 0;

    // RunQueue: log2 slots of the merged histogram in the range
    HistogramUnit unit = HistogramUnit::Microseconds;
    int p50Slot = -1;
    int p99Slot = -1;
};

// The memory of a session with allocations (memleak, docs/memory.md), summed as memory, not as
// latencies: what the range left allocated and by which stacks, what the processes held at its
// start, at its end and at most in it. Filtered as the other sections; sampled events count
// their weight.
struct MemoryOverview
{
    struct Stack
    {
        quint32 stackId = 0; // 0: blocks without a stack
        quint64 bytes = 0;
        quint64 blocks = 0;
        quint64 oldestNs = 0; // when its oldest block in use was allocated
    };
    bool present = false;   // the session has allocations
    qint64 allocations = 0; // events allocated in the range under the filter
    quint64 allocatedBytes = 0, allocatedBlocks = 0;
    // Allocated in the range and not freed by its end (sumAllocations()'s in use): the Memory
    // group's flame graph and top stacks.
    quint64 inUseBytes = 0, inUseBlocks = 0;
    qint64 stacks = 0; // stacks with bytes in use
    QList<Stack> top;  // most bytes first, topLimit of them
    // Every recorded block, whenever allocated, held at the range's start and end (allocated
    // before the moment and not freed before it), and the most held in the range, first when.
    quint64 heldAtStartBytes = 0, heldAtEndBytes = 0;
    quint64 peakBytes = 0, peakNs = 0;
    qint64 growthBytes() const { return qint64(heldAtEndBytes) - qint64(heldAtStartBytes); }
    quint64 endNs = 0; // the range's end (the last data's for an open range): ages are to it
    quint32 sampleEvery = 1;
};

struct Overview
{
    MemoryOverview memory;
    QList<ProbeOverview> probes; // the session's probe order, then probes with data only
    QList<CostList> costs;       // one per CostKind whose type has events in the session
    QList<Finding> findings;     // most telling first: losses, spikes, errors, run queue
    bool spikesSearched = false; // the query asked for spikes (else none are in findings)
    qint64 eventsInRange = 0;    // passing the filter
};

// Computes the Overview of data for the query. cancel as in topList(): when set and true the
// result is incomplete and to be dropped.
Overview computeOverview(const SessionData &data, const OverviewQuery &query,
                         const StackTable *stacks = nullptr,
                         const std::atomic_bool *cancel = nullptr, const ScanSplit &split = {});

// The spike findings of data (those of computeOverview with findSpikes).
QList<Finding> findSpikes(const SessionData &data, const OverviewQuery &query,
                          const StackTable *stacks = nullptr,
                          const std::atomic_bool *cancel = nullptr);

} // namespace bpflens
