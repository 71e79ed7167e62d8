// The Explain tab (ExplainPage, ExplainModel) on the GUI test session with a spike of dd writes
// in its middle second: zoomed into that second, its rows are the values more common there than
// in the other two seconds with enough events to mean something, with the counts computed here
// from the batches written; activating a row filters the event tables to exactly the row's
// events; the timeline's menu, the Top tab and the heatmap open it.
#include "gui/explainpage.h"
#include "gui/heatmapview.h"
#include "gui/mainwindow.h"
#include "gui/models/eventmodels.h"
#include "gui/models/explainmodel.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/viewstate.h"
#include "gui/resultspage.h"
#include "gui/timelinewidget.h"
#include "gui/toppage.h"
#include "tests/gui/guitestdata.h"

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

#include <algorithm>
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

// The GUI test session's batches, the middle one with a spike: dd (pid 700) writing to vdc.
// Everything else repeats second by second, and a value needs five events in the range to be
// listed at all (the lone open of KnownPath is not).
constexpr int SpikeRequests = 20;
RecordBatch spikeBatch(int b)
{
    RecordBatch batch = guiBatch(b);
    if (b != 1)
        return batch;
    for (int i = 0; i < SpikeRequests; ++i) {
        BlockEvent e;
        e.timeNs = StartNs + SecondNs + 10'000'000ull + quint64(i) * 45'000'000ull;
        e.dev = (253u << 20) | 2;
        e.sector = quint64(i) * 8;
        e.bytes = 1 << 20;
        e.pid = 700;
        e.deviceNs = 8'000'000;
        e.disk = QByteArrayLiteral("vdc");
        e.op = QByteArrayLiteral("Write");
        e.comm = QByteArrayLiteral("dd");
        batch.block.append(e);
    }
    std::sort(batch.block.begin(), batch.block.end(),
              [](const BlockEvent &x, const BlockEvent &y) { return x.timeNs < y.timeNs; });
    return batch;
}

