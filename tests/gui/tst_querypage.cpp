// The Query tab (QueryPage, QueryModel): SQL over the open session in a worker thread. Results
// are checked against counts computed here from the same batches guitestdata.h writes; errors
// and cancels go to the status line and keep the previous result; the row cap holds.
#include "core/sessionstore.h"
#include "gui/mainwindow.h"
#include "gui/models/querymodel.h"
#include "gui/models/sessionmodel.h"
#include "gui/querypage.h"
#include "gui/resultspage.h"
#include "tests/gui/guitestdata.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBuffer>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLabel>
#include <QMap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr int Timeout = 20'000; // a debug build on a busy machine

// The result as "value|value" lines, in the model's row order.
QStringList rowsOf(const QueryModel *model)
{
    QStringList out;
    for (int r = 0; r < model->rowCount(); ++r) {
        QStringList cells;
        for (int c = 0; c < model->columnCount(); ++c)
            cells << model->index(r, c).data().toString();
        out << cells.join(u'|');
    }
    return out;
}

bool runAndWait(QueryPage *page, const QString &sql)
{
    page->editor()->setPlainText(sql);
    page->run();
    if (!page->isRunning())
        return false;
    return QTest::qWaitFor([page] { return !page->isRunning(); }, Timeout);
}

const QString LongQuery = QStringLiteral("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
                                         "FROM c WHERE x < 1000000000) SELECT count(*) FROM c");

} // namespace

class TestQueryPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void modelPassesModelTesterAndSorts();
    void tabQueriesTheOpenSession();
    void resultMatchesTheSessionsEvents();
    void ctrlReturnRunsAndDoubleClickInserts();
    void errorGoesToStatusAndKeepsResult();
    void cancelInterruptsALongQuery();
    void deletingThePageWhileRunningIsPrompt();
    void sessionChangeDropsARunningQuery();
    void rowCapHolds();
    void unsavedRecordingSaysWhen();

private:
    QTemporaryDir m_dir;
    QString m_path;
    SessionData m_data;
};

void TestQueryPage::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(m_dir.isValid());
    QString error;
    m_path = writeGuiSession(QDir(m_dir.path()), &error);
    QVERIFY2(!m_path.isEmpty(), qPrintable(error));
    QVERIFY2(SessionReader::open(m_path, &m_data, &error), qPrintable(error));
}

void TestQueryPage::modelPassesModelTesterAndSorts()
{
    QueryModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), 0);
    model.setResult({QStringLiteral("name"), QStringLiteral("n"), QStringLiteral("x")},
                    {{QStringLiteral("vim"), qint64(3), 1.5},
                     {QStringLiteral("cat"), qint64(12), QVariant()},
                     {QStringLiteral("bash"), qint64(-4), QByteArray("\x01\xff", 2)}});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 3);
    QCOMPARE(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("n"));
    QCOMPARE(model.index(1, 2).data().toString(), QStringLiteral("NULL"));
    QVERIFY(!model.index(1, 2).data(QueryModel::ValueRole).isValid());
    QCOMPARE(model.index(2, 2).data().toString(), QStringLiteral("\x01\\xFF"));
    QCOMPARE(model.index(0, 2).data().toString(), QStringLiteral("1.5"));
    QCOMPARE(model.index(0, 1).data(Qt::TextAlignmentRole).value<Qt::Alignment>() &
                 Qt::AlignHorizontal_Mask,
             Qt::AlignRight);
    QCOMPARE(model.index(0, 0).data(Qt::TextAlignmentRole).value<Qt::Alignment>() &
                 Qt::AlignHorizontal_Mask,
             Qt::AlignLeft);

    // A persistent index follows its row through a sort.
    const QPersistentModelIndex cat = model.index(1, 0);
    model.sort(1, Qt::DescendingOrder);
    QCOMPARE(rowsOf(&model),
             QStringList({QStringLiteral("cat|12|NULL"), QStringLiteral("vim|3|1.5"),
                          QStringLiteral("bash|-4|\x01\\xFF")}));
    QCOMPARE(cat.row(), 0);
    QCOMPARE(cat.data().toString(), QStringLiteral("cat"));
    model.sort(0, Qt::AscendingOrder);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("bash"));
    // NULL sorts first, as in SQLite, then numbers, then BLOBs.
    model.sort(2, Qt::AscendingOrder);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("cat"));
    QCOMPARE(model.index(2, 0).data().toString(), QStringLiteral("bash"));
    model.sort(-1);
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("vim"));
    QCOMPARE(cat.row(), 1);

    // CSV as bpflens-cli query --format csv writes it.
    model.setResult({QStringLiteral("a,b"), QStringLiteral("n")},
                    {{QStringLiteral("say \"hi\""), qint64(1)}, {QVariant(), 0.25}});
    QBuffer csv;
    csv.open(QIODevice::WriteOnly);
    QVERIFY(model.writeCsv(&csv));
    QCOMPARE(csv.data(), QByteArray("\"a,b\",n\r\n\"say \"\"hi\"\"\",1\r\n,0.25\r\n"));
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestQueryPage::tabQueriesTheOpenSession()
{
    MainWindow w;
    QString error;
    QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
    QueryPage *page = w.results()->queryPage();
    QVERIFY(page);
    QCOMPARE(w.results()->viewTitle(page), QStringLiteral("Query"));
    QVERIFY(page->isAvailable());
    QVERIFY(page->runButton()->isEnabled());
    QVERIFY(!page->cancelButton()->isEnabled());
    // open has the most events in the test session.
    QVERIFY2(page->editor()->toPlainText().contains(QLatin1String("FROM open")),
             qPrintable(page->editor()->toPlainText()));

    // Every table SessionQuery knows is listed, with its columns.
    QStringList names;
    for (QTreeWidgetItemIterator it(page->tableList()); *it; ++it)
        names << (*it)->data(0, Qt::UserRole + 1).toString();
    for (const char *name : {"exec", "open", "block", "histogram_buckets", "meta", "counters"})
        QVERIFY2(names.contains(QLatin1String(name)), name);
    QVERIFY(names.contains(QLatin1String("argv")));

    // The default query runs: open events per comm, busiest first.
    page->run();
    QVERIFY(page->isRunning());
    QVERIFY(!page->runButton()->isEnabled());
    QVERIFY(page->cancelButton()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!page->isRunning(), Timeout);
    QCOMPARE(page->model()->columns(),
             QStringList({QStringLiteral("comm"), QStringLiteral("count(*)")}));
    QCOMPARE(page->model()->rowCount(), 2);
    QCOMPARE(page->model()->index(0, 1).data().toInt(), Batches * OpenPerBatch / 2);
    QVERIFY2(page->statusLabel()->text().startsWith(QLatin1String("2 rows in ")),
             qPrintable(page->statusLabel()->text()));
}

