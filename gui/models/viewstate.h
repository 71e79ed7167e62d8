#pragma once

#include "core/eventfilter.h"
#include "core/events.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <optional>

namespace bpflens {

// One event of the EventStore: its type and its index in that type's time-sorted column.
struct EventRef
{
    EventType type = EventType::Exec;
    qsizetype index = -1;
    bool isValid() const { return index >= 0; }
    bool operator==(const EventRef &) const = default;
};

// The state shared across views (hotspot style): the visible time range, the selected event
// and the filters. Views change it through the setters and follow its signals, so they never
// talk to each other directly.
class ViewState : public QObject
{
    Q_OBJECT
public:
    explicit ViewState(QObject *parent = nullptr);

    // The range a reset returns to ([start, end), CLOCK_MONOTONIC ns); sets the visible range
    // too.
    void setFullRange(quint64 startNs, quint64 endNs);
    quint64 fullStartNs() const { return m_fullStart; }
    quint64 fullEndNs() const { return m_fullEnd; }

    // Clamped to the full range and to at least MinimumSpanNs.
    void setRange(quint64 startNs, quint64 endNs);
    void resetRange() { setRange(m_fullStart, m_fullEnd); }
    quint64 startNs() const { return m_start; }
    quint64 endNs() const { return m_end; }
    bool isZoomed() const { return m_start != m_fullStart || m_end != m_fullEnd; }
    // Zoom by factor (< 1 zooms in) keeping the time anchorNs at the same relative position.
    void zoom(double factor, quint64 anchorNs);
    // Moves the range by deltaNs (negative: earlier), keeping its length.
    void pan(qint64 deltaNs);

    void setSelectedEvent(const EventRef &ref);
    EventRef selectedEvent() const { return m_selected; }

    void setFilter(const EventFilter &filter);
    const EventFilter &filter() const { return m_filter; }
    // A top list's or explanation's row was counted under the current filter: its pid, comm or
    // text narrow the filter rather than replace it.
    void narrowFilter(const EventFilter &row);

    // "Explain This Range" (timeline, Top tab): the window shows the explanation of the visible
    // range under the filter, over every event type.
    void requestExplain()
    {
        m_explainType.reset();
        Q_EMIT explainRequested();
    }
    // A heatmap selection's "Explain…": the selection is of one type's events (the range and
    // latency window it set), so the explanation is of that type only; the others would drown
    // it (off-CPU events outnumber block requests a hundred to one).
    void requestExplainOf(EventType type)
    {
        m_explainType = type;
        Q_EMIT explainRequested();
    }
    // The type of the last request; unset: every type.
    std::optional<EventType> explainType() const { return m_explainType; }

    static constexpr quint64 MinimumSpanNs = 1000; // 1 µs: below that pixels would be < 1 ns

Q_SIGNALS:
    void rangeChanged(quint64 startNs, quint64 endNs);
    void selectedEventChanged(const bpflens::EventRef &ref);
    void filterChanged();
    void explainRequested();

private:
    quint64 m_fullStart = 0;
    quint64 m_fullEnd = 1;
    quint64 m_start = 0;
    quint64 m_end = 1;
    EventRef m_selected;
    EventFilter m_filter;
    std::optional<EventType> m_explainType;
};

} // namespace bpflens
