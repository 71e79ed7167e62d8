#pragma once

#include "attachplan.h"
#include "probe.h"
#include "recentstrings.h"

struct open_bpf;

namespace bpflens {

// opensnoop: every open, openat, openat2 and creat (option "failedOnly": only failed ones).
class OpenProbe : public SkeletonProbe<open_bpf>
{
public:
    OpenProbe();
    ~OpenProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;

private:
    static AttachPlan plan(const KernelFeatures &kernel, const QVariantMap &options);

    RecentStrings m_strings;
};

} // namespace bpflens
