/* SPDX-License-Identifier: GPL-2.0 */
/* tcpaccept records, shared by tcpaccept.bpf.c and user space: plain C. */
#ifndef BPFLENS_TCPACCEPT_H
#define BPFLENS_TCPACCEPT_H

#include "bpf/bpflens.h"

/* One TCP connection accepted by accept() or accept4(). */
struct tcpaccept_event
{
    __u64 ts_ns;     /* when accept returned (bpf_ktime_get_ns) */
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u32 pid;       /* tgid of the accepting task */
    __u32 tid;
    __u32 uid;
    __u32 backlog;     /* connections still in the listen queue once this one was taken */
    __u32 backlog_max; /* the queue's limit (listen()'s backlog, capped by somaxconn) */
    __u16 lport;       /* host order */
    __u16 rport;       /* host order */
    __u8 family;       /* 4 or 6 */
    __u8 pad[7];
    __u8 laddr[16]; /* IPv4 in the first 4 bytes */
    __u8 raddr[16];
    char comm[BPFLENS_COMM_LEN];
};

#endif
