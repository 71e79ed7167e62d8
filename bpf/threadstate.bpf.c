// SPDX-License-Identifier: GPL-2.0
// Thread states: every context switch and wakeup of the threads under the filters, as records
// user space turns into spans (running, runnable, blocked), as Perfetto builds them from ftrace.
// The programs keep no state: a span needs its start, which user space holds per thread, so
// nothing here fills up; a record lost to a full ring buffer cuts the spans around it (user
// space drops what it knew and starts again from the next transitions).
//
// Stacks: the kernel stack of a thread that blocks (where, and so why, it waits) and of the
// context that wakes one (the waker's function, and whether an interrupt did it: an interrupt's
// wakeup runs on whichever task it interrupted, and only its stack tells, as for offwake).
// Copied into the record: no stack map to fill or to clean.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/taskfilter.bpf.h"
#include "bpf/threadstate.records.h"

#define TASK_RUNNING 0

/* noStacks: no kernel stacks, the records stay small */
const volatile bool stacks = true;

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 8 << 20); /* user space sets the real size */
} rb SEC(".maps");

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

#define STACK_BYTES (THREADSTATE_MAX_FRAMES * sizeof(__u64))

/* Reserves a record, with room for a stack when one is wanted; fills the common part. */
static __always_inline struct threadstate_record *reserve(__u32 kind, bool with_stack)
{
    struct threadstate_record *r;

    /* two calls: the size must be a constant where the verifier checks it */
    if (with_stack)
        r = bpf_ringbuf_reserve(&rb, sizeof(*r) + STACK_BYTES, 0);
    else
        r = bpf_ringbuf_reserve(&rb, sizeof(*r), 0);
    if (!r) {
        count_lost();
        return 0;
    }
    r->kind = kind;
    r->flags = 0;
    r->ts = bpf_ktime_get_ns();
    r->cpu = bpf_get_smp_processor_id();
    r->nr_frames = 0;
    r->pad = 0;
    return r;
}

static __always_inline void take_stack(void *ctx, struct threadstate_record *r)
{
    long n = bpf_get_stack(ctx, (void *)(r + 1), STACK_BYTES, 0);

    r->nr_frames = n < 0 ? (__s32)n : (__s32)(n / sizeof(__u64));
}

static __always_inline void submit(struct threadstate_record *r)
{
    bpf_ringbuf_submit(r, submit_flags(&rb));
}

static __always_inline void task_into(struct task_struct *t, __u32 *pid, __u32 *tid,
                                      __u64 *cgroup_id, char *comm)
{
    *pid = BPF_CORE_READ(t, tgid);
    *tid = BPF_CORE_READ(t, pid);
    *cgroup_id = BPF_CORE_READ(t, cgroups, dfl_cgrp, kn, id);
    bpf_probe_read_kernel_str(comm, BPFLENS_COMM_LEN, &t->comm);
}

static __always_inline void on_switch(void *ctx, struct task_struct *prev, struct task_struct *next)
{
    struct threadstate_record *r;
    __u32 prev_tid = BPF_CORE_READ(prev, pid);
    __u32 next_tid = BPF_CORE_READ(next, pid);
    /* task_wanted for both: user space sets the cgroup filter as a task's, by id */
    bool prev_wanted = prev_tid && task_wanted(prev);
    bool next_wanted = next_tid && task_wanted(next);
    long state;
    bool blocks;

    if (!prev_wanted && !next_wanted)
        return;
    state = task_state(prev);
    /* where it blocks, not where it was preempted or exits */
    blocks = prev_wanted && stacks && state != TASK_RUNNING && !(state & 0x80 /* TASK_DEAD */);
    r = reserve(THREADSTATE_SWITCH, blocks);
    if (!r)
        return;
    r->flags =
        (prev_wanted ? THREADSTATE_PREV_WANTED : 0) | (next_wanted ? THREADSTATE_NEXT_WANTED : 0);
    r->state = (__u32)state;
    task_into(prev, &r->pid, &r->tid, &r->cgroup_id, r->comm);
    task_into(next, &r->other_pid, &r->other_tid, &r->other_cgroup_id, r->other_comm);
    if (blocks)
        take_stack(ctx, r);
    submit(r);
}

/* In the waker's context: the current task, or an interrupt on it. */
static __always_inline void on_wake(void *ctx, struct task_struct *p, __u32 kind)
{
    struct task_struct *cur;
    struct threadstate_record *r;

    if (!BPF_CORE_READ(p, pid) || !task_wanted(p))
        return;
    r = reserve(kind, stacks);
    if (!r)
        return;
    r->state = (__u32)task_state(p);
    task_into(p, &r->pid, &r->tid, &r->cgroup_id, r->comm);
    cur = (struct task_struct *)bpf_get_current_task();
    task_into(cur, &r->other_pid, &r->other_tid, &r->other_cgroup_id, r->other_comm);
    if (stacks)
        take_stack(ctx, r);
    submit(r);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(threadstate_switch_btf, bool preempt, struct task_struct *prev,
             struct task_struct *next)
{
    on_switch(ctx, prev, next);
    return 0;
}

SEC("raw_tp/sched_switch")
int BPF_PROG(threadstate_switch_raw, bool preempt, struct task_struct *prev,
             struct task_struct *next)
{
    on_switch(ctx, prev, next);
    return 0;
}

/* sched_waking, not sched_wakeup: the latter may run on the wakee's CPU, where the current task
 * is not the waker. */
SEC("tp_btf/sched_waking")
int BPF_PROG(threadstate_waking_btf, struct task_struct *p)
{
    on_wake(ctx, p, THREADSTATE_WAKING);
    return 0;
}

SEC("raw_tp/sched_waking")
int BPF_PROG(threadstate_waking_raw, struct task_struct *p)
{
    on_wake(ctx, p, THREADSTATE_WAKING);
    return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(threadstate_new_btf, struct task_struct *p)
{
    on_wake(ctx, p, THREADSTATE_NEW);
    return 0;
}

SEC("raw_tp/sched_wakeup_new")
int BPF_PROG(threadstate_new_raw, struct task_struct *p)
{
    on_wake(ctx, p, THREADSTATE_NEW);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
