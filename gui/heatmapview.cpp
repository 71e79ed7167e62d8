#include "gui/heatmapview.h"

#include "gui/timeaxis.h"

#include "core/units.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>

namespace bpflens {

namespace {

// Viridis sampled at 16 points (matplotlib's, public domain): perceptually uniform, readable
// in grey and by the common colour-blindnesses, dark for few and bright for many.
constexpr std::array<quint32, 16> Viridis = {
    0x440154, 0x481a6c, 0x472f7d, 0x414487, 0x39568c, 0x31688e, 0x2a788e, 0x23888e,
    0x1f988b, 0x22a884, 0x35b779, 0x54c568, 0x7ad151, 0xa5db36, 0xd2e21b, 0xfde725,
};

constexpr int CellWidth = 3; // px per time column: fine enough to follow, cheap to bin

// A latency in its unit's words, three significant digits: "524 µs", "1,05 ms" (de).
QString shortDuration(quint64 ns)
{
    const QLocale l;
    if (ns < 1000)
        return HeatmapView::tr("%1 ns").arg(l.toString(ns));
    if (ns < 1000000)
        return HeatmapView::tr("%1 µs").arg(l.toString(double(ns) / 1e3, 'g', 3));
    if (ns < 1000000000)
        return HeatmapView::tr("%1 ms").arg(l.toString(double(ns) / 1e6, 'g', 3));
    return HeatmapView::tr("%1 s").arg(l.toString(double(ns) / 1e9, 'g', 3));
}

QString timeText(quint64 t, quint64 origin, int decimals)
{
    return HeatmapView::tr("%1 s").arg(
        QLocale().toString(double(qint64(t - origin)) / 1e9, 'f', std::clamp(decimals, 0, 9)));
}

} // namespace

// The map itself: cells from the view's cached image, the axes, the legend and the
// selection rubber band.
class HeatmapPlot : public QWidget
{
public:
    explicit HeatmapPlot(HeatmapView *view)
        : QWidget(view)
        , m_view(view)
        , m_axes(TimeAxisGroup::of(view->m_state))
    {
        setMouseTracking(true);
        setMinimumHeight(140);
        setAttribute(Qt::WA_OpaquePaintEvent);
        setAccessibleName(HeatmapView::tr("Latency heatmap"));
    }

