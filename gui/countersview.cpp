#include "gui/countersview.h"

#include "core/probecatalog.h"
#include "gui/chartstyle.h"
#include "gui/colors.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"
#include "gui/timeaxis.h"

#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QGridLayout>
#include <QHash>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QMap>
#include <QScrollArea>
#include <QSet>
#include <QTimer>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace bpflens {

namespace {

// A series' counter name ("hits") where the legend shows a translated one.
constexpr char CounterProperty[] = "counter";

// Per-key counters are reported only for intervals with something new: a key missing from an
// interval another key has was 0 then, and drawn as such instead of a line across the gap.
void fillQuietIntervals(QMap<QString, QList<QPointF>> &lines)
{
    QSet<double> times;
    for (const QList<QPointF> &line : std::as_const(lines)) {
        for (const QPointF &p : line)
            times.insert(p.x());
    }
    QList<double> sorted(times.cbegin(), times.cend());
    std::sort(sorted.begin(), sorted.end());
    for (QList<QPointF> &line : lines) {
        if (line.size() == sorted.size())
            continue;
        QHash<double, double> values;
        for (const QPointF &p : std::as_const(line))
            values[p.x()] += p.y();
        line.clear();
        for (double x : std::as_const(sorted))
            line.append(QPointF(x, values.value(x)));
    }
}

QString viewText(const QString &text)
{
    return QCoreApplication::translate("bpflens::CountersView", text.toUtf8().constData());
}

// The probe that declares charts of its counters (cachestat), or null.
const ProbeInfo *amountsProbe()
{
    for (const ProbeInfo &p : ProbeCatalog::probes()) {
        if (!p.counterCharts.title.isEmpty())
            return &p;
    }
    return nullptr;
}

// A gauge (the hit ratio) is a share, not a count: on the counts' axis it would flatten every
// count line, so it gets a chart of its own.
bool isGauge(const ProbeInfo *info, const QString &name)
{
    const ProbeCounter *c = info ? info->counter(name) : nullptr;
    return c && c->role == ProbeCounter::Role::Gauge;
}

} // namespace

