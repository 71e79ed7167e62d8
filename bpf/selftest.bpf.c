// SPDX-License-Identifier: GPL-2.0
// The smallest real probe: counts execs of one parent process. The build uses it to prove that
// vmlinux.h, clang, the skeleton and loading all work; the engine uses it as a capability probe.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

const volatile pid_t target_ppid = 0;

__u64 exec_count = 0;

SEC("tp_btf/sched_process_exec")
int BPF_PROG(selftest_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
    pid_t ppid = BPF_CORE_READ(p, real_parent, tgid);

    if (target_ppid && ppid != target_ppid)
        return 0;
    __sync_fetch_and_add(&exec_count, 1);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
