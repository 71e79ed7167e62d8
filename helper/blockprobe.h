#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

#include <QByteArray>
#include <QList>
#include <QPair>

#include <memory>
#include <optional>

struct block_bpf;

namespace bpflens {

// Request op and flag names as biolatency -F prints them, with the bit values of the running
// kernel (they moved between releases), read from its BTF.
class BlockFlagDecoder
{
public:
    explicit BlockFlagDecoder(const KernelFeatures &kernel);
    bool isValid() const { return m_opMask != 0; }
    QByteArray decode(quint32 cmdFlags) const; // "Sync-Write"

private:
    quint32 m_opMask = 0;
    QList<QPair<quint32, QByteArray>> m_flags; // bit mask, "Sync-"; biolatency's order
    QList<QPair<quint32, QByteArray>> m_ops;   // op value, "Write"
};

// biosnoop + biolatency: every block request with its queue and device time, and log2 latency
// histograms (whole system, per disk and/or per flag set).
class BlockProbe : public SkeletonProbe<block_bpf>
{
public:
    BlockProbe();
    ~BlockProbe() override;

    // Smaller than the default storm-sized ring (Probe): a request's record is ~120 bytes; 2 MiB
    // are 100 ms of 150 000 requests a second.
    quint32 defaultRingBufferBytes() const override { return 2u << 20; }
    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

    // dev_t of a whole disk ("vda") as the kernel encodes it (major << 20 | minor), 0 if none.
    static quint32 diskDevice(const QString &disk);
    // The disk name of such a dev_t from /sys/dev/block ("vda"), or "254:0".
    static QByteArray diskNameOf(quint32 dev);
    // What block and iostack's rodata share: the options "disk" and "queued", and the request
    // tracepoints' arguments on this kernel (before 5.11 they took (q, rq)).
    template<typename Rodata>
    static void setRequestRodata(Rodata *ro, const KernelFeatures &kernel,
                                 const QVariantMap &options)
    {
        const QString disk = options.value(QStringLiteral("disk")).toString();
        if (!disk.isEmpty()) {
            ro->filter_dev = true;
            ro->targ_dev = diskDevice(disk);
        }
        ro->targ_queued = options.value(QStringLiteral("queued")).toBool();
        ro->insert_arg = kernel.tracepointArgCount(QStringLiteral("block_rq_insert")) == 2;
        ro->issue_arg = kernel.tracepointArgCount(QStringLiteral("block_rq_issue")) == 2;
        ro->requeue_arg = kernel.tracepointArgCount(QStringLiteral("block_rq_requeue")) == 2;
        ro->merge_arg = kernel.tracepointArgCount(QStringLiteral("block_rq_merge")) == 2;
    }

    // Counter of requests whose submitter nobody knows (submitted before the probe attached, or
    // built by the kernel): events with pid 0 and comm "?" without filters, and not events
    // with a filter, since nobody can tell whether they pass it.
    static QString unattributedCounter() { return QStringLiteral("unattributed"); }
    // Counter of the wanted submitters' I/O that became part of another request (a bio merged
    // into a queued request, a request merged into another): it has no event of its own.
    static QString mergedCounter() { return QStringLiteral("merged"); }

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    void doStop() override;
    void doDetach() override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void readHistograms() override;
    quint64 unfinishedAtStop() const override;
    void readCounters() override;

private:
    static AttachPlan plan(const KernelFeatures &kernel, const QVariantMap &options);
    QByteArray diskName(quint32 dev);
    quint64 unfinishedRequests() const;

    std::unique_ptr<BlockFlagDecoder> m_decoder;
    HistogramUnit m_unit = HistogramUnit::Microseconds;
    bool m_perDisk = false;
    bool m_perFlags = false;
    QHash<quint32, QByteArray> m_diskNames; // dev -> name, for histogram keys
    quint64 m_lastUnattributed = 0;
    quint64 m_lastMerged = 0;
    // From the detach on, the requests left unfinished are counted once and kept for the last
    // stats: Engine::stop() snapshots only after the programs that were running have finished.
    bool m_detached = false;
    mutable std::optional<quint64> m_unfinished;
};

} // namespace bpflens