    // The room the latency labels take left of the map, and the last time label's half on the
    // right; the map's columns are the timeline's (TimeAxisGroup).
    int leftNeed() const { return fontMetrics().horizontalAdvance(QStringLiteral("8888 µs")) + 12; }
    static constexpr int RightNeed = 8;
    QRect mapRect() const
    {
        const int fh = fontMetrics().height();
        const auto [left, right] = m_axes->span(this);
        return QRect(left, 8, std::max(10, right - left), std::max(10, height() - 8 - 2 * fh - 10));
    }
    TimeAxis axis() const
    {
        const HeatmapBins &b = m_view->m_bins;
        const QRect r = mapRect();
        return TimeAxis(b.startNs, b.endNs, m_view->m_session->info().startMonotonicNs, r.left(),
                        r.width());
    }
    int rowCount() const
    {
        const HeatmapBins &b = m_view->m_bins;
        return b.maxSlot >= b.minSlot ? b.maxSlot - b.minSlot + 1 : 0;
    }
    // Cell edges: columns and rows share the map's pixels as evenly as integers allow.
    int columnX(int c) const
    {
        const QRect r = mapRect();
        const int n = std::max(1, m_view->m_bins.columns);
        return r.left() + int(qint64(r.width()) * c / n);
    }
    int rowY(int k) const // k rows from the top
    {
        const QRect r = mapRect();
        const int n = std::max(1, rowCount());
        return r.top() + int(qint64(r.height()) * k / n);
    }
    QRect cellRect(int column, int slot) const
    {
        const HeatmapBins &b = m_view->m_bins;
        if (column < 0 || column >= b.columns || slot < b.minSlot || slot > b.maxSlot)
            return {};
        const int k = b.maxSlot - slot; // slow on top
        return QRect(QPoint(columnX(column), rowY(k)),
                     QPoint(columnX(column + 1) - 1, rowY(k + 1) - 1));
    }
    // The cell under a point, clamped into the map; false when the map shows nothing.
    bool cellAt(QPoint pos, int *column, int *slot) const
    {
        const HeatmapBins &b = m_view->m_bins;
        const int rows = rowCount();
        if (rows == 0 || b.columns == 0)
            return false;
        const QRect r = mapRect();
        const int x = std::clamp(pos.x(), r.left(), r.right());
        const int y = std::clamp(pos.y(), r.top(), r.bottom());
        int c = int(qint64(x - r.left()) * b.columns / r.width());
        int k = int(qint64(y - r.top()) * rows / r.height());
        c = std::clamp(c, 0, b.columns - 1);
        k = std::clamp(k, 0, rows - 1);
        *column = c;
        *slot = b.maxSlot - k;
        return true;
    }

protected:
    void paintEvent(QPaintEvent *) override;
    void resizeEvent(QResizeEvent *) override
    {
        m_axes->setNeeds(this, leftNeed(), RightNeed);
        m_view->scheduleRefresh();
    }
    void mousePressEvent(QMouseEvent *e) override
    {
        if (e->button() != Qt::LeftButton || !cellAt(e->position().toPoint(), &m_c0, &m_s0))
            return;
        m_dragging = true;
        m_c1 = m_c0;
        m_s1 = m_s0;
        update();
    }
    void mouseMoveEvent(QMouseEvent *e) override
    {
        if (m_dragging && cellAt(e->position().toPoint(), &m_c1, &m_s1))
            update();
    }
    void mouseReleaseEvent(QMouseEvent *e) override
    {
        if (!m_dragging || e->button() != Qt::LeftButton)
            return;
        m_dragging = false;
        cellAt(e->position().toPoint(), &m_c1, &m_s1);
        m_view->selectCells(std::min(m_c0, m_c1), std::max(m_c0, m_c1), std::min(m_s0, m_s1),
                            std::max(m_s0, m_s1));
        update();
    }
    bool event(QEvent *e) override
    {
        if (e->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(e);
            int c = 0, s = 0;
            if (mapRect().contains(help->pos()) && cellAt(help->pos(), &c, &s))
                QToolTip::showText(help->globalPos(), m_view->cellToolTip(c, s), this,
                                   cellRect(c, s));
            else
                QToolTip::hideText();
            return true;
        }
        return QWidget::event(e);
    }

private:
    void drawTimeAxis(QPainter &p, const QRect &r) const;
    void drawLatencyAxis(QPainter &p, const QRect &r) const;
    void drawLegend(QPainter &p, const QRect &r) const;

    HeatmapView *m_view;
    TimeAxisGroup *m_axes; // looked up once: mapRect() runs for every cell hit-tested
    bool m_dragging = false;
    int m_c0 = 0, m_c1 = 0, m_s0 = 0, m_s1 = 0;
};

void HeatmapPlot::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const HeatmapBins &b = m_view->m_bins;
    const QRect r = mapRect();
    p.setPen(palette().color(QPalette::Text));
    if (b.isEmpty()) {
        p.setPen(palette().color(QPalette::Disabled, QPalette::Text));
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, m_view->emptyText());
        return;
    }
    // One image pixel per cell, scaled without smoothing: the redraw costs the same at 10k
    // and at 10M events.
    p.drawImage(QRect(r.left(), r.top(), r.width(), r.height()), m_view->m_image);
    drawTimeAxis(p, r);
    drawLatencyAxis(p, r);
    drawLegend(p, r);

    auto outline = [&](int c0, int c1, int s0, int s1, Qt::PenStyle style) {
        const QRect a = cellRect(c0, s1);
        const QRect z = cellRect(c1, s0);
        if (a.isNull() || z.isNull())
            return;
        QPen pen(palette().color(QPalette::Highlight), 2, style);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        p.drawRect(a.united(z).adjusted(0, 0, -1, -1));
    };
    if (m_dragging) {
        outline(std::min(m_c0, m_c1), std::max(m_c0, m_c1), std::min(m_s0, m_s1),
                std::max(m_s0, m_s1), Qt::DashLine);
    } else if (m_view->m_selected) {
        const int s0 = std::max(m_view->m_selSlot0, b.minSlot);
        const int s1 = std::min(m_view->m_selSlot1, b.maxSlot);
        if (s0 <= s1)
            outline(0, b.columns - 1, s0, s1, Qt::SolidLine);
    }
}

