#include "helper/oomkillprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "bpf/oomkill.records.h"
#include "oomkill.skel.h"

#include "helper/kernelfeatures.h"

#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace bpflens {

namespace {

// The page size the kernel counts the victim's memory in.
quint64 pageBytes()
{
    static const quint64 bytes = quint64(sysconf(_SC_PAGESIZE));
    return bytes;
}

} // namespace

OomKillProbe::OomKillProbe()
    : SkeletonProbe(QStringLiteral("oomkill"))
{
}

OomKillProbe::~OomKillProbe() = default;

AttachPlan OomKillProbe::plan(const KernelFeatures &kernel, const QVariantMap &options)
{
    AttachPlan p;
    if (!kernel.hasBtf()) {
        p.available = false;
        p.reason = kernel.btfError();
        return p;
    }
    // Both or nothing: the signal names the victim's task, the mark says it was the OOM killer.
    // A BTF tracepoint reads the task directly, a raw one (4.17+) the same arguments through
    // probe reads. The tracefs tracepoints hand over neither task: not used.
    AttachGroup g;
    g.what = QStringLiteral("OOM kills");
    for (const char *name : {"signal_generate", "mark_victim"}) {
        const bool mark = qstrcmp(name, "mark_victim") == 0;
        const QByteArray program = QByteArray("oomkill_") + (mark ? "mark" : "signal");
        const QString n = QLatin1String(name);
        if (kernel.hasBtfTracepoint(n)) {
            g.programs.append({program + "_btf", QStringLiteral("tp_btf/") + n});
        } else if (kernel.hasTracepoint(
                       (mark ? QStringLiteral("oom/") : QStringLiteral("signal/")) + n)) {
            g.programs.append({program + "_raw", QStringLiteral("raw_tp/") + n});
        } else {
            p.available = false;
            p.reason = QStringLiteral("the kernel has no %1 tracepoint (neither in its BTF nor in "
                                      "tracefs, which may need mounting)")
                           .arg(n);
            return p;
        }
    }
    p.groups.append(g);
    p.addReason(markVictimHasTask(kernel)
                    ? QStringLiteral("the victim's task from signal:signal_generate, the kill from "
                                     "oom:mark_victim (with the victim's task)")
                    : QStringLiteral("the victim's task from signal:signal_generate, the kill from "
                                     "oom:mark_victim (with only the victim's pid: a kernel "
                                     "before 6.8 without its backport)"));
    // The constraint is in the OOM killer's struct oom_control, which no tracepoint hands over:
    // a hook on oom_kill_process reads it, where one is possible.
    QString why;
    AttachGroup constraint;
    constraint.programs = FunctionHooks::fromOptions(options).hook(
        kernel, "oomkill_", QStringLiteral("oom_kill_process"), &why);
    constraint.required = false;
    constraint.endFirst = true;
    constraint.what = QStringLiteral("the OOM killer's constraint");
    if (constraint.programs.isEmpty()) {
        p.addReason(QStringLiteral(
                        "constraint memcg when one of the victim's memory cgroups is at its "
                        "limit, else global (cpuset and mempolicy are reported as global: only a "
                        "hook on oom_kill_process reads the kernel's own, and %1)")
                        .arg(why));
    } else {
        p.groups.append(constraint);
        p.addReason(QStringLiteral("the constraint from oom_kill_process's struct oom_control"));
    }
    return p;
}

bool OomKillProbe::markVictimHasTask(const KernelFeatures &kernel)
{
    // mark_victim(int pid) until 6.7, mark_victim(struct task_struct *task, uid_t uid) since
    // (and in stable kernels that took the change: Debian's 5.10.0-46 and 6.1.0-56 have it).
    return kernel.tracepointArgCount(QStringLiteral("mark_victim")) >= 2;
}

ProbeAvailability OomKillProbe::availability(const KernelFeatures &kernel,
                                             const QVariantMap &options) const
{
    return availabilityOf(plan(kernel, options));
}

bool OomKillProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    return startSkeleton(plan(kernel, options), options, error,
                         [&](CommonFilters &f, QString *why) {
                             auto *ro = m_skel->rodata;
                             ro->mark_victim_has_task = markVictimHasTask(kernel);
                             // The filters apply to the victim, not to the task that ran the OOM
                             // killer: the cgroup is compared by id with the victim's cgroup and
                             // its ancestors.
                             ro->filter_tid = 0;
                             ro->filter_cgroup = false;
                             if (!f.cgroupPath.isEmpty()) {
                                 quint64 id = 0;
                                 if (!cgroupIdOption(f.cgroupPath, &id, why))
                                     return false;
                                 ro->filter_cgroup_id = id;
                                 f.cgroupPath.clear();
                             }
                             return true;
                         });
}

bool OomKillProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    oomkill_event r;
    if (size != sizeof(r))
        return false;
    std::memcpy(&r, data, sizeof(r));
    if (r.constraint > OOMKILL_CONSTRAINT_MEMCG)
        return false;
    const quint64 page = pageBytes();
    OomKillEvent e;
    e.timeNs = r.ts_ns;
    e.pid = r.pid;
    e.comm = QByteArray(r.comm, int(qstrnlen(r.comm, sizeof(r.comm))));
    e.totalVmBytes = r.total_vm * page;
    e.anonRssBytes = r.anon_rss * page;
    e.fileRssBytes = r.file_rss * page;
    e.shmemRssBytes = r.shmem_rss * page;
    e.pgtablesBytes = r.pgtables_bytes;
    e.oomScoreAdj = r.oom_score_adj;
    e.constraint = r.constraint;
    e.triggerPid = r.trigger_pid;
    e.triggerTid = r.trigger_tid;
    e.triggerComm =
        QByteArray(r.trigger_comm, int(qstrnlen(r.trigger_comm, sizeof(r.trigger_comm))));
    e.cgroupId = r.cgroup_id;
    out.events<OomKillEvent>().append(e);
    return true;
}

} // namespace bpflens