void TestQueryPage::resultMatchesTheSessionsEvents()
{
    SessionModel session;
    session.setSession(m_data, m_path);
    QueryPage page(&session);
    QVERIFY(page.isAvailable());

    // exec events per comm and the sum of their pids, from the same batches in C++.
    QMap<QByteArray, QPair<int, qint64>> expected;
    QMap<QByteArray, int> opens;
    for (int b = 0; b < Batches; ++b) {
        const RecordBatch batch = guiBatch(b);
        for (const ExecEvent &e : batch.exec) {
            expected[e.comm].first++;
            expected[e.comm].second += e.pid;
        }
        for (const OpenEvent &e : batch.open) {
            if (e.path.startsWith("/usr/lib/lib1"))
                opens[e.comm]++;
        }
    }
    QStringList want;
    for (auto it = expected.cbegin(); it != expected.cend(); ++it)
        want << QStringLiteral("%1|%2|%3")
                    .arg(QString::fromUtf8(it.key()))
                    .arg(it.value().first)
                    .arg(it.value().second);
    QVERIFY(runAndWait(&page, QStringLiteral("SELECT comm, count(*), sum(pid) FROM exec GROUP BY "
                                             "comm ORDER BY comm")));
    QCOMPARE(rowsOf(page.model()), want);

    want.clear();
    for (auto it = opens.cbegin(); it != opens.cend(); ++it)
        want << QStringLiteral("%1|%2").arg(QString::fromUtf8(it.key())).arg(it.value());
    QVERIFY(runAndWait(&page, QStringLiteral("SELECT comm, count(*) AS n FROM open WHERE path "
                                             "LIKE '/usr/lib/lib1%' GROUP BY comm ORDER BY 1")));
    QCOMPARE(rowsOf(page.model()), want);
    QCOMPARE(page.model()->index(0, 1).data(Qt::TextAlignmentRole).value<Qt::Alignment>() &
                 Qt::AlignHorizontal_Mask,
             Qt::AlignRight);

    // A header click sorts the rows kept; a new result shows the statement's order again.
    QVERIFY(runAndWait(&page, QStringLiteral("SELECT pid FROM exec ORDER BY pid")));
    QCOMPARE(page.model()->rowCount(), Batches * ExecPerBatch);
    page.resultView()->sortByColumn(0, Qt::DescendingOrder);
    QCOMPARE(page.model()->index(0, 0).data().toInt(),
             4000 + (Batches - 1) * 10 + ExecPerBatch - 1);
    QVERIFY(runAndWait(&page, QStringLiteral("SELECT pid FROM exec ORDER BY pid")));
    QCOMPARE(page.model()->index(0, 0).data().toInt(), 4000);

    QVERIFY(page.exportButton()->isEnabled());
    QVERIFY(
        runAndWait(&page, QStringLiteral("SELECT comm, count(*) AS n FROM exec GROUP BY comm")));
    const QString csvPath = m_dir.filePath(QStringLiteral("result.csv"));
    QString error;
    QVERIFY2(page.exportCsv(csvPath, &error), qPrintable(error));
    QFile csv(csvPath);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QCOMPARE(csv.readAll(),
             QByteArray("comm,n\r\nbash,") + QByteArray::number(Batches * ExecPerBatch) + "\r\n");
    QVERIFY(!page.exportCsv(m_dir.filePath(QStringLiteral("no/such/dir/x.csv")), &error));
    QVERIFY(!error.isEmpty());
}

