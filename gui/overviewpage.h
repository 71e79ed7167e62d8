#pragma once

#include "core/overview.h"
#include "gui/models/backgroundjob.h"

#include <QWidget>

class QCheckBox;
class QGridLayout;
class QLabel;
class QStackedWidget;
class QTableView;

namespace bpflens {

class OverviewCostModel;
class OverviewFindingModel;
class OverviewMemoryModel;
class OverviewProbeModel;
class SessionModel;
class ViewState;

// The Overview (issue #29): what is worth a look, the top processes by each kind of cost and
// what each probe recorded, for the visible range under the filter, computed in a worker
// (core/overview.h) whenever they change. A finding or a process is a link: activating it
// sets the range or the filter and asks the window for the view that shows it.
class OverviewPage : public QWidget
{
    Q_OBJECT
public:
    // The views a link leads to. Events: the event table of the type given with it.
    enum class View
    {
        Explain,
        Events,
        Histograms,
        CpuProfile,
        OffCpuProfile,
        Memory, // the Memory group's top stacks
    };
    Q_ENUM(View)

    static constexpr int DebounceMs = 50;       // a pan sends many range changes
    static constexpr int LiveIntervalMs = 1000; // while recording

    OverviewPage(SessionModel *session, ViewState *state, QWidget *parent = nullptr);
    ~OverviewPage() override;

    // A computation is running or waiting for the range or filter to settle.
    bool isComputing() const { return m_computing; }
    // Whether BPF Lens' own processes are in the top lists (off by default).
    void setShowOwnProcesses(bool show);

    // Follows the link of a finding or a top-list row.
    void activateFinding(int row);
    void activateCost(CostKind kind, int row);

    QCheckBox *ownProcessesBox() const { return m_own; }
    QLabel *lossBadge() const { return m_lossBadge; }
    QLabel *missingNote() const { return m_missingNote; }
    QLabel *statusLabel() const { return m_status; }
    QTableView *findingsView() const { return m_findingsView; }
    QTableView *probesView() const { return m_probesView; }
    // Null while the session has no events of the kind.
    QTableView *costView(CostKind kind) const;
    QLabel *noFindingsLabel() const { return m_noFindings; }
    // The memory of a session with allocations (memleak); hidden in others.
    QTableView *memoryView() const { return m_memoryView; }
    QLabel *memoryHeading() const { return m_memoryHeading; }
    OverviewMemoryModel *memoryModel() const { return m_memoryModel; }
    OverviewProbeModel *probeModel() const { return m_probeModel; }
    OverviewFindingModel *findingModel() const { return m_findingModel; }
    OverviewCostModel *costModel(CostKind kind) const;

Q_SIGNALS:
    void viewRequested(bpflens::OverviewPage::View view, bpflens::EventType type);
    // A result arrived and is shown.
    void updated();

protected:
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void schedule(bool spikes);
    // A live batch arrived: recomputed at most once a second, not every batch.
    void scheduleLive();
    void start();
    void present(Overview overview);
    void updateLosses();
    void fitHeight(QTableView *view);

    SessionModel *m_session;
    ViewState *m_state;
    BackgroundJob m_job;
    bool m_computing = false;
    bool m_dirty = true;       // scheduled while hidden
    bool m_spikesStale = true; // the spikes need a scan of the recording again
    QList<Finding> m_spikes;   // of the last scan: over the whole recording

    QCheckBox *m_own;
    QLabel *m_lossBadge;
    QLabel *m_missingNote;
    QLabel *m_status;
    QLabel *m_noFindings;
    QTableView *m_findingsView;
    QTableView *m_probesView;
    QWidget *m_costBox;
    QGridLayout *m_costGrid;
    QLabel *m_noCosts;
    QList<QTableView *> m_costViews; // per CostKind
    OverviewProbeModel *m_probeModel;
    OverviewFindingModel *m_findingModel;
    QLabel *m_memoryHeading;
    QTableView *m_memoryView;
    OverviewMemoryModel *m_memoryModel;
    QList<OverviewCostModel *> m_costModels; // per CostKind
};

} // namespace bpflens
