#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

#include <QStringList>

struct cachestat_bpf;

namespace bpflens {

// Page cache hits, misses and dirtied pages per interval, like cachestat. Emits no events:
// each snapshot records counters (CounterSample) "accesses", "added", "dirtied", "misses",
// "hits" and, when there was any traffic, "hitRatio".
//
// What the numbers mean (on the tracepoint path):
//   accesses = pages looked up by read()/splice (each read's range counted once, clipped at
//              EOF) plus page faults on file mappings;
//   added    = pages inserted into the page cache (reads, readahead, writes to new pages);
//   dirtied  = pages accounted dirty;
//   misses   = added - dirtied (a write to a new page inserts and dirties it: not a miss),
//              at least 0; hits = accesses - misses, at least 0. This is cachestat's formula
//              and shares its limits: it is exact for pure reads, an estimate under writes.
//
// Unfiltered the counts are system-wide, like cachestat. The pid, tid, uid, comm and cgroup
// options count only what happens in the matching tasks' context (docs/cachestat.md): their
// reads, faults, the readahead those start, and the pages they dirty; the flusher's writeback
// and other kernel-thread work never count under a filter.
class CacheStatProbe : public SkeletonProbe<cachestat_bpf>
{
public:
    CacheStatProbe();
    ~CacheStatProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    void readCounters() override;

private:
    // How one quantity (accesses, added, dirtied) is hooked on this kernel.
    enum class Path
    {
        None,
        BtfTracepoint,
        Tracepoint,
        Fentry,
        Kprobe
    };
    struct Part
    {
        Path path = Path::None;
        QString function;   // Fentry/Kprobe: the kernel function
        QString hook;       // as shown in the attach path
        QByteArray program; // the BPF program for this path
    };
    struct Plan
    {
        Part accesses;
        Part faults; // optional addition to accesses (tracepoint paths only)
        Part added;
        Part dirtied;
        AttachPlan attach; // a group per quantity hooked; only "added" is required
        QString meaning() const;
    };
    static Plan plan(const KernelFeatures &kernel);

    quint64 m_lastAccesses = 0;
    quint64 m_lastAdded = 0;
    quint64 m_lastDirtied = 0;
    bool m_haveAccesses = false;
    bool m_haveDirtied = false;
};

} // namespace bpflens
