// SPDX-License-Identifier: GPL-2.0
// Where a process's read, write, open and fsync time goes: syscall, VFS, file system and block
// layers. Each thread inside a traced syscall has a stack of open layers with their entry times;
// a layer's exit charges its duration to its parent's child time, so exclusive times (duration -
// children) of one syscall add up to its total exactly. Block requests are tied to the thread
// that started them (block_io_start runs in the submitter's context) and to that thread's
// syscall by a sequence number; their wall time (the union of the thread's requests in flight)
// is charged to the layer the thread is in when it takes it, at that layer's exit.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/iostack.records.h"
#include "bpf/syscalls.bpf.h"

/* The read/write/fsync syscall numbers (opens come from syscalls.bpf.h). */
#if defined(__TARGET_ARCH_x86)
#define NR_read 0
#define NR_write 1
#define NR_pread64 17
#define NR_pwrite64 18
#define NR_readv 19
#define NR_writev 20
#define NR_fsync 74
#define NR_fdatasync 75
#define NR_preadv 295
#define NR_pwritev 296
#define NR_preadv2 327
#define NR_pwritev2 328
#elif defined(__TARGET_ARCH_arm64)
#define NR_read 63
#define NR_write 64
#define NR_readv 65
#define NR_writev 66
#define NR_pread64 67
#define NR_pwrite64 68
#define NR_preadv 69
#define NR_pwritev 70
#define NR_fsync 82
#define NR_fdatasync 83
#define NR_preadv2 286
#define NR_pwritev2 287
#endif

#define MAX_DEPTH 6
#define MINORBITS 20
#define RQ_ARG(idx) ((struct request *)BPFLENS_CTX_ARG(ctx, idx, 8, 0))

const volatile __u32 insert_arg = 0;
const volatile __u32 issue_arg = 0;
const volatile __u32 requeue_arg = 0;
const volatile __u32 merge_arg = 0;
const volatile bool attribute_at_rq = false; /* no block_io_start: at insert/issue */
const volatile bool targ_queued = false;
const volatile bool filter_dev = false;
const volatile __u32 targ_dev = 0;
const volatile __u64 unit_div = 1000;
/* The VFS layer of fsync is hooked (vfs_fsync_range): see enter_fs_fsync(). */
const volatile bool vfs_fsync_hooked = false;
/* Count reads and writes on every descriptor (pipes, sockets, terminals, eventfds), not only
 * on regular files and block devices. */
const volatile bool targ_all_fds = false;

/* A layer entered for a call whose own hook cannot fire (inlined): in thread_state.layer. */
#define LAYER_IMPLIED 0x80

/* Union of a thread's requests in flight: an atomic count, and the time it last left 0. Only
 * the syscall that started the requests charges them (a sequence number check). */
struct busy
{
    __s64 inflight;
    __u64 since;
    __u64 pending; /* union time not yet charged to a layer */
};

struct thread_state
{
    __u64 seq; /* of the current syscall, 0 outside */
    __u64 start[MAX_DEPTH];
    __u64 child[MAX_DEPTH];
    __u8 layer[MAX_DEPTH];
    __u32 depth;
    __u32 op;
    __u32 overflow; /* layers entered past MAX_DEPTH, whose exits are ignored */
    __s32 nr;
    struct busy blk;    /* from the queued option's start point to completion */
    struct busy device; /* issue to completion */
};

struct rq_state
{
    __u64 seq;
    __u64 insert;
    __u64 issue;
    __u32 tid;
    __u32 op;
    bool attributed;
    bool blk_busy;
    bool dev_busy;
};

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 10240);
    __type(key, __u32);
    __type(value, struct thread_state);
} threads SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 10240);
    __type(key, struct request *);
    __type(value, struct rq_state);
} requests SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_ARRAY);
    __uint(max_entries, IOSTACK_NR_CELLS);
    __type(key, __u32);
    __type(value, struct iostack_cell);
} cells SEC(".maps");

__u64 next_seq = 0;
/* Block requests that could not be followed (request map full): never silently. */
__u64 untracked_requests = 0;

