// SPDX-License-Identifier: GPL-2.0
// TCP retransmissions, like bcc's tcpretrans: the tcp_retransmit_skb tracepoint for data and
// SYN segments (told apart by the socket's state), tcp_retransmit_synack for a listener's
// SYN-ACKs. A tail-loss probe that sends its last segment again goes through the same
// tracepoint; only a hook on tcp_send_loss_probe around it (fentry/fexit or kprobes, optional)
// tells it apart. Retransmits run from timers and softirqs, in no process of theirs: the process
// is the one that connected the socket, when this probe saw the connect (inet_sock_set_state
// CLOSE -> SYN_SENT runs inside connect()).
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/tcpretrans.records.h"
#include "bpf/tcpsock.bpf.h"

struct owner
{
    __u64 cgroup_id; /* the connecting task's: retransmits happen in softirq or timer context */
    __u32 pid;
    char comm[BPFLENS_COMM_LEN];
};

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 256 * 1024);
} rb SEC(".maps");

/* Who connected each socket, by sock address, from the connect until the socket closes. LRU: an
 * entry whose close was missed (the program detached and attached again) must not fill it. */
struct
{
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 16384);
    __type(key, __u64);
    __type(value, struct owner);
} owners SEC(".maps");

/* The socket a tail-loss probe is being sent for on this CPU (tcp_send_loss_probe runs with the
 * socket locked, in a timer or softirq: it does not migrate). */
struct
{
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, __u64);
} in_tlp SEC(".maps");

/* Set by user space when a common filter (pid, tid, uid, comm, cgroup) is set: they apply to the
 * process that connected, at its connect, so only the retransmits of sockets whose connect
 * passed them are reported; unfiltered, every retransmit is. */
const volatile bool filtered = false;

static __always_inline void submit(const struct sock *sk, const struct sock_common *addrs,
                                   __u8 kind)
{
    struct tcpretrans_event e = {};
    __u64 key = (__u64)sk;
    struct owner *o = bpf_map_lookup_elem(&owners, &key);

    if (filtered && !o)
        return;
    e.ts_ns = bpf_ktime_get_ns();
    e.kind = kind;
    e.state = BPF_CORE_READ(sk, __sk_common.skc_state);
    if (o) {
        e.pid = o->pid;
        e.cgroup_id = o->cgroup_id;
        __builtin_memcpy(e.comm, o->comm, sizeof(e.comm));
    }
    read_endpoints(addrs, BPF_CORE_READ(addrs, skc_family), &e.family, &e.sport, &e.dport, e.saddr,
                   e.daddr);
    if (bpf_ringbuf_output(&rb, &e, sizeof(e), submit_flags(&rb)))
        count_lost();
}

static __always_inline void retransmit(const struct sock *sk)
{
    __u32 zero = 0;
    __u64 *tlp = bpf_map_lookup_elem(&in_tlp, &zero);
    __u8 kind = TCPRETRANS_RETRANSMIT;

    if (!is_tcp_inet(sk))
        return;
    if (BPF_CORE_READ(sk, __sk_common.skc_state) == TCP_SYN_SENT)
        kind = TCPRETRANS_SYN;
    else if (tlp && *tlp == (__u64)sk)
        kind = TCPRETRANS_TLP;
    submit(sk, &sk->__sk_common, kind);
}

static __always_inline void state_change(const struct sock *sk, int oldstate, int newstate)
{
    __u64 key = (__u64)sk;

    if (oldstate == TCP_CLOSE && newstate == TCP_SYN_SENT) {
        struct owner o = {};

        if (!is_tcp_inet(sk) || !current_wanted())
            return;
        o.pid = bpf_get_current_pid_tgid() >> 32;
        o.cgroup_id = bpf_get_current_cgroup_id();
        bpf_get_current_comm(o.comm, sizeof(o.comm));
        bpf_map_update_elem(&owners, &key, &o, BPF_ANY);
    } else if (newstate == TCP_CLOSE) {
        bpf_map_delete_elem(&owners, &key);
    }
}

SEC("tp_btf/tcp_retransmit_skb")
int BPF_PROG(tcpretrans_skb_btf, const struct sock *sk)
{
    retransmit(sk);
    return 0;
}

SEC("tp/tcp/tcp_retransmit_skb")
int tcpretrans_skb_tp(struct trace_event_raw_tcp_retransmit_skb *ctx)
{
    retransmit((const struct sock *)ctx->skaddr);
    return 0;
}

SEC("tp_btf/tcp_retransmit_synack")
int BPF_PROG(tcpretrans_synack_btf, const struct sock *sk, const struct request_sock *req)
{
    if (is_tcp_inet(sk))
        submit(sk, &req->__req_common, TCPRETRANS_SYNACK);
    return 0;
}

SEC("tp/tcp/tcp_retransmit_synack")
int tcpretrans_synack_tp(struct trace_event_raw_tcp_retransmit_synack *ctx)
{
    const struct sock *sk = (const struct sock *)ctx->skaddr;
    const struct request_sock *req = (const struct request_sock *)ctx->req;

    if (is_tcp_inet(sk))
        submit(sk, &req->__req_common, TCPRETRANS_SYNACK);
    return 0;
}

SEC("tp_btf/inet_sock_set_state")
int BPF_PROG(tcpretrans_state_btf, const struct sock *sk, const int oldstate, const int newstate)
{
    state_change(sk, oldstate, newstate);
    return 0;
}

SEC("tp/sock/inet_sock_set_state")
int tcpretrans_state_tp(struct trace_event_raw_inet_sock_set_state *ctx)
{
    state_change((const struct sock *)ctx->skaddr, ctx->oldstate, ctx->newstate);
    return 0;
}

static __always_inline void tlp_begin(const struct sock *sk)
{
    __u32 zero = 0;
    __u64 *tlp = bpf_map_lookup_elem(&in_tlp, &zero);

    if (tlp)
        *tlp = (__u64)sk;
}

static __always_inline void tlp_end(void)
{
    __u32 zero = 0;
    __u64 *tlp = bpf_map_lookup_elem(&in_tlp, &zero);

    if (tlp)
        *tlp = 0;
}

SEC("fentry/tcp_send_loss_probe")
int BPF_PROG(tcpretrans_fe_tcp_send_loss_probe, struct sock *sk)
{
    tlp_begin(sk);
    return 0;
}

SEC("fexit/tcp_send_loss_probe")
int BPF_PROG(tcpretrans_fx_tcp_send_loss_probe, struct sock *sk)
{
    tlp_end();
    return 0;
}

SEC("kprobe/tcp_send_loss_probe")
int BPF_KPROBE(tcpretrans_kp_tcp_send_loss_probe, struct sock *sk)
{
    tlp_begin(sk);
    return 0;
}

SEC("kretprobe/tcp_send_loss_probe")
int BPF_KRETPROBE(tcpretrans_kr_tcp_send_loss_probe)
{
    tlp_end();
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
