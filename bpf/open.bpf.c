// SPDX-License-Identifier: GPL-2.0
// opensnoop: every open, openat, openat2 and creat with its flags, mode and result, from 64-bit
// and (x86_64) 32-bit processes. Everything is read when the call returns: the path then has
// been copied (and so faulted in) by the kernel. Three ways, the cheapest the kernel allows
// (helper/openprobe.cpp chooses):
// - fexit on the syscall handlers (__x64_sys_openat, and __ia32_compat_sys_openat for 32-bit
//   processes): only open calls run a program, the handler's pt_regs has the arguments;
// - the raw sys_exit tracepoint: every syscall of the machine runs the program, which leaves
//   after a load and a few compares; it has the caller's argument registers, and it is the only
//   tracepoint that sees 32-bit processes' calls;
// - the classic per-syscall tracepoints (not for 32-bit calls): no registers at exit, so entry
//   and exit are paired per thread.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/open.records.h"
#include "bpf/pathwalk.bpf.h"
#include "bpf/syscalls.bpf.h"

_Static_assert(OPEN_BASE_DELETED == PATHWALK_DELETED && OPEN_BASE_TRUNCATED == PATHWALK_TRUNCATED &&
                   OPEN_BASE_NO_FILE == PATHWALK_NO_FILE,
               "open.h's base flags are pathwalk's");

#define OPEN_O_WRONLY 01
#define OPEN_O_CREAT 0100
#define OPEN_O_TRUNC 01000

const volatile bool failed_only = false;
/* Option flags (opensnoop -f): an open passes when it has one of these bits, or one of these
 * access modes (OPEN_ACC_*). Neither set: every open passes. */
const volatile __u32 flags_any = 0;
const volatile __u8 acc_modes = 0;
/* Option fullPath (opensnoop -F): a relative path's directory is walked and sent with it. */
const volatile bool full_path = false;

/* The base directory's names (up to OPEN_BASE_MAX, and a name's room beyond it for the walk's
 * last read), then the path. */
struct open_scratch
{
    struct open_record hdr;
    char data[OPEN_BASE_MAX + OPEN_PATH_MAX];
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

/* An open in flight (classic tracepoints only): the caller's arguments, by thread. */
struct open_pending
{
    __u64 path;
    __u64 how; /* openat2's struct open_how, read at exit */
    __s32 flags;
    __u32 mode;
    __s32 dfd; /* AT_FDCWD for open and creat */
};

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 10240); /* user space shrinks it when the raw tracepoints are used */
    __type(key, __u32);
    __type(value, struct open_pending);
} open_pending SEC(".maps");

static __always_inline bool flags_wanted(__s32 flags)
{
    if (!flags_any && !acc_modes)
        return true;
    if ((__u32)flags & flags_any)
        return true;
    switch (flags & 3) {
    case 0:
        return acc_modes & OPEN_ACC_RDONLY;
    case 1:
        return acc_modes & OPEN_ACC_WRONLY;
    case 2:
        return acc_modes & OPEN_ACC_RDWR;
    }
    return false;
}

/* Writes the names of the directory a path relative to dfd is resolved against to the scratch's
 * data. Returns their length | their OPEN_BASE_* flags << 16. A global function: the verifier
 * checks its 48-level walk once, not once for each path of each caller. */
__noinline __u32 open_walk_base(__s32 dfd)
{
    __u32 zero = 0;
    struct open_scratch *s = bpf_map_lookup_elem(&open_scratch, &zero);
    struct path dir = {};
    __u16 flags = OPEN_BASE_WALKED;
    __u32 len;

    if (!s)
        return 0;
    if (!pathwalk_dir_of(dfd, &dir))
        return OPEN_BASE_NO_FILE << 16;
    len = pathwalk_names(&dir, s->data, OPEN_BASE_MAX, OPEN_BASE_MAX_DEPTH, &flags);
    return len | (__u32)flags << 16;
}

/* Reports an open that returned ret, with the caller's arguments; with walk (option fullPath),
 * a relative path's directory too. */
