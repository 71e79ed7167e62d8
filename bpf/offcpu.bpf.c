// SPDX-License-Identifier: GPL-2.0
// Off-CPU time: at each context switch the thread going off the CPU leaves its time and stacks
// (ids into a stack trace map) in a hash; when it runs again after at least min_ns, one event
// reports the whole span. sched_switch runs in the outgoing thread's context, so its stacks are
// where it blocked (or was preempted).
//
// User stacks: the frame-pointer chain (bpf_get_stackid(BPF_F_USER_STACK)) always, and for a
// thread that waited inside a system call (nearly every wait) the registers and the top of its
// user stack for DWARF unwinding, as profile copies them. They cannot be copied at the switch-out
// (the span's length is not known yet, and copying at every context switch would cost more than
// the rest of the probe) nor at the switch-in (another task's context): they are copied when the
// call returns to user space (sys_exit), where the thread has run no user code since it blocked,
// so its registers and stack are still those it blocked with.
//
// Wakers (the offwake probe, like BCC's offwaketime): at sched_waking of a thread this program
// holds as off the CPU, the waker (the current task, or the interrupt it runs in) leaves its
// pid, tid, comm and stacks in a hash keyed by the wakee's tid; the wakee's switch-in takes them
// into its event. The waker's user stack is copied for DWARF unwinding right there (the waker is
// inside a system call, its user registers and stack are those it entered with) when the wakee
// has been off the CPU for min_ns already, so only for spans that will be reported. A wakeup
// from an interrupt runs on whichever task it interrupted: user space tells it by its kernel
// stack (OffCpuProbe::wakerContext) and drops that task's user stack.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/newimage.bpf.h"
#include "bpf/offcpu.records.h"
#include "bpf/userstack.bpf.h"

#define MAX_TASKS 10240
#define TASK_DEAD 0x80
#define TASK_RUNNING 0

const volatile __u64 min_ns = 1000000;
const volatile bool kernel_only = false;
const volatile bool user_only = false;
/* offwake: record each span's waker (sched_waking's programs are loaded for it only) */
const volatile bool wakers = false;

struct offcpu_start
{
    __u64 ts;
    __s32 kstack_id;
    __s32 ustack_id;
    __u32 in_syscall; /* switched out inside a system call: its exit can copy the user stack */
};

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 4 << 20); /* user space sets the real size */
} offcpu_rb SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_TASKS);
    __type(key, __u32);
    __type(value, struct offcpu_start);
} offcpu_start SEC(".maps");

/* Kernel and user stacks share it: a stack trace map gives one id per distinct stack. */
struct
{
    __uint(type, BPF_MAP_TYPE_STACK_TRACE);
    __uint(max_entries, OFFCPU_STACK_IDS);
    __uint(key_size, sizeof(__u32));
    __uint(value_size, OFFCPU_MAX_FRAMES * sizeof(__u64));
} offcpu_stacks SEC(".maps");

/* Threads whose waits were reported with OFFCPU_COPY_FOLLOWS: their next sys_exit copies the
 * user stack. The value: wake user space for the copy (the wait was a new image's first). */
struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_TASKS);
    __type(key, __u32);
    __type(value, __u8);
} copy_wanted SEC(".maps");

/* The user stack record is built here, one entry per possible CPU (user space sets max_entries;
 * a per-CPU array's values are limited to 32 KiB). sys_exit programs do not nest on one CPU. */
struct user_stack_scratch
{
    struct offcpu_user_stack r;
    __u8 stack[USER_STACK_MAX_COPY + USER_STACK_PAGE];
};

struct
{
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct user_stack_scratch);
} user_stack_scratch SEC(".maps");

/* offwake: the waker of each thread off the CPU, from its wakeup to its switch-in. */
struct offcpu_waker
{
    __u64 ts;
    __u32 flags; /* offcpu_waker_flags */
    __u32 pid;
    __u32 tid;
    __s32 kstack_id;
    __s32 ustack_id;
    /* seen before the span's start: see waking() */
    __u32 early;
    char comm[BPFLENS_COMM_LEN];
};