/* A global function: the verifier checks it once, on its own, instead of at each of
 * pop_layer()'s call sites with the bounds its arguments have there. The histogram slot, an
 * array index, made the verifier track every value the duration came from; with six layers to
 * pop, one fexit program took 133,000 processed instructions (40 ms to load here, 0.8 s in an
 * emulated guest). Scalar arguments and an int result, as global functions need on 5.10. */
__attribute__((noinline)) int cell_add(__u32 op, __u32 layer, __u64 duration, __u64 exclusive,
                                       int counted)
{
    __u32 key = IOSTACK_CELL(op, layer);
    struct iostack_cell *c;

    if (key >= IOSTACK_NR_CELLS)
        return 0;
    c = bpf_map_lookup_elem(&cells, &key);
    if (!c)
        return 0;
    if (counted) {
        __sync_fetch_and_add(&c->count, 1);
        __sync_fetch_and_add(&c->total_ns, duration);
        hist_add(&c->hist, duration / unit_div);
    }
    if (exclusive)
        __sync_fetch_and_add(&c->exclusive_ns, exclusive);
    return 0;
}

/* Kernels before 5.12 refuse every atomic operation that returns the old value (BPF_FETCH) with
 * "BPF_STX uses reserved fields", even in code that can never run: their verifier checks each
 * instruction before it follows the branches. iostack_compat.bpf.c builds this file with
 * IOSTACK_NO_FETCH for them; user space picks the object the kernel accepts. Without fetch, a
 * plain atomic add (XADD, accepted by every kernel) is followed by a read of the sum: exact as
 * long as no other CPU changes the count between the two (a request of the same thread
 * completing at that very moment), where the fetch form is exact always. */
#ifdef IOSTACK_NO_FETCH
static __always_inline __s64 add_then_read(__s64 *p, __s64 delta)
{
    __sync_fetch_and_add(p, delta);
    return *(volatile __s64 *)p;
}
#else
static __always_inline __s64 add_then_read(__s64 *p, __s64 delta)
{
    return __sync_fetch_and_add(p, delta) + delta;
}
#endif

static __always_inline void busy_start(struct busy *b, __u64 now)
{
    if (add_then_read(&b->inflight, 1) == 1)
        b->since = now;
}

static __always_inline void busy_end(struct busy *b, __u64 now)
{
    __u64 since;

    if (add_then_read(&b->inflight, -1) == 0) {
        since = b->since;
        if (now > since)
            __sync_fetch_and_add(&b->pending, now - since);
    }
}

/* A request that leaves the device unserved (requeued: the driver had no room for it): the time
 * since its issue was spent waiting, not on the device, and is not charged. With other requests
 * of the thread still in flight the union goes on from its start, which they cover but for the
 * stretch before the first of them was issued. */
static __always_inline void busy_cancel(struct busy *b)
{
    add_then_read(&b->inflight, -1);
}

/* Takes what completed requests left to charge (adds may race in from other CPUs). */
static __always_inline __u64 busy_take(struct busy *b)
{
    __u64 v = b->pending;

    if (v)
        __sync_fetch_and_add(&b->pending, -v);
    return v;
}

static __always_inline struct thread_state *my_state(void)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();

    return bpf_map_lookup_elem(&threads, &tid);
}

/* Closes the innermost layer at now: block time the thread waited for meanwhile is its child
 * time (never more than the layer lasted), its duration the parent's child time. */
static __always_inline void pop_layer(struct thread_state *ts, __u64 now)
{
    __u32 d = ts->depth - 1, op = ts->op, parent; /* depth 0 wraps around: refused */
    __u64 duration, child, avail, blk, dev;
    __u8 layer;

    /* Keeps the compiler from folding the check into a form the verifier cannot follow. */
    asm volatile("" : "+r"(d));
    if (d >= MAX_DEPTH)
        return;
    duration = now - ts->start[d];
    if ((__s64)duration < 0)
        duration = 0;
    child = ts->child[d];
    if (child > duration)
        child = duration;
    avail = duration - child;
    blk = busy_take(&ts->blk);
    dev = busy_take(&ts->device);
    if (blk > avail)
        blk = avail;
    if (dev > blk)
        dev = blk;
    child += blk;
    layer = ts->layer[d] & ~LAYER_IMPLIED;
    cell_add(op, IOSTACK_LAYER_BLOCK_DEVICE, 0, dev, false);
    cell_add(op, IOSTACK_LAYER_BLOCK_QUEUE, 0, blk - dev, false);
    cell_add(op, layer, duration, duration - child, true);
    parent = d - 1;
    asm volatile("" : "+r"(parent));
    if (parent < MAX_DEPTH) /* the syscall layer (d 0) has no parent: wraps around */
        ts->child[parent] += duration;
    ts->depth = d;
}

