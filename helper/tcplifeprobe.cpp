#include "helper/tcplifeprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "bpf/tcplife.records.h"
#include "tcplife.skel.h"

#include "helper/kernelfeatures.h"

#include <bpf/libbpf.h>

#include <cstring>

namespace bpflens {

TcpLifeProbe::TcpLifeProbe()
    : SkeletonProbe(QStringLiteral("tcplife"))
{
}

TcpLifeProbe::~TcpLifeProbe() = default;

AttachPlan TcpLifeProbe::plan(const KernelFeatures &kernel)
{
    AttachPlan p;
    if (kernel.hasBtf() && kernel.hasBtfTracepoint(QStringLiteral("inet_sock_set_state"))) {
        p.groups.append({{{"tcplife_state_btf", QStringLiteral("tp_btf/inet_sock_set_state")}},
                         true,
                         QStringLiteral("state changes")});
    } else if (kernel.hasTracepoint(QStringLiteral("sock/inet_sock_set_state"))) {
        p.groups.append({{{"tcplife_state_tp", QStringLiteral("tp/sock/inet_sock_set_state")}},
                         true,
                         QStringLiteral("state changes")});
    } else {
        p.available = false;
        p.reason = QStringLiteral("the kernel has no sock/inet_sock_set_state tracepoint (Linux "
                                  "4.16 and later; neither in its BTF nor in tracefs, which may "
                                  "need mounting)");
    }
    return p;
}

ProbeAvailability TcpLifeProbe::availability(const KernelFeatures &kernel,
                                             const QVariantMap &) const
{
    return availabilityOf(plan(kernel));
}

bool TcpLifeProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    m_lastStartsUnseen = 0;
    return startSkeleton(plan(kernel), options, error, [&](CommonFilters &f, QString *) {
        m_skel->rodata->filtered =
            f.tgid || f.tid || f.uidSet || !f.comm.isEmpty() || !f.cgroupPath.isEmpty();
        return true;
    });
}

bool TcpLifeProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    tcplife_event r;
    if (size != sizeof(r))
        return false;
    std::memcpy(&r, data, sizeof(r));
    if (r.family != 4 && r.family != 6)
        return false;
    TcpLifeEvent e;
    e.timeNs = r.ts_ns;
    e.pid = r.pid;
    e.cgroupId = r.cgroup_id;
    e.family = r.family;
    std::memcpy(e.laddr.data(), r.laddr, e.laddr.size());
    std::memcpy(e.raddr.data(), r.raddr, e.raddr.size());
    e.lport = r.lport;
    e.rport = r.rport;
    e.txBytes = r.tx_bytes;
    e.rxBytes = r.rx_bytes;
    e.durationNs = r.span_ns;
    e.comm = QByteArray(r.comm, int(qstrnlen(r.comm, sizeof(r.comm))));
    out.events<TcpLifeEvent>().append(e);
    return true;
}

void TcpLifeProbe::readCounters()
{
    if (!m_skel)
        return;
    const quint64 unseen = __atomic_load_n(&m_skel->bss->starts_unseen, __ATOMIC_RELAXED);
    if (unseen > m_lastStartsUnseen)
        emitCounter(startsUnseenCounter(), double(unseen - m_lastStartsUnseen));
    m_lastStartsUnseen = unseen;
}

} // namespace bpflens