/* How long before its span's start an early wakeup may come: the rest of __schedule after the
 * wakee left the run queue, with interrupts off (far less, but an emulated CPU can stall). */
#define EARLY_WAKING_NS 10000000ull

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_TASKS);
    __type(key, __u32);
    __type(value, struct offcpu_waker);
} offcpu_wakers SEC(".maps");

struct waker_stack_scratch
{
    struct offcpu_waker_stack r;
    __u8 stack[USER_STACK_MAX_COPY + USER_STACK_PAGE];
};

/* One per possible CPU (user space sets max_entries): sched_waking runs with interrupts off
 * (p->pi_lock), so two copies never nest on one CPU. */
struct
{
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct waker_stack_scratch);
} waker_stack_scratch SEC(".maps");

/* Wakeups whose waker found the hash full (their spans are reported without a waker), and
 * copies of a waker's user stack the ring buffer had no room for (frame pointers instead). */
__u64 wakers_full = 0;
__u64 waker_copies_lost = 0;

/* Set by user space once the sys_exit program is attached: before that, or without it, no wait
 * is promised a copy. */
bool exit_hooked = false;
/* Entries in copy_wanted, so that sys_exit, which runs for every system call of the machine, does
 * a hash lookup only while some thread waits for its copy. */
__s64 copies_wanted = 0;

/* How many holders each stack id has: threads off the CPU with it, and events not yet read by
 * user space. User space reads an event's stacks, drops its references and deletes an id no one
 * holds, so the map holds the stacks in flight, not every stack ever seen; an id still held is
 * never deleted (a thread sleeping again in the same place gets the same id while its previous
 * event is read). It is in .bss so that user space can decrement it atomically too. */
__s64 stack_refs[OFFCPU_STACK_IDS] = {};
/* Set when this program dropped a reference itself (a span under the minimum, an event with no
 * room): the stack may be held by no one now, and a program cannot delete from a stack map, so
 * user space sweeps it (left there, it takes its bucket, and every other stack that hashes to it
 * fails with -EEXIST for the rest of the recording). A flag, not a count: a store only when it
 * changes keeps the hot path to a read of a line no one writes. */
__u32 stacks_maybe_unheld = 0;
/* Switch-outs whose start found the hash full, or stacks the map had no room for. */
__u64 start_full = 0;
__u64 stacks_failed = 0;
/* Switch-outs that found the thread's previous one still there: its switch-in was never seen by
 * this program (the probe attached while it was off the CPU, or, rarely on a loaded 6.18, a
 * switch-in that did not reach the program), and that off-CPU span is not reported. */
__u64 switch_in_missed = 0;

/* task->state became __state in 5.14. */
struct task_struct___old
{
    long state;
} __attribute__((preserve_access_index));

static __always_inline long task_state(struct task_struct *t)
{
    struct task_struct___old *old = (void *)t;

    if (bpf_core_field_exists(old->state))
        return BPF_CORE_READ(old, state);
    return BPF_CORE_READ(t, __state);
}

static __always_inline void ref_stack(__s32 id, __s64 delta)
{
    if (id < 0)
        return;
    __sync_fetch_and_add(&stack_refs[id & (OFFCPU_STACK_IDS - 1)], delta);
    if (delta < 0 && !stacks_maybe_unheld)
        stacks_maybe_unheld = 1;
}

static __always_inline __s32 stack_id(void *ctx, __u64 flags)
{
    long id = bpf_get_stackid(ctx, &offcpu_stacks, flags);

    /* -EFAULT is an empty stack: a kernel thread's user side, never a kernel side (a thread
     * switching out is always inside schedule()). Anything else is a stack lost. */
    if (id < 0 && (id != -14 || !(flags & BPF_F_USER_STACK)))
        __sync_fetch_and_add(&stacks_failed, 1);
    return id;
}

/* A waker entry left from an earlier span (its switch-in was not seen) would take this span's
 * place in the map (the first wakeup of a span counts): gone before the span starts, with its
 * references to its stacks. An early one of this very span stays, unless any (a task the
 * filters leave out). */
