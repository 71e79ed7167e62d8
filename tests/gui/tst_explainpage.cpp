// The Explain tab (ExplainPage, ExplainModel) on the GUI test session: zoomed into the middle
// second, its rows are the values more common there than in the other two seconds, with the
// counts computed here from the batches guitestdata.h writes; activating a row filters the event
// tables to exactly the row's events; the timeline's menu, the Top tab and the heatmap open it.
#include "eventmodels.h"
#include "explainmodel.h"
#include "explainpage.h"
#include "guitestdata.h"
#include "heatmapview.h"
#include "mainwindow.h"
#include "sessionmodel.h"
#include "timelinewidget.h"
#include "toppage.h"
#include "viewstate.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr int Timeout = 20'000;

struct Counts
{
    qint64 inside = 0, outside = 0;
};

// Per process ("pid comm"), its events inside [start, end) and outside, and the totals.
std::map<QString, Counts> processCounts(quint64 start, quint64 end, Counts *totals)
{
    std::map<QString, Counts> out;
    auto add = [&](quint64 t, quint32 pid, const QByteArray &comm) {
        const bool in = t >= start && t < end;
        Counts &c = out[QString::number(pid) + u' ' + QString::fromUtf8(comm)];
        ++(in ? c.inside : c.outside);
        ++(in ? totals->inside : totals->outside);
    };
    for (int b = 0; b < Batches; ++b) {
        const RecordBatch batch = guiBatch(b);
        for (const ExecEvent &e : batch.exec)
            add(e.timeNs, e.pid, e.comm);
        for (const OpenEvent &e : batch.open)
            add(e.timeNs, e.pid, e.comm);
        for (const BlockEvent &e : batch.block)
            add(e.timeNs, e.pid, e.comm);
    }
    return out;
}

bool waitUpdated(ExplainPage *page)
{
    return QTest::qWaitFor([page] { return !page->isComputing(); }, Timeout);
}

int rowWith(const ExplainModel *m, const QString &dimension, const QString &key)
{
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->index(r, ExplainModel::DimensionColumn).data().toString() == dimension &&
            m->index(r, ExplainModel::KeyColumn).data().toString() == key)
            return r;
    }
    return -1;
}

} // namespace

