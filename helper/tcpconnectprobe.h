#pragma once

#include "attachplan.h"
#include "probe.h"

struct tcpconnect_bpf;

namespace bpflens {

// Every active TCP connect (IPv4 and IPv6) with its outcome, like libbpf-tools' tcpconnect.
class TcpConnectProbe : public SkeletonProbe<tcpconnect_bpf>
{
public:
    TcpConnectProbe();
    ~TcpConnectProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;

private:
    enum class Path
    {
        None,
        BtfTracepoint,
        Tracepoint,
        Fexit,
        Kprobe
    };
    static Path choosePath(const KernelFeatures &kernel, QString *why);
    static AttachPlan plan(const KernelFeatures &kernel, Path *path);
};

} // namespace bpflens
