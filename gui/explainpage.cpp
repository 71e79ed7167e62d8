#include "gui/explainpage.h"

#include "gui/models/eventmodels.h"
#include "gui/models/explainmodel.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace bpflens {

ExplainPage::ExplainPage(SessionModel *session, ViewState *state, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_state(state)
    , m_summary(new QLabel(this))
    , m_stack(new QStackedWidget(this))
    , m_empty(new QLabel(this))
    , m_view(new QTableView(this))
    , m_model(new ExplainModel(this))
{
    // The summary changes with every result: it must not widen the window's minimum size.
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(ExplainModel::KeyColumn, QHeaderView::Stretch);
    m_view->setAccessibleName(tr("Over-represented in the range"));

    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_empty);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_stack, 1);

    connect(&m_job, &BackgroundJob::due, this, &ExplainPage::start);
    connect(m_state, &ViewState::explainRequested, this, &ExplainPage::takeRequest);
    connect(m_state, &ViewState::rangeChanged, this, &ExplainPage::schedule);
    connect(m_state, &ViewState::filterChanged, this, &ExplainPage::schedule);
    // The worker reads the store: it must be done before the store changes.
    const auto stop = [this] { m_job.stopAndWait(); };
    connect(m_session, &SessionModel::aboutToReset, this, stop);
    connect(m_session, &SessionModel::aboutToBeDestroyed, this, stop);
    connect(m_session, &SessionModel::reset, this, [this] {
        m_scope.reset();
        schedule();
    });
    connect(m_session, &SessionModel::aboutToAppend, this, stop);
    connect(m_session, &SessionModel::appended, this, &ExplainPage::schedule);
    connect(m_view, &QAbstractItemView::activated, this,
            [this](const QModelIndex &index) { activateRow(index.row()); });
    schedule();
}

ExplainPage::~ExplainPage()
{
    // The work reads the session's store, which may go away right after this page.
    m_job.stopAndWait();
}

QString ExplainPage::emptyText() const
{
    return m_stack->currentWidget() == m_empty ? m_empty->text() : QString();
}

std::optional<EventType> ExplainPage::scopeType() const
{
    return m_scope ? std::optional<EventType>(m_scope->type) : std::nullopt;
}

void ExplainPage::takeRequest()
{
    m_scope.reset();
    if (const std::optional<EventType> type = m_state->explainType()) {
        const EventFilter &f = m_state->filter();
        m_scope =
            Scope{*type, m_state->startNs(), m_state->endNs(), f.minLatencyNs, f.maxLatencyNs};
    }
    schedule();
}

void ExplainPage::checkScope()
{
    if (!m_scope)
        return;
    const EventFilter &f = m_state->filter();
    if (m_state->startNs() != m_scope->startNs || m_state->endNs() != m_scope->endNs ||
        f.minLatencyNs != m_scope->minLatencyNs || f.maxLatencyNs != m_scope->maxLatencyNs)
        m_scope.reset();
}

void ExplainPage::schedule()
{
    // The result of the request before this one is dropped (see TopPage::schedule).
    m_computing = true;
    m_summary->setText(tr("Computing…"));
    m_job.schedule();
}

void ExplainPage::showEmpty(const QString &text)
{
    m_model->clear();
    m_empty->setText(text);
    m_stack->setCurrentWidget(m_empty);
}

void ExplainPage::start()
{
    // An empty page below is shown now: a result still on its way must not replace it.
    m_job.cancel();
    checkScope();
    if (m_session->events().isEmpty()) {
        m_computing = false;
        m_summary->clear();
        showEmpty(tr("No events. Open a session or record one, zoom into a spike in the "
                     "timeline and see what is special about it."));
        Q_EMIT updated();
        return;
    }
    if (!m_state->isZoomed()) {
        m_computing = false;
        m_summary->clear();
        showEmpty(tr("Zoom into a spike in the timeline (Shift+drag across it) or select heatmap "
                     "cells: this tab then lists the processes, files, disks and functions "
                     "that are more common there than in the rest of the recording."));
        Q_EMIT updated();
        return;
    }
    ExplainQuery q;
    q.startNs = m_state->startNs();
    q.endNs = m_state->endNs();
    q.filter = m_state->filter();
    q.limit = RowLimit;
    if (m_scope)
        q.type = m_scope->type;
    const EventStore *store = &m_session->events();
    const StackTable *stacks = &m_session->stacks();
    m_job.run([store, stacks,
               q](const JobToken &token) { return explainRange(*store, q, stacks, token.flag()); },
              [this, q](Explanation x) { present(q, std::move(x)); });
}

void ExplainPage::present(const ExplainQuery &q, Explanation x)
{
    m_computing = false;
    const quint64 origin = m_session->info().startMonotonicNs;
    const QLocale locale;
    const bool window = q.filter.minLatencyNs || q.filter.maxLatencyNs;
    const QString from = EventTableModel::formatTime(q.startNs, origin);
    const QString to = EventTableModel::formatTime(q.endNs, origin);
    if (q.type) {
        // A heatmap selection: say which events these are, so the counts can be
        // checked against the selection's.
        const QString high = q.filter.maxLatencyNs
                                 ? EventTableModel::formatDuration(q.filter.maxLatencyNs)
                                 : QStringLiteral("∞");
        m_summary->setText(tr("The heatmap selection: %1 events from %2 to %3 with a latency of "
                              "%4 – %5: %6 inside, %7 outside. Most over-represented first:")
                               .arg(SessionModel::typeName(*q.type), from, to,
                                    EventTableModel::formatDuration(q.filter.minLatencyNs), high,
                                    locale.toString(x.insideEvents),
                                    locale.toString(x.outsideEvents)));
    } else {
        const int inside = int(std::min<qint64>(x.insideEvents, INT_MAX));
        m_summary->setText((window ? tr("%1 to %2: %Ln event(s) with the selected latency inside, "
                                        "%3 outside. Most over-represented first:",
                                        nullptr, inside)
                                   : tr("%1 to %2: %Ln event(s) inside, %3 outside. Most "
                                        "over-represented first:",
                                        nullptr, inside))
                               .arg(from, to, locale.toString(x.outsideEvents)));
    }
    if (x.insideEvents == 0) {
        showEmpty(tr("No events in the visible range pass the filter. Zoom "
                     "out or change the filter."));
    } else if (x.rows.isEmpty()) {
        showEmpty(tr("Nothing is more common in the visible range than in the rest of "
                     "the recording with at least %1 events and %2 % of the range's "
                     "events.")
                      .arg(locale.toString(MinimumSupportEvents),
                           locale.toString(MinimumSupportShare * 100, 'g', 3)));
    } else {
        m_model->setExplanation(std::move(x));
        m_stack->setCurrentWidget(m_view);
    }
    Q_EMIT updated();
}

bool ExplainPage::activateRow(int row)
{
    const std::optional<EventFilter> rowFilter = m_model->filterFor(row);
    if (!rowFilter)
        return false;
    m_state->narrowFilter(*rowFilter);
    return true;
}

} // namespace bpflens
