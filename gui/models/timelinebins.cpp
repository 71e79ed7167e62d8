#include "gui/models/timelinebins.h"

#include "core/allocations.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"

#include <algorithm>
#include <cmath>

namespace bpflens {

LaneBins::Category TimelineBinner::categoryOf(const QByteArray &op)
{
    // biolatency -F names: "Read", "Sync-Write", "Write-FUA", "Flush", "Discard", ...
    if (op.contains("Read"))
        return LaneBins::Read;
    if (op.contains("Write"))
        return LaneBins::Write;
    return LaneBins::Other;
}

LaneBins::Category LaneSummary::category(const SessionModel &session, qsizetype storeIndex) const
{
    const QByteArray &op = session.events().value<&BlockEvent::op>(storeIndex);
    // Operations come in runs: the previous answer saves most hash lookups.
    if (op.constData() == m_lastOp)
        return m_lastCategory;
    m_lastOp = op.constData();
    auto it = m_categories.constFind(op.constData());
    if (it == m_categories.constEnd())
        it = m_categories.insert(op.constData(), TimelineBinner::categoryOf(op));
    m_lastCategory = *it;
    return *it;
}

void LaneSummary::clear()
{
    m_count = 0;
    m_lastIndex = -1;
    m_cum.clear();
    m_times.clear();
    m_run[0] = m_run[1] = 0;
    m_categories.clear();
    m_lastOp = nullptr;
}

void LaneSummary::update(const EventFilterModel &lane, const SessionModel &session)
{
    const qsizetype n = lane.acceptedCount();
    const bool block = lane.type() == EventType::Block;
    // Appending keeps the summarized prefix; anything else (a filter, a reset, an
    // out-of-order insert) is caught here at the latest and rebuilds.
    if (block != m_block || n < m_count ||
        (m_count > 0 && lane.acceptedAt(m_count - 1) != m_lastIndex))
        clear();
    m_block = block;
    const EventStore::TimeColumn times = session.events().timeColumn(lane.type());
    const quint32 *accepted = lane.acceptedIndices();
    m_times.reserve(size_t(n / Stride + 1));
    for (qsizetype k = (m_count + Stride - 1) / Stride * Stride; k < n; k += Stride)
        m_times.push_back(times[accepted ? qsizetype(accepted[k]) : k]);
    if (!m_block) {
        m_count = n;
        m_lastIndex = n > 0 ? lane.acceptedAt(n - 1) : -1;
        return;
    }
    if (m_cum.empty())
        m_cum.push_back({0, 0});
    m_cum.reserve(size_t(n / Stride + 1));
    for (qsizetype k = m_count; k < n; ++k) {
        const LaneBins::Category c = category(session, lane.acceptedAt(k));
        if (c != LaneBins::Other)
            ++m_run[c];
        if ((k + 1) % Stride == 0)
            m_cum.push_back({m_run[0], m_run[1]});
    }
    m_count = n;
    m_lastIndex = n > 0 ? lane.acceptedAt(n - 1) : -1;
}

qsizetype LaneSummary::lowerBoundFrom(const EventFilterModel &lane, const SessionModel &session,
                                      qsizetype from, quint64 t) const
{
    if (from >= m_count)
        return from;
    const qsizetype size = qsizetype(m_times.size());
    qsizetype lo = from / Stride;
    // time(from) >= time(lo * Stride) >= t: from is the answer.
    if (m_times[size_t(lo)] >= t)
        return from;
    // Gallop in the index: m_times[lo] < t; hi is the first entry >= t, or size.
    qsizetype step = 1, hi = lo + 1;
    while (hi < size && m_times[size_t(hi)] < t) {
        lo = hi;
        step *= 2;
        hi = std::min(size, hi + step);
    }
    while (hi - lo > 1) {
        const qsizetype mid = lo + (hi - lo) / 2;
        if (m_times[size_t(mid)] < t)
            lo = mid;
        else
            hi = mid;
    }
    // The answer lies in (lo * Stride, min(hi * Stride, m_count)]: a short forward scan over
    // neighbouring rows, whose loads do not wait for each other like a bisection's do.
    const EventStore::TimeColumn times = session.events().timeColumn(lane.type());
    const quint32 *accepted = lane.acceptedIndices();
    const qsizetype end = std::min(hi * Stride, m_count);
    qsizetype k = std::max(from, lo * Stride + 1);
    if (accepted) {
        while (k < end && times[qsizetype(accepted[k])] < t)
            ++k;
    } else {
        while (k < end && times[k] < t)
            ++k;
    }
    return k;
}

void LaneSummary::countsBefore(const EventFilterModel &lane, const SessionModel &session,
                               qsizetype k, quint32 out[3]) const
{
    const qsizetype j = std::min(k / Stride, qsizetype(m_cum.size()) - 1);
    out[LaneBins::Read] = m_cum[size_t(j)][0];
    out[LaneBins::Write] = m_cum[size_t(j)][1];
    for (qsizetype i = j * Stride; i < k; ++i) {
        const LaneBins::Category c = category(session, lane.acceptedAt(i));
        if (c != LaneBins::Other)
            ++out[c];
    }
    out[LaneBins::Other] = quint32(k) - out[LaneBins::Read] - out[LaneBins::Write];
}

LaneBins TimelineBinner::bin(const EventFilterModel &lane, const SessionModel &session,
                             quint64 startNs, quint64 endNs, int width, const LaneSummary *summary)
{
    LaneBins bins;
    bins.type = lane.type();
    bins.width = std::max(width, 1);
    bins.counts.assign(size_t(bins.width), 0);
    if (endNs <= startNs)
        return bins;
    const EventStore &store = session.events();
    const EventType type = lane.type();
    const double span = double(endNs - startNs);
    // A column starts at the first whole nanosecond at or after its real edge, and x is
    // multiplied before it is divided: an event on an edge (0.7 of 3 s over 580 columns) lies
    // in the column its x names, not in the one before through x = 405.99999.
    auto columnStart = [&](int c) { return startNs + quint64(std::ceil(span * c / bins.width)); };
    auto xOf = [&](quint64 t) { return (double(t) - double(startNs)) * bins.width / span; };

    // Column edges: with an up-to-date summary, in its time index (LaneSummary says why).
    // Without one, one binary search for the first, then each edge gallops from the previous
    // one, so the probes stay within a column's events instead of jumping across the whole
    // store. Either way the times are read in place: through EventStore::timeNs() a call, a
    // type switch and a bounds check per probe were a visible part of a redraw.
    const qsizetype acceptedCount = lane.acceptedCount();
    const EventStore::TimeColumn times = store.timeColumn(type);
    const quint32 *accepted = lane.acceptedIndices();
    std::vector<qsizetype> bounds(size_t(bins.width) + 1);
    auto edges = [&](auto timeAtK) {
        auto lowerBoundFrom = [&](qsizetype from, quint64 t) {
            if (from >= acceptedCount || timeAtK(from) >= t)
                return from;
            qsizetype lo = from, step = 1; // timeAtK(lo) < t
            qsizetype hi = from + 1;
            while (hi < acceptedCount && timeAtK(hi) < t) {
                lo = hi;
                step *= 2;
                hi = std::min(acceptedCount, hi + step);
            }
            // Answer in (lo, hi].
            while (hi - lo > 1) {
                const qsizetype mid = lo + (hi - lo) / 2;
                if (timeAtK(mid) < t)
                    lo = mid;
                else
                    hi = mid;
            }
            return hi;
        };
        bounds[0] = lane.acceptedLowerBound(startNs);
        for (int c = 1; c <= bins.width; ++c)
            bounds[size_t(c)] =
                lowerBoundFrom(bounds[size_t(c) - 1], c == bins.width ? endNs : columnStart(c));
    };
    if (summary && summary->summarizedCount() == acceptedCount) {
        bounds[0] = summary->lowerBoundFrom(lane, session, 0, startNs);
        for (int c = 1; c <= bins.width; ++c)
            bounds[size_t(c)] = summary->lowerBoundFrom(lane, session, bounds[size_t(c) - 1],
                                                        c == bins.width ? endNs : columnStart(c));
    } else if (accepted) { // two instantiations: unfiltered, no test for a filter per probe
        edges([&](qsizetype k) { return times[qsizetype(accepted[k])]; });
    } else {
        edges([&](qsizetype k) { return times[k]; });
    }
    bins.total = bounds.back() - bounds.front();
    for (int c = 0; c < bins.width; ++c) {
        bins.counts[size_t(c)] = quint32(bounds[size_t(c) + 1] - bounds[size_t(c)]);
        bins.maxCount = std::max(bins.maxCount, bins.counts[size_t(c)]);
    }
    const bool isBlock = type == EventType::Block;
    bins.dense = double(bins.total) > SparseEventsPerColumn * bins.width;

    if (bins.dense) {
        if (isBlock) {
            LaneSummary local;
            if (!summary || summary->summarizedCount() < bounds.back()) {
                local.update(lane, session);
                summary = &local;
            }
            for (auto &s : bins.share)
                s.assign(size_t(bins.width), 0.f);
            quint32 before[LaneBins::CategoryCount];
            quint32 after[LaneBins::CategoryCount];
            summary->countsBefore(lane, session, bounds.front(), before);
            for (int c = 0; c < bins.width; ++c) {
                const quint32 n = bins.counts[size_t(c)];
                if (n == 0)
                    continue;
                summary->countsBefore(lane, session, bounds[size_t(c) + 1], after);
                for (int cat = 0; cat < LaneBins::CategoryCount; ++cat)
                    bins.share[cat][size_t(c)] = float(after[cat] - before[cat]) / float(n);
                std::copy(std::begin(after), std::end(after), std::begin(before));
            }
        }
        return bins;
    }

    // Sparse: every event. Block requests are drawn over their whole duration, so those that
    // complete after the range but started inside it count too.
    qsizetype first = bounds.front();
    qsizetype last = bounds.back();
    if (isBlock) {
        const quint64 reach = session.maxBlockSpanNs();
        last = lane.acceptedLowerBound(endNs + std::min(reach, ~quint64(0) - endNs));
    }
    std::vector<double> rowEnd(MaxSpanRows, -1e300);
    for (qsizetype k = first; k < last; ++k) {
        const qsizetype i = lane.acceptedAt(k);
        LaneBins::Span s;
        s.index = i;
        const quint64 t = times[i];
        s.x1 = xOf(t);
        s.x0 = s.x1;
        if (isBlock) {
            const BlockEvent e = store.block(i);
            const quint64 begin = t - std::min(t, e.queueNs + e.deviceNs);
            if (begin >= endNs)
                continue;
            s.x0 = xOf(begin);
            s.category = categoryOf(e.op);
            // Greedy rows: the first row whose last span ended before this one starts.
            int row = 0;
            while (row < MaxSpanRows - 1 && rowEnd[size_t(row)] > s.x0 - 1)
                ++row;
            s.row = row;
            rowEnd[size_t(row)] = std::max(rowEnd[size_t(row)], s.x1);
            bins.rows = std::max(bins.rows, row + 1);
        }
        bins.spans.push_back(s);
    }
    return bins;
}

ProcessCpuBins TimelineBinner::binCpuByProcess(const SessionModel &session, quint64 startNs,
                                               quint64 endNs, int width, int maxLanes,
                                               const EventFilterModel *samples)
{
    ProcessCpuBins out;
    out.width = std::max(width, 1);
    const EventStore &store = session.events();
    // Positions in the accepted sequence when filtered, store indices otherwise.
    const quint32 *accepted = samples ? samples->acceptedIndices() : nullptr;
    const qsizetype begin = samples ? samples->acceptedLowerBound(startNs)
                                    : store.lowerBound(EventType::CpuSample, startNs);
    const qsizetype end = samples ? samples->acceptedLowerBound(endNs)
                                  : store.lowerBound(EventType::CpuSample, endNs);
    if (begin >= end || endNs <= startNs)
        return out;
    auto indexAt = [accepted](qsizetype k) { return accepted ? qsizetype(accepted[k]) : k; };
    struct Process
    {
        quint64 count = 0;
        qsizetype first = 0;
        int lane = -1;
    };
    QHash<quint32, Process> processes;
    for (qsizetype k = begin; k < end; ++k) {
        const qsizetype i = indexAt(k);
        Process &p = processes[store.value<&CpuSampleEvent::pid>(i)];
        if (p.count++ == 0)
            p.first = i;
    }
    std::vector<std::pair<quint32, Process *>> order;
    order.reserve(size_t(processes.size()));
    for (auto it = processes.begin(); it != processes.end(); ++it)
        order.emplace_back(it.key(), &it.value());
    std::sort(order.begin(), order.end(), [](const auto &a, const auto &b) {
        if (a.second->count != b.second->count)
            return a.second->count > b.second->count;
        return a.first < b.first;
    });
    // An "other" lane of a single process would hide a name for nothing: give it its own.
    const size_t own = order.size() <= size_t(maxLanes) + 1 ? order.size() : size_t(maxLanes);
    for (size_t k = 0; k < order.size(); ++k) {
        if (k < own) {
            ProcessCpuBins::Lane lane;
            lane.pid = order[k].first;
            lane.comm = store.value<&CpuSampleEvent::comm>(order[k].second->first);
            lane.total = order[k].second->count;
            order[k].second->lane = int(out.lanes.size());
            out.lanes.push_back(std::move(lane));
        } else {
            if (k == own) {
                out.lanes.emplace_back();
                out.lanes.back().processes = 0;
            }
            out.lanes.back().total += order[k].second->count;
            ++out.lanes.back().processes;
            order[k].second->lane = int(out.lanes.size()) - 1;
        }
    }
    for (ProcessCpuBins::Lane &l : out.lanes)
        l.counts.assign(size_t(out.width), 0);
    const double perNs = double(out.width) / double(endNs - startNs);
    // Samples of one process come in runs: the previous lookup answers most of them.
    quint32 lastPid = 0;
    int lastLane = -1;
    for (qsizetype k = begin; k < end; ++k) {
        const qsizetype i = indexAt(k);
        const quint32 pid = store.value<&CpuSampleEvent::pid>(i);
        if (pid != lastPid || lastLane < 0) {
            lastPid = pid;
            lastLane = processes.value(pid).lane;
        }
        const int column = std::min(
            out.width - 1, int(double(store.timeNs(EventType::CpuSample, i) - startNs) * perNs));
        quint32 &c = out.lanes[size_t(lastLane)].counts[size_t(column)];
        ++c;
        out.maxCount = std::max(out.maxCount, c);
    }
    return out;
}

QList<ProcessMemory> TimelineBinner::memoryByProcess(const SessionModel &session,
                                                     const std::atomic_bool *cancel)
{
    using E = AllocationEvent;
    const EventStore &store = session.events();
    const qsizetype n = store.count(EventType::Allocation);
    // Per process its changes: +bytes at each allocation, -bytes at each free (a block that
    // outlived the recording or its process stays held to the end), as
    // outstandingBytesOverTime() makes them. One pass for all processes: a pass per process
    // read every allocation once per process.
    struct Process
    {
        qsizetype first = 0; // its first allocation, for the command
        std::vector<std::pair<quint64, qint64>> deltas;
    };
    std::vector<Process> processes;
    QHash<quint32, qsizetype> slot; // pid -> processes index
    quint32 lastPid = 0;
    Process *last = nullptr;
    for (qsizetype i = 0; i < n; ++i) {
        if ((i & 0xffff) == 0 && cancel && cancel->load(std::memory_order_relaxed))
            return {};
        const quint32 pid = store.value<&E::pid>(i);
        // Allocations of one process come in runs (memleak records one process).
        if (!last || pid != lastPid) {
            lastPid = pid;
            auto it = slot.constFind(pid);
            if (it == slot.constEnd()) {
                it = slot.insert(pid, qsizetype(processes.size()));
                processes.push_back({i, {}});
            }
            last = &processes[size_t(*it)];
        }
        const qint64 bytes = qint64(store.value<&E::size>(i) * store.value<&E::weight>(i));
        const quint64 t = store.value<&E::timeNs>(i);
        last->deltas.emplace_back(t, bytes);
        if (store.value<&E::end>(i) == E::Freed)
            last->deltas.emplace_back(t + store.value<&E::durNs>(i), -bytes);
    }
    QList<ProcessMemory> out;
    out.reserve(qsizetype(slot.size()));
    for (auto it = slot.cbegin(); it != slot.cend(); ++it) {
        if (cancel && cancel->load(std::memory_order_relaxed))
            return {};
        Process &p = processes[size_t(it.value())];
        ProcessMemory m;
        m.pid = it.key();
        m.comm = store.value<&E::comm>(p.first);
        std::stable_sort(p.deltas.begin(), p.deltas.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        m.held.reserve(qsizetype(p.deltas.size()));
        qint64 held = 0;
        for (const auto &[t, d] : p.deltas) {
            held += d;
            const quint64 value = quint64(std::max<qint64>(held, 0));
            if (!m.held.isEmpty() && m.held.last().first == t)
                m.held.last().second = value;
            else
                m.held.append({t, value});
        }
        // Over the points kept: a value replaced at the same time was never held.
        for (const auto &point : std::as_const(m.held))
            m.peak = std::max(m.peak, point.second);
        p.deltas = {};
        out.append(std::move(m));
    }
    std::sort(out.begin(), out.end(), [](const ProcessMemory &a, const ProcessMemory &b) {
        return a.peak != b.peak ? a.peak > b.peak : a.pid < b.pid;
    });
    return out;
}

quint64 TimelineBinner::heldAt(const ProcessMemory &memory, quint64 t)
{
    const auto &held = memory.held;
    auto it = std::upper_bound(held.cbegin(), held.cend(), t,
                               [](quint64 time, const auto &point) { return time < point.first; });
    return it == held.cbegin() ? 0 : std::prev(it)->second;
}

MemoryColumns TimelineBinner::binMemory(const ProcessMemory &memory, quint64 startNs, quint64 endNs,
                                        int width)
{
    MemoryColumns out;
    out.width = std::max(width, 1);
    out.low.assign(size_t(out.width), 0);
    out.high.assign(size_t(out.width), 0);
    const auto &held = memory.held;
    if (held.isEmpty() || endNs <= startNs) {
        out.first = out.width;
        return out;
    }
    // The first point after the range's start; the one before it is what was held at the start.
    qsizetype k = std::upper_bound(held.cbegin(), held.cend(), startNs,
                                   [](quint64 t, const auto &point) { return t < point.first; }) -
                  held.cbegin();
    bool known = k > 0;
    quint64 value = known ? held[k - 1].second : 0;
    out.first = out.width;
    const double span = double(endNs - startNs);
    for (int c = 0; c < out.width; ++c) {
        // The column's end as the time axis places columns: [start + c * span / width, ...).
        const quint64 columnEnd =
            c + 1 == out.width ? endNs : startNs + quint64(span * double(c + 1) / out.width);
        quint64 low = value, high = value;
        quint64 highNs = startNs;
        bool any = known;
        for (; k < held.size() && held[k].first < columnEnd; ++k) {
            value = held[k].second;
            if (!any) {
                low = high = value;
                any = true;
                highNs = held[k].first;
            } else {
                low = std::min(low, value);
                if (value > high) {
                    high = value;
                    highNs = held[k].first;
                }
            }
        }
        known = any;
        if (!any)
            continue;
        out.first = std::min(out.first, c);
        out.low[size_t(c)] = low;
        out.high[size_t(c)] = high;
        if (out.peakColumn < 0 || high > out.peak) {
            out.peak = high;
            out.peakColumn = c;
            out.peakNs = highNs;
        }
    }
    return out;
}

} // namespace bpflens
