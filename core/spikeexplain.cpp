#include "core/spikeexplain.h"

#include "core/cancellation.h"
#include "core/eventstore.h"
#include "core/stacks.h"
#include "core/topkeys.h"
#include "core/toplists.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace bpflens {

using namespace topkeys;

namespace {

constexpr int DimensionCount = int(Dimension::Error) + 1;
constexpr int FunctionSlot = DimensionCount; // the CPU functions after the declared dimensions

// The values of one dimension seen so far, and how many events could have had one.
struct Tally
{
    KeyIndex index;
    std::vector<Key> keys; // per row
    std::vector<ExplainRow> rows;
    qint64 insideTotal = 0;
    qint64 outsideTotal = 0;

    // The row of key, made by makeRow() the first time.
    template<typename MakeRow>
    ExplainRow &row(const Key &key, MakeRow &&makeRow)
    {
        const qsizetype slot = index.slot(key, [&] {
            rows.push_back(makeRow());
            keys.push_back(key);
            return qsizetype(rows.size()) - 1;
        });
        return rows[size_t(slot)];
    }
};

// One thread's tallies of every dimension.
struct ExplainPartial
{
    EventMatcher matcher; // its cache of matched strings is per thread
    std::array<Tally, DimensionCount + 1> tallies;
    qint64 insideEvents = 0;
    qint64 outsideEvents = 0;
};

} // namespace

double ExplainRow::lift() const
{
    const double out = outsideShare();
    if (out == 0)
        return inside ? std::numeric_limits<double>::infinity() : 0;
    return insideShare() / out;
}

