/* SPDX-License-Identifier: GPL-2.0 */
/* A user thread's registers and the top of its stack, copied for DWARF unwinding in user space
 * (profile at each sample, offcpu when a thread that waited returns from its system call). */
#ifndef BPFLENS_USERSTACK_BPF_H
#define BPFLENS_USERSTACK_BPF_H

#include "bpf/userstack.h"

/* Bytes of user stack to copy, at most USER_STACK_MAX_COPY; 0: frame pointers only. */
const volatile __u32 stack_copy_bytes = 16384;

#if defined(__TARGET_ARCH_x86)
/* x86_64's task_pt_regs() before bpf_task_pt_regs (5.15): the user registers saved at the top of
 * the task's kernel stack, THREAD_SIZE = 16 KiB (without KASAN) and no top padding on 64-bit
 * before FRED (6.9, which has bpf_task_pt_regs anyway). Used on 5.8 (ring buffer) to 5.14. */
#define USER_THREAD_SIZE (4096 << 2)
#define USER_CS_64 0x33 /* __USER_CS: a 64-bit task (a compat task has __USER32_CS) */

#define FILL_REGS(dst, r)                                                                          \
    do {                                                                                           \
        (dst)[0] = (r)->ax;                                                                        \
        (dst)[1] = (r)->dx;                                                                        \
        (dst)[2] = (r)->cx;                                                                        \
        (dst)[3] = (r)->bx;                                                                        \
        (dst)[4] = (r)->si;                                                                        \
        (dst)[5] = (r)->di;                                                                        \
        (dst)[6] = (r)->bp;                                                                        \
        (dst)[7] = (r)->sp;                                                                        \
        (dst)[8] = (r)->r8;                                                                        \
        (dst)[9] = (r)->r9;                                                                        \
        (dst)[10] = (r)->r10;                                                                      \
        (dst)[11] = (r)->r11;                                                                      \
        (dst)[12] = (r)->r12;                                                                      \
        (dst)[13] = (r)->r13;                                                                      \
        (dst)[14] = (r)->r14;                                                                      \
        (dst)[15] = (r)->r15;                                                                      \
        (dst)[16] = (r)->ip;                                                                       \
    } while (0)

/* The current task's user registers, saved where it entered the kernel (a system call, an
 * interrupt, a fault): task must be the current task. */
static __always_inline bool current_user_regs(struct task_struct *task, struct pt_regs *regs)
{
    void *p;

    if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_task_pt_regs)) {
        p = (void *)bpf_task_pt_regs((struct task_struct *)bpf_get_current_task_btf());
    } else {
        p = BPF_CORE_READ(task, stack);
        if (!p)
            return false;
        p += USER_THREAD_SIZE - sizeof(struct pt_regs);
    }
    return bpf_probe_read_kernel(regs, sizeof(*regs), p) == 0;
}

static __always_inline bool saved_user_regs(struct task_struct *task, __u64 *dst)
{
    struct pt_regs regs;

    if (!current_user_regs(task, &regs))
        return false;
    FILL_REGS(dst, &regs);
    return true;
}
#endif

/* Copies the user stack from sp upwards into dst (USER_STACK_MAX_COPY + USER_STACK_PAGE bytes)
 * in page-bounded pieces, each one read whole or not at all: the first that fails is above the
 * stack's top. Returns the bytes copied; *at_limit tells a copy cut by stack_copy_bytes. */
static __always_inline __u32 copy_user_stack(__u8 *dst, __u64 sp, bool *at_limit)
{
    /* 64-bit throughout: a 32-bit value is zero-extended into a copy, whose bounds the verifier
     * does not carry over to the register that reaches the helper */
    __u64 limit = stack_copy_bytes;
    __u64 off = 0, len;
    int i;

    if (limit > USER_STACK_MAX_COPY)
        limit = USER_STACK_MAX_COPY;
    for (i = 0; i < USER_STACK_MAX_COPY / USER_STACK_PAGE + 1; i++) {
        if (off >= limit)
            break;
        len = USER_STACK_PAGE - ((sp + off) & (USER_STACK_PAGE - 1));
        if (len > limit - off)
            len = limit - off;
        /* no-ops (off < limit <= MAX, len <= PAGE) the verifier needs to see on the very
         * registers that reach the helper */
        asm volatile("" : "+r"(off), "+r"(len));
        if (off > USER_STACK_MAX_COPY || len > USER_STACK_PAGE)
            break;
        if (bpf_probe_read_user(&dst[off], len, (void *)(sp + off)))
            break;
        off += len;
    }
    *at_limit = off >= limit && limit;
    return off;
}

#endif
