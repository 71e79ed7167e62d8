#pragma once

#include "helper/attachplan.h"
#include "helper/probe.h"

#include <QHash>

struct threadstate_bpf;
struct threadstate_record;

namespace bpflens {

// threadstate: every thread's scheduling state over time. The BPF side reports each context
// switch and wakeup of the threads under the filters (bpf/threadstate.bpf.c); this side keeps
// each thread's current state and since when, and appends a ThreadStateEvent whenever a span
// ends: running (on which CPU), runnable (preempted, or woken and waiting for a CPU), blocked
// (sleeping, uninterruptible, stopped) with where it blocked, why, and who woke it.
class ThreadStateProbe : public SkeletonProbe<threadstate_bpf>
{
public:
    ThreadStateProbe();
    ~ThreadStateProbe() override;

    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

    // What a blocked thread waited for, from its kernel stack's function names (leaf first):
    // the first that names a kind of wait decides (ThreadStateEvent::Reason).
    static quint8 blockReason(const QList<QByteArray> &symbols);
    // Switches and wakeups the kernel did not run the programs for, found by the states they
    // leave behind (a thread switched out that was not known to run, one switched in from a
    // wait no wakeup ended): the spans around them are cut or merged.
    static QString transitionsMissedCounter() { return QStringLiteral("transitionsMissed"); }

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    void doDetach() override;
    void doStop() override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void finishDrain(RecordBatch &out) override;
    void readCounters() override;

private:
    static AttachPlan plan(const KernelFeatures &kernel);

    struct Waker
    {
        quint32 pid = 0;
        quint32 tid = 0;
        QByteArray comm;
        quint32 stackId = 0;
    };
    // One recorded thread: its state since when, as far as it is known.
    struct Thread
    {
        quint8 state = 0; // 0: not known yet
        quint8 reason = 0;
        quint64 since = 0;
        quint32 cpu = 0;
        quint32 pid = 0;
        QByteArray comm;
        quint64 cgroupId = 0;
        quint32 stackId = 0;
        // A wakeup that came while it was still on its CPU, before its switch-out was seen
        // (try_to_wake_up runs sched_waking before it waits for the wakee to leave its CPU).
        bool wokenEarly = false;
        Waker earlyWaker;
    };

    void onSwitch(const threadstate_record &r, const QList<quint64> &ips, RecordBatch &out);
    void onWaking(const threadstate_record &r, const QList<quint64> &ips, RecordBatch &out);
    void onNew(const threadstate_record &r);
    // Appends the span tid held from t.since to endNs, with waker w when a wakeup ended it.
    void emitSpan(quint32 tid, const Thread &t, quint64 endNs, quint32 cpu, const Waker *w,
                  RecordBatch &out);
    // Where a thread that was not seen before had its state since: the recording's start, or
    // nothing after a lost record (its state is then not known until its next transition).
    bool knownSince(quint64 ts, quint64 *since) const;
    quint32 kernelStack(const QList<quint64> &ips, qint32 taken, QList<QByteArray> *symbols);
    Waker wakerOf(const threadstate_record &r, const QList<quint64> &ips);

    QHash<quint32, Thread> m_threads;
    QHash<quint32, quint32> m_cpuCurrent; // by CPU: the tid its last switch seen put on it
    bool m_stacks = true;
    quint64 m_startNs = 0;
    quint64 m_stopNs = 0;
    // After a lost record, threads not seen since have no state to assume.
    bool m_assumeFromStart = true;
    quint64 m_lastLost = 0;
    bool m_flushed = false;
    quint64 m_transitionsMissed = 0;
    quint64 m_lastTransitionsMissed = 0;
};

} // namespace bpflens
