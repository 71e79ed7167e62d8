#include "core/overview.h"

#include "core/cancellation.h"
#include "core/eventstore.h"
#include "core/openflags.h"
#include "core/probecatalog.h"
#include "core/sessionstore.h"
#include "core/topkeys.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace bpflens {

using namespace topkeys;

namespace {

// A latency the probes table gives percentiles of: a wait or a call's time. An allocation's
// lifetime is memory held, summed as bytes (MemoryOverview), not a latency.
template<typename E>
constexpr bool waitLatency = hasLatency<E> && !std::is_same_v<E, AllocationEvent>;

MemoryOverview memoryOverview(const EventStore &store, const OverviewQuery &q, qsizetype stackCount,
                              const std::atomic_bool *cancel)
{
    using E = AllocationEvent;
    constexpr EventType type = eventTypeOf<E>;
    MemoryOverview m;
    const qsizetype count = store.count(type);
    if (count == 0)
        return m;
    m.present = true;
    const bool open = q.endNs == std::numeric_limits<quint64>::max();
    const qsizetype begin = store.lowerBound(type, q.startNs);
    const qsizetype end = open ? count : store.lowerBound(type, q.endNs);
    const EventMatcher matcher(q.filter);
    const bool filtering = !(q.filter == EventFilter{});
    const size_t stacks = size_t(std::max<qsizetype>(stackCount, 0)) + 1;
    std::vector<quint64> bytes(stacks, 0), blocks(stacks, 0), oldest(stacks, ~quint64(0));
    // What was held over time: +bytes at each allocation before the range's end, -bytes at its
    // free (as outstandingBytesOverTime(), under the filter).
    std::vector<std::pair<quint64, qint64>> deltas;
    quint64 last = 0;
    for (qsizetype i = 0; i < end; ++i) {
        if ((i & 0xffff) == 0 && cancelled(cancel))
            return {};
        if (filtering && !matcher.accepts<E>(store, i))
            continue;
        const quint64 weight = store.value<&E::weight>(i);
        const quint64 size = store.value<&E::size>(i) * weight;
        const quint64 t = store.value<&E::timeNs>(i);
        const bool freed = store.value<&E::end>(i) == E::Freed;
        const quint64 until = t + store.value<&E::durNs>(i);
        last = std::max(last, t);
        deltas.emplace_back(t, qint64(size));
        if (freed)
            deltas.emplace_back(until, -qint64(size));
        if (i < begin)
            continue;
        ++m.allocations;
        m.allocatedBytes += size;
        m.allocatedBlocks += weight;
        m.sampleEvery = std::max(m.sampleEvery, quint32(weight));
        if (freed && (open || until < q.endNs))
            continue; // freed by the range's end
        quint32 id = store.value<&E::stackId>(i);
        if (id >= stacks)
            id = 0;
        bytes[id] += size;
        blocks[id] += weight;
        oldest[id] = std::min(oldest[id], t);
        m.inUseBytes += size;
        m.inUseBlocks += weight;
    }
    m.endNs = open
                  ? std::max(last, q.fullEndNs == std::numeric_limits<quint64>::max() ? last
                                                                                      : q.fullEndNs)
                  : q.endNs;
    std::stable_sort(deltas.begin(), deltas.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    qint64 held = 0;
    size_t k = 0;
    for (; k < deltas.size() && deltas[k].first < q.startNs; ++k)
        held += deltas[k].second;
    m.heldAtStartBytes = quint64(std::max<qint64>(held, 0));
    m.peakBytes = m.heldAtStartBytes;
    m.peakNs = q.startNs;
    for (; k < deltas.size() && (open || deltas[k].first < q.endNs); ++k) {
        held += deltas[k].second;
        // The value at a moment is after all of its changes.
        if (k + 1 < deltas.size() && deltas[k + 1].first == deltas[k].first)
            continue;
        const quint64 value = quint64(std::max<qint64>(held, 0));
        if (value > m.peakBytes) {
            m.peakBytes = value;
            m.peakNs = deltas[k].first;
        }
    }
    m.heldAtEndBytes = quint64(std::max<qint64>(held, 0));
    QList<MemoryOverview::Stack> rows;
    for (size_t id = 0; id < stacks; ++id) {
        if (bytes[id])
            rows.append({quint32(id), bytes[id], blocks[id], oldest[id]});
    }
    m.stacks = rows.size();
    std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.stackId < b.stackId;
    });
    if (q.topLimit > 0 && rows.size() > q.topLimit)
        rows.resize(q.topLimit);
    m.top = rows;
    return m;
}

