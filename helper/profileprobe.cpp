#include "helper/profileprobe.h"

#include <linux/types.h>

#include "bpf/profile.records.h"
#include "helper/stackresolver.h"
#include "profile.skel.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <QFile>

#include <cerrno>
#include <cstring>
#include <linux/perf_event.h>
#include <sys/syscall.h>
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

int openEvent(const SampleEvent &e, int cpu, quint64 frequency)
{
    perf_event_attr attr{};
    attr.size = sizeof(attr);
    attr.type = e.type;
    attr.config = e.config;
    attr.freq = 1;
    attr.sample_freq = frequency;
    return int(syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC));
}

// "0-3,5,7-8" from /sys/devices/system/cpu/online.
QList<int> onlineCpus()
{
    QList<int> cpus;
    QFile f(QStringLiteral("/sys/devices/system/cpu/online"));
    if (!f.open(QIODevice::ReadOnly))
        return cpus;
    for (const QByteArray &range : f.readAll().trimmed().split(',')) {
        const qsizetype dash = range.indexOf('-');
        bool ok1 = false, ok2 = false;
        const int first = range.left(dash < 0 ? range.size() : dash).toInt(&ok1);
        const int last = dash < 0 ? first : range.mid(dash + 1).toInt(&ok2);
        if (!ok1 || (dash >= 0 && !ok2))
            continue;
        for (int c = first; c <= last && c < 65536; ++c)
            cpus.append(c);
    }
    return cpus;
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
        const int fd = openEvent(e, cpus.first(), frequency);
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
    if (!checkLoaded(profile_bpf::load(m_skel), error))
        return false;
    if (!applyCgroupFilter(bpf_map__fd(m_skel->maps.cgroup_map), f.cgroupPath, error))
        return false;
    trackObject(m_skel->obj);
    if (!setRingBuffer(bpf_map__fd(m_skel->maps.profile_rb), error))
        return false;

    for (int cpu : onlineCpus()) {
        const int fd = openEvent(event, cpu, frequency);
        if (fd < 0) {
            if (errno == ENODEV) // went offline since the list was read
                continue;
            *error = QStringLiteral("perf_event_open(%1, CPU %2): %3")
                         .arg(QLatin1String(event.name))
                         .arg(cpu)
                         .arg(QString::fromLocal8Bit(strerror(errno)));
            return false;
        }
        m_perfFds.append(fd);
        bpf_link *link = bpf_program__attach_perf_event(m_skel->progs.profile_tick, fd);
        if (!link) {
            *error = QStringLiteral("cannot attach to the %1 event of CPU %2: %3")
                         .arg(QLatin1String(event.name))
                         .arg(cpu)
                         .arg(lastLibbpfError(-errno));
            return false;
        }
        m_perfLinks.append(link);
    }
    if (!userOnly)
        stackResolver()->loadKernelSymbols();
    QString path = pathOf(event, frequency);
    QString why;
    if (!m_kernelOnly && !stackResolver()->startSymbolizer(&why))
        path += QStringLiteral(" (user stacks by frame pointers, unsymbolised: %1)").arg(why);
    setAttachPath(path);
    return true;
}

void ProfileProbe::closeEvents()
{
    destroyLinks(&m_perfLinks);
    for (int fd : std::as_const(m_perfFds))
        close(fd);
    m_perfFds.clear();
}

void ProfileProbe::doDetach()
{
    closeEvents();
    SkeletonProbe::doDetach();
}

void ProfileProbe::doStop()
{
    closeEvents();
    SkeletonProbe::doStop();
    m_pending.clear();
    m_users.clear();
}

bool ProfileProbe::decode(const void *data, size_t size, RecordBatch &)
{
    profile_sample s;
    if (size < sizeof(s))
        return false;
    memcpy(&s, data, sizeof(s));
    if (s.kstack_len > PROFILE_MAX_FRAMES || s.ustack_len > PROFILE_MAX_FRAMES ||
        s.stack_size > USER_STACK_MAX_COPY || size != sizeof(s) + s.stack_size)
        return false;
    Pending p;
    p.event.timeNs = s.time_ns;
    p.event.cpu = s.cpu;
    p.event.pid = s.pid;
    p.event.cgroupId = s.cgroup_id;
    p.event.tid = s.tid;
    p.event.comm = QByteArray(s.comm, int(qstrnlen(s.comm, sizeof(s.comm))));
    p.kernel.reserve(s.kstack_len);
    for (int i = 0; i < s.kstack_len; ++i)
        p.kernel.append(s.kstack[i]);
    p.sampledInKernel = !(s.flags & PROFILE_IN_USER);
    p.kernelTruncated = s.kstack_len == PROFILE_MAX_FRAMES;
    p.noUser = m_kernelOnly || (s.flags & PROFILE_NO_USER);
    if (!p.noUser) {
        UserSample u;
        u.pid = s.pid;
        u.tid = s.tid;
        u.regs.valid = s.flags & PROFILE_USER_REGS;
        if (u.regs.valid)
            std::copy(std::begin(s.regs), std::end(s.regs), u.regs.dwarf.begin());
        u.stack = QByteArray(static_cast<const char *>(data) + sizeof(s), int(s.stack_size));
        u.framePointerIps.reserve(s.ustack_len);
        for (int i = 0; i < s.ustack_len; ++i)
            u.framePointerIps.append(s.ustack[i]);
        stackResolver()->capture(s.pid);
        p.user = m_users.size();
        m_users.append(std::move(u));
    }
    m_pending.push_back(std::move(p));
    return true;
}

void ProfileProbe::finishDrain(RecordBatch &out)
{
    if (m_pending.empty())
        return;
    StackResolver *r = stackResolver();
    // One request for the whole drain: the child reads each process's maps once.
    const QList<SymbolizedStack> resolved = r->resolve(m_users);
    auto &events = out.events<CpuSampleEvent>();
    for (Pending &p : m_pending) {
        QList<quint32> frames;
        quint8 flags = 0;
        for (qsizetype i = 0; i < p.kernel.size(); ++i)
            frames.append(r->kernelFrame(p.kernel[i], i > 0 || !p.sampledInKernel));
        if (p.kernelTruncated)
            flags |= KernelStackTruncated;
        if (p.user < 0) {
            flags |= NoUserStack;
        } else if (p.user < resolved.size() && (!resolved[p.user].frames.isEmpty() ||
                                                m_users[p.user].framePointerIps.isEmpty())) {
            const SymbolizedStack &s = resolved[p.user];
            for (const SymbolizedFrame &f : s.frames)
                frames.append(r->userFrame(f));
            if (s.truncated)
                flags |= UserStackTruncated;
            if (s.usedFramePointers)
                flags |= UserFramePointers;
        } else {
            // No symbolizer, or nothing it could unwind from (no registers): the frame-pointer
            // chain, as absolute addresses.
            const UserSample &u = m_users[p.user];
            for (quint64 ip : u.framePointerIps)
                frames.append(r->unknownUserFrame(ip));
            flags |= UserFramePointers;
            if (u.framePointerIps.size() >= PROFILE_MAX_FRAMES)
                flags |= UserStackTruncated;
        }
        p.event.stackId = r->stack(flags, frames);
        events.append(std::move(p.event));
    }
    m_pending.clear();
    m_users.clear();
}

} // namespace bpflens
