#include "gui/threadstateview.h"

#include "core/eventstore.h"
#include "gui/models/criticalpathmodel.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/threadstatemodel.h"
#include "gui/theme.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace bpflens {

namespace {

using E = ThreadStateEvent;
constexpr int RightNeed = 1;
constexpr int Indent = 14; // a thread's name under its process's
constexpr int MaxLeftNeed = 200;

quint64 mix(quint64 h, quint64 v)
{
    return (h ^ v) * 0x100000001b3ull + (h >> 29);
}

QString seconds(quint64 t, quint64 origin)
{
    return ThreadStateView::tr("%1 s").arg(
        QLocale().toString(double(qint64(t - origin)) / 1e9, 'f', 6));
}

} // namespace

// ---------------------------------------------------------------------------------------------

ThreadStatePlot::ThreadStatePlot(ThreadStateView *view, ThreadStateModel *model, ViewState *state,
                                 const SessionModel *session)
    : QWidget(view)
    , m_view(view)
    , m_model(model)
    , m_state(state)
    , m_session(session)
    , m_axes(TimeAxisGroup::of(state))
    , m_images(4)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::ClickFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumHeight(96);
    setAccessibleName(ThreadStateView::tr("Thread states"));
    setAccessibleDescription(ThreadStateView::tr(
        "Each thread's state over time, one lane per thread under its process. Wheel zooms, "
        "drag pans, Shift+wheel scrolls the threads, a click selects a span."));
    m_axes->add(this, leftNeed(), RightNeed);
    connect(m_axes, &TimeAxisGroup::changed, this, [this] { update(); });
    connect(m_state, &ViewState::rangeChanged, this, [this] { update(); });
    connect(m_state, &ViewState::selectedEventChanged, this, [this] { update(); });
    connect(m_model, &ThreadStateModel::rowsChanged, this, [this] { update(); });
}

int ThreadStatePlot::leftNeed() const
{
    // "kworker/u16:3 123456" whole; a longer name is elided (its tool tip has it).
    return std::min(MaxLeftNeed,
                    fontMetrics().horizontalAdvance(QStringLiteral("kworker/u16:3 1234567")) +
                        Indent + 10);
}

int ThreadStatePlot::rowHeight() const
{
    return fontMetrics().height() + 4;
}

QRect ThreadStatePlot::plotRect() const
{
    const auto [left, right] = m_axes->span(this);
    return QRect(left, AxisHeight, std::max(1, right - left), std::max(1, height() - AxisHeight));
}

TimeAxis ThreadStatePlot::axis() const
{
    const QRect plot = plotRect();
    return TimeAxis(m_state->startNs(), m_state->endNs(), m_session->info().startMonotonicNs,
                    plot.left(), plot.width());
}

QRect ThreadStatePlot::rowRect(int row) const
{
    const int h = rowHeight();
    return QRect(0, AxisHeight + row * h - m_scrollY, width(), h);
}

QRect ThreadStatePlot::laneRect(quint32 tid) const
{
    const int row = m_model->rowOfThread(tid);
    if (row < 0)
        return {};
    const QRect r = rowRect(row);
    if (r.bottom() < AxisHeight || r.top() >= height())
        return {};
    const QRect plot = plotRect();
    return QRect(plot.left(), r.top() + 1, plot.width(), r.height() - 2);
}

int ThreadStatePlot::rowAt(int y) const
{
    if (y < AxisHeight)
        return -1;
    const int row = (y - AxisHeight + m_scrollY) / rowHeight();
    return row < m_model->rows().size() ? row : -1;
}

int ThreadStatePlot::contentHeight() const
{
    return int(m_model->rows().size()) * rowHeight();
}

void ThreadStatePlot::setScrollY(int y)
{
    y = std::clamp(y, 0, std::max(0, contentHeight() - (height() - AxisHeight)));
    if (y == m_scrollY)
        return;
    m_scrollY = y;
    update();
}

void ThreadStatePlot::ensureRowVisible(int row)
{
    if (row < 0)
        return;
    const int top = row * rowHeight();
    const int view = height() - AxisHeight;
    if (top < m_scrollY)
        Q_EMIT scrollRequested(top - m_scrollY);
    else if (top + rowHeight() > m_scrollY + view)
        Q_EMIT scrollRequested(top + rowHeight() - view - m_scrollY);
}

