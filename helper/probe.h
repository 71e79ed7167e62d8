#pragma once

#include "core/probecatalog.h"
#include "core/records.h"
#include "helper/attachplan.h"
#include "helper/kernelfeatures.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QVariantMap>

#include <cstring>
#include <functional>
#include <memory>

struct bpf_link;
struct bpf_map;
struct bpf_object;
struct bpf_program;
struct ring_buffer;

namespace bpflens {

class StackResolver;

// One probe of the catalog, running in this process. Subclasses own a libbpf skeleton; this
// base owns what every probe shares: the ring buffer, the lost-event count, the kernel's
// run-time statistics for its programs, and the interval deltas of cumulative histograms.
//
// Life cycle: availability() any time; start() once (loads and attaches, or fails leaving
// nothing attached); drain()/snapshot() while running; detach() to end recording while keeping
// what was recorded readable; stop() frees everything (also done by the destructor).
class Probe
{
public:
    explicit Probe(const QString &id);
    virtual ~Probe();
    Probe(const Probe &) = delete;
    Probe &operator=(const Probe &) = delete;

    QString id() const { return m_id; }
    const ProbeInfo &info() const { return *m_info; }

    // Whether this kernel can run the probe with these options (defaults when empty), by which
    // attach path, or why not. Must not load anything that stays loaded.
    virtual ProbeAvailability availability(const KernelFeatures &kernel,
                                           const QVariantMap &options = {}) const = 0;

    // options are normalised by ProbeCatalog::validate (every option present, typed).
    bool start(const QVariantMap &options, const KernelFeatures &kernel, QString *error);
    void stop();
    bool isRunning() const { return m_running; }
    // Detaches every program but keeps the maps and the ring buffer, so drain() and snapshot()
    // still collect everything the kernel recorded up to now. Records written between a last
    // drain and stop() would otherwise be neither delivered nor counted as lost.
    void detach();
    bool isAttached() const { return m_attached; }
    QString attachPath() const { return m_attachPath; }

    // Moves every record waiting in the ring buffer into out. Returns the number of records.
    int drain(RecordBatch &out)
    {
        const int n = decodeWaiting(out);
        finishDrain(out);
        return n;
    }
    // drain() in its two steps, for the engine to take every probe's first step before any
    // probe's second: decoding captures the processes the records name (their mappings and
    // files, for the stacks), and resolving stacks can take seconds, during which a short
    // process exits. Resolving the profile probe's samples first left an off-CPU recording's
    // 1 s process without a named frame under ASan.
    int decodeWaiting(RecordBatch &out);
    void finishDecoded(RecordBatch &out) { finishDrain(out); }
    // Appends the histograms' deltas since the previous snapshot and the cumulative stats.
    void snapshot(quint64 nowNs, RecordBatch &out);
    quint64 intervalNs() const { return m_intervalNs; }
    // epoll-able fd of the ring buffer, -1 for a probe without events.
    int pollFd() const;

    // Size of the probe's ring buffer: a power of two, at least one page. Set before start();
    // without, the probe's default.
    void setRingBufferBytes(quint32 bytes) { m_ringBufferBytes = bytes; }
    quint32 ringBufferBytes() const
    {
        return m_ringBufferBytes ? m_ringBufferBytes : defaultRingBufferBytes();
    }
    // The kernel maps a ring buffer's pages twice into the recorder, all at once: 4 MiB are 8 MiB
    // of its RSS for the whole recording. 4 MiB hold a storm (record --probe open over bench/run's
    // storm on a loaded machine kept every event with 4 MiB in two tries, lost 7-11 % with 1 MiB,
    // #35); a probe whose events come at a lower rate says so with a smaller one.
    virtual quint32 defaultRingBufferBytes() const { return 4u << 20; }
    // Data waiting in the ring buffer before the kernel wakes the consumer (common.bpf.h's
    // wakeup_bytes): a quarter of the buffer, at most 64 KiB, so a small buffer still wakes the
    // consumer long before it is full.
    quint64 wakeupBytes() const { return qMin<quint64>(64 * 1024, ringBufferBytes() / 4); }

