#include "cachestatprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "cachestat.h"
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
struct Candidates
{
    QStringList tracepoints;
    QStringList functions;
};

const Candidates accessCandidates{
    {QStringLiteral("filemap/mm_filemap_get_pages")},
    {QStringLiteral("folio_mark_accessed"), QStringLiteral("mark_page_accessed")}};
const Candidates faultCandidates{{QStringLiteral("filemap/mm_filemap_fault")}, {}};
const Candidates addCandidates{
    {QStringLiteral("filemap/mm_filemap_add_to_page_cache")},
    {QStringLiteral("filemap_add_folio"), QStringLiteral("add_to_page_cache_lru")}};
// writeback_dirty_page is the name before folios (< 5.17); it fires at the same place.
const Candidates dirtyCandidates{
    {QStringLiteral("writeback/writeback_dirty_folio"),
     QStringLiteral("writeback/writeback_dirty_page")},
    {QStringLiteral("folio_account_dirtied"), QStringLiteral("account_page_dirtied")}};

QString tracepointName(const QString &categoryAndName)
{
    return categoryAndName.section(QLatin1Char('/'), 1);
}

} // namespace

CacheStatProbe::CacheStatProbe()
    : Probe(QStringLiteral("cachestat"))
{
}

CacheStatProbe::~CacheStatProbe()
{
    stop();
}

