// SPDX-License-Identifier: GPL-2.0
// OOM kills, like libbpf-tools' oomkill but tracepoint-first: the OOM killer sends its victim
// SIGKILL (signal:signal_generate, which hands over the victim's task on every kernel) and then
// marks it (oom:mark_victim: its pid before 6.8, its task and uid since and in backports). A mark
// that follows a SIGKILL the same task sent to the same pid is a kill; a mark without one is the
// OOM killer letting an exiting task use the reserves, no kill. The victim's memory is read from
// its mm as the kernel's "Killed process" line does. The constraint is the OOM killer's own (its
// struct oom_control's) where oom_kill_process can be hooked (fentry or kprobes, optional); else a
// memory cgroup's when one of the victim's memory cgroups is at its limit (a memcg OOM only
// picks victims below the cgroup that hit its limit, and runs before anything was freed), else
// the machine's.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/oomkill.records.h"
#include "bpf/taskfilter.bpf.h"

#define SIGKILL 9
/* A charge that fails is at most 8 pages (larger ones never OOM) and another CPU may have
 * uncharged a batch (64 pages) meanwhile. */
#define LIMIT_SLACK_PAGES 128
/* The OOM killer sends the signal and marks the victim right after: a mark later than this is
 * not the same kill. */
#define SIGNAL_TO_MARK_NS (1000ull * 1000 * 1000)

/* Set by user space: oom:mark_victim's first argument is the victim's task (6.8+, backports). */
const volatile bool mark_victim_has_task = false;

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 64 * 1024);
} rb SEC(".maps");

struct sent
{
    __u64 ts_ns;
    __u64 task; /* struct task_struct * of the SIGKILL's target */
};

/* The last SIGKILL each task sent, by the sender's tid. */
struct
{
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 4096);
    __type(key, __u32);
    __type(value, struct sent);
} kills SEC(".maps");

/* The OOM killer's constraint (oomkill_constraint) while oom_kill_process runs, by tid: where
 * that function can be hooked. */
struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 1024);
    __type(key, __u32);
    __type(value, __u8);
} constraints SEC(".maps");

/* Before 6.2 the mm's counters were an array of atomics, since then per-CPU counters. */
struct mm_rss_stat___old
{
    atomic_long_t count[4];
} __attribute__((preserve_access_index));

struct mm_struct___old
{
    struct mm_rss_stat___old rss_stat;
} __attribute__((preserve_access_index));

/* MM_FILEPAGES, MM_ANONPAGES, MM_SWAPENTS, MM_SHMEMPAGES: the same numbers since 4.5. */
#define RSS_COUNTER(mm, member)                                                                    \
    ({                                                                                             \
        long __v;                                                                                  \
        if (bpf_core_type_exists(struct mm_rss_stat___old))                                        \
            __v = BPF_CORE_READ((struct mm_struct___old *)(mm), rss_stat.count[member].counter);   \
        else                                                                                       \
            __v = BPF_CORE_READ((mm), rss_stat[member].count);                                     \
        __v > 0 ? (__u64)__v : 0;                                                                  \
    })

/* Whether one of the task's memory cgroups (v1 or v2, the controller's own hierarchy) is at its
 * limit: the OOM killer then works for that cgroup. */
static __always_inline bool memcg_at_limit(struct task_struct *t)
{
    int id = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
    struct cgroup_subsys_state *css;
    int i;

    if (id < 0 || id >= CGROUP_SUBSYS_COUNT)
        return false;
    css = BPF_CORE_READ(t, cgroups, subsys[id]);
    for (i = 0; i < MAX_CGROUP_DEPTH && css; i++) {
        /* css is the first member of struct mem_cgroup */
        struct mem_cgroup *memcg = (struct mem_cgroup *)css;
        long usage = BPF_CORE_READ(memcg, memory.usage.counter);
        unsigned long max = BPF_CORE_READ(memcg, memory.max);

        if (usage > 0 && (unsigned long)usage + LIMIT_SLACK_PAGES >= max)
            return true;
        css = BPF_CORE_READ(css, parent);
    }
    return false;
}

static __always_inline void signal_sent(int sig, struct task_struct *task)
{
    struct sent s = {};
    __u32 tid;

    if (sig != SIGKILL)
        return;
    tid = (__u32)bpf_get_current_pid_tgid();
    s.ts_ns = bpf_ktime_get_ns();
    s.task = (__u64)task;
    bpf_map_update_elem(&kills, &tid, &s, BPF_ANY);
}

