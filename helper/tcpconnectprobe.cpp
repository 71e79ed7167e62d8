#include "helper/tcpconnectprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "bpf/tcpconnect.records.h"
#include "tcpconnect.skel.h"

#include "core/probecatalog.h"

#include <bpf/libbpf.h>

#include <QStringList>

#include <cerrno>
#include <cstring>

namespace bpflens {

namespace {

const QString stateTracepoint = QStringLiteral("inet_sock_set_state");
const QString stateTracepointTp = QStringLiteral("sock/inet_sock_set_state");

// The fallback hooks only know connect()'s immediate result (0 once the SYN is queued), so
// say so where the user sees the attach path.
const QString fallbackNote =
    QStringLiteral("result is tcp_v*_connect's return (SYN sent), not the handshake's outcome");

} // namespace

TcpConnectProbe::TcpConnectProbe()
    : SkeletonProbe(QStringLiteral("tcpconnect"))
{
}

TcpConnectProbe::~TcpConnectProbe() = default;

TcpConnectProbe::Path TcpConnectProbe::choosePath(const KernelFeatures &kernel, QString *why)
{
    if (kernel.hasBtfTracepoint(stateTracepoint))
        return Path::BtfTracepoint;
    if (kernel.hasTracepoint(stateTracepointTp))
        return Path::Tracepoint;
    if (kernel.canFentry(QStringLiteral("tcp_v4_connect")))
        return Path::Fexit;
    if (kernel.canKprobe(QStringLiteral("tcp_v4_connect")))
        return Path::Kprobe;
    QStringList reasons;
    reasons << QStringLiteral("no tracepoint sock/inet_sock_set_state (in BTF or tracefs)");
    const QString fentry = kernel.fentryUnavailableReason();
    reasons << (fentry.isEmpty() ? QStringLiteral("fexit cannot attach to tcp_v4_connect")
                                 : fentry);
    const QString kprobe = kernel.kprobeUnavailableReason();
    reasons << (kprobe.isEmpty() ? QStringLiteral("tcp_v4_connect cannot be kprobed") : kprobe);
    *why = reasons.join(QStringLiteral("; "));
    return Path::None;
}

AttachPlan TcpConnectProbe::plan(const KernelFeatures &kernel, Path *path)
{
    AttachPlan p;
    *path = choosePath(kernel, &p.reason);
    // Optional: the source port of failed connects (released before the move to CLOSE).
    const struct
    {
        const char *tracepoint, *btfProgram, *tpProgram;
    } sourcePorts[] = {{"tcp_receive_reset", "tcpconnect_reset_btf", "tcpconnect_reset_tp"},
                       {"tcp_retransmit_skb", "tcpconnect_retrans_btf", "tcpconnect_retrans_tp"}};
    switch (*path) {
    case Path::BtfTracepoint:
        p.groups.append({{{"tcpconnect_state_btf", QStringLiteral("tp_btf/") + stateTracepoint}},
                         true,
                         QStringLiteral("connects")});
        for (const auto &s : sourcePorts) {
            if (kernel.hasBtfTracepoint(QLatin1String(s.tracepoint)))
                p.groups.append(
                    {{{s.btfProgram, QStringLiteral("tp_btf/") + QLatin1String(s.tracepoint)}},
                     false,
                     QLatin1String(s.tracepoint)});
        }
        break;
    case Path::Tracepoint:
        p.groups.append({{{"tcpconnect_state_tp", QStringLiteral("tp/") + stateTracepointTp}},
                         true,
                         QStringLiteral("connects")});
        for (const auto &s : sourcePorts) {
            const QString tp = QStringLiteral("tcp/") + QLatin1String(s.tracepoint);
            if (kernel.hasTracepoint(tp))
                p.groups.append({{{s.tpProgram, QStringLiteral("tp/") + tp}},
                                 false,
                                 QLatin1String(s.tracepoint)});
        }
        break;
    // v6 is optional on the fallback paths (IPv6 may be a module or absent).
    case Path::Fexit:
        p.groups.append({{{"tcpconnect_v4_fexit", QStringLiteral("fexit/tcp_v4_connect")}},
                         true,
                         QStringLiteral("IPv4 connects")});
        if (kernel.canFentry(QStringLiteral("tcp_v6_connect")))
            p.groups.append({{{"tcpconnect_v6_fexit", QStringLiteral("fexit/tcp_v6_connect")}},
                             false,
                             QStringLiteral("IPv6 connects")});
        break;
    case Path::Kprobe:
        // Both halves or neither: an entry without its return would only fill the map.
        p.groups.append({{{"tcpconnect_v4_kprobe", QStringLiteral("kprobe/tcp_v4_connect")},
                          {"tcpconnect_v4_kretprobe", QStringLiteral("kretprobe/tcp_v4_connect")}},
                         true,
                         QStringLiteral("IPv4 connects")});
        if (kernel.canKprobe(QStringLiteral("tcp_v6_connect")))
            p.groups.append(
                {{{"tcpconnect_v6_kprobe", QStringLiteral("kprobe/tcp_v6_connect")},
                  {"tcpconnect_v6_kretprobe", QStringLiteral("kretprobe/tcp_v6_connect")}},
                 false,
                 QStringLiteral("IPv6 connects")});
        break;
    case Path::None:
        p.available = false;
        break;
    }
    return p;
}

ProbeAvailability TcpConnectProbe::availability(const KernelFeatures &kernel,
                                                const QVariantMap &) const
{
    Path path = Path::None;
    const AttachPlan p = plan(kernel, &path);
    switch (path) {
    case Path::BtfTracepoint:
    case Path::Tracepoint:
        return {true, p.path(), QString()};
    case Path::Fexit:
        return {true, QStringLiteral("fexit/tcp_v4_connect, fexit/tcp_v6_connect"), fallbackNote};
    case Path::Kprobe:
        return {true,
                QStringLiteral("kprobe+kretprobe/tcp_v4_connect, "
                               "kprobe+kretprobe/tcp_v6_connect"),
                fallbackNote};
    case Path::None:
        break;
    }
    return {false, QString(), p.reason};
}

static_assert(ProbeCatalog::MaxPortList == TCPCONNECT_MAX_PORTS);

bool TcpConnectProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel,
                              QString *error)
{
    Path path = Path::None;
    QList<quint16> dports;
    QList<quint16> sports;
    QString why;
    for (auto [name, list] : {std::pair{QStringLiteral("ports"), &dports},
                              std::pair{QStringLiteral("sourcePorts"), &sports}}) {
        if (!ProbeCatalog::parsePortList(options.value(name).toString(), list, &why)) {
            *error = QStringLiteral("tcpconnect: %1: %2").arg(name, why);
            return false;
        }
    }
    m_perDestination.clear();
    return startSkeleton(plan(kernel, &path), options, error, [&](CommonFilters &, QString *) {
        auto *ro = m_skel->rodata;
        // (an empty list's data is null, which memcpy may not be given even for 0 bytes)
        if (!dports.isEmpty())
            std::memcpy((void *)ro->filter_dports, dports.constData(),
                        size_t(dports.size()) * sizeof(quint16));
        ro->filter_dports_n = __u32(dports.size());
        if (!sports.isEmpty())
            std::memcpy((void *)ro->filter_sports, sports.constData(),
                        size_t(sports.size()) * sizeof(quint16));
        ro->filter_sports_n = __u32(sports.size());
        return true;
    });
}

