/* SPDX-License-Identifier: GPL-2.0 */
/* tcpretrans records, shared by tcpretrans.bpf.c and user space: plain C. */
#ifndef BPFLENS_TCPRETRANS_H
#define BPFLENS_TCPRETRANS_H

#include "bpf/bpflens.h"

enum tcpretrans_kind
{
    TCPRETRANS_RETRANSMIT = 1, /* a data (or FIN) segment sent again */
    TCPRETRANS_SYN = 2,        /* a connect's SYN sent again */
    TCPRETRANS_SYNACK = 3,     /* a listener's SYN-ACK sent again */
    TCPRETRANS_TLP = 4,        /* a tail-loss probe sending its last segment again */
};

/* One retransmission. */
struct tcpretrans_event
{
    __u64 ts_ns;
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u32 pid;   /* tgid of the process that connected, when the probe saw the connect; else 0 */
    __u16 sport; /* host order */
    __u16 dport; /* host order */
    __u8 family; /* 4 or 6 */
    __u8 state;  /* the kernel's TCP state (TCP_ESTABLISHED = 1, ...) */
    __u8 kind;   /* tcpretrans_kind */
    __u8 pad[5];
    __u8 saddr[16]; /* IPv4 in the first 4 bytes */
    __u8 daddr[16];
    char comm[BPFLENS_COMM_LEN]; /* with pid; else empty */
};

#endif