static __always_inline void victim_marked(__u32 pid)
{
    struct oomkill_event e = {};
    __u64 id = bpf_get_current_pid_tgid();
    __u32 tid = (__u32)id;
    struct sent *s = bpf_map_lookup_elem(&kills, &tid);
    struct task_struct *t;
    struct mm_struct *mm;
    __u64 now = bpf_ktime_get_ns();
    __u8 *c;

    if (!s)
        return;
    t = (struct task_struct *)s->task;
    if (now - s->ts_ns > SIGNAL_TO_MARK_NS || BPF_CORE_READ(t, pid) != pid) {
        bpf_map_delete_elem(&kills, &tid);
        return;
    }
    bpf_map_delete_elem(&kills, &tid);
    if (!task_wanted(t))
        return;
    e.ts_ns = now;
    e.pid = BPF_CORE_READ(t, tgid);
    BPF_CORE_READ_STR_INTO(&e.comm, t, comm);
    e.cgroup_id = BPF_CORE_READ(t, cgroups, dfl_cgrp, kn, id);
    e.oom_score_adj = BPF_CORE_READ(t, signal, oom_score_adj);
    mm = BPF_CORE_READ(t, mm);
    if (mm) {
        e.total_vm = BPF_CORE_READ(mm, total_vm);
        e.file_rss = RSS_COUNTER(mm, 0);
        e.anon_rss = RSS_COUNTER(mm, 1);
        e.shmem_rss = RSS_COUNTER(mm, 3);
        e.pgtables_bytes = BPF_CORE_READ(mm, pgtables_bytes.counter);
    }
    c = bpf_map_lookup_elem(&constraints, &tid);
    if (c && *c != OOMKILL_CONSTRAINT_UNKNOWN)
        e.constraint = *c;
    else
        e.constraint = memcg_at_limit(t) ? OOMKILL_CONSTRAINT_MEMCG : OOMKILL_CONSTRAINT_NONE;
    e.trigger_pid = id >> 32;
    e.trigger_tid = tid;
    bpf_get_current_comm(e.trigger_comm, sizeof(e.trigger_comm));
    if (bpf_ringbuf_output(&rb, &e, sizeof(e), 0))
        count_lost();
}

SEC("tp_btf/signal_generate")
int BPF_PROG(oomkill_signal_btf, int sig, struct kernel_siginfo *info, struct task_struct *task)
{
    signal_sent(sig, task);
    return 0;
}

SEC("raw_tp/signal_generate")
int BPF_PROG(oomkill_signal_raw, int sig, struct kernel_siginfo *info, struct task_struct *task)
{
    signal_sent(sig, task);
    return 0;
}

/* The first argument is the pid (int) before 6.8, the task since: read as a number either way. */
static __always_inline __u32 marked_pid(__u64 arg0)
{
    if (mark_victim_has_task)
        return BPF_CORE_READ((struct task_struct *)arg0, pid);
    return (__u32)arg0;
}

SEC("tp_btf/mark_victim")
int oomkill_mark_btf(__u64 *ctx)
{
    victim_marked(marked_pid(ctx[0]));
    return 0;
}

SEC("raw_tp/mark_victim")
int oomkill_mark_raw(struct bpf_raw_tracepoint_args *ctx)
{
    victim_marked(marked_pid(ctx->args[0]));
    return 0;
}

/* oom_kill_process(struct oom_control *oc, const char *message): the kernel's enum
 * oom_constraint in oc->constraint (since 4.19), as our numbers. */
static __always_inline void oom_kill_begin(struct oom_control *oc)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    __u8 c = OOMKILL_CONSTRAINT_UNKNOWN;
    int v;

    if (bpf_core_field_exists(oc->constraint)) {
        v = BPF_CORE_READ(oc, constraint);
        if (v == bpf_core_enum_value(enum oom_constraint, CONSTRAINT_NONE))
            c = OOMKILL_CONSTRAINT_NONE;
        else if (v == bpf_core_enum_value(enum oom_constraint, CONSTRAINT_CPUSET))
            c = OOMKILL_CONSTRAINT_CPUSET;
        else if (v == bpf_core_enum_value(enum oom_constraint, CONSTRAINT_MEMORY_POLICY))
            c = OOMKILL_CONSTRAINT_MEMPOLICY;
        else if (v == bpf_core_enum_value(enum oom_constraint, CONSTRAINT_MEMCG))
            c = OOMKILL_CONSTRAINT_MEMCG;
    }
    bpf_map_update_elem(&constraints, &tid, &c, BPF_ANY);
}

static __always_inline void oom_kill_end(void)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();

    bpf_map_delete_elem(&constraints, &tid);
}

SEC("fentry/oom_kill_process")
int BPF_PROG(oomkill_fe_oom_kill_process, struct oom_control *oc)
{
    oom_kill_begin(oc);
    return 0;
}

SEC("fexit/oom_kill_process")
int BPF_PROG(oomkill_fx_oom_kill_process, struct oom_control *oc)
{
    oom_kill_end();
    return 0;
}

SEC("kprobe/oom_kill_process")
int BPF_KPROBE(oomkill_kp_oom_kill_process, struct oom_control *oc)
{
    oom_kill_begin(oc);
    return 0;
}

SEC("kretprobe/oom_kill_process")
int BPF_KRETPROBE(oomkill_kr_oom_kill_process)
{
    oom_kill_end();
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
