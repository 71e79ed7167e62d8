#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

#include <QMap>

struct tcpconnect_bpf;

namespace bpflens {

// Every active TCP connect (IPv4 and IPv6) with its outcome, like libbpf-tools' tcpconnect.
class TcpConnectProbe : public SkeletonProbe<tcpconnect_bpf>
{
public:
    TcpConnectProbe();
    ~TcpConnectProbe() override;

    // Smaller than the default storm-sized ring (Probe): connections come thousands a second, not
    // the hundreds of thousands of a system call storm.
    quint32 defaultRingBufferBytes() const override { return 1u << 20; }
    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

    // The counter name of connects to a destination in an interval ("10.0.0.2:443").
    static QString destinationCounter(const TcpConnectEvent &e);

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void readCounters() override;

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
    // Connects per destination since the last interval, by counter name (sorted: the counters
    // of one interval come in a stable order).
    QMap<QString, quint64> m_perDestination;
};

} // namespace bpflens
