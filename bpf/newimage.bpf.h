/* SPDX-License-Identifier: GPL-2.0 */
/* Wakes user space at once for the first stack of a process image: user space symbolises user
 * stacks from /proc/<pid>/maps, which a process that exits (or execs) before the next periodic
 * drain takes with it. A process that lives a few milliseconds past its first stack keeps its
 * names; later stacks of the same image wait for the usual batched wake-up. */
#ifndef BPFLENS_NEWIMAGE_BPF_H
#define BPFLENS_NEWIMAGE_BPF_H

#include "bpf/common.bpf.h"

/* The mm each recent process had at its last stack: a new tgid or a new mm (an exec) is new. */
struct
{
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 4096);
    __type(key, __u32);
    __type(value, __u64);
} image_seen SEC(".maps");

static __always_inline long submit_flags_for(void *rb, struct task_struct *t)
{
    __u32 tgid = BPF_CORE_READ(t, tgid);
    __u64 mm = (__u64)BPF_CORE_READ(t, mm);
    __u64 *seen;

    if (!mm)
        return submit_flags(rb);
    seen = bpf_map_lookup_elem(&image_seen, &tgid);
    if (seen && *seen == mm)
        return submit_flags(rb);
    bpf_map_update_elem(&image_seen, &tgid, &mm, BPF_ANY);
    return BPF_RB_FORCE_WAKEUP;
}

#endif
