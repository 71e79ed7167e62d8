#include "tppairprobe.h"

#include <linux/types.h>

#include "tppair.h"
#include "tppair.skel.h"

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

void fillDesc(tppair_key_desc *d, const TracepointKey &k)
{
    memset(d, 0, sizeof(*d));
    switch (k.kind) {
    case TracepointKey::Kind::Tid:
        d->kind = TPPAIR_KEY_TID;
        break;
    case TracepointKey::Kind::Pid:
        d->kind = TPPAIR_KEY_PID;
        break;
    case TracepointKey::Kind::Arg:
        d->kind = TPPAIR_KEY_ARG;
        break;
    case TracepointKey::Kind::Field:
        d->kind = TPPAIR_KEY_FIELD;
        break;
    }
    d->arg = __u32(k.arg);
    d->size = __u32(k.size);
    d->hops = __u32(k.hops.size());
    for (int i = 0; i < k.hops.size() && i < TPPAIR_MAX_HOPS; ++i)
        d->hop_offsets[i] = k.hops[i];
    d->leaf_offset = k.leafOffset;
}

TimeUnit unitOf(const QString &units)
{
    if (units == QLatin1String("nsecs"))
        return TimeUnit::Nanoseconds;
    if (units == QLatin1String("msecs"))
        return TimeUnit::Milliseconds;
    return TimeUnit::Microseconds;
}

} // namespace

TpPairProbe::TpPairProbe()
    : Probe(QStringLiteral("tppair"))
{
}

TpPairProbe::~TpPairProbe()
{
    stop();
}

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

ProbeAvailability TpPairProbe::availability(const KernelFeatures &kernel,
                                            const QVariantMap &options) const
{
    ProbeAvailability a;
    Plan p;
    if (!plan(kernel, options, &p, &a.reason))
        return a;
    a.available = true;
    a.attachPath = rawTp(p.start) + QStringLiteral(", ") + rawTp(p.end);
    return a;
}

bool TpPairProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    Plan p;
    if (!plan(kernel, options, &p, error))
        return false;
    m_lastUnreadable = 0;
    m_skel = tppair_bpf__open();
    if (!m_skel) {
        *error = QStringLiteral("cannot open the BPF object: %1").arg(lastLibbpfError(-errno));
        return false;
    }
    const CommonFilters f = commonFilters(options);
    auto *ro = m_skel->rodata;
    ro->filter_tgid = f.tgid;
    memcpy(const_cast<char *>(ro->filter_comm), f.comm.constData(), size_t(f.comm.size()));
    fillDesc(const_cast<tppair_key_desc *>(&ro->start_key), p.startKey);
    fillDesc(const_cast<tppair_key_desc *>(&ro->end_key), p.endKey);
    m_unit = unitOf(options.value(QStringLiteral("units")).toString());
    ro->unit_div = nanosecondsPer(m_unit);
    const qint64 thresholdUs = options.value(QStringLiteral("thresholdUs"), -1).toLongLong();
    ro->threshold_ns = thresholdUs < 0 ? -1 : thresholdUs * 1000;
    ro->wakeup_bytes = wakeupBytes();
    bpf_map__set_max_entries(m_skel->maps.tppair_rb, ringBufferBytes());

    if (int err = tppair_bpf__load(m_skel)) {
        *error = QStringLiteral("cannot load the BPF programs: %1").arg(lastLibbpfError(err));
        return false;
    }
    trackObject(m_skel->obj);
    if (!setRingBuffer(bpf_map__fd(m_skel->maps.tppair_rb), error))
        return false;
    // The end first: a start attached alone would only fill the map.
    const QByteArray endName = p.end.toLatin1();
    m_endLink = bpf_program__attach_raw_tracepoint(m_skel->progs.tppair_end, endName.constData());
    if (!m_endLink) {
        *error = QStringLiteral("cannot attach %1: %2").arg(rawTp(p.end), lastLibbpfError(-errno));
        return false;
    }
    const QByteArray startName = p.start.toLatin1();
    m_startLink =
        bpf_program__attach_raw_tracepoint(m_skel->progs.tppair_start, startName.constData());
    if (!m_startLink) {
        *error =
            QStringLiteral("cannot attach %1: %2").arg(rawTp(p.start), lastLibbpfError(-errno));
        return false;
    }
    setAttachPath(rawTp(p.start) + QStringLiteral(", ") + rawTp(p.end));
    return true;
}

void TpPairProbe::doDetach()
{
    // The links are ours, not the skeleton's (attached by name). Starts go first, so no pair
    // begins that could not end.
    bpf_link__destroy(m_startLink);
    m_startLink = nullptr;
    bpf_link__destroy(m_endLink);
    m_endLink = nullptr;
}

void TpPairProbe::doStop()
{
    doDetach();
    tppair_bpf__destroy(m_skel);
    m_skel = nullptr;
}

quint64 TpPairProbe::kernelLost() const
{
    return m_skel ? __atomic_load_n(&m_skel->bss->lost, __ATOMIC_RELAXED) : 0;
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
    Log2Histogram cumulative(m_unit);
    for (int i = 0; i < BPFLENS_MAX_SLOTS; ++i) {
        if (h.slots[i])
            cumulative.addToSlot(i, h.slots[i]);
    }
    cumulative.setSum(h.sum);
    emitHistogram(QString(), cumulative);
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
