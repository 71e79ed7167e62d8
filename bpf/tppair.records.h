/* SPDX-License-Identifier: GPL-2.0 */
/* The tppair probe's key descriptions and records, shared with user space. */
#ifndef BPFLENS_TPPAIR_H
#define BPFLENS_TPPAIR_H

#include "bpf/bpflens.h"

/* Pointers a key path may follow (arg0.a.b: arg0 is the first base for free, b needs a). */
#define TPPAIR_MAX_HOPS 6
/* MAX_BPF_FUNC_ARGS: a tracepoint has at most 12 arguments. */
#define TPPAIR_MAX_ARGS 12

enum tppair_key_kind
{
    TPPAIR_KEY_TID = 0,   /* the current thread */
    TPPAIR_KEY_PID = 1,   /* the current process (tgid) */
    TPPAIR_KEY_ARG = 2,   /* the value of argument arg, masked to size bytes; at a pt_regs
                           * hook, the USDT argument its usdt_arg_spec describes */
    TPPAIR_KEY_FIELD = 3, /* size bytes at leaf_offset from the struct argument arg points to,
                           * after following hops pointers found at hop_offsets */
};

/* How one side reads its key: computed by user space from the kernel's BTF. */
struct tppair_key_desc
{
    __u32 kind;
    __u32 arg;
    __u32 size; /* 1, 2, 4 or 8 */
    __u32 hops;
    __u32 hop_offsets[TPPAIR_MAX_HOPS];
    __u32 leaf_offset;
    __u32 pad;
};

struct tppair_event
{
    __u64 ts;        /* end, bpf_ktime_get_ns() */
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u64 key;
    __u64 latency_ns;
    __u32 pid; /* of the start side */
    __u32 tid;
    char comm[BPFLENS_COMM_LEN];
};

#endif
