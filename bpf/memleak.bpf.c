// SPDX-License-Identifier: GPL-2.0
// Allocations by stack, like BCC's and libbpf-tools' memleak: uprobes on one process's
// allocator (malloc, calloc, realloc, reallocarray, posix_memalign, aligned_alloc, memalign,
// valloc, pvalloc, mmap; free and munmap), user space attaching them by file and offset with
// the process's pid. An allocation is recorded at its return, with its address, size and the
// caller's stacks (the registers, frame-pointer chain and top of the user stack, as pagefault's,
// for DWARF unwinding in user space); its address goes into a map, and a free of an address in
// the map is recorded too, so user space knows each recorded block's lifetime. Frees of blocks
// not recorded (allocated before the recording, or not sampled) cost a map lookup and nothing
// else.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/memleak.records.h"
#include "bpf/userstack.bpf.h"

/* One allocation in every sample_every, chosen at random, each standing for sample_every. */
const volatile __u32 sample_every = 1;

/* The call in progress on a thread. The allocator's public functions call each other (glibc's
 * realloc(NULL, n) is malloc, its large blocks are mmap'd, reallocarray is realloc): the
 * outermost call is the allocation, calls inside it only count depth. */
struct call
{
    __u64 time_ns;
    __u64 size;
    __u64 ptr; /* realloc's old block; posix_memalign's memptr */
    __u32 depth;
    __u8 func;
    __u8 sampled;
    __u8 pad[2];
};

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 16384);
    __type(key, __u32);
    __type(value, struct call);
} memleak_calls SEC(".maps");

struct block_key
{
    __u32 pid;
    __u32 pad;
    __u64 addr;
};

/* The recorded blocks not freed yet. Allocated as used: preallocated, the million entries a
 * leaking process can fill would cost ~100 MB of kernel memory whatever is recorded. User space
 * sets the size (option maxBlocks). */
struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 1 << 20);
    __uint(map_flags, BPF_F_NO_PREALLOC);
    __type(key, struct block_key);
    __type(value, __u64);
} memleak_blocks SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 4 << 20); /* user space sets the real size */
} memleak_rb SEC(".maps");

#define MEMLEAK_FRAME_BYTES (SAMPLE_MAX_FRAMES * 8)

struct memleak_scratch
{
    struct memleak_alloc a;
    __u8 tail[USER_STACK_MAX_COPY + USER_STACK_PAGE + MEMLEAK_FRAME_BYTES];
};

/* One entry per possible CPU, indexed by the CPU (user space sets max_entries). */
struct
{
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct memleak_scratch);
} memleak_scratch SEC(".maps");

/* Sampled allocations not recorded: the block map was full, so their frees could not be seen. */
__u64 blocks_full = 0;
/* Calls whose entry found no room in the call map: neither they nor calls inside them count. */
__u64 calls_full = 0;

static __always_inline int enter(__u8 func, __u64 size, __u64 ptr)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    struct call *c, n = {};

    if (!current_wanted())
        return 0;
    c = bpf_map_lookup_elem(&memleak_calls, &tid);
    if (c) {
        c->depth++;
        return 0;
    }
    n.time_ns = bpf_ktime_get_ns();
    n.size = size;
    n.ptr = ptr;
    n.func = func;
    n.sampled = sample_every <= 1 || bpf_get_prandom_u32() % sample_every == 0;
    if (bpf_map_update_elem(&memleak_calls, &tid, &n, BPF_NOEXIST))
        __sync_fetch_and_add(&calls_full, 1);
    return 0;
}

static __always_inline void emit_free(__u32 pid, __u32 tid, __u64 addr, __u32 kind)
{
    struct memleak_free f = {};

    f.kind = kind;
    f.pid = pid;
    f.tid = tid;
    f.time_ns = bpf_ktime_get_ns();
    f.addr = addr;
    if (bpf_ringbuf_output(&memleak_rb, &f, sizeof(f), submit_flags(&memleak_rb)))
        count_lost();
}

