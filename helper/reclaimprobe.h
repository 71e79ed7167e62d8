#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

struct reclaim_bpf;

namespace bpflens {

// Memory reclaim spans, like bcc's drsnoop plus memory cgroup reclaim and compactsnoop: vmscan's
// direct and memcg reclaim and compaction's begin and end tracepoints (bpf/reclaim.bpf.c), each
// span an event and a sample of its kind's log2 latency histogram ("direct", "memcg",
// "compaction").
class ReclaimProbe : public SkeletonProbe<reclaim_bpf>
{
public:
    ReclaimProbe();
    ~ReclaimProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void readHistograms() override;

private:
    static AttachPlan plan(const KernelFeatures &kernel);

    HistogramUnit m_unit = HistogramUnit::Microseconds;
};

} // namespace bpflens
