/* SPDX-License-Identifier: GPL-2.0 */
/* What the TCP probes (tcpconnect, tcpaccept, tcpretrans) read of a socket. */
#ifndef BPFLENS_TCPSOCK_BPF_H
#define BPFLENS_TCPSOCK_BPF_H

#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>

#define AF_INET 2
#define AF_INET6 10
#define IPPROTO_TCP 6

static __always_inline bool is_tcp_inet(const struct sock *sk)
{
    __u16 family = BPF_CORE_READ(sk, __sk_common.skc_family);

    if (family != AF_INET && family != AF_INET6)
        return false;
    return BPF_CORE_READ(sk, sk_protocol) == IPPROTO_TCP;
}

/* The local and remote address and port of a socket or a request socket (both start with a
 * sock_common), for an address family (AF_INET or AF_INET6): *family gets 4 or 6, the ports host
 * order, the addresses 16 bytes each (IPv4 in the first 4). */
static __always_inline void read_endpoints(const struct sock_common *c, __u16 af, __u8 *family,
                                           __u16 *lport, __u16 *rport, __u8 *laddr, __u8 *raddr)
{
    *lport = BPF_CORE_READ(c, skc_num);
    *rport = bpf_ntohs(BPF_CORE_READ(c, skc_dport));
    if (af == AF_INET6) {
        *family = 6;
        BPF_CORE_READ_INTO((__u8(*)[16])laddr, c, skc_v6_rcv_saddr.in6_u.u6_addr8);
        BPF_CORE_READ_INTO((__u8(*)[16])raddr, c, skc_v6_daddr.in6_u.u6_addr8);
    } else {
        *family = 4;
        BPF_CORE_READ_INTO((__u32 *)laddr, c, skc_rcv_saddr);
        BPF_CORE_READ_INTO((__u32 *)raddr, c, skc_daddr);
    }
}

#endif
