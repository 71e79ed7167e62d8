// SPDX-License-Identifier: GPL-2.0
// Page cache activity, like cachestat, from whatever the kernel offers. BCC's cachestat counts
// kprobe hits on mark_page_accessed (accesses), add_to_page_cache_lru (insertions) and
// account_page_dirtied. With tracepoints the same quantities come from:
//   accesses: filemap/mm_filemap_get_pages (the page range a read looks up, once per read even
//             when the kernel fetches it in several batches) and filemap/mm_filemap_fault (one
//             page per fault on a file mapping);
//   added:    filemap/mm_filemap_add_to_page_cache (a folio inserted: its pages);
//   dirtied:  writeback/writeback_dirty_folio (a folio accounted dirty: its pages).
// The fentry/kprobe fallbacks count calls of folio_mark_accessed, filemap_add_folio and
// folio_account_dirtied (or their older page-based names), like BCC. User space loads only
// the programs of the paths it chose and derives misses, hits and the ratio.
//
// The common filters (pid, tid, uid, comm, cgroup) test the task each hook runs in. Lookups and
// faults run in the reading task; insertions too, also those of readahead (sync and async
// readahead are started by the reader's read or fault); dirtying runs in the task that writes
// (write(), a write fault, or unmapping a dirty shared mapping). Work the kernel does on its own
// (the flusher's writeback, reclaim, jbd2 dirtying metadata) is in kernel threads, so it drops
// out of any filtered count.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/cachestat.records.h"
#include "bpf/common.bpf.h"

const volatile __u32 page_shift = 12;

struct
{
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct cachestat_counts);
} counts SEC(".maps");

// The latest lookup range of each thread, to count a read once when filemap_read() fetches it
// in several batches (each batch reports the remaining range of the same read).
struct lookup
{
    __u64 file;
    __u64 index;
    __u64 last;
};

struct
{
    __uint(type, BPF_MAP_TYPE_LRU_HASH);
    __uint(max_entries, 8192);
    __type(key, __u32);
    __type(value, struct lookup);
} lookups SEC(".maps");

static __always_inline struct cachestat_counts *my_counts(void)
{
    __u32 zero = 0;

    return bpf_map_lookup_elem(&counts, &zero);
}

// The counters to add to when the current task passes the filters, else NULL.
static __always_inline struct cachestat_counts *wanted_counts(void)
{
    return current_wanted() ? my_counts() : NULL;
}

static __always_inline void count_pages(__u64 *counter, __u64 pages)
{
    // Atomic although per CPU: a softirq's tracepoint can interrupt a task's between the load
    // and the store.
    __sync_fetch_and_add(counter, pages);
}

static __always_inline void count_lookup(__u64 file, __u64 index, __u64 last)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    struct lookup now = {.file = file, .index = index, .last = last};
    struct cachestat_counts *c;
    struct lookup *prev;
    __u64 pages;

    if (last < index || !current_wanted())
        return;
    pages = last - index + 1;
    prev = bpf_map_lookup_elem(&lookups, &tid);
    if (prev && prev->file == file && prev->last == last && index > prev->index &&
        index <= prev->last)
        pages = 0; // the rest of a read whose whole range was counted already
    bpf_map_update_elem(&lookups, &tid, &now, BPF_ANY);
    c = my_counts();
    if (c && pages)
        count_pages(&c->accesses, pages);
}

// folio_nr_pages(): the order lives in the second page's flags of a large folio.
static __always_inline __u64 folio_pages(const struct folio *folio)
{
    unsigned long flags = 0, flags1;
    int head = bpf_core_enum_value(enum pageflags, PG_head);

    // The flags word opens struct page and struct folio on every kernel, whatever its type.
    bpf_probe_read_kernel(&flags, sizeof(flags), folio);
    if (!(flags & (1UL << head)))
        return 1;
    if (!bpf_core_field_exists(folio->_flags_1))
        return 1;
    flags1 = BPF_CORE_READ(folio, _flags_1);
    return 1ULL << ((flags1 & 0xff) & 31);
}

/* accesses */

