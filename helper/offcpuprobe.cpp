#include "helper/offcpuprobe.h"

#include <linux/types.h>

#include "bpf/offcpu.records.h"
#include "helper/stackresolver.h"
#include "offcpu.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <QHash>

#include <cstring>
#include <ctime>

namespace bpflens {

namespace {

// How long a wait is held for its user stack copy after its thread ran again: the copy comes as
// the thread's system call returns, microseconds later unless it is preempted on the way out or
// exits inside the call (then its frame-pointer chain is taken).
constexpr quint64 MaxCopyWaitNs = 1000000000ull;
// Stacks the BPF side let go of are swept at most this often: a sweep walks every stack in the
// map, and a busy machine drops references at every short context switch.
constexpr quint64 SweepIntervalNs = 100000000ull;
// With copies, the ring buffer grows to this: a copy is up to 16 KiB by default, and the 4 MiB
// the engine gives would hold only some 250 of them between two drains.
constexpr quint32 CopyRingBufferBytes = 16u << 20;

bool copiesWanted(const QVariantMap &options)
{
#if defined(__x86_64__)
    return !options.value(QStringLiteral("kernelOnly")).toBool() &&
           options.value(QStringLiteral("stackBytes"), 16384).toLongLong() > 0;
#else
    Q_UNUSED(options);
    return false; // the BPF side copies x86_64's registers only
#endif
}

} // namespace

OffCpuProbe::OffCpuProbe()
    : OffCpuProbe(QStringLiteral("offcpu"), false)
{
}

OffCpuProbe::OffCpuProbe(const QString &id, bool wakers)
    : SkeletonProbe(id)
    , m_wakers(wakers)
{
}

OffCpuProbe::~OffCpuProbe()
{
    stop();
}

AttachPlan OffCpuProbe::plan(const KernelFeatures &kernel, const QVariantMap &options, bool wakers)
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
    if (wakers) {
        // sched_waking, not sched_wakeup: it runs in the waker's context (try_to_wake_up's
        // caller), where sched_wakeup may already run on the wakee's CPU.
        AttachGroup w;
        w.what = QStringLiteral("wakeups");
        if (kernel.hasBtfTracepoint(QStringLiteral("sched_waking")))
            w.programs.append({"offcpu_waking_btf", QStringLiteral("tp_btf/sched_waking")});
        else
            w.programs.append({"offcpu_waking_raw", QStringLiteral("raw_tp/sched_waking")});
        p.groups.append(w);
    }
    if (copiesWanted(options)) {
        AttachGroup exit;
        exit.what = QStringLiteral("user stack copies at system call exit");
        exit.required = false;
        if (kernel.hasBtfTracepoint(QStringLiteral("sys_exit")))
            exit.programs.append({"offcpu_exit_btf", QStringLiteral("tp_btf/sys_exit")});
        else
            exit.programs.append({"offcpu_exit_raw", QStringLiteral("raw_tp/sys_exit")});
        p.groups.append(exit);
    }
    return p;
}

ProbeAvailability OffCpuProbe::availability(const KernelFeatures &kernel,
                                            const QVariantMap &options) const
{
    return availabilityOf(plan(kernel, options, m_wakers));
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
    m_pending.clear();
    m_awaiting.clear();
    m_lastStartFull = 0;
    m_lastSwitchInMissed = 0;
    m_lastWakersFull = 0;
    m_lastWakerCopiesLost = 0;
    m_wakerCopies.clear();
    m_copies = copiesWanted(options);
    if ((m_copies || m_wakers) && ringBufferBytes() < CopyRingBufferBytes)
        setRingBufferBytes(CopyRingBufferBytes);
    const bool started = startSkeleton(
        plan(kernel, options, m_wakers), options, error, [&](CommonFilters &, QString *why) {
            const int cpus = libbpf_num_possible_cpus();
            if (cpus <= 0 ||
                bpf_map__set_max_entries(m_skel->maps.user_stack_scratch, quint32(cpus)) ||
                (m_wakers &&
                 bpf_map__set_max_entries(m_skel->maps.waker_stack_scratch, quint32(cpus)))) {
                *why = QStringLiteral("cannot size the maps: %1").arg(lastLibbpfError(-errno));
                return false;
            }
            auto *ro = m_skel->rodata;
            ro->min_ns = quint64(qMax<qint64>(
                             0, options.value(QStringLiteral("minUs"), 1000).toLongLong())) *
                         1000;
            ro->kernel_only = m_kernelOnly;
            ro->user_only = m_userOnly;
            ro->wakers = m_wakers;
            ro->stack_copy_bytes = quint32(
                qBound(qint64(0), options.value(QStringLiteral("stackBytes"), 16384).toLongLong(),
                       qint64(USER_STACK_MAX_COPY)));
            return true;
        });
    if (!started)
        return false;
    // Waits are promised a copy only once the program that makes it runs.
    m_copies = m_copies && attachPath().contains(QLatin1String("sys_exit"));
    __atomic_store_n(&m_skel->bss->exit_hooked, m_copies, __ATOMIC_SEQ_CST);
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
    m_awaiting.clear();
    m_lastContent.clear();
    m_wakerCopies.clear();
}

