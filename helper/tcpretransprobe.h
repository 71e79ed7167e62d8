#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

#include <QMap>

struct tcpretrans_bpf;

namespace bpflens {

// Every TCP retransmission (IPv4 and IPv6), like bcc's tcpretrans: data, SYN and SYN-ACK
// segments, and tail-loss probes where tcp_send_loss_probe can be hooked; with per-interval
// counts per connection (counters named by the connection, "10.0.0.1:40000 > 10.0.0.2:80").
class TcpRetransProbe : public SkeletonProbe<tcpretrans_bpf>
{
public:
    TcpRetransProbe();
    ~TcpRetransProbe() override;

    // Smaller than the default storm-sized ring (Probe): retransmits are rarer still than
    // connections.
    quint32 defaultRingBufferBytes() const override { return 1u << 20; }
    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

    // The counter name of a connection's retransmits in an interval.
    static QString connectionCounter(const TcpRetransEvent &e);

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void readCounters() override;

private:
    static AttachPlan plan(const KernelFeatures &kernel, const QVariantMap &options);
    // Retransmits per connection since the last interval, by counter name (sorted: the
    // counters of one interval come in a stable order).
    QMap<QString, quint64> m_perConnection;
};

} // namespace bpflens