void TestQueryPage::ctrlReturnRunsAndDoubleClickInserts()
{
    SessionModel session;
    session.setSession(m_data, m_path);
    QueryPage page(&session);
    page.show();
    QVERIFY(QTest::qWaitForWindowActive(&page));
    page.editor()->setPlainText(QStringLiteral("SELECT count(*) FROM "));
    page.editor()->moveCursor(QTextCursor::End);
    page.editor()->setFocus();

    // Double-clicking a table inserts its name at the cursor; a group heading inserts nothing.
    QTreeWidgetItem *block = nullptr;
    for (QTreeWidgetItemIterator it(page.tableList()); *it; ++it) {
        if ((*it)->data(0, Qt::UserRole + 1).toString() == QLatin1String("block"))
            block = *it;
    }
    QVERIFY(block);
    QVERIFY(block->text(0).startsWith(QLatin1String("block (")));
    Q_EMIT page.tableList()->itemDoubleClicked(block->parent(), 0);
    Q_EMIT page.tableList()->itemDoubleClicked(block, 0);
    QCOMPARE(page.editor()->toPlainText(), QStringLiteral("SELECT count(*) FROM block"));
    QVERIFY(page.editor()->hasFocus());

    QTest::keyClick(page.editor(), Qt::Key_Return, Qt::ControlModifier);
    QVERIFY(page.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), Timeout);
    QCOMPARE(rowsOf(page.model()), QStringList(QString::number(Batches * BlockPerBatch)));
    QCOMPARE(page.editor()->toPlainText(), QStringLiteral("SELECT count(*) FROM block"));
}

void TestQueryPage::errorGoesToStatusAndKeepsResult()
{
    SessionModel session;
    session.setSession(m_data, m_path);
    QueryPage page(&session);
    QVERIFY(runAndWait(&page, QStringLiteral("SELECT count(*) FROM block")));
    QCOMPARE(rowsOf(page.model()), QStringList(QString::number(Batches * BlockPerBatch)));
    const QColor normal = page.statusLabel()->palette().color(QPalette::WindowText);

    QVERIFY(runAndWait(&page, QStringLiteral("SELECT no_such_thing FROM block")));
    QVERIFY2(page.statusLabel()->text().contains(QLatin1String("no such column: no_such_thing")),
             qPrintable(page.statusLabel()->text()));
    QVERIFY(!page.statusLabel()->text().contains(u'\n'));
    QVERIFY(page.statusLabel()->palette().color(QPalette::WindowText) != normal);
    QCOMPARE(rowsOf(page.model()), QStringList(QString::number(Batches * BlockPerBatch)));

    // Writing is refused by SessionQuery, and said the same way.
    QVERIFY(runAndWait(&page, QStringLiteral("DELETE FROM meta")));
    QVERIFY2(page.statusLabel()->text().contains(QLatin1String("cannot change the session")),
             qPrintable(page.statusLabel()->text()));
    QCOMPARE(page.model()->rowCount(), 1);

    QVERIFY(runAndWait(&page, QStringLiteral("SELECT 1")));
    QCOMPARE(page.statusLabel()->palette().color(QPalette::WindowText), normal);
}

void TestQueryPage::cancelInterruptsALongQuery()
{
    SessionModel session;
    session.setSession(m_data, m_path);
    QueryPage page(&session);
    QVERIFY(runAndWait(&page, QStringLiteral("SELECT 42")));
    page.editor()->setPlainText(LongQuery);
    page.run();
    QVERIFY(page.isRunning());
    QTest::qWait(300); // well inside the statement
    QVERIFY(page.isRunning());
    QElapsedTimer timer;
    timer.start();
    QTest::mouseClick(page.cancelButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 5000);
    QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
    QVERIFY2(page.statusLabel()->text().contains(QLatin1String("interrupted")),
             qPrintable(page.statusLabel()->text()));
    QCOMPARE(rowsOf(page.model()), QStringList(QStringLiteral("42")));
    QVERIFY(page.runButton()->isEnabled());
    QVERIFY(!page.cancelButton()->isEnabled());

    // Cancel right after Run, before the worker has even opened the file, also stops it.
    page.editor()->setPlainText(LongQuery);
    page.run();
    page.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 5000);
    QVERIFY2(page.statusLabel()->text().contains(QLatin1String("interrupted")),
             qPrintable(page.statusLabel()->text()));
}

