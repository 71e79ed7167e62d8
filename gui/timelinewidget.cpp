#include "gui/timelinewidget.h"

#include "gui/colors.h"

#include "core/units.h"

#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/timeaxis.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMenu>
#include <QPainter>
#include <QSettings>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <climits>
#include <cmath>

namespace bpflens {

namespace {

// The lane labels' column: wide enough for the longest lane name in the user's language
// ("Aufrufe von Benutzerfunktionen"), within bounds that leave the plot most of the width.
constexpr int MinLabelWidth = 110;
constexpr int MaxLabelWidth = 190;
constexpr int AxisHeight = 24;
constexpr int LaneGap = 2;
constexpr int DisclosureWidth = 12; // the collapse triangle before a lane's name
constexpr int HitTolerancePx = 4;
constexpr int PlotRightMargin = 1; // the frame's last column
// A memory lane is twice an open event lane: its step line is what a memleak session is about,
// and the window gives the timeline about half its size hint.
constexpr int MemoryLaneUnits = 4;
constexpr int MemoryPeakInset = 3; // the peak's line under the lane's top

quint64 mix(quint64 h, quint64 v)
{
    return (h ^ v) * 0x100000001b3ull + (h >> 29);
}

QString processLabelOf(const ProcessCpuBins::Lane &lane)
{
    return lane.pid < 0 ? TimelineWidget::tr("other (%1)").arg(lane.processes)
                        : TimelineWidget::tr("%1 %2")
                              .arg(EventTableModel::displayBytes(lane.comm))
                              .arg(lane.pid);
}

// The flags process lane names are laid out and drawn with: one line, so its height is the line
// height of every font the name needs (a Chinese "other" falls back to a CJK font, taller than
// the application's Latin one).
constexpr int ProcessLabelFlags = Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine;

} // namespace

TimelineWidget::TimelineWidget(SessionModel *session, ViewState *state,
                               QList<EventFilterModel *> lanes, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
    , m_images(8)
    , m_collapsed(QSettings().value(QStringLiteral("timeline/collapsedLanes")).toULongLong())
{
    for (EventFilterModel *m : lanes) {
        m_lanes.append(Lane{m, {}, 0, {}});
        connect(m, &EventFilterModel::acceptedChanged, this, [this, m] {
            // Live events only extend a lane's summary; any other change (a filter, also one
            // finished by a worker) replaces the accepted sequence.
            if (!m_appending) {
                for (Lane &l : m_lanes) {
                    if (l.model == m)
                        l.summary.clear();
                }
            }
            invalidate();
        });
    }
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("Timeline"));
    setAccessibleDescription(tr("Events over time, one lane per event type. Wheel or +/- zoom, "
                                "drag pans, Shift+drag zooms to a range, Home resets."));
    setAttribute(Qt::WA_OpaquePaintEvent);
    // The heatmap's and the counters' plots line up under this one's.
    m_axes = TimeAxisGroup::of(m_state);
    m_axes->add(this, labelWidth(), PlotRightMargin);
    connect(m_axes, &TimeAxisGroup::changed, this, [this] { update(); });
    connect(m_state, &ViewState::rangeChanged, this, [this] { update(); });
    connect(m_state, &ViewState::selectedEventChanged, this, [this] { update(); });
    connect(m_session, &SessionModel::reset, this, [this] {
        forgetSummaries();
        // The lanes of the session before are not this one's.
        m_memory.clear();
        m_memoryLanesKey = 0;
        scheduleMemory(0);
        invalidate();
    });
    // The worker reads the store: it stops before the store changes.
    const auto stopMemory = [this] { m_memoryJob.stopAndWait(); };
    connect(m_session, &SessionModel::aboutToReset, this, stopMemory);
    connect(m_session, &SessionModel::aboutToBeDestroyed, this, stopMemory);
    connect(m_session, &SessionModel::aboutToAppend, this, [this] {
        m_appending = true;
        m_memoryJob.stopAndWait();
    });
    connect(m_session, &SessionModel::appended, this, [this](bool outOfOrder) {
        m_appending = false;
        if (outOfOrder)
            forgetSummaries();
        // Every allocation is summed again: live blocks arrive when they end, anywhere in time.
        // Batches come every 500 ms: a pending request is left to fire, not restarted.
        if (!m_memoryJob.isScheduled())
            scheduleMemory(MemoryLiveIntervalMs);
        invalidate();
    });
    connect(&m_memoryJob, &BackgroundJob::due, this, &TimelineWidget::startMemory);
    scheduleMemory(0);
}

void TimelineWidget::scheduleMemory(int delayMs)
{
    // A session without allocations has no lanes: nothing to start.
    if (m_session->events().count(EventType::Allocation) == 0) {
        m_memoryJob.cancel();
        return;
    }
    m_memoryJob.schedule(delayMs);
}

void TimelineWidget::startMemory()
{
    const SessionModel *session = m_session;
    m_memoryJob.run(
        [session](const JobToken &token) {
            return TimelineBinner::memoryByProcess(*session, token.flag());
        },
        [this](QList<ProcessMemory> memory) {
            m_memory = std::move(memory);
            m_memoryLanesKey = 0;
            invalidate();
        });
}

QSize TimelineWidget::sizeHint() const
{
    return {900, AxisHeight + int(laneTypes().size()) * 48 +
                     int(memoryLanes().size()) * 24 * MemoryLaneUnits +
                     int(cpuBins().lanes.size()) * processLaneHeight()};
}

QSize TimelineWidget::minimumSizeHint() const
{
    // Per-process CPU lanes are dropped where they do not fit (rows()): room for the busiest
    // only. All nine of a real recording made the window taller than 1280x720 (and three
    // half-line lanes did in Chinese, whose Overview group is taller, by 6 px); a lane now
    // holds its name at the application font.
    // An event lane's 18 px hold its name in every language; the CPU group's own tab row
    // (Flame Graph, Stack Chart) took the 2 px a lane more left in Chinese.
    const int processes = std::min(1, int(cpuBins().lanes.size()));
    // A memory lane gets at least an event lane's height, as its name needs (it is twice as tall
    // where there is room).
    return {labelWidth() + 100, AxisHeight + int(laneTypes().size() + memoryLanes().size()) * 18 +
                                    processes * processLaneHeight()};
}

int TimelineWidget::labelWidth() const
{
    int w = MinLabelWidth;
    for (EventType t : laneTypes())
        w = std::max(w, fontMetrics().horizontalAdvance(SessionModel::typeName(t)) + 16 +
                            DisclosureWidth);
    return std::min(w, MaxLabelWidth);
}

QList<EventType> TimelineWidget::laneTypes() const
{
    QList<EventType> types;
    for (const Lane &l : m_lanes) {
        // Lanes of probes few sessions use appear only when a session has such events; the
        // main lanes show when their probe was recorded, so an empty one says "nothing
        // happened" rather than disappearing, but the TCP lanes of a disk recording do not
        // take the block lane's height (and its colour key). A session that names no probes
        // (an old file) shows them all.
        bool hiddenWhenEmpty = false;
        visitEventType(l.model->type(), [&]<typename E>() {
            hiddenWhenEmpty = EventTraits<E>::lane.hiddenWhenEmpty;
        });
        if (l.model->eventModel()->rowCount() == 0 &&
            (hiddenWhenEmpty || !m_session->showsType(l.model->type())))
            continue;
        types << l.model->type();
    }
    return types;
}

QRect TimelineWidget::plotRect() const
{
    // The lane names' column, or more where another view on the same axis needs more room.
    const auto [left, right] = m_axes->span(this);
    return QRect(left, AxisHeight, std::max(1, right - left), std::max(1, height() - AxisHeight));
}

TimeAxis TimelineWidget::axis() const
{
    const QRect plot = plotRect();
    return TimeAxis(m_state->startNs(), m_state->endNs(), m_session->info().startMonotonicNs,
                    plot.left(), plot.width());
}

QList<TimelineWidget::Row> TimelineWidget::rows() const
{
    const QList<EventType> types = laneTypes();
    // As many process lanes as fit, the busiest first: each is as tall as its name needs (at
    // 9 px their names were cut), and the event lanes keep at least half a line per unit, the
    // height of their own names.
    int processes = types.contains(EventType::CpuSample) && !isLaneCollapsed(EventType::CpuSample)
                        ? int(cpuBins().lanes.size())
                        : 0;
    const int memory =
        types.contains(EventType::Allocation) && !isLaneCollapsed(EventType::Allocation)
            ? int(memoryLanes().size())
            : 0;
    if (processes > 0) {
        int units = MemoryLaneUnits * memory;
        for (EventType t : types)
            units += isLaneCollapsed(t) ? 1 : 2;
        const double minUnit = std::max(8.0, fontMetrics().height() / 2.0);
        const int laneHeight = processLaneHeight();
        while (processes > 0 && plotRect().height() - processes * laneHeight < units * minUnit)
            --processes;
    }
    QList<Row> out;
    for (EventType t : types) {
        out.append({t, -1});
        if (t == EventType::CpuSample) {
            for (int k = 0; k < processes; ++k)
                out.append({t, k});
        }
        if (t == EventType::Allocation) {
            for (int k = 0; k < memory; ++k)
                out.append({t, -1, k});
        }
    }
    return out;
}

QRect TimelineWidget::rowRect(int row) const
{
    // Process lanes are one line of text tall; the event lanes share the rest, a collapsed one
    // half as tall as an open one, a memory lane twice as tall.
    const QList<Row> all = rows();
    if (row < 0 || row >= all.size())
        return {};
    auto unitsOf = [this](const Row &r) {
        return r.memory >= 0 ? MemoryLaneUnits : isLaneCollapsed(r.type) ? 1 : 2;
    };
    int units = 0, processRows = 0;
    for (const Row &r : all) {
        if (r.process >= 0)
            ++processRows;
        else
            units += unitsOf(r);
    }
    const int laneHeight = processRows ? processLaneHeight() : 0;
    const QRect plot = plotRect();
    const double unit =
        units ? double(std::max(0, plot.height() - processRows * laneHeight)) / units : 0.0;
    auto heightOf = [&](const Row &r) {
        return r.process >= 0 ? double(laneHeight) : unitsOf(r) * unit;
    };
    double y = plot.top();
    for (int i = 0; i < row; ++i)
        y += heightOf(all[i]);
    const int top = int(y);
    const int bottom = int(y + heightOf(all[row]));
    return QRect(plot.left(), top + LaneGap / 2, plot.width(), bottom - top - LaneGap);
}

EventFilterModel *TimelineWidget::laneModel(EventType type) const
{
    for (const Lane &l : m_lanes) {
        if (l.model->type() == type)
            return l.model;
    }
    return nullptr;
}

QRect TimelineWidget::laneRect(EventType type) const
{
    const QList<Row> all = rows();
    for (int i = 0; i < all.size(); ++i) {
        if (all[i].type == type && all[i].process < 0 && all[i].memory < 0)
            return rowRect(i);
    }
    return {};
}

QRect TimelineWidget::memoryLaneRect(int lane) const
{
    const QList<Row> all = rows();
    for (int i = 0; i < all.size(); ++i) {
        if (all[i].memory == lane)
            return rowRect(i);
    }
    return {};
}

const QList<TimelineWidget::MemoryLane> &TimelineWidget::memoryLanes() const
{
    const EventFilter &filter = m_state->filter();
    quint64 key = cacheKey();
    key = mix(key, quint64(filter.pid));
    key = mix(key, qHash(filter.comm));
    if (m_memoryLanesKey != key) {
        m_memoryLanesKey = key;
        m_memoryLanes.clear();
        // The filter bar's process and command, as the CPU lanes follow it.
        for (const ProcessMemory &m : std::as_const(m_memory)) {
            if (m_memoryLanes.size() >= TimelineBinner::MaxMemoryLanes)
                break;
            if ((filter.pid >= 0 && m.pid != filter.pid) ||
                (!filter.comm.isEmpty() && m.comm != filter.comm))
                continue;
            m_memoryLanes.append(
                {m, TimelineBinner::binMemory(m, m_state->startNs(), m_state->endNs(),
                                              plotRect().width())});
        }
    }
    return m_memoryLanes;
}

QString TimelineWidget::memoryLaneLabel(int lane) const
{
    const QList<MemoryLane> &lanes = memoryLanes();
    if (lane < 0 || lane >= lanes.size())
        return {};
    const ProcessMemory &m = lanes[lane].memory;
    return tr("%1 %2").arg(EventTableModel::displayBytes(m.comm)).arg(m.pid);
}

QString TimelineWidget::memoryPeakLabel(int lane) const
{
    const QList<MemoryLane> &lanes = memoryLanes();
    if (lane < 0 || lane >= lanes.size() || lanes[lane].columns.peakColumn < 0)
        return {};
    return tr("peak %1").arg(formatByteSize(lanes[lane].columns.peak, QLocale()));
}

QRect TimelineWidget::memoryPeakLabelRect(int lane) const
{
    const QString text = memoryPeakLabel(lane);
    const QRect r = memoryLaneRect(lane);
    if (text.isEmpty() || r.isNull())
        return {};
    const QFontMetrics fm = fontMetrics();
    // Beside the peak's marker, to the right where the plot has room, else to the left; under
    // the peak's line where the lane has room for it, else across the lane's middle (a backing
    // keeps it readable on the line).
    const int w = fm.horizontalAdvance(text) + 6;
    const int x = r.left() + memoryLanes()[lane].columns.peakColumn;
    const int left = x + 5 + w <= r.right() ? x + 5 : std::max(r.left(), x - 5 - w);
    const int below = r.top() + MemoryPeakInset + 2;
    const int top = below + fm.height() <= r.bottom() - 1
                        ? below
                        : r.top() + std::max(0, (r.height() - fm.height()) / 2);
    return QRect(left, top, w, std::min(fm.height(), r.height()));
}

QRect TimelineWidget::processLaneRect(int lane) const
{
    const QList<Row> all = rows();
    for (int i = 0; i < all.size(); ++i) {
        if (all[i].process == lane)
            return rowRect(i);
    }
    return {};
}

QString TimelineWidget::processLaneLabel(int lane) const
{
    const ProcessCpuBins &bins = cpuBins();
    if (lane < 0 || lane >= int(bins.lanes.size()))
        return {};
    return processLabelOf(bins.lanes[size_t(lane)]);
}

QRect TimelineWidget::processLabelRect(int lane) const
{
    const QRect r = processLaneRect(lane);
    if (r.isNull())
        return {};
    return QRect(14, r.top(), labelWidth() - 18, r.height());
}

int TimelineWidget::processLaneHeight() const
{
    (void)cpuBins(); // measures the labels it makes
    return m_processLaneHeight;
}

const ProcessCpuBins &TimelineWidget::cpuBins() const
{
    const quint64 key = cacheKey();
    if (m_cpuBinsKey != key) {
        m_cpuBinsKey = key;
        // The CPU samples lane's filter: a process it hides has no lane of its own either.
        m_cpuBins = m_session->events().count(EventType::CpuSample) == 0
                        ? ProcessCpuBins{}
                        : TimelineBinner::binCpuByProcess(
                              *m_session, m_state->startNs(), m_state->endNs(), plotRect().width(),
                              TimelineBinner::MaxProcessLanes, laneModel(EventType::CpuSample));
        // A line of the tallest name plus a pixel either side, and the gap between lanes.
        int line = fontMetrics().height();
        const QRect room(0, 0, 1 << 16, 1 << 10);
        for (const ProcessCpuBins::Lane &l : m_cpuBins.lanes)
            line = std::max(
                line,
                fontMetrics().boundingRect(room, ProcessLabelFlags, processLabelOf(l)).height());
        m_processLaneHeight = line + 2 + LaneGap;
    }
    return m_cpuBins;
}

double TimelineWidget::xForTime(quint64 timeNs) const
{
    return axis().xForTime(timeNs);
}

quint64 TimelineWidget::timeAt(double x) const
{
    return axis().timeAt(x);
}

quint64 TimelineWidget::cacheKey() const
{
    quint64 h = 0xcbf29ce484222325ull;
    h = mix(h, m_state->startNs());
    h = mix(h, m_state->endNs());
    h = mix(h, quint64(width()) << 32 | quint64(height()));
    const QRect plot = plotRect(); // moves when another view on the axis needs more room
    h = mix(h, quint64(plot.left()) << 32 | quint64(plot.width()));
    h = mix(h, m_session->version());
    h = mix(h, m_paletteVersion);
    h = mix(h, m_collapsed);
    for (const Lane &l : m_lanes)
        h = mix(h, l.model->version() + (quint64(l.model->filterActive()) << 40));
    return h;
}

void TimelineWidget::ensureBins()
{
    const quint64 key = cacheKey();
    for (Lane &l : m_lanes) {
        if (l.binsKey == key)
            continue;
        l.summary.update(*l.model, *m_session);
        l.bins = TimelineBinner::bin(*l.model, *m_session, m_state->startNs(), m_state->endNs(),
                                     plotRect().width(), &l.summary);
        l.binsKey = key;
    }
}

const LaneBins &TimelineWidget::laneBins(EventType type)
{
    ensureBins();
    for (const Lane &l : m_lanes) {
        if (l.model->type() == type)
            return l.bins;
    }
    static const LaneBins none;
    return none;
}

void TimelineWidget::updateAxisNeeds()
{
    m_axes->setNeeds(this, labelWidth(), PlotRightMargin);
}

void TimelineWidget::invalidate()
{
    updateAxisNeeds(); // the lanes shown, and so their names' column, may have changed
    m_images.clear();
    for (Lane &l : m_lanes)
        l.binsKey = 0;
    updateGeometry();
    update();
}

void TimelineWidget::forgetSummaries()
{
    for (Lane &l : m_lanes)
        l.summary.clear();
}

QColor TimelineWidget::laneColor(EventType type) const
{
    return colors::eventType(type, palette());
}

QColor TimelineWidget::categoryColor(LaneBins::Category category) const
{
    switch (category) {
    case LaneBins::Read:
        return colors::operation(colors::Operation::Read);
    case LaneBins::Write:
        return colors::operation(colors::Operation::Write);
    default:
        return colors::operation(colors::Operation::Other);
    }
}

QImage TimelineWidget::renderLanes()
{
    const quint64 key = cacheKey();
    if (QImage *cached = m_images.object(key))
        return *cached;
    ensureBins();
    const qreal dpr = devicePixelRatioF();
    QImage image(size() * dpr, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(palette().color(QPalette::Base));
    QPainter p(&image);
    const QList<Row> all = rows();
    QList<EventType> types;
    for (const Row &row : all) {
        if (row.process < 0)
            types << row.type;
    }
    int typeIndex = -1;
    for (int k = 0; k < all.size(); ++k) {
        const QRect r = rowRect(k);
        if (all[k].process >= 0) {
            if (typeIndex % 2)
                p.fillRect(QRect(0, r.top(), width(), r.height()), palette().alternateBase());
            drawProcessLane(p, m_cpuBins.lanes[size_t(all[k].process)], r);
            continue;
        }
        if (all[k].memory >= 0) {
            if (typeIndex % 2)
                p.fillRect(QRect(0, r.top(), width(), r.height()), palette().alternateBase());
            drawMemoryLane(p, all[k].memory, r);
            continue;
        }
        const int i = ++typeIndex;
        if (i % 2)
            p.fillRect(QRect(0, r.top(), width(), r.height()), palette().alternateBase());
        for (const Lane &l : std::as_const(m_lanes)) {
            if (l.model->type() == types.at(i))
                drawLane(p, l, r);
        }
        p.setPen(palette().color(QPalette::Text));
        {
            // ▾ open, ▸ collapsed, as tree views show it.
            const bool collapsed = isLaneCollapsed(types.at(i));
            const QPointF c(6 + DisclosureWidth / 2 - 2, r.top() + r.height() / 2.0);
            const QPolygonF triangle =
                collapsed ? QPolygonF({c + QPointF(-2, -4), c + QPointF(2, 0), c + QPointF(-2, 4)})
                          : QPolygonF({c + QPointF(-4, -2), c + QPointF(4, -2), c + QPointF(0, 2)});
            p.save();
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(Qt::NoPen);
            p.setBrush(palette().color(QPalette::PlaceholderText));
            p.drawPolygon(triangle);
            p.restore();
        }
        const int textLeft = 6 + DisclosureWidth;
        const QRect label(textLeft, r.top(), labelWidth() - 10 - DisclosureWidth, r.height());
        const int lineHeight = fontMetrics().height();
        if (types.at(i) == EventType::Block && r.height() >= 2 * lineHeight) {
            // The lane's colour key, where the eye looks for the lane's name anyway.
            const int mid = r.top() + r.height() / 2;
            p.drawText(QRect(textLeft, mid - lineHeight, label.width(), lineHeight),
                       Qt::AlignLeft | Qt::AlignVCenter, SessionModel::typeName(types.at(i)));
            QFont small = font();
            small.setPointSizeF(small.pointSizeF() * 0.8);
            p.setFont(small);
            int x = textLeft;
            const QFontMetrics fm(small);
            const std::pair<LaneBins::Category, QString> keys[] = {{LaneBins::Read, tr("read")},
                                                                   {LaneBins::Write, tr("write")},
                                                                   {LaneBins::Other, tr("other")}};
            for (const auto &[category, name] : keys) {
                p.fillRect(QRect(x, mid + 3, 7, 7), categoryColor(category));
                p.drawText(QPoint(x + 9, mid + 3 + fm.ascent() - 1), name);
                x += 9 + fm.horizontalAdvance(name) + 5;
            }
            p.setFont(font());
        } else {
            // Two lines where the lane is tall enough, else cut with an ellipsis: never clipped
            // mid-letter.
            const QString name = SessionModel::typeName(types.at(i));
            if (fontMetrics().horizontalAdvance(name) <= label.width())
                p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter, name);
            else if (r.height() >= 2 * lineHeight)
                p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, name);
            else
                p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter,
                           fontMetrics().elidedText(name, Qt::ElideRight, label.width()));
        }
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(0, r.bottom() + 1, width(), r.bottom() + 1);
    }
    drawAxis(p);
    p.end();
    m_images.insert(key, new QImage(image));
    return image;
}

