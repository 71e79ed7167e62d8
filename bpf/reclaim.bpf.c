// SPDX-License-Identifier: GPL-2.0
// Memory reclaim spans, like bcc's drsnoop plus cgroup-limit reclaim and compaction (bcc's
// compactsnoop): vmscan's direct reclaim (an allocation the machine could not satisfy at once),
// memcg reclaim (a charge over a memory cgroup's memory.max or memory.high, v1's limit) and
// compaction's begin and end tracepoints, timed per task; each span an event (at least
// min_latency_ns long) and a sample of its kind's histogram. The kinds are kept apart: a span
// ends only at its own end.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/reclaim.records.h"

#define MAX_TASKS 10240

const volatile __u64 unit_div = 1000;
const volatile __u64 min_latency_ns = 0;

struct start_key
{
    __u32 tid;
    __u32 kind;
};

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_TASKS);
    __type(key, struct start_key);
    __type(value, __u64);
} start SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 16);
    __type(key, struct reclaim_key);
    __type(value, struct bpflens_hist);
} hists SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 256 * 1024);
} rb SEC(".maps");

static __always_inline void begin(__u32 kind)
{
    struct start_key k = {};
    __u64 ts;

    if (!current_wanted())
        return;
    k.tid = (__u32)bpf_get_current_pid_tgid();
    k.kind = kind;
    ts = bpf_ktime_get_ns();
    bpf_map_update_elem(&start, &k, &ts, BPF_ANY);
}

static __always_inline void end(__u32 kind, __u64 nr_reclaimed)
{
    __u64 id = bpf_get_current_pid_tgid();
    struct start_key k = {};
    struct reclaim_key hk = {};
    struct reclaim_event e = {};
    struct bpflens_hist *h;
    __u64 *tsp, now, delta;

    k.tid = (__u32)id;
    k.kind = kind;
    tsp = bpf_map_lookup_elem(&start, &k);
    if (!tsp)
        return;
    now = bpf_ktime_get_ns();
    delta = now - *tsp;
    bpf_map_delete_elem(&start, &k);
    if ((__s64)delta < 0)
        return;
    hk.kind = kind;
    h = hist_of(&hists, &hk);
    if (h)
        hist_add(h, delta / unit_div);
    if (delta < min_latency_ns)
        return;
    e.ts_ns = now;
    e.latency_ns = delta;
    e.nr_reclaimed = nr_reclaimed;
    e.cgroup_id = bpf_get_current_cgroup_id();
    e.pid = id >> 32;
    e.tid = (__u32)id;
    e.kind = kind;
    bpf_get_current_comm(e.comm, sizeof(e.comm));
    if (bpf_ringbuf_output(&rb, &e, sizeof(e), submit_flags(&rb)))
        count_lost();
}

/* A BTF tracepoint where the kernel's BTF types it, else a raw one (4.17+): tracefs's would
 * take the same programs for no gain. Begins: their arguments (order, gfp flags; a memcg id on
 * newer kernels) are not needed. */
SEC("tp_btf/mm_vmscan_direct_reclaim_begin")
int reclaim_direct_begin_btf(void *ctx)
{
    begin(RECLAIM_DIRECT);
    return 0;
}

SEC("raw_tp/mm_vmscan_direct_reclaim_begin")
int reclaim_direct_begin_raw(void *ctx)
{
    begin(RECLAIM_DIRECT);
    return 0;
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_begin")
int reclaim_memcg_begin_btf(void *ctx)
{
    begin(RECLAIM_MEMCG);
    return 0;
}

SEC("raw_tp/mm_vmscan_memcg_reclaim_begin")
int reclaim_memcg_begin_raw(void *ctx)
{
    begin(RECLAIM_MEMCG);
    return 0;
}

/* Ends: (unsigned long nr_reclaimed) on every kernel. */
SEC("tp_btf/mm_vmscan_direct_reclaim_end")
int BPF_PROG(reclaim_direct_end_btf, unsigned long nr_reclaimed)
{
    end(RECLAIM_DIRECT, nr_reclaimed);
    return 0;
}

SEC("raw_tp/mm_vmscan_direct_reclaim_end")
int BPF_PROG(reclaim_direct_end_raw, unsigned long nr_reclaimed)
{
    end(RECLAIM_DIRECT, nr_reclaimed);
    return 0;
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_end")
int BPF_PROG(reclaim_memcg_end_btf, unsigned long nr_reclaimed)
{
    end(RECLAIM_MEMCG, nr_reclaimed);
    return 0;
}

SEC("raw_tp/mm_vmscan_memcg_reclaim_end")
int BPF_PROG(reclaim_memcg_end_raw, unsigned long nr_reclaimed)
{
    end(RECLAIM_MEMCG, nr_reclaimed);
    return 0;
}

/* Compaction of one zone (compact_zone()): in an allocation that could not find contiguous free
 * pages (direct compaction, a stall), in kcompactd, or for a write to
 * /proc/sys/vm/compact_memory. Its arguments differ across kernels (a compact_control first
 * since 6.x) and are not needed. */
SEC("tp_btf/mm_compaction_begin")
int reclaim_compaction_begin_btf(void *ctx)
{
    begin(RECLAIM_COMPACTION);
    return 0;
}

SEC("raw_tp/mm_compaction_begin")
int reclaim_compaction_begin_raw(void *ctx)
{
    begin(RECLAIM_COMPACTION);
    return 0;
}

SEC("tp_btf/mm_compaction_end")
int reclaim_compaction_end_btf(void *ctx)
{
    end(RECLAIM_COMPACTION, 0);
    return 0;
}

SEC("raw_tp/mm_compaction_end")
int reclaim_compaction_end_raw(void *ctx)
{
    end(RECLAIM_COMPACTION, 0);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
