#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"
#include "helper/recentstrings.h"

struct exec_bpf;

namespace bpflens {

// execsnoop: every exec with its argv, and (option "failed") the failed ones.
class ExecProbe : public SkeletonProbe<exec_bpf>
{
public:
    ExecProbe();
    ~ExecProbe() override;

    // Smaller than the default storm-sized ring (Probe): an exec is a few hundred bytes to a few
    // KiB and even a build's exec storm is thousands a second, not hundreds of thousands.
    quint32 defaultRingBufferBytes() const override { return 1u << 20; }
    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;

private:
    static AttachPlan plan(const KernelFeatures &kernel, const QVariantMap &options);

    RecentStrings m_strings;
    // execsnoop -n and -l, applied to each decoded exec: the command contains m_name, the
    // arguments joined by spaces contain m_line (empty: no filter).
    QByteArray m_name;
    QByteArray m_line;
};

} // namespace bpflens
