/* SPDX-License-Identifier: GPL-2.0 */
/* A block request's disk, as probes on the block tracepoints read it across kernel releases.
 * Include after vmlinux.h and the libbpf headers. */
#ifndef BPFLENS_BLOCKRQ_BPF_H
#define BPFLENS_BLOCKRQ_BPF_H

#define MINORBITS 20
/* The request tracepoints took (q, rq) before 5.11: user space sets where rq is (0 or 1) in a
 * constant, so the verifier only sees the argument that exists. */
#define RQ_ARG(idx) ((struct request *)BPFLENS_CTX_ARG(ctx, idx, 8, 0))

/* Before 5.17 the disk hung off the request itself. */
struct request___old
{
    struct gendisk *rq_disk;
} __attribute__((preserve_access_index));

static __always_inline struct gendisk *rq_disk(struct request *rq)
{
    struct request___old *old = (void *)rq;

    if (bpf_core_field_exists(old->rq_disk))
        return BPF_CORE_READ(old, rq_disk);
    return BPF_CORE_READ(rq, q, disk);
}

/* MKDEV(major, first_minor) as the kernel encodes a dev_t: major << 20 | minor. */
static __always_inline __u32 disk_dev(struct gendisk *disk)
{
    if (!disk)
        return 0;
    return ((__u32)BPF_CORE_READ(disk, major) << MINORBITS) | BPF_CORE_READ(disk, first_minor);
}

#endif
