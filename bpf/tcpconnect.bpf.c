// SPDX-License-Identifier: GPL-2.0
// Active TCP connects with their outcome, like libbpf-tools' tcpconnect. On kernels with the
// inet_sock_set_state tracepoint the state machine tells everything: CLOSE -> SYN_SENT happens
// inside connect() (the task is known there, so the filters apply there), SYN_SENT ->
// ESTABLISHED or -> CLOSE gives the result later, often in softirq context, so the task's
// identity is carried from the first transition to the second in a hash map keyed by the sock.
// Older kernels fall back to the return of tcp_v4_connect/tcp_v6_connect (fexit or kprobe),
// which only knows whether the SYN was sent. User space loads exactly one of these paths.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/tcpconnect.records.h"
#include "bpf/tcpsock.bpf.h"

#define ECONNABORTED 103

struct pending
{
    __u64 pid_tgid;
    __u64 cgroup_id; // the connecting task's: the outcome is known in softirq context
    __u32 uid;
    __u16 sport; // as last seen while the connect was pending (0: not yet)
    char comm[BPFLENS_COMM_LEN];
};

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 256 * 1024);
} rb SEC(".maps");

// Connects in flight (SYN sent, no answer yet), by sock address.
struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 16384);
    __type(key, __u64);
    __type(value, struct pending);
} inflight SEC(".maps");

// fexit/kprobe path: the sock of a tcp_v*_connect call in progress, by thread.
struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 4096);
    __type(key, __u32);
    __type(value, __u64);
} entered SEC(".maps");

/* Destination and source port lists (tcpconnect -P, and its source port option), set by user
 * space before load; none: every port. */
const volatile __u16 filter_dports[TCPCONNECT_MAX_PORTS] = {};
const volatile __u32 filter_dports_n = 0;
const volatile __u16 filter_sports[TCPCONNECT_MAX_PORTS] = {};
const volatile __u32 filter_sports_n = 0;

static __always_inline bool port_listed(const volatile __u16 *ports, __u32 n, __u16 port)
{
    if (!n)
        return true;
#pragma unroll
    for (int i = 0; i < TCPCONNECT_MAX_PORTS; i++) {
        if (i < n && ports[i] == port)
            return true;
    }
    return false;
}

static __always_inline void remember(const struct sock *sk)
{
    struct pending p = {};
    __u64 key = (__u64)sk;

    if (!current_wanted())
        return;
    /* the destination is set before the move to SYN_SENT; the source port only after it */
    if (!port_listed(filter_dports, filter_dports_n,
                     bpf_ntohs(BPF_CORE_READ(sk, __sk_common.skc_dport))))
        return;
    p.pid_tgid = bpf_get_current_pid_tgid();
    p.cgroup_id = bpf_get_current_cgroup_id();
    p.uid = (__u32)bpf_get_current_uid_gid();
    bpf_get_current_comm(p.comm, sizeof(p.comm));
    if (bpf_map_update_elem(&inflight, &key, &p, BPF_ANY))
        count_lost();
}

static __always_inline void fill_addresses(struct tcpconnect_event *e, const struct sock *sk,
                                           __u16 family)
{
    read_endpoints(&sk->__sk_common, family, &e->family, &e->sport, &e->dport, e->saddr, e->daddr);
}

static __always_inline void submit(struct tcpconnect_event *e)
{
    if (!port_listed(filter_dports, filter_dports_n, e->dport) ||
        !port_listed(filter_sports, filter_sports_n, e->sport))
        return;
    if (bpf_ringbuf_output(&rb, e, sizeof(*e), submit_flags(&rb)))
        count_lost();
}

// The connect's outcome is known: emit it if its start was remembered.
static __always_inline void resolve(const struct sock *sk, int newstate)
{
    struct tcpconnect_event e = {};
    __u64 key = (__u64)sk;
    struct pending *p;
    __u16 family, sport;
    int err;

    p = bpf_map_lookup_elem(&inflight, &key);
    if (!p)
        return;
    e.ts_ns = bpf_ktime_get_ns();
    e.pid = p->pid_tgid >> 32;
    e.cgroup_id = p->cgroup_id;
    e.uid = p->uid;
    sport = p->sport;
    __builtin_memcpy(e.comm, p->comm, sizeof(e.comm));
    bpf_map_delete_elem(&inflight, &key);

    if (newstate == TCP_ESTABLISHED) {
        e.ret = 0;
    } else {
        // tcp_done_with_error() sets sk_err before the move to CLOSE (ECONNREFUSED on a
        // reset, ETIMEDOUT after the SYN retries); 0 means the application gave up first
        // (close() or shutdown() of a connect in progress).
        err = BPF_CORE_READ(sk, sk_err);
        e.ret = err ? -err : -ECONNABORTED;
    }
    family = BPF_CORE_READ(sk, __sk_common.skc_family);
    fill_addresses(&e, sk, family);
    // A failed connect gives its port back before the move to CLOSE.
    if (!e.sport)
        e.sport = sport;
    submit(&e);
}

