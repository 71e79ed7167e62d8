#include "toplists.h"

#include "eventstore.h"
#include "openflags.h"
#include "topkeys.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace bpflens {

using namespace topkeys;

namespace {

struct Accumulator
{
    TopRow row;
    std::vector<quint64> latencies;
};

quint64 metricValue(const TopRow &r, TopMetric m)
{
    switch (m) {
    case TopMetric::Count:
        return quint64(r.count);
    case TopMetric::Latency:
        return r.totalLatencyNs;
    case TopMetric::P99:
        return r.p99LatencyNs;
    case TopMetric::Bytes:
        return r.bytes;
    }
    return 0;
}

bool cancelled(const std::atomic_bool *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

} // namespace

QString dimensionName(Dimension d)
{
    switch (d) {
    case Dimension::Process:
        return QStringLiteral("process");
    case Dimension::Command:
        return QStringLiteral("command");
    case Dimension::File:
        return QStringLiteral("file");
    case Dimension::Disk:
        return QStringLiteral("disk");
    case Dimension::Destination:
        return QStringLiteral("destination");
    case Dimension::Operation:
        return QStringLiteral("operation");
    case Dimension::Error:
        return QStringLiteral("error");
    }
    return {};
}

std::optional<Dimension> dimensionFromName(const QString &name)
{
    for (int d = 0; d <= int(Dimension::Error); ++d) {
        if (dimensionName(Dimension(d)) == name)
            return Dimension(d);
    }
    return std::nullopt;
}

QString metricName(TopMetric m)
{
    switch (m) {
    case TopMetric::Count:
        return QStringLiteral("count");
    case TopMetric::Latency:
        return QStringLiteral("latency");
    case TopMetric::P99:
        return QStringLiteral("p99");
    case TopMetric::Bytes:
        return QStringLiteral("bytes");
    }
    return {};
}

std::optional<TopMetric> metricFromName(const QString &name)
{
    for (int m = 0; m <= int(TopMetric::Bytes); ++m) {
        if (metricName(TopMetric(m)) == name)
            return TopMetric(m);
    }
    return std::nullopt;
}

bool typeHasDimension(EventType type, Dimension d)
{
    if (d == Dimension::Process || d == Dimension::Command)
        return true;
    bool has = false;
    visitEventType(type, [&]<typename E>() { has = withDeclared<E>(d, []<typename>() {}); });
    return has;
}

quint64 nearestRank(std::vector<quint64> &values, double fraction)
{
    if (values.empty())
        return 0;
    const auto n = values.size();
    // The epsilon keeps 0.9 * 10 at rank 9 whatever the rounding of 0.9.
    auto rank = size_t(std::ceil(fraction * double(n) - 1e-9));
    rank = std::clamp<size_t>(rank, 1, n);
    std::nth_element(values.begin(), values.begin() + qsizetype(rank - 1), values.end());
    return values[rank - 1];
}

namespace {

// The nearest ranks of ascending fractions: each nth_element reorders only the part above the
// previous rank (everything below it is no larger), so p50..p99.9 cost about 1.6 passes over
// the values instead of four.
void nearestRanks(std::vector<quint64> &values,
                  std::initializer_list<std::pair<double, quint64 *>> wanted)
{
    const size_t n = values.size();
    size_t from = 0;
    for (const auto &[fraction, out] : wanted) {
        if (n == 0) {
            *out = 0;
            continue;
        }
        const size_t rank =
            std::clamp<size_t>(size_t(std::ceil(fraction * double(n) - 1e-9)), 1, n);
        std::nth_element(values.begin() + qsizetype(from), values.begin() + qsizetype(rank - 1),
                         values.end());
        *out = values[rank - 1];
        from = rank - 1;
    }
}

} // namespace

namespace {

// The events of each type in [startNs, endNs) (every type, or only onlyType).
template<typename Want>
std::vector<ScanRange> rangesOf(const EventStore &store, quint64 startNs, quint64 endNs,
                                Want &&want)
{
    std::vector<ScanRange> ranges;
    forEachEventType([&]<typename E>() {
        const EventType type = eventTypeOf<E>;
        if (!want.template operator()<E>())
            return;
        const qsizetype first = store.lowerBound(type, startNs);
        const qsizetype last = endNs == std::numeric_limits<quint64>::max()
                                   ? store.count(type)
                                   : store.lowerBound(type, endNs);
        if (first < last)
            ranges.push_back({type, first, last});
    });
    return ranges;
}

// One thread's tallies of a top list.
struct TopPartial
{
    EventMatcher matcher; // its cache of matched strings is per thread
    KeyIndex index;
    std::vector<Key> keys; // per slot
    std::vector<Accumulator> acc;
    qint64 events = 0;
};

} // namespace

TopList topList(const EventStore &store, const TopQuery &q, const std::atomic_bool *cancel,
                const ScanSplit &split)
{
    const bool filtering = !(q.filter == EventFilter{});
    const std::vector<ScanRange> ranges = rangesOf(store, q.startNs, q.endNs, [&]<typename E>() {
        const EventType type = eventTypeOf<E>;
        return (!q.type || *q.type == type) && typeHasDimension(type, q.dimension);
    });
    std::vector<TopPartial> partials = scanInChunks<TopPartial>(
        ranges, split,
        [&] {
            TopPartial p;
            p.matcher = EventMatcher(q.filter);
            return p;
        },
        [&](TopPartial &p, const ScanRange &r) {
            const EventMatcher &matcher = p.matcher;
            visitEventType(r.type, [&]<typename E>() {
                for (qsizetype i = r.first; i < r.last; ++i) {
                    if ((i & 0xffff) == 0 && cancelled(cancel))
                        return;
                    if (filtering && !matcher.accepts<E>(store, i))
                        continue;
                    Key key;
                    if (!eventKey<E>(store, i, q.dimension, &key))
                        continue;
                    const qsizetype slot = p.index.slot(key, [&] {
                        Accumulator a;
                        eventRow<E>(store, i, q.dimension, &a.row);
                        p.acc.push_back(std::move(a));
                        p.keys.push_back(key);
                        return qsizetype(p.acc.size()) - 1;
                    });
                    Accumulator &a = p.acc[size_t(slot)];
                    ++a.row.count;
                    ++p.events;
                    if constexpr (hasLatency<E>) {
                        const quint64 ns = store.latencyNs<E>(i);
                        ++a.row.latencyCount;
                        a.row.totalLatencyNs += ns;
                        a.latencies.push_back(ns);
                    }
                    if constexpr (hasBytes<E>) {
                        ++a.row.bytesCount;
                        a.row.bytes += bytesOf<E>(store, i);
                    }
                }
            });
        },
        cancel);
    if (cancelled(cancel))
        return {};

    // Merged key by key: sums add up and latencies join, so the split does not show.
    TopList out;
    std::vector<Accumulator> acc;
    QHash<Key, qsizetype> merged;
    for (TopPartial &p : partials) {
        out.events += p.events;
        for (size_t k = 0; k < p.acc.size(); ++k) {
            Accumulator &a = p.acc[k];
            const auto it = merged.constFind(p.keys[k]);
            if (it == merged.constEnd()) {
                merged.insert(p.keys[k], qsizetype(acc.size()));
                acc.push_back(std::move(a));
                continue;
            }
            Accumulator &m = acc[size_t(it.value())];
            m.row.count += a.row.count;
            m.row.latencyCount += a.row.latencyCount;
            m.row.totalLatencyNs += a.row.totalLatencyNs;
            m.row.bytesCount += a.row.bytesCount;
            m.row.bytes += a.row.bytes;
            m.latencies.insert(m.latencies.end(), a.latencies.begin(), a.latencies.end());
        }
    }

    out.keys = qsizetype(acc.size());
    out.rows.reserve(out.keys);
    for (Accumulator &a : acc) {
        a.row.p99LatencyNs = nearestRank(a.latencies, 0.99);
        out.rows.append(std::move(a.row));
    }
    std::sort(out.rows.begin(), out.rows.end(), [&](const TopRow &x, const TopRow &y) {
        const quint64 mx = metricValue(x, q.metric), my = metricValue(y, q.metric);
        if (mx != my)
            return mx > my;
        if (x.count != y.count)
            return x.count > y.count;
        return x.key < y.key;
    });
    if (q.limit > 0 && out.rows.size() > q.limit)
        out.rows.resize(q.limit);
    return out;
}

namespace {

struct StatsGroup
{
    LatencyStats stats;
    std::vector<quint64> latencies;
    quint64 sum = 0;
};

// One thread's latency statistics of every type: keyed by the type (c) and its Disk and
// Operation values (a, b).
struct StatsPartial
{
    EventMatcher matcher;
    KeyIndex index;
    std::vector<Key> keys;
    std::vector<StatsGroup> groups;
};

} // namespace

QList<LatencyStats> latencyStats(const EventStore &store, quint64 startNs, quint64 endNs,
                                 const EventFilter &filter, std::optional<EventType> onlyType,
                                 const std::atomic_bool *cancel, const ScanSplit &split)
{
    const bool filtering = !(filter == EventFilter{});
    const std::vector<ScanRange> ranges = rangesOf(store, startNs, endNs, [&]<typename E>() {
        return hasLatency<E> && (!onlyType || *onlyType == eventTypeOf<E>);
    });
    std::vector<StatsPartial> partials = scanInChunks<StatsPartial>(
        ranges, split,
        [&] {
            StatsPartial p;
            p.matcher = EventMatcher(filter);
            return p;
        },
        [&](StatsPartial &p, const ScanRange &r) {
            const EventMatcher &matcher = p.matcher;
            visitEventType(r.type, [&]<typename E>() {
                if constexpr (hasLatency<E>) {
                    for (qsizetype i = r.first; i < r.last; ++i) {
                        if ((i & 0xffff) == 0 && cancelled(cancel))
                            return;
                        if (filtering && !matcher.accepts<E>(store, i))
                            continue;
                        // The key: the type's Disk and Operation values, in declaration order.
                        Key key{0, 0, quint64(r.type)};
                        int slotWord = 0;
                        QStringList parts;
                        auto part = [&]<typename T>(bool wantText) {
                            Key k;
                            if (!declaredKey<E, T>(store, i, &k))
                                return;
                            (slotWord++ == 0 ? key.a : key.b) = k.a;
                            if (wantText) {
                                TopRow row;
                                declaredRow<E, T>(store, i, &row);
                                parts << row.key;
                            }
                        };
                        auto walk = [&](bool wantText) {
                            slotWord = 0;
                            withDeclared<E>(Dimension::Disk, [&]<typename T>() {
                                part.template operator()<T>(wantText);
                            });
                            withDeclared<E>(Dimension::Operation, [&]<typename T>() {
                                part.template operator()<T>(wantText);
                            });
                        };
                        walk(false);
                        const qsizetype slot = p.index.slot(key, [&] {
                            walk(true);
                            StatsGroup g;
                            g.stats.type = r.type;
                            g.stats.key = parts.join(QLatin1Char(' '));
                            g.stats.minNs = std::numeric_limits<quint64>::max();
                            p.groups.push_back(std::move(g));
                            p.keys.push_back(key);
                            return qsizetype(p.groups.size()) - 1;
                        });
                        StatsGroup &g = p.groups[size_t(slot)];
                        const quint64 ns = store.latencyNs<E>(i);
                        ++g.stats.count;
                        g.sum += ns;
                        g.latencies.push_back(ns);
                        g.stats.minNs = std::min(g.stats.minNs, ns);
                        // Chunks come in any order: the first of equal maxima by index.
                        if (g.stats.maxIndex < 0 || ns > g.stats.maxNs ||
                            (ns == g.stats.maxNs && i < g.stats.maxIndex)) {
                            g.stats.maxNs = ns;
                            g.stats.maxIndex = i;
                        }
                    }
                }
            });
        },
        cancel);
    if (cancelled(cancel))
        return {};

    std::vector<StatsGroup> groups;
    QHash<Key, qsizetype> merged;
    for (StatsPartial &p : partials) {
        for (size_t k = 0; k < p.groups.size(); ++k) {
            StatsGroup &g = p.groups[k];
            const auto it = merged.constFind(p.keys[k]);
            if (it == merged.constEnd()) {
                merged.insert(p.keys[k], qsizetype(groups.size()));
                groups.push_back(std::move(g));
                continue;
            }
            StatsGroup &m = groups[size_t(it.value())];
            m.stats.count += g.stats.count;
            m.sum += g.sum;
            m.stats.minNs = std::min(m.stats.minNs, g.stats.minNs);
            if (g.stats.maxNs > m.stats.maxNs ||
                (g.stats.maxNs == m.stats.maxNs && g.stats.maxIndex < m.stats.maxIndex)) {
                m.stats.maxNs = g.stats.maxNs;
                m.stats.maxIndex = g.stats.maxIndex;
            }
            m.latencies.insert(m.latencies.end(), g.latencies.begin(), g.latencies.end());
        }
    }
    // Types in core/events.h order, then by key.
    std::array<int, 256> typeOrder{};
    int n = 0;
    forEachEventType([&]<typename E>() { typeOrder[size_t(eventTypeOf<E>)] = n++; });
    QList<LatencyStats> out;
    out.reserve(qsizetype(groups.size()));
    for (StatsGroup &g : groups) {
        g.stats.meanNs = double(g.sum) / double(g.stats.count);
        nearestRanks(g.latencies, {{0.5, &g.stats.p50Ns},
                                   {0.9, &g.stats.p90Ns},
                                   {0.99, &g.stats.p99Ns},
                                   {0.999, &g.stats.p999Ns}});
        out.append(g.stats);
    }
    std::sort(out.begin(), out.end(), [&](const LatencyStats &x, const LatencyStats &y) {
        const int tx = typeOrder[size_t(x.type)], ty = typeOrder[size_t(y.type)];
        if (tx != ty)
            return tx < ty;
        return x.key < y.key;
    });
    return out;
}

} // namespace bpflens
