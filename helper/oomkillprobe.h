#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

struct oomkill_bpf;

namespace bpflens {

// Every OOM kill, like libbpf-tools' oomkill, from tracepoints: signal:signal_generate (the
// OOM killer's SIGKILL, with the victim's task) and oom:mark_victim (bpf/oomkill.bpf.c); the
// constraint from a hook on oom_kill_process where the kernel allows one.
class OomKillProbe : public SkeletonProbe<oomkill_bpf>
{
public:
    OomKillProbe();
    ~OomKillProbe() override;

    // Smaller than the default storm-sized ring (Probe): an OOM kill is a rare event.
    quint32 defaultRingBufferBytes() const override { return 1u << 20; }
    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;

private:
    static AttachPlan plan(const KernelFeatures &kernel, const QVariantMap &options);
    static bool markVictimHasTask(const KernelFeatures &kernel);
};

} // namespace bpflens