bool OffCpuProbe::decode(const void *data, size_t size, RecordBatch &)
{
    __u32 kind = 0;
    if (size < sizeof(kind))
        return false;
    memcpy(&kind, data, sizeof(kind));
    if (kind == OFFCPU_USER_STACK)
        return decodeUserStack(data, size);
    if (kind == OFFCPU_WAKER_STACK)
        return decodeWakerStack(data, size);
    offcpu_event e;
    if (kind != OFFCPU_EVENT || size != sizeof(e))
        return false;
    memcpy(&e, data, sizeof(e));
    if (e.kstack_id >= OFFCPU_STACK_IDS || e.ustack_id >= OFFCPU_STACK_IDS ||
        e.waker_kstack_id >= OFFCPU_STACK_IDS || e.waker_ustack_id >= OFFCPU_STACK_IDS)
        return false;
    Pending p;
    p.event.timeNs = e.time_ns;
    p.event.offNs = e.off_ns;
    p.event.pid = e.pid;
    p.event.cgroupId = e.cgroup_id;
    p.event.tid = e.tid;
    p.event.comm = QByteArray(e.comm, int(qstrnlen(e.comm, sizeof(e.comm))));
    p.kernelId = e.kstack_id;
    p.userId = e.ustack_id;
    p.awaitingCopy = m_copies && (e.flags & OFFCPU_COPY_FOLLOWS);
    p.switchInNs = e.time_ns + e.off_ns;
    if (m_wakers && (e.waker_flags & OFFCPU_WAKER_FOUND)) {
        OffWakeEvent &w = p.wake;
        w.wakeNs = e.wake_ns;
        w.wakerPid = e.waker_pid;
        w.wakerTid = e.waker_tid;
        // (an interrupt's is "[irq]" or "[softirq]" once its kernel stack is read: emitReady)
        w.wakerComm = QByteArray(e.waker_comm, int(qstrnlen(e.waker_comm, sizeof(e.waker_comm))));
        p.wakerKernelId = e.waker_kstack_id;
        p.wakerUserId = e.waker_ustack_id;
        if (e.waker_flags & OFFCPU_WAKER_COPY) {
            // its copy came first in the ring buffer, unless the ring had no room for it
            const auto it = m_wakerCopies.find(e.tid);
            if (it != m_wakerCopies.end() && it->wakeNs == e.wake_ns) {
                p.hasWakerCopy = true;
                p.wakerCopy = std::move(it->sample);
                m_wakerCopies.erase(it);
            }
        }
    }
    if (!m_kernelOnly) {
        // (its stacks are resolved when its span is ready, maybe drains later)
        stackResolver()->capture(p.event.pid);
        if (p.wake.wakerPid)
            stackResolver()->capture(p.wake.wakerPid);
    }
    if (p.awaitingCopy)
        m_awaiting[p.event.tid].append(m_pending.size());
    m_pending.push_back(std::move(p));
    return true;
}

