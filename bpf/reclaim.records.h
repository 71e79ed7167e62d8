/* SPDX-License-Identifier: GPL-2.0 */
/* reclaim records and histogram keys, shared by reclaim.bpf.c and user space: plain C. */
#ifndef BPFLENS_RECLAIM_H
#define BPFLENS_RECLAIM_H

#include "bpf/bpflens.h"

enum reclaim_kind
{
    RECLAIM_DIRECT = 1,     /* an allocation reclaiming for the machine (vmscan direct reclaim) */
    RECLAIM_MEMCG = 2,      /* a charge over a memory cgroup's limit, or over its memory.high */
    RECLAIM_COMPACTION = 3, /* memory compaction of a zone (an allocation's, kcompactd's) */
};

/* One reclaim span of one task. */
struct reclaim_event
{
    __u64 ts_ns;      /* its end */
    __u64 latency_ns; /* begin to end */
    __u64 nr_reclaimed;
    __u64 cgroup_id;
    __u32 pid;
    __u32 tid;
    __u8 kind; /* reclaim_kind */
    __u8 pad[7];
    char comm[BPFLENS_COMM_LEN];
};

/* Histogram key: the kind. */
struct reclaim_key
{
    __u32 kind;
};

#endif
