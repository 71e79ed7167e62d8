// File > Compare With… (CompareController, ComparePage, the compare models): two real session
// files with known block latencies, events and CPU samples are written, the first opened in the
// main window and the second compared with it through the action's code path. The overlaid
// charts' values, the percentile deltas, the event counts and the keys of every top-list
// dimension are checked against brute-force computations on the data written here; the differential
// flame graph must paint the frame made to grow red and the one made to shrink blue. A session
// compared with itself shows no change, and a file that cannot be read leaves the open session as
// it was.
#include "core/sessioninfo.h"
#include "core/sessionstore.h"
#include "gui/comparecontroller.h"
#include "gui/comparepage.h"
#include "gui/flamegraphview.h"
#include "gui/mainwindow.h"
#include "gui/models/comparemodels.h"
#include "gui/models/sessionmodel.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QBarSet>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QScrollArea>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace bpflens;

namespace {

constexpr quint64 StartNs = 7'000'000'000ull;

// One session: block request latencies (µs) in two histogram snapshots, block events per
// command, execs, and CPU samples per stack given as frame names root first.
struct Spec
{
    QList<quint64> latenciesUs;
    QList<std::pair<QByteArray, int>> blockByComm;
    // Each block request's disk and operation, cycled through by request.
    QList<QByteArray> disks{"vda"};
    QList<QByteArray> ops{"Read"};
    int execs = 0;
    int failedExecs = 0; // of execs, the first ones fail with ENOENT
    QList<std::pair<QStringList, int>> samples;
    // Off-CPU waits: a stack (root first) and the nanoseconds blocked there.
    QList<std::pair<QStringList, quint64>> waits;
    // Frames defined first, in this order: the two sessions number the same function
    // differently, so the flame graph's matching has to go by name.
    QStringList frameOrder;
};

// The events, stacks and histograms of a session as the test states it.
RecordBatch batchOf(const Spec &s)
{
    RecordBatch b;
    quint64 t = StartNs;
    for (const auto &[comm, n] : s.blockByComm) {
        for (int i = 0; i < n; ++i) {
            BlockEvent e;
            e.timeNs = t += 1000;
            e.pid = 300 + quint32(i % 2);
            e.comm = comm;
            e.disk = s.disks[b.block.size() % s.disks.size()];
            e.op = s.ops[b.block.size() % s.ops.size()];
            b.block.append(e);
        }
    }
    for (int i = 0; i < s.execs; ++i) {
        ExecEvent e;
        e.timeNs = t += 1000;
        e.comm = "sh";
        e.retval = i < s.failedExecs ? -2 : 0;
        b.exec.append(e);
    }
    QHash<QString, quint32> frameIds;
    auto frameId = [&](const QString &name) {
        quint32 &id = frameIds[name];
        if (!id) {
            id = quint32(frameIds.size());
            b.frames.append(
                {id, StackFrame{FrameKind::User, 0x1000u + id, "/usr/bin/app", {}, name.toUtf8()}});
        }
        return id;
    };
    for (const QString &name : s.frameOrder)
        frameId(name);
    quint32 stackId = 0;
    for (const auto &[names, n] : s.samples) {
        QList<quint32> leafFirst;
        for (const QString &name : names)
            leafFirst.prepend(frameId(name));
        b.stacks.append({++stackId, 0, leafFirst});
        for (int i = 0; i < n; ++i) {
            CpuSampleEvent e;
            e.timeNs = t += 1000;
            e.pid = e.tid = 100;
            e.comm = "app";
            e.stackId = stackId;
            b.cpuSample.append(e);
        }
    }
    for (const auto &[names, ns] : s.waits) {
        QList<quint32> leafFirst;
        for (const QString &name : names)
            leafFirst.prepend(frameId(name));
        b.stacks.append({++stackId, 0, leafFirst});
        OffCpuEvent e;
        e.timeNs = t += 1000;
        e.pid = e.tid = 100;
        e.comm = "app";
        e.stackId = stackId;
        e.offNs = ns;
        b.offCpu.append(e);
    }
    const qsizetype half = s.latenciesUs.size() / 2;
    for (int part = 0; part < 2; ++part) {
        HistogramSnapshot h;
        h.probeId = QStringLiteral("block");
        h.key = QStringLiteral("vda");
        h.timeNs = StartNs + quint64(part + 1) * 1'000'000'000ull;
        h.intervalNs = 1'000'000'000ull;
        h.histogram = Log2Histogram(HistogramUnit::Microseconds);
        for (qsizetype i = part ? half : 0; i < (part ? s.latenciesUs.size() : half); ++i)
            h.histogram.add(s.latenciesUs[i]);
        b.histograms.append(h);
    }
    return b;
}

bool write(const QString &path, const Spec &s, QString *error)
{
    SessionInfo info = sessionInfoForThisHost({{QStringLiteral("block"), {}, {}},
                                               {QStringLiteral("exec"), {}, {}},
                                               {QStringLiteral("profile"), {}, {}},
                                               {QStringLiteral("offcpu"), {}, {}}});
    info.startMonotonicNs = StartNs;
    SessionWriter w;
    return w.create(path, info, error) && w.writeBatch(batchOf(s), error) &&
           w.finish(StartNs + 3'000'000'000ull, error);
}

// Per event type and dimension, the events per key as the Top tab spells it, counted from the
// batch by hand.
using KeyCounts = QHash<std::pair<int, int>, QHash<QString, qint64>>;

KeyCounts keyCounts(const Spec &s)
{
    const RecordBatch b = batchOf(s);
    KeyCounts out;
    auto common = [&](EventType type, quint32 pid, const QByteArray &comm) {
        const QString c = QString::fromUtf8(comm);
        ++out[{int(type), int(Dimension::Process)}][QString::number(pid) + QLatin1Char(' ') + c];
        ++out[{int(type), int(Dimension::Command)}][c];
    };
    for (const BlockEvent &e : b.block) {
        common(EventType::Block, e.pid, e.comm);
        ++out[{int(EventType::Block), int(Dimension::Disk)}][QString::fromUtf8(e.disk)];
        ++out[{int(EventType::Block), int(Dimension::Operation)}][QString::fromUtf8(e.op)];
    }
    for (const ExecEvent &e : b.exec) {
        common(EventType::Exec, e.pid, e.comm);
        if (e.retval == -2)
            ++out[{int(EventType::Exec), int(Dimension::Error)}][QStringLiteral("ENOENT")];
    }
    for (const CpuSampleEvent &e : b.cpuSample)
        common(EventType::CpuSample, e.pid, e.comm);
    for (const OffCpuEvent &e : b.offCpu)
        common(EventType::OffCpu, e.pid, e.comm);
    return out;
}

// Deterministic latencies: n values spread over a few buckets around base.
QList<quint64> latencies(int n, quint64 base)
{
    QList<quint64> out;
    for (int i = 0; i < n; ++i)
        out << base + quint64((i * 37) % 5) * base / 2 + quint64(i % 7) * 3;
    return out;
}

// The brute-force distribution of a list of µs latencies.
Log2Histogram histogramOf(const QList<quint64> &us)
{
    Log2Histogram h(HistogramUnit::Microseconds);
    for (quint64 v : us)
        h.add(v);
    return h;
}

Spec baselineSpec()
{
    Spec s;
    s.latenciesUs = latencies(200, 100);
    s.blockByComm = {{"dd", 50}, {"kworker", 10}};
    s.disks = {"vda", "vda", "vdb"};
    s.execs = 5;
    // 100 samples: compute 90 % total (60 % self), malloc 30 %, write 10 %.
    s.samples = {
        {{QStringLiteral("main"), QStringLiteral("compute")}, 60},
        {{QStringLiteral("main"), QStringLiteral("compute"), QStringLiteral("malloc")}, 30},
        {{QStringLiteral("main"), QStringLiteral("write")}, 10}};
    // 1 s blocked: 800 ms in read, 200 ms in poll.
    s.waits = {{{QStringLiteral("main"), QStringLiteral("read")}, 800'000'000},
               {{QStringLiteral("main"), QStringLiteral("poll")}, 200'000'000}};
    return s;
}

Spec comparisonSpec()
{
    Spec s;
    s.latenciesUs = latencies(300, 400); // slower and more of them
    s.blockByComm = {{"dd", 80}, {"kworker", 5}, {"fio", 7}};
    s.disks = {"vda", "vdb", "vdb", "nvme0n1"};
    s.ops = {"Read", "Write", "Sync-Write"};
    s.execs = 5;
    s.failedExecs = 2;
    // 200 samples: malloc grows to 50 %, write shrinks to 2.5 %, parse is new.
    s.samples = {
        {{QStringLiteral("main"), QStringLiteral("compute")}, 60},
        {{QStringLiteral("main"), QStringLiteral("compute"), QStringLiteral("malloc")}, 100},
        {{QStringLiteral("main"), QStringLiteral("write")}, 5},
        {{QStringLiteral("main"), QStringLiteral("parse")}, 35}};
    // 2 s blocked: read 500 ms, poll 1.5 s (two waits).
    s.waits = {{{QStringLiteral("main"), QStringLiteral("read")}, 500'000'000},
               {{QStringLiteral("main"), QStringLiteral("poll")}, 1'000'000'000},
               {{QStringLiteral("main"), QStringLiteral("poll")}, 500'000'000}};
    s.frameOrder = {QStringLiteral("parse"), QStringLiteral("write"), QStringLiteral("malloc"),
                    QStringLiteral("compute"), QStringLiteral("main")};
    return s;
}

// The node of the comparison's flame graph reached by the frame names, or -1.
qint32 nodeByNames(const FlameGraphView *flame, const QStringList &names)
{
    const CallTree &t = flame->profile()->topDown;
    qint32 at = 0;
    for (const QString &name : names) {
        qint32 next = -1;
        for (qint32 c : t.node(at).children) {
            if (flame->frameName(c) == name)
                next = c;
        }
        if (next < 0)
            return -1;
        at = next;
    }
    return at;
}

QColor paintedColor(FlameGraphView *flame, qint32 node)
{
    for (const FlameGraphView::Box &b : flame->boxes()) {
        if (b.node == node && b.kind == FlameGraphView::BoxKind::Frame)
            return flame->colorOf(b);
    }
    return {};
}

QMessageBox *errorBox()
{
    for (QWidget *w : QApplication::topLevelWidgets()) {
        if (auto *box = qobject_cast<QMessageBox *>(w);
            box && box->objectName() == QLatin1String("errorBox") && box->isVisible())
            return box;
    }
    return nullptr;
}

} // namespace

class TestComparePage : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_a, m_b;

    // A window with the baseline open and the comparison compared through the action.
    ComparePage *compare(MainWindow &w, const QString &baseline, const QString &other)
    {
        QString error;
        if (!w.openFile(baseline, &error)) {
            qWarning("%s", qPrintable(error));
            return nullptr;
        }
        if (!w.compareController()->action()->isEnabled())
            return nullptr;
        if (!w.compareController()->compareWith(other, &error)) {
            qWarning("%s", qPrintable(error));
            return nullptr;
        }
        ComparePage *page = w.compareController()->page();
        if (page) {
            page->window()->resize(1200, 800);
            page->tabs()->setCurrentIndex(2); // the flame graph gets its size
            QApplication::processEvents();
        }
        return page;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_a = m_dir.filePath(QStringLiteral("before.bpflens"));
        m_b = m_dir.filePath(QStringLiteral("after.bpflens"));
        QString error;
        QVERIFY2(write(m_a, baselineSpec(), &error), qPrintable(error));
        QVERIFY2(write(m_b, comparisonSpec(), &error), qPrintable(error));
    }

    void actionNeedsAnOpenSession()
    {
        MainWindow w;
        QAction *action = w.compareController()->action();
        QVERIFY(!action->isEnabled());
        QString error;
        QVERIFY(!w.compareController()->compareWith(m_b, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!w.compareController()->page());
        QVERIFY(w.openFile(m_a));
        QVERIFY(action->isEnabled());
        delete errorBox();
    }

    void chartsOverlayBothDistributions()
    {
        MainWindow w;
        ComparePage *page = compare(w, m_a, m_b);
        QVERIFY(page);
        QCOMPARE(page->baselineName(), QStringLiteral("before.bpflens"));
        QCOMPARE(page->comparisonName(), QStringLiteral("after.bpflens"));
        QCOMPARE(page->diff().histograms.size(), 1);
        QVERIFY(page->chartView(0));
        QBarSet *a = page->baselineSet(0);
        QBarSet *b = page->comparisonSet(0);
        // The legend names both files.
        QCOMPARE(a->label(), QStringLiteral("before.bpflens"));
        QCOMPARE(b->label(), QStringLiteral("after.bpflens"));

        // Brute force: bucket counts of the latencies written.
        const QList<quint64> la = baselineSpec().latenciesUs, lb = comparisonSpec().latenciesUs;
        QList<qreal> countA(Log2Histogram::MaxSlots, 0), countB(Log2Histogram::MaxSlots, 0);
        int used = 0;
        for (quint64 v : la) {
            countA[Log2Histogram::slotOf(v)] += 1;
            used = std::max(used, Log2Histogram::slotOf(v) + 1);
        }
        for (quint64 v : lb) {
            countB[Log2Histogram::slotOf(v)] += 1;
            used = std::max(used, Log2Histogram::slotOf(v) + 1);
        }
        QCOMPARE(a->count(), used);
        QCOMPARE(b->count(), used);
        // 200 against 300 samples: shares of each total, in percent.
        QVERIFY(page->showsFractions(0));
        qreal sumA = 0, sumB = 0;
        for (int s = 0; s < used; ++s) {
            QCOMPARE(a->at(s), 100.0 * countA[s] / qreal(la.size()));
            QCOMPARE(b->at(s), 100.0 * countB[s] / qreal(lb.size()));
            sumA += a->at(s);
            sumB += b->at(s);
        }
        QCOMPARE(qRound(sumA), 100);
        QCOMPARE(qRound(sumB), 100);
        // The comparison is slower: its mass sits in higher buckets.
        QVERIFY(a->at(Log2Histogram::slotOf(100)) > b->at(Log2Histogram::slotOf(100)));

        page->rawCountsBox()->setChecked(true);
        QVERIFY(!page->showsFractions(0));
        for (int s = 0; s < used; ++s) {
            QCOMPARE(a->at(s), countA[s]);
            QCOMPARE(b->at(s), countB[s]);
        }
    }

    void percentileDeltasMatchBruteForce()
    {
        MainWindow w;
        ComparePage *page = compare(w, m_a, m_b);
        QVERIFY(page);
        PercentileDiffModel *m = page->percentileModel();
        QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(m->rowCount(), 3);
        const Log2Histogram ha = histogramOf(baselineSpec().latenciesUs);
        const Log2Histogram hb = histogramOf(comparisonSpec().latenciesUs);
        const double fractions[] = {0.5, 0.9, 0.99};
        for (int r = 0; r < 3; ++r) {
            auto value = [&](int column) {
                return m->index(r, column).data(PercentileDiffModel::ValueRole).toDouble();
            };
            const double pa = ha.percentile(fractions[r]), pb = hb.percentile(fractions[r]);
            QCOMPARE(m->index(r, PercentileDiffModel::PercentileColumn)
                         .data(PercentileDiffModel::FractionRole)
                         .toDouble(),
                     fractions[r]);
            QCOMPARE(value(PercentileDiffModel::BaselineColumn), pa);
            QCOMPARE(value(PercentileDiffModel::ComparisonColumn), pb);
            QCOMPARE(value(PercentileDiffModel::ChangeColumn), pb - pa);
            QCOMPARE(value(PercentileDiffModel::RelativeColumn), (pb - pa) / pa);
            QVERIFY(pb > pa); // the comparison was made slower
            QVERIFY(m->index(r, PercentileDiffModel::ChangeColumn)
                        .data()
                        .toString()
                        .startsWith(QLatin1Char('+')));
            QCOMPARE(m->index(r, PercentileDiffModel::HistogramColumn).data().toString(),
                     QStringLiteral("block — vda"));
        }
        QCOMPARE(m->index(0, PercentileDiffModel::PercentileColumn).data().toString(),
                 QStringLiteral("p50"));
        QCOMPARE(m->index(2, PercentileDiffModel::PercentileColumn).data().toString(),
                 QStringLiteral("p99"));
    }

    void eventCountsSideBySide()
    {
        MainWindow w;
        ComparePage *page = compare(w, m_a, m_b);
        QVERIFY(page);
        EventDiffModel *m = page->eventModel();
        QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QHash<int, std::pair<qint64, qint64>> types;
        int blockRow = -1;
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex i = m->index(r, 0);
            const int type = i.data(EventDiffModel::EventTypeRole).toInt();
            types[type] = {m->index(r, EventDiffModel::BaselineColumn)
                               .data(EventDiffModel::ValueRole)
                               .toLongLong(),
                           m->index(r, EventDiffModel::ComparisonColumn)
                               .data(EventDiffModel::ValueRole)
                               .toLongLong()};
            if (EventType(type) == EventType::Block)
                blockRow = r;
        }
        QCOMPARE(types.value(int(EventType::Block)), std::make_pair(qint64(60), qint64(92)));
        QCOMPARE(types.value(int(EventType::Exec)), std::make_pair(qint64(5), qint64(5)));
        QCOMPARE(types.value(int(EventType::CpuSample)), std::make_pair(qint64(100), qint64(200)));
        QVERIFY(blockRow >= 0);
        QCOMPARE(m->index(blockRow, EventDiffModel::ChangeColumn).data().toString(),
                 QStringLiteral("+32"));
        // The commands below the type: dd 50 -> 80, kworker 10 -> 5, fio new.
        const QModelIndex block = m->index(blockRow, 0);
        QHash<QString, std::pair<qint64, qint64>> comms;
        for (int r = 0; r < m->rowCount(block); ++r) {
            comms[m->index(r, EventDiffModel::NameColumn, block).data().toString()] = {
                m->index(r, EventDiffModel::BaselineColumn, block)
                    .data(EventDiffModel::ValueRole)
                    .toLongLong(),
                m->index(r, EventDiffModel::ComparisonColumn, block)
                    .data(EventDiffModel::ValueRole)
                    .toLongLong()};
        }
        QCOMPARE(comms.size(), 3);
        QCOMPARE(comms.value(QStringLiteral("dd")), std::make_pair(qint64(50), qint64(80)));
        QCOMPARE(comms.value(QStringLiteral("kworker")), std::make_pair(qint64(10), qint64(5)));
        QCOMPARE(comms.value(QStringLiteral("fio")), std::make_pair(qint64(0), qint64(7)));
        QCOMPARE(m->index(0, EventDiffModel::NameColumn, block).data().toString(),
                 QStringLiteral("dd")); // busiest first
        const int fio = m->index(2, 0, block).data().toString() == QLatin1String("fio") ? 2 : -1;
        QCOMPARE(fio, 2);
        QCOMPARE(m->index(fio, EventDiffModel::RelativeColumn, block).data().toString(),
                 QStringLiteral("new"));
    }

    // Every dimension the Below each type box offers: each type's rows are its keys with both
    // sessions' counts as the test counts them, and the box offers only the dimensions some
    // type has. A type without the chosen dimension has no rows below it.
    void eventRowsOfEveryDimension()
    {
        MainWindow w;
        ComparePage *page = compare(w, m_a, m_b);
        QVERIFY(page);
        page->tabs()->setCurrentIndex(1);
        EventDiffModel *m = page->eventModel();
        QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QComboBox *box = page->eventDimensionBox();
        QVERIFY(box);
        QStringList offered;
        for (int i = 0; i < box->count(); ++i)
            offered << box->itemText(i);
        QCOMPARE(offered, (QStringList{QStringLiteral("Process"), QStringLiteral("Command"),
                                       QStringLiteral("Disk"), QStringLiteral("Operation"),
                                       QStringLiteral("Error")}));
        QCOMPARE(box->currentText(), QStringLiteral("Command"));
        const KeyCounts a = keyCounts(baselineSpec()), b = keyCounts(comparisonSpec());
        int checked = 0;
        for (int i = 0; i < box->count(); ++i) {
            box->setCurrentIndex(i); // as the user picks it
            const Dimension d = Dimension(box->itemData(i).toInt());
            QCOMPARE(m->dimension(), d);
            QCOMPARE(m->headerData(EventDiffModel::NameColumn, Qt::Horizontal).toString(),
                     QStringLiteral("Events / ") + box->itemText(i));
            for (int r = 0; r < m->rowCount(); ++r) {
                const QModelIndex type = m->index(r, 0);
                const int t = type.data(EventDiffModel::EventTypeRole).toInt();
                const QHash<QString, qint64> ka = a.value({t, int(d)}), kb = b.value({t, int(d)});
                QSet<QString> keys;
                for (auto it = ka.cbegin(); it != ka.cend(); ++it)
                    keys.insert(it.key());
                for (auto it = kb.cbegin(); it != kb.cend(); ++it)
                    keys.insert(it.key());
                QVERIFY(keys.size() <= 10); // the page's top: every key shows
                QCOMPARE(m->rowCount(type), int(keys.size()));
                for (int k = 0; k < m->rowCount(type); ++k) {
                    const QString key =
                        m->index(k, EventDiffModel::NameColumn, type).data().toString();
                    const qint64 va = m->index(k, EventDiffModel::BaselineColumn, type)
                                          .data(EventDiffModel::ValueRole)
                                          .toLongLong();
                    const qint64 vb = m->index(k, EventDiffModel::ComparisonColumn, type)
                                          .data(EventDiffModel::ValueRole)
                                          .toLongLong();
                    QVERIFY2(keys.contains(key), qPrintable(key));
                    QCOMPARE(va, ka.value(key));
                    QCOMPARE(vb, kb.value(key));
                    QCOMPARE(m->index(k, EventDiffModel::ChangeColumn, type)
                                 .data(EventDiffModel::ValueRole)
                                 .toLongLong(),
                             vb - va);
                    ++checked;
                }
            }
        }
        QVERIFY(checked > 20);
        // Block by operation: Read went from 60 of 60 to a third; Sync-Write is new.
        page->setEventDimension(Dimension::Operation);
        QCOMPARE(box->currentText(), QStringLiteral("Operation"));
        int blockRow = -1;
        for (int r = 0; r < m->rowCount(); ++r) {
            if (EventType(m->index(r, 0).data(EventDiffModel::EventTypeRole).toInt()) ==
                EventType::Block)
                blockRow = r;
        }
        const QModelIndex block = m->index(blockRow, 0);
        QCOMPARE(m->index(0, EventDiffModel::NameColumn, block).data().toString(),
                 QStringLiteral("Read"));
        QCOMPARE(m->index(0, EventDiffModel::ChangeColumn, block).data().toString(),
                 QString(QChar(0x2212)) + QStringLiteral("29"));
        // Exec has no operation: no rows, and its tool tip says why.
        for (int r = 0; r < m->rowCount(); ++r) {
            const QModelIndex type = m->index(r, 0);
            if (EventType(type.data(EventDiffModel::EventTypeRole).toInt()) == EventType::Exec) {
                QCOMPARE(m->rowCount(type), 0);
                QCOMPARE(type.data(Qt::ToolTipRole).toString(),
                         QStringLiteral("These events have no value in this dimension."));
            }
        }
    }

    void differentialFlameGraphColoursGrowthAndShrinkage()
    {
        MainWindow w;
        ComparePage *page = compare(w, m_a, m_b);
        QVERIFY(page);
        FlameGraphView *flame = page->flameGraph();
        QVERIFY(flame);
        QCOMPARE(flame->profile()->total, quint64(200));
        const DifferentialProfile &d = page->differential();
        const qint32 malloc = nodeByNames(
            flame, {QStringLiteral("main"), QStringLiteral("compute"), QStringLiteral("malloc")});
        const qint32 write = nodeByNames(flame, {QStringLiteral("main"), QStringLiteral("write")});
        const qint32 parse = nodeByNames(flame, {QStringLiteral("main"), QStringLiteral("parse")});
        const qint32 main = nodeByNames(flame, {QStringLiteral("main")});
        QVERIFY(malloc > 0 && write > 0 && parse > 0 && main > 0);
        // Shares by hand: malloc 30/100 -> 100/200, write 10/100 -> 5/200, parse new 35/200.
        using M = DifferentialProfile::Measure;
        QCOMPARE(d.nodes[size_t(malloc)].totalA, 0.30);
        QCOMPARE(d.nodes[size_t(malloc)].totalB, 0.50);
        QCOMPARE(d.delta(write, M::Total), 0.025 - 0.10);
        QVERIFY(!d.nodes[size_t(parse)].inA);
        QCOMPARE(d.delta(parse, M::Total), 0.175);
        QCOMPARE(d.delta(main, M::Total), 0.0); // every sample is under main in both
        QCOMPARE(d.maxTotalDelta, 0.20);

        const QColor grew = paintedColor(flame, malloc);
        const QColor shrank = paintedColor(flame, write);
        const QColor same = paintedColor(flame, main);
        QVERIFY(grew.isValid() && shrank.isValid() && same.isValid());
        QVERIFY2(grew.red() > grew.blue() + 100, qPrintable(grew.name()));
        QVERIFY2(shrank.blue() > shrank.red() + 50, qPrintable(shrank.name()));
        QCOMPARE(same, ComparePage::changeColor(0, 1));
        QCOMPARE(same.red(), same.blue()); // grey
        // The largest growth is the most saturated.
        QVERIFY(grew.red() - grew.blue() >
                paintedColor(flame, parse).red() - paintedColor(flame, parse).blue());

        // The tool tip names both shares and the change.
        const QString tip = page->shareText(malloc);
        QVERIFY2(tip.contains(QStringLiteral("30.0%")) && tip.contains(QStringLiteral("50.0%")) &&
                     tip.contains(QStringLiteral("+20.0 pp")),
                 qPrintable(tip));

        // By self share: compute's self went from 60 % to 30 %, blue; its total 90 % -> 80 %.
        const qint32 compute =
            nodeByNames(flame, {QStringLiteral("main"), QStringLiteral("compute")});
        page->setMeasure(M::Self);
        QCOMPARE(d.delta(compute, M::Self), 0.30 - 0.60);
        const QColor computeSelf = paintedColor(flame, compute);
        QVERIFY2(computeSelf.blue() > computeSelf.red() + 100, qPrintable(computeSelf.name()));
        QCOMPARE(flame->render().pixelColor(flame->nodeRect(compute).center().toPoint()).rgb(),
                 computeSelf.rgb());
    }

    // Off-CPU: the switch shows the comparison's off-CPU flame graph weighted by time blocked;
    // shares and both sides' times under a frame as computed here from the waits written.
    void offCpuFlameGraphWeighsTimeBlocked()
    {
        MainWindow w;
        ComparePage *page = compare(w, m_a, m_b);
        QVERIFY(page);
        QCOMPARE(page->profileKind(), ProfileKind::OnCpu);
        QVERIFY(page->profileKindBox());
        QCOMPARE(page->profileKindBox()->count(), 2);
        // Through the box, as a user switches.
        page->profileKindBox()->setCurrentIndex(
            page->profileKindBox()->findData(int(ProfileKind::OffCpu)));
        QCOMPARE(page->profileKind(), ProfileKind::OffCpu);
        QVERIFY(page->profileEmptyText().isEmpty());
        FlameGraphView *flame = page->flameGraph();
        QVERIFY(flame && flame->isVisible());
        QVERIFY(flame->profile()->isTime());
        // Brute force over the waits written: the totals and each frame's share on both sides.
        quint64 totalA = 0, totalB = 0;
        QHash<QString, quint64> byLeafA, byLeafB;
        for (const auto &[names, ns] : baselineSpec().waits) {
            totalA += ns;
            byLeafA[names.last()] += ns;
        }
        for (const auto &[names, ns] : comparisonSpec().waits) {
            totalB += ns;
            byLeafB[names.last()] += ns;
        }
        QCOMPARE(flame->profile()->total, totalB);
        const DifferentialProfile &d = page->differential();
        QCOMPARE(d.baselineTotal, totalA);
        for (const QString &leaf : {QStringLiteral("read"), QStringLiteral("poll")}) {
            const qint32 node = nodeByNames(flame, {QStringLiteral("main"), leaf});
            QVERIFY2(node > 0, qPrintable(leaf));
            const DifferentialProfile::NodeShares &sh = d.nodes[size_t(node)];
            QCOMPARE(sh.totalValueA, byLeafA[leaf]);
            QCOMPARE(sh.totalValueB, byLeafB[leaf]);
            QCOMPARE(sh.totalA, double(byLeafA[leaf]) / double(totalA));
            QCOMPARE(sh.totalB, double(byLeafB[leaf]) / double(totalB));
            // What the user reads under the frame: both times, both shares, the change.
            const QString tip = flame->toolTipFor(*std::find_if(
                flame->boxes().cbegin(), flame->boxes().cend(), [node](const auto &b) {
                    return b.node == node && b.kind == FlameGraphView::BoxKind::Frame;
                }));
            for (const QString &part :
                 {ProfileText::cost(byLeafA[leaf], true), ProfileText::cost(byLeafB[leaf], true),
                  QLocale().toString(100.0 * sh.totalA, 'f', 1) + QLatin1Char('%'),
                  QLocale().toString(100.0 * sh.totalB, 'f', 1) + QLatin1Char('%')})
                QVERIFY2(tip.contains(part), qPrintable(part + QStringLiteral(" in ") + tip));
        }
        // read: 80 % -> 25 %, blue; poll: 20 % -> 75 %, red.
        const qint32 read = nodeByNames(flame, {QStringLiteral("main"), QStringLiteral("read")});
        const qint32 poll = nodeByNames(flame, {QStringLiteral("main"), QStringLiteral("poll")});
        QVERIFY(flame
                    ->toolTipFor(*std::find_if(flame->boxes().cbegin(), flame->boxes().cend(),
                                               [read](const auto &b) {
                                                   return b.node == read &&
                                                          b.kind == FlameGraphView::BoxKind::Frame;
                                               }))
                    .contains(QStringLiteral("−55.0 pp")));
        const QColor blue = paintedColor(flame, read), red = paintedColor(flame, poll);
        QVERIFY2(blue.blue() > blue.red() + 100, qPrintable(blue.name()));
        QVERIFY2(red.red() > red.blue() + 100, qPrintable(red.name()));
        // The root row (at the bottom) is in sight, however tall the graph.
        flame->setMinimumHeight(3000);
        QApplication::processEvents();
        const QRect root = flame->nodeRect(0).toRect();
        QVERIFY(page->flameScroll()->viewport()->rect().contains(
            flame->mapTo(page->flameScroll()->viewport(), root.center())));
        flame->setMinimumHeight(0);
        // Back to on-CPU: the sample flame graph again.
        page->setProfileKind(ProfileKind::OnCpu);
        QCOMPARE(page->profileKindBox()->currentData().toInt(), int(ProfileKind::OnCpu));
        QCOMPARE(flame->profile()->total, quint64(200));
    }

    // A side without off-CPU waits: the off-CPU view says which and how to get them instead of
    // an empty graph; on-CPU still shows.
    void missingOffCpuProfileIsExplained()
    {
        Spec noWaits = comparisonSpec();
        noWaits.waits.clear();
        const QString path = m_dir.filePath(QStringLiteral("nowaits.bpflens"));
        QString error;
        QVERIFY2(write(path, noWaits, &error), qPrintable(error));
        MainWindow w;
        ComparePage *page = compare(w, m_a, path);
        QVERIFY(page);
        QCOMPARE(page->profileKind(), ProfileKind::OnCpu);
        QVERIFY(page->profileEmptyText().isEmpty());
        page->setProfileKind(ProfileKind::OffCpu);
        QVERIFY(page->differential().isEmpty());
        QVERIFY2(page->profileEmptyText().contains(QStringLiteral("comparison has no off-CPU")),
                 qPrintable(page->profileEmptyText()));
        QVERIFY(!page->flameGraph()->isVisible());
        QVERIFY(!page->measureBox()->isEnabled());
        // The other way round: the baseline lacks them.
        MainWindow w2;
        ComparePage *reversed = compare(w2, path, m_a);
        QVERIFY(reversed);
        reversed->setProfileKind(ProfileKind::OffCpu);
        QVERIFY2(reversed->profileEmptyText().contains(QStringLiteral("baseline has no off-CPU")),
                 qPrintable(reversed->profileEmptyText()));
        reversed->setProfileKind(ProfileKind::OnCpu);
        QVERIFY(reversed->profileEmptyText().isEmpty());
        QVERIFY(reversed->flameGraph()->isVisible());
    }

    void sessionComparedWithItselfShowsNoChange()
    {
        MainWindow w;
        ComparePage *page = compare(w, m_b, m_b);
        QVERIFY(page);
        const PercentileDiffModel *pm = page->percentileModel();
        QCOMPARE(pm->rowCount(), 3);
        for (int r = 0; r < pm->rowCount(); ++r) {
            QCOMPARE(pm->index(r, PercentileDiffModel::ChangeColumn)
                         .data(PercentileDiffModel::ValueRole)
                         .toDouble(),
                     0.0);
            QCOMPARE(pm->index(r, PercentileDiffModel::RelativeColumn)
                         .data(PercentileDiffModel::ValueRole)
                         .toDouble(),
                     0.0);
        }
        EventDiffModel *em = page->eventModel();
        QVERIFY(em->rowCount() > 0);
        int keys = 0;
        for (const Dimension d : em->dimensions()) {
            page->setEventDimension(d);
            for (int r = 0; r < em->rowCount(); ++r) {
                const QModelIndex type = em->index(r, 0);
                QCOMPARE(em->index(r, EventDiffModel::ChangeColumn).data(EventDiffModel::ValueRole),
                         QVariant(qint64(0)));
                for (int c = 0; c < em->rowCount(type); ++c) {
                    QCOMPARE(em->index(c, EventDiffModel::ChangeColumn, type)
                                 .data(EventDiffModel::ValueRole),
                             QVariant(qint64(0)));
                    QVERIFY(em->index(c, EventDiffModel::BaselineColumn, type)
                                .data(EventDiffModel::ValueRole)
                                .toLongLong() > 0);
                    ++keys;
                }
            }
        }
        QCOMPARE(em->dimensions().size(), 5);
        QVERIFY(keys > 15);
        // Equal totals: counts, and the two series are the same.
        QVERIFY(!page->showsFractions(0));
        for (int s = 0; s < page->baselineSet(0)->count(); ++s)
            QCOMPARE(page->baselineSet(0)->at(s), page->comparisonSet(0)->at(s));
        // Every frame of the flame graph is the colour of no change.
        FlameGraphView *flame = page->flameGraph();
        QVERIFY(flame);
        int frames = 0;
        for (const FlameGraphView::Box &b : flame->boxes()) {
            if (b.kind != FlameGraphView::BoxKind::Frame)
                continue;
            ++frames;
            QCOMPARE(flame->colorOf(b), ComparePage::changeColor(0, 1));
        }
        QVERIFY(frames >= 5);
        QCOMPARE(page->differential().maxTotalDelta, 0.0);
        QCOMPARE(page->differential().vanishedTotal, 0.0);
    }

    void unreadableFileLeavesTheSessionAlone()
    {
        MainWindow w;
        QVERIFY(w.openFile(m_a));
        const QString bad = m_dir.filePath(QStringLiteral("garbage.bpflens"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
        f.close();
        QString error;
        QVERIFY(!w.compareController()->compareWith(bad, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!w.compareController()->page());
        QMessageBox *box = errorBox();
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("garbage.bpflens")), qPrintable(box->text()));
        QVERIFY2(box->text().contains(error), qPrintable(box->text()));
        delete box;
        QVERIFY(!w.compareController()->compareWith(m_dir.filePath(QStringLiteral("none.bpflens")),
                                                    &error));
        delete errorBox();
        // The open session is the one it was, and comparing still works.
        QCOMPARE(QFileInfo(w.session()->path()).fileName(), QStringLiteral("before.bpflens"));
        QCOMPARE(w.session()->events().count(EventType::Block), 60);
        QVERIFY(w.compareController()->action()->isEnabled());
        QVERIFY(w.compareController()->compareWith(m_b, &error));
    }
};

QTEST_MAIN(TestComparePage)
#include "tst_comparepage.moc"
