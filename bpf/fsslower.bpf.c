// SPDX-License-Identifier: GPL-2.0
// fsslower / ext4slower: file-system reads, writes, opens and fsyncs slower than a threshold,
// timed at the file system's own entry points (ext4_file_read_iter, ...), so page cache hits
// count as fast operations and the time is the file system's, not the syscall's. The file
// system's name is read from the file's super block, so one program serves ext4, xfs and btrfs.
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "bpf/common.bpf.h"
#include "bpf/fsslower.records.h"

const volatile __u64 min_ns = 10000000;

struct pending
{
    __u64 start;
    __u64 file; /* struct file * */
    __u64 offset;
    __u8 op;
};

struct
{
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 10240);
    __type(key, __u32);
    __type(value, struct pending);
} pendings SEC(".maps");

struct
{
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, 4 << 20); /* user space sets the real size */
} fsslower_rb SEC(".maps");

struct scratch
{
    struct fsslower_record hdr;
    char name[FSSLOWER_NAME_MAX + 1];
};

struct
{
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, 1);
    __type(key, __u32);
    __type(value, struct scratch);
} scratch SEC(".maps");

static __always_inline void begin(struct file *file, __u64 offset, __u8 op)
{
    __u32 tid = (__u32)bpf_get_current_pid_tgid();
    struct pending p = {
        .start = bpf_ktime_get_ns(), .file = (__u64)file, .offset = offset, .op = op};

    if (!current_wanted())
        return;
    if (bpf_map_update_elem(&pendings, &tid, &p, BPF_ANY))
        count_lost();
}

static __always_inline void end(long ret)
{
    __u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
    __u32 tid = (__u32)id, zero = 0;
    struct pending *p = bpf_map_lookup_elem(&pendings, &tid);
    struct file *file;
    struct scratch *s;
    const unsigned char *name;
    const char *fs;
    long n;
    __u32 len;

    if (!p)
        return;
    if (now - p->start < min_ns) {
        bpf_map_delete_elem(&pendings, &tid);
        return;
    }
    s = bpf_map_lookup_elem(&scratch, &zero);
    if (!s) {
        bpf_map_delete_elem(&pendings, &tid);
        return;
    }
    file = (struct file *)p->file;
    s->hdr.time_ns = now;
    s->hdr.latency_ns = now - p->start;
    s->hdr.offset = p->offset;
    s->hdr.op = p->op;
    bpf_map_delete_elem(&pendings, &tid);
    s->hdr.bytes = (s->hdr.op == 'R' || s->hdr.op == 'W') && ret > 0 ? ret : 0;
    s->hdr.pid = id >> 32;
    s->hdr.cgroup_id = bpf_get_current_cgroup_id();
    __builtin_memset(s->hdr.pad, 0, sizeof(s->hdr.pad));
    bpf_get_current_comm(s->hdr.comm, sizeof(s->hdr.comm));
    __builtin_memset(s->hdr.fs, 0, sizeof(s->hdr.fs));
    fs = BPF_CORE_READ(file, f_inode, i_sb, s_type, name);
    if (fs)
        bpf_probe_read_kernel_str(s->hdr.fs, sizeof(s->hdr.fs), fs);
    name = BPF_CORE_READ(file, f_path.dentry, d_name.name);
    n = name ? bpf_probe_read_kernel_str(s->name, sizeof(s->name), name) : 0;
    len = n > 0 ? n - 1 : 0; /* without the NUL */
    if (len > FSSLOWER_NAME_MAX)
        len = FSSLOWER_NAME_MAX;
    s->hdr.name_len = len;
    if (bpf_ringbuf_output(&fsslower_rb, s, sizeof(s->hdr) + len, submit_flags(&fsslower_rb)))
        count_lost();
}

/* ext4's fsync tracepoints: the one hook that needs neither fentry nor kprobes. */
SEC("tp_btf/ext4_sync_file_enter")
int BPF_PROG(fsslower_ext4_sync_enter, struct file *file, int datasync)
{
    begin(file, 0, 'F');
    return 0;
}

SEC("tp_btf/ext4_sync_file_exit")
int BPF_PROG(fsslower_ext4_sync_exit, struct inode *inode, int ret)
{
    end(ret);
    return 0;
}

