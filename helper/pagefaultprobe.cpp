#include "helper/pagefaultprobe.h"

#include <linux/types.h> // before the plain-C record header

#include "bpf/pagefault.records.h"
#include "pagefault.skel.h"

#include "helper/stackresolver.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace bpflens {

namespace {

struct FaultEvent
{
    quint64 config;
    const char *name; // perf's
};
constexpr FaultEvent minorFaults{PERF_COUNT_SW_PAGE_FAULTS_MIN, "minor-faults"};
constexpr FaultEvent majorFaults{PERF_COUNT_SW_PAGE_FAULTS_MAJ, "major-faults"};

// A burst of faults (a process touching a large buffer) comes faster than one drain takes
// with the symbolizer: room for some 2000 records of 16.5 KiB (the default stack copy), or
// 90000 of some 350 bytes without it, never less than the engine asked.
constexpr quint64 WantedRingBufferBytes = 32u << 20;

perf_event_attr attrOf(const FaultEvent &e, quint32 every)
{
    perf_event_attr attr{};
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = e.config;
    attr.sample_period = every;
    // the faulting address, as ctx->addr of the program
    attr.sample_type = PERF_SAMPLE_ADDR;
    return attr;
}

quint32 everyOption(const QVariantMap &options)
{
    const qint64 every = options.value(QStringLiteral("every"), 1).toLongLong();
    return quint32(qBound(qint64(1), every, qint64(1000000)));
}

// Whether the kernel lets a perf event program call bpf_find_vma (5.17).
bool hasFindVma()
{
    return libbpf_probe_bpf_helper(BPF_PROG_TYPE_PERF_EVENT, BPF_FUNC_find_vma, nullptr) == 1;
}

// Opens the events on the first CPU: why they cannot be opened, or "".
QString cannotOpen(quint32 every)
{
    const QList<int> cpus = onlineCpus();
    if (cpus.isEmpty())
        return QStringLiteral("cannot read the online CPUs");
    for (const FaultEvent &e : {minorFaults, majorFaults}) {
        const int fd = openCpuPerfEvent(attrOf(e, every), cpus.first());
        if (fd < 0)
            return QStringLiteral("perf_event_open(%1): %2")
                .arg(QLatin1String(e.name), QString::fromLocal8Bit(strerror(errno)));
        close(fd);
    }
    return {};
}

QString pathOf(quint32 every, bool findVma)
{
    QString path = QStringLiteral("perf_event/minor-faults,major-faults ");
    path += every == 1 ? QStringLiteral("every fault")
                       : QStringLiteral("one fault in %1 per CPU").arg(every);
    path += findVma ? QStringLiteral(", address kinds by bpf_find_vma")
                    : QStringLiteral(", address kinds unknown (the kernel has no bpf_find_vma "
                                     "for perf event programs: 5.17 and later)");
    return path;
}

} // namespace

PageFaultProbe::PageFaultProbe()
    : SkeletonProbe(QStringLiteral("pagefault"))
{
}

PageFaultProbe::~PageFaultProbe()
{
    stop();
}

ProbeAvailability PageFaultProbe::availability(const KernelFeatures &kernel,
                                               const QVariantMap &options) const
{
    ProbeAvailability a;
    if (!kernel.hasBtf()) {
        a.reason = kernel.btfError();
        return a;
    }
    const quint32 every = everyOption(options);
    a.reason = cannotOpen(every);
    if (!a.reason.isEmpty())
        return a;
    a.available = true;
    a.attachPath = pathOf(every, hasFindVma());
    return a;
}