void HeatmapPlot::drawTimeAxis(QPainter &p, const QRect &r) const
{
    const int fh = fontMetrics().height();
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(r.bottomLeft() + QPoint(0, 1), r.bottomRight() + QPoint(0, 1));
    // The timeline's ticks (about one per 100 pixels), at the same screen x.
    for (const TimeAxis::Tick &tick : axis().ticks()) {
        const double x = tick.x;
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(QPointF(x, r.bottom() + 1), QPointF(x, r.bottom() + 5));
        p.setPen(palette().color(QPalette::Text));
        const int w = fontMetrics().horizontalAdvance(tick.label);
        // Centred on the tick, kept inside the widget.
        const int left = std::clamp(int(x) - w / 2, 0, width() - w);
        p.drawText(QRect(left, r.bottom() + 6, w, fh), Qt::AlignCenter, tick.label);
    }
    // The caption on the left of the last row, the colour scale on its right.
    p.drawText(QRect(r.left(), r.bottom() + 6 + fh, r.width(), fh), Qt::AlignLeft,
               HeatmapView::tr("time since the session start"));
}

void HeatmapPlot::drawLatencyAxis(QPainter &p, const QRect &r) const
{
    const HeatmapBins &b = m_view->m_bins;
    const int rows = rowCount();
    const int fh = fontMetrics().height();
    // Every row's lower edge is a power of two; label as many as fit without overlapping.
    const int every = std::max(1, int(std::ceil(double(fh) * rows / std::max(1, r.height()))));
    p.setPen(palette().color(QPalette::Text));
    for (int k = 0; k <= rows; ++k) {
        const int slot = b.maxSlot + 1 - k; // the edge below row k-1 is slot's lower bound
        if (slot < b.minSlot || (b.maxSlot + 1 - slot) % every != 0)
            continue;
        const int y = rowY(k);
        const quint64 ns = b.slotLowNs(slot);
        p.setPen(palette().color(QPalette::Mid));
        p.drawLine(r.left() - 4, y, r.left() - 1, y);
        p.setPen(palette().color(QPalette::Text));
        const int top = std::clamp(y - fh / 2, 0, height() - fh);
        p.drawText(QRect(0, top, r.left() - 6, fh), Qt::AlignRight | Qt::AlignVCenter,
                   shortDuration(ns));
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(r.topLeft() - QPoint(1, 0), r.bottomLeft() - QPoint(1, 0));
}

void HeatmapPlot::drawLegend(QPainter &p, const QRect &r) const
{
    // A horizontal bar below the map's right end, not a column beside it: the map spans the
    // timeline's plot, whose right edge is the window's.
    const HeatmapBins &b = m_view->m_bins;
    const bool log = m_view->m_log;
    const int fh = fontMetrics().height();
    const quint32 max = std::max<quint32>(1, b.maxCount);
    const QString one = QLocale().toString(1);
    const QString most = QLocale().toString(max);
    const QString title = HeatmapView::tr("count");
    const int top = r.bottom() + 6 + fh;
    const int barWidth = std::clamp(r.width() / 6, 40, 160);
    const int right = std::min(width() - 2, r.right());
    const int mostLeft = right - fontMetrics().horizontalAdvance(most);
    const QRect bar(mostLeft - 6 - barWidth, top + fh / 4, barWidth, fh / 2 + 1);
    const int oneLeft = bar.left() - 6 - fontMetrics().horizontalAdvance(one);
    const int titleLeft = oneLeft - 8 - fontMetrics().horizontalAdvance(title);
    // Over the caption, a white box behind it: a narrow map keeps the scale.
    p.fillRect(QRect(titleLeft - 4, top, right - titleLeft + 6, fh), palette().base());
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRect(titleLeft, top, oneLeft - titleLeft, fh), Qt::AlignLeft | Qt::AlignVCenter,
               title);
    p.drawText(QRect(oneLeft, top, bar.left() - oneLeft, fh), Qt::AlignLeft | Qt::AlignVCenter,
               one);
    p.drawText(QRect(mostLeft, top, right - mostLeft + 1, fh), Qt::AlignLeft | Qt::AlignVCenter,
               most);
    for (int x = 0; x < bar.width(); ++x) {
        p.setPen(HeatmapView::colorMap(double(x) / std::max(1, bar.width() - 1)));
        p.drawLine(bar.left() + x, bar.top(), bar.left() + x, bar.bottom());
    }
    p.setPen(palette().color(QPalette::Mid));
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    // The middle of the scale (linear or logarithmic) as a mark where its colour is.
    const quint32 middle = log ? quint32(std::lround(std::sqrt(double(max)))) : (max + 1) / 2;
    if (middle > 1 && middle < max) {
        const double t = log ? std::log1p(double(middle)) / std::log1p(double(max))
                             : double(middle) / double(max);
        const int x = bar.left() + int(t * (bar.width() - 1));
        p.setPen(palette().color(QPalette::Text));
        p.drawLine(x, bar.top() - 2, x, bar.top());
    }
}

