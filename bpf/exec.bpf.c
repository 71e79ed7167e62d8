// SPDX-License-Identifier: GPL-2.0
// execsnoop: every exec with its full argv. Successful execs are reported at sched_process_exec,
// where the arguments are read from the new mm (the kernel has just copied them there, so they
// are resident even when the caller's strings were never faulted in). Failed execs (option
// "failed") are read when the call returns: the kernel has faulted in what it used, and the old
// mm is still there because the exec failed. Three ways to see that return, the cheapest the
// kernel allows (helper/execprobe.cpp chooses):
// - fexit on the syscall handlers (__x64_sys_execve, and __ia32_compat_sys_execve for 32-bit
//   processes): only execs run a program, the handler's pt_regs has the arguments;
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
#include "bpf/exec.records.h"
#include "bpf/syscalls.bpf.h"

/* execsnoop --max-args: at most this many arguments are read (up to EXEC_MAX_ARGS), the event
 * marked truncated when there are more. */
const volatile __u32 max_args = EXEC_MAX_ARGS;

/* Argument reads may start anywhere below EXEC_ARGS_MAX and ask for up to EXEC_ARGS_MAX bytes;
 * the verifier adds both maxima, hence twice the argument space. */
struct exec_scratch
{
    struct exec_record hdr;
    char data[EXEC_FILENAME_MAX + 2 * EXEC_ARGS_MAX];
};

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 4 << 20); /* user space sets the real size */
} exec_rb SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct exec_scratch);
} exec_scratch SEC(".maps");

struct exec_pending
{
    __u64 filename;
    __u64 argv;
    __u64 ptr_size; /* of argv's entries: 4 from an ia32 caller */
};

/* Failed execs on the classic tracepoints: the user pointers of an execve in flight, by thread. */
struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 10240); /* user space shrinks it on the other ways */
    __type(key, __u32);
    __type(value, struct exec_pending);
} exec_pending SEC(".maps");

static __always_inline struct exec_scratch *scratch_begin(__s32 retval)
{
    __u32 zero = 0;
    struct exec_scratch *s = bpf_map_lookup_elem(&exec_scratch, &zero);
    struct task_struct *task;

    if (!s)
        return NULL;
    task = (struct task_struct *)bpf_get_current_task();
    s->hdr.time_ns = bpf_ktime_get_ns();
    s->hdr.pid = bpf_get_current_pid_tgid() >> 32;
    s->hdr.cgroup_id = bpf_get_current_cgroup_id();
    s->hdr.ppid = BPF_CORE_READ(task, real_parent, tgid);
    s->hdr.uid = (__u32)bpf_get_current_uid_gid();
    s->hdr.retval = retval;
    s->hdr.flags = 0;
    bpf_get_current_comm(s->hdr.comm, sizeof(s->hdr.comm));
    return s;
}

/* Keeps clang from folding a bounded value into a combined expression the verifier cannot
 * bound (it checks each register, not the arithmetic clang derived them from). */
#define bounded(v, max)                                                                            \
    ({                                                                                             \
        __u32 __v = (v);                                                                           \
        asm volatile("" : "+r"(__v));                                                              \
        __v &= (max)-1;                                                                            \
        __v;                                                                                       \
    })

/* Reads one argument string at offset off of the argument area; returns its length with the
 * NUL, or < 0. */
static __always_inline long read_arg(struct exec_scratch *s, __u32 off, const void *src)
{
    long n, zero_or_less, less;

    off = bounded(off, EXEC_ARGS_MAX);
    /* Older kernels (5.10 and 6.1 seen) return 0 for an empty string and leave its NUL
     * unwritten; newer ones return 1. The size is never 0 here, so 0 can only mean "": it must
     * count as one byte, not end argv, or every argument after it is lost. Branch-free, because
     * a branch here doubles the verifier's states per argument (5.10 then takes seconds to load
     * the probe, minutes under the VM matrix's emulation). */
    s->data[off] = 0;
    n = bpf_probe_read_user_str(s->data + off, EXEC_ARGS_MAX - off, src);
    zero_or_less = (n - 1) >> 63; /* -1 if n <= 0, else 0 */
    less = n >> 63;               /* -1 if n < 0, else 0 */
    asm volatile("" : "+r"(zero_or_less), "+r"(less));
    return n + (less - zero_or_less); /* + 1 only if n == 0 */
}

/* The file name goes right after the args_len bytes of arguments. */
static __always_inline void submit(struct exec_scratch *s, __u32 args_len, long filename_read)
{
    __u32 filename_len = filename_read > 0 ? filename_read - 1 : 0; /* without the NUL */
    __u64 size;

    if (args_len > EXEC_ARGS_MAX)
        args_len = EXEC_ARGS_MAX;
    if (filename_len > EXEC_FILENAME_MAX - 1)
        filename_len = EXEC_FILENAME_MAX - 1;
    s->hdr.filename_len = filename_len;
    s->hdr.args_len = args_len;
    size = sizeof(s->hdr) + args_len + filename_len;
    if (size > sizeof(*s))
        return;
    if (bpf_ringbuf_output(&exec_rb, s, size, submit_flags(&exec_rb)))
        count_lost();
}

