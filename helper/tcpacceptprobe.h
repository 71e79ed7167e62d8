#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

struct tcpaccept_bpf;

namespace bpflens {

// Every TCP connection accepted by accept() or accept4() (IPv4 and IPv6), like bcc's tcpaccept,
// with the listen queue's length at that moment.
class TcpAcceptProbe : public SkeletonProbe<tcpaccept_bpf>
{
public:
    TcpAcceptProbe();
    ~TcpAcceptProbe() override;

    // Smaller than the default storm-sized ring (Probe): connections come thousands a second, not
    // the hundreds of thousands of a system call storm.
    quint32 defaultRingBufferBytes() const override { return 1u << 20; }
    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;

private:
    static AttachPlan plan(const KernelFeatures &kernel);
};

} // namespace bpflens