template<typename E>
constexpr int costOf()
{
    if constexpr (std::is_same_v<E, CpuSampleEvent>)
        return int(CostKind::CpuSamples);
    else if constexpr (std::is_same_v<E, OffCpuEvent>)
        return int(CostKind::OffCpuTime);
    else if constexpr (std::is_same_v<E, BlockEvent>)
        return int(CostKind::BlockTime);
    else if constexpr (std::is_same_v<E, OpenEvent>)
        return int(CostKind::Opens);
    else if constexpr (std::is_same_v<E, TcpConnectEvent>)
        return int(CostKind::Connects);
    else
        return -1;
}

template<typename E>
quint64 costValue(const EventStore &store, qsizetype i)
{
    if constexpr (costOf<E>() == int(CostKind::OffCpuTime) ||
                  costOf<E>() == int(CostKind::BlockTime))
        return store.latencyNs<E>(i);
    else
        return 1;
}

// Whether an interned comm is BPF Lens' own, each distinct string decided once. Interned
// strings are told apart by their address: a small direct-mapped table of addresses answers
// nearly every event without a hash lookup (64 processes' comms interleave, so remembering
// only the last one did not).
class OwnNames
{
public:
    bool isOwn(const QByteArray &comm)
    {
        const char *p = comm.constData();
        Entry &e = m_cache[(quintptr(p) * 0x9e3779b97f4a7c15ull) >> (64 - Bits)];
        if (e.name == p)
            return e.own;
        const auto it = m_decided.constFind(p);
        const bool own = it != m_decided.constEnd() ? it.value() : isOwnProcessName(comm);
        if (it == m_decided.constEnd())
            m_decided.insert(p, own);
        e = {p, own};
        return own;
    }

private:
    static constexpr int Bits = 8;
    struct Entry
    {
        const char *name = nullptr;
        bool own = false;
    };
    std::array<Entry, size_t(1) << Bits> m_cache{};
    QHash<const char *, bool> m_decided;
};

// One thread's tallies of the range.
struct Partial
{
    EventMatcher matcher;
    OwnNames own;
    QSet<quint32> ownPids;
    std::array<qint64, 256> counts{};
    std::array<std::vector<quint64>, 256> latencies;
    // Per process and cost kind: Key{pid, comm, kind}.
    KeyIndex costIndex;
    std::vector<Key> costKeys;
    std::vector<CostRow> costRows;
    // Per type, errno and process: Key{type, errno, pid}.
    KeyIndex errorIndex;
    std::vector<Key> errorKeys;
    std::vector<qint64> errorCounts;
};

// The slot holding the value at rank ceil(fraction * n), -1 for an empty histogram.
int slotAtRank(const Log2Histogram &h, double fraction)
{
    const quint64 n = h.count();
    if (n == 0)
        return -1;
    const quint64 rank = std::clamp<quint64>(quint64(std::ceil(fraction * double(n) - 1e-9)), 1, n);
    quint64 below = 0;
    for (int s = 0; s < h.usedSlots(); ++s) {
        below += h.slot(s);
        if (below >= rank)
            return s;
    }
    return h.usedSlots() - 1;
}

std::optional<EventType> eventTypeOfProbe(const QString &probeId)
{
    for (EventType t : eventTypes) {
        if (QLatin1String(probeIdOf(t)) == probeId)
            return t;
    }
    return std::nullopt;
}

