#include "gui/stackchartview.h"

#include "gui/flamegraphview.h"
#include "gui/models/eventmodels.h"
#include "gui/models/profilemodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/stackframes.h"
#include "gui/models/viewstate.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QIdentityProxyModel>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QToolTip>
#include <QTreeView>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace bpflens {

namespace {

constexpr int BandGap = 6;          // between two threads' bands
constexpr int LiveIntervalMs = 500; // live data merges again at most this often

// The box's function in bold, as the details pane shows an event's key frame.
class BoldKeyFrame : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::FontRole) {
            QFont font;
            font.setBold(index.data(StackFramesModel::IsKeyFrameRole).toBool());
            font.setItalic(index.data(StackFramesModel::IsMarkerRole).toBool());
            return font;
        }
        return QIdentityProxyModel::data(index, role);
    }
};

QString seconds(quint64 t, quint64 origin)
{
    return StackChartView::tr("%1 s").arg(
        QLocale().toString(double(qint64(t - origin)) / 1e9, 'f', 3));
}

} // namespace

// ---------------------------------------------------------------------------------------------

StackChartPlot::StackChartPlot(StackChartView *view, ViewState *state, const SessionModel *session)
    : QWidget(view)
    , m_view(view)
    , m_state(state)
    , m_session(session)
    , m_axes(TimeAxisGroup::of(state))
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    // A few bands' worth: with the bar and the call path below it, the CPU group's minimum must
    // leave the window within a 1280x720 screen in Chinese too (tst_layout).
    setMinimumHeight(96);
    setAccessibleName(StackChartView::tr("Stack chart"));
    setAccessibleDescription(
        StackChartView::tr("Call stacks over time, one band per thread, the outermost frame at "
                           "the top. Wheel zooms, drag pans, Shift+wheel scrolls the threads."));
    // On the timeline's axis: a time has the same x here as there.
    m_axes->add(this, leftNeed(), RightNeed);
    connect(m_axes, &TimeAxisGroup::changed, this, [this] { update(); });
}

int StackChartPlot::leftNeed() const
{
    // Room for "python3 (12345)": the timeline's lane names take about as much.
    return std::max(110, fontMetrics().horizontalAdvance(QStringLiteral("python3 (888888)")) + 12);
}

int StackChartPlot::rowHeight() const
{
    return fontMetrics().height() + 3;
}

QRect StackChartPlot::plotRect() const
{
    const auto [left, right] = m_axes->span(this);
    return QRect(left, AxisHeight, std::max(1, right - left), std::max(1, height() - AxisHeight));
}

TimeAxis StackChartPlot::axis() const
{
    const QRect plot = plotRect();
    return TimeAxis(m_state->startNs(), m_state->endNs(), m_session->info().startMonotonicNs,
                    plot.left(), plot.width());
}

const QList<StackChartPlot::Band> &StackChartPlot::bands() const
{
    layoutBands();
    return m_bands;
}

void StackChartPlot::layoutBands() const
{
    // The threads and their heights follow the visible range: zoomed in, a thread that did not
    // run there takes no room, and a band is as deep as its deepest stack in sight.
    const quint64 start = m_state->startNs(), end = m_state->endNs();
    if (m_bandsKey == m_view->m_version && m_bandsStart == start && m_bandsEnd == end)
        return;
    m_bandsKey = m_view->m_version;
    m_bandsStart = start;
    m_bandsEnd = end;
    m_bands.clear();
    const StackChartModel &model = m_view->m_model;
    int top = 0;
    for (int t : model.threadsIn(start, end)) {
        const int depths = std::max(1, model.depthIn(t, start, end));
        m_bands.append({t, top, depths});
        top += depths * rowHeight() + BandGap;
    }
}

int StackChartPlot::contentHeight() const
{
    const QList<Band> &b = bands();
    return b.isEmpty() ? 0 : b.last().top + b.last().depths * rowHeight() + BandGap;
}

void StackChartPlot::setScrollY(int y)
{
    if (y == m_scrollY)
        return;
    m_scrollY = y;
    update();
}

QString StackChartPlot::frameName(quint32 frame) const
{
    if (frame == StackChartModel::NoStackFrame)
        return StackChartView::tr("[no stack]");
    if (frame == StackChartModel::TruncatedFrame)
        return StackChartView::tr("[truncated]");
    return m_session->stacks().frameName(frame);
}

