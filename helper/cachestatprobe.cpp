#include "helper/cachestatprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "bpf/cachestat.records.h"
#include "cachestat.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <unistd.h>
#include <vector>

namespace bpflens {

namespace {

// Candidates of one quantity, in the order of preference: tracepoints (category/name; the
// tp_btf form is the name alone), then kernel functions for fentry, then for kprobes.
// Each quantity's programs are <tracepointPrograms>_btf and _tp, <functionPrograms>_fentry and
// _kprobe; they are retargeted to the hook chosen here (folio or page era).
struct Candidates
{
    QStringList tracepoints;
    QStringList functions;
    QByteArray tracepointPrograms;
    QByteArray functionPrograms;
};

const Candidates accessCandidates{
    {QStringLiteral("filemap/mm_filemap_get_pages")},
    {QStringLiteral("folio_mark_accessed"), QStringLiteral("mark_page_accessed")},
    "cachestat_lookup",
    "cachestat_access"};
const Candidates faultCandidates{
    {QStringLiteral("filemap/mm_filemap_fault")}, {}, "cachestat_fault", {}};
const Candidates addCandidates{
    {QStringLiteral("filemap/mm_filemap_add_to_page_cache")},
    {QStringLiteral("filemap_add_folio"), QStringLiteral("add_to_page_cache_lru")},
    "cachestat_add",
    "cachestat_add"};
// writeback_dirty_page is the name before folios (< 5.17); it fires at the same place.
const Candidates dirtyCandidates{
    {QStringLiteral("writeback/writeback_dirty_folio"),
     QStringLiteral("writeback/writeback_dirty_page")},
    {QStringLiteral("folio_account_dirtied"), QStringLiteral("account_page_dirtied")},
    "cachestat_dirty",
    "cachestat_dirty"};

QString tracepointName(const QString &categoryAndName)
{
    return categoryAndName.section(QLatin1Char('/'), 1);
}

} // namespace

CacheStatProbe::CacheStatProbe()
    : SkeletonProbe(QStringLiteral("cachestat"))
{
}

CacheStatProbe::~CacheStatProbe() = default;

CacheStatProbe::Plan CacheStatProbe::plan(const KernelFeatures &kernel)
{
    auto resolve = [&kernel](const Candidates &c, bool functionsAllowed) {
        Part p;
        for (const QString &tp : c.tracepoints) {
            if (kernel.hasBtfTracepoint(tracepointName(tp))) {
                p.path = Path::BtfTracepoint;
                p.function = tracepointName(tp);
                p.hook = QStringLiteral("tp_btf/") + p.function;
                p.program = c.tracepointPrograms + "_btf";
                return p;
            }
        }
        for (const QString &tp : c.tracepoints) {
            if (kernel.hasTracepoint(tp)) {
                p.path = Path::Tracepoint;
                p.function = tp;
                p.hook = QStringLiteral("tp/") + tp;
                p.program = c.tracepointPrograms + "_tp";
                return p;
            }
        }
        if (!functionsAllowed)
            return p;
        for (const QString &f : c.functions) {
            if (kernel.canFentry(f)) {
                p.path = Path::Fentry;
                p.function = f;
                p.hook = QStringLiteral("fentry/") + f;
                p.program = c.functionPrograms + "_fentry";
                return p;
            }
        }
        for (const QString &f : c.functions) {
            if (kernel.canKprobe(f)) {
                p.path = Path::Kprobe;
                p.function = f;
                p.hook = QStringLiteral("kprobe/") + f;
                p.program = c.functionPrograms + "_kprobe";
                return p;
            }
        }
        return p;
    };
    Plan plan;
    plan.accesses = resolve(accessCandidates, true);
    const bool accessTracepoint =
        plan.accesses.path == Path::BtfTracepoint || plan.accesses.path == Path::Tracepoint;
    // Faults add to the read lookups; a mark_accessed hook counts them already.
    if (accessTracepoint)
        plan.faults = resolve(faultCandidates, false);
    plan.added = resolve(addCandidates, true);
    plan.dirtied = resolve(dirtyCandidates, true);
    const struct
    {
        const Part *part;
        const char *what;
    } quantities[] = {{&plan.accesses, "page accesses"},
                      {&plan.faults, "file page faults"},
                      {&plan.added, "pages added"},
                      {&plan.dirtied, "dirtied pages"}};
    // Without insertions there is no miss count: the probe would only mislead.
    for (const auto &q : quantities) {
        if (q.part->path != Path::None)
            plan.attach.groups.append({{{q.part->program, q.part->hook, true}},
                                       q.part == &plan.added,
                                       QLatin1String(q.what)});
    }
    if (plan.added.path == Path::None) {
        QStringList reasons;
        reasons << QStringLiteral("no tracepoint filemap/mm_filemap_add_to_page_cache");
        const QString fentry = kernel.fentryUnavailableReason();
        reasons << (fentry.isEmpty() ? QStringLiteral("no fentry on filemap_add_folio") : fentry);
        const QString kprobe = kernel.kprobeUnavailableReason();
        reasons << (kprobe.isEmpty() ? QStringLiteral("filemap_add_folio cannot be kprobed")
                                     : kprobe);
        plan.attach.available = false;
        plan.attach.reason = reasons.join(QStringLiteral("; "));
    }
    return plan;
}

QString CacheStatProbe::Plan::meaning() const
{
    QStringList m;
    switch (accesses.path) {
    case Path::BtfTracepoint:
    case Path::Tracepoint:
        m << QStringLiteral("accesses = pages looked up by reads%1%2")
                 .arg(faults.path != Path::None ? QStringLiteral(" and file page faults")
                                                : QString(),
                      accesses.path == Path::Tracepoint
                          ? QStringLiteral(" (not clipped at end of file)")
                          : QString());
        break;
    case Path::Fentry:
    case Path::Kprobe:
        m << QStringLiteral("accesses = %1 calls").arg(accesses.function);
        break;
    case Path::None:
        m << QStringLiteral("no hook for page accesses: hits and hit ratio are not reported");
        break;
    }
    m << (dirtied.path != Path::None
              ? QStringLiteral("misses = pages added to the page cache - pages dirtied")
              : QStringLiteral("misses = pages added to the page cache (writes included: no "
                               "hook for dirtied pages)"));
    if (accesses.path != Path::None)
        m << QStringLiteral("hits = accesses - misses");
    return m.join(QStringLiteral("; "));
}

ProbeAvailability CacheStatProbe::availability(const KernelFeatures &kernel,
                                               const QVariantMap &) const
{
    const Plan p = plan(kernel);
    if (!p.attach.available)
        return {false, QString(), p.attach.reason};
    return {true, p.attach.path(), p.meaning()};
}

bool CacheStatProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel,
                             QString *error)
{
    const Plan plan = CacheStatProbe::plan(kernel);
    m_lastAccesses = m_lastAdded = m_lastDirtied = 0;
    if (!startSkeleton(plan.attach, options, error, [&](CommonFilters &, QString *) {
            m_skel->rodata->page_shift = quint32(__builtin_ctzl(quint64(sysconf(_SC_PAGESIZE))));
            return true;
        }))
        return false;
    // What really attached decides what is reported.
    m_haveAccesses = plan.accesses.path != Path::None && isAttachedAt(plan.accesses.hook);
    m_haveDirtied = plan.dirtied.path != Path::None && isAttachedAt(plan.dirtied.hook);
    return true;
}

