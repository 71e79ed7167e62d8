#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"
#include "helper/symbolizerclient.h"

#include <QHash>

#include <vector>

struct offcpu_bpf;

namespace bpflens {

// offcpu: threads off the CPU for at least a minimum time (blocked or preempted), with the
// kernel and user stacks where they left it. A wait inside a system call is unwound with DWARF
// from the copy of the user stack its thread's return to user space brings (a separate record,
// which the wait is held for); other waits, and those whose copy does not come, keep the
// frame-pointer chain.
class OffCpuProbe : public SkeletonProbe<offcpu_bpf>
{
public:
    OffCpuProbe();
    ~OffCpuProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

    // Counters (CounterSample::name) of what the kernel could not keep, per interval where it
    // happened: stacks the stack map had no room for, and switch-outs the thread map had none for.
    static QString stacksLostCounter() { return QStringLiteral("stacksLost"); }
    static QString threadsLostCounter() { return QStringLiteral("threadsLost"); }
    // Off-CPU spans not reported because the thread's switch-in was not seen.
    static QString switchInsMissedCounter() { return QStringLiteral("switchInsMissed"); }
    // offwake: wakeups whose waker the waker map had no room for (their spans are recorded
    // without one), and copies of a waker's user stack the ring buffer had no room for (its
    // frame-pointer chain is taken instead).
    static QString wakersLostCounter() { return QStringLiteral("wakersLost"); }
    static QString wakerCopiesLostCounter() { return QStringLiteral("wakerCopiesLost"); }

protected:
    // offwake: the same spans, each joined with its waker (OffWakeEvent instead of OffCpuEvent).
    OffCpuProbe(const QString &id, bool wakers);

    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    void doStop() override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void finishDrain(RecordBatch &out) override;
    void readCounters() override;

private:
    static AttachPlan plan(const KernelFeatures &kernel, const QVariantMap &options, bool wakers);
    bool decodeUserStack(const void *data, size_t size);
    bool decodeWakerStack(const void *data, size_t size);
    quint32 stackOf(const QList<quint64> &kernelIps, const QList<quint64> &userIps, bool hasCopy,
                    bool userAsked, const SymbolizedStack *resolved);
    QList<quint64> stackIps(qint32 id);
    void release(qint32 id);
    void sweepUnheldStacks();
    void emitReady(RecordBatch &out);

    struct Pending
    {
        OffCpuEvent event;
        qint32 kernelId = -1;
        qint32 userId = -1;
        // Read from the stack map at the end of the drain that decoded the event.
        bool stacksRead = false;
        QList<quint64> kernelIps;
        QList<quint64> userIps;
        // Waiting for its thread's user stack copy; ready once it came (or will not come).
        bool awaitingCopy = false;
        bool hasCopy = false;
        UserSample copy;
        quint64 switchInNs = 0; // CLOCK_MONOTONIC, as bpf_ktime_get_ns
        // offwake: the waker's pid, tid, comm and wakeNs are in wake; its stacks here.
        OffWakeEvent wake;
        qint32 wakerKernelId = -1;
        qint32 wakerUserId = -1;
        QList<quint64> wakerKernelIps;
        QList<quint64> wakerUserIps;
        bool hasWakerCopy = false;
        UserSample wakerCopy;
    };
    struct WakerCopy
    {
        quint64 wakeNs = 0;
        UserSample sample;
    };
    const bool m_wakers;
    // offwake: the waker stack copies not yet matched with their wakee's event, by wakee tid.
    QHash<quint32, WakerCopy> m_wakerCopies;
    // In the order the ring buffer gave them; waits for a copy stay across drains.
    std::vector<Pending> m_pending;
    // The indices in m_pending of each thread's waits waiting for a copy.
    QHash<quint32, QList<size_t>> m_awaiting;
    // The last content read for each stack id. A stack id is its content's hash, and only
    // release() and the sweep delete a stack: when a thread takes an id again between the check
    // of its references and the delete, the id it holds names the stack deleted, whose content
    // is this one.
    QHash<qint32, QList<quint64>> m_lastContent;
    quint64 m_stacksUnread = 0;
    quint64 m_lastSweepNs = 0;
    bool m_copies = false; // the sys_exit program copies user stacks
    bool m_kernelOnly = false;
    bool m_userOnly = false;
    quint64 m_lastStacksFailed = 0;
    quint64 m_lastStartFull = 0;
    quint64 m_lastSwitchInMissed = 0;
    quint64 m_lastWakersFull = 0;
    quint64 m_lastWakerCopiesLost = 0;
};

} // namespace bpflens