static __always_inline void report_open(const struct open_pending *a, long ret, bool walk)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 zero = 0;
    struct open_scratch *s;
    __s32 flags = a->flags;
    __u32 mode = a->mode;
    __u32 base = 0;
    long n;
    __u32 len;

    if (a->how) {
        struct open_how h = {};

        bpf_probe_read_user(&h, sizeof(h.flags) + sizeof(h.mode), (const void *)a->how);
        flags = (__s32)h.flags;
        mode = (__u32)h.mode;
    }
    if (!flags_wanted(flags))
        return;
    s = bpf_map_lookup_elem(&open_scratch, &zero);
    if (!s) {
        count_lost();
        return;
    }
    s->hdr.time_ns = bpf_ktime_get_ns();
    s->hdr.flags = flags;
    s->hdr.mode = mode;
    s->hdr.pid = id >> 32;
    s->hdr.tid = (__u32)id;
    s->hdr.cgroup_id = bpf_get_current_cgroup_id();
    s->hdr.uid = (__u32)bpf_get_current_uid_gid();
    s->hdr.ret = ret;
    s->hdr.base_flags = 0;
    bpf_get_current_comm(s->hdr.comm, sizeof(s->hdr.comm));
    if (walk) {
        char first = '/';
        __u32 walk = 0;

        bpf_probe_read_user(&first, 1, (const void *)a->path);
        if (first != '/')
            walk = open_walk_base(a->dfd);
        base = walk & 0xffff;
        s->hdr.base_flags = walk >> 16;
    }
    asm volatile("" : "+r"(base));
    base &= OPEN_BASE_MAX - 1;
    s->hdr.base_len = base;
    n = bpf_probe_read_user_str(s->data + base, OPEN_PATH_MAX, (const void *)a->path);
    len = n > 0 ? n - 1 : 0; /* without the NUL */
    if (len > OPEN_PATH_MAX - 1)
        len = OPEN_PATH_MAX - 1;
    /* Older verifiers (6.1) lose the bound when clang copies len before the clamp: make the
     * register that reaches bpf_ringbuf_output carry it (a no-op, n <= OPEN_PATH_MAX). */
    asm volatile("" : "+r"(len));
    len &= OPEN_PATH_MAX - 1;
    s->hdr.path_len = len;
    if (bpf_ringbuf_output(&open_rb, s, sizeof(s->hdr) + base + len, submit_flags(&open_rb)))
        count_lost();
}

/* The arguments of the open call nr (x86_64 numbering) from a 64-bit caller's registers, or
 * false if nr is no open call. */
static __always_inline bool native_args(struct pt_regs *regs, long nr, struct open_pending *a)
{
    a->dfd = PATHWALK_AT_FDCWD;
    if (nr == BPFLENS_NR_openat) {
        a->dfd = PT_REGS_PARM1_SYSCALL(regs);
        a->path = PT_REGS_PARM2_SYSCALL(regs);
        a->flags = PT_REGS_PARM3_SYSCALL(regs);
        a->mode = PT_REGS_PARM4_SYSCALL(regs);
    } else if (nr == BPFLENS_NR_open) {
        a->path = PT_REGS_PARM1_SYSCALL(regs);
        a->flags = PT_REGS_PARM2_SYSCALL(regs);
        a->mode = PT_REGS_PARM3_SYSCALL(regs);
    } else if (nr == BPFLENS_NR_openat2) {
        a->dfd = PT_REGS_PARM1_SYSCALL(regs);
        a->path = PT_REGS_PARM2_SYSCALL(regs);
        a->how = PT_REGS_PARM3_SYSCALL(regs);
    } else if (nr == BPFLENS_NR_creat) {
        a->path = PT_REGS_PARM1_SYSCALL(regs);
        a->flags = OPEN_O_CREAT | OPEN_O_WRONLY | OPEN_O_TRUNC;
        a->mode = PT_REGS_PARM2_SYSCALL(regs);
    } else {
        return false;
    }
    return true;
}

