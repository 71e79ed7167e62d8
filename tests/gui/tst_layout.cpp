// The window on a laptop's 1366x768 screen, as a new user met it (issue #29): it opened taller
// than the screen, the probe dock and the details dock took ~45 % of the width while a session
// was explored, twenty tabs overflowed (in German by far), and the details cut their values.
// The screen here is a real 1366x768 one: the offscreen platform is given that screen.
#include "gui/detailspane.h"
#include "gui/mainwindow.h"
#include "gui/models/sessionmodel.h"
#include "gui/probepanel.h"
#include "gui/recordpage.h"
#include "gui/resultspage.h"
#include "gui/startpage.h"
#include "gui/timelinewidget.h"
#include "gui/translations.h"
#include "tests/gui/guitestdata.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace bpflens;
using namespace bpflens::test;

namespace {

const QStringList Locales = {QStringLiteral("C"), QStringLiteral("de_DE"), QStringLiteral("zh_CN")};

// The groups' row of tabs and the rows of the groups of more than one view.
QList<QTabWidget *> tabWidgets(ResultsPage *results)
{
    QList<QTabWidget *> list = {results->tabs()};
    for (int i = 0; i < results->tabs()->count(); ++i) {
        if (auto *group = qobject_cast<QTabWidget *>(results->tabs()->widget(i)))
            list << group;
    }
    return list;
}

} // namespace

class TestLayout : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void windowFitsALaptopScreen_data();
    void windowFitsALaptopScreen();
    void tabRowsFitInGerman_data();
    void tabRowsFitInGerman();
    void probeSelectionStaysOutOfTheWay();
    void detailsValuesAreWhole();

private:
    QTemporaryDir m_dir;
    QString m_path;
};

void TestLayout::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings go to a test location
    QCoreApplication::setOrganizationName(QStringLiteral("BPF Lens Tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_layout"));
    QSettings().clear();
    QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(), QSize(1366, 768));
    QVERIFY(m_dir.isValid());
    QString error;
    m_path = writeGuiSession(QDir(m_dir.path()), &error);
    QVERIFY2(!m_path.isEmpty(), qPrintable(error));
    QVERIFY2(!StartPage::examplePath().isEmpty(), "the example recording is not found");
}

void TestLayout::cleanup()
{
    installTranslations(QLocale::c());
    QSettings().clear(); // no remembered geometry: each window opens as the first one does
}

void TestLayout::windowFitsALaptopScreen_data()
{
    QTest::addColumn<QString>("locale");
    for (const QString &l : Locales)
        QTest::newRow(qPrintable(l)) << l;
}

// The first window on a 1366x768 screen: its frame on the screen (the status bar was below
// its edge), and with the example recording open every group of views can be made as small as
// a 1280x720 screen's work area.
void TestLayout::windowFitsALaptopScreen()
{
    QFETCH(QString, locale);
    QVERIFY(installTranslations(QLocale(locale)) || locale == QLatin1String("C"));
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const QRect screen = w.screen()->availableGeometry();
    QVERIFY2(screen.contains(w.frameGeometry()),
             qPrintable(QStringLiteral("frame %1,%2 %3x%4 on a screen of %5x%6")
                            .arg(w.frameGeometry().x())
                            .arg(w.frameGeometry().y())
                            .arg(w.frameGeometry().width())
                            .arg(w.frameGeometry().height())
                            .arg(screen.width())
                            .arg(screen.height())));
    const QRect status(w.statusBar()->mapToGlobal(QPoint(0, 0)), w.statusBar()->size());
    QVERIFY(screen.contains(status));

    QString error;
    QVERIFY2(w.openFile(StartPage::examplePath(), &error), qPrintable(error));
    ResultsPage *results = w.results();
    for (int i = 0; i < results->tabs()->count(); ++i) {
        results->tabs()->setCurrentIndex(i);
        QCoreApplication::processEvents();
        const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
        QVERIFY2(min.width() <= 1280 && min.height() <= 720,
                 qPrintable(QStringLiteral("%1, %2: minimum %3x%4")
                                .arg(locale, results->tabs()->tabText(i))
                                .arg(min.width())
                                .arg(min.height())));
    }
}

void TestLayout::tabRowsFitInGerman_data()
{
    QTest::addColumn<bool>("example");
    QTest::newRow("test session") << false;
    QTest::newRow("example recording") << true;
}