CacheStatProbe::Plan CacheStatProbe::plan(const KernelFeatures &kernel, QString *why)
{
    auto resolve = [&kernel](const Candidates &c, bool functionsAllowed) {
        Part p;
        for (const QString &tp : c.tracepoints) {
            if (kernel.hasBtfTracepoint(tracepointName(tp))) {
                p.path = Path::BtfTracepoint;
                p.function = tracepointName(tp);
                p.hook = QStringLiteral("tp_btf/") + p.function;
                return p;
            }
        }
        for (const QString &tp : c.tracepoints) {
            if (kernel.hasTracepoint(tp)) {
                p.path = Path::Tracepoint;
                p.function = tp;
                p.hook = QStringLiteral("tp/") + tp;
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
                return p;
            }
        }
        for (const QString &f : c.functions) {
            if (kernel.canKprobe(f)) {
                p.path = Path::Kprobe;
                p.function = f;
                p.hook = QStringLiteral("kprobe/") + f;
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
    if (!plan.usable()) {
        QStringList reasons;
        reasons << QStringLiteral("no tracepoint filemap/mm_filemap_add_to_page_cache");
        const QString fentry = kernel.fentryUnavailableReason();
        reasons << (fentry.isEmpty() ? QStringLiteral("no fentry on filemap_add_folio") : fentry);
        const QString kprobe = kernel.kprobeUnavailableReason();
        reasons << (kprobe.isEmpty() ? QStringLiteral("filemap_add_folio cannot be kprobed")
                                     : kprobe);
        *why = reasons.join(QStringLiteral("; "));
    }
    return plan;
}

QStringList CacheStatProbe::Plan::hooks() const
{
    QStringList h;
    for (const Part *p : {&accesses, &faults, &added, &dirtied}) {
        if (p->path != Path::None)
            h << p->hook;
    }
    return h;
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
    ProbeAvailability a;
    QString why;
    const Plan p = plan(kernel, &why);
    if (!p.usable()) {
        a.reason = why;
        return a;
    }
    a.available = true;
    a.attachPath = p.hooks().join(QStringLiteral(", "));
    a.reason = p.meaning();
    return a;
}

bool CacheStatProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel,
                             QString *error)
{
    const Plan plan = CacheStatProbe::plan(kernel, error);
    if (!plan.usable())
        return false;
    m_lastAccesses = m_lastAdded = m_lastDirtied = 0;
    m_skel = cachestat_bpf__open();
    if (!m_skel) {
        *error = QStringLiteral("cannot open the BPF object: %1").arg(lastLibbpfError(-errno));
        return false;
    }
    m_skel->rodata->page_shift = quint32(__builtin_ctzl(quint64(sysconf(_SC_PAGESIZE))));
    const CommonFilters f = commonFilters(options);
    auto *ro = m_skel->rodata;
    ro->filter_tgid = f.tgid;
    ro->filter_tid = f.tid;
    ro->filter_uid = f.uid;
    ro->filter_uid_set = f.uidSet;
    memcpy(const_cast<char *>(ro->filter_comm), f.comm.constData(), size_t(f.comm.size()));
    ro->filter_cgroup = !f.cgroupPath.isEmpty();

    struct Programs
    {
        const Part *part;
        bpf_program *btf;
        bpf_program *tp;
        bpf_program *fentry;
        bpf_program *kprobe;
    };
    auto &p = m_skel->progs;
    const Programs programs[] = {
        {&plan.accesses, p.cachestat_lookup_btf, p.cachestat_lookup_tp, p.cachestat_access_fentry,
         p.cachestat_access_kprobe},
        {&plan.faults, p.cachestat_fault_btf, p.cachestat_fault_tp, nullptr, nullptr},
        {&plan.added, p.cachestat_add_btf, p.cachestat_add_tp, p.cachestat_add_fentry,
         p.cachestat_add_kprobe},
        {&plan.dirtied, p.cachestat_dirty_btf, p.cachestat_dirty_tp, p.cachestat_dirty_fentry,
         p.cachestat_dirty_kprobe},
    };
    // Only the chosen program of each quantity is loaded; its target is set here because the
    // kernel's name for the hook (folio or page era) is only known now.
    for (const Programs &pr : programs) {
        const Path path = pr.part->path;
        const QByteArray target = pr.part->function.toLatin1();
        for (bpf_program *prog : {pr.btf, pr.tp, pr.fentry, pr.kprobe}) {
            if (prog)
                bpf_program__set_autoload(prog, false);
        }
        bpf_program *chosen = nullptr;
        switch (path) {
        case Path::BtfTracepoint:
            chosen = pr.btf;
            break;
        case Path::Tracepoint:
            chosen = pr.tp;
            break;
        case Path::Fentry:
            chosen = pr.fentry;
            break;
        case Path::Kprobe:
            chosen = pr.kprobe;
            break;
        case Path::None:
            break;
        }
        if (!chosen)
            continue;
        bpf_program__set_autoload(chosen, true);
        if (path == Path::BtfTracepoint || path == Path::Fentry) {
            if (int err = bpf_program__set_attach_target(chosen, 0, target.constData())) {
                *error =
                    QStringLiteral("cannot target %1: %2").arg(pr.part->hook, lastLibbpfError(err));
                return false;
            }
        }
    }
    if (int err = cachestat_bpf__load(m_skel)) {
        *error = QStringLiteral("cannot load the BPF programs: %1").arg(lastLibbpfError(err));
        return false;
    }
    // Before attaching: a filtered recording must not count anything unfiltered.
    if (!applyCgroupFilter(bpf_map__fd(m_skel->maps.cgroup_map), f.cgroupPath, error))
        return false;

    // One link per quantity, kept in the skeleton's link slots so destroy() detaches them.
    QStringList attached;
    QStringList failed;
    bpf_link **slots[] = {&m_skel->links.cachestat_lookup_btf, &m_skel->links.cachestat_fault_btf,
                          &m_skel->links.cachestat_add_btf, &m_skel->links.cachestat_dirty_btf};
    int i = 0;
    for (const Programs &pr : programs) {
        bpf_link **slot = slots[i++];
        const Part &part = *pr.part;
        bpf_link *link = nullptr;
        const QByteArray target = part.function.toLatin1();
        switch (part.path) {
        case Path::BtfTracepoint:
            link = bpf_program__attach(pr.btf);
            break;
        case Path::Tracepoint: {
            const QByteArray category = part.function.section(QLatin1Char('/'), 0, 0).toLatin1();
            const QByteArray name = tracepointName(part.function).toLatin1();
            link = bpf_program__attach_tracepoint(pr.tp, category.constData(), name.constData());
            break;
        }
        case Path::Fentry:
            link = bpf_program__attach(pr.fentry);
            break;
        case Path::Kprobe:
            link = bpf_program__attach_kprobe(pr.kprobe, false, target.constData());
            break;
        case Path::None:
            continue;
        }
        if (!link) {
            failed << QStringLiteral("%1 (%2)").arg(part.hook, lastLibbpfError(-errno));
            continue;
        }
        *slot = link;
        attached << part.hook;
    }
    // Without insertions there is no miss count: the probe would only mislead.
    if (!m_skel->links.cachestat_add_btf) {
        *error = QStringLiteral("cannot attach %1").arg(failed.join(QStringLiteral(", ")));
        return false;
    }
    // Kept apart from the link slots: detach() empties those before the last counters are read.
    m_haveAccesses = m_skel->links.cachestat_lookup_btf != nullptr;
    m_haveDirtied = m_skel->links.cachestat_dirty_btf != nullptr;
    setAttachPath(attached.join(QStringLiteral(", ")));
    trackObject(m_skel->obj);
    return true;
}

void CacheStatProbe::doStop()
{
    cachestat_bpf__destroy(m_skel);
    m_skel = nullptr;
}

void CacheStatProbe::doDetach()
{
    if (m_skel)
        cachestat_bpf__detach(m_skel);
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
