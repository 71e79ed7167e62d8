/* SPDX-License-Identifier: GPL-2.0 */
/* Records and histogram keys of the block probe, shared with user space. */
#ifndef BPFLENS_BLOCK_H
#define BPFLENS_BLOCK_H

#include "bpf/bpflens.h"

#define BPFLENS_DISK_NAME_LEN 32

/* Followed by disk_len bytes of the disk name (no NUL): a record costs what the name holds. */
struct block_event
{
    __u64 ts;        /* completion, bpf_ktime_get_ns() */
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u64 sector;
    __u64 queue_ns;  /* insert -> issue, 0 when not queued through an I/O scheduler */
    __u64 device_ns; /* issue -> complete */
    __u32 dev;       /* MKDEV(major, first_minor) as the kernel encodes it: major << 20 | minor */
    __u32 cmd_flags;
    __u32 bytes;
    __u32 pid; /* the task that submitted the request, 0 if unknown */
    char comm[BPFLENS_COMM_LEN];
    __u32 disk_len;
    __u32 pad;
};

/* Only the fields the options ask for are set (per disk: dev, per flags: cmd_flags). */
struct block_hist_key
{
    __u32 dev;
    __u32 cmd_flags;
};

/* Who submitted a request: current in block_io_start (or, without it, at insert/issue). */
struct submitter
{
    __u32 pid;
    __u32 wanted; /* passed the pid, comm and cgroup filters */
    char comm[BPFLENS_COMM_LEN];
    __u64 cgroup_id; /* the submitter's: the completion runs in no task of its own */
};

/* The probe's state of a request from insert or issue to completion (map start). Shared with
 * user space, which counts what is left in the map when the probe stops (see BlockProbe). */
struct stage
{
    __u64 insert;
    __u64 issue;
    __u64 sector;
    __u32 bytes;
    __u32 dev;
    __u32 requeued; /* sent back by the driver, waiting to be issued again */
    __u32 known;    /* who is this life's submitter; else nobody knows (see claim_submitter) */
    __u64 birth;    /* the request's start_time_ns then: which life of the pointer this is */
    struct submitter who;
};

#endif