static __always_inline void drop_stale_waker(__u32 tid, bool any)
{
    struct offcpu_waker *w = bpf_map_lookup_elem(&offcpu_wakers, &tid);

    if (!w || (!any && w->early && bpf_ktime_get_ns() - w->ts < EARLY_WAKING_NS))
        return;
    ref_stack(w->kstack_id, -1);
    ref_stack(w->ustack_id, -1);
    bpf_map_delete_elem(&offcpu_wakers, &tid);
}

static __always_inline void switch_out(void *ctx, struct task_struct *prev)
{
    struct offcpu_start s, *old;
    __u32 tid = BPF_CORE_READ(prev, pid);

    /* the idle task, and a thread that exits: it never comes back */
    if (!tid)
        return;
    if (task_state(prev) & TASK_DEAD) {
        if (copies_wanted && bpf_map_delete_elem(&copy_wanted, &tid) == 0)
            __sync_fetch_and_add(&copies_wanted, -1);
        /* A wait still held: its switch-in was never seen (it ran, since it exits now). Its
         * span is not reported, and counted, as at a switch-out that finds one (below). */
        old = bpf_map_lookup_elem(&offcpu_start, &tid);
        if (old) {
            __sync_fetch_and_add(&switch_in_missed, 1);
            ref_stack(old->kstack_id, -1);
            ref_stack(old->ustack_id, -1);
            bpf_map_delete_elem(&offcpu_start, &tid);
        }
        return;
    }
    /* prev is current here: the common filters apply */
    if (!current_wanted()) {
        /* an early wakeup of a task the filters leave out (waking() cannot apply them), with
         * the references to its stacks */
        if (wakers)
            drop_stale_waker(tid, true);
        return;
    }
    if (wakers)
        drop_stale_waker(tid, false);
    s.ts = bpf_ktime_get_ns();
    s.in_syscall = 0;
#if defined(__TARGET_ARCH_x86)
    /* Only a thread that blocks: one still runnable (preempted) may be past its system call's
     * exit already, rescheduled on the way back to user space, where the next sys_exit is
     * another call's. */
    if (exit_hooked && !kernel_only && stack_copy_bytes && task_state(prev) != TASK_RUNNING) {
        struct pt_regs regs;

        /* orig_ax holds the system call's number inside one, -1 in an interrupt or a fault
         * (the kernel's own syscall_get_nr()); a 32-bit task is left to its frame pointers.
         * ax is -ENOSYS from the entry until the call's handler returns: a thread that blocks
         * after that, in the work done on the way out after sys_exit (a deferred close's
         * release, seen on 9p, or a signal's delivery), would be given the next call's copy. */
        if (BPF_CORE_READ(prev, mm) && current_user_regs(prev, &regs) && regs.cs == USER_CS_64 &&
            (long)regs.orig_ax >= 0 && (long)regs.ax == -38 /* -ENOSYS */)
            s.in_syscall = 1;
    }
#endif
    s.kstack_id = user_only ? -1 : stack_id(ctx, 0);
    s.ustack_id = kernel_only ? -1 : stack_id(ctx, BPF_F_USER_STACK);
    old = bpf_map_lookup_elem(&offcpu_start, &tid);
    if (old) {
        __sync_fetch_and_add(&switch_in_missed, 1);
        ref_stack(old->kstack_id, -1);
        ref_stack(old->ustack_id, -1);
    }
    ref_stack(s.kstack_id, 1);
    ref_stack(s.ustack_id, 1);
    if (bpf_map_update_elem(&offcpu_start, &tid, &s, BPF_ANY)) {
        __sync_fetch_and_add(&start_full, 1);
        ref_stack(s.kstack_id, -1);
        ref_stack(s.ustack_id, -1);
    }
}

static __always_inline void drop_waker(struct offcpu_event *e)
{
    ref_stack(e->waker_kstack_id, -1);
    ref_stack(e->waker_ustack_id, -1);
}

