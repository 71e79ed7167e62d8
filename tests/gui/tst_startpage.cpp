// The window a new user meets: the start page before anything is open (its buttons do what the
// window's actions do, the recent sessions open with one click, the example recording opens), the
// Help menu (documentation built into the program, shortcuts read from the menus, About) and the
// theme (light, dark, or the desktop's; remembered; the views repaint in it).
#include "gui/helpcontroller.h"
#include "gui/mainwindow.h"
#include "gui/models/sessionmodel.h"
#include "gui/recordingcontroller.h"
#include "gui/resultspage.h"
#include "gui/sessiondocument.h"
#include "gui/startpage.h"
#include "gui/theme.h"
#include "gui/timelinewidget.h"
#include "tests/gui/guitestdata.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeWidget>

using namespace bpflens;
using namespace bpflens::test;

namespace {

QAction *findAction(QMenuBar *bar, const QString &menu, const QString &text)
{
    for (QAction *m : bar->actions()) {
        if (m->menu() && m->text().remove(QLatin1Char('&')) == menu) {
            for (QAction *a : m->menu()->actions()) {
                if (a->text().remove(QLatin1Char('&')) == text)
                    return a;
                if (a->menu()) {
                    for (QAction *sub : a->menu()->actions()) {
                        if (sub->text().remove(QLatin1Char('&')) == text)
                            return sub;
                    }
                }
            }
        }
    }
    return nullptr;
}

} // namespace

class TestStartPage : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void emptyWindowShowsTheStartPage();
    void recentSessionOpensWithOneClick();
    void exampleRecordingOpens();
    void documentationShowsEveryPage();
    void shortcutsListTheMenus();
    void aboutNamesTheVersion();
    void darkThemeRepaintsAndIsRemembered();

private:
    QTemporaryDir m_dir;
    QString m_path;
};

void TestStartPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    QString error;
    m_path = writeGuiSession(QDir(m_dir.path()), &error);
    QVERIFY2(!m_path.isEmpty(), qPrintable(error));
}

void TestStartPage::emptyWindowShowsTheStartPage()
{
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.pages()->currentWidget(), w.startPage());
    StartPage *start = w.startPage();
    QVERIFY(start->isVisible());
    // The buttons are the window's actions: enabled as they are, doing what they do.
    QAction *record = w.newRecordingAction();
    QCOMPARE(start->recordButton()->isEnabled(), record->isEnabled());
    record->setEnabled(!record->isEnabled());
    QCOMPARE(start->recordButton()->isEnabled(), record->isEnabled());
    record->setEnabled(!record->isEnabled());
    int opened = 0;
    QAction *open = w.document()->openAction();
    // Open's own handler shows a file dialog; count the trigger instead.
    disconnect(open, &QAction::triggered, w.document(), nullptr);
    const QMetaObject::Connection c =
        connect(open, &QAction::triggered, this, [&opened] { ++opened; });
    QTest::mouseClick(start->openButton(), Qt::LeftButton);
    QCOMPARE(opened, 1);
    disconnect(c);
    // Nothing recent yet: the hint says where recent sessions come from.
    QCOMPARE(start->recentList()->count(), 0);
    QVERIFY(!start->recentList()->isVisible());

    // Opening a session shows the views instead; a session that is empty still shows them.
    QVERIFY(w.openFile(m_path));
    QCOMPARE(w.pages()->currentWidget(), w.results());
    QVERIFY(w.results()->timeline()->isVisible());
    QVERIFY(!start->isVisible());
}

void TestStartPage::recentSessionOpensWithOneClick()
{
    {
        MainWindow first;
        QVERIFY(first.openFile(m_path)); // becomes a recent file
    }
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QListWidget *recent = w.startPage()->recentList();
    QVERIFY(recent->isVisible());
    QCOMPARE(recent->count(), 1);
    QCOMPARE(recent->item(0)->text(), QFileInfo(m_path).fileName());
    QCOMPARE(recent->item(0)->toolTip(), QDir::toNativeSeparators(m_path));
    const QRect r = recent->visualItemRect(recent->item(0));
    QTest::mouseClick(recent->viewport(), Qt::LeftButton, {}, r.center());
    QTRY_COMPARE(w.session()->path(), m_path);
    QCOMPARE(w.pages()->currentWidget(), w.results());
    QCOMPARE(w.session()->events().count(EventType::Exec), qsizetype(Batches * ExecPerBatch));
}