// German's longer words: every row of tabs shows all its tabs, whole, in a 1366 px window
// (twenty tabs overflowed it and Summary scrolled out of sight).
void TestLayout::tabRowsFitInGerman()
{
    QFETCH(bool, example);
    QVERIFY(installTranslations(QLocale(QStringLiteral("de_DE"))));
    MainWindow w;
    w.resize(1366, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QString error;
    QVERIFY2(w.openFile(example ? StartPage::examplePath() : m_path, &error), qPrintable(error));
    QVERIFY(w.width() <= 1366);
    ResultsPage *results = w.results();
    QCOMPARE(results->tabs()->tabText(0), QStringLiteral("Ü&bersicht"));
    for (QTabWidget *tabs : tabWidgets(results)) {
        // The group shown, so that its tab row is laid out as the user sees it.
        results->tabs()->setCurrentWidget(tabs == results->tabs() ? results->tabs()->widget(0)
                                                                  : tabs);
        QCoreApplication::processEvents();
        QTabBar *bar = tabs->tabBar();
        QVERIFY(bar->isVisible());
        const int needed = bar->sizeHint().width();
        QVERIFY2(needed <= tabs->width(),
                 qPrintable(QStringLiteral("tabs %1 px in %2 px").arg(needed).arg(tabs->width())));
        for (int i = 0; i < bar->count(); ++i) {
            // A tab the session does not offer (Threads without thread states) takes no room.
            if (!bar->isTabVisible(i))
                continue;
            QVERIFY2(bar->rect().contains(bar->tabRect(i)), qPrintable(bar->tabText(i)));
            QVERIFY2(bar->tabRect(i).width() >= bar->fontMetrics().horizontalAdvance(
                                                    QString(bar->tabText(i)).remove(u'&')),
                     qPrintable(bar->tabText(i)));
        }
    }
    // The event types are one selector, not a tab each: every type reads whole in it.
    results->tabs()->setCurrentWidget(results->eventsPage());
    QCoreApplication::processEvents();
    QComboBox *types = results->eventTypeBox();
    QVERIFY(types->isVisible());
    QVERIFY(types->count() >= 3);
    int widest = 0;
    for (int i = 0; i < types->count(); ++i)
        widest = std::max(widest, types->fontMetrics().horizontalAdvance(types->itemText(i)));
    QVERIFY2(types->width() >= widest, qPrintable(QString::number(types->width())));
}

// While a session is explored the probes take no width: the views have the window's. The
// recording page brings them back, and Record or Back to the Session leaves it.
void TestLayout::probeSelectionStaysOutOfTheWay()
{
    MainWindow w;
    w.resize(1366, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(m_path));
    QCoreApplication::processEvents();
    QVERIFY(!w.probePanel()->isVisible());
    ResultsPage *results = w.results();
    QVERIFY(results->isVisible());
    QVERIFY2(results->tabs()->width() >= w.width() - 8,
             qPrintable(
                 QStringLiteral("views %1 px of %2").arg(results->tabs()->width()).arg(w.width())));
    QVERIFY(results->timeline()->width() >= w.width() - 8);

    w.newRecordingAction()->trigger();
    QCoreApplication::processEvents();
    QVERIFY(w.probePanel()->isVisible());
    QVERIFY(!results->isVisible());
    QVERIFY(w.recordPage()->backButton()->isVisible());
    QTest::mouseClick(w.recordPage()->backButton(), Qt::LeftButton);
    QVERIFY(results->isVisible());
    QVERIFY(!w.probePanel()->isVisible());
    // Opening a session from the recording page shows it.
    w.showRecordPage(true);
    QVERIFY(w.openFile(m_path));
    QCOMPARE(w.pages()->currentWidget(), results);
}

// The selected event's details, on a 1366 px screen: no value is cut ("2026-…067Z").
void TestLayout::detailsValuesAreWhole()
{
    MainWindow w;
    w.resize(1366, 700);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.openFile(m_path));
    ResultsPage *results = w.results();
    results->showView(results->tableView(EventType::Exec));
    w.viewState()->setSelectedEvent({EventType::Exec, 3});
    QCoreApplication::processEvents();
    DetailsPane *details = results->detailsPane();
    QVERIFY(details->isVisible());
    QTreeWidget *tree = details->tree();
    QVERIFY(!details->value(QStringLiteral("Wall clock (UTC)")).isEmpty());
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
        const QTreeWidgetItem *item = tree->topLevelItem(i);
        const QRect cell = tree->visualItemRect(item);
        const int needed = tree->fontMetrics().horizontalAdvance(item->text(1));
        // (the cell's margins: a few pixels each side)
        QVERIFY2(needed + 8 <= tree->columnWidth(1) && cell.right() <= tree->viewport()->width(),
                 qPrintable(QStringLiteral("%1: \"%2\" needs %3 px, has %4")
                                .arg(item->text(0), item->text(1))
                                .arg(needed)
                                .arg(tree->columnWidth(1))));
    }
}

// A 1366x768 screen for the offscreen platform (its default is 800x600).
int main(int argc, char **argv)
{
    QTemporaryDir config;
    if (!config.isValid())
        return 1;
    QFile json(config.filePath(QStringLiteral("screen.json")));
    if (!json.open(QIODevice::WriteOnly))
        return 1;
    json.write(R"({"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1366,
                   "height": 768, "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
    json.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + json.fileName().toLocal8Bit());
    QApplication app(argc, argv);
    TestLayout test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_layout.moc"
