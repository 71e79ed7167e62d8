/* SPDX-License-Identifier: GPL-2.0 */
/* The threadstate probe's records, shared by threadstate.bpf.c and user space: plain C. */
#ifndef BPFLENS_THREADSTATE_H
#define BPFLENS_THREADSTATE_H

#include "bpf/bpflens.h"

/* Kernel frames kept of a blocking or waking stack: enough to reach past the wait's helpers to
 * the function that waited (a read of a page from the disk is about twenty deep). */
#define THREADSTATE_MAX_FRAMES 32

enum threadstate_record_kind
{
    THREADSTATE_SWITCH = 1, /* sched_switch: prev leaves the CPU, next takes it */
    THREADSTATE_WAKING = 2, /* sched_waking: a blocked task is woken (in its waker's context) */
    THREADSTATE_NEW = 3,    /* sched_wakeup_new: a new task is runnable for the first time */
};

enum threadstate_flags
{
    THREADSTATE_PREV_WANTED = 1, /* switch: prev passes the filters */
    THREADSTATE_NEXT_WANTED = 2, /* switch: next passes the filters (and is not the idle task) */
};

/* Every record starts with it. nr_frames kernel addresses follow (prev's stack where it blocks;
 * the waker's at a wakeup). */
struct threadstate_record
{
    __u32 kind;  /* threadstate_record_kind */
    __u32 flags; /* threadstate_flags */
    __u64 ts;
    __u32 cpu;
    /* switch: prev; waking, new: the woken task */
    __u32 pid;
    __u32 tid;
    __u32 state; /* switch: prev's task state bits; waking: the wakee's */
    __u64 cgroup_id;
    char comm[BPFLENS_COMM_LEN];
    /* switch: next; waking, new: the current task (the waker, or the task an interrupt
     * interrupted: user space tells them apart by the stack) */
    __u32 other_pid;
    __u32 other_tid;
    __u64 other_cgroup_id;
    char other_comm[BPFLENS_COMM_LEN];
    __s32 nr_frames; /* negative: the stack could not be taken (an error code) */
    __u32 pad;
};

#endif
