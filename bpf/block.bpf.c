// SPDX-License-Identifier: GPL-2.0
// Block requests (biosnoop) and their latency histograms (biolatency). A request is followed by
// its pointer from insertion or issue to completion; the submitter is remembered where it is
// current (block_io_start: the request is built in submit_bio's context), because insert and
// issue may run in kblockd or another task that flushes a plug.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/block.records.h"
#include "bpf/blockrq.bpf.h"
#include "bpf/common.bpf.h"

#define MAX_REQUESTS 10240

/* Set by user space from the running kernel's BTF. */
/* insert, issue, requeue and merge took (q, rq) before 5.11: where rq is in each hook's args */
const volatile __u32 insert_arg = 0;
const volatile __u32 issue_arg = 0;
const volatile __u32 requeue_arg = 0;
const volatile __u32 merge_arg = 0;
/* block_bio_{back,front}merge took (q, rq, bio) before 5.11: where bio is in their args */
const volatile __u32 bio_merge_arg = 0;
const volatile bool pid_at_rq = false;      /* no block_io_start: attribute at insert/issue */
const volatile bool filters_active = false; /* pid, comm or cgroup filter */
const volatile bool filter_dev = false;
const volatile __u32 targ_dev = 0;
const volatile bool targ_queued = false;
const volatile bool targ_per_disk = false;
const volatile bool targ_per_flags = false;
const volatile __u64 unit_div = 1000;
const volatile __u64 min_ns = 0;

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_REQUESTS);
    __type(key, struct request *);
    __type(value, struct stage);
} start SEC(".maps");

/* From block_io_start to the request's first insert or issue, where its stage takes it over. */
struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_REQUESTS);
    __type(key, struct request *);
    __type(value, struct submitter);
} submitters SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 1024); /* user space may set another size before load */
    __type(key, struct block_hist_key);
    __type(value, struct bpflens_hist);
} hists SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 1 << 22);
} rb SEC(".maps");

#define RECORD_MAX (sizeof(struct block_event) + BPFLENS_DISK_NAME_LEN)

struct
{
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, char[RECORD_MAX]);
} scratch SEC(".maps");

/* Completed requests of the traced disk(s) whose submitter is unknown: submitted before the
 * probe attached, or built by the kernel itself (a flush sequence's flush, passthrough
 * commands), or their submitter could not be stored. Without filters they are events with pid
 * 0 and comm "?"; with a filter nobody can tell whether they pass, so they are only counted.
 * Read by user space. */
__u64 unattributed = 0;
/* I/O of wanted submitters that became part of another request: a bio merged into a request
 * already queued (in the submitter's context), or a request merged into another and freed.
 * Its bytes are in that request, under that request's submitter (often the same task). Read
 * by user space. */
__u64 merged = 0;

/* Before 5.12 a bio named its disk directly. */
struct bio___old
{
    struct gendisk *bi_disk;
} __attribute__((preserve_access_index));

/* Set for each new request the queue keeps time stamps for (at allocation or, for I/O stats,
 * in blk_account_io_start right after block_io_start fires, so not yet there), and kept across
 * requeues: from insert on it tells a recycled request pointer's lives apart. 0 when the queue
 * keeps no time stamps, then nothing can be told apart by it. */
static __always_inline __u64 rq_birth(struct request *rq)
{
    if (!bpf_core_field_exists(rq->start_time_ns))
        return 0;
    return BPF_CORE_READ(rq, start_time_ns);
}

static __always_inline bool same_life(__u64 birth, struct request *rq)
{
    return birth && birth == rq_birth(rq);
}

static __always_inline void current_submitter(struct submitter *s)
{
    s->wanted = current_wanted();
    s->pid = bpf_get_current_pid_tgid() >> 32;
    s->cgroup_id = bpf_get_current_cgroup_id();
    bpf_get_current_comm(s->comm, sizeof(s->comm));
}

/* Unwanted submitters are remembered too, so that at completion "filtered out" (silent) and
 * "unknown" (counted) are told apart. */