void CacheStatProbe::readCounters()
{
    if (!m_skel)
        return;
    const int cpus = libbpf_num_possible_cpus();
    if (cpus <= 0)
        return;
    std::vector<cachestat_counts> perCpu(size_t(cpus), cachestat_counts{});
    const __u32 zero = 0;
    if (bpf_map_lookup_elem(bpf_map__fd(m_skel->maps.counts), &zero, perCpu.data()) != 0)
        return;
    quint64 accesses = 0, added = 0, dirtied = 0;
    for (const cachestat_counts &c : perCpu) {
        accesses += c.accesses;
        added += c.added;
        dirtied += c.dirtied;
    }
    const qint64 dAccesses = qint64(accesses - m_lastAccesses);
    const qint64 dAdded = qint64(added - m_lastAdded);
    const qint64 dDirtied = qint64(dirtied - m_lastDirtied);
    m_lastAccesses = accesses;
    m_lastAdded = added;
    m_lastDirtied = dirtied;

    const bool haveAccesses = m_haveAccesses;
    const bool haveDirtied = m_haveDirtied;
    // cachestat's arithmetic: a write to a new page inserts and dirties it, which is no miss.
    const qint64 misses = qMax<qint64>(0, haveDirtied ? dAdded - dDirtied : dAdded);
    emitCounter(QStringLiteral("added"), double(dAdded));
    if (haveDirtied)
        emitCounter(QStringLiteral("dirtied"), double(dDirtied));
    emitCounter(QStringLiteral("misses"), double(misses));
    if (!haveAccesses)
        return;
    const qint64 hits = qMax<qint64>(0, dAccesses - misses);
    emitCounter(QStringLiteral("accesses"), double(dAccesses));
    emitCounter(QStringLiteral("hits"), double(hits));
    if (hits + misses > 0)
        emitCounter(QStringLiteral("hitRatio"), double(hits) / double(hits + misses));
}

} // namespace bpflens
