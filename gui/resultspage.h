#pragma once

#include "gui/models/viewstate.h"

#include "core/records.h"

#include <QHash>
#include <QSet>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QToolButton;

namespace bpflens {

class CountersView;
class DetailsPane;
class EventFilterModel;
class EventTableModel;
class ExplainPage;
class HeatmapView;
class HistogramView;
class IoStackView;
class LatencySpinBox;
class MemoryPage;
class ProfilePage;
class QueryPage;
class SessionModel;
class StackChartView;
class SummaryPanel;
class ThreadStateView;
class TimelineWidget;
class TopPage;

// What a session shows, as hotspot's ResultsPage: the timeline on top, the filter bar, and the
// views in a few groups below (Overview, Latency, CPU, Memory, I/O, Analysis, Events), so that the
// row of tabs fits a laptop's screen in every language. Events is one table with an event-type
// selector and the selected event's details below it, at the table's full width. The window
// places this page beside the start and recording pages; the views follow ViewState.
class ResultsPage : public QWidget
{
    Q_OBJECT
public:
    ResultsPage(SessionModel *session, ViewState *state, QWidget *parent = nullptr);
    ~ResultsPage() override;

    // The groups' tab widget.
    QTabWidget *tabs() const { return m_tabs; }
    // Makes a view current: its group, its tab inside the group, or for an event table the
    // Events group with that event type selected.
    void showView(QWidget *view);
    // The view the user sees: the current group's current tab, or the shown event table.
    QWidget *currentView() const;
    // The text of a view's tab ("&Histograms"), or of its event type in the Events selector
    // ("Block I/O (35,075)"); empty for a view not shown.
    QString viewTitle(QWidget *view) const;
    // Ctrl+PgDown / Ctrl+PgUp: the next or previous view, a group's own tabs included, round
    // the end.
    void stepGroup(int step);
    // View > Next Tab and Previous Tab (Ctrl+PgDown, Ctrl+PgUp) and a separator.
    void addTabActions(QMenu *menu);

    // The event types offered in the Events selector (those the session recorded), in the
    // order of the event types; -1 for one not offered.
    int eventTypeIndex(EventType type) const;
    QComboBox *eventTypeBox() const { return m_eventType; }
    QWidget *eventsPage() const { return m_eventsPage; }

    TimelineWidget *timeline() const { return m_timeline; }
    HistogramView *histogramView() const { return m_histograms; }
    HeatmapView *heatmapView() const { return m_heatmap; }
    CountersView *countersView() const { return m_counters; }
    DetailsPane *detailsPane() const { return m_details; }
    SummaryPanel *summaryPanel() const { return m_summary; }
    IoStackView *ioStackView() const { return m_ioStack; }
    ProfilePage *profilePage() const { return m_profile; }
    // The Memory group (memleak): memory in use as a flame graph, and its top stacks.
    ProfilePage *memoryProfilePage() const { return m_memoryProfile; }
    MemoryPage *memoryPage() const { return m_memory; }
    StackChartView *stackChart() const { return m_stackChart; }
    QueryPage *queryPage() const { return m_query; }
    TopPage *topPage() const { return m_top; }
    ExplainPage *explainPage() const { return m_explain; }
    ThreadStateView *threadStateView() const { return m_threads; }
    EventTableModel *tableModel(EventType type) const;
    EventFilterModel *filterModel(EventType type) const;
    QTableView *tableView(EventType type) const;
    QLineEdit *textFilterEdit() const { return m_textFilter; }
    QComboBox *workloadFilter() const { return m_workloadFilter; }
    LatencySpinBox *latencyFilter() const { return m_latencyFilter; }
    // For the status bar: the visible range, and "Filtering…" while a large table filters.
    QLabel *rangeLabel() const { return m_rangeLabel; }
    QLabel *filteringLabel() const { return m_filtering; }
    QSplitter *splitter() const { return m_splitter; }

    // The widget "Export chart" saves: the current view's charts, else the timeline.
    QWidget *currentChartWidget() const;
    // While recording: the summary's duration is "so far", the range label waits for data, and
    // the tables are sized again to everything recorded when it ends.
    void setRecording(bool recording);
    // execsnoop -T: the tables' Time column as the local time of day.
    void setTimeOfDay(bool on);

private:
    QWidget *createFilterBar();
    QWidget *createEventsPage();
    QWidget *createGroup(const QList<QPair<QWidget *, QString>> &views);
    void applyFilter();
    // Fills the workload box from the session's cgroups when they changed; keeps the choice.
    void updateWorkloads();
    void sessionReset();
    void updateEventTypes(bool resizeAll);
    void updateRangeLabel();
    // The Threads tab is offered when the session has thread states (the threadstate probe),
    // the Memory tab when it has allocations (memleak).
    void updateThreadsTab();
    void showEventType(EventType type);
    void selectInTable(const EventRef &ref, bool followTab = true);

    SessionModel *m_session;
    ViewState *m_state;
    bool m_recording = false;
    QSet<int> m_sizedTables; // event types whose table was sized with rows in it
    QHash<int, EventTableModel *> m_tableModels;
    QHash<int, EventFilterModel *> m_filterModels;
    QHash<int, QTableView *> m_tables;
    TimelineWidget *m_timeline = nullptr;
    HistogramView *m_histograms = nullptr;
    HeatmapView *m_heatmap = nullptr;
    CountersView *m_counters = nullptr;
    DetailsPane *m_details = nullptr;
    SummaryPanel *m_summary = nullptr;
    IoStackView *m_ioStack = nullptr;
    ProfilePage *m_profile = nullptr;
    ProfilePage *m_memoryProfile = nullptr;
    MemoryPage *m_memory = nullptr;
    QWidget *m_memoryGroup = nullptr;
    StackChartView *m_stackChart = nullptr;
    QueryPage *m_query = nullptr;
    TopPage *m_top = nullptr;
    ExplainPage *m_explain = nullptr;
    ThreadStateView *m_threads = nullptr;
    QTabWidget *m_tabs = nullptr;
    QList<QTabWidget *> m_groups; // the groups of more than one view
    QWidget *m_eventsPage = nullptr;
    QComboBox *m_eventType = nullptr;
    QStackedWidget *m_eventTables = nullptr;
    QSplitter *m_splitter = nullptr;
    QLineEdit *m_textFilter = nullptr;
    QLineEdit *m_pidFilter = nullptr;
    QLineEdit *m_commFilter = nullptr;
    LatencySpinBox *m_latencyFilter = nullptr;
    QToolButton *m_keyFilter = nullptr; // a destination or error filter from a row; clears it
    // Every container and unit of the session's cgroups (shown when they tell events apart).
    QComboBox *m_workloadFilter = nullptr;
    qsizetype m_workloadCgroups = -1; // the cgroups the box was filled from
    QLabel *m_rangeLabel = nullptr;
    QLabel *m_filtering = nullptr;
    bool m_syncingSelection = false;
};

} // namespace bpflens