// The selection's log2 histogram as a bar chart, one bar per bucket from the lowest to the
// highest non-empty one: x the latency (bucket edges labelled), y the events or samples (0 and
// the fullest bucket labelled), each bar's count above it where it fits. Both axes are titled:
// without them "12 | 340" under a heatmap reads as anything.
class HeatmapHistogram : public QWidget
{
public:
    explicit HeatmapHistogram(HeatmapView *view)
        : QWidget(view)
        , m_view(view)
    {
        // Title, bars, edge labels and the axis title each need their line.
        setMinimumHeight(fontMetrics().height() * 5 + 20);
        setAccessibleName(HeatmapView::tr("Histogram of the selection"));
    }

    // What the last paint wrote, in order: the axis titles, the count labels and the bucket
    // edges shown.
    const QStringList &drawnTexts() const { return m_drawn; }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        m_drawn.clear();
        p.fillRect(rect(), palette().base());
        const Log2Histogram &h = m_view->m_selectionHistogram;
        const HeatmapBins &b = m_view->m_bins;
        int s0 = 0, s1 = -1;
        for (int s = 0; s < Log2Histogram::MaxSlots; ++s) {
            if (h.slot(s)) {
                s0 = s1 < 0 ? s : s0;
                s1 = s;
            }
        }
        const int fh = fontMetrics().height();
        if (s1 < 0) {
            p.setPen(palette().color(QPalette::Disabled, QPalette::Text));
            p.drawText(rect(), Qt::AlignCenter,
                       HeatmapView::tr("Click a cell or drag a rectangle to select events."));
            return;
        }
        const QLocale locale;
        quint64 max = 1;
        for (int s = s0; s <= s1; ++s)
            max = std::max(max, h.slot(s));
        const QString yTitle = b.source.kind == HeatmapSource::Events
                                   ? HeatmapView::tr("Events per latency bucket")
                                   : HeatmapView::tr("Samples per latency bucket");
        const QString xTitle = HeatmapView::tr("Latency");
        const QString maxText = locale.toString(max);
        const int axisW = std::max(fontMetrics().horizontalAdvance(maxText),
                                   fontMetrics().horizontalAdvance(QStringLiteral("0"))) +
                          10;
        // Title line, a line for the counts above the bars, the bars, the edge labels, the axis
        // title.
        const QRect plot(axisW, 2 + 2 * fh, std::max(10, width() - axisW - 12),
                         std::max(4, height() - 4 - 4 * fh - 6));
        const QColor text = palette().color(QPalette::Text);
        const QColor axis = palette().color(QPalette::Mid);
        auto draw = [&](const QRect &r, int flags, const QString &t) {
            p.drawText(r, flags, t);
            m_drawn << t;
        };

        p.setPen(text);
        draw(QRect(2, 2, width() - 4, fh), Qt::AlignLeft | Qt::AlignVCenter, yTitle);
        // The y axis: 0 at the bottom, the fullest bucket at the top.
        p.setPen(axis);
        p.drawLine(plot.topLeft() - QPoint(1, 0), plot.bottomLeft() - QPoint(1, 0));
        p.drawLine(plot.bottomLeft() + QPoint(0, 1), plot.bottomRight() + QPoint(0, 1));
        p.drawLine(plot.left() - 5, plot.top(), plot.left() - 1, plot.top());
        p.setPen(text);
        draw(QRect(0, plot.top() - fh / 2, axisW - 7, fh), Qt::AlignRight | Qt::AlignVCenter,
             maxText);
        draw(QRect(0, plot.bottom() - fh / 2, axisW - 7, fh), Qt::AlignRight | Qt::AlignVCenter,
             QStringLiteral("0"));

