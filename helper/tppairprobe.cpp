#include "helper/tppairprobe.h"

#include <linux/types.h>

#include "bpf/tppair.records.h"
#include "bpf/usdt.records.h"

#include "tppair.skel.h"

#include "core/losscounters.h"
#include "helper/histogrammap.h"
#include "helper/tpkeydesc.h"

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

bool TpPairProbe::takesUserFile(const QVariantMap &options) const
{
    return ProbeHook::parse(options.value(QStringLiteral("start")).toString()).inUserFile() ||
           ProbeHook::parse(options.value(QStringLiteral("end")).toString()).inUserFile();
}

bool TpPairProbe::takesSecondUserFile(const QVariantMap &options) const
{
    return ProbeHook::parse(options.value(QStringLiteral("start")).toString()).inUserFile() &&
           ProbeHook::parse(options.value(QStringLiteral("end")).toString()).inUserFile();
}

bool TpPairProbe::planSide(const KernelFeatures &kernel, const QVariantMap &options,
                           const QString &side, const QString &key, Side *out, QString *error)
{
    out->hook = ProbeHook::parse(options.value(side).toString());
    if (out->hook.kind != ProbeHook::Kind::Tracepoint) {
        QString why;
        if (!planRegsHook(kernel, out->hook, options, side, &out->regs, &why) ||
            !resolveRegsKey(out->regs, key, &out->key, &out->args, &why)) {
            *error = side + QStringLiteral(": ") + why;
            return false;
        }
        return true;
    }
    if (!kernel.hasBtf()) {
        *error = kernel.btfError();
        return false;
    }
    TracepointInfo info;
    if (!Tracepoints::find(kernel, out->hook.target, &info, error) ||
        !Tracepoints::resolveKey(kernel, info.name, key, &out->key, error))
        return false;
    out->tracepoint = info.name;
    return true;
}

bool TpPairProbe::plan(const KernelFeatures &kernel, const QVariantMap &options, Plan *out,
                       QString *error)
{
    const QString start = options.value(QStringLiteral("start")).toString().trimmed();
    const QString end = options.value(QStringLiteral("end")).toString().trimmed();
    if (start.isEmpty() || end.isEmpty()) {
        *error = start.isEmpty() ? QStringLiteral("no start tracepoint given")
                                 : QStringLiteral("no end tracepoint given");
        return false;
    }
    QString key = options.value(QStringLiteral("key")).toString().trimmed();
    if (key.isEmpty())
        key = QStringLiteral("tid");
    QString endKey = options.value(QStringLiteral("endKey")).toString().trimmed();
    if (endKey.isEmpty())
        endKey = key;
    if (!planSide(kernel, options, QStringLiteral("start"), key, &out->start, error) ||
        !planSide(kernel, options, QStringLiteral("end"), endKey, &out->end, error))
        return false;
    // One hook for both: each hit ends its key's pair and starts the next (sync_timing), in one
    // program, so the end never finds the start its own hit just stored.
    out->same = out->start.hook.kind == out->end.hook.kind &&
                (out->start.hook.kind == ProbeHook::Kind::Tracepoint
                     ? out->start.tracepoint == out->end.tracepoint
                     : out->start.hook.text() == out->end.hook.text());
    const TracepointKey &a = out->start.key, &b = out->end.key;
    if (out->same && (a.kind != b.kind || a.arg != b.arg || a.size != b.size || a.hops != b.hops ||
                      a.leafOffset != b.leafOffset)) {
        *error =
            QStringLiteral("start and end are the same hook (%1): each hit ends its key's pair "
                           "and starts the next, so endKey %2 must be empty or name the same "
                           "value as key %3")
                .arg(out->start.hook.kind == ProbeHook::Kind::Tracepoint ? out->start.tracepoint
                                                                         : out->start.hook.text(),
                     endKey, key);
        return false;
    }
    return true;
}

AttachPlan TpPairProbe::attachPlan(const KernelFeatures &kernel, const QVariantMap &options,
                                   Plan *out) const
{
    AttachPlan a;
    if (!plan(kernel, options, out, &a.reason)) {
        a.available = false;
        return a;
    }
    const int pid = int(options.value(QStringLiteral("pid")).toLongLong());
    auto programs = [&](const Side &side, const QByteArray &name, const QByteArray &fdPath) {
        return side.hook.kind == ProbeHook::Kind::Tracepoint
                   ? QList<AttachGroup::Program>{{name, rawTp(side.tracepoint), true}}
                   : regsPrograms(name + "_regs", side.regs, fdPath, pid);
    };
    // Any two hooks: the programs attach by name or by file. The end first: a start attached
    // alone would only fill the map; the start detaches first, so no pair begins that could not
    // end.
    AttachGroup g;
    if (out->same)
        g.programs = programs(out->start, "tppair_same", m_startFdPath);
    else
        g.programs = programs(out->start, "tppair_start", m_startFdPath) +
                     programs(out->end, "tppair_end", m_endFdPath);
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
    QString why;
    if (!plan(kernel, options, &p, &why)) {
        *error = why;
        return false;
    }
    if (takesUserFile(options)) {
        if (!userFile().isValid()) {
            *error = QStringLiteral("no file to attach to: the caller resolves the uprobe or USDT "
                                    "side and hands its file over (client/probetargets.h)");
            return false;
        }
        // Sides in two binaries: the end's is the second file. Each side's offsets are checked
        // in its own file, whichever one the caller's offset was checked for.
        const int startFd = userFile().get();
        const int endFd = secondUserFile().isValid() ? secondUserFile().get() : startFd;
        for (const auto &[side, fd] : {std::pair{&p.start, startFd}, std::pair{&p.end, endFd}}) {
            if (side->hook.inUserFile() && !checkRegsHookFile(side->regs, fd, &why)) {
                *error = why;
                return false;
            }
        }
        m_startFdPath = QByteArray("/proc/self/fd/") + QByteArray::number(startFd);
        m_endFdPath = QByteArray("/proc/self/fd/") + QByteArray::number(endFd);
    }
    const AttachPlan a = attachPlan(kernel, options, &p);
    m_lastUnreadable = 0;
    const bool ok = startSkeleton(a, options, error, [&](CommonFilters &, QString *) {
        auto *ro = m_skel->rodata;
        fillKeyDesc(&ro->start_key, p.start.key);
        fillKeyDesc(&ro->end_key, p.end.key);
        for (qsizetype i = 0; i < p.start.args.size() && i < USDT_MAX_SPECS; ++i)
            fillUsdtArgSpec(&ro->start_args[i], p.start.args[i]);
        for (qsizetype i = 0; i < p.end.args.size() && i < USDT_MAX_SPECS; ++i)
            fillUsdtArgSpec(&ro->end_args[i], p.end.args[i]);
        m_unit = timeUnitOption(options);
        ro->unit_div = unitDivisor(m_unit);
        const qint64 thresholdUs = options.value(QStringLiteral("thresholdUs"), -1).toLongLong();
        ro->threshold_ns = thresholdUs < 0 ? -1 : thresholdUs * 1000;
        return true;
    });
    // Attached to the inode now: the descriptor is not needed any more.
    releaseUserFile();
    return ok;
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
    ev.cgroupId = e.cgroup_id;
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
    emitCounter(KeyedLoss::unreadableKeys(), double(now - m_lastUnreadable));
    m_lastUnreadable = now;
}

} // namespace bpflens
