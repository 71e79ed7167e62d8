#pragma once

#include "exportcontroller.h"
#include "viewstate.h"

#include "records.h"

#include <QHash>
#include <QMainWindow>
#include <QSet>

class QLabel;
class QLineEdit;
class QDoubleSpinBox;
class QFrame;
class QMenu;
class QTabWidget;
class QSplitter;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace bpflens {

class CountersView;
class LatencySpinBox;
class DetailsPane;
class EventFilterModel;
class EventTableModel;
class HeatmapView;
class HistogramView;
class IoStackView;
class ProbePanel;
class ProfilePage;
class QueryPage;
class HelpController;
class StartPage;
class TopPage;
class ExplainPage;
class Recorder;
class RecordingController;
class CompareController;
class RemoteHostController;
class SessionDocument;
class SessionModel;
class SummaryPanel;
class TimelineWidget;

// The session viewer: timeline on top, histograms, counters, one table per event type and the
// session summary in tabs below, the selected event's fields in a dock. It builds the widgets
// and hands the work to controllers: SessionDocument (open, save, recent files),
// RecordingController (record, stop, status figures) and ExportController (CSV, images).
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    // Records through recorder from now on (not owned; null: recording unavailable). Until a
    // backend is set the window has one that says recording is unavailable.
    void setRecorder(Recorder *recorder);
    Recorder *recorder() const;
    ~MainWindow() override;

    // Loads a session (with a cancellable progress dialog for long loads). On failure the
    // reader's message is shown in a message box (not blocking the caller), the current
    // session stays open, and false is returned with the message in *error.
    bool openFile(const QString &path, QString *error = nullptr);

    using ExportScope = ExportController::Scope;
    // What File > Export CSV does once a directory is chosen: the same files as
    // `bpflens-cli export` (CsvExport), limited to the scope.
    QStringList exportCsv(const QString &directory, ExportScope scope, const QString &probeId,
                          QString *error);
    // Writes the current session to path (SessionWriter); the document then is that file.
    bool saveTo(const QString &path, QString *error = nullptr);
    // A finished recording not yet saved (the title carries the modified mark).
    bool hasUnsavedRecording() const;
    bool isRecording() const;

    // A chart or the timeline as PNG (or any raster format Qt knows by suffix) or SVG.
    static bool exportImage(QWidget *widget, const QString &path, QString *error);
    // The widget "Export chart" saves: the current tab's charts, else the timeline.
    QWidget *currentChartWidget() const;

    SessionModel *session() const { return m_session; }
    ViewState *viewState() const { return m_state; }
    SessionDocument *document() const { return m_document; }
    RecordingController *recordingController() const { return m_recording; }
    ExportController *exportController() const { return m_exports; }
    CompareController *compareController() const { return m_compare; }
    RemoteHostController *remoteHosts() const { return m_remoteHosts; }
    TimelineWidget *timeline() const { return m_timeline; }
    HistogramView *histogramView() const { return m_histograms; }
    HeatmapView *heatmapView() const { return m_heatmap; }
    CountersView *countersView() const { return m_counters; }
    DetailsPane *detailsPane() const { return m_details; }
    SummaryPanel *summaryPanel() const { return m_summary; }
    IoStackView *ioStackView() const { return m_ioStack; }
    ProbePanel *probePanel() const { return m_probes; }
    ProfilePage *profilePage() const { return m_profile; }
    QueryPage *queryPage() const { return m_query; }
    StartPage *startPage() const { return m_start; }
    HelpController *helpController() const { return m_help; }
    // The start page or the views (timeline and tabs).
    QStackedWidget *pages() const { return m_pages; }
    TopPage *topPage() const { return m_top; }
    ExplainPage *explainPage() const { return m_explain; }
    QFrame *banner() const { return m_banner; }
    QLabel *bannerLabel() const { return m_bannerText; }
    // Shown while the open session was salvaged from a damaged file: what was lost.
    QFrame *damageBanner() const { return m_damageBanner; }
    QLabel *damageBannerLabel() const { return m_damageText; }
    QAction *recordAction() const;
    QAction *stopAction() const;
    QAction *saveAction() const;
    QAction *saveAsAction() const;
    QLabel *elapsedLabel() const;
    QLabel *rateLabel() const;
    QLabel *lostLabel() const;
    QLabel *cpuLabel() const;
    // Refreshes the recording figures in the status bar (a timer does it every second).
    void updateRecordingStatus();
    QTabWidget *tabs() const { return m_tabs; }
    LatencySpinBox *latencyFilter() const { return m_latencyFilter; }
    EventTableModel *tableModel(EventType type) const;
    QAction *timeOfDayAction() const { return m_timeOfDayAction; }
    QLabel *rangeLabel() const { return m_rangeLabel; }
    EventFilterModel *filterModel(EventType type) const;
    QTableView *tableView(EventType type) const;
    QLineEdit *textFilterEdit() const { return m_textFilter; }
    QStringList recentFiles() const;

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createMenus();
    void createRecordingControls();
    void updateBanner();
    void updateDamageBanner();
    void updateActions();
    void updateTitle();
    void updatePage();
    QWidget *createFilterBar();
    void applyFilter();
    void sessionReset();
    // The event tabs' counts, and their columns sized to what they hold: every table with
    // resizeAll, else each table that got its first rows.
    void updateEventTabs(bool resizeAll);
    void updateRangeLabel();
    void selectInTable(const EventRef &ref, bool followTab = true);

    SessionModel *m_session;
    ViewState *m_state;
    SessionDocument *m_document = nullptr;
    RecordingController *m_recording = nullptr;
    ExportController *m_exports = nullptr;
    CompareController *m_compare = nullptr;
    RemoteHostController *m_remoteHosts = nullptr;
    QSet<int> m_sizedTables; // event types whose table was sized with rows in it
    QHash<int, EventTableModel *> m_tableModels;
    QHash<int, EventFilterModel *> m_filterModels;
    QAction *m_timeOfDayAction = nullptr;
    QHash<int, QTableView *> m_tables;
    TimelineWidget *m_timeline = nullptr;
    HistogramView *m_histograms = nullptr;
    HeatmapView *m_heatmap = nullptr;
    CountersView *m_counters = nullptr;
    DetailsPane *m_details = nullptr;
    SummaryPanel *m_summary = nullptr;
    IoStackView *m_ioStack = nullptr;
    ProfilePage *m_profile = nullptr;
    QueryPage *m_query = nullptr;
    TopPage *m_top = nullptr;
    ExplainPage *m_explain = nullptr;
    ProbePanel *m_probes = nullptr;
    QFrame *m_banner = nullptr;
    QLabel *m_bannerText = nullptr;
    QFrame *m_damageBanner = nullptr;
    QLabel *m_damageText = nullptr;
    QSplitter *m_splitter = nullptr;
    QStackedWidget *m_pages = nullptr;
    StartPage *m_start = nullptr;
    HelpController *m_help = nullptr;
    QTabWidget *m_tabs = nullptr;
    QLineEdit *m_textFilter = nullptr;
    QLineEdit *m_pidFilter = nullptr;
    QLineEdit *m_commFilter = nullptr;
    LatencySpinBox *m_latencyFilter = nullptr;
    QToolButton *m_keyFilter = nullptr; // a destination or error filter from a row; clears it
    QLabel *m_rangeLabel = nullptr;
    bool m_syncingSelection = false;
};

} // namespace bpflens