static __always_inline void push_layer(struct thread_state *ts, __u8 layer, __u64 now)
{
    __u32 d = ts->depth;

    asm volatile("" : "+r"(d));
    if (d >= MAX_DEPTH) {
        ts->overflow++;
        return;
    }
    ts->start[d] = now;
    ts->child[d] = 0;
    ts->layer[d] = layer;
    ts->depth = d + 1;
}

static __always_inline void enter_layer(__u8 layer)
{
    struct thread_state *ts = my_state();

    if (!ts || !ts->depth)
        return;
    push_layer(ts, layer, bpf_ktime_get_ns());
}

/* The file system's fsync entered straight from the syscall, with vfs_fsync_range hooked: the
 * compiler inlined the VFS path into the syscall (Debian's 6.1 does so for fdatasync, not for
 * fsync), so no VFS hook fires although the call went through VFS. It is counted here, as a VFS
 * layer as long as the file system's, with no time of its own (that stays with the syscall
 * layer), so every fsync has its VFS layer on every kernel. */
static __always_inline void enter_fs_fsync(void)
{
    struct thread_state *ts = my_state();
    __u64 now = bpf_ktime_get_ns();

    if (!ts || !ts->depth)
        return;
    if (vfs_fsync_hooked && ts->depth == 1 && ts->op == IOSTACK_OP_FSYNC)
        push_layer(ts, IOSTACK_LAYER_VFS | LAYER_IMPLIED, now);
    push_layer(ts, IOSTACK_LAYER_FS, now);
}

/* Pops down to the innermost open instance of layer: an inner exit that was missed (a
 * kretprobe out of instances) is closed here rather than left to skew the sums. */
static __always_inline void exit_layer(__u8 layer)
{
    struct thread_state *ts = my_state();
    __u64 now = bpf_ktime_get_ns();
    int i, found = -1;
    __u32 top;

    if (!ts || ts->depth < 2)
        return;
    if (ts->overflow) {
        ts->overflow--;
        return;
    }
    for (i = MAX_DEPTH - 1; i >= 1; i--) {
        if (i < ts->depth && ts->layer[i] == layer) {
            found = i;
            break;
        }
    }
    if (found < 0)
        return;
    for (i = 0; i < MAX_DEPTH; i++) {
        if (ts->depth <= (__u32)found)
            break;
        pop_layer(ts, now);
    }
    /* An implied layer ends with the one it was implied for (the syscall layer at 0 never is
     * implied; depth 0 wraps around and is refused). */
    top = ts->depth - 1;
    asm volatile("" : "+r"(top));
    if (top < MAX_DEPTH && (ts->layer[top] & LAYER_IMPLIED))
        pop_layer(ts, now);
}

static __always_inline int syscall_op(long nr)
{
    switch (nr) {
    case NR_read:
    case NR_pread64:
    case NR_readv:
    case NR_preadv:
    case NR_preadv2:
        return IOSTACK_OP_READ;
    case NR_write:
    case NR_pwrite64:
    case NR_writev:
    case NR_pwritev:
    case NR_pwritev2:
        return IOSTACK_OP_WRITE;
    case NR_fsync:
    case NR_fdatasync:
        return IOSTACK_OP_FSYNC;
    }
    if (nr == BPFLENS_NR_openat || nr == BPFLENS_NR_open || nr == BPFLENS_NR_openat2 ||
        nr == BPFLENS_NR_creat)
        return IOSTACK_OP_OPEN;
    return -1;
}

#define IOSTACK_S_IFMT 0170000
#define IOSTACK_S_IFREG 0100000
#define IOSTACK_S_IFBLK 0060000

