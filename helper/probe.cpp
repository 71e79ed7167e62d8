#include "helper/probe.h"

#include "core/cgroups.h"
#include "helper/kernelfeatures.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bpflens {

Probe::Probe(const QString &id)
    : m_id(id)
    , m_info(ProbeCatalog::find(id))
{
    Q_ASSERT_X(m_info, "Probe", "every probe must be in the catalog");
}

Probe::~Probe()
{
    // Subclasses stop in their own destructor (doStop needs their skeleton); this is the net.
    Q_ASSERT(!m_running);
}

bool Probe::start(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    Q_ASSERT(!m_running);
    m_eventsSeen = 0;
    m_malformed = 0;
    m_lastHistograms.clear();
    m_lastSnapshotNs = 0;
    m_lastHistogramFull = 0;
    const qint64 intervalMs = options.value(QStringLiteral("interval"), 1000).toLongLong();
    m_intervalNs = quint64(qMax<qint64>(intervalMs, 10)) * 1000000ull;
    m_startingKernel = &kernel;
    const bool started = doStart(options, kernel, error);
    m_startingKernel = nullptr;
    if (!started) {
        doStop();
        stop();
        return false;
    }
    m_running = true;
    m_attached = true;
    return true;
}

void Probe::releaseKernelMemory() const
{
    if (m_startingKernel)
        m_startingKernel->releaseMemory();
}

void Probe::detach()
{
    if (m_attached)
        doDetach();
    m_attached = false;
}

void Probe::stop()
{
    if (m_running)
        doStop();
    m_running = false;
    m_attached = false;
    ring_buffer__free(m_ringBuffer);
    m_ringBuffer = nullptr;
    m_histogramMap = nullptr;
    for (int fd : std::as_const(m_progFds))
        close(fd);
    m_progFds.clear();
}

int Probe::pollFd() const
{
    return m_ringBuffer ? ring_buffer__epoll_fd(m_ringBuffer) : -1;
}

quint64 Probe::eventsLost() const
{
    return kernelLost() + m_malformed;
}

bool Probe::decode(const void *, size_t, RecordBatch &)
{
    return false;
}

int Probe::ringBufferCallback(void *ctx, void *data, size_t size)
{
    auto *self = static_cast<Probe *>(ctx);
    self->m_auxiliaryRecord = false;
    if (!self->decode(data, size, *self->m_drainTarget))
        ++self->m_malformed;
    else if (!self->m_auxiliaryRecord)
        ++self->m_eventsSeen;
    return 0;
}

bool Probe::setRingBuffer(int mapFd, QString *error)
{
    m_ringBuffer = ring_buffer__new(mapFd, &Probe::ringBufferCallback, this, nullptr);
    if (!m_ringBuffer) {
        *error = QStringLiteral("%1: cannot open the ring buffer: %2")
                     .arg(m_id, lastLibbpfError(-errno));
        return false;
    }
    return true;
}

int Probe::decodeWaiting(RecordBatch &out)
{
    if (!m_ringBuffer)
        return 0;
    m_drainTarget = &out;
    const int n = ring_buffer__consume(m_ringBuffer);
    m_drainTarget = nullptr;
    return qMax(n, 0);
}

void Probe::trackObject(bpf_object *obj)
{
    bpf_program *prog = nullptr;
    bpf_object__for_each_program(prog, obj)
    {
        const int fd = bpf_program__fd(prog);
        if (fd >= 0)
            m_progFds.append(fcntl(fd, F_DUPFD_CLOEXEC, 0));
    }
}

void Probe::emitHistogram(const QString &key, const Log2Histogram &cumulative)
{
    const Log2Histogram previous = m_lastHistograms.value(key, Log2Histogram(cumulative.unit()));
    Log2Histogram delta = cumulative.subtract(previous);
    m_lastHistograms.insert(key, cumulative);
    if (delta.isEmpty())
        return;
    HistogramSnapshot s;
    s.probeId = m_id;
    s.key = key;
    s.timeNs = m_snapshotNowNs;
    s.intervalNs = m_lastSnapshotNs ? m_snapshotNowNs - m_lastSnapshotNs : m_intervalNs;
    s.histogram = delta;
    m_histogramTarget->append(s);
}