/* Moves the waker of tid's span, if its wakeup was seen, into e (which then holds its stacks'
 * references). A waker older than the span's start belongs to an earlier span whose switch-in
 * was missed: dropped. */
static __always_inline void take_waker(__u32 tid, __u64 start, struct offcpu_event *e)
{
    struct offcpu_waker *w;
    __u32 early;

    e->wake_ns = 0;
    e->waker_flags = 0;
    e->waker_pid = 0;
    e->waker_tid = 0;
    e->waker_kstack_id = -1;
    e->waker_ustack_id = -1;
    e->pad = 0;
    __builtin_memset(e->waker_comm, 0, sizeof(e->waker_comm));
    if (!wakers)
        return;
    w = bpf_map_lookup_elem(&offcpu_wakers, &tid);
    if (!w)
        return;
    e->wake_ns = w->ts;
    e->waker_flags = w->flags | OFFCPU_WAKER_FOUND;
    e->waker_pid = w->pid;
    e->waker_tid = w->tid;
    e->waker_kstack_id = w->kstack_id;
    e->waker_ustack_id = w->ustack_id;
    __builtin_memcpy(e->waker_comm, w->comm, sizeof(e->waker_comm));
    early = w->early;
    bpf_map_delete_elem(&offcpu_wakers, &tid);
    if (e->wake_ns < start && !(early && start - e->wake_ns < EARLY_WAKING_NS)) {
        drop_waker(e);
        e->wake_ns = 0;
        e->waker_flags = 0;
        e->waker_kstack_id = -1;
        e->waker_ustack_id = -1;
    }
}

static __always_inline void switch_in(struct task_struct *next)
{
    struct offcpu_start *s;
    struct offcpu_event e;
    __u32 tid = BPF_CORE_READ(next, pid);
    __u32 in_syscall;
    __u64 now;
    long flags;

    if (!tid)
        return;
    s = bpf_map_lookup_elem(&offcpu_start, &tid);
    if (!s)
        return;
    now = bpf_ktime_get_ns();
    e.time_ns = s->ts;
    e.off_ns = now - s->ts;
    e.kstack_id = s->kstack_id;
    e.ustack_id = s->ustack_id;
    in_syscall = s->in_syscall;
    bpf_map_delete_elem(&offcpu_start, &tid);
    take_waker(tid, e.time_ns, &e);
    if ((__s64)e.off_ns < 0 || e.off_ns < min_ns) {
        ref_stack(e.kstack_id, -1);
        ref_stack(e.ustack_id, -1);
        drop_waker(&e);
        return;
    }
    e.kind = OFFCPU_EVENT;
    e.flags = 0;
    e.pid = BPF_CORE_READ(next, tgid);
    e.tid = tid;
    /* next's, not the current task's (that is the one switched out): its v2 cgroup's kernfs id,
     * which is what bpf_get_current_cgroup_id() returns in next's own context. */
    e.cgroup_id = BPF_CORE_READ(next, cgroups, dfl_cgrp, kn, id);
    BPF_CORE_READ_STR_INTO(&e.comm, next, comm);
    flags = submit_flags_for(&offcpu_rb, next);
    /* Also where the frame-pointer chain's id was lost (the stack map's bucket held by another
     * stack, as when user space is slow to sweep it): the copy alone unwinds. */
    if (in_syscall) {
        /* the wait is unwound once its copy came: that record wakes user space instead */
        __u8 wake = flags == BPF_RB_FORCE_WAKEUP;
        long err = bpf_map_update_elem(&copy_wanted, &tid, &wake, BPF_NOEXIST);

        if (!err)
            __sync_fetch_and_add(&copies_wanted, 1);
        /* -EEXIST: an earlier wait of the same system call, whose copy is this one's too */
        if (!err || err == -17) {
            e.flags |= OFFCPU_COPY_FOLLOWS;
            if (flags == BPF_RB_FORCE_WAKEUP)
                flags = BPF_RB_NO_WAKEUP;
        }
    }
    /* from here the event holds the references; user space drops them once it read the stacks */
    if (bpf_ringbuf_output(&offcpu_rb, &e, sizeof(e), flags)) {
        count_lost();
        ref_stack(e.kstack_id, -1);
        ref_stack(e.ustack_id, -1);
        drop_waker(&e);
    }
}

