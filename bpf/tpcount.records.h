/* SPDX-License-Identifier: GPL-2.0 */
/* The tpcount probe's keys, shared with user space. */
#ifndef BPFLENS_TPCOUNT_H
#define BPFLENS_TPCOUNT_H

#include "bpf/bpflens.h"

/* Fields a hit is grouped by, besides the command name. */
#define TPCOUNT_MAX_KEYS 2

/* Zeroed in full, so equal keys are equal bytes. */
struct tpcount_key
{
    __u64 values[TPCOUNT_MAX_KEYS];
    char comm[BPFLENS_COMM_LEN];
};

#endif
