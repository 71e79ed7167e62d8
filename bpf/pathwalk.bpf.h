/* SPDX-License-Identifier: GPL-2.0 */
/* A directory's path, walked from its dentry up to the root of the task's mount tree, for
 * probes that see a path relative to a directory (open's fullPath). bpf_d_path() would do it in
 * one call, but only from fentry/LSM programs, which this project's tracepoint-first probes are
 * not. Include after vmlinux.h and the libbpf headers. */
#ifndef BPFLENS_PATHWALK_BPF_H
#define BPFLENS_PATHWALK_BPF_H

#define PATHWALK_NAME_MAX 256 /* NAME_MAX and its NUL */
#define PATHWALK_AT_FDCWD -100

#define PATHWALK_DELETED 1
#define PATHWALK_TRUNCATED 2
#define PATHWALK_NO_FILE 4

/* The directory a *at() call with dfd resolves a relative path against: the task's working
 * directory for AT_FDCWD, else the file open as dfd. False if dfd names no open file. */
static __always_inline bool pathwalk_dir_of(int dfd, struct path *out)
{
    struct task_struct *task = (struct task_struct *)bpf_get_current_task();
    struct fdtable *fdt;
    struct file **fds;
    struct file *f = NULL;
    unsigned int max_fds;

    if (dfd == PATHWALK_AT_FDCWD) {
        BPF_CORE_READ_INTO(out, task, fs, pwd);
        return out->dentry != NULL;
    }
    if (dfd < 0)
        return false;
    fdt = BPF_CORE_READ(task, files, fdt);
    max_fds = BPF_CORE_READ(fdt, max_fds);
    if ((unsigned int)dfd >= max_fds)
        return false;
    fds = BPF_CORE_READ(fdt, fd);
    if (bpf_probe_read_kernel(&f, sizeof(f), fds + dfd) || !f)
        return false;
    BPF_CORE_READ_INTO(out, f, f_path);
    return out->dentry != NULL;
}

/* Writes dir's names from the leaf up, each ended by a NUL, into buf (at least max +
 * PATHWALK_NAME_MAX bytes; max a power of two), crossing mount points up to the task's root, as
 * the kernel's d_path() does: a chrooted task's paths come out as the task writes its absolute
 * ones. Returns the bytes written; flags gets PATHWALK_DELETED for a removed directory and
 * PATHWALK_TRUNCATED when the walk stopped short of the root. The root itself writes nothing. */
static __always_inline __u32 pathwalk_names(const struct path *dir, char *buf, __u32 max,
                                            __u32 max_depth, __u16 *flags)
{
    struct dentry *d = dir->dentry;
    struct vfsmount *vfs = dir->mnt;
    struct mount *m = (struct mount *)((char *)vfs - bpf_core_field_offset(struct mount, mnt));
    struct task_struct *task = (struct task_struct *)bpf_get_current_task();
    struct path root = {};
    __u32 off = 0;
    __u32 i;

    BPF_CORE_READ_INTO(&root, task, fs, root);
    /* d_unlinked(): not hashed, and not a root. */
    if (!BPF_CORE_READ(d, d_hash.pprev) && BPF_CORE_READ(d, d_parent) != d)
        *flags |= PATHWALK_DELETED;
    for (i = 0; i < max_depth; i++) {
        struct dentry *parent = BPF_CORE_READ(d, d_parent);
        struct dentry *mnt_root = BPF_CORE_READ(vfs, mnt_root);
        const unsigned char *name;
        long n;

        if (d == root.dentry && vfs == root.mnt)
            return off;
        if (d == mnt_root || d == parent) {
            struct mount *up = BPF_CORE_READ(m, mnt_parent);

            /* The mount tree's root (the task's root is outside it: a path left through a
             * chroot's "..", or another namespace's dirfd), or a dentry cut off from its tree:
             * nothing above. */
            if (d != mnt_root || up == m)
                return off;
            d = BPF_CORE_READ(m, mnt_mountpoint);
            m = up;
            vfs = (struct vfsmount *)((char *)m + bpf_core_field_offset(struct mount, mnt));
            continue;
        }
        if (off >= max - PATHWALK_NAME_MAX)
            break;
        name = BPF_CORE_READ(d, d_name.name);
        n = bpf_probe_read_kernel_str(buf + (off & (max - 1)), PATHWALK_NAME_MAX, name);
        if (n <= 0)
            break;
        /* One range for off whatever the names' lengths: otherwise each path through the loop
         * is a state of its own to the verifier, and 48 levels are too many to explore. */
        off += n;
        asm volatile("" : "+r"(off));
        off &= max - 1;
        d = parent;
    }
    *flags |= PATHWALK_TRUNCATED;
    return off;
}

#endif
