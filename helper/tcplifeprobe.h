#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

struct tcplife_bpf;

namespace bpflens {

// Every TCP connection (IPv4 and IPv6) when it closes, like bcc's tcplife: its addresses, its
// lifetime and the bytes it sent and received, from the inet_sock_set_state tracepoint.
class TcpLifeProbe : public SkeletonProbe<tcplife_bpf>
{
public:
    TcpLifeProbe();
    ~TcpLifeProbe() override;

    // Smaller than the default storm-sized ring (Probe): connections come thousands a second, not
    // the hundreds of thousands of a system call storm.
    quint32 defaultRingBufferBytes() const override { return 1u << 20; }
    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

    // Counter (CounterSample::name), per interval where it happened: connections that closed
    // but had started before the probe attached, so their lifetime is unknown (not reported).
    static QString startsUnseenCounter() { return QStringLiteral("startsUnseen"); }

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void readCounters() override;

private:
    static AttachPlan plan(const KernelFeatures &kernel);
    quint64 m_lastStartsUnseen = 0;
};

} // namespace bpflens