QColor StackChartPlot::boxColor(quint32 frame) const
{
    if (frame == StackChartModel::NoStackFrame || frame == StackChartModel::TruncatedFrame)
        return QColor(0xa0, 0xa0, 0xa8);
    const StackTable &stacks = m_session->stacks();
    if (!stacks.hasFrame(frame))
        return QColor(0xa0, 0xa0, 0xa8);
    // The flame graph's colours: a function has the same hue in both views.
    return FlameGraphView::frameColor(stacks.frame(frame).kind, stacks.frameName(frame));
}

QString StackChartPlot::threadLabel(int thread) const
{
    const StackChartModel::Thread &t = m_view->m_model.thread(thread);
    return StackChartView::tr("%1 (%2)")
        .arg(QString::fromUtf8(escapeKernelBytes(t.comm)))
        .arg(t.tid);
}

QRectF StackChartPlot::boxRect(int thread, int depth, qsizetype index) const
{
    const StackChartModel &model = m_view->m_model;
    for (const Band &band : bands()) {
        if (band.thread != thread)
            continue;
        if (depth >= band.depths)
            return {};
        const StackChartModel::Box &b = model.box(thread, depth, index);
        const TimeAxis a = axis();
        const QRect plot = plotRect();
        const double x0 = std::max(a.xForTime(b.startNs), double(plot.left()));
        const double x1 = std::min(a.xForTime(b.endNs), double(plot.left() + plot.width()));
        if (x1 <= x0)
            return {};
        const double y = AxisHeight + band.top - m_scrollY + depth * rowHeight();
        return QRectF(x0, y, std::max(1.0, x1 - x0), rowHeight() - 1);
    }
    return {};
}

bool StackChartPlot::boxAt(QPoint pos, int *thread, int *depth, qsizetype *index) const
{
    const QRect plot = plotRect();
    if (!plot.contains(pos))
        return false;
    const int y = pos.y() - AxisHeight + m_scrollY;
    for (const Band &band : bands()) {
        if (y < band.top || y >= band.top + band.depths * rowHeight())
            continue;
        const int d = (y - band.top) / rowHeight();
        const TimeAxis a = axis();
        // Half a pixel either side: a box narrower than a pixel is still drawn as one.
        const quint64 t0 = a.timeAt(pos.x() - 0.5), t1 = a.timeAt(pos.x() + 0.5);
        const auto [first, last] = m_view->m_model.boxesIn(band.thread, d, t0, t1 + 1);
        if (first >= last)
            return false;
        // The box under the cursor's centre if there is one, else the first in the pixel.
        const qsizetype exact = m_view->m_model.boxAt(band.thread, d, a.timeAt(pos.x()));
        *thread = band.thread;
        *depth = d;
        *index = exact >= first && exact < last ? exact : first;
        return true;
    }
    return false;
}

QString StackChartPlot::boxToolTip(int thread, int depth, qsizetype index) const
{
    const StackChartModel &model = m_view->m_model;
    const StackChartModel::Box &b = model.box(thread, depth, index);
    const quint64 origin = m_session->info().startMonotonicNs;
    QStringList lines{frameName(b.frame)};
    if (m_session->stacks().hasFrame(b.frame) && b.frame != StackChartModel::TruncatedFrame) {
        const QString module = ProfileText::modulePath(m_session->stacks(), b.frame);
        if (!module.isEmpty())
            lines << StackChartView::tr("in %1").arg(module);
    }
    lines << StackChartView::tr("%1 – %2 (%3)")
                 .arg(seconds(b.startNs, origin), seconds(b.endNs, origin),
                      EventTableModel::formatDuration(b.endNs - b.startNs));
    if (b.samples > 0)
        lines << StackChartView::tr("%Ln sample(s)", nullptr, int(b.samples));
    else
        lines << StackChartView::tr("off the CPU: waiting");
    const StackChartModel::Thread &t = model.thread(thread);
    lines << StackChartView::tr("thread %1, PID %2").arg(threadLabel(thread)).arg(t.pid);
    return lines.join(QLatin1Char('\n'));
}

void StackChartPlot::drawAxis(QPainter &p) const
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

