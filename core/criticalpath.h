#pragma once

#include "core/events.h"

#include <QByteArray>
#include <QHash>
#include <QList>

namespace bpflens {

class EventStore;

// Each recorded thread's thread-state spans (ThreadStateEvent, the threadstate probe) in time
// order, as indexes into the store: what a thread was doing at a moment, for the critical path
// and the thread-state timeline. Built once per loaded session; the store must not change while
// it is used.
class ThreadStateIndex
{
public:
    ThreadStateIndex() = default;
    explicit ThreadStateIndex(const EventStore &store);

    bool isEmpty() const { return m_spans.isEmpty(); }
    // Every thread with spans, by tid.
    QList<quint32> tids() const;
    bool hasThread(quint32 tid) const { return m_spans.contains(tid); }
    // tid's spans, by start time (they do not overlap).
    const QList<qsizetype> &spans(quint32 tid) const;
    // The span of tid that holds the moment just before timeNs (start < timeNs <= end), or -1.
    qsizetype spanBefore(quint32 tid, quint64 timeNs) const;
    // Its last span ending at or before timeNs, or -1.
    qsizetype lastEndingBy(quint32 tid, quint64 timeNs) const;

private:
    const EventStore *m_store = nullptr;
    QHash<quint32, QList<qsizetype>> m_spans;
};

// One stretch of a critical path: a thread in one state (or not recorded) from startNs to endNs.
struct CriticalPathStep
{
    quint32 pid = 0;
    quint32 tid = 0;
    QByteArray comm;
    // ThreadStateEvent::State; 0 where the thread's state is not known (not recorded then)
    quint8 state = 0;
    quint8 reason = 0;
    quint32 cpu = 0;
    quint64 startNs = 0;
    quint64 endNs = 0;
    // The span the step is a part of (a ThreadStateEvent index), -1 for a stretch not recorded.
    qsizetype span = -1;
    // 0 on the thread asked for; n on the thread n wakeups away from it.
    int depth = 0;
    // A blocked step that was not followed further: who ended the wait ("[irq]", a thread
    // outside the recording, or nobody in the range), as the span says.
    quint32 wakerTid = 0;
    QByteArray wakerComm;

    quint64 durationNs() const { return endNs - startNs; }
};

// The critical path of thread tid over [fromNs, toNs]: what its progress waited for, walked
// back from toNs. Where the thread ran or waited for a CPU, that stretch is on the path itself;
// where it was blocked until a thread woke it, the path follows the waker over the blocked
// stretch (what the waker did until it woke it, and, if the waker was blocked in turn, its own
// waker, and so on, to maxDepth wakeups). A wait ended by an interrupt, by a thread not recorded,
// or not ended within the range stays on the path as the blocked thread's. The steps are in time
// order and cover [fromNs, toNs] without gaps or overlaps.
struct CriticalPath
{
    quint32 tid = 0;
    quint64 fromNs = 0;
    quint64 toNs = 0;
    QList<CriticalPathStep> steps;
    // Set when a chain of wakeups was cut at maxDepth.
    bool depthLimited = false;
};

CriticalPath criticalPath(const EventStore &store, const ThreadStateIndex &index, quint32 tid,
                          quint64 fromNs, quint64 toNs, int maxDepth = 64);

// Time on the path per thread and state, longest first: the summary the CLI prints under the
// steps and the window shows beside them.
struct CriticalPathShare
{
    quint32 tid = 0;
    quint32 pid = 0;
    QByteArray comm;
    quint8 state = 0;
    quint8 reason = 0;
    quint64 ns = 0;
};
QList<CriticalPathShare> criticalPathShares(const CriticalPath &path);

} // namespace bpflens