    // The recording's stack table and symbols, for probes whose events carry stacks. Set by the
    // engine before start(); such a probe fails to start without it.
    void setStackResolver(StackResolver *resolver) { m_stackResolver = resolver; }
    // For a probe that attaches into a user-space file (takesUserFile()): the file its caller
    // opened and the function's offset there (ProbeConfig::file). Set by the engine before
    // start(); the probe keeps the file open only until it attached. Whether it takes one may
    // depend on its options (tppair with a uprobe side).
    virtual bool takesUserFile(const QVariantMap &options) const
    {
        Q_UNUSED(options);
        return false;
    }
    void setUserFile(const SharedFd &file, quint64 offset)
    {
        m_userFile = file;
        m_userFileOffset = offset;
    }
    // A second file (ProbeConfig::file2), for a probe whose hooks are in two binaries: only
    // where takesSecondUserFile says so.
    virtual bool takesSecondUserFile(const QVariantMap &options) const
    {
        Q_UNUSED(options);
        return false;
    }
    void setSecondUserFile(const SharedFd &file) { m_userFile2 = file; }

    quint64 eventsSeen() const { return m_eventsSeen; }
    quint64 eventsLost() const;

    // Keys the probe's histogram map can hold (per disk, per pid, ...), 0 for the probe's own
    // size. Set before start(); tests use it to fill the map.
    void setHistogramKeyLimit(quint32 keys) { m_histogramKeyLimit = keys; }
    quint32 histogramKeyLimit() const { return m_histogramKeyLimit; }

    // Counters (CounterSample::name) that report what the kernel could not count, per interval
    // and only for intervals where it happened: samples whose new histogram key found the map
    // full, and the map's size in keys alongside.
    static QString histogramMapFullCounter() { return QStringLiteral("histogramMapFull"); }
    static QString histogramKeysCounter() { return QStringLiteral("histogramKeys"); }

protected:
    // Opens, configures (filters from options), loads and attaches the skeleton. Must leave
    // nothing loaded when it fails. Calls setRingBuffer/trackObject/setAttachPath as it goes,
    // and sizes its ring buffer map with ringBufferBytes() before load (a probe on a bpftool
    // skeleton has SkeletonProbe::startSkeleton do all that).
    // Subclass destructors call stop(), since doStop() needs the subclass.
    virtual bool doStart(const QVariantMap &options, const KernelFeatures &kernel,
                         QString *error) = 0;
    // Destroys the skeleton (detaching every link).
    virtual void doStop() = 0;
    // Destroys every link (the skeleton's and any the probe keeps itself) and nothing else: the
    // maps, the ring buffer and the bss (the lost counter) must stay readable until doStop().
    virtual void doDetach() = 0;
    // Decodes one ring buffer record into out. Returns false for a malformed record (counted
    // as lost, never trusted).
    virtual bool decode(const void *data, size_t size, RecordBatch &out);
    // Called by decode() for a well-formed record that is not an event of its own (data that
    // completes other records): it is not counted in eventsSeen().
    void markAuxiliaryRecord() { m_auxiliaryRecord = true; }
    // Called by decode() for a well-formed record that a filter applied in user space dropped
    // (exec's name and line, as execsnoop filters them): not an event delivered, not counted.
    void markFilteredRecord() { m_auxiliaryRecord = true; }
    // After the records of one drain were decoded: a probe that decodes in bulk (one
    // symbolisation request for all the samples of a drain) appends its events here.
    virtual void finishDrain(RecordBatch &out) { Q_UNUSED(out); }
    StackResolver *stackResolver() const { return m_stackResolver; }
    const SharedFd &userFile() const { return m_userFile; }
    quint64 userFileOffset() const { return m_userFileOffset; }
    const SharedFd &secondUserFile() const { return m_userFile2; }
    void releaseUserFile()
    {
        m_userFile = SharedFd();
        m_userFile2 = SharedFd();
    }
    // Reads the kernel's histogram maps: call emitHistogram() with the cumulative value per key.
    virtual void readHistograms() {}
    // Reads the kernel's counters: call emitCounter() with each one's value for the interval.
    virtual void readCounters() {}
    // The value of the program's "lost" counter (records the kernel could not deliver).
    virtual quint64 kernelLost() const { return 0; }
    // The program's "unseen" counter (events the kernel ran no program for a stage of).
    virtual quint64 kernelUnseen() const { return 0; }
    // Requests seen starting and still open: asked once the programs are detached, for the
    // last stats; 0 before.
    virtual quint64 unfinishedAtStop() const { return 0; }
    // The program's "hist_full" counter (common.bpf.h) and the size of its histogram map, for
    // probes whose histograms have keys.
    virtual quint64 kernelHistogramFull() const { return 0; }
    virtual quint32 histogramMapKeys() const;

