#pragma once

#include "viewstate.h"

#include "records.h"

#include <QElapsedTimer>
#include <QHash>
#include <QMainWindow>

class QLabel;
class QLineEdit;
class QDoubleSpinBox;
class QFrame;
class QMenu;
class QTabWidget;
class QSplitter;
class QTableView;
class QTimer;

namespace bpflens {

class CountersView;
class DetailsPane;
class EventFilterModel;
class EventTableModel;
class HistogramView;
class IoStackView;
class ProbePanel;
class Recorder;
class SessionModel;
class SummaryPanel;
class TimelineWidget;

// The session viewer: timeline on top, histograms, counters, one table per event type and the
// session summary in tabs below, the selected event's fields in a dock.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    // Records through recorder from now on (not owned; null: recording unavailable). Until a
    // backend is set the window has one that says recording is unavailable.
    void setRecorder(Recorder *recorder);
    Recorder *recorder() const { return m_recorder; }
    ~MainWindow() override;

    // Loads a session (with a cancellable progress dialog for long loads). On failure the
    // reader's message is shown in a message box (not blocking the caller), the current
    // session stays open, and false is returned with the message in *error.
    bool openFile(const QString &path, QString *error = nullptr);

    enum class ExportScope
    {
        WholeSession,
        VisibleRange,
        Probe
    };
    // What File > Export CSV does once a directory is chosen: the same files as
    // `bpflens-cli export` (CsvExport), limited to the scope.
    QStringList exportCsv(const QString &directory, ExportScope scope, const QString &probeId,
                          QString *error);
    // Writes the current session to path (SessionWriter); the document then is that file.
    bool saveTo(const QString &path, QString *error = nullptr);
    // A finished recording not yet saved (the title carries the modified mark).
    bool hasUnsavedRecording() const { return m_unsaved; }
    bool isRecording() const { return m_recording; }

    // A chart or the timeline as PNG (or any raster format Qt knows by suffix) or SVG.
    static bool exportImage(QWidget *widget, const QString &path, QString *error);
    // The widget "Export chart" saves: the current tab's charts, else the timeline.
    QWidget *currentChartWidget() const;

    SessionModel *session() const { return m_session; }
    ViewState *viewState() const { return m_state; }
    TimelineWidget *timeline() const { return m_timeline; }
    HistogramView *histogramView() const { return m_histograms; }
    CountersView *countersView() const { return m_counters; }
    DetailsPane *detailsPane() const { return m_details; }
    SummaryPanel *summaryPanel() const { return m_summary; }
    IoStackView *ioStackView() const { return m_ioStack; }
    ProbePanel *probePanel() const { return m_probes; }
    QFrame *banner() const { return m_banner; }
    QLabel *bannerLabel() const { return m_bannerText; }
    QAction *recordAction() const { return m_recordAction; }
    QAction *stopAction() const { return m_stopAction; }
    QAction *saveAction() const { return m_saveAction; }
    QAction *saveAsAction() const { return m_saveAsAction; }
    QLabel *elapsedLabel() const { return m_elapsedLabel; }
    QLabel *rateLabel() const { return m_rateLabel; }
    QLabel *lostLabel() const { return m_lostLabel; }
    QLabel *cpuLabel() const { return m_cpuLabel; }
    // Refreshes the recording figures in the status bar (a timer does it every second).
    void updateRecordingStatus();
    QTabWidget *tabs() const { return m_tabs; }
    EventTableModel *tableModel(EventType type) const;
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
    void updateActions();
    void updateTitle();
    void startRecording();
    void recordingStarted(const SessionInfo &info);
    void recordingEnded(const QString &reason, quint64 endNs);
    void recordingFailed(const QString &error);
    void chooseSaveAs();
    void save();
    // Asks what to do with an unsaved recording; false if the user cancelled.
    bool maybeKeepRecording();
    QWidget *createFilterBar();
    void applyFilter();
    void sessionReset();
    void updateRangeLabel();
    void selectInTable(const EventRef &ref, bool followTab = true);
    void addRecentFile(const QString &path);
    void updateRecentMenu();
    void showError(const QString &title, const QString &message);
    void chooseExportCsv(ExportScope scope);
    void chooseExportImage();
    void chooseOpen();

    SessionModel *m_session;
    ViewState *m_state;
    QHash<int, EventTableModel *> m_tableModels;
    QHash<int, EventFilterModel *> m_filterModels;
    QHash<int, QTableView *> m_tables;
    TimelineWidget *m_timeline = nullptr;
    HistogramView *m_histograms = nullptr;
    CountersView *m_counters = nullptr;
    DetailsPane *m_details = nullptr;
    SummaryPanel *m_summary = nullptr;
    IoStackView *m_ioStack = nullptr;
    ProbePanel *m_probes = nullptr;
    Recorder *m_recorder = nullptr;
    Recorder *m_noBackend = nullptr;
    QFrame *m_banner = nullptr;
    QLabel *m_bannerText = nullptr;
    QAction *m_recordAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_saveAsAction = nullptr;
    QLabel *m_elapsedLabel = nullptr;
    QLabel *m_rateLabel = nullptr;
    QLabel *m_lostLabel = nullptr;
    QLabel *m_cpuLabel = nullptr;
    QTimer *m_statusTimer = nullptr;
    QElapsedTimer m_recordClock;
    qint64 m_rateEvents = 0; // event count at the last rate sample
    qint64 m_rateAtMs = 0;   // m_recordClock time of that sample
    double m_eventsPerSecond = 0;
    bool m_recording = false;
    bool m_starting = false; // start() called, started/failed not yet seen
    bool m_unsaved = false;
    QSplitter *m_splitter = nullptr;
    QTabWidget *m_tabs = nullptr;
    QLineEdit *m_textFilter = nullptr;
    QLineEdit *m_pidFilter = nullptr;
    QLineEdit *m_commFilter = nullptr;
    QDoubleSpinBox *m_latencyFilter = nullptr;
    QLabel *m_rangeLabel = nullptr;
    QMenu *m_recentMenu = nullptr;
    QList<QAction *> m_sessionActions; // enabled only with a session open
    bool m_loading = false;
    bool m_syncingSelection = false;
};

} // namespace bpflens
