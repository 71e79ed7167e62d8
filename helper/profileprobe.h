#pragma once

#include "helper/perfsampling.h"
#include "helper/probe.h"

#include <vector>

struct profile_bpf;

namespace bpflens {

// profile: on-CPU sampling at a fixed frequency on every online CPU (perf_event_open, cycles
// where the CPU has a PMU, else the cpu-clock timer), each sample with its kernel stack and its
// user stack unwound and symbolised by the symbolizer child (helper/symbolizerclient.h).
class ProfileProbe : public SkeletonProbe<profile_bpf>
{
public:
    ProfileProbe();
    ~ProfileProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    void doStop() override;
    void doDetach() override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void finishDrain(RecordBatch &out) override;

private:
    // The samples of the drain, their stack ids still to come from m_stacks.
    std::vector<CpuSampleEvent> m_pending;
    SampledStacks m_stacks;
    PerfEventSet m_events;
    bool m_kernelOnly = false;
};

} // namespace bpflens
