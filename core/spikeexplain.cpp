#include "spikeexplain.h"

#include "eventstore.h"
#include "stacks.h"
#include "topkeys.h"
#include "toplists.h"

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
    std::vector<ExplainRow> rows;
    qint64 insideTotal = 0;
    qint64 outsideTotal = 0;

    // The row of key, made by makeRow() the first time.
    template<typename MakeRow>
    ExplainRow &row(const Key &key, MakeRow &&makeRow)
    {
        const qsizetype slot = index.slot(key, [&] {
            rows.push_back(makeRow());
            return qsizetype(rows.size()) - 1;
        });
        return rows[size_t(slot)];
    }
};

bool cancelled(const std::atomic_bool *cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

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
                         const std::atomic_bool *cancel)
{
    const EventMatcher matcher(q.filter);
    const bool filtering = !(q.filter == EventFilter{});
    const bool latencyWindow = q.filter.minLatencyNs || q.filter.maxLatencyNs;
    std::array<Tally, DimensionCount + 1> tallies;
    Explanation out;

    forEachEventType([&]<typename E>() {
        const EventType type = eventTypeOf<E>;
        if ((q.type && *q.type != type) || cancelled(cancel))
            return;
        // Under a latency window only the events with a latency are "the slow requests".
        if (latencyWindow && !hasLatency<E>)
            return;
        const qsizetype count = store.count(type);
        const qsizetype first = store.lowerBound(type, q.startNs);
        const qsizetype last = q.endNs == std::numeric_limits<quint64>::max()
                                   ? count
                                   : store.lowerBound(type, q.endNs);
        std::array<bool, DimensionCount> has{};
        for (int d = 0; d < DimensionCount; ++d)
            has[size_t(d)] = typeHasDimension(type, Dimension(d));
        for (qsizetype i = 0; i < count; ++i) {
            if ((i & 0xffff) == 0 && cancelled(cancel))
                return;
            if (filtering && !matcher.accepts<E>(store, i))
                continue;
            const bool inside = i >= first && i < last;
            ++(inside ? out.insideEvents : out.outsideEvents);
            // One pass for every dimension: each dimension a constant, so its key is inlined.
            [&]<int... D>(std::integer_sequence<int, D...>)
            {
                (
                    [&] {
                        constexpr Dimension dim = Dimension(D);
                        if (!has[D])
                            return;
                        Tally &t = tallies[D];
                        ++(inside ? t.insideTotal : t.outsideTotal);
                        Key key;
                        if (!eventKey<E>(store, i, dim, &key))
                            return;
                        ExplainRow &row = t.row(key, [&] {
                            TopRow r;
                            eventRow<E>(store, i, dim, &r);
                            ExplainRow e;
                            e.dimension = dim;
                            e.key = std::move(r.key);
                            e.pid = r.pid;
                            e.comm = r.comm;
                            e.filter = r.filter;
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
                // A sample without a stack has no function, but it is one of the samples.
                Tally &t = tallies[FunctionSlot];
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
    if (cancelled(cancel))
        return {};

    for (Tally &t : tallies) {
        for (ExplainRow &r : t.rows) {
            r.insideTotal = t.insideTotal;
            r.outsideTotal = t.outsideTotal;
            if (r.inside > 0 && r.score() > 0)
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
