#include "gui/comparepage.h"

#include "core/units.h"
#include "gui/chartstyle.h"
#include "gui/colors.h"
#include "gui/flamegraphview.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/topmodel.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QCursor>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLegend>
#include <QLocale>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QToolTip>
#include <QTreeView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace bpflens {

namespace {

QLabel *placeholder(const QString &text, QWidget *parent)
{
    auto *l = new QLabel(text, parent);
    l->setAlignment(Qt::AlignCenter);
    l->setWordWrap(true);
    l->setForegroundRole(QPalette::PlaceholderText);
    l->setMargin(24);
    return l;
}

QString percentText(double fraction)
{
    return QLocale().toString(fraction * 100.0, 'f', 1) + QLatin1Char('%');
}

} // namespace

ComparePage::ComparePage(const SessionModel &baseline, const QString &baselineName,
                         SessionData comparison, const QString &comparisonName,
                         std::shared_ptr<const SessionDiff> diff, QWidget *parent)
    : QWidget(parent)
    , m_nameA(baselineName)
    , m_nameB(comparisonName)
    , m_comparison(std::make_unique<SessionModel>())
    , m_diff(std::move(diff))
    , m_percentiles(new PercentileDiffModel(this))
    , m_events(new EventDiffModel(this))
{
    m_comparison->setSession(std::move(comparison));
    if (!m_diff)
        m_diff = std::make_shared<const SessionDiff>(
            diffSessions(baseline.data(), m_comparison->data()));
    m_percentiles->setDiff(m_diff);
    m_events->setDiff(m_diff);

    auto *layout = new QVBoxLayout(this);
    auto *header = new QLabel(this);
    header->setObjectName(QStringLiteral("compareHeader"));
    header->setTextFormat(Qt::RichText);
    header->setWordWrap(true);
    header->setText(tr("Baseline <b>%1</b> against comparison <b>%2</b>: what changed from the "
                       "first to the second.")
                        .arg(m_nameA.toHtmlEscaped(), m_nameB.toHtmlEscaped()));
    layout->addWidget(header);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(createHistogramTab(), tr("&Histograms (%1)").arg(m_diff->histograms.size()));
    m_tabs->addTab(createEventTab(), tr("&Events"));
    m_tabs->addTab(createProfileTab(baseline), tr("CPU &Profile"));
    layout->addWidget(m_tabs, 1);
}

ComparePage::~ComparePage() = default;

QWidget *ComparePage::createHistogramTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    auto *bar = new QHBoxLayout;
    m_rawCounts = new QCheckBox(tr("Raw &counts"), tab);
    m_rawCounts->setToolTip(tr("Where the sessions hold different numbers of samples, the charts "
                               "show each bucket's share of its session; tick to show counts."));
    connect(m_rawCounts, &QCheckBox::toggled, this, &ComparePage::setRawCounts);
    bar->addWidget(m_rawCounts);
    QStringList notes;
    if (!m_diff->onlyInA.isEmpty())
        notes << tr("only in the baseline: %1").arg(m_diff->onlyInA.join(QStringLiteral(", ")));
    if (!m_diff->onlyInB.isEmpty())
        notes << tr("only in the comparison: %1").arg(m_diff->onlyInB.join(QStringLiteral(", ")));
    if (!m_diff->unitMismatch.isEmpty())
        notes << tr("not comparable (units differ): %1")
                     .arg(m_diff->unitMismatch.join(QStringLiteral(", ")));
    auto *note = new QLabel(notes.join(QStringLiteral(" · ")), tab);
    note->setObjectName(QStringLiteral("histogramNote"));
    note->setWordWrap(true);
    bar->addWidget(note, 1);
    layout->addLayout(bar);

    auto *splitter = new QSplitter(Qt::Vertical, tab);
    auto *scroll = new QScrollArea(splitter);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *grid = new QWidget(scroll);
    auto *gridLayout = new QGridLayout(grid);
    gridLayout->setContentsMargins(0, 0, 0, 0);
    const int columns = m_diff->histograms.size() > 1 ? 2 : 1;
    for (qsizetype i = 0; i < m_diff->histograms.size(); ++i) {
        const SessionDiff::Histogram &h = m_diff->histograms[i];
        Chart c;
        QWidget *cell;
        if (h.a.unit() == h.b.unit()) {
            c = createChart(h);
            cell = c.view;
        } else {
            cell =
                placeholder(tr("%1: %2 against %3. The percentiles below are compared in %2; "
                               "buckets of different units cannot be overlaid.")
                                .arg(PercentileDiffModel::histogramName(h),
                                     histogramAxisUnit(h.a.unit()), histogramAxisUnit(h.b.unit())),
                            grid);
        }
        m_charts << c;
        gridLayout->addWidget(cell, int(i) / columns, int(i) % columns);
    }
    if (m_diff->histograms.isEmpty()) {
        gridLayout->addWidget(
            placeholder(tr("The sessions hold no histogram in common (same probe and key)."), grid),
            0, 0);
        m_rawCounts->setEnabled(false);
    }
    scroll->setWidget(grid);
    splitter->addWidget(scroll);

    m_percentileView = new QTableView(splitter);
    m_percentileView->setModel(m_percentiles);
    m_percentileView->setAccessibleName(tr("Percentile changes"));
    m_percentileView->verticalHeader()->hide();
    m_percentileView->setAlternatingRowColors(true);
    m_percentileView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_percentileView->horizontalHeader()->setStretchLastSection(false);
    m_percentileView->resizeColumnsToContents();
    splitter->addWidget(m_percentileView);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);
    fillCharts();
    return tab;
}