// The copy answers every wait of its thread still waiting: they all blocked in the system call
// that just returned (the BPF side promises a copy per thread, not per wait).
bool OffCpuProbe::decodeUserStack(const void *data, size_t size)
{
    markAuxiliaryRecord();
    offcpu_user_stack c;
    if (size < sizeof(c))
        return false;
    memcpy(&c, data, sizeof(c));
    if (c.stack_size > USER_STACK_MAX_COPY || size != sizeof(c) + c.stack_size)
        return false;
    const auto it = m_awaiting.find(c.tid);
    if (it == m_awaiting.end())
        return true; // its waits went on without it (lost, or waited too long)
    UserSample u;
    if (c.flags & OFFCPU_REGS_VALID) {
        u.tid = c.tid;
        u.regs.valid = true;
        std::copy(std::begin(c.regs), std::end(c.regs), u.regs.dwarf.begin());
        u.stack = QByteArray(static_cast<const char *>(data) + sizeof(c), int(c.stack_size));
    }
    for (size_t i : std::as_const(*it)) {
        Pending &p = m_pending[i];
        p.awaitingCopy = false;
        p.hasCopy = u.regs.valid;
        if (p.hasCopy)
            p.copy = u;
    }
    m_awaiting.erase(it);
    return true;
}

// offwake: a waker's registers and stack at a wakeup, kept for its wakee's event, which follows.
bool OffCpuProbe::decodeWakerStack(const void *data, size_t size)
{
    markAuxiliaryRecord();
    offcpu_waker_stack c;
    if (size < sizeof(c))
        return false;
    memcpy(&c, data, sizeof(c));
    if (c.stack_size > USER_STACK_MAX_COPY || size != sizeof(c) + c.stack_size)
        return false;
    if (!(c.flags & OFFCPU_REGS_VALID))
        return true;
    // One per wakee at a time: a copy whose event was lost is replaced by the wakee's next. The
    // bound holds against copies of wakees whose events never came (the ring had no room).
    if (m_wakerCopies.size() > 4 * 10240)
        m_wakerCopies.clear();
    WakerCopy &w = m_wakerCopies[c.wakee_tid];
    w.wakeNs = c.wake_ns;
    w.sample = UserSample();
    w.sample.regs.valid = true;
    std::copy(std::begin(c.regs), std::end(c.regs), w.sample.regs.dwarf.begin());
    w.sample.stack = QByteArray(static_cast<const char *>(data) + sizeof(c), int(c.stack_size));
    return true;
}

// The addresses of stack id in the stack map fd, or false when it holds no such stack.
static bool readStack(int fd, __u32 id, QList<quint64> *ips)
{
    __u64 buf[OFFCPU_MAX_FRAMES] = {};
    if (bpf_map_lookup_elem(fd, &id, buf) != 0)
        return false;
    ips->clear();
    for (__u64 ip : buf) {
        if (!ip)
            break;
        ips->append(ip);
    }
    return true;
}

