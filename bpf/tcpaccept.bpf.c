// SPDX-License-Identifier: GPL-2.0
// Accepted TCP connections, like bcc's tcpaccept, with the listen queue's length. The kernel has
// no tracepoint where a connection is handed to a process (the handshake completes in softirq,
// inet_sock_set_state knows no acceptor), so the probe follows accept() and accept4()
// themselves through their system call tracepoints: the listening descriptor at the entry, and at
// the exit the new descriptor, whose socket gives the addresses. Accepts the kernel makes for
// itself (NFS, io_uring's IORING_OP_ACCEPT) are not system calls and are not seen.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/tcpaccept.records.h"
#include "bpf/tcpsock.bpf.h"

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 256 * 1024);
} rb SEC(".maps");

/* The listening descriptor of each accept in progress, by thread. */
struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 10240);
    __type(key, __u32);
    __type(value, __s32);
} accepting SEC(".maps");

/* The sock behind a descriptor of the current task, or NULL when it is not a socket. The socket's
 * own pointer back to its file tells a socket from any other file's private_data. */
static __always_inline struct sock *sock_of_fd(int fd)
{
    struct task_struct *task = (struct task_struct *)bpf_get_current_task();
    struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
    struct file **fds;
    struct file *f = NULL;
    struct socket *so;

    if (!fdt || fd < 0 || (unsigned int)fd >= BPF_CORE_READ(fdt, max_fds))
        return NULL;
    fds = BPF_CORE_READ(fdt, fd);
    if (bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]) || !f)
        return NULL;
    so = BPF_CORE_READ(f, private_data);
    if (!so || BPF_CORE_READ(so, file) != f)
        return NULL;
    return BPF_CORE_READ(so, sk);
}

static __always_inline void enter(long fd)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    __s32 v = (__s32)fd;

    if (!current_wanted())
        return;
    if (bpf_map_update_elem(&accepting, &tid, &v, BPF_ANY))
        count_lost();
}

static __always_inline void leave(long ret)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tid = (__u32)id;
    struct tcpaccept_event e = {};
    struct sock *sk, *listener;
    __s32 *lfd, listen_fd;

    lfd = bpf_map_lookup_elem(&accepting, &tid);
    if (!lfd)
        return;
    listen_fd = *lfd;
    bpf_map_delete_elem(&accepting, &tid);
    if (ret < 0)
        return;
    sk = sock_of_fd((int)ret);
    if (!sk || !is_tcp_inet(sk))
        return;
    listener = sock_of_fd(listen_fd);
    e.backlog = listener ? BPF_CORE_READ(listener, sk_ack_backlog) : 0;
    e.backlog_max = listener ? BPF_CORE_READ(listener, sk_max_ack_backlog) : 0;
    e.ts_ns = bpf_ktime_get_ns();
    e.pid = id >> 32;
    e.tid = tid;
    e.cgroup_id = bpf_get_current_cgroup_id();
    e.uid = (__u32)bpf_get_current_uid_gid();
    bpf_get_current_comm(e.comm, sizeof(e.comm));
    read_endpoints(&sk->__sk_common, BPF_CORE_READ(sk, __sk_common.skc_family), &e.family, &e.lport,
                   &e.rport, e.laddr, e.raddr);
    if (bpf_ringbuf_output(&rb, &e, sizeof(e), submit_flags(&rb)))
        count_lost();
}

SEC("tp/syscalls/sys_enter_accept4")
int tcpaccept_enter4(struct trace_event_raw_sys_enter *ctx)
{
    enter(ctx->args[0]);
    return 0;
}

SEC("tp/syscalls/sys_exit_accept4")
int tcpaccept_exit4(struct trace_event_raw_sys_exit *ctx)
{
    leave(ctx->ret);
    return 0;
}

SEC("tp/syscalls/sys_enter_accept")
int tcpaccept_enter(struct trace_event_raw_sys_enter *ctx)
{
    enter(ctx->args[0]);
    return 0;
}

SEC("tp/syscalls/sys_exit_accept")
int tcpaccept_exit(struct trace_event_raw_sys_exit *ctx)
{
    leave(ctx->ret);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