void Probe::emitCounter(const QString &name, double intervalValue)
{
    CounterSample s;
    s.probeId = m_id;
    s.name = name;
    s.timeNs = m_snapshotNowNs;
    s.intervalNs = m_lastSnapshotNs ? m_snapshotNowNs - m_lastSnapshotNs : m_intervalNs;
    s.value = intervalValue;
    m_counterTarget->append(s);
}

void Probe::emitIncrease(const QString &name, quint64 now, quint64 *last)
{
    if (now != *last)
        emitCounter(name, double(now - *last));
    *last = now;
}

void Probe::snapshot(quint64 nowNs, RecordBatch &out)
{
    m_snapshotNowNs = nowNs;
    m_histogramTarget = &out.histograms;
    readHistograms();
    m_histogramTarget = nullptr;
    m_counterTarget = &out.counters;
    readCounters();
    // Samples missing from the histograms are reported next to them, never dropped unseen.
    const quint64 full = kernelHistogramFull();
    if (full > m_lastHistogramFull) {
        emitCounter(histogramMapFullCounter(), double(full - m_lastHistogramFull));
        emitCounter(histogramKeysCounter(), double(histogramMapKeys()));
        m_lastHistogramFull = full;
    }
    m_counterTarget = nullptr;
    m_lastSnapshotNs = nowNs;

    ProbeStats stats;
    stats.probeId = m_id;
    stats.timeNs = nowNs;
    stats.eventsSeen = m_eventsSeen;
    stats.eventsLost = eventsLost();
    stats.eventsUnseen = kernelUnseen();
    stats.unfinished = unfinishedAtStop();
    for (int fd : std::as_const(m_progFds)) {
        bpf_prog_info info{};
        __u32 len = sizeof(info);
        if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0) {
            stats.runCount += info.run_cnt;
            stats.runTimeNs += info.run_time_ns;
            // The kernel skips a program rather than run it nested on one CPU (its hook hit in
            // an interrupt while the same program runs below it): that hit made no event, and
            // only this counter knows. A TCP retransmit or a block completion goes missing so.
            stats.eventsUnseen += info.recursion_misses;
        }
    }
    out.stats.append(stats);
}

Probe::CommonFilters Probe::commonFilters(const QVariantMap &options)
{
    CommonFilters f;
    f.tgid = quint32(options.value(QStringLiteral("pid")).toLongLong());
    f.tid = quint32(options.value(QStringLiteral("tid")).toLongLong());
    const qint64 uid = options.value(QStringLiteral("uid"), -1).toLongLong();
    f.uidSet = uid >= 0;
    f.uid = f.uidSet ? quint32(uid) : 0;
    f.comm = options.value(QStringLiteral("comm")).toString().toUtf8().left(15);
    f.cgroupPath = options.value(QStringLiteral("cgroup")).toString();
    return f;
}

HistogramUnit Probe::timeUnitOption(const QVariantMap &options)
{
    const QString units = options.value(QStringLiteral("units")).toString();
    if (units == QLatin1String("nsecs"))
        return HistogramUnit::Nanoseconds;
    if (units == QLatin1String("msecs"))
        return HistogramUnit::Milliseconds;
    return HistogramUnit::Microseconds;
}

QString Probe::cgroupDirectory(const QString &cgroupPath)
{
    QString path = cgroupPath;
    // Either a full path, or one relative to the cgroup v2 root ("/system.slice" or
    // "user.slice"), which is /sys/fs/cgroup on systemd's unified layout and
    // /sys/fs/cgroup/unified on the hybrid one (core/cgroups.h finds it).
    if (!path.startsWith(QStringLiteral("/sys/fs/cgroup"))) {
        QString why;
        QString mount = cgroup2Mount(&why);
        if (mount.isEmpty())
            mount = QStringLiteral("/sys/fs/cgroup"); // opening it then says what is wrong
        path = mount + QLatin1Char('/') +
               cgroupPath.mid(cgroupPath.startsWith(QLatin1Char('/')) ? 1 : 0);
    }
    return path;
}

