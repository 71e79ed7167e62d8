// SPDX-License-Identifier: GPL-2.0
// Page faults by stack: the software perf events minor-faults and major-faults (one of each per
// CPU) run these programs, as perf record -e minor-faults -g does. The kernel raises them in
// mm_account_fault(), after the fault was handled, in the faulting task, once per fault it
// counts in the task's min_flt or maj_flt (not get_user_pages' faults, which have no registers).
// Each sample carries the faulting address (PERF_SAMPLE_ADDR), its mapping's kind where the
// kernel has bpf_find_vma (5.17), the kernel stack, and the user registers, frame-pointer chain
// and top of the user stack for DWARF unwinding (as profile's, bpf/samplestack.bpf.h, but only
// the frames taken go into the record).
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/newimage.bpf.h"
#include "bpf/pagefault.records.h"
#include "bpf/samplestack.bpf.h"
#include "bpf/userstack.bpf.h"

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 4 << 20); /* user space sets the real size */
} pagefault_rb SEC(".maps");

/* The mapping bpf_find_vma found last on this CPU. The program runs with interrupts off, where
 * bpf_find_vma cannot release the mmap lock itself and leaves that to an IRQ work, a
 * self-interrupt per call (one per fault, several microseconds in a VM); a process faulting in a
 * buffer faults in one mapping after another, so the mapping of the last fault answers most. It
 * still holds while the mm's write-lock sequence is the same (every change of the mappings, and
 * of brk, takes the mmap lock for writing and moves it) and the mm is the same one (its
 * stack top and heap, which a new mm at a freed one's address does not share under ASLR). */
struct vma_cache
{
    __u64 mm;
    __u64 start;
    __u64 end;
    __u64 start_stack;
    __u64 start_brk;
    __u64 brk;
    __u32 seq;
    __u8 kind;
    __u8 valid;
    __u8 pad[2];
};

/* s and what follows it in the record, one after the other: the stack copy, then the frames */
#define PAGEFAULT_FRAME_BYTES (SAMPLE_MAX_FRAMES * 8)

struct pagefault_scratch
{
    struct pagefault_sample s;
    __u8 tail[USER_STACK_MAX_COPY + USER_STACK_PAGE + 2 * PAGEFAULT_FRAME_BYTES];
    struct vma_cache vma;
};

/* mm_struct's write-lock sequence: a seqcount, odd while write-locked, since 6.13; an int moved
 * at each write unlock from 6.4 (per-VMA locks); none before. */
struct mm_struct___seqcount
{
    struct seqcount mm_lock_seq;
} __attribute__((preserve_access_index));

struct mm_struct___intseq
{
    int mm_lock_seq;
} __attribute__((preserve_access_index));

/* false where the mappings cannot be known to be unchanged: no sequence, or a writer holds it */
static __always_inline bool mm_write_seq(struct mm_struct *mm, __u32 *seq)
{
    struct mm_struct___seqcount *a = (void *)mm;
    struct mm_struct___intseq *b = (void *)mm;

    if (bpf_core_field_exists(a->mm_lock_seq)) {
        *seq = BPF_CORE_READ(a, mm_lock_seq.sequence);
        return !(*seq & 1);
    }
    if (bpf_core_field_exists(b->mm_lock_seq)) {
        *seq = (__u32)BPF_CORE_READ(b, mm_lock_seq);
        return true;
    }
    return false;
}

/* One entry per possible CPU, indexed by the CPU (user space sets max_entries), as profile's. */
struct
{
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct pagefault_scratch);
} pagefault_scratch SEC(".maps");

struct vma_kind_ctx
{
    __u64 start_stack;
    __u64 start_brk;
    __u64 brk;
    __u64 start;
    __u64 end;
    __u8 kind;
};

static long vma_kind(struct task_struct *task, struct vm_area_struct *vma, void *data)
{
    struct vma_kind_ctx *k = data;
    __u64 start = vma->vm_start, end = vma->vm_end;

    k->start = start;
    k->end = end;
    if (vma->vm_file)
        k->kind = PAGEFAULT_FILE;
    else if (k->start_stack >= start && k->start_stack <= end)
        k->kind = PAGEFAULT_STACK;
    else if (k->brk > k->start_brk && start < k->brk && end > k->start_brk)
        k->kind = PAGEFAULT_HEAP;
    else
        k->kind = PAGEFAULT_ANON;
    return 0;
}

/* The recording process, when no pid or tid filter names one: its own faults are left out. Each
 * event it records grows its memory, so recording its own faults feeds itself (unfiltered and on
 * an idle machine, the recorder grew past 3 GB in 4 s). */
const volatile __u32 recorder_tgid = 0;

