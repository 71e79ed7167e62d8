#include "helper/threadstateprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "bpf/threadstate.records.h"
#include "helper/stackresolver.h"
#include "threadstate.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cstring>
#include <ctime>

namespace bpflens {

namespace {

using E = ThreadStateEvent;

// The kernel's task state bits (include/linux/sched.h), as sched_switch sees prev's.
constexpr quint32 TaskInterruptible = 0x1;
constexpr quint32 TaskUninterruptible = 0x2;
constexpr quint32 TaskStopped = 0x4;
constexpr quint32 TaskTraced = 0x8;
constexpr quint32 ExitDead = 0x10;
constexpr quint32 ExitZombie = 0x20;
constexpr quint32 TaskDead = 0x80;
constexpr quint32 TaskWaking = 0x200;
constexpr quint32 TaskNoload = 0x400;

QByteArray commOf(const char (&comm)[BPFLENS_COMM_LEN])
{
    return QByteArray(comm, int(qstrnlen(comm, BPFLENS_COMM_LEN)));
}

// The state a switched-out thread enters from its state bits; 0 for one that exits.
quint8 stateAfterSwitch(quint32 bits)
{
    if (bits & (TaskDead | ExitDead | ExitZombie))
        return 0;
    if (bits == 0 || (bits & TaskWaking))
        return E::Runnable;
    if (bits & TaskUninterruptible)
        return (bits & TaskNoload) ? E::Sleeping : E::Uninterruptible;
    if (bits & TaskInterruptible)
        return E::Sleeping;
    if (bits & (TaskStopped | TaskTraced))
        return E::Stopped;
    return E::Sleeping;
}

} // namespace

ThreadStateProbe::ThreadStateProbe()
    : SkeletonProbe(QStringLiteral("threadstate"))
{
}

ThreadStateProbe::~ThreadStateProbe()
{
    stop();
}

AttachPlan ThreadStateProbe::plan(const KernelFeatures &kernel)
{
    AttachPlan p;
    if (!kernel.hasBtf()) {
        p.available = false;
        p.reason = kernel.btfError();
        return p;
    }
    // All three or nothing: without the wakeups no blocked span ends, without the switches no
    // span does. The BTF tracepoint reads the tasks directly, the raw one (4.17+) through
    // probe reads.
    AttachGroup g;
    g.what = QStringLiteral("thread states");
    for (const char *name : {"sched_switch", "sched_waking", "sched_wakeup_new"}) {
        const QByteArray program =
            QByteArray("threadstate_") + (qstrcmp(name, "sched_switch") == 0   ? "switch"
                                          : qstrcmp(name, "sched_waking") == 0 ? "waking"
                                                                               : "new");
        if (kernel.hasBtfTracepoint(QLatin1String(name)))
            g.programs.append({program + "_btf", QStringLiteral("tp_btf/") + QLatin1String(name)});
        else
            g.programs.append({program + "_raw", QStringLiteral("raw_tp/") + QLatin1String(name)});
    }
    p.groups.append(g);
    return p;
}

ProbeAvailability ThreadStateProbe::availability(const KernelFeatures &kernel,
                                                 const QVariantMap &) const
{
    return availabilityOf(plan(kernel));
}

bool ThreadStateProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel,
                               QString *error)
{
    if (!stackResolver()) {
        *error = QStringLiteral("no stack table (the probe runs in an Engine)");
        return false;
    }
    m_threads.clear();
    m_cpuCurrent.clear();
    m_stacks = !options.value(QStringLiteral("noStacks")).toBool();
    m_assumeFromStart = true;
    m_lastLost = 0;
    m_flushed = false;
    m_stopNs = 0;
    m_transitionsMissed = 0;
    m_lastTransitionsMissed = 0;
    // Every switch of the machine may be a record: more room than the engine's default.
    if (ringBufferBytes() < (16u << 20))
        setRingBufferBytes(16u << 20);
    const bool started =
        startSkeleton(plan(kernel), options, error, [&](CommonFilters &f, QString *why) {
            auto *ro = m_skel->rodata;
            // The filters apply to tasks other than the current one (the next task, the
            // wakee): bpf/taskfilter.bpf.h compares the cgroup by id.
            ro->filter_cgroup = false;
            if (!f.cgroupPath.isEmpty()) {
                quint64 id = 0;
                if (!cgroupIdOption(f.cgroupPath, &id, why))
                    return false;
                ro->filter_cgroup_id = id;
                f.cgroupPath.clear();
            }
            ro->stacks = m_stacks;
            return true;
        });
    if (!started)
        return false;
    m_startNs = monotonicNs();
    if (m_stacks)
        stackResolver()->loadKernelSymbols();
    return true;
}