void TestStartPage::exampleRecordingOpens()
{
    const QString example = StartPage::examplePath();
    QVERIFY2(!example.isEmpty(), "the example recording is not found");
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.startPage()->exampleButton()->isVisible());
    QTest::mouseClick(w.startPage()->exampleButton(), Qt::LeftButton);
    QTRY_COMPARE(w.session()->path(), example);
    QVERIFY(!w.session()->isEmpty());
    // The example shows what BPF Lens records: processes, files, block I/O and CPU samples.
    for (EventType t : {EventType::Exec, EventType::Open, EventType::Block, EventType::CpuSample})
        QVERIFY2(w.session()->events().count(t) > 0, qPrintable(SessionModel::typeName(t)));
}

void TestStartPage::documentationShowsEveryPage()
{
    const QList<HelpController::Topic> topics = HelpController::topics();
    // The user's pages of docs/ are listed (not the developers': tst_polish), the user's guide
    // first.
    const QStringList onDisk =
        QDir(QStringLiteral(BPFLENS_SOURCE_DIR "/docs")).entryList({QStringLiteral("*.md")});
    QVERIFY(topics.size() > onDisk.size() / 2 && topics.size() < onDisk.size());
    QVERIFY(topics.first().path.endsWith(QLatin1String("/user-guide.md")));
    QCOMPARE(topics.first().title, QStringLiteral("Using BPF Lens"));

    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QAction *docs =
        findAction(w.menuBar(), QStringLiteral("Help"), QStringLiteral("Documentation"));
    QVERIFY(docs);
    QCOMPARE(docs->shortcut(), QKeySequence(QKeySequence::HelpContents));
    docs->trigger();
    auto *dialog = w.findChild<QDialog *>(QStringLiteral("documentationDialog"));
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    auto *browser = dialog->findChild<QTextBrowser *>(QStringLiteral("documentationBrowser"));
    auto *list = dialog->findChild<QListWidget *>(QStringLiteral("documentationTopics"));
    QCOMPARE(list->count(), topics.size());
    QVERIFY(browser->toPlainText().startsWith(QLatin1String("Using BPF Lens")));
    // A page with a screenshot shows it: the image is found among the built-in files.
    w.helpController()->showDocumentation(QStringLiteral("sql.md"));
    QCOMPARE(list->currentItem()->text(), QStringLiteral("SQL over sessions"));
    QVERIFY(browser->toPlainText().contains(QLatin1String("SELECT")));
    const QVariant image = browser->loadResource(QTextDocument::ImageResource,
                                                 QUrl(QStringLiteral("screenshots/query.png")));
    QVERIFY(image.isValid());
    QVERIFY(!qvariant_cast<QImage>(image).isNull() || !image.toByteArray().isEmpty());
}

