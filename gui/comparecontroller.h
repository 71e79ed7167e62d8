#pragma once

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
// cannot be read gets an error box and no window. MainWindow places the action and says when
// it is available (a session open, no recording running, nothing loading).
class CompareController : public QObject
{
    Q_OBJECT
public:
    CompareController(SessionModel *session, QMainWindow *window);

    QAction *action() const { return m_action; }
    void setAvailable(bool available);

    // What the action does once a file is chosen. False, with the reader's message in *error
    // (also shown in a message box), when the file cannot be read or comparing is not available.
    bool compareWith(const QString &path, QString *error = nullptr);
    // The window the last compareWith() opened (null once closed) and its page.
    QWidget *compareWindow() const { return m_compareWindow; }
    ComparePage *page() const;

private:
    void choose();

    SessionModel *m_session;
    QMainWindow *m_window;
    QAction *m_action;
    bool m_loading = false;
    QPointer<QWidget> m_compareWindow;
    QPointer<ComparePage> m_page;
};

} // namespace bpflens
