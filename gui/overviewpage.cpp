#include "gui/overviewpage.h"

#include "gui/colors.h"
#include "gui/models/overviewmodel.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"

#include <QCheckBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QVBoxLayout>

namespace bpflens {

namespace {

// The red of a real loss, the same as the status bar's badge.
const QColor LossRed(0xd0, 0x31, 0x2d);

// Links in the palette's link colour, real losses in red; "not seen" stays in the text
// colour: it is not a full buffer.
class OverviewDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const auto *model = index.model();
        if (qobject_cast<const OverviewFindingModel *>(model)) {
            if (index.column() == OverviewFindingModel::LinkColumn) {
                option->palette.setColor(QPalette::Text, option->palette.color(QPalette::Link));
                option->font.setUnderline(true);
            } else if (index.data(OverviewFindingModel::SeverityRole).toBool()) {
                option->palette.setColor(QPalette::Text, LossRed);
                option->font.setBold(true);
            }
        } else if (qobject_cast<const OverviewProbeModel *>(model)) {
            if (index.column() == OverviewProbeModel::LossesColumn &&
                index.data(OverviewProbeModel::RealLossRole).toBool()) {
                option->palette.setColor(QPalette::Text, LossRed);
                option->font.setBold(true);
            }
        } else if (index.data(OverviewCostModel::OwnRole).toBool()) {
            option->palette.setColor(QPalette::Text,
                                     option->palette.color(QPalette::PlaceholderText));
            option->font.setItalic(true);
        }
    }
};

QTableView *makeTable(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setItemDelegate(new OverviewDelegate(view));
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    view->setTextElideMode(Qt::ElideMiddle);
    view->setShowGrid(false);
    view->verticalHeader()->hide();
    view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    view->horizontalHeader()->setHighlightSections(false);
    // The page scrolls as a whole: each table is as tall as its rows.
    view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    view->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    view->setSizeAdjustPolicy(QAbstractScrollArea::AdjustIgnored);
    return view;
}

} // namespace