        const int n = s1 - s0 + 1;
        const double barW = double(plot.width()) / n;
        const QColor fill = palette().color(QPalette::Highlight);
        for (int k = 0; k < n; ++k) {
            const quint64 c = h.slot(s0 + k);
            const int x0 = plot.left() + int(std::lround(k * barW));
            const int x1 = plot.left() + int(std::lround((k + 1) * barW));
            const int barH = int(std::lround(double(plot.height()) * double(c) / double(max)));
            const QRect bar(x0 + 1, plot.bottom() + 1 - std::max(barH, c ? 1 : 0),
                            std::max(1, x1 - x0 - 2), std::max(barH, c ? 1 : 0));
            if (c)
                p.fillRect(bar, fill);
            // The count over its bar where it fits the bar's width.
            const QString count = locale.toString(c);
            if (c && fontMetrics().horizontalAdvance(count) + 2 <= x1 - x0) {
                p.setPen(text);
                draw(QRect(x0, bar.top() - fh - 1, x1 - x0, fh), Qt::AlignCenter, count);
            }
        }
        // The bucket edges, from the left as many as fit side by side.
        int lastRight = -1;
        for (int k = 0; k <= n; ++k) {
            const int slot = s0 + k;
            const quint64 edge = k < n ? b.slotLowNs(slot) : b.slotEndNs(s1);
            const QString label = k < n || edge ? shortDuration(edge) : QStringLiteral("∞");
            const int x = plot.left() + int(std::lround(k * barW));
            const int w = fontMetrics().horizontalAdvance(label);
            const int left = std::clamp(x - w / 2, 0, width() - w);
            if (left <= lastRight + 6)
                continue;
            p.setPen(axis);
            p.drawLine(x, plot.bottom() + 1, x, plot.bottom() + 4);
            p.setPen(text);
            draw(QRect(left, plot.bottom() + 5, w, fh), Qt::AlignCenter, label);
            lastRight = left + w;
        }
        draw(QRect(plot.left(), plot.bottom() + 5 + fh, plot.width(), fh), Qt::AlignCenter, xTitle);
    }

private:
    HeatmapView *m_view;
    QStringList m_drawn;
};

// ---------------------------------------------------------------------------------------------

HeatmapView::HeatmapView(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
{
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    auto *sourceLabel = new QLabel(tr("&Latency of:"), this);
    m_sourceBox = new QComboBox(this);
    m_sourceBox->setAccessibleName(tr("Heatmap source"));
    m_sourceBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    sourceLabel->setBuddy(m_sourceBox);
    auto *scaleLabel = new QLabel(tr("Colour &scale:"), this);
    m_scaleBox = new QComboBox(this);
    m_scaleBox->addItem(tr("Logarithmic"));
    m_scaleBox->addItem(tr("Linear"));
    m_scaleBox->setAccessibleName(tr("Colour scale"));
    scaleLabel->setBuddy(m_scaleBox);
    m_clearButton = new QPushButton(tr("&Clear selection"), this);
    m_clearButton->setEnabled(false);
    m_explainButton = new QPushButton(tr("Explain…"), this);
    m_explainButton->setEnabled(false);
    bar->addWidget(sourceLabel);
    bar->addWidget(m_sourceBox);
    bar->addSpacing(12);
    bar->addWidget(scaleLabel);
    bar->addWidget(m_scaleBox);
    bar->addSpacing(12);
    bar->addWidget(m_clearButton);
    bar->addWidget(m_explainButton);
    bar->addStretch();
    layout->addLayout(bar);

    m_plot = new HeatmapPlot(this);
    layout->addWidget(m_plot, 3);
    // Under the timeline, on its time axis: when the span moves, cells are binned again only
    // if their number changed.
    auto *axes = TimeAxisGroup::of(m_state);
    axes->add(m_plot, m_plot->leftNeed(), HeatmapPlot::RightNeed);
    connect(axes, &TimeAxisGroup::changed, this, [this] {
        if (std::max(1, m_plot->mapRect().width() / CellWidth) != m_bins.columns)
            scheduleRefresh();
        m_plot->update();
    });
    m_selectionLabel = new QLabel(this);
    m_selectionLabel->setWordWrap(true);
    m_selectionLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_selectionLabel);
    m_histogram = new HeatmapHistogram(this);
    layout->addWidget(m_histogram, 1);

    // Every change of a burst (range and filter together) builds once, when control returns.
    m_job.setDebounceInterval(0);
    connect(&m_job, &BackgroundJob::due, this, &HeatmapView::refresh);

    connect(m_sourceBox, &QComboBox::currentIndexChanged, this, [this] {
        clearSelection();
        refresh();
    });
    connect(m_scaleBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { setLogScale(index == 0); });
    connect(m_clearButton, &QPushButton::clicked, this, &HeatmapView::clearSelection);
    connect(m_explainButton, &QPushButton::clicked, this, [this] {
        if (m_selected && m_bins.source.kind == HeatmapSource::Events)
            m_state->requestExplainOf(m_bins.source.type);
    });
    connect(m_state, &ViewState::rangeChanged, this, &HeatmapView::scheduleRefresh);
    connect(m_state, &ViewState::filterChanged, this, &HeatmapView::scheduleRefresh);
    // The worker reads the store: it must be done before the store changes.
    connect(m_session, &SessionModel::aboutToReset, this, &HeatmapView::stopBuild);
    connect(m_session, &SessionModel::aboutToBeDestroyed, this, &HeatmapView::stopBuild);
    connect(m_session, &SessionModel::aboutToAppend, this, &HeatmapView::stopBuild);
    connect(m_session, &SessionModel::reset, this, [this] {
        m_selected = false;
        m_strides.reset();
        reloadSources();
        if (!deferWhileHidden())
            refresh();
    });
    connect(m_session, &SessionModel::appended, this, [this](bool outOfOrder) {
        // Strides hold indices: appends in time order only add strides after them.
        if (outOfOrder)
            m_strides.reset();
        reloadSources();
        scheduleRefresh();
    });
    reloadSources();
    refresh();
}