void TimelineWidget::drawLane(QPainter &p, const Lane &lane, const QRect &rect) const
{
    const LaneBins &b = lane.bins;
    const bool isBlock = b.type == EventType::Block;
    const QColor base = laneColor(b.type);
    p.save();
    p.setClipRect(rect);
    if (b.dense) {
        // Density: bar height grows with log(count), so a burst and a trickle both stay visible.
        // The bars are written as pixels into a lane-sized image: one QPainter::fillRect per
        // column and category cost more than the binning of millions of events.
        const double norm = std::log1p(double(std::max<quint32>(b.maxCount, 1)));
        QImage bars(std::max(1, std::min(b.width, rect.width())), std::max(1, rect.height()),
                    QImage::Format_ARGB32_Premultiplied);
        bars.fill(Qt::transparent);
        const int bottom = bars.height() - 1;
        // Raw bits once: scanLine() on a non-const image checks for detaching on every call.
        uchar *bits = bars.bits();
        const qsizetype stride = bars.bytesPerLine();
        const int rows = bars.height();
        auto column = [bits, stride, rows](int x, int top, int height, QRgb rgb) {
            // Rows [top, top + height), clipped to the lane like the painter's clip would.
            const int y0 = std::max(top, 0);
            const int y1 = std::min(top + height, rows);
            for (int y = y0; y < y1; ++y)
                reinterpret_cast<QRgb *>(bits + y * stride)[x] = rgb;
        };
        QRgb categoryRgb[LaneBins::CategoryCount];
        for (int cat = 0; cat < LaneBins::CategoryCount; ++cat)
            categoryRgb[cat] = categoryColor(LaneBins::Category(cat)).rgba();
        const QRgb baseRgb = base.rgba();
        for (int c = 0; c < bars.width(); ++c) {
            const quint32 n = b.counts[size_t(c)];
            if (!n)
                continue;
            const int h =
                std::max(2, int(std::round(std::log1p(double(n)) / norm * (rect.height() - 2))));
            if (isBlock) {
                int y = bottom;
                for (int cat = 0; cat < LaneBins::CategoryCount; ++cat) {
                    const int part = int(std::round(b.share[cat][size_t(c)] * h));
                    if (part <= 0)
                        continue;
                    column(c, y - part + 1, part, categoryRgb[cat]);
                    y -= part;
                }
            } else {
                column(c, bottom - h + 1, h, baseRgb);
            }
        }
        p.drawImage(rect.topLeft(), bars);
    } else if (isBlock) {
        const int rowH = std::max(3, (rect.height() - 4) / std::max(b.rows, 1));
        for (const LaneBins::Span &s : b.spans) {
            const double x0 = std::max(s.x0, -2.0);
            const double x1 = std::min(s.x1, double(b.width + 2));
            const QRectF r(rect.left() + x0, rect.top() + 2 + s.row * rowH, std::max(1.5, x1 - x0),
                           rowH - 1);
            const QColor c = categoryColor(s.category);
            p.fillRect(r, c);
            if (r.width() > 4) {
                p.setPen(c.darker(130));
                p.drawRect(r);
            }
        }
    } else {
        const int tickTop = rect.top() + rect.height() / 5;
        std::vector<double> xs;
        xs.reserve(b.spans.size());
        for (const LaneBins::Span &s : b.spans)
            xs.push_back(rect.left() + s.x0);
        m_ticks.draw(p, base, tickTop, rect.bottom(), xs);
    }
    p.restore();
}

