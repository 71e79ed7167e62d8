// SPDX-License-Identifier: GPL-2.0
// Hits of any one tracepoint (or uprobe, USDT probe, kprobe), counted per key (up to two fields and
// the command name), or a log2 histogram of one numeric field per key: what the BCC tutorial's
// counting scripts do (task switches per pid pair, block requests per disk, bitehist, urandomread),
// with no code generated at run time. User space attaches the program as a raw tracepoint by name
// and describes in rodata where each key and the value are, as tppair does.
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/tpcount.records.h"
#include "bpf/tpkey.bpf.h"

#define MAX_KEYS 10240

const volatile struct tppair_key_desc key_descs[TPCOUNT_MAX_KEYS] = {};
const volatile __u32 key_count = 0;
const volatile bool by_comm = false;
/* A histogram of value_desc's value per key instead of a count. */
const volatile bool histogram = false;
const volatile struct tppair_key_desc value_desc = {};
/* At a pt_regs hook: the USDT arguments the keys and the value are (kind TPPAIR_KEY_ARG), per
 * argument list of the probe's sites (usdt_spec_id). */
const volatile struct usdt_arg_spec key_args[USDT_MAX_SPECS][TPCOUNT_MAX_KEYS] = {};
const volatile struct usdt_arg_spec value_args[USDT_MAX_SPECS] = {};

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_KEYS);
    __type(key, struct tpcount_key);
    __type(value, __u64);
} tpcount_counts SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_KEYS);
    __type(key, struct tpcount_key);
    __type(value, struct bpflens_hist);
} tpcount_hists SEC(".maps");

/* Hits whose key was new when the count map was full: counted here only. */
__u64 keys_full = 0;
/* Hits whose key or value path met a NULL pointer or unreadable memory. */
__u64 unreadable = 0;

static __always_inline int count_hit(struct tpcount_key *key, __u64 value)
{
    struct bpflens_hist *h;
    __u64 *count, one = 1;

    if (by_comm)
        bpf_get_current_comm(key->comm, sizeof(key->comm));
    if (histogram) {
        h = hist_of(&tpcount_hists, key);
        if (h)
            hist_add(h, value);
        return 0;
    }
    count = bpf_map_lookup_elem(&tpcount_counts, key);
    if (count) {
        __sync_fetch_and_add(count, 1);
    } else if (bpf_map_update_elem(&tpcount_counts, key, &one, BPF_NOEXIST)) {
        /* Another CPU may have added it meanwhile; otherwise the map is full. */
        count = bpf_map_lookup_elem(&tpcount_counts, key);
        if (count)
            __sync_fetch_and_add(count, 1);
        else
            __sync_fetch_and_add(&keys_full, 1);
    }
    return 0;
}

SEC("raw_tp")
int tpcount_hit(struct bpf_raw_tracepoint_args *ctx)
{
    struct tpcount_key key = {};
    __u64 value = 0;

    if (!current_wanted())
        return 0;
    if ((key_count > 0 && !read_key(ctx->args, &key_descs[0], &key.values[0])) ||
        (key_count > 1 && !read_key(ctx->args, &key_descs[1], &key.values[1])) ||
        (histogram && !read_key(ctx->args, &value_desc, &value))) {
        __sync_fetch_and_add(&unreadable, 1);
        return 0;
    }
    return count_hit(&key, value);
}

/* The same at a uprobe, uretprobe, USDT probe, kprobe or kretprobe. */
SEC("uprobe")
int tpcount_hit_regs(struct pt_regs *ctx)
{
    struct tpcount_key key = {};
    __u64 value = 0;
    __u32 spec;

    if (!current_wanted())
        return 0;
    spec = usdt_spec_id(ctx);
    if (spec >= USDT_MAX_SPECS)
        return 0;
    if ((key_count > 0 &&
         !read_regs_key(ctx, &key_descs[0], &key_args[usdt_spec_index(spec)][0], &key.values[0])) ||
        (key_count > 1 &&
         !read_regs_key(ctx, &key_descs[1], &key_args[usdt_spec_index(spec)][1], &key.values[1])) ||
        (histogram &&
         !read_regs_key(ctx, &value_desc, &value_args[usdt_spec_index(spec)], &value))) {
        __sync_fetch_and_add(&unreadable, 1);
        return 0;
    }
    return count_hit(&key, value);
}

char LICENSE[] SEC("license") = "GPL";
