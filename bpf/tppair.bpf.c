// SPDX-License-Identifier: GPL-2.0
// Latency between two hooks, paired by a key, or from one hit of a hook to the next hit of the
// same key: one precompiled program pair for any two tracepoints, and one for uprobes,
// uretprobes, USDT probes, kprobes and kretprobes (and one program of each type for one hook).
// User space attaches them as raw tracepoints by name and describes in rodata where each side
// finds its key (the thread, an argument, or a field behind an argument), offsets computed from
// the running kernel's BTF. The descriptions are constant after load, so the verifier only sees
// the argument and the reads that are really used.
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/tpkey.bpf.h"
#include "bpf/tppair.records.h"

#define MAX_STARTS 16384

const volatile struct tppair_key_desc start_key = {};
const volatile struct tppair_key_desc end_key = {};
/* Where a USDT side finds the argument its key is (kind TPPAIR_KEY_ARG at a pt_regs hook), per
 * argument list of its sites (usdt_spec_id). */
const volatile struct usdt_arg_spec start_args[USDT_MAX_SPECS] = {};
const volatile struct usdt_arg_spec end_args[USDT_MAX_SPECS] = {};
const volatile __u64 unit_div = 1000;
/* Pairs at least this slow are recorded as events; negative: none. */
const volatile __s64 threshold_ns = -1;

struct start_info
{
    __u64 ts;
    __u64 cgroup_id; /* the start side's task's, as pid and comm */
    __u32 pid;
    __u32 tid;
    char comm[BPFLENS_COMM_LEN];
};

/* LRU: a start whose end never comes (a thread that exits in between, a request that is merged
 * away) is evicted eventually instead of filling the map for good. */
struct
{
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, MAX_STARTS);
    __type(key, __u64);
    __type(value, struct start_info);
} tppair_starts SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct bpflens_hist);
} tppair_hists SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 1 << 22);
} tppair_rb SEC(".maps");

/* Starts and ends whose key could not be read (a NULL pointer on the path). */
__u64 unreadable = 0;

/* ts: the start's time, or 0 to take it now. */
static __always_inline int pair_start(__u64 key, __u64 ts)
{
    struct start_info info = {};
    __u64 id;

    id = bpf_get_current_pid_tgid();
    info.pid = id >> 32;
    info.tid = (__u32)id;
    info.cgroup_id = bpf_get_current_cgroup_id();
    if (threshold_ns >= 0)
        bpf_get_current_comm(info.comm, sizeof(info.comm));
    /* Taken last, so the filters and the key read are not part of the latency. */
    info.ts = ts ? ts : bpf_ktime_get_ns();
    /* A second start before the end replaces the first: the latest start is measured. */
    bpf_map_update_elem(&tppair_starts, &key, &info, BPF_ANY);
    return 0;
}

static __always_inline int pair_end(__u64 key, __u64 now)
{
    struct start_info *info;
    struct tppair_event *e;
    struct bpflens_hist *h;
    __u32 zero = 0;
    __u64 delta;

    info = bpf_map_lookup_elem(&tppair_starts, &key);
    if (!info)
        return 0;
    delta = now - info->ts;
    if ((__s64)delta < 0)
        goto cleanup;
    h = bpf_map_lookup_elem(&tppair_hists, &zero);
    if (h)
        hist_add(h, delta / unit_div);
    if (threshold_ns >= 0 && delta >= (__u64)threshold_ns) {
        e = bpf_ringbuf_reserve(&tppair_rb, sizeof(*e), 0);
        if (e) {
            e->ts = now;
            e->key = key;
            e->latency_ns = delta;
            e->pid = info->pid;
            e->tid = info->tid;
            e->cgroup_id = info->cgroup_id;
            __builtin_memcpy(e->comm, info->comm, sizeof(e->comm));
            bpf_ringbuf_submit(e, submit_flags(&tppair_rb));
        } else {
            count_lost();
        }
    }
cleanup:
    bpf_map_delete_elem(&tppair_starts, &key);
    return 0;
}

SEC("raw_tp")
int tppair_start(struct bpf_raw_tracepoint_args *ctx)
{
    __u64 key;

    if (!current_wanted())
        return 0;
    if (!read_key(ctx->args, &start_key, &key)) {
        __sync_fetch_and_add(&unreadable, 1);
        return 0;
    }
    return pair_start(key, 0);
}

SEC("raw_tp")
int tppair_end(struct bpf_raw_tracepoint_args *ctx)
{
    __u64 now = bpf_ktime_get_ns();
    __u64 key;

    if (!read_key(ctx->args, &end_key, &key)) {
        __sync_fetch_and_add(&unreadable, 1);
        return 0;
    }
    return pair_end(key, now);
}

/* Start and end at one hook (the time from one sync() to the next): each hit ends the pair its
 * key has pending and starts the next one, both at the one time, so that consecutive pairs add
 * up to the time from the first hit to the last. As at two hooks, the filters decide which hits
 * start a pair, and any hit ends one. */
static __always_inline int pair_next(__u64 key, __u64 now)
{
    pair_end(key, now);
    if (!current_wanted())
        return 0;
    return pair_start(key, now);
}

SEC("raw_tp")
int tppair_same(struct bpf_raw_tracepoint_args *ctx)
{
    __u64 now = bpf_ktime_get_ns();
    __u64 key;

    if (!read_key(ctx->args, &start_key, &key)) {
        __sync_fetch_and_add(&unreadable, 1);
        return 0;
    }
    return pair_next(key, now);
}

/* The same at a uprobe, uretprobe, USDT probe, kprobe or kretprobe: one program type for all of
 * them, attached by file and offset or by function name. */
SEC("uprobe")
int tppair_start_regs(struct pt_regs *ctx)
{
    __u64 key;
    __u32 spec = usdt_spec_id(ctx);

    if (!current_wanted())
        return 0;
    if (spec >= USDT_MAX_SPECS ||
        !read_regs_key(ctx, &start_key, &start_args[usdt_spec_index(spec)], &key)) {
        __sync_fetch_and_add(&unreadable, 1);
        return 0;
    }
    return pair_start(key, 0);
}

SEC("uprobe")
int tppair_end_regs(struct pt_regs *ctx)
{
    __u64 now = bpf_ktime_get_ns();
    __u64 key;
    __u32 spec = usdt_spec_id(ctx);

    if (spec >= USDT_MAX_SPECS ||
        !read_regs_key(ctx, &end_key, &end_args[usdt_spec_index(spec)], &key)) {
        __sync_fetch_and_add(&unreadable, 1);
        return 0;
    }
    return pair_end(key, now);
}

SEC("uprobe")
int tppair_same_regs(struct pt_regs *ctx)
{
    __u64 now = bpf_ktime_get_ns();
    __u64 key;
    __u32 spec = usdt_spec_id(ctx);

    if (spec >= USDT_MAX_SPECS ||
        !read_regs_key(ctx, &start_key, &start_args[usdt_spec_index(spec)], &key)) {
        __sync_fetch_and_add(&unreadable, 1);
        return 0;
    }
    return pair_next(key, now);
}

char LICENSE[] SEC("license") = "GPL";
