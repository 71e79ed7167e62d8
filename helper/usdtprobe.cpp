#include "helper/usdtprobe.h"

#include "core/counttext.h"

#include <linux/types.h>

#include "bpf/usdt.records.h"
#include "usdt.skel.h"

#include "helper/probehooks.h"
#include "helper/tpkeydesc.h"
#include "helper/uprobefile.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#if defined(__x86_64__)
#include <asm/ptrace.h>
#endif

#include <cstddef>
#include <cstring>

namespace bpflens {

UsdtProbe::UsdtProbe()
    : SkeletonProbe(QStringLiteral("usdt"))
{
}

UsdtProbe::~UsdtProbe() = default;

int UsdtProbe::registerOffset(const QString &reg)
{
#if defined(__x86_64__)
    static const struct
    {
        const char *name;
        int offset;
    } registers[] = {
        {"rax", offsetof(struct pt_regs, rax)}, {"rbx", offsetof(struct pt_regs, rbx)},
        {"rcx", offsetof(struct pt_regs, rcx)}, {"rdx", offsetof(struct pt_regs, rdx)},
        {"rsi", offsetof(struct pt_regs, rsi)}, {"rdi", offsetof(struct pt_regs, rdi)},
        {"rbp", offsetof(struct pt_regs, rbp)}, {"rsp", offsetof(struct pt_regs, rsp)},
        {"r8", offsetof(struct pt_regs, r8)},   {"r9", offsetof(struct pt_regs, r9)},
        {"r10", offsetof(struct pt_regs, r10)}, {"r11", offsetof(struct pt_regs, r11)},
        {"r12", offsetof(struct pt_regs, r12)}, {"r13", offsetof(struct pt_regs, r13)},
        {"r14", offsetof(struct pt_regs, r14)}, {"r15", offsetof(struct pt_regs, r15)},
    };
    for (const auto &r : registers) {
        if (reg == QLatin1String(r.name))
            return r.offset;
    }
#else
    Q_UNUSED(reg);
#endif
    return -1;
}

bool UsdtProbe::sitesOf(const QVariantMap &options, QList<UsdtSite> *sites, QString *why) const
{
    // Empty (the catalog's default): the probe is at one place, the caller's offset.
    const QString given = options.value(QStringLiteral("sites")).toString();
    if (!given.isEmpty())
        return parseUsdtSites(given, sites, why);
    UsdtSite one;
    one.offset = userFileOffset();
    if (!parseUsdtArgs(options.value(QStringLiteral("args")).toString(), &one.args, why))
        return false;
    *sites = {one};
    return true;
}

AttachPlan UsdtProbe::attachPlan(const KernelFeatures &kernel, const QVariantMap &options) const
{
    AttachPlan a;
#if !defined(__x86_64__)
    a.available = false;
    a.reason = QStringLiteral("USDT arguments are only read on x86-64 so far");
    return a;
#endif
    if (!kernel.hasUprobes()) {
        a.available = false;
        a.reason = noUprobesReason();
        return a;
    }
    QList<UsdtSite> sites{UsdtSite{userFileOffset(), {}}};
    if (!options.isEmpty()) {
        ProbeCatalog::UprobeKey key;
        QString why;
        if (!ProbeCatalog::parseUprobeKey(options.value(QStringLiteral("key")).toString(), &key,
                                          &why, MaxUsdtArgs) ||
            !sitesOf(options, &sites, &why)) {
            a.available = false;
            a.reason = why;
            return a;
        }
    }
    QList<int> specOfSite;
    const QString noCookies =
        usdtSpecsUnreadableReason(kernel, usdtSpecTable(sites, &specOfSite).size());
    if (!noCookies.isEmpty()) {
        a.available = false;
        a.reason = QStringLiteral("the USDT probe: ") + noCookies;
        return a;
    }
    const QString target = options.value(QStringLiteral("target")).toString().trimmed();
    const int pid = int(options.value(QStringLiteral("pid")).toLongLong());
    AttachGroup g;
    const QString path = QStringLiteral("usdt/") +
                         (target.isEmpty() ? QStringLiteral("BINARY:PROVIDER:NAME") : target);
    for (qsizetype i = 0; i < sites.size(); ++i) {
        AttachGroup::Program p{
            "usdt_hit",        usdtSitesPath(path, sites.size()), true, m_fdPath, sites[i].offset,
            pid > 0 ? pid : -1};
        p.refCtrOffset = quint64(options.value(QStringLiteral("semaphore")).toLongLong());
        // Which argument list the program reads at this site (usdt_spec_id).
        p.cookie = quint64(specOfSite.value(i));
        g.programs.append(p);
    }
    g.what = QStringLiteral("hits");
    a.groups.append(g);
    return a;
}

ProbeAvailability UsdtProbe::availability(const KernelFeatures &kernel,
                                          const QVariantMap &options) const
{
    return availabilityOf(attachPlan(kernel, options));
}

bool UsdtProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    if (!userFile().isValid()) {
        *error = QStringLiteral("no file to attach to: the caller resolves the USDT probe and "
                                "hands its file over (client/usdtnotes.h)");
        return false;
    }
    QString why;
    if (!ProbeCatalog::parseUprobeKey(options.value(QStringLiteral("key")).toString(), &m_key, &why,
                                      MaxUsdtArgs) ||
        !sitesOf(options, &m_sites, &why)) {
        *error = why;
        return false;
    }
    m_args = m_sites.front().args;
    QList<int> specOfSite;
    m_specs = usdtSpecTable(m_sites, &specOfSite);
    // Whichever offset the caller's file was checked for: every site here.
    for (qsizetype i = 0; i < m_sites.size(); ++i) {
        if (!checkUprobeFile(userFile().get(), m_sites[i].offset, &why)) {
            *error =
                m_sites.size() > 1
                    ? QStringLiteral("site %1 of %2: %3").arg(i + 1).arg(m_sites.size()).arg(why)
                    : why;
            return false;
        }
    }
    if (m_key.kind != ProbeCatalog::UprobeKey::Kind::None && m_key.arg >= m_args.size()) {
        *error = QStringLiteral("key arg%1: the USDT probe has %2")
                     .arg(QString::number(m_key.arg),
                          countOf(qint64(m_args.size()), "argument", "arguments"));
        return false;
    }
    for (const QList<UsdtArg> &args : std::as_const(m_specs)) {
        for (qsizetype i = 0; i < args.size(); ++i) {
            if (args[i].kind != UsdtArg::Kind::Constant && registerOffset(args[i].reg) < 0) {
                *error = QStringLiteral("arg %1: register %2 cannot be read here")
                             .arg(i)
                             .arg(args[i].reg);
                return false;
            }
        }
    }
    const quint64 semaphore = quint64(options.value(QStringLiteral("semaphore")).toLongLong());
    if (semaphore && !checkUsdtSemaphore(userFile().get(), semaphore, &why)) {
        *error = QStringLiteral("the USDT probe's semaphore: ") + why;
        return false;
    }
    m_fdPath = QByteArray("/proc/self/fd/") + QByteArray::number(userFile().get());
    m_counts.clear();
    m_lastKeysFull = 0;
    m_lastUnreadable = 0;
    m_lastArgFaults = 0;
    const AttachPlan a = attachPlan(kernel, options);
    const bool ok = startSkeleton(a, options, error, [&](CommonFilters &, QString *) {
        auto *ro = m_skel->rodata;
        ro->arg_cnt = __u32(m_args.size());
        for (qsizetype s = 0; s < m_specs.size() && s < USDT_MAX_SPECS; ++s) {
            for (qsizetype i = 0; i < m_specs[s].size() && i < USDT_MAX_ARGS; ++i)
                fillUsdtArgSpec(&ro->arg_specs[s][i], m_specs[s][i]);
        }
        ro->key_kind = m_key.kind == ProbeCatalog::UprobeKey::Kind::None      ? USDT_KEY_NONE
                       : m_key.kind == ProbeCatalog::UprobeKey::Kind::Integer ? USDT_KEY_INT
                                                                              : USDT_KEY_STRING;
        ro->key_arg = __u32(m_key.arg);
        const qint64 strLength = options.value(QStringLiteral("strLength"), 64).toLongLong();
        ro->str_len = __u32(qBound<qint64>(1, strLength, qint64(USDT_MAX_STR)));
        ro->record_events = options.value(QStringLiteral("events"), true).toBool();
        return true;
    });
    releaseUserFile();
    return ok;
}