void TestStartPage::shortcutsListTheMenus()
{
    MainWindow w;
    const auto shortcuts = w.helpController()->shortcuts();
    auto keysOf = [&shortcuts](const QString &name) {
        for (const auto &[n, k] : shortcuts) {
            if (n == name)
                return k;
        }
        return QString();
    };
    QCOMPARE(keysOf(QStringLiteral("Zoom > Reset Zoom")),
             QKeySequence(Qt::CTRL | Qt::Key_0).toString(QKeySequence::NativeText));
    QCOMPARE(keysOf(QStringLiteral("File > Quit")),
             QKeySequence(QKeySequence::Quit).toString(QKeySequence::NativeText));
    QCOMPARE(keysOf(QStringLiteral("Help > Documentation")),
             QKeySequence(QKeySequence::HelpContents).toString(QKeySequence::NativeText));
    // Every action with a shortcut is listed, and only those.
    int withShortcut = 0;
    std::function<void(QMenu *)> count = [&](QMenu *menu) {
        for (QAction *a : menu->actions()) {
            if (a->menu())
                count(a->menu());
            else if (!a->isSeparator() && !a->shortcut().isEmpty())
                ++withShortcut;
        }
    };
    for (QAction *m : w.menuBar()->actions())
        count(m->menu());
    QCOMPARE(shortcuts.size(), withShortcut);

    // The dialog shows them, with the views' gestures.
    QTimer::singleShot(0, &w, [&w] {
        auto *dialog = w.findChild<QDialog *>(QStringLiteral("shortcutsDialog"));
        QVERIFY(dialog);
        auto *tree = dialog->findChild<QTreeWidget *>(QStringLiteral("shortcutsList"));
        QVERIFY(tree->topLevelItemCount() > 3);
        QVERIFY(!tree->findItems(QStringLiteral("Timeline > Zoom to a range"), Qt::MatchExactly)
                     .isEmpty());
        dialog->reject();
    });
    w.helpController()->showShortcuts();
}

void TestStartPage::aboutNamesTheVersion()
{
    MainWindow w;
    QApplication::setApplicationVersion(QStringLiteral("9.8.7"));
    QTimer::singleShot(0, &w, [] {
        auto *box = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        QVERIFY(box);
        QStringList texts;
        for (QLabel *l : box->findChildren<QLabel *>())
            texts << l->text();
        QVERIFY2(texts.join(QLatin1Char(' ')).contains(QLatin1String("BPF Lens 9.8.7")),
                 qPrintable(texts.join(QLatin1Char(' '))));
        box->accept();
    });
    w.helpController()->showAbout();
}

void TestStartPage::darkThemeRepaintsAndIsRemembered()
{
    Theme *theme = Theme::instance();
    const QPalette desktop = QApplication::palette();
    MainWindow w;
    QVERIFY(w.openFile(m_path));
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QAction *dark = findAction(w.menuBar(), QStringLiteral("View"), QStringLiteral("Dark"));
    QAction *system =
        findAction(w.menuBar(), QStringLiteral("View"), QStringLiteral("Follow the Desktop"));
    QVERIFY(dark && system);
    QVERIFY(system->isChecked());
    dark->trigger();
    QCOMPARE(theme->mode(), Theme::Mode::Dark);
    QVERIFY(dark->isChecked());
    QVERIFY(!system->isChecked());
    QCOMPARE(QSettings().value(QStringLiteral("appearance/theme")).toString(),
             QStringLiteral("dark"));
    QApplication::processEvents();
    QVERIFY(Theme::isDark(w.palette()));
    // The timeline repaints in it: a lane's background is dark, its text light.
    const QImage tl = w.results()->timeline()->grab().toImage();
    const QRect lane = w.results()->timeline()->laneRect(EventType::Exec);
    QVERIFY(QColor(tl.pixel(lane.left() + 1, lane.top() + 1)).lightness() < 80);
    // Text on it is readable: some pixels of the lane's label are light.
    int light = 0;
    for (int x = 2; x < lane.left() - 2; ++x) {
        for (int y = lane.top(); y < lane.bottom(); ++y)
            light += QColor(tl.pixel(x, y)).lightness() > 170;
    }
    QVERIFY(light > 10);

    // A new window's menu shows the remembered choice; the desktop's palette comes back.
    MainWindow second;
    QAction *secondDark =
        findAction(second.menuBar(), QStringLiteral("View"), QStringLiteral("Dark"));
    QVERIFY(secondDark->isChecked());
    system->trigger();
    QCOMPARE(theme->mode(), Theme::Mode::System);
    QCOMPARE(QApplication::palette().color(QPalette::Window), desktop.color(QPalette::Window));
    QVERIFY(!secondDark->isChecked());
    QCOMPARE(QSettings().value(QStringLiteral("appearance/theme")).toString(),
             QStringLiteral("system"));
}

QTEST_MAIN(TestStartPage)
#include "tst_startpage.moc"
