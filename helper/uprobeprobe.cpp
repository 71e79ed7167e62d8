#include "helper/uprobeprobe.h"

#include <linux/types.h>

#include "bpf/uprobe.records.h"
#include "uprobe.skel.h"

#include "helper/histogrammap.h"
#include "helper/probehooks.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cstring>

namespace bpflens {

UprobeProbe::UprobeProbe()
    : SkeletonProbe(QStringLiteral("uprobe"))
{
}

UprobeProbe::~UprobeProbe() = default;

AttachPlan UprobeProbe::attachPlan(const KernelFeatures &kernel, const QVariantMap &options) const
{
    AttachPlan a;
    if (!kernel.hasUprobes()) {
        a.available = false;
        a.reason = noUprobesReason();
        return a;
    }
    const QString target = options.value(QStringLiteral("target")).toString().trimmed();
    ProbeCatalog::UprobeKey key;
    QString why;
    if (!options.isEmpty() && !ProbeCatalog::parseUprobeKey(
                                  options.value(QStringLiteral("key")).toString(), &key, &why)) {
        a.available = false;
        a.reason = why;
        return a;
    }
    const QString shown = target.isEmpty() ? QStringLiteral("libc:malloc") : target;
    const int pid = int(options.value(QStringLiteral("pid")).toLongLong());
    AttachGroup g;
    g.programs = {{"uprobe_entry", QStringLiteral("uprobe/") + shown, true, m_fdPath,
                   userFileOffset(), pid > 0 ? pid : -1}};
    if (options.value(QStringLiteral("latency")).toBool()) {
        // The return first: an entry alone would only fill the map of open calls.
        g.programs.append({"uprobe_return", QStringLiteral("uretprobe/") + shown, true, m_fdPath,
                           userFileOffset(), pid > 0 ? pid : -1});
        g.endFirst = true;
    }
    g.what = QStringLiteral("calls");
    a.groups.append(g);
    return a;
}

ProbeAvailability UprobeProbe::availability(const KernelFeatures &kernel,
                                            const QVariantMap &options) const
{
    return availabilityOf(attachPlan(kernel, options));
}

bool UprobeProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    if (!userFile().isValid()) {
        *error = QStringLiteral("no file to attach to: the caller resolves the target and hands "
                                "its file over (client/binarytarget.h)");
        return false;
    }
    QString why;
    if (!ProbeCatalog::parseUprobeKey(options.value(QStringLiteral("key")).toString(), &m_key,
                                      &why)) {
        *error = why;
        return false;
    }
    // The kernel resolves this path in our own fd table: the caller's file, whatever happens to
    // the path it was opened by.
    m_fdPath = QByteArray("/proc/self/fd/") + QByteArray::number(userFile().get());
    m_counts.clear();
    m_lastKeysFull = 0;
    m_lastUnreadable = 0;
    const AttachPlan a = attachPlan(kernel, options);
    const bool ok = startSkeleton(a, options, error, [&](CommonFilters &, QString *) {
        auto *ro = m_skel->rodata;
        ro->key_kind = m_key.kind == ProbeCatalog::UprobeKey::Kind::None      ? UPROBE_KEY_NONE
                       : m_key.kind == ProbeCatalog::UprobeKey::Kind::Integer ? UPROBE_KEY_INT
                                                                              : UPROBE_KEY_STRING;
        ro->key_arg = __u32(m_key.arg);
        const qint64 strLength = options.value(QStringLiteral("strLength"), 64).toLongLong();
        ro->str_len = __u32(qBound<qint64>(1, strLength, qint64(UPROBE_MAX_STR)));
        ro->timed = options.value(QStringLiteral("latency")).toBool();
        m_unit = timeUnitOption(options);
        ro->unit_div = unitDivisor(m_unit);
        const qint64 thresholdUs = options.value(QStringLiteral("thresholdUs"), -1).toLongLong();
        ro->threshold_ns = thresholdUs < 0 ? -1 : thresholdUs * 1000;
        if (ro->timed) {
            // Keys beyond the map's room are counted in hist_full, as other keyed histograms.
            setHistogramMap(m_skel->maps.uprobe_hists);
        } else {
            bpf_map__set_max_entries(m_skel->maps.uprobe_hists, 1);
        }
        return true;
    });
    // Attached to the inode now: the descriptor is not needed any more.
    releaseUserFile();
    return ok;
}

bool UprobeProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    uprobe_event e;
    if (size != sizeof(e))
        return false;
    memcpy(&e, data, sizeof(e));
    UprobeCallEvent ev;
    ev.timeNs = e.ts;
    ev.pid = e.pid;
    ev.cgroupId = e.cgroup_id;
    ev.tid = e.tid;
    ev.latencyNs = e.latency_ns;
    if (m_key.kind == ProbeCatalog::UprobeKey::Kind::Integer) {
        ev.keyKind = 1;
        ev.argument = e.key.value;
    } else if (m_key.kind == ProbeCatalog::UprobeKey::Kind::String) {
        ev.keyKind = 2;
        ev.text = QByteArray(e.key.str, int(qstrnlen(e.key.str, sizeof(e.key.str))));
    }
    ev.comm = QByteArray(e.comm, int(qstrnlen(e.comm, sizeof(e.comm))));
    out.uprobeCall.append(ev);
    return true;
}

void UprobeProbe::readHistograms()
{
    if (!m_skel || !m_skel->rodata->timed)
        return;
    // Keyed like the counts ("arg0=20000", "\"abc\""); calls counted all together keep the one
    // histogram without a key, as before keys had histograms.
    forEachHistogram<uprobe_key>(
        bpf_map__fd(m_skel->maps.uprobe_hists), m_unit,
        [this](const uprobe_key &key, const Log2Histogram &cumulative) {
            const QByteArray raw(reinterpret_cast<const char *>(&key), sizeof(key));
            emitHistogram(m_key.kind == ProbeCatalog::UprobeKey::Kind::None ? QString()
                                                                            : counterName(raw),
                          cumulative);
        });
}

QString UprobeProbe::counterName(const QByteArray &raw) const
{
    uprobe_key k;
    memcpy(&k, raw.constData(), sizeof(k));
    switch (m_key.kind) {
    case ProbeCatalog::UprobeKey::Kind::None:
        return callsCounter();
    case ProbeCatalog::UprobeKey::Kind::Integer:
        return QStringLiteral("arg%1=%2").arg(m_key.arg).arg(qint64(k.value));
    case ProbeCatalog::UprobeKey::Kind::String:
        break;
    }
    return QLatin1Char('"') + QString::fromUtf8(k.str, int(qstrnlen(k.str, sizeof(k.str)))) +
           QLatin1Char('"');
}

void UprobeProbe::readCounters()
{
    if (!m_skel)
        return;
    m_counts.forEachIncrease<uprobe_key>(bpf_map__fd(m_skel->maps.uprobe_counts),
                                         [this](const QByteArray &raw, quint64 increase) {
                                             emitCounter(counterName(raw), double(increase));
                                         });
    emitIncrease(keysFullCounter(), __atomic_load_n(&m_skel->bss->keys_full, __ATOMIC_RELAXED),
                 &m_lastKeysFull);
    emitIncrease(unreadableCounter(), __atomic_load_n(&m_skel->bss->unreadable, __ATOMIC_RELAXED),
                 &m_lastUnreadable);
}

} // namespace bpflens
