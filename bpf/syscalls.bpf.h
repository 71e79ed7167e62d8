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
#elif defined(__TARGET_ARCH_arm64)
/* arm64 has no open or creat: -1 never matches. */
#define BPFLENS_NR_open -1
#define BPFLENS_NR_creat -1
#define BPFLENS_NR_openat 56
#define BPFLENS_NR_execve 221
#define BPFLENS_NR_execveat 281
#define BPFLENS_NR_openat2 437
#define BPFLENS_SYSCALL_NR(regs) ((long)BPF_CORE_READ(regs, syscallno))
#else
#error "syscall numbers are not known for this architecture"
#endif

#endif
