// SPDX-License-Identifier: GPL-2.0
// On-CPU sampling: a perf event per CPU (cycles, or the cpu-clock timer where there is no PMU)
// runs this program at the probe's frequency. Each sample carries the kernel stack, and for a
// user thread what user space needs to unwind it: the user registers, the frame-pointer chain
// and a copy of the top of the user stack (as perf record --call-graph dwarf does).
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "common.bpf.h"
#include "newimage.bpf.h"
#include "profile.h"

const volatile bool include_idle = false;
const volatile bool kernel_only = false;
const volatile bool user_only = false;
/* Bytes of user stack to copy, at most PROFILE_MAX_STACK_COPY; 0: frame pointers only. */
const volatile __u32 stack_copy_bytes = 16384;

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 4 << 20); /* user space sets the real size */
} profile_rb SEC(".maps");

/* The record is built here and copied out with the size it used: the user stack's copy is
 * mostly far below its limit, and a reservation would have to take the limit every time. */
struct profile_scratch
{
    struct profile_sample s;
    /* a piece may start just below the limit and run a page on */
    __u8 stack[PROFILE_MAX_STACK_COPY + PROFILE_PAGE];
};

/* One entry per possible CPU, indexed by the CPU (user space sets max_entries): a per-CPU array's
 * values are limited to 32 KiB. Perf event programs do not nest on one CPU. */
struct
{
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct profile_scratch);
} profile_scratch SEC(".maps");

#if defined(__TARGET_ARCH_x86)
/* x86_64's task_pt_regs() before bpf_task_pt_regs (5.15): the user registers saved at the top of
 * the task's kernel stack, THREAD_SIZE = 16 KiB (without KASAN) and no top padding on 64-bit
 * before FRED (6.9, which has bpf_task_pt_regs anyway). Used on 5.8 (ring buffer) to 5.14. */
#define PROFILE_THREAD_SIZE (4096 << 2)

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

/* The user registers of the current task when the sample hit the kernel: where it entered the
 * kernel (a system call, an interrupt, a fault). */
static __always_inline bool saved_user_regs(struct task_struct *task, __u64 *dst)
{
    struct pt_regs regs;
    void *p;

    if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_task_pt_regs)) {
        p = (void *)bpf_task_pt_regs((struct task_struct *)bpf_get_current_task_btf());
    } else {
        p = BPF_CORE_READ(task, stack);
        if (!p)
            return false;
        p += PROFILE_THREAD_SIZE - sizeof(struct pt_regs);
    }
    if (bpf_probe_read_kernel(&regs, sizeof(regs), p))
        return false;
    FILL_REGS(dst, &regs);
    return true;
}
#endif

/* Copies the user stack from sp upwards in page-bounded pieces, each one read whole or not at
 * all: the first that fails is above the stack's top. Returns the bytes copied. */
static __always_inline __u32 copy_user_stack(struct profile_scratch *sc, __u64 sp)
{
    /* 64-bit throughout: a 32-bit value is zero-extended into a copy, whose bounds the verifier
     * does not carry over to the register that reaches the helper */
    __u64 limit = stack_copy_bytes;
    __u64 off = 0, len;
    int i;

    if (limit > PROFILE_MAX_STACK_COPY)
        limit = PROFILE_MAX_STACK_COPY;
    for (i = 0; i < PROFILE_MAX_STACK_COPY / PROFILE_PAGE + 1; i++) {
        if (off >= limit)
            break;
        len = PROFILE_PAGE - ((sp + off) & (PROFILE_PAGE - 1));
        if (len > limit - off)
            len = limit - off;
        /* no-ops (off < limit <= MAX, len <= PAGE) the verifier needs to see on the very
         * registers that reach the helper */
        asm volatile("" : "+r"(off), "+r"(len));
        if (off > PROFILE_MAX_STACK_COPY || len > PROFILE_PAGE)
            break;
        if (bpf_probe_read_user(&sc->stack[off], len, (void *)(sp + off)))
            break;
        off += len;
    }
    if (off >= limit && limit)
        sc->s.flags |= PROFILE_STACK_LIMIT;
    return off;
}

SEC("perf_event")
int profile_tick(struct bpf_perf_event_data *ctx)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tid = (__u32)id;
    struct task_struct *task;
    struct profile_scratch *sc;
    __u32 cpu = bpf_get_smp_processor_id();
    __u32 size = 0;
    long n;

    if (!tid && !include_idle)
        return 0;
    if (!current_wanted())
        return 0;
    sc = bpf_map_lookup_elem(&profile_scratch, &cpu);
    if (!sc)
        return 0;
    sc->s.time_ns = bpf_ktime_get_ns();
    sc->s.cpu = cpu;
    sc->s.pid = id >> 32;
    sc->s.tid = tid;
    sc->s.flags = 0;
    sc->s.kstack_len = 0;
    sc->s.ustack_len = 0;
    sc->s.stack_size = 0;
    bpf_get_current_comm(sc->s.comm, sizeof(sc->s.comm));

    if (!user_only) {
        n = bpf_get_stack(ctx, sc->s.kstack, sizeof(sc->s.kstack), 0);
        if (n > 0)
            sc->s.kstack_len = n / sizeof(__u64);
    }

    task = (struct task_struct *)bpf_get_current_task();
    if (!tid || !BPF_CORE_READ(task, mm)) {
        sc->s.flags |= PROFILE_NO_USER;
    } else if (!kernel_only) {
        /* user addresses have the top bit clear on x86_64 and arm64 */
        bool in_user = (__s64)PT_REGS_IP(&ctx->regs) >= 0;

        if (in_user)
            sc->s.flags |= PROFILE_IN_USER;
#if defined(__TARGET_ARCH_x86)
        if (in_user) {
            FILL_REGS(sc->s.regs, &ctx->regs);
            sc->s.flags |= PROFILE_USER_REGS;
        } else if (saved_user_regs(task, sc->s.regs)) {
            sc->s.flags |= PROFILE_USER_REGS;
        }
#endif
        /* from the sample's registers, or the task's saved user ones (perf's own rule) */
        n = bpf_get_stack(ctx, sc->s.ustack, sizeof(sc->s.ustack), BPF_F_USER_STACK);
        if (n > 0)
            sc->s.ustack_len = n / sizeof(__u64);
        if ((sc->s.flags & PROFILE_USER_REGS) && stack_copy_bytes)
            size = copy_user_stack(sc, sc->s.regs[7]);
    }
    sc->s.stack_size = size;
    asm volatile("" : "+r"(size));
    if (size > PROFILE_MAX_STACK_COPY)
        return 0;
    if (bpf_ringbuf_output(&profile_rb, sc, sizeof(sc->s) + size,
                           submit_flags_for(&profile_rb, task)))
        count_lost();
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
