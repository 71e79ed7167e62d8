// What a user notices of issue 29's loose ends, on real widgets: Help lists the user's pages,
// not the developers'.
#include "detailspane.h"
#include "guitestdata.h"
#include "helpcontroller.h"
#include "mainwindow.h"
#include "probepanel.h"
#include "protocol.h"
#include "recorder.h"
#include "sessionmodel.h"
#include "theme.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QStyleOptionButton>
#include <QTest>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <unistd.h>

using namespace bpflens;
using namespace bpflens::test;

class TestPolish : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init() { QSettings().clear(); }
    void helpListsTheUserPagesOnly();
};

void TestPolish::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("BPF Lens Tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_polish"));
    std::signal(SIGPIPE, SIG_IGN);
}

void TestPolish::helpListsTheUserPagesOnly()
{
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.helpController()->documentationAction()->trigger();
    auto *dialog = w.findChild<QDialog *>(QStringLiteral("documentationDialog"));
    QVERIFY(dialog && dialog->isVisible());
    auto *list = dialog->findChild<QListWidget *>(QStringLiteral("documentationTopics"));
    QVERIFY(list);
    QStringList titles;
    for (int i = 0; i < list->count(); ++i)
        titles << list->item(i)->text();
    // The guide first, the pages about what a user records and reads after it.
    QCOMPARE(titles.value(0), QStringLiteral("Using BPF Lens"));
    for (const QString &page :
         {QStringLiteral("SQL over sessions"), QStringLiteral("Latency heatmap"),
          QStringLiteral("Recording another machine over SSH")})
        QVERIFY2(titles.contains(page), qPrintable(page));
    // Nothing a user of the window has to wade through: the helper's wire formats, how the
    // project is tested, packaged, benchmarked or extended.
    for (const QString &title : std::as_const(titles)) {
        for (const QString &developer :
             {QStringLiteral("D-Bus API"), QStringLiteral("stream protocol"),
              QStringLiteral("Testing"), QStringLiteral("Adding an event type"),
              QStringLiteral("The desktop application"), QStringLiteral("Debian package"),
              QStringLiteral("Performance")})
            QVERIFY2(!title.contains(developer, Qt::CaseInsensitive), qPrintable(title));
    }
    QCOMPARE(HelpController::topics().size(), list->count());
}

QTEST_MAIN(TestPolish)
#include "tst_polish.moc"
