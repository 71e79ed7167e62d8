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
    OFFCPU_WAKER_STACK = 3, /* offwake: the waker's user registers and stack at the wakeup */
};

enum offcpu_event_flags
{
    /* The thread waited inside a system call: an offcpu_user_stack record for its tid follows
     * when the call returns, with what DWARF unwinding needs. */
    OFFCPU_COPY_FOLLOWS = 1,
};

enum offcpu_waker_flags
{
    OFFCPU_WAKER_FOUND = 1, /* the wakeup that ended the span was seen: the waker fields hold */
    OFFCPU_WAKER_COPY = 2,  /* an offcpu_waker_stack record for this wakeup came first */
};

/* A thread that was off the CPU for at least min_ns, reported when it runs again. With wakers
 * (the offwake probe), the wakeup that ended the span: who woke it, when and from where. */
struct offcpu_event
{
    __u32 kind;      /* OFFCPU_EVENT */
    __u32 flags;     /* offcpu_event_flags */
    __u64 time_ns;   /* switched out */
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u64 off_ns;
    __u32 pid;
    __u32 tid;
    __s32 kstack_id; /* into the stack trace map; negative: none (error code) */
    __s32 ustack_id;
    char comm[BPFLENS_COMM_LEN];
    __u64 wake_ns;     /* sched_waking's time; 0: no wakeup seen (preempted, or lost) */
    __u32 waker_flags; /* offcpu_waker_flags */
    __u32 waker_pid;
    __u32 waker_tid;
    __s32 waker_kstack_id; /* taken even with user_only: it tells an interrupt's wakeup */
    __s32 waker_ustack_id;
    __u32 pad;
    char waker_comm[BPFLENS_COMM_LEN];
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

/* offwake: the waker's user registers and the top of its user stack, copied at the wakeup of a
 * thread already off the CPU for min_ns (a span that will be reported), for DWARF unwinding.
 * Precedes the wakee's event in the ring buffer; matched to it by wakee tid and wake_ns. */
struct offcpu_waker_stack
{
    __u32 kind; /* OFFCPU_WAKER_STACK */
    __u32 wakee_tid;
    __u32 flags; /* offcpu_user_stack_flags */
    __u32 stack_size;
    __u64 wake_ns;
    __u64 regs[USER_REGS];
};

#endif
