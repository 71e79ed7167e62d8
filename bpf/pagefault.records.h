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

/* One fault (or one in every sample_period). Only what was taken follows it: stack_size bytes
 * of user stack, then kstack_len kernel and ustack_len user (frame-pointer) return addresses,
 * leaf first, 8 bytes each; not profile's sample_stacks with both arrays whole, some 2 KiB of a
 * record that would mostly be empty (a fault's stacks are some 20 frames). */
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
    __u32 flags;      /* sample_stack_flags */
    __u16 kstack_len; /* at most SAMPLE_MAX_FRAMES */
    __u16 ustack_len;
    __u32 stack_size; /* at most USER_STACK_MAX_COPY */
    __u32 reserved;
    __u64 regs[USER_REGS]; /* with SAMPLE_USER_REGS */
};

#endif