HeatmapView::~HeatmapView()
{
    stopBuild();
}

void HeatmapView::stopBuild()
{
    m_job.stopAndWait();
    // The change that stopped it (a reset, an append) schedules the next build itself.
    m_computing = false;
}

QWidget *HeatmapView::plot() const
{
    return m_plot;
}

QWidget *HeatmapView::selectionHistogramWidget() const
{
    return m_histogram;
}

QStringList HeatmapView::selectionHistogramTexts() const
{
    return m_histogram->drawnTexts();
}

void HeatmapView::reloadSources()
{
    const QList<HeatmapSource> sources = HeatmapModel::sources(*m_session);
    if (sources == m_sources)
        return;
    const HeatmapSource current =
        m_sourceBox->currentIndex() >= 0 && m_sourceBox->currentIndex() < m_sources.size()
            ? m_sources.at(m_sourceBox->currentIndex())
            : HeatmapSource{};
    m_sources = sources;
    const QSignalBlocker block(m_sourceBox);
    m_sourceBox->clear();
    for (const HeatmapSource &s : m_sources)
        m_sourceBox->addItem(HeatmapModel::sourceName(s));
    m_sourceBox->setCurrentIndex(std::max<int>(0, int(m_sources.indexOf(current))));
    m_sourceBox->setEnabled(!m_sources.isEmpty());
}

void HeatmapView::setCurrentSource(int index)
{
    m_sourceBox->setCurrentIndex(index);
}

int HeatmapView::currentSource() const
{
    return m_sourceBox->currentIndex();
}

void HeatmapView::setLogScale(bool on)
{
    if (on == m_log)
        return;
    m_log = on;
    const QSignalBlocker block(m_scaleBox);
    m_scaleBox->setCurrentIndex(on ? 0 : 1);
    rebuildImage();
    m_plot->update();
}

QColor HeatmapView::colorMap(double t)
{
    t = std::clamp(t, 0.0, 1.0) * double(Viridis.size() - 1);
    const int i = std::min(int(t), int(Viridis.size()) - 2);
    const double f = t - i;
    const QColor a = QColor::fromRgb(Viridis[size_t(i)]);
    const QColor b = QColor::fromRgb(Viridis[size_t(i) + 1]);
    return QColor(int(std::lround(a.red() + (b.red() - a.red()) * f)),
                  int(std::lround(a.green() + (b.green() - a.green()) * f)),
                  int(std::lround(a.blue() + (b.blue() - a.blue()) * f)));
}

QColor HeatmapView::cellColor(quint32 n, quint32 max, bool log)
{
    if (n == 0 || max == 0)
        return {};
    const double t =
        log ? std::log1p(double(n)) / std::log1p(double(max)) : double(n) / double(max);
    return colorMap(t);
}

void HeatmapView::scheduleRefresh()
{
    if (!deferWhileHidden())
        m_job.schedule();
}

bool HeatmapView::deferWhileHidden()
{
    // A map on a tab nobody looks at waits until it is shown: over 10M events a rebuild takes
    // most of a second, which a zoom in the timeline on another tab must not pay.
    if (!window()->isVisible() || isVisible())
        return false;
    m_stale = true;
    return true;
}

void HeatmapView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_stale) {
        m_stale = false;
        refresh();
    }
}

