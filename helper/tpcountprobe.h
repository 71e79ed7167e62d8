#pragma once

#include "core/losscounters.h"
#include "helper/attachplan.h"
#include "helper/keyedcounts.h"
#include "helper/probe.h"
#include "helper/probehooks.h"
#include "helper/tracepoints.h"

struct tpcount_bpf;

namespace bpflens {

// tpcount: the hits of any one tracepoint per interval, grouped by up to two keys resolved as
// tppair resolves them (Tracepoints::resolveKey: "prev.pid", "arg0.q.disk") and optionally by
// command name; or, with a value field, a log2 histogram of that field per key (bitehist,
// urandomread). One precompiled program serves any tracepoint (bpf/tpcount.bpf.c), another one
// a uprobe, uretprobe, USDT probe, kprobe or kretprobe ("u:BINARY:FUNCTION", core/probehook.h),
// keyed by comm, tid, pid or a USDT argument (probehooks.h).
class TpCountProbe : public SkeletonProbe<tpcount_bpf>
{
public:
    TpCountProbe();
    ~TpCountProbe() override;

    // A uprobe or USDT hook: the caller hands over the file it resolved.
    bool takesUserFile(const QVariantMap &options) const override;

    // Unavailable, with a reason naming the bad value, when the tracepoint, an argument or a
    // field does not exist in this kernel.
    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

    // The counters that are not hits per key: losses.
    static QString keysFullCounter() { return KeyedLoss::keysFull(); }
    static QString unreadableCounter() { return KeyedLoss::unreadableKeys(); }
    // The counter of a probe without keys.
    static QString hitsCounter() { return QStringLiteral("hits"); }

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    void readHistograms() override;
    void readCounters() override;

private:
    struct Key
    {
        QString text; // as the user wrote it: "prev.pid", "comm"
        bool comm = false;
        bool pointer = false; // shown in hex
        bool device = false;  // a dev_t: shown as MAJOR:MINOR
        TracepointKey resolved;
        QList<UsdtArg> args; // a USDT argument at a pt_regs hook: its spec per RegsHook::specs
    };
    struct Plan
    {
        ProbeHook hook;
        QString tracepoint; // event name, without category
        RegsHook regs;      // any other hook
        QList<Key> keys;
        bool histogram = false;
        TracepointKey value;
        QList<UsdtArg> valueArgs;
    };
    static bool plan(const KernelFeatures &kernel, const QVariantMap &options, Plan *out,
                     QString *error);
    AttachPlan attachPlan(const KernelFeatures &kernel, const QVariantMap &options,
                          Plan *out) const;
    // "prev.pid=12 next.pid=0", "comm=dd"; "hits" without keys.
    QString keyText(const QByteArray &rawKey) const;

    Plan m_plan;
    QByteArray m_fdPath;
    KeyedCounts m_counts;
    quint64 m_lastKeysFull = 0;
    quint64 m_lastUnreadable = 0;
};

} // namespace bpflens
