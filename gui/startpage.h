#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QListWidget;
class QPushButton;
QT_END_NAMESPACE

namespace bpflens {

// What the window shows before anything is recorded or opened (as Sysprof's and hotspot's
// start pages do): record, open a session, open the example recording, recent sessions and the
// documentation, each one click away. The buttons mirror the window's actions (enabled state,
// tool tip), so a recorder that is unavailable says why here too.
class StartPage : public QWidget
{
    Q_OBJECT
public:
    StartPage(QAction *record, QAction *open, QAction *documentation, QWidget *parent = nullptr);

    // Recent session files, newest first; missing ones are left out.
    void setRecentFiles(const QStringList &paths);
    // The example recording shipped with BPF Lens, or "" when it is not installed.
    static QString examplePath();

    QPushButton *recordButton() const { return m_record; }
    QPushButton *openButton() const { return m_open; }
    QPushButton *exampleButton() const { return m_example; }
    QListWidget *recentList() const { return m_recent; }

Q_SIGNALS:
    void openRequested(const QString &path);

protected:
    void changeEvent(QEvent *event) override;

private:
    void restyle();

    QPushButton *m_record;
    QPushButton *m_open;
    QPushButton *m_example;
    QPushButton *m_docs;
    QListWidget *m_recent;
    QLabel *m_noRecent;
    bool m_opening = false;
    QList<QLabel *> m_headings;
    QList<QLabel *> m_hints;
};

} // namespace bpflens
