/* SPDX-License-Identifier: GPL-2.0 */
/* The stacks a perf event program takes at each sample (profile's clock, pagefault's faults),
 * shared with user space: the kernel stack, the user frame-pointer chain, and for DWARF
 * unwinding the user registers; the copy of the top of the user stack follows the record. */
#ifndef BPFLENS_SAMPLESTACK_H
#define BPFLENS_SAMPLESTACK_H

#include "bpf/userstack.h"

/* bpf_get_stack's depth: the kernel's default perf_event_max_stack. */
#define SAMPLE_MAX_FRAMES 127

enum sample_stack_flags
{
    SAMPLE_USER_REGS = 1,   /* regs hold the thread's user registers */
    SAMPLE_IN_USER = 2,     /* the sample hit user mode (else kernel mode or idle) */
    SAMPLE_NO_USER = 4,     /* a kernel thread or the idle task: no user side at all */
    SAMPLE_STACK_LIMIT = 8, /* the copy stopped at the size limit, not at the stack's top */
};

struct sample_stacks
{
    __u32 flags;      /* sample_stack_flags */
    __u16 kstack_len; /* frames in kstack; SAMPLE_MAX_FRAMES: possibly truncated */
    __u16 ustack_len; /* frames in ustack (frame pointers), leaf first */
    __u32 stack_size; /* bytes of user stack after the record */
    __u32 reserved;
    __u64 regs[USER_REGS];
    __u64 kstack[SAMPLE_MAX_FRAMES];
    __u64 ustack[SAMPLE_MAX_FRAMES];
};

#endif