QString writeSpikeSession(const QDir &dir, QString *error)
{
    const QString path = dir.filePath(QStringLiteral("spike.bpflens"));
    SessionWriter writer;
    if (!writer.create(path, guiInfo(), error))
        return {};
    for (int b = 0; b < Batches; ++b) {
        if (!writer.writeBatch(spikeBatch(b), error))
            return {};
    }
    if (!writer.finish(StartNs + quint64(Batches) * SecondNs, error))
        return {};
    return path;
}

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
        const RecordBatch batch = spikeBatch(b);
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
        m_path = writeSpikeSession(QDir(m_dir.path()), &error);
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
        // The known file: its one open is in the middle second, one of its 40 opens: too few
        // to mean anything, so not listed.
        QCOMPARE(rowWith(&model, QStringLiteral("File"), QString::fromUtf8(KnownPath)), -1);
        // The spike's disk: all of its requests are in the middle second.
        const int row = rowWith(&model, QStringLiteral("Disk"), QStringLiteral("vdc"));
        QVERIFY(row >= 0);
        const qint64 blocks = BlockPerBatch + SpikeRequests;
        const QModelIndex in = model.index(row, ExplainModel::InsideColumn);
        QCOMPARE(in.data().toString(), QStringLiteral("%1% (%2 of %3)")
                                           .arg(100.0 * SpikeRequests / blocks, 0, 'f', 1)
                                           .arg(SpikeRequests)
                                           .arg(blocks));
        QCOMPARE(in.data(ExplainModel::CountRole).toLongLong(), SpikeRequests);
        QCOMPARE(in.data(ExplainModel::TotalRole).toLongLong(), blocks);
        QCOMPARE(in.data(ExplainModel::ValueRole).toDouble(), double(SpikeRequests) / blocks);
        const QModelIndex out = model.index(row, ExplainModel::OutsideColumn);
        QCOMPARE(out.data().toString(), QStringLiteral("0.0% (0 of %1)").arg(2 * BlockPerBatch));
        QCOMPARE(model.index(row, ExplainModel::LiftColumn).data().toString(),
                 QStringLiteral("only inside"));
        QVERIFY(
            model.index(row, ExplainModel::KeyColumn).data(ExplainModel::FilterableRole).toBool());
        QCOMPARE(model.filterFor(row)->disk, QByteArray("vdc"));
        QVERIFY(model.filterFor(row)->text.isEmpty());
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    void tabFollowsRangeAndFilter()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        ExplainPage *page = w.results()->explainPage();
        QVERIFY(page);
        QCOMPARE(w.results()->viewTitle(page), QStringLiteral("E&xplain"));
        // The whole recording has no rest to compare with: the page says how to pick a range.
        QVERIFY(waitUpdated(page));
        QVERIFY2(page->emptyText().contains(QLatin1String("Zoom")), qPrintable(page->emptyText()));

        const quint64 a = StartNs + SecondNs, b = StartNs + 2 * SecondNs;
        w.viewState()->setRange(a, b);
        QVERIFY(waitUpdated(page));
        QCOMPARE(page->emptyText(), QString());
        Counts totals;
        const std::map<QString, Counts> expected = processCounts(a, b, &totals);
        // "event(s)": no translator here, so the source's plural (bpflens_en makes it "events").
        QVERIFY2(
            page->summaryLabel()->text().contains(QStringLiteral("%1 event(s) inside, %2 outside")
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
            // Listed with at least 5 events inside and 1% of the range's events.
            const bool support = c.inside >= 5 && 100 * c.inside >= totals.inside;
            QCOMPARE(row >= 0, support && score > 0);
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
        QVERIFY(shown > 0); // dd
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
        ExplainPage *page = w.results()->explainPage();
        w.results()->showView(page);
        w.viewState()->setRange(StartNs + SecondNs, StartNs + 2 * SecondNs);
        QVERIFY(waitUpdated(page));
        const int row = rowWith(page->model(), QStringLiteral("Disk"), QStringLiteral("vdc"));
        QVERIFY(row >= 0);
        const QModelIndex index = page->model()->index(row, 0);
        page->view()->setCurrentIndex(index);
        Q_EMIT page->view()->activated(index);
        QCOMPARE(w.viewState()->filter().disk, QByteArray("vdc"));
        QTRY_COMPARE_WITH_TIMEOUT(w.results()->filterModel(EventType::Block)->rowCount(),
                                  SpikeRequests, Timeout);
        QCOMPARE(w.results()->filterModel(EventType::Open)->rowCount(), 0);
    }

    void explainThisRangeOpensTheTab()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // The timeline's menu: disabled over the whole recording, there when zoomed.
        QMenu *menu = w.results()->timeline()->contextMenu();
        QAction *explain = menu->actions().first();
        QCOMPARE(explain->text(), QStringLiteral("&Explain This Range"));
        QVERIFY(!explain->isEnabled());
        w.viewState()->setRange(StartNs + SecondNs, StartNs + 2 * SecondNs);
        w.results()->timeline()->contextMenu();
        QVERIFY(explain->isEnabled());
        w.results()->tabs()->setCurrentIndex(0);
        explain->trigger();
        QCOMPARE(w.results()->currentView(), w.results()->explainPage());

        // The Top tab's button.
        w.results()->showView(w.results()->topPage());
        QTest::mouseClick(w.results()->topPage()->explainButton(), Qt::LeftButton);
        QCOMPARE(w.results()->currentView(), w.results()->explainPage());

        // The heatmap's: only with a selection.
        w.results()->showView(w.results()->heatmapView());
        QTRY_VERIFY_WITH_TIMEOUT(w.results()->heatmapView()->bins().columns > 0, Timeout);
        QVERIFY(!w.results()->heatmapView()->explainButton()->isEnabled());
        w.results()->heatmapView()->selectCells(0, w.results()->heatmapView()->bins().columns - 1,
                                                0, HeatmapBins::Slots - 1);
        QVERIFY(w.results()->heatmapView()->explainButton()->isEnabled());
        QTest::mouseClick(w.results()->heatmapView()->explainButton(), Qt::LeftButton);
        QCOMPARE(w.results()->currentView(), w.results()->explainPage());
        QVERIFY(waitUpdated(w.results()->explainPage()));
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

QTEST_MAIN(TestExplainPage)
#include "tst_explainpage.moc"
