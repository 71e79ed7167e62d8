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
// With no process given, the kernel's allocations instead, machine-wide as memleak without -p:
// the kmem tracepoints kmalloc, kmem_cache_alloc and mm_page_alloc and their frees, each with
// the kernel stack of the allocating task.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/memleak.records.h"
#include "bpf/userstack.bpf.h"

/* The recording process, left out machine-wide: each event it records allocates. */
const volatile __u32 recorder_tgid = 0;
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
    sc->a.kstack_len = 0;
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

/* The kernel's allocations. Their tracepoints' records changed: kmalloc and kmem_cache_alloc
 * shared the class kmem_alloc, kfree and kmem_cache_free kmem_free, before 6.2 (and 5.12 for
 * the frees); the fields read here have the same names in each, at other offsets. */
struct trace_event_raw_kmem_alloc___x
{
    const void *ptr;
    size_t bytes_alloc;
} __attribute__((preserve_access_index));

struct trace_event_raw_kmalloc___x
{
    const void *ptr;
    size_t bytes_alloc;
} __attribute__((preserve_access_index));

struct trace_event_raw_kmem_cache_alloc___x
{
    const void *ptr;
    size_t bytes_alloc;
} __attribute__((preserve_access_index));

/* kmalloc_node and kmem_cache_alloc_node, before 6.2 */
struct trace_event_raw_kmem_alloc_node___x
{
    const void *ptr;
    size_t bytes_alloc;
} __attribute__((preserve_access_index));

struct trace_event_raw_kmem_free___x
{
    const void *ptr;
} __attribute__((preserve_access_index));

struct trace_event_raw_kfree___x
{
    const void *ptr;
} __attribute__((preserve_access_index));

struct trace_event_raw_kmem_cache_free___x
{
    const void *ptr;
} __attribute__((preserve_access_index));

struct trace_event_raw_mm_page_alloc___x
{
    unsigned long pfn;
    unsigned int order;
} __attribute__((preserve_access_index));

struct trace_event_raw_mm_page_free___x
{
    unsigned long pfn;
} __attribute__((preserve_access_index));

static __always_inline bool has_kmem_alloc(void)
{
    return bpf_core_type_exists(struct trace_event_raw_kmem_alloc___x);
}

static __always_inline bool has_kmem_free(void)
{
    return bpf_core_type_exists(struct trace_event_raw_kmem_free___x);
}

/* A kernel block allocated by the current task (the filters apply to it), freed by anyone. */
static __always_inline int kernel_alloc(void *ctx, __u8 func, __u64 addr, __u64 size)
{
    __u64 id = bpf_get_current_pid_tgid();
    struct block_key k = {.pid = 0, .addr = addr};
    struct memleak_scratch *sc;
    __u32 cpu = bpf_get_smp_processor_id();
    __u64 t = bpf_ktime_get_ns();
    __u64 kbytes = 0;
    long n;

    if (!addr || (__u32)(id >> 32) == recorder_tgid || !current_wanted())
        return 0;
    if (sample_every > 1 && bpf_get_prandom_u32() % sample_every)
        return 0;
    if (bpf_map_update_elem(&memleak_blocks, &k, &t, BPF_ANY)) {
        __sync_fetch_and_add(&blocks_full, 1);
        return 0;
    }
    sc = bpf_map_lookup_elem(&memleak_scratch, &cpu);
    if (!sc)
        return 0;
    sc->a.kind = MEMLEAK_REC_ALLOC;
    sc->a.pid = id >> 32;
    sc->a.tid = (__u32)id;
    sc->a.time_ns = t;
    sc->a.cgroup_id = bpf_get_current_cgroup_id();
    sc->a.addr = addr;
    sc->a.size = size;
    sc->a.func = func;
    __builtin_memset(sc->a.pad, 0, sizeof(sc->a.pad));
    bpf_get_current_comm(sc->a.comm, sizeof(sc->a.comm));
    sc->a.flags = SAMPLE_NO_USER;
    sc->a.ustack_len = 0;
    sc->a.stack_size = 0;
    sc->a.reserved2 = 0;
    n = bpf_get_stack(ctx, sc->tail, MEMLEAK_FRAME_BYTES, 0);
    if (n > 0)
        kbytes = n & ~7UL;
    asm volatile("" : "+r"(kbytes));
    if (kbytes > MEMLEAK_FRAME_BYTES)
        return 0;
    asm volatile("" : "+r"(kbytes));
    kbytes &= 2047;
    sc->a.kstack_len = kbytes / 8;
    if (bpf_ringbuf_output(&memleak_rb, sc, sizeof(sc->a) + kbytes, submit_flags(&memleak_rb)))
        count_lost();
    return 0;
}