QColor ThreadStatePlot::stateColor(quint8 state, const QPalette &palette)
{
    // Perfetto's and Android Studio's convention: green runs, pale green waits for a CPU, grey
    // sleeps, orange is uninterruptible (D).
    const bool dark = Theme::isDark(palette);
    switch (state) {
    case E::Running:
        return QColor(0x3a9a48);
    case E::Runnable:
        return dark ? QColor(0x86b870) : QColor(0xb8e0a4);
    case E::Sleeping:
        return dark ? QColor(0x50555d) : QColor(0xd3d6db);
    case E::Uninterruptible:
        return QColor(0xe0652b);
    case E::Stopped:
        return dark ? QColor(0x9b86b8) : QColor(0x4f3f66);
    default:
        return QColor(0x9a9a9a);
    }
}

quint64 ThreadStatePlot::cacheKey() const
{
    quint64 h = 0xcbf29ce484222325ull;
    h = mix(h, m_state->startNs());
    h = mix(h, m_state->endNs());
    h = mix(h, quint64(width()) << 32 | quint64(height()));
    const QRect plot = plotRect();
    h = mix(h, quint64(plot.left()) << 32 | quint64(plot.width()));
    h = mix(h, quint64(m_scrollY));
    h = mix(h, m_model->version());
    h = mix(h, m_session->version());
    h = mix(h, m_paletteVersion);
    return h;
}

