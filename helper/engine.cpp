#include "helper/engine.h"

#include "helper/bpfaccess.h"

#include "core/cgroupfilter.h"
#include "core/cgroups.h"
#include "core/sessioninfo.h"
#include "helper/stackresolver.h"

#include <bpf/bpf.h>

#include <cerrno>
#include <ctime>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <linux/membarrier.h>
#include <optional>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace bpflens {

namespace {

void waitForRunningPrograms()
{
    // A detach unhooks the programs, but a run that had already begun on another CPU may still
    // be writing its record. BPF tracing programs run inside an RCU read-side section, and
    // MEMBARRIER_CMD_GLOBAL waits for a full RCU grace period (synchronize_rcu), so after it
    // every such run has committed or discarded its record. Where the kernel refuses it
    // (nohz_full, no membarrier) that tail stays as small as it was: best effort, not an error.
    syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
}

} // namespace

Engine::Engine() = default;

Engine::~Engine()
{
    stop();
}

quint64 Engine::monotonicNowNs()
{
    return bpflens::monotonicNowNs(); // the clock bpf_ktime_get_ns() reads, as sessions use it
}

const KernelFeatures &Engine::kernel() const
{
    if (!m_kernel)
        m_kernel = std::make_unique<KernelFeatures>();
    return *m_kernel;
}

namespace {

ProbeStatus statusOf(const ProbeInfo &info, const QString &refusal, const KernelFeatures &kernel)
{
    ProbeStatus s{info, {}};
    if (!refusal.isEmpty()) {
        s.availability.reason = refusal;
    } else if (auto probe = createProbe(info.id)) {
        QVariantMap defaults;
        QString ignored;
        ProbeCatalog::validate(info.id, {}, &defaults, &ignored);
        s.availability = probe->availability(kernel, defaults);
    } else {
        s.availability.reason = QStringLiteral("not built into this version");
    }
    return s;
}

} // namespace

QList<ProbeStatus> Engine::probes() const
{
    QList<ProbeStatus> out;
    const QString refusal = bpfRefusal();
    for (const ProbeInfo &info : ProbeCatalog::probes())
        out.append(statusOf(info, refusal, kernel()));
    return out;
}

std::optional<ProbeStatus> Engine::probe(const QString &id) const
{
    const ProbeInfo *info = ProbeCatalog::find(id);
    if (!info)
        return std::nullopt;
    return statusOf(*info, bpfRefusal(), kernel());
}

namespace {

// container= and unit= become the cgroup= filter of the one running cgroup they name
// (docs/containers.md); the options keep what was asked, and the cgroup it came to. running:
// the hierarchy's cgroups, walked once for all the probes of a start.
bool resolveWorkloadOptions(QVariantMap *options, std::optional<QList<CgroupPath>> *running,
                            QString *error)
{
    CgroupFilter filter;
    filter.container = options->value(QStringLiteral("container")).toString();
    filter.unit = options->value(QStringLiteral("unit")).toString();
    if (filter.isEmpty())
        return true;
    if (!options->value(QStringLiteral("cgroup")).toString().isEmpty()) {
        *error = QStringLiteral("cgroup= and %1 exclude each other: a filter is one cgroup")
                     .arg(filter.container.isEmpty() ? QStringLiteral("unit=")
                                                     : QStringLiteral("container="));
        return false;
    }
    if (!*running) {
        CgroupResolver cgroups;
        if (!cgroups.isAvailable()) {
            *error = QStringLiteral("%1: %2").arg(filter.describe(), cgroups.error());
            return false;
        }
        *running = cgroups.walk();
    }
    QByteArray path;
    if (!workloadCgroup(**running, filter, &path, error))
        return false;
    options->insert(QStringLiteral("cgroup"), QString::fromUtf8(path));
    return true;
}

} // namespace

