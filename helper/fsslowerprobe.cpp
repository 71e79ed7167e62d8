#include "helper/fsslowerprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "bpf/fsslower.records.h"
#include "fsslower.skel.h"

#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>

namespace bpflens {

namespace {

// The file systems and their functions of the same shape, in the order read, write, open,
// fsync. ext4 first: it is what the probe is for; the others where they are present.
struct FsFunctions
{
    const char *fs;
    const char *functions[4];
};
constexpr FsFunctions fileSystems[] = {
    {"ext4", {"ext4_file_read_iter", "ext4_file_write_iter", "ext4_file_open", "ext4_sync_file"}},
    {"xfs", {"xfs_file_read_iter", "xfs_file_write_iter", "xfs_file_open", "xfs_file_fsync"}},
    {"btrfs",
     {"btrfs_file_read_iter", "btrfs_file_write_iter", "btrfs_file_open", "btrfs_sync_file"}},
};
constexpr char opCodes[] = {'R', 'W', 'O', 'F'};
const char *const opNames[] = {"reads", "writes", "opens", "fsyncs"};

} // namespace

FsSlowerProbe::FsSlowerProbe()
    : SkeletonProbe(QStringLiteral("fsslower"))
{
}

FsSlowerProbe::~FsSlowerProbe() = default;

AttachPlan FsSlowerProbe::plan(const KernelFeatures &kernel, const QVariantMap &options,
                               QByteArray *ext4Ops)
{
    AttachPlan p;
    if (!kernel.hasBtf()) {
        p.available = false;
        p.reason = kernel.btfError();
        return p;
    }
    QStringList ext4Missing;
    QString ext4Why;
    const FunctionHooks functionHooks = FunctionHooks::fromOptions(options);
    for (const FsFunctions &fs : fileSystems) {
        const bool ext4 = qstrcmp(fs.fs, "ext4") == 0;
        for (int op = 0; op < 4; ++op) {
            // ext4's fsync tracepoints are preferred: stable, and there without fentry/kprobes.
            if (ext4 && opCodes[op] == 'F' &&
                kernel.hasBtfTracepoint(QStringLiteral("ext4_sync_file_enter")) &&
                kernel.hasBtfTracepoint(QStringLiteral("ext4_sync_file_exit"))) {
                p.groups.append(
                    {{{"fsslower_ext4_sync_enter", QStringLiteral("tp_btf/ext4_sync_file_enter")},
                      {"fsslower_ext4_sync_exit", QStringLiteral("tp_btf/ext4_sync_file_exit")}},
                     false,
                     QStringLiteral("ext4 fsyncs")});
                if (ext4Ops)
                    *ext4Ops += 'F';
                continue;
            }
            const QString fn = QString::fromLatin1(fs.functions[op]);
            AttachGroup g;
            g.required = false;
            g.what = QStringLiteral("%1 %2").arg(QLatin1String(fs.fs), QLatin1String(opNames[op]));
            QString why;
            g.programs = functionHooks.hook(kernel, "fsslower_", fn, &why);
            if (g.programs.isEmpty()) {
                // xfs and btrfs are simply absent on most systems: only ext4's gaps are news.
                if (ext4) {
                    ext4Missing.append(QLatin1String(opNames[op]));
                    if (ext4Why.isEmpty())
                        ext4Why = why;
                }
                continue;
            }
            p.groups.append(g);
            if (ext4 && ext4Ops)
                *ext4Ops += opCodes[op];
        }
    }
    p.noneAttached = QStringLiteral("no file-system hook attached");
    if (p.groups.isEmpty()) {
        p.available = false;
        p.reason = QStringLiteral("no hook for any file system: %1 (and no ext4_sync_file "
                                  "tracepoints)")
                       .arg(ext4Why);
        return p;
    }
    if (!ext4Missing.isEmpty()) {
        p.addReason(QStringLiteral("ext4 %1 are not reported: they need fentry or kprobes (%2)")
                        .arg(ext4Missing.join(QStringLiteral(", ")), ext4Why));
    }
    return p;
}

QByteArray FsSlowerProbe::ext4Operations(const KernelFeatures &kernel, const QVariantMap &options)
{
    QByteArray ops;
    plan(kernel, options, &ops);
    return ops;
}

ProbeAvailability FsSlowerProbe::availability(const KernelFeatures &kernel,
                                              const QVariantMap &options) const
{
    return availabilityOf(plan(kernel, options));
}

bool FsSlowerProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel,
                            QString *error)
{
    return startSkeleton(plan(kernel, options), options, error, [&](CommonFilters &, QString *) {
        m_skel->rodata->min_ns =
            quint64(options.value(QStringLiteral("minLatencyUs"), 10000).toLongLong()) * 1000u;
        return true;
    });
}

bool FsSlowerProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    fsslower_record r;
    if (size < sizeof(r))
        return false;
    memcpy(&r, data, sizeof(r));
    if (r.name_len > FSSLOWER_NAME_MAX || size < sizeof(r) + r.name_len)
        return false;
    if (r.op != 'R' && r.op != 'W' && r.op != 'O' && r.op != 'F')
        return false;
    FsSlowEvent e;
    e.timeNs = r.time_ns;
    e.pid = r.pid;
    e.cgroupId = r.cgroup_id;
    e.op = r.op;
    e.bytes = r.bytes;
    e.offset = r.offset;
    e.latencyNs = r.latency_ns;
    e.fs = QByteArray(r.fs, int(qstrnlen(r.fs, sizeof(r.fs))));
    e.comm = QByteArray(r.comm, int(qstrnlen(r.comm, sizeof(r.comm))));
    e.filename = QByteArray(static_cast<const char *>(data) + sizeof(r), int(r.name_len));
    out.fsSlow.append(e);
    return true;
}

} // namespace bpflens