/* Whether fd of the current task is a regular file or a block device: what the I/O stack is
 * about. Reads that wait on a pipe, a socket, a terminal or an eventfd measure waiting, not
 * I/O, and would dominate every layer. A descriptor that is not open (the call fails with
 * EBADF) is not I/O either. */
static __always_inline bool fd_is_storage(long fd)
{
    struct task_struct *task = (struct task_struct *)bpf_get_current_task();
    struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
    struct file **fds;
    struct file *file = NULL;
    unsigned int max;
    __u16 mode;

    if (!fdt || fd < 0)
        return false;
    max = BPF_CORE_READ(fdt, max_fds);
    if ((unsigned long)fd >= max)
        return false;
    fds = BPF_CORE_READ(fdt, fd);
    if (bpf_probe_read_kernel(&file, sizeof(file), &fds[fd]) || !file)
        return false;
    mode = BPF_CORE_READ(file, f_inode, i_mode);
    return (mode & IOSTACK_S_IFMT) == IOSTACK_S_IFREG || (mode & IOSTACK_S_IFMT) == IOSTACK_S_IFBLK;
}

/* The first argument of the current syscall: the descriptor of read, write and fsync calls. */
static __always_inline long first_arg(struct pt_regs *regs)
{
#if BPFLENS_HAS_COMPAT
    if (bpflens_in_compat_syscall())
        return (long)(__s32)BPF_CORE_READ(regs, bx);
#endif
    return (long)PT_REGS_PARM1_CORE_SYSCALL(regs);
}

SEC("tp_btf/sys_enter")
int BPF_PROG(iostack_sys_enter, struct pt_regs *regs, long id)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    int op = syscall_op(bpflens_native_nr(id)); /* ia32 calls too, by their x86_64 number */
    struct thread_state *ts;

    if (op < 0 || !current_wanted())
        return 0;
    if (!targ_all_fds && (op == IOSTACK_OP_READ || op == IOSTACK_OP_WRITE) &&
        !fd_is_storage(first_arg(regs)))
        return 0;
    ts = bpf_map_lookup_elem(&threads, &tid);
    if (!ts) {
        static const struct thread_state fresh;

        bpf_map_update_elem(&threads, &tid, &fresh, BPF_NOEXIST);
        ts = bpf_map_lookup_elem(&threads, &tid);
        if (!ts) {
            count_lost(); /* a syscall we cannot follow: said, not hidden */
            return 0;
        }
    }
    /* Unique per thread either way: the counter only grows, and the read after this thread's
     * own add sees at least that add. */
    ts->seq = add_then_read((__s64 *)&next_seq, 1);
    ts->op = op;
    ts->nr = id;
    ts->overflow = 0;
    ts->blk.inflight = 0;
    ts->blk.pending = 0;
    ts->device.inflight = 0;
    ts->device.pending = 0;
    ts->layer[0] = IOSTACK_LAYER_SYSCALL;
    ts->child[0] = 0;
    ts->start[0] = bpf_ktime_get_ns();
    ts->depth = 1;
    return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(iostack_sys_exit, struct pt_regs *regs, long ret)
{
    struct thread_state *ts = my_state();
    __u64 now = bpf_ktime_get_ns();
    int i;

    if (!ts || !ts->depth || ts->nr != BPFLENS_SYSCALL_NR(regs))
        return 0;
    for (i = 0; i < MAX_DEPTH; i++) {
        if (!ts->depth)
            break;
        pop_layer(ts, now);
    }
    ts->seq = 0;
    return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(iostack_thread_exit)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();

    bpf_map_delete_elem(&threads, &tid);
    return 0;
}

/* The file-system layer of fsync on ext4, from its tracepoints (preferred over functions). */
SEC("tp_btf/ext4_sync_file_enter")
int BPF_PROG(iostack_ext4_sync_enter)
{
    enter_fs_fsync();
    return 0;
}

SEC("tp_btf/ext4_sync_file_exit")
int BPF_PROG(iostack_ext4_sync_exit)
{
    exit_layer(IOSTACK_LAYER_FS);
    return 0;
}

/* VFS and file-system functions: fentry/fexit where the kernel has trampolines, else
 * kprobe/kretprobe. User space loads only the hooks it chose. */