bool Probe::cgroupIdOption(const QString &cgroupPath, quint64 *id, QString *error)
{
    const QString path = cgroupDirectory(cgroupPath);
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

bool Probe::applyCgroupFilter(int cgroupMapFd, const QString &cgroupPath, QString *error)
{
    if (cgroupPath.isEmpty())
        return true;
    const QString path = cgroupDirectory(cgroupPath);
    const int fd = open(path.toLocal8Bit().constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        *error = QStringLiteral("cgroup %1: %2").arg(path, QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    const __u32 key = 0;
    const int err = bpf_map_update_elem(cgroupMapFd, &key, &fd, BPF_ANY);
    close(fd);
    if (err) {
        // The kernel answers EBADF for a directory that is not a cgroup v2 one (a v1
        // hierarchy, or the tmpfs that holds the v1 mounts).
        *error = errno == EBADF
                     ? QStringLiteral("cgroup %1: not a cgroup v2 directory").arg(path)
                     : QStringLiteral("cgroup %1: %2").arg(path, lastLibbpfError(-errno));
        return false;
    }
    return true;
}

ProbeAvailability Probe::availabilityOf(const AttachPlan &plan)
{
    return {plan.available, plan.available ? plan.path() : QString(), plan.reason};
}

bpf_map *Probe::ringBufferMap(bpf_object *obj)
{
    bpf_map *map = nullptr;
    bpf_object__for_each_map(map, obj)
    {
        if (bpf_map__type(map) == BPF_MAP_TYPE_RINGBUF)
            return map;
    }
    return nullptr;
}

bool Probe::prepareSkeleton(const AttachPlan &plan, bpf_object *obj, bpf_map *ringBuffer,
                            QString *error)
{
    if (!plan.applyAutoload(obj, error))
        return false;
    if (!ringBuffer)
        return true;
    const int err = bpf_map__set_max_entries(ringBuffer, ringBufferBytes());
    if (err) {
        *error = QStringLiteral("ring buffer size %1: %2")
                     .arg(ringBufferBytes())
                     .arg(lastLibbpfError(err));
        return false;
    }
    return true;
}

bool Probe::attachSkeleton(const AttachPlan &plan, bpf_object *obj, bpf_map *ringBuffer,
                           const CommonFilters &f, QList<bpf_link *> *links, QString *error)
{
    const bpf_map *cgroups = bpf_object__find_map_by_name(obj, "cgroup_map");
    if (!cgroups) {
        *error = QStringLiteral("the BPF object has no cgroup_map");
        return false;
    }
    if (!applyCgroupFilter(bpf_map__fd(cgroups), f.cgroupPath, error))
        return false;
    trackObject(obj);
    if (ringBuffer && !setRingBuffer(bpf_map__fd(ringBuffer), error))
        return false;
    QString attached, degraded;
    if (!plan.attach(obj, links, &attached, &degraded, error))
        return false;
    if (!degraded.isEmpty())
        qWarning("%s: %s", qPrintable(m_id), qPrintable(degraded));
    setAttachPath(attached);
    return true;
}

void Probe::destroyLinks(QList<bpf_link *> *links)
{
    for (bpf_link *l : std::as_const(*links))
        bpf_link__destroy(l);
    links->clear();
}

void Probe::setHistogramMap(bpf_map *map)
{
    m_histogramMap = map;
    if (m_histogramKeyLimit)
        bpf_map__set_max_entries(map, m_histogramKeyLimit);
}

quint32 Probe::histogramMapKeys() const
{
    return m_histogramMap ? bpf_map__max_entries(m_histogramMap) : 0;
}

bool Probe::isAttachedAt(const QString &hook) const
{
    return m_attachPath.split(QStringLiteral(", ")).contains(hook);
}

bool Probe::checkOpened(const void *skel, QString *error)
{
    if (!skel)
        *error = QStringLiteral("cannot open the BPF object: %1").arg(lastLibbpfError(-errno));
    return skel != nullptr;
}

bool Probe::checkLoaded(int err, QString *error)
{
    if (err)
        *error = QStringLiteral("cannot load the BPF programs: %1").arg(lastLibbpfError(err));
    return !err;
}

QString Probe::lastLibbpfError(int err)
{
    char buf[256];
    libbpf_strerror(err, buf, sizeof(buf));
    return QString::fromLocal8Bit(buf);
}

quint64 monotonicNs()
{
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return quint64(t.tv_sec) * 1000000000ull + quint64(t.tv_nsec);
}

} // namespace bpflens