    bool setRingBuffer(int mapFd, QString *error);
    // All programs of obj that were loaded count towards the probe's run-time statistics.
    void trackObject(bpf_object *obj);
    void setAttachPath(const QString &path) { m_attachPath = path; }
    void emitHistogram(const QString &key, const Log2Histogram &cumulative);
    // Only from readCounters(): records one counter's value for the interval ending now.
    void emitCounter(const QString &name, double intervalValue);
    // Only from readCounters(): a cumulative kernel counter (a loss count) as its increase
    // since *last, not reported when it did not grow; *last becomes now.
    void emitIncrease(const QString &name, quint64 now, quint64 *last);
    // Applies the common filters (pid, tid, uid, comm, cgroup) to a skeleton's rodata. cgroup
    // needs the map fd after load: see applyCgroupFilter.
    struct CommonFilters
    {
        quint32 tgid = 0;
        quint32 tid = 0;
        quint32 uid = 0;
        bool uidSet = false;
        QByteArray comm;
        QString cgroupPath;
    };
    static CommonFilters commonFilters(const QVariantMap &options);
    // The option "units" (usecs, msecs, nsecs where the probe offers it) as a HistogramUnit.
    static HistogramUnit timeUnitOption(const QVariantMap &options);
    static bool applyCgroupFilter(int cgroupMapFd, const QString &cgroupPath, QString *error);
    // The directory the cgroup option names: a full path, or one relative to the cgroup v2 root
    // (/sys/fs/cgroup, or /sys/fs/cgroup/unified on the hybrid layout).
    static QString cgroupDirectory(const QString &cgroupPath);
    // The id of that cgroup (its directory's inode number), for probes that filter a task other
    // than the current one by comparing its cgroup and their ancestors' ids with it.
    static bool cgroupIdOption(const QString &cgroupPath, quint64 *id, QString *error);

    // The start every skeleton probe built on common.bpf.h shares, around its own settings.
    // common.bpf.h's filters and wake-up threshold, in a skeleton's rodata:
    template<typename Rodata>
    void setCommonRodata(Rodata *ro, const CommonFilters &f) const
    {
        ro->filter_tgid = f.tgid;
        ro->filter_tid = f.tid;
        ro->filter_uid = f.uid;
        ro->filter_uid_set = f.uidSet;
        memset((void *)ro->filter_comm, 0, sizeof(ro->filter_comm));
        memcpy((void *)ro->filter_comm, f.comm.constData(),
               qMin<size_t>(size_t(f.comm.size()), sizeof(ro->filter_comm) - 1));
        ro->filter_cgroup = !f.cgroupPath.isEmpty();
        ro->wakeup_bytes = wakeupBytes();
    }
    // Available or not as the plan says, by its path.
    static ProbeAvailability availabilityOf(const AttachPlan &plan);
    // The object's ring buffer map (BPF_MAP_TYPE_RINGBUF), nullptr for a probe without events.
    static bpf_map *ringBufferMap(bpf_object *obj);
    // Before load: only the plan's programs load, the ring buffer map (if any) gets
    // ringBufferBytes().
    bool prepareSkeleton(const AttachPlan &plan, bpf_object *obj, bpf_map *ringBuffer,
                         QString *error);
    // Before load: the map of the probe's keyed histograms, sized by histogramKeyLimit() when
    // set; histogramMapKeys() reports its size.
    void setHistogramMap(bpf_map *map);
    // After load: the cgroup filter, the run-time statistics, the ring buffer's consumer (if
    // any) and the plan's links (a skipped optional group is a warning, not a failure).
    bool attachSkeleton(const AttachPlan &plan, bpf_object *obj, bpf_map *ringBuffer,
                        const CommonFilters &f, QList<bpf_link *> *links, QString *error);
    static void destroyLinks(QList<bpf_link *> *links);
    // Whether hook ("tp_btf/sched_switch") is one of the attach path's.
    bool isAttachedAt(const QString &hook) const;
    // The errors of a skeleton's open (nullptr, errno set) and load (its return value).
    static bool checkOpened(const void *skel, QString *error);
    static bool checkLoaded(int err, QString *error);

    // libbpf's text for a negative error code, as libbpf functions return it (or -errno after
    // one that returned NULL).
    static QString lastLibbpfError(int err);

    // Frees the kernel's parsed BTF that the start's KernelFeatures holds (its answers stay):
    // libbpf parses it once more to load a skeleton, and with both copies the load was the
    // recorder's peak of memory. Called right before a skeleton loads.
    void releaseKernelMemory() const;

private:
    static int ringBufferCallback(void *ctx, void *data, size_t size);