OverviewPage::OverviewPage(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
    , m_own(new QCheckBox(tr("Show BPF Lens' own processes"), this))
    , m_lossBadge(new QLabel(this))
    , m_missingNote(new QLabel(this))
    , m_status(new QLabel(this))
    , m_noFindings(new QLabel(this))
    , m_probeModel(new OverviewProbeModel(this))
    , m_findingModel(new OverviewFindingModel(this))
{
    m_own->setToolTip(tr("bpflens, bpflens-cli, bpflens-helper and bpflens-symbolizer record "
                         "and symbolise: their cost is the recording's, not the system's. "
                         "They are left out of the top lists unless this is ticked."));
    m_lossBadge->setMargin(2);
    m_lossBadge->setStyleSheet(QStringLiteral(
        "background: #d0312d; color: white; font-weight: bold; border-radius: 3px;"));
    // The status changes with every result: it must not widen the page.
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    auto *content = new QWidget(this);
    auto *layout = new QVBoxLayout(content);
    auto *top = new QHBoxLayout;
    top->setSpacing(12);
    top->addWidget(m_lossBadge);
    top->addWidget(m_missingNote);
    top->addWidget(m_status, 1);
    top->addWidget(m_own);
    layout->addLayout(top);

    auto heading = [content](const QString &text) {
        auto *l = new QLabel(text, content);
        QFont f = l->font();
        f.setWeight(QFont::DemiBold);
        f.setPointSizeF(f.pointSizeF() * 1.15);
        l->setFont(f);
        return l;
    };

    layout->addWidget(heading(tr("Worth a look")));
    m_findingsView = makeTable(m_findingModel, content);
    m_findingsView->setAccessibleName(tr("Worth a look"));
    m_findingsView->horizontalHeader()->hide();
    m_findingsView->horizontalHeader()->setSectionResizeMode(OverviewFindingModel::FindingColumn,
                                                             QHeaderView::Stretch);
    // A finding is a sentence: wrapped in a narrow window or a longer language, never cut.
    m_findingsView->setWordWrap(true);
    m_findingsView->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_findingsView->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(m_findingsView->verticalHeader(), &QHeaderView::sectionResized, this,
            [this] { fitHeight(m_findingsView); });
    layout->addWidget(m_findingsView);
    m_noFindings->setWordWrap(true);
    layout->addWidget(m_noFindings);

    // Allocations are memory, not latencies: what is held, its peak and growth, and by which
    // stacks (memleak).
    m_memoryHeading = heading(tr("Memory"));
    layout->addWidget(m_memoryHeading);
    m_memoryModel = new OverviewMemoryModel(this);
    m_memoryView = makeTable(m_memoryModel, content);
    m_memoryView->setAccessibleName(tr("Memory"));
    m_memoryView->horizontalHeader()->hide();
    m_memoryView->horizontalHeader()->setSectionResizeMode(OverviewMemoryModel::AmountColumn,
                                                           QHeaderView::Stretch);
    layout->addWidget(m_memoryView);
    connect(m_memoryView, &QAbstractItemView::activated, this, [this](const QModelIndex &index) {
        if (index.row() >= OverviewMemoryModel::StackRows)
            Q_EMIT viewRequested(View::Memory, EventType::Allocation);
    });
    connect(m_memoryView, &QAbstractItemView::doubleClicked, this,
            [this] { Q_EMIT viewRequested(View::Memory, EventType::Allocation); });

    layout->addWidget(heading(tr("Top processes")));
    m_costBox = new QWidget(content);
    m_costGrid = new QGridLayout(m_costBox);
    m_costGrid->setContentsMargins(0, 0, 0, 0);
    for (int k = 0; k < CostKindCount; ++k) {
        auto *model = new OverviewCostModel(CostKind(k), this);
        auto *view = makeTable(model, m_costBox);
        view->horizontalHeader()->setSectionResizeMode(OverviewCostModel::ProcessColumn,
                                                       QHeaderView::Stretch);
        view->setAccessibleName(OverviewCostModel::kindTitle(CostKind(k)));
        view->hide();
        m_costModels << model;
        m_costViews << view;
        connect(view, &QAbstractItemView::activated, this,
                [this, k](const QModelIndex &index) { activateCost(CostKind(k), index.row()); });
    }
    layout->addWidget(m_costBox);
    m_noCosts = new QLabel(content);
    m_noCosts->setWordWrap(true);
    layout->addWidget(m_noCosts);

    layout->addWidget(heading(tr("Probes")));
    m_probesView = makeTable(m_probeModel, content);
    m_probesView->setAccessibleName(tr("Probes"));
    // Every column whole ("1 nicht gesehen", "16.632 Messwerte in 10 Intervallen"), none
    // stretched to be cut: a window too narrow for them scrolls the table sideways.
    layout->addWidget(m_probesView);
    layout->addStretch(1);

    auto *scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    connect(&m_job, &BackgroundJob::due, this, &OverviewPage::start);
    connect(m_state, &ViewState::rangeChanged, this, [this] { schedule(false); });
    connect(m_state, &ViewState::filterChanged, this, [this] { schedule(true); });
    // The worker reads the session: it must be done before the session changes.
    const auto stop = [this] { m_job.stopAndWait(); };
    connect(m_session, &SessionModel::aboutToReset, this, [this] {
        m_job.stopAndWait();
        // Its stacks are of the table about to go.
        m_memoryModel->setMemory({}, nullptr, 0);
    });
    connect(m_session, &SessionModel::aboutToBeDestroyed, this, stop);
    connect(m_session, &SessionModel::reset, this, [this] { schedule(true); });
    connect(m_session, &SessionModel::aboutToAppend, this, stop);
    connect(m_session, &SessionModel::appended, this, &OverviewPage::scheduleLive);
    connect(m_own, &QCheckBox::toggled, this, [this] { schedule(true); });
    // A finding is a link: one click follows it, as Enter does.
    connect(m_findingsView, &QAbstractItemView::clicked, this,
            [this](const QModelIndex &index) { activateFinding(index.row()); });
    connect(m_findingsView, &QAbstractItemView::activated, this,
            [this](const QModelIndex &index) { activateFinding(index.row()); });
    m_findingsView->viewport()->setCursor(Qt::PointingHandCursor);
    present({});
    m_computing = false;
    schedule(true);
}

OverviewPage::~OverviewPage()
{
    // The work reads the session, which may go away right after this page.
    m_job.stopAndWait();
}

QTableView *OverviewPage::costView(CostKind kind) const
{
    QTableView *view = m_costViews.value(int(kind));
    return view && !view->isHidden() ? view : nullptr;
}

OverviewCostModel *OverviewPage::costModel(CostKind kind) const
{
    return m_costModels.value(int(kind));
}

void OverviewPage::setShowOwnProcesses(bool show)
{
    m_own->setChecked(show);
}

void OverviewPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        m_job.schedule(DebounceMs);
}

