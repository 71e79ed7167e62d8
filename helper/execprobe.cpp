#include "helper/execprobe.h"

#include "exec.skel.h"

#include "bpf/exec.records.h"

#include <cstring>

namespace bpflens {

ExecProbe::ExecProbe()
    : SkeletonProbe(QStringLiteral("exec"))
{
}

ExecProbe::~ExecProbe() = default;

namespace {

// The two exec calls, and what hooks their failures on every way.
struct ExecCall
{
    const char *syscall;
    const char *tpEnter, *tpExit; // classic tracepoint programs
    const char *handlerExit;      // fexit on the native handler
    const char *compatExit;       // fexit on the ia32 handler (x86_64)
    const char *compatHandler;
};

const ExecCall execCalls[] = {
    {"execve", "exec_tp_ent_ve", "exec_tp_ext_ve", "exec_fx_ve", "exec_fx_ve32",
     "__ia32_compat_sys_execve"},
    {"execveat", "exec_tp_ent_vat", "exec_tp_ext_vat", "exec_fx_vat", "exec_fx_vat32",
     "__ia32_compat_sys_execveat"},
};

#if defined(__x86_64__)
constexpr char nativeHandlerPrefix[] = "__x64_sys_";
#elif defined(__aarch64__)
constexpr char nativeHandlerPrefix[] = "__arm64_sys_";
#else
#error "the syscall handlers' names are not known for this architecture"
#endif

QString failedWhat(const char *syscall)
{
    return syscall ? QStringLiteral("failed execs (%1)").arg(QLatin1String(syscall))
                   : QStringLiteral("failed execs");
}

} // namespace

AttachPlan ExecProbe::plan(const KernelFeatures &kernel, const QVariantMap &options)
{
    AttachPlan p;
    if (kernel.hasBtfTracepoint(QStringLiteral("sched_process_exec"))) {
        p.groups.append(
            {{{"exec_btf_exec", QStringLiteral("tp_btf/sched_process_exec")}}, true, {}});
    } else if (kernel.hasTracepoint(QStringLiteral("sched/sched_process_exec"))) {
        p.groups.append(
            {{{"exec_tp_exec", QStringLiteral("tp/sched/sched_process_exec")}}, true, {}});
    } else {
        p.available = false;
        p.reason = QStringLiteral("the kernel has no sched_process_exec tracepoint (neither in "
                                  "its BTF nor in tracefs, which may need mounting)");
        return p;
    }
    if (!options.value(QStringLiteral("failed")).toBool())
        return p;
    const QString mode = options.value(QStringLiteral("attach"), QStringLiteral("auto")).toString();
    const bool any = mode == QLatin1String("auto");
    const bool compat = kernel.runsCompatTasks();
    // fexit on the handlers: only execs run a program, 32-bit ones included. auto takes it only
    // where every native handler can be hooked (Debian's 5.10 types __x64_sys_execveat wrongly
    // in its BTF): else a way that sees every failed exec.
    if (any || mode == QLatin1String("fexit")) {
        const QString execve = QLatin1String(nativeHandlerPrefix) + QStringLiteral("execve");
        QStringList untyped;
        for (const ExecCall &c : execCalls) {
            const QString handler = QLatin1String(nativeHandlerPrefix) + QLatin1String(c.syscall);
            if (!kernel.isSyscallHandler(handler))
                untyped << handler;
        }
        const bool canFexit = kernel.canFentry(execve) && !untyped.contains(execve);
        if (canFexit && (untyped.isEmpty() || !any)) {
            for (const ExecCall &c : execCalls) {
                const QString handler =
                    QLatin1String(nativeHandlerPrefix) + QLatin1String(c.syscall);
                if (!untyped.contains(handler))
                    p.groups.append({{{c.handlerExit, QStringLiteral("fexit/") + handler, true}},
                                     false,
                                     failedWhat(c.syscall)});
                else
                    p.addReason(QStringLiteral("%1 are not reported: the kernel's BTF does not "
                                               "type %2 as a syscall handler")
                                    .arg(failedWhat(c.syscall), handler));
            }
            for (const ExecCall &c : execCalls) {
                const QString handler = QLatin1String(c.compatHandler);
                if (compat && kernel.isSyscallHandler(handler))
                    p.groups.append({{{c.compatExit, QStringLiteral("fexit/") + handler, true}},
                                     false,
                                     QStringLiteral("32-bit processes' ") + failedWhat(c.syscall)});
            }
            return p;
        }
        if (!any) {
            const QString why = kernel.canFentry(execve) ? QStringLiteral("its BTF type is not a "
                                                                          "syscall handler's")
                                                         : kernel.fentryUnavailableReason();
            p.available = false;
            p.reason =
                QStringLiteral("attach=fexit: no fexit on %1 (%2)")
                    .arg(execve, why.isEmpty() ? QStringLiteral("not in the kernel's BTF") : why);
            return p;
        }
    }
    // The raw sys_exit sees both calls, also from 32-bit processes, with the caller's arguments;
    // but every syscall of the machine runs its program. So first only where 32-bit processes can
    // run (only it sees their calls), else only when nothing cheaper is there.
    const auto rawExit = [&] {
        if (!kernel.hasBtfTracepoint(QStringLiteral("sys_exit")))
            return false;
        p.groups.append(
            {{{"exec_btf_exit", QStringLiteral("tp_btf/sys_exit")}}, false, failedWhat(nullptr)});
        return true;
    };
    if ((any && compat) || mode == QLatin1String("sys_exit")) {
        if (rawExit())
            return p;
        if (!any) {
            p.available = false;
            p.reason = QStringLiteral(
                "attach=sys_exit: the kernel has no raw sys_exit tracepoint in its BTF");
            return p;
        }
    }
    QList<AttachGroup> classic;
    for (const ExecCall &c : execCalls) {
        const QString enter = QStringLiteral("syscalls/sys_enter_") + QLatin1String(c.syscall);
        const QString exit = QStringLiteral("syscalls/sys_exit_") + QLatin1String(c.syscall);
        if (kernel.hasTracepoint(enter) && kernel.hasTracepoint(exit))
            classic.append({{{c.tpEnter, QStringLiteral("tp/") + enter},
                             {c.tpExit, QStringLiteral("tp/") + exit}},
                            false,
                            failedWhat(c.syscall)});
    }
    if (!classic.isEmpty()) {
        p.groups += classic;
        if (compat)
            p.addReason(QStringLiteral("32-bit processes' failed execs are not reported: the "
                                       "per-syscall tracepoints do not fire for them"));
        return p;
    }
    // Neither cheaper way: the raw sys_exit after all (not tried yet only where no 32-bit
    // process runs).
    if (any && !compat && rawExit())
        return p;
    p.addReason(mode == QLatin1String("tracepoints")
                    ? QStringLiteral("attach=tracepoints: failed execs cannot be reported: no "
                                     "syscalls/sys_enter_execve in tracefs (which may need "
                                     "mounting)")
                    : QStringLiteral("failed execs cannot be reported: the kernel has neither "
                                     "fexit on the syscall handlers, nor the raw sys_exit "
                                     "tracepoint in its BTF, nor syscalls/sys_enter_execve in "
                                     "tracefs (which may need mounting)"));
    return p;
}

ProbeAvailability ExecProbe::availability(const KernelFeatures &kernel,
                                          const QVariantMap &options) const
{
    return availabilityOf(plan(kernel, options));
}

bool ExecProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    m_name = options.value(QStringLiteral("name")).toString().toUtf8();
    m_line = options.value(QStringLiteral("line")).toString().toUtf8();
    const qint64 maxArgs = options.value(QStringLiteral("maxArgs"), EXEC_MAX_ARGS).toLongLong();
    if (maxArgs < 1 || maxArgs > EXEC_MAX_ARGS) {
        *error = QStringLiteral("exec: maxArgs %1 is out of range (1 to %2)")
                     .arg(maxArgs)
                     .arg(EXEC_MAX_ARGS);
        return false;
    }
    const AttachPlan p = plan(kernel, options);
    return startSkeleton(p, options, error, [&](CommonFilters &, QString *) {
        // Only the classic tracepoints pair entry and exit through this map (and
        // sched_process_exec clears their entries): otherwise its preallocated 10240 entries
        // would be kernel memory for nothing.
        bool paired = false;
        for (const AttachGroup &g : p.groups)
            paired = paired || g.programs.first().name.startsWith("exec_tp_ent");
        if (!paired)
            bpf_map__set_max_entries(m_skel->maps.exec_pending, 1);
        m_skel->rodata->max_args = __u32(maxArgs);
        return true;
    });
}

