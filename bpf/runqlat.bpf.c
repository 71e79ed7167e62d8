// SPDX-License-Identifier: GPL-2.0
// Run queue latency: from the moment a task becomes runnable (woken, newly forked, or preempted
// while still running) until it is switched in. The measured task is rarely current at either
// point (its waker and the previous task are), so the filters look at the task itself.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/runqlat.records.h"
#include "bpf/taskfilter.bpf.h"

#define MAX_TASKS 10240
#define TASK_RUNNING 0

const volatile bool targ_per_process = false;
const volatile bool targ_per_thread = false;
const volatile __u64 unit_div = 1000;

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_TASKS);
    __type(key, __u32);
    __type(value, __u64);
} start SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_TASKS); /* user space may set another size before load */
    __type(key, struct runqlat_key);
    __type(value, struct bpflens_hist);
} hists SEC(".maps");

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

static __always_inline void enqueue(struct task_struct *t)
{
    __u32 tid = BPF_CORE_READ(t, pid);
    __u64 ts;

    /* pid 0 is the idle task of each CPU, not a task that waits */
    if (!tid || !task_wanted(t))
        return;
    ts = bpf_ktime_get_ns();
    bpf_map_update_elem(&start, &tid, &ts, BPF_ANY);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(sched_wakeup, struct task_struct *p)
{
    enqueue(p);
    return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(sched_wakeup_new, struct task_struct *p)
{
    enqueue(p);
    return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
    struct runqlat_key key = {};
    struct bpflens_hist *h;
    __u64 *tsp, delta;
    __u32 tid;

    if (task_state(prev) == TASK_RUNNING) {
        enqueue(prev);
    } else {
        /* Going to sleep: a wakeup that raced with it running left nothing to measure. */
        tid = BPF_CORE_READ(prev, pid);
        bpf_map_delete_elem(&start, &tid);
    }

    tid = BPF_CORE_READ(next, pid);
    tsp = bpf_map_lookup_elem(&start, &tid);
    if (!tsp)
        return 0;
    delta = bpf_ktime_get_ns() - *tsp;
    bpf_map_delete_elem(&start, &tid);
    if ((__s64)delta < 0)
        return 0;

    if (targ_per_process) {
        key.id = BPF_CORE_READ(next, tgid);
        BPF_CORE_READ_STR_INTO(&key.comm, next, group_leader, comm);
    } else if (targ_per_thread) {
        key.id = tid;
        BPF_CORE_READ_STR_INTO(&key.comm, next, comm);
    }
    h = hist_of(&hists, &key);
    if (!h)
        return 0;
    hist_add(h, delta / unit_div);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