void OverviewPage::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        for (QTableView *v : std::as_const(m_costViews))
            fitHeight(v);
        fitHeight(m_findingsView);
        fitHeight(m_probesView);
        fitHeight(m_memoryView);
    }
}

void OverviewPage::schedule(bool spikes)
{
    m_spikesStale = m_spikesStale || spikes;
    m_computing = true;
    m_dirty = true;
    m_status->setText(tr("Computing…"));
    // The result of the request before this one is dropped either way; a hidden page computes
    // nothing until it is shown.
    if (isVisible())
        m_job.schedule(DebounceMs);
    else
        m_job.cancel();
}

void OverviewPage::scheduleLive()
{
    m_spikesStale = true;
    // Batches come every 500 ms: restarting the timer for each would never let it fire.
    if (m_job.isScheduled())
        return;
    schedule(true);
    if (m_job.isScheduled()) // not while hidden
        m_job.schedule(LiveIntervalMs);
}

void OverviewPage::start()
{
    m_dirty = false;
    OverviewQuery q;
    q.startNs = m_state->startNs();
    q.endNs = m_state->endNs();
    q.filter = m_state->filter();
    q.fullStartNs = m_state->fullStartNs();
    q.fullEndNs = m_state->fullEndNs();
    q.includeOwn = m_own->isChecked();
    q.findSpikes = m_spikesStale;
    const SessionData *data = &m_session->data();
    const StackTable *stacks = &m_session->stacks();
    m_job.run(
        [data, stacks, q](const JobToken &token) {
            return computeOverview(*data, q, stacks, token.flag());
        },
        [this](Overview o) { present(std::move(o)); });
}

void OverviewPage::present(Overview o)
{
    m_computing = false;
    if (o.spikesSearched) {
        m_spikesStale = false;
        m_spikes.clear();
        for (const Finding &f : std::as_const(o.findings)) {
            if (f.kind == Finding::Kind::Spike)
                m_spikes << f;
        }
    } else {
        // The spikes are of the whole recording: a new range keeps them, after the losses.
        qsizetype at = 0;
        while (at < o.findings.size() && o.findings[at].kind == Finding::Kind::Losses)
            ++at;
        for (const Finding &f : std::as_const(m_spikes))
            o.findings.insert(at++, f);
    }
    const bool noSession = m_session->isEmpty() && m_session->data().histograms.isEmpty();
    m_findingModel->setFindings(o.findings, m_session->info().startMonotonicNs);
    m_findingsView->setVisible(!o.findings.isEmpty());
    m_noFindings->setVisible(o.findings.isEmpty());
    m_noFindings->setText(noSession ? tr("No session yet: record one, or open a .bpflens file.")
                                    : tr("Nothing stands out: no lost events, no bursts, no "
                                         "failed calls and no long run-queue waits."));
    fitHeight(m_findingsView);

    // Two lists to a row: a process name keeps its width at 1366 px with the probes dock open.
    bool anyCost = false;
    int shown = 0;
    for (int k = 0; k < CostKindCount; ++k) {
        QTableView *view = m_costViews[k];
        m_costGrid->removeWidget(view);
        auto it = std::find_if(o.costs.begin(), o.costs.end(),
                               [k](const CostList &l) { return int(l.kind) == k; });
        if (it == o.costs.end()) {
            m_costModels[k]->setList(CostList{CostKind(k), {}, 0, 0, 0});
            view->hide();
            continue;
        }
        anyCost = true;
        m_costModels[k]->setList(*it);
        m_costGrid->addWidget(view, shown / 2, shown % 2);
        ++shown;
        view->show();
        fitHeight(view);
    }
    m_costBox->setVisible(anyCost);
    m_noCosts->setVisible(!anyCost);
    m_noCosts->setText(
        tr("No CPU samples, off-CPU, block I/O, open or connect events. Record with the "
           "profile, offcpu, block, open or tcpconnect probes to rank processes by them."));

    m_probeModel->setProbes(o.probes);
    fitHeight(m_probesView);
    const bool memory = o.memory.present;
    m_memoryModel->setMemory(std::move(o.memory), &m_session->stacks(),
                             m_session->info().startMonotonicNs);
    m_memoryHeading->setVisible(memory);
    m_memoryView->setVisible(memory);
    fitHeight(m_memoryView);
    updateLosses();

    const QLocale locale;
    const quint64 origin = m_session->info().startMonotonicNs;
    auto seconds = [&](quint64 t) {
        return locale.toString(double(t - std::min(t, origin)) / 1e9, 'f', 1);
    };
    m_status->setText(noSession
                          ? QString()
                          : (m_state->filter().isEmpty()
                                 ? tr("%1–%2 s: %Ln event(s)", "", o.eventsInRange)
                                 : tr("%1–%2 s: %Ln event(s) pass the filter", "", o.eventsInRange))
                                .arg(seconds(m_state->startNs()), seconds(m_state->endNs())));
    Q_EMIT updated();
}