static __always_inline void remember_submitter(struct request *rq)
{
    struct submitter s = {};

    current_submitter(&s);
    /* Failing, no older submitter of this pointer may stay to be credited with it, and a
     * filter will not know the request is wanted: its event is lost (unfiltered, it is still
     * an event, of unknown submitter). */
    if (bpf_map_update_elem(&submitters, &rq, &s, BPF_ANY)) {
        bpf_map_delete_elem(&submitters, &rq);
        if (filters_active && s.wanted)
            count_lost();
    }
}

/* A new life of rq takes the submitter block_io_start left for it, and only that: the entry is
 * moved into the stage, so a request pointer the kernel recycles for a request without
 * block_io_start (a flush, a passthrough command) finds none and is reported as unknown
 * instead of being credited to whoever submitted the pointer's previous request. */
static __always_inline void claim_submitter(struct request *rq, struct stage *st)
{
    struct submitter *s;

    if (pid_at_rq) {
        current_submitter(&st->who);
        st->known = 1;
        return;
    }
    s = bpf_map_lookup_elem(&submitters, &rq);
    if (!s)
        return;
    st->who = *s;
    st->known = 1;
    bpf_map_delete_elem(&submitters, &rq);
}

/* Whether a request is one the user asked for, as far as anyone can tell. */
static __always_inline bool stage_wanted(const struct stage *st)
{
    return st->known ? st->who.wanted : !filters_active;
}

static __always_inline struct stage *new_stage(struct request *rq, __u64 insert, __u64 issue)
{
    struct stage st = {};

    st.dev = disk_dev(rq_disk(rq));
    if (filter_dev && st.dev != targ_dev) {
        bpf_map_delete_elem(&submitters, &rq);
        return NULL;
    }
    st.insert = insert;
    st.issue = issue;
    st.birth = rq_birth(rq);
    claim_submitter(rq, &st);
    if (bpf_map_update_elem(&start, &rq, &st, BPF_ANY)) {
        /* Untracked: its completion cannot be timed, so its event is lost. */
        bpf_map_delete_elem(&start, &rq);
        if (stage_wanted(&st))
            count_lost();
        else if (!st.known)
            __sync_fetch_and_add(&unattributed, 1);
        return NULL;
    }
    return bpf_map_lookup_elem(&start, &rq);
}

/* An earlier life of rq whose end no program saw: it was inserted or issued, and then the
 * request ended (its reader got its data) without block_rq_complete's program running, or it
 * would have been deleted. Seen on 6.18 under CPU load (issue 3): for runs of consecutive
 * requests (35 of a 256-read burst, once all 256 requests of the queue) insert and issue ran
 * but the completion program's run count fell short by as many, with no recursion miss, and a
 * log written at every hook showed no completion for them before the pointer's next life. Why
 * the kernel skips it was not found; the probe cannot see it happen, only that a new life finds
 * the old stage. Counted as not seen (not as lost for want of room), at no extra cost: the
 * stage was looked up anyway. Stages still there at the stop are counted by user space. */
static __always_inline void count_unseen_end(const struct stage *st, struct request *rq)
{
    /* Without time stamps a life cannot be told from the next: nothing is claimed then. */
    if (!st->birth || st->birth == rq_birth(rq))
        return;
    if (!st->known)
        __sync_fetch_and_add(&unattributed, 1);
    if (stage_wanted(st))
        count_unseen();
}

/* Every life of a request starts with an insert or, bypassing the scheduler, with an issue: a
 * fresh stage at insert, and at an issue that finds no insert pending, so a recycled request
 * pointer never inherits an old start time. */
static __always_inline int on_insert(struct request *rq)
{
    struct stage *st = bpf_map_lookup_elem(&start, &rq);

    /* A requeued request re-inserted from the requeue list (blk_mq_requeue_work) has been
     * waiting since its first insert: that stays its queue time. So does the same request
     * inserted again without a requeue seen (the flush machinery inserts a data request again;
     * a request sent back after an issue): it waits for its next issue. */
    if (st && (same_life(st->birth, rq) || (!st->birth && st->requeued))) {
        st->requeued = 0;
        st->issue = 0;
        if (!st->insert)
            st->insert = bpf_ktime_get_ns();
        return 0;
    }
    if (st)
        count_unseen_end(st, rq);
    new_stage(rq, bpf_ktime_get_ns(), 0);
    return 0;
}