bool Engine::start(QList<ProbeConfig> &requests, QString *error)
{
    Q_ASSERT(!isRunning());
    if (requests.isEmpty()) {
        *error = QStringLiteral("no probe selected");
        return false;
    }
    if (const QString refusal = bpfRefusal(); !refusal.isEmpty()) {
        *error = refusal;
        return false;
    }
    for (int i = 0; i < requests.size(); ++i) {
        for (int j = 0; j < i; ++j) {
            if (requests[i].id == requests[j].id) {
                *error = QStringLiteral("probe %1 is selected twice").arg(requests[i].id);
                return false;
            }
        }
    }
    // The kernel rejects other sizes only at load time, with a bare EINVAL.
    const quint32 page = quint32(sysconf(_SC_PAGESIZE));
    if (m_ringBufferBytes &&
        (m_ringBufferBytes < page || (m_ringBufferBytes & (m_ringBufferBytes - 1)))) {
        *error = QStringLiteral("ring buffer size %1 is not a power of two of at least %2 bytes")
                     .arg(m_ringBufferBytes)
                     .arg(page);
        return false;
    }
    std::vector<std::unique_ptr<Probe>> probes;
    QList<QVariantMap> normalized;
    std::optional<QList<CgroupPath>> runningCgroups;
    for (const ProbeConfig &req : std::as_const(requests)) {
        QVariantMap opts;
        if (!ProbeCatalog::validate(req.id, req.options, &opts, error))
            return false;
        if (!resolveWorkloadOptions(&opts, &runningCgroups, error)) {
            *error = QStringLiteral("probe %1: %2").arg(req.id, *error);
            return false;
        }
        auto probe = createProbe(req.id);
        if (!probe) {
            *error = QStringLiteral("unknown probe: %1").arg(req.id);
            return false;
        }
        if (req.file.isValid() != probe->takesUserFile(opts)) {
            *error = req.file.isValid()
                         ? QStringLiteral("probe %1 takes no file").arg(req.id)
                         : QStringLiteral("probe %1 needs the file its target names, opened by "
                                          "the caller")
                               .arg(req.id);
            return false;
        }
        if (req.file2.isValid() && !probe->takesSecondUserFile(opts)) {
            *error = QStringLiteral("probe %1 takes no second file").arg(req.id);
            return false;
        }
        probe->setUserFile(req.file, req.fileOffset);
        probe->setSecondUserFile(req.file2);
        const ProbeAvailability a = probe->availability(kernel(), opts);
        if (!a.available) {
            *error = QStringLiteral("probe %1 cannot run on this kernel: %2").arg(req.id, a.reason);
            return false;
        }
        normalized.append(opts);
        probes.push_back(std::move(probe));
    }

    // Run-time statistics cost a little per program run; they are on only while we record.
    m_statsFd = bpf_enable_stats(BPF_STATS_RUN_TIME);
    m_epollFd = epoll_create1(EPOLL_CLOEXEC);
    m_startNs = monotonicNowNs();
    // Ids from 1 for every recording: a consumer starts a new table with each one.
    m_stackResolver = std::make_unique<StackResolver>();
    m_cgroups = std::make_unique<CgroupResolver>();
    if (!m_cgroups->isAvailable())
        qWarning("%s", qPrintable(m_cgroups->error()));
    for (size_t i = 0; i < probes.size(); ++i) {
        QString why;
        // The checks above asked what each probe's start asks again: answered from the cache,
        // without the parsed BTF beside libbpf's own copy while the skeleton loads.
        kernel().releaseMemory();
        if (m_ringBufferBytes)
            probes[i]->setRingBufferBytes(m_ringBufferBytes);
        probes[i]->setStackResolver(m_stackResolver.get());
        if (!probes[i]->start(normalized[int(i)], kernel(), &why)) {
            *error = QStringLiteral("probe %1: %2").arg(requests[int(i)].id, why);
            for (size_t j = 0; j < i; ++j)
                probes[j]->stop();
            m_probes.clear();
            stop();
            return false;
        }
        const int fd = probes[i]->pollFd();
        if (fd >= 0) {
            epoll_event ev{};
            ev.events = EPOLLIN;
            ev.data.u64 = i;
            epoll_ctl(m_epollFd, EPOLL_CTL_ADD, fd, &ev);
        }
        requests[int(i)].options = normalized[int(i)];
        requests[int(i)].attachPath = probes[i]->attachPath();
    }
    m_probes = std::move(probes);
    m_kernel.reset();
    // The BTF libbpf parsed for each load (and ours) was freed: without this glibc keeps those
    // megabytes for the whole recording.
    returnFreeMemory();
    m_nextSnapshotNs.assign(m_probes.size(), 0);
    for (size_t i = 0; i < m_probes.size(); ++i)
        m_nextSnapshotNs[i] = m_startNs + m_probes[i]->intervalNs();
    return true;
}