bool PageFaultProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel,
                             QString *error)
{
    if (!kernel.hasBtf()) {
        *error = kernel.btfError();
        return false;
    }
    if (!stackResolver()) {
        *error = QStringLiteral("no stack table (the probe runs in an Engine)");
        return false;
    }
    m_every = everyOption(options);
    if (const QString why = cannotOpen(m_every); !why.isEmpty()) {
        *error = why;
        return false;
    }
    const quint32 stackBytes =
        quint32(qBound(qint64(0), options.value(QStringLiteral("stackBytes"), 16384).toLongLong(),
                       qint64(USER_STACK_MAX_COPY)));
    quint64 bytes = ringBufferBytes();
    while (bytes < WantedRingBufferBytes)
        bytes *= 2;
    setRingBufferBytes(quint32(bytes));

    m_skel = pagefault_bpf::open();
    if (!checkOpened(m_skel, error))
        return false;
    const int cpus = libbpf_num_possible_cpus();
    if (cpus <= 0 || bpf_map__set_max_entries(m_skel->maps.pagefault_rb, ringBufferBytes()) ||
        bpf_map__set_max_entries(m_skel->maps.pagefault_scratch, quint32(cpus))) {
        *error = QStringLiteral("cannot size the maps: %1").arg(lastLibbpfError(-errno));
        return false;
    }
    // The pair with bpf_find_vma where the kernel has it; the other would not load.
    const bool findVma = hasFindVma();
    bpf_program *minor =
        findVma ? m_skel->progs.pagefault_minor_vma : m_skel->progs.pagefault_minor;
    bpf_program *major =
        findVma ? m_skel->progs.pagefault_major_vma : m_skel->progs.pagefault_major;
    for (bpf_program *p : {m_skel->progs.pagefault_minor_vma, m_skel->progs.pagefault_major_vma,
                           m_skel->progs.pagefault_minor, m_skel->progs.pagefault_major})
        bpf_program__set_autoload(p, p == minor || p == major);
    const CommonFilters f = commonFilters(options);
    setCommonRodata(m_skel->rodata, f);
    m_skel->rodata->stack_copy_bytes = stackBytes;
    m_skel->rodata->recorder_tgid = f.tgid || f.tid ? 0 : quint32(getpid());
    releaseKernelMemory();
    if (!checkLoaded(pagefault_bpf::load(m_skel), error))
        return false;
    if (!applyCgroupFilter(bpf_map__fd(m_skel->maps.cgroup_map), f.cgroupPath, error))
        return false;
    trackObject(m_skel->obj);
    if (!setRingBuffer(bpf_map__fd(m_skel->maps.pagefault_rb), error))
        return false;
    if (!m_events.open(attrOf(minorFaults, m_every), minor, minorFaults.name, error) ||
        !m_events.open(attrOf(majorFaults, m_every), major, majorFaults.name, error))
        return false;
    stackResolver()->loadKernelSymbols();
    QString path = pathOf(m_every, findVma);
    QString why;
    if (!stackResolver()->startSymbolizer(&why))
        path += QStringLiteral(" (user stacks by frame pointers, unsymbolised: %1)").arg(why);
    setAttachPath(path);
    return true;
}

void PageFaultProbe::doDetach()
{
    m_events.close();
    SkeletonProbe::doDetach();
}

void PageFaultProbe::doStop()
{
    m_events.close();
    SkeletonProbe::doStop();
    m_pending.clear();
    m_stacks.clear();
}

bool PageFaultProbe::decode(const void *data, size_t size, RecordBatch &)
{
    pagefault_sample s;
    if (size < sizeof(s))
        return false;
    memcpy(&s, data, sizeof(s));
    if (s.kstack_len > SAMPLE_MAX_FRAMES || s.ustack_len > SAMPLE_MAX_FRAMES ||
        s.stack_size > USER_STACK_MAX_COPY ||
        size != sizeof(s) + s.stack_size + (size_t(s.kstack_len) + s.ustack_len) * 8 ||
        s.major > 1 || s.kind > PAGEFAULT_HEAP)
        return false;
    sample_stacks st;
    st.flags = s.flags;
    st.kstack_len = s.kstack_len;
    st.ustack_len = s.ustack_len;
    st.stack_size = s.stack_size;
    st.reserved = 0;
    memcpy(st.regs, s.regs, sizeof(st.regs));
    if (!m_stacks.addPacked(stackResolver(), s.pid, s.tid, st,
                            static_cast<const char *>(data) + sizeof(s)))
        return false;
    PageFaultEvent e;
    e.timeNs = s.time_ns;
    e.pid = s.pid;
    e.tid = s.tid;
    e.comm = QByteArray(s.comm, int(qstrnlen(s.comm, sizeof(s.comm))));
    e.major = s.major;
    e.kind = s.kind;
    e.address = s.addr;
    e.weight = m_every;
    e.cgroupId = s.cgroup_id;
    m_pending.push_back(std::move(e));
    return true;
}

void PageFaultProbe::finishDrain(RecordBatch &out)
{
    m_stacks.resolveInto(stackResolver(), m_pending, out);
}

} // namespace bpflens