void ThreadStatePlot::drawAxis(QPainter &p) const
{
    const QRect plot = plotRect();
    p.fillRect(QRect(0, 0, width(), AxisHeight), palette().window());
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

void ThreadStatePlot::drawLane(QPainter &p, quint32 tid, const QRect &lane) const
{
    const std::vector<quint8> states =
        m_model->laneStates(tid, m_state->startNs(), m_state->endNs(), lane.width());
    QColor colors[8];
    for (int s = 0; s < 8; ++s)
        colors[s] = stateColor(quint8(s), palette());
    const QFontMetrics fm = fontMetrics();
    const int cpuWidth = fm.horizontalAdvance(QStringLiteral("88")) + 4;
    const TimeAxis a = axis();
    // Runs of one state as one rectangle: a lane costs its state changes in sight, at most a
    // rectangle per pixel column.
    const int n = int(states.size());
    for (int c = 0; c < n;) {
        const quint8 s = states[size_t(c)];
        int e = c + 1;
        while (e < n && states[size_t(e)] == s)
            ++e;
        if (s) {
            const QRect r(lane.left() + c, lane.top(), e - c, lane.height());
            p.fillRect(r, colors[s < 8 ? s : 0]);
            if (s == E::Running && r.width() >= cpuWidth) {
                // The CPU it ran on, where the run is wide enough to say it.
                const qsizetype span = m_model->spanAt(tid, a.timeAt(r.left() + r.width() / 2.0));
                if (span >= 0) {
                    const quint32 cpu = m_session->events().value<&E::cpu>(span);
                    const QString full = ThreadStateView::tr("CPU %1").arg(cpu);
                    const QString text =
                        fm.horizontalAdvance(full) + 4 <= r.width() ? full : QString::number(cpu);
                    if (fm.horizontalAdvance(text) + 4 <= r.width()) {
                        p.setPen(Qt::white);
                        p.drawText(r, Qt::AlignCenter, text);
                    }
                }
            }
        }
        c = e;
    }
}

QImage ThreadStatePlot::renderLanes()
{
    const quint64 key = cacheKey();
    if (QImage *cached = m_images.object(key))
        return *cached;
    const qreal dpr = devicePixelRatioF();
    QImage image(size() * dpr, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(palette().color(QPalette::Base));
    QPainter p(&image);
    const QRect plot = plotRect();
    const QList<ThreadStateModel::Row> &rows = m_model->rows();
    const int rowH = rowHeight();
    const int first = std::max(0, m_scrollY / rowH);
    const int labelWidth = plot.left() - 8;
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics boldMetrics(bold);
    p.setClipRect(QRect(0, AxisHeight, width(), height() - AxisHeight));
    for (int row = first; row < rows.size(); ++row) {
        const QRect r = rowRect(row);
        if (r.top() >= height())
            break;
        const ThreadStateModel::Row &info = rows[row];
        const QString label = ThreadStateModel::rowLabel(info);
        if (info.isProcess) {
            p.fillRect(r, palette().window());
            // ▾ open, ▸ folded, as the timeline's lanes and tree views show it.
            const bool collapsed = m_model->isCollapsed(info.pid);
            const QPointF c(9, r.top() + r.height() / 2.0);
            const QPolygonF triangle =
                collapsed ? QPolygonF({c + QPointF(-2, -4), c + QPointF(2, 0), c + QPointF(-2, 4)})
                          : QPolygonF({c + QPointF(-4, -2), c + QPointF(4, -2), c + QPointF(0, 2)});
            p.save();
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(Qt::NoPen);
            p.setBrush(palette().color(QPalette::PlaceholderText));
            p.drawPolygon(triangle);
            p.restore();
            p.setFont(bold);
            p.setPen(palette().color(QPalette::WindowText));
            const QString text =
                collapsed
                    ? ThreadStateView::tr("%1 (%Ln thread(s))", nullptr, info.threads).arg(label)
                    : label;
            p.drawText(QRect(18, r.top(), std::max(10, width() - 24), r.height()),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       boldMetrics.elidedText(text, Qt::ElideRight, width() - 24));
            p.setFont(font());
        } else {
            if (row % 2)
                p.fillRect(r, palette().alternateBase());
            p.setPen(palette().color(QPalette::Text));
            p.drawText(QRect(Indent + 4, r.top(), labelWidth - Indent, r.height()),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       fontMetrics().elidedText(label, Qt::ElideMiddle, labelWidth - Indent));
            p.save();
            p.setClipRect(plot.intersected(r));
            drawLane(p, info.tid, QRect(plot.left(), r.top() + 1, plot.width(), r.height() - 2));
            p.restore();
        }
    }
    p.setClipping(false);
    drawAxis(p);
    p.end();
    m_images.insert(key, new QImage(image));
    return image;
}

void ThreadStatePlot::drawCriticalPath(QPainter &p) const
{
    const CriticalPath &path = m_view->m_path->path();
    if (path.steps.isEmpty())
        return;
    const QRect plot = plotRect();
    const TimeAxis a = axis();
    p.save();
    p.setClipRect(plot);
    // The rest dimmed: the path is what the eye should follow.
    QColor veil = palette().color(QPalette::Base);
    veil.setAlpha(170);
    p.fillRect(plot, veil);
    const QColor outline = palette().color(QPalette::Text);
    const double left = plot.left(), right = plot.left() + plot.width();
    auto laneCentre = [&](quint32 tid) {
        const int row = m_model->rowOfThread(tid);
        return row < 0 ? -1.0 : rowRect(row).center().y() + 0.5;
    };
    for (const CriticalPathStep &s : path.steps) {
        const QRect lane = laneRect(s.tid);
        if (lane.isNull())
            continue;
        const double x0 = std::max(a.xForTime(s.startNs), left - 2);
        const double x1 = std::min(a.xForTime(s.endNs), right + 2);
        if (x1 < left || x0 > right)
            continue;
        const QRectF r(x0, lane.top(), std::max(1.0, x1 - x0), lane.height());
        if (s.state)
            p.fillRect(r, stateColor(s.state, palette()));
        else
            p.fillRect(r, QBrush(palette().color(QPalette::Mid), Qt::BDiagPattern));
        if (r.width() >= 3) {
            p.setPen(QPen(outline, 1));
            p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
        }
    }
    // The hand-overs: where the path goes over to a waker (the woken thread blocked there),
    // dashed; where a waker woke the thread below it in the chain, an arrow to the woken lane.
    p.setRenderHint(QPainter::Antialiasing);
    for (qsizetype k = 0; k + 1 < path.steps.size(); ++k) {
        const CriticalPathStep &from = path.steps[k];
        const CriticalPathStep &to = path.steps[k + 1];
        if (from.tid == to.tid)
            continue;
        const double x = a.xForTime(from.endNs);
        if (x < left || x > right)
            continue;
        const double y0 = laneCentre(from.tid), y1 = laneCentre(to.tid);
        if (y0 < 0 || y1 < 0)
            continue;
        if (to.depth > from.depth) {
            p.setPen(QPen(outline, 1, Qt::DashLine));
            p.drawLine(QPointF(x, y0), QPointF(x, y1));
            continue;
        }
        const QColor arrow = Theme::accent(palette());
        p.setPen(QPen(arrow, 2));
        p.drawLine(QPointF(x, y0), QPointF(x, y1));
        const double dir = y1 > y0 ? 1 : -1;
        QPainterPath head;
        head.moveTo(x, y1);
        head.lineTo(x - 4, y1 - dir * 7);
        head.lineTo(x + 4, y1 - dir * 7);
        head.closeSubpath();
        p.fillPath(head, arrow);
        p.setBrush(arrow);
        p.setPen(Qt::NoPen);
        p.drawEllipse(QPointF(x, y0), 2.5, 2.5);
        p.setBrush(Qt::NoBrush);
    }
    p.restore();
}

void ThreadStatePlot::drawSelection(QPainter &p) const
{
    const EventRef sel = m_state->selectedEvent();
    const EventStore &store = m_session->events();
    const QRect plot = plotRect();
    // The chosen thread's name stands out: the critical path is asked for it.
    if (const quint32 tid = m_view->m_tid; tid) {
        const int row = m_model->rowOfThread(tid);
        if (row >= 0) {
            const QRect r = rowRect(row);
            QColor band = palette().color(QPalette::Highlight);
            band.setAlpha(60);
            p.fillRect(QRect(0, r.top(), plot.left() - 1, r.height())
                           .intersected(QRect(0, AxisHeight, width(), height())),
                       band);
        }
    }
    if (sel.type != EventType::ThreadState || !sel.isValid() ||
        sel.index >= store.count(EventType::ThreadState))
        return;
    const QRect lane = laneRect(store.value<&E::tid>(sel.index));
    if (lane.isNull())
        return;
    const quint64 t = store.value<&E::timeNs>(sel.index);
    const double x0 = std::max(xForTime(t), double(plot.left()) - 3);
    const double x1 =
        std::min(xForTime(t + store.value<&E::durNs>(sel.index)), double(plot.right()) + 3);
    if (x1 < plot.left() || x0 > plot.right())
        return;
    p.save();
    p.setClipRect(plot);
    const QRectF r(x0 - 2, lane.top() - 1, x1 - x0 + 4, lane.height() + 2);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(palette().color(QPalette::Text), 3));
    p.drawRect(r);
    p.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
    p.drawRect(r);
    p.restore();
}

void ThreadStatePlot::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.drawImage(0, 0, renderLanes());
    drawCriticalPath(p);
    drawSelection(p);
}

