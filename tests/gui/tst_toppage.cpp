// The Top tab (TopPage, TopModel, LatencyStatsModel) on the GUI test session: the rows follow
// the visible range and the filter and match counts computed here from the batches
// guitestdata.h writes; activating a row filters the event tables to exactly the row's events;
// "Go to max" selects the slowest event of a statistics row and zooms to it; latencies and bytes
// of unlike probes are never added up.
#include "gui/mainwindow.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/topmodel.h"
#include "gui/models/viewstate.h"
#include "gui/resultspage.h"
#include "gui/toppage.h"
#include "tests/gui/guitestdata.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <map>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr int Timeout = 20'000;

// Events per command in [start, end), from the batches.
std::map<QString, qint64> commandCounts(quint64 start, quint64 end)
{
    std::map<QString, qint64> out;
    auto add = [&](quint64 t, const QByteArray &comm) {
        if (t >= start && t < end)
            ++out[QString::fromUtf8(comm)];
    };
    for (int b = 0; b < Batches; ++b) {
        const RecordBatch batch = guiBatch(b);
        for (const ExecEvent &e : batch.exec)
            add(e.timeNs, e.comm);
        for (const OpenEvent &e : batch.open)
            add(e.timeNs, e.comm);
        for (const BlockEvent &e : batch.block)
            add(e.timeNs, e.comm);
    }
    return out;
}

// Block requests per disk whose latency (queue + device) is in [minNs, maxNs), from the batches.
std::map<QString, qint64> diskCountsInLatencyWindow(quint64 minNs, quint64 maxNs)
{
    std::map<QString, qint64> out;
    for (int b = 0; b < Batches; ++b) {
        for (const BlockEvent &e : guiBatch(b).block) {
            const quint64 ns = e.queueNs + e.deviceNs;
            if (ns >= minNs && ns < maxNs)
                ++out[QString::fromUtf8(e.disk)];
        }
    }
    return out;
}

std::map<QString, qint64> rowsOf(const TopModel *m)
{
    std::map<QString, qint64> out;
    for (int r = 0; r < m->rowCount(); ++r)
        out[m->index(r, TopModel::KeyColumn).data().toString()] =
            m->index(r, TopModel::CountColumn).data(TopModel::ValueRole).toLongLong();
    return out;
}

bool waitUpdated(TopPage *page)
{
    return QTest::qWaitFor([page] { return !page->isComputing(); }, Timeout);
}

int rowWithKey(const TopModel *m, const QString &key)
{
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->index(r, TopModel::KeyColumn).data().toString() == key)
            return r;
    }
    return -1;
}

} // namespace

