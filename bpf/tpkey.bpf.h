/* SPDX-License-Identifier: GPL-2.0 */
/* A value read at a tracepoint as a struct tppair_key_desc says (the thread, an argument, or a
 * field behind an argument), for the probes that attach to any tracepoint: tppair and tpcount;
 * and at their uprobe, USDT and kprobe hooks, the thread, the process or a USDT argument. */
#ifndef BPFLENS_TPKEY_BPF_H
#define BPFLENS_TPKEY_BPF_H

#include "bpf/tppair.records.h"
#include "bpf/usdtarg.bpf.h"

/* Every access has a constant offset: the verifier refuses a moved context pointer, and with
 * the index known at load it follows one branch only, so attaching to a tracepoint with fewer
 * arguments is allowed. The barrier keeps the compiler from merging the loads into one load
 * from a computed address. */
#define ARG_CASE(i)                                                                                \
    case i:                                                                                        \
        v = args[i];                                                                               \
        barrier_var(v);                                                                            \
        return v

static __always_inline __u64 arg_value(const __u64 *args, __u32 n)
{
    __u64 v;

    switch (n) {
        ARG_CASE(0);
        ARG_CASE(1);
        ARG_CASE(2);
        ARG_CASE(3);
        ARG_CASE(4);
        ARG_CASE(5);
        ARG_CASE(6);
        ARG_CASE(7);
        ARG_CASE(8);
        ARG_CASE(9);
        ARG_CASE(10);
        ARG_CASE(11);
    default:
        return 0;
    }
}

static __always_inline __u64 size_mask(__u32 size)
{
    return size >= 8 ? ~0ull : (1ull << (size * 8)) - 1;
}

static __always_inline bool read_key(const __u64 *args, const volatile struct tppair_key_desc *d,
                                     __u64 *key)
{
    __u64 v, out = 0;
    int i;

    if (d->kind == TPPAIR_KEY_TID) {
        *key = (__u32)bpf_get_current_pid_tgid();
        return true;
    }
    if (d->kind == TPPAIR_KEY_PID) {
        *key = bpf_get_current_pid_tgid() >> 32;
        return true;
    }
    v = arg_value(args, d->arg);
    if (d->kind == TPPAIR_KEY_ARG) {
        *key = v & size_mask(d->size);
        return true;
    }
#pragma unroll
    for (i = 0; i < TPPAIR_MAX_HOPS; i++) {
        if (i >= d->hops)
            break;
        if (!v || bpf_probe_read_kernel(&v, sizeof(v), (void *)(v + d->hop_offsets[i])))
            return false;
    }
    if (!v || bpf_probe_read_kernel(&out, d->size, (void *)(v + d->leaf_offset)))
        return false;
    *key = out;
    return true;
}

/* The same for a uprobe, uretprobe, USDT probe, kprobe or kretprobe (a pt_regs context): the
 * thread, the process, or (any other kind) the USDT argument arg describes. */
static __always_inline bool read_regs_key(struct pt_regs *ctx,
                                          const volatile struct tppair_key_desc *d,
                                          const volatile struct usdt_arg_spec *arg, __u64 *key)
{
    if (d->kind == TPPAIR_KEY_TID) {
        *key = (__u32)bpf_get_current_pid_tgid();
        return true;
    }
    if (d->kind == TPPAIR_KEY_PID) {
        *key = bpf_get_current_pid_tgid() >> 32;
        return true;
    }
    return usdt_arg_read(ctx, arg, key);
}

#endif
