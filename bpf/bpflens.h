/* SPDX-License-Identifier: GPL-2.0 */
/* Types shared by the BPF programs and user space: plain C, no vmlinux.h. */
#ifndef BPFLENS_H
#define BPFLENS_H

#define BPFLENS_MAX_SLOTS 64
#define BPFLENS_COMM_LEN 16

/* A log2 histogram as the kernel side accumulates it: cumulative, read and diffed by user
 * space each interval (no delete-after-read, so no update is lost to a race). */
struct bpflens_hist
{
    __u64 slots[BPFLENS_MAX_SLOTS];
    __u64 sum;
};

#endif