void HeatmapView::refresh()
{
    // A build still running, or its result on its way, is of the request before this one.
    m_job.cancel();
    // The selection lasts while the state shows what it set.
    if (m_selected) {
        const EventFilter &f = m_state->filter();
        const bool events = m_bins.source.kind == HeatmapSource::Events;
        const bool window = !events || (f.minLatencyNs == m_bins.slotLowNs(m_selSlot0) &&
                                        f.maxLatencyNs == m_bins.slotEndNs(m_selSlot1));
        if (!window || m_state->startNs() != m_selStartNs || m_state->endNs() != m_selEndNs)
            m_selected = false;
    }
    const int index = m_sourceBox->currentIndex();
    const int columns = std::max(1, m_plot->mapRect().width() / CellWidth);
    if (index < 0 || index >= m_sources.size()) {
        applyBins(HeatmapBins{});
        return;
    }
    const HeatmapSource source = m_sources.at(index);
    const quint64 start = m_state->startNs(), end = m_state->endNs();
    const EventFilter filter = m_state->filter();
    if (HeatmapModel::eventsInRange(*m_session, source, start, end) <= WorkerThreshold) {
        applyBins(HeatmapModel::build(*m_session, source, filter, start, end, columns));
        return;
    }
    // Over 10M events a build takes most of a second: the window stays responsive meanwhile
    // and shows the previous map until the new one is there.
    m_computing = true;
    const SessionModel *session = m_session;
    // The first build of a type also summarises its strides (one pass, as a build without them
    // costs); later ones, zoomed or live, read whole strides from them.
    const bool strided = HeatmapModel::usesStrides(source, filter);
    std::shared_ptr<const HeatmapStrides> strides = strided ? m_strides : nullptr;
    struct Result
    {
        HeatmapBins bins;
        std::shared_ptr<const HeatmapStrides> strides;
    };
    m_job.run(
        [session, source, filter, start, end, columns, strided,
         strides](const JobToken &token) mutable {
            if (strided)
                strides = HeatmapModel::buildStrides(*session, source.type, strides, token.flag());
            HeatmapBins bins = HeatmapModel::build(*session, source, filter, start, end, columns,
                                                   token.flag(), strides.get());
            return Result{std::move(bins), std::move(strides)};
        },
        [this, strided](Result r) {
            if (strided)
                m_strides = std::move(r.strides);
            applyBins(std::move(r.bins));
        });
}

void HeatmapView::applyBins(HeatmapBins bins)
{
    m_computing = false;
    m_bins = std::move(bins);
    rebuildImage();
    updateSelectionHistogram();
    m_plot->update();
    Q_EMIT refreshed();
}

void HeatmapView::rebuildImage()
{
    const int rows = m_plot->rowCount();
    if (rows == 0 || m_bins.columns == 0) {
        m_image = QImage();
        return;
    }
    m_image = QImage(m_bins.columns, rows, QImage::Format_RGB32);
    const QRgb background = palette().color(QPalette::Base).rgb();
    // One colour per distinct count would do too; a small table keeps big maps cheap.
    for (int k = 0; k < rows; ++k) {
        auto *line = reinterpret_cast<QRgb *>(m_image.scanLine(k));
        const int slot = m_bins.maxSlot - k;
        for (int c = 0; c < m_bins.columns; ++c) {
            const quint32 n = m_bins.count(c, slot);
            line[c] = n ? cellColor(n, m_bins.maxCount, m_log).rgb() : background;
        }
    }
}

QRect HeatmapView::cellRect(int column, int slot) const
{
    return m_plot->cellRect(column, slot);
}

QString HeatmapView::cellToolTip(int column, int slot) const
{
    if (column < 0 || column >= m_bins.columns || slot < 0 || slot >= HeatmapBins::Slots)
        return {};
    const quint64 origin = m_session->info().startMonotonicNs;
    const quint64 t0 = m_bins.columnStartNs(column);
    const quint64 t1 = m_bins.columnStartNs(column + 1);
    const int decimals = int(std::ceil(-std::log10(std::max(1.0, double(t1 - t0)) / 1e9))) + 1;
    const quint64 end = m_bins.slotEndNs(slot);
    const quint32 n = m_bins.count(column, slot);
    const QString what = m_bins.source.kind == HeatmapSource::Events
                             ? tr("events: %1").arg(QLocale().toString(n))
                             : tr("samples: %1").arg(QLocale().toString(n));
    return tr("%1 – %2\nlatency %3 – %4\n%5")
        .arg(timeText(t0, origin, decimals), timeText(t1, origin, decimals),
             shortDuration(m_bins.slotLowNs(slot)), end ? shortDuration(end) : QStringLiteral("∞"),
             what);
}