ComparePage::Chart ComparePage::createChart(const SessionDiff::Histogram &h)
{
    Chart c;
    auto *chart = new QChart;
    c.a = new QBarSet(m_nameA);
    c.b = new QBarSet(m_nameB);
    auto *series = new QBarSeries;
    series->append(c.a);
    series->append(c.b);
    series->setBarWidth(0.85);
    chart->addSeries(series);
    auto *categories = new QBarCategoryAxis;
    categories->setTitleText(histogramAxisUnit(h.a.unit()));
    // Upright, as the Histograms tab draws them: rotated less, Qt Charts hides edge labels.
    categories->setLabelsAngle(-90);
    categories->setTruncateLabels(false);
    const int slots = std::max({h.a.usedSlots(), h.b.usedSlots(), 1});
    QStringList labels;
    for (int s = 0; s < slots; ++s)
        labels << Log2Histogram::slotLabel(s);
    categories->append(labels);
    c.values = new QValueAxis;
    chart->addAxis(categories, Qt::AlignBottom);
    chart->addAxis(c.values, Qt::AlignLeft);
    series->attachAxis(categories);
    series->attachAxis(c.values);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    styleChart(chart, palette());
    c.a->setColor(colors::series(0));
    c.a->setBorderColor(colors::series(0).darker(120));
    c.b->setColor(colors::series(1));
    c.b->setBorderColor(colors::series(1).darker(120));

    const double a50 = h.percentileA(0.5), b50 = h.percentileB(0.5);
    const double a99 = h.percentileA(0.99), b99 = h.percentileB(0.99);
    const QString unit = histogramAxisUnit(h.a.unit());
    auto value = [](double v) { return std::isnan(v) ? noValue() : QLocale().toString(v, 'f', 0); };
    //: %9 the baseline's count, %10 "N samples" of the comparison
    chart->setTitle(
        tr("<b>%1</b><br>p50 %2 → %3 %4 (%5) · p99 %6 → %7 %4 (%8) · %9 → %10")
            .arg(PercentileDiffModel::histogramName(h).toHtmlEscaped(), value(a50), value(b50),
                 unit, PercentileDiffModel::relativeText(a50, b50), value(a99), value(b99),
                 PercentileDiffModel::relativeText(a99, b99))
            .arg(QLocale().toString(h.a.count()), tr("%Ln sample(s)", nullptr, int(h.b.count()))));

    // Hovering a bucket shows both sessions' counts and shares, whichever the axis shows.
    const Log2Histogram ha = h.a, hb = h.b;
    connect(series, &QBarSeries::hovered, this, [this, ha, hb](bool status, int index) {
        if (!status || index < 0 || index >= Log2Histogram::MaxSlots) {
            QToolTip::hideText();
            return;
        }
        auto line = [index](const QString &name, const Log2Histogram &x) {
            return tr("%1: %2 (%3)")
                .arg(name, QLocale().toString(x.slot(index)),
                     percentText(x.isEmpty() ? 0.0 : double(x.slot(index)) / double(x.count())));
        };
        QToolTip::showText(QCursor::pos(), tr("%1 %2").arg(Log2Histogram::slotLabel(index),
                                                           histogramAxisUnit(ha.unit())) +
                                               QLatin1Char('\n') + line(m_nameA, ha) +
                                               QLatin1Char('\n') + line(m_nameB, hb));
    });
    c.view = new QChartView(chart);
    c.view->setRenderHint(QPainter::Antialiasing);
    c.view->setMinimumSize(420, 300);
    c.view->setAccessibleName(
        tr("Histogram %1 compared").arg(PercentileDiffModel::histogramName(h)));
    return c;
}

