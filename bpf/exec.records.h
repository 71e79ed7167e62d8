/* SPDX-License-Identifier: GPL-2.0 */
/* The exec probe's ring buffer record, shared by exec.bpf.c and user space. */
#ifndef BPFLENS_EXEC_H
#define BPFLENS_EXEC_H

#include "bpf/bpflens.h"

#define EXEC_MAX_ARGS 20
/* PATH_MAX: a file name is never cut short by us. */
#define EXEC_FILENAME_MAX 4096
/* All argument strings of one exec together, NULs included. */
#define EXEC_ARGS_MAX 4096

#define EXEC_FLAG_ARGV_TRUNCATED 1u

/* Followed by args_len bytes of arguments, each NUL-terminated, then filename_len bytes of file
 * name (no NUL). */
struct exec_record
{
    __u64 time_ns;
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u32 pid;
    __u32 ppid;
    __u32 uid;
    __s32 retval;
    char comm[BPFLENS_COMM_LEN];
    __u16 filename_len;
    __u16 args_len;
    __u32 flags;
};

#endif