void TimelineWidget::drawProcessLane(QPainter &p, const ProcessCpuBins::Lane &lane,
                                     const QRect &rect) const
{
    // Linear against the busiest column of any process: lanes compare by height, and a process
    // that used the CPUs half as much looks half as tall.
    const QColor base = laneColor(EventType::CpuSample);
    const QColor fill = lane.pid < 0 ? QColor(0x8a, 0x8f, 0x98) : base;
    const double norm = double(std::max<quint32>(m_cpuBins.maxCount, 1));
    const int bottom = rect.bottom();
    const int columns = std::min(int(lane.counts.size()), rect.width());
    p.save();
    p.setClipRect(rect);
    for (int c = 0; c < columns; ++c) {
        const quint32 n = lane.counts[size_t(c)];
        if (!n)
            continue;
        const int h = std::max(1, int(std::round(double(n) / norm * (rect.height() - 1))));
        p.fillRect(QRect(rect.left() + c, bottom - h + 1, 1, h), fill);
    }
    p.restore();
    p.setPen(palette().color(QPalette::Text));
    const QRect label(14, rect.top(), labelWidth() - 18, rect.height());
    p.drawText(label, ProcessLabelFlags,
               fontMetrics().elidedText(processLabelOf(lane), Qt::ElideMiddle, label.width()));
    p.setPen(palette().color(QPalette::Midlight));
    p.drawLine(14, rect.bottom() + 1, width(), rect.bottom() + 1);
}

