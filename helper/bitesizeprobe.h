#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

#include <memory>

struct bitesize_bpf;

namespace bpflens {

class BlockFlagDecoder;

// bitesize: block request sizes at issue, as log2 histograms of Kbytes keyed "comm", and with
// the options "comm/disk", "comm/Write", "comm/disk/Write".
class BitesizeProbe : public SkeletonProbe<bitesize_bpf>
{
public:
    BitesizeProbe();
    ~BitesizeProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    void readHistograms() override;

private:
    static AttachPlan plan(const KernelFeatures &kernel, const QVariantMap &options);

    std::unique_ptr<BlockFlagDecoder> m_decoder;
    bool m_perDisk = false;
    bool m_perOperation = false;
};

} // namespace bpflens
