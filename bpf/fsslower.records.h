/* SPDX-License-Identifier: GPL-2.0 */
/* The fsslower probe's ring buffer record, shared by fsslower.bpf.c and user space. */
#ifndef BPFLENS_FSSLOWER_H
#define BPFLENS_FSSLOWER_H

#include "bpf/bpflens.h"

#define FSSLOWER_NAME_MAX 255 /* NAME_MAX: a file name is never cut short */
#define FSSLOWER_FS_LEN 16

/* Followed by name_len bytes of the file name (no NUL). */
struct fsslower_record
{
    __u64 time_ns;   /* completion */
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u64 latency_ns;
    __u64 bytes;
    __u64 offset;
    __u32 pid;
    __u32 name_len;
    char comm[BPFLENS_COMM_LEN];
    char fs[FSSLOWER_FS_LEN];
    __u8 op; /* 'R', 'W', 'O', 'F' */
    __u8 pad[7];
};

#endif
