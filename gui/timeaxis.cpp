#include "gui/timeaxis.h"

#include "gui/models/viewstate.h"

#include <QCoreApplication>
#include <QEvent>
#include <QLocale>
#include <QWidget>

#include <algorithm>
#include <climits>
#include <cmath>

namespace bpflens {

TimeAxis::TimeAxis(quint64 startNs, quint64 endNs, quint64 originNs, double left, double width)
    : m_start(startNs)
    , m_end(std::max(endNs, startNs + 1))
    , m_origin(originNs)
    , m_left(left)
    , m_width(std::max(1.0, width))
{
}

double TimeAxis::xForTime(quint64 timeNs) const
{
    const double span = double(m_end - m_start);
    return m_left + (double(timeNs) - double(m_start)) / span * m_width;
}

quint64 TimeAxis::timeAt(double x) const
{
    const double f = std::clamp((x - m_left) / m_width, 0.0, 1.0);
    return m_start + quint64(std::llround(f * double(m_end - m_start)));
}

double TimeAxis::tickStepNs(double pixelsPerLabel) const
{
    const double span = double(m_end - m_start);
    const double target = span / std::max(1.0, m_width / pixelsPerLabel);
    double step = std::pow(10.0, std::floor(std::log10(target)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (step * m >= target * (1 - 1e-9))
            return std::max(1.0, step * m);
    }
    return std::max(1.0, step * 10);
}

QList<TimeAxis::Tick> TimeAxis::ticks(double pixelsPerLabel) const
{
    QList<Tick> out;
    const double step = tickStepNs(pixelsPerLabel);
    const double span = double(m_end - m_start);
    // Signed: a range may start before the origin (data from before the session's start).
    const double rel0 = double(qint64(m_start - m_origin));
    const int decimals = std::clamp(int(std::ceil(-std::log10(step / 1e9) - 1e-9)), 0, 9);
    // Counted in whole steps, so a long range adds no drift and every view gets the same ticks.
    const qint64 first = qint64(std::ceil(rel0 / step - 1e-9));
    for (qint64 k = first;; ++k) {
        const double rel = double(k) * step;
        if (rel > rel0 + span)
            break;
        const double x = m_left + (rel - rel0) / span * m_width;
        out.append({x, rel,
                    QCoreApplication::translate("bpflens::TimeAxis", "%1 s")
                        .arg(QLocale().toString(rel / 1e9, 'f', decimals))});
    }
    return out;
}

// ---------------------------------------------------------------------------------------------

TimeAxisGroup::TimeAxisGroup(ViewState *state)
    : QObject(state)
{
    setObjectName(QStringLiteral("timeAxisGroup"));
}

TimeAxisGroup *TimeAxisGroup::of(ViewState *state)
{
    auto *group = state->findChild<TimeAxisGroup *>(QStringLiteral("timeAxisGroup"),
                                                    Qt::FindDirectChildrenOnly);
    return group ? group : new TimeAxisGroup(state);
}

void TimeAxisGroup::add(QWidget *view, int left, int right)
{
    m_members.append({view, left, right});
    view->installEventFilter(this);
    // Said later, not from inside the destruction: a view is destroyed as a child of its page,
    // after the page's own members are gone but before its connections are, so a page that
    // refreshes on changed() would touch members already destroyed (seen with the heatmap's
    // background job, when the window closed).
    connect(view, &QObject::destroyed, this, [this] {
        m_members.removeIf([](const Member &m) { return m.view.isNull(); });
        QMetaObject::invokeMethod(this, &TimeAxisGroup::changed, Qt::QueuedConnection);
    });
    Q_EMIT changed();
}

void TimeAxisGroup::setNeeds(QWidget *view, int left, int right)
{
    for (Member &m : m_members) {
        if (m.view == view && (m.left != left || m.right != right)) {
            m.left = left;
            m.right = right;
            Q_EMIT changed();
        }
    }
}

QPair<int, int> TimeAxisGroup::span(const QWidget *view) const
{
    const QWidget *window = view->window();
    int own = -1;
    int left = INT_MIN;
    int right = INT_MAX;
    for (int i = 0; i < m_members.size(); ++i) {
        const Member &m = m_members[i];
        if (!m.view)
            continue;
        if (m.view == view)
            own = i;
        // A hidden view (another tab) keeps no room: its geometry is not the one it will be
        // shown with, and the visible ones should not give up width for it.
        else if (!m.view->isVisible() || m.view->window() != window)
            continue;
        const int x = m.view->mapTo(window, QPoint(0, 0)).x();
        left = std::max(left, x + m.left);
        right = std::min(right, x + m.view->width() - m.right);
    }
    if (own < 0)
        return {0, view->width()};
    const int x = view->mapTo(window, QPoint(0, 0)).x();
    // Views side by side (or one too narrow for the others' labels) cannot share a span: each
    // keeps its own rather than a sliver.
    if (right - left < 20 || left - x < 0 || right - x > view->width())
        return {m_members[own].left, view->width() - m_members[own].right};
    return {left - x, right - x};
}

bool TimeAxisGroup::eventFilter(QObject *watched, QEvent *event)
{
    switch (event->type()) {
    case QEvent::Show:
    case QEvent::Hide:
    case QEvent::Resize:
    case QEvent::Move:
        Q_EMIT changed();
        break;
    default:
        break;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace bpflens
