#include "helper/openprobe.h"

#include "open.skel.h"

#include "bpf/open.records.h"

#include "core/openflags.h"

#include <cstring>

static_assert(OPEN_ACC_RDONLY == bpflens::OpenFlags::ReadOnly &&
              OPEN_ACC_WRONLY == bpflens::OpenFlags::WriteOnly &&
              OPEN_ACC_RDWR == bpflens::OpenFlags::ReadWrite);

namespace bpflens {

OpenProbe::OpenProbe()
    : SkeletonProbe(QStringLiteral("open"))
{
}

OpenProbe::~OpenProbe() = default;

AttachPlan OpenProbe::plan(const KernelFeatures &kernel, const QVariantMap &options)
{
    AttachPlan p;
    // The raw sys_exit sees all four syscalls, also from 32-bit processes, without tracefs, and
    // still has the caller's arguments: no sys_enter program needed.
    if (kernel.hasBtfTracepoint(QStringLiteral("sys_exit"))) {
        const bool fullPath = options.value(QStringLiteral("fullPath")).toBool();
        p.groups.append({{{fullPath ? "open_btf_exit_full" : "open_btf_exit",
                           QStringLiteral("tp_btf/sys_exit")}},
                         true,
                         QStringLiteral("opens")});
        return p;
    }
    // openat is what libc uses for open(): without it the probe would miss nearly everything.
    const struct
    {
        const char *syscall, *enter, *exit;
        bool required;
    } classic[] = {{"openat", "open_tp_ent_at", "open_tp_ext_at", true},
                   {"open", "open_tp_ent_open", "open_tp_ext_open", false},
                   {"openat2", "open_tp_ent_at2", "open_tp_ext_at2", false},
                   {"creat", "open_tp_ent_crt", "open_tp_ext_crt", false}};
    for (const auto &c : classic) {
        const QString enter = QStringLiteral("syscalls/sys_enter_") + QLatin1String(c.syscall);
        const QString exit = QStringLiteral("syscalls/sys_exit_") + QLatin1String(c.syscall);
        if (kernel.hasTracepoint(enter) && kernel.hasTracepoint(exit)) {
            p.groups.append(
                {{{c.enter, QStringLiteral("tp/") + enter}, {c.exit, QStringLiteral("tp/") + exit}},
                 c.required,
                 QLatin1String(c.syscall) + QStringLiteral(" calls")});
        } else if (c.required) {
            p.available = false;
            p.reason = QStringLiteral("the kernel has neither the raw sys_enter/sys_exit "
                                      "tracepoints in its BTF nor syscalls/sys_enter_openat in "
                                      "tracefs (which may need mounting)");
            return p;
        }
    }
    return p;
}

ProbeAvailability OpenProbe::availability(const KernelFeatures &kernel,
                                          const QVariantMap &options) const
{
    return availabilityOf(plan(kernel, options));
}

bool OpenProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    const AttachPlan p = plan(kernel, options);
    return startSkeleton(p, options, error, [&](CommonFilters &, QString *) {
        // Only the classic tracepoints pair entry and exit through this map: otherwise its
        // preallocated 10240 entries would be kernel memory for nothing.
        if (p.groups.first().programs.first().name.startsWith("open_btf_exit"))
            bpf_map__set_max_entries(m_skel->maps.open_pending, 1);
        m_skel->rodata->failed_only = options.value(QStringLiteral("failedOnly")).toBool();
        m_skel->rodata->full_path = options.value(QStringLiteral("fullPath")).toBool();
        quint32 bits = 0;
        quint8 modes = 0;
        QString why;
        if (!OpenFlags::parse(options.value(QStringLiteral("flags")).toString(), &bits, &modes,
                              &why)) {
            *error = why;
            return false;
        }
        m_skel->rodata->flags_any = bits;
        m_skel->rodata->acc_modes = modes;
        return true;
    });
}

bool OpenProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    open_record r;
    if (size < sizeof(r))
        return false;
    memcpy(&r, data, sizeof(r));
    if (r.path_len >= OPEN_PATH_MAX || r.base_len >= OPEN_BASE_MAX ||
        size < sizeof(r) + r.base_len + r.path_len)
        return false;
    const char *base = static_cast<const char *>(data) + sizeof(r);
    const char *path = base + r.base_len;
    OpenEvent e;
    e.timeNs = r.time_ns;
    e.pid = r.pid;
    e.cgroupId = r.cgroup_id;
    e.tid = r.tid;
    e.uid = r.uid;
    e.flags = r.flags;
    e.mode = r.mode;
    e.ret = r.ret;
    e.comm = m_strings.get(r.comm, qsizetype(qstrnlen(r.comm, sizeof(r.comm))));
    // A dirfd that named no file (the open failed with EBADF) leaves the path as it was given.
    if (r.base_flags & OPEN_BASE_WALKED) {
        const QByteArray full = fullPath(QByteArray::fromRawData(base, r.base_len), r.base_flags,
                                         QByteArray::fromRawData(path, r.path_len));
        e.path = m_strings.get(full.constData(), full.size());
    } else {
        e.path = m_strings.get(path, r.path_len);
    }
    out.open.append(e);
    return true;
}

QByteArray OpenProbe::fullPath(const QByteArray &names, quint16 flags, const QByteArray &path)
{
    // The walk's names run from the leaf up, each ended by a NUL.
    QList<QByteArray> parts = names.split('\0');
    if (!parts.isEmpty() && parts.last().isEmpty())
        parts.removeLast();
    QByteArray full;
    // A walk that stopped short of the root says so where the root would be, as a path no file
    // has: "…/deep/dir/file".
    if (flags & OPEN_BASE_TRUNCATED)
        full += "\xe2\x80\xa6";
    for (qsizetype i = parts.size() - 1; i >= 0; --i)
        full += '/' + parts.at(i);
    // As the kernel's d_path() writes a removed directory.
    if (flags & OPEN_BASE_DELETED)
        full += " (deleted)";
    full += '/';
    full += path;
    return full;
}

} // namespace bpflens