// The source port is chosen after the move to SYN_SENT and released before the move to
// CLOSE: note it on the way (reset received, SYN retransmitted) for failed connects.
static __always_inline void note_sport(const struct sock *sk)
{
    __u64 key = (__u64)sk;
    struct pending *p = bpf_map_lookup_elem(&inflight, &key);
    __u16 sport;

    if (!p)
        return;
    sport = BPF_CORE_READ(sk, __sk_common.skc_num);
    if (sport)
        p->sport = sport;
}

static __always_inline void state_change(const struct sock *sk, int oldstate, int newstate)
{
    if (!is_tcp_inet(sk))
        return;
    if (oldstate == TCP_CLOSE && newstate == TCP_SYN_SENT)
        remember(sk);
    else if (oldstate == TCP_SYN_SENT)
        resolve(sk, newstate);
}

SEC("tp_btf/inet_sock_set_state")
int BPF_PROG(tcpconnect_state_btf, const struct sock *sk, const int oldstate, const int newstate)
{
    state_change(sk, oldstate, newstate);
    return 0;
}

SEC("tp/sock/inet_sock_set_state")
int tcpconnect_state_tp(struct trace_event_raw_inet_sock_set_state *ctx)
{
    state_change((const struct sock *)ctx->skaddr, ctx->oldstate, ctx->newstate);
    return 0;
}

SEC("tp_btf/tcp_receive_reset")
int BPF_PROG(tcpconnect_reset_btf, struct sock *sk)
{
    note_sport(sk);
    return 0;
}

SEC("tp_btf/tcp_retransmit_skb")
int BPF_PROG(tcpconnect_retrans_btf, const struct sock *sk)
{
    note_sport(sk);
    return 0;
}

SEC("tp/tcp/tcp_receive_reset")
int tcpconnect_reset_tp(struct trace_event_raw_tcp_event_sk *ctx)
{
    note_sport((const struct sock *)ctx->skaddr);
    return 0;
}

SEC("tp/tcp/tcp_retransmit_skb")
int tcpconnect_retrans_tp(struct trace_event_raw_tcp_retransmit_skb *ctx)
{
    note_sport((const struct sock *)ctx->skaddr);
    return 0;
}

// Fallback: the result of tcp_v*_connect itself (0 once the SYN is queued).
static __always_inline void connect_returned(const struct sock *sk, int ret, __u16 family)
{
    struct tcpconnect_event e = {};

    e.ts_ns = bpf_ktime_get_ns();
    e.pid = bpf_get_current_pid_tgid() >> 32;
    e.cgroup_id = bpf_get_current_cgroup_id();
    e.uid = (__u32)bpf_get_current_uid_gid();
    e.ret = ret;
    bpf_get_current_comm(e.comm, sizeof(e.comm));
    fill_addresses(&e, sk, family);
    submit(&e);
}

SEC("fexit/tcp_v4_connect")
int BPF_PROG(tcpconnect_v4_fexit, struct sock *sk, struct sockaddr *uaddr, int addr_len, int ret)
{
    if (current_wanted())
        connect_returned(sk, ret, AF_INET);
    return 0;
}

SEC("fexit/tcp_v6_connect")
int BPF_PROG(tcpconnect_v6_fexit, struct sock *sk, struct sockaddr *uaddr, int addr_len, int ret)
{
    if (current_wanted())
        connect_returned(sk, ret, AF_INET6);
    return 0;
}

static __always_inline void connect_entered(struct sock *sk)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    __u64 ptr = (__u64)sk;

    if (current_wanted())
        bpf_map_update_elem(&entered, &tid, &ptr, BPF_ANY);
}

static __always_inline void connect_exited(int ret, __u16 family)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    __u64 *ptr = bpf_map_lookup_elem(&entered, &tid);
    struct sock *sk;

    if (!ptr)
        return;
    sk = (struct sock *)*ptr;
    bpf_map_delete_elem(&entered, &tid);
    connect_returned(sk, ret, family);
}

SEC("kprobe/tcp_v4_connect")
int BPF_KPROBE(tcpconnect_v4_kprobe, struct sock *sk)
{
    connect_entered(sk);
    return 0;
}

SEC("kretprobe/tcp_v4_connect")
int BPF_KRETPROBE(tcpconnect_v4_kretprobe, int ret)
{
    connect_exited(ret, AF_INET);
    return 0;
}

SEC("kprobe/tcp_v6_connect")
int BPF_KPROBE(tcpconnect_v6_kprobe, struct sock *sk)
{
    connect_entered(sk);
    return 0;
}

SEC("kretprobe/tcp_v6_connect")
int BPF_KRETPROBE(tcpconnect_v6_kretprobe, int ret)
{
    connect_exited(ret, AF_INET6);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
