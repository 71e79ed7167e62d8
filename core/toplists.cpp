#include "core/toplists.h"

#include "core/cancellation.h"
#include "core/cgroups.h"
#include "core/eventstore.h"
#include "core/openflags.h"
#include "core/topkeys.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <vector>

namespace bpflens {

using namespace topkeys;

static_assert(std::ranges::all_of(eventTypes, [](EventType t) { return quint8(t) < 64; }),
              "typeBit() needs a bit per event type");

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

// The rows of the accumulated keys with their p99, heaviest first by the query's metric, cut
// to its limit.
void finishRows(std::vector<Accumulator> &acc, const TopQuery &q, TopList *out)
{
    out->keys = qsizetype(acc.size());
    out->rows.reserve(out->keys);
    for (Accumulator &a : acc) {
        a.row.p99LatencyNs = nearestRank(a.latencies, 0.99);
        out->latencyTypes |= a.row.latencyTypes;
        out->bytesTypes |= a.row.bytesTypes;
        out->rows.append(std::move(a.row));
    }
    std::sort(out->rows.begin(), out->rows.end(), [&](const TopRow &x, const TopRow &y) {
        const quint64 mx = metricValue(x, q.metric), my = metricValue(y, q.metric);
        if (mx != my)
            return mx > my;
        if (x.count != y.count)
            return x.count > y.count;
        return x.key < y.key;
    });
    if (q.limit > 0 && out->rows.size() > q.limit)
        out->rows.resize(q.limit);
}

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
                        a.row.latencyTypes |= typeBit(eventTypeOf<E>);
                        a.row.totalLatencyNs += ns;
                        a.latencies.push_back(ns);
                    }
                    if constexpr (hasBytes<E>) {
                        ++a.row.bytesCount;
                        a.row.bytesTypes |= typeBit(eventTypeOf<E>);
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
            m.row.latencyTypes |= a.row.latencyTypes;
            m.row.bytesTypes |= a.row.bytesTypes;
            m.latencies.insert(m.latencies.end(), a.latencies.begin(), a.latencies.end());
        }
    }

    finishRows(acc, q, &out);
    return out;
}

QString cgroupKeyText(const CgroupTable &cgroups, quint64 cgroupId, CgroupKey key)
{
    const CgroupPath *path = cgroupId ? cgroups.path(cgroupId) : nullptr;
    if (!path || path->path.isEmpty())
        return QLatin1String(UnknownCgroupKey);
    const CgroupNames n = cgroups.names(cgroupId);
    if (key == CgroupKey::Unit)
        return n.unit.isEmpty() ? QStringLiteral("[none]") : n.unit;
    if (n.container.isEmpty())
        return QStringLiteral("[host]");
    return n.runtime + QLatin1Char(' ') + shortContainerId(n.container);
}

TopList topListByCgroup(const EventStore &store, const CgroupTable &cgroups, CgroupKey key,
                        const TopQuery &q)
{
    const bool filtering = !(q.filter == EventFilter{});
    const EventMatcher matcher(q.filter);
    // Many cgroup ids may share a name (a unit's sub-cgroups): ids to names once, names to rows.
    QHash<quint64, qsizetype> rowOfId;
    QHash<QString, qsizetype> rowOfName;
    std::vector<Accumulator> acc;
    TopList out;
    const std::vector<ScanRange> ranges = rangesOf(store, q.startNs, q.endNs, [&]<typename E>() {
        return hasCgroupId<E> && (!q.type || *q.type == eventTypeOf<E>);
    });
    for (const ScanRange &r : ranges) {
        visitEventType(r.type, [&]<typename E>() {
            if constexpr (hasCgroupId<E>) {
                quint64 lastId = ~quint64(0);
                qsizetype slot = -1;
                for (qsizetype i = r.first; i < r.last; ++i) {
                    if (filtering && !matcher.accepts<E>(store, i))
                        continue;
                    const quint64 id = store.value<&E::cgroupId>(i);
                    if (id != lastId || slot < 0) {
                        lastId = id;
                        auto it = rowOfId.constFind(id);
                        if (it == rowOfId.constEnd()) {
                            const QString name = cgroupKeyText(cgroups, id, key);
                            auto n = rowOfName.constFind(name);
                            if (n == rowOfName.constEnd()) {
                                Accumulator a;
                                a.row.key = name;
                                acc.push_back(std::move(a));
                                n = rowOfName.insert(name, qsizetype(acc.size()) - 1);
                            }
                            it = rowOfId.insert(id, n.value());
                        }
                        slot = it.value();
                    }
                    Accumulator &a = acc[size_t(slot)];
                    ++a.row.count;
                    ++out.events;
                    if constexpr (hasLatency<E>) {
                        const quint64 ns = store.latencyNs<E>(i);
                        ++a.row.latencyCount;
                        a.row.latencyTypes |= typeBit(eventTypeOf<E>);
                        a.row.totalLatencyNs += ns;
                        a.latencies.push_back(ns);
                    }
                    if constexpr (hasBytes<E>) {
                        ++a.row.bytesCount;
                        a.row.bytesTypes |= typeBit(eventTypeOf<E>);
                        a.row.bytes += bytesOf<E>(store, i);
                    }
                }
            }
        });
    }
    finishRows(acc, q, &out);
    return out;
}