void ThreadStateProbe::doDetach()
{
    m_stopNs = monotonicNs();
    SkeletonProbe::doDetach();
}

void ThreadStateProbe::doStop()
{
    SkeletonProbe::doStop();
    m_threads.clear();
    m_cpuCurrent.clear();
}

bool ThreadStateProbe::knownSince(quint64 ts, quint64 *since) const
{
    if (!m_assumeFromStart)
        return false;
    // (a record of the moment between the attach and m_startNs)
    *since = qMin(m_startNs, ts);
    return true;
}

quint8 ThreadStateProbe::blockReason(const QList<QByteArray> &symbols)
{
    struct Rule
    {
        quint8 reason;
        std::initializer_list<const char *> prefixes;
    };
    // Leaf first, so the wait's own function decides before what called it: a page fault that
    // reads from the disk is I/O, one that waits for the mmap lock a lock.
    static const Rule rules[] = {
        {E::Io,
         {"io_schedule", "folio_wait_bit", "wait_on_page_bit", "__folio_lock", "__lock_page",
          "bit_wait_io", "blk_mq_get_tag", "submit_bio_wait", "wait_on_buffer", "__wait_on_buffer",
          "jbd2_log_wait_commit", "blkdev_direct_IO", "__blkdev_direct_IO", "iomap_dio_rw",
          "__iomap_dio_rw",
          // network and virtual file systems' requests: 9p (a VM's shared folder), NFS, FUSE
          "p9_client_rpc", "p9_client_zc_rpc", "rpc_wait_bit_killable", "__rpc_wait_for_completion",
          "request_wait_answer", "fuse_wait_answer"}},
        {E::Futex, {"futex_wait", "__futex_wait", "futex_lock_pi", "futex_wait_queue"}},
        {E::Pipe, {"pipe_read", "pipe_write", "anon_pipe_read", "anon_pipe_write", "pipe_wait"}},
        {E::Socket,
         {"sk_wait_data", "sk_stream_wait", "unix_stream_read", "unix_stream_data_wait",
          "unix_dgram_recvmsg", "unix_wait_for_peer", "inet_csk_accept", "inet_csk_wait_for",
          "__skb_wait_for_more_packets", "__skb_recv_datagram", "tcp_recvmsg", "tcp_sendmsg",
          "sock_alloc_send_pskb", "inet_wait_for_connect", "__inet_stream_connect",
          "unix_stream_sendmsg", "unix_dgram_sendmsg", "__sys_accept", "do_accept"}},
        {E::Poll,
         {"ep_poll", "do_epoll_wait", "do_select", "core_sys_select", "do_sys_poll", "do_poll",
          "io_cqring_wait"}},
        {E::Child, {"do_wait", "kernel_wait4", "kernel_waitid"}},
        {E::Signal,
         {"sigsuspend", "__x64_sys_pause", "__x64_sys_rt_sigsuspend", "do_sigtimedwait"}},
        {E::Lock,
         {"rwsem_down_", "__mutex_lock", "mutex_lock", "__down", "down_read", "down_write",
          "rt_mutex_slowlock", "percpu_rwsem_wait", "__percpu_down_read"}},
        {E::Sleep,
         {"do_nanosleep", "hrtimer_nanosleep", "common_nsleep", "msleep", "usleep_range"}},
        {E::PageFault,
         {"handle_mm_fault", "do_user_addr_fault", "exc_page_fault", "asm_exc_page_fault"}},
        // a kernel thread's main loop, reached with none of the above on the way
        {E::KernelIdle,
         {"worker_thread", "rescuer_thread", "smpboot_thread_fn", "kthread_worker_fn",
          "rcu_gp_kthread", "rcu_tasks_kthread", "kswapd", "kcompactd", "khugepaged", "kthreadd",
          "irq_thread", "watchdog", "oom_reaper", "kauditd_thread", "ksm_scan_thread", "kdamond_fn",
          "hwrng_fillfn", "rcu_nocb", "rcu_cpu_kthread"}},
    };
    bool timed = false;
    for (const QByteArray &name : symbols) {
        // The scheduler's own frames say nothing of what was waited for, nor do the timed waits
        // every kind of wait uses (io_schedule_timeout, a poll's timeout): a timed wait that
        // nothing else names is a sleep.
        if (name.startsWith("schedule")) {
            timed = timed || name.startsWith("schedule_hrtimeout") ||
                    name.startsWith("schedule_timeout");
            continue;
        }
        for (const Rule &rule : rules) {
            for (const char *p : rule.prefixes) {
                if (name.startsWith(p))
                    return rule.reason;
            }
        }
    }
    if (timed)
        return E::Sleep;
    return symbols.isEmpty() ? quint8(E::NoReason) : quint8(E::Other);
}

