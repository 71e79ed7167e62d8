#include "helper/tpcountprobe.h"

#include <linux/types.h>

#include "bpf/tpcount.records.h"
#include "bpf/tppair.records.h"
#include "bpf/usdt.records.h"

#include "tpcount.skel.h"

#include "helper/histogrammap.h"
#include "helper/tpkeydesc.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cstring>

namespace bpflens {

TpCountProbe::TpCountProbe()
    : SkeletonProbe(QStringLiteral("tpcount"))
{
}

TpCountProbe::~TpCountProbe() = default;

bool TpCountProbe::takesUserFile(const QVariantMap &options) const
{
    return ProbeHook::parse(options.value(QStringLiteral("tracepoint")).toString()).inUserFile();
}

bool TpCountProbe::plan(const KernelFeatures &kernel, const QVariantMap &options, Plan *out,
                        QString *error)
{
    const QString name = options.value(QStringLiteral("tracepoint")).toString().trimmed();
    if (name.isEmpty()) {
        *error = QStringLiteral("no tracepoint given");
        return false;
    }
    out->hook = ProbeHook::parse(name);
    const bool regs = out->hook.kind != ProbeHook::Kind::Tracepoint;
    // A key or the value at the hook, as its kind resolves them.
    auto resolve = [&](const QString &text, TracepointKey *key, QList<UsdtArg> *args) {
        return regs ? resolveRegsKey(out->regs, text, key, args, error)
                    : Tracepoints::resolveKey(kernel, out->tracepoint, text, key, error);
    };
    if (regs) {
        if (!planRegsHook(kernel, out->hook, options, QStringLiteral("hook"), &out->regs, error))
            return false;
    } else {
        if (!kernel.hasBtf()) {
            *error = kernel.btfError();
            return false;
        }
        TracepointInfo info;
        if (!Tracepoints::find(kernel, name, &info, error))
            return false;
        out->tracepoint = info.name;
    }
    out->keys.clear();
    for (const char *option : {"key", "key2"}) {
        const QString text = options.value(QLatin1String(option)).toString().trimmed();
        if (text.isEmpty())
            continue;
        Key k;
        k.text = text;
        if (text == QLatin1String("comm")) {
            k.comm = true;
        } else if (!resolve(text, &k.resolved, &k.args)) {
            return false;
        } else {
            k.pointer = k.resolved.type.endsWith(QLatin1Char('*'));
            k.device = k.resolved.type == QLatin1String("dev_t");
        }
        for (const Key &other : std::as_const(out->keys)) {
            if (other.text == k.text) {
                *error = QStringLiteral("key and key2 are the same (%1)").arg(text);
                return false;
            }
        }
        out->keys.append(k);
    }
    const QString value = options.value(QStringLiteral("histogram")).toString().trimmed();
    out->histogram = !value.isEmpty();
    if (out->histogram) {
        if (value == QLatin1String("comm")) {
            *error = QStringLiteral("histogram: comm is not a number");
            return false;
        }
        if (!resolve(value, &out->value, &out->valueArgs))
            return false;
    }
    return true;
}

AttachPlan TpCountProbe::attachPlan(const KernelFeatures &kernel, const QVariantMap &options,
                                    Plan *out) const
{
    AttachPlan a;
    if (!plan(kernel, options, out, &a.reason)) {
        a.available = false;
        return a;
    }
    AttachGroup g;
    if (out->hook.kind == ProbeHook::Kind::Tracepoint)
        g.programs = {{"tpcount_hit", QStringLiteral("raw_tp/") + out->tracepoint, true}};
    else
        g.programs = regsPrograms("tpcount_hit_regs", out->regs, m_fdPath,
                                  int(options.value(QStringLiteral("pid")).toLongLong()));
    g.what = out->histogram ? QStringLiteral("values") : QStringLiteral("hits");
    a.groups.append(g);
    return a;
}

ProbeAvailability TpCountProbe::availability(const KernelFeatures &kernel,
                                             const QVariantMap &options) const
{
    Plan p;
    return availabilityOf(attachPlan(kernel, options, &p));
}

bool TpCountProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    m_plan = Plan();
    QString why;
    if (!plan(kernel, options, &m_plan, &why)) {
        *error = why;
        return false;
    }
    if (takesUserFile(options)) {
        if (!userFile().isValid()) {
            *error = QStringLiteral("no file to attach to: the caller resolves the uprobe or USDT "
                                    "hook and hands its file over (client/probetargets.h)");
            return false;
        }
        if (!checkRegsHookFile(m_plan.regs, userFile().get(), error))
            return false;
        m_fdPath = QByteArray("/proc/self/fd/") + QByteArray::number(userFile().get());
    }
    const AttachPlan a = attachPlan(kernel, options, &m_plan);
    m_counts.clear();
    m_lastKeysFull = 0;
    m_lastUnreadable = 0;
    const bool ok = startSkeleton(a, options, error, [&](CommonFilters &, QString *) {
        auto *ro = m_skel->rodata;
        int fields = 0;
        for (const Key &k : std::as_const(m_plan.keys)) {
            if (k.comm) {
                ro->by_comm = true;
            } else {
                for (qsizetype i = 0; i < k.args.size() && i < USDT_MAX_SPECS; ++i)
                    fillUsdtArgSpec(&ro->key_args[i][fields], k.args[i]);
                fillKeyDesc(&ro->key_descs[fields++], k.resolved);
            }
        }
        ro->key_count = __u32(fields);
        ro->histogram = m_plan.histogram;
        // Only one of the two maps is used: the other gets one entry instead of 10240 (5.6 MiB
        // of histograms a count never touches).
        if (m_plan.histogram) {
            fillKeyDesc(&ro->value_desc, m_plan.value);
            for (qsizetype i = 0; i < m_plan.valueArgs.size() && i < USDT_MAX_SPECS; ++i)
                fillUsdtArgSpec(&ro->value_args[i], m_plan.valueArgs[i]);
            bpf_map__set_max_entries(m_skel->maps.tpcount_counts, 1);
            setHistogramMap(m_skel->maps.tpcount_hists);
        } else {
            bpf_map__set_max_entries(m_skel->maps.tpcount_hists, 1);
        }
        return true;
    });
    // Attached to the inode now: the descriptor is not needed any more.
    releaseUserFile();
    return ok;
}

