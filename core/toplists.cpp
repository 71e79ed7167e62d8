#include "toplists.h"

#include "eventstore.h"
#include "openflags.h"
#include "topkeys.h"

#include <QHash>

#include <algorithm>
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

TopList topList(const EventStore &store, const TopQuery &q, const std::atomic_bool *cancel)
{
    const EventMatcher matcher(q.filter);
    const bool filtering = !(q.filter == EventFilter{});
    std::vector<Accumulator> acc;
    KeyIndex index;
    TopList out;

    forEachEventType([&]<typename E>() {
        const EventType type = eventTypeOf<E>;
        if ((q.type && *q.type != type) || !typeHasDimension(type, q.dimension) ||
            cancelled(cancel))
            return;
        const qsizetype first = store.lowerBound(type, q.startNs);
        const qsizetype last = q.endNs == std::numeric_limits<quint64>::max()
                                   ? store.count(type)
                                   : store.lowerBound(type, q.endNs);
        for (qsizetype i = first; i < last; ++i) {
            if ((i & 0xffff) == 0 && cancelled(cancel))
                return;
            if (filtering && !matcher.accepts<E>(store, i))
                continue;
            Key key;
            if (!eventKey<E>(store, i, q.dimension, &key))
                continue;
            const qsizetype slot = index.slot(key, [&] {
                Accumulator a;
                eventRow<E>(store, i, q.dimension, &a.row);
                acc.push_back(std::move(a));
                return qsizetype(acc.size()) - 1;
            });
            Accumulator &a = acc[size_t(slot)];
            ++a.row.count;
            ++out.events;
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
    if (cancelled(cancel))
        return {};

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

QList<LatencyStats> latencyStats(const EventStore &store, quint64 startNs, quint64 endNs,
                                 const EventFilter &filter, std::optional<EventType> onlyType,
                                 const std::atomic_bool *cancel)
{
    const EventMatcher matcher(filter);
    const bool filtering = !(filter == EventFilter{});
    QList<LatencyStats> out;
    forEachEventType([&]<typename E>() {
        const EventType type = eventTypeOf<E>;
        if constexpr (hasLatency<E>) {
            if ((onlyType && *onlyType != type) || cancelled(cancel))
                return;
            const qsizetype first = store.lowerBound(type, startNs);
            const qsizetype last = endNs == std::numeric_limits<quint64>::max()
                                       ? store.count(type)
                                       : store.lowerBound(type, endNs);
            struct Group
            {
                LatencyStats stats;
                std::vector<quint64> latencies;
                quint64 sum = 0;
            };
            std::vector<Group> groups;
            QHash<Key, qsizetype> index;
            for (qsizetype i = first; i < last; ++i) {
                if ((i & 0xffff) == 0 && cancelled(cancel))
                    return;
                if (filtering && !matcher.accepts<E>(store, i))
                    continue;
                // The key: the type's Disk and Operation values, in declaration order.
                Key key;
                int slotWord = 0;
                QStringList parts;
                auto part = [&]<typename T>(bool wantText) {
                    Key k;
                    if (!declaredKey<E, T>(store, i, &k))
                        return;
                    (slotWord++ == 0 ? key.a : key.b) = k.a;
                    if (wantText) {
                        TopRow r;
                        declaredRow<E, T>(store, i, &r);
                        parts << r.key;
                    }
                };
                auto walk = [&](bool wantText) {
                    slotWord = 0;
                    withDeclared<E>(Dimension::Disk,
                                    [&]<typename T>() { part.template operator()<T>(wantText); });
                    withDeclared<E>(Dimension::Operation,
                                    [&]<typename T>() { part.template operator()<T>(wantText); });
                };
                walk(false);
                qsizetype slot;
                const auto it = index.constFind(key);
                if (it != index.constEnd()) {
                    slot = it.value();
                } else {
                    walk(true);
                    slot = qsizetype(groups.size());
                    index.insert(key, slot);
                    Group g;
                    g.stats.type = type;
                    g.stats.key = parts.join(QLatin1Char(' '));
                    g.stats.minNs = std::numeric_limits<quint64>::max();
                    groups.push_back(std::move(g));
                }
                Group &g = groups[size_t(slot)];
                const quint64 ns = store.latencyNs<E>(i);
                ++g.stats.count;
                g.sum += ns;
                g.latencies.push_back(ns);
                g.stats.minNs = std::min(g.stats.minNs, ns);
                if (g.stats.maxIndex < 0 || ns > g.stats.maxNs) {
                    g.stats.maxNs = ns;
                    g.stats.maxIndex = i;
                }
            }
            QList<LatencyStats> rows;
            for (Group &g : groups) {
                g.stats.meanNs = double(g.sum) / double(g.stats.count);
                nearestRanks(g.latencies, {{0.5, &g.stats.p50Ns},
                                           {0.9, &g.stats.p90Ns},
                                           {0.99, &g.stats.p99Ns},
                                           {0.999, &g.stats.p999Ns}});
                rows.append(g.stats);
            }
            std::sort(rows.begin(), rows.end(),
                      [](const LatencyStats &x, const LatencyStats &y) { return x.key < y.key; });
            out.append(rows);
        }
    });
    if (cancelled(cancel))
        return {};
    return out;
}

} // namespace bpflens