class TestExplainPage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QLocale::setDefault(QLocale::c());
        QVERIFY(m_dir.isValid());
        QString error;
        m_path = writeGuiSession(QDir(m_dir.path()), &error);
        QVERIFY2(!m_path.isEmpty(), qPrintable(error));
    }

    void modelPassesTheTester()
    {
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(m_path, &data, &error), qPrintable(error));
        ExplainModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::Fatal);
        ExplainQuery q;
        q.startNs = StartNs + SecondNs;
        q.endNs = StartNs + 2 * SecondNs;
        model.setExplanation(explainRange(data.events, q, &data.stacks));
        QVERIFY(model.rowCount() > 0);
        QCOMPARE(model.columnCount(), int(ExplainModel::ColumnCount));
        QCOMPARE(model.headerData(ExplainModel::InsideColumn, Qt::Horizontal).toString(),
                 QStringLiteral("In the range"));
        // The known file: its one open is in the middle second, one of its 40 opens.
        const int row = rowWith(&model, QStringLiteral("File"), QString::fromUtf8(KnownPath));
        QVERIFY(row >= 0);
        const QModelIndex in = model.index(row, ExplainModel::InsideColumn);
        QCOMPARE(in.data().toString(), QStringLiteral("2.5% (1 of 40)"));
        QCOMPARE(in.data(ExplainModel::CountRole).toLongLong(), 1);
        QCOMPARE(in.data(ExplainModel::TotalRole).toLongLong(), 40);
        QCOMPARE(in.data(ExplainModel::ValueRole).toDouble(), 1.0 / 40);
        const QModelIndex out = model.index(row, ExplainModel::OutsideColumn);
        QCOMPARE(out.data().toString(), QStringLiteral("0.0% (0 of 80)"));
        QCOMPARE(model.index(row, ExplainModel::LiftColumn).data().toString(),
                 QStringLiteral("only inside"));
        QVERIFY(
            model.index(row, ExplainModel::KeyColumn).data(ExplainModel::FilterableRole).toBool());
        QCOMPARE(model.filterFor(row)->file, KnownPath);
        QVERIFY(model.filterFor(row)->text.isEmpty());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void tabFollowsRangeAndFilter()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        ExplainPage *page = w.explainPage();
        QVERIFY(page);
        QCOMPARE(w.tabs()->tabText(w.tabs()->indexOf(page)), QStringLiteral("E&xplain"));
        // The whole recording has no rest to compare with: the page says how to pick a range.
        QVERIFY(waitUpdated(page));
        QVERIFY2(page->emptyText().contains(QLatin1String("Zoom")), qPrintable(page->emptyText()));

        const quint64 a = StartNs + SecondNs, b = StartNs + 2 * SecondNs;
        w.viewState()->setRange(a, b);
        QVERIFY(waitUpdated(page));
        QCOMPARE(page->emptyText(), QString());
        Counts totals;
        const std::map<QString, Counts> expected = processCounts(a, b, &totals);
        QVERIFY2(
            page->summaryLabel()->text().contains(QStringLiteral("%1 events inside, %2 outside")
                                                      .arg(totals.inside)
                                                      .arg(totals.outside)),
            qPrintable(page->summaryLabel()->text()));
        // Every process more common inside than outside, with its counts; no other.
        int shown = 0;
        const ExplainModel *m = page->model();
        for (const auto &[key, c] : expected) {
            // The documented score: the Wilson lower bound (95%) of the inside share minus
            // the outside share.
            const double n = double(totals.inside), p = double(c.inside) / n, z = 1.96;
            const double score =
                (p + z * z / (2 * n) - z * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n))) /
                    (1 + z * z / n) -
                double(c.outside) / double(totals.outside);
            const int row = rowWith(m, QStringLiteral("Process"), key);
            QCOMPARE(row >= 0, c.inside > 0 && score > 0);
            if (row < 0)
                continue;
            ++shown;
            QCOMPARE(m->index(row, ExplainModel::InsideColumn)
                         .data(ExplainModel::CountRole)
                         .toLongLong(),
                     c.inside);
            QCOMPARE(m->index(row, ExplainModel::OutsideColumn)
                         .data(ExplainModel::CountRole)
                         .toLongLong(),
                     c.outside);
            QCOMPARE(m->index(row, ExplainModel::OutsideColumn)
                         .data(ExplainModel::TotalRole)
                         .toLongLong(),
                     totals.outside);
        }
        QVERIFY(shown > 0); // the second batch's bash processes
        // Rows by score, highest first.
        double previous = 2;
        for (const ExplainRow &r : m->explanation().rows) {
            QVERIFY(r.score() <= previous);
            previous = r.score();
        }

        // A filter no event passes: the empty state says so.
        EventFilter f;
        f.comm = "nobody";
        w.viewState()->setFilter(f);
        QVERIFY(waitUpdated(page));
        QVERIFY2(page->emptyText().contains(QLatin1String("filter")),
                 qPrintable(page->emptyText()));
    }

    void activatingARowFiltersEveryView()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        ExplainPage *page = w.explainPage();
        w.tabs()->setCurrentWidget(page);
        w.viewState()->setRange(StartNs + SecondNs, StartNs + 2 * SecondNs);
        QVERIFY(waitUpdated(page));
        const int row =
            rowWith(page->model(), QStringLiteral("File"), QString::fromUtf8(KnownPath));
        QVERIFY(row >= 0);
        const QModelIndex index = page->model()->index(row, 0);
        page->view()->setCurrentIndex(index);
        Q_EMIT page->view()->activated(index);
        QCOMPARE(w.viewState()->filter().file, KnownPath);
        QTRY_COMPARE_WITH_TIMEOUT(w.filterModel(EventType::Open)->rowCount(), 1, Timeout);
        QCOMPARE(w.filterModel(EventType::Block)->rowCount(), 0);
    }

    void explainThisRangeOpensTheTab()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // The timeline's menu: disabled over the whole recording, there when zoomed.
        QMenu *menu = w.timeline()->contextMenu();
        QAction *explain = menu->actions().first();
        QCOMPARE(explain->text(), QStringLiteral("&Explain This Range"));
        QVERIFY(!explain->isEnabled());
        w.viewState()->setRange(StartNs + SecondNs, StartNs + 2 * SecondNs);
        w.timeline()->contextMenu();
        QVERIFY(explain->isEnabled());
        w.tabs()->setCurrentIndex(0);
        explain->trigger();
        QCOMPARE(w.tabs()->currentWidget(), w.explainPage());

        // The Top tab's button.
        w.tabs()->setCurrentWidget(w.topPage());
        QTest::mouseClick(w.topPage()->explainButton(), Qt::LeftButton);
        QCOMPARE(w.tabs()->currentWidget(), w.explainPage());

        // The heatmap's: only with a selection.
        w.tabs()->setCurrentWidget(w.heatmapView());
        QTRY_VERIFY_WITH_TIMEOUT(w.heatmapView()->bins().columns > 0, Timeout);
        QVERIFY(!w.heatmapView()->explainButton()->isEnabled());
        w.heatmapView()->selectCells(0, w.heatmapView()->bins().columns - 1, 0,
                                     HeatmapBins::Slots - 1);
        QVERIFY(w.heatmapView()->explainButton()->isEnabled());
        QTest::mouseClick(w.heatmapView()->explainButton(), Qt::LeftButton);
        QCOMPARE(w.tabs()->currentWidget(), w.explainPage());
        QVERIFY(waitUpdated(w.explainPage()));
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

QTEST_MAIN(TestExplainPage)
#include "tst_explainpage.moc"
