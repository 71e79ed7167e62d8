/* SPDX-License-Identifier: GPL-2.0 */
/* The common filters applied to a task other than the current one: the task that waits in the
 * run queue (runqlat), the OOM killer's victim (oomkill). User space sets the same filter_*
 * values as for current_wanted() (bpf/common.bpf.h), and for a cgroup the v2 id of its
 * directory in filter_cgroup_id (Probe::cgroupIdOption), since bpf_current_task_under_cgroup
 * looks at the current task only. Include after bpf/common.bpf.h. */
#ifndef BPFLENS_TASKFILTER_BPF_H
#define BPFLENS_TASKFILTER_BPF_H

#define MAX_CGROUP_DEPTH 32

/* cgroup v2 id (the directory's inode): a task in it or below it is wanted. */
const volatile __u64 filter_cgroup_id = 0;

static __always_inline bool task_in_cgroup(struct task_struct *t, __u64 id)
{
    struct cgroup *cg = BPF_CORE_READ(t, cgroups, dfl_cgrp);
    int i;

    for (i = 0; i < MAX_CGROUP_DEPTH && cg; i++) {
        if (BPF_CORE_READ(cg, kn, id) == id)
            return true;
        /* self is the first member: its parent css is the parent cgroup */
        cg = (struct cgroup *)BPF_CORE_READ(cg, self.parent);
    }
    return false;
}

static __always_inline bool task_wanted(struct task_struct *t)
{
    char comm[BPFLENS_COMM_LEN];
    int i;

    if (filter_tgid && BPF_CORE_READ(t, tgid) != filter_tgid)
        return false;
    if (filter_tid && BPF_CORE_READ(t, pid) != filter_tid)
        return false;
    /* The real uid, as bpf_get_current_uid_gid() gives it for the current task. */
    if (filter_uid_set && BPF_CORE_READ(t, cred, uid.val) != filter_uid)
        return false;
    if (filter_cgroup_id && !task_in_cgroup(t, filter_cgroup_id))
        return false;
    if (!filter_comm[0])
        return true;
    BPF_CORE_READ_STR_INTO(&comm, t, comm);
    for (i = 0; i < BPFLENS_COMM_LEN; i++) {
        if (comm[i] != filter_comm[i])
            return false;
        if (!comm[i])
            break;
    }
    return true;
}

#endif
