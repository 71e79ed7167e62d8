#include "gui/models/stackchartmodel.h"

#include "core/probecatalog.h"

#include "gui/models/sessionmodel.h"

#include <QHash>

#include <algorithm>

namespace bpflens {

namespace {

// The idle task has TID 0 on every CPU at once: one thread per CPU, or its samples would
// interleave. Other threads by TID.
quint64 threadKey(quint32 tid, quint32 cpu)
{
    return tid ? quint64(tid) : (quint64(1) << 32) | cpu;
}

// The call path of an item, root first: a truncated stack stands on a marker, a sample without
// a stack is one marker box.
void rootFirstPath(const StackTable &stacks, quint32 stackId, std::vector<quint32> &path)
{
    path.clear();
    if (!stacks.hasStack(stackId) || stacks.stack(stackId).frames.isEmpty()) {
        path.push_back(StackChartModel::NoStackFrame);
        return;
    }
    const StackDefinition &s = stacks.stack(stackId);
    if (s.flags & UserStackTruncated)
        path.push_back(StackChartModel::TruncatedFrame);
    // A function's lines are one box, as in the flame graph.
    for (qsizetype i = s.frames.size() - 1; i >= 0; --i)
        path.push_back(stacks.functionOf(s.frames[i]));
}

} // namespace

quint64 StackChartModel::samplingPeriodNs(const SessionInfo &info)
{
    // The CPU samples' probe and its frequency option, as declared (core/probes/profile.h):
    // the session's value, else the declared default.
    const QString probeId = QLatin1String(EventTraits<CpuSampleEvent>::probeId);
    const QString frequency = QStringLiteral("frequency");
    qint64 hz = 99;
    if (const ProbeInfo *probe = ProbeCatalog::find(probeId)) {
        if (const ProbeOption *o = probe->option(frequency))
            hz = o->defaultValue.toLongLong();
    }
    for (const ProbeConfig &p : info.probes) {
        if (p.id == probeId && p.options.contains(frequency))
            hz = p.options.value(frequency).toLongLong();
    }
    return 1'000'000'000ull / quint64(std::clamp<qint64>(hz, 1, 1'000'000));
}

void StackChartModel::clear()
{
    m_threads.clear();
    m_stacks = nullptr;
    m_query = {};
}

void StackChartModel::build(const SessionModel &session, const StackChartQuery &query)
{
    m_threads.clear();
    m_query = query;
    m_stacks = &session.stacks();
    m_periodNs = samplingPeriodNs(session.info());
    const EventStore &store = session.events();
    QHash<quint64, int> index;
    auto threadOf = [&](quint32 pid, quint32 tid, quint32 cpu, const QByteArray &comm) -> Thread & {
        const quint64 key = threadKey(tid, cpu);
        auto it = index.constFind(key);
        if (it == index.constEnd()) {
            it = index.insert(key, int(m_threads.size()));
            m_threads.push_back(Thread{pid, tid, tid ? 0 : cpu, comm, 0, 0, {}, {}});
        }
        return m_threads[size_t(*it)];
    };
    auto accepted = [&](quint32 pid, const QByteArray &comm) {
        return (query.pid < 0 || qint64(pid) == query.pid) &&
               (query.comm.isEmpty() || comm == query.comm);
    };
    const qsizetype samples = store.count(EventType::CpuSample);
    for (qsizetype i = 0; i < samples; ++i) {
        const quint32 pid = store.value<&CpuSampleEvent::pid>(i);
        const QByteArray &comm = store.value<&CpuSampleEvent::comm>(i);
        if (!accepted(pid, comm))
            continue;
        Thread &t = threadOf(pid, store.value<&CpuSampleEvent::tid>(i),
                             store.value<&CpuSampleEvent::cpu>(i), comm);
        t.items.push_back(Item{store.value<&CpuSampleEvent::timeNs>(i), 0, quint32(i),
                               store.value<&CpuSampleEvent::stackId>(i)});
        ++t.samples;
    }
    if (query.offCpu) {
        // The waits go after each thread's samples; both columns are in time order, so one
        // in-place merge per thread sorts them.
        std::vector<size_t> samplesEnd(m_threads.size());
        for (size_t k = 0; k < m_threads.size(); ++k)
            samplesEnd[k] = m_threads[k].items.size();
        const qsizetype waits = store.count(EventType::OffCpu);
        for (qsizetype i = 0; i < waits; ++i) {
            const quint32 pid = store.value<&OffCpuEvent::pid>(i);
            const QByteArray &comm = store.value<&OffCpuEvent::comm>(i);
            const quint64 off = store.value<&OffCpuEvent::offNs>(i);
            if (off == 0 || !accepted(pid, comm))
                continue;
            const quint32 tid = store.value<&OffCpuEvent::tid>(i);
            if (tid == 0)
                continue; // the idle task never waits
            Thread &t = threadOf(pid, tid, 0, comm);
            t.items.push_back(Item{store.value<&OffCpuEvent::timeNs>(i), off, quint32(i),
                                   store.value<&OffCpuEvent::stackId>(i)});
            ++t.waits;
        }
        samplesEnd.resize(m_threads.size(), 0);
        for (size_t k = 0; k < m_threads.size(); ++k) {
            auto &items = m_threads[k].items;
            std::inplace_merge(items.begin(), items.begin() + qsizetype(samplesEnd[k]), items.end(),
                               [](const Item &a, const Item &b) { return a.timeNs < b.timeNs; });
        }
    }
    for (Thread &t : m_threads)
        mergeThread(t, session.stacks());
    std::stable_sort(m_threads.begin(), m_threads.end(), [](const Thread &a, const Thread &b) {
        if (a.samples != b.samples)
            return a.samples > b.samples;
        if (a.waits != b.waits)
            return a.waits > b.waits;
        return a.tid != b.tid ? a.tid < b.tid : a.cpu < b.cpu;
    });
}

void StackChartModel::mergeThread(Thread &thread, const StackTable &stacks) const
{
    const quint64 period = m_periodNs;
    std::vector<quint32> path;
    std::vector<size_t> open; // per depth: the index of the box the previous item is in
    // The boxes the previous item opened or extended end where it ends: a sample a period
    // later, a wait when it does; never after the next item begins, so that the boxes of one
    // depth stay disjoint.
    auto close = [&](size_t fromDepth, const Item &previous, quint64 nextNs) {
        const quint64 end =
            previous.isOffCpu() ? previous.timeNs + previous.offNs : previous.timeNs + period;
        for (size_t d = fromDepth; d < open.size(); ++d) {
            Box &b = thread.levels[d][open[d]];
            b.endNs = std::max(std::min(end, nextNs), b.startNs + 1);
        }
        open.resize(fromDepth);
    };
    for (size_t k = 0; k < thread.items.size(); ++k) {
        const Item &item = thread.items[k];
        // The common case, a thread still in the same stack: every open box takes the sample.
        if (k > 0 && !item.isOffCpu() && !thread.items[k - 1].isOffCpu() &&
            item.stackId == thread.items[k - 1].stackId &&
            item.timeNs - thread.items[k - 1].timeNs <= MaxGapPeriods * period) {
            for (size_t d = 0; d < open.size(); ++d)
                ++thread.levels[d][open[d]].samples;
            continue;
        }
        rootFirstPath(stacks, item.stackId, path);
        size_t same = 0; // the depths whose boxes this item extends
        if (k > 0) {
            const Item &previous = thread.items[k - 1];
            const bool continues = !item.isOffCpu() && !previous.isOffCpu() &&
                                   item.timeNs - previous.timeNs <= MaxGapPeriods * period;
            if (continues) {
                while (same < open.size() && same < path.size() &&
                       thread.levels[same][open[same]].frame == path[same])
                    ++same;
            }
            close(same, previous, item.timeNs);
        }
        for (size_t d = 0; d < same; ++d)
            ++thread.levels[d][open[d]].samples;
        if (thread.levels.size() < path.size())
            thread.levels.resize(path.size());
        for (size_t d = same; d < path.size(); ++d) {
            thread.levels[d].push_back(
                Box{item.timeNs, item.timeNs + 1, path[d], item.isOffCpu() ? 0u : 1u, quint32(k)});
            open.push_back(thread.levels[d].size() - 1);
        }
    }
    if (!thread.items.empty())
        close(0, thread.items.back(), ~quint64(0));
}

QList<int> StackChartModel::threadsIn(quint64 startNs, quint64 endNs) const
{
    QList<int> out;
    for (int t = 0; t < threadCount(); ++t) {
        const auto [first, last] = boxesIn(t, 0, startNs, endNs);
        if (first < last)
            out.append(t);
    }
    return out;
}

int StackChartModel::depthIn(int t, quint64 startNs, quint64 endNs) const
{
    // A box always has its caller's box around it, so the depths with boxes in a range are
    // the first few: count down from the deepest.
    for (int d = int(m_threads[size_t(t)].levels.size()); d > 0; --d) {
        const auto [first, last] = boxesIn(t, d - 1, startNs, endNs);
        if (first < last)
            return d;
    }
    return 0;
}

qsizetype StackChartModel::firstEndingAfter(int t, int depth, quint64 timeNs, qsizetype from) const
{
    const std::vector<Box> &level = m_threads[size_t(t)].levels[size_t(depth)];
    return std::partition_point(level.begin() + from, level.end(),
                                [timeNs](const Box &b) { return b.endNs <= timeNs; }) -
           level.begin();
}

std::pair<qsizetype, qsizetype> StackChartModel::boxesIn(int t, int depth, quint64 startNs,
                                                         quint64 endNs) const
{
    if (t < 0 || t >= threadCount() || depth < 0 ||
        depth >= int(m_threads[size_t(t)].levels.size()))
        return {0, 0};
    const std::vector<Box> &level = m_threads[size_t(t)].levels[size_t(depth)];
    const qsizetype first = firstEndingAfter(t, depth, startNs);
    const qsizetype last =
        std::partition_point(level.begin() + first, level.end(),
                             [endNs](const Box &b) { return b.startNs < endNs; }) -
        level.begin();
    return {first, last};
}

qsizetype StackChartModel::boxAt(int t, int depth, quint64 timeNs) const
{
    const auto [first, last] = boxesIn(t, depth, timeNs, timeNs + 1);
    return first < last ? first : -1;
}

QList<quint32> StackChartModel::boxFrames(int t, int depth, qsizetype index, quint8 *flags) const
{
    QList<quint32> frames;
    if (flags)
        *flags = 0;
    const Item &item = firstItem(t, depth, index);
    if (!m_stacks || !m_stacks->hasStack(item.stackId))
        return frames;
    const StackDefinition &s = m_stacks->stack(item.stackId);
    if (flags)
        *flags = s.flags;
    // Depth counts from the root, the marker of a truncated stack included.
    const qsizetype skip = (s.flags & UserStackTruncated) ? 1 : 0;
    const qsizetype fromRoot = depth - skip; // the box's frame, counted from the outermost
    if (fromRoot < 0)
        return frames; // the marker itself
    for (qsizetype i = s.frames.size() - 1 - fromRoot; i >= 0 && i < s.frames.size(); ++i)
        frames.append(s.frames[i]);
    return frames;
}

} // namespace bpflens
