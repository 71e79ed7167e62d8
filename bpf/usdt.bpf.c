// SPDX-License-Identifier: GPL-2.0
// A USDT probe (sys/sdt.h's DTRACE_PROBE / STAP_PROBE) of a user-space binary: every hit counted
// per key (one argument's value or string) and, optionally, recorded as an event with all its
// arguments. A plain uprobe at the probe's address: user space says in rodata where each
// argument is (libbpf's usdt.bpf.h fetches them the same way, but from specs libbpf parses out
// of the binary itself, which the root helper must not do for a caller).
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/usdt.records.h"
#include "bpf/usdtarg.bpf.h"

#define MAX_KEYS 10240

/* Per argument list (a site's attach cookie picks one), per argument. */
const volatile struct usdt_arg_spec arg_specs[USDT_MAX_SPECS][USDT_MAX_ARGS] = {};
const volatile __u32 arg_cnt = 0;
const volatile __u32 key_kind = USDT_KEY_NONE;
const volatile __u32 key_arg = 0;
const volatile __u32 str_len = 64;
const volatile bool record_events = false;

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_KEYS);
    __type(key, struct usdt_key);
    __type(value, __u64);
} usdt_counts SEC(".maps");

/* The key is too big for the stack next to the arguments: built in a per-CPU scratch slot. */
struct
{
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct usdt_key);
} usdt_scratch SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 1 << 22);
} usdt_rb SEC(".maps");

/* Hits whose key was new when the count map was full: counted here only. */
__u64 keys_full = 0;
/* String arguments that could not be read (NULL, or not mapped): counted with an empty key. */
__u64 unreadable = 0;
/* Arguments that could not be fetched (memory not mapped): read as 0, counted here. */
__u64 arg_faults = 0;

static __always_inline __u64 fetch_arg(struct pt_regs *ctx, __u32 spec, __u32 i)
{
    __u64 val;

    if (i >= USDT_MAX_ARGS || spec >= USDT_MAX_SPECS)
        return 0;
    if (!usdt_arg_read(ctx, &arg_specs[usdt_spec_index(spec)][i], &val))
        __sync_fetch_and_add(&arg_faults, 1);
    return val;
}

SEC("uprobe")
int usdt_hit(struct pt_regs *ctx)
{
    struct usdt_event *e = NULL;
    struct usdt_key *key;
    __u64 *count, one = 1, id;
    __u32 zero = 0, i, spec;
    bool str_ok = false;

    if (!current_wanted())
        return 0;
    spec = usdt_spec_id(ctx);
    key = bpf_map_lookup_elem(&usdt_scratch, &zero);
    if (!key)
        return 0;
    __builtin_memset(key, 0, sizeof(*key));
    if (key_kind != USDT_KEY_NONE) {
        __u64 v = fetch_arg(ctx, spec, key_arg);

        if (key_kind == USDT_KEY_INT) {
            key->value = v;
        } else {
            __u32 n = str_len;

            if (n > USDT_MAX_STR)
                n = USDT_MAX_STR;
            if (n == 0)
                n = 1;
            if (v && bpf_probe_read_user_str(key->str, n, (void *)v) >= 0) {
                str_ok = true;
            } else {
                __builtin_memset(key, 0, sizeof(*key));
                __sync_fetch_and_add(&unreadable, 1);
            }
        }
    }
    count = bpf_map_lookup_elem(&usdt_counts, key);
    if (count) {
        __sync_fetch_and_add(count, 1);
    } else if (bpf_map_update_elem(&usdt_counts, key, &one, BPF_NOEXIST)) {
        count = bpf_map_lookup_elem(&usdt_counts, key);
        if (count)
            __sync_fetch_and_add(count, 1);
        else
            __sync_fetch_and_add(&keys_full, 1);
    }
    if (!record_events)
        return 0;
    e = bpf_ringbuf_reserve(&usdt_rb, sizeof(*e), 0);
    if (!e) {
        count_lost();
        return 0;
    }
    id = bpf_get_current_pid_tgid();
    e->ts = bpf_ktime_get_ns();
    e->pid = id >> 32;
    e->tid = (__u32)id;
    e->cgroup_id = bpf_get_current_cgroup_id();
    bpf_get_current_comm(e->comm, sizeof(e->comm));
    e->arg_cnt = arg_cnt;
#pragma unroll
    for (i = 0; i < USDT_MAX_ARGS; i++)
        e->args[i] = i < arg_cnt ? fetch_arg(ctx, spec, i) : 0;
    e->str_ok = str_ok;
    __builtin_memcpy(e->str, key->str, sizeof(e->str));
    bpf_ringbuf_submit(e, submit_flags(&usdt_rb));
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