    QString m_id;
    const ProbeInfo *m_info;
    bool m_running = false;
    bool m_attached = false;
    QString m_attachPath;
    ring_buffer *m_ringBuffer = nullptr;
    RecordBatch *m_drainTarget = nullptr;
    quint64 m_eventsSeen = 0;
    bool m_auxiliaryRecord = false;
    quint64 m_malformed = 0;
    quint64 m_intervalNs = 1000000000ull;
    quint32 m_ringBufferBytes = 0; // 0: defaultRingBufferBytes()
    QList<int> m_progFds;          // dup'ed, so stats stay readable until stop()
    QHash<QString, Log2Histogram> m_lastHistograms;
    QList<HistogramSnapshot> *m_histogramTarget = nullptr;
    QList<CounterSample> *m_counterTarget = nullptr;
    quint64 m_snapshotNowNs = 0;
    quint64 m_lastSnapshotNs = 0;
    quint32 m_histogramKeyLimit = 0;
    quint64 m_lastHistogramFull = 0;
    bpf_map *m_histogramMap = nullptr;
    StackResolver *m_stackResolver = nullptr;
    SharedFd m_userFile;
    quint64 m_userFileOffset = 0;
    SharedFd m_userFile2;
    const KernelFeatures *m_startingKernel = nullptr; // during start() only
};

// A probe built on one bpftool skeleton (struct <name>_bpf, whose C++ members open, load, detach
// and destroy it) and on common.bpf.h. It owns the skeleton and the links its attach plan made:
// start (startSkeleton), detach, stop and the kernel's lost and hist_full counters are the same
// for every such probe, so a probe's own file holds only what is its own. Subclasses define
// their destructor out of line, where the skeleton's header is included: elsewhere Skel is
// incomplete.
template<typename Skel>
class SkeletonProbe : public Probe
{
public:
    ~SkeletonProbe() override { stop(); }

protected:
    using Probe::Probe;

    // doStart's course: refuses an unavailable plan (its reason is the error), opens the object
    // (openSkeleton), loads only the plan's programs and sizes the ring buffer, writes the
    // common filters, then calls configure(CommonFilters &f, QString *error) for the probe's own
    // settings (rodata, map sizes; it may change f, and fail with *error set), loads and attaches
    // (attachSkeleton). Leaves nothing loaded when it fails, once doStop() ran.
    template<typename Configure>
    bool startSkeleton(const AttachPlan &plan, const QVariantMap &options, QString *error,
                       Configure &&configure)
    {
        if (!plan.available) {
            *error = plan.reason;
            return false;
        }
        m_skel = openSkeleton();
        if (!checkOpened(m_skel, error))
            return false;
        bpf_map *ringBuffer = ringBufferMap(m_skel->obj);
        if (!prepareSkeleton(plan, m_skel->obj, ringBuffer, error))
            return false;
        CommonFilters f = commonFilters(options);
        setCommonRodata(m_skel->rodata, f);
        if (!configure(f, error))
            return false;
        releaseKernelMemory();
        if (!checkLoaded(Skel::load(m_skel), error))
            return false;
        return attachSkeleton(plan, m_skel->obj, ringBuffer, f, &m_links, error);
    }
    bool startSkeleton(const AttachPlan &plan, const QVariantMap &options, QString *error)
    {
        return startSkeleton(plan, options, error, [](CommonFilters &, QString *) { return true; });
    }
    // The skeleton, opened: nullptr with errno set when it cannot be.
    virtual Skel *openSkeleton() { return Skel::open(); }

    void doStop() override
    {
        destroyLinks(&m_links);
        Skel::destroy(m_skel);
        m_skel = nullptr;
    }
    void doDetach() override
    {
        destroyLinks(&m_links);
        if (m_skel)
            Skel::detach(m_skel);
    }
    quint64 kernelLost() const override
    {
        return m_skel ? __atomic_load_n(&m_skel->bss->lost, __ATOMIC_RELAXED) : 0;
    }
    quint64 kernelUnseen() const override
    {
        return m_skel ? __atomic_load_n(&m_skel->bss->unseen, __ATOMIC_RELAXED) : 0;
    }
    quint64 kernelHistogramFull() const override
    {
        return m_skel ? __atomic_load_n(&m_skel->bss->hist_full, __ATOMIC_RELAXED) : 0;
    }

    Skel *m_skel = nullptr;

private:
    QList<bpf_link *> m_links;
};

// CLOCK_MONOTONIC now, in the BPF programs' bpf_ktime_get_ns() time: where a probe ends what
// is still open when the recording stops.
quint64 monotonicNs();

// Creates the probe with this id, or nullptr.
using ProbeFactory = std::function<std::unique_ptr<Probe>()>;
std::unique_ptr<Probe> createProbe(const QString &id);

} // namespace bpflens