SEC("tp_btf/mm_filemap_get_pages")
int BPF_PROG(cachestat_lookup_btf, struct address_space *mapping, unsigned long index,
             unsigned long last_index)
{
    __s64 size = BPF_CORE_READ(mapping, host, i_size);
    __u64 last_page;

    // A read's range may reach past EOF (a big buffer on a small file); those pages do not
    // exist and are no access.
    if (size <= 0)
        return 0;
    last_page = (__u64)(size - 1) >> page_shift;
    if (last_index > last_page)
        last_index = last_page;
    count_lookup((__u64)mapping, index, last_index);
    return 0;
}

SEC("tp/filemap/mm_filemap_get_pages")
int cachestat_lookup_tp(struct trace_event_raw_mm_filemap_op_page_cache_range *ctx)
{
    count_lookup(((__u64)ctx->s_dev << 32) ^ ctx->i_ino, ctx->index, ctx->last_index);
    return 0;
}

SEC("tp_btf/mm_filemap_fault")
int BPF_PROG(cachestat_fault_btf, struct address_space *mapping, unsigned long index)
{
    struct cachestat_counts *c = wanted_counts();

    if (c)
        count_pages(&c->accesses, 1);
    return 0;
}

SEC("tp/filemap/mm_filemap_fault")
int cachestat_fault_tp(void *ctx)
{
    struct cachestat_counts *c = wanted_counts();

    if (c)
        count_pages(&c->accesses, 1);
    return 0;
}

SEC("fentry")
int BPF_PROG(cachestat_access_fentry)
{
    struct cachestat_counts *c = wanted_counts();

    if (c)
        count_pages(&c->accesses, 1);
    return 0;
}

SEC("kprobe")
int BPF_KPROBE(cachestat_access_kprobe)
{
    struct cachestat_counts *c = wanted_counts();

    if (c)
        count_pages(&c->accesses, 1);
    return 0;
}

/* added (misses) */

SEC("tp_btf/mm_filemap_add_to_page_cache")
int BPF_PROG(cachestat_add_btf, struct folio *folio)
{
    struct cachestat_counts *c = wanted_counts();

    if (c)
        count_pages(&c->added, folio_pages(folio));
    return 0;
}

SEC("tp/filemap/mm_filemap_add_to_page_cache")
int cachestat_add_tp(struct trace_event_raw_mm_filemap_op_page_cache *ctx)
{
    struct cachestat_counts *c = wanted_counts();
    __u64 pages = 1;

    if (bpf_core_field_exists(ctx->order))
        pages = 1ULL << (BPF_CORE_READ(ctx, order) & 31);
    if (c)
        count_pages(&c->added, pages);
    return 0;
}

SEC("fentry")
int BPF_PROG(cachestat_add_fentry)
{
    struct cachestat_counts *c = wanted_counts();

    if (c)
        count_pages(&c->added, 1);
    return 0;
}

SEC("kprobe")
int BPF_KPROBE(cachestat_add_kprobe)
{
    struct cachestat_counts *c = wanted_counts();

    if (c)
        count_pages(&c->added, 1);
    return 0;
}

/* dirtied */

SEC("tp_btf/writeback_dirty_folio")
int BPF_PROG(cachestat_dirty_btf, struct folio *folio, struct address_space *mapping)
{
    struct cachestat_counts *c = wanted_counts();

    if (c)
        count_pages(&c->dirtied, folio_pages(folio));
    return 0;
}

SEC("tp/writeback/writeback_dirty_folio")
int cachestat_dirty_tp(void *ctx)
{
    struct cachestat_counts *c = wanted_counts();

    if (c)
        count_pages(&c->dirtied, 1);
    return 0;
}

SEC("fentry")
int BPF_PROG(cachestat_dirty_fentry)
{
    struct cachestat_counts *c = wanted_counts();

    if (c)
        count_pages(&c->dirtied, 1);
    return 0;
}

SEC("kprobe")
int BPF_KPROBE(cachestat_dirty_kprobe)
{
    struct cachestat_counts *c = wanted_counts();

    if (c)
        count_pages(&c->dirtied, 1);
    return 0;
}

char LICENSE[] SEC("license") = "GPL";
