#pragma once

#include "gui/models/backgroundjob.h"

#include <QObject>
#include <QPointer>

class QAction;
class QMainWindow;
class QWidget;

namespace bpflens {

class ComparePage;
class SessionModel;

// File > Compare With… (docs/diff.md): reads a second session file and opens a window comparing
// the open session (the baseline) with it. The open session is never touched: a file that
// cannot be read gets an error box and no window. The file is read and compared in the
// background while the window stays responsive; a new session opened meanwhile ends the
// comparison with a note in the status bar. MainWindow places the action and says when it is
// available (a session open, no recording running, nothing loading).
class CompareController : public QObject
{
    Q_OBJECT
public:
    CompareController(SessionModel *session, QMainWindow *window);
    ~CompareController() override;

    QAction *action() const { return m_action; }
    void setAvailable(bool available);

    // What the action does once a file is chosen: reads and compares it in the background, then
    // opens the window. False when comparing is not available (or a comparison is running),
    // with the reason in *error and a message box; a file that cannot be read gets one later.
    bool start(const QString &path, QString *error = nullptr);
    // start(), then waits for the comparison without an event loop: for scripts and tests.
    // False, with the reader's message in *error (also shown in a message box), when the file
    // cannot be read or comparing is not available.
    bool compareWith(const QString &path, QString *error = nullptr);
    bool isComparing() const { return m_loading; }
    // The window the last compareWith() opened (null once closed) and its page.
    QWidget *compareWindow() const { return m_compareWindow; }
    ComparePage *page() const;

private:
    void choose();
    struct Compared;
    void compared(const QString &path, Compared result);
    bool fail(const QString &path, const QString &message, QString *error);
    // A new session, or live data, is about to replace the baseline the worker reads.
    void baselineChanging();
    void setLoading(bool loading);

    SessionModel *m_session;
    QMainWindow *m_window;
    QAction *m_action;
    bool m_available = false;
    bool m_loading = false;
    bool m_lastOk = false; // the last comparison's answer, for compareWith()
    QString m_lastError;
    BackgroundJob m_job;
    QPointer<QWidget> m_compareWindow;
    QPointer<ComparePage> m_page;
};

} // namespace bpflens
