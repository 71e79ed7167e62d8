#include "core/criticalpath.h"

#include "core/eventstore.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace bpflens {

namespace {

using E = ThreadStateEvent;

quint64 spanEnd(const EventStore &store, qsizetype i)
{
    return store.value<&E::timeNs>(i) + store.value<&E::durNs>(i);
}

} // namespace

ThreadStateIndex::ThreadStateIndex(const EventStore &store)
    : m_store(&store)
{
    const qsizetype n = store.count(EventType::ThreadState);
    for (qsizetype i = 0; i < n; ++i)
        m_spans[store.value<&E::tid>(i)].append(i);
    // The store is in time order, so each list is too; spans that start together (a zero-length
    // one and the next) keep the order they were appended in.
}

QList<quint32> ThreadStateIndex::tids() const
{
    QList<quint32> tids = m_spans.keys();
    std::sort(tids.begin(), tids.end());
    return tids;
}

const QList<qsizetype> &ThreadStateIndex::spans(quint32 tid) const
{
    static const QList<qsizetype> none;
    const auto it = m_spans.constFind(tid);
    return it == m_spans.cend() ? none : *it;
}

qsizetype ThreadStateIndex::spanBefore(quint32 tid, quint64 timeNs) const
{
    const QList<qsizetype> &list = spans(tid);
    // the last span starting before timeNs
    auto it = std::partition_point(list.cbegin(), list.cend(), [&](qsizetype i) {
        return m_store->value<&E::timeNs>(i) < timeNs;
    });
    if (it == list.cbegin())
        return -1;
    const qsizetype i = *(it - 1);
    return spanEnd(*m_store, i) >= timeNs ? i : -1;
}

qsizetype ThreadStateIndex::lastEndingBy(quint32 tid, quint64 timeNs) const
{
    const QList<qsizetype> &list = spans(tid);
    auto it = std::partition_point(list.cbegin(), list.cend(), [&](qsizetype i) {
        return m_store->value<&E::timeNs>(i) < timeNs;
    });
    while (it != list.cbegin()) {
        --it;
        if (spanEnd(*m_store, *it) <= timeNs)
            return *it;
    }
    return -1;
}

namespace {

class Walker
{
public:
    Walker(const EventStore &store, const ThreadStateIndex &index, int maxDepth, CriticalPath *out)
        : m_store(store)
        , m_index(index)
        , m_maxDepth(maxDepth)
        , m_out(out)
    {
    }

    // Appends the steps of [from, to] on tid, latest first.
    void walk(quint32 tid, quint64 from, quint64 to, int depth)
    {
        quint64 t = to;
        while (t > from) {
            const qsizetype i = m_index.spanBefore(tid, t);
            if (i < 0) {
                // not recorded here: back to where the previous span ended, or to from
                const qsizetype prev = m_index.lastEndingBy(tid, t);
                const quint64 start = prev < 0 ? from : qMax(from, spanEnd(m_store, prev));
                CriticalPathStep s;
                s.tid = tid;
                s.startNs = start;
                s.endNs = t;
                s.depth = depth;
                if (prev >= 0) {
                    s.pid = m_store.value<&E::pid>(prev);
                    s.comm = m_store.value<&E::comm>(prev);
                }
                add(std::move(s));
                t = start;
                continue;
            }
            const quint64 start = qMax(from, m_store.value<&E::timeNs>(i));
            const quint64 end = spanEnd(m_store, i);
            const quint8 state = m_store.value<&E::state>(i);
            const quint32 waker = m_store.value<&E::wakerTid>(i);
            // A wait ended by a recorded thread within the range: that thread's doings until the
            // wakeup are what the wait was for.
            if (state >= E::Sleeping && end <= t && waker && waker != tid &&
                m_index.hasThread(waker)) {
                if (depth < m_maxDepth) {
                    walk(waker, start, end, depth + 1);
                    t = start;
                    continue;
                }
                m_out->depthLimited = true;
            }
            add(stepOf(i, tid, start, qMin(end, t), depth));
            t = start;
        }
    }

private:
    CriticalPathStep stepOf(qsizetype i, quint32 tid, quint64 start, quint64 end, int depth) const
    {
        CriticalPathStep s;
        s.pid = m_store.value<&E::pid>(i);
        s.tid = tid;
        s.comm = m_store.value<&E::comm>(i);
        s.state = m_store.value<&E::state>(i);
        s.reason = m_store.value<&E::reason>(i);
        s.cpu = m_store.value<&E::cpu>(i);
        s.startNs = start;
        s.endNs = end;
        s.span = i;
        s.depth = depth;
        if (s.state >= E::Sleeping && spanEnd(m_store, i) <= end) {
            s.wakerTid = m_store.value<&E::wakerTid>(i);
            s.wakerComm = m_store.value<&E::wakerComm>(i);
        }
        return s;
    }

    void add(CriticalPathStep s)
    {
        if (s.endNs > s.startNs)
            m_out->steps.append(std::move(s));
    }

    const EventStore &m_store;
    const ThreadStateIndex &m_index;
    const int m_maxDepth;
    CriticalPath *m_out;
};

} // namespace

CriticalPath criticalPath(const EventStore &store, const ThreadStateIndex &index, quint32 tid,
                          quint64 fromNs, quint64 toNs, int maxDepth)
{
    CriticalPath path;
    path.tid = tid;
    path.fromNs = fromNs;
    path.toNs = toNs;
    if (toNs <= fromNs)
        return path;
    Walker(store, index, qMax(0, maxDepth), &path).walk(tid, fromNs, toNs, 0);
    std::reverse(path.steps.begin(), path.steps.end());
    return path;
}

QList<CriticalPathShare> criticalPathShares(const CriticalPath &path)
{
    std::map<std::tuple<quint32, quint8, quint8>, CriticalPathShare> byKey;
    for (const CriticalPathStep &s : path.steps) {
        CriticalPathShare &share = byKey[{s.tid, s.state, s.reason}];
        share.tid = s.tid;
        share.pid = s.pid;
        if (!s.comm.isEmpty())
            share.comm = s.comm;
        share.state = s.state;
        share.reason = s.reason;
        share.ns += s.durationNs();
    }
    QList<CriticalPathShare> shares;
    for (auto &[key, share] : byKey)
        shares.append(share);
    std::stable_sort(
        shares.begin(), shares.end(),
        [](const CriticalPathShare &a, const CriticalPathShare &b) { return a.ns > b.ns; });
    return shares;
}

} // namespace bpflens