#if BPFLENS_HAS_COMPAT
/* The same from an ia32 caller (ia32 numbering): 32-bit pointers and values in other
 * registers. */
static __always_inline bool compat_args(struct pt_regs *regs, long nr, struct open_pending *a)
{
    a->dfd = PATHWALK_AT_FDCWD;
    if (nr == BPFLENS_COMPAT_NR_openat) {
        a->dfd = BPFLENS_COMPAT_PARM1_BTF(regs);
        a->path = BPFLENS_COMPAT_PARM2_BTF(regs);
        a->flags = BPFLENS_COMPAT_PARM3_BTF(regs);
        a->mode = BPFLENS_COMPAT_PARM4_BTF(regs);
    } else if (nr == BPFLENS_COMPAT_NR_open) {
        a->path = BPFLENS_COMPAT_PARM1_BTF(regs);
        a->flags = BPFLENS_COMPAT_PARM2_BTF(regs);
        a->mode = BPFLENS_COMPAT_PARM3_BTF(regs);
    } else if (nr == BPFLENS_COMPAT_NR_openat2) {
        a->dfd = BPFLENS_COMPAT_PARM1_BTF(regs);
        a->path = BPFLENS_COMPAT_PARM2_BTF(regs);
        a->how = BPFLENS_COMPAT_PARM3_BTF(regs);
    } else if (nr == BPFLENS_COMPAT_NR_creat) {
        a->path = BPFLENS_COMPAT_PARM1_BTF(regs);
        a->flags = OPEN_O_CREAT | OPEN_O_WRONLY | OPEN_O_TRUNC;
        a->mode = BPFLENS_COMPAT_PARM2_BTF(regs);
    } else {
        return false;
    }
    return true;
}
#endif

/* Reports the open call nr that returned ret, with the arguments in the caller's registers (an
 * ia32 caller's with compat). */
static __always_inline void report_call(struct pt_regs *regs, long nr, bool compat, long ret,
                                        bool walk)
{
    struct open_pending a = {};

#if BPFLENS_HAS_COMPAT
    if (compat ? !compat_args(regs, nr, &a) : !native_args(regs, nr, &a))
        return;
#else
    if (!native_args(regs, nr, &a))
        return;
#endif
    if (!current_wanted())
        return;
    report_open(&a, ret, walk);
}

/* Runs at the end of every syscall of the machine: everything but open calls must leave after a
 * load and a few compares. Planned only where no cheaper way sees 32-bit processes' calls. */
static __always_inline void on_sys_exit(struct pt_regs *regs, long ret, bool walk)
{
    long nr = BPFLENS_SYSCALL_NR_BTF(regs);

    if (nr != BPFLENS_NR_openat && nr != BPFLENS_NR_open && nr != BPFLENS_NR_openat2 &&
        nr != BPFLENS_NR_creat
#if BPFLENS_HAS_COMPAT
        && nr != BPFLENS_COMPAT_NR_openat && nr != BPFLENS_COMPAT_NR_open &&
        nr != BPFLENS_COMPAT_NR_creat
#endif
    )
        return;
    if (failed_only && ret >= 0)
        return;
    /* 5 is x86_64's fstat and ia32's open: which one it is, only the task knows. */
    report_call(regs, nr, bpflens_in_compat_syscall(), ret, walk);
}

SEC("tp_btf/sys_exit")
int BPF_PROG(open_btf_exit, struct pt_regs *regs, long ret)
{
    on_sys_exit(regs, ret, false);
    return 0;
}

/* The same with fullPath: a program of its own, so that without the option the directory walk
 * (open_walk_base) is not part of what loads and the verifier never sees it. */
SEC("tp_btf/sys_exit")
int BPF_PROG(open_btf_exit_full, struct pt_regs *regs, long ret)
{
    on_sys_exit(regs, ret, true);
    return 0;
}

/* fexit on a syscall's handler: its pt_regs are the caller's, as at the raw sys_exit, but only
 * the calls of this one syscall run it. One program per handler, its target set by user space
 * (x86_64: __x64_sys_openat...), and one more with fullPath (<prog>_f): without the option the
 * directory walk is not part of what loads, and the verifier never sees it (kernels before 6.8
 * verify every global function a program holds, called or not). */