/* Where the file name is read to: after the arguments. */
static __always_inline char *filename_slot(struct exec_scratch *s, __u32 args_len)
{
    if (args_len > EXEC_ARGS_MAX)
        args_len = EXEC_ARGS_MAX;
    return s->data + bounded(args_len, 2 * EXEC_ARGS_MAX);
}

/* A successful exec, from the new mm's argument area [arg_start, arg_end). */
static __always_inline int report_exec(const char *kernel_filename, __u32 old_tid)
{
    struct task_struct *task = (struct task_struct *)bpf_get_current_task();
    struct exec_scratch *s;
    __u64 src, end;
    __u32 off = 0;
    long fn;
    int i;

    /* A thread other than the leader that execs comes back from the syscall with the leader's
     * id, so its sys_exit would never find this entry. */
    bpf_map_delete_elem(&exec_pending, &old_tid);
    if (!current_wanted())
        return 0;
    s = scratch_begin(0);
    if (!s)
        return 0;
    src = BPF_CORE_READ(task, mm, arg_start);
    end = BPF_CORE_READ(task, mm, arg_end);
    for (i = 0; i < EXEC_MAX_ARGS && src < end; i++) {
        long n;

        if (i >= max_args || off >= EXEC_ARGS_MAX)
            break;
        n = read_arg(s, off, (const void *)src);
        if (n <= 0)
            break;
        off += n;
        src += n;
    }
    /* More arguments than max_args, a string cut by the byte limit, or unreadable. */
    if (src < end)
        s->hdr.flags |= EXEC_FLAG_ARGV_TRUNCATED;
    fn = bpf_probe_read_kernel_str(filename_slot(s, off), EXEC_FILENAME_MAX, kernel_filename);
    submit(s, off, fn);
    return 0;
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(exec_btf_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
    return report_exec(BPF_CORE_READ(bprm, filename), old_pid);
}

SEC("tp/sched/sched_process_exec")
int exec_tp_exec(struct trace_event_raw_sched_process_exec *ctx)
{
    return report_exec((const char *)ctx + (ctx->__data_loc_filename & 0xFFFF), ctx->old_pid);
}

static __always_inline void enter_exec(__u64 filename, __u64 argv, __u64 ptr_size)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    struct exec_pending p = {.filename = filename, .argv = argv, .ptr_size = ptr_size};

    if (!current_wanted())
        return;
    /* Without the entry a failure of this exec would go unseen: count it. */
    if (bpf_map_update_elem(&exec_pending, &tid, &p, BPF_ANY))
        count_lost();
}

/* A failed exec that returned ret, with the caller's pointers: still in the old mm, read the
 * caller's strings. */
static __always_inline void report_failed(const struct exec_pending *a, long ret)
{
    struct exec_scratch *s;
    __u64 filename = a->filename, argv = a->argv, ptr_size, arg;
    __u32 off = 0;
    long fn;
    int i;

    /* 4 or 8, as a bound the verifier sees; reads of fewer bytes fill arg's low half (little
     * endian, and arg zeroed before each). */
    ptr_size = a->ptr_size == 4 ? 4 : 8;
    s = scratch_begin(ret);
    if (!s)
        return;
    for (i = 0; i < EXEC_MAX_ARGS; i++) {
        long n;

        if (i >= max_args)
            break;
        arg = 0;
        if (bpf_probe_read_user(&arg, ptr_size, (const void *)(argv + i * ptr_size)))
            goto truncated;
        if (!arg)
            goto done;
        if (off >= EXEC_ARGS_MAX)
            goto truncated;
        n = read_arg(s, off, (const void *)arg);
        if (n <= 0)
            goto truncated;
        off += n;
        /* Filling the rest exactly may mean the string was cut. */
        if (off >= EXEC_ARGS_MAX)
            goto truncated;
    }
    arg = 0;
    if (bpf_probe_read_user(&arg, ptr_size, (const void *)(argv + i * ptr_size)) || arg)
        goto truncated;
    goto done;
truncated:
    s->hdr.flags |= EXEC_FLAG_ARGV_TRUNCATED;
done:
    fn = bpf_probe_read_user_str(filename_slot(s, off), EXEC_FILENAME_MAX, (const void *)filename);
    submit(s, off, fn);
}

