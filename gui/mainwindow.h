#pragma once

#include "gui/exportcontroller.h"
#include "gui/models/viewstate.h"

#include <QMainWindow>

class QLabel;
class QFrame;
class QStackedWidget;

namespace bpflens {

class CompareController;
class HelpController;
class ProbePanel;
class Recorder;
class RecordingController;
class RecordPage;
class RemoteHostController;
class ResultsPage;
class SessionDocument;
class SessionModel;
class StartPage;

// The window, as hotspot's: it stacks the start page, the recording page (probes and Record)
// and the results page (ResultsPage: timeline, filter bar and the views), and places the menus,
// the tool bar, the message strips and the status bar. The work is the controllers':
// SessionDocument (open, save, recent files), RecordingController (record, stop, status
// figures) and ExportController (CSV, images).
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

    // Reads a session in the background, its progress in the status bar (SessionDocument::open).
    void open(const QString &path);
    // Reads a session and answers when it is open, without an event loop meanwhile: for scripts
    // and tests. On failure the reader's message is shown in a message box (not blocking the
    // caller), the current session stays open, and false is returned with the message in *error.
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
    // The widget "Export chart" saves: the current view's charts, else the timeline.
    QWidget *currentChartWidget() const;

    SessionModel *session() const { return m_session; }
    ViewState *viewState() const { return m_state; }
    SessionDocument *document() const { return m_document; }
    RecordingController *recordingController() const { return m_recording; }
    ExportController *exportController() const { return m_exports; }
    CompareController *compareController() const { return m_compare; }
    RemoteHostController *remoteHosts() const { return m_remoteHosts; }
    // The views of a session: its tabs, tables, timeline and filter bar.
    ResultsPage *results() const { return m_results; }
    ProbePanel *probePanel() const { return m_probes; }
    RecordPage *recordPage() const { return m_recordPage; }
    StartPage *startPage() const { return m_start; }
    HelpController *helpController() const { return m_help; }
    // The start page, the recording page or the results.
    QStackedWidget *pages() const { return m_pages; }
    // Recording > New Recording…: the recording page, with the probes and their options.
    QAction *newRecordingAction() const { return m_newRecording; }
    // Shows the recording page (true) or, when there is one, the session again (false).
    void showRecordPage(bool show);
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
    QAction *timeOfDayAction() const { return m_timeOfDayAction; }
    QStringList recentFiles() const;

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createBanners();
    void createMenus();
    void createRecordingControls();
    void updateBanner();
    void updateDamageBanner();
    void updateActions();
    void updateTitle();
    void updatePage();
    void sessionReset();
    // A size that fits the screen's work area with the window's frame (a 1280x860 window
    // put the status bar below the edge of a 1366x768 laptop screen).
    void fitToScreen();

    SessionModel *m_session;
    ViewState *m_state;
    SessionDocument *m_document = nullptr;
    RecordingController *m_recording = nullptr;
    ExportController *m_exports = nullptr;
    CompareController *m_compare = nullptr;
    RemoteHostController *m_remoteHosts = nullptr;
    ResultsPage *m_results = nullptr;
    ProbePanel *m_probes = nullptr;
    RecordPage *m_recordPage = nullptr;
    QAction *m_newRecording = nullptr;
    bool m_wantsRecordPage = false;
    QAction *m_timeOfDayAction = nullptr;
    QFrame *m_banner = nullptr;
    QLabel *m_bannerText = nullptr;
    QFrame *m_damageBanner = nullptr;
    QLabel *m_damageText = nullptr;
    QStackedWidget *m_pages = nullptr;
    StartPage *m_start = nullptr;
    HelpController *m_help = nullptr;
};

} // namespace bpflens