QList<qreal> ComparePage::overlayValues(const Log2Histogram &h, int slots, bool percent)
{
    QList<qreal> out;
    out.reserve(slots);
    const double total = double(h.count());
    for (int s = 0; s < slots; ++s) {
        const double v = double(h.slot(s));
        out << (percent ? (total > 0 ? 100.0 * v / total : 0.0) : v);
    }
    return out;
}

bool ComparePage::showsFractions(int histogram) const
{
    const SessionDiff::Histogram &h = m_diff->histograms[histogram];
    return !m_rawCounts->isChecked() && h.a.count() != h.b.count();
}

void ComparePage::setRawCounts(bool raw)
{
    if (m_rawCounts->isChecked() != raw)
        m_rawCounts->setChecked(raw); // comes back here through toggled
    else
        fillCharts();
}

void ComparePage::fillCharts()
{
    for (qsizetype i = 0; i < m_charts.size(); ++i) {
        Chart &c = m_charts[i];
        if (!c.view)
            continue;
        const SessionDiff::Histogram &h = m_diff->histograms[i];
        const int slots =
            c.a->count() ? int(c.a->count()) : std::max({h.a.usedSlots(), h.b.usedSlots(), 1});
        const bool fractions = showsFractions(int(i));
        const QList<qreal> a = overlayValues(h.a, slots, fractions);
        const QList<qreal> b = overlayValues(h.b, slots, fractions);
        c.a->remove(0, c.a->count());
        c.a->append(a);
        c.b->remove(0, c.b->count());
        c.b->append(b);
        const qreal top = std::max(*std::max_element(a.cbegin(), a.cend()),
                                   *std::max_element(b.cbegin(), b.cend()));
        // Ticks a step of 1, 2 or 5 × 10^k apart, at most 5 intervals, whole for counts: Qt's
        // nice numbers printed with %.0f read "0 1 1 2" for a top of 2.
        double step = 1;
        int decimals = 0;
        for (int k = fractions ? -2 : 0; k < 20; ++k) {
            const double magnitude = std::pow(10.0, k);
            bool found = false;
            for (const int m : {1, 2, 5}) {
                step = m * magnitude;
                decimals = std::max(0, -k);
                if (top * 1.05 / step <= 5.0) {
                    found = true;
                    break;
                }
            }
            if (found)
                break;
        }
        const int intervals = std::max(1, int(std::ceil(top * 1.05 / step)));
        c.values->setRange(0, intervals * step);
        c.values->setTickCount(intervals + 1);
        c.values->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
        c.values->setTitleText(fractions ? tr("% of samples") : tr("count"));
    }
}

QChartView *ComparePage::chartView(int histogram) const
{
    return m_charts.value(histogram).view;
}

QBarSet *ComparePage::baselineSet(int histogram) const
{
    return m_charts.value(histogram).a;
}

QBarSet *ComparePage::comparisonSet(int histogram) const
{
    return m_charts.value(histogram).b;
}