QString TpCountProbe::keyText(const QByteArray &rawKey) const
{
    tpcount_key key;
    memcpy(&key, rawKey.constData(), sizeof(key));
    QStringList parts;
    int field = 0;
    for (const Key &k : m_plan.keys) {
        QString value;
        if (k.comm) {
            value = QString::fromLocal8Bit(key.comm, int(qstrnlen(key.comm, sizeof(key.comm))));
        } else {
            const quint64 v = key.values[field++];
            const bool isSigned = !k.args.isEmpty() && k.args.front().isSigned;
            // A device number as ls -l and /proc/partitions show it, decoded as the kernel
            // encodes its own dev_t (MINORBITS 20; not the 64-bit user-space encoding).
            value = k.pointer  ? QStringLiteral("0x") + QString::number(v, 16)
                    : k.device ? QStringLiteral("%1:%2").arg(v >> 20).arg(v & 0xfffff)
                    : isSigned ? QString::number(qint64(v))
                               : QString::number(v);
        }
        parts.append(k.text + QLatin1Char('=') + value);
    }
    return parts.isEmpty() ? hitsCounter() : parts.join(QLatin1Char(' '));
}

void TpCountProbe::readHistograms()
{
    if (!m_skel || !m_plan.histogram)
        return;
    forEachHistogram<tpcount_key>(
        bpf_map__fd(m_skel->maps.tpcount_hists), HistogramUnit::Value,
        [this](const tpcount_key &key, const Log2Histogram &cumulative) {
            const QByteArray raw(reinterpret_cast<const char *>(&key), sizeof(key));
            // The histogram of all hits has no key, as tppair's.
            emitHistogram(m_plan.keys.isEmpty() ? QString() : keyText(raw), cumulative);
        });
}

void TpCountProbe::readCounters()
{
    if (!m_skel)
        return;
    if (!m_plan.histogram) {
        m_counts.forEachIncrease<tpcount_key>(bpf_map__fd(m_skel->maps.tpcount_counts),
                                              [this](const QByteArray &raw, quint64 increase) {
                                                  emitCounter(keyText(raw), double(increase));
                                              });
    }
    emitIncrease(keysFullCounter(), __atomic_load_n(&m_skel->bss->keys_full, __ATOMIC_RELAXED),
                 &m_lastKeysFull);
    emitIncrease(unreadableCounter(), __atomic_load_n(&m_skel->bss->unreadable, __ATOMIC_RELAXED),
                 &m_lastUnreadable);
}

} // namespace bpflens