static __always_inline int on_fault(struct bpf_perf_event_data *ctx, bool major, bool find_vma)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tid = (__u32)id;
    struct pagefault_scratch *sc;
    __u32 cpu = bpf_get_smp_processor_id();

    /* the idle task and kernel threads do not fault on user memory of their own */
    if (!tid || (__u32)(id >> 32) == recorder_tgid || !current_wanted())
        return 0;
    sc = bpf_map_lookup_elem(&pagefault_scratch, &cpu);
    if (!sc)
        return 0;
    sc->s.time_ns = bpf_ktime_get_ns();
    sc->s.cgroup_id = bpf_get_current_cgroup_id();
    sc->s.addr = ctx->addr;
    sc->s.pid = id >> 32;
    sc->s.tid = tid;
    sc->s.major = major;
    sc->s.kind = PAGEFAULT_UNKNOWN;
    __builtin_memset(sc->s.pad, 0, sizeof(sc->s.pad));
    bpf_get_current_comm(sc->s.comm, sizeof(sc->s.comm));
    if (find_vma) {
        struct task_struct *task = bpf_get_current_task_btf();
        struct mm_struct *mm = task->mm;
        struct vma_kind_ctx k = {};
        struct vma_cache *c = &sc->vma;
        bool seq_ok;
        __u32 seq = 0;

        if (mm) {
            seq_ok = mm_write_seq(mm, &seq);
            k.start_stack = BPF_CORE_READ(mm, start_stack);
            k.start_brk = BPF_CORE_READ(mm, start_brk);
            k.brk = BPF_CORE_READ(mm, brk);
            if (seq_ok && c->valid && c->mm == (__u64)mm && c->seq == seq &&
                c->start <= sc->s.addr && sc->s.addr < c->end && c->start_stack == k.start_stack &&
                c->start_brk == k.start_brk && c->brk == k.brk) {
                sc->s.kind = c->kind;
            } else if (bpf_find_vma(task, sc->s.addr, vma_kind, &k, 0) == 0) {
                /* -EBUSY when the mmap lock cannot be taken here: the kind stays unknown */
                sc->s.kind = k.kind;
                c->valid = seq_ok;
                c->mm = (__u64)mm;
                c->seq = seq;
                c->start = k.start;
                c->end = k.end;
                c->start_stack = k.start_stack;
                c->start_brk = k.start_brk;
                c->brk = k.brk;
                c->kind = k.kind;
            }
        }
    }
    /* As bpf/samplestack.bpf.h's take_sample_stacks, each part written where the record has
     * it: the user stack first, the frames after it, as many as there are. */
    struct task_struct *task = (struct task_struct *)bpf_get_current_task();
    __u64 size = 0, kbytes = 0, ubytes = 0;
    bool user = BPF_CORE_READ(task, mm) != 0;
    long n;

    sc->s.flags = 0;
    sc->s.reserved = 0;
    if (!user) {
        sc->s.flags |= SAMPLE_NO_USER;
    } else {
        /* user addresses have the top bit clear on x86_64 and arm64 */
        bool in_user = (__s64)PT_REGS_IP(&ctx->regs) >= 0;

        if (in_user)
            sc->s.flags |= SAMPLE_IN_USER;
#if defined(__TARGET_ARCH_x86)
        if (in_user) {
            FILL_REGS(sc->s.regs, &ctx->regs);
            sc->s.flags |= SAMPLE_USER_REGS;
        } else if (saved_user_regs(task, sc->s.regs)) {
            sc->s.flags |= SAMPLE_USER_REGS;
        }
#endif
        if ((sc->s.flags & SAMPLE_USER_REGS) && stack_copy_bytes) {
            bool at_limit;

            size = copy_user_stack(sc->tail, sc->s.regs[7], &at_limit);
            if (at_limit)
                sc->s.flags |= SAMPLE_STACK_LIMIT;
        }
    }
    asm volatile("" : "+r"(size));
    if (size > USER_STACK_MAX_COPY)
        return 0;
    /* The 5.10 and 6.1 verifiers also walk a dead path on which size's bounds contradict each
     * other (umin > umax, from copy_user_stack's loop), and there turn sc->tail + size into a
     * scalar that bpf_get_stack refuses. A mask the compiler cannot drop gives the register
     * bounds that agree; newer verifiers prune the path. */
    asm volatile("" : "+r"(size));
    size &= 2 * USER_STACK_MAX_COPY - 1;
    n = bpf_get_stack(ctx, sc->tail + size, PAGEFAULT_FRAME_BYTES, 0);
    if (n > 0)
        kbytes = n & ~7UL;
    asm volatile("" : "+r"(kbytes));
    if (kbytes > PAGEFAULT_FRAME_BYTES)
        return 0;
    asm volatile("" : "+r"(kbytes));
    kbytes &= 2047; /* as size's: PAGEFAULT_FRAME_BYTES (1016) and below */
    if (user) {
        /* from the sample's registers, or the task's saved user ones (perf's own rule) */
        n = bpf_get_stack(ctx, sc->tail + size + kbytes, PAGEFAULT_FRAME_BYTES, BPF_F_USER_STACK);
        if (n > 0)
            ubytes = n & ~7UL;
    }
    asm volatile("" : "+r"(ubytes));
    if (ubytes > PAGEFAULT_FRAME_BYTES)
        return 0;
    asm volatile("" : "+r"(ubytes));
    ubytes &= 2047;
    sc->s.stack_size = size;
    sc->s.kstack_len = kbytes / 8;
    sc->s.ustack_len = ubytes / 8;
    size += kbytes + ubytes;
    if (bpf_ringbuf_output(
            &pagefault_rb, sc, sizeof(sc->s) + size,
            submit_flags_for(&pagefault_rb, (struct task_struct *)bpf_get_current_task())))
        count_lost();
    return 0;
}

/* One program per event (nothing in the context says which event ran it) and per kernel:
 * user space loads the pair with bpf_find_vma where the kernel has it, the other elsewhere. */
SEC("perf_event")
int pagefault_minor_vma(struct bpf_perf_event_data *ctx)
{
    return on_fault(ctx, false, true);
}

SEC("perf_event")
int pagefault_major_vma(struct bpf_perf_event_data *ctx)
{
    return on_fault(ctx, true, true);
}

SEC("perf_event")
int pagefault_minor(struct bpf_perf_event_data *ctx)
{
    return on_fault(ctx, false, false);
}

SEC("perf_event")
int pagefault_major(struct bpf_perf_event_data *ctx)
{
    return on_fault(ctx, true, false);
}

char LICENSE[] SEC("license") = "GPL";
