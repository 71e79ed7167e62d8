// The CPU profile page as a user sees it, on real widgets: the flame graph's box widths follow
// the samples, search shares, zoom and its breadcrumb, the off-CPU switch weighting by blocked
// time, re-aggregation for the timeline's range and for live data (throttled), the truncated
// marker, the links between the flame graph and the trees, and the empty states.
#include "gui/flamegraphview.h"
#include "gui/mainwindow.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/timelinebins.h"
#include "gui/models/viewstate.h"
#include "gui/profilepage.h"
#include "gui/resultspage.h"
#include "gui/timelinewidget.h"
#include "gui/translations.h"
#include "tests/gui/profiletestdata.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QScopeGuard>
#include <QSet>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace bpflens;
using namespace bpflens::test;

namespace {

// Twelve processes (pid 500 + p, "proc<p>") with 12 - p CPU samples per 10 ms slot over 1 s;
// process 0 only in the first half.
SessionData twelveProcesses()
{
    SessionData d;
    d.info.startMonotonicNs = ProfileStartNs;
    d.info.endMonotonicNs = ProfileStartNs + 1'000'000'000;
    for (int slot = 0; slot < 100; ++slot) {
        for (quint32 p = 0; p < 12; ++p) {
            for (quint32 k = 0; k < 12 - p; ++k) {
                CpuSampleEvent e;
                e.timeNs = ProfileStartNs + quint64(slot) * 10'000'000 + p * 1000 + k;
                e.pid = 500 + p;
                e.comm = "proc" + QByteArray::number(p);
                // Process 0 only runs in the first half: a spike the lanes must show.
                if (p == 0 && slot >= 50)
                    continue;
                d.events.append(e);
            }
        }
    }
    return d;
}

// The top-down node reached by the frames from the root, -1 if none.
qint32 nodeOf(const CallTree &t, const QList<quint32> &frames)
{
    qint32 at = 0;
    for (quint32 f : frames) {
        qint32 next = -1;
        for (qint32 c : t.node(at).children) {
            if (t.node(c).frame == f)
                next = c;
        }
        if (next < 0)
            return -1;
        at = next;
    }
    return at;
}

struct Fixture
{
    SessionModel session;
    ViewState state;
    ProfilePage page{&session, &state};

    explicit Fixture(SessionData data = profileSession())
    {
        session.setSession(std::move(data));
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        page.resize(1200, 700);
        page.show();
        page.refresh();
    }
    FlameGraphView *flame() const { return page.flameGraph(); }
    const CallTree &tree() const { return page.profile()->topDown; }
    double width(const QList<quint32> &frames) const
    {
        return flame()->nodeRect(nodeOf(tree(), frames)).width();
    }
};

} // namespace

