// SPDX-License-Identifier: GPL-2.0
// bitesize: the sizes of block I/O requests, as log2 histograms of Kbytes per command (and per
// disk, per operation), counted when a request is issued to the device, as libbpf-tools'
// bitesize counts them. The command is the task issuing it: for direct and synchronous I/O the
// submitter, for a plug flushed or a queue run later a kworker, as in bitesize.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/bitesize.records.h"
#include "bpf/blockrq.bpf.h"
#include "bpf/common.bpf.h"

#define MAX_KEYS 10240
#define REQ_OP_MASK 0xff /* REQ_OP_BITS is 8 on every kernel with these tracepoints */

const volatile __u32 issue_arg = 0;
const volatile bool filter_dev = false;
const volatile __u32 targ_dev = 0;
const volatile bool targ_per_disk = false;
const volatile bool targ_per_op = false;
const volatile __u64 unit_div = 1024;

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MAX_KEYS); /* user space may set another size before load */
    __type(key, struct bitesize_key);
    __type(value, struct bpflens_hist);
} hists SEC(".maps");

SEC("tp_btf/block_rq_issue")
int bitesize_issue(u64 *ctx)
{
    struct request *rq = RQ_ARG(issue_arg);
    struct bitesize_key key = {};
    struct bpflens_hist *h;
    __u32 dev = 0;

    if (filter_dev || targ_per_disk)
        dev = disk_dev(rq_disk(rq));
    if (filter_dev && dev != targ_dev)
        return 0;
    if (!current_wanted())
        return 0;
    bpf_get_current_comm(key.comm, sizeof(key.comm));
    if (targ_per_disk)
        key.dev = dev;
    if (targ_per_op)
        key.op = BPF_CORE_READ(rq, cmd_flags) & REQ_OP_MASK;
    h = hist_of(&hists, &key);
    if (h)
        hist_add(h, BPF_CORE_READ(rq, __data_len) / unit_div);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
