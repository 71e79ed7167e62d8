#include "gui/models/heatmapmodel.h"

#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"

#include <QCoreApplication>
#include <QMap>

#include <algorithm>
#include <limits>

namespace bpflens {

quint64 HeatmapBins::columnStartNs(int column) const
{
    if (columns <= 0 || column >= columns)
        return endNs;
    // span * column / columns without overflowing 64 bits: the remainder's part is below
    // columns * column.
    const quint64 span = endNs - startNs;
    const quint64 n = quint64(columns);
    const quint64 c = quint64(column);
    return startNs + span / n * c + span % n * c / n;
}

int HeatmapBins::columnOf(quint64 timeNs) const
{
    if (columns <= 0 || timeNs <= startNs)
        return 0;
    if (timeNs >= endNs)
        return columns - 1;
    // The estimate can be one off where the edges round; the edges decide.
    int c = int(double(timeNs - startNs) / double(endNs - startNs) * columns);
    c = std::clamp(c, 0, columns - 1);
    while (c > 0 && timeNs < columnStartNs(c))
        --c;
    while (c + 1 < columns && timeNs >= columnStartNs(c + 1))
        ++c;
    return c;
}

quint64 HeatmapBins::slotLowNs(int slot) const
{
    const quint64 div = unitDivisor(unit);
    const quint64 low = Log2Histogram::slotLow(slot);
    return low > std::numeric_limits<quint64>::max() / div ? std::numeric_limits<quint64>::max()
                                                           : low * div;
}

quint64 HeatmapBins::slotEndNs(int slot) const
{
    const quint64 div = unitDivisor(unit);
    const quint64 high = Log2Histogram::slotHigh(slot);
    if (high == std::numeric_limits<quint64>::max() ||
        high + 1 > std::numeric_limits<quint64>::max() / div)
        return 0;
    return (high + 1) * div;
}

std::pair<quint64, quint64> HeatmapBins::selectionRange(int c0, int c1) const
{
    const quint64 a = columnStartNs(c0), b = columnStartNs(c1 + 1);
    // Snapshots sit in the column of timeNs - 1 and a range takes those with timeNs in it. The
    // last column ends at endNs, as the bins took them: one past it, the range would reach past
    // a full range, and the state would slide it back over the previous column's last snapshot.
    if (source.kind == HeatmapSource::Snapshots)
        return {a + 1, c1 + 1 >= columns ? b : b + 1};
    return {a, b};
}

Log2Histogram HeatmapBins::histogram(int c0, int c1, int s0, int s1) const
{
    Log2Histogram h(unit);
    c0 = std::max(c0, 0);
    c1 = std::min(c1, columns - 1);
    s0 = std::max(s0, 0);
    s1 = std::min(s1, Slots - 1);
    for (int c = c0; c <= c1; ++c) {
        for (int s = s0; s <= s1; ++s) {
            if (const quint32 n = count(c, s))
                h.addToSlot(s, n);
        }
    }
    return h;
}

QList<HeatmapSource> HeatmapModel::sources(const SessionModel &session)
{
    QList<HeatmapSource> list;
    for (EventType t : SessionModel::eventTypes()) {
        bool latency = false;
        visitEventType(t, [&]<typename E>() { latency = hasLatency<E>; });
        if (latency && session.events().count(t) > 0)
            list.append(HeatmapSource{HeatmapSource::Events, t, {}, {}});
    }
    QMap<QPair<QString, QString>, bool> histograms;
    for (const HistogramSnapshot &s : session.data().histograms) {
        if (isTimeUnit(s.histogram.unit()))
            histograms.insert({s.probeId, s.key}, true);
    }
    for (auto it = histograms.cbegin(); it != histograms.cend(); ++it)
        list.append(HeatmapSource{HeatmapSource::Snapshots, EventType::Block, it.key().first,
                                  it.key().second});
    return list;
}

QString HeatmapModel::sourceName(const HeatmapSource &source)
{
    if (source.kind == HeatmapSource::Events)
        return SessionModel::typeName(source.type);
    if (source.key.isEmpty())
        return QCoreApplication::translate("bpflens::HeatmapModel", "%1 (histogram)")
            .arg(source.probeId);
    return QCoreApplication::translate("bpflens::HeatmapModel", "%1 — %2 (histogram)")
        .arg(source.probeId, source.key);
}

namespace {

void finish(HeatmapBins &bins)
{
    bins.total = 0;
    bins.maxCount = 0;
    bins.minSlot = HeatmapBins::Slots;
    bins.maxSlot = -1;
    for (int c = 0; c < bins.columns; ++c) {
        for (int s = 0; s < HeatmapBins::Slots; ++s) {
            const quint32 n = bins.count(c, s);
            if (!n)
                continue;
            bins.total += n;
            bins.maxCount = std::max(bins.maxCount, n);
            bins.minSlot = std::min(bins.minSlot, s);
            bins.maxSlot = std::max(bins.maxSlot, s);
        }
    }
    if (bins.maxSlot < 0)
        bins.minSlot = 0;
}

EventFilter withoutLatencyWindow(const EventFilter &filter)
{
    EventFilter rest = filter;
    rest.minLatencyNs = rest.maxLatencyNs = 0;
    return rest;
}

template<typename E>
void binEvents(const SessionModel &session, const EventFilter &filter, HeatmapBins &bins,
               const std::atomic_bool *cancel, const HeatmapStrides *strides)
{
    const EventStore &store = session.events();
    constexpr EventType type = eventTypeOf<E>;
    const qsizetype first = store.lowerBound(type, bins.startNs);
    const qsizetype last = store.lowerBound(type, bins.endNs);
    if (first >= last)
        return;
    const EventStore::TimeColumn times = store.timeColumn(type);
    // The latency window is the selection's, not what the heatmap shows.
    const EventFilter rest = withoutLatencyWindow(filter);
    const bool filtering = !rest.isEmpty();
    const EventMatcher matcher(rest);
    if (filtering || (strides && strides->type != type))
        strides = nullptr;
    constexpr qsizetype S = HeatmapStrides::StrideEvents;
    const qsizetype strided = strides ? std::min(strides->strides() * S, last) : 0;
    int column = bins.columnOf(times[first]);
    quint64 nextEdge = bins.columnStartNs(column + 1);
    quint32 *counts = bins.counts.data();
    for (qsizetype i = first; i < last;) {
        if (cancel && (i & 0xffff) == 0 && cancel->load(std::memory_order_relaxed))
            return;
        const quint64 t = times[i];
        if (t >= nextEdge) {
            column = bins.columnOf(t);
            nextEdge = bins.columnStartNs(column + 1);
        }
        // A whole stride from here on in this column: times are sorted, so its events lie in
        // [t, its last event's time], all before the column's next edge.
        if (i % S == 0 && i + S <= strided && strides->lastNs[size_t(i / S)] < nextEdge) {
            const quint32 *from = strides->counts.data() + size_t(i / S) * HeatmapStrides::Slots;
            quint32 *to = counts + size_t(column) * HeatmapBins::Slots;
            for (int s = 0; s < HeatmapBins::Slots; ++s)
                to[s] += from[s];
            i += S;
            continue;
        }
        if (!filtering || matcher.accepts(store, type, i))
            ++counts[size_t(column) * HeatmapBins::Slots +
                     size_t(Log2Histogram::slotOf(store.latencyNs<E>(i)))];
        ++i;
    }
}

} // namespace

bool HeatmapModel::usesStrides(const HeatmapSource &source, const EventFilter &filter)
{
    return source.kind == HeatmapSource::Events && withoutLatencyWindow(filter).isEmpty();
}

std::shared_ptr<const HeatmapStrides>
HeatmapModel::buildStrides(const SessionModel &session, EventType type,
                           std::shared_ptr<const HeatmapStrides> base,
                           const std::atomic_bool *cancel)
{
    bool latency = false;
    visitEventType(type, [&]<typename E>() { latency = hasLatency<E>; });
    if (!latency)
        return nullptr;
    constexpr qsizetype S = HeatmapStrides::StrideEvents;
    const EventStore &store = session.events();
    const qsizetype complete = store.count(type) / S;
    if (base && base->type == type && base->strides() >= complete)
        return base;
    auto out = std::make_shared<HeatmapStrides>();
    out->type = type;
    qsizetype from = 0;
    if (base && base->type == type) {
        *out = *base;
        from = base->strides();
    }
    out->counts.resize(size_t(complete) * HeatmapStrides::Slots, 0);
    out->lastNs.resize(size_t(complete), 0);
    const EventStore::TimeColumn times = store.timeColumn(type);
    visitEventType(type, [&]<typename E>() {
        if constexpr (hasLatency<E>) {
            for (qsizetype k = from; k < complete; ++k) {
                if (cancel && (k & 0xff) == 0 && cancel->load(std::memory_order_relaxed))
                    return;
                quint32 *cell = out->counts.data() + size_t(k) * HeatmapStrides::Slots;
                for (qsizetype i = k * S; i < (k + 1) * S; ++i)
                    ++cell[Log2Histogram::slotOf(store.latencyNs<E>(i))];
                out->lastNs[size_t(k)] = times[(k + 1) * S - 1];
            }
        }
    });
    if (cancel && cancel->load())
        return nullptr;
    return out;
}

qsizetype HeatmapModel::eventsInRange(const SessionModel &session, const HeatmapSource &source,
                                      quint64 startNs, quint64 endNs)
{
    if (source.kind != HeatmapSource::Events)
        return 0;
    const EventStore &store = session.events();
    return std::max<qsizetype>(0, store.lowerBound(source.type, endNs) -
                                      store.lowerBound(source.type, startNs));
}

HeatmapBins HeatmapModel::build(const SessionModel &session, const HeatmapSource &source,
                                const EventFilter &filter, quint64 startNs, quint64 endNs,
                                int columns, const std::atomic_bool *cancel,
                                const HeatmapStrides *strides)
{
    HeatmapBins bins;
    bins.source = source;
    bins.startNs = startNs;
    bins.endNs = std::max(endNs, startNs + 1);
    bins.columns = std::max(columns, 1);
    if (source.kind == HeatmapSource::Events) {
        bins.unit = HistogramUnit::Nanoseconds;
        bins.counts.assign(size_t(bins.columns) * HeatmapBins::Slots, 0);
        visitEventType(source.type, [&]<typename E>() {
            if constexpr (hasLatency<E>)
                binEvents<E>(session, filter, bins, cancel, strides);
        });
        finish(bins);
        return bins;
    }

    QList<const HistogramSnapshot *> inRange;
    quint64 interval = 0;
    for (const HistogramSnapshot &s : session.data().histograms) {
        if (s.probeId != source.probeId || s.key != source.key || !isTimeUnit(s.histogram.unit()))
            continue;
        if (s.timeNs < bins.startNs || s.timeNs >= bins.endNs)
            continue;
        if (inRange.isEmpty())
            bins.unit = s.histogram.unit();
        else if (s.histogram.unit() != bins.unit)
            continue; // a unit change mid-session cannot share rows
        inRange.append(&s);
        interval = std::max(interval, s.intervalNs);
    }
    // A column narrower than a snapshot's interval would leave most columns empty and put
    // whole intervals into single columns: stripes, not a picture of the latencies.
    // Columns at least an interval wide: evenly spaced snapshots then leave no column empty.
    if (interval > 0) {
        const quint64 intervals = (bins.endNs - bins.startNs) / interval;
        bins.columns = int(std::clamp<quint64>(intervals, 1, quint64(bins.columns)));
    }
    bins.counts.assign(size_t(bins.columns) * HeatmapBins::Slots, 0);
    for (const HistogramSnapshot *s : std::as_const(inRange)) {
        // By the last nanosecond of its interval (timeNs - intervalNs, timeNs]: a snapshot ending
        // on a column's edge belongs to the column it covers. snapshotRange() turns columns
        // back into the range that takes exactly their snapshots.
        const int c = bins.columnOf(s->timeNs - std::min<quint64>(s->timeNs, 1));
        for (int slot = 0, n = s->histogram.usedSlots(); slot < n; ++slot) {
            quint32 &cell = bins.counts[size_t(c) * HeatmapBins::Slots + size_t(slot)];
            cell = quint32(std::min<quint64>(quint64(cell) + s->histogram.slot(slot),
                                             std::numeric_limits<quint32>::max()));
        }
    }
    finish(bins);
    return bins;
}

} // namespace bpflens