/* Classic tracepoints: the pointers saved at entry. */
static __always_inline void exit_exec(long ret)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    struct exec_pending *p = bpf_map_lookup_elem(&exec_pending, &tid);
    struct exec_pending a;

    if (!p)
        return;
    a = *p;
    bpf_map_delete_elem(&exec_pending, &tid);
    if (ret >= 0)
        return; /* reported at sched_process_exec */
    report_failed(&a, ret);
}

/* A failed execve (nr BPFLENS_NR_execve) or execveat, with the arguments in the caller's registers
 * (an ia32 caller's with compat): they are as the call found them, since only a successful exec
 * sets the registers of the new program. */
static __always_inline void report_call(struct pt_regs *regs, long nr, bool compat, long ret)
{
    struct exec_pending a = {.ptr_size = 8};

    if (nr == BPFLENS_NR_execve) {
        a.filename = PT_REGS_PARM1_SYSCALL(regs);
        a.argv = PT_REGS_PARM2_SYSCALL(regs);
    } else {
        a.filename = PT_REGS_PARM2_SYSCALL(regs);
        a.argv = PT_REGS_PARM3_SYSCALL(regs);
    }
#if BPFLENS_HAS_COMPAT
    if (compat) {
        a.ptr_size = 4;
        a.filename = nr == BPFLENS_NR_execve ? BPFLENS_COMPAT_PARM1_BTF(regs)
                                             : BPFLENS_COMPAT_PARM2_BTF(regs);
        a.argv = nr == BPFLENS_NR_execve ? BPFLENS_COMPAT_PARM2_BTF(regs)
                                         : BPFLENS_COMPAT_PARM3_BTF(regs);
    }
#endif
    if (!current_wanted())
        return;
    report_failed(&a, ret);
}

/* The x86_64 number of an execve or execveat, also an ia32 one; -1 for any other syscall, which
 * leaves without reading the task. */
static __always_inline long exec_nr(long id)
{
    if (id != BPFLENS_NR_execve && id != BPFLENS_NR_execveat
#if BPFLENS_HAS_COMPAT
        && id != BPFLENS_COMPAT_NR_execve && id != BPFLENS_COMPAT_NR_execveat
#endif
    )
        return -1;
    return bpflens_native_nr(id);
}

/* Runs at the end of every syscall of the machine: everything but a failed exec must leave after
 * a load and a few compares. Planned only where no cheaper way sees 32-bit processes' calls, or
 * no other way is there. */
SEC("tp_btf/sys_exit")
int BPF_PROG(exec_btf_exit, struct pt_regs *regs, long ret)
{
    long id, nr;

    if (ret >= 0)
        return 0; /* a successful exec is reported at sched_process_exec */
    id = BPFLENS_SYSCALL_NR_BTF(regs);
    nr = exec_nr(id);
    if (nr == BPFLENS_NR_execve || nr == BPFLENS_NR_execveat)
        report_call(regs, nr, nr != id, ret);
    return 0;
}

/* fexit on a syscall's handler: its pt_regs are the caller's, as at the raw sys_exit, but only
 * the calls of this one syscall run it. One program per handler, its target set by user space
 * (x86_64: __x64_sys_execve...). */
#define EXEC_HANDLER_EXIT(prog, nr, compat)                                                        \
    SEC("fexit")                                                                                   \
    int BPF_PROG(prog, struct pt_regs *regs, long ret)                                             \
    {                                                                                              \
        if (ret < 0)                                                                               \
            report_call(regs, nr, compat, ret);                                                    \
        return 0;                                                                                  \
    }

EXEC_HANDLER_EXIT(exec_fx_ve, BPFLENS_NR_execve, false)
EXEC_HANDLER_EXIT(exec_fx_vat, BPFLENS_NR_execveat, false)
#if BPFLENS_HAS_COMPAT
/* 32-bit processes' calls reach the ia32 handlers (ia32 numbers, arguments in bx, cx...). */
EXEC_HANDLER_EXIT(exec_fx_ve32, BPFLENS_NR_execve, true)
EXEC_HANDLER_EXIT(exec_fx_vat32, BPFLENS_NR_execveat, true)
#endif

SEC("tp/syscalls/sys_enter_execve")
int exec_tp_ent_ve(struct trace_event_raw_sys_enter *ctx)
{
    enter_exec(ctx->args[0], ctx->args[1], 8);
    return 0;
}

SEC("tp/syscalls/sys_enter_execveat")
int exec_tp_ent_vat(struct trace_event_raw_sys_enter *ctx)
{
    enter_exec(ctx->args[1], ctx->args[2], 8);
    return 0;
}

SEC("tp/syscalls/sys_exit_execve")
int exec_tp_ext_ve(struct trace_event_raw_sys_exit *ctx)
{
    exit_exec(ctx->ret);
    return 0;
}

SEC("tp/syscalls/sys_exit_execveat")
int exec_tp_ext_vat(struct trace_event_raw_sys_exit *ctx)
{
    exit_exec(ctx->ret);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
