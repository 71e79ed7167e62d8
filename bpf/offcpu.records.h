/* SPDX-License-Identifier: GPL-2.0 */
/* The offcpu probe's record, shared with user space. */
#ifndef BPFLENS_OFFCPU_H
#define BPFLENS_OFFCPU_H

#include "bpf/bpflens.h"
#include "bpf/userstack.h"

#define OFFCPU_MAX_FRAMES 127
/* Entries of the stack trace map, a power of two: stack ids are below it, and stack_refs (one
 * counter per id) is indexed by them. */
#define OFFCPU_STACK_IDS 4096

/* The ring buffer's two kinds of record, told apart by their first field. */
enum offcpu_record_kind
{
    OFFCPU_EVENT = 1,
    OFFCPU_USER_STACK = 2,
};

enum offcpu_event_flags
{
    /* The thread waited inside a system call: an offcpu_user_stack record for its tid follows
     * when the call returns, with what DWARF unwinding needs. */
    OFFCPU_COPY_FOLLOWS = 1,
};

/* A thread that was off the CPU for at least min_ns, reported when it runs again. */
struct offcpu_event
{
    __u32 kind;    /* OFFCPU_EVENT */
    __u32 flags;   /* offcpu_event_flags */
    __u64 time_ns; /* switched out */
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u64 off_ns;
    __u32 pid;
    __u32 tid;
    __s32 kstack_id; /* into the stack trace map; negative: none (error code) */
    __s32 ustack_id;
    char comm[BPFLENS_COMM_LEN];
};

enum offcpu_user_stack_flags
{
    OFFCPU_REGS_VALID = 1, /* regs and the stack copy are the waits' (else: none, take the chain) */
    OFFCPU_STACK_LIMIT = 2, /* the copy stopped at the size limit, not at the stack's top */
};

/* The user registers and the top of the user stack of a thread whose waits carried
 * OFFCPU_COPY_FOLLOWS, taken as its system call returns to user space: the thread has not run
 * user code since it blocked, so they are those of every such wait of the tid not yet matched.
 * stack_size bytes of the user stack from regs' sp upwards follow the record. */
struct offcpu_user_stack
{
    __u32 kind; /* OFFCPU_USER_STACK */
    __u32 tid;
    __u32 flags; /* offcpu_user_stack_flags */
    __u32 stack_size;
    __u64 regs[USER_REGS];
};

#endif
