#include "helper/reclaimprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "bpf/reclaim.records.h"
#include "reclaim.skel.h"

#include "helper/histogrammap.h"
#include "helper/kernelfeatures.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cstring>

namespace bpflens {

ReclaimProbe::ReclaimProbe()
    : SkeletonProbe(QStringLiteral("reclaim"))
{
}

ReclaimProbe::~ReclaimProbe() = default;

AttachPlan ReclaimProbe::plan(const KernelFeatures &kernel)
{
    AttachPlan p;
    if (!kernel.hasBtf()) {
        p.available = false;
        p.reason = kernel.btfError();
        return p;
    }
    // Each kind's begin and end, all or nothing: a BTF tracepoint where the kernel's BTF has it,
    // else a raw one, else tracefs's. Either kind alone is worth recording (a kernel without
    // memory cgroups has no memcg reclaim tracepoints).
    // (category, tracepoint with %1 for begin or end, program name's kind)
    auto group = [&](const char *category, const char *pattern, const char *kind,
                     const QString &what) {
        AttachGroup g;
        g.what = what;
        g.required = false;
        for (const char *edge : {"begin", "end"}) {
            const QString name = QString::fromLatin1(pattern).arg(QLatin1String(edge));
            const QByteArray program = QByteArray("reclaim_") + kind + '_' + edge;
            if (kernel.hasBtfTracepoint(name)) {
                g.programs.append({program + "_btf", QStringLiteral("tp_btf/") + name});
            } else if (kernel.hasTracepoint(QLatin1String(category) + u'/' + name)) {
                // tracefs lists it, its BTF does not type it: a raw tracepoint takes the same
                // arguments.
                g.programs.append({program + "_raw", QStringLiteral("raw_tp/") + name});
            } else {
                p.addReason(QStringLiteral("%1 are not recorded: the kernel has no %2/%3 "
                                           "tracepoint (neither in its BTF nor in tracefs, which "
                                           "may need mounting)")
                                .arg(what, QLatin1String(category), name));
                return;
            }
        }
        p.groups.append(g);
    };
    group("vmscan", "mm_vmscan_direct_reclaim_%1", "direct", QStringLiteral("direct reclaims"));
    group("vmscan", "mm_vmscan_memcg_reclaim_%1", "memcg",
          QStringLiteral("memory cgroup reclaims"));
    // (a kernel built without CONFIG_COMPACTION has none)
    group("compaction", "mm_compaction_%1", "compaction", QStringLiteral("compactions"));
    if (p.groups.isEmpty()) {
        p.available = false;
        if (p.reason.isEmpty())
            p.reason = QStringLiteral("no reclaim tracepoint");
    }
    p.noneAttached = QStringLiteral(
        "none of the direct reclaim, memcg reclaim and compaction tracepoints attached");
    return p;
}

ProbeAvailability ReclaimProbe::availability(const KernelFeatures &kernel,
                                             const QVariantMap &) const
{
    return availabilityOf(plan(kernel));
}

bool ReclaimProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    return startSkeleton(plan(kernel), options, error, [&](CommonFilters &, QString *) {
        auto *ro = m_skel->rodata;
        m_unit = timeUnitOption(options);
        ro->unit_div = unitDivisor(m_unit);
        ro->min_latency_ns =
            quint64(options.value(QStringLiteral("minLatencyUs")).toLongLong()) * 1000;
        setHistogramMap(m_skel->maps.hists);
        return true;
    });
}

bool ReclaimProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    reclaim_event r;
    if (size != sizeof(r))
        return false;
    std::memcpy(&r, data, sizeof(r));
    if (r.kind != RECLAIM_DIRECT && r.kind != RECLAIM_MEMCG && r.kind != RECLAIM_COMPACTION)
        return false;
    ReclaimEvent e;
    e.timeNs = r.ts_ns;
    e.latencyNs = r.latency_ns;
    e.pagesReclaimed = r.nr_reclaimed;
    e.pid = r.pid;
    e.tid = r.tid;
    e.comm = QByteArray(r.comm, int(qstrnlen(r.comm, sizeof(r.comm))));
    e.kind = r.kind;
    e.cgroupId = r.cgroup_id;
    out.events<ReclaimEvent>().append(e);
    return true;
}

void ReclaimProbe::readHistograms()
{
    if (!m_skel)
        return;
    forEachHistogram<reclaim_key>(bpf_map__fd(m_skel->maps.hists), m_unit,
                                  [this](const reclaim_key &key, const Log2Histogram &cumulative) {
                                      emitHistogram(ReclaimEvent::kindName(quint8(key.kind)),
                                                    cumulative);
                                  });
}

} // namespace bpflens
