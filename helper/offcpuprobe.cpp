#include "offcpuprobe.h"

#include <linux/types.h>

#include "offcpu.h"
#include "offcpu.skel.h"
#include "stackresolver.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <QHash>

#include <cstring>

namespace bpflens {

OffCpuProbe::OffCpuProbe()
    : SkeletonProbe(QStringLiteral("offcpu"))
{
}

OffCpuProbe::~OffCpuProbe()
{
    stop();
}

AttachPlan OffCpuProbe::plan(const KernelFeatures &kernel)
{
    AttachPlan p;
    if (!kernel.hasBtf()) {
        p.available = false;
        p.reason = kernel.btfError();
        return p;
    }
    AttachGroup g;
    g.what = QStringLiteral("off-CPU time");
    // The BTF tracepoint reads the tasks directly; the raw one (4.17+) through probe reads.
    if (kernel.hasBtfTracepoint(QStringLiteral("sched_switch")))
        g.programs.append({"offcpu_switch_btf", QStringLiteral("tp_btf/sched_switch")});
    else
        g.programs.append({"offcpu_switch_raw", QStringLiteral("raw_tp/sched_switch")});
    p.groups.append(g);
    return p;
}

ProbeAvailability OffCpuProbe::availability(const KernelFeatures &kernel, const QVariantMap &) const
{
    return availabilityOf(plan(kernel));
}

bool OffCpuProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    if (!stackResolver()) {
        *error = QStringLiteral("no stack table (the probe runs in an Engine)");
        return false;
    }
    m_kernelOnly = options.value(QStringLiteral("kernelOnly")).toBool();
    m_userOnly = options.value(QStringLiteral("userOnly")).toBool();
    if (m_kernelOnly && m_userOnly) {
        *error = QStringLiteral("kernelOnly and userOnly exclude each other");
        return false;
    }
    m_lastStacksFailed = 0;
    m_stacksUnread = 0;
    m_lastContent.clear();
    m_lastStartFull = 0;
    m_lastSwitchInMissed = 0;
    const bool started =
        startSkeleton(plan(kernel), options, error, [&](CommonFilters &, QString *) {
            auto *ro = m_skel->rodata;
            ro->min_ns = quint64(qMax<qint64>(
                             0, options.value(QStringLiteral("minUs"), 1000).toLongLong())) *
                         1000;
            ro->kernel_only = m_kernelOnly;
            ro->user_only = m_userOnly;
            return true;
        });
    if (!started)
        return false;
    if (!m_userOnly)
        stackResolver()->loadKernelSymbols();
    QString why;
    if (!m_kernelOnly && !stackResolver()->startSymbolizer(&why))
        setAttachPath(attachPath() + QStringLiteral(" (user stacks unsymbolised: %1)").arg(why));
    return true;
}

void OffCpuProbe::doStop()
{
    SkeletonProbe::doStop();
    m_pending.clear();
    m_lastContent.clear();
}

bool OffCpuProbe::decode(const void *data, size_t size, RecordBatch &)
{
    offcpu_event e;
    if (size != sizeof(e))
        return false;
    memcpy(&e, data, sizeof(e));
    if (e.kstack_id >= OFFCPU_STACK_IDS || e.ustack_id >= OFFCPU_STACK_IDS)
        return false;
    Pending p;
    p.event.timeNs = e.time_ns;
    p.event.offNs = e.off_ns;
    p.event.pid = e.pid;
    p.event.tid = e.tid;
    p.event.comm = QByteArray(e.comm, int(qstrnlen(e.comm, sizeof(e.comm))));
    p.kernelId = e.kstack_id;
    p.userId = e.ustack_id;
    m_pending.push_back(std::move(p));
    return true;
}

QList<quint64> OffCpuProbe::stackIps(qint32 id)
{
    QList<quint64> ips;
    if (id < 0 || !m_skel)
        return ips;
    __u64 buf[OFFCPU_MAX_FRAMES] = {};
    const __u32 key = __u32(id);
    if (bpf_map_lookup_elem(bpf_map__fd(m_skel->maps.offcpu_stacks), &key, buf) != 0) {
        const auto it = m_lastContent.constFind(id);
        if (it != m_lastContent.constEnd())
            return *it;
        ++m_stacksUnread;
        return ips;
    }
    for (__u64 ip : buf) {
        if (!ip)
            break;
        ips.append(ip);
    }
    m_lastContent.insert(id, ips);
    return ips;
}