void TimelineWidget::drawMemoryLane(QPainter &p, int lane, const QRect &rect) const
{
    const MemoryColumns &m = memoryLanes()[lane].columns;
    // The Allocations lane's colour, so the lane reads as its own.
    const QColor line = laneColor(EventType::Allocation);
    QColor area = line;
    area.setAlpha(60);
    // From zero, so heights compare honestly; the peak a few pixels under the lane's top.
    const int bottom = rect.bottom();
    const double scale =
        m.peak ? double(rect.height() - 1 - MemoryPeakInset) / double(m.peak) : 0.0;
    auto yOf = [&](quint64 v) { return bottom - int(std::lround(double(v) * scale)); };
    const int columns = std::min(m.width, rect.width());
    p.save();
    p.setClipRect(rect);
    for (int c = m.first; c < columns; ++c) {
        const int x = rect.left() + c;
        const int high = yOf(m.high[size_t(c)]);
        const int low = yOf(m.low[size_t(c)]);
        if (high < bottom)
            p.fillRect(QRect(x, high, 1, bottom - high + 1), area);
        // The line: one pixel where nothing changed, the whole change where it did.
        p.fillRect(QRect(x, high - 1, 1, std::max(low - high, 0) + 2), line);
    }
    if (m.peakColumn >= 0) {
        const QPointF peak(rect.left() + m.peakColumn + 0.5, yOf(m.peak));
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(QPen(palette().color(QPalette::Base), 1.5));
        p.setBrush(line);
        p.drawEllipse(peak, 3.0, 3.0);
        p.setRenderHint(QPainter::Antialiasing, false);
        if (const QRect label = memoryPeakLabelRect(lane); !label.isNull()) {
            // On the area's tint the text keeps a backing of the lane's background.
            QColor back = palette().color(QPalette::Base);
            back.setAlpha(200);
            p.fillRect(label, back);
            p.setPen(palette().color(QPalette::Text));
            p.drawText(label, Qt::AlignCenter, memoryPeakLabel(lane));
        }
    }
    p.restore();
    p.setPen(palette().color(QPalette::Text));
    const QRect name(14, rect.top(), labelWidth() - 18, rect.height());
    const QString process =
        fontMetrics().elidedText(memoryLaneLabel(lane), Qt::ElideMiddle, name.width());
    // What the lane is, under the process's name where it has room: a CPU lane's name reads the
    // same.
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    const QFontMetrics smallMetrics(small);
    const int nameHeight = fontMetrics().height();
    if (rect.height() >= nameHeight + smallMetrics.height() + 2) {
        const int top = rect.top() + (rect.height() - nameHeight - smallMetrics.height()) / 2;
        p.drawText(QRect(name.left(), top, name.width(), nameHeight), ProcessLabelFlags, process);
        p.setFont(small);
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(name.left(), top + nameHeight, name.width(), smallMetrics.height()),
                   ProcessLabelFlags,
                   smallMetrics.elidedText(tr("memory in use"), Qt::ElideRight, name.width()));
        p.setFont(font());
    } else {
        p.drawText(name, ProcessLabelFlags, process);
    }
    p.setPen(palette().color(QPalette::Midlight));
    p.drawLine(14, rect.bottom() + 1, width(), rect.bottom() + 1);
}

