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
    const QString what = QStringLiteral("failed execs");
    if (kernel.hasBtfTracepoint(QStringLiteral("sys_enter")) &&
        kernel.hasBtfTracepoint(QStringLiteral("sys_exit"))) {
        p.groups.append({{{"exec_btf_enter", QStringLiteral("tp_btf/sys_enter")},
                          {"exec_btf_exit", QStringLiteral("tp_btf/sys_exit")}},
                         false,
                         what});
        return p;
    }
    bool any = false;
    const struct
    {
        const char *syscall, *enter, *exit;
    } classic[] = {{"execve", "exec_tp_ent_ve", "exec_tp_ext_ve"},
                   {"execveat", "exec_tp_ent_vat", "exec_tp_ext_vat"}};
    for (const auto &c : classic) {
        const QString enter = QStringLiteral("syscalls/sys_enter_") + QLatin1String(c.syscall);
        const QString exit = QStringLiteral("syscalls/sys_exit_") + QLatin1String(c.syscall);
        if (kernel.hasTracepoint(enter) && kernel.hasTracepoint(exit)) {
            p.groups.append(
                {{{c.enter, QStringLiteral("tp/") + enter}, {c.exit, QStringLiteral("tp/") + exit}},
                 false,
                 what + QStringLiteral(" (") + QLatin1String(c.syscall) + QStringLiteral(")")});
            any = true;
        }
    }
    if (!any)
        p.addReason(QStringLiteral("failed execs cannot be reported: no sys_enter/sys_exit "
                                   "tracepoint (neither in BTF nor in tracefs)"));
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
    return startSkeleton(plan(kernel, options), options, error, [&](CommonFilters &, QString *) {
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
