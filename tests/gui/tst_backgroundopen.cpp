// Opening and comparing sessions in the background (issue #31): the window answers while a
// file is read, shows that it is busy, takes a second choice while the first is read, cancels,
// and can be closed meanwhile.
#include "gui/comparecontroller.h"
#include "gui/mainwindow.h"
#include "gui/models/sessionmodel.h"
#include "gui/sessiondocument.h"
#include "tests/gui/guitestdata.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace bpflens;
using namespace bpflens::test;

class TestBackgroundOpen : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_a, m_b;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        QString error;
        m_a = writeGuiSession(QDir(m_dir.path()), &error);
        QVERIFY2(!m_a.isEmpty(), qPrintable(error));
        m_b = m_dir.filePath(QStringLiteral("other.bpflens"));
        QVERIFY(QFile::copy(m_a, m_b));
        m_a = QFileInfo(m_a).absoluteFilePath();
        m_b = QFileInfo(m_b).absoluteFilePath();
    }

    void openReturnsAtOnceAndOpensLater()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy resets(w.session(), &SessionModel::reset);
        w.open(m_a);
        // Back in the event loop before the file is read: the window paints and takes input.
        QVERIFY(w.document()->isLoading());
        QCOMPARE(resets.size(), 0);
        QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("Opening")));
        QTRY_COMPARE(w.session()->path(), m_a);
        QVERIFY(!w.document()->isLoading());
        QVERIFY(w.document()->loadProgress()->isHidden());
        QCOMPARE(w.session()->events().count(EventType::Block), Batches * BlockPerBatch);
        QCOMPARE(w.recentFiles().value(0), m_a);
    }

    void secondOpenWins()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QSignalSpy resets(w.session(), &SessionModel::reset);
        w.open(m_a);
        w.open(m_b);
        QCOMPARE(w.document()->loadingPath(), m_b);
        QTRY_COMPARE(w.session()->path(), m_b);
        QTest::qWait(100);
        // The first file was never shown, not even for a moment.
        QCOMPARE(resets.size(), 1);
        QCOMPARE(w.session()->path(), m_b);
    }

    void cancelKeepsTheOpenSession()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(m_a));
        QSignalSpy resets(w.session(), &SessionModel::reset);
        w.open(m_b);
        QVERIFY(w.document()->isLoading());
        w.document()->cancelOpenButton()->click();
        QVERIFY(!w.document()->isLoading());
        QTest::qWait(100);
        QCOMPARE(resets.size(), 0);
        QCOMPARE(w.session()->path(), m_a);
        // Opening works again after a cancel.
        QVERIFY(w.openFile(m_b));
        QCOMPARE(w.session()->path(), m_b);
    }

    void windowClosedWhileLoading()
    {
        auto *w = new MainWindow;
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w));
        w->open(m_a);
        QVERIFY(w->document()->isLoading());
        delete w; // waits for the reader, which sees the cancel
        QTest::qWait(50);
    }

    void compareRunsInTheBackground()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(m_a));
        CompareController *compare = w.compareController();
        QVERIFY(compare->action()->isEnabled());
        QString error;
        QVERIFY2(compare->start(m_b, &error), qPrintable(error));
        QVERIFY(compare->isComparing());
        QVERIFY(!compare->compareWindow());
        QVERIFY(!compare->action()->isEnabled());
        QVERIFY(QApplication::overrideCursor());
        QCOMPARE(QApplication::overrideCursor()->shape(), Qt::BusyCursor);
        QTRY_VERIFY(compare->compareWindow());
        QVERIFY(!compare->isComparing());
        QVERIFY(compare->action()->isEnabled());
        QVERIFY(!QApplication::overrideCursor());
        delete compare->compareWindow();
    }

    void newSessionEndsAComparison()
    {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(m_a));
        CompareController *compare = w.compareController();
        QVERIFY(compare->start(m_b));
        // The baseline the comparison reads is replaced: the comparison ends without a window.
        QVERIFY(w.openFile(m_b));
        QVERIFY(!compare->isComparing());
        QVERIFY(!QApplication::overrideCursor());
        QTest::qWait(100);
        QVERIFY(!compare->compareWindow());
        QVERIFY(compare->action()->isEnabled());
    }
};

QTEST_MAIN(TestBackgroundOpen)
#include "tst_backgroundopen.moc"
