/* SPDX-License-Identifier: GPL-2.0 */
/* The usdt probe's argument specs, keys and records, shared with user space. */
#ifndef BPFLENS_USDT_H
#define BPFLENS_USDT_H

#include "bpf/bpflens.h"

/* sys/sdt.h's STAP_PROBE12 is the most a USDT probe has. */
#define USDT_MAX_ARGS 12
/* A probe's distinct argument lists (its sites differ: a constant at one, a register at
 * another); the attach cookie of each site's uprobe says which. */
#define USDT_MAX_SPECS 64
/* Longest string argument kept as a key. */
#define USDT_MAX_STR 128

enum usdt_arg_kind
{
    USDT_ARG_CONST = 0, /* val_off is the value */
    USDT_ARG_REG = 1,   /* the register at reg_off in struct pt_regs */
    USDT_ARG_MEM = 2,   /* size bytes of user memory at that register plus val_off */
};

/* Where an argument is when the probe fires: parsed from the binary's note by the caller,
 * checked again by the helper (core/usdtargs.h), which turns register names into offsets. */
struct usdt_arg_spec
{
    __s64 val_off;
    __u32 reg_off;
    __u8 kind;
    __u8 size; /* 1, 2, 4 or 8 */
    __u8 is_signed;
    __u8 pad;
};

enum usdt_key_kind
{
    USDT_KEY_NONE = 0,   /* every hit counts under one key */
    USDT_KEY_INT = 1,    /* the value of argument key_arg */
    USDT_KEY_STRING = 2, /* the string argument key_arg points to */
};

/* Counts are kept per key; zeroed in full so equal keys are equal bytes. */
struct usdt_key
{
    __u64 value;
    char str[USDT_MAX_STR];
};

struct usdt_event
{
    __u64 ts;
    __u64 cgroup_id; /* bpf_get_current_cgroup_id() of the task the event is about */
    __u32 pid;
    __u32 tid;
    char comm[BPFLENS_COMM_LEN];
    __u64 args[USDT_MAX_ARGS]; /* extended to 64 bits as their specs say */
    __u32 arg_cnt;
    __u32 str_ok; /* the string key was read */
    char str[USDT_MAX_STR];
};

#endif