void TestQueryPage::deletingThePageWhileRunningIsPrompt()
{
    SessionModel session;
    session.setSession(m_data, m_path);
    auto *page = new QueryPage(&session);
    page->editor()->setPlainText(LongQuery);
    page->run();
    QTest::qWait(100);
    QElapsedTimer timer;
    timer.start();
    delete page;
    QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
    QTest::qWait(50); // a result queued for the deleted page is dropped
}

void TestQueryPage::sessionChangeDropsARunningQuery()
{
    SessionModel session;
    session.setSession(m_data, m_path);
    QueryPage page(&session);
    QVERIFY(runAndWait(&page, QStringLiteral("SELECT 42")));
    page.editor()->setPlainText(LongQuery);
    page.run();
    QTest::qWait(100);
    QElapsedTimer timer;
    timer.start();
    session.setSession(m_data); // a new recording: no file
    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 5000);
    QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
    QCOMPARE(page.model()->rowCount(), 0); // the old session's result is gone, nothing came in
    QVERIFY(!page.isAvailable());
    QVERIFY(!page.statusLabel()->text().contains(QLatin1String("interrupted")));
}

void TestQueryPage::rowCapHolds()
{
    SessionModel session;
    session.setSession(m_data, m_path);
    QueryPage page(&session);
    QCOMPARE(page.rowLimit(), QueryPage::DefaultRowLimit);
    QVERIFY(runAndWait(&page, QStringLiteral("SELECT * FROM open")));
    QCOMPARE(page.model()->rowCount(), Batches * OpenPerBatch);
    // The default cap, on more rows than it keeps.
    QVERIFY(runAndWait(&page, QStringLiteral("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT "
                                             "x + 1 FROM c WHERE x < 150000) SELECT x FROM c")));
    QCOMPARE(page.model()->rowCount(), QueryPage::DefaultRowLimit);
    QCOMPARE(page.model()->index(QueryPage::DefaultRowLimit - 1, 0).data().toInt(),
             QueryPage::DefaultRowLimit);
    QVERIFY2(page.statusLabel()->text().startsWith(QLatin1String("First 100,000 rows shown")),
             qPrintable(page.statusLabel()->text()));
    page.setRowLimit(50);
    QVERIFY(runAndWait(&page, QStringLiteral("SELECT * FROM open")));
    QCOMPARE(page.model()->rowCount(), 50);
    QVERIFY2(page.statusLabel()->text().startsWith(QLatin1String("First 50 rows shown")),
             qPrintable(page.statusLabel()->text()));
    // Exactly the cap is not cut.
    QVERIFY(runAndWait(&page, QStringLiteral("SELECT * FROM open LIMIT 50")));
    QCOMPARE(page.model()->rowCount(), 50);
    QVERIFY2(page.statusLabel()->text().startsWith(QLatin1String("50 rows in")),
             qPrintable(page.statusLabel()->text()));
}

void TestQueryPage::unsavedRecordingSaysWhen()
{
    SessionModel session;
    QueryPage page(&session);
    QVERIFY(!page.isAvailable());
    QVERIFY2(page.emptyText().contains(QLatin1String("Open a session")),
             qPrintable(page.emptyText()));
    page.run(); // nothing to run on
    QVERIFY(!page.isRunning());

    session.setSession(m_data); // a recording: data, no file
    QVERIFY(!page.isAvailable());
    QVERIFY2(page.emptyText().contains(QLatin1String("once the recording is saved")),
             qPrintable(page.emptyText()));
    QVERIFY(!page.runButton()->isEnabled());

    session.setPath(m_path); // what Save does, then SessionDocument::stateChanged
    page.sessionChanged();
    QVERIFY(page.isAvailable());
    QVERIFY(page.emptyText().isEmpty());
    QVERIFY(page.runButton()->isEnabled());
    QVERIFY(runAndWait(&page, QStringLiteral("SELECT count(*) FROM exec")));
    QCOMPARE(rowsOf(page.model()), QStringList(QString::number(Batches * ExecPerBatch)));
}

QTEST_MAIN(TestQueryPage)
#include "tst_querypage.moc"