#define OPEN_HANDLER_EXIT(prog, nr, compat)                                                        \
    SEC("fexit")                                                                                   \
    int BPF_PROG(prog, struct pt_regs *regs, long ret)                                             \
    {                                                                                              \
        if (!failed_only || ret < 0)                                                               \
            report_call(regs, nr, compat, ret, false);                                             \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("fexit")                                                                                   \
    int BPF_PROG(prog##_f, struct pt_regs *regs, long ret)                                         \
    {                                                                                              \
        if (!failed_only || ret < 0)                                                               \
            report_call(regs, nr, compat, ret, true);                                              \
        return 0;                                                                                  \
    }

OPEN_HANDLER_EXIT(open_fx_at, BPFLENS_NR_openat, false)
OPEN_HANDLER_EXIT(open_fx_open, BPFLENS_NR_open, false)
OPEN_HANDLER_EXIT(open_fx_at2, BPFLENS_NR_openat2, false)
OPEN_HANDLER_EXIT(open_fx_crt, BPFLENS_NR_creat, false)
#if BPFLENS_HAS_COMPAT
/* 32-bit processes' calls reach the ia32 handlers (ia32 numbers, arguments in bx, cx...). */
OPEN_HANDLER_EXIT(open_fx_at32, BPFLENS_COMPAT_NR_openat, true)
OPEN_HANDLER_EXIT(open_fx_open32, BPFLENS_COMPAT_NR_open, true)
OPEN_HANDLER_EXIT(open_fx_at2_32, BPFLENS_COMPAT_NR_openat2, true)
OPEN_HANDLER_EXIT(open_fx_crt32, BPFLENS_COMPAT_NR_creat, true)
#endif

static __always_inline void enter_open(__s32 dfd, __u64 path, __s32 flags, __u32 mode, __u64 how)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    struct open_pending p = {.path = path, .how = how, .flags = flags, .mode = mode, .dfd = dfd};

    if (!current_wanted())
        return;
    /* Every open is an event: one we cannot pair is one we lose. */
    if (bpf_map_update_elem(&open_pending, &tid, &p, BPF_ANY))
        count_lost();
}

static __always_inline void exit_open(long ret)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    struct open_pending *p = bpf_map_lookup_elem(&open_pending, &tid);
    struct open_pending a;

    if (!p)
        return;
    a = *p;
    bpf_map_delete_elem(&open_pending, &tid);
    if (failed_only && ret >= 0)
        return;
    /* Classic tracepoints: one program each, with the walk kept by the constant. */
    report_open(&a, ret, full_path);
}

/* Classic tracepoints, one per syscall; each is attached only if the kernel has it. They do not
 * fire for ia32 syscalls (x86 ignores compat calls in them). */
SEC("tp/syscalls/sys_enter_open")
int open_tp_ent_open(struct trace_event_raw_sys_enter *ctx)
{
    enter_open(PATHWALK_AT_FDCWD, ctx->args[0], ctx->args[1], ctx->args[2], 0);
    return 0;
}

SEC("tp/syscalls/sys_enter_openat")
int open_tp_ent_at(struct trace_event_raw_sys_enter *ctx)
{
    enter_open(ctx->args[0], ctx->args[1], ctx->args[2], ctx->args[3], 0);
    return 0;
}

SEC("tp/syscalls/sys_enter_openat2")
int open_tp_ent_at2(struct trace_event_raw_sys_enter *ctx)
{
    enter_open(ctx->args[0], ctx->args[1], 0, 0, ctx->args[2]);
    return 0;
}

SEC("tp/syscalls/sys_enter_creat")
int open_tp_ent_crt(struct trace_event_raw_sys_enter *ctx)
{
    enter_open(PATHWALK_AT_FDCWD, ctx->args[0], OPEN_O_CREAT | OPEN_O_WRONLY | OPEN_O_TRUNC,
               ctx->args[1], 0);
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
