#pragma once

#include <QObject>

QT_BEGIN_NAMESPACE
class QAction;
class QMainWindow;
class QMenu;
QT_END_NAMESPACE

namespace bpflens {

// The Help menu: the documentation (docs/ built into the program, so it is there wherever
// BPF Lens runs, offline), the keyboard shortcuts (read from the window's menus, so the list
// cannot go stale), About BPF Lens and About Qt.
class HelpController : public QObject
{
    Q_OBJECT
public:
    explicit HelpController(QMainWindow *window);

    QMenu *menu() const { return m_menu; }
    QAction *documentationAction() const { return m_documentation; }
    QAction *shortcutsAction() const { return m_shortcuts; }
    QAction *aboutAction() const { return m_about; }

    // The documentation window, opened at a topic ("sql.md"); "" opens the first one.
    void showDocumentation(const QString &topic = {});
    void showShortcuts();
    void showAbout();

    // The documentation's topics for users: resource path and title (the file's first heading),
    // without the developer pages (the D-Bus API, the stream protocol, testing, ...).
    struct Topic
    {
        QString path;
        QString title;
    };
    static QList<Topic> topics();

    // Every menu action with a shortcut: "Menu > Action" and the shortcut in the platform's
    // words, in menu order.
    QList<std::pair<QString, QString>> shortcuts() const;

private:
    QMainWindow *m_window;
    QMenu *m_menu;
    QAction *m_documentation;
    QAction *m_shortcuts;
    QAction *m_about;
};

} // namespace bpflens
