// SPDX-License-Identifier: GPL-2.0
// opensnoop: every open, openat, openat2 and creat with its flags, mode and result. Entry and
// exit are paired per thread; the path is read at exit, when the kernel has already copied
// (and so faulted in) the caller's string.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "common.bpf.h"
#include "open.h"
#include "syscalls.bpf.h"

#define OPEN_O_WRONLY 01
#define OPEN_O_CREAT 0100
#define OPEN_O_TRUNC 01000

const volatile bool failed_only = false;

struct open_scratch
{
    struct open_record hdr;
    char path[OPEN_PATH_MAX];
};

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 4 << 20); /* user space sets the real size */
} open_rb SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct open_scratch);
} open_scratch SEC(".maps");

struct open_pending
{
    __u64 time_ns;
    __u64 path;
    __u64 how; /* openat2's struct open_how, read at exit */
    __s32 flags;
    __u32 mode;
};

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 10240);
    __type(key, __u32);
    __type(value, struct open_pending);
} open_pending SEC(".maps");

static __always_inline void enter_open(__u64 path, __s32 flags, __u32 mode, __u64 how)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    struct open_pending p = {
        .time_ns = bpf_ktime_get_ns(), .path = path, .how = how, .flags = flags, .mode = mode};

    if (!current_wanted())
        return;
    /* Every open is an event: one we cannot pair is one we lose. */
    if (bpf_map_update_elem(&open_pending, &tid, &p, BPF_ANY))
        count_lost();
}

static __always_inline void exit_open(long ret)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tid = (__u32)id, zero = 0;
    struct open_pending *p = bpf_map_lookup_elem(&open_pending, &tid);
    struct open_scratch *s;
    __u64 path, how;
    long n;
    __u32 len;

    if (!p)
        return;
    if (failed_only && ret >= 0) {
        bpf_map_delete_elem(&open_pending, &tid);
        return;
    }
    s = bpf_map_lookup_elem(&open_scratch, &zero);
    if (!s) {
        bpf_map_delete_elem(&open_pending, &tid);
        return;
    }
    s->hdr.time_ns = p->time_ns;
    s->hdr.flags = p->flags;
    s->hdr.mode = p->mode;
    path = p->path;
    how = p->how;
    bpf_map_delete_elem(&open_pending, &tid);
    if (how) {
        struct open_how h = {};

        bpf_probe_read_user(&h, sizeof(h.flags) + sizeof(h.mode), (const void *)how);
        s->hdr.flags = (__s32)h.flags;
        s->hdr.mode = (__u32)h.mode;
    }
    s->hdr.pid = id >> 32;
    s->hdr.tid = tid;
    s->hdr.uid = (__u32)bpf_get_current_uid_gid();
    s->hdr.ret = ret;
    s->hdr.pad = 0;
    bpf_get_current_comm(s->hdr.comm, sizeof(s->hdr.comm));
    n = bpf_probe_read_user_str(s->path, sizeof(s->path), (const void *)path);
    len = n > 0 ? n - 1 : 0; /* without the NUL */
    if (len > OPEN_PATH_MAX - 1)
        len = OPEN_PATH_MAX - 1;
    /* Older verifiers (6.1) lose the bound when clang copies len before the clamp: make the
     * register that reaches bpf_ringbuf_output carry it (a no-op, n <= OPEN_PATH_MAX). */
    asm volatile("" : "+r"(len));
    len &= OPEN_PATH_MAX - 1;
    s->hdr.path_len = len;
    if (bpf_ringbuf_output(&open_rb, s, sizeof(s->hdr) + len, submit_flags(&open_rb)))
        count_lost();
}

SEC("tp_btf/sys_enter")
int BPF_PROG(open_btf_enter, struct pt_regs *regs, long id)
{
    if (id == BPFLENS_NR_openat)
        enter_open(PT_REGS_PARM2_CORE_SYSCALL(regs), PT_REGS_PARM3_CORE_SYSCALL(regs),
                   PT_REGS_PARM4_CORE_SYSCALL(regs), 0);
    else if (id == BPFLENS_NR_open)
        enter_open(PT_REGS_PARM1_CORE_SYSCALL(regs), PT_REGS_PARM2_CORE_SYSCALL(regs),
                   PT_REGS_PARM3_CORE_SYSCALL(regs), 0);
    else if (id == BPFLENS_NR_openat2)
        enter_open(PT_REGS_PARM2_CORE_SYSCALL(regs), 0, 0, PT_REGS_PARM3_CORE_SYSCALL(regs));
    else if (id == BPFLENS_NR_creat)
        enter_open(PT_REGS_PARM1_CORE_SYSCALL(regs), OPEN_O_CREAT | OPEN_O_WRONLY | OPEN_O_TRUNC,
                   PT_REGS_PARM2_CORE_SYSCALL(regs), 0);
    return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(open_btf_exit, struct pt_regs *regs, long ret)
{
    long nr = BPFLENS_SYSCALL_NR(regs);

    if (nr == BPFLENS_NR_openat || nr == BPFLENS_NR_open || nr == BPFLENS_NR_openat2 ||
        nr == BPFLENS_NR_creat)
        exit_open(ret);
    return 0;
}

/* Classic tracepoints, one per syscall; each is attached only if the kernel has it. */
SEC("tp/syscalls/sys_enter_open")
int open_tp_ent_open(struct trace_event_raw_sys_enter *ctx)
{
    enter_open(ctx->args[0], ctx->args[1], ctx->args[2], 0);
    return 0;
}

SEC("tp/syscalls/sys_enter_openat")
int open_tp_ent_at(struct trace_event_raw_sys_enter *ctx)
{
    enter_open(ctx->args[1], ctx->args[2], ctx->args[3], 0);
    return 0;
}

SEC("tp/syscalls/sys_enter_openat2")
int open_tp_ent_at2(struct trace_event_raw_sys_enter *ctx)
{
    enter_open(ctx->args[1], 0, 0, ctx->args[2]);
    return 0;
}

SEC("tp/syscalls/sys_enter_creat")
int open_tp_ent_crt(struct trace_event_raw_sys_enter *ctx)
{
    enter_open(ctx->args[0], OPEN_O_CREAT | OPEN_O_WRONLY | OPEN_O_TRUNC, ctx->args[1], 0);
    return 0;
}

SEC("tp/syscalls/sys_exit_open")
int open_tp_ext_open(struct trace_event_raw_sys_exit *ctx)
{
    exit_open(ctx->ret);
    return 0;
}

SEC("tp/syscalls/sys_exit_openat")
int open_tp_ext_at(struct trace_event_raw_sys_exit *ctx)
{
    exit_open(ctx->ret);
    return 0;
}

SEC("tp/syscalls/sys_exit_openat2")
int open_tp_ext_at2(struct trace_event_raw_sys_exit *ctx)
{
    exit_open(ctx->ret);
    return 0;
}

SEC("tp/syscalls/sys_exit_creat")
int open_tp_ext_crt(struct trace_event_raw_sys_exit *ctx)
{
    exit_open(ctx->ret);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
