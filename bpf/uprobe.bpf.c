// SPDX-License-Identifier: GPL-2.0
// A function in a user-space binary (strlen_count, funclatency -u): calls counted per key (one
// argument's value or string) and, with the return probe, the time from entry to return as a
// histogram and the slow calls as events. One precompiled pair for any function: user space
// attaches it by file and offset, and says in rodata which argument keys the counts.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/uprobe.records.h"

/* libbpf before 1.2 stops at the fifth argument. */
#ifndef PT_REGS_PARM6
#if defined(__TARGET_ARCH_x86)
#define PT_REGS_PARM6(x) ((x)->r9)
#elif defined(__TARGET_ARCH_arm64)
#define PT_REGS_PARM6(x) (((const struct user_pt_regs *)(x))->regs[5])
#endif
#endif

#define MAX_KEYS 10240
#define MAX_CALLS 16384

const volatile __u32 key_kind = UPROBE_KEY_NONE;
const volatile __u32 key_arg = 0;
const volatile __u32 str_len = 64;
const volatile __u64 unit_div = 1000;
/* The return probe is attached: time every call. */
const volatile bool timed = false;
/* Calls at least this slow are recorded as events; negative: none. */
const volatile __s64 threshold_ns = -1;

struct call
{
    __u64 ts;
    struct uprobe_key key;
};

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_KEYS);
    __type(key, struct uprobe_key);
    __type(value, __u64);
} uprobe_counts SEC(".maps");

/* LRU: a call that never returns (longjmp, a thread that exits) is evicted eventually. Keyed by
 * thread: a recursive call replaces its caller's entry, so only the innermost is timed. */
struct
{
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, MAX_CALLS);
    __type(key, __u32);
    __type(value, struct call);
} uprobe_calls SEC(".maps");

/* Keys are too big for the stack next to the call record: built in a per-CPU scratch slot. */
struct
{
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct call);
} uprobe_scratch SEC(".maps");

/* One latency histogram per key, as funclatency per argument would be: with no key, the one
 * all-zero key. User space shrinks it to one entry when calls are not timed. */
struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_KEYS);
    __type(key, struct uprobe_key);
    __type(value, struct bpflens_hist);
} uprobe_hists SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 1 << 22);
} uprobe_rb SEC(".maps");

/* Calls whose key was new when the count map was full: counted here only. */
__u64 keys_full = 0;
/* String arguments that could not be read (NULL, or not mapped): counted with an empty key. */
__u64 unreadable = 0;

/* Each case loads at a constant offset of the context: clang would otherwise load once through
 * a moved context pointer, which the verifier refuses. With key_arg known at load, only one
 * case is explored. */
#define ARG_CASE(i, parm)                                                                          \
    case i:                                                                                        \
        v = parm(ctx);                                                                             \
        barrier_var(v);                                                                            \
        return v

static __always_inline __u64 arg_value(struct pt_regs *ctx)
{
    __u64 v;

    switch (key_arg) {
        ARG_CASE(0, PT_REGS_PARM1);
        ARG_CASE(1, PT_REGS_PARM2);
        ARG_CASE(2, PT_REGS_PARM3);
        ARG_CASE(3, PT_REGS_PARM4);
        ARG_CASE(4, PT_REGS_PARM5);
        ARG_CASE(5, PT_REGS_PARM6);
    default:
        return 0;
    }
}

SEC("uprobe")
int uprobe_entry(struct pt_regs *ctx)
{
    struct call *c;
    __u64 *count, one = 1;
    __u32 zero = 0, tid;
    __u64 v;

    if (!current_wanted())
        return 0;
    c = bpf_map_lookup_elem(&uprobe_scratch, &zero);
    if (!c)
        return 0;
    __builtin_memset(&c->key, 0, sizeof(c->key));
    if (key_kind != UPROBE_KEY_NONE) {
        v = arg_value(ctx);
        if (key_kind == UPROBE_KEY_INT) {
            c->key.value = v;
        } else {
            __u32 n = str_len;

            if (n > UPROBE_MAX_STR)
                n = UPROBE_MAX_STR;
            if (n == 0)
                n = 1;
            if (!v || bpf_probe_read_user_str(c->key.str, n, (void *)v) < 0) {
                __builtin_memset(&c->key, 0, sizeof(c->key));
                __sync_fetch_and_add(&unreadable, 1);
            }
        }
    }
    count = bpf_map_lookup_elem(&uprobe_counts, &c->key);
    if (count) {
        __sync_fetch_and_add(count, 1);
    } else if (bpf_map_update_elem(&uprobe_counts, &c->key, &one, BPF_NOEXIST)) {
        /* Another CPU may have added it meanwhile; otherwise the map is full. */
        count = bpf_map_lookup_elem(&uprobe_counts, &c->key);
        if (count)
            __sync_fetch_and_add(count, 1);
        else
            __sync_fetch_and_add(&keys_full, 1);
    }
    if (!timed)
        return 0;
    tid = (__u32)bpf_get_current_pid_tgid();
    /* Taken last, so the filters and the key are not part of the latency. */
    c->ts = bpf_ktime_get_ns();
    bpf_map_update_elem(&uprobe_calls, &tid, c, BPF_ANY);
    return 0;
}

SEC("uretprobe")
int uprobe_return(struct pt_regs *ctx)
{
    __u64 now = bpf_ktime_get_ns();
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tid = (__u32)id;
    struct uprobe_event *e;
    struct bpflens_hist *h;
    struct call *c;
    __u64 delta;

    c = bpf_map_lookup_elem(&uprobe_calls, &tid);
    if (!c)
        return 0;
    delta = now - c->ts;
    if ((__s64)delta < 0)
        goto cleanup;
    h = hist_of(&uprobe_hists, &c->key);
    if (h)
        hist_add(h, delta / unit_div);
    if (threshold_ns >= 0 && delta >= (__u64)threshold_ns) {
        e = bpf_ringbuf_reserve(&uprobe_rb, sizeof(*e), 0);
        if (e) {
            e->ts = now;
            e->latency_ns = delta;
            e->pid = id >> 32;
            e->tid = tid;
            e->cgroup_id = bpf_get_current_cgroup_id();
            bpf_get_current_comm(e->comm, sizeof(e->comm));
            __builtin_memcpy(&e->key, &c->key, sizeof(e->key));
            bpf_ringbuf_submit(e, submit_flags(&uprobe_rb));
        } else {
            count_lost();
        }
    }
cleanup:
    bpf_map_delete_elem(&uprobe_calls, &tid);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