CountersView::CountersView(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
{
    // The charts scroll where the window is smaller than all of them together (under a real
    // recording's timeline on a 1280x720 screen) instead of making the window taller.
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto *content = new QWidget(scroll);
    auto *layout = new QVBoxLayout(content);
    // The charts reach the edges: their plots share the timeline's span, and every pixel of
    // margin here would be taken from the timeline's plot too.
    layout->setContentsMargins(0, layout->contentsMargins().top(), 0,
                               layout->contentsMargins().bottom());
    scroll->setWidget(content);
    outer->addWidget(scroll);
    m_placeholder = new QLabel(
        tr("No counter samples in this session: record the Page cache (cachestat) probe to see "
           "hits, misses and dirtied pages over time, TCP retransmits (tcpretrans) for "
           "retransmits per connection, TCP connects (tcpconnect) for connects per "
           "destination, User function calls (uprobe) for calls per key, USDT probes (usdt) or "
           "Tracepoint counts (tpcount) for hits per key."),
        this);
    m_placeholder->setWordWrap(true);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setEnabled(false);
    layout->addWidget(m_placeholder);
    m_counts = new QChartView(new QChart, this);
    m_counts->setAccessibleName(tr("Page cache counters"));
    m_counts->setRenderHint(QPainter::Antialiasing);
    m_ratio = new QChartView(new QChart, this);
    m_ratio->setAccessibleName(tr("Page cache hit ratio"));
    m_ratio->setRenderHint(QPainter::Antialiasing);
    m_amounts = amountsProbe();
    // The probes that count per key, a chart each, stacked by their declared rank.
    QList<const ProbeInfo *> keyedProbes;
    for (const ProbeInfo &p : ProbeCatalog::probes()) {
        if (p.isKeyed())
            keyedProbes.append(&p);
    }
    std::stable_sort(
        keyedProbes.begin(), keyedProbes.end(),
        [](const ProbeInfo *a, const ProbeInfo *b) { return a->keyed.rank < b->keyed.rank; });
    for (const ProbeInfo *p : std::as_const(keyedProbes)) {
        const QString other =
            p->keyed.others == ProbeKeyedCounts::Others::Connections    ? otherConnectionsName()
            : p->keyed.others == ProbeKeyedCounts::Others::Destinations ? otherDestinationsName()
                                                                        : otherKeysName();
        m_keyed.append(
            {p, viewText(p->keyed.chartTitle), viewText(p->keyed.chartYTitle), other, nullptr});
    }
    for (KeyedChart &k : m_keyed) {
        // Made in the scrolled widget: reparented by the grid later, a shown chart would wait
        // for the event loop to show again.
        k.view = new QChartView(new QChart, content);
        k.view->setAccessibleName(k.title);
        k.view->setRenderHint(QPainter::Antialiasing);
        k.view->setMinimumHeight(300);
    }
    // Tall enough to read: title, legend and both axes' labels and titles take about 150 px
    // of a chart, which at 170 px left a plot 20 px high with its axis titles cut to "…". They
    // scroll, so this does not make the window taller.
    m_counts->setMinimumHeight(320);
    m_ratio->setMinimumHeight(250);
    layout->addWidget(m_counts, 3);
    layout->addWidget(m_ratio, 2);
    m_keyedGrid = new QGridLayout;
    layout->addLayout(m_keyedGrid, 3);
    // Every chart on the timeline's time axis: the same range, the same screen x per time.
    // Aligned after the event that moved something, once the charts have their new size.
    m_axes = TimeAxisGroup::of(m_state);
    m_alignTimer = new QTimer(this);
    m_alignTimer->setSingleShot(true);
    m_alignTimer->setInterval(0);
    connect(m_alignTimer, &QTimer::timeout, this, &CountersView::alignPlots);
    for (QChartView *view : allCharts())
        m_axes->add(view, 0, 0);
    connect(m_axes, &TimeAxisGroup::changed, m_alignTimer, qOverload<>(&QTimer::start));
    connect(m_state, &ViewState::rangeChanged, this, &CountersView::refresh);
    connect(m_session, &SessionModel::reset, this, &CountersView::refresh);
    connect(m_session, &SessionModel::appended, this, &CountersView::refresh);
    refresh();
}

QChartView *CountersView::keyedChart(const QString &probeId) const
{
    for (const KeyedChart &k : m_keyed) {
        if (k.info->id == probeId)
            return k.view;
    }
    return nullptr;
}

QList<QChartView *> CountersView::allCharts() const
{
    QList<QChartView *> views{m_counts, m_ratio};
    for (const KeyedChart &k : m_keyed)
        views.append(k.view);
    return views;
}

QLineSeries *CountersView::series(const QString &name) const
{
    for (QChartView *view : allCharts()) {
        for (QAbstractSeries *s : view->chart()->series()) {
            if (s->property(CounterProperty).toString() == name || s->name() == name)
                return qobject_cast<QLineSeries *>(s);
        }
    }
    return nullptr;
}

QString CountersView::cacheCounterTitle(const QString &name)
{
    const ProbeInfo *info = amountsProbe();
    const ProbeCounter *c = info ? info->counter(name) : nullptr;
    if (c && !c->text.isEmpty())
        return viewText(c->text);
    return name; // a counter of a newer helper: its own name
}

QString CountersView::otherConnectionsName()
{
    return tr("other connections");
}

QString CountersView::otherDestinationsName()
{
    return tr("other destinations");
}

QString CountersView::otherKeysName()
{
    return tr("other keys");
}

void CountersView::keepBusiest(QMap<QString, QList<QPointF>> &lines,
                               const QHash<QString, double> &totals, const QString &otherName)
{
    if (lines.size() <= MaxConnectionLines)
        return;
    QList<QString> names = lines.keys();
    std::stable_sort(names.begin(), names.end(), [&](const QString &a, const QString &b) {
        return totals.value(a) > totals.value(b);
    });
    QMap<double, double> other;
    for (qsizetype i = MaxConnectionLines; i < names.size(); ++i) {
        for (const QPointF &p : lines.take(names[i]))
            other[p.x()] += p.y();
    }
    QList<QPointF> &o = lines[otherName];
    for (auto it = other.cbegin(); it != other.cend(); ++it)
        o.append(QPointF(it.key(), it.value()));
}

void CountersView::refresh()
{
    const quint64 start = m_state->startNs();
    const quint64 end = m_state->endNs();
    const quint64 origin = m_session->info().startMonotonicNs;
    QMap<QString, QList<QPointF>> pages;
    QMap<QString, QList<QPointF>> ratio;
    QList<QMap<QString, QList<QPointF>>> keyed(m_keyed.size());
    QList<QHash<QString, double>> keyedTotals(m_keyed.size());
    for (const CounterSample &c : m_session->counters()) {
        // The page cache's and the per-key counts only: iostack's layers have their own view,
        // and the loss counters of other probes (block's merged/unattributed, offcpu's
        // stacksLost, a keyed probe's keysFull...) are not such numbers; the Summary names them.
        if (c.timeNs < start || c.timeNs >= end)
            continue;
        const double x = double(qint64(c.timeNs - origin)) / 1e9;
        if (m_amounts && c.probeId == m_amounts->id) {
            if (isGauge(m_amounts, c.name))
                ratio[c.name].append(QPointF(x, c.value * 100));
            else
                pages[c.name].append(QPointF(x, c.value));
            continue;
        }
        for (qsizetype i = 0; i < m_keyed.size(); ++i) {
            if (c.probeId == m_keyed[i].info->id && m_keyed[i].info->isKeyCounter(c.name)) {
                keyed[i][c.name].append(QPointF(x, c.value));
                keyedTotals[i][c.name] += c.value;
                break;
            }
        }
    }
    bool empty = pages.isEmpty() && ratio.isEmpty();
    m_counts->setVisible(!pages.isEmpty());
    m_ratio->setVisible(!ratio.isEmpty());
    const ProbeCounterCharts charts = m_amounts ? m_amounts->counterCharts : ProbeCounterCharts();
    fill(m_counts, pages, viewText(charts.title), viewText(charts.yTitle), false);
    fill(m_ratio, ratio, viewText(charts.gaugeTitle), viewText(charts.gaugeYTitle), true);
    // The page cache's counters are words of the user's language in the legend; per-key
    // counters below are keys (a destination, an argument value) and keep their names.
    for (QChartView *view : {m_counts, m_ratio}) {
        for (QAbstractSeries *series : view->chart()->series()) {
            series->setProperty(CounterProperty, series->name());
            series->setName(cacheCounterTitle(series->name()));
        }
    }
    QList<QChartView *> shown;
    for (qsizetype i = 0; i < m_keyed.size(); ++i) {
        const KeyedChart &k = m_keyed[i];
        // The keys with the most in the range get a line each; the rest are summed into one,
        // per time.
        keepBusiest(keyed[i], keyedTotals[i], k.otherName);
        fillQuietIntervals(keyed[i]);
        m_keyedGrid->removeWidget(k.view);
        fill(k.view, keyed[i], k.title, k.yTitle, false);
        if (!keyed[i].isEmpty())
            shown.append(k.view);
        empty = empty && keyed[i].isEmpty();
    }
    // One a row, the whole width: side by side they could not share the timeline's axis.
    for (qsizetype n = 0; n < shown.size(); ++n)
        m_keyedGrid->addWidget(shown[n], int(n), 0);
    for (const KeyedChart &k : std::as_const(m_keyed))
        k.view->setVisible(shown.contains(k.view));
    m_placeholder->setVisible(empty);
    m_alignTimer->start();
}

void CountersView::setTimeTicks(QValueAxis *x, double plotWidth) const
{
    // The timeline's ticks (TimeAxis): whole multiples of a 1-2-5 step, about one per 100
    // pixels, with as many decimals as the step needs.
    const TimeAxis axis(m_state->startNs(), m_state->endNs(), 0, 0, plotWidth);
    const double step = axis.tickStepNs() / 1e9;
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(0);
    x->setTickInterval(step);
    const int decimals = std::clamp(int(std::ceil(-std::log10(step) - 1e-9)), 0, 9);
    x->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
}

void CountersView::alignPlots()
{
    if (m_aligning)
        return;
    m_aligning = true;
    for (QChartView *view : allCharts()) {
        QChart *chart = view->chart();
        if (!view->isVisible() || chart->series().isEmpty())
            continue;
        // The automatic layout first: it says how much room the value axis's labels and title
        // need on the left, which the timeline's lane names usually exceed.
        chart->setPlotArea(QRectF());
        chart->layout()->activate();
        const QRectF automatic = chart->plotArea();
        const double offset = view->viewport()->mapTo(view, QPoint(0, 0)).x() +
                              view->viewportTransform().map(chart->pos()).x();
        // On the right only the last time label's half: the legend is above the plot.
        m_axes->setNeeds(view, int(std::ceil(offset + automatic.left())),
                         fontMetrics().horizontalAdvance(QStringLiteral("88.88")) / 2 + 4);
        const auto [left, right] = m_axes->span(view);
        chart->setPlotArea(
            QRectF(left - offset, automatic.top(), right - left, automatic.height()));
        const QList<QAbstractAxis *> xs = chart->axes(Qt::Horizontal);
        if (auto *x = xs.isEmpty() ? nullptr : qobject_cast<QValueAxis *>(xs.first()))
            setTimeTicks(x, right - left);
    }
    m_aligning = false;
}

QPair<double, double> CountersView::plotSpan(QChartView *view) const
{
    const QRectF plot = view->chart()->plotArea();
    const QPointF a = view->viewportTransform().map(view->chart()->mapToScene(plot.topLeft()));
    const QPointF b = view->viewportTransform().map(view->chart()->mapToScene(plot.topRight()));
    const QPoint origin = view->viewport()->mapTo(view, QPoint(0, 0));
    return {a.x() + origin.x(), b.x() + origin.x()};
}

void CountersView::fill(QChartView *view, const QMap<QString, QList<QPointF>> &lines,
                        const QString &title, const QString &yTitle, bool percent)
{
    QChart *chart = view->chart();
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
    auto *x = new QValueAxis;
    x->setTitleText(tr("seconds"));
    auto *y = new QValueAxis;
    y->setTitleText(yTitle);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double maxY = 1;
    for (auto it = lines.cbegin(); it != lines.cend(); ++it) {
        auto *series = new QLineSeries;
        series->setName(it.key());
        series->append(it.value());
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        for (const QPointF &p : it.value())
            maxY = std::max(maxY, p.y());
    }
    // The visible range, not the samples' extent: the timeline's x axis, so a counter's peak is
    // under the events that made it. Its ticks are set for the width the plot gets
    // (alignPlots()).
    const quint64 origin = m_session->info().startMonotonicNs;
    x->setRange(double(qint64(m_state->startNs() - origin)) / 1e9,
                double(qint64(m_state->endNs() - origin)) / 1e9);
    setTimeTicks(x, view->width());
    x->setTruncateLabels(false);
    // Counts are whole numbers: a small range gets a tick per unit, not 0.5 steps that the
    // label format would round to "0 1 1 2".
    const double top = std::ceil(maxY * 1.1);
    if (percent) {
        y->setRange(0, 100);
    } else if (top <= 10) {
        y->setRange(0, top);
        y->setTickCount(int(top) + 1);
    } else {
        y->setRange(0, maxY * 1.1);
        y->applyNiceNumbers();
    }
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setTruncateLabels(false);
    chart->legend()->setVisible(!percent);
    // Above the plot, not beside it: the plot spans the timeline's. Names too long for the
    // legend read whole in its tool tip.
    chart->legend()->setAlignment(Qt::AlignTop);
    chart->legend()->setShowToolTips(true);
    chart->setTitle(title);
    styleChart(chart, palette());
    // The theme has five series colours, so lines six to nine repeated them: ten distinct ones
    // for the named lines, grey for the sum of the others. After styleChart, whose theme would
    // reset them.
    int n = 0;
    for (QAbstractSeries *s : chart->series()) {
        auto *line = qobject_cast<QLineSeries *>(s);
        if (!line)
            continue;
        const bool other = line->name() == otherConnectionsName() ||
                           line->name() == otherDestinationsName() ||
                           line->name() == otherKeysName();
        QPen pen = line->pen();
        pen.setColor(other ? colors::rest() : colors::series(n++));
        line->setPen(pen);
    }
}

} // namespace bpflens
