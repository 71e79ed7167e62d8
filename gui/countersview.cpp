#include "countersview.h"

#include "chartstyle.h"
#include "sessionmodel.h"
#include "viewstate.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QMap>
#include <QVBoxLayout>
#include <QValueAxis>

namespace bpflens {

namespace {

// The ratio is a share, not a count: it would flatten every count line on a shared axis.
const QString RatioName = QStringLiteral("hitRatio");

} // namespace

CountersView::CountersView(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
{
    auto *layout = new QVBoxLayout(this);
    m_placeholder = new QLabel(
        tr("No counter samples in this session: record the Page cache (cachestat) probe to see "
           "hits, misses and dirtied pages over time."),
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
    m_counts->setMinimumHeight(260);
    m_ratio->setMinimumHeight(200);
    layout->addWidget(m_counts, 3);
    layout->addWidget(m_ratio, 2);
    connect(m_state, &ViewState::rangeChanged, this, &CountersView::refresh);
    connect(m_session, &SessionModel::reset, this, &CountersView::refresh);
    connect(m_session, &SessionModel::appended, this, &CountersView::refresh);
    refresh();
}

QLineSeries *CountersView::series(const QString &name) const
{
    QChart *chart = name == RatioName ? m_ratio->chart() : m_counts->chart();
    for (QAbstractSeries *s : chart->series()) {
        if (s->name() == name)
            return qobject_cast<QLineSeries *>(s);
    }
    return nullptr;
}

void CountersView::refresh()
{
    const quint64 start = m_state->startNs();
    const quint64 end = m_state->endNs();
    const quint64 origin = m_session->info().startMonotonicNs;
    QMap<QString, QList<QPointF>> points;
    for (const CounterSample &c : m_session->counters()) {
        // The page cache's counters only: iostack's layers have their own view, and the loss
        // counters of other probes (block's merged/unattributed, offcpu's stacksLost...) are
        // not page-cache numbers; the Summary names them.
        if (c.probeId != QLatin1String("cachestat") || c.timeNs < start || c.timeNs >= end)
            continue;
        const double x = double(qint64(c.timeNs - origin)) / 1e9;
        points[c.name].append(QPointF(x, c.name == RatioName ? c.value * 100 : c.value));
    }
    const bool empty = points.isEmpty();
    m_placeholder->setVisible(empty);
    m_counts->setVisible(!empty);
    m_ratio->setVisible(!empty && points.contains(RatioName));

    for (QChartView *view : {m_counts, m_ratio}) {
        QChart *chart = view->chart();
        chart->removeAllSeries();
        for (QAbstractAxis *axis : chart->axes()) {
            chart->removeAxis(axis);
            delete axis;
        }
        auto *x = new QValueAxis;
        x->setTitleText(tr("seconds"));
        auto *y = new QValueAxis;
        y->setTitleText(view == m_ratio ? tr("hit ratio %") : tr("pages per interval"));
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
        double maxY = 1, minX = 0, maxX = 1;
        bool first = true;
        for (auto it = points.cbegin(); it != points.cend(); ++it) {
            if ((it.key() == RatioName) != (view == m_ratio))
                continue;
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
        x->setLabelFormat(QStringLiteral("%.2f"));
        x->setTruncateLabels(false);
        y->setRange(0, view == m_ratio ? 100 : maxY * 1.1);
        if (view != m_ratio)
            y->applyNiceNumbers();
        y->setLabelFormat(QStringLiteral("%.0f"));
        y->setTruncateLabels(false);
        chart->legend()->setVisible(view != m_ratio);
        chart->setTitle(view == m_ratio ? tr("Hit ratio") : tr("Page cache"));
        styleChart(chart, palette());
    }
}

} // namespace bpflens
