#include "gui/helpcontroller.h"

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QListWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace bpflens {

namespace {

constexpr char DocsRoot[] = ":/docs";

// Pages for people who work on BPF Lens, not with it: built in (user pages mention them), but
// not listed, so a user looking for how to read a view does not wade through the helper's wire
// protocol.
bool isDeveloperPage(const QString &fileName)
{
    static const QStringList pages{
        QStringLiteral("adding-a-probe.md"), QStringLiteral("adding-an-event-type.md"),
        QStringLiteral("dbus-api.md"),       QStringLiteral("gui.md"),
        QStringLiteral("packaging.md"),      QStringLiteral("performance.md"),
        QStringLiteral("protocol.md"),       QStringLiteral("testing.md")};
    return pages.contains(fileName);
}

QString withoutMnemonic(QString text)
{
    // "&&" is a literal ampersand, a single "&" marks the mnemonic.
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QLatin1Char('\x01'), QLatin1Char('&'));
    return text;
}

void collectShortcuts(const QMenu *menu, const QString &prefix,
                      QList<std::pair<QString, QString>> *out)
{
    for (QAction *a : menu->actions()) {
        if (a->isSeparator())
            continue;
        const QString name = prefix + QStringLiteral(" > ") + withoutMnemonic(a->text());
        if (a->menu())
            collectShortcuts(a->menu(), name, out);
        else if (!a->shortcut().isEmpty())
            out->append({name, a->shortcut().toString(QKeySequence::NativeText)});
    }
}

void showTopic(QTextBrowser *browser, const QListWidgetItem *item)
{
    if (item)
        browser->setSource(QUrl(QStringLiteral("qrc") + item->data(Qt::UserRole).toString()),
                           QTextDocument::MarkdownResource);
}

} // namespace

