#include "gui/histogramview.h"

#include "core/units.h"
#include "gui/chartstyle.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QEvent>
#include <QFontMetrics>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QLogValueAxis>
#include <QMap>
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <climits>
#include <cmath>

namespace bpflens {

namespace {

constexpr int MinimumChartWidth = 360;
constexpr int MinimumChartHeight = 260;

QString chartKey(const QString &probeId, const QString &key)
{
    return probeId + QLatin1Char('\n') + key;
}

} // namespace

HistogramView::HistogramView(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
{
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    auto *label = new QLabel(tr("&Show:"), this);
    m_modeBox = new QComboBox(this);
    m_modeBox->addItem(tr("Cumulative over the visible range"));
    m_modeBox->addItem(tr("Last interval in the visible range"));
    m_modeBox->setAccessibleName(tr("Histogram mode"));
    label->setBuddy(m_modeBox);
    bar->addWidget(label);
    bar->addWidget(m_modeBox);
    m_logBox = new QCheckBox(tr("&Log scale"), this);
    m_logBox->setToolTip(tr("Counts on a logarithmic axis: a few slow requests show beside "
                            "thousands of fast ones"));
    connect(m_logBox, &QCheckBox::toggled, this, &HistogramView::setLogScale);
    bar->addSpacing(12);
    bar->addWidget(m_logBox);
    bar->addStretch();
    layout->addLayout(bar);

    m_placeholder = new QLabel(tr("This session holds no histograms."), this);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setEnabled(false);
    layout->addWidget(m_placeholder);

    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *content = new QWidget(scroll);
    m_grid = new QGridLayout(content);
    scroll->setWidget(content);
    layout->addWidget(scroll, 1);

    connect(m_modeBox, &QComboBox::currentIndexChanged, this, [this](int index) {
        setMode(index == 1 ? HistogramMode::Interval : HistogramMode::Cumulative);
    });
    connect(m_state, &ViewState::rangeChanged, this, &HistogramView::refresh);
    connect(m_session, &SessionModel::reset, this, &HistogramView::refresh);
    connect(m_session, &SessionModel::appended, this, &HistogramView::refresh);
    refresh();
}

QList<HistogramEntry> HistogramView::compute(const QList<HistogramSnapshot> &snapshots,
                                             quint64 startNs, quint64 endNs, HistogramMode mode)
{
    QMap<QPair<QString, QString>, HistogramEntry> byKey;
    QHash<QString, quint64> lastTime;
    // Over the whole session, so the order does not change while zooming.
    QHash<QPair<QString, QString>, quint64> sessionCounts;
    for (const HistogramSnapshot &s : snapshots) {
        const QPair<QString, QString> k{s.probeId, s.key};
        sessionCounts[k] += s.histogram.count();
        auto it = byKey.find(k);
        // Every histogram of the session has its entry, empty where the range has none of its
        // snapshots: charts do not come and go while zooming, an empty one says so.
        if (it == byKey.end())
            it = byKey.insert(
                k, HistogramEntry{s.probeId, s.key, Log2Histogram(s.histogram.unit()), 0});
        if (s.timeNs < startNs || s.timeNs >= endNs)
            continue;
        if (it->snapshots == 0) {
            it->histogram = s.histogram;
            it->snapshots = 1;
            lastTime.insert(chartKey(s.probeId, s.key), s.timeNs);
            continue;
        }
        if (mode == HistogramMode::Interval) {
            quint64 &last = lastTime[chartKey(s.probeId, s.key)];
            if (s.timeNs >= last) {
                last = s.timeNs;
                it->histogram = s.histogram;
            }
            it->snapshots = 1;
        } else if (s.histogram.unit() == it->histogram.unit()) {
            it->histogram.merge(s.histogram);
            ++it->snapshots;
        }
    }
    // What an SRE looks for first leads: each probe's machine-wide chart (biolatency, runqlat),
    // then the per-key charts (per disk, per command) with the most samples first; the charts
    // of one bash with a single sample come last, not between them.
    QList<HistogramEntry> entries = byKey.values();
    std::stable_sort(entries.begin(), entries.end(),
                     [&](const HistogramEntry &a, const HistogramEntry &b) {
                         if (a.key.isEmpty() != b.key.isEmpty())
                             return a.key.isEmpty();
                         if (a.key.isEmpty())
                             return false; // by probe, as the map holds them
                         const quint64 na = sessionCounts.value({a.probeId, a.key});
                         const quint64 nb = sessionCounts.value({b.probeId, b.key});
                         return na > nb;
                     });
    return entries;
}

QString HistogramView::bucketText(const Log2Histogram &histogram, int slot)
{
    const quint64 total = histogram.count();
    const quint64 n = histogram.slot(slot);
    return tr("%1 %2: %3 (%4 %)")
        .arg(Log2Histogram::slotLabel(slot), histogramAxisUnit(histogram.unit()))
        .arg(QLocale().toString(n),
             QLocale().toString(total ? 100.0 * double(n) / double(total) : 0.0, 'f', 1));
}

QString HistogramView::summaryText(const Log2Histogram &histogram)
{
    if (histogram.isEmpty())
        return tr("no samples in the visible range");
    // A log2 histogram only knows which bucket a percentile falls in: the bucket it is, not a
    // made-up value inside it ("p50 ≈ 6 Kbytes" of one 4 KiB request).
    const QLocale locale;
    const QString unit = histogramUnitSymbol(histogram.unit());
    auto range = [&](double fraction) {
        const int slot = percentileSlot(histogram, fraction);
        const QString low = locale.toString(Log2Histogram::slotLow(slot));
        const QString high = locale.toString(Log2Histogram::slotHigh(slot));
        const QString text = low == high ? low : tr("%1–%2").arg(low, high);
        return unit.isEmpty() ? text : tr("%1 %2").arg(text, unit);
    };
    // English has no translation file: its singular is a string of its own.
    const int n = int(std::min<quint64>(histogram.count(), INT_MAX));
    return (n == 1 ? tr("p50 in %1 · p99 in %2 (darker bars) · 1 sample")
                   : tr("p50 in %1 · p99 in %2 (darker bars) · %Ln samples", nullptr, n))
        .arg(range(0.5), range(0.99));
}

void HistogramView::setMode(HistogramMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    const QSignalBlocker block(m_modeBox);
    m_modeBox->setCurrentIndex(mode == HistogramMode::Interval ? 1 : 0);
    refresh();
}

QChartView *HistogramView::chartView(const QString &probeId, const QString &key) const
{
    return m_charts.value(chartKey(probeId, key)).view;
}

QList<QChartView *> HistogramView::chartViews() const
{
    QList<QChartView *> views;
    for (const HistogramEntry &e : m_entries)
        views << chartView(e.probeId, e.key);
    return views;
}

void HistogramView::refresh()
{
    m_entries = compute(m_session->data().histograms, m_state->startNs(), m_state->endNs(), m_mode);
    // Keys that vanished from the range lose their chart; the others are updated in place so
    // zooming does not rebuild every chart.
    QSet<QString> wanted;
    for (const HistogramEntry &e : m_entries)
        wanted.insert(chartKey(e.probeId, e.key));
    for (auto it = m_charts.begin(); it != m_charts.end();) {
        if (!wanted.contains(it.key())) {
            delete it->view;
            it = m_charts.erase(it);
        } else {
            ++it;
        }
    }
    const int columns = m_entries.size() > 1 ? 2 : 1;
    for (int i = 0; i < m_entries.size(); ++i) {
        const HistogramEntry &e = m_entries.at(i);
        auto it = m_charts.find(chartKey(e.probeId, e.key));
        if (it == m_charts.end())
            it = m_charts.insert(chartKey(e.probeId, e.key), createChart(e));
        fillChart(*it, e);
        m_grid->addWidget(it->view, i / columns, i % columns);
    }
    m_placeholder->setVisible(m_entries.isEmpty());
}

HistogramView::Chart HistogramView::createChart(const HistogramEntry &entry)
{
    Chart c;
    auto *chart = new QChart;
    c.set = new QBarSet(tr("count"));
    auto *series = new QBarSeries;
    series->append(c.set);
    series->setBarWidth(0.9);
    chart->addSeries(series);
    c.categories = new QBarCategoryAxis;
    // BCC's bucket labels ("4 -> 7") under what they count in: "KiB", not bitesize's "Kbytes".
    c.categories->setTitleText(histogramAxisUnit(entry.histogram.unit()));
    // biolatency's labels are long ("1024 -> 2047"); rotated they fit, elided they say nothing.
    // Upright: Qt Charts hides a bar's label that is wider than the bar at the chart's edge,
    // and a label at -60 degrees was, so the last bucket had none.
    c.categories->setLabelsAngle(-90);
    c.categories->setTruncateLabels(false);
    c.values = new QValueAxis;
    // Whole numbers through the localized "f" path: Qt 6.4 draws no label for "%d" once the
    // chart localizes numbers.
    c.values->setLabelFormat(QStringLiteral("%.0f"));
    c.values->setTitleText(tr("count"));
    c.logValues = new QLogValueAxis(chart);
    c.logValues->setBase(10);
    c.logValues->setLabelFormat(QStringLiteral("%.0f"));
    c.logValues->setMinorTickCount(-1);
    c.logValues->setTitleText(tr("count (log)"));
    chart->addAxis(c.categories, Qt::AlignBottom);
    chart->addAxis(c.values, Qt::AlignLeft);
    series->attachAxis(c.categories);
    series->attachAxis(c.values);
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    applyPalette(chart);
    c.set->setColor(palette().color(QPalette::Highlight));
    c.set->setBorderColor(palette().color(QPalette::Highlight).darker(120));
    c.set->setSelectedColor(palette().color(QPalette::Highlight).darker(160));

    c.view = new QChartView(chart);
    c.view->setRenderHint(QPainter::Antialiasing);
    c.view->setMinimumSize(MinimumChartWidth, MinimumChartHeight);
    const QString probeId = entry.probeId;
    const QString key = entry.key;
    c.view->setAccessibleName(tr("Histogram %1 %2").arg(probeId, key));
    connect(c.set, &QBarSet::hovered, this, [this, probeId, key](bool status, int index) {
        if (!status) {
            QToolTip::hideText();
            return;
        }
        for (const HistogramEntry &e : std::as_const(m_entries)) {
            if (e.probeId == probeId && e.key == key && index >= 0 &&
                index < Log2Histogram::MaxSlots) {
                m_hoverText = bucketText(e.histogram, index);
                QToolTip::showText(QCursor::pos(), m_hoverText);
            }
        }
    });
    return c;
}

void HistogramView::fillChart(Chart &c, const HistogramEntry &entry)
{
    const Log2Histogram &h = entry.histogram;
    const int used = std::max(h.usedSlots(), 1);
    QStringList labels;
    QList<qreal> values;
    quint64 maxCount = 0;
    for (int s = 0; s < used; ++s) {
        labels << Log2Histogram::slotLabel(s);
        values << qreal(h.slot(s));
        maxCount = std::max(maxCount, h.slot(s));
    }
    if (c.categories->categories() != labels) {
        c.categories->clear();
        c.categories->append(labels);
        // The rotated bucket labels take their length in height, and Qt Charts gives a
        // horizontal axis at most 40 % of the chart's height (cartesianchartlayout.cpp's
        // maxAxisPortion), squeezing the rest: a chart kept at its minimum height (four charts
        // in a small window, or 24 buckets of block latency) drew "131072 -> 262143" over the
        // unit's title and cut it at the bottom. The grid scrolls instead.
        const QFontMetrics labelMetrics(c.categories->labelsFont());
        int longest = 0;
        for (const QString &label : std::as_const(labels))
            longest = std::max(longest, labelMetrics.horizontalAdvance(label));
        const QFontMetrics titleMetrics(c.view->chart()->titleFont());
        const QFontMetrics axisTitleMetrics(c.categories->titleFont());
        const int axis = longest + axisTitleMetrics.lineSpacing() + 16;
        c.view->setMinimumHeight(
            std::max(MinimumChartHeight, 2 * titleMetrics.lineSpacing() + 24 + int(axis / 0.4)));
        // Side by side the upright labels need a line each: 40 buckets in a 360 px chart
        // were written over each other. The count axis and margins take about 90 px.
        c.view->setMinimumWidth(
            std::max(MinimumChartWidth, 90 + int(labels.size()) * (labelMetrics.height() + 2)));
    }
    if (c.set->count() == values.size()) {
        for (int s = 0; s < values.size(); ++s)
            c.set->replace(s, values.at(s));
    } else {
        c.set->remove(0, c.set->count());
        c.set->append(values);
    }
    // The buckets holding p50 and p99 stand out, so the title's numbers have a place.
    c.set->deselectAllBars();
    if (!h.isEmpty()) {
        c.set->selectBars({percentileSlot(h, 0.5), percentileSlot(h, 0.99)});
    }
    // Counts are whole: ticks a step of 1, 2 or 5 × 10^k apart, at most 6 of them, so they
    // never read "0 2 5 7 10" as Qt's nice numbers (2.5 apart) printed with %d did.
    const quint64 top = std::max<quint64>(1, maxCount + maxCount / 10);
    quint64 step = 1;
    for (quint64 magnitude = 1; top / step > 5; magnitude *= 10) {
        for (const quint64 m : {1, 2, 5}) {
            step = m * magnitude;
            if (top / step <= 5)
                break;
        }
    }
    const quint64 intervals = (top + step - 1) / step;
    c.values->setRange(0, qreal(intervals * step));
    c.values->setTickCount(int(intervals) + 1);
    // Below 1 so a bucket of one request has a bar; up to the next power of ten above the top.
    c.logValues->setRange(0.5, std::pow(10.0, std::ceil(std::log10(double(top) + 1.0))));
    QAbstractAxis *shown = m_log ? static_cast<QAbstractAxis *>(c.logValues) : c.values;
    QAbstractAxis *hidden = m_log ? static_cast<QAbstractAxis *>(c.values) : c.logValues;
    QChart *chart = c.view->chart();
    if (!chart->axes(Qt::Vertical).contains(shown)) {
        QAbstractSeries *series = chart->series().first();
        chart->removeAxis(hidden);
        hidden->setParent(chart); // removeAxis hands it back; the chart keeps owning it
        chart->addAxis(shown, Qt::AlignLeft);
        series->attachAxis(shown);
        applyPalette(chart);
    }
    const QString name = entry.key.isEmpty()
                             ? entry.probeId
                             : QStringLiteral("%1 — %2").arg(entry.probeId, entry.key);
    c.view->chart()->setTitle(
        QStringLiteral("<b>%1</b><br>%2").arg(name.toHtmlEscaped(), summaryText(h)));
}

void HistogramView::setLogScale(bool on)
{
    if (on == m_log)
        return;
    m_log = on;
    const QSignalBlocker block(m_logBox);
    m_logBox->setChecked(on);
    refresh();
}

void HistogramView::applyPalette(QChart *chart) const
{
    styleChart(chart, palette());
}

void HistogramView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        for (Chart &c : m_charts) {
            applyPalette(c.view->chart());
            c.set->setColor(palette().color(QPalette::Highlight));
            c.set->setSelectedColor(palette().color(QPalette::Highlight).darker(160));
        }
    }
    QWidget::changeEvent(event);
}

} // namespace bpflens