SEC("tp_btf/sched_switch")
int BPF_PROG(offcpu_switch_btf, bool preempt, struct task_struct *prev, struct task_struct *next)
{
    switch_out(ctx, prev);
    switch_in(next);
    return 0;
}

/* Kernels without BTF tracepoints for sched_switch (tp_btf is 5.5+) */
SEC("raw_tp/sched_switch")
int BPF_PROG(offcpu_switch_raw, bool preempt, struct task_struct *prev, struct task_struct *next)
{
    switch_out(ctx, prev);
    switch_in(next);
    return 0;
}

/* Copies the waker's (the current task's) user registers and stack for DWARF unwinding. */
static __always_inline void copy_waker_stack(__u32 wakee, __u64 ts)
{
#if defined(__TARGET_ARCH_x86)
    struct task_struct *cur = (struct task_struct *)bpf_get_current_task();
    __u32 cpu = bpf_get_smp_processor_id();
    struct waker_stack_scratch *sc;
    struct pt_regs r;
    bool at_limit = false;
    __u32 size;

    if (!BPF_CORE_READ(cur, mm) || !current_user_regs(cur, &r) || r.cs != USER_CS_64)
        return;
    sc = bpf_map_lookup_elem(&waker_stack_scratch, &cpu);
    if (!sc)
        return;
    sc->r.kind = OFFCPU_WAKER_STACK;
    sc->r.wakee_tid = wakee;
    sc->r.flags = OFFCPU_REGS_VALID;
    sc->r.wake_ns = ts;
    FILL_REGS(sc->r.regs, &r);
    size = copy_user_stack(sc->stack, r.sp, &at_limit);
    if (at_limit)
        sc->r.flags |= OFFCPU_STACK_LIMIT;
    sc->r.stack_size = size;
    asm volatile("" : "+r"(size));
    if (size > USER_STACK_MAX_COPY)
        return;
    if (bpf_ringbuf_output(&offcpu_rb, sc, sizeof(sc->r) + size, BPF_RB_NO_WAKEUP))
        __sync_fetch_and_add(&waker_copies_lost, 1);
#endif
}

/* A wakeup of a thread off the CPU under the filters (one this program holds a start for): the
 * current context is its waker. Only the first wakeup of a span counts (later ones find the
 * thread runnable and do not reach this tracepoint, unless it blocked again). */
static __always_inline void waking(void *ctx, struct task_struct *p)
{
    struct offcpu_waker w;
    struct offcpu_start *s;
    __u32 tid = BPF_CORE_READ(p, pid);
    bool copy;
    long err;
    __u64 id;

    if (!wakers || !tid)
        return;
    s = bpf_map_lookup_elem(&offcpu_start, &tid);
    /* No span yet: a wakee that left the run queue but is still on its CPU, in the rest of
     * __schedule, before the sched_switch that starts its span. A waker on another CPU gets
     * here first (try_to_wake_up waits for on_cpu after this tracepoint), and under load the
     * wakee may then wait long for a CPU: its wakeup is recorded now, for the span that
     * follows. Any other task without a span is not one this probe follows. */
    if (!s && (BPF_CORE_READ(p, on_rq) || !BPF_CORE_READ(p, on_cpu)))
        return;
    /* The current task, or the one an interrupt interrupted: user space tells them apart by the
     * kernel stack (the per-CPU preempt_count is out of reach where the kernel lists no data
     * symbols), so the kernel stack is always taken, and an interrupt's user stack (the
     * interrupted task's) dropped there. The idle task has none. */
    id = bpf_get_current_pid_tgid();
    w.ts = bpf_ktime_get_ns();
    w.flags = 0;
    w.pid = id >> 32;
    w.tid = (__u32)id;
    w.early = !s;
    __builtin_memset(w.comm, 0, sizeof(w.comm));
    bpf_get_current_comm(&w.comm, sizeof(w.comm));
    /* (an early one's span is likely long: its wakee waits for a CPU) */
    copy = w.tid && !kernel_only && stack_copy_bytes && (!s || w.ts - s->ts >= min_ns);
    w.kstack_id = stack_id(ctx, 0);
    w.ustack_id = kernel_only || !w.tid ? -1 : stack_id(ctx, BPF_F_USER_STACK);
    if (copy)
        w.flags |= OFFCPU_WAKER_COPY;
    ref_stack(w.kstack_id, 1);
    ref_stack(w.ustack_id, 1);
    err = bpf_map_update_elem(&offcpu_wakers, &tid, &w, BPF_NOEXIST);
    if (err) {
        /* -EEXIST: a wakeup of this span was recorded already, the first one counts */
        if (err != -17)
            __sync_fetch_and_add(&wakers_full, 1);
        ref_stack(w.kstack_id, -1);
        ref_stack(w.ustack_id, -1);
        return;
    }
    if (copy)
        copy_waker_stack(tid, w.ts);
}

