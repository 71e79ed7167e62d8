/* SPDX-License-Identifier: GPL-2.0 */
/* The profile probe's sample record, shared with user space. */
#ifndef BPFLENS_PROFILE_H
#define BPFLENS_PROFILE_H

#include "bpf/bpflens.h"
#include "bpf/samplestack.h"

/* One sample; st.stack_size bytes of the user stack from sp upwards follow it. */
struct profile_sample
{
    __u64 time_ns;
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u32 cpu;
    __u32 pid; /* tgid; 0 for the idle task */
    __u32 tid;
    __u32 reserved;
    char comm[BPFLENS_COMM_LEN];
    struct sample_stacks st;
};

#endif
