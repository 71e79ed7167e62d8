#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

struct fsslower_bpf;

namespace bpflens {

// fsslower / ext4slower: every ext4, xfs or btrfs read, write, open and fsync slower than
// minLatencyUs (0: all), as FsSlowEvent. Reads, writes and opens need fentry or kprobes; ext4's
// fsync also comes from its tracepoints, so without either only fsync is reported.
class FsSlowerProbe : public SkeletonProbe<fsslower_bpf>
{
public:
    FsSlowerProbe();
    ~FsSlowerProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;
    // Which operations this kernel reports for ext4 ('R', 'W', 'O', 'F').
    static QByteArray ext4Operations(const KernelFeatures &kernel, const QVariantMap &options = {});

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;

private:
    static AttachPlan plan(const KernelFeatures &kernel, const QVariantMap &options,
                           QByteArray *ext4Ops = nullptr);
};

} // namespace bpflens