SEC("tp_btf/sched_waking")
int BPF_PROG(offcpu_waking_btf, struct task_struct *p)
{
    waking(ctx, p);
    return 0;
}

SEC("raw_tp/sched_waking")
int BPF_PROG(offcpu_waking_raw, struct task_struct *p)
{
    waking(ctx, p);
    return 0;
}

/* The system call a wait promised a copy in returns: copy the thread's user registers and stack.
 * No copy (an empty record, so user space stops waiting) where they are no longer those the
 * thread blocked with: a successful execve replaced the image, rt_sigreturn the registers. */
static __always_inline void copy_at_exit(struct pt_regs *regs, long ret)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    __u32 cpu = bpf_get_smp_processor_id();
    struct user_stack_scratch *sc;
    __u32 size = 0;
    __u8 *wanted;
    long flags;

    if (!copies_wanted)
        return;
    wanted = bpf_map_lookup_elem(&copy_wanted, &tid);
    if (!wanted)
        return;
    flags = *wanted ? BPF_RB_FORCE_WAKEUP : submit_flags(&offcpu_rb);
    if (bpf_map_delete_elem(&copy_wanted, &tid) == 0)
        __sync_fetch_and_add(&copies_wanted, -1);
    sc = bpf_map_lookup_elem(&user_stack_scratch, &cpu);
    if (!sc)
        return;
    sc->r.kind = OFFCPU_USER_STACK;
    sc->r.tid = tid;
    sc->r.flags = 0;
#if defined(__TARGET_ARCH_x86)
    {
        struct pt_regs r;
        bool at_limit = false;
        long nr;

        if (bpf_probe_read_kernel(&r, sizeof(r), regs) == 0) {
            nr = (long)r.orig_ax;
            /* x86_64: rt_sigreturn 15, execve 59, execveat 322 */
            if (r.cs == USER_CS_64 && nr != 15 && !((nr == 59 || nr == 322) && ret == 0)) {
                FILL_REGS(sc->r.regs, &r);
                sc->r.flags |= OFFCPU_REGS_VALID;
                size = copy_user_stack(sc->stack, r.sp, &at_limit);
                if (at_limit)
                    sc->r.flags |= OFFCPU_STACK_LIMIT;
            }
        }
    }
#endif
    sc->r.stack_size = size;
    asm volatile("" : "+r"(size));
    if (size > USER_STACK_MAX_COPY)
        return;
    /* a copy that finds no room leaves its waits to their frame pointers */
    bpf_ringbuf_output(&offcpu_rb, sc, sizeof(sc->r) + size, flags);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(offcpu_exit_btf, struct pt_regs *regs, long ret)
{
    copy_at_exit(regs, ret);
    return 0;
}

SEC("raw_tp/sys_exit")
int BPF_PROG(offcpu_exit_raw, struct pt_regs *regs, long ret)
{
    copy_at_exit(regs, ret);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
