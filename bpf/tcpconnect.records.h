/* SPDX-License-Identifier: GPL-2.0 */
/* tcpconnect records, shared by tcpconnect.bpf.c and user space: plain C. */
#ifndef BPFLENS_TCPCONNECT_H
#define BPFLENS_TCPCONNECT_H

#include "bpf/bpflens.h"

/* How many ports each of the port filters (destination, source) can list. */
#define TCPCONNECT_MAX_PORTS 16

/* One active connect and its outcome. Fixed size: it holds no strings but comm. */
struct tcpconnect_event
{
    __u64 ts_ns;     /* when the outcome was known (bpf_ktime_get_ns) */
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u32 pid;       /* tgid of the connecting task */
    __u32 uid;
    __s32 ret;   /* 0, or -errno as the socket reports it */
    __u16 sport; /* host order */
    __u16 dport; /* host order */
    __u8 family; /* 4 or 6 */
    __u8 pad[3];
    __u8 saddr[16]; /* IPv4 in the first 4 bytes */
    __u8 daddr[16];
    char comm[BPFLENS_COMM_LEN];
};

#endif