void ThreadStatePlot::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    setScrollY(m_scrollY); // clamped to the new height
    m_view->updateScrollBar();
}

qsizetype ThreadStatePlot::spanAt(QPoint pos, quint32 *tid) const
{
    const int row = rowAt(pos.y());
    if (row < 0 || m_model->rows().at(row).isProcess)
        return -1;
    const quint32 t = m_model->rows().at(row).tid;
    if (tid)
        *tid = t;
    const QRect plot = plotRect();
    if (pos.x() < plot.left() || pos.x() > plot.right())
        return -1;
    const TimeAxis a = axis();
    const qsizetype exact = m_model->spanAt(t, a.timeAt(pos.x()));
    if (exact >= 0)
        return exact;
    // A span narrower than the pixel: the one starting in it.
    const qsizetype i = m_model->spanAt(t, a.timeAt(pos.x() + 0.5));
    return i;
}

QString ThreadStatePlot::spanToolTip(qsizetype span) const
{
    const EventStore &store = m_session->events();
    const E e = store.event<E>(span);
    const quint64 origin = m_session->info().startMonotonicNs;
    QStringList lines;
    const QString state = CriticalPathModel::stateText(e.state);
    const QString reason = CriticalPathModel::reasonText(e.reason);
    if (e.state == E::Running)
        lines << ThreadStateView::tr("%1 on CPU %2").arg(state).arg(e.cpu);
    else
        lines << (reason.isEmpty() ? state : ThreadStateView::tr("%1: %2").arg(state, reason));
    lines << ThreadStateView::tr("Duration: %1").arg(EventTableModel::formatDuration(e.durNs));
    lines << ThreadStateView::tr("Start: %1").arg(seconds(e.timeNs, origin));
    if (e.state != E::Running && e.state != E::Runnable)
        lines << ThreadStateView::tr("Blocked on CPU %1").arg(e.cpu);
    if (!e.wakerComm.isEmpty())
        lines << ThreadStateView::tr("Woken by: %1")
                     .arg(CriticalPathModel::threadText(e.wakerTid, e.wakerComm));
    lines << ThreadStateView::tr("Thread %1, PID %2")
                 .arg(CriticalPathModel::threadText(e.tid, e.comm))
                 .arg(e.pid);
    return lines.join(QLatin1Char('\n'));
}

