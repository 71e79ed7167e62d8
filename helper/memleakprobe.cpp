#include "helper/memleakprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "bpf/memleak.records.h"
#include "memleak.skel.h"

#include "helper/probehooks.h"
#include "helper/stackresolver.h"
#include "helper/uprobefile.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cstring>
#include <ctime>

namespace bpflens {

namespace {

using E = AllocationEvent;

// A process allocating in a burst comes faster than one drain takes with the symbolizer: room
// for some 500 records with the default 16 KiB stack copy, never less than the engine asked.
// bench/memleak-cost.py's burst of 200000 (38000 a second) kept every one with it; 32 MiB,
// mapped twice by the kernel, made 64 of the recorder's 105 MiB (docs/performance.md).
constexpr quint64 WantedRingBytes = 8u << 20;

// The allocator's functions in the record's order (memleak_func), then those that free.
constexpr const char *AllocFunctions[MEMLEAK_KMALLOC] = {
    "malloc",        "calloc",   "realloc", "reallocarray", "posix_memalign",
    "aligned_alloc", "memalign", "valloc",  "pvalloc",      "mmap"};
// The kernel's, with no process given: each tracepoint with its program; the _node ones only
// before 6.2, where they were tracepoints of their own.
constexpr std::pair<const char *, const char *> KernelTracepoints[] = {
    {"kmem/kmalloc", "memleak_kmalloc"},
    {"kmem/kmem_cache_alloc", "memleak_kmem_cache_alloc"},
    {"kmem/kmalloc_node", "memleak_kmalloc_node"},
    {"kmem/kmem_cache_alloc_node", "memleak_kmem_cache_alloc_node"},
    {"kmem/mm_page_alloc", "memleak_page_alloc"},
    {"kmem/kfree", "memleak_kfree"},
    {"kmem/kmem_cache_free", "memleak_kmem_cache_free"},
    {"kmem/mm_page_free", "memleak_page_free"},
};
constexpr const char *FreeFunctions[] = {"free", "munmap"};

struct BlockKey
{
    __u32 pid;
    __u32 pad;
    __u64 addr;
};

// "malloc=4096,free=8192": the offsets the caller resolved (client/allocatortarget.h).
bool parseFunctions(const QString &text, QHash<QString, quint64> *out, QString *why)
{
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qsizetype eq = part.indexOf(QLatin1Char('='));
        bool ok = false;
        const quint64 offset = eq > 0 ? part.mid(eq + 1).toULongLong(&ok) : 0;
        const QString name = part.left(eq);
        bool known = false;
        for (const char *f : AllocFunctions)
            known = known || name == QLatin1String(f);
        for (const char *f : FreeFunctions)
            known = known || name == QLatin1String(f);
        if (!ok || !known || out->contains(name)) {
            *why = QStringLiteral("option functions: '%1' is not FUNCTION=OFFSET of an allocator "
                                  "function named once")
                       .arg(part.left(64));
            return false;
        }
        out->insert(name, offset);
    }
    if (!out->contains(QStringLiteral("malloc")) || !out->contains(QStringLiteral("free"))) {
        *why = QStringLiteral("option functions: no malloc and free (the caller resolves the "
                              "allocator: client/allocatortarget.h)");
        return false;
    }
    return true;
}

} // namespace

MemleakProbe::MemleakProbe()
    : SkeletonProbe(QStringLiteral("memleak"))
{
}

MemleakProbe::~MemleakProbe()
{
    stop();
}

