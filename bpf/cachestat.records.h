/* SPDX-License-Identifier: GPL-2.0 */
/* cachestat counters, shared by cachestat.bpf.c and user space: plain C. */
#ifndef BPFLENS_CACHESTAT_H
#define BPFLENS_CACHESTAT_H

/* Cumulative page counts since load, one copy per CPU (summed by user space). */
struct cachestat_counts
{
    __u64 accesses; /* pages looked up by reads (and file page faults) */
    __u64 added;    /* pages added to the page cache */
    __u64 dirtied;  /* pages dirtied (accounted for writeback) */
};

#endif
