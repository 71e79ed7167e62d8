/* SPDX-License-Identifier: GPL-2.0 */
/* oomkill records, shared by oomkill.bpf.c and user space: plain C. */
#ifndef BPFLENS_OOMKILL_H
#define BPFLENS_OOMKILL_H

#include "bpf/bpflens.h"

/* What limited the memory the OOM killer freed (the kernel's enum oom_constraint, plus 0). */
enum oomkill_constraint
{
    OOMKILL_CONSTRAINT_UNKNOWN = 0,
    OOMKILL_CONSTRAINT_NONE = 1,      /* the whole machine ran out: a global OOM */
    OOMKILL_CONSTRAINT_CPUSET = 2,    /* the allocating task's cpuset's nodes */
    OOMKILL_CONSTRAINT_MEMPOLICY = 3, /* its memory policy's nodes */
    OOMKILL_CONSTRAINT_MEMCG = 4,     /* a memory cgroup's limit */
};

/* One OOM kill. */
struct oomkill_event
{
    __u64 ts_ns;
    __u64 cgroup_id; /* the victim's cgroup v2 id */
    __u64 total_vm;  /* the victim's pages, as the kernel's "Killed process" line counts them */
    __u64 anon_rss;
    __u64 file_rss;
    __u64 shmem_rss;
    __u64 pgtables_bytes;
    __u32 pid;         /* the victim's tgid */
    __u32 trigger_pid; /* the task that ran the OOM killer (tgid, tid) */
    __u32 trigger_tid;
    __s16 oom_score_adj;
    __u8 constraint; /* oomkill_constraint */
    __u8 pad;
    char comm[BPFLENS_COMM_LEN];
    char trigger_comm[BPFLENS_COMM_LEN];
};

#endif
