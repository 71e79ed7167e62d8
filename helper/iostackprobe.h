#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

#include <array>

struct iostack_bpf;

namespace bpflens {

// Where the time of read, write, open and fsync goes, per layer (syscall, vfs, fs,
// block-queue, block-device): per operation and layer a log2 latency histogram ("read/vfs")
// and counters per interval ("read/vfs/count", "read/vfs/total_ns", "read/vfs/exclusive_ns").
// Exclusive times of one operation's layers add up to its syscall total. Block requests no
// traced syscall waited for are "unattributed/block-device/...". See docs/iostack.md.
class IoStackProbe : public SkeletonProbe<iostack_bpf>
{
public:
    // One cell of the breakdown and how this kernel measures it.
    struct Layer
    {
        QString op;    // "read", "write", "open", "fsync", "unattributed"
        QString layer; // "syscall", "vfs", "fs", "block-queue", "block-device"
        bool available = false;
        QString hooks;  // "tp_btf/ext4_sync_file_enter, tp_btf/ext4_sync_file_exit"
        QString reason; // why it is not measured
    };

    IoStackProbe();
    ~IoStackProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;
    // Every (op, layer) cell with its hooks or why it is missing on this kernel.
    static QList<Layer> layers(const KernelFeatures &kernel, const QVariantMap &options = {});

    static QStringList opNames();
    static QStringList layerNames();

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    iostack_bpf *openSkeleton() override;
    void readHistograms() override;
    void readCounters() override;
    quint64 kernelLost() const override;

private:
    struct Plan
    {
        AttachPlan attach;
        QList<Layer> layers;
        bool ioStart = false;  // block_io_start: attribution where the submitter is current
        bool vfsFsync = false; // vfs_fsync_range hooked: implied where it is inlined
    };
    static Plan plan(const KernelFeatures &kernel, const QVariantMap &options);
    bool readCells();

    struct Cell
    {
        quint64 count = 0;
        quint64 totalNs = 0;
        quint64 exclusiveNs = 0;
        Log2Histogram hist;
    };
    HistogramUnit m_unit = HistogramUnit::Microseconds;
    QList<Cell> m_cells;    // cumulative, as last read
    QList<Cell> m_reported; // cumulative, as last reported in counters
    QList<bool> m_measured; // per cell: the layer is attached
};

} // namespace bpflens