QWidget *ComparePage::createEventTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    if (m_diff->events.isEmpty()) {
        layout->addWidget(placeholder(tr("Neither session holds events."), tab));
        return tab;
    }
    auto *bar = new QHBoxLayout;
    auto *label = new QLabel(tr("Below each &type:"), tab);
    m_dimensionBox = new QComboBox(tab);
    m_dimensionBox->setObjectName(QStringLiteral("eventDimensionBox"));
    label->setBuddy(m_dimensionBox);
    for (const Dimension d : m_events->dimensions())
        m_dimensionBox->addItem(TopModel::dimensionTitle(d), int(d));
    m_dimensionBox->setCurrentIndex(std::max(0, m_dimensionBox->findData(int(Dimension::Command))));
    auto *note = new QLabel(tr("Events per type, and below each type its values with the most "
                               "events in either session, as the Top tab counts them."),
                            tab);
    note->setWordWrap(true);
    bar->addWidget(label);
    bar->addWidget(m_dimensionBox);
    bar->addSpacing(12);
    bar->addWidget(note, 1);
    layout->addLayout(bar);

    m_eventView = new QTreeView(tab);
    m_eventView->setModel(m_events);
    m_eventView->setAccessibleName(tr("Event counts compared"));
    m_eventView->setAlternatingRowColors(true);
    m_eventView->setUniformRowHeights(true);
    m_eventView->header()->setStretchLastSection(false);
    m_eventView->header()->setSectionResizeMode(EventDiffModel::NameColumn, QHeaderView::Stretch);
    auto fit = [this] {
        m_eventView->expandAll();
        for (int c = EventDiffModel::BaselineColumn; c < EventDiffModel::ColumnCount; ++c)
            m_eventView->resizeColumnToContents(c);
    };
    fit();
    connect(m_dimensionBox, &QComboBox::currentIndexChanged, this, [this, fit] {
        setEventDimension(Dimension(m_dimensionBox->currentData().toInt()));
        fit();
    });
    layout->addWidget(m_eventView, 1);
    return tab;
}

void ComparePage::setEventDimension(Dimension dimension)
{
    m_events->setDimension(dimension);
    if (m_dimensionBox) {
        const int at = m_dimensionBox->findData(int(dimension));
        if (at >= 0)
            m_dimensionBox->setCurrentIndex(at);
    }
}

QWidget *ComparePage::createProfileTab(const SessionModel &baseline)
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    // Both kinds now: the baseline is read only while the page is built.
    for (const ProfileKind kind : {ProfileKind::OnCpu, ProfileKind::OffCpu}) {
        ProfileQuery query; // whole session, both stack parts
        query.kind = kind;
        const std::shared_ptr<const Profile> a = buildProfile(baseline, query);
        const std::shared_ptr<const Profile> b = buildProfile(*m_comparison, query);
        m_hasA[int(kind)] = !a->isEmpty();
        m_hasB[int(kind)] = !b->isEmpty();
        if (!a->isEmpty() && !b->isEmpty())
            m_differentials[int(kind)] =
                differentialProfile(*a, baseline.stacks(), b, m_comparison->stacks());
    }
    if (!m_hasA[0] && !m_hasB[0] && !m_hasA[1] && !m_hasB[1]) {
        layout->addWidget(placeholder(tr("Neither session has CPU profile samples. Record both "
                                         "with the \"profile\" or the \"offcpu\" probe for a "
                                         "differential flame graph."),
                                      tab));
        return tab;
    }

    auto *bar = new QHBoxLayout;
    m_kindBox = new QComboBox(tab);
    m_kindBox->setObjectName(QStringLiteral("profileKindBox"));
    m_kindBox->addItem(tr("On-CPU samples"), int(ProfileKind::OnCpu));
    m_kindBox->addItem(tr("Off-CPU time"), int(ProfileKind::OffCpu));
    m_kindBox->setAccessibleName(tr("Profile"));
    m_kindBox->setToolTip(tr("On-CPU: where the CPU time went. Off-CPU: where threads waited, "
                             "weighted by the time blocked."));
    connect(m_kindBox, &QComboBox::currentIndexChanged, this,
            [this] { setProfileKind(ProfileKind(m_kindBox->currentData().toInt())); });
    bar->addWidget(m_kindBox);
    bar->addSpacing(8);
    bar->addWidget(new QLabel(tr("Colour by change of"), tab));
    m_measureBox = new QComboBox(tab);
    m_measureBox->addItem(tr("total share (with callees)"),
                          int(DifferentialProfile::Measure::Total));
    m_measureBox->addItem(tr("self share"), int(DifferentialProfile::Measure::Self));
    m_measureBox->setAccessibleName(tr("Colour by"));
    connect(m_measureBox, &QComboBox::currentIndexChanged, this, [this] {
        setMeasure(DifferentialProfile::Measure(m_measureBox->currentData().toInt()));
    });
    bar->addWidget(m_measureBox);
    bar->addStretch(1);
    layout->addLayout(bar);
    // The note on a line of its own: beside two combo boxes it wraps to four lines at 1366 px
    // and in German.
    m_profileNote = new QLabel(tab);
    m_profileNote->setObjectName(QStringLiteral("profileNote"));
    m_profileNote->setTextFormat(Qt::RichText);
    m_profileNote->setWordWrap(true);
    layout->addWidget(m_profileNote);

    m_profileStack = new QStackedWidget(tab);
    m_flame = new FlameGraphView(tab);
    auto *scroll = new QScrollArea(tab);
    scroll->setWidget(m_flame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    // The root is at the bottom: a deep profile (a compiler's) taller than the window showed
    // only white space above its frames. Stay at the bottom whenever the height changes.
    connect(scroll->verticalScrollBar(), &QScrollBar::rangeChanged, scroll,
            [scroll](int, int max) { scroll->verticalScrollBar()->setValue(max); });
    m_flameScroll = scroll;
    m_profileStack->addWidget(scroll);
    m_profileEmpty = placeholder(QString(), tab);
    m_profileEmpty->setObjectName(QStringLiteral("profileEmpty"));
    m_profileStack->addWidget(m_profileEmpty);
    layout->addWidget(m_profileStack, 1);

    // The first kind both sessions have; on-CPU (with its empty state) when none.
    const bool onCpu = !m_differentials[int(ProfileKind::OnCpu)].isEmpty() ||
                       m_differentials[int(ProfileKind::OffCpu)].isEmpty();
    setProfileKind(onCpu ? ProfileKind::OnCpu : ProfileKind::OffCpu);
    return tab;
}

