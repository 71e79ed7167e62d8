#include "helper/tcpretransprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "bpf/tcpretrans.records.h"
#include "tcpretrans.skel.h"

#include "helper/kernelfeatures.h"

#include <bpf/libbpf.h>

#include <cstring>

namespace bpflens {

TcpRetransProbe::TcpRetransProbe()
    : SkeletonProbe(QStringLiteral("tcpretrans"))
{
}

TcpRetransProbe::~TcpRetransProbe() = default;

AttachPlan TcpRetransProbe::plan(const KernelFeatures &kernel, const QVariantMap &options)
{
    AttachPlan p;
    // A tracepoint by its BTF name (tp_btf) where the kernel has one, else through tracefs.
    auto tracepoint = [&](const char *category, const char *name, const char *program,
                          bool required, const QString &what) {
        const QString n = QLatin1String(name);
        const QString full = QLatin1String(category) + QLatin1Char('/') + n;
        if (kernel.hasBtf() && kernel.hasBtfTracepoint(n)) {
            p.groups.append(
                {{{QByteArray(program) + "_btf", QStringLiteral("tp_btf/") + n}}, required, what});
        } else if (kernel.hasTracepoint(full)) {
            p.groups.append(
                {{{QByteArray(program) + "_tp", QStringLiteral("tp/") + full}}, required, what});
        } else if (required) {
            p.available = false;
            p.reason = QStringLiteral("the kernel has no %1 tracepoint (neither in its BTF nor "
                                      "in tracefs, which may need mounting)")
                           .arg(full);
            return false;
        } else {
            p.addReason(QStringLiteral("%1 are not reported: no %2 tracepoint").arg(what, full));
        }
        return true;
    };
    if (!tracepoint("tcp", "tcp_retransmit_skb", "tcpretrans_skb", true,
                    QStringLiteral("retransmits")))
        return p;
    tracepoint("tcp", "tcp_retransmit_synack", "tcpretrans_synack", false,
               QStringLiteral("SYN-ACK retransmits"));
    tracepoint("sock", "inet_sock_set_state", "tcpretrans_state", false,
               QStringLiteral("the processes of connected sockets"));
    // Tail-loss probes go through tcp_retransmit_skb too; only a hook around
    // tcp_send_loss_probe tells them from other retransmits.
    QString why;
    AttachGroup tlp;
    tlp.programs = FunctionHooks::fromOptions(options).hook(
        kernel, "tcpretrans_", QStringLiteral("tcp_send_loss_probe"), &why);
    tlp.required = false;
    tlp.what = QStringLiteral("tail-loss probes");
    if (tlp.programs.isEmpty())
        p.addReason(QStringLiteral("tail-loss probes are reported as retransmits: %1").arg(why));
    else
        p.groups.append(tlp);
    return p;
}

ProbeAvailability TcpRetransProbe::availability(const KernelFeatures &kernel,
                                                const QVariantMap &options) const
{
    return availabilityOf(plan(kernel, options));
}

bool TcpRetransProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel,
                              QString *error)
{
    m_perConnection.clear();
    return startSkeleton(plan(kernel, options), options, error, [&](CommonFilters &f, QString *) {
        m_skel->rodata->filtered =
            f.tgid || f.tid || f.uidSet || !f.comm.isEmpty() || !f.cgroupPath.isEmpty();
        return true;
    });
}

QString TcpRetransProbe::connectionCounter(const TcpRetransEvent &e)
{
    return formatEndpoint(e.family, e.saddr, e.sport) + QStringLiteral(" > ") +
           formatEndpoint(e.family, e.daddr, e.dport);
}

bool TcpRetransProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    tcpretrans_event r;
    if (size != sizeof(r))
        return false;
    std::memcpy(&r, data, sizeof(r));
    if ((r.family != 4 && r.family != 6) || r.kind < TCPRETRANS_RETRANSMIT ||
        r.kind > TCPRETRANS_TLP)
        return false;
    TcpRetransEvent e;
    e.timeNs = r.ts_ns;
    e.pid = r.pid;
    e.cgroupId = r.cgroup_id;
    e.family = r.family;
    std::memcpy(e.saddr.data(), r.saddr, e.saddr.size());
    std::memcpy(e.daddr.data(), r.daddr, e.daddr.size());
    e.sport = r.sport;
    e.dport = r.dport;
    e.state = r.state;
    e.kind = r.kind;
    e.comm = QByteArray(r.comm, int(qstrnlen(r.comm, sizeof(r.comm))));
    ++m_perConnection[connectionCounter(e)];
    out.events<TcpRetransEvent>().append(e);
    return true;
}

void TcpRetransProbe::readCounters()
{
    for (auto it = m_perConnection.cbegin(); it != m_perConnection.cend(); ++it)
        emitCounter(it.key(), double(it.value()));
    m_perConnection.clear();
}

} // namespace bpflens
