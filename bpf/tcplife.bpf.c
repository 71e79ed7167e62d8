// SPDX-License-Identifier: GPL-2.0
// TCP connection lifetimes, like bcc's tcplife: one event per connection when it closes, with
// its addresses, how long it lived and the bytes it sent and received, all from the
// inet_sock_set_state tracepoint (no kprobe on any kernel). A connection is timed from its last
// state before the close handshake (ESTABLISHED once it got there, as tcplife does); one that
// was open before the probe attached has no start and is not reported (counted in
// `starts_unseen`). The close often runs in a softirq, in no process of its own: the process is
// the one that connected the socket (SYN_SENT runs inside connect()) or, for an accepted one, the
// one that closed it (FIN_WAIT1 or LAST_ACK inside close() or shutdown()).
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/tcplife.records.h"
#include "bpf/tcpsock.bpf.h"

struct birth
{
    __u64 ts;
    __u8 active; /* this end sent the SYN (a connect) */
};

struct ident
{
    __u64 cgroup_id; /* the process's, with pid: the close may run in softirq context */
    __u32 pid;
    char comm[BPFLENS_COMM_LEN];
};

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 256 * 1024);
} rb SEC(".maps");

/* When each socket started, by sock address. LRU: an entry whose close was missed (the program
 * detached and attached again) must not fill it. */
struct
{
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 65536);
    __type(key, __u64);
    __type(value, struct birth);
} births SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 65536);
    __type(key, __u64);
    __type(value, struct ident);
} idents SEC(".maps");

/* Set by user space when a common filter is set: they apply to the process that connected or
 * closed the socket, so only connections whose process passed them are reported. */
const volatile bool filtered = false;

/* Closes of connections that started before the probe attached (no start seen). */
__u64 starts_unseen = 0;

static __always_inline void remember_process(__u64 key, bool keep_first)
{
    struct ident id = {};

    if (keep_first && bpf_map_lookup_elem(&idents, &key))
        return;
    if (!current_wanted())
        return;
    id.pid = bpf_get_current_pid_tgid() >> 32;
    id.cgroup_id = bpf_get_current_cgroup_id();
    bpf_get_current_comm(id.comm, sizeof(id.comm));
    bpf_map_update_elem(&idents, &key, &id, BPF_ANY);
}

/* The payload bytes: the kernel's counters are in TCP's sequence space, where this end's SYN
 * (once acknowledged) and FIN (once acknowledged) each count one in bytes_acked, and the peer's
 * FIN one in bytes_received. */
static __always_inline void read_bytes(const struct sock *sk, int oldstate, bool active,
                                       struct tcplife_event *e)
{
    const struct tcp_sock *tp = (const struct tcp_sock *)sk;
    __u64 acked = BPF_CORE_READ(tp, bytes_acked);
    __u64 received = BPF_CORE_READ(tp, bytes_received);
    unsigned long flags = BPF_CORE_READ(sk, __sk_common.skc_flags);

    if (active && acked)
        acked--;
    /* the states a close comes from once this end's FIN was acknowledged (LAST_ACK's close
     * can also be a reset, with the FIN still unacknowledged: then snd_una is behind) */
    if ((oldstate == TCP_FIN_WAIT2 || oldstate == TCP_CLOSING || oldstate == TCP_LAST_ACK) &&
        BPF_CORE_READ(tp, snd_una) == BPF_CORE_READ(tp, write_seq) && acked)
        acked--;
    /* SOCK_DONE: tcp_fin() saw the peer's FIN */
    if ((flags & (1UL << bpf_core_enum_value(enum sock_flags, SOCK_DONE))) && received)
        received--;
    e->tx_bytes = acked;
    e->rx_bytes = received;
}

static __always_inline void state_change(const struct sock *sk, int oldstate, int newstate)
{
    __u64 key = (__u64)sk;
    struct tcplife_event e = {};
    struct birth *start;
    struct ident *id;

    if (!is_tcp_inet(sk))
        return;
    if (newstate < TCP_FIN_WAIT1) {
        struct birth b = {.ts = bpf_ktime_get_ns(), .active = newstate == TCP_SYN_SENT};

        start = bpf_map_lookup_elem(&births, &key);
        if (start && start->active)
            b.active = 1;
        bpf_map_update_elem(&births, &key, &b, BPF_ANY);
        /* the connecting process, in connect() */
        if (newstate == TCP_SYN_SENT)
            remember_process(key, false);
        return;
    }
    /* the closing process, in close() or shutdown(), unless the connecting one is known */
    if (newstate == TCP_FIN_WAIT1 || newstate == TCP_LAST_ACK) {
        remember_process(key, true);
        return;
    }
    if (newstate != TCP_CLOSE)
        return;
    start = bpf_map_lookup_elem(&births, &key);
    id = bpf_map_lookup_elem(&idents, &key);
    if (!start) {
        /* (a listener's close is no connection's) */
        if (oldstate != TCP_LISTEN && (id || !filtered))
            __sync_fetch_and_add(&starts_unseen, 1);
        bpf_map_delete_elem(&idents, &key);
        return;
    }
    e.ts_ns = bpf_ktime_get_ns();
    e.span_ns = e.ts_ns - start->ts;
    read_bytes(sk, oldstate, start->active, &e);
    bpf_map_delete_elem(&births, &key);
    if (id) {
        e.pid = id->pid;
        e.cgroup_id = id->cgroup_id;
        __builtin_memcpy(e.comm, id->comm, sizeof(e.comm));
        bpf_map_delete_elem(&idents, &key);
    } else if (filtered) {
        return;
    } else {
        e.pid = bpf_get_current_pid_tgid() >> 32;
        e.cgroup_id = bpf_get_current_cgroup_id();
        bpf_get_current_comm(e.comm, sizeof(e.comm));
    }
    read_endpoints(&sk->__sk_common, BPF_CORE_READ(sk, __sk_common.skc_family), &e.family, &e.lport,
                   &e.rport, e.laddr, e.raddr);
    /* skc_num, the bound port, is already released by the close; inet_sport keeps it */
    e.lport = bpf_ntohs(BPF_CORE_READ((const struct inet_sock *)sk, inet_sport));
    if (bpf_ringbuf_output(&rb, &e, sizeof(e), submit_flags(&rb)))
        count_lost();
}

SEC("tp_btf/inet_sock_set_state")
int BPF_PROG(tcplife_state_btf, const struct sock *sk, const int oldstate, const int newstate)
{
    state_change(sk, oldstate, newstate);
    return 0;
}

SEC("tp/sock/inet_sock_set_state")
int tcplife_state_tp(struct trace_event_raw_inet_sock_set_state *ctx)
{
    if (ctx->protocol != IPPROTO_TCP)
        return 0;
    state_change((const struct sock *)ctx->skaddr, ctx->oldstate, ctx->newstate);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
