#include "gui/models/viewstate.h"

#include <algorithm>
#include <cmath>

namespace bpflens {

ViewState::ViewState(QObject *parent)
    : QObject(parent)
{
}

void ViewState::setFullRange(quint64 startNs, quint64 endNs)
{
    m_fullStart = startNs;
    m_fullEnd = std::max(endNs, startNs + 1);
    m_start = m_end = 0; // force the signal even if the numbers happen to match
    resetRange();
}

void ViewState::setRange(quint64 startNs, quint64 endNs)
{
    if (endNs < startNs)
        std::swap(startNs, endNs);
    const quint64 full = m_fullEnd - m_fullStart;
    const quint64 minSpan = std::min(MinimumSpanNs, full);
    quint64 span = std::clamp(endNs - startNs, minSpan, full);
    // Keep the centre when the span had to grow, then slide back inside the full range.
    quint64 start = startNs;
    if (endNs - startNs < span) {
        const quint64 centre = startNs + (endNs - startNs) / 2;
        start = centre > span / 2 ? centre - span / 2 : 0;
    }
    start = std::clamp(start, m_fullStart, m_fullEnd - span);
    const quint64 end = start + span;
    if (start == m_start && end == m_end)
        return;
    m_start = start;
    m_end = end;
    Q_EMIT rangeChanged(m_start, m_end);
}

void ViewState::zoom(double factor, quint64 anchorNs)
{
    if (!(factor > 0))
        return;
    anchorNs = std::clamp(anchorNs, m_start, m_end);
    const double before = double(anchorNs - m_start);
    const double after = double(m_end - anchorNs);
    const double newBefore = std::round(before * factor);
    const double newAfter = std::round(after * factor);
    const quint64 start =
        newBefore >= double(anchorNs - m_fullStart) ? m_fullStart : anchorNs - quint64(newBefore);
    const quint64 end =
        newAfter >= double(m_fullEnd - anchorNs) ? m_fullEnd : anchorNs + quint64(newAfter);
    setRange(start, end);
}

void ViewState::pan(qint64 deltaNs)
{
    const quint64 span = m_end - m_start;
    quint64 start = m_start;
    if (deltaNs < 0)
        start =
            quint64(-deltaNs) > m_start - m_fullStart ? m_fullStart : m_start - quint64(-deltaNs);
    else
        start =
            quint64(deltaNs) > m_fullEnd - m_end ? m_fullEnd - span : m_start + quint64(deltaNs);
    setRange(start, start + span);
}

void ViewState::setSelectedEvent(const EventRef &ref)
{
    if (ref == m_selected)
        return;
    m_selected = ref;
    Q_EMIT selectedEventChanged(m_selected);
}

void ViewState::setFilter(const EventFilter &filter)
{
    if (filter == m_filter)
        return;
    m_filter = filter;
    Q_EMIT filterChanged();
}

void ViewState::narrowFilter(const EventFilter &row)
{
    EventFilter f = m_filter;
    if (row.pid >= 0)
        f.pid = row.pid;
    if (!row.comm.isEmpty())
        f.comm = row.comm;
    if (!row.text.isEmpty())
        f.text = row.text;
    if (row.destination)
        f.destination = row.destination;
    if (row.error)
        f.error = row.error;
    if (!row.file.isEmpty())
        f.file = row.file;
    if (!row.disk.isEmpty())
        f.disk = row.disk;
    if (!row.operation.isEmpty())
        f.operation = row.operation;
    if (!row.cgroups.isEmpty())
        f.cgroups = row.cgroups;
    setFilter(f);
}

} // namespace bpflens
