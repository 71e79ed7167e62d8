// SPDX-License-Identifier: GPL-2.0
// Page faults by stack: the software perf events minor-faults and major-faults (one of each per
// CPU) run these programs, as perf record -e minor-faults -g does. The kernel raises them in
// mm_account_fault(), after the fault was handled, in the faulting task, once per fault it
// counts in the task's min_flt or maj_flt (not get_user_pages' faults, which have no registers).
// Each sample carries the faulting address (PERF_SAMPLE_ADDR), its mapping's kind where the
// kernel has bpf_find_vma (5.17), the kernel stack, and the user registers, frame-pointer chain
// and top of the user stack for DWARF unwinding (bpf/samplestack.bpf.h, as profile's).
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

struct pagefault_scratch
{
    struct pagefault_sample s;
    __u8 stack[USER_STACK_MAX_COPY + USER_STACK_PAGE];
};

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
    __u8 kind;
};

static long vma_kind(struct task_struct *task, struct vm_area_struct *vma, void *data)
{
    struct vma_kind_ctx *k = data;
    __u64 start = vma->vm_start, end = vma->vm_end;

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

static __always_inline int on_fault(struct bpf_perf_event_data *ctx, bool major, bool find_vma)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tid = (__u32)id;
    struct pagefault_scratch *sc;
    __u32 cpu = bpf_get_smp_processor_id();
    __u32 size;

    /* the idle task and kernel threads do not fault on user memory of their own */
    if (!tid || !current_wanted())
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

        if (mm) {
            k.start_stack = BPF_CORE_READ(mm, start_stack);
            k.start_brk = BPF_CORE_READ(mm, start_brk);
            k.brk = BPF_CORE_READ(mm, brk);
            /* -EBUSY when the mmap lock cannot be taken here: the kind stays unknown */
            if (bpf_find_vma(task, sc->s.addr, vma_kind, &k, 0) == 0)
                sc->s.kind = k.kind;
        }
    }
    take_sample_stacks(ctx, &sc->s.st, sc->stack, tid, true, true);
    size = sc->s.st.stack_size;
    asm volatile("" : "+r"(size));
    if (size > USER_STACK_MAX_COPY)
        return 0;
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
