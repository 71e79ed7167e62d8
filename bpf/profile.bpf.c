// SPDX-License-Identifier: GPL-2.0
// On-CPU sampling: a perf event per CPU (cycles, or the cpu-clock timer where there is no PMU)
// runs this program at the probe's frequency. Each sample carries the kernel stack, and for a
// user thread what user space needs to unwind it: the user registers, the frame-pointer chain
// and a copy of the top of the user stack (as perf record --call-graph dwarf does).
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/newimage.bpf.h"
#include "bpf/profile.records.h"
#include "bpf/samplestack.bpf.h"
#include "bpf/userstack.bpf.h"

const volatile bool include_idle = false;
const volatile bool kernel_only = false;
const volatile bool user_only = false;

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 4 << 20); /* user space sets the real size */
} profile_rb SEC(".maps");

/* The record is built here and copied out with the size it used: the user stack's copy is
 * mostly far below its limit, and a reservation would have to take the limit every time. */
struct profile_scratch
{
    struct profile_sample s;
    /* a piece may start just below the limit and run a page on */
    __u8 stack[USER_STACK_MAX_COPY + USER_STACK_PAGE];
};

/* One entry per possible CPU, indexed by the CPU (user space sets max_entries): a per-CPU array's
 * values are limited to 32 KiB. Perf event programs do not nest on one CPU. */
struct
{
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct profile_scratch);
} profile_scratch SEC(".maps");

SEC("perf_event")
int profile_tick(struct bpf_perf_event_data *ctx)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tid = (__u32)id;
    struct profile_scratch *sc;
    __u32 cpu = bpf_get_smp_processor_id();
    __u32 size;

    if (!tid && !include_idle)
        return 0;
    if (!current_wanted())
        return 0;
    sc = bpf_map_lookup_elem(&profile_scratch, &cpu);
    if (!sc)
        return 0;
    sc->s.time_ns = bpf_ktime_get_ns();
    sc->s.cpu = cpu;
    sc->s.pid = id >> 32;
    sc->s.tid = tid;
    sc->s.reserved = 0;
    /* The interrupted task's: the sample is taken in its context. */
    sc->s.cgroup_id = bpf_get_current_cgroup_id();
    bpf_get_current_comm(sc->s.comm, sizeof(sc->s.comm));
    take_sample_stacks(ctx, &sc->s.st, sc->stack, tid, !user_only, !kernel_only);
    size = sc->s.st.stack_size;
    asm volatile("" : "+r"(size));
    if (size > USER_STACK_MAX_COPY)
        return 0;
    if (bpf_ringbuf_output(
            &profile_rb, sc, sizeof(sc->s) + size,
            submit_flags_for(&profile_rb, (struct task_struct *)bpf_get_current_task())))
        count_lost();
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