QString TcpConnectProbe::destinationCounter(const TcpConnectEvent &e)
{
    return formatEndpoint(e.family, e.daddr, e.dport);
}

void TcpConnectProbe::readCounters()
{
    for (auto it = m_perDestination.cbegin(); it != m_perDestination.cend(); ++it)
        emitCounter(it.key(), double(it.value()));
    m_perDestination.clear();
}

bool TcpConnectProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    if (size < sizeof(tcpconnect_event))
        return false;
    tcpconnect_event r;
    std::memcpy(&r, data, sizeof(r));
    if (r.family != 4 && r.family != 6)
        return false;
    TcpConnectEvent e;
    e.timeNs = r.ts_ns;
    e.pid = r.pid;
    e.cgroupId = r.cgroup_id;
    e.uid = r.uid;
    e.family = r.family;
    std::memcpy(e.saddr.data(), r.saddr, e.saddr.size());
    std::memcpy(e.daddr.data(), r.daddr, e.daddr.size());
    e.sport = r.sport;
    e.dport = r.dport;
    e.ret = r.ret;
    e.comm = QByteArray(r.comm, int(qstrnlen(r.comm, sizeof(r.comm))));
    ++m_perDestination[destinationCounter(e)];
    out.tcpConnect.append(e);
    return true;
}

} // namespace bpflens