void OverviewPage::updateLosses()
{
    quint64 lost = 0, unseen = 0, unfinished = 0;
    for (const ProbeOverview &p : m_probeModel->probes()) {
        lost += p.lost;
        unseen += p.unseen;
        unfinished += p.unfinished;
    }
    // Red only for a full buffer: "not seen" and "unfinished" are how the kernel ran, said
    // in the text colour with what they mean.
    m_lossBadge->setVisible(lost > 0);
    m_lossBadge->setText(tr("%Ln event(s) lost", "", qint64(lost)));
    m_lossBadge->setToolTip(OverviewProbeModel::lostExplanation());
    QStringList notes, why;
    if (unseen) {
        notes << tr("%1 not seen").arg(QLocale().toString(unseen));
        why << tr("Not seen: %1").arg(OverviewProbeModel::unseenExplanation());
    }
    if (unfinished) {
        notes << tr("%1 unfinished").arg(QLocale().toString(unfinished));
        why << tr("Unfinished: %1").arg(OverviewProbeModel::unfinishedExplanation());
    }
    m_missingNote->setText(notes.join(QStringLiteral(" · ")));
    m_missingNote->setToolTip(why.join(QStringLiteral("\n\n")));
    m_missingNote->setVisible(!notes.isEmpty());
}

void OverviewPage::fitHeight(QTableView *view)
{
    const int header =
        view->horizontalHeader()->isHidden() ? 0 : view->horizontalHeader()->sizeHint().height();
    // Room for a horizontal scroll bar: a narrow window scrolls a wide table, it does not cut it.
    const int scrollBar = view->horizontalScrollBarPolicy() == Qt::ScrollBarAlwaysOff
                              ? 0
                              : view->horizontalScrollBar()->sizeHint().height();
    view->setFixedHeight(header + view->verticalHeader()->length() + 2 * view->frameWidth() +
                         scrollBar);
}

void OverviewPage::activateFinding(int row)
{
    const QList<Finding> &findings = m_findingModel->findings();
    if (row < 0 || row >= findings.size())
        return;
    const Finding &f = findings[row];
    switch (f.kind) {
    case Finding::Kind::Losses:
        // A probe without events of its own (a histogram probe) has no table to show.
        if (f.probeId == QLatin1String(probeIdOf(f.type)) && m_session->events().count(f.type) > 0)
            Q_EMIT viewRequested(View::Events, f.type);
        return;
    case Finding::Kind::Spike:
        m_state->setRange(f.startNs, f.endNs);
        Q_EMIT viewRequested(View::Explain, f.type);
        return;
    case Finding::Kind::Errors: {
        EventFilter e;
        e.error = f.error;
        m_state->narrowFilter(e);
        Q_EMIT viewRequested(View::Events, f.type);
        return;
    }
    case Finding::Kind::RunQueue:
        Q_EMIT viewRequested(View::Histograms, f.type);
        return;
    }
}

void OverviewPage::activateCost(CostKind kind, int row)
{
    OverviewCostModel *model = costModel(kind);
    if (!model || row < 0 || row >= model->rowCount())
        return;
    m_state->narrowFilter(model->filterFor(row));
    switch (kind) {
    case CostKind::CpuSamples:
        Q_EMIT viewRequested(View::CpuProfile, EventType::CpuSample);
        return;
    case CostKind::OffCpuTime:
        Q_EMIT viewRequested(View::OffCpuProfile, EventType::OffCpu);
        return;
    default:
        Q_EMIT viewRequested(View::Events, costEventType(kind));
        return;
    }
}

} // namespace bpflens
