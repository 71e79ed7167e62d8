/* SPDX-License-Identifier: GPL-2.0 */
/* The profile probe's sample record, shared with user space. */
#ifndef BPFLENS_PROFILE_H
#define BPFLENS_PROFILE_H

#include "bpf/bpflens.h"
#include "bpf/userstack.h"

/* bpf_get_stack's depth: the kernel's default perf_event_max_stack. */
#define PROFILE_MAX_FRAMES 127

enum profile_flags
{
    PROFILE_USER_REGS = 1,   /* regs hold the thread's user registers */
    PROFILE_IN_USER = 2,     /* the sample hit user mode (else kernel mode or idle) */
    PROFILE_NO_USER = 4,     /* a kernel thread or the idle task: no user side at all */
    PROFILE_STACK_LIMIT = 8, /* the copy stopped at the size limit, not at the stack's top */
};

/* One sample; stack_size bytes of the user stack from sp upwards follow it. */
struct profile_sample
{
    __u64 time_ns;
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u32 cpu;
    __u32 pid; /* tgid; 0 for the idle task */
    __u32 tid;
    __u32 flags;      /* profile_flags */
    __u16 kstack_len; /* frames in kstack; PROFILE_MAX_FRAMES: possibly truncated */
    __u16 ustack_len; /* frames in ustack (frame pointers), leaf first */
    __u32 stack_size; /* bytes of user stack after the record */
    char comm[BPFLENS_COMM_LEN];
    __u64 regs[USER_REGS];
    __u64 kstack[PROFILE_MAX_FRAMES];
    __u64 ustack[PROFILE_MAX_FRAMES];
};

#endif
