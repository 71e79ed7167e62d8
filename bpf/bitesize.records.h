/* SPDX-License-Identifier: GPL-2.0 */
/* Histogram key of the bitesize probe, shared with user space. */
#ifndef BPFLENS_BITESIZE_H
#define BPFLENS_BITESIZE_H

#include "bpf/bpflens.h"

/* The issuing command always (as bitesize's "Process Name"); dev and op only when the options
 * ask for them, else 0. op is the request's operation (cmd_flags' low byte: REQ_OP_*). */
struct bitesize_key
{
    char comm[BPFLENS_COMM_LEN];
    __u32 dev;
    __u32 op;
};

#endif