QString TimelineWidget::memoryLaneText(int lane, const QPoint &pos) const
{
    const QList<MemoryLane> &lanes = memoryLanes();
    if (lane < 0 || lane >= lanes.size())
        return {};
    const MemoryLane &l = lanes[lane];
    const QString who =
        tr("%1 (PID %2)").arg(EventTableModel::displayBytes(l.memory.comm)).arg(l.memory.pid);
    QStringList lines;
    lines << tr("%1: memory held in the blocks it allocated while recorded").arg(who);
    const quint64 start = m_session->info().startMonotonicNs;
    if (pos.x() >= plotRect().left()) {
        const quint64 t = timeAt(pos.x());
        lines << tr("%1 at %2")
                     .arg(formatByteSize(TimelineBinner::heldAt(l.memory, t), QLocale()),
                          EventTableModel::formatTime(t, start));
    }
    if (l.columns.peakColumn >= 0)
        lines << tr("Peak in view: %1 at %2")
                     .arg(formatByteSize(l.columns.peak, QLocale()),
                          EventTableModel::formatTime(l.columns.peakNs, start));
    lines << tr("Peak of the recording: %1").arg(formatByteSize(l.memory.peak, QLocale()));
    return lines.join(QLatin1Char('\n'));
}

QString TimelineWidget::processLaneText(int lane) const
{
    if (lane < 0 || lane >= int(m_cpuBins.lanes.size()))
        return {};
    const ProcessCpuBins::Lane &l = m_cpuBins.lanes[size_t(lane)];
    const int samples = int(std::min<quint64>(l.total, INT_MAX));
    // An "other" lane holds two processes at least (binCpuByProcess).
    if (l.pid < 0)
        return tr("%1 other processes: %Ln CPU sample(s) in view", nullptr, samples)
            .arg(l.processes);
    return tr("%1 (PID %2): %Ln CPU sample(s) in view", nullptr, samples)
        .arg(EventTableModel::displayBytes(l.comm))
        .arg(l.pid);
}

