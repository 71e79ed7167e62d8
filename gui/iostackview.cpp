#include "gui/iostackview.h"

#include "gui/chartstyle.h"
#include "gui/colors.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QEvent>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLocale>
#include <QMap>
#include <QScrollArea>
#include <QStackedBarSeries>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace bpflens {

namespace {

const QString ProbeId = QStringLiteral("iostack");
const QString Unattributed = QStringLiteral("unattributed");
// More intervals than this are merged into as many equal bins: a bar narrower than a few
// pixels cannot be hovered or read.
constexpr int MaxTimeBars = 60;

// Fixed colours per layer, so a layer keeps its colour in both charts and across sessions.
QColor layerColor(int i)
{
    static const int order[] = {0, 4, 5, 1, 2}; // blue, green, yellow, orange, red
    return colors::series(order[i % 5]);
}

struct Unit
{
    double divisor;
    QString name;
};

Unit unitFor(double maxNs)
{
    if (maxNs >= 1e9)
        return {1e9, IoStackView::tr("s")};
    if (maxNs >= 1e6)
        return {1e6, IoStackView::tr("ms")};
    if (maxNs >= 1e3)
        return {1e3, IoStackView::tr("µs")};
    return {1, IoStackView::tr("ns")};
}

bool parseName(const QString &name, QString *op, QString *layer, QString *metric)
{
    const QStringList parts = name.split(QLatin1Char('/'));
    if (parts.size() != 3)
        return false;
    *op = parts[0];
    *layer = parts[1];
    *metric = parts[2];
    return IoStackView::operations().contains(*op) && IoStackView::layers().contains(*layer);
}

void addMetric(IoStackCell *cell, const QString &metric, double value)
{
    const quint64 v = value > 0 ? quint64(value) : 0;
    if (metric == QLatin1String("exclusive_ns"))
        cell->exclusiveNs += v;
    else if (metric == QLatin1String("total_ns"))
        cell->totalNs += v;
    else if (metric == QLatin1String("count"))
        cell->count += v;
}

QString cellKey(const QString &op, const QString &layer)
{
    return op + QLatin1Char('/') + layer;
}

void clearChart(QChart *chart)
{
    chart->removeAllSeries();
    for (QAbstractAxis *axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

} // namespace

IoStackView::IoStackView(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
{
    setAccessibleName(tr("I/O stack"));
    // The two charts scroll where the window is smaller than both together (under a real
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
    m_placeholder = new QLabel(tr("No I/O stack data in this session: record the I/O stack "
                                  "breakdown (iostack) probe to see where read, write, open and "
                                  "fsync spend their time."),
                               this);
    m_placeholder->setWordWrap(true);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setEnabled(false);
    layout->addWidget(m_placeholder);

    m_summary = new QChartView(new QChart, this);
    m_summary->setAccessibleName(tr("Exclusive time per layer and operation"));
    m_summary->setRenderHint(QPainter::Antialiasing);
    m_summary->setMinimumHeight(240);
    layout->addWidget(m_summary, 1);

    auto *opRow = new QWidget(this);
    auto *bar = new QHBoxLayout(opRow);
    bar->setContentsMargins(0, 0, 0, 0);
    auto *opLabel = new QLabel(tr("&Operation over time:"), opRow);
    m_opBox = new QComboBox(opRow);
    m_opBox->setAccessibleName(tr("Operation shown over time"));
    for (const QString &op : operations())
        m_opBox->addItem(operationTitle(op), op);
    opLabel->setBuddy(m_opBox);
    bar->addWidget(opLabel);
    bar->addWidget(m_opBox);
    bar->addStretch(1);
    layout->addWidget(opRow);

    m_time = new QChartView(new QChart, this);
    m_time->setAccessibleName(tr("Exclusive time per layer over time"));
    m_time->setRenderHint(QPainter::Antialiasing);
    m_time->setMinimumHeight(240);
    layout->addWidget(m_time, 1);

    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    layout->addWidget(m_note);

    connect(m_opBox, &QComboBox::currentIndexChanged, this, &IoStackView::fillTime);
    connect(m_state, &ViewState::rangeChanged, this, &IoStackView::refresh);
    connect(m_session, &SessionModel::reset, this, &IoStackView::refresh);
    // Live batches arrive several times a second; redrawing two charts for each is wasted.
    auto *throttle = new QTimer(this);
    throttle->setSingleShot(true);
    throttle->setInterval(250);
    connect(throttle, &QTimer::timeout, this, &IoStackView::refresh);
    connect(m_session, &SessionModel::appended, throttle, [throttle] {
        if (!throttle->isActive())
            throttle->start();
    });
    refresh();
}

const QStringList &IoStackView::operations()
{
    static const QStringList ops = {QStringLiteral("read"), QStringLiteral("write"),
                                    QStringLiteral("open"), QStringLiteral("fsync"), Unattributed};
    return ops;
}

const QStringList &IoStackView::layers()
{
    static const QStringList l = {QStringLiteral("syscall"), QStringLiteral("vfs"),
                                  QStringLiteral("fs"), QStringLiteral("block-queue"),
                                  QStringLiteral("block-device")};
    return l;
}

QString IoStackView::layerTitle(const QString &layer)
{
    if (layer == QLatin1String("syscall"))
        return tr("Syscall");
    if (layer == QLatin1String("vfs"))
        return tr("VFS");
    if (layer == QLatin1String("fs"))
        return tr("File system");
    if (layer == QLatin1String("block-queue"))
        return tr("Block queue");
    if (layer == QLatin1String("block-device"))
        return tr("Block device");
    return layer;
}

QString IoStackView::operationTitle(const QString &op)
{
    if (op == Unattributed)
        return tr("unattributed block I/O");
    return op; // the syscall family's name, as in strace and the probe's counters
}

quint64 IoStackView::shownNs(const QString &op, const IoStackCell &c)
{
    // No syscall waited for unattributed requests, so they have no exclusive share: their
    // device time is what they cost.
    return op == Unattributed ? c.totalNs : c.exclusiveNs;
}

IoStackCell IoStackView::cell(const QString &op, const QString &layer) const
{
    return m_cells.value(cellKey(op, layer));
}

QHorizontalStackedBarSeries *IoStackView::summarySeries() const
{
    const QList<QAbstractSeries *> s = m_summary->chart()->series();
    return s.isEmpty() ? nullptr : qobject_cast<QHorizontalStackedBarSeries *>(s.first());
}

QStackedBarSeries *IoStackView::timeSeries() const
{
    const QList<QAbstractSeries *> s = m_time->chart()->series();
    return s.isEmpty() ? nullptr : qobject_cast<QStackedBarSeries *>(s.first());
}

QString IoStackView::segmentText(const QString &op, const QString &layer) const
{
    if (m_unmeasured.contains(layer))
        return tr("%1 · %2: not measured on the recording kernel (its time is counted in the "
                  "layer above)")
            .arg(operationTitle(op), layerTitle(layer));
    quint64 sum = 0;
    for (const QString &l : layers())
        sum += shownNs(op, cell(op, l));
    const IoStackCell c = cell(op, layer);
    const quint64 ns = shownNs(op, c);
    const double share = sum ? 100.0 * double(ns) / double(sum) : 0.0;
    return tr("%1 · %2: %3 exclusive (%4 % of %5), %n call(s)", nullptr, int(c.count))
        .arg(operationTitle(op), layerTitle(layer), EventTableModel::formatDuration(ns))
        .arg(QLocale().toString(share, 'f', 1), EventTableModel::formatDuration(sum));
}

void IoStackView::refresh()
{
    const quint64 start = m_state->startNs();
    const quint64 end = m_state->endNs();
    m_cells.clear();
    QSet<QString> seenLayers;
    m_hasData = false;
    for (const CounterSample &c : m_session->counters()) {
        if (c.probeId != ProbeId)
            continue;
        QString op, layer, metric;
        if (!parseName(c.name, &op, &layer, &metric))
            continue; // a newer probe's cell: ignore rather than guess
        m_hasData = true;
        seenLayers.insert(layer);
        if (c.timeNs < start || c.timeNs >= end)
            continue;
        addMetric(&m_cells[cellKey(op, layer)], metric, c.value);
    }
    m_unmeasured.clear();
    for (const QString &layer : layers()) {
        // The queue layer exists only with the queued option; its absence is not the kernel's.
        if (!seenLayers.contains(layer) && layer != QLatin1String("block-queue"))
            m_unmeasured << layer;
    }
    if (!m_hasData)
        m_unmeasured.clear();

    m_placeholder->setVisible(!m_hasData);
    m_summary->setVisible(m_hasData);
    m_time->setVisible(m_hasData);
    m_opBox->parentWidget()->setVisible(m_hasData);
    QStringList notes;
    if (!m_unmeasured.isEmpty()) {
        QStringList names;
        for (const QString &l : std::as_const(m_unmeasured))
            names << layerTitle(l);
        notes << tr("Not measured on the recording kernel: %1. Their time is counted in the "
                    "layer above (they need fentry or kprobes).")
                     .arg(names.join(QStringLiteral(", ")));
    }
    if (m_hasData && !seenLayers.contains(QStringLiteral("block-queue")))
        notes << tr("Block queue time is part of the layer above: record with the \"Include "
                    "queue time\" option to see it separately.");
    m_note->setText(notes.join(QLatin1Char('\n')));
    m_note->setVisible(!notes.isEmpty());
    fillSummary();
    fillTime();
}

void IoStackView::fillSummary()
{
    QChart *chart = m_summary->chart();
    clearChart(chart);
    if (!m_hasData)
        return;
    double maxNs = 1;
    for (const QString &op : operations()) {
        quint64 sum = 0;
        for (const QString &l : layers())
            sum += shownNs(op, cell(op, l));
        maxNs = std::max(maxNs, double(sum));
    }
    const Unit unit = unitFor(maxNs);
    auto *series = new QHorizontalStackedBarSeries;
    for (int i = 0; i < layers().size(); ++i) {
        const QString layer = layers().at(i);
        const QString title = m_unmeasured.contains(layer)
                                  ? tr("%1 (not measured)").arg(layerTitle(layer))
                                  : layerTitle(layer);
        auto *set = new QBarSet(title);
        set->setProperty("layer", layer);
        set->setColor(layerColor(i));
        set->setBorderColor(layerColor(i).darker(130));
        for (const QString &op : operations())
            set->append(double(shownNs(op, cell(op, layer))) / unit.divisor);
        series->append(set);
    }
    series->setBarWidth(0.6);
    connect(series, &QHorizontalStackedBarSeries::hovered, this,
            [this](bool status, int index, QBarSet *set) {
                if (!status) {
                    QToolTip::hideText();
                    return;
                }
                m_hoverText =
                    segmentText(operations().value(index), set->property("layer").toString());
                QToolTip::showText(QCursor::pos(), m_hoverText, m_summary);
            });
    chart->addSeries(series);
    auto *ops = new QBarCategoryAxis;
    for (const QString &op : operations())
        ops->append(operationTitle(op));
    auto *values = new QValueAxis;
    values->setTitleText(tr("exclusive time (%1)").arg(unit.name));
    values->setRange(0, maxNs / unit.divisor * 1.05);
    values->applyNiceNumbers();
    values->setLabelFormat(QStringLiteral("%.3g"));
    values->setTruncateLabels(false);
    chart->addAxis(ops, Qt::AlignLeft);
    chart->addAxis(values, Qt::AlignBottom);
    series->attachAxis(ops);
    series->attachAxis(values);
    chart->setTitle(tr("Exclusive time per layer, visible range"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    styleChart(chart, palette());
}

void IoStackView::fillTime()
{
    QChart *chart = m_time->chart();
    clearChart(chart);
    if (!m_hasData)
        return;
    const QString op = m_opBox->currentData().toString();
    const quint64 start = m_state->startNs();
    const quint64 end = m_state->endNs();
    const quint64 origin = m_session->info().startMonotonicNs;

    // Interval end -> layer -> ns.
    QMap<quint64, QHash<QString, quint64>> byTime;
    const QString metric =
        op == Unattributed ? QStringLiteral("total_ns") : QStringLiteral("exclusive_ns");
    for (const CounterSample &c : m_session->counters()) {
        if (c.probeId != ProbeId || c.timeNs < start || c.timeNs >= end)
            continue;
        QString sOp, layer, sMetric;
        if (!parseName(c.name, &sOp, &layer, &sMetric) || sOp != op || sMetric != metric)
            continue;
        byTime[c.timeNs][layer] += c.value > 0 ? quint64(c.value) : 0;
    }
    if (byTime.isEmpty()) {
        chart->setTitle(tr("%1: no samples in the visible range").arg(operationTitle(op)));
        styleChart(chart, palette());
        return;
    }
    // Bins: each interval its own bar, or equal time bins when there are too many.
    QList<quint64> binEnds;
    QList<QHash<QString, quint64>> bins;
    if (byTime.size() <= MaxTimeBars) {
        for (auto it = byTime.cbegin(); it != byTime.cend(); ++it) {
            binEnds << it.key();
            bins << it.value();
        }
    } else {
        const quint64 first = byTime.firstKey(), last = byTime.lastKey();
        const quint64 width = std::max<quint64>(1, (last - first) / MaxTimeBars + 1);
        for (int i = 0; i < MaxTimeBars; ++i) {
            binEnds << first + quint64(i + 1) * width;
            bins << QHash<QString, quint64>();
        }
        for (auto it = byTime.cbegin(); it != byTime.cend(); ++it) {
            const int i = int(std::min<quint64>((it.key() - first) / width, MaxTimeBars - 1));
            for (auto l = it.value().cbegin(); l != it.value().cend(); ++l)
                bins[i][l.key()] += l.value();
        }
    }
    double maxNs = 1;
    for (const auto &bin : std::as_const(bins)) {
        quint64 sum = 0;
        for (quint64 v : bin)
            sum += v;
        maxNs = std::max(maxNs, double(sum));
    }
    const Unit unit = unitFor(maxNs);
    auto *series = new QStackedBarSeries;
    for (int i = 0; i < layers().size(); ++i) {
        const QString layer = layers().at(i);
        if (m_unmeasured.contains(layer))
            continue;
        auto *set = new QBarSet(layerTitle(layer));
        set->setProperty("layer", layer);
        set->setColor(layerColor(i));
        set->setBorderColor(layerColor(i).darker(130));
        for (const auto &bin : std::as_const(bins))
            set->append(double(bin.value(layer)) / unit.divisor);
        series->append(set);
    }
    series->setBarWidth(0.8);
    connect(
        series, &QStackedBarSeries::hovered, this,
        [this, bins, binEnds, origin, op](bool status, int index, QBarSet *set) {
            if (!status) {
                QToolTip::hideText();
                return;
            }
            const QString layer = set->property("layer").toString();
            quint64 sum = 0;
            for (quint64 v : bins.value(index))
                sum += v;
            const quint64 ns = bins.value(index).value(layer);
            m_hoverText =
                tr("%1 · %2 until %3 s: %4 (%5 %)")
                    .arg(operationTitle(op), layerTitle(layer))
                    .arg(QLocale().toString(double(qint64(binEnds.value(index) - origin)) / 1e9,
                                            'f', 2),
                         EventTableModel::formatDuration(ns),
                         QLocale().toString(sum ? 100.0 * double(ns) / double(sum) : 0.0, 'f', 1));
            QToolTip::showText(QCursor::pos(), m_hoverText, m_time);
        });
    chart->addSeries(series);
    auto *times = new QBarCategoryAxis;
    const int labelEvery = std::max(1, int(binEnds.size()) / 12);
    for (int i = 0; i < binEnds.size(); ++i) {
        // Categories must be unique; unlabelled ones are padded with spaces.
        const QString label =
            i % labelEvery == 0
                ? QLocale().toString(double(qint64(binEnds[i] - origin)) / 1e9, 'f', 1)
                : QString(i, QLatin1Char(' '));
        times->append(label);
    }
    times->setTitleText(tr("seconds (interval end)"));
    times->setTruncateLabels(false);
    auto *values = new QValueAxis;
    values->setTitleText(tr("exclusive time (%1)").arg(unit.name));
    values->setRange(0, maxNs / unit.divisor * 1.05);
    values->applyNiceNumbers();
    values->setLabelFormat(QStringLiteral("%.3g"));
    values->setTruncateLabels(false);
    chart->addAxis(times, Qt::AlignBottom);
    chart->addAxis(values, Qt::AlignLeft);
    series->attachAxis(times);
    series->attachAxis(values);
    chart->setTitle(tr("%1: exclusive time per layer over time").arg(operationTitle(op)));
    chart->legend()->setAlignment(Qt::AlignBottom);
    styleChart(chart, palette());
}

void IoStackView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        styleChart(m_summary->chart(), palette());
        styleChart(m_time->chart(), palette());
    }
}

} // namespace bpflens