static __always_inline int on_issue(struct request *rq)
{
    __u64 now = bpf_ktime_get_ns();
    struct stage *st = bpf_map_lookup_elem(&start, &rq);

    /* Issued again with no requeue seen: the device time starts at the issue that completes.
     * Only a life's own stage is taken over: a stage of an earlier life (its issue or its
     * completion never seen) is counted, not continued. */
    if (st && (same_life(st->birth, rq) || (!st->birth && !st->issue))) {
        st->issue = now;
        st->requeued = 0;
    } else {
        if (st)
            count_unseen_end(st, rq);
        st = new_stage(rq, 0, now);
        if (!st)
            return 0;
    }
    st->sector = BPF_CORE_READ(rq, __sector);
    st->bytes = BPF_CORE_READ(rq, __data_len);
    return 0;
}

static __always_inline void emit(struct request *rq, const struct stage *st, __u64 now,
                                 __u32 cmd_flags)
{
    __u32 key = 0;
    struct block_event *e = bpf_map_lookup_elem(&scratch, &key);
    struct gendisk *disk;
    long n;
    __u64 len;

    if (!e)
        return;
    e->ts = now;
    e->sector = st->sector;
    e->device_ns = now - st->issue;
    e->queue_ns = 0;
    if (st->insert && BPF_CORE_READ(rq, q, elevator))
        e->queue_ns = st->issue - st->insert;
    e->dev = st->dev;
    e->cmd_flags = cmd_flags;
    e->bytes = st->bytes;
    e->pad = 0;
    if (st->known) {
        e->pid = st->who.pid;
        e->cgroup_id = st->who.cgroup_id;
        __builtin_memcpy(e->comm, st->who.comm, sizeof(e->comm));
    } else {
        e->pid = 0;
        e->cgroup_id = 0;
        __builtin_memset(e->comm, 0, sizeof(e->comm));
        e->comm[0] = '?';
    }
    disk = rq_disk(rq);
    n = disk ? bpf_probe_read_kernel_str((char *)(e + 1), BPFLENS_DISK_NAME_LEN, disk->disk_name)
             : 0;
    len = n > 0 ? n - 1 : 0; /* without the NUL */
    if (len > BPFLENS_DISK_NAME_LEN)
        len = BPFLENS_DISK_NAME_LEN;
    e->disk_len = len;
    if (bpf_ringbuf_output(&rb, e, sizeof(*e) + len, submit_flags(&rb)))
        count_lost();
}

static __always_inline int on_complete(struct request *rq, unsigned int nr_bytes)
{
    __u64 now = bpf_ktime_get_ns();
    struct block_hist_key hkey = {};
    struct submitter *who;
    struct bpflens_hist *h;
    struct stage *st;
    __u32 cmd_flags;
    __u64 begin, lat;

    st = bpf_map_lookup_elem(&start, &rq);
    if (!st) {
        /* Submitted while the probe ran but never seen inserted or issued (that program did not
         * run; a stage that did not fit was counted lost at its insert or issue, and took its
         * submitter with it): its event cannot be made. A request that carries no
         * data and was never issued (an empty flush the flush machinery ends at once) did no
         * I/O; requests of other disks were dropped at their insert or issue. */
        who = bpf_map_lookup_elem(&submitters, &rq);
        if (!who)
            return 0;
        if (who->wanted && BPF_CORE_READ(rq, __data_len) &&
            !(filter_dev && disk_dev(rq_disk(rq)) != targ_dev))
            count_unseen();
        bpf_map_delete_elem(&submitters, &rq);
        return 0;
    }
    /* Ended after an insert with no issue seen since: it cannot be timed. */
    if (!st->issue) {
        if (nr_bytes && stage_wanted(st))
            count_unseen();
        goto cleanup;
    }
    /* A partial completion: the request goes on, and is counted once when it ends. */
    if (nr_bytes < BPF_CORE_READ(rq, __data_len))
        return 0;
    if (!st->known)
        __sync_fetch_and_add(&unattributed, 1);
    if (!stage_wanted(st))
        goto cleanup;
    if ((__s64)(now - st->issue) < 0) {
        count_lost();
        goto cleanup;
    }

    cmd_flags = BPF_CORE_READ(rq, cmd_flags);
    begin = st->issue;
    if (targ_queued && st->insert && BPF_CORE_READ(rq, q, elevator))
        begin = st->insert;
    lat = now - begin;

    if (targ_per_disk)
        hkey.dev = st->dev;
    if (targ_per_flags)
        hkey.cmd_flags = cmd_flags;
    h = hist_of(&hists, &hkey);
    if (h)
        hist_add(h, lat / unit_div);

    if (lat >= min_ns)
        emit(rq, st, now, cmd_flags);

cleanup:
    bpf_map_delete_elem(&start, &rq);
    bpf_map_delete_elem(&submitters, &rq);
    return 0;
}

