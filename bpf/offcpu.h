/* SPDX-License-Identifier: GPL-2.0 */
/* The offcpu probe's record, shared with user space. */
#ifndef BPFLENS_OFFCPU_H
#define BPFLENS_OFFCPU_H

#include "bpflens.h"

#define OFFCPU_MAX_FRAMES 127
/* Entries of the stack trace map, a power of two: stack ids are below it, and stack_refs (one
 * counter per id) is indexed by them. */
#define OFFCPU_STACK_IDS 4096

/* A thread that was off the CPU for at least min_ns, reported when it runs again. */
struct offcpu_event
{
    __u64 time_ns; /* switched out */
    __u64 off_ns;
    __u32 pid;
    __u32 tid;
    __s32 kstack_id; /* into the stack trace map; negative: none (error code) */
    __s32 ustack_id;
    char comm[BPFLENS_COMM_LEN];
};

#endif