#define LAYER_HOOKS_ENTER(fn, enter, lay)                                                          \
    SEC("fentry/" #fn)                                                                             \
    int BPF_PROG(iostack_fe_##fn)                                                                  \
    {                                                                                              \
        enter;                                                                                     \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("fexit/" #fn)                                                                              \
    int BPF_PROG(iostack_fx_##fn)                                                                  \
    {                                                                                              \
        exit_layer(lay);                                                                           \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("kprobe/" #fn)                                                                             \
    int BPF_KPROBE(iostack_kp_##fn)                                                                \
    {                                                                                              \
        enter;                                                                                     \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("kretprobe/" #fn)                                                                          \
    int BPF_KRETPROBE(iostack_kr_##fn)                                                             \
    {                                                                                              \
        exit_layer(lay);                                                                           \
        return 0;                                                                                  \
    }

#define LAYER_HOOKS(fn, lay) LAYER_HOOKS_ENTER(fn, enter_layer(lay), lay)

LAYER_HOOKS(vfs_read, IOSTACK_LAYER_VFS)
LAYER_HOOKS(vfs_write, IOSTACK_LAYER_VFS)
LAYER_HOOKS(vfs_readv, IOSTACK_LAYER_VFS)
LAYER_HOOKS(vfs_writev, IOSTACK_LAYER_VFS)
LAYER_HOOKS(vfs_open, IOSTACK_LAYER_VFS)
LAYER_HOOKS(vfs_fsync_range, IOSTACK_LAYER_VFS)
LAYER_HOOKS(ext4_file_read_iter, IOSTACK_LAYER_FS)
LAYER_HOOKS(ext4_file_write_iter, IOSTACK_LAYER_FS)
LAYER_HOOKS(ext4_file_open, IOSTACK_LAYER_FS)
LAYER_HOOKS_ENTER(ext4_sync_file, enter_fs_fsync(), IOSTACK_LAYER_FS)

/* Block requests. */

struct request___old
{
    struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

static __always_inline __u32 rq_dev(struct request *rq)
{
    struct request___old *old = (void *)rq;
    struct gendisk *disk;

    if (bpf_core_field_exists(old->rq_disk))
        disk = BPF_CORE_READ(old, rq_disk);
    else
        disk = BPF_CORE_READ(rq, q, disk);
    if (!disk)
        return 0;
    return ((__u32)BPF_CORE_READ(disk, major) << MINORBITS) | BPF_CORE_READ(disk, first_minor);
}

/* A new life of a request pointer: attributed when the current task is inside a traced
 * syscall. */
static __always_inline struct rq_state *new_request(struct request *rq)
{
    struct rq_state r = {};
    struct thread_state *ts;

    if (filter_dev && rq_dev(rq) != targ_dev) {
        bpf_map_delete_elem(&requests, &rq);
        return NULL;
    }
    ts = my_state();
    if (ts && ts->depth && ts->seq) {
        r.attributed = true;
        r.tid = (__u32)bpf_get_current_pid_tgid();
        r.seq = ts->seq;
        r.op = ts->op;
    } else {
        r.op = IOSTACK_OP_UNATTRIBUTED;
    }
    if (bpf_map_update_elem(&requests, &rq, &r, BPF_ANY)) {
        __sync_fetch_and_add(&untracked_requests, 1);
        return NULL;
    }
    return bpf_map_lookup_elem(&requests, &rq);
}

/* The issuing thread's state, if it is still in the syscall that started the request. */
static __always_inline struct thread_state *owner(struct rq_state *r)
{
    struct thread_state *ts;
    __u32 tid;

    if (!r->attributed)
        return NULL;
    tid = r->tid;
    ts = bpf_map_lookup_elem(&threads, &tid);
    if (!ts || ts->seq != r->seq)
        return NULL;
    return ts;
}

/* Ends what a request had in flight for its thread (completion, merge). */
static __always_inline void end_busy(struct rq_state *r, __u64 now, bool blk)
{
    struct thread_state *ts = owner(r);

    if (r->dev_busy) {
        r->dev_busy = false;
        if (ts)
            busy_end(&ts->device, now);
    }
    if (blk && r->blk_busy) {
        r->blk_busy = false;
        if (ts)
            busy_end(&ts->blk, now);
    }
}

SEC("tp_btf/block_io_start")
int BPF_PROG(iostack_io_start, struct request *rq)
{
    new_request(rq);
    return 0;
}

SEC("tp_btf/block_rq_insert")
int iostack_rq_insert(u64 *ctx)
{
    struct request *rq = RQ_ARG(insert_arg);
    struct rq_state *r = bpf_map_lookup_elem(&requests, &rq);
    struct thread_state *ts;
    __u64 now = bpf_ktime_get_ns();

    if (!r && attribute_at_rq)
        r = new_request(rq);
    if (!r || !BPF_CORE_READ(rq, q, elevator))
        return 0;
    r->insert = now;
    ts = owner(r);
    if (targ_queued && ts && !r->blk_busy) {
        r->blk_busy = true;
        busy_start(&ts->blk, now);
    }
    return 0;
}

SEC("tp_btf/block_rq_issue")
int iostack_rq_issue(u64 *ctx)
{
    struct request *rq = RQ_ARG(issue_arg);
    struct rq_state *r = bpf_map_lookup_elem(&requests, &rq);
    struct thread_state *ts;
    __u64 now = bpf_ktime_get_ns();

    if (!r && attribute_at_rq)
        r = new_request(rq);
    if (!r)
        return 0;
    r->issue = now;
    ts = owner(r);
    if (!ts)
        return 0;
    if (!r->blk_busy) {
        r->blk_busy = true;
        busy_start(&ts->blk, now);
    }
    if (!r->dev_busy) {
        r->dev_busy = true;
        busy_start(&ts->device, now);
    }
    return 0;
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(iostack_rq_complete, struct request *rq, int error, unsigned int nr_bytes)
{
    struct rq_state *r = bpf_map_lookup_elem(&requests, &rq);
    __u64 now = bpf_ktime_get_ns();
    __u32 op;

    if (!r)
        return 0;
    /* A partial completion: the request goes on, and is counted once when it ends. */
    if (nr_bytes < BPF_CORE_READ(rq, __data_len))
        return 0;
    if (r->issue) {
        op = owner(r) ? r->op : IOSTACK_OP_UNATTRIBUTED;
        cell_add(op, IOSTACK_LAYER_BLOCK_DEVICE, now - r->issue, 0, true);
        if (targ_queued)
            cell_add(op, IOSTACK_LAYER_BLOCK_QUEUE, r->insert ? r->issue - r->insert : 0, 0, true);
        end_busy(r, now, true);
    }
    bpf_map_delete_elem(&requests, &rq);
    return 0;
}

/* Requeued: it will be issued again; its device time so far is not the request's (a busy
 * virtio queue refuses requests it was just given). Neither its count nor the thread's device
 * time may include it: the device layer's exclusive time is the union of the device times it
 * counts, never more than their sum. Until it is issued again it waits in the block layer:
 * queue time with the queued option; without it, like the wait before its first issue, time of
 * the layer the thread is in (there is no queue layer then to charge it to). */
SEC("tp_btf/block_rq_requeue")
int iostack_rq_requeue(u64 *ctx)
{
    struct request *rq = RQ_ARG(requeue_arg);
    struct rq_state *r = bpf_map_lookup_elem(&requests, &rq);
    struct thread_state *ts;

    if (!r)
        return 0;
    ts = owner(r);
    if (r->dev_busy) {
        r->dev_busy = false;
        if (ts)
            busy_cancel(&ts->device);
    }
    if (!targ_queued && r->blk_busy) {
        r->blk_busy = false;
        if (ts)
            busy_cancel(&ts->blk);
    }
    r->issue = 0;
    return 0;
}

/* Merged into another request and freed without completing. */
SEC("tp_btf/block_rq_merge")
int iostack_rq_merge(u64 *ctx)
{
    struct request *rq = RQ_ARG(merge_arg);
    struct rq_state *r = bpf_map_lookup_elem(&requests, &rq);

    if (r)
        end_busy(r, bpf_ktime_get_ns(), true);
    bpf_map_delete_elem(&requests, &rq);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
