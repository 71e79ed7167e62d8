#include "helper/tcpacceptprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "bpf/tcpaccept.records.h"
#include "tcpaccept.skel.h"

#include "helper/kernelfeatures.h"

#include <bpf/libbpf.h>

#include <cstring>

namespace bpflens {

TcpAcceptProbe::TcpAcceptProbe()
    : SkeletonProbe(QStringLiteral("tcpaccept"))
{
}

TcpAcceptProbe::~TcpAcceptProbe() = default;

AttachPlan TcpAcceptProbe::plan(const KernelFeatures &kernel)
{
    AttachPlan p;
    // accept4 is what libcs call for accept() too; the old accept system call (x86_64 has it,
    // arm64 does not) is optional.
    const struct
    {
        const char *syscall, *enter, *exit;
        bool required;
    } calls[] = {{"accept4", "tcpaccept_enter4", "tcpaccept_exit4", true},
                 {"accept", "tcpaccept_enter", "tcpaccept_exit", false}};
    for (const auto &c : calls) {
        const QString enter = QStringLiteral("syscalls/sys_enter_") + QLatin1String(c.syscall);
        const QString exit = QStringLiteral("syscalls/sys_exit_") + QLatin1String(c.syscall);
        if (kernel.hasTracepoint(enter) && kernel.hasTracepoint(exit)) {
            p.groups.append(
                {{{c.enter, QStringLiteral("tp/") + enter}, {c.exit, QStringLiteral("tp/") + exit}},
                 c.required,
                 QLatin1String(c.syscall)});
        } else if (c.required) {
            p.available = false;
            p.reason = QStringLiteral("the kernel has no %1 and %2 tracepoints (system call "
                                      "tracepoints need CONFIG_FTRACE_SYSCALLS, and tracefs "
                                      "may need mounting)")
                           .arg(enter, exit);
            return p;
        }
    }
    return p;
}

ProbeAvailability TcpAcceptProbe::availability(const KernelFeatures &kernel,
                                               const QVariantMap &) const
{
    return availabilityOf(plan(kernel));
}

bool TcpAcceptProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel,
                             QString *error)
{
    return startSkeleton(plan(kernel), options, error);
}

bool TcpAcceptProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    tcpaccept_event r;
    if (size != sizeof(r))
        return false;
    std::memcpy(&r, data, sizeof(r));
    if (r.family != 4 && r.family != 6)
        return false;
    TcpAcceptEvent e;
    e.timeNs = r.ts_ns;
    e.pid = r.pid;
    e.cgroupId = r.cgroup_id;
    e.tid = r.tid;
    e.uid = r.uid;
    e.family = r.family;
    std::memcpy(e.laddr.data(), r.laddr, e.laddr.size());
    std::memcpy(e.raddr.data(), r.raddr, e.raddr.size());
    e.lport = r.lport;
    e.rport = r.rport;
    e.backlog = r.backlog;
    e.backlogMax = r.backlog_max;
    e.comm = QByteArray(r.comm, int(qstrnlen(r.comm, sizeof(r.comm))));
    out.events<TcpAcceptEvent>().append(e);
    return true;
}

} // namespace bpflens