QString TimelineWidget::cardText() const
{
    if (m_session->isEmpty())
        return m_emptyText;
    // A session of counters and histograms only (tpcount, cachestat, runqlat): no lane to show,
    // and a blank timeline would look broken.
    if (laneTypes().isEmpty())
        return tr("No events in this session: its probes keep counters and histograms (see the "
                  "Counters and Histograms tabs).");
    return QString();
}

void TimelineWidget::setEmptyText(const QString &text)
{
    if (text == m_emptyText)
        return;
    m_emptyText = text;
    update();
}

void TimelineWidget::drawAxis(QPainter &p) const
{
    const QRect plot = plotRect();
    p.fillRect(QRect(0, 0, width(), AxisHeight), palette().window());
    // Without data the range is a placeholder nanosecond: its ticks would read
    // "0.000000001 s".
    if (m_session->isEmpty()) {
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(0, AxisHeight - 1, width(), AxisHeight - 1);
        p.drawLine(plot.left() - 1, AxisHeight, plot.left() - 1, height());
        return;
    }
    p.setPen(palette().color(QPalette::WindowText));
    for (const TimeAxis::Tick &tick : axis().ticks()) {
        p.drawLine(QPointF(tick.x, AxisHeight - 5), QPointF(tick.x, AxisHeight));
        p.drawText(QRectF(tick.x + 3, 0, 120, AxisHeight - 4), Qt::AlignLeft | Qt::AlignBottom,
                   tick.label);
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(0, AxisHeight - 1, width(), AxisHeight - 1);
    p.drawLine(plot.left() - 1, AxisHeight, plot.left() - 1, height());
}

void TimelineWidget::drawSelection(QPainter &p) const
{
    const EventRef sel = m_state->selectedEvent();
    if (!sel.isValid() || sel.index >= m_session->events().count(sel.type))
        return;
    const QRect lane = laneRect(sel.type);
    if (lane.isNull())
        return;
    const quint64 t = m_session->events().timeNs(sel.type, sel.index);
    double x0 = xForTime(t);
    if (sel.type == EventType::Block) {
        const quint64 d = m_session->events().latencyNs<BlockEvent>(sel.index);
        x0 = xForTime(t - std::min(t, d));
    }
    const double x1 = xForTime(t);
    // Text colour outside, highlight inside: visible on every event colour and both themes.
    const QRectF r(x0 - 3, lane.top() + 1, x1 - x0 + 6, lane.height() - 2);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(palette().color(QPalette::Text), 3));
    p.drawRect(r);
    p.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
    p.drawRect(r);
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.drawImage(0, 0, renderLanes());
    if (const QString message = cardText(); !message.isEmpty()) {
        // On a card of its own: wrapped (German), the text would cross the lanes' lines.
        const QRect room = plotRect().adjusted(24, 8, -24, -8);
        const int flags = Qt::AlignCenter | Qt::TextWordWrap;
        const QRect text = fontMetrics().boundingRect(room, flags, message);
        const QRect card = text.adjusted(-12, -8, 12, 8).intersected(plotRect());
        p.save();
        p.setClipRect(plotRect()); // a short timeline cuts the text, never the axis
        p.setPen(palette().color(QPalette::Mid));
        p.setBrush(palette().base());
        p.drawRoundedRect(card, 4, 4);
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(text, flags, message);
        p.restore();
    }
    drawSelection(p);
    if (m_drag == Drag::RubberBand) {
        const QRect plot = plotRect();
        QColor fill = palette().color(QPalette::Highlight);
        fill.setAlpha(60);
        const QRect band(QPoint(std::min(m_pressPos.x(), m_dragPos.x()), plot.top()),
                         QPoint(std::max(m_pressPos.x(), m_dragPos.x()), plot.bottom()));
        p.fillRect(band, fill);
        p.setPen(palette().color(QPalette::Highlight));
        p.drawRect(band);
    }
    if (hasFocus()) {
        p.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DotLine));
        p.drawRect(rect().adjusted(0, 0, -1, -1));
    }
}