static __always_inline int kernel_free(__u64 addr)
{
    __u64 id = bpf_get_current_pid_tgid();

    forget(0, (__u32)id, addr);
    return 0;
}

SEC("tp/kmem/kmalloc")
int memleak_kmalloc(void *ctx)
{
    const void *ptr;
    size_t bytes;

    if (has_kmem_alloc()) {
        struct trace_event_raw_kmem_alloc___x *a = ctx;

        ptr = BPF_CORE_READ(a, ptr);
        bytes = BPF_CORE_READ(a, bytes_alloc);
    } else {
        struct trace_event_raw_kmalloc___x *a = ctx;

        ptr = BPF_CORE_READ(a, ptr);
        bytes = BPF_CORE_READ(a, bytes_alloc);
    }
    return kernel_alloc(ctx, MEMLEAK_KMALLOC, (__u64)ptr, bytes);
}

SEC("tp/kmem/kmem_cache_alloc")
int memleak_kmem_cache_alloc(void *ctx)
{
    const void *ptr;
    size_t bytes;

    if (has_kmem_alloc()) {
        struct trace_event_raw_kmem_alloc___x *a = ctx;

        ptr = BPF_CORE_READ(a, ptr);
        bytes = BPF_CORE_READ(a, bytes_alloc);
    } else {
        struct trace_event_raw_kmem_cache_alloc___x *a = ctx;

        ptr = BPF_CORE_READ(a, ptr);
        bytes = BPF_CORE_READ(a, bytes_alloc);
    }
    return kernel_alloc(ctx, MEMLEAK_KMEM_CACHE_ALLOC, (__u64)ptr, bytes);
}

SEC("tp/kmem/kmalloc_node")
int memleak_kmalloc_node(struct trace_event_raw_kmem_alloc_node___x *ctx)
{
    return kernel_alloc(ctx, MEMLEAK_KMALLOC, (__u64)BPF_CORE_READ(ctx, ptr),
                        BPF_CORE_READ(ctx, bytes_alloc));
}

SEC("tp/kmem/kmem_cache_alloc_node")
int memleak_kmem_cache_alloc_node(struct trace_event_raw_kmem_alloc_node___x *ctx)
{
    return kernel_alloc(ctx, MEMLEAK_KMEM_CACHE_ALLOC, (__u64)BPF_CORE_READ(ctx, ptr),
                        BPF_CORE_READ(ctx, bytes_alloc));
}

SEC("tp/kmem/kfree")
int memleak_kfree(void *ctx)
{
    const void *ptr;

    if (has_kmem_free()) {
        struct trace_event_raw_kmem_free___x *a = ctx;

        ptr = BPF_CORE_READ(a, ptr);
    } else {
        struct trace_event_raw_kfree___x *a = ctx;

        ptr = BPF_CORE_READ(a, ptr);
    }
    return kernel_free((__u64)ptr);
}

SEC("tp/kmem/kmem_cache_free")
int memleak_kmem_cache_free(void *ctx)
{
    const void *ptr;

    if (has_kmem_free()) {
        struct trace_event_raw_kmem_free___x *a = ctx;

        ptr = BPF_CORE_READ(a, ptr);
    } else {
        struct trace_event_raw_kmem_cache_free___x *a = ctx;

        ptr = BPF_CORE_READ(a, ptr);
    }
    return kernel_free((__u64)ptr);
}

SEC("tp/kmem/mm_page_alloc")
int memleak_page_alloc(struct trace_event_raw_mm_page_alloc___x *ctx)
{
    return kernel_alloc(ctx, MEMLEAK_PAGE_ALLOC, BPF_CORE_READ(ctx, pfn),
                        4096ull << BPF_CORE_READ(ctx, order));
}

SEC("tp/kmem/mm_page_free")
int memleak_page_free(struct trace_event_raw_mm_page_free___x *ctx)
{
    return kernel_free(BPF_CORE_READ(ctx, pfn));
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
