#pragma once

#include "helper/probe.h"
#include "helper/symbolizerclient.h"

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
    void closeEvents();

    struct Pending
    {
        CpuSampleEvent event;
        QList<quint64> kernel; // leaf first; the first one is the sampled instruction
        bool sampledInKernel = false;
        bool kernelTruncated = false;
        bool noUser = false;
        qsizetype user = -1; // index into m_users
    };
    std::vector<Pending> m_pending;
    QList<UserSample> m_users;
    QList<int> m_perfFds;
    QList<bpf_link *> m_perfLinks;
    bool m_kernelOnly = false;
};

} // namespace bpflens