bool UsdtProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    usdt_event e;
    if (size != sizeof(e))
        return false;
    memcpy(&e, data, sizeof(e));
    UsdtEvent ev;
    ev.timeNs = e.ts;
    ev.pid = e.pid;
    ev.cgroupId = e.cgroup_id;
    ev.tid = e.tid;
    const int count = int(qMin<__u32>(e.arg_cnt, USDT_MAX_ARGS));
    for (int i = 0; i < count; ++i) {
        if (i > 0)
            ev.args += ' ';
        const bool isSigned = i < m_args.size() && m_args[i].isSigned;
        ev.args += isSigned ? QByteArray::number(qint64(e.args[i]))
                            : QByteArray::number(quint64(e.args[i]));
    }
    if (e.str_ok)
        ev.text = QByteArray(e.str, int(qstrnlen(e.str, sizeof(e.str))));
    ev.comm = QByteArray(e.comm, int(qstrnlen(e.comm, sizeof(e.comm))));
    out.usdt.append(ev);
    return true;
}

QString UsdtProbe::counterName(const QByteArray &raw) const
{
    usdt_key k;
    memcpy(&k, raw.constData(), sizeof(k));
    switch (m_key.kind) {
    case ProbeCatalog::UprobeKey::Kind::None:
        return hitsCounter();
    case ProbeCatalog::UprobeKey::Kind::Integer: {
        const bool isSigned = m_key.arg < m_args.size() && m_args[m_key.arg].isSigned;
        return QStringLiteral("arg%1=%2")
            .arg(m_key.arg)
            .arg(isSigned ? QString::number(qint64(k.value)) : QString::number(k.value));
    }
    case ProbeCatalog::UprobeKey::Kind::String:
        break;
    }
    return QLatin1Char('"') + QString::fromUtf8(k.str, int(qstrnlen(k.str, sizeof(k.str)))) +
           QLatin1Char('"');
}

void UsdtProbe::readCounters()
{
    if (!m_skel)
        return;
    m_counts.forEachIncrease<usdt_key>(bpf_map__fd(m_skel->maps.usdt_counts),
                                       [this](const QByteArray &raw, quint64 increase) {
                                           emitCounter(counterName(raw), double(increase));
                                       });
    emitIncrease(keysFullCounter(), __atomic_load_n(&m_skel->bss->keys_full, __ATOMIC_RELAXED),
                 &m_lastKeysFull);
    emitIncrease(unreadableCounter(), __atomic_load_n(&m_skel->bss->unreadable, __ATOMIC_RELAXED),
                 &m_lastUnreadable);
    emitIncrease(argFaultsCounter(), __atomic_load_n(&m_skel->bss->arg_faults, __ATOMIC_RELAXED),
                 &m_lastArgFaults);
}

} // namespace bpflens