QString ComparePage::profileEmptyText() const
{
    if (!m_profileStack || m_profileStack->currentWidget() != m_profileEmpty)
        return {};
    return m_profileEmpty->text();
}

void ComparePage::setProfileKind(ProfileKind kind)
{
    if (!m_kindBox)
        return;
    m_kind = kind;
    {
        const QSignalBlocker block(m_kindBox);
        m_kindBox->setCurrentIndex(m_kindBox->findData(int(kind)));
    }
    const int k = int(kind);
    const DifferentialProfile &d = m_differentials[k];
    m_measureBox->setEnabled(!d.isEmpty());
    if (d.isEmpty()) {
        // Whole sentences: "Neither session has no ..." read wrong, and a translation cannot
        // agree a sentence put together from parts.
        QString text;
        if (kind == ProfileKind::OnCpu)
            text = !m_hasA[k] && !m_hasB[k]
                       ? tr("Neither session has on-CPU samples. Record both with the "
                            "\"profile\" probe for a differential on-CPU flame graph.")
                   : !m_hasA[k] ? tr("The baseline has no on-CPU samples. Record both with the "
                                     "\"profile\" probe for a differential on-CPU flame graph.")
                                : tr("The comparison has no on-CPU samples. Record both with the "
                                     "\"profile\" probe for a differential on-CPU flame graph.");
        else
            text = !m_hasA[k] && !m_hasB[k]
                       ? tr("Neither session has off-CPU samples. Record both with the "
                            "\"offcpu\" probe for a differential off-CPU flame graph.")
                   : !m_hasA[k] ? tr("The baseline has no off-CPU samples. Record both with the "
                                     "\"offcpu\" probe for a differential off-CPU flame graph.")
                                : tr("The comparison has no off-CPU samples. Record both with the "
                                     "\"offcpu\" probe for a differential off-CPU flame graph.");
        m_profileEmpty->setText(text);
        m_profileNote->clear();
        m_profileNote->hide();
        m_flame->setProfile(nullptr, nullptr);
        m_profileStack->setCurrentWidget(m_profileEmpty);
        return;
    }
    const auto swatch = [](const QColor &c) {
        return QStringLiteral("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;</span>")
            .arg(c.name());
    };
    const QString red = swatch(changeColor(1, 1)) + tr("Red:");
    const QString blue = swatch(changeColor(-1, 1)) + tr("blue:");
    const QString grey = swatch(changeColor(0, 1)) + tr("grey:");
    QString note =
        kind == ProfileKind::OnCpu
            //: %1 the baseline's count, %2 "N samples" of the comparison
            ? tr("The comparison's flame graph (%1 → %2). %3 grew, %4 shrank, %5 unchanged, "
                 "against the baseline's share of the same call path.")
                  .arg(QLocale().toString(d.baselineTotal),
                       tr("%Ln sample(s)", nullptr, int(d.comparison->total)), red, blue, grey)
            : tr("The comparison's off-CPU flame graph, weighted by time blocked (%1 → %2). %3 "
                 "grew, %4 shrank, %5 unchanged, against the baseline's share of the same call "
                 "path.")
                  .arg(ProfileText::cost(d.baselineTotal, true),
                       ProfileText::cost(d.comparison->total, true), red, blue, grey);
    if (d.vanishedTotal > 0) {
        note += QLatin1Char(' ') +
                (kind == ProfileKind::OnCpu
                     ? tr("Call paths only the baseline has (%1 of its samples) are not drawn.")
                     : tr("Call paths only the baseline has (%1 of its time blocked) are not "
                          "drawn."))
                    .arg(percentText(d.vanishedTotal));
    }
    m_profileNote->setText(note);
    m_profileNote->show();
    m_flame->setProfile(d.comparison, &m_comparison->stacks());
    m_profileStack->setCurrentIndex(0);
    applyColoring();
}

