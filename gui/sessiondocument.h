#pragma once

#include "gui/models/backgroundjob.h"

#include <QObject>
#include <QStringList>

class QAction;
class QMainWindow;
class QMenu;
class QProgressBar;
class QTimer;
class QToolButton;
class QUrl;
class QWidget;

namespace bpflens {

class RecordingController;
class SessionModel;

// The document behind the window: opening a session file (read in the background, its progress
// in the status bar), saving a recording, the recent files and the question what to do with an
// unsaved recording. Its actions (Open, Open Recent, Save, Save As) are placed in the menus by
// MainWindow.
class SessionDocument : public QObject
{
    Q_OBJECT
public:
    SessionDocument(SessionModel *session, QMainWindow *window);
    // The recording whose data this document holds (set once, before use).
    void setRecordingController(RecordingController *recording) { m_recording = recording; }

    QAction *openAction() const { return m_openAction; }
    QMenu *recentMenu() const { return m_recentMenu; }
    QAction *saveAction() const { return m_saveAction; }
    QAction *saveAsAction() const { return m_saveAsAction; }

    // Reads a session in the background (what Open, Open Recent, a drop and the start page do):
    // the window stays responsive, the status bar shows the progress and a Cancel button, and
    // the session replaces the open one once read. On failure the reader's message is shown in
    // a message box and the current session stays open. Opening another file while one is read
    // cancels that read (the latest choice wins); the same file again changes nothing.
    void open(const QString &path);
    // open(), then waits for the read without an event loop (the window does not paint
    // meanwhile) and answers: for scripts and tests. False with the reader's message in
    // *error on failure (also shown in a message box, not blocking the caller).
    bool openFile(const QString &path, QString *error = nullptr);
    // Stops a read in progress (the status bar's Cancel): the open session stays.
    void cancelOpen();
    // Writes the current session to path (SessionWriter); the document then is that file.
    bool saveTo(const QString &path, QString *error = nullptr);
    // Asks what to do with an unsaved (or running) recording: save (a running one is stopped
    // first, waiting for its end), discard, or cancel. False if the window is to stay: the
    // user cancelled, the save was cancelled or failed, or the recording did not stop.
    bool maybeKeepRecording();

    // A finished recording not yet saved (the title carries the modified mark).
    bool hasUnsavedRecording() const { return m_unsaved; }
    void setUnsavedRecording(bool unsaved) { m_unsaved = unsaved; }
    bool isLoading() const { return m_loading; }
    // The file being read; empty while none is.
    QString loadingPath() const { return m_loadingPath; }
    // The status bar's progress of a read and its Cancel button (shown while a read lasts).
    QWidget *loadProgress() const { return m_loadBox; }
    QToolButton *cancelOpenButton() const { return m_cancelOpen; }
    QStringList recentFiles() const;
    // A local file with the session suffix (what a drop accepts).
    static bool isSessionFile(const QUrl &url);

    // Save and Save As enabled as the document and the recording allow.
    void updateActions();

Q_SIGNALS:
    // Saved: the title and the actions change.
    void stateChanged();
    // A read started or ended (read, failed or cancelled): recording and comparing wait for it.
    void loadingChanged(bool loading);

private:
    void chooseOpen();
    void save();
    void chooseSaveAs();
    void addRecentFile(const QString &path);
    void updateRecentMenu();
    bool recording() const;
    bool stopAndWait();
    // The checks before a read (a running recording, an unsaved one), then the read.
    bool startOpen(const QString &path, QString *error);
    void setLoading(bool loading);
    struct Loaded;
    void loaded(const QString &path, Loaded result);

    SessionModel *m_session;
    QMainWindow *m_window;
    RecordingController *m_recording = nullptr;
    QAction *m_openAction = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_saveAsAction = nullptr;
    bool m_unsaved = false;
    bool m_loading = false;
    QString m_loadingPath;
    BackgroundJob m_loader;
    bool m_loadedOk = false; // the last read's answer, for openFile()
    QString m_loadedError;
    QWidget *m_loadBox = nullptr;
    QProgressBar *m_loadBar = nullptr;
    QToolButton *m_cancelOpen = nullptr;
    QTimer *m_showProgress = nullptr;
    bool m_stopping = false; // Stop and Save waits for the recording's end
};

} // namespace bpflens