bool ExecProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    exec_record r;
    if (size < sizeof(r))
        return false;
    memcpy(&r, data, sizeof(r));
    if (r.filename_len >= EXEC_FILENAME_MAX || r.args_len > EXEC_ARGS_MAX ||
        size < sizeof(r) + r.filename_len + r.args_len)
        return false;
    const char *p = static_cast<const char *>(data) + sizeof(r);
    ExecEvent e;
    e.timeNs = r.time_ns;
    e.pid = r.pid;
    e.cgroupId = r.cgroup_id;
    e.ppid = r.ppid;
    e.uid = r.uid;
    e.retval = r.retval;
    e.comm = m_strings.get(r.comm, qsizetype(qstrnlen(r.comm, sizeof(r.comm))));
    e.filename = m_strings.get(p + r.args_len, r.filename_len);
    const char *args = p;
    size_t pos = 0;
    while (pos < r.args_len) {
        const void *nul = memchr(args + pos, 0, r.args_len - pos);
        const size_t end = nul ? size_t(static_cast<const char *>(nul) - args) : r.args_len;
        if (e.argv.size() == EXEC_MAX_ARGS)
            return false;
        e.argv.append(QByteArray(args + pos, qsizetype(end - pos)));
        pos = end + 1;
    }
    e.argvTruncated = r.flags & EXEC_FLAG_ARGV_TRUNCATED;
    if ((!m_name.isEmpty() && !e.comm.contains(m_name)) ||
        (!m_line.isEmpty() && !e.argv.join(' ').contains(m_line))) {
        markFilteredRecord();
        return true;
    }
    out.exec.append(e);
    return true;
}

} // namespace bpflens