double ExplainRow::insideLowerBound() const
{
    if (insideTotal == 0)
        return 0;
    const double n = double(insideTotal), p = double(inside) / n, z = 1.96, z2 = z * z;
    return (p + z2 / (2 * n) - z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / (1 + z2 / n);
}

QString explainDimensionName(const std::optional<Dimension> &d)
{
    return d ? dimensionName(*d) : QStringLiteral("function");
}

Explanation explainRange(const EventStore &store, const ExplainQuery &q, const StackTable *stacks,
                         const std::atomic_bool *cancel, const ScanSplit &split)
{
    const bool filtering = !(q.filter == EventFilter{});
    const bool latencyWindow = q.filter.minLatencyNs || q.filter.maxLatencyNs;
    Explanation out;

    // Every event of each type is read, inside the range or not; the range's bounds per type.
    std::vector<ScanRange> ranges;
    std::array<std::pair<qsizetype, qsizetype>, 256> bounds{};
    forEachEventType([&]<typename E>() {
        const EventType type = eventTypeOf<E>;
        if (q.type && *q.type != type)
            return;
        // Under a latency window only the events with a latency are "the slow requests".
        if (latencyWindow && !hasLatency<E>)
            return;
        const qsizetype count = store.count(type);
        const qsizetype first = store.lowerBound(type, q.startNs);
        const qsizetype last = q.endNs == std::numeric_limits<quint64>::max()
                                   ? count
                                   : store.lowerBound(type, q.endNs);
        bounds[size_t(type)] = {first, last};
        if (count > 0)
            ranges.push_back({type, 0, count});
    });

    std::vector<ExplainPartial> partials = scanInChunks<ExplainPartial>(
        ranges, split,
        [&] {
            ExplainPartial p;
            p.matcher = EventMatcher(q.filter);
            return p;
        },
        [&](ExplainPartial &p, const ScanRange &r) {
            const EventMatcher &matcher = p.matcher;
            const qsizetype first = bounds[size_t(r.type)].first;
            const qsizetype last = bounds[size_t(r.type)].second;
            visitEventType(r.type, [&]<typename E>() {
                std::array<bool, DimensionCount> has{};
                for (int d = 0; d < DimensionCount; ++d)
                    has[size_t(d)] = typeHasDimension(r.type, Dimension(d));
                for (qsizetype i = r.first; i < r.last; ++i) {
                    if ((i & 0xffff) == 0 && cancelled(cancel))
                        return;
                    if (filtering && !matcher.accepts<E>(store, i))
                        continue;
                    const bool inside = i >= first && i < last;
                    ++(inside ? p.insideEvents : p.outsideEvents);
                    // One pass for every dimension: each dimension a constant, so its key is
                    // inlined.
                    [&]<int... D>(std::integer_sequence<int, D...>)
                    {
                        (
                            [&] {
                                constexpr Dimension dim = Dimension(D);
                                if (!has[D])
                                    return;
                                Tally &t = p.tallies[D];
                                ++(inside ? t.insideTotal : t.outsideTotal);
                                Key key;
                                if (!eventKeyOf<E, dim>(store, i, &key))
                                    return;
                                ExplainRow &row = t.row(key, [&] {
                                    TopRow top;
                                    eventRow<E>(store, i, dim, &top);
                                    ExplainRow e;
                                    e.dimension = dim;
                                    e.key = std::move(top.key);
                                    e.pid = top.pid;
                                    e.comm = top.comm;
                                    e.filter = top.filter;
                                    return e;
                                });
                                ++(inside ? row.inside : row.outside);
                            }(),
                            ...);
                    }
                    (std::make_integer_sequence<int, DimensionCount>());
                    if constexpr (std::is_same_v<E, CpuSampleEvent>) {
                        if (!stacks)
                            continue;
                        // A sample without a stack has no function, but it is one of the
                        // samples.
                        Tally &t = p.tallies[FunctionSlot];
                        ++(inside ? t.insideTotal : t.outsideTotal);
                        const quint32 id = store.value<&E::stackId>(i);
                        if (!stacks->hasStack(id) || stacks->stack(id).frames.isEmpty())
                            continue;
                        const quint32 leaf = stacks->stack(id).frames.first();
                        ExplainRow &row = t.row(Key{leaf}, [&] {
                            ExplainRow e;
                            e.key = stacks->frameName(leaf);
                            return e;
                        });
                        ++(inside ? row.inside : row.outside);
                    }
                }
            });
        },
        cancel);
    if (cancelled(cancel))
        return {};

    // Merged value by value: the counts add up, so the split does not show.
    std::array<Tally, DimensionCount + 1> tallies;
    for (ExplainPartial &p : partials) {
        out.insideEvents += p.insideEvents;
        out.outsideEvents += p.outsideEvents;
        for (size_t d = 0; d < tallies.size(); ++d) {
            Tally &t = tallies[d];
            Tally &pt = p.tallies[d];
            t.insideTotal += pt.insideTotal;
            t.outsideTotal += pt.outsideTotal;
            for (size_t k = 0; k < pt.rows.size(); ++k) {
                ExplainRow &from = pt.rows[k];
                ExplainRow &row = t.row(pt.keys[k], [&] {
                    ExplainRow e = from;
                    e.inside = e.outside = 0;
                    return e;
                });
                row.inside += from.inside;
                row.outside += from.outside;
            }
        }
    }

    for (Tally &t : tallies) {
        for (ExplainRow &r : t.rows) {
            r.insideTotal = t.insideTotal;
            r.outsideTotal = t.outsideTotal;
            if (r.isSupported() && r.score() > 0)
                out.rows.append(std::move(r));
        }
    }
    std::sort(out.rows.begin(), out.rows.end(), [](const ExplainRow &x, const ExplainRow &y) {
        const double sx = x.score(), sy = y.score();
        if (sx != sy)
            return sx > sy;
        if (x.inside != y.inside)
            return x.inside > y.inside;
        const int dx = x.dimension ? int(*x.dimension) : FunctionSlot;
        const int dy = y.dimension ? int(*y.dimension) : FunctionSlot;
        if (dx != dy)
            return dx < dy;
        return x.key < y.key;
    });
    if (q.limit > 0 && out.rows.size() > q.limit)
        out.rows.resize(q.limit);
    return out;
}

} // namespace bpflens
