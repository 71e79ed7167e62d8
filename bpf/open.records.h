/* SPDX-License-Identifier: GPL-2.0 */
/* The open probe's ring buffer record, shared by open.bpf.c and user space. */
#ifndef BPFLENS_OPEN_H
#define BPFLENS_OPEN_H

#include "bpf/bpflens.h"

/* PATH_MAX: a path is never cut short by us. */
#define OPEN_PATH_MAX 4096

/* The directory a relative path was resolved against (option fullPath): its names from the
 * leaf to the root, each ended by a NUL, in base_len bytes. */
#define OPEN_BASE_MAX 4096
#define OPEN_BASE_MAX_DEPTH 48
/* base_flags: the directory was removed (as d_path's " (deleted)"); the walk stopped before the
 * root (deeper than OPEN_BASE_MAX_DEPTH or longer than OPEN_BASE_MAX); the dirfd named no open
 * file (the open then failed with EBADF). */
#define OPEN_BASE_DELETED 1
#define OPEN_BASE_TRUNCATED 2
#define OPEN_BASE_NO_FILE 4
/* The path was relative and its directory walked (the root's walk has no names). */
#define OPEN_BASE_WALKED 8

/* The flags filter (option flags): access modes are values, not bits (O_RDONLY is 0). */
#define OPEN_ACC_RDONLY 1
#define OPEN_ACC_WRONLY 2
#define OPEN_ACC_RDWR 4

/* Followed by base_len bytes of base directory, then path_len bytes of path (no NUL). */
struct open_record
{
    __u64 time_ns;   /* when the call returned */
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u32 pid;
    __u32 tid;
    __u32 uid;
    __s32 flags;
    __u32 mode;
    __s32 ret;
    char comm[BPFLENS_COMM_LEN];
    __u32 path_len;
    __u16 base_len;
    __u16 base_flags;
};

#endif
