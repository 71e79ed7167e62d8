#include "helper/profileprobe.h"

#include <linux/types.h>

#include "bpf/profile.records.h"
#include "helper/stackresolver.h"
#include "profile.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace bpflens {

namespace {

// The sampling event: cycles where the CPU has a PMU, else the timer of the cpu-clock
// software event (VMs without a virtual PMU, this machine).
struct SampleEvent
{
    quint32 type;
    quint64 config;
    const char *name;
};
constexpr SampleEvent cycles{PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles"};
constexpr SampleEvent cpuClock{PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "cpu-clock"};

perf_event_attr attrOf(const SampleEvent &e, quint64 frequency)
{
    perf_event_attr attr{};
    attr.type = e.type;
    attr.config = e.config;
    attr.freq = 1;
    attr.sample_freq = frequency;
    return attr;
}

// Which event this machine samples with, or why none: cycles when it opens on the first CPU.
bool chooseEvent(quint64 frequency, SampleEvent *chosen, QString *why)
{
    const QList<int> cpus = onlineCpus();
    if (cpus.isEmpty()) {
        *why = QStringLiteral("cannot read the online CPUs");
        return false;
    }
    for (const SampleEvent &e : {cycles, cpuClock}) {
        const int fd = openCpuPerfEvent(attrOf(e, frequency), cpus.first());
        if (fd >= 0) {
            close(fd);
            *chosen = e;
            return true;
        }
        *why = QStringLiteral("perf_event_open(%1): %2")
                   .arg(QLatin1String(e.name), QString::fromLocal8Bit(strerror(errno)));
    }
    return false;
}

// The profile ring buffer grows to hold bursts, up to this.
constexpr quint64 MaxRingBufferBytes = 32u << 20;

quint64 frequencyOption(const QVariantMap &options)
{
    return quint64(qMax<qint64>(1, options.value(QStringLiteral("frequency"), 99).toLongLong()));
}

QString pathOf(const SampleEvent &e, quint64 frequency)
{
    return QStringLiteral("perf_event/%1 %2 Hz").arg(QLatin1String(e.name)).arg(frequency);
}

} // namespace

ProfileProbe::ProfileProbe()
    : SkeletonProbe(QStringLiteral("profile"))
{
}

ProfileProbe::~ProfileProbe()
{
    stop();
}

ProbeAvailability ProfileProbe::availability(const KernelFeatures &kernel,
                                             const QVariantMap &options) const
{
    ProbeAvailability a;
    if (!kernel.hasBtf()) {
        a.reason = kernel.btfError();
        return a;
    }
    const quint64 frequency = frequencyOption(options);
    SampleEvent e{};
    if (!chooseEvent(frequency, &e, &a.reason))
        return a;
    a.available = true;
    a.attachPath = pathOf(e, frequency);
    return a;
}

bool ProfileProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    if (!kernel.hasBtf()) {
        *error = kernel.btfError();
        return false;
    }
    if (!stackResolver()) {
        *error = QStringLiteral("no stack table (the probe runs in an Engine)");
        return false;
    }
    const quint64 frequency = frequencyOption(options);
    SampleEvent event{};
    if (!chooseEvent(frequency, &event, error))
        return false;
    m_kernelOnly = options.value(QStringLiteral("kernelOnly")).toBool();
    const bool userOnly = options.value(QStringLiteral("userOnly")).toBool();
    if (m_kernelOnly && userOnly) {
        *error = QStringLiteral("kernelOnly and userOnly exclude each other");
        return false;
    }

    const quint32 stackBytes =
        quint32(qBound(qint64(0), options.value(QStringLiteral("stackBytes"), 16384).toLongLong(),
                       qint64(USER_STACK_MAX_COPY)));
    // A sample is some 18 KiB with the default stack copy, so the engine's 4 MiB hold about a
    // second of samples on two CPUs: one slow drain (the symbolizer parsing a new process's
    // modules while a build starts hundreds) and the kernel drops samples. Room for about two
    // seconds of every CPU sampling, bounded, and never less than the engine asked for.
    const quint64 wanted = 2 * frequency * quint64(qMax(1, int(onlineCpus().size()))) *
                           (sizeof(profile_sample) + stackBytes);
    quint64 bytes = ringBufferBytes();
    while (bytes < wanted && bytes < MaxRingBufferBytes)
        bytes *= 2;
    setRingBufferBytes(quint32(bytes));

    m_skel = profile_bpf::open();
    if (!checkOpened(m_skel, error))
        return false;
    const int cpus = libbpf_num_possible_cpus();
    if (cpus <= 0 || bpf_map__set_max_entries(m_skel->maps.profile_rb, ringBufferBytes()) ||
        bpf_map__set_max_entries(m_skel->maps.profile_scratch, quint32(cpus))) {
        *error = QStringLiteral("cannot size the maps: %1").arg(lastLibbpfError(-errno));
        return false;
    }
    const CommonFilters f = commonFilters(options);
    auto *ro = m_skel->rodata;
    setCommonRodata(ro, f);
    ro->include_idle = options.value(QStringLiteral("idle")).toBool();
    ro->kernel_only = m_kernelOnly;
    ro->user_only = userOnly;
    ro->stack_copy_bytes = stackBytes;
    releaseKernelMemory();
    if (!checkLoaded(profile_bpf::load(m_skel), error))
        return false;
    if (!applyCgroupFilter(bpf_map__fd(m_skel->maps.cgroup_map), f.cgroupPath, error))
        return false;
    trackObject(m_skel->obj);
    if (!setRingBuffer(bpf_map__fd(m_skel->maps.profile_rb), error))
        return false;

    if (!m_events.open(attrOf(event, frequency), m_skel->progs.profile_tick, event.name, error))
        return false;
    if (!userOnly)
        stackResolver()->loadKernelSymbols();
    QString path = pathOf(event, frequency);
    QString why;
    if (!m_kernelOnly && !stackResolver()->startSymbolizer(&why))
        path += QStringLiteral(" (user stacks by frame pointers, unsymbolised: %1)").arg(why);
    setAttachPath(path);
    return true;
}

void ProfileProbe::doDetach()
{
    m_events.close();
    SkeletonProbe::doDetach();
}

void ProfileProbe::doStop()
{
    m_events.close();
    SkeletonProbe::doStop();
    m_pending.clear();
    m_stacks.clear();
}

bool ProfileProbe::decode(const void *data, size_t size, RecordBatch &)
{
    profile_sample s;
    if (size < sizeof(s))
        return false;
    memcpy(&s, data, sizeof(s));
    if (size != sizeof(s) + s.st.stack_size ||
        !m_stacks.add(stackResolver(), s.pid, s.tid, s.st,
                      static_cast<const char *>(data) + sizeof(s), m_kernelOnly))
        return false;
    CpuSampleEvent e;
    e.timeNs = s.time_ns;
    e.cpu = s.cpu;
    e.pid = s.pid;
    e.cgroupId = s.cgroup_id;
    e.tid = s.tid;
    e.comm = QByteArray(s.comm, int(qstrnlen(s.comm, sizeof(s.comm))));
    m_pending.push_back(std::move(e));
    return true;
}

void ProfileProbe::finishDrain(RecordBatch &out)
{
    m_stacks.resolveInto(stackResolver(), m_pending, out);
}

} // namespace bpflens
