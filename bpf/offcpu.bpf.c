// SPDX-License-Identifier: GPL-2.0
// Off-CPU time: at each context switch the thread going off the CPU leaves its time and stacks
// (ids into a stack trace map) in a hash; when it runs again after at least min_ns, one event
// reports the whole span. sched_switch runs in the outgoing thread's context, so its stacks are
// where it blocked (or was preempted).
//
// User stacks are frame-pointer chains only (bpf_get_stackid(BPF_F_USER_STACK)): code built
// without frame pointers shows its leaf function and whatever the chain happens to reach. A
// DWARF copy at the sleeping thread's next sys_exit (as profile copies it) is not done yet.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "common.bpf.h"
#include "newimage.bpf.h"
#include "offcpu.h"

#define MAX_TASKS 10240
#define TASK_DEAD 0x80

const volatile __u64 min_ns = 1000000;
const volatile bool kernel_only = false;
const volatile bool user_only = false;

struct offcpu_start
{
    __u64 ts;
    __s32 kstack_id;
    __s32 ustack_id;
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

/* How many holders each stack id has: threads off the CPU with it, and events not yet read by
 * user space. User space reads an event's stacks, drops its references and deletes an id no one
 * holds, so the map holds the stacks in flight, not every stack ever seen; an id still held is
 * never deleted (a thread sleeping again in the same place gets the same id while its previous
 * event is read). It is in .bss so that user space can decrement it atomically too. */
__s64 stack_refs[OFFCPU_STACK_IDS] = {};
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
    if (id >= 0)
        __sync_fetch_and_add(&stack_refs[id & (OFFCPU_STACK_IDS - 1)], delta);
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

static __always_inline void switch_out(void *ctx, struct task_struct *prev)
{
    struct offcpu_start s, *old;
    __u32 tid = BPF_CORE_READ(prev, pid);

    /* the idle task, and a thread that exits: it never comes back */
    if (!tid || (task_state(prev) & TASK_DEAD))
        return;
    /* prev is current here: the common filters apply */
    if (!current_wanted())
        return;
    s.ts = bpf_ktime_get_ns();
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

static __always_inline void switch_in(struct task_struct *next)
{
    struct offcpu_start *s;
    struct offcpu_event e;
    __u32 tid = BPF_CORE_READ(next, pid);
    __u64 now;

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
    bpf_map_delete_elem(&offcpu_start, &tid);
    if ((__s64)e.off_ns < 0 || e.off_ns < min_ns) {
        ref_stack(e.kstack_id, -1);
        ref_stack(e.ustack_id, -1);
        return;
    }
    e.pid = BPF_CORE_READ(next, tgid);
    e.tid = tid;
    BPF_CORE_READ_STR_INTO(&e.comm, next, comm);
    /* from here the event holds the references; user space drops them once it read the stacks */
    if (bpf_ringbuf_output(&offcpu_rb, &e, sizeof(e), submit_flags_for(&offcpu_rb, next))) {
        count_lost();
        ref_stack(e.kstack_id, -1);
        ref_stack(e.ustack_id, -1);
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

char LICENSE[] SEC("license") = "GPL";