void StackChartPlot::drawBand(QPainter &p, const Band &band, const TimeAxis &axis,
                              const QRect &plot) const
{
    const StackChartModel &model = m_view->m_model;
    const int rowH = rowHeight();
    const int bandTop = AxisHeight + band.top - m_scrollY;
    const int bandHeight = band.depths * rowH;
    const quint64 start = m_state->startNs(), end = m_state->endNs();
    const double plotRight = plot.left() + plot.width();
    const QColor textColor(0x20, 0x20, 0x20); // on the light frame colours, in both themes
    const QFontMetrics fm = fontMetrics();
    const int minLabel = fm.horizontalAdvance(QStringLiteral("xxx"));

    // The thread's name in the left column, elided to it; whole in the tool tip.
    p.setPen(palette().color(QPalette::WindowText));
    const int labelWidth = std::max(10, plot.left() - 10);
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRect(6, bandTop, labelWidth, rowH), Qt::AlignLeft | Qt::AlignVCenter,
               QFontMetrics(bold).elidedText(threadLabel(band.thread), Qt::ElideRight, labelWidth));
    p.setFont(font());
    if (band.depths > 1) {
        const StackChartModel::Thread &t = model.thread(band.thread);
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(QRect(6, bandTop + rowH, labelWidth, rowH), Qt::AlignLeft | Qt::AlignVCenter,
                   fm.elidedText(StackChartView::tr("%Ln sample(s)", nullptr, int(t.samples)),
                                 Qt::ElideRight, labelWidth));
    }

    p.save();
    p.setClipRect(QRect(plot.left(), std::max(AxisHeight, bandTop), plot.width(), bandHeight));
    for (int d = 0; d < band.depths; ++d) {
        const int y = bandTop + d * rowH;
        if (y + rowH < AxisHeight || y > height())
            continue;
        const auto [first, last] = model.boxesIn(band.thread, d, start, end);
        qsizetype i = first;
        while (i < last) {
            const StackChartModel::Box &b = model.box(band.thread, d, i);
            const double x0 = std::max(axis.xForTime(b.startNs), double(plot.left()));
            const double x1 = std::min(axis.xForTime(b.endNs), plotRight);
            const QColor color = boxColor(b.frame);
            if (x1 - x0 < 1.0) {
                // Boxes that share a pixel column are drawn once, as that pixel: the cost of a
                // repaint is the pixels, not the boxes (a million when zoomed out).
                const double px = std::floor(x0);
                p.fillRect(QRectF(px, y, 1, rowH - 1), color);
                const quint64 next = axis.timeAt(px + 1);
                i = std::max(i + 1, model.firstEndingAfter(band.thread, d, next, i + 1));
                continue;
            }
            const QRectF r(x0, y, x1 - x0, rowH - 1);
            p.fillRect(r, color);
            if (b.samples == 0) // an off-CPU wait: hatched, as the flame graph's non-frames
                p.fillRect(r, QBrush(color.darker(150), Qt::BDiagPattern));
            if (r.width() >= 3) {
                p.setPen(color.darker(125));
                p.drawLine(QPointF(r.right(), r.top()), QPointF(r.right(), r.bottom()));
            }
            if (r.width() > minLabel + 4) {
                // A box that starts left of the plot keeps its name in sight.
                p.setPen(textColor);
                p.drawText(r.adjusted(2, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                           fm.elidedText(frameName(b.frame), Qt::ElideRight, int(r.width()) - 4));
            }
            ++i;
        }
    }
    if (m_view->m_selThread == band.thread && m_view->m_selDepth < band.depths) {
        const QRectF r = boxRect(m_view->m_selThread, m_view->m_selDepth, m_view->m_selIndex);
        if (!r.isEmpty()) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(1, 1, -1, -1));
        }
    }
    p.restore();
    p.setPen(palette().color(QPalette::Mid));
    const int sep = bandTop + bandHeight + BandGap / 2;
    p.drawLine(0, sep, width(), sep);
}

void StackChartPlot::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QRect plot = plotRect();
    const QList<Band> &list = bands();
    if (list.isEmpty()) {
        drawAxis(p);
        p.setPen(palette().color(QPalette::Disabled, QPalette::Text));
        p.drawText(plot.adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap,
                   StackChartView::tr("No samples in the visible range.\n\nZoom out on the "
                                      "timeline (Ctrl+0 shows the whole session)."));
        return;
    }
    const TimeAxis a = axis();
    const int rowH = rowHeight();
    for (const Band &band : list) {
        const int top = AxisHeight + band.top - m_scrollY;
        if (top + band.depths * rowH < AxisHeight || top > height())
            continue;
        drawBand(p, band, a, plot);
    }
    drawAxis(p); // over the bands scrolled under it
}