AttachPlan MemleakProbe::attachPlan(const KernelFeatures &kernel, const QVariantMap &options,
                                    QString *why) const
{
    AttachPlan a;
    if (!kernel.hasBtf()) {
        a.available = false;
        a.reason = kernel.btfError();
        return a;
    }
    const QString exitTp = QStringLiteral("sched_process_exit");
    AttachGroup g;
    g.what = QStringLiteral("allocations");
    // The returns and the exit first: an entry alone would only fill the call map.
    g.endFirst = true;
    if (!takesUserFile(options)) {
        // The kernel's allocations, machine-wide: the frees (last in the list) attached before
        // the allocations (endFirst), so no block recorded misses its free.
        for (const auto &[tp, program] : KernelTracepoints) {
            if (kernel.hasTracepoint(QLatin1String(tp)))
                g.programs.append({program, QStringLiteral("tp/") + QLatin1String(tp), true});
        }
        if (g.programs.size() < 2) {
            a.available = false;
            a.reason = QStringLiteral("no kmem tracepoints (kmem/kmalloc, kmem/kfree) in tracefs");
            return a;
        }
        a.groups.append(g);
        return a;
    }
    if (!kernel.hasUprobes()) {
        a.available = false;
        a.reason = noUprobesReason();
        return a;
    }
    QHash<QString, quint64> offsets;
    const QString given = options.value(QStringLiteral("functions")).toString();
    if (given.isEmpty()) {
        // Asked with a process before the caller resolved its allocator: what would attach.
        g.programs.append({"memleak_malloc", QStringLiteral("uprobe/malloc ... munmap"), true});
        a.groups.append(g);
        return a;
    }
    if (!parseFunctions(given, &offsets, why)) {
        a.available = false;
        a.reason = *why;
        return a;
    }
    const int pid = int(options.value(QStringLiteral("pid")).toLongLong());
    const QString shown = options.value(QStringLiteral("allocator")).toString();
    for (const char *f : AllocFunctions) {
        const auto it = offsets.constFind(QLatin1String(f));
        if (it == offsets.cend())
            continue;
        g.programs.append({QByteArray("memleak_") + f,
                           QStringLiteral("uprobe/%1:%2").arg(shown, QLatin1String(f)), true,
                           m_fdPath, *it, pid > 0 ? pid : -1});
    }
    for (const char *f : FreeFunctions) {
        const auto it = offsets.constFind(QLatin1String(f));
        if (it == offsets.cend())
            continue;
        g.programs.append({QByteArray("memleak_") + f,
                           QStringLiteral("uprobe/%1:%2").arg(shown, QLatin1String(f)), true,
                           m_fdPath, *it, pid > 0 ? pid : -1});
    }
    for (const char *f : AllocFunctions) {
        const auto it = offsets.constFind(QLatin1String(f));
        if (it == offsets.cend())
            continue;
        g.programs.append({"memleak_return",
                           QStringLiteral("uretprobe/%1:%2").arg(shown, QLatin1String(f)), true,
                           m_fdPath, *it, pid > 0 ? pid : -1});
    }
    if (kernel.hasBtfTracepoint(exitTp))
        g.programs.append({"memleak_exit_btf", QStringLiteral("tp_btf/") + exitTp});
    else
        g.programs.append({"memleak_exit_raw", QStringLiteral("raw_tp/") + exitTp});
    a.groups.append(g);
    return a;
}

ProbeAvailability MemleakProbe::availability(const KernelFeatures &kernel,
                                             const QVariantMap &options) const
{
    QString why;
    return availabilityOf(attachPlan(kernel, options, &why));
}