static __always_inline void forget(__u32 pid, __u32 tid, __u64 addr)
{
    struct block_key k = {.pid = pid, .addr = addr};

    if (addr && bpf_map_delete_elem(&memleak_blocks, &k) == 0)
        emit_free(pid, tid, addr, MEMLEAK_REC_FREE);
}

/* The allocation's record, its stacks taken here at the return: the caller's frames. */
static __always_inline void record(struct pt_regs *ctx, struct call *c, __u64 addr, __u32 pid,
                                   __u32 tid)
{
    struct block_key k = {.pid = pid, .addr = addr};
    __u64 t = c->time_ns;
    struct memleak_scratch *sc;
    __u32 cpu = bpf_get_smp_processor_id();
    __u64 size = 0, ubytes = 0;
    long n;

    if (bpf_map_update_elem(&memleak_blocks, &k, &t, BPF_ANY)) {
        __sync_fetch_and_add(&blocks_full, 1);
        return;
    }
    sc = bpf_map_lookup_elem(&memleak_scratch, &cpu);
    if (!sc)
        return;
    sc->a.kind = MEMLEAK_REC_ALLOC;
    sc->a.pid = pid;
    sc->a.tid = tid;
    sc->a.time_ns = t;
    sc->a.cgroup_id = bpf_get_current_cgroup_id();
    sc->a.addr = addr;
    sc->a.size = c->size;
    sc->a.func = c->func;
    __builtin_memset(sc->a.pad, 0, sizeof(sc->a.pad));
    bpf_get_current_comm(sc->a.comm, sizeof(sc->a.comm));
    sc->a.flags = SAMPLE_IN_USER;
    sc->a.reserved = 0;
    sc->a.reserved2 = 0;
#if defined(__TARGET_ARCH_x86)
    FILL_REGS(sc->a.regs, ctx);
    sc->a.flags |= SAMPLE_USER_REGS;
    if (stack_copy_bytes) {
        bool at_limit;

        size = copy_user_stack(sc->tail, sc->a.regs[7], &at_limit);
        if (at_limit)
            sc->a.flags |= SAMPLE_STACK_LIMIT;
    }
#endif
    /* bounds the verifier needs on the registers themselves, as in pagefault.bpf.c */
    asm volatile("" : "+r"(size));
    if (size > USER_STACK_MAX_COPY)
        return;
    asm volatile("" : "+r"(size));
    size &= 2 * USER_STACK_MAX_COPY - 1;
    n = bpf_get_stack(ctx, sc->tail + size, MEMLEAK_FRAME_BYTES, BPF_F_USER_STACK);
    if (n > 0)
        ubytes = n & ~7UL;
    asm volatile("" : "+r"(ubytes));
    if (ubytes > MEMLEAK_FRAME_BYTES)
        return;
    asm volatile("" : "+r"(ubytes));
    ubytes &= 2047;
    sc->a.stack_size = size;
    sc->a.ustack_len = ubytes / 8;
    if (bpf_ringbuf_output(&memleak_rb, sc, sizeof(sc->a) + size + ubytes,
                           submit_flags(&memleak_rb)))
        count_lost();
}

SEC("uretprobe")
int BPF_KRETPROBE(memleak_return, void *ret)
{
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tid = (__u32)id, pid = id >> 32;
    struct call *c;
    __u64 addr = (__u64)ret;

    c = bpf_map_lookup_elem(&memleak_calls, &tid);
    if (!c)
        return 0;
    if (c->depth) {
        c->depth--;
        return 0;
    }
    if (c->func == MEMLEAK_POSIX_MEMALIGN) {
        addr = 0;
        if ((long)ret == 0 && c->ptr)
            bpf_probe_read_user(&addr, sizeof(addr), (void *)c->ptr);
    } else if (c->func == MEMLEAK_MMAP && addr == (__u64)-1) {
        addr = 0; /* MAP_FAILED */
    }
    /* realloc frees its old block when it returns a new one, or when asked for 0 bytes */
    if ((c->func == MEMLEAK_REALLOC || c->func == MEMLEAK_REALLOCARRAY) && c->ptr &&
        (addr || !c->size))
        forget(pid, tid, c->ptr);
    if (addr && c->sampled)
        record(ctx, c, addr, pid, tid);
    bpf_map_delete_elem(&memleak_calls, &tid);
    return 0;
}

