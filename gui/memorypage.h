#pragma once

#include "gui/models/backgroundjob.h"

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QTreeView;

namespace bpflens {

class MemoryStackModel;
class SessionModel;
class StackFramesModel;
class ViewState;

// The Memory group's Top Stacks (memleak, issue #34): the stacks holding memory at the visible
// range's end, most bytes first, with their blocks and the age of the oldest (as memleak and
// `bpflens-cli show` list them), for the range and the process filters (ViewState); the selected
// stack's frames below, leaf first, as the details pane shows an event's. Summed in a worker
// (sumAllocations(), core/allocations.h) when the range, the filter or the session changes.
class MemoryPage : public QWidget
{
    Q_OBJECT
public:
    static constexpr int DebounceMs = 40;
    static constexpr int LiveIntervalMs = 1000;

    MemoryPage(SessionModel *session, ViewState *state, QWidget *parent = nullptr);
    ~MemoryPage() override;

    // A sum is running or waiting for the range or filter to settle.
    bool isComputing() const { return m_computing; }
    // Selects the stack's row (and shows its frames); false if no row holds it.
    bool selectStack(quint32 stackId);
    quint32 selectedStack() const { return m_selectedStack; }

    MemoryStackModel *stackModel() const { return m_model; }
    QTableView *stackView() const { return m_table; }
    StackFramesModel *frames() const { return m_frames; }
    QTreeView *framesView() const { return m_framesView; }
    QLabel *statusLabel() const { return m_status; }
    QLabel *stackLabel() const { return m_stackLabel; }
    bool isShowingEmptyState() const;
    QString emptyText() const;

Q_SIGNALS:
    // A result arrived and is shown.
    void updated();

protected:
    void showEvent(QShowEvent *event) override;

private:
    void schedule(int delayMs);
    void start();
    struct Result;
    void present(Result result);
    void showStack(quint32 stackId);

    SessionModel *m_session;
    ViewState *m_state;
    bool m_computing = false;
    bool m_dirty = true; // scheduled while hidden
    quint32 m_selectedStack = ~0u;
    quint64 m_allocatedBytes = 0;
    quint64 m_allocatedBlocks = 0;
    bool m_hasAllocations = false; // in the range, under the filter

    QLabel *m_status;
    QStackedWidget *m_stack;
    QLabel *m_empty;
    MemoryStackModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTableView *m_table;
    QLabel *m_stackLabel;
    StackFramesModel *m_frames;
    QTreeView *m_framesView;
    // Last: its destructor waits for the work, which reads the session.
    BackgroundJob m_job;
};

} // namespace bpflens