void StackChartPlot::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    m_view->updateScrollBar();
}

void StackChartPlot::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    if (event->modifiers() & Qt::ShiftModifier) {
        // Some platforms turn a Shift+wheel into a horizontal one.
        const int steps = delta.y() ? delta.y() : delta.x();
        Q_EMIT scrollRequested(-steps * 3 * rowHeight() / 120);
        event->accept();
        return;
    }
    const double steps = delta.y() / 120.0;
    if (steps == 0) {
        event->ignore();
        return;
    }
    // As the timeline's wheel: zooms around the cursor, and with it every view on the axis.
    m_state->zoom(std::pow(0.8, steps), axis().timeAt(event->position().x()));
    event->accept();
}

void StackChartPlot::mousePressEvent(QMouseEvent *event)
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
    m_pressScroll = m_scrollY;
    event->accept();
}

void StackChartPlot::mouseMoveEvent(QMouseEvent *event)
{
    if (!m_pressed)
        return;
    const QPoint d = event->pos() - m_pressPos;
    if (d.manhattanLength() > 3)
        m_moved = true;
    if (!m_moved)
        return;
    setCursor(Qt::ClosedHandCursor);
    const double nsPerPx = double(m_pressEnd - m_pressStart) / plotRect().width();
    const qint64 delta = qint64(std::llround(-d.x() * nsPerPx));
    m_state->setRange(m_pressStart, m_pressEnd);
    m_state->pan(delta);
    Q_EMIT scrollRequested(m_pressScroll - d.y() - m_scrollY);
}

void StackChartPlot::mouseReleaseEvent(QMouseEvent *event)
{
    if (!m_pressed || event->button() != Qt::LeftButton)
        return;
    m_pressed = false;
    unsetCursor();
    if (m_moved)
        return;
    int thread = 0, depth = 0;
    qsizetype index = 0;
    if (boxAt(event->pos(), &thread, &depth, &index))
        Q_EMIT boxClicked(thread, depth, index);
    else if (plotRect().contains(event->pos()))
        m_view->clearSelection();
}