SEC("uprobe")
int BPF_KPROBE(memleak_malloc, __u64 size)
{
    return enter(MEMLEAK_MALLOC, size, 0);
}

SEC("uprobe")
int BPF_KPROBE(memleak_calloc, __u64 n, __u64 size)
{
    /* what calloc itself refuses (n * size overflows) returns NULL and is not recorded */
    return enter(MEMLEAK_CALLOC, n * size, 0);
}

SEC("uprobe")
int BPF_KPROBE(memleak_realloc, void *ptr, __u64 size)
{
    return enter(MEMLEAK_REALLOC, size, (__u64)ptr);
}

SEC("uprobe")
int BPF_KPROBE(memleak_reallocarray, void *ptr, __u64 n, __u64 size)
{
    return enter(MEMLEAK_REALLOCARRAY, n * size, (__u64)ptr);
}

SEC("uprobe")
int BPF_KPROBE(memleak_posix_memalign, void **memptr, __u64 align, __u64 size)
{
    return enter(MEMLEAK_POSIX_MEMALIGN, size, (__u64)memptr);
}

SEC("uprobe")
int BPF_KPROBE(memleak_aligned_alloc, __u64 align, __u64 size)
{
    return enter(MEMLEAK_ALIGNED_ALLOC, size, 0);
}

SEC("uprobe")
int BPF_KPROBE(memleak_memalign, __u64 align, __u64 size)
{
    return enter(MEMLEAK_MEMALIGN, size, 0);
}

SEC("uprobe")
int BPF_KPROBE(memleak_valloc, __u64 size)
{
    return enter(MEMLEAK_VALLOC, size, 0);
}

SEC("uprobe")
int BPF_KPROBE(memleak_pvalloc, __u64 size)
{
    return enter(MEMLEAK_PVALLOC, size, 0);
}

SEC("uprobe")
int BPF_KPROBE(memleak_mmap, void *addr, __u64 len)
{
    return enter(MEMLEAK_MMAP, len, 0);
}

/* free and munmap: a recorded block is gone. Inside an allocator call (realloc's own free, a
 * large block's munmap inside free) the block is not one the program recorded, or realloc's
 * return already forgot it. */
SEC("uprobe")
int BPF_KPROBE(memleak_free, void *ptr)
{
    __u64 id = bpf_get_current_pid_tgid();

    if (!ptr)
        return 0;
    forget(id >> 32, (__u32)id, (__u64)ptr);
    return 0;
}

SEC("uprobe")
int BPF_KPROBE(memleak_munmap, void *addr, __u64 len)
{
    __u64 id = bpf_get_current_pid_tgid();

    forget(id >> 32, (__u32)id, (__u64)addr);
    return 0;
}

/* A thread of a recorded process ends: a call it never returned from (killed inside the
 * allocator) must not make its tid's next owner's calls look nested. When the whole process
 * is gone, its blocks die with it: user space ends them and empties the block map of them. */
static __always_inline int on_exit(struct task_struct *task)
{
    __u32 tid = BPF_CORE_READ(task, pid), pid = BPF_CORE_READ(task, tgid);

    if (filter_tgid && pid != filter_tgid)
        return 0;
    bpf_map_delete_elem(&memleak_calls, &tid);
    if (BPF_CORE_READ(task, signal, live.counter) == 0)
        emit_free(pid, tid, 0, MEMLEAK_REC_EXIT);
    return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(memleak_exit_btf, struct task_struct *task)
{
    return on_exit(task);
}

SEC("raw_tp/sched_process_exit")
int BPF_PROG(memleak_exit_raw, struct task_struct *task)
{
    return on_exit(task);
}

char LICENSE[] SEC("license") = "GPL";
