#pragma once

#include "helper/perfsampling.h"
#include "helper/probe.h"

#include <vector>

struct pagefault_bpf;

namespace bpflens {

// pagefault: the software perf events minor-faults and major-faults on every online CPU, each
// running a BPF program (bpf/pagefault.bpf.c) that records the fault with its address, the
// address's kind and the stacks, unwound and symbolised as profile's samples are.
class PageFaultProbe : public SkeletonProbe<pagefault_bpf>
{
public:
    PageFaultProbe();
    ~PageFaultProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    void doStop() override;
    void doDetach() override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void finishDrain(RecordBatch &out) override;

private:
    std::vector<PageFaultEvent> m_pending;
    SampledStacks m_stacks;
    PerfEventSet m_events;
    quint32 m_every = 1;
};

} // namespace bpflens
