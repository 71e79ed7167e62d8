#include "gui/models/sessionmodel.h"

#include <QCoreApplication>

#include <algorithm>

namespace bpflens {

SessionModel::SessionModel(QObject *parent)
    : QObject(parent)
{
}

SessionModel::~SessionModel()
{
    Q_EMIT aboutToBeDestroyed();
}

void SessionModel::setSession(SessionData data, const QString &path)
{
    Q_EMIT aboutToReset();
    m_data = std::move(data);
    m_path = path;
    m_maxBlockSpanNs = 0;
    const EventStore &store = m_data.events;
    for (qsizetype i = 0, n = store.count(EventType::Block); i < n; ++i)
        m_maxBlockSpanNs = std::max(m_maxBlockSpanNs, store.latencyNs<BlockEvent>(i));
    updateSpan();
    ++m_version;
    Q_EMIT reset();
}

void SessionModel::clear()
{
    setSession(SessionData{});
}

bool SessionModel::isEmpty() const
{
    return m_data.events.isEmpty() && m_data.stacks.isEmpty() && m_data.histograms.isEmpty() &&
           m_data.stats.isEmpty() && m_data.counters.isEmpty();
}

void SessionModel::append(const RecordBatch &batch)
{
    if (batch.isEmpty())
        return;
    Q_EMIT aboutToAppend();
    EventStore &store = m_data.events;
    // The engine defines every stack before its first use; a definition out of order is a bug
    // of the producer, and its stacks then show as unknown rather than wrong.
    QString stackError;
    if (!m_data.stacks.addDefinitions(batch, &stackError))
        qWarning("bpflens: %s", qPrintable(stackError));
    m_data.cgroups.add(batch.cgroups);
    const bool wasOutOfOrder = store.outOfOrderAppends();
    forEachEventType([&]<typename E>() {
        for (const E &e : batch.events<E>())
            store.append(e);
    });
    for (const BlockEvent &e : batch.block)
        m_maxBlockSpanNs = std::max(m_maxBlockSpanNs, e.queueNs + e.deviceNs);
    m_data.histograms += batch.histograms;
    m_data.stats += batch.stats;
    m_data.counters += batch.counters;
    updateSpan();
    ++m_version;
    Q_EMIT appended(store.outOfOrderAppends() && !wasOutOfOrder);
}

void SessionModel::setEndTime(quint64 endNs)
{
    Q_EMIT aboutToAppend();
    m_data.info.endMonotonicNs = std::max(endNs, m_endNs > 0 ? m_endNs - 1 : 0);
    updateSpan();
    ++m_version;
    Q_EMIT appended(false);
}

void SessionModel::updateSpan()
{
    const EventStore &store = m_data.events;
    const quint64 start = m_data.info.startMonotonicNs;
    quint64 first = start;
    quint64 last = std::max(m_data.info.endMonotonicNs, first);
    auto take = [&](quint64 begin, quint64 end) {
        if (first == 0 || begin < first)
            first = begin;
        last = std::max(last, end);
    };
    // What began before the session did (a block request queued before the probe attached, the
    // first interval of a histogram or a counter) is cut at the start: the range never shows
    // negative times with nothing recorded in them. The events themselves are never earlier.
    auto since = [start](quint64 begin) { return std::max(begin, start); };
    if (!store.isEmpty())
        take(store.firstTimeNs(), store.lastTimeNs());
    if (store.count(EventType::Block) > 0) {
        const quint64 t = store.timeNs(EventType::Block, 0);
        take(since(t > m_maxBlockSpanNs ? t - m_maxBlockSpanNs : 0), t);
    }
    for (const HistogramSnapshot &h : m_data.histograms)
        take(since(h.timeNs > h.intervalNs ? h.timeNs - h.intervalNs : 0), h.timeNs);
    for (const ProbeStats &s : m_data.stats)
        take(s.timeNs, s.timeNs);
    for (const CounterSample &c : m_data.counters)
        take(since(c.timeNs > c.intervalNs ? c.timeNs - c.intervalNs : 0), c.timeNs);
    m_firstNs = first;
    // Half-open range: one past the last sample, and never empty.
    m_endNs = std::max(last + 1, first + 1);
}

QList<EventType> SessionModel::eventTypes()
{
    return QList<EventType>(std::begin(bpflens::eventTypes), std::end(bpflens::eventTypes));
}

bool SessionModel::showsType(EventType type) const
{
    if (events().count(type) > 0 || info().probes.isEmpty())
        return true;
    bool recorded = false;
    visitEventType(type, [&]<typename E>() {
        for (const ProbeConfig &p : info().probes)
            recorded = recorded || p.id == QLatin1String(EventTraits<E>::probeId);
    });
    return recorded;
}

QString SessionModel::typeName(EventType type)
{
    QString name = QCoreApplication::translate("SessionModel", "Other");
    visitEventType(type, [&]<typename E>() {
        name = QCoreApplication::translate("SessionModel", EventTraits<E>::title);
    });
    return name;
}

} // namespace bpflens