quint32 ThreadStateProbe::kernelStack(const QList<quint64> &ips, qint32 taken,
                                      QList<QByteArray> *symbols)
{
    StackResolver *r = stackResolver();
    QList<quint32> frames;
    for (quint64 ip : ips) {
        const quint32 f = r->kernelFrame(ip, true);
        const StackFrame &frame = r->table().frame(f);
        // taken inside the tracepoint: its first frames are the program and what ran it
        if (frames.isEmpty() && StackResolver::isTracingFrame(frame))
            continue;
        frames.append(f);
        if (symbols)
            symbols->append(frame.symbol);
    }
    if (frames.isEmpty())
        return 0;
    return r->stack(taken >= THREADSTATE_MAX_FRAMES ? quint8(KernelStackTruncated) : quint8(0),
                    frames);
}

ThreadStateProbe::Waker ThreadStateProbe::wakerOf(const threadstate_record &r,
                                                  const QList<quint64> &ips)
{
    Waker w;
    w.pid = r.other_pid;
    w.tid = r.other_tid;
    w.comm = commOf(r.other_comm);
    if (!m_stacks)
        return w; // without the stack an interrupt is not told from the task it interrupted
    using WakeContext = StackResolver::WakeContext;
    const WakeContext c = stackResolver()->wakeContext(ips);
    w.stackId = kernelStack(ips, r.nr_frames, nullptr);
    if (c != WakeContext::Task) {
        w.pid = 0;
        w.tid = 0;
        w.comm = c == WakeContext::HardIrq   ? QByteArrayLiteral("[irq]")
                 : c == WakeContext::SoftIrq ? QByteArrayLiteral("[softirq]")
                                             : QByteArrayLiteral("[unknown]");
    }
    return w;
}

void ThreadStateProbe::emitSpan(quint32 tid, const Thread &t, quint64 endNs, quint32 cpu,
                                const Waker *w, RecordBatch &out)
{
    if (endNs < t.since)
        return;
    E e;
    e.timeNs = t.since;
    e.durNs = endNs - t.since;
    e.pid = t.pid;
    e.tid = tid;
    e.comm = t.comm;
    e.state = t.state;
    e.reason = t.reason;
    e.cpu = cpu;
    e.stackId = t.stackId;
    e.cgroupId = t.cgroupId;
    if (w) {
        e.wakerPid = w->pid;
        e.wakerTid = w->tid;
        e.wakerComm = w->comm;
        e.wakerStackId = w->stackId;
    }
    out.events<E>().append(std::move(e));
}