QList<ProbeOverview> probeRows(const SessionData &data, const OverviewQuery &q,
                               const std::array<qint64, 256> &counts,
                               std::array<std::vector<quint64>, 256> &latencies)
{
    QStringList ids;
    auto add = [&ids](const QString &id) {
        if (!id.isEmpty() && !ids.contains(id))
            ids << id;
    };
    for (const ProbeConfig &p : data.info.probes)
        add(p.id);
    for (const ProbeStats &s : data.stats)
        add(s.probeId);
    for (EventType t : eventTypes) {
        if (data.events.count(t) > 0)
            add(QString::fromLatin1(probeIdOf(t)));
    }
    for (const HistogramSnapshot &h : data.histograms)
        add(h.probeId);
    for (const CounterSample &c : data.counters)
        add(c.probeId);

    QHash<QString, ProbeStats> last;
    for (const ProbeStats &s : data.stats) {
        auto it = last.find(s.probeId);
        if (it == last.end() || s.timeNs >= it->timeNs)
            last.insert(s.probeId, s);
    }

    QList<ProbeOverview> out;
    for (const QString &id : std::as_const(ids)) {
        ProbeOverview p;
        p.probeId = id;
        p.type = eventTypeOfProbe(id);
        const bool hasHistograms =
            std::any_of(data.histograms.cbegin(), data.histograms.cend(),
                        [&id](const HistogramSnapshot &h) { return h.probeId == id; });
        const bool hasCounters =
            std::any_of(data.counters.cbegin(), data.counters.cend(),
                        [&id](const CounterSample &c) { return c.probeId == id; });
        if (p.type && (data.events.count(*p.type) > 0 || !hasHistograms))
            p.kind = ProbeOverview::Kind::Events;
        else if (hasHistograms)
            p.kind = ProbeOverview::Kind::Histograms;
        else if (hasCounters)
            p.kind = ProbeOverview::Kind::Counters;

        if (p.kind == ProbeOverview::Kind::Events) {
            const int t = int(*p.type);
            p.events = counts[size_t(t)];
            visitEventType(*p.type, [&]<typename E>() { p.hasLatency = waitLatency<E>; });
            std::vector<quint64> &v = latencies[size_t(t)]; // reordered: dropped after this
            if (p.hasLatency && !v.empty()) {
                // Nearest ranks as nearestRank() takes them, each selection in what the one
                // before left above its rank: the whole vector, the upper half, the top 1 %.
                const size_t n = v.size();
                auto rankOf = [n](double fraction) {
                    return std::clamp<size_t>(size_t(std::ceil(fraction * double(n) - 1e-9)), 1,
                                              n) -
                           1;
                };
                const size_t r50 = rankOf(0.50), r99 = rankOf(0.99);
                std::nth_element(v.begin(), v.begin() + qsizetype(r50), v.end());
                p.p50Ns = v[r50];
                std::nth_element(v.begin() + qsizetype(r50), v.begin() + qsizetype(r99), v.end());
                p.p99Ns = v[r99];
                p.maxNs = *std::max_element(v.cbegin() + qsizetype(r99), v.cend());
            }
        } else if (p.kind == ProbeOverview::Kind::Histograms) {
            std::optional<Log2Histogram> merged;
            QSet<quint64> intervals;
            for (const HistogramSnapshot &h : data.histograms) {
                if (h.probeId != id || h.timeNs < q.startNs || h.timeNs >= q.endNs)
                    continue;
                if (!merged)
                    merged = Log2Histogram(h.histogram.unit());
                if (h.histogram.unit() != merged->unit())
                    continue;
                merged->merge(h.histogram);
                intervals.insert(h.timeNs);
            }
            if (merged) {
                p.unit = merged->unit();
                p.samples = merged->count();
                p.intervals = intervals.size();
                // Keys that a sample counts under several of (iostack's layers one request
                // passes, docs/iostack.md) would count it more than once merged.
                const ProbeInfo *info = ProbeCatalog::find(id);
                if (!info || !info->histogramKeysOverlap) {
                    p.p50Slot = slotAtRank(*merged, 0.50);
                    p.p99Slot = slotAtRank(*merged, 0.99);
                    p.maxSlot = merged->count() ? merged->usedSlots() - 1 : -1;
                }
            }
        } else if (p.kind == ProbeOverview::Kind::Counters) {
            QSet<quint64> intervals;
            for (const CounterSample &c : data.counters) {
                if (c.probeId == id && c.timeNs >= q.startNs && c.timeNs < q.endNs)
                    intervals.insert(c.timeNs);
            }
            p.intervals = intervals.size();
        }
        const auto s = last.constFind(id);
        if (s != last.constEnd()) {
            p.hasStats = true;
            p.lost = s->eventsLost;
            p.unseen = s->eventsUnseen;
            p.unfinished = s->unfinished;
        }
        out << p;
    }
    return out;
}

} // namespace

bool isOwnProcessName(const QByteArray &comm)
{
    // TASK_COMM_LEN is 16: the kernel keeps 15 bytes of a name ("bpflens-symboli").
    static const std::array<QByteArray, 4> names{
        QByteArrayLiteral("bpflens"), QByteArrayLiteral("bpflens-cli"),
        QByteArrayLiteral("bpflens-helper"), QByteArrayLiteral("bpflens-symbolizer").left(15)};
    return std::find(names.cbegin(), names.cend(), comm) != names.cend();
}

