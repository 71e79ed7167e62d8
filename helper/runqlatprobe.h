#pragma once

#include "probe.h"

struct runqlat_bpf;

namespace bpflens {

// runqlat: how long runnable tasks wait for a CPU, as log2 histograms for the whole system, per
// process ("PID comm") or per thread ("TID comm").
class RunqlatProbe : public Probe
{
public:
    RunqlatProbe();
    ~RunqlatProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    void doStop() override;
    void doDetach() override;
    void readHistograms() override;
    quint64 kernelHistogramFull() const override;
    quint32 histogramMapKeys() const override;

private:
    runqlat_bpf *m_skel = nullptr;
    TimeUnit m_unit = TimeUnit::Microseconds;
    bool m_keyed = false;
};

} // namespace bpflens
