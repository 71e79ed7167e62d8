/* SPDX-License-Identifier: GPL-2.0 */
/* memleak's records, shared by memleak.bpf.c and user space: plain C. */
#ifndef BPFLENS_MEMLEAK_H
#define BPFLENS_MEMLEAK_H

#include "bpf/bpflens.h"
#include "bpf/samplestack.h"

/* The allocator's functions, each hooked by its own program pair; the order is the event's
 * AllocationEvent::Function. */
enum memleak_func
{
    MEMLEAK_MALLOC = 0,
    MEMLEAK_CALLOC = 1,
    MEMLEAK_REALLOC = 2,
    MEMLEAK_REALLOCARRAY = 3,
    MEMLEAK_POSIX_MEMALIGN = 4,
    MEMLEAK_ALIGNED_ALLOC = 5,
    MEMLEAK_MEMALIGN = 6,
    MEMLEAK_VALLOC = 7,
    MEMLEAK_PVALLOC = 8,
    MEMLEAK_MMAP = 9,
    /* the kernel's own, machine-wide (no process given) */
    MEMLEAK_KMALLOC = 10,
    MEMLEAK_KMEM_CACHE_ALLOC = 11,
    MEMLEAK_PAGE_ALLOC = 12, /* address: the page frame number */
    MEMLEAK_FUNCS = 13,
};

enum memleak_record_kind
{
    MEMLEAK_REC_ALLOC = 1, /* a sampled allocation, at its return, with its stacks */
    MEMLEAK_REC_FREE = 2,  /* a recorded allocation freed (free, realloc, munmap) */
    MEMLEAK_REC_EXIT = 3,  /* a recorded process ended: its allocations die with it */
};

/* An allocation: at the allocator's return, so the stacks start in its caller (a kernel
 * allocation: at its tracepoint, with the kernel stack only). Only what was taken follows it, as
 * pagefault's: stack_size bytes of user stack, then kstack_len kernel and ustack_len
 * frame-pointer return addresses, leaf first. */
struct memleak_alloc
{
    __u32 kind; /* MEMLEAK_REC_ALLOC */
    __u32 pid;
    __u64 time_ns; /* the call's entry */
    __u64 cgroup_id;
    __u64 addr;
    __u64 size;
    __u32 tid;
    __u8 func; /* memleak_func */
    __u8 pad[3];
    char comm[BPFLENS_COMM_LEN];
    __u32 flags; /* sample_stack_flags */
    __u16 ustack_len;
    __u16 kstack_len;
    __u32 stack_size;
    __u32 reserved2;
    __u64 regs[USER_REGS]; /* with SAMPLE_USER_REGS */
};

/* A recorded allocation freed, or a recorded process gone (addr 0, MEMLEAK_REC_EXIT). A kernel
 * block is keyed by pid 0: any task may free it. */
struct memleak_free
{
    __u32 kind;
    __u32 pid;
    __u64 time_ns;
    __u64 addr;
    __u32 tid;
    __u32 reserved;
};

#endif
