#pragma once

#include "core/events.h"
#include "core/stacks.h"

#include <QByteArray>
#include <QList>

#include <utility>
#include <vector>

namespace bpflens {

class SessionModel;
struct SessionInfo;

// Which threads a stack chart shows: the window's process filters (ViewState's pid and comm),
// and whether off-CPU waits are drawn beside the CPU samples.
struct StackChartQuery
{
    qint64 pid = -1; // -1: every process
    QByteArray comm; // empty: every command
    bool offCpu = true;
    bool operator==(const StackChartQuery &) const = default;
};

// The boxes of a stack chart (Firefox Profiler's, KDAB hotspot's): per thread, time on x and
// call depth on y, the root at depth 0. Consecutive CPU samples of a thread whose call paths
// agree from the root down to a depth share one box at that depth, from the first sample's time
// to the last one's plus a sampling period; an off-CPU wait is one box per frame of the stack
// it blocked in, as long as the wait. Built once per session and filter (build()), over the
// whole session, so that zooming and panning only look boxes up: the boxes of one depth are
// disjoint and sorted, so a range is two binary searches away.
class StackChartModel
{
public:
    // Samples further apart than this many periods do not share boxes: the thread was off the
    // CPU (or preempted) between them, and a box over the gap would say it ran.
    static constexpr int MaxGapPeriods = 2;
    // Marker frames: a sample without a stack, and the root of a stack the unwinder could not
    // finish (its outermost frame is not the thread's first, so it must not line up with them).
    static constexpr quint32 NoStackFrame = 0;
    static constexpr quint32 TruncatedFrame = 0xffffffffu;

    struct Box
    {
        quint64 startNs = 0;
        quint64 endNs = 0;   // exclusive
        quint32 frame = 0;   // a StackTable frame id, or one of the markers
        quint32 samples = 0; // CPU samples merged; 0 for an off-CPU wait
        quint32 item = 0;    // the thread's first item (Thread::items) in the box
    };
    // One CPU sample or off-CPU wait of a thread, in time order.
    struct Item
    {
        quint64 timeNs = 0;
        quint64 offNs = 0; // an off-CPU wait's length; 0 for a sample
        quint32 event = 0; // index in the EventStore's column of its type
        quint32 stackId = 0;
        bool isOffCpu() const { return offNs > 0; }
    };
    struct Thread
    {
        quint32 pid = 0;
        quint32 tid = 0;
        quint32 cpu = 0; // only for the idle task (TID 0), which runs on every CPU at once
        QByteArray comm;
        qsizetype samples = 0; // CPU samples
        qsizetype waits = 0;   // off-CPU waits
        std::vector<Item> items;
        std::vector<std::vector<Box>> levels; // per depth, the root first
    };

    StackChartModel() = default;

    // Merges the session's samples (and waits, when the query asks) into boxes: O(samples ×
    // stack depth). The stack table is the session's and must outlive the model's use of it.
    void build(const SessionModel &session, const StackChartQuery &query);
    void clear();
    const StackChartQuery &query() const { return m_query; }
    bool isEmpty() const { return m_threads.empty(); }
    const StackTable *stacks() const { return m_stacks; }
    quint64 periodNs() const { return m_periodNs; }

    // Threads, most CPU samples first (then most waits, then the lower TID).
    int threadCount() const { return int(m_threads.size()); }
    const Thread &thread(int t) const { return m_threads[size_t(t)]; }
    // The threads with a box in [startNs, endNs), in that order.
    QList<int> threadsIn(quint64 startNs, quint64 endNs) const;
    // How many depths of thread t have a box in [startNs, endNs): the band's height.
    int depthIn(int t, quint64 startNs, quint64 endNs) const;
    // The boxes of thread t at depth overlapping [startNs, endNs): indices [first, last) into
    // thread(t).levels[depth].
    std::pair<qsizetype, qsizetype> boxesIn(int t, int depth, quint64 startNs, quint64 endNs) const;
    // The first box of thread t at depth, from index `from` on, that ends after timeNs: how a
    // view skips the boxes that share one pixel.
    qsizetype firstEndingAfter(int t, int depth, quint64 timeNs, qsizetype from = 0) const;
    // The box of thread t at depth that covers timeNs, -1 when none.
    qsizetype boxAt(int t, int depth, quint64 timeNs) const;
    const Box &box(int t, int depth, qsizetype index) const
    {
        return m_threads[size_t(t)].levels[size_t(depth)][size_t(index)];
    }
    const Item &firstItem(int t, int depth, qsizetype index) const
    {
        return m_threads[size_t(t)].items[box(t, depth, index).item];
    }
    // The box's call path, leaf (the box's own function) first, then its callers, without
    // markers; and its stack's flags.
    QList<quint32> boxFrames(int t, int depth, qsizetype index, quint8 *flags = nullptr) const;

    // The session's sampling period: 1 s / the profile probe's frequency (its default, 99 Hz,
    // when the session does not say).
    static quint64 samplingPeriodNs(const SessionInfo &info);

private:
    void mergeThread(Thread &thread, const StackTable &stacks) const;

    StackChartQuery m_query;
    const StackTable *m_stacks = nullptr;
    quint64 m_periodNs = 1;
    std::vector<Thread> m_threads;
};

} // namespace bpflens