// Drops an event's reference to a stack id, and deletes the stack when it was the last one: the
// BPF side counts a reference for each thread off the CPU with the id and each event not yet
// read, so the id cannot be in use elsewhere. A thread switching out with the same stack between
// the decrement and the delete holds an id whose stack is gone: stackIps() answers it from
// m_lastContent (on one CPU this window is wide: the woken thread preempts the helper).
void OffCpuProbe::release(qint32 id)
{
    if (id < 0 || !m_skel)
        return;
    qint64 *ref = reinterpret_cast<qint64 *>(&m_skel->bss->stack_refs[id & (OFFCPU_STACK_IDS - 1)]);
    if (__atomic_sub_fetch(ref, 1, __ATOMIC_SEQ_CST) <= 0) {
        const __u32 key = __u32(id);
        bpf_map_delete_elem(bpf_map__fd(m_skel->maps.offcpu_stacks), &key);
    }
}

void OffCpuProbe::finishDrain(RecordBatch &out)
{
    if (m_pending.empty())
        return;
    StackResolver *r = stackResolver();
    // Each stack id is read once per drain, before any reference is dropped.
    QHash<qint32, QList<quint64>> ips;
    for (const Pending &p : m_pending) {
        for (qint32 id : {p.kernelId, p.userId}) {
            if (id >= 0 && !ips.contains(id))
                ips.insert(id, stackIps(id));
        }
    }
    // The user chains go to the symbolizer as frame pointers only (no registers, no stack copy).
    QList<UserSample> users;
    QList<qsizetype> userIndex;
    for (const Pending &p : m_pending) {
        const QList<quint64> chain = ips.value(p.userId);
        if (chain.isEmpty()) {
            userIndex.append(-1);
            continue;
        }
        // The registers are the chain's first address and nothing else: the unwinder finds no
        // stack to unwind with CFI and takes the chain.
        UserSample u;
        u.pid = p.event.pid;
        u.tid = p.event.tid;
        u.regs.valid = true;
        u.regs.dwarf[16] = chain.first();
        u.framePointerIps = chain;
        userIndex.append(users.size());
        users.append(std::move(u));
    }
    const QList<SymbolizedStack> resolved = r->resolve(users);

    auto &events = out.events<OffCpuEvent>();
    for (size_t i = 0; i < m_pending.size(); ++i) {
        Pending &p = m_pending[i];
        QList<quint32> frames;
        quint8 flags = 0;
        const QList<quint64> kernel = ips.value(p.kernelId);
        for (quint64 ip : kernel) {
            const quint32 f = r->kernelFrame(ip, true);
            // The stack was taken inside the tracepoint: its first frames are this program and
            // the kernel's code that ran it, not where the thread blocked.
            if (frames.isEmpty() && StackResolver::isTracingFrame(r->table().frame(f)))
                continue;
            frames.append(f);
        }
        if (kernel.size() >= OFFCPU_MAX_FRAMES)
            flags |= KernelStackTruncated;
        const qsizetype u = userIndex[qsizetype(i)];
        if (u < 0) {
            if (!m_userOnly || m_kernelOnly)
                flags |= NoUserStack;
        } else {
            flags |= UserFramePointers;
            const QList<quint64> &chain = users[u].framePointerIps;
            if (u < resolved.size() && !resolved[u].frames.isEmpty()) {
                for (const SymbolizedFrame &f : resolved[u].frames)
                    frames.append(r->userFrame(f));
                if (resolved[u].truncated)
                    flags |= UserStackTruncated;
            } else {
                for (quint64 ip : chain)
                    frames.append(r->unknownUserFrame(ip));
            }
            if (chain.size() >= OFFCPU_MAX_FRAMES)
                flags |= UserStackTruncated;
        }
        p.event.stackId = frames.isEmpty() && !flags ? 0 : r->stack(flags, frames);
        events.append(std::move(p.event));
    }
    for (const Pending &p : m_pending) {
        release(p.kernelId);
        release(p.userId);
    }
    m_pending.clear();
}

void OffCpuProbe::readCounters()
{
    if (!m_skel)
        return;
    const quint64 failed =
        __atomic_load_n(&m_skel->bss->stacks_failed, __ATOMIC_RELAXED) + m_stacksUnread;
    const quint64 full = __atomic_load_n(&m_skel->bss->start_full, __ATOMIC_RELAXED);
    const quint64 missed = __atomic_load_n(&m_skel->bss->switch_in_missed, __ATOMIC_RELAXED);
    if (missed > m_lastSwitchInMissed)
        emitCounter(switchInsMissedCounter(), double(missed - m_lastSwitchInMissed));
    m_lastSwitchInMissed = missed;
    if (failed > m_lastStacksFailed)
        emitCounter(stacksLostCounter(), double(failed - m_lastStacksFailed));
    if (full > m_lastStartFull)
        emitCounter(threadsLostCounter(), double(full - m_lastStartFull));
    m_lastStacksFailed = failed;
    m_lastStartFull = full;
}

} // namespace bpflens
