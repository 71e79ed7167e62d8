#pragma once

#include "core/toplists.h"
#include "gui/models/backgroundjob.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace bpflens {

class LatencyStatsModel;
class SessionModel;
class TopModel;
class ViewState;

// The "Top" tab (docs/top.md): the top processes, commands, files, disks, destinations,
// operations or errors of the visible range under the current filter, by a chosen metric; and
// the latency statistics per probe and key. Both follow ViewState's range and filter and are
// computed in a worker thread, a newer request dropping the result of an older one. Activating
// a row filters every view to it; "Go to max" selects the slowest event of a statistics row
// and zooms the range around it. Latencies and bytes are only added like with like (docs/top.md):
// ordering by latency, p99 or bytes keeps one probe's events (the Probe box; with "All probes"
// the first probe that has the metric), and a list over every probe hides the latency and bytes
// columns whose rows would add block I/O time to off-CPU time.
class TopPage : public QWidget
{
    Q_OBJECT
public:
    static constexpr int RowLimit = 50;

    TopPage(SessionModel *session, ViewState *state, QWidget *parent = nullptr);
    ~TopPage() override;

    void setDimension(Dimension d);
    void setMetric(TopMetric m);
    // Only this probe's events; unset: every probe.
    void setProbeType(std::optional<EventType> type);
    std::optional<EventType> probeType() const;
    // Filters every view to the top list's row (keeping the rest of the current filter).
    void activateRow(int row);
    // Selects the slowest event of the statistics row and zooms to it; false without one.
    bool goToMax(int row);
    // A computation is running (or waiting for the range or filter to settle).
    bool isComputing() const { return m_computing; }
    QString emptyText() const;

    QComboBox *dimensionBox() const { return m_dimensionBox; }
    QComboBox *metricBox() const { return m_metricBox; }
    QComboBox *probeBox() const { return m_probeBox; }
    QTableView *topView() const { return m_topView; }
    QTableView *statsView() const { return m_statsView; }
    QPushButton *goToMaxButton() const { return m_goToMax; }
    QPushButton *explainButton() const { return m_explain; }
    TopModel *topModel() const { return m_topModel; }
    LatencyStatsModel *statsModel() const { return m_statsModel; }
    QLabel *statusLabel() const { return m_status; }

Q_SIGNALS:
    // A result arrived and is shown.
    void updated();

private:
    void schedule();
    void start();
    void present(TopList list, QList<LatencyStats> stats, Dimension dimension);
    void updateGoToMax();
    void reloadProbes();
    // The probe a list ordered by metric is of when "All probes" is chosen: the first one
    // whose events have the metric and the dimension; unset for counts or when none has.
    std::optional<EventType> probeFor(TopMetric metric, Dimension dimension) const;
    // Hides the columns whose sums would add unlike quantities.
    void updateColumns();

    SessionModel *m_session;
    ViewState *m_state;
    bool m_computing = false;
    BackgroundJob m_job;

    QStackedWidget *m_stack;
    QLabel *m_empty;
    QComboBox *m_dimensionBox;
    QComboBox *m_metricBox;
    QComboBox *m_probeBox;
    QLabel *m_status;
    QTableView *m_topView;
    QTableView *m_statsView;
    QPushButton *m_goToMax;
    QPushButton *m_explain;
    TopModel *m_topModel;
    LatencyStatsModel *m_statsModel;
};

} // namespace bpflens
