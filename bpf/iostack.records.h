/* SPDX-License-Identifier: GPL-2.0 */
/* The iostack probe's cells, shared by iostack.bpf.c and user space. */
#ifndef BPFLENS_IOSTACK_H
#define BPFLENS_IOSTACK_H

#include "bpf/bpflens.h"

/* Operations: what the traced syscall was. Block requests that cannot be tied to a thread inside
 * a traced syscall go to IOSTACK_OP_UNATTRIBUTED. */
enum iostack_op
{
    IOSTACK_OP_READ = 0,
    IOSTACK_OP_WRITE = 1,
    IOSTACK_OP_OPEN = 2,
    IOSTACK_OP_FSYNC = 3,
    IOSTACK_OP_UNATTRIBUTED = 4,
};
#define IOSTACK_NR_OPS 5

/* Layers, from the top. A thread's stack holds the first three; block layers are requests. */
enum iostack_layer
{
    IOSTACK_LAYER_SYSCALL = 0,
    IOSTACK_LAYER_VFS = 1,
    IOSTACK_LAYER_FS = 2,
    IOSTACK_LAYER_BLOCK_QUEUE = 3,
    IOSTACK_LAYER_BLOCK_DEVICE = 4,
};
#define IOSTACK_NR_LAYERS 5

#define IOSTACK_NR_CELLS (IOSTACK_NR_OPS * IOSTACK_NR_LAYERS)
#define IOSTACK_CELL(op, layer) ((op)*IOSTACK_NR_LAYERS + (layer))

/* Cumulative since load; user space diffs per interval. Durations in ns, the histogram in the
 * unit user space chose. exclusive_ns: the layer's time minus its children's. */
struct iostack_cell
{
    __u64 count;
    __u64 total_ns;
    __u64 exclusive_ns;
    struct bpflens_hist hist;
};

#endif