void ThreadStateProbe::onSwitch(const threadstate_record &r, const QList<quint64> &ips,
                                RecordBatch &out)
{
    // The task this CPU's last switch seen put on it: a different one switching away now means
    // a switch away from that one was not seen. If it is a recorded thread, it is not running
    // any more, since when is not known: its state is forgotten until its next transition
    // (else it would run on here until the recording's end).
    const auto current = m_cpuCurrent.constFind(r.cpu);
    if (current != m_cpuCurrent.cend() && *current != r.tid) {
        const auto gone = m_threads.find(*current);
        if (gone != m_threads.end() && gone->state == E::Running && gone->cpu == r.cpu) {
            m_threads.erase(gone);
            ++m_transitionsMissed;
        }
    }
    m_cpuCurrent.insert(r.cpu, r.other_tid);
    if (r.flags & THREADSTATE_PREV_WANTED) {
        auto it = m_threads.find(r.tid);
        quint64 since = 0;
        if (it != m_threads.end() && it->state == E::Running) {
            emitSpan(r.tid, *it, r.ts, it->cpu, nullptr, out);
        } else if (it != m_threads.end() && it->state) {
            // It got a CPU (and was perhaps woken) without a switch or wakeup this probe saw:
            // when is not known, so its span since then is not recorded (a gap, counted). A
            // Firecracker guest's 6.18 ran no tracing program (bpftrace's neither) while its
            // agent's threads were on a CPU: their switches away and the interrupts' wakeups
            // then were never seen.
            ++m_transitionsMissed;
        } else if (it == m_threads.end() && knownSince(r.ts, &since)) {
            // on a CPU since before the recording: any switch-in after it would have been seen
            Thread t;
            t.state = E::Running;
            t.since = since;
            t.pid = r.pid;
            t.comm = commOf(r.comm);
            t.cgroupId = r.cgroup_id;
            emitSpan(r.tid, t, r.ts, r.cpu, nullptr, out);
        }
        const quint8 next = stateAfterSwitch(r.state);
        if (!next) {
            m_threads.remove(r.tid); // it exits: no span follows
        } else {
            Thread &t = m_threads[r.tid];
            t.pid = r.pid;
            t.comm = commOf(r.comm);
            t.cgroupId = r.cgroup_id;
            t.since = r.ts;
            t.cpu = r.cpu;
            t.stackId = 0;
            if (t.wokenEarly || next == E::Runnable) {
                t.state = E::Runnable;
                t.reason = t.wokenEarly ? E::Woken : E::Preempted;
            } else {
                t.state = next;
                QList<QByteArray> symbols;
                t.stackId = m_stacks ? kernelStack(ips, r.nr_frames, &symbols) : 0;
                t.reason = blockReason(symbols);
            }
            // (a wakeup before the switch-out ends no blocked span: none is left to end; the
            // runnable span that follows is Woken, and its waker is not kept)
            t.wokenEarly = false;
            t.earlyWaker = Waker();
        }
    }
    if (r.flags & THREADSTATE_NEXT_WANTED) {
        auto it = m_threads.find(r.other_tid);
        quint64 since = 0;
        if (it != m_threads.end() && it->state && it->state != E::Running) {
            // (a blocked thread runs only once woken: that wakeup was not seen, and the span
            // holds its wait and its time in the run queue, with no waker)
            if (it->state != E::Runnable)
                ++m_transitionsMissed;
            emitSpan(r.other_tid, *it, r.ts, it->state == E::Runnable ? r.cpu : it->cpu, nullptr,
                     out);
        } else if (it == m_threads.end() && knownSince(r.ts, &since)) {
            // in a run queue since before the recording: a wakeup after it would have been seen
            Thread t;
            t.state = E::Runnable;
            t.since = since;
            t.pid = r.other_pid;
            t.comm = commOf(r.other_comm);
            t.cgroupId = r.other_cgroup_id;
            emitSpan(r.other_tid, t, r.ts, r.cpu, nullptr, out);
        }
        Thread &t = m_threads[r.other_tid];
        t.state = E::Running;
        t.reason = E::NoReason;
        t.since = r.ts;
        t.cpu = r.cpu;
        t.pid = r.other_pid;
        t.comm = commOf(r.other_comm);
        t.cgroupId = r.other_cgroup_id;
        t.stackId = 0;
        t.wokenEarly = false;
        t.earlyWaker = Waker();
    }
}

