#include "gui/toppage.h"

#include "core/eventschema.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/topmodel.h"
#include "gui/models/viewstate.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace bpflens {

namespace {

QTableView *makeTable(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->verticalHeader()->hide();
    // The event tables' row height: more rows fit below the timeline.
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return view;
}

} // namespace

TopPage::TopPage(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
    , m_stack(new QStackedWidget(this))
    , m_empty(new QLabel(this))
    , m_dimensionBox(new QComboBox(this))
    , m_metricBox(new QComboBox(this))
    , m_probeBox(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_topModel(new TopModel(this))
    , m_statsModel(new LatencyStatsModel(this))
{
    for (int d = 0; d <= int(Dimension::Error); ++d)
        m_dimensionBox->addItem(TopModel::dimensionTitle(Dimension(d)), d);
    for (int m = 0; m <= int(TopMetric::Bytes); ++m)
        m_metricBox->addItem(TopModel::metricTitle(TopMetric(m)), m);
    m_dimensionBox->setAccessibleName(tr("Top list of"));
    m_metricBox->setAccessibleName(tr("Ordered by"));
    m_probeBox->setAccessibleName(tr("Events of"));
    m_probeBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    reloadProbes();

    // The status changes with every result: it must not widen the window's minimum size (the
    // timeline above would resize under the user).
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *controls = new QHBoxLayout;
    auto *ofLabel = new QLabel(tr("Top:"), this);
    ofLabel->setBuddy(m_dimensionBox);
    auto *byLabel = new QLabel(tr("by"), this);
    byLabel->setBuddy(m_metricBox);
    controls->addWidget(ofLabel);
    controls->addWidget(m_dimensionBox);
    controls->addWidget(byLabel);
    controls->addWidget(m_metricBox);
    auto *probeLabel = new QLabel(tr("of"), this);
    probeLabel->setBuddy(m_probeBox);
    controls->addWidget(probeLabel);
    controls->addWidget(m_probeBox);
    controls->addWidget(m_status, 1);
    m_explain = new QPushButton(tr("Explain…"), this);
    m_explain->setToolTip(
        tr("What is more common in the visible range than in the rest of the recording"));
    controls->addWidget(m_explain);

    m_topView = makeTable(m_topModel, this);
    m_topView->horizontalHeader()->setSectionResizeMode(TopModel::KeyColumn, QHeaderView::Stretch);
    m_topView->setAccessibleName(tr("Top list"));
    m_statsView = makeTable(m_statsModel, this);
    m_statsView->horizontalHeader()->setSectionResizeMode(LatencyStatsModel::KeyColumn,
                                                          QHeaderView::Stretch);
    m_statsView->setAccessibleName(tr("Latency statistics"));
    m_goToMax = new QPushButton(tr("&Go to Max"), this);
    m_goToMax->setToolTip(tr("Select the slowest event of the selected row and zoom to it"));

    auto *statsBox = new QWidget(this);
    auto *statsLayout = new QVBoxLayout(statsBox);
    statsLayout->setContentsMargins(0, 0, 0, 0);
    auto *statsHeader = new QHBoxLayout;
    statsHeader->addWidget(new QLabel(tr("Latency per probe and key"), statsBox), 1);
    statsHeader->addWidget(m_goToMax);
    statsLayout->addLayout(statsHeader);
    statsLayout->addWidget(m_statsView, 1);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_topView);
    splitter->addWidget(statsBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_stack->addWidget(splitter);
    m_stack->addWidget(m_empty);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_stack, 1);

    connect(&m_job, &BackgroundJob::due, this, &TopPage::start);
    connect(m_dimensionBox, &QComboBox::currentIndexChanged, this, &TopPage::schedule);
    connect(m_metricBox, &QComboBox::currentIndexChanged, this, &TopPage::schedule);
    connect(m_probeBox, &QComboBox::currentIndexChanged, this, &TopPage::schedule);
    connect(m_state, &ViewState::rangeChanged, this, &TopPage::schedule);
    connect(m_state, &ViewState::filterChanged, this, &TopPage::schedule);
    // The worker reads the store: it must be done before the store changes.
    const auto stop = [this] { m_job.stopAndWait(); };
    connect(m_session, &SessionModel::aboutToReset, this, stop);
    connect(m_session, &SessionModel::aboutToBeDestroyed, this, stop);
    connect(m_session, &SessionModel::reset, this, [this] {
        reloadProbes();
        schedule();
    });
    connect(m_session, &SessionModel::aboutToAppend, this, stop);
    connect(m_session, &SessionModel::appended, this, [this] {
        reloadProbes();
        schedule();
    });
    connect(m_topView, &QAbstractItemView::activated, this,
            [this](const QModelIndex &index) { activateRow(index.row()); });
    connect(m_statsView, &QAbstractItemView::activated, this,
            [this](const QModelIndex &index) { goToMax(index.row()); });
    connect(m_statsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &TopPage::updateGoToMax);
    connect(m_explain, &QPushButton::clicked, m_state, [this] { m_state->requestExplain(); });
    connect(m_goToMax, &QPushButton::clicked, this,
            [this] { goToMax(m_statsView->currentIndex().row()); });
    updateGoToMax();
    schedule();
}

TopPage::~TopPage()
{
    // The work reads the session's store, which may go away right after this page.
    m_job.stopAndWait();
}

void TopPage::setDimension(Dimension d)
{
    m_dimensionBox->setCurrentIndex(m_dimensionBox->findData(int(d)));
}

void TopPage::setMetric(TopMetric m)
{
    m_metricBox->setCurrentIndex(m_metricBox->findData(int(m)));
}

void TopPage::setProbeType(std::optional<EventType> type)
{
    m_probeBox->setCurrentIndex(std::max(0, m_probeBox->findData(type ? int(*type) : -1)));
}

std::optional<EventType> TopPage::probeType() const
{
    const int data = m_probeBox->currentData().toInt();
    return data < 0 ? std::nullopt : std::optional<EventType>(EventType(data));
}

void TopPage::reloadProbes()
{
    const std::optional<EventType> current = probeType();
    const QSignalBlocker block(m_probeBox);
    m_probeBox->clear();
    m_probeBox->addItem(tr("All probes"), -1);
    for (EventType t : SessionModel::eventTypes()) {
        if (m_session->events().count(t) > 0)
            m_probeBox->addItem(SessionModel::typeName(t), int(t));
    }
    setProbeType(current);
}

std::optional<EventType> TopPage::probeFor(TopMetric metric, Dimension dimension) const
{
    if (metric == TopMetric::Count)
        return std::nullopt;
    for (int i = 1; i < m_probeBox->count(); ++i) {
        const auto type = EventType(m_probeBox->itemData(i).toInt());
        bool has = false;
        visitEventType(type, [&]<typename E>() {
            has = metric == TopMetric::Bytes ? hasBytes<E> : hasLatency<E>;
        });
        if (has && typeHasDimension(type, dimension))
            return type;
    }
    return std::nullopt;
}

void TopPage::updateColumns()
{
    const TopList &l = m_topModel->list();
    const bool latency = !mixesTypes(l.latencyTypes);
    m_topView->setColumnHidden(TopModel::LatencyColumn, !latency);
    m_topView->setColumnHidden(TopModel::P99Column, !latency);
    m_topView->setColumnHidden(TopModel::BytesColumn, mixesTypes(l.bytesTypes));
}

QString TopPage::emptyText() const
{
    return m_empty->text();
}

void TopPage::schedule()
{
    // The job's result of the request before this one is dropped: it could arrive during the
    // debounce, be shown and end "Computing…" with the old dimension's rows.
    m_computing = true;
    m_status->setText(tr("Computing…"));
    m_job.schedule();
}

void TopPage::start()
{
    TopQuery q;
    q.dimension = Dimension(m_dimensionBox->currentData().toInt());
    q.metric = TopMetric(m_metricBox->currentData().toInt());
    q.type = probeType();
    // Ordered by a sum, the list is of one probe's events: "Total latency" of a process that
    // waited 3 s off-CPU and 1 ms on the disk would be neither.
    if (!q.type) {
        q.type = probeFor(q.metric, q.dimension);
        if (q.type) {
            const QSignalBlocker block(m_probeBox);
            setProbeType(q.type);
        }
    }
    q.startNs = m_state->startNs();
    q.endNs = m_state->endNs();
    const EventFilter &f = m_state->filter();
    q.filter = f;
    q.limit = RowLimit;
    const EventStore *store = &m_session->events();
    struct Result
    {
        TopList list;
        QList<LatencyStats> stats;
    };
    m_job.run(
        [store, q](const JobToken &token) {
            Result r;
            r.list = topList(*store, q, token.flag());
            r.stats = latencyStats(*store, q.startNs, q.endNs, q.filter, q.type, token.flag());
            return r;
        },
        [this, dimension = q.dimension](Result r) {
            present(std::move(r.list), std::move(r.stats), dimension);
        });
}

void TopPage::present(TopList list, QList<LatencyStats> stats, Dimension dimension)
{
    m_computing = false;
    m_topModel->setList(std::move(list), dimension);
    m_statsModel->setStats(std::move(stats));
    updateColumns();
    const TopList &l = m_topModel->list();
    const QLocale locale;
    //: "10 of 42 keys, 1,234 events in the visible range"
    QString status =
        tr("%1, %2", "keys, events")
            .arg(tr("%1 of %Ln key(s)", nullptr, int(std::min<qint64>(l.keys, INT_MAX)))
                     .arg(locale.toString(qint64(l.rows.size()))),
                 tr("%Ln event(s) in the visible range", nullptr,
                    int(std::min<qint64>(l.events, INT_MAX))));
    if (mixesTypes(l.latencyTypes) || mixesTypes(l.bytesTypes))
        status += tr(" · latencies and bytes of different probes do not add up: "
                     "choose a probe to see them");
    m_status->setText(status);
    const bool empty = l.rows.isEmpty() && m_statsModel->rowCount() == 0;
    if (empty) {
        m_empty->setText(m_session->events().isEmpty()
                             ? tr("No events. Open a session or record one to see its top "
                                  "processes, files, disks and latencies.")
                             : tr("No events in the visible range have a %1 or pass the "
                                  "filter. Zoom out or change the filter.")
                                   .arg(TopModel::dimensionTitle(dimension).toLower()));
    }
    m_stack->setCurrentIndex(empty ? 1 : 0);
    updateGoToMax();
    Q_EMIT updated();
}

void TopPage::activateRow(int row)
{
    const std::optional<EventFilter> rowFilter = m_topModel->filterFor(row);
    if (!rowFilter)
        return;
    m_state->narrowFilter(*rowFilter);
}

bool TopPage::goToMax(int row)
{
    const EventRef ref = m_statsModel->maxEvent(row);
    if (!ref.isValid() || ref.index >= m_session->events().count(ref.type))
        return false;
    const quint64 end = m_session->events().timeNs(ref.type, ref.index);
    quint64 latency = 0;
    m_session->events().latencyNs(ref.type, ref.index, &latency);
    // The event's span with as much again around it, at least a millisecond either side.
    const quint64 start = end - std::min(end, latency);
    const quint64 margin = std::max<quint64>(latency / 2, 1000000);
    m_state->setRange(start - std::min(start, margin), end + margin);
    m_state->setSelectedEvent(ref);
    return true;
}

void TopPage::updateGoToMax()
{
    m_goToMax->setEnabled(m_statsModel->maxEvent(m_statsView->currentIndex().row()).isValid());
}

} // namespace bpflens
