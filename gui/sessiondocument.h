#pragma once

#include <QObject>
#include <QStringList>

class QAction;
class QMainWindow;
class QMenu;
class QUrl;

namespace bpflens {

class RecordingController;
class SessionModel;

// The document behind the window: opening a session file (with a progress dialog), saving a
// recording, the recent files and the question what to do with an unsaved recording. Its
// actions (Open, Open Recent, Save, Save As) are placed in the menus by MainWindow.
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

    // Loads a session (with a cancellable progress dialog for long loads). On failure the
    // reader's message is shown in a message box (not blocking the caller), the current
    // session stays open, and false is returned with the message in *error.
    bool openFile(const QString &path, QString *error = nullptr);
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
    QStringList recentFiles() const;
    // A local file with the session suffix (what a drop accepts).
    static bool isSessionFile(const QUrl &url);

    // Save and Save As enabled as the document and the recording allow.
    void updateActions();

Q_SIGNALS:
    // Saved: the title and the actions change.
    void stateChanged();

private:
    void chooseOpen();
    void save();
    void chooseSaveAs();
    void addRecentFile(const QString &path);
    void updateRecentMenu();
    bool recording() const;
    bool stopAndWait();

    SessionModel *m_session;
    QMainWindow *m_window;
    RecordingController *m_recording = nullptr;
    QAction *m_openAction = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_saveAction = nullptr;
    QAction *m_saveAsAction = nullptr;
    bool m_unsaved = false;
    bool m_loading = false;
    bool m_stopping = false; // Stop and Save waits for the recording's end
};

} // namespace bpflens