bool StackChartPlot::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        int thread = 0, depth = 0;
        qsizetype index = 0;
        if (boxAt(help->pos(), &thread, &depth, &index)) {
            QToolTip::showText(help->globalPos(), boxToolTip(thread, depth, index), this,
                               boxRect(thread, depth, index).toAlignedRect());
        } else if (help->pos().x() < plotRect().left()) {
            // A thread's name, whole where the column cut it.
            const int y = help->pos().y() - AxisHeight + m_scrollY;
            for (const Band &band : bands()) {
                if (y >= band.top && y < band.top + band.depths * rowHeight()) {
                    const StackChartModel::Thread &t = m_view->m_model.thread(band.thread);
                    QToolTip::showText(
                        help->globalPos(),
                        StackChartView::tr("%1\nPID %2, TID %3\n%4, %5")
                            .arg(QString::fromUtf8(escapeKernelBytes(t.comm)))
                            .arg(t.pid)
                            .arg(t.tid)
                            .arg(StackChartView::tr("%Ln sample(s)", nullptr, int(t.samples)),
                                 StackChartView::tr("%Ln off-CPU wait(s)", nullptr, int(t.waits))),
                        this);
                    return true;
                }
            }
            QToolTip::hideText();
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

// ---------------------------------------------------------------------------------------------

StackChartView::StackChartView(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
{
    setAccessibleName(tr("Stack chart"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("stackChartStatus"));
    m_offCpu = new QCheckBox(tr("Off-CPU waits"), this);
    // Off by default: the stack chart users know is of CPU samples, and a loaded machine's
    // preemptions cover every thread's band in hatched kernel stacks.
    m_offCpu->setChecked(false);
    m_offCpu->setToolTip(tr("Also draw where threads waited (the offcpu probe), hatched, as "
                            "long as they waited"));
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(6, 4, 6, 0);
    bar->addWidget(m_status);
    bar->addWidget(m_offCpu);
    bar->addStretch(1);

    m_plot = new StackChartPlot(this, m_state, m_session);
    m_scroll = new QScrollBar(Qt::Vertical, this);
    m_scroll->setAccessibleName(tr("Scroll the threads"));
    auto *chart = new QWidget(this);
    auto *chartLayout = new QHBoxLayout(chart);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->setSpacing(0);
    chartLayout->addWidget(m_plot, 1);
    chartLayout->addWidget(m_scroll);

    // The selected box's call path, whole: the tree scrolls sideways rather than cut a long
    // C++ name, and its columns are as wide as their longest entry.
    m_selectionLabel = new QLabel(hintText(), this);
    m_selectionLabel->setObjectName(QStringLiteral("stackChartSelection"));
    m_selectionLabel->setWordWrap(true);
    m_selectionLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_selectionLabel->setContentsMargins(6, 2, 6, 2);
    m_frames = new StackFramesModel(this);
    auto *fonts = new BoldKeyFrame(this);
    fonts->setSourceModel(m_frames);
    m_framesView = new QTreeView(this);
    m_framesView->setModel(fonts);
    m_framesView->setRootIsDecorated(false);
    m_framesView->setUniformRowHeights(true);
    m_framesView->setAlternatingRowColors(true);
    m_framesView->setAccessibleName(tr("Call stack of the selected box"));
    m_framesView->setTextElideMode(Qt::ElideNone);
    m_framesView->header()->setStretchLastSection(true);
    m_framesView->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *details = new QWidget(this);
    auto *detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->setSpacing(0);
    detailsLayout->addWidget(m_selectionLabel);
    detailsLayout->addWidget(m_framesView, 1);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("stackChartSplitter"));
    m_splitter->addWidget(chart);
    m_splitter->addWidget(details);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);
    details->setMinimumHeight(m_selectionLabel->sizeHint().height() + 2 * rowHeightHint());
    m_details = details;

    m_empty = new QLabel(this);
    m_empty->setObjectName(QStringLiteral("stackChartEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(24);
    m_stack = new QStackedWidget(this);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_splitter);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_stack, 1);

    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &StackChartView::startBuild);

    connect(m_scroll, &QScrollBar::valueChanged, m_plot, &StackChartPlot::setScrollY);
    connect(m_plot, &StackChartPlot::scrollRequested, this,
            [this](int dy) { m_scroll->setValue(m_scroll->value() + dy); });
    connect(m_plot, &StackChartPlot::boxClicked, this, &StackChartView::selectBox);
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_userSplit = true; });
    connect(m_offCpu, &QCheckBox::toggled, this, [this] { scheduleRefresh(0); });
    connect(m_state, &ViewState::rangeChanged, this, [this] {
        updateScrollBar();
        m_plot->update();
    });
    connect(m_state, &ViewState::filterChanged, this, [this] { scheduleRefresh(0); });
    connect(m_state, &ViewState::selectedEventChanged, this, [this] { followSelectedEvent(); });
    // The merge reads the session's events and stacks: it stops before they change (and
    // starts again after, the result it would have had being stale).
    const auto stop = [this] {
        if (m_job.isRunning())
            m_dirty = true;
        m_job.stopAndWait();
    };
    connect(m_session, &SessionModel::aboutToReset, this, [this, stop] {
        stop();
        // The boxes name frames of the old table.
        clearSelection();
        m_model.clear();
        ++m_version;
    });
    connect(m_session, &SessionModel::aboutToBeDestroyed, this, stop);
    connect(m_session, &SessionModel::aboutToAppend, this, stop);
    connect(m_session, &SessionModel::reset, this, [this] { scheduleRefresh(0); });
    connect(m_session, &SessionModel::appended, this, [this] { scheduleRefresh(LiveIntervalMs); });
    updateState();
}

StackChartView::~StackChartView() = default;

QString StackChartView::hintText()
{
    // Where the call path will be: the chart's controls said once, in room that wraps.
    return tr("Click a box to see its call stack here. The wheel zooms, dragging pans, "
              "Shift+wheel scrolls through the threads.");
}

int StackChartView::rowHeightHint() const
{
    return fontMetrics().height() + 6;
}

void StackChartView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitSplit();
}

