#include "core/allocations.h"

#include "core/eventstore.h"

#include <algorithm>

namespace bpflens {

AllocationSums sumAllocations(const EventStore &store, const AllocationQuery &q,
                              qsizetype stackCount)
{
    using E = AllocationEvent;
    AllocationSums s;
    const size_t n = size_t(std::max<qsizetype>(stackCount, 0)) + 1;
    s.allocBytes.assign(n, 0);
    s.allocBlocks.assign(n, 0);
    s.inuseBytes.assign(n, 0);
    s.inuseBlocks.assign(n, 0);
    s.oldestInuseNs.assign(n, ~quint64(0));
    constexpr EventType type = eventTypeOf<E>;
    const qsizetype begin = store.lowerBound(type, q.startNs);
    const qsizetype end =
        q.endNs == ~quint64(0) ? store.count(type) : store.lowerBound(type, q.endNs);
    for (qsizetype i = begin; i < end; ++i) {
        if (q.pid >= 0 && qint64(store.value<&E::pid>(i)) != q.pid)
            continue;
        if (!q.comm.isEmpty() && store.value<&E::comm>(i) != q.comm)
            continue;
        const quint64 weight = store.value<&E::weight>(i);
        const quint64 bytes = store.value<&E::size>(i) * weight;
        quint32 id = store.value<&E::stackId>(i);
        if (id >= n)
            id = 0; // an id whose definition never arrived
        s.allocBytes[id] += bytes;
        s.allocBlocks[id] += weight;
        s.totalAllocBytes += bytes;
        s.sampleEvery = std::max(s.sampleEvery, quint32(weight));
        ++s.events;
        // Still allocated at the range's end: never freed, or freed at or after it.
        const bool freed = store.value<&E::end>(i) == E::Freed;
        const bool live =
            q.endNs == ~quint64(0)
                ? !freed
                : !freed || store.value<&E::timeNs>(i) + store.value<&E::durNs>(i) >= q.endNs;
        if (live) {
            s.inuseBytes[id] += bytes;
            s.inuseBlocks[id] += weight;
            s.totalInuseBytes += bytes;
            s.oldestInuseNs[id] = std::min(s.oldestInuseNs[id], store.value<&E::timeNs>(i));
        }
    }
    return s;
}

QList<QPair<quint64, quint64>> outstandingBytesOverTime(const EventStore &store, qint64 pid)
{
    using E = AllocationEvent;
    constexpr EventType type = eventTypeOf<E>;
    // +bytes at each allocation, -bytes at each free; a block that outlived the recording or
    // its process stays held to the end of what was recorded.
    std::vector<std::pair<quint64, qint64>> deltas;
    const qsizetype count = store.count(type);
    deltas.reserve(size_t(count) * 2);
    for (qsizetype i = 0; i < count; ++i) {
        if (pid >= 0 && qint64(store.value<&E::pid>(i)) != pid)
            continue;
        const qint64 bytes = qint64(store.value<&E::size>(i) * store.value<&E::weight>(i));
        const quint64 t = store.value<&E::timeNs>(i);
        deltas.emplace_back(t, bytes);
        if (store.value<&E::end>(i) == E::Freed)
            deltas.emplace_back(t + store.value<&E::durNs>(i), -bytes);
    }
    std::stable_sort(deltas.begin(), deltas.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<QPair<quint64, quint64>> out;
    qint64 held = 0;
    for (const auto &[t, d] : deltas) {
        held += d;
        const quint64 value = quint64(std::max<qint64>(held, 0));
        if (!out.isEmpty() && out.last().first == t)
            out.last().second = value;
        else
            out.append({t, value});
    }
    return out;
}

} // namespace bpflens