void ThreadStateProbe::onWaking(const threadstate_record &r, const QList<quint64> &ips,
                                RecordBatch &out)
{
    auto it = m_threads.find(r.tid);
    quint64 since = 0;
    if (it == m_threads.end()) {
        if (!knownSince(r.ts, &since))
            return;
        // blocked since before the recording: where it blocked is not known
        Thread t;
        t.state = stateAfterSwitch(r.state);
        if (t.state == E::Runnable || !t.state)
            return;
        t.since = since;
        t.pid = r.pid;
        t.comm = commOf(r.comm);
        t.cgroupId = r.cgroup_id;
        it = m_threads.insert(r.tid, t);
    }
    if (it->state == E::Running) {
        if (!it->wokenEarly) {
            it->wokenEarly = true;
            it->earlyWaker = wakerOf(r, ips);
        }
        return;
    }
    if (it->state == E::Runnable || !it->state)
        return; // woken again before it ran: the first wakeup counts
    const Waker w = wakerOf(r, ips);
    emitSpan(r.tid, *it, r.ts, it->cpu, &w, out);
    it->state = E::Runnable;
    it->reason = E::Woken;
    // A wakeup on another CPU can carry a time a few ns before the switch-out it raced with
    // (each CPU reads the clock before it writes its record): the runnable span starts at the
    // switch-out then, not inside the running span before it (11 ns seen in tst_threadstate).
    it->since = qMax(r.ts, it->since);
    it->stackId = 0;
}

void ThreadStateProbe::onNew(const threadstate_record &r)
{
    Thread &t = m_threads[r.tid];
    t = Thread();
    t.state = E::Runnable;
    t.reason = E::Created;
    t.since = r.ts;
    t.pid = r.pid;
    t.comm = commOf(r.comm);
    t.cgroupId = r.cgroup_id;
}

bool ThreadStateProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    threadstate_record r;
    if (size < sizeof(r))
        return false;
    std::memcpy(&r, data, sizeof(r));
    if (r.nr_frames > THREADSTATE_MAX_FRAMES ||
        (r.nr_frames > 0 && size < sizeof(r) + size_t(r.nr_frames) * sizeof(quint64)))
        return false;
    QList<quint64> ips;
    if (r.nr_frames > 0) {
        ips.resize(r.nr_frames);
        std::memcpy(ips.data(), static_cast<const char *>(data) + sizeof(r),
                    size_t(r.nr_frames) * sizeof(quint64));
    }
    // (each record counts as seen, against the records lost: a span is appended when it ends)
    switch (r.kind) {
    case THREADSTATE_SWITCH:
        onSwitch(r, ips, out);
        return true;
    case THREADSTATE_WAKING:
        onWaking(r, ips, out);
        return true;
    case THREADSTATE_NEW:
        onNew(r);
        return true;
    }
    return false;
}

void ThreadStateProbe::readCounters()
{
    if (m_transitionsMissed > m_lastTransitionsMissed)
        emitCounter(transitionsMissedCounter(),
                    double(m_transitionsMissed - m_lastTransitionsMissed));
    m_lastTransitionsMissed = m_transitionsMissed;
}

void ThreadStateProbe::finishDrain(RecordBatch &out)
{
    const quint64 lost = kernelLost();
    if (lost != m_lastLost) {
        // A lost switch or wakeup leaves the states around it unknown: start again from the
        // next transitions of each thread.
        m_lastLost = lost;
        m_threads.clear();
        m_cpuCurrent.clear();
        m_assumeFromStart = false;
    }
    if (isAttached() || m_flushed)
        return;
    // The recording ends: every thread's current span ends with it.
    m_flushed = true;
    const quint64 end = m_stopNs ? m_stopNs : monotonicNs();
    for (auto it = m_threads.cbegin(); it != m_threads.cend(); ++it) {
        if (it->state)
            emitSpan(it.key(), *it, qMax(end, it->since), it->state == E::Runnable ? 0 : it->cpu,
                     nullptr, out);
    }
    m_threads.clear();
    m_cpuCurrent.clear();
}

} // namespace bpflens
