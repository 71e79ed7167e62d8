#include "countersview.h"

#include "chartstyle.h"
#include "colors.h"
#include "sessionmodel.h"
#include "viewstate.h"

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QMap>
#include <QScrollArea>
#include <QSet>
#include <QVBoxLayout>
#include <QValueAxis>

#include <cmath>

namespace bpflens {

namespace {

// The ratio is a share, not a count: it would flatten every count line on a shared axis.
const QString RatioName = QStringLiteral("hitRatio");

// The uprobe probe's counts per key ("calls", "arg1=42", "\"text\""), not its loss counters
// (keysFull, unreadableStrings), which the Summary names.
bool isUprobeKeyCounter(const QString &name)
{
    return name == QLatin1String("calls") || name.startsWith(QLatin1String("arg")) ||
           name.startsWith(QLatin1Char('"'));
}

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

// tpcount's hits per key ("hits", "next.pid=12", "comm=dd id=1"), not its loss counters.
bool isTpCountKeyCounter(const QString &name)
{
    return name != QLatin1String("keysFull") && name != QLatin1String("unreadableKeys");
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
    scroll->setWidget(content);
    outer->addWidget(scroll);
    m_placeholder = new QLabel(
        tr("No counter samples in this session: record the Page cache (cachestat) probe to see "
           "hits, misses and dirtied pages over time, TCP retransmits (tcpretrans) for "
           "retransmits per connection, TCP connects (tcpconnect) for connects per "
           "destination, User function calls (uprobe) for calls per key, or Tracepoint counts "
           "(tpcount) for hits per key."),
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
    m_retransmits = new QChartView(new QChart, this);
    m_retransmits->setAccessibleName(tr("TCP retransmits per connection"));
    m_retransmits->setRenderHint(QPainter::Antialiasing);
    m_connects = new QChartView(new QChart, this);
    m_connects->setAccessibleName(tr("TCP connects per destination"));
    m_connects->setRenderHint(QPainter::Antialiasing);
    m_calls = new QChartView(new QChart, this);
    m_calls->setAccessibleName(tr("User function calls per key"));
    m_calls->setRenderHint(QPainter::Antialiasing);
    m_hits = new QChartView(new QChart, this);
    m_hits->setAccessibleName(tr("Tracepoint hits per key"));
    m_hits->setRenderHint(QPainter::Antialiasing);
    // Tall enough to read: title, legend and both axes' labels and titles take about 150 px
    // of a chart, which at 170 px left a plot 20 px high with its axis titles cut to "…". They
    // scroll, so this does not make the window taller. The per-endpoint charts side by side.
    m_counts->setMinimumHeight(320);
    m_ratio->setMinimumHeight(250);
    m_retransmits->setMinimumHeight(300);
    m_connects->setMinimumHeight(300);
    m_calls->setMinimumHeight(300);
    m_hits->setMinimumHeight(300);
    layout->addWidget(m_counts, 3);
    layout->addWidget(m_ratio, 2);
    auto *endpoints = new QHBoxLayout;
    endpoints->addWidget(m_retransmits);
    endpoints->addWidget(m_connects);
    endpoints->addWidget(m_calls);
    endpoints->addWidget(m_hits);
    layout->addLayout(endpoints, 3);
    connect(m_state, &ViewState::rangeChanged, this, &CountersView::refresh);
    connect(m_session, &SessionModel::reset, this, &CountersView::refresh);
    connect(m_session, &SessionModel::appended, this, &CountersView::refresh);
    refresh();
}

QLineSeries *CountersView::series(const QString &name) const
{
    for (QChartView *view : {m_counts, m_ratio, m_retransmits, m_connects, m_calls, m_hits}) {
        for (QAbstractSeries *s : view->chart()->series()) {
            if (s->name() == name)
                return qobject_cast<QLineSeries *>(s);
        }
    }
    return nullptr;
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
    QMap<QString, QList<QPointF>> retransmits;
    QHash<QString, double> retransmitTotals;
    QMap<QString, QList<QPointF>> connects;
    QHash<QString, double> connectTotals;
    QMap<QString, QList<QPointF>> calls;
    QHash<QString, double> callTotals;
    QMap<QString, QList<QPointF>> hits;
    QHash<QString, double> hitTotals;
    for (const CounterSample &c : m_session->counters()) {
        // The page cache's and the per-connection retransmits only: iostack's layers have their
        // own view, and the loss counters of other probes (block's merged/unattributed,
        // offcpu's stacksLost...) are not such numbers; the Summary names them.
        if (c.timeNs < start || c.timeNs >= end)
            continue;
        const double x = double(qint64(c.timeNs - origin)) / 1e9;
        if (c.probeId == QLatin1String("cachestat")) {
            if (c.name == RatioName)
                ratio[c.name].append(QPointF(x, c.value * 100));
            else
                pages[c.name].append(QPointF(x, c.value));
        } else if (c.probeId == QLatin1String("tcpretrans")) {
            retransmits[c.name].append(QPointF(x, c.value));
            retransmitTotals[c.name] += c.value;
        } else if (c.probeId == QLatin1String("tcpconnect")) {
            connects[c.name].append(QPointF(x, c.value));
            connectTotals[c.name] += c.value;
        } else if (c.probeId == QLatin1String("uprobe") && isUprobeKeyCounter(c.name)) {
            calls[c.name].append(QPointF(x, c.value));
            callTotals[c.name] += c.value;
        } else if (c.probeId == QLatin1String("tpcount") && isTpCountKeyCounter(c.name)) {
            hits[c.name].append(QPointF(x, c.value));
            hitTotals[c.name] += c.value;
        }
    }
    // The connections (destinations) with the most in the range get a line each; the rest are
    // summed into one, per time.
    keepBusiest(retransmits, retransmitTotals, otherConnectionsName());
    keepBusiest(connects, connectTotals, otherDestinationsName());
    keepBusiest(calls, callTotals, otherKeysName());
    keepBusiest(hits, hitTotals, otherKeysName());
    for (auto *lines : {&retransmits, &connects, &calls, &hits})
        fillQuietIntervals(*lines);
    const bool empty = pages.isEmpty() && ratio.isEmpty() && retransmits.isEmpty() &&
                       connects.isEmpty() && calls.isEmpty() && hits.isEmpty();
    m_placeholder->setVisible(empty);
    m_counts->setVisible(!pages.isEmpty());
    m_ratio->setVisible(!ratio.isEmpty());
    m_retransmits->setVisible(!retransmits.isEmpty());
    m_connects->setVisible(!connects.isEmpty());
    m_calls->setVisible(!calls.isEmpty());
    m_hits->setVisible(!hits.isEmpty());
    fill(m_counts, pages, tr("Page cache"), tr("pages per interval"), false);
    fill(m_ratio, ratio, tr("Hit ratio"), tr("hit ratio %"), true);
    fill(m_retransmits, retransmits, tr("TCP retransmits per connection"),
         tr("retransmits per interval"), false);
    fill(m_connects, connects, tr("TCP connects per destination"), tr("connects per interval"),
         false);
    fill(m_calls, calls, tr("User function calls per key"), tr("calls per interval"), false);
    fill(m_hits, hits, tr("Tracepoint hits per key"), tr("hits per interval"), false);
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
    double maxY = 1, minX = 0, maxX = 1;
    bool first = true;
    for (auto it = lines.cbegin(); it != lines.cend(); ++it) {
        auto *series = new QLineSeries;
        series->setName(it.key());
        series->append(it.value());
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        for (const QPointF &p : it.value()) {
            maxY = std::max(maxY, p.y());
            minX = first ? p.x() : std::min(minX, p.x());
            maxX = first ? p.x() : std::max(maxX, p.x());
            first = false;
        }
    }
    x->setRange(minX, std::max(maxX, minX + 1e-3));
    // Ticks at whole multiples of 1, 2 or 5 × 10^k seconds, about six of them, with as many
    // decimals as the step needs: a 0.5 s .. 4 s range read "0.50 1.38 2.25" with five even
    // ticks.
    const double span = std::max(maxX - minX, 1e-3);
    const double magnitude = std::pow(10.0, std::floor(std::log10(span / 6)));
    double step = 10 * magnitude;
    for (double m : {1.0, 2.0, 5.0}) {
        if (m * magnitude >= span / 6) {
            step = m * magnitude;
            break;
        }
    }
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(0);
    x->setTickInterval(step);
    const int decimals = std::max(0, int(-std::floor(std::log10(step) + 1e-9)));
    x->setLabelFormat(QStringLiteral("%.") + QString::number(decimals) + QStringLiteral("f"));
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
    // Long names (a connection's two endpoints) read in full one per line on the right, and
    // in a tool tip where even that is too narrow.
    chart->legend()->setAlignment(view == m_retransmits || view == m_connects || view == m_calls ||
                                          view == m_hits
                                      ? Qt::AlignRight
                                      : Qt::AlignTop);
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