bool ThreadStatePlot::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const qsizetype span = spanAt(help->pos());
        QString text;
        if (span >= 0) {
            text = spanToolTip(span);
        } else if (const int row = rowAt(help->pos().y());
                   row >= 0 && help->pos().x() < plotRect().left()) {
            const ThreadStateModel::Row &r = m_model->rows().at(row);
            text = r.isProcess ? ThreadStateView::tr("Process %1: click to fold or unfold its "
                                                     "threads")
                                     .arg(ThreadStateModel::rowLabel(r))
                               : ThreadStateView::tr("Thread %1, PID %2: running %3")
                                     .arg(ThreadStateModel::rowLabel(r))
                                     .arg(r.pid)
                                     .arg(EventTableModel::formatDuration(r.runningNs));
        }
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void ThreadStatePlot::wheelEvent(QWheelEvent *event)
{
    const QPointF pos = event->position();
    const int dy = event->angleDelta().y();
    if (dy == 0) {
        event->ignore();
        return;
    }
    // Over the names, or with Shift: the threads scroll; over the lanes the range zooms, as
    // in the timeline.
    if (event->modifiers() & Qt::ShiftModifier || pos.x() < plotRect().left()) {
        Q_EMIT scrollRequested(-dy / 120.0 * rowHeight() * 3);
    } else {
        m_state->zoom(std::pow(0.8, dy / 120.0), axis().timeAt(pos.x()));
    }
    event->accept();
}

void ThreadStatePlot::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_pressed = true;
    m_moved = false;
    m_pressPos = event->pos();
    m_pressStart = m_state->startNs();
    m_pressEnd = m_state->endNs();
    event->accept();
}

void ThreadStatePlot::mouseMoveEvent(QMouseEvent *event)
{
    if (!m_pressed)
        return;
    if ((event->pos() - m_pressPos).manhattanLength() > 3)
        m_moved = true;
    if (!m_moved || m_pressPos.x() < plotRect().left())
        return;
    setCursor(Qt::ClosedHandCursor);
    const double nsPerPx = double(m_pressEnd - m_pressStart) / plotRect().width();
    const qint64 delta = qint64(std::llround(-(event->pos().x() - m_pressPos.x()) * nsPerPx));
    m_state->setRange(m_pressStart, m_pressEnd);
    m_state->pan(delta);
    // Dragging up and down scrolls the threads, as a map does.
    const int dy = event->pos().y() - m_pressPos.y();
    if (std::abs(dy) > 3) {
        Q_EMIT scrollRequested(-dy);
        m_pressPos.setY(event->pos().y());
    }
}

void ThreadStatePlot::mouseReleaseEvent(QMouseEvent *event)
{
    if (!m_pressed)
        return;
    m_pressed = false;
    unsetCursor();
    if (m_moved)
        return;
    const int row = rowAt(event->pos().y());
    if (row < 0)
        return;
    const ThreadStateModel::Row r = m_model->rows().at(row);
    if (r.isProcess) {
        m_model->setCollapsed(r.pid, !m_model->isCollapsed(r.pid));
        m_view->updateScrollBar();
        return;
    }
    m_view->chooseThread(r.tid);
    if (event->pos().x() >= plotRect().left()) {
        const qsizetype span = spanAt(event->pos());
        if (span >= 0)
            m_state->setSelectedEvent({EventType::ThreadState, span});
    }
}

