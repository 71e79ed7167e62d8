#pragma once

#include "attachplan.h"
#include "probe.h"
#include "recentstrings.h"

struct exec_bpf;

namespace bpflens {

// execsnoop: every exec with its argv, and (option "failed") the failed ones.
class ExecProbe : public Probe
{
public:
    ExecProbe();
    ~ExecProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    void doStop() override;
    void doDetach() override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    quint64 kernelLost() const override;

private:
    static AttachPlan plan(const KernelFeatures &kernel, const QVariantMap &options);

    exec_bpf *m_skel = nullptr;
    QList<bpf_link *> m_links;
    RecentStrings m_strings;
};

} // namespace bpflens