bool MemleakProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    if (!stackResolver()) {
        *error = QStringLiteral("no stack table (the probe runs in an Engine)");
        return false;
    }
    const bool user = takesUserFile(options);
    QString why;
    if (user) {
        if (!userFile().isValid()) {
            *error = QStringLiteral("no allocator to attach to: the caller resolves it and hands "
                                    "its file over (client/allocatortarget.h)");
            return false;
        }
        QHash<QString, quint64> offsets;
        if (!parseFunctions(options.value(QStringLiteral("functions")).toString(), &offsets,
                            &why)) {
            *error = why;
            return false;
        }
        // The helper never trusts the caller's offsets: each must lie in the file's code.
        for (auto it = offsets.cbegin(); it != offsets.cend(); ++it) {
            if (!checkUprobeFile(userFile().get(), *it, &why)) {
                *error = QStringLiteral("%1: %2").arg(it.key(), why);
                return false;
            }
        }
        m_fdPath = QByteArray("/proc/self/fd/") + QByteArray::number(userFile().get());
    }
    m_weight = quint32(qBound(
        qint64(1), options.value(QStringLiteral("sampleEvery"), 1).toLongLong(), qint64(1000000)));
    const quint32 stackBytes =
        quint32(qBound(qint64(0), options.value(QStringLiteral("stackBytes"), 16384).toLongLong(),
                       qint64(USER_STACK_MAX_COPY)));
    const quint32 maxBlocks = quint32(
        qBound(qint64(1024), options.value(QStringLiteral("maxBlocks"), 1 << 20).toLongLong(),
               qint64(1) << 24));
    quint64 bytes = ringBufferBytes();
    while (bytes < WantedRingBytes)
        bytes *= 2;
    setRingBufferBytes(quint32(bytes));
    m_flushed = false;
    m_stopNs = 0;
    m_freesUnseen = m_lastFreesUnseen = m_lastBlocksFull = m_lastCallsFull = 0;

    const AttachPlan plan = attachPlan(kernel, options, &why);
    const bool ok = startSkeleton(plan, options, error, [&](CommonFilters &f, QString *err) {
        const int cpus = libbpf_num_possible_cpus();
        if (cpus <= 0 || bpf_map__set_max_entries(m_skel->maps.memleak_scratch, quint32(cpus)) ||
            bpf_map__set_max_entries(m_skel->maps.memleak_blocks, maxBlocks)) {
            *err = QStringLiteral("cannot size the maps: %1").arg(lastLibbpfError(-errno));
            return false;
        }
        m_skel->rodata->sample_every = m_weight;
        m_skel->rodata->stack_copy_bytes = stackBytes;
        // Machine-wide, the recorder's own allocations (its buffers, the session file's pages)
        // would record themselves.
        m_skel->rodata->recorder_tgid = f.tid ? 0 : quint32(getpid());
        return true;
    });
    // Attached to the inode now: the descriptor is not needed any more.
    releaseUserFile();
    if (!ok)
        return false;
    stackResolver()->loadKernelSymbols();
    if (user && !stackResolver()->startSymbolizer(&why))
        setAttachPath(
            attachPath() +
            QStringLiteral(" (user stacks by frame pointers, unsymbolised: %1)").arg(why));
    return true;
}

void MemleakProbe::doDetach()
{
    m_stopNs = monotonicNs();
    SkeletonProbe::doDetach();
}

void MemleakProbe::doStop()
{
    SkeletonProbe::doStop();
    m_slots.clear();
    m_freeSlots.clear();
    m_blocks.clear();
    m_unresolved.clear();
    m_ended.clear();
    m_stacks.clear();
}

void MemleakProbe::endBlock(qsizetype slot, quint64 end, quint8 how)
{
    E &e = m_slots[size_t(slot)];
    e.durNs = end > e.timeNs ? end - e.timeNs : 0;
    e.end = how;
    m_ended.push_back(slot);
}

void MemleakProbe::forgetInKernel(quint32 pid, quint64 address)
{
    if (!m_skel)
        return;
    BlockKey key{pid, 0, address};
    bpf_map_delete_elem(bpf_map__fd(m_skel->maps.memleak_blocks), &key);
}