void StackChartView::fitSplit()
{
    // The frames list's size hint took 40 % of a laptop's height from the chart: until the
    // user moves the handle, the list gets a quarter, which holds the call path's first rows
    // (it scrolls).
    if (m_userSplit || m_splitter->height() <= 0)
        return;
    const int h = m_splitter->height() - m_splitter->handleWidth();
    const int details = std::max(m_details->minimumHeight(), h / 4);
    m_splitter->setSizes({h - details, details});
}

StackChartQuery StackChartView::currentQuery() const
{
    StackChartQuery q;
    q.pid = m_state->filter().pid;
    q.comm = m_state->filter().comm;
    q.offCpu = m_offCpu->isChecked();
    return q;
}

void StackChartView::scheduleRefresh(int delayMs)
{
    m_dirty = true;
    // A merge under way is of the filter or data before: its result is dropped, even if it
    // arrives before the next merge starts; the chart keeps what it shows until then.
    if (m_job.isRunning()) {
        m_job.cancel();
        updateState();
    }
    // A hidden tab merges nothing; showEvent catches up.
    if (!isVisible())
        return;
    if (!m_timer->isActive() || m_timer->remainingTime() > delayMs)
        m_timer->start(delayMs);
}

void StackChartView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    fitSplit();
    if (m_dirty)
        m_timer->start(0);
    // A sample selected while the tab was hidden: its box in sight once laid out.
    else if (hasSelection())
        QTimer::singleShot(0, this, &StackChartView::scrollToSelection);
}

void StackChartView::refresh()
{
    startBuild();
    m_job.finish();
}

void StackChartView::startBuild()
{
    m_timer->stop();
    if (!m_dirty)
        return;
    m_dirty = false;
    // The session outlives the job: it stops the job before it changes or goes (above).
    const SessionModel *session = m_session;
    m_job.run(
        [session, query = currentQuery()](const JobToken &) {
            StackChartModel model;
            model.build(*session, query);
            return model;
        },
        [this](StackChartModel model) { present(std::move(model)); });
    // Until the boxes arrive the chart shows the ones it has; without any, it says why.
    if (m_model.isEmpty())
        updateState();
}

void StackChartView::present(StackChartModel model)
{
    const EventRef selected = m_state->selectedEvent();
    clearSelection();
    m_model = std::move(model);
    ++m_builds;
    ++m_version;
    updateState();
    // The window's selected sample has a box in the new boxes too.
    if (selected.isValid())
        selectEvent(selected);
    Q_EMIT built();
}

void StackChartView::updateState()
{
    m_offCpu->setVisible(m_session->events().count(EventType::OffCpu) > 0);
    const bool empty = m_model.isEmpty() || m_session->stacks().stackCount() == 0;
    if (empty)
        m_empty->setText(m_job.isRunning() ? tr("Merging the stacks…") : emptyText());
    m_stack->setCurrentWidget(empty ? static_cast<QWidget *>(m_empty) : m_splitter);
    // A splitter shown for the first time lays its children out by their size hints again.
    QTimer::singleShot(0, this, &StackChartView::fitSplit);
    m_status->setVisible(!empty);
    if (!empty) {
        qsizetype shown = 0;
        for (int t = 0; t < m_model.threadCount(); ++t)
            shown += m_model.thread(t).samples;
        m_status->setText(tr("%Ln thread(s)", nullptr, m_model.threadCount()) +
                          QStringLiteral(" · ") + tr("%Ln sample(s)", nullptr, int(shown)));
    }
    updateScrollBar();
    m_plot->update();
}

QString StackChartView::emptyText() const
{
    const EventStore &store = m_session->events();
    if (store.count(EventType::CpuSample) == 0 && store.count(EventType::OffCpu) == 0)
        return tr("No CPU samples in this session.\n\nRecord with the profile probe to see each "
                  "thread's call stacks over time.");
    if (m_session->stacks().stackCount() == 0)
        return tr("This session's samples have no call stacks.\n\nRecord with the profile probe "
                  "and its kernel or user stacks to see them over time.");
    return tr("No samples of the processes the filter shows.\n\nClear the PID and command "
              "filters.");
}

bool StackChartView::isShowingEmptyState() const
{
    return m_stack->currentWidget() == m_empty;
}