QColor ComparePage::changeColor(double delta, double maxDelta)
{
    // A change below a hundredth of the largest (or none at all) reads as none.
    const double t = maxDelta > 0 ? std::min(1.0, std::abs(delta) / maxDelta) : 0.0;
    const QColor neutral(0xdc, 0xdc, 0xdc);
    if (t < 0.01)
        return neutral;
    const QColor full = delta > 0 ? QColor(0xd7, 0x30, 0x27) : QColor(0x2c, 0x6f, 0xd1);
    // A small change still shows its hue: start a quarter of the way from grey.
    const double k = 0.25 + 0.75 * t;
    auto mix = [k](int from, int to) { return int(std::lround(from + (to - from) * k)); };
    return QColor(mix(neutral.red(), full.red()), mix(neutral.green(), full.green()),
                  mix(neutral.blue(), full.blue()));
}

void ComparePage::setMeasure(DifferentialProfile::Measure measure)
{
    m_measure = measure;
    if (m_measureBox) {
        const QSignalBlocker block(m_measureBox);
        m_measureBox->setCurrentIndex(m_measureBox->findData(int(measure)));
    }
    applyColoring();
}

void ComparePage::applyColoring()
{
    if (!m_flame)
        return;
    m_flame->setNodeColoring(
        [this](qint32 node) {
            return changeColor(differential().delta(node, m_measure),
                               differential().maxDelta(m_measure));
        },
        [this](qint32 node) { return shareText(node); });
}

QString ComparePage::shareText(qint32 node) const
{
    const DifferentialProfile &d = differential();
    if (d.isEmpty() || node < 0 || size_t(node) >= d.nodes.size())
        return {};
    const DifferentialProfile::NodeShares &s = d.nodes[size_t(node)];
    const bool time = d.comparison->isTime();
    auto points = [](double v) {
        const QString n = QLocale().toString(std::abs(v) * 100.0, 'f', 1);
        return v > 0 ? tr("+%1 pp").arg(n) : v < 0 ? tr("−%1 pp").arg(n) : tr("±0 pp");
    };
    // Both sides' numbers, then the change of share that the colour shows: "80 (80.0%) →
    // 110 (72.4%), −7.6 pp".
    auto side = [time](quint64 value, double share) {
        return QStringLiteral("%1 (%2)").arg(ProfileText::cost(value, time), percentText(share));
    };
    QStringList lines;
    if (!s.inA)
        lines << (time ? tr("New: the baseline has no time blocked on this call path")
                       : tr("New: the baseline has no samples on this call path"));
    // Labelled apart from the flame graph's own "Total:" line above (the comparison's alone).
    lines << tr("Total, baseline → comparison: %1 → %2, %3")
                 .arg(side(s.totalValueA, s.totalA), side(s.totalValueB, s.totalB),
                      points(s.totalB - s.totalA));
    lines << tr("Self, baseline → comparison: %1 → %2, %3")
                 .arg(side(s.selfValueA, s.selfA), side(s.selfValueB, s.selfB),
                      points(s.selfB - s.selfA));
    return lines.join(QLatin1Char('\n'));
}

void ComparePage::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange) {
        for (const Chart &c : std::as_const(m_charts)) {
            if (c.view)
                styleChart(c.view->chart(), palette());
        }
    }
    QWidget::changeEvent(event);
}

} // namespace bpflens
