/* SPDX-License-Identifier: GPL-2.0 */
/* The open probe's ring buffer record, shared by open.bpf.c and user space. */
#ifndef BPFLENS_OPEN_H
#define BPFLENS_OPEN_H

#include "bpflens.h"

/* PATH_MAX: a path is never cut short by us. */
#define OPEN_PATH_MAX 4096

/* Followed by path_len bytes of path (no NUL). */
struct open_record
{
    __u64 time_ns; /* when the call returned */
    __u32 pid;
    __u32 tid;
    __u32 uid;
    __s32 flags;
    __u32 mode;
    __s32 ret;
    char comm[BPFLENS_COMM_LEN];
    __u32 path_len;
    __u32 pad;
};

#endif
