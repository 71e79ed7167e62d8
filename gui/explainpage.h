#pragma once

#include "core/spikeexplain.h"
#include "gui/models/backgroundjob.h"

#include <QWidget>

#include <optional>

class QLabel;
class QStackedWidget;
class QTableView;

namespace bpflens {

class ExplainModel;
class SessionModel;
class ViewState;

// The "Explain" tab (docs/explain.md): what is over-represented in the visible range against
// the rest of the recording, under the current filter. A heatmap selection's request
// (ViewState::requestExplainOf) explains the selection: its event type only, in its range and
// latency window, for as long as the range and window stay the selection's. Follows ViewState's
// range and filter and is computed in a worker thread, a newer request dropping the result of
// an older one, like the Top tab. Activating a row filters every view to it.
class ExplainPage : public QWidget
{
    Q_OBJECT
public:
    static constexpr int RowLimit = 50;

    ExplainPage(SessionModel *session, ViewState *state, QWidget *parent = nullptr);
    ~ExplainPage() override;

    // Filters every view to the row's value (keeping the rest of the current filter); false
    // for a row the filter cannot say (destinations, errors, functions).
    bool activateRow(int row);
    bool isComputing() const { return m_computing; }
    // The text shown instead of the table ("" while the table shows).
    QString emptyText() const;

    QTableView *view() const { return m_view; }
    ExplainModel *model() const { return m_model; }
    QLabel *summaryLabel() const { return m_summary; }
    // The event type the explanation is of (a heatmap selection's); unset: every type.
    std::optional<EventType> scopeType() const;

Q_SIGNALS:
    // A result arrived and is shown.
    void updated();

private:
    void schedule();
    void start();
    void present(const ExplainQuery &q, Explanation x);
    void showEmpty(const QString &text);
    void takeRequest();
    // Drops the scope once the range or latency window are no longer the selection's.
    void checkScope();

    SessionModel *m_session;
    ViewState *m_state;
    bool m_computing = false;
    BackgroundJob m_job;
    // A heatmap selection's request: its type, and the range and window that are the selection.
    struct Scope
    {
        EventType type = EventType::Block;
        quint64 startNs = 0;
        quint64 endNs = 0;
        quint64 minLatencyNs = 0;
        quint64 maxLatencyNs = 0;
    };
    std::optional<Scope> m_scope;

    QLabel *m_summary;
    QStackedWidget *m_stack;
    QLabel *m_empty;
    QTableView *m_view;
    ExplainModel *m_model;
};

} // namespace bpflens
