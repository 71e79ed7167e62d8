#include "runqlatprobe.h"

#include <linux/types.h>

#include "runqlat.h"
#include "runqlat.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace bpflens {

namespace {

const char *const hookNames[] = {"sched_wakeup", "sched_wakeup_new", "sched_switch"};

QString tpBtf(const char *name)
{
    return QStringLiteral("tp_btf/") + QLatin1String(name);
}

// A cgroup v2 directory's inode number is the cgroup's id (kernfs node id), which the BPF side
// compares with the measured task's cgroup and its ancestors.
bool cgroupId(const QString &cgroupPath, quint64 *id, QString *error)
{
    QString path = cgroupPath;
    if (!path.startsWith(QStringLiteral("/sys/fs/cgroup")))
        path = QStringLiteral("/sys/fs/cgroup/") + cgroupPath;
    struct stat st
    {
    };
    if (stat(path.toLocal8Bit().constData(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        *error = QStringLiteral("cgroup %1: %2")
                     .arg(path, QString::fromLocal8Bit(strerror(errno ? errno : ENOTDIR)));
        return false;
    }
    *id = quint64(st.st_ino);
    return true;
}

} // namespace

RunqlatProbe::RunqlatProbe()
    : Probe(QStringLiteral("runqlat"))
{
}

RunqlatProbe::~RunqlatProbe()
{
    stop();
}

ProbeAvailability RunqlatProbe::availability(const KernelFeatures &kernel,
                                             const QVariantMap &) const
{
    ProbeAvailability a;
    if (!kernel.hasBtf()) {
        a.reason = kernel.btfError();
        return a;
    }
    QStringList parts;
    for (const char *name : hookNames) {
        // The switch needs both tasks and the previous one's state: only the BTF tracepoint
        // (or a raw one) hands over the task_structs.
        if (!kernel.hasBtfTracepoint(QLatin1String(name))) {
            a.reason = QStringLiteral("the kernel has no BTF tracepoint %1").arg(tpBtf(name));
            return a;
        }
        parts.append(tpBtf(name));
    }
    a.available = true;
    a.attachPath = parts.join(QStringLiteral(", "));
    return a;
}

bool RunqlatProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    const ProbeAvailability a = availability(kernel, options);
    if (!a.available) {
        *error = a.reason;
        return false;
    }
    m_skel = runqlat_bpf__open();
    if (!m_skel) {
        *error = QStringLiteral("cannot open the BPF object: %1").arg(lastLibbpfError(-errno));
        return false;
    }
    const CommonFilters f = commonFilters(options);
    auto *ro = m_skel->rodata;
    ro->filter_tgid = f.tgid;
    ro->filter_tid = f.tid;
    memcpy(const_cast<char *>(ro->filter_comm), f.comm.constData(), size_t(f.comm.size()));
    if (!f.cgroupPath.isEmpty()) {
        quint64 id = 0;
        if (!cgroupId(f.cgroupPath, &id, error))
            return false;
        ro->filter_cgroup_id = id;
    }
    const bool perProcess = options.value(QStringLiteral("perProcess")).toBool();
    const bool perThread = options.value(QStringLiteral("perThread")).toBool();
    ro->targ_per_process = perProcess;
    ro->targ_per_thread = perThread && !perProcess;
    m_keyed = perProcess || perThread;
    m_unit = options.value(QStringLiteral("units")).toString() == QLatin1String("msecs")
                 ? TimeUnit::Milliseconds
                 : TimeUnit::Microseconds;
    ro->unit_div = nanosecondsPer(m_unit);
    if (histogramKeyLimit())
        bpf_map__set_max_entries(m_skel->maps.hists, histogramKeyLimit());

    if (int err = runqlat_bpf__load(m_skel)) {
        *error = QStringLiteral("cannot load the BPF programs: %1").arg(lastLibbpfError(err));
        return false;
    }
    trackObject(m_skel->obj);

    // All three are needed: without the wakeups nothing starts, without the switch nothing ends.
    struct
    {
        bpf_program *prog;
        bpf_link **link;
        const char *name;
    } const parts[] = {
        {m_skel->progs.sched_wakeup, &m_skel->links.sched_wakeup, hookNames[0]},
        {m_skel->progs.sched_wakeup_new, &m_skel->links.sched_wakeup_new, hookNames[1]},
        {m_skel->progs.sched_switch, &m_skel->links.sched_switch, hookNames[2]},
    };
    QStringList attached;
    for (const auto &p : parts) {
        *p.link = bpf_program__attach(p.prog);
        if (!*p.link) {
            *error =
                QStringLiteral("cannot attach %1: %2").arg(tpBtf(p.name), lastLibbpfError(-errno));
            return false;
        }
        attached.append(tpBtf(p.name));
    }
    setAttachPath(attached.join(QStringLiteral(", ")));
    return true;
}

void RunqlatProbe::doStop()
{
    runqlat_bpf__destroy(m_skel);
    m_skel = nullptr;
}

void RunqlatProbe::doDetach()
{
    if (m_skel)
        runqlat_bpf__detach(m_skel);
}

quint64 RunqlatProbe::kernelHistogramFull() const
{
    return m_skel ? __atomic_load_n(&m_skel->bss->hist_full, __ATOMIC_RELAXED) : 0;
}

quint32 RunqlatProbe::histogramMapKeys() const
{
    return m_skel ? bpf_map__max_entries(m_skel->maps.hists) : 0;
}

void RunqlatProbe::readHistograms()
{
    if (!m_skel)
        return;
    const int fd = bpf_map__fd(m_skel->maps.hists);
    runqlat_key key{}, next{};
    const runqlat_key *prev = nullptr;
    while (bpf_map_get_next_key(fd, prev, &next) == 0) {
        key = next;
        prev = &key;
        bpflens_hist h;
        if (bpf_map_lookup_elem(fd, &key, &h) != 0)
            continue;
        Log2Histogram cumulative(m_unit);
        for (int i = 0; i < BPFLENS_MAX_SLOTS; ++i) {
            if (h.slots[i])
                cumulative.addToSlot(i, h.slots[i]);
        }
        cumulative.setSum(h.sum);
        const QString name = m_keyed
                                 ? QStringLiteral("%1 %2").arg(key.id).arg(QString::fromLocal8Bit(
                                       key.comm, int(qstrnlen(key.comm, sizeof(key.comm)))))
                                 : QString();
        emitHistogram(name, cumulative);
    }
}

} // namespace bpflens