namespace {

// Latencies counted into fine buckets instead of kept one by one (80 MB at 10M events): HDR
// style, exact below 256 ns, then 128 buckets per power of two (under 0.8% wide). Monotonic, so
// a rank's bucket follows from the counts below it, and a second scan needs to keep only the
// latencies of the few buckets the asked ranks fall in.
constexpr int SubBits = 7;
constexpr size_t BucketCount = size_t(64 - SubBits + 1) << SubBits;

size_t latencyBucket(quint64 v)
{
    if (v < (quint64(1) << (SubBits + 1)))
        return size_t(v);
    const int e = std::bit_width(v) - 1; // > SubBits
    return (size_t(e - SubBits + 1) << SubBits) |
           size_t((v >> (e - SubBits)) & ((quint64(1) << SubBits) - 1));
}

// Whether every latency of the bucket is one value: then its count alone gives the rank.
bool singleValueBucket(size_t b)
{
    return b < (size_t(1) << (SubBits + 1));
}

constexpr int Ranks = 4; // p50, p90, p99, p99.9

struct StatsGroup
{
    LatencyStats stats;
    std::vector<quint64> buckets; // BucketCount counts, sized at the first latency
    quint64 sum = 0;
    // After the first scan: each asked rank's bucket and how many latencies lie below it.
    std::array<quint64, Ranks> rank{};
    std::array<size_t, Ranks> rankBucket{};
    std::array<quint64, Ranks> below{};
    bool needsValues = false;    // some rank's bucket holds more than one value
    std::vector<quint64> values; // the second scan's latencies of those buckets
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

// The second scan's: per local slot the merged group, and per merged group the latencies of
// its ranks' buckets.
struct ValuesPartial
{
    EventMatcher matcher;
    KeyIndex index;
    std::vector<qsizetype> groupOf;
    std::vector<std::vector<quint64>> values;
};

// The key of a latency statistics row: the type's Disk and Operation values in declaration
// order; with parts, their text too.
template<typename E>
Key statsKey(const EventStore &store, qsizetype i, EventType type, QStringList *parts)
{
    Key key{0, 0, quint64(type)};
    int slotWord = 0;
    auto part = [&]<typename T>() {
        Key k;
        if (!declaredKey<E, T>(store, i, &k))
            return;
        (slotWord++ == 0 ? key.a : key.b) = k.a;
        if (parts) {
            TopRow row;
            declaredRow<E, T>(store, i, &row);
            *parts << row.key;
        }
    };
    withDeclared<E>(Dimension::Disk, [&]<typename T>() { part.template operator()<T>(); });
    withDeclared<E>(Dimension::Operation, [&]<typename T>() { part.template operator()<T>(); });
    return key;
}

// Both scans of the statistics: every event of r with a latency that the filter accepts (all
// without one), with its statistics key, as fn.template operator()<E>(i, key).
template<typename Fn>
void forEachStatsEvent(const EventStore &store, const ScanRange &r, const EventMatcher *matcher,
                       const std::atomic_bool *cancel, Fn &&fn)
{
    visitEventType(r.type, [&]<typename E>() {
        if constexpr (hasLatency<E>) {
            for (qsizetype i = r.first; i < r.last; ++i) {
                if ((i & 0xffff) == 0 && cancelled(cancel))
                    return;
                if (matcher && !matcher->accepts<E>(store, i))
                    continue;
                fn.template operator()<E>(i, statsKey<E>(store, i, r.type, nullptr));
            }
        }
    });
}

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
            auto count = [&]<typename E>(qsizetype i, const Key &key) {
                const qsizetype slot = p.index.slot(key, [&] {
                    QStringList parts;
                    statsKey<E>(store, i, r.type, &parts);
                    StatsGroup g;
                    g.stats.type = r.type;
                    g.stats.key = parts.join(QLatin1Char(' '));
                    g.stats.minNs = std::numeric_limits<quint64>::max();
                    g.buckets.assign(BucketCount, 0);
                    p.groups.push_back(std::move(g));
                    p.keys.push_back(key);
                    return qsizetype(p.groups.size()) - 1;
                });
                StatsGroup &g = p.groups[size_t(slot)];
                const quint64 ns = store.latencyNs<E>(i);
                ++g.stats.count;
                g.sum += ns;
                ++g.buckets[latencyBucket(ns)];
                g.stats.minNs = std::min(g.stats.minNs, ns);
                // Chunks come in any order: the first of equal maxima by index.
                if (g.stats.maxIndex < 0 || ns > g.stats.maxNs ||
                    (ns == g.stats.maxNs && i < g.stats.maxIndex)) {
                    g.stats.maxNs = ns;
                    g.stats.maxIndex = i;
                }
            };
            forEachStatsEvent(store, r, filtering ? &p.matcher : nullptr, cancel, count);
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
            for (size_t b = 0; b < BucketCount; ++b)
                m.buckets[b] += g.buckets[b];
        }
    }
    partials.clear();

    // Each rank's bucket from the counts. The smallest and the largest latency are known
    // exactly: a rank in their bucket at its edge needs no values either.
    static constexpr std::array<double, Ranks> fractions{0.5, 0.9, 0.99, 0.999};
    bool secondScan = false;
    for (StatsGroup &g : groups) {
        const quint64 n = quint64(g.stats.count);
        quint64 below = 0;
        size_t b = 0;
        for (int k = 0; k < Ranks; ++k) {
            // The epsilon keeps 0.9 * 10 at rank 9 whatever the rounding of 0.9.
            const quint64 rank = std::clamp<quint64>(
                quint64(std::ceil(fractions[size_t(k)] * double(n) - 1e-9)), 1, n);
            g.rank[size_t(k)] = rank;
            while (below + g.buckets[b] < rank)
                below += g.buckets[b++];
            g.rankBucket[size_t(k)] = b;
            g.below[size_t(k)] = below;
            if (!singleValueBucket(b) && g.stats.minNs != g.stats.maxNs)
                g.needsValues = true;
        }
        g.buckets = {};
        secondScan = secondScan || g.needsValues;
    }

    if (secondScan) {
        std::vector<ValuesPartial> second = scanInChunks<ValuesPartial>(
            ranges, split,
            [&] {
                ValuesPartial p;
                p.matcher = EventMatcher(filter);
                p.values.resize(groups.size());
                return p;
            },
            [&](ValuesPartial &p, const ScanRange &r) {
                auto keep = [&]<typename E>(qsizetype i, const Key &key) {
                    const qsizetype slot = p.index.slot(key, [&] {
                        p.groupOf.push_back(merged.value(key, -1));
                        return qsizetype(p.groupOf.size()) - 1;
                    });
                    const qsizetype gi = p.groupOf[size_t(slot)];
                    const StatsGroup &g = groups[size_t(gi)];
                    if (!g.needsValues)
                        return;
                    const quint64 ns = store.latencyNs<E>(i);
                    const size_t b = latencyBucket(ns);
                    for (size_t rb : g.rankBucket) {
                        if (rb == b) {
                            p.values[size_t(gi)].push_back(ns);
                            return;
                        }
                    }
                };
                forEachStatsEvent(store, r, filtering ? &p.matcher : nullptr, cancel, keep);
            },
            cancel);
        if (cancelled(cancel))
            return {};
        for (ValuesPartial &p : second) {
            for (size_t gi = 0; gi < groups.size(); ++gi) {
                std::vector<quint64> &to = groups[gi].values;
                to.insert(to.end(), p.values[gi].begin(), p.values[gi].end());
                p.values[gi] = {};
            }
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
        // The kept latencies sorted: those of one bucket are then a run, and the rank's value is
        // its (rank - below)-th. The same as nth_element over every latency, ties included.
        std::sort(g.values.begin(), g.values.end());
        const std::array<quint64 *, Ranks> out4{&g.stats.p50Ns, &g.stats.p90Ns, &g.stats.p99Ns,
                                                &g.stats.p999Ns};
        for (int k = 0; k < Ranks; ++k) {
            const quint64 rank = g.rank[size_t(k)];
            const size_t b = g.rankBucket[size_t(k)];
            quint64 v;
            if (g.stats.minNs == g.stats.maxNs) {
                v = g.stats.minNs;
            } else if (singleValueBucket(b)) {
                v = quint64(b);
            } else {
                const auto first =
                    std::partition_point(g.values.cbegin(), g.values.cend(),
                                         [b](quint64 x) { return latencyBucket(x) < b; });
                v = *(first + qsizetype(rank - g.below[size_t(k)] - 1));
            }
            *out4[size_t(k)] = v;
        }
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