class TestTopPage : public QObject
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

    void modelsPassTheTester()
    {
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(m_path, &data, &error), qPrintable(error));
        TopModel top;
        QAbstractItemModelTester t1(&top, QAbstractItemModelTester::FailureReportingMode::Fatal);
        TopQuery q;
        q.dimension = Dimension::Disk;
        q.metric = TopMetric::Bytes;
        top.setList(topList(data.events, q), q.dimension);
        QCOMPARE(top.rowCount(), 2);
        QCOMPARE(top.columnCount(), int(TopModel::ColumnCount));
        QCOMPARE(top.headerData(TopModel::KeyColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Disk"));
        // 45 requests of 4096 bytes per disk.
        QCOMPARE(top.index(0, TopModel::BytesColumn).data(TopModel::ValueRole).toULongLong(),
                 quint64(Batches * BlockPerBatch / 2 * 4096));
        QCOMPARE(top.index(0, TopModel::CountColumn).data().toString(), QStringLiteral("45"));
        QVERIFY(top.index(0, TopModel::KeyColumn).data(TopModel::FilterableRole).toBool());
        QVERIFY(top.filterFor(0).has_value());
        top.clear();
        QCOMPARE(top.rowCount(), 0);

        LatencyStatsModel stats;
        QAbstractItemModelTester t2(&stats, QAbstractItemModelTester::FailureReportingMode::Fatal);
        stats.setStats(latencyStats(data.events, 0, std::numeric_limits<quint64>::max(), {}));
        QCOMPARE(stats.rowCount(), 4); // vda/vdb x Read/Write
        QCOMPARE(stats.index(0, LatencyStatsModel::KeyColumn).data().toString(),
                 QStringLiteral("vda Read"));
        QCOMPARE(stats.index(0, LatencyStatsModel::P50Column)
                     .data(LatencyStatsModel::ValueRole)
                     .toULongLong(),
                 stats.stats()[0].p50Ns);
        QVERIFY(stats.maxEvent(0).isValid());
        QVERIFY(!stats.maxEvent(4).isValid());
    }

    void tabFollowsRangeAndFilter()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        TopPage *page = w.results()->topPage();
        QVERIFY(page);
        QCOMPARE(w.results()->viewTitle(page), QStringLiteral("&Top"));
        page->setDimension(Dimension::Command);
        QVERIFY(waitUpdated(page));
        QCOMPARE(rowsOf(page->topModel()), commandCounts(0, ~0ull));
        // The busiest first.
        QCOMPARE(page->topModel()->index(0, 0).data().toString(), QStringLiteral("kworker/0:1"));

        // The middle second only.
        const quint64 a = StartNs + SecondNs, b = StartNs + 2 * SecondNs;
        w.viewState()->setRange(a, b);
        QVERIFY(waitUpdated(page));
        QCOMPARE(rowsOf(page->topModel()), commandCounts(a, b));

        // A filter no event passes: the empty state says so.
        EventFilter f;
        f.comm = "nobody";
        w.viewState()->setFilter(f);
        QVERIFY(waitUpdated(page));
        QCOMPARE(page->topModel()->rowCount(), 0);
        QVERIFY2(page->emptyText().contains(QLatin1String("filter")),
                 qPrintable(page->emptyText()));
    }

    void followsTheHeatmapsLatencyWindow()
    {
        // A heatmap cell sets a latency window [min, max): the Top tab must count the events
        // the tables show, not every request of the range.
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        TopPage *page = w.results()->topPage();
        page->setDimension(Dimension::Disk);
        QVERIFY(waitUpdated(page));
        QCOMPARE(rowsOf(page->topModel()), diskCountsInLatencyWindow(0, ~0ull));

        EventFilter f;
        f.minLatencyNs = 4'000'000;
        f.maxLatencyNs = 8'000'000;
        w.viewState()->setFilter(f);
        QVERIFY(waitUpdated(page));
        const std::map<QString, qint64> expected = diskCountsInLatencyWindow(4'000'000, 8'000'000);
        QCOMPARE(expected.size(), size_t(2)); // the window keeps some requests of each disk
        QVERIFY(expected.at(QStringLiteral("vda")) < Batches * BlockPerBatch / 2);
        QCOMPARE(rowsOf(page->topModel()), expected);
    }

    void activatingARowFiltersEveryView()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        TopPage *page = w.results()->topPage();
        w.results()->showView(page);
        page->setDimension(Dimension::Process);
        QVERIFY(waitUpdated(page));
        const int row = rowWithKey(page->topModel(), QStringLiteral("300 vim"));
        QVERIFY(row >= 0);
        // Brute force: opens with pid 300 are every fourth, all by vim.
        qint64 expected = 0;
        for (int b = 0; b < Batches; ++b) {
            for (const OpenEvent &e : guiBatch(b).open)
                expected += e.pid == 300 && e.comm == "vim" ? 1 : 0;
        }
        QCOMPARE(page->topModel()
                     ->index(row, TopModel::CountColumn)
                     .data(TopModel::ValueRole)
                     .toLongLong(),
                 expected);
        const QModelIndex index = page->topModel()->index(row, 0);
        page->topView()->setCurrentIndex(index);
        Q_EMIT page->topView()->activated(index);
        QCOMPARE(w.viewState()->filter().pid, 300);
        QCOMPARE(w.viewState()->filter().comm, QByteArray("vim"));
        QTRY_COMPARE_WITH_TIMEOUT(w.results()->filterModel(EventType::Open)->rowCount(),
                                  int(expected), Timeout);
        QCOMPARE(w.results()->filterModel(EventType::Block)->rowCount(), 0);
        QCOMPARE(w.results()->filterModel(EventType::Exec)->rowCount(), 0);
        // The filter bar shows it, so the next edit refines it.
        QCOMPARE(w.results()->textFilterEdit()->text(), QString());
        QVERIFY(waitUpdated(page));
        QCOMPARE(page->topModel()->rowCount(), 1);

        // A file row: the known path's one open, by the path itself (not a substring: the
        // text box stays empty, the bar's button shows it).
        w.viewState()->setFilter({});
        page->setDimension(Dimension::File);
        QVERIFY(waitUpdated(page));
        const int fileRow = rowWithKey(page->topModel(), QString::fromUtf8(KnownPath));
        QVERIFY(fileRow >= 0);
        page->activateRow(fileRow);
        QCOMPARE(w.viewState()->filter().file, KnownPath);
        QCOMPARE(w.results()->textFilterEdit()->text(), QString());
        auto *keyButton = w.findChild<QToolButton *>(QStringLiteral("keyFilterButton"));
        QVERIFY(keyButton && !keyButton->isHidden()); // the window is not shown
        // The button may elide the path in the middle; its tool tip says it whole.
        QVERIFY2(keyButton->text().startsWith(QLatin1String("File /etc/")),
                 qPrintable(keyButton->text()));
        QCOMPARE(keyButton->toolTip().section(u'\n', 1),
                 QStringLiteral("File ") + QString::fromUtf8(KnownPath));
        QTRY_COMPARE_WITH_TIMEOUT(w.results()->filterModel(EventType::Open)->rowCount(), 1,
                                  Timeout);
        QCOMPARE(w.results()->filterModel(EventType::Block)->rowCount(), 0);
    }

    // Operations, which the text filter cannot say exactly: fsslower's are one character (as
    // text, "W" would find the file "W" and every "writer" too), block's are words ("Write" is
    // in "Sync-Write"). A double click on a row filters every table to exactly its events, as
    // does a disk row ("vda" is in "vda1"); the bar's button shows and removes the filter.
    void operationAndDiskRowsFilterEveryView()
    {
        RecordBatch batch;
        const char fsOps[] = {'R', 'W', 'W', 'O', 'F'};
        const QByteArray blockOps[] = {"Write", "Sync-Write", "Read"};
        const QByteArray disks[] = {"vda", "vda1", "vdb"};
        for (int i = 0; i < 90; ++i) {
            FsSlowEvent f;
            f.timeNs = StartNs + quint64(i) * 10'000'000;
            f.pid = 600 + quint32(i % 3);
            f.comm = i % 2 ? "writer" : "reader";
            f.op = quint8(fsOps[i % 5]);
            f.fs = "ext4";
            f.filename = i % 4 ? "data.db" : "W";
            f.latencyNs = 1'000'000 + quint64(i) * 1000;
            f.bytes = 4096;
            batch.fsSlow.append(f);
            BlockEvent b;
            b.timeNs = f.timeNs + 1;
            b.pid = 700;
            b.comm = i % 3 ? "kworker/0:1" : "writer";
            b.disk = disks[(i / 3) % 3];
            b.op = blockOps[i % 3];
            b.bytes = 4096;
            b.deviceNs = 100'000;
            batch.block.append(b);
        }
        SessionInfo info = guiInfo();
        info.probes = {{QStringLiteral("fsslower"), {}, QStringLiteral("kprobe/vfs_read")},
                       {QStringLiteral("block"), {}, QStringLiteral("tp/block/block_rq_complete")}};
        const QString path = m_dir.filePath(QStringLiteral("ops.bpflens"));
        SessionWriter writer;
        QString error;
        QVERIFY2(writer.create(path, info, &error), qPrintable(error));
        QVERIFY2(writer.writeBatch(batch, &error), qPrintable(error));
        QVERIFY2(writer.finish(StartNs + SecondNs, &error), qPrintable(error));

        MainWindow w;
        w.resize(1366, 768);
        QVERIFY2(w.openFile(path, &error), qPrintable(error));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        TopPage *page = w.results()->topPage();
        w.results()->showView(page);
        auto doubleClick = [page](int r) {
            QTableView *view = page->topView();
            const QRect rect = view->visualRect(page->topModel()->index(r, TopModel::KeyColumn));
            QVERIFY(!rect.isEmpty());
            QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
            QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, rect.center());
        };
        // The rows of a table, as indices of the session's events of its type.
        auto shown = [&w](EventType type) {
            EventFilterModel *m = w.results()->filterModel(type);
            QList<qsizetype> rows;
            for (int r = 0; r < m->rowCount(); ++r)
                rows << qsizetype(m->mapToSource(m->index(r, 0)).row());
            return rows;
        };
        auto *keyButton = w.findChild<QToolButton *>(QStringLiteral("keyFilterButton"));
        QVERIFY(keyButton);

        page->setDimension(Dimension::Operation);
        QVERIFY(waitUpdated(page));
        const int writes = rowWithKey(page->topModel(), QStringLiteral("W"));
        QVERIFY2(writes >= 0, qPrintable(page->statusLabel()->text()));
        QVERIFY(page->topModel()->index(writes, 0).data(TopModel::FilterableRole).toBool());
        doubleClick(writes);
        QCOMPARE(w.viewState()->filter().operation, QByteArray("W"));
        // Brute force: fsslower's writes, and no block request (none is "W").
        QList<qsizetype> expected;
        for (qsizetype i = 0; i < batch.fsSlow.size(); ++i) {
            if (batch.fsSlow[i].op == 'W')
                expected << i;
        }
        QCOMPARE(expected.size(), 36);
        QTRY_COMPARE_WITH_TIMEOUT(shown(EventType::FsSlow), expected, Timeout);
        QCOMPARE(w.results()->filterModel(EventType::Block)->rowCount(), 0);
        QVERIFY(keyButton->isVisible());
        QCOMPARE(keyButton->text(), QStringLiteral("Operation W"));
        QVERIFY(waitUpdated(page));
        QCOMPARE(page->topModel()->rowCount(), 1);
        QTest::mouseClick(keyButton, Qt::LeftButton);
        QVERIFY(w.viewState()->filter().isEmpty());
        QVERIFY(!keyButton->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(w.results()->filterModel(EventType::FsSlow)->rowCount(),
                                  int(batch.fsSlow.size()), Timeout);

        // Block's "Write": not its "Sync-Write" requests, nor the events of "writer".
        QVERIFY(waitUpdated(page));
        const int blockWrites = rowWithKey(page->topModel(), QStringLiteral("Write"));
        QVERIFY(blockWrites >= 0);
        doubleClick(blockWrites);
        QCOMPARE(w.viewState()->filter().operation, QByteArray("Write"));
        expected.clear();
        for (qsizetype i = 0; i < batch.block.size(); ++i) {
            if (batch.block[i].op == "Write")
                expected << i;
        }
        QCOMPARE(expected.size(), 30);
        QTRY_COMPARE_WITH_TIMEOUT(shown(EventType::Block), expected, Timeout);
        QCOMPARE(w.results()->filterModel(EventType::FsSlow)->rowCount(), 0);
        QCOMPARE(keyButton->text(), QStringLiteral("Operation Write"));

        // With it, a disk row narrows to that disk's writes: "vda", not "vda1".
        page->setDimension(Dimension::Disk);
        QVERIFY(waitUpdated(page));
        const int vda = rowWithKey(page->topModel(), QStringLiteral("vda"));
        QVERIFY(vda >= 0);
        doubleClick(vda);
        QCOMPARE(w.viewState()->filter().disk, QByteArray("vda"));
        QCOMPARE(w.viewState()->filter().operation, QByteArray("Write"));
        expected.clear();
        for (qsizetype i = 0; i < batch.block.size(); ++i) {
            if (batch.block[i].op == "Write" && batch.block[i].disk == "vda")
                expected << i;
        }
        QCOMPARE(expected.size(), 10);
        QTRY_COMPARE_WITH_TIMEOUT(shown(EventType::Block), expected, Timeout);
        QCOMPARE(keyButton->text(), QStringLiteral("Disk vda, Operation Write"));
        QTest::mouseClick(keyButton, Qt::LeftButton);
        QVERIFY(w.viewState()->filter().isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(w.results()->filterModel(EventType::Block)->rowCount(),
                                  int(batch.block.size()), Timeout);
    }

    // Destinations and errors, which no box of the filter bar can hold: a double click on the
    // row filters every table to exactly its events, the bar shows the filter and its button
    // removes it.
    void destinationAndErrorRowsFilterEveryView()
    {
        // Connections to three endpoints, some refused; opens, some not found.
        RecordBatch batch;
        for (int i = 0; i < 60; ++i) {
            TcpConnectEvent c;
            c.timeNs = StartNs + quint64(i) * 10'000'000;
            c.pid = 400 + quint32(i % 2);
            c.comm = "curl";
            c.family = 4;
            c.daddr = {10, 0, 0, quint8(1 + i % 3)};
            c.dport = i % 3 == 2 ? 443 : 80;
            c.ret = i % 4 == 0 ? -111 : 0;
            batch.tcpConnect.append(c);
            OpenEvent o;
            o.timeNs = c.timeNs + 1;
            o.pid = 500;
            o.comm = "ls";
            o.path = "/etc/missing" + QByteArray::number(i % 4);
            o.ret = i % 5 == 0 ? -111 : (i % 3 == 0 ? -2 : 3);
            batch.open.append(o);
        }
        SessionInfo info = guiInfo();
        info.probes = {
            {QStringLiteral("tcpconnect"), {}, QStringLiteral("tp/sock/inet_sock_set_state")},
            {QStringLiteral("open"), {}, QStringLiteral("tp/syscalls/sys_enter_openat")}};
        const QString path = m_dir.filePath(QStringLiteral("net.bpflens"));
        SessionWriter writer;
        QString error;
        QVERIFY2(writer.create(path, info, &error), qPrintable(error));
        QVERIFY2(writer.writeBatch(batch, &error), qPrintable(error));
        QVERIFY2(writer.finish(StartNs + SecondNs, &error), qPrintable(error));

        MainWindow w;
        w.resize(1366, 768);
        QVERIFY2(w.openFile(path, &error), qPrintable(error));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        TopPage *page = w.results()->topPage();
        w.results()->showView(page);
        page->setDimension(Dimension::Destination);
        QVERIFY(waitUpdated(page));
        const int row = rowWithKey(page->topModel(), QStringLiteral("10.0.0.3:443"));
        QVERIFY2(row >= 0, qPrintable(page->statusLabel()->text() + QLatin1Char(' ') +
                                      page->topModel()->index(0, 0).data().toString()));
        QVERIFY(page->topModel()->index(row, 0).data(TopModel::FilterableRole).toBool());
        auto doubleClick = [page](int r) {
            QTableView *view = page->topView();
            const QRect rect = view->visualRect(page->topModel()->index(r, TopModel::KeyColumn));
            QVERIFY(!rect.isEmpty());
            QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
            QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, rect.center());
        };
        doubleClick(row);
        QVERIFY(w.viewState()->filter().destination.has_value());
        // Brute force: the connections to 10.0.0.3:443, and no open (opens have no
        // destination).
        QList<qsizetype> expected;
        for (qsizetype i = 0; i < batch.tcpConnect.size(); ++i) {
            const TcpConnectEvent &c = batch.tcpConnect[i];
            if (c.daddr[3] == 3 && c.dport == 443)
                expected << i;
        }
        QCOMPARE(expected.size(), 20);
        EventFilterModel *connects = w.results()->filterModel(EventType::TcpConnect);
        QTRY_COMPARE_WITH_TIMEOUT(connects->rowCount(), int(expected.size()), Timeout);
        for (int r = 0; r < connects->rowCount(); ++r)
            QCOMPARE(qsizetype(connects->mapToSource(connects->index(r, 0)).row()), expected[r]);
        QCOMPARE(w.results()->filterModel(EventType::Open)->rowCount(), 0);
        auto *keyButton = w.findChild<QToolButton *>(QStringLiteral("keyFilterButton"));
        QVERIFY(keyButton);
        QVERIFY(keyButton->isVisible());
        QCOMPARE(keyButton->text(), QStringLiteral("To 10.0.0.3:443"));
        // Typing in the text box keeps it.
        w.results()->textFilterEdit()->setText(QStringLiteral("curl"));
        QTest::keyClick(w.results()->textFilterEdit(), Qt::Key_Return);
        QCOMPARE(w.viewState()->filter().text, QByteArray("curl"));
        QVERIFY(w.viewState()->filter().destination.has_value());
        QTRY_COMPARE_WITH_TIMEOUT(connects->rowCount(), int(expected.size()), Timeout);
        w.results()->textFilterEdit()->clear();
        QTest::keyClick(w.results()->textFilterEdit(), Qt::Key_Return);
        QTest::mouseClick(keyButton, Qt::LeftButton);
        QVERIFY(w.viewState()->filter().isEmpty());
        QVERIFY(!keyButton->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(connects->rowCount(), int(batch.tcpConnect.size()), Timeout);

        // ECONNREFUSED: refused connections and the opens that failed with the same number.
        page->setDimension(Dimension::Error);
        QVERIFY(waitUpdated(page));
        const int refused = rowWithKey(page->topModel(), QStringLiteral("ECONNREFUSED"));
        QVERIFY(refused >= 0);
        doubleClick(refused);
        QCOMPARE(w.viewState()->filter().error, -111);
        QList<qsizetype> expectedConnects, expectedOpens;
        for (qsizetype i = 0; i < batch.tcpConnect.size(); ++i) {
            if (batch.tcpConnect[i].ret == -111)
                expectedConnects << i;
            if (batch.open[i].ret == -111)
                expectedOpens << i;
        }
        QTRY_COMPARE_WITH_TIMEOUT(connects->rowCount(), int(expectedConnects.size()), Timeout);
        for (int r = 0; r < connects->rowCount(); ++r)
            QCOMPARE(qsizetype(connects->mapToSource(connects->index(r, 0)).row()),
                     expectedConnects[r]);
        EventFilterModel *opens = w.results()->filterModel(EventType::Open);
        QTRY_COMPARE_WITH_TIMEOUT(opens->rowCount(), int(expectedOpens.size()), Timeout);
        for (int r = 0; r < opens->rowCount(); ++r)
            QCOMPARE(qsizetype(opens->mapToSource(opens->index(r, 0)).row()), expectedOpens[r]);
        QCOMPARE(keyButton->text(), QStringLiteral("Failed with ECONNREFUSED"));
        QVERIFY(waitUpdated(page));
        QCOMPARE(page->topModel()->rowCount(), 1);
    }

    void goToMaxSelectsTheSlowestEvent()
    {
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(m_path, &error), qPrintable(error));
        TopPage *page = w.results()->topPage();
        w.results()->showView(page);
        QVERIFY(waitUpdated(page));
        LatencyStatsModel *stats = page->statsModel();
        QCOMPARE(stats->rowCount(), 4);
        // Brute force: per disk and operation the block request with the longest queue +
        // device time, the first of equals, as its index among the block events (time order).
        std::map<QString, std::pair<quint64, qsizetype>> slowest;
        qsizetype index = 0;
        for (int b = 0; b < Batches; ++b) {
            for (const BlockEvent &e : guiBatch(b).block) {
                const QString key = QString::fromUtf8(e.disk + ' ' + e.op);
                const quint64 ns = e.queueNs + e.deviceNs;
                auto it = slowest.find(key);
                if (it == slowest.end() || ns > it->second.first)
                    slowest[key] = {ns, index};
                ++index;
            }
        }
        QVERIFY(!page->goToMaxButton()->isEnabled());
        for (int row = 0; row < stats->rowCount(); ++row) {
            const QString key = stats->index(row, LatencyStatsModel::KeyColumn).data().toString();
            QVERIFY2(slowest.count(key), qPrintable(key));
            QCOMPARE(stats->stats()[row].maxNs, slowest[key].first);
            QCOMPARE(stats->maxEvent(row), (EventRef{EventType::Block, slowest[key].second}));
        }
        // Through the button: select "vdb Write", go.
        const int row = 3;
        const QString key = stats->index(row, LatencyStatsModel::KeyColumn).data().toString();
        QCOMPARE(key, QStringLiteral("vdb Write"));
        page->statsView()->setCurrentIndex(stats->index(row, 0));
        QVERIFY(page->goToMaxButton()->isEnabled());
        QTest::mouseClick(page->goToMaxButton(), Qt::LeftButton);
        const EventRef ref{EventType::Block, slowest[key].second};
        QCOMPARE(w.viewState()->selectedEvent(), ref);
        const quint64 t = w.session()->events().timeNs(ref.type, ref.index);
        QVERIFY(w.viewState()->isZoomed());
        QVERIFY(w.viewState()->startNs() < t - slowest[key].first);
        QVERIFY(w.viewState()->endNs() > t);
        QVERIFY(w.viewState()->endNs() - w.viewState()->startNs() < SecondNs / 10);
    }

    // dd's ten 4 KiB block requests took 1 ms each and it waited 100 ms off-CPU five times:
    // a "total latency" of 510 ms would be neither its disk time nor its waiting. Over every
    // probe the latency columns are not shown; ordered by latency the list is of one probe, and
    // its header says which; bytes are in binary units that say so.
    void neverAddsUnlikeQuantities()
    {
        const QString path = m_dir.filePath(QStringLiteral("unlike.bpflens"));
        {
            SessionInfo info = guiInfo();
            info.probes.append({QStringLiteral("offcpu"), {}, {}});
            RecordBatch b;
            for (int i = 0; i < 10; ++i) {
                BlockEvent e;
                e.timeNs = StartNs + quint64(i + 1) * 10'000'000ull;
                e.pid = 700;
                e.comm = QByteArrayLiteral("dd");
                e.disk = QByteArrayLiteral("vda");
                e.op = QByteArrayLiteral("Write");
                e.bytes = 4096;
                e.deviceNs = 1'000'000;
                b.block.append(e);
            }
            for (int i = 0; i < 5; ++i) {
                OffCpuEvent e;
                e.timeNs = StartNs + quint64(i + 1) * 20'000'000ull;
                e.offNs = 100'000'000;
                e.pid = 700;
                e.tid = 700;
                e.comm = QByteArrayLiteral("dd");
                b.offCpu.append(e);
            }
            SessionWriter writer;
            QString error;
            QVERIFY2(writer.create(path, info, &error), qPrintable(error));
            QVERIFY2(writer.writeBatch(b, &error), qPrintable(error));
            QVERIFY2(writer.finish(StartNs + SecondNs, &error), qPrintable(error));
        }
        MainWindow w;
        QString error;
        QVERIFY2(w.openFile(path, &error), qPrintable(error));
        TopPage *page = w.results()->topPage();
        page->setDimension(Dimension::Command);
        QVERIFY(waitUpdated(page));
        QCOMPARE(page->probeType(), std::nullopt);
        const TopModel *m = page->topModel();
        int row = rowWithKey(m, QStringLiteral("dd"));
        QVERIFY(row >= 0);
        QCOMPARE(m->index(row, TopModel::CountColumn).data().toString(), QStringLiteral("15"));
        QVERIFY(page->topView()->isColumnHidden(TopModel::LatencyColumn));
        QVERIFY(page->topView()->isColumnHidden(TopModel::P99Column));
        QCOMPARE(m->index(row, TopModel::LatencyColumn).data().toString(), QStringLiteral("–"));
        QVERIFY2(page->statusLabel()->text().contains(QLatin1String("do not add up")),
                 qPrintable(page->statusLabel()->text()));

        // By total latency: the first probe with latencies, block I/O, and its time only.
        page->setMetric(TopMetric::Latency);
        QVERIFY(waitUpdated(page));
        QCOMPARE(page->probeType(), std::optional<EventType>(EventType::Block));
        QCOMPARE(page->probeBox()->currentText(), QStringLiteral("Block I/O"));
        row = rowWithKey(m, QStringLiteral("dd"));
        QCOMPARE(m->index(row, TopModel::CountColumn).data().toString(), QStringLiteral("10"));
        QVERIFY(!page->topView()->isColumnHidden(TopModel::LatencyColumn));
        QCOMPARE(m->headerData(TopModel::LatencyColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Total latency (Block I/O)"));
        QCOMPARE(m->index(row, TopModel::LatencyColumn).data(TopModel::ValueRole).toULongLong(),
                 quint64(10'000'000));
        QCOMPARE(m->index(row, TopModel::BytesColumn).data().toString(),
                 QStringLiteral("40.0 KiB"));

        // Off-CPU: its waiting only.
        page->setProbeType(EventType::OffCpu);
        QVERIFY(waitUpdated(page));
        row = rowWithKey(m, QStringLiteral("dd"));
        QCOMPARE(m->headerData(TopModel::LatencyColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Total latency (Off-CPU)"));
        QCOMPARE(m->index(row, TopModel::LatencyColumn).data(TopModel::ValueRole).toULongLong(),
                 quint64(500'000'000));
        QCOMPARE(m->index(row, TopModel::LatencyColumn).data().toString(),
                 QStringLiteral("500.00 ms"));
    }

private:
    QTemporaryDir m_dir;
    QString m_path;
};

QTEST_MAIN(TestTopPage)
#include "tst_toppage.moc"