bool MemleakProbe::decode(const void *data, size_t size, RecordBatch &)
{
    __u32 kind = 0;
    if (size < sizeof(kind))
        return false;
    memcpy(&kind, data, sizeof(kind));
    if (kind == MEMLEAK_REC_FREE || kind == MEMLEAK_REC_EXIT) {
        memleak_free f;
        if (size != sizeof(f))
            return false;
        memcpy(&f, data, sizeof(f));
        markAuxiliaryRecord();
        if (kind == MEMLEAK_REC_FREE) {
            const auto it = m_blocks.constFind({f.pid, f.addr});
            if (it != m_blocks.cend()) {
                endBlock(*it, f.time_ns, E::Freed);
                m_blocks.erase(it);
            }
            return true;
        }
        // The process is gone: its blocks end with it, and leave the kernel's table.
        for (auto it = m_blocks.begin(); it != m_blocks.end();) {
            if (it.key().first == f.pid) {
                endBlock(*it, f.time_ns, E::Exited);
                forgetInKernel(f.pid, it.key().second);
                it = m_blocks.erase(it);
            } else {
                ++it;
            }
        }
        return true;
    }
    memleak_alloc a;
    if (kind != MEMLEAK_REC_ALLOC || size < sizeof(a))
        return false;
    memcpy(&a, data, sizeof(a));
    if (a.ustack_len > SAMPLE_MAX_FRAMES || a.kstack_len > SAMPLE_MAX_FRAMES ||
        a.stack_size > USER_STACK_MAX_COPY ||
        size != sizeof(a) + a.stack_size + (size_t(a.kstack_len) + a.ustack_len) * 8 ||
        a.func >= MEMLEAK_FUNCS)
        return false;
    sample_stacks st;
    st.flags = a.flags;
    st.kstack_len = a.kstack_len;
    st.ustack_len = a.ustack_len;
    st.stack_size = a.stack_size;
    st.reserved = 0;
    memcpy(st.regs, a.regs, sizeof(st.regs));
    if (!m_stacks.addPacked(stackResolver(), a.pid, a.tid, st,
                            static_cast<const char *>(data) + sizeof(a)))
        return false;
    // A kernel block is the kernel's, whoever allocated it: keyed by pid 0, as its free is.
    const QPair<quint32, quint64> key{a.func >= MEMLEAK_KMALLOC ? 0u : a.pid, a.addr};
    if (const auto it = m_blocks.constFind(key); it != m_blocks.cend()) {
        // The address came back without its free being seen (a free the probe missed): the
        // old block ended by this time at the latest.
        endBlock(*it, a.time_ns, E::Freed);
        ++m_freesUnseen;
    }
    qsizetype slot;
    if (!m_freeSlots.empty()) {
        slot = m_freeSlots.back();
        m_freeSlots.pop_back();
    } else {
        slot = qsizetype(m_slots.size());
        m_slots.emplace_back();
    }
    E &e = m_slots[size_t(slot)];
    e = E();
    e.timeNs = a.time_ns;
    e.pid = a.pid;
    e.tid = a.tid;
    e.comm = QByteArray(a.comm, int(qstrnlen(a.comm, sizeof(a.comm))));
    e.function = a.func;
    e.end = E::Outstanding;
    e.size = a.size;
    e.address = a.addr;
    e.weight = m_weight;
    e.cgroupId = a.cgroup_id;
    m_blocks.insert(key, slot);
    m_unresolved.push_back(slot);
    return true;
}

void MemleakProbe::finishDrain(RecordBatch &out)
{
    if (!m_unresolved.empty()) {
        const QList<quint32> ids = m_stacks.resolve(stackResolver());
        for (size_t i = 0; i < m_unresolved.size(); ++i)
            m_slots[size_t(m_unresolved[i])].stackId =
                i < size_t(ids.size()) ? ids[qsizetype(i)] : 0;
        m_unresolved.clear();
    }
    if (!isAttached() && !m_flushed) {
        // The recording ends: what is still allocated is outstanding, up to here.
        m_flushed = true;
        const quint64 end = m_stopNs ? m_stopNs : monotonicNs();
        for (auto it = m_blocks.cbegin(); it != m_blocks.cend(); ++it)
            endBlock(*it, qMax(end, m_slots[size_t(*it)].timeNs), E::Outstanding);
        m_blocks.clear();
    }
    auto &events = out.events<E>();
    for (const qsizetype slot : m_ended) {
        events.append(std::move(m_slots[size_t(slot)]));
        m_freeSlots.push_back(slot);
    }
    m_ended.clear();
}

void MemleakProbe::readCounters()
{
    if (!m_skel)
        return;
    emitIncrease(blocksFullCounter(), __atomic_load_n(&m_skel->bss->blocks_full, __ATOMIC_RELAXED),
                 &m_lastBlocksFull);
    emitIncrease(callsFullCounter(), __atomic_load_n(&m_skel->bss->calls_full, __ATOMIC_RELAXED),
                 &m_lastCallsFull);
    emitIncrease(freesUnseenCounter(), m_freesUnseen, &m_lastFreesUnseen);
}

} // namespace bpflens