SEC("tp_btf/block_io_start")
int BPF_PROG(block_io_start, struct request *rq)
{
    remember_submitter(rq);
    return 0;
}

SEC("tp_btf/block_rq_insert")
int block_rq_insert(u64 *ctx)
{
    return on_insert(RQ_ARG(insert_arg));
}

SEC("tp_btf/block_rq_issue")
int block_rq_issue(u64 *ctx)
{
    return on_issue(RQ_ARG(issue_arg));
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(block_rq_complete, struct request *rq, int error, unsigned int nr_bytes)
{
    return on_complete(rq, nr_bytes);
}

/* Requeued: the driver refused it (BLK_STS_RESOURCE when its queue is full, as virtio_blk does
 * under load) or asked for it again. blk-mq puts it straight back on the hardware context's
 * dispatch list and issues it again WITHOUT a new block_rq_insert (only requests re-inserted
 * from the requeue list pass the scheduler's insert again). So the stage is kept: the time
 * until the next issue is more queue time (as biolatency -Q counts it), and device time starts
 * at the issue that completes (as biolatency without -Q counts it). Dropping the stage here
 * made such a request look like one that bypassed the scheduler (queue_ns 0). */
SEC("tp_btf/block_rq_requeue")
int block_rq_requeue(u64 *ctx)
{
    struct request *rq = RQ_ARG(requeue_arg);
    struct stage *st = bpf_map_lookup_elem(&start, &rq);

    if (st) {
        st->issue = 0;
        st->requeued = 1;
    }
    return 0;
}

/* Merged into another request and freed without completing. */
SEC("tp_btf/block_rq_merge")
int block_rq_merge(u64 *ctx)
{
    struct request *rq = RQ_ARG(merge_arg);
    struct submitter *who;
    struct stage *st;

    st = bpf_map_lookup_elem(&start, &rq);
    if (st) {
        if (st->known && st->who.wanted)
            __sync_fetch_and_add(&merged, 1);
        bpf_map_delete_elem(&start, &rq);
    } else {
        who = bpf_map_lookup_elem(&submitters, &rq);
        if (who && who->wanted)
            __sync_fetch_and_add(&merged, 1);
    }
    bpf_map_delete_elem(&submitters, &rq);
    return 0;
}

static __always_inline struct gendisk *bio_disk(struct bio *bio)
{
    struct bio___old *old = (void *)bio;

    if (bpf_core_field_exists(old->bi_disk))
        return BPF_CORE_READ(old, bi_disk);
    return BPF_CORE_READ(bio, bi_bdev, bd_disk);
}

/* A bio that joins a request already queued makes no request of its own: its submitter is
 * current here, and would otherwise never know its I/O went under another request. */
static __always_inline int on_bio_merge(struct bio *bio)
{
    if (filter_dev && disk_dev(bio_disk(bio)) != targ_dev)
        return 0;
    if (current_wanted())
        __sync_fetch_and_add(&merged, 1);
    return 0;
}

SEC("tp_btf/block_bio_backmerge")
int block_bio_backmerge(u64 *ctx)
{
    return on_bio_merge((struct bio *)BPFLENS_CTX_ARG(ctx, bio_merge_arg, 16, 0));
}

SEC("tp_btf/block_bio_frontmerge")
int block_bio_frontmerge(u64 *ctx)
{
    return on_bio_merge((struct bio *)BPFLENS_CTX_ARG(ctx, bio_merge_arg, 16, 0));
}

char LICENSE[] SEC("license") = "GPL";