void StackChartView::updateScrollBar()
{
    // Always there, also with nothing to scroll: showing and hiding it would move the plot's
    // right edge, and with it the timeline's (one axis).
    const int page = std::max(0, m_plot->height() - StackChartPlot::AxisHeight);
    const int content = m_plot->contentHeight();
    m_scroll->setPageStep(std::max(1, page));
    m_scroll->setSingleStep(m_plot->rowHeight());
    m_scroll->setRange(0, std::max(0, content - page));
    m_scroll->setEnabled(content > page);
    m_plot->setScrollY(m_scroll->value());
}

void StackChartView::selectBox(int thread, int depth, qsizetype index)
{
    select(thread, depth, index, true);
}

void StackChartView::select(int thread, int depth, qsizetype index, bool announce)
{
    if (thread < 0 || thread >= m_model.threadCount() || depth < 0 ||
        depth >= int(m_model.thread(thread).levels.size()) || index < 0 ||
        index >= qsizetype(m_model.thread(thread).levels[size_t(depth)].size())) {
        clearSelection();
        return;
    }
    m_selThread = thread;
    m_selDepth = depth;
    m_selIndex = index;
    quint8 flags = 0;
    const QList<quint32> path = m_model.boxFrames(thread, depth, index, &flags);
    m_frames->setFrames(&m_session->stacks(), path, flags);
    m_selectionLabel->setText(
        m_plot->boxToolTip(thread, depth, index).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
    m_plot->update();
    if (!announce)
        return;
    // The box's first sample is the selected event: the timeline marks it, the Events tab's
    // details list its whole stack.
    const StackChartModel::Item &item = m_model.firstItem(thread, depth, index);
    m_announcing = true;
    m_state->setSelectedEvent(
        {item.isOffCpu() ? EventType::OffCpu : EventType::CpuSample, qsizetype(item.event)});
    m_announcing = false;
}

void StackChartView::followSelectedEvent()
{
    if (m_announcing)
        return;
    const EventRef ref = m_state->selectedEvent();
    if (!selectEvent(ref) && hasSelection())
        clearSelection();
}

bool StackChartView::selectEvent(const EventRef &ref)
{
    if (!ref.isValid() || (ref.type != EventType::CpuSample && ref.type != EventType::OffCpu))
        return false;
    const EventStore &store = m_session->events();
    if (ref.index >= store.count(ref.type))
        return false;
    const quint64 timeNs = store.timeNs(ref.type, ref.index);
    const bool offCpu = ref.type == EventType::OffCpu;
    // The thread whose items hold the event: items are in time order, so a binary search each.
    for (int t = 0; t < m_model.threadCount(); ++t) {
        const std::vector<StackChartModel::Item> &items = m_model.thread(t).items;
        auto it = std::partition_point(items.begin(), items.end(),
                                       [timeNs](const auto &i) { return i.timeNs < timeNs; });
        for (; it != items.end() && it->timeNs == timeNs; ++it) {
            if (qsizetype(it->event) != ref.index || it->isOffCpu() != offCpu)
                continue;
            // Its own function's box: the deepest box at its time (a box ends where the next
            // item of the thread begins, so the one there is this item's).
            for (int d = int(m_model.thread(t).levels.size()); d > 0; --d) {
                const qsizetype box = m_model.boxAt(t, d - 1, timeNs);
                if (box < 0)
                    continue;
                select(t, d - 1, box, false);
                scrollToSelection();
                return true;
            }
            return false;
        }
    }
    return false;
}

void StackChartView::scrollToSelection()
{
    if (!hasSelection())
        return;
    // The thread's band in the visible range, and the selected depth's row in it; a band out
    // of sight (the sample is outside the range) has nothing to scroll to.
    updateScrollBar();
    for (const StackChartPlot::Band &band : m_plot->bands()) {
        if (band.thread != m_selThread)
            continue;
        const int rowH = m_plot->rowHeight();
        const int top = band.top + m_selDepth * rowH;
        const int page = std::max(0, m_plot->height() - StackChartPlot::AxisHeight);
        // The band's top (its thread's name) and the box both in sight when they fit in the
        // page, else the box a third of the way down.
        if (top < m_scroll->value() || top + rowH > m_scroll->value() + page)
            m_scroll->setValue(
                std::max(0, top + rowH - band.top <= page ? band.top : top - page / 3));
        break;
    }
}

void StackChartView::clearSelection()
{
    m_selThread = m_selDepth = -1;
    m_selIndex = -1;
    m_frames->clear();
    m_selectionLabel->setText(hintText());
    m_plot->update();
}

} // namespace bpflens