void HeatmapView::selectCells(int c0, int c1, int s0, int s1)
{
    if (m_bins.columns == 0 || c0 > c1 || s0 > s1)
        return;
    c0 = std::clamp(c0, 0, m_bins.columns - 1);
    c1 = std::clamp(c1, 0, m_bins.columns - 1);
    const HeatmapBins cells = m_bins;
    // Selecting nothing would empty every table and the map: a click on an empty cell is not
    // a selection.
    if (cells.histogram(c0, c1, s0, s1).isEmpty())
        return;
    if (!m_selected) {
        m_beforeStartNs = m_state->startNs();
        m_beforeEndNs = m_state->endNs();
    }
    m_selSlot0 = s0;
    m_selSlot1 = s1;
    if (cells.source.kind == HeatmapSource::Events) {
        EventFilter f = m_state->filter();
        f.minLatencyNs = cells.slotLowNs(s0);
        f.maxLatencyNs = cells.slotEndNs(s1);
        m_state->setFilter(f);
    }
    const auto [startNs, endNs] = cells.selectionRange(c0, c1);
    m_state->setRange(startNs, endNs);
    m_selStartNs = m_state->startNs();
    m_selEndNs = m_state->endNs();
    m_selected = true;
    m_bins = cells; // refresh() checks the selection against these cells' buckets
    refresh();
}

void HeatmapView::clearSelection()
{
    const bool selected = m_selected;
    m_selected = false;
    // The window stays in the filter after zooming away from a selection: clearing takes it.
    EventFilter f = m_state->filter();
    if (f.maxLatencyNs || (selected && m_bins.source.kind == HeatmapSource::Events)) {
        f.minLatencyNs = f.maxLatencyNs = 0;
        m_state->setFilter(f);
    }
    if (selected && m_state->startNs() == m_selStartNs && m_state->endNs() == m_selEndNs)
        m_state->setRange(m_beforeStartNs, m_beforeEndNs);
    refresh();
}

void HeatmapView::updateSelectionHistogram()
{
    m_clearButton->setEnabled(m_selected || m_state->filter().maxLatencyNs);
    // A histogram's samples have no process, file or disk to rank: only events can be explained.
    const bool events = m_bins.source.kind == HeatmapSource::Events;
    m_explainButton->setEnabled(m_selected && events);
    m_explainButton->setToolTip(
        events ? tr("What is more common among the selected events than among the events of "
                    "the same type and latencies in the rest of the recording")
               : tr("Histogram samples have no processes, files or disks to explain: select "
                    "a source with events (such as Block I/O)"));
    m_selectionHistogram = m_selected
                               ? m_bins.histogram(0, m_bins.columns - 1, m_selSlot0, m_selSlot1)
                               : Log2Histogram(m_bins.unit);
    m_selectionLabel->setText(selectionText());
    m_histogram->update();
}

QString HeatmapView::selectionText() const
{
    if (m_sources.isEmpty())
        return {};
    const quint64 origin = m_session->info().startMonotonicNs;
    if (!m_selected)
        return (m_bins.source.kind == HeatmapSource::Events
                    ? tr("Events with a latency in the visible range: %1.")
                    : tr("Samples in the visible range: %1."))
                   .arg(QLocale().toString(m_bins.total)) +
               QLatin1Char(' ') +
               tr("Hover a cell for its counts; click a cell or drag a rectangle to select.");
    const Log2Histogram &h = m_selectionHistogram;
    const quint64 end = m_bins.slotEndNs(m_selSlot1);
    QString text =
        tr("Selected: %1 – %2, latency %3 – %4: %5")
            .arg(timeText(m_selStartNs, origin, 6), timeText(m_selEndNs, origin, 6),
                 shortDuration(m_bins.slotLowNs(m_selSlot0)),
                 end ? shortDuration(end) : QStringLiteral("∞"), QLocale().toString(h.count()));
    // The cells are log2 buckets: a percentile is known to its bucket, and said so.
    auto bucket = [&](double fraction) {
        const int slot = percentileSlot(h, fraction);
        const quint64 high = m_bins.slotEndNs(slot);
        return tr("%1 – %2").arg(shortDuration(m_bins.slotLowNs(slot)),
                                 high ? shortDuration(high) : QStringLiteral("∞"));
    };
    if (!h.isEmpty())
        text += tr(" · p50 in %1 · p99 in %2").arg(bucket(0.5), bucket(0.99));
    return text;
}

QString HeatmapView::emptyText() const
{
    if (m_sources.isEmpty())
        return tr("This session holds no events with a latency and no latency histograms.");
    return m_bins.source.kind == HeatmapSource::Events
               ? tr("No events with a latency in this range")
               : tr("No histogram samples in this range");
}

} // namespace bpflens