QList<quint64> OffCpuProbe::stackIps(qint32 id)
{
    QList<quint64> ips;
    if (id < 0 || !m_skel)
        return ips;
    if (!readStack(bpf_map__fd(m_skel->maps.offcpu_stacks), __u32(id), &ips)) {
        const auto it = m_lastContent.constFind(id);
        if (it != m_lastContent.constEnd())
            return *it;
        ++m_stacksUnread;
        return ips;
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

// Deletes the stacks no one holds any more because the BPF side dropped their last reference
// (see stacks_maybe_unheld in offcpu.bpf.c). Their content is kept in m_lastContent first: a
// thread may take the id again between the check and the delete, as in release().
void OffCpuProbe::sweepUnheldStacks()
{
    const int fd = bpf_map__fd(m_skel->maps.offcpu_stacks);
    std::vector<__u32> unheld;
    __u32 key = 0;
    __u32 next = 0;
    for (const __u32 *prev = nullptr; bpf_map_get_next_key(fd, prev, &next) == 0; prev = &key) {
        key = next;
        if (key < OFFCPU_STACK_IDS &&
            __atomic_load_n(&m_skel->bss->stack_refs[key], __ATOMIC_SEQ_CST) <= 0)
            unheld.push_back(key);
    }
    for (__u32 id : unheld) {
        QList<quint64> ips;
        if (!readStack(fd, id, &ips))
            continue;
        m_lastContent.insert(qint32(id), ips);
        if (__atomic_load_n(&m_skel->bss->stack_refs[id], __ATOMIC_SEQ_CST) <= 0)
            bpf_map_delete_elem(fd, &id);
    }
}

void OffCpuProbe::finishDrain(RecordBatch &out)
{
    if (m_skel && __atomic_load_n(&m_skel->bss->stacks_maybe_unheld, __ATOMIC_RELAXED)) {
        const quint64 now = monotonicNs();
        if (now >= m_lastSweepNs + SweepIntervalNs) {
            // cleared before the walk: a reference dropped during it sets it again
            __atomic_store_n(&m_skel->bss->stacks_maybe_unheld, 0, __ATOMIC_SEQ_CST);
            sweepUnheldStacks();
            m_lastSweepNs = now;
        }
    }
    if (m_pending.empty())
        return;
    // Each stack id is read once per drain, before any reference is dropped.
    QHash<qint32, QList<quint64>> ips;
    for (const Pending &p : m_pending) {
        if (p.stacksRead)
            continue;
        for (qint32 id : {p.kernelId, p.userId, p.wakerKernelId, p.wakerUserId}) {
            if (id >= 0 && !ips.contains(id))
                ips.insert(id, stackIps(id));
        }
    }
    for (Pending &p : m_pending) {
        if (p.stacksRead)
            continue;
        p.kernelIps = ips.value(p.kernelId);
        p.userIps = ips.value(p.userId);
        p.wakerKernelIps = ips.value(p.wakerKernelId);
        p.wakerUserIps = ips.value(p.wakerUserId);
        p.stacksRead = true;
        release(p.kernelId);
        release(p.userId);
        release(p.wakerKernelId);
        release(p.wakerUserId);
    }
    emitReady(out);
}

// The session's stack for one side of a span (the blocked thread's, or its waker's): kernel
// frames, then user frames from the unwinder's answer (resolved, null when there were no user
// frame pointers to give it), or the frame-pointer chain unsymbolised.
quint32 OffCpuProbe::stackOf(const QList<quint64> &kernelIps, const QList<quint64> &userIps,
                             bool hasCopy, bool userAsked, const SymbolizedStack *resolved)
{
    StackResolver *r = stackResolver();
    QList<quint32> frames;
    quint8 flags = 0;
    for (quint64 ip : kernelIps) {
        const quint32 f = r->kernelFrame(ip, true);
        // The stack was taken inside the tracepoint: its first frames are this program and
        // the kernel's code that ran it, not where the thread blocked (or woke the other).
        if (frames.isEmpty() && StackResolver::isTracingFrame(r->table().frame(f)))
            continue;
        frames.append(f);
    }
    if (kernelIps.size() >= OFFCPU_MAX_FRAMES)
        flags |= KernelStackTruncated;
    // (resolved from a copy also where the frame-pointer chain is missing: its stack id lost to
    // the map, a bucket another stack held, while the copy came)
    if (resolved && !resolved->frames.isEmpty()) {
        for (const SymbolizedFrame &f : resolved->frames)
            frames.append(r->userFrame(f));
        if (resolved->truncated)
            flags |= UserStackTruncated;
        // a chain alone is frame pointers however the unwinder read it
        if (resolved->usedFramePointers || !hasCopy)
            flags |= UserFramePointers;
        if (!hasCopy && userIps.size() >= OFFCPU_MAX_FRAMES)
            flags |= UserStackTruncated;
    } else if (userIps.isEmpty()) {
        if (userAsked)
            flags |= NoUserStack;
    } else {
        for (quint64 ip : userIps)
            frames.append(r->unknownUserFrame(ip));
        flags |= UserFramePointers;
        if (userIps.size() >= OFFCPU_MAX_FRAMES)
            flags |= UserStackTruncated;
    }
    return frames.isEmpty() && !flags ? 0 : r->stack(flags, frames);
}

// Appends every wait not waiting for its copy any more; after the detach no copy comes, so all.
void OffCpuProbe::emitReady(RecordBatch &out)
{
    const bool last = !isAttached();
    const quint64 now = monotonicNs();
    std::vector<Pending> ready;
    std::vector<Pending> held;
    for (Pending &p : m_pending) {
        if (p.awaitingCopy && !last && now < p.switchInNs + MaxCopyWaitNs)
            held.push_back(std::move(p));
        else
            ready.push_back(std::move(p));
    }
    m_pending = std::move(held);
    m_awaiting.clear();
    for (size_t i = 0; i < m_pending.size(); ++i)
        m_awaiting[m_pending[i].event.tid].append(i);
    if (ready.empty())
        return;

    StackResolver *r = stackResolver();
    QList<UserSample> users;
    // Each span's index in users for its own user stack and for its waker's; -1: none.
    QList<qsizetype> userIndex;
    QList<qsizetype> wakerIndex;
    auto addUser = [&](const QList<quint64> &ips, bool hasCopy, const UserSample &copy, quint32 pid,
                       quint32 tid) -> qsizetype {
        // (a copy alone still unwinds: a waker's is taken whether or not its chain's id was)
        if (ips.isEmpty() && !hasCopy)
            return -1;
        UserSample u;
        if (hasCopy) {
            u = copy;
        } else {
            // Without a copy the registers are the chain's first address and nothing else: the
            // unwinder finds no stack to unwind with CFI and takes the chain.
            u.regs.valid = true;
            u.regs.dwarf[16] = ips.first();
        }
        u.pid = pid;
        u.tid = tid;
        u.framePointerIps = ips;
        users.append(std::move(u));
        return users.size() - 1;
    };
    for (Pending &p : ready) {
        if (m_wakers && !p.wake.wakerComm.isEmpty()) {
            using WakeContext = StackResolver::WakeContext;
            const WakeContext c = stackResolver()->wakeContext(p.wakerKernelIps);
            if (c != WakeContext::Task) {
                // the task it interrupted is not the waker: none of its user stack (and without
                // the kernel stack, lost to a full stack map, the current task may be such a
                // one: not named the waker)
                p.wake.wakerComm = c == WakeContext::HardIrq   ? QByteArrayLiteral("[irq]")
                                   : c == WakeContext::SoftIrq ? QByteArrayLiteral("[softirq]")
                                                               : QByteArrayLiteral("[unknown]");
                p.wake.wakerPid = 0;
                p.wake.wakerTid = 0;
                p.wakerUserIps.clear();
                p.hasWakerCopy = false;
            }
            // its kernel stack was taken to tell an interrupt, not to be kept
            if (m_userOnly)
                p.wakerKernelIps.clear();
        }
        userIndex.append(addUser(p.userIps, p.hasCopy, p.copy, p.event.pid, p.event.tid));
        wakerIndex.append(m_wakers ? addUser(p.wakerUserIps, p.hasWakerCopy, p.wakerCopy,
                                             p.wake.wakerPid, p.wake.wakerTid)
                                   : -1);
    }
    const QList<SymbolizedStack> resolved =
        users.isEmpty() ? QList<SymbolizedStack>() : r->resolve(users);
    auto resolvedAt = [&](qsizetype i) -> const SymbolizedStack * {
        return i >= 0 && i < resolved.size() ? &resolved[i] : nullptr;
    };
    const bool userAsked = !m_userOnly || m_kernelOnly;

    for (size_t i = 0; i < ready.size(); ++i) {
        Pending &p = ready[i];
        p.event.stackId = stackOf(p.kernelIps, p.userIps, p.hasCopy, userAsked,
                                  resolvedAt(userIndex[qsizetype(i)]));
        if (!m_wakers) {
            out.events<OffCpuEvent>().append(std::move(p.event));
            continue;
        }
        OffWakeEvent &w = p.wake;
        w.timeNs = p.event.timeNs;
        w.offNs = p.event.offNs;
        w.pid = p.event.pid;
        w.tid = p.event.tid;
        w.stackId = p.event.stackId;
        w.comm = std::move(p.event.comm);
        w.cgroupId = p.event.cgroupId;
        // (an interrupt's stack has no user part: NoUserStack, as a kernel thread's)
        if (!w.wakerComm.isEmpty())
            w.wakerStackId = stackOf(p.wakerKernelIps, p.wakerUserIps, p.hasWakerCopy, userAsked,
                                     resolvedAt(wakerIndex[qsizetype(i)]));
        out.events<OffWakeEvent>().append(std::move(w));
    }
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
    if (!m_wakers)
        return;
    const quint64 wakersFull = __atomic_load_n(&m_skel->bss->wakers_full, __ATOMIC_RELAXED);
    const quint64 copiesLost = __atomic_load_n(&m_skel->bss->waker_copies_lost, __ATOMIC_RELAXED);
    if (wakersFull > m_lastWakersFull)
        emitCounter(wakersLostCounter(), double(wakersFull - m_lastWakersFull));
    if (copiesLost > m_lastWakerCopiesLost)
        emitCounter(wakerCopiesLostCounter(), double(copiesLost - m_lastWakerCopiesLost));
    m_lastWakersFull = wakersFull;
    m_lastWakerCopiesLost = copiesLost;
}

} // namespace bpflens