EventRef TimelineWidget::eventAt(const QPoint &pos)
{
    ensureBins();
    for (const Lane &l : std::as_const(m_lanes)) {
        const QRect r = laneRect(l.model->type());
        if (r.isNull() || !r.contains(pos))
            continue;
        const double px = pos.x() - r.left();
        // Block requests: the span under the cursor (their sub-row too) wins.
        if (!l.bins.dense && l.bins.type == EventType::Block) {
            const int rowH = std::max(3, (r.height() - 4) / std::max(l.bins.rows, 1));
            for (const LaneBins::Span &s : l.bins.spans) {
                const double y0 = r.top() + 2 + s.row * rowH;
                if (px >= s.x0 - 2 && px <= s.x1 + 2 && pos.y() >= y0 && pos.y() < y0 + rowH)
                    return {l.model->type(), s.index};
            }
        }
        // Otherwise the event nearest in time within a few pixels.
        const quint64 t = timeAt(pos.x());
        const double nsPerPx = double(m_state->endNs() - m_state->startNs()) / r.width();
        const quint64 tol = quint64(nsPerPx * HitTolerancePx);
        const EventStore &store = m_session->events();
        const qsizetype k = l.model->acceptedLowerBound(t);
        EventRef best;
        quint64 bestDist = tol + 1;
        for (qsizetype c : {k - 1, k}) {
            if (c < 0 || c >= l.model->acceptedCount())
                continue;
            const qsizetype i = l.model->acceptedAt(c);
            const quint64 et = store.timeNs(l.model->type(), i);
            const quint64 dist = et > t ? et - t : t - et;
            if (dist < bestDist) {
                bestDist = dist;
                best = {l.model->type(), i};
            }
        }
        return best;
    }
    return {};
}

QString TimelineWidget::eventSummary(const SessionModel &session, const EventRef &ref)
{
    QStringList lines;
    const auto fields = EventTableModel::eventFields(session, ref);
    for (const auto &f : fields) {
        if (f.first == EventTableModel::tr("Timestamp (ns)") ||
            f.first == EventTableModel::tr("Wall clock (UTC)"))
            continue;
        lines << QStringLiteral("%1: %2").arg(f.first, f.second);
        if (lines.size() >= 12)
            break;
    }
    return lines.join(QLatin1Char('\n'));
}

