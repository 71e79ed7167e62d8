#include "helper/openprobe.h"

#include "open.skel.h"

#include "bpf/open.records.h"

#include "core/openflags.h"

#include <bpf/btf.h>

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

namespace {

// The four open calls, and what hooks each on every way.
struct OpenCall
{
    const char *syscall;
    const char *tpEnter, *tpExit; // classic tracepoint programs
    const char *handlerExit;      // fexit on the native handler
    const char *compatExit;       // fexit on the ia32 handler (x86_64)
    const char *compatHandler;    // which one: compat_ where 32-bit arguments differ
    bool required;                // openat: libc's open(), nearly everything
};

const OpenCall openCalls[] = {
    {"openat", "open_tp_ent_at", "open_tp_ext_at", "open_fx_at", "open_fx_at32",
     "__ia32_compat_sys_openat", true},
    {"open", "open_tp_ent_open", "open_tp_ext_open", "open_fx_open", "open_fx_open32",
     "__ia32_compat_sys_open", false},
    {"openat2", "open_tp_ent_at2", "open_tp_ext_at2", "open_fx_at2", "open_fx_at2_32",
     "__ia32_sys_openat2", false},
    {"creat", "open_tp_ent_crt", "open_tp_ext_crt", "open_fx_crt", "open_fx_crt32",
     "__ia32_sys_creat", false},
};

#if defined(__x86_64__)
constexpr char nativeHandlerPrefix[] = "__x64_sys_";
#elif defined(__aarch64__)
constexpr char nativeHandlerPrefix[] = "__arm64_sys_";
#else
#error "the syscall handlers' names are not known for this architecture"
#endif

const QString compatMissed = QStringLiteral(
    "32-bit processes' opens are not reported: the per-syscall tracepoints do not fire for them");

} // namespace

AttachPlan OpenProbe::plan(const KernelFeatures &kernel, const QVariantMap &options)
{
    AttachPlan p;
    const QString mode = options.value(QStringLiteral("attach"), QStringLiteral("auto")).toString();
    const bool compat = kernel.runsCompatTasks();
    const bool fullPath = options.value(QStringLiteral("fullPath")).toBool();
    // With fullPath the handlers' programs are their _f twins, which hold the directory walk.
    const auto handlerProgram = [&](const char *name) {
        return QByteArray(name) + (fullPath ? "_f" : "");
    };
    // fexit on the handlers: only open calls run a program, 32-bit ones included.
    if (mode == QLatin1String("auto") || mode == QLatin1String("fexit")) {
        const QString openat = QLatin1String(nativeHandlerPrefix) + QStringLiteral("openat");
        if (kernel.canFentry(openat)) {
            for (const OpenCall &c : openCalls) {
                const QString handler =
                    QLatin1String(nativeHandlerPrefix) + QLatin1String(c.syscall);
                if (c.required || kernel.hasBtfType(handler, BTF_KIND_FUNC))
                    p.groups.append({{{handlerProgram(c.handlerExit),
                                       QStringLiteral("fexit/") + handler, true}},
                                     c.required,
                                     QLatin1String(c.syscall) + QStringLiteral(" calls")});
            }
            for (const OpenCall &c : openCalls) {
                const QString handler = QLatin1String(c.compatHandler);
                if (compat && kernel.hasBtfType(handler, BTF_KIND_FUNC))
                    p.groups.append(
                        {{{handlerProgram(c.compatExit), QStringLiteral("fexit/") + handler, true}},
                         false,
                         QStringLiteral("32-bit processes' %1 calls")
                             .arg(QLatin1String(c.syscall))});
            }
            return p;
        }
        if (mode == QLatin1String("fexit")) {
            const QString why = kernel.fentryUnavailableReason();
            p.available = false;
            p.reason =
                QStringLiteral("attach=fexit: no fexit on %1 (%2)")
                    .arg(openat, why.isEmpty() ? QStringLiteral("not in the kernel's BTF") : why);
            return p;
        }
    }
    // The raw sys_exit sees all four syscalls, also from 32-bit processes, and still has the
    // caller's arguments; but every syscall of the machine runs its program. So only where
    // 32-bit processes can run and no handler can be hooked, or when asked for.
    if ((mode == QLatin1String("auto") && compat) || mode == QLatin1String("sys_exit")) {
        if (kernel.hasBtfTracepoint(QStringLiteral("sys_exit"))) {
            p.groups.append({{{fullPath ? "open_btf_exit_full" : "open_btf_exit",
                               QStringLiteral("tp_btf/sys_exit")}},
                             true,
                             QStringLiteral("opens")});
            // No reason: nothing is missed, and the path says the way (its cost is in
            // docs/open.md); a reason would show the probe as partly available.
            return p;
        }
        if (mode == QLatin1String("sys_exit")) {
            p.available = false;
            p.reason = QStringLiteral(
                "attach=sys_exit: the kernel has no raw sys_exit tracepoint in its BTF");
            return p;
        }
    }
    for (const OpenCall &c : openCalls) {
        const QString enter = QStringLiteral("syscalls/sys_enter_") + QLatin1String(c.syscall);
        const QString exit = QStringLiteral("syscalls/sys_exit_") + QLatin1String(c.syscall);
        if (kernel.hasTracepoint(enter) && kernel.hasTracepoint(exit)) {
            p.groups.append({{{c.tpEnter, QStringLiteral("tp/") + enter},
                              {c.tpExit, QStringLiteral("tp/") + exit}},
                             c.required,
                             QLatin1String(c.syscall) + QStringLiteral(" calls")});
        } else if (c.required) {
            p.available = false;
            p.reason = mode == QLatin1String("tracepoints")
                           ? QStringLiteral("attach=tracepoints: the kernel has no "
                                            "syscalls/sys_enter_openat in tracefs (which may "
                                            "need mounting)")
                           : QStringLiteral("the kernel has neither fexit on the syscall "
                                            "handlers, nor the raw sys_exit tracepoint in its "
                                            "BTF, nor syscalls/sys_enter_openat in tracefs "
                                            "(which may need mounting)");
            return p;
        }
    }
    if (compat)
        p.addReason(compatMissed);
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
        if (!p.groups.first().programs.first().name.startsWith("open_tp_"))
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
