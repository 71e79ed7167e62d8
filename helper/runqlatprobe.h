#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

struct runqlat_bpf;

namespace bpflens {

// runqlat: how long runnable tasks wait for a CPU, as log2 histograms for the whole system, per
// process ("PID comm") or per thread ("TID comm").
class RunqlatProbe : public SkeletonProbe<runqlat_bpf>
{
public:
    RunqlatProbe();
    ~RunqlatProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    void readHistograms() override;

private:
    static AttachPlan plan(const KernelFeatures &kernel);

    HistogramUnit m_unit = HistogramUnit::Microseconds;
    bool m_keyed = false;
};

} // namespace bpflens
