#include "tppairprobe.h"

#include <linux/types.h>

#include "tppair.h"
#include "tppair.skel.h"

#include "histogrammap.h"
#include "tpkeydesc.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>

namespace bpflens {

namespace {

QString rawTp(const QString &event)
{
    return QStringLiteral("raw_tp/") + event;
}

} // namespace

TpPairProbe::TpPairProbe()
    : SkeletonProbe(QStringLiteral("tppair"))
{
}

TpPairProbe::~TpPairProbe() = default;

bool TpPairProbe::plan(const KernelFeatures &kernel, const QVariantMap &options, Plan *out,
                       QString *error)
{
    if (!kernel.hasBtf()) {
        *error = kernel.btfError();
        return false;
    }
    const QString start = options.value(QStringLiteral("start")).toString().trimmed();
    const QString end = options.value(QStringLiteral("end")).toString().trimmed();
    TracepointInfo startInfo, endInfo;
    if (start.isEmpty() || end.isEmpty()) {
        *error = start.isEmpty() ? QStringLiteral("no start tracepoint given")
                                 : QStringLiteral("no end tracepoint given");
        return false;
    }
    if (!Tracepoints::find(kernel, start, &startInfo, error) ||
        !Tracepoints::find(kernel, end, &endInfo, error))
        return false;
    // Both programs would run on every hit, the end one finding the start just stored.
    if (startInfo.name == endInfo.name) {
        *error = QStringLiteral("start and end are the same tracepoint (%1): there is no time "
                                "between them")
                     .arg(startInfo.name);
        return false;
    }
    QString key = options.value(QStringLiteral("key")).toString().trimmed();
    if (key.isEmpty())
        key = QStringLiteral("tid");
    QString endKey = options.value(QStringLiteral("endKey")).toString().trimmed();
    if (endKey.isEmpty())
        endKey = key;
    if (!Tracepoints::resolveKey(kernel, startInfo.name, key, &out->startKey, error) ||
        !Tracepoints::resolveKey(kernel, endInfo.name, endKey, &out->endKey, error))
        return false;
    out->start = startInfo.name;
    out->end = endInfo.name;
    return true;
}

AttachPlan TpPairProbe::attachPlan(const KernelFeatures &kernel, const QVariantMap &options,
                                   Plan *out)
{
    AttachPlan a;
    if (!plan(kernel, options, out, &a.reason)) {
        a.available = false;
        return a;
    }
    // Any two tracepoints: the programs attach by name. The end first: a start attached alone
    // would only fill the map; the start detaches first, so no pair begins that could not end.
    AttachGroup g;
    g.programs = {{"tppair_start", rawTp(out->start), true}, {"tppair_end", rawTp(out->end), true}};
    g.what = QStringLiteral("pairs");
    g.endFirst = true;
    a.groups.append(g);
    return a;
}

ProbeAvailability TpPairProbe::availability(const KernelFeatures &kernel,
                                            const QVariantMap &options) const
{
    Plan p;
    return availabilityOf(attachPlan(kernel, options, &p));
}

bool TpPairProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    Plan p;
    const AttachPlan a = attachPlan(kernel, options, &p);
    m_lastUnreadable = 0;
    return startSkeleton(a, options, error, [&](CommonFilters &, QString *) {
        auto *ro = m_skel->rodata;
        fillKeyDesc(&ro->start_key, p.startKey);
        fillKeyDesc(&ro->end_key, p.endKey);
        m_unit = timeUnitOption(options);
        ro->unit_div = unitDivisor(m_unit);
        const qint64 thresholdUs = options.value(QStringLiteral("thresholdUs"), -1).toLongLong();
        ro->threshold_ns = thresholdUs < 0 ? -1 : thresholdUs * 1000;
        return true;
    });
}

bool TpPairProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    tppair_event e;
    if (size != sizeof(e))
        return false;
    memcpy(&e, data, sizeof(e));
    TpPairEvent ev;
    ev.timeNs = e.ts;
    ev.pid = e.pid;
    ev.tid = e.tid;
    ev.key = e.key;
    ev.latencyNs = e.latency_ns;
    ev.comm = QByteArray(e.comm, int(qstrnlen(e.comm, sizeof(e.comm))));
    out.tpPair.append(ev);
    return true;
}

void TpPairProbe::readHistograms()
{
    if (!m_skel)
        return;
    const __u32 zero = 0;
    bpflens_hist h;
    if (bpf_map_lookup_elem(bpf_map__fd(m_skel->maps.tppair_hists), &zero, &h) != 0)
        return;
    emitHistogram(QString(), toLog2Histogram(h, m_unit));
}

void TpPairProbe::readCounters()
{
    if (!m_skel)
        return;
    const quint64 now = __atomic_load_n(&m_skel->bss->unreadable, __ATOMIC_RELAXED);
    emitCounter(QStringLiteral("unreadableKeys"), double(now - m_lastUnreadable));
    m_lastUnreadable = now;
}

} // namespace bpflens
