/* SPDX-License-Identifier: GPL-2.0 */
/* A perf event program's stacks of the task it runs in (bpf/samplestack.h): include after
 * vmlinux.h and the libbpf headers. */
#ifndef BPFLENS_SAMPLESTACK_BPF_H
#define BPFLENS_SAMPLESTACK_BPF_H

#include "bpf/samplestack.h"
#include "bpf/userstack.bpf.h"

/* Fills st, and copy (USER_STACK_MAX_COPY + USER_STACK_PAGE bytes) with the top of the user
 * stack; st->stack_size says how much of it. tid 0 is the idle task. */
static __always_inline void take_sample_stacks(struct bpf_perf_event_data *ctx,
                                               struct sample_stacks *st, __u8 *copy, __u32 tid,
                                               bool kernel, bool user)
{
    struct task_struct *task = (struct task_struct *)bpf_get_current_task();
    __u32 size = 0;
    long n;

    st->flags = 0;
    st->kstack_len = 0;
    st->ustack_len = 0;
    st->stack_size = 0;
    st->reserved = 0;
    if (kernel) {
        n = bpf_get_stack(ctx, st->kstack, sizeof(st->kstack), 0);
        if (n > 0)
            st->kstack_len = n / sizeof(__u64);
    }
    if (!tid || !BPF_CORE_READ(task, mm)) {
        st->flags |= SAMPLE_NO_USER;
        return;
    }
    if (!user)
        return;
    /* user addresses have the top bit clear on x86_64 and arm64 */
    bool in_user = (__s64)PT_REGS_IP(&ctx->regs) >= 0;

    if (in_user)
        st->flags |= SAMPLE_IN_USER;
#if defined(__TARGET_ARCH_x86)
    if (in_user) {
        FILL_REGS(st->regs, &ctx->regs);
        st->flags |= SAMPLE_USER_REGS;
    } else if (saved_user_regs(task, st->regs)) {
        st->flags |= SAMPLE_USER_REGS;
    }
#endif
    /* from the sample's registers, or the task's saved user ones (perf's own rule) */
    n = bpf_get_stack(ctx, st->ustack, sizeof(st->ustack), BPF_F_USER_STACK);
    if (n > 0)
        st->ustack_len = n / sizeof(__u64);
    if ((st->flags & SAMPLE_USER_REGS) && stack_copy_bytes) {
        bool at_limit;

        size = copy_user_stack(copy, st->regs[7], &at_limit);
        if (at_limit)
            st->flags |= SAMPLE_STACK_LIMIT;
    }
    st->stack_size = size;
}

#endif
