#include "tcpconnectprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "tcpconnect.h"
#include "tcpconnect.skel.h"

#include <bpf/libbpf.h>

#include <QStringList>

#include <cerrno>
#include <cstring>
#include <utility>

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
    : Probe(QStringLiteral("tcpconnect"))
{
}

TcpConnectProbe::~TcpConnectProbe()
{
    stop();
}

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

ProbeAvailability TcpConnectProbe::availability(const KernelFeatures &kernel,
                                                const QVariantMap &) const
{
    ProbeAvailability a;
    QString why;
    switch (choosePath(kernel, &why)) {
    case Path::BtfTracepoint:
        a.available = true;
        a.attachPath = QStringLiteral("tp_btf/inet_sock_set_state");
        for (const char *tp : {"tcp_receive_reset", "tcp_retransmit_skb"}) {
            if (kernel.hasBtfTracepoint(QLatin1String(tp)))
                a.attachPath += QStringLiteral(", tp_btf/") + QLatin1String(tp);
        }
        break;
    case Path::Tracepoint:
        a.available = true;
        a.attachPath = QStringLiteral("tp/sock/inet_sock_set_state");
        for (const char *tp : {"tcp_receive_reset", "tcp_retransmit_skb"}) {
            if (kernel.hasTracepoint(QStringLiteral("tcp/") + QLatin1String(tp)))
                a.attachPath += QStringLiteral(", tp/tcp/") + QLatin1String(tp);
        }
        break;
    case Path::Fexit:
        a.available = true;
        a.attachPath = QStringLiteral("fexit/tcp_v4_connect, fexit/tcp_v6_connect");
        a.reason = fallbackNote;
        break;
    case Path::Kprobe:
        a.available = true;
        a.attachPath = QStringLiteral("kprobe+kretprobe/tcp_v4_connect, "
                                      "kprobe+kretprobe/tcp_v6_connect");
        a.reason = fallbackNote;
        break;
    case Path::None:
        a.reason = why;
        break;
    }
    return a;
}

