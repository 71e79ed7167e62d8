/* SPDX-License-Identifier: GPL-2.0 */
/* tcplife records, shared by tcplife.bpf.c and user space: plain C. */
#ifndef BPFLENS_TCPLIFE_H
#define BPFLENS_TCPLIFE_H

#include "bpf/bpflens.h"

/* One TCP connection, when it closed. */
struct tcplife_event
{
    __u64 ts_ns;     /* when it closed (bpf_ktime_get_ns) */
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u64 span_ns; /* from its start (SYN_SENT, SYN_RECV or ESTABLISHED, the last seen) to the close
                    */
    __u64 tx_bytes; /* payload bytes sent and acknowledged (bytes_acked less SYN and FIN) */
    __u64 rx_bytes; /* payload bytes received (bytes_received less the peer's FIN) */
    __u32 pid;   /* tgid of the process that connected or closed it, else of the closing context */
    __u16 lport; /* host order */
    __u16 rport; /* host order */
    __u8 family; /* 4 or 6 */
    __u8 pad[7];
    __u8 laddr[16]; /* IPv4 in the first 4 bytes */
    __u8 raddr[16];
    char comm[BPFLENS_COMM_LEN];
};

#endif
