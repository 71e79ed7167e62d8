#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"
#include "helper/probehooks.h"
#include "helper/tracepoints.h"

struct tppair_bpf;

namespace bpflens {

// tppair: the latency between two tracepoints, paired by a key (what a BCC script written for
// the occasion does): a log2 histogram of every pair and, above a threshold, the pairs as
// TpPairEvents. One precompiled program pair serves any two tracepoints: they attach as raw
// tracepoints by name, and each side reads its key as the kernel's BTF says (see
// Tracepoints::resolveKey). Either side may instead be a uprobe, uretprobe, USDT probe, kprobe
// or kretprobe ("u:BINARY:FUNCTION", core/probehook.h), keyed by tid, pid or a USDT argument:
// a second program pair of the pt_regs type serves those (probehooks.h). Both user-space sides
// are in the one file the caller opened. The pid/comm filters apply where the pair starts.
// Start and end may be the same hook: each hit then ends its key's pair and starts the next
// (BCC's sync_timing), in one program of either type.
class TpPairProbe : public SkeletonProbe<tppair_bpf>
{
public:
    TpPairProbe();
    ~TpPairProbe() override;

    // A uprobe or USDT side: the caller hands over the file it resolved.
    bool takesUserFile(const QVariantMap &options) const override;
    // Both sides in user-space files: the end's may be another binary (ProbeConfig::file2).
    bool takesSecondUserFile(const QVariantMap &options) const override;

    // Unavailable, with a reason naming the bad value, when a tracepoint, argument or field
    // does not exist in this kernel.
    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void readHistograms() override;
    // "unreadableKeys": starts and ends whose key path met a NULL pointer or unreadable memory,
    // so a key that never pairs is told apart from a pair that never happens.
    void readCounters() override;

private:
    struct Side
    {
        ProbeHook hook;
        QString tracepoint; // event name, without category, for a tracepoint
        RegsHook regs;      // for any other hook
        TracepointKey key;
        QList<UsdtArg> args; // a USDT side keyed by an argument: its spec per RegsHook::specs
    };
    struct Plan
    {
        Side start;
        Side end;
        bool same = false; // start and end are one hook: from one hit to the next
    };
    static bool planSide(const KernelFeatures &kernel, const QVariantMap &options,
                         const QString &side, const QString &key, Side *out, QString *error);
    static bool plan(const KernelFeatures &kernel, const QVariantMap &options, Plan *out,
                     QString *error);
    AttachPlan attachPlan(const KernelFeatures &kernel, const QVariantMap &options,
                          Plan *out) const;
    // /proc/self/fd/N of each side's file (the end's is the second file when there is one).
    QByteArray m_startFdPath;
    QByteArray m_endFdPath;
    HistogramUnit m_unit = HistogramUnit::Microseconds;
    quint64 m_lastUnreadable = 0;
};

} // namespace bpflens
