/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by every probe: the common filters, log2 bucketing, lost-event counting and batched
 * ring buffer submission. Include after vmlinux.h and the libbpf headers. */
#ifndef BPFLENS_COMMON_BPF_H
#define BPFLENS_COMMON_BPF_H

#include "bpf/bpflens.h"

/* Common filters, set by user space before load. 0 / empty means "no filter". */
const volatile __u32 filter_tgid = 0;
const volatile __u32 filter_tid = 0;
const volatile __u32 filter_uid = 0;
const volatile bool filter_uid_set = false;
const volatile char filter_comm[BPFLENS_COMM_LEN] = {};
const volatile bool filter_cgroup = false;
/* Ring buffer data (bytes) after which the consumer is woken; below it records wait for the
 * consumer's periodic poll, so a storm of small records costs no wake-up per record. */
const volatile __u64 wakeup_bytes = 64 * 1024;

/* A tp_btf argument whose position depends on the running kernel (a tracepoint's signature
 * changed), chosen by a constant set before load. Written as `c ? ctx[1] : ctx[0]`, clang emits
 * one load through ctx moved by a register, which every verifier refuses ("dereference of
 * modified ctx ptr") unless the move is 0 — so it loaded on new kernels only. The asm keeps a
 * load at a fixed offset on each path, and the verifier explores only the path the constant
 * takes. Offsets are in bytes (argument n is at 8 * n). */
#define BPFLENS_CTX_LOAD(ctx, off)                                                                 \
    ({                                                                                             \
        __u64 __v;                                                                                 \
        asm volatile("%0 = *(u64 *)(%1 + " #off ")" : "=r"(__v) : "r"(ctx));                       \
        __v;                                                                                       \
    })
#define BPFLENS_CTX_ARG(ctx, cond, off_if, off_else)                                               \
    ((cond) ? BPFLENS_CTX_LOAD(ctx, off_if) : BPFLENS_CTX_LOAD(ctx, off_else))

/* Records the kernel could not deliver (ring buffer full). Read by user space. */
__u64 lost = 0;
/* Events that could not be made because the kernel did not run a program for one of their
 * stages (a block request's completion): not seen, as opposed to lost for want of room. */
__u64 unseen = 0;
/* Samples no histogram counted: their key was new and the histogram map was full. Read by user
 * space, which reports them with the map's size. */
__u64 hist_full = 0;

struct
{
    __uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, __u32);
} cgroup_map SEC(".maps");

static __always_inline bool comm_matches(void)
{
    char comm[BPFLENS_COMM_LEN];
    int i;

    if (!filter_comm[0])
        return true;
    bpf_get_current_comm(comm, sizeof(comm));
    for (i = 0; i < BPFLENS_COMM_LEN; i++) {
        if (comm[i] != filter_comm[i])
            return false;
        if (!comm[i])
            break;
    }
    return true;
}

/* Whether the current task passes the common filters. */
static __always_inline bool current_wanted(void)
{
    __u64 id = bpf_get_current_pid_tgid();

    if (filter_tgid && (__u32)(id >> 32) != filter_tgid)
        return false;
    if (filter_tid && (__u32)id != filter_tid)
        return false;
    if (filter_uid_set && (__u32)bpf_get_current_uid_gid() != filter_uid)
        return false;
    if (filter_cgroup && !bpf_current_task_under_cgroup(&cgroup_map, 0))
        return false;
    return comm_matches();
}

static __always_inline __u64 log2_u32(__u32 v)
{
    __u32 shift, r;

    r = (v > 0xFFFF) << 4;
    v >>= r;
    shift = (v > 0xFF) << 3;
    v >>= shift;
    r |= shift;
    shift = (v > 0xF) << 2;
    v >>= shift;
    r |= shift;
    shift = (v > 0x3) << 1;
    v >>= shift;
    r |= shift;
    r |= (v >> 1);
    return r;
}

/* floor(log2(v)), 0 for 0 and 1: the slot rule of libbpf-tools' bits.bpf.h. */
static __always_inline __u64 log2l(__u64 v)
{
    __u32 hi = v >> 32;

    return hi ? log2_u32(hi) + 32 : log2_u32(v);
}

static __always_inline void hist_add(struct bpflens_hist *h, __u64 value)
{
    __u64 slot = log2l(value);

    if (slot >= BPFLENS_MAX_SLOTS)
        slot = BPFLENS_MAX_SLOTS - 1;
    __sync_fetch_and_add(&h->slots[slot], 1);
    __sync_fetch_and_add(&h->sum, value);
}

/* The histogram of key in map (a hash map of struct bpflens_hist), created empty if new; NULL
 * (counted in hist_full) when the map has no room for another key. */
static __always_inline struct bpflens_hist *hist_of(void *map, const void *key)
{
    static const struct bpflens_hist empty;
    struct bpflens_hist *h = bpf_map_lookup_elem(map, key);

    if (h)
        return h;
    /* -EEXIST when another CPU created it meanwhile: the lookup below finds that one. */
    bpf_map_update_elem(map, key, &empty, BPF_NOEXIST);
    h = bpf_map_lookup_elem(map, key);
    if (!h)
        __sync_fetch_and_add(&hist_full, 1);
    return h;
}

static __always_inline void count_lost(void)
{
    __sync_fetch_and_add(&lost, 1);
}

static __always_inline void count_unseen(void)
{
    __sync_fetch_and_add(&unseen, 1);
}

/* Producer position of the object's ring buffer at its last forced wake-up. */
__u64 last_wakeup_pos = 0;

/* Submit without waking the consumer until enough data is waiting, and then once per
 * wakeup_bytes produced, not per record: a wake-up is an irq_work, whose self-IPI is an APIC
 * register write, a VM exit under a hypervisor. Waking on every record while the consumer had
 * not yet caught up took a quarter of an open storm's CPU time in the traced process. A
 * consumer woken once keeps draining while data is there (level-triggered epoll); a wake-up
 * two CPUs race past is made up wakeup_bytes later or by the consumer's periodic poll. */
static __always_inline long submit_flags(void *rb)
{
    __u64 prod;

    if (bpf_ringbuf_query(rb, BPF_RB_AVAIL_DATA) < wakeup_bytes)
        return BPF_RB_NO_WAKEUP;
    prod = bpf_ringbuf_query(rb, BPF_RB_PROD_POS);
    if (prod - last_wakeup_pos < wakeup_bytes)
        return BPF_RB_NO_WAKEUP;
    last_wakeup_pos = prod;
    return BPF_RB_FORCE_WAKEUP;
}

#endif