bool TimelineWidget::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const EventRef ref = eventAt(help->pos());
        m_hoverText = ref.isValid() ? eventSummary(*m_session, ref) : QString();
        for (int k = 0; m_hoverText.isEmpty() && k < int(cpuBins().lanes.size()); ++k) {
            if (processLaneRect(k).adjusted(-plotRect().left(), 0, 0, 0).contains(help->pos()))
                m_hoverText = processLaneText(k);
        }
        for (int k = 0; m_hoverText.isEmpty() && k < memoryLanes().size(); ++k) {
            if (memoryLaneRect(k).adjusted(-plotRect().left(), 0, 0, 0).contains(help->pos()))
                m_hoverText = memoryLaneText(k, help->pos());
        }
        if (m_hoverText.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), m_hoverText, this);
        return true;
    }
    return QWidget::event(event);
}

void TimelineWidget::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0) {
        event->ignore();
        return;
    }
    m_state->zoom(std::pow(0.8, steps), timeAt(event->position().x()));
    event->accept();
}

void TimelineWidget::mousePressEvent(QMouseEvent *event)
{
    if (event->button() == Qt::LeftButton && event->pos().x() < plotRect().left()) {
        for (EventType t : laneTypes()) {
            const QRect r = laneRect(t);
            if (event->pos().y() >= r.top() && event->pos().y() <= r.bottom()) {
                setLaneCollapsed(t, !isLaneCollapsed(t));
                m_drag = Drag::None;
                event->accept();
                return;
            }
        }
    }
    m_pressPos = m_dragPos = event->pos();
    m_pressStart = m_state->startNs();
    m_pressEnd = m_state->endNs();
    m_moved = false;
    if (event->button() == Qt::RightButton ||
        (event->button() == Qt::LeftButton && event->modifiers() & Qt::ShiftModifier))
        m_drag = Drag::RubberBand;
    else if (event->button() == Qt::LeftButton)
        m_drag = Drag::Pan;
    else
        m_drag = Drag::None;
    event->accept();
}

void TimelineWidget::mouseMoveEvent(QMouseEvent *event)
{
    m_dragPos = event->pos();
    if ((m_dragPos - m_pressPos).manhattanLength() > 3)
        m_moved = true;
    if (m_drag == Drag::Pan && m_moved) {
        setCursor(Qt::ClosedHandCursor);
        const double nsPerPx = double(m_pressEnd - m_pressStart) / plotRect().width();
        const qint64 delta = qint64(std::llround(-(m_dragPos.x() - m_pressPos.x()) * nsPerPx));
        const quint64 start = delta < 0 ? m_pressStart - std::min(m_pressStart, quint64(-delta))
                                        : m_pressStart + quint64(delta);
        // Through pan() from the press position, so the clamping stays in one place.
        m_state->setRange(m_pressStart, m_pressEnd);
        m_state->pan(qint64(start) - qint64(m_pressStart));
    } else if (m_drag == Drag::RubberBand) {
        update();
    }
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent *event)
{
    const Drag drag = m_drag;
    m_drag = Drag::None;
    unsetCursor();
    if (drag == Drag::RubberBand && m_moved) {
        const quint64 a = timeAt(std::min(m_pressPos.x(), event->pos().x()));
        const quint64 b = timeAt(std::max(m_pressPos.x(), event->pos().x()));
        m_state->setRange(a, b);
    } else if (drag == Drag::Pan && !m_moved) {
        m_state->setSelectedEvent(eventAt(event->pos()));
    } else if (drag == Drag::RubberBand && event->button() == Qt::RightButton) {
        // A right click without a drag: the range's menu (a right drag zooms).
        contextMenu()->popup(event->globalPosition().toPoint());
    }
    update();
}

QMenu *TimelineWidget::contextMenu()
{
    if (!m_menu) {
        m_menu = new QMenu(this);
        m_explainAction = m_menu->addAction(tr("&Explain This Range"), this,
                                            [this] { m_state->requestExplain(); });
        m_explainAction->setToolTip(
            tr("What is more common in the visible range than in the rest of the recording"));
        m_resetAction =
            m_menu->addAction(tr("&Reset Zoom"), this, [this] { m_state->resetRange(); });
    }
    // Over the whole recording there is no "rest" to compare with.
    m_explainAction->setEnabled(m_state->isZoomed());
    m_resetAction->setEnabled(m_state->isZoomed());
    return m_menu;
}

void TimelineWidget::keyPressEvent(QKeyEvent *event)
{
    const quint64 centre = m_state->startNs() + (m_state->endNs() - m_state->startNs()) / 2;
    const qint64 tenth = qint64((m_state->endNs() - m_state->startNs()) / 10);
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        m_state->zoom(0.5, centre);
        break;
    case Qt::Key_Minus:
        m_state->zoom(2.0, centre);
        break;
    case Qt::Key_Home:
    case Qt::Key_0:
        m_state->resetRange();
        break;
    case Qt::Key_Left:
        m_state->pan(-tenth);
        break;
    case Qt::Key_Right:
        m_state->pan(tenth);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelineWidget::leaveEvent(QEvent *event)
{
    m_hoverText.clear();
    QWidget::leaveEvent(event);
}

void TimelineWidget::setLaneCollapsed(EventType type, bool collapsed)
{
    const quint64 before = m_collapsed;
    m_collapsed = collapsed ? m_collapsed | laneBit(type) : m_collapsed & ~laneBit(type);
    if (m_collapsed == before)
        return;
    QSettings().setValue(QStringLiteral("timeline/collapsedLanes"), m_collapsed);
    update();
}

void TimelineWidget::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        ++m_paletteVersion;
        invalidate();
    }
    if (event->type() == QEvent::LanguageChange) {
        // The lane names' column, and the process lanes' height for "other" in the new language.
        ++m_paletteVersion;
        invalidate();
    }
    QWidget::changeEvent(event);
}

} // namespace bpflens