bool TcpConnectProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel,
                              QString *error)
{
    QString why;
    const Path path = choosePath(kernel, &why);
    if (path == Path::None) {
        *error = why;
        return false;
    }
    m_skel = tcpconnect_bpf__open();
    if (!m_skel) {
        *error = QStringLiteral("cannot open the BPF object: %1").arg(lastLibbpfError(-errno));
        return false;
    }
    const CommonFilters f = commonFilters(options);
    m_skel->rodata->filter_tgid = f.tgid;
    m_skel->rodata->filter_uid = f.uid;
    m_skel->rodata->filter_uid_set = f.uidSet;
    std::memcpy(const_cast<char *>(m_skel->rodata->filter_comm), f.comm.constData(),
                size_t(f.comm.size()));
    m_skel->rodata->filter_cgroup = !f.cgroupPath.isEmpty();

    auto &p = m_skel->progs;
    // v6 is optional on the fallback paths (IPv6 may be a module or absent).
    const bool v6Fexit = path == Path::Fexit && kernel.canFentry(QStringLiteral("tcp_v6_connect"));
    const bool v6Kprobe =
        path == Path::Kprobe && kernel.canKprobe(QStringLiteral("tcp_v6_connect"));
    bpf_program__set_autoload(p.tcpconnect_state_btf, path == Path::BtfTracepoint);
    bpf_program__set_autoload(p.tcpconnect_state_tp, path == Path::Tracepoint);
    // Optional: the source port of failed connects (released before the move to CLOSE).
    const bool resetBtf =
        path == Path::BtfTracepoint && kernel.hasBtfTracepoint(QStringLiteral("tcp_receive_reset"));
    const bool retransBtf = path == Path::BtfTracepoint &&
                            kernel.hasBtfTracepoint(QStringLiteral("tcp_retransmit_skb"));
    const bool resetTp =
        path == Path::Tracepoint && kernel.hasTracepoint(QStringLiteral("tcp/tcp_receive_reset"));
    const bool retransTp =
        path == Path::Tracepoint && kernel.hasTracepoint(QStringLiteral("tcp/tcp_retransmit_skb"));
    bpf_program__set_autoload(p.tcpconnect_reset_btf, resetBtf);
    bpf_program__set_autoload(p.tcpconnect_retrans_btf, retransBtf);
    bpf_program__set_autoload(p.tcpconnect_reset_tp, resetTp);
    bpf_program__set_autoload(p.tcpconnect_retrans_tp, retransTp);
    bpf_program__set_autoload(p.tcpconnect_v4_fexit, path == Path::Fexit);
    bpf_program__set_autoload(p.tcpconnect_v6_fexit, v6Fexit);
    bpf_program__set_autoload(p.tcpconnect_v4_kprobe, path == Path::Kprobe);
    bpf_program__set_autoload(p.tcpconnect_v4_kretprobe, path == Path::Kprobe);
    bpf_program__set_autoload(p.tcpconnect_v6_kprobe, v6Kprobe);
    bpf_program__set_autoload(p.tcpconnect_v6_kretprobe, v6Kprobe);

    bpf_map__set_max_entries(m_skel->maps.rb, ringBufferBytes());
    if (int err = tcpconnect_bpf__load(m_skel)) {
        *error = QStringLiteral("cannot load the BPF programs: %1").arg(lastLibbpfError(err));
        return false;
    }
    if (!applyCgroupFilter(bpf_map__fd(m_skel->maps.cgroup_map), f.cgroupPath, error))
        return false;

    // Each hook is attached on its own so an optional one (IPv6) that fails never takes the
    // probe down; the attach path lists what really attached.
    QStringList attached;
    auto attach = [&](bpf_program *prog, bpf_link **link, const QString &name) {
        *link = bpf_program__attach(prog);
        if (!*link) {
            *error = QStringLiteral("cannot attach %1: %2").arg(name, lastLibbpfError(-errno));
            return false;
        }
        attached << name;
        return true;
    };
    auto &l = m_skel->links;
    auto attachOptional = [&](bool wanted, bpf_program *prog, bpf_link **link,
                              const QString &name) {
        if (!wanted)
            return;
        QString ignored;
        std::swap(ignored, *error);
        attach(prog, link, name);
        std::swap(ignored, *error);
    };
    bool ok = false;
    switch (path) {
    case Path::BtfTracepoint:
        ok = attach(p.tcpconnect_state_btf, &l.tcpconnect_state_btf,
                    QStringLiteral("tp_btf/inet_sock_set_state"));
        attachOptional(ok && resetBtf, p.tcpconnect_reset_btf, &l.tcpconnect_reset_btf,
                       QStringLiteral("tp_btf/tcp_receive_reset"));
        attachOptional(ok && retransBtf, p.tcpconnect_retrans_btf, &l.tcpconnect_retrans_btf,
                       QStringLiteral("tp_btf/tcp_retransmit_skb"));
        break;
    case Path::Tracepoint:
        ok = attach(p.tcpconnect_state_tp, &l.tcpconnect_state_tp,
                    QStringLiteral("tp/sock/inet_sock_set_state"));
        attachOptional(ok && resetTp, p.tcpconnect_reset_tp, &l.tcpconnect_reset_tp,
                       QStringLiteral("tp/tcp/tcp_receive_reset"));
        attachOptional(ok && retransTp, p.tcpconnect_retrans_tp, &l.tcpconnect_retrans_tp,
                       QStringLiteral("tp/tcp/tcp_retransmit_skb"));
        break;
    case Path::Fexit:
        ok = attach(p.tcpconnect_v4_fexit, &l.tcpconnect_v4_fexit,
                    QStringLiteral("fexit/tcp_v4_connect"));
        attachOptional(ok && v6Fexit, p.tcpconnect_v6_fexit, &l.tcpconnect_v6_fexit,
                       QStringLiteral("fexit/tcp_v6_connect"));
        break;
    case Path::Kprobe:
        ok = attach(p.tcpconnect_v4_kprobe, &l.tcpconnect_v4_kprobe,
                    QStringLiteral("kprobe/tcp_v4_connect")) &&
             attach(p.tcpconnect_v4_kretprobe, &l.tcpconnect_v4_kretprobe,
                    QStringLiteral("kretprobe/tcp_v4_connect"));
        if (ok && v6Kprobe) {
            QString ignored;
            std::swap(ignored, *error);
            // Both halves or neither: an entry without its return would only fill the map.
            if (attach(p.tcpconnect_v6_kprobe, &l.tcpconnect_v6_kprobe,
                       QStringLiteral("kprobe/tcp_v6_connect")) &&
                !attach(p.tcpconnect_v6_kretprobe, &l.tcpconnect_v6_kretprobe,
                        QStringLiteral("kretprobe/tcp_v6_connect"))) {
                bpf_link__destroy(l.tcpconnect_v6_kprobe);
                l.tcpconnect_v6_kprobe = nullptr;
                attached.removeLast();
            }
            std::swap(ignored, *error);
        }
        break;
    case Path::None:
        break;
    }
    if (!ok)
        return false;
    setAttachPath(attached.join(QStringLiteral(", ")));
    trackObject(m_skel->obj);
    return setRingBuffer(bpf_map__fd(m_skel->maps.rb), error);
}

void TcpConnectProbe::doStop()
{
    tcpconnect_bpf__destroy(m_skel);
    m_skel = nullptr;
}

void TcpConnectProbe::doDetach()
{
    if (m_skel)
        tcpconnect_bpf__detach(m_skel);
}

quint64 TcpConnectProbe::kernelLost() const
{
    return m_skel ? __atomic_load_n(&m_skel->bss->lost, __ATOMIC_RELAXED) : 0;
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
    e.uid = r.uid;
    e.family = r.family;
    std::memcpy(e.saddr.data(), r.saddr, e.saddr.size());
    std::memcpy(e.daddr.data(), r.daddr, e.daddr.size());
    e.sport = r.sport;
    e.dport = r.dport;
    e.ret = r.ret;
    e.comm = QByteArray(r.comm, int(qstrnlen(r.comm, sizeof(r.comm))));
    out.tcpConnect.append(e);
    return true;
}

} // namespace bpflens