EventType costEventType(CostKind kind)
{
    switch (kind) {
    case CostKind::CpuSamples:
        return EventType::CpuSample;
    case CostKind::OffCpuTime:
        return EventType::OffCpu;
    case CostKind::BlockTime:
        return EventType::Block;
    case CostKind::Opens:
        return EventType::Open;
    case CostKind::Connects:
        return EventType::TcpConnect;
    }
    return EventType::Exec;
}

bool costIsTime(CostKind kind)
{
    return kind == CostKind::OffCpuTime || kind == CostKind::BlockTime;
}

Overview computeOverview(const SessionData &data, const OverviewQuery &q, const StackTable *stacks,
                         const std::atomic_bool *cancel, const ScanSplit &split)
{
    const EventStore &store = data.events;
    const bool filtering = !(q.filter == EventFilter{});
    std::vector<ScanRange> ranges;
    for (EventType t : eventTypes) {
        const qsizetype first = store.lowerBound(t, q.startNs);
        const qsizetype last = q.endNs == std::numeric_limits<quint64>::max()
                                   ? store.count(t)
                                   : store.lowerBound(t, q.endNs);
        if (first < last)
            ranges.push_back({t, first, last});
    }
    std::vector<Partial> partials = scanInChunks<Partial>(
        ranges, split,
        [&] {
            Partial p;
            p.matcher = EventMatcher(q.filter);
            return p;
        },
        [&](Partial &p, const ScanRange &r) {
            visitEventType(r.type, [&]<typename E>() {
                constexpr int cost = costOf<E>();
                const size_t t = size_t(r.type);
                for (qsizetype i = r.first; i < r.last; ++i) {
                    if ((i & 0xffff) == 0 && cancelled(cancel))
                        return;
                    if (filtering && !p.matcher.accepts<E>(store, i))
                        continue;
                    ++p.counts[t];
                    const quint32 pid = store.value<&E::pid>(i);
                    const QByteArray &comm = store.value<&E::comm>(i);
                    if constexpr (waitLatency<E>)
                        p.latencies[t].push_back(store.latencyNs<E>(i));
                    // The idle task's samples are idle time, not a process's cost.
                    const bool costed =
                        cost >= 0 && !(cost == int(CostKind::CpuSamples) && pid == 0);
                    // Whether the process is BPF Lens' own: a costed event's process is
                    // decided once per row after the scan, the others' here.
                    if (!costed && p.own.isOwn(comm))
                        p.ownPids.insert(pid);
                    if (costed) {
                        const Key key{pid, pointerWord(comm), quint64(cost)};
                        const qsizetype slot = p.costIndex.slot(key, [&] {
                            CostRow row;
                            row.pid = pid;
                            row.comm = comm;
                            p.costRows.push_back(row);
                            p.costKeys.push_back(key);
                            return qsizetype(p.costRows.size()) - 1;
                        });
                        CostRow &row = p.costRows[size_t(slot)];
                        row.value += costValue<E>(store, i);
                        ++row.events;
                    }
                    withDeclared<E>(Dimension::Error, [&]<typename T>() {
                        Key k;
                        if (!declaredKey<E, T>(store, i, &k))
                            return;
                        const Key key{quint64(t), k.a, pid};
                        const qsizetype slot = p.errorIndex.slot(key, [&] {
                            p.errorCounts.push_back(0);
                            p.errorKeys.push_back(key);
                            return qsizetype(p.errorCounts.size()) - 1;
                        });
                        ++p.errorCounts[size_t(slot)];
                    });
                }
            });
        },
        cancel);
    if (cancelled(cancel))
        return {};

    // Merged: sums add up, latencies join; the split does not show.
    std::array<qint64, 256> counts{};
    std::array<std::vector<quint64>, 256> latencies;
    QSet<quint32> ownPids;
    std::vector<CostRow> costRows;
    std::vector<quint64> costKind;
    QHash<Key, qsizetype> costMerged;
    QHash<Key, qint64> errors;
    for (Partial &p : partials) {
        for (size_t t = 0; t < counts.size(); ++t) {
            counts[t] += p.counts[t];
            if (latencies[t].empty())
                latencies[t] = std::move(p.latencies[t]);
            else
                latencies[t].insert(latencies[t].end(), p.latencies[t].begin(),
                                    p.latencies[t].end());
            p.latencies[t] = {};
        }
        ownPids.unite(p.ownPids);
        for (size_t k = 0; k < p.costRows.size(); ++k) {
            const auto it = costMerged.constFind(p.costKeys[k]);
            if (it == costMerged.constEnd()) {
                costMerged.insert(p.costKeys[k], qsizetype(costRows.size()));
                costRows.push_back(p.costRows[k]);
                costKind.push_back(p.costKeys[k].c);
                continue;
            }
            CostRow &m = costRows[size_t(it.value())];
            m.value += p.costRows[k].value;
            m.events += p.costRows[k].events;
        }
        for (size_t k = 0; k < p.errorKeys.size(); ++k)
            errors[p.errorKeys[k]] += p.errorCounts[k];
    }
    partials.clear();

    Overview out;
    for (qint64 c : counts)
        out.eventsInRange += c;
    out.memory = memoryOverview(store, q, stacks ? stacks->stackCount() : 0, cancel);
    if (cancelled(cancel))
        return {};
    out.probes = probeRows(data, q, counts, latencies);
    latencies = {};

    // A process is BPF Lens' own when it is named so, or shares its pid with one that is:
    // the GUI's threads have names of their own ("QThread").
    for (const CostRow &r : costRows) {
        if (isOwnProcessName(r.comm))
            ownPids.insert(quint32(r.pid));
    }
    for (CostRow &r : costRows)
        r.own = isOwnProcessName(r.comm) || ownPids.contains(quint32(r.pid));
    for (int k = 0; k < CostKindCount; ++k) {
        const CostKind kind = CostKind(k);
        if (store.count(costEventType(kind)) == 0)
            continue;
        CostList list;
        list.kind = kind;
        QList<CostRow> rows;
        for (size_t i = 0; i < costRows.size(); ++i) {
            if (costKind[i] != quint64(k))
                continue;
            const CostRow &r = costRows[i];
            list.total += r.value;
            ++list.processes;
            if (r.own)
                list.ownValue += r.value;
            if (!r.own || q.includeOwn)
                rows << r;
        }
        std::sort(rows.begin(), rows.end(), [](const CostRow &a, const CostRow &b) {
            if (a.value != b.value)
                return a.value > b.value;
            if (a.pid != b.pid)
                return a.pid < b.pid;
            return a.comm < b.comm;
        });
        if (q.topLimit > 0 && rows.size() > q.topLimit)
            rows.resize(q.topLimit);
        list.rows = rows;
        out.costs << list;
    }

    // Losses first: every other number of the probe is short by them.
    for (const ProbeOverview &p : std::as_const(out.probes)) {
        if (p.lost == 0)
            continue;
        Finding f;
        f.kind = Finding::Kind::Losses;
        f.probeId = p.probeId;
        if (p.type)
            f.type = *p.type;
        f.count = qint64(p.lost);
        out.findings << f;
    }
    if (q.findSpikes) {
        out.spikesSearched = true;
        out.findings << findSpikes(data, q, stacks, cancel);
        if (cancelled(cancel))
            return {};
    }

    QHash<QPair<int, qint32>, Finding> failed; // (type, errno) -> calls
    for (auto it = errors.cbegin(); it != errors.cend(); ++it) {
        const int type = int(it.key().a);
        const qint32 error = qint32(qint64(it.key().b));
        Finding &f = failed[{type, error}];
        f.kind = Finding::Kind::Errors;
        f.type = EventType(type);
        f.error = error;
        f.errorName = errnoName(-error);
        f.total = counts[size_t(type)];
        f.count += it.value();
        if (ownPids.contains(quint32(it.key().c)))
            f.ownCount += it.value();
    }
    QList<Finding> errorFindings = failed.values();
    std::sort(errorFindings.begin(), errorFindings.end(), [](const Finding &a, const Finding &b) {
        if (a.count != b.count)
            return a.count > b.count;
        if (a.type != b.type)
            return a.type < b.type;
        return a.error > b.error;
    });
    out.findings << errorFindings.mid(0, 5);

    // A run queue whose p99 is far above its p50: some threads waited far longer than usual
    // for a CPU (an overloaded machine, or a CPU hog at a higher priority).
    for (const ProbeOverview &p : std::as_const(out.probes)) {
        if (p.probeId != QLatin1String("runqlat") || p.p50Slot < 0 || p.p99Slot < 0 ||
            !isTimeUnit(p.unit))
            continue;
        const quint64 p99LowNs = Log2Histogram::slotLow(p.p99Slot) * unitDivisor(p.unit);
        // At least 16 times (4 log2 buckets) apart, and long enough to be felt.
        if (p.p99Slot - p.p50Slot < 4 || p99LowNs < 100'000)
            continue;
        Finding f;
        f.kind = Finding::Kind::RunQueue;
        f.probeId = p.probeId;
        f.unit = p.unit;
        f.p50Slot = p.p50Slot;
        f.p99Slot = p.p99Slot;
        f.factor = std::ldexp(1.0, p.p99Slot - p.p50Slot);
        f.count = qint64(p.samples);
        out.findings << f;
    }
    return out;
}

QList<Finding> findSpikes(const SessionData &data, const OverviewQuery &q, const StackTable *stacks,
                          const std::atomic_bool *cancel)
{
    // The recording in equal bins; a bin far above the median bin of its type is a spike.
    constexpr int Bins = 60;
    constexpr qint64 MinimumEvents = 20;
    constexpr double MinimumFactor = 4;
    const EventStore &store = data.events;
    const quint64 fullStart = q.fullStartNs;
    const quint64 fullEnd =
        q.fullEndNs == std::numeric_limits<quint64>::max() ? store.lastTimeNs() + 1 : q.fullEndNs;
    if (fullEnd <= fullStart)
        return {};
    const quint64 width = std::max<quint64>(1, (fullEnd - fullStart + Bins - 1) / Bins);
    const bool filtering = !(q.filter == EventFilter{});
    QList<Finding> spikes;
    for (EventType t : eventTypes) {
        if (store.count(t) < MinimumEvents)
            continue;
        std::array<qint64, Bins> bins{};
        if (!filtering) {
            qsizetype below = store.lowerBound(t, fullStart);
            for (int b = 0; b < Bins; ++b) {
                const qsizetype next = store.lowerBound(t, fullStart + quint64(b + 1) * width);
                bins[size_t(b)] = next - below;
                below = next;
            }
        } else {
            const EventMatcher matcher(q.filter);
            const qsizetype first = store.lowerBound(t, fullStart);
            const qsizetype last = store.lowerBound(t, fullEnd);
            const EventStore::TimeColumn times = store.timeColumn(t);
            for (qsizetype i = first; i < last; ++i) {
                if ((i & 0xffff) == 0 && cancelled(cancel))
                    return {};
                if (matcher.accepts(store, t, i))
                    ++bins[size_t(std::min<quint64>((times[i] - fullStart) / width, Bins - 1))];
            }
        }
        std::array<qint64, Bins> sorted = bins;
        std::nth_element(sorted.begin(), sorted.begin() + Bins / 2, sorted.end());
        const double median = std::max<double>(1.0, double(sorted[Bins / 2]));
        const int peak = int(std::max_element(bins.cbegin(), bins.cend()) - bins.cbegin());
        if (double(bins[size_t(peak)]) < MinimumFactor * median ||
            bins[size_t(peak)] < MinimumEvents)
            continue;
        // The burst: the peak and its neighbours at half its height or more.
        int from = peak, to = peak;
        while (from > 0 && bins[size_t(from - 1)] * 2 >= bins[size_t(peak)])
            --from;
        while (to + 1 < Bins && bins[size_t(to + 1)] * 2 >= bins[size_t(peak)])
            ++to;
        Finding f;
        f.kind = Finding::Kind::Spike;
        f.type = t;
        f.startNs = fullStart + quint64(from) * width;
        f.endNs = std::min(fullEnd, fullStart + quint64(to + 1) * width);
        for (int b = from; b <= to; ++b)
            f.count += bins[size_t(b)];
        f.factor = double(f.count) / double(to - from + 1) / median;
        spikes << f;
    }
    std::sort(spikes.begin(), spikes.end(),
              [](const Finding &a, const Finding &b) { return a.factor > b.factor; });
    QList<Finding> out;
    for (Finding &f : spikes) {
        if (out.size() == 3)
            break;
        ExplainQuery eq;
        eq.startNs = f.startNs;
        eq.endNs = f.endNs;
        eq.filter = q.filter;
        eq.type = f.type;
        eq.limit = 10;
        const Explanation x = explainRange(store, eq, stacks, cancel);
        if (cancelled(cancel))
            return {};
        bool ownBurst = false;
        for (const ExplainRow &r : x.rows) {
            const bool own = !r.comm.isEmpty() && isOwnProcessName(r.comm);
            if (own && !q.includeOwn) {
                // A burst that is mostly BPF Lens itself (its symbolizer starting) is not
                // the recorded system's.
                ownBurst = ownBurst || r.insideShare() >= 0.5;
                continue;
            }
            f.cause = r;
            break;
        }
        if (ownBurst)
            continue;
        out << f;
    }
    return out;
}

} // namespace bpflens