void ThreadStatePlot::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange ||
        event->type() == QEvent::LanguageChange) {
        ++m_paletteVersion;
        m_axes->setNeeds(this, leftNeed(), RightNeed);
        update();
    }
    QWidget::changeEvent(event);
}

// ---------------------------------------------------------------------------------------------

ThreadStateView::ThreadStateView(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
    , m_model(new ThreadStateModel(session, state, this))
    , m_path(new CriticalPathModel(this))
    , m_shares(new CriticalPathSharesModel(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    layout->addWidget(m_stack);

    m_empty = new QLabel(m_stack);
    m_empty->setObjectName(QStringLiteral("threadStatesEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(24);
    m_stack->addWidget(m_empty);

    auto *page = new QWidget(m_stack);
    auto *pageLayout = new QVBoxLayout(page);
    pageLayout->setContentsMargins(0, 4, 0, 0);
    pageLayout->setSpacing(4);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 0, 6, 0);
    m_threadLabel = new QLabel(page);
    m_threadLabel->setObjectName(QStringLiteral("threadLabel"));
    m_threadLabel->setTextFormat(Qt::PlainText);
    m_pathButton = new QPushButton(page);
    m_pathButton->setObjectName(QStringLiteral("criticalPathButton"));
    m_clearButton = new QPushButton(page);
    m_clearButton->setObjectName(QStringLiteral("clearPathButton"));
    m_legend = new QLabel(page);
    m_legend->setTextFormat(Qt::RichText);
    bar->addWidget(m_pathButton);
    bar->addWidget(m_clearButton);
    bar->addWidget(m_threadLabel, 1);
    bar->addWidget(m_legend);
    pageLayout->addLayout(bar);

    m_splitter = new QSplitter(Qt::Vertical, page);
    m_splitter->setChildrenCollapsible(false);
    auto *lanes = new QWidget(m_splitter);
    auto *lanesLayout = new QHBoxLayout(lanes);
    lanesLayout->setContentsMargins(0, 0, 0, 0);
    lanesLayout->setSpacing(0);
    m_plot = new ThreadStatePlot(this, m_model, m_state, m_session);
    m_scroll = new QScrollBar(Qt::Vertical, lanes);
    lanesLayout->addWidget(m_plot, 1);
    lanesLayout->addWidget(m_scroll);
    m_splitter->addWidget(lanes);

    m_pathPane = new QWidget(m_splitter);
    auto *paneLayout = new QVBoxLayout(m_pathPane);
    paneLayout->setContentsMargins(6, 2, 6, 0);
    m_pathLabel = new QLabel(m_pathPane);
    m_pathLabel->setObjectName(QStringLiteral("criticalPathLabel"));
    m_pathLabel->setWordWrap(true);
    paneLayout->addWidget(m_pathLabel);
    auto *tables = new QSplitter(Qt::Horizontal, m_pathPane);
    auto makeTable = [tables](QAbstractItemModel *model) {
        auto *t = new QTableView(tables);
        t->setModel(model);
        t->setSelectionBehavior(QAbstractItemView::SelectRows);
        t->setSelectionMode(QAbstractItemView::SingleSelection);
        t->setAlternatingRowColors(true);
        t->setWordWrap(false);
        t->verticalHeader()->hide();
        t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
        t->horizontalHeader()->setStretchLastSection(true);
        return t;
    };
    m_pathTable = makeTable(m_path);
    m_pathTable->setObjectName(QStringLiteral("criticalPathTable"));
    m_sharesTable = makeTable(m_shares);
    m_sharesTable->setObjectName(QStringLiteral("criticalPathShares"));
    tables->addWidget(m_pathTable);
    tables->addWidget(m_sharesTable);
    tables->setStretchFactor(0, 3);
    tables->setStretchFactor(1, 2);
    paneLayout->addWidget(tables, 1);
    m_splitter->addWidget(m_pathPane);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_pathPane->hide();
    pageLayout->addWidget(m_splitter, 1);
    m_stack->addWidget(page);

    connect(m_pathButton, &QPushButton::clicked, this, &ThreadStateView::computeCriticalPath);
    connect(m_clearButton, &QPushButton::clicked, this, &ThreadStateView::clearCriticalPath);
    connect(m_scroll, &QScrollBar::valueChanged, m_plot, &ThreadStatePlot::setScrollY);
    connect(m_plot, &ThreadStatePlot::scrollRequested, this,
            [this](int dy) { m_scroll->setValue(m_scroll->value() + dy); });
    connect(m_model, &ThreadStateModel::rowsChanged, this, [this] {
        updateScrollBar();
        updateState();
    });
    connect(m_pathTable, &QAbstractItemView::clicked, this,
            [this](const QModelIndex &index) { showStep(index.row()); });
    connect(m_pathTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &index) {
                if (index.isValid() && !m_selecting)
                    showStep(index.row());
            });
    connect(m_sharesTable, &QAbstractItemView::clicked, this, [this](const QModelIndex &index) {
        const quint32 tid = index.data(CriticalPathSharesModel::TidRole).toUInt();
        m_plot->ensureRowVisible(m_model->rowOfThread(tid));
    });
    connect(m_state, &ViewState::selectedEventChanged, this, &ThreadStateView::followSelectedEvent);
    connect(m_session, &SessionModel::reset, this, [this] {
        m_tid = 0;
        clearCriticalPath();
        m_scroll->setValue(0);
        updateThreadLabel();
    });
    retranslate();
    updateState();
}

ThreadStateView::~ThreadStateView() = default;

void ThreadStateView::retranslate()
{
    m_pathButton->setText(tr("Critical &Path"));
    m_pathButton->setToolTip(
        tr("What the chosen thread waited for over the visible range: its wakeups walked back "
           "through the threads that woke it"));
    m_clearButton->setText(tr("Clear"));
    m_empty->setText(tr("No thread states in this session. Record with the Thread states probe "
                        "(threadstate) to see when each thread ran, waited for a CPU or "
                        "blocked, and why."));
    QStringList keys;
    for (quint8 s : {E::Running, E::Runnable, E::Sleeping, E::Uninterruptible, E::Stopped}) {
        keys << QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
                    .arg(ThreadStatePlot::stateColor(s, palette()).name(),
                         CriticalPathModel::stateText(s).toHtmlEscaped());
    }
    m_legend->setText(keys.join(QStringLiteral("&nbsp; ")));
    updateThreadLabel();
    if (hasCriticalPath()) {
        const CriticalPath &path = m_path->path();
        const quint64 origin = m_session->info().startMonotonicNs;
        QString text =
            tr("Critical path of %1 from %2 to %3: %Ln step(s).", nullptr, int(path.steps.size()))
                .arg(CriticalPathModel::threadText(
                         path.tid, path.steps.isEmpty() ? QByteArray() : path.steps.last().comm),
                     seconds(path.fromNs, origin), seconds(path.toNs, origin));
        if (path.depthLimited)
            text += QLatin1Char(' ') + tr("The chain of wakeups was cut at a depth of 64.");
        m_pathLabel->setText(text);
    }
}

void ThreadStateView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        retranslate();
    QWidget::changeEvent(event);
}

bool ThreadStateView::isShowingEmptyState() const
{
    return m_stack->currentWidget() == m_empty;
}

void ThreadStateView::updateState()
{
    m_stack->setCurrentIndex(m_model->isEmpty() ? 0 : 1);
    m_pathButton->setEnabled(m_tid != 0 && m_model->index().hasThread(m_tid));
    m_clearButton->setEnabled(hasCriticalPath());
}

void ThreadStateView::updateScrollBar()
{
    const int view = std::max(0, m_plot->height() - ThreadStatePlot::AxisHeight);
    const int max = std::max(0, m_plot->contentHeight() - view);
    m_scroll->setRange(0, max);
    m_scroll->setPageStep(std::max(1, view));
    m_scroll->setSingleStep(m_plot->rowHeight());
    m_plot->setScrollY(m_scroll->value());
}

void ThreadStateView::updateThreadLabel()
{
    if (!m_tid) {
        m_threadLabel->setText(tr("Click a thread's lane to choose it for the critical path."));
        return;
    }
    QByteArray comm;
    const QList<qsizetype> &spans = m_model->index().spans(m_tid);
    if (!spans.isEmpty())
        comm = m_session->events().value<&E::comm>(spans.last());
    m_threadLabel->setText(tr("Thread: %1").arg(CriticalPathModel::threadText(m_tid, comm)));
}

void ThreadStateView::chooseThread(quint32 tid)
{
    if (tid == m_tid)
        return;
    m_tid = tid;
    updateThreadLabel();
    updateState();
    m_plot->update();
}

void ThreadStateView::computeCriticalPath()
{
    if (!m_tid)
        return;
    // The visible range is half-open, one past the session's end at full range: a
    // nanosecond "not recorded" at the end would be a step of its own.
    // Nor is the time before the thread's first span (it did not exist, or the recording had
    // not seen it yet) a wait of its own, nor the time after its last (it exited): the path
    // spans the thread's life within the visible range.
    const QList<qsizetype> &spans = m_model->index().spans(m_tid);
    const EventStore &events = m_session->events();
    const quint64 born = spans.isEmpty() ? 0 : events.value<&E::timeNs>(spans.first());
    quint64 gone = 0;
    for (qsizetype i : spans)
        gone = std::max(gone, events.value<&E::timeNs>(i) + events.value<&E::durNs>(i));
    const quint64 from = std::max(m_state->startNs(), std::min(born, m_state->endNs() - 1));
    quint64 to = m_state->endNs();
    if (const quint64 end = m_session->info().endMonotonicNs; end > from && end < to)
        to = end;
    if (gone > from && gone < to)
        to = gone;
    CriticalPath path = criticalPath(m_session->events(), m_model->index(), m_tid, from, to);
    // A stretch not recorded before a thread's first span has no name from the walk.
    for (CriticalPathStep &step : path.steps) {
        if (step.comm.isEmpty() && m_model->index().hasThread(step.tid)) {
            const qsizetype first = m_model->index().spans(step.tid).first();
            step.comm = m_session->events().value<&E::comm>(first);
            step.pid = m_session->events().value<&E::pid>(first);
        }
    }
    m_path->setPath(path, m_session->info().startMonotonicNs);
    m_shares->setPath(path);
    m_pathTable->resizeColumnsToContents();
    m_sharesTable->resizeColumnsToContents();
    m_pathPane->show();
    ++m_pathVersion;
    retranslate();
    updateState();
    // The pane took room from the lanes: the chosen thread's stays in sight.
    // After the layout gave the pane its height.
    QTimer::singleShot(0, this, [this] {
        updateScrollBar();
        m_plot->ensureRowVisible(m_model->rowOfThread(m_tid));
    });
    m_plot->update();
}

void ThreadStateView::clearCriticalPath()
{
    m_path->clear();
    m_shares->clear();
    m_pathPane->hide();
    m_pathLabel->clear();
    ++m_pathVersion;
    updateState();
    m_plot->update();
}

bool ThreadStateView::hasCriticalPath() const
{
    return !m_path->path().steps.isEmpty();
}

void ThreadStateView::showStep(int row)
{
    if (row < 0 || row >= m_path->rowCount())
        return;
    const CriticalPathStep &s = m_path->step(row);
    // In sight: a step out of the visible range (zoomed since) brings the range to it.
    const quint64 start = m_state->startNs(), end = m_state->endNs();
    if (s.endNs <= start || s.startNs >= end) {
        const quint64 span = end - start;
        const quint64 mid = s.startNs + s.durationNs() / 2;
        m_state->setRange(mid > span / 2 ? mid - span / 2 : 0, mid + span - span / 2);
    }
    m_plot->ensureRowVisible(m_model->rowOfThread(s.tid));
    if (s.span >= 0) {
        m_selecting = true;
        m_state->setSelectedEvent({EventType::ThreadState, s.span});
        m_selecting = false;
    }
    m_plot->update();
}

void ThreadStateView::followSelectedEvent(const EventRef &ref)
{
    if (ref.type != EventType::ThreadState || !ref.isValid() ||
        ref.index >= m_session->events().count(EventType::ThreadState))
        return;
    const quint32 tid = m_session->events().value<&E::tid>(ref.index);
    chooseThread(tid);
    if (!m_selecting)
        m_plot->ensureRowVisible(m_model->rowOfThread(tid));
}

} // namespace bpflens