void Engine::poll(int timeoutMs, RecordBatch &out)
{
    if (m_probes.empty())
        return;
    // Never sleep past the next histogram interval.
    quint64 now = monotonicNowNs();
    for (quint64 next : m_nextSnapshotNs) {
        const qint64 untilMs = next > now ? qint64((next - now) / 1000000ull) : 0;
        timeoutMs = int(qMin<qint64>(timeoutMs, untilMs));
    }
    epoll_event events[16];
    epoll_wait(m_epollFd, events, 16, qMax(timeoutMs, 0));
    // Records are batched in the kernel (no wake-up per record), so always drain everything.
    for (auto &probe : m_probes)
        probe->decodeWaiting(out);
    for (auto &probe : m_probes)
        probe->finishDecoded(out);
    takeNewStacks(out);
    takeNewCgroups(out, false);
    now = monotonicNowNs();
    for (size_t i = 0; i < m_probes.size(); ++i) {
        if (now >= m_nextSnapshotNs[i]) {
            m_probes[i]->snapshot(now, out);
            m_nextSnapshotNs[i] = now + m_probes[i]->intervalNs();
        }
    }
}

void Engine::stop(RecordBatch *out)
{
    // Detach first, then drain: the kernel keeps writing until the detach, and whatever it
    // wrote after a last drain would be neither delivered nor counted as lost.
    for (auto &probe : m_probes)
        probe->detach();
    if (!m_probes.empty() && out) {
        waitForRunningPrograms();
        for (auto &probe : m_probes)
            probe->decodeWaiting(*out);
        for (auto &probe : m_probes)
            probe->finishDecoded(*out);
        takeNewStacks(*out);
        takeNewCgroups(*out, true);
        // After the drain, so the stats count every record just delivered; the maps and the
        // lost counters are still mapped until the probes are stopped below.
        const quint64 now = monotonicNowNs();
        for (auto &probe : m_probes)
            probe->snapshot(now, *out);
    }
    for (auto &probe : m_probes)
        probe->stop();
    m_probes.clear();
    m_nextSnapshotNs.clear();
    if (m_epollFd >= 0)
        close(m_epollFd);
    m_epollFd = -1;
    if (m_statsFd >= 0)
        close(m_statsFd);
    m_statsFd = -1;
    m_stackResolver.reset();
    m_cgroups.reset();
}

void Engine::returnFreeMemory()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

const StackTable *Engine::stacks() const
{
    return m_stackResolver ? &m_stackResolver->table() : nullptr;
}

void Engine::takeNewCgroups(RecordBatch &out, bool last)
{
    if (!m_cgroups || !m_cgroups->isAvailable())
        return;
    // Events come in runs from one task: only a change of id is looked up.
    QSet<quint64> ids;
    quint64 previous = 0;
    forEachEventType([&]<typename E>() {
        if constexpr (hasCgroupId<E>) {
            for (const E &e : std::as_const(out.events<E>())) {
                if (e.cgroupId != previous) {
                    previous = e.cgroupId;
                    ids.insert(previous);
                }
            }
        }
    });
    out.cgroups += m_cgroups->resolve(ids);
    if (last)
        out.cgroups += m_cgroups->finish();
}

void Engine::takeNewStacks(RecordBatch &out)
{
    // The events just drained name these: they go into the same batch, which a consumer reads
    // definitions first.
    if (m_stackResolver)
        m_stackResolver->table().takeNewDefinitions(out);
}

} // namespace bpflens