class TestProfilePage : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QLocale::setDefault(QLocale::c());
    }

    void boxWidthsFollowSamples()
    {
        Fixture f;
        QVERIFY(!f.page.isShowingEmptyState());
        const double w = f.flame()->width();
        QVERIFY(w > 300);
        QCOMPARE(f.page.profile()->total, 100u);
        QCOMPARE(f.flame()->nodeRect(0).width(), w); // "all"
        QCOMPARE(f.width({MainFrame}), w * 0.95);
        QCOMPARE(f.width({MainFrame, ComputeFrame}), w * 0.80);
        QCOMPARE(f.width({MainFrame, ComputeFrame, MallocFrame}), w * 0.30);
        QCOMPARE(f.width({MainFrame, WriteFrame, EntryFrame, VfsWriteFrame}), w * 0.15);
        // Flame orientation: the root at the bottom, callees above their callers.
        const QRectF main = f.flame()->nodeRect(nodeOf(f.tree(), {MainFrame}));
        const QRectF compute = f.flame()->nodeRect(nodeOf(f.tree(), {MainFrame, ComputeFrame}));
        QVERIFY(compute.bottom() < main.top());
        QVERIFY(f.flame()->nodeRect(0).bottom() > main.bottom());
        QCOMPARE(compute.left(), main.left());
        // Icicle: the root on top.
        f.page.icicleCheck()->setChecked(true);
        QCOMPARE(f.flame()->nodeRect(0).top(), 0.0);
        QVERIFY(f.flame()->nodeRect(nodeOf(f.tree(), {MainFrame, ComputeFrame})).top() >
                f.flame()->nodeRect(nodeOf(f.tree(), {MainFrame})).top());
        QCOMPARE(f.page.statusLabel()->text(), QStringLiteral("Samples in range: 100"));

        // Kernel and user frames differ in colour, visibly in the picture.
        const QImage image = f.flame()->render();
        auto hueAt = [&](const QList<quint32> &frames) {
            const QRectF r = f.flame()->nodeRect(nodeOf(f.tree(), frames));
            return image.pixelColor(QPointF(r.right() - 2, r.center().y()).toPoint()).hsvHue();
        };
        QVERIFY(hueAt({MainFrame, ComputeFrame, MallocFrame}) < 60);
        QVERIFY(hueAt({MainFrame, WriteFrame, EntryFrame, VfsWriteFrame}) > 180);
        // The same function, the same colour in every run.
        QCOMPARE(FlameGraphView::frameColor(FrameKind::User, QStringLiteral("malloc")),
                 FlameGraphView::frameColor(FrameKind::User, QStringLiteral("malloc")));
    }

    void searchShowsShare()
    {
        Fixture f;
        f.page.searchEdit()->setText(QStringLiteral("malloc"));
        QCOMPARE(f.page.searchLabel()->text(), QStringLiteral("malloc: 30.0% of samples"));
        QCOMPARE(f.flame()->searchMatchTotal(), 30u);
        // write and vfs_write both match; each sample counts once.
        f.page.searchEdit()->setText(QStringLiteral("WRITE"));
        QCOMPARE(f.page.searchLabel()->text(), QStringLiteral("WRITE: 15.0% of samples"));
        const QImage image = f.flame()->render();
        const QRectF write = f.flame()->nodeRect(nodeOf(f.tree(), {MainFrame, WriteFrame}));
        const QColor c = image.pixelColor(QPointF(write.right() - 2, write.center().y()).toPoint());
        QVERIFY2(c.hsvHue() > 280 && c.hsvHue() < 330, qPrintable(c.name())); // magenta
        f.page.searchEdit()->clear();
        QCOMPARE(f.page.searchLabel()->text(), QString());
    }

    // "vfs_write: 15.0% of samples" must show where: a search for a function outside the zoomed
    // part brings its heaviest box into view, and the Functions list keeps the matching
    // functions only.
    void searchRevealsAndFiltersItsMatches()
    {
        Fixture f;
        QAbstractItemModel *functions = f.page.functionView()->model();
        QCOMPARE(functions->rowCount(), 7);
        const qint32 compute = nodeOf(f.tree(), {MainFrame, ComputeFrame});
        const qint32 vfsWrite =
            nodeOf(f.tree(), {MainFrame, WriteFrame, EntryFrame, VfsWriteFrame});
        f.flame()->zoomTo(compute);
        QVERIFY(f.flame()->nodeRect(vfsWrite).isEmpty());

        f.page.searchEdit()->setText(QStringLiteral("vfs_w"));
        QCOMPARE(f.flame()->heaviestMatch(), vfsWrite);
        const QRectF r = f.flame()->nodeRect(vfsWrite);
        QVERIFY(!r.isEmpty());
        QVERIFY(r.width() > 100);
        QCOMPARE(functions->rowCount(), 1);
        QCOMPARE(functions->index(0, CallTreeModel::FunctionColumn).data().toString(),
                 QStringLiteral("vfs_write"));

        // Two functions match "WRITE"; a match in view stays where it is.
        f.flame()->resetZoom();
        f.page.searchEdit()->setText(QStringLiteral("WRITE"));
        QCOMPARE(f.flame()->zoomNode(), 0);
        QCOMPARE(functions->rowCount(), 2);
        for (int row = 0; row < functions->rowCount(); ++row)
            QVERIFY(functions->index(row, CallTreeModel::FunctionColumn)
                        .data()
                        .toString()
                        .contains(QLatin1String("write")));
        f.page.searchEdit()->clear();
        QCOMPARE(functions->rowCount(), 7);
    }

    void clickZoomsAndSelects()
    {
        Fixture f;
        const double w = f.flame()->width();
        const qint32 compute = nodeOf(f.tree(), {MainFrame, ComputeFrame});
        QVERIFY(!f.page.resetZoomButton()->isEnabled());
        QTest::mouseClick(f.flame(), Qt::LeftButton, {},
                          f.flame()->nodeRect(compute).center().toPoint());
        QCOMPARE(f.flame()->zoomNode(), compute);
        QCOMPARE(f.flame()->nodeRect(compute).width(), w);
        QCOMPARE(f.width({MainFrame, ComputeFrame, MallocFrame}), w * 30 / 80);
        // The callers stay as full-width context; write is out of the picture.
        QCOMPARE(f.width({MainFrame}), w);
        QVERIFY(f.flame()->nodeRect(nodeOf(f.tree(), {MainFrame, WriteFrame})).isEmpty());
        QVERIFY(f.page.resetZoomButton()->isEnabled());
        QVERIFY2(f.page.breadcrumbLabel()->text().contains(QStringLiteral("main › compute(int)")),
                 qPrintable(f.page.breadcrumbLabel()->text()));

        // The click picked the function in the trees too (the bottom-up tree is summed once
        // its tab is shown).
        f.page.treeTabs()->setCurrentWidget(f.page.bottomUpView());
        f.page.refresh();
        QVERIFY(f.page.profile()->hasBottomUp);
        QCOMPARE(f.page.selectedFrame(), quint32(ComputeFrame));
        QCOMPARE(f.page.topDownView()->currentIndex().data(CallTreeModel::FrameIdRole).toUInt(),
                 quint32(ComputeFrame));
        QCOMPARE(f.page.bottomUpView()->currentIndex().data(CallTreeModel::FrameIdRole).toUInt(),
                 quint32(ComputeFrame));
        QCOMPARE(f.page.functionView()->currentIndex().data(CallTreeModel::FrameIdRole).toUInt(),
                 quint32(ComputeFrame));

        // A tree's pick outlines the function in the flame graph.
        QTreeView *functions = f.page.functionView();
        const QModelIndex malloc =
            functions->model()->index(f.page.functionModel()->rowForFrame(MallocFrame), 0);
        functions->setCurrentIndex(malloc);
        QCOMPARE(f.flame()->selectedFrame(), quint32(MallocFrame));

        // Zoom survives a re-aggregation that keeps the path; reset returns.
        f.state.setRange(f.state.fullStartNs(), f.state.fullEndNs() - 1);
        f.page.refresh();
        QCOMPARE(f.flame()->frameName(f.flame()->zoomNode()), QStringLiteral("compute(int)"));
        f.page.resetZoomButton()->click();
        QCOMPARE(f.flame()->zoomNode(), 0);
        QCOMPARE(f.width({MainFrame}), w * 0.95);
    }

    void offCpuWeighsBlockedTime()
    {
        Fixture f;
        f.page.setKind(ProfileKind::OffCpu);
        f.page.refresh();
        const double w = f.flame()->width();
        QCOMPARE(f.page.profile()->total, 1'000'000'000u);
        QCOMPARE(f.width({MainFrame, WriteFrame}), w * 0.9);
        QCOMPARE(f.width({MainFrame, ComputeFrame, MallocFrame}), w * 0.1);
        QVERIFY2(f.page.statusLabel()->text().contains(QStringLiteral("1.000 s")),
                 qPrintable(f.page.statusLabel()->text()));
        const auto *box = f.flame()->boxAt(
            f.flame()->nodeRect(nodeOf(f.tree(), {MainFrame, WriteFrame})).center());
        QVERIFY(box);
        const QString tip = f.flame()->toolTipFor(*box);
        QVERIFY2(tip.contains(QStringLiteral("Total: 900.00 ms (90.0%)")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("libc.so.6")), qPrintable(tip));
        f.page.searchEdit()->setText(QStringLiteral("malloc"));
        QCOMPARE(f.page.searchLabel()->text(),
                 QStringLiteral("malloc: 10.0% of off-CPU time (100.00 ms)"));
        // Trees show time, not counts.
        QCOMPARE(
            f.page.topDownView()->model()->index(0, CallTreeModel::TotalColumn).data().toString(),
            QStringLiteral("1.000 s"));
    }

    // Page faults (#34): offered only with pagefault events, weighted by faults (a sampled
    // event counts its weight), said in faults everywhere; a session with nothing but page
    // faults opens on them.
    void pageFaultsWeighFaults()
    {
        // The English plural forms ("30 page faults") come from bpflens_en.ts.
        installTranslations(QLocale::c());
        {
            Fixture plain;
            QCOMPARE(plain.page.kindCombo()->findData(int(ProfileKind::PageFaults)), -1);
        }
        auto faults = [](SessionData d) {
            // 30 faults in malloc as one event sampled with every=30, 10 in vfs_write one by one.
            auto fault = [&](quint64 k, quint32 stack, quint32 weight) {
                PageFaultEvent e;
                e.timeNs = ProfileStartNs + k * SampleStepNs + 5;
                e.pid = e.tid = 100;
                e.comm = "app";
                e.kind = PageFaultEvent::Anon;
                e.address = 0x7f0000000000ull + k * 4096;
                e.stackId = stack;
                e.weight = weight;
                d.events.append(e);
            };
            fault(0, 2, 30);
            for (quint64 k = 1; k <= 10; ++k)
                fault(k, 3, 1);
            return d;
        };
        Fixture f(faults(profileSession()));
        const int at = f.page.kindCombo()->findData(int(ProfileKind::PageFaults));
        QVERIFY(at >= 0);
        QCOMPARE(f.page.kindCombo()->itemText(at), QStringLiteral("Page faults"));
        QCOMPARE(f.page.kind(), ProfileKind::OnCpu);
        f.page.setKind(ProfileKind::PageFaults);
        f.page.refresh();
        QCOMPARE(f.page.profile()->total, 40u);
        QCOMPARE(f.page.profile()->events, 11);
        const double w = f.flame()->width();
        QCOMPARE(f.width({MainFrame, ComputeFrame, MallocFrame}), w * 0.75);
        QCOMPARE(f.width({MainFrame, WriteFrame, EntryFrame, VfsWriteFrame}), w * 0.25);
        QCOMPARE(f.page.statusLabel()->text(), QStringLiteral("Page faults in range: 40"));
        QCOMPARE(f.flame()->frameName(0), QStringLiteral("all page faults"));
        const auto *box = f.flame()->boxAt(
            f.flame()->nodeRect(nodeOf(f.tree(), {MainFrame, ComputeFrame, MallocFrame})).center());
        QVERIFY(box);
        const QString tip = f.flame()->toolTipFor(*box);
        QVERIFY2(tip.contains(QStringLiteral("Total: 30 page faults (75.0%)")), qPrintable(tip));
        f.page.searchEdit()->setText(QStringLiteral("vfs_write"));
        QCOMPARE(f.page.searchLabel()->text(), QStringLiteral("vfs_write: 25.0% of page faults"));
        // Trees count faults, not time.
        QCOMPARE(
            f.page.topDownView()->model()->index(0, CallTreeModel::TotalColumn).data().toString(),
            QStringLiteral("40"));

        SessionData only;
        only.info.schemaVersion = 1;
        only.info.startMonotonicNs = ProfileStartNs;
        only.info.endMonotonicNs = ProfileStartNs + 102 * SampleStepNs;
        QString error;
        QVERIFY(only.stacks.addDefinitions(profileBatch(), &error));
        Fixture g(faults(std::move(only)));
        QCOMPARE(g.page.kind(), ProfileKind::PageFaults);
        QCOMPARE(g.page.statusLabel()->text(), QStringLiteral("Page faults in range: 40"));
    }

    void rangeReaggregates()
    {
        Fixture f;
        const int before = f.page.aggregations();
        // The second half: no samples of the compute-only stack.
        f.state.setRange(ProfileStartNs + 50 * SampleStepNs, ProfileStartNs + 100 * SampleStepNs);
        QTRY_VERIFY(f.page.aggregations() > before);
        QCOMPARE(f.page.profile()->total, 50u);
        const double w = f.flame()->width();
        QCOMPARE(f.width({MainFrame, ComputeFrame}), w * 30 / 50);
        QCOMPARE(f.page.statusLabel()->text(), QStringLiteral("Samples in range: 50"));
        // The process filter of the filter bar applies too.
        EventFilter filter;
        filter.comm = "parser";
        f.state.setFilter(filter);
        QTRY_COMPARE(f.page.profile()->total, 5u);
        f.state.setFilter({});
        QTRY_COMPARE(f.page.profile()->total, 50u);
        // Kernel frames only.
        f.page.setStackPart(StackPart::KernelOnly);
        f.page.refresh();
        QCOMPARE(f.flame()->frameName(nodeOf(f.tree(), {EntryFrame})),
                 QStringLiteral("entry_SYSCALL_64"));
        QCOMPARE(f.width({EntryFrame}), w * 15 / 50);
    }

    void truncatedStacksAreMarked()
    {
        Fixture f;
        const qint32 marker = nodeOf(f.tree(), {CallTree::TruncatedFrame});
        QVERIFY(marker > 0);
        QCOMPARE(f.flame()->frameName(marker), QStringLiteral("[truncated]"));
        const double w = f.flame()->width();
        QCOMPARE(f.flame()->nodeRect(marker).width(), w * 0.05);
        QCOMPARE(f.width({CallTree::TruncatedFrame, ParseFrame}), w * 0.05);
        const auto *box = f.flame()->boxAt(f.flame()->nodeRect(marker).center());
        QVERIFY(box);
        QVERIFY(f.flame()->toolTipFor(*box).contains(
            QStringLiteral("did not reach the thread's first frame")));
        // Drawn unlike any function: grey, hatched.
        const QImage image = f.flame()->render();
        const QRectF r = f.flame()->nodeRect(marker);
        QSet<QRgb> colours;
        for (int x = int(r.left()) + 1; x < int(r.right()); ++x)
            colours.insert(image.pixel(x, int(r.center().y())));
        QVERIFY(colours.size() >= 2);
        for (QRgb c : colours)
            QVERIFY2(QColor(c).hsvSaturation() < 40, qPrintable(QColor(c).name()));
    }

    void narrowBoxesMerge()
    {
        // 1000 distinct leaf functions with one sample each under one caller, one heavy one.
        SessionData d;
        d.info.startMonotonicNs = ProfileStartNs;
        QString error;
        QVERIFY(
            d.stacks.add(FrameDefinition{1, {FrameKind::User, 1, "/bin/x", {}, "root"}}, &error));
        QVERIFY(
            d.stacks.add(FrameDefinition{2, {FrameKind::User, 2, "/bin/x", {}, "heavy"}}, &error));
        for (quint32 i = 0; i < 1000; ++i)
            QVERIFY(d.stacks.add(
                FrameDefinition{
                    3 + i, {FrameKind::User, 3 + i, "/bin/x", {}, "f" + QByteArray::number(i)}},
                &error));
        for (quint32 i = 0; i < 1001; ++i)
            QVERIFY(d.stacks.add(StackDefinition{1 + i, 0, {2 + i, 1}}, &error));
        quint64 t = ProfileStartNs;
        auto sample = [&](quint32 stack) {
            CpuSampleEvent e;
            e.timeNs = t++;
            e.pid = 1;
            e.stackId = stack;
            d.events.append(e);
        };
        for (int k = 0; k < 9000; ++k)
            sample(1);
        for (quint32 i = 0; i < 1000; ++i)
            sample(2 + i);
        Fixture f(std::move(d));
        int merged = 0;
        for (const FlameGraphView::Box &b : f.flame()->boxes()) {
            QVERIFY(b.rect.width() >= 1.0);
            if (b.kind == FlameGraphView::BoxKind::Merged) {
                ++merged;
                QCOMPARE(b.count, 1000);
                QCOMPARE(b.total, 1000u);
                QVERIFY(f.flame()->toolTipFor(b).contains(QStringLiteral("1000 small functions")));
            }
        }
        QCOMPARE(merged, 1);
    }

    void drawingIsCached()
    {
        Fixture f;
        f.flame()->render();
        const int renders = f.flame()->renderCount();
        f.flame()->repaint();
        QTest::mouseMove(f.flame(), f.flame()->nodeRect(0).center().toPoint());
        f.flame()->repaint();
        QCOMPARE(f.flame()->renderCount(), renders);
        f.page.searchEdit()->setText(QStringLiteral("main"));
        f.flame()->repaint();
        QCOMPARE(f.flame()->renderCount(), renders + 1);
        f.page.resize(900, 700);
        QApplication::processEvents();
        f.flame()->repaint();
        QCOMPARE(f.flame()->renderCount(), renders + 2);
    }

    void emptyStates()
    {
        {
            Fixture f(SessionData{});
            QVERIFY(f.page.isShowingEmptyState());
            QVERIFY2(f.page.emptyText().contains(QStringLiteral(
                         "Record with the profile probe to see where CPU time goes")),
                     qPrintable(f.page.emptyText()));
            f.page.setKind(ProfileKind::OffCpu);
            f.page.refresh();
            QVERIFY(f.page.emptyText().contains(QStringLiteral("offcpu probe")));
        }
        Fixture f;
        QVERIFY(!f.page.isShowingEmptyState());
        // After the last sample (990 ms): none in range.
        f.state.setRange(ProfileStartNs + 99 * SampleStepNs + 1,
                         ProfileStartNs + 100 * SampleStepNs - 1);
        f.page.refresh();
        QVERIFY(f.page.isShowingEmptyState());
        QVERIFY(f.page.emptyText().startsWith(QStringLiteral("No CPU samples in this range")));
        f.state.resetRange();
        f.page.refresh();
        QVERIFY(!f.page.isShowingEmptyState());
    }

    void liveAppendsAreThrottled()
    {
        Fixture f(SessionData{});
        QVERIFY(f.page.isShowingEmptyState());
        // As the main window does: live data widens the full range.
        QObject::connect(&f.session, &SessionModel::appended, &f.state, [&f] {
            f.state.setFullRange(f.session.firstTimeNs(), f.session.endTimeNs());
        });
        const RecordBatch all = profileBatch();
        // Definitions first, then the samples in 20 batches as fast as they come.
        RecordBatch first;
        first.frames = all.frames;
        first.stacks = all.stacks;
        f.session.append(first);
        const int before = f.page.aggregations();
        for (int b = 0; b < 20; ++b) {
            RecordBatch batch;
            batch.cpuSample = all.cpuSample.mid(b * 5, 5);
            f.session.append(batch);
            QTest::qWait(20);
        }
        QTRY_COMPARE(f.page.profile()->total, 100u);
        QVERIFY(!f.page.isShowingEmptyState());
        // 20 appends in ~400 ms: at most a few aggregations, not 20.
        QVERIFY2(f.page.aggregations() - before <= 3,
                 qPrintable(QString::number(f.page.aggregations() - before)));
    }

    void hiddenPageWaits()
    {
        SessionModel session;
        ViewState state;
        ProfilePage page(&session, &state);
        session.setSession(profileSession());
        state.setFullRange(session.firstTimeNs(), session.endTimeNs());
        QTest::qWait(50);
        QCOMPARE(page.aggregations(), 0);
        page.show();
        QTRY_COMPARE(page.aggregations(), 1);
        QCOMPARE(page.profile()->total, 100u);
    }

    void timelineCpuLanes()
    {
        // Twelve processes with 12, 11, … 1 samples per millisecond-wide slot: the eight busiest
        // get a lane each, busiest first, the other four share one.
        auto make = twelveProcesses;
        SessionModel session;
        session.setSession(make());
        const ProcessCpuBins bins = TimelineBinner::binCpuByProcess(
            session, ProfileStartNs, ProfileStartNs + 1'000'000'000, 100);
        QCOMPARE(int(bins.lanes.size()), 9);
        QCOMPARE(bins.lanes[0].pid, 501); // 11 × 100 beats process 0's 12 × 50
        QCOMPARE(bins.lanes[0].comm, QByteArray("proc1"));
        QCOMPARE(bins.lanes[0].total, 1100u);
        QCOMPARE(bins.lanes[8].pid, -1);
        QCOMPARE(bins.lanes[8].processes, 4);
        QCOMPARE(bins.lanes[8].total, quint64(4 + 3 + 2 + 1) * 100);
        const auto &p0 = *std::find_if(bins.lanes.begin(), bins.lanes.end(),
                                       [](const auto &l) { return l.pid == 500; });
        QCOMPARE(p0.counts[10], 12u);
        QCOMPARE(p0.counts[90], 0u);
        // The second half only: process 0 is gone from the lanes.
        const ProcessCpuBins later = TimelineBinner::binCpuByProcess(
            session, ProfileStartNs + 500'000'000, ProfileStartNs + 1'000'000'000, 100);
        QCOMPARE(later.lanes[0].pid, 501);
        QCOMPARE(int(later.lanes.size()), 9);
        QCOMPARE(later.lanes[8].processes, 3);

        // In the window: the lanes sit below the CPU samples lane and name their process.
        MainWindow window;
        window.resize(1366, 1200);
        TimelineWidget *tl = window.results()->timeline();
        tl->setMinimumHeight(700); // room for every process lane
        window.show();
        window.session()->setSession(make());
        QTRY_COMPARE(int(tl->cpuBins().lanes.size()), 9);
        const QRect cpu = tl->laneRect(EventType::CpuSample);
        QVERIFY(!cpu.isNull());
        QVERIFY(tl->processLaneRect(0).top() > cpu.bottom());
        QVERIFY(tl->processLaneRect(8).top() > tl->processLaneRect(0).bottom());
        // Other lanes keep their places and a sensible height.
        QVERIFY(tl->laneRect(EventType::Exec).height() >= 10);
        const QImage image = tl->grab().toImage();
        // Process 0's lane has bars in the first half and none in the second.
        int lane0 = -1;
        for (int k = 0; k < 9; ++k) {
            if (tl->cpuBins().lanes[size_t(k)].pid == 500)
                lane0 = k;
        }
        QVERIFY(lane0 >= 0);
        const QRect r = tl->processLaneRect(lane0);
        auto hasBar = [&](quint64 t) {
            const int x = int(tl->xForTime(t));
            for (int y = r.top(); y <= r.bottom(); ++y) {
                if (image.pixelColor(x, y) == QColor(QRgb(EventTraits<CpuSampleEvent>::lane.rgb)))
                    return true;
            }
            return false;
        };
        QVERIFY(hasBar(ProfileStartNs + 200'000'000));
        QVERIFY(!hasBar(ProfileStartNs + 800'000'000));

        // A click on the lane's name collapses it: the process lanes go, the other lanes get
        // their room; a second click brings them back. The choice is remembered.
        const int execHeight = tl->laneRect(EventType::Exec).height();
        const QPoint name(8, cpu.center().y());
        QTest::mouseClick(tl, Qt::LeftButton, {}, name);
        QVERIFY(tl->isLaneCollapsed(EventType::CpuSample));
        QVERIFY(tl->processLaneRect(0).isNull());
        QVERIFY(tl->laneRect(EventType::CpuSample).height() < cpu.height());
        QVERIFY(tl->laneRect(EventType::Exec).height() > execHeight);
        {
            MainWindow other;
            QVERIFY(other.results()->timeline()->isLaneCollapsed(EventType::CpuSample));
        }
        QTest::mouseClick(tl, Qt::LeftButton, {},
                          QPoint(8, tl->laneRect(EventType::CpuSample).center().y()));
        QVERIFY(!tl->isLaneCollapsed(EventType::CpuSample));
        QCOMPARE(tl->laneRect(EventType::CpuSample), cpu);
        QVERIFY(!tl->processLaneRect(8).isNull());
        // A click on a name selects no event and leaves the range alone.
        QVERIFY(!window.viewState()->selectedEvent().isValid());
        QVERIFY(!window.viewState()->isZoomed());
    }

    // Issue #29: the process lanes were about 9 px high and cut their names; and a process the
    // window's filter hid kept its lane. Each name now fits its lane at the application font,
    // in English, German and Chinese (whose "other" falls back to a taller CJK font), and the
    // lanes are those of the processes the filter lets through.
    void timelineProcessLanesReadableAndFiltered()
    {
        const auto english = qScopeGuard([] { installTranslations(QLocale::c()); });
        MainWindow window;
        window.resize(1366, 1000);
        TimelineWidget *tl = window.results()->timeline();
        tl->setMinimumHeight(520); // room for all nine process lanes beside the event lanes
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.session()->setSession(twelveProcesses());
        QTRY_COMPARE(int(tl->cpuBins().lanes.size()), 9);
        for (const char *locale : {"C", "de_DE", "zh_CN"}) {
            installTranslations(QLocale(QLatin1String(locale)));
            QCoreApplication::processEvents();
            const QString other = tl->processLaneLabel(8);
            QVERIFY2(other.contains(QLatin1String("(4)")) ||
                         other.contains(QStringLiteral("（4）")),
                     qPrintable(other));
            if (qstrcmp(locale, "zh_CN") == 0)
                QVERIFY2(!other.contains(QLatin1String("other")), qPrintable(other));
            const QFontMetrics fm(tl->font());
            for (int k = 0; k < 9; ++k) {
                const QRect room = tl->processLabelRect(k);
                QVERIFY2(
                    !room.isNull(),
                    qPrintable(QStringLiteral("%1: lane %2").arg(QLatin1String(locale)).arg(k)));
                const QString label = tl->processLaneLabel(k);
                const QRect need = fm.boundingRect(
                    room, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine, label);
                QVERIFY2(need.height() <= room.height() && need.width() <= room.width(),
                         qPrintable(QStringLiteral("%1: \"%2\" needs %3x%4 px, has %5x%6")
                                        .arg(QLatin1String(locale), label)
                                        .arg(need.width())
                                        .arg(need.height())
                                        .arg(room.width())
                                        .arg(room.height())));
                // Lanes, and so their names, do not overlap.
                if (k > 0)
                    QVERIFY(tl->processLaneRect(k).top() > tl->processLaneRect(k - 1).bottom());
            }
        }

        // The filter by PID: one lane, that process's; by command likewise.
        auto pids = [tl] {
            QList<qint64> out;
            for (const auto &l : tl->cpuBins().lanes)
                out << l.pid;
            return out;
        };
        EventFilter byPid;
        byPid.pid = 503;
        window.viewState()->setFilter(byPid);
        QTRY_COMPARE(pids(), QList<qint64>{503});
        QVERIFY(!tl->processLaneRect(0).isNull());
        QVERIFY(tl->processLaneRect(1).isNull());
        QCOMPARE(tl->processLaneLabel(0), QStringLiteral("proc3 503"));
        EventFilter byComm;
        byComm.comm = "proc10";
        window.viewState()->setFilter(byComm);
        QTRY_COMPARE(pids(), QList<qint64>{510});
        QCOMPARE(tl->cpuBins().lanes[0].total, 200u);
        // Filtered out entirely: no lane at all.
        byComm.comm = "nobody";
        window.viewState()->setFilter(byComm);
        QTRY_VERIFY(tl->cpuBins().lanes.empty());
        QVERIFY(tl->processLaneRect(0).isNull());
        window.viewState()->setFilter({});
        QTRY_COMPARE(int(tl->cpuBins().lanes.size()), 9);
    }

    void inMainWindow()
    {
        MainWindow window;
        window.resize(1366, 768);
        window.show();
        window.session()->setSession(profileSession());
        // Its tab in the CPU group, beside the Stack Chart.
        QCOMPARE(window.results()->viewTitle(window.results()->profilePage()),
                 QStringLiteral("Flame &Graph"));
        window.results()->showView(window.results()->profilePage());
        QTRY_VERIFY(window.results()->profilePage()->profile());
        QCOMPARE(window.results()->profilePage()->profile()->total, 100u);
        QVERIFY(!window.results()->profilePage()->isShowingEmptyState());
        QCOMPARE(window.currentChartWidget(), window.results()->profilePage()->flameGraph());
        // Zooming the timeline re-aggregates the page.
        window.viewState()->setRange(ProfileStartNs, ProfileStartNs + 50 * SampleStepNs);
        QTRY_COMPARE(window.results()->profilePage()->profile()->total, 50u);
    }
};

QTEST_MAIN(TestProfilePage)
#include "tst_profilepage.moc"