HelpController::HelpController(QMainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_menu(new QMenu(tr("&Help"), window))
{
    m_documentation =
        m_menu->addAction(tr("&Documentation"), this, [this] { showDocumentation(); });
    m_documentation->setShortcut(QKeySequence::HelpContents);
    m_documentation->setToolTip(tr("How to record, read the views and use the command line"));
    m_shortcuts =
        m_menu->addAction(tr("&Keyboard Shortcuts"), this, &HelpController::showShortcuts);
    m_shortcuts->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_Question);
    m_menu->addSeparator();
    m_about = m_menu->addAction(tr("&About BPF Lens"), this, &HelpController::showAbout);
    m_about->setMenuRole(QAction::AboutRole);
    QAction *aboutQt = m_menu->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

QList<HelpController::Topic> HelpController::topics()
{
    QList<Topic> result;
    const QStringList files =
        QDir(QLatin1String(DocsRoot)).entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
    for (const QString &name : files) {
        if (isDeveloperPage(name))
            continue;
        QFile f(QLatin1String(DocsRoot) + QLatin1Char('/') + name);
        QString title = name;
        if (f.open(QIODevice::ReadOnly)) {
            const QByteArray first = f.readLine().trimmed();
            if (first.startsWith("# "))
                title = QString::fromUtf8(first.mid(2)).remove(QLatin1Char('`'));
        }
        result.append({f.fileName(), title});
    }
    // The user's guide first: it is the page a user of the window wants.
    std::stable_partition(result.begin(), result.end(), [](const Topic &t) {
        return t.path.endsWith(QLatin1String("/user-guide.md"));
    });
    return result;
}

void HelpController::showDocumentation(const QString &topic)
{
    auto *dialog = m_window->findChild<QDialog *>(QStringLiteral("documentationDialog"));
    if (!dialog) {
        dialog = new QDialog(m_window);
        dialog->setObjectName(QStringLiteral("documentationDialog"));
        dialog->setWindowTitle(tr("BPF Lens Documentation"));
        auto *list = new QListWidget(dialog);
        list->setObjectName(QStringLiteral("documentationTopics"));
        list->setAccessibleName(tr("Topics"));
        list->setTextElideMode(Qt::ElideRight);
        list->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        auto *browser = new QTextBrowser(dialog);
        browser->setObjectName(QStringLiteral("documentationBrowser"));
        browser->setSearchPaths({QLatin1String(DocsRoot)});
        browser->setOpenLinks(true);
        browser->setOpenExternalLinks(true);
        for (const Topic &t : topics()) {
            auto *item = new QListWidgetItem(t.title, list);
            item->setData(Qt::UserRole, t.path);
            item->setToolTip(t.title);
        }
        QObject::connect(list, &QListWidget::currentItemChanged, browser,
                         [browser](QListWidgetItem *item) { showTopic(browser, item); });
        // A link to another page of the docs selects it in the list too.
        QObject::connect(browser, &QTextBrowser::sourceChanged, list, [list](const QUrl &url) {
            for (int i = 0; i < list->count(); ++i) {
                if (QStringLiteral("qrc") + list->item(i)->data(Qt::UserRole).toString() ==
                    url.toString()) {
                    const QSignalBlocker block(list);
                    list->setCurrentRow(i);
                }
            }
        });
        auto *splitter = new QSplitter(dialog);
        splitter->addWidget(list);
        splitter->addWidget(browser);
        splitter->setStretchFactor(1, 1);
        splitter->setSizes({300, 640});
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
        QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
        auto *layout = new QVBoxLayout(dialog);
        layout->addWidget(splitter, 1);
        layout->addWidget(buttons);
        // Fits a 1366x768 screen with the window's frame.
        dialog->resize(960, 640);
    }
    auto *list = dialog->findChild<QListWidget *>(QStringLiteral("documentationTopics"));
    int row = 0;
    for (int i = 0; i < list->count(); ++i) {
        if (!topic.isEmpty() &&
            list->item(i)->data(Qt::UserRole).toString().endsWith(QLatin1Char('/') + topic))
            row = i;
    }
    if (list->count()) {
        // Selecting the row shown already would not reload it (a link may have moved away).
        if (list->currentRow() == row)
            showTopic(dialog->findChild<QTextBrowser *>(QStringLiteral("documentationBrowser")),
                      list->item(row));
        else
            list->setCurrentRow(row);
    }
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

QList<std::pair<QString, QString>> HelpController::shortcuts() const
{
    QList<std::pair<QString, QString>> result;
    for (QAction *a : m_window->menuBar()->actions()) {
        if (a->menu())
            collectShortcuts(a->menu(), withoutMnemonic(a->text()), &result);
    }
    return result;
}

void HelpController::showShortcuts()
{
    QDialog dialog(m_window);
    dialog.setObjectName(QStringLiteral("shortcutsDialog"));
    dialog.setWindowTitle(tr("Keyboard Shortcuts"));
    auto *tree = new QTreeWidget(&dialog);
    tree->setObjectName(QStringLiteral("shortcutsList"));
    tree->setRootIsDecorated(false);
    tree->setHeaderLabels({tr("Action"), tr("Shortcut")});
    tree->setAlternatingRowColors(true);
    for (const auto &[name, keys] : shortcuts())
        new QTreeWidgetItem(tree, {name, keys});
    // Keys and gestures of the views, which no menu holds.
    const std::pair<QString, QString> gestures[] = {
        {tr("Timeline > Zoom around the pointer"), tr("Wheel, + and -")},
        {tr("Timeline > Move the visible range"), tr("Drag")},
        {tr("Timeline > Zoom to a range"), tr("Shift+Drag")},
        {tr("Timeline > Show everything"), tr("Home")},
        {tr("Timeline > Select an event"), tr("Click")},
    };
    for (const auto &[name, keys] : gestures)
        new QTreeWidgetItem(tree, {name, keys});
    tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto *layout = new QVBoxLayout(&dialog);
    layout->addWidget(tree);
    layout->addWidget(buttons);
    dialog.resize(560, 480);
    dialog.exec();
}

void HelpController::showAbout()
{
    QMessageBox::about(
        m_window, tr("About BPF Lens"),
        tr("<h3>BPF Lens %1</h3>"
           "<p>A desktop profiler for Linux: the BCC and libbpf-tools probes, recorded through a "
           "privileged helper and explored in timelines, histograms, heatmaps and flame "
           "graphs.</p>"
           "<p>Built with Qt %2, running on Qt %3.</p>"
           "<p>License: GPL-2.0-or-later; the eBPF programs: GPL-2.0.</p>")
            .arg(QCoreApplication::applicationVersion().toHtmlEscaped(),
                 QStringLiteral(QT_VERSION_STR), QString::fromLatin1(qVersion())));
}

} // namespace bpflens
