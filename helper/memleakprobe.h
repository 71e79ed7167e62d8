#pragma once

#include "helper/attachplan.h"
#include "helper/perfsampling.h"
#include "helper/probe.h"

#include <QHash>

#include <vector>

struct memleak_bpf;

namespace bpflens {

// memleak: one process's allocator hooked by uprobes (bpf/memleak.bpf.c), or with no process
// the kernel's allocations machine-wide from the kmem tracepoints. Each allocation the
// programs record comes with its stacks (unwound and symbolised as profile's samples are), its
// free with its address; the probe keeps every recorded block until it ends, freed, with its
// process or with the recording, and then appends it as one AllocationEvent spanning its life.
// The caller resolves the allocator and opens its file (client/allocatortarget.h); the probe
// attaches to that descriptor at the offsets the caller found.
class MemleakProbe : public SkeletonProbe<memleak_bpf>
{
public:
    MemleakProbe();
    ~MemleakProbe() override;

    // A process's allocator; with no process, the kernel's allocations (kmem tracepoints).
    bool takesUserFile(const QVariantMap &options) const override
    {
        return options.value(QStringLiteral("pid")).toLongLong() > 0;
    }
    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

    static QString blocksFullCounter() { return QStringLiteral("blocksFull"); }
    static QString callsFullCounter() { return QStringLiteral("callsFull"); }
    static QString freesUnseenCounter() { return QStringLiteral("freesUnseen"); }

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    void doDetach() override;
    void doStop() override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void finishDrain(RecordBatch &out) override;
    void readCounters() override;

private:
    struct Function
    {
        QString name;
        quint64 offset = 0;
    };
    AttachPlan attachPlan(const KernelFeatures &kernel, const QVariantMap &options,
                          QString *why) const;
    // The block in slot ends at time end: it goes out at the drain's end.
    void endBlock(qsizetype slot, quint64 end, quint8 how);
    void forgetInKernel(quint32 pid, quint64 address);

    QByteArray m_fdPath;
    quint32 m_weight = 1;
    // Every recorded block not yet appended, in slots reused once appended; blocks by
    // (pid, address) as the kernel's table keys them (pid 0 for the kernel's).
    std::vector<AllocationEvent> m_slots;
    std::vector<qsizetype> m_freeSlots;
    QHash<QPair<quint32, quint64>, qsizetype> m_blocks;
    std::vector<qsizetype> m_unresolved; // slots whose stacks this drain resolves, in order
    std::vector<qsizetype> m_ended;      // slots to append at this drain's end
    SampledStacks m_stacks;
    quint64 m_stopNs = 0;
    bool m_flushed = false;
    quint64 m_freesUnseen = 0;
    quint64 m_lastFreesUnseen = 0;
    quint64 m_lastBlocksFull = 0;
    quint64 m_lastCallsFull = 0;
};

} // namespace bpflens