/* One set of hooks per file-system function: read_iter/write_iter(iocb, iter),
 * open(inode, file), fsync(file, start, end, datasync) have the same shape in ext4, xfs and
 * btrfs. fentry/fexit where the kernel has trampolines, else kprobe/kretprobe. */
#define ITER_HOOKS(fn, opc)                                                                        \
    SEC("fentry/" #fn)                                                                             \
    int BPF_PROG(fsslower_fe_##fn, struct kiocb *iocb)                                             \
    {                                                                                              \
        begin(BPF_CORE_READ(iocb, ki_filp), BPF_CORE_READ(iocb, ki_pos), opc);                     \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("fexit/" #fn)                                                                              \
    int BPF_PROG(fsslower_fx_##fn, struct kiocb *iocb, struct iov_iter *iter, long ret)            \
    {                                                                                              \
        end(ret);                                                                                  \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("kprobe/" #fn)                                                                             \
    int BPF_KPROBE(fsslower_kp_##fn, struct kiocb *iocb)                                           \
    {                                                                                              \
        begin(BPF_CORE_READ(iocb, ki_filp), BPF_CORE_READ(iocb, ki_pos), opc);                     \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("kretprobe/" #fn)                                                                          \
    int BPF_KRETPROBE(fsslower_kr_##fn, long ret)                                                  \
    {                                                                                              \
        end(ret);                                                                                  \
        return 0;                                                                                  \
    }

#define OPEN_HOOKS(fn)                                                                             \
    SEC("fentry/" #fn)                                                                             \
    int BPF_PROG(fsslower_fe_##fn, struct inode *inode, struct file *file)                         \
    {                                                                                              \
        begin(file, 0, 'O');                                                                       \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("fexit/" #fn)                                                                              \
    int BPF_PROG(fsslower_fx_##fn, struct inode *inode, struct file *file, int ret)                \
    {                                                                                              \
        end(ret);                                                                                  \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("kprobe/" #fn)                                                                             \
    int BPF_KPROBE(fsslower_kp_##fn, struct inode *inode, struct file *file)                       \
    {                                                                                              \
        begin(file, 0, 'O');                                                                       \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("kretprobe/" #fn)                                                                          \
    int BPF_KRETPROBE(fsslower_kr_##fn, int ret)                                                   \
    {                                                                                              \
        end(ret);                                                                                  \
        return 0;                                                                                  \
    }

#define FSYNC_HOOKS(fn)                                                                            \
    SEC("fentry/" #fn)                                                                             \
    int BPF_PROG(fsslower_fe_##fn, struct file *file)                                              \
    {                                                                                              \
        begin(file, 0, 'F');                                                                       \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("fexit/" #fn)                                                                              \
    int BPF_PROG(fsslower_fx_##fn, struct file *file, loff_t start, loff_t e, int datasync,        \
                 int ret)                                                                          \
    {                                                                                              \
        end(ret);                                                                                  \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("kprobe/" #fn)                                                                             \
    int BPF_KPROBE(fsslower_kp_##fn, struct file *file)                                            \
    {                                                                                              \
        begin(file, 0, 'F');                                                                       \
        return 0;                                                                                  \
    }                                                                                              \
    SEC("kretprobe/" #fn)                                                                          \
    int BPF_KRETPROBE(fsslower_kr_##fn, int ret)                                                   \
    {                                                                                              \
        end(ret);                                                                                  \
        return 0;                                                                                  \
    }

ITER_HOOKS(ext4_file_read_iter, 'R')
ITER_HOOKS(ext4_file_write_iter, 'W')
OPEN_HOOKS(ext4_file_open)
FSYNC_HOOKS(ext4_sync_file)
ITER_HOOKS(xfs_file_read_iter, 'R')
ITER_HOOKS(xfs_file_write_iter, 'W')
OPEN_HOOKS(xfs_file_open)
FSYNC_HOOKS(xfs_file_fsync)
ITER_HOOKS(btrfs_file_read_iter, 'R')
ITER_HOOKS(btrfs_file_write_iter, 'W')
OPEN_HOOKS(btrfs_file_open)
FSYNC_HOOKS(btrfs_sync_file)

char LICENSE[] SEC("license") = "GPL";
