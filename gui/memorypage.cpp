#include "gui/memorypage.h"

#include "core/allocations.h"
#include "core/units.h"
#include "gui/models/memorymodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/stackframes.h"
#include "gui/models/viewstate.h"

#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>

#include <climits>

namespace bpflens {

struct MemoryPage::Result
{
    QList<MemoryStackModel::Row> rows;
    quint64 inUseBytes = 0, inUseBlocks = 0, allocatedBytes = 0, allocatedBlocks = 0;
    qsizetype events = 0;
    quint32 sampleEvery = 1;
};

MemoryPage::MemoryPage(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
    , m_status(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_empty(new QLabel(this))
    , m_model(new MemoryStackModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_stackLabel(new QLabel(this))
    , m_frames(new StackFramesModel(this))
    , m_framesView(new QTreeView(this))
{
    setAccessibleName(tr("Top stacks of memory in use"));
    m_status->setObjectName(QStringLiteral("memoryStatus"));
    // Long texts (German) must not widen the window: the rest is in the tool tip.
    m_status->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_status->setContentsMargins(6, 4, 6, 0);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(MemoryStackModel::SortRole);
    m_table->setModel(m_proxy);
    m_table->setAccessibleName(tr("Stacks holding memory"));
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(MemoryStackModel::BytesColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setShowGrid(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(MemoryStackModel::FunctionColumn,
                                                      QHeaderView::Stretch);
    m_table->horizontalHeader()->setHighlightSections(false);

    m_stackLabel->setObjectName(QStringLiteral("memoryStackSummary"));
    m_stackLabel->setWordWrap(true);
    m_stackLabel->setContentsMargins(6, 2, 6, 2);
    m_framesView->setModel(m_frames);
    m_framesView->setAccessibleName(tr("Stack frames"));
    m_framesView->setRootIsDecorated(false);
    m_framesView->setUniformRowHeights(true);
    m_framesView->setAlternatingRowColors(true);
    m_framesView->setTextElideMode(Qt::ElideMiddle);
    m_framesView->header()->setStretchLastSection(false);
    m_framesView->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_framesView->header()->setSectionResizeMode(StackFramesModel::FunctionColumn,
                                                 QHeaderView::Stretch);
    auto *details = new QWidget(this);
    auto *detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->setSpacing(0);
    detailsLayout->addWidget(m_stackLabel);
    detailsLayout->addWidget(m_framesView, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("memorySplitter"));
    split->addWidget(m_table);
    split->addWidget(details);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    m_empty->setObjectName(QStringLiteral("memoryEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setMargin(24);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(split);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_status);
    layout->addWidget(m_stack, 1);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (current.isValid())
                    showStack(current.data(MemoryStackModel::StackIdRole).toUInt());
            });
    connect(&m_job, &BackgroundJob::due, this, &MemoryPage::start);
    connect(m_state, &ViewState::rangeChanged, this, [this] { schedule(DebounceMs); });
    connect(m_state, &ViewState::filterChanged, this, [this] { schedule(0); });
    // The worker reads the store and the stacks: it is done before they change, and the rows
    // name stacks of the table they were summed from.
    const auto stop = [this] { m_job.stopAndWait(); };
    connect(m_session, &SessionModel::aboutToReset, this, [this] {
        m_job.stopAndWait();
        m_model->setRows({}, nullptr);
        m_frames->clear();
        m_selectedStack = ~0u;
    });
    connect(m_session, &SessionModel::aboutToBeDestroyed, this, stop);
    connect(m_session, &SessionModel::reset, this, [this] { schedule(0); });
    connect(m_session, &SessionModel::aboutToAppend, this, stop);
    connect(m_session, &SessionModel::appended, this, [this] {
        // Batches come every 500 ms: restarting the timer for each would never let it fire.
        if (!m_job.isScheduled())
            schedule(LiveIntervalMs);
    });
    present({});
    m_computing = false;
    schedule(0);
}

MemoryPage::~MemoryPage()
{
    // The work reads the session, which may go away right after this page.
    m_job.stopAndWait();
}

void MemoryPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        m_job.schedule(0);
}

void MemoryPage::schedule(int delayMs)
{
    m_computing = true;
    m_dirty = true;
    // A hidden page sums nothing until it is shown.
    if (isVisible())
        m_job.schedule(delayMs);
    else
        m_job.cancel();
}

void MemoryPage::start()
{
    m_dirty = false;
    AllocationQuery q;
    q.startNs = m_state->startNs();
    q.endNs = m_state->endNs();
    // The range reaching the session's end stays open, so live blocks after it are included.
    const quint64 sessionEnd = m_session->endTimeNs();
    if (q.endNs >= sessionEnd)
        q.endNs = ~quint64(0);
    q.pid = m_state->filter().pid;
    q.comm = m_state->filter().comm;
    // An open range ages to the last moment recorded (endTimeNs() is one past it).
    const quint64 ageEnd = q.endNs == ~quint64(0) ? sessionEnd - 1 : q.endNs;
    const SessionModel *session = m_session;
    m_job.run(
        [session, q, ageEnd](const JobToken &) {
            const AllocationSums sums =
                sumAllocations(session->events(), q, session->stacks().stackCount());
            Result r;
            r.rows = MemoryStackModel::rowsOf(sums, ageEnd);
            r.inUseBytes = sums.totalInuseBytes;
            r.allocatedBytes = sums.totalAllocBytes;
            for (size_t id = 0; id < sums.inuseBlocks.size(); ++id) {
                r.inUseBlocks += sums.inuseBlocks[id];
                r.allocatedBlocks += sums.allocBlocks[id];
            }
            r.events = sums.events;
            r.sampleEvery = sums.sampleEvery;
            return r;
        },
        [this](Result r) { present(std::move(r)); });
}

void MemoryPage::present(Result r)
{
    m_computing = false;
    m_allocatedBytes = r.allocatedBytes;
    m_allocatedBlocks = r.allocatedBlocks;
    m_hasAllocations = r.events > 0;
    const quint32 keep = m_selectedStack;
    const int stacks = int(r.rows.size());
    m_model->setRows(std::move(r.rows), &m_session->stacks());
    const QLocale locale;
    QString status = tr("In use at the range's end: %1 in %Ln block(s)", nullptr,
                        int(std::min<quint64>(r.inUseBlocks, INT_MAX)))
                         .arg(formatByteSize(r.inUseBytes, locale));
    status += QStringLiteral(" · ") + tr("%Ln stack(s)", nullptr, stacks);
    if (r.sampleEvery > 1)
        status += QStringLiteral(" · ") +
                  tr("each event standing for %1 allocations").arg(locale.toString(r.sampleEvery));
    m_status->setText(status);
    m_status->setToolTip(
        tr("The blocks allocated in the visible range and not freed by its end, by the stack "
           "that allocated them. Over the whole recording: every block never freed while it "
           "was recorded. Zoom the range to two moments to see what grew between them.") +
        QStringLiteral("\n") +
        tr("Allocated in the range: %1 in %Ln block(s)", nullptr,
           int(std::min<quint64>(r.allocatedBlocks, INT_MAX)))
            .arg(formatByteSize(r.allocatedBytes, locale)));
    const bool empty = m_model->rowCount() == 0;
    if (empty)
        m_empty->setText(emptyText());
    m_stack->setCurrentWidget(empty ? static_cast<QWidget *>(m_empty) : m_stack->widget(1));
    m_status->setVisible(!empty);
    // The stack selected before stays selected while it holds memory; else the largest.
    if (!empty && !selectStack(keep))
        selectStack(m_model->rows().first().stackId);
    if (empty) {
        m_frames->clear();
        m_stackLabel->clear();
        m_selectedStack = ~0u;
    }
    Q_EMIT updated();
}

bool MemoryPage::isShowingEmptyState() const
{
    return m_stack->currentWidget() == m_empty;
}

QString MemoryPage::emptyText() const
{
    if (m_session->events().count(EventType::Allocation) == 0)
        return tr("No allocations in this session.\n\nRecord a running process with the memleak "
                  "probe to see which call stacks hold its memory.");
    if (m_hasAllocations && m_allocatedBlocks > 0)
        return tr("Every block allocated in this range was freed by its end (%Ln block(s), %1).",
                  nullptr, int(std::min<quint64>(m_allocatedBlocks, INT_MAX)))
                   .arg(formatByteSize(m_allocatedBytes, QLocale())) +
               QStringLiteral("\n\n") +
               tr("Only the blocks still allocated at the range's end count: move its end later, "
                  "or zoom out (Ctrl+0 shows the whole session).");
    const QString hint = m_state->filter().pid >= 0 || !m_state->filter().comm.isEmpty()
                             ? tr("Zoom out on the timeline or clear the PID and command filters.")
                             : tr("Zoom out on the timeline (Ctrl+0 shows the whole session).");
    return tr("No allocations in this range.") + QStringLiteral("\n\n") + hint;
}

bool MemoryPage::selectStack(quint32 stackId)
{
    const int row = m_model->rowForStack(stackId);
    if (row < 0)
        return false;
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                          QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    showStack(stackId);
    return true;
}

void MemoryPage::showStack(quint32 stackId)
{
    m_selectedStack = stackId;
    const int row = m_model->rowForStack(stackId);
    m_frames->setStack(&m_session->stacks(), EventType::Allocation, stackId);
    m_stackLabel->setText(row < 0 ? QString() : MemoryStackModel::summary(m_model->rows()[row]));
}

} // namespace bpflens
