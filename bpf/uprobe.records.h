/* SPDX-License-Identifier: GPL-2.0 */
/* The uprobe probe's keys and records, shared with user space. */
#ifndef BPFLENS_UPROBE_H
#define BPFLENS_UPROBE_H

#include "bpf/bpflens.h"

/* Longest string argument kept as a key (bpftrace's str() default is 64). */
#define UPROBE_MAX_STR 128
/* Arguments a key may name: the registers of the calling convention (x86-64: six). */
#define UPROBE_MAX_ARGS 6

enum uprobe_key_kind
{
    UPROBE_KEY_NONE = 0,   /* every call counts under one key */
    UPROBE_KEY_INT = 1,    /* the value of argument key_arg */
    UPROBE_KEY_STRING = 2, /* the string argument key_arg points to, up to str_len bytes */
};

/* Counts are kept per key; zeroed in full so equal keys are equal bytes. */
struct uprobe_key
{
    __u64 value;
    char str[UPROBE_MAX_STR];
};

struct uprobe_event
{
    __u64 ts;        /* return, bpf_ktime_get_ns() */
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u64 latency_ns;
    __u32 pid;
    __u32 tid;
    char comm[BPFLENS_COMM_LEN];
    struct uprobe_key key;
};

#endif
