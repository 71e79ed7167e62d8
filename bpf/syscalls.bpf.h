/* SPDX-License-Identifier: GPL-2.0 */
/* Syscall numbers and the syscall number of a raw sys_exit, per architecture: the raw
 * sys_enter/sys_exit tracepoints fire for every syscall, so probes filter on these. */
#ifndef BPFLENS_SYSCALLS_BPF_H
#define BPFLENS_SYSCALLS_BPF_H

#if defined(__TARGET_ARCH_x86)
#define BPFLENS_NR_open 2
#define BPFLENS_NR_creat 85
#define BPFLENS_NR_execve 59
#define BPFLENS_NR_openat 257
#define BPFLENS_NR_execveat 322
#define BPFLENS_NR_openat2 437
#define BPFLENS_SYSCALL_NR(regs) ((long)BPF_CORE_READ(regs, orig_ax))
/* ia32 system calls (a 32-bit process, or int 0x80): the raw tracepoints carry the ia32
 * number, the arguments are in bx, cx, dx, si, di (32 bits each), and the per-syscall
 * tracepoints (syscalls/sys_enter_openat...) do not fire for them at all. */
#define BPFLENS_COMPAT_NR_open 5
#define BPFLENS_COMPAT_NR_creat 8
#define BPFLENS_COMPAT_NR_execve 11
#define BPFLENS_COMPAT_NR_openat 295
#define BPFLENS_COMPAT_NR_execveat 358
#define BPFLENS_COMPAT_NR_openat2 437
#define BPFLENS_COMPAT_NR_read 3
#define BPFLENS_COMPAT_NR_write 4
#define BPFLENS_COMPAT_NR_fsync 118
#define BPFLENS_COMPAT_NR_readv 145
#define BPFLENS_COMPAT_NR_writev 146
#define BPFLENS_COMPAT_NR_fdatasync 148
#define BPFLENS_COMPAT_NR_pread64 180
#define BPFLENS_COMPAT_NR_pwrite64 181
#define BPFLENS_COMPAT_NR_preadv 333
#define BPFLENS_COMPAT_NR_pwritev 334
#define BPFLENS_COMPAT_NR_preadv2 378
#define BPFLENS_COMPAT_NR_pwritev2 379
#define BPFLENS_HAS_COMPAT 1
/* arch/x86/include/asm/thread_info.h: set while the current syscall is an ia32 one, from entry
 * until the return to user space (so also at sys_exit). */
#define BPFLENS_TS_COMPAT 0x0002

static __always_inline bool bpflens_in_compat_syscall(void)
{
    struct task_struct *task = (struct task_struct *)bpf_get_current_task();

    return BPF_CORE_READ(task, thread_info.status) & BPFLENS_TS_COMPAT;
}

/* The x86_64 number of the syscall a raw tracepoint reports as id: an ia32 call of one that some
 * probe follows gets its x86_64 number, any other ia32 call -1 (matches nothing), so a 32-bit
 * process' fork (2) is not taken for open, nor its readlink (85) for creat. Only ids that could
 * be either pay for reading the task. */
static __always_inline long bpflens_compat_to_native(long id)
{
    switch (id) {
    case BPFLENS_COMPAT_NR_read:
        return 0;
    case BPFLENS_COMPAT_NR_write:
        return 1;
    case BPFLENS_COMPAT_NR_open:
        return BPFLENS_NR_open;
    case BPFLENS_COMPAT_NR_creat:
        return BPFLENS_NR_creat;
    case BPFLENS_COMPAT_NR_execve:
        return BPFLENS_NR_execve;
    case BPFLENS_COMPAT_NR_fsync:
        return 74;
    case BPFLENS_COMPAT_NR_readv:
        return 19;
    case BPFLENS_COMPAT_NR_writev:
        return 20;
    case BPFLENS_COMPAT_NR_fdatasync:
        return 75;
    case BPFLENS_COMPAT_NR_pread64:
        return 17;
    case BPFLENS_COMPAT_NR_pwrite64:
        return 18;
    case BPFLENS_COMPAT_NR_openat:
        return BPFLENS_NR_openat;
    case BPFLENS_COMPAT_NR_preadv:
        return 295;
    case BPFLENS_COMPAT_NR_pwritev:
        return 296;
    case BPFLENS_COMPAT_NR_execveat:
        return BPFLENS_NR_execveat;
    case BPFLENS_COMPAT_NR_preadv2:
        return 327;
    case BPFLENS_COMPAT_NR_pwritev2:
        return 328;
    case BPFLENS_COMPAT_NR_openat2:
        return BPFLENS_NR_openat2;
    }
    return -1;
}

/* x86_64 numbers some probe follows: read, write, open, pread64, pwrite64, readv, writev,
 * execve, fsync, fdatasync, creat, openat, preadv, pwritev, execveat, preadv2, pwritev2,
 * openat2. */
static __always_inline bool bpflens_native_followed(long id)
{
    switch (id) {
    case 0:
    case 1:
    case 2:
    case 17:
    case 18:
    case 19:
    case 20:
    case 59:
    case 74:
    case 75:
    case 85:
    case 257:
    case 295:
    case 296:
    case 322:
    case 327:
    case 328:
    case 437:
        return true;
    }
    return false;
}

static __always_inline long bpflens_native_nr(long id)
{
    const long native = bpflens_compat_to_native(id);

    if (native < 0 && !bpflens_native_followed(id))
        return id; /* neither way followed: whatever it is, it matches nothing */
    return bpflens_in_compat_syscall() ? native : id;
}

/* In tp_btf programs, whose regs is a BTF pointer: plain loads, no helper call. The syscall
 * number, and argument n (1-based) of an ia32 syscall. */
#define BPFLENS_SYSCALL_NR_BTF(regs) ((long)(regs)->orig_ax)
#define BPFLENS_COMPAT_PARM1_BTF(regs) ((__u64)(__u32)(regs)->bx)
#define BPFLENS_COMPAT_PARM2_BTF(regs) ((__u64)(__u32)(regs)->cx)
#define BPFLENS_COMPAT_PARM3_BTF(regs) ((__u64)(__u32)(regs)->dx)
#define BPFLENS_COMPAT_PARM4_BTF(regs) ((__u64)(__u32)(regs)->si)
#elif defined(__TARGET_ARCH_arm64)
/* arm64 has no open or creat: -1 never matches. */
#define BPFLENS_NR_open -1
#define BPFLENS_NR_creat -1
#define BPFLENS_NR_openat 56
#define BPFLENS_NR_execve 221
#define BPFLENS_NR_execveat 281
#define BPFLENS_NR_openat2 437
#define BPFLENS_SYSCALL_NR(regs) ((long)BPF_CORE_READ(regs, syscallno))
#define BPFLENS_SYSCALL_NR_BTF(regs) ((long)(regs)->syscallno)
/* 32-bit (AArch32) tasks are not handled yet: their numbers are not mapped. */
#define BPFLENS_HAS_COMPAT 0
static __always_inline bool bpflens_in_compat_syscall(void)
{
    return false;
}
static __always_inline long bpflens_native_nr(long id)
{
    return id;
}
#else
#error "syscall numbers are not known for this architecture"
#endif

#endif
