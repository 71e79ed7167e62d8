// The profile models (CallTreeModel top-down and bottom-up, FunctionListModel) under
// QAbstractItemModelTester, with exact numbers from a hand-made StackTable (profiletestdata.h):
// what the trees and the function list show, sorted by a proxy, for on-CPU and off-CPU, a time
// range, a process and part of each stack.
#include "gui/models/profilemodels.h"
#include "gui/models/sessionmodel.h"
#include "tests/gui/profiletestdata.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

#include <functional>

using namespace bpflens;
using namespace bpflens::test;

namespace {

QString cell(const QAbstractItemModel &m, const QModelIndex &parent, int row, int column)
{
    return m.index(row, column, parent).data().toString();
}

quint64 cost(const QAbstractItemModel &, const QModelIndex &index, int column)
{
    return index.siblingAtColumn(column).data(CallTreeModel::CostRole).toULongLong();
}

// The child of parent whose function is name.
QModelIndex child(const QAbstractItemModel &m, const QModelIndex &parent, const QString &name)
{
    for (int r = 0; r < m.rowCount(parent); ++r) {
        if (cell(m, parent, r, CallTreeModel::FunctionColumn) == name)
            return m.index(r, 0, parent);
    }
    return {};
}

} // namespace

class TestProfileModels : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QLocale::setDefault(QLocale::c()); }

    void topDown()
    {
        SessionModel session;
        session.setSession(profileSession());
        CallTreeModel model(CallTree::Direction::TopDown);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto profile = buildProfile(session, {});
        QCOMPARE(profile->events, 100);
        QCOMPARE(profile->total, 100u);
        model.setProfile(profile, &session.stacks());

        // Top level: main (95), then the truncated parse stack under its marker (5).
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(cell(model, {}, 0, CallTreeModel::FunctionColumn), QStringLiteral("main"));
        QCOMPARE(cell(model, {}, 0, CallTreeModel::ModuleColumn), QStringLiteral("app"));
        QCOMPARE(cell(model, {}, 0, CallTreeModel::TotalColumn), QStringLiteral("95"));
        QCOMPARE(cell(model, {}, 0, CallTreeModel::TotalPercentColumn), QStringLiteral("95.0%"));
        QCOMPARE(cell(model, {}, 0, CallTreeModel::SelfColumn), QStringLiteral("0"));
        // The page hides the cost columns: the percentages' tooltips say the costs.
        QCOMPARE(model.index(0, CallTreeModel::TotalPercentColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("95 of 100"));
        QCOMPARE(model.index(0, CallTreeModel::SelfPercentColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("0 of 100"));
        QCOMPARE(cell(model, {}, 1, CallTreeModel::FunctionColumn), QStringLiteral("[truncated]"));
        QVERIFY(!model.index(1, 0).data(Qt::ToolTipRole).toString().isEmpty());
        QCOMPARE(model.index(1, 0).data(CallTreeModel::FrameIdRole).toUInt(),
                 CallTree::TruncatedFrame);

        const QModelIndex main = model.index(0, 0);
        const QModelIndex compute = child(model, main, QStringLiteral("compute(int)"));
        QVERIFY(compute.isValid());
        QCOMPARE(cost(model, compute, CallTreeModel::TotalColumn), 80u);
        QCOMPARE(cost(model, compute, CallTreeModel::SelfColumn), 50u);
        QCOMPARE(compute.siblingAtColumn(CallTreeModel::SelfPercentColumn).data().toString(),
                 QStringLiteral("50.0%"));
        const QModelIndex malloc = child(model, compute, QStringLiteral("malloc"));
        QCOMPARE(cost(model, malloc, CallTreeModel::SelfColumn), 30u);
        QCOMPARE(malloc.siblingAtColumn(CallTreeModel::ModuleColumn).data().toString(),
                 QStringLiteral("libc.so.6"));
        QCOMPARE(model.parent(malloc), compute);
        const QModelIndex vfs = child(model,
                                      child(model, child(model, main, QStringLiteral("write")),
                                            QStringLiteral("entry_SYSCALL_64")),
                                      QStringLiteral("vfs_write"));
        QCOMPARE(cost(model, vfs, CallTreeModel::TotalColumn), 15u);

        // A function picked elsewhere is found at its shallowest place.
        QCOMPARE(model.indexForFrame(ComputeFrame), compute);
        QCOMPARE(model.indexForFrame(MallocFrame), malloc);
        QVERIFY(!model.indexForFrame(9999).isValid());
        QCOMPARE(model.indexForNode(compute.data(CallTreeModel::NodeIndexRole).toInt()), compute);

        // Sorted by a proxy on SortRole: by self, compute (50) comes before malloc's parent.
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(CallTreeModel::SortRole);
        QAbstractItemModelTester proxyTester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(CallTreeModel::TotalColumn, Qt::AscendingOrder);
        QCOMPARE(cell(proxy, {}, 0, CallTreeModel::FunctionColumn), QStringLiteral("[truncated]"));
        proxy.sort(CallTreeModel::FunctionColumn, Qt::AscendingOrder);
        QCOMPARE(cell(proxy, {}, 0, CallTreeModel::FunctionColumn), QStringLiteral("[truncated]"));
        QCOMPARE(cell(proxy, {}, 1, CallTreeModel::FunctionColumn), QStringLiteral("main"));
        const QModelIndex pmain = proxy.index(1, 0);
        proxy.sort(CallTreeModel::TotalColumn, Qt::DescendingOrder);
        QCOMPARE(cell(proxy, proxy.index(0, 0), 0, CallTreeModel::FunctionColumn),
                 QStringLiteral("compute(int)"));
        QCOMPARE(cell(proxy, proxy.index(0, 0), 1, CallTreeModel::FunctionColumn),
                 QStringLiteral("write"));
        Q_UNUSED(pmain);

        // A new profile resets the model; none empties it.
        model.setProfile(nullptr, nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void bottomUp()
    {
        SessionModel session;
        session.setSession(profileSession());
        CallTreeModel model(CallTree::Direction::BottomUp);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProfile(buildProfile(session, {}), &session.stacks());
        // The functions samples were taken in, heaviest first: compute 50, malloc 30,
        // vfs_write 15, parse 5.
        QCOMPARE(model.rowCount(), 4);
        const QStringList names = {QStringLiteral("compute(int)"), QStringLiteral("malloc"),
                                   QStringLiteral("vfs_write"), QStringLiteral("parse")};
        const quint64 self[] = {50, 30, 15, 5};
        for (int r = 0; r < 4; ++r) {
            QCOMPARE(cell(model, {}, r, CallTreeModel::FunctionColumn), names[r]);
            QCOMPARE(cost(model, model.index(r, 0), CallTreeModel::SelfColumn), self[r]);
            QCOMPARE(cost(model, model.index(r, 0), CallTreeModel::TotalColumn), self[r]);
        }
        // Below a function: its callers; parse's caller is unknown.
        QCOMPARE(cell(model, model.index(1, 0), 0, CallTreeModel::FunctionColumn),
                 QStringLiteral("compute(int)"));
        QCOMPARE(cell(model, model.index(3, 0), 0, CallTreeModel::FunctionColumn),
                 QStringLiteral("[truncated]"));
        QCOMPARE(model.indexForFrame(MallocFrame), model.index(1, 0));
    }

    void functionList()
    {
        SessionModel session;
        session.setSession(profileSession());
        FunctionListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProfile(buildProfile(session, {}), &session.stacks());
        QCOMPARE(model.rowCount(), 7);
        QCOMPARE(cell(model, {}, 0, CallTreeModel::FunctionColumn), QStringLiteral("main"));
        QCOMPARE(cell(model, {}, 0, CallTreeModel::TotalColumn), QStringLiteral("95"));
        QCOMPARE(cell(model, {}, 1, CallTreeModel::FunctionColumn), QStringLiteral("compute(int)"));
        QCOMPARE(cell(model, {}, 1, CallTreeModel::SelfColumn), QStringLiteral("50"));
        QCOMPARE(cell(model, {}, 1, CallTreeModel::TotalPercentColumn), QStringLiteral("80.0%"));
        QCOMPARE(model.rowForFrame(MallocFrame), 2);
        QCOMPARE(model.headerData(CallTreeModel::SelfPercentColumn, Qt::Horizontal).toString(),
                 QStringLiteral("Self %"));
    }

    void offCpuWeighsBlockedTime()
    {
        SessionModel session;
        session.setSession(profileSession());
        ProfileQuery q;
        q.kind = ProfileKind::OffCpu;
        auto profile = buildProfile(session, q);
        QCOMPARE(profile->events, 2);
        QCOMPARE(profile->total, 1'000'000'000u);
        CallTreeModel model(CallTree::Direction::TopDown);
        model.setProfile(profile, &session.stacks());
        const QModelIndex write = child(model, model.index(0, 0), QStringLiteral("write"));
        QCOMPARE(cost(model, write, CallTreeModel::TotalColumn), 900'000'000u);
        QCOMPARE(write.siblingAtColumn(CallTreeModel::TotalColumn).data().toString(),
                 QStringLiteral("900.00 ms"));
        QCOMPARE(write.siblingAtColumn(CallTreeModel::TotalPercentColumn).data().toString(),
                 QStringLiteral("90.0%"));
    }

    void indexAgreesWithBuild()
    {
        // CallTreeIndex (what the page sums with) against CallTree::build and the two function
        // cost paths, for every direction and part, on the whole profile and a range.
        SessionModel session;
        session.setSession(profileSession());
        using D = CallTree::Direction;
        std::function<void(const CallTree &, qint32, const CallTree &, qint32)> same =
            [&](const CallTree &a, qint32 x, const CallTree &b, qint32 y) {
                QCOMPARE(a.node(x).frame, b.node(y).frame);
                QCOMPARE(a.node(x).self, b.node(y).self);
                QCOMPARE(a.node(x).total, b.node(y).total);
                QCOMPARE(a.node(x).children.size(), b.node(y).children.size());
                for (qint32 c : a.node(x).children) {
                    qint32 match = -1;
                    for (qint32 d : b.node(y).children) {
                        if (b.node(d).frame == a.node(c).frame)
                            match = d;
                    }
                    QVERIFY(match > 0);
                    same(a, c, b, match);
                }
            };
        for (StackPart part : {StackPart::Both, StackPart::UserOnly, StackPart::KernelOnly}) {
            for (D d : {D::TopDown, D::BottomUp}) {
                CallTreeIndex index(d, part, true);
                index.update(session.stacks());
                for (quint64 start : {ProfileStartNs, ProfileStartNs + 60 * SampleStepNs}) {
                    ProfileQuery q;
                    q.startNs = start;
                    q.part = part;
                    const StackWeights w = aggregateStacks(session, q);
                    const CallTree built = CallTree::build(session.stacks(), w, d, part, true);
                    const CallTree summed = index.sum(w);
                    QCOMPARE(summed.size(), built.size());
                    same(summed, 0, built, 0);
                    if (d == D::TopDown) {
                        const QList<FunctionCost> a = functionCosts(summed);
                        const QList<FunctionCost> b = functionCosts(session.stacks(), w, part);
                        QCOMPARE(a.size(), b.size());
                        for (qsizetype i = 0; i < a.size(); ++i) {
                            QCOMPARE(a[i].frame, b[i].frame);
                            QCOMPARE(a[i].self, b[i].self);
                            QCOMPARE(a[i].total, b[i].total);
                        }
                    }
                }
            }
        }
        // Stacks defined later (live) extend the index.
        SessionModel live;
        RecordBatch b = profileBatch();
        RecordBatch first;
        first.frames = b.frames;
        first.stacks = b.stacks.mid(0, 2);
        live.append(first);
        ProfileBuilder builder;
        QCOMPARE(builder.build(live, {})->total, 0u);
        RecordBatch rest;
        rest.stacks = b.stacks.mid(2);
        rest.cpuSample = b.cpuSample;
        live.append(rest);
        const auto p = builder.build(live, {});
        QCOMPARE(p->total, 100u);
        QCOMPARE(p->topDown.size(), buildProfile(session, {})->topDown.size());
    }

    void rangeProcessAndPart()
    {
        SessionModel session;
        session.setSession(profileSession());
        ProfileQuery q;
        q.startNs = ProfileStartNs + 50 * SampleStepNs; // the second half: no stack-1 samples
        q.endNs = ProfileStartNs + 100 * SampleStepNs;
        auto profile = buildProfile(session, q);
        QCOMPARE(profile->total, 50u);
        QCOMPARE(profile->functions.first().frame, quint32(MainFrame));
        QCOMPARE(profile->functions.first().total, 45u);

        q.pid = 200;
        profile = buildProfile(session, q);
        QCOMPARE(profile->total, 5u);
        q.pid = -1;
        q.comm = "app";
        QCOMPARE(buildProfile(session, q)->total, 45u);

        // Kernel frames only: the write path's two kernel frames; user-only stacks count at the
        // root (no frames left).
        q = {};
        q.part = StackPart::KernelOnly;
        profile = buildProfile(session, q);
        CallTreeModel model(CallTree::Direction::TopDown);
        model.setProfile(profile, &session.stacks());
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(cell(model, {}, 0, CallTreeModel::FunctionColumn),
                 QStringLiteral("entry_SYSCALL_64"));
        QCOMPARE(profile->topDown.root().self, 85u);

        q.part = StackPart::UserOnly;
        model.setProfile(buildProfile(session, q), &session.stacks());
        const QModelIndex write = child(model, model.index(0, 0), QStringLiteral("write"));
        QCOMPARE(cost(model, write, CallTreeModel::SelfColumn), 15u);
        QCOMPARE(model.rowCount(write), 0);
    }
};

QTEST_GUILESS_MAIN(TestProfileModels)
#include "tst_profilemodels.moc"
