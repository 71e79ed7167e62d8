#include "helper/runqlatprobe.h"

#include <linux/types.h>

#include "bpf/runqlat.records.h"
#include "runqlat.skel.h"

#include "helper/histogrammap.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>

namespace bpflens {

namespace {

const char *const hookNames[] = {"sched_wakeup", "sched_wakeup_new", "sched_switch"};

QString tpBtf(const char *name)
{
    return QStringLiteral("tp_btf/") + QLatin1String(name);
}

} // namespace

RunqlatProbe::RunqlatProbe()
    : SkeletonProbe(QStringLiteral("runqlat"))
{
}

RunqlatProbe::~RunqlatProbe() = default;

AttachPlan RunqlatProbe::plan(const KernelFeatures &kernel)
{
    AttachPlan p;
    if (!kernel.hasBtf()) {
        p.available = false;
        p.reason = kernel.btfError();
        return p;
    }
    // All three are needed: without the wakeups nothing starts, without the switch nothing ends.
    AttachGroup g;
    for (const char *name : hookNames) {
        // The switch needs both tasks and the previous one's state: only the BTF tracepoint
        // (or a raw one) hands over the task_structs.
        if (!kernel.hasBtfTracepoint(QLatin1String(name))) {
            p.available = false;
            p.reason = QStringLiteral("the kernel has no BTF tracepoint %1").arg(tpBtf(name));
            return p;
        }
        g.programs.append({name, tpBtf(name)});
    }
    g.what = QStringLiteral("run queue latency");
    p.groups.append(g);
    return p;
}

ProbeAvailability RunqlatProbe::availability(const KernelFeatures &kernel,
                                             const QVariantMap &) const
{
    return availabilityOf(plan(kernel));
}

bool RunqlatProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    return startSkeleton(plan(kernel), options, error, [&](CommonFilters &f, QString *why) {
        auto *ro = m_skel->rodata;
        // The filters apply to the task that waits, not to the current one: no uid filter, and
        // the cgroup is compared by id with the task's cgroup and its ancestors.
        ro->filter_uid_set = false;
        ro->filter_cgroup = false;
        if (!f.cgroupPath.isEmpty()) {
            quint64 id = 0;
            if (!cgroupIdOption(f.cgroupPath, &id, why))
                return false;
            ro->filter_cgroup_id = id;
            f.cgroupPath.clear();
        }
        const bool perProcess = options.value(QStringLiteral("perProcess")).toBool();
        const bool perThread = options.value(QStringLiteral("perThread")).toBool();
        ro->targ_per_process = perProcess;
        ro->targ_per_thread = perThread && !perProcess;
        m_keyed = perProcess || perThread;
        m_unit = timeUnitOption(options);
        ro->unit_div = unitDivisor(m_unit);
        setHistogramMap(m_skel->maps.hists);
        return true;
    });
}

void RunqlatProbe::readHistograms()
{
    if (!m_skel)
        return;
    forEachHistogram<runqlat_key>(
        bpf_map__fd(m_skel->maps.hists), m_unit,
        [this](const runqlat_key &key, const Log2Histogram &cumulative) {
            const QString name =
                m_keyed ? QStringLiteral("%1 %2").arg(key.id).arg(QString::fromLocal8Bit(
                              key.comm, int(qstrnlen(key.comm, sizeof(key.comm)))))
                        : QString();
            emitHistogram(name, cumulative);
        });
}

} // namespace bpflens
