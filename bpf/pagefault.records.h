/* SPDX-License-Identifier: GPL-2.0 */
/* pagefault's record, shared by pagefault.bpf.c and user space: plain C. */
#ifndef BPFLENS_PAGEFAULT_H
#define BPFLENS_PAGEFAULT_H

#include "bpf/bpflens.h"
#include "bpf/samplestack.h"

/* What the faulting address was, from its VMA (bpf_find_vma, 5.17+). */
enum pagefault_kind
{
    PAGEFAULT_UNKNOWN = 0, /* no bpf_find_vma, the mm was busy, or no VMA */
    PAGEFAULT_ANON = 1,    /* an anonymous mapping (thread stacks are anonymous mappings too) */
    PAGEFAULT_FILE = 2,    /* a file mapping (shared memory included) */
    PAGEFAULT_STACK = 3,   /* the main thread's stack */
    PAGEFAULT_HEAP = 4,    /* the brk heap */
};

/* One fault (or one in every sample_period); st.stack_size bytes of user stack follow it. */
struct pagefault_sample
{
    __u64 time_ns;
    __u64 cgroup_id;
    __u64 addr; /* the faulting address */
    __u32 pid;
    __u32 tid;
    __u8 major; /* counted as major (maj_flt) by the kernel, else minor */
    __u8 kind;  /* pagefault_kind */
    __u8 pad[6];
    char comm[BPFLENS_COMM_LEN];
    struct sample_stacks st;
};

#endif
