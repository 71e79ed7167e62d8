/* SPDX-License-Identifier: GPL-2.0 */
/* Histogram key of the runqlat probe, shared with user space. */
#ifndef BPFLENS_RUNQLAT_H
#define BPFLENS_RUNQLAT_H

#include "bpf/bpflens.h"

/* All zero for the whole system; else the process (tgid, leader's comm) or thread (tid, comm). */
struct runqlat_key
{
    __u32 id;
    char comm[BPFLENS_COMM_LEN];
};

#endif
