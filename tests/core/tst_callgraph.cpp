// Call trees, function costs and folded stacks (core/callgraph.h) on a small table whose every
// number is worked out by hand below.
#include "core/callgraph.h"

#include <QTest>

using namespace bpflens;

namespace {

// Frames: main, foo, bar (user), sys_read (kernel), and a C++ name with ';' and a space.
struct Profile
{
    StackTable table;
    quint32 main = 0, foo = 0, bar = 0, sysRead = 0, cpp = 0;
    // Stacks, leaf first.
    quint32 mainFooBar = 0;     // main -> foo -> bar            10 samples
    quint32 mainFoo = 0;        // main -> foo                    5
    quint32 mainBarSysRead = 0; // main -> bar -> sys_read        3
    quint32 recursive = 0;      // main -> foo -> bar -> foo -> foo   2
    quint32 none = 0;           // an empty stack
    quint32 cppStack = 0;       // main -> "ns::f(int; char) const"
    StackWeights weights;

    Profile()
    {
        const auto user = [&](const char *name) {
            return table.intern(StackFrame{FrameKind::User, 0x1000, "/bin/app", "", name});
        };
        main = user("main");
        foo = user("foo");
        bar = user("bar");
        sysRead = table.intern(
            StackFrame{FrameKind::Kernel, 0xffffffff81000000ull, "vmlinux", "", "sys_read"});
        cpp = user("ns::f(int; char) const");
        mainFooBar = table.intern(0, {bar, foo, main});
        mainFoo = table.intern(0, {foo, main});
        mainBarSysRead = table.intern(0, {sysRead, bar, main});
        recursive = table.intern(0, {foo, foo, bar, foo, main});
        none = table.intern(0, {});
        cppStack = table.intern(0, {cpp, main});
        weights.add(mainFooBar, 10);
        weights.add(mainFoo, 5);
        weights.add(mainBarSysRead, 3);
        weights.add(recursive, 2);
    }
};

// The child of node with frame f (group 0), or -1.
qint32 childWith(const CallTree &tree, qint32 node, quint32 frame)
{
    for (qint32 c : tree.node(node).children)
        if (tree.node(c).frame == frame)
            return c;
    return -1;
}

// The node at the end of a path of frames from the root, or -1.
qint32 nodeAt(const CallTree &tree, std::initializer_list<quint32> path)
{
    qint32 at = 0;
    for (quint32 f : path) {
        at = childWith(tree, at, f);
        if (at < 0)
            return -1;
    }
    return at;
}

struct Cost
{
    quint64 self, total;
    bool operator==(const Cost &) const = default;
};

Cost costAt(const CallTree &tree, std::initializer_list<quint32> path)
{
    const qint32 n = nodeAt(tree, path);
    return n < 0 ? Cost{~quint64(0), ~quint64(0)} : Cost{tree.node(n).self, tree.node(n).total};
}

} // namespace

class TestCallGraph : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void topDownTotals()
    {
        const Profile p;
        const CallTree t = CallTree::build(p.table, p.weights);
        QCOMPARE(t.root().total, 20u);
        QCOMPARE(t.root().self, 0u);
        QCOMPARE(t.root().children.size(), 1);
        QVERIFY(costAt(t, {p.main}) == (Cost{0, 20}));
        QVERIFY(costAt(t, {p.main, p.foo}) == (Cost{5, 17}));
        QVERIFY(costAt(t, {p.main, p.foo, p.bar}) == (Cost{10, 12}));
        QVERIFY(costAt(t, {p.main, p.foo, p.bar, p.foo}) == (Cost{0, 2}));
        QVERIFY(costAt(t, {p.main, p.foo, p.bar, p.foo, p.foo}) == (Cost{2, 2}));
        QVERIFY(costAt(t, {p.main, p.bar}) == (Cost{0, 3}));
        QVERIFY(costAt(t, {p.main, p.bar, p.sysRead}) == (Cost{3, 3}));
        // Children largest first: foo (17) before bar (3).
        const qint32 main = nodeAt(t, {p.main});
        QCOMPARE(t.node(t.node(main).children.at(0)).frame, p.foo);
        QCOMPARE(t.node(t.node(main).children.at(1)).frame, p.bar);
        // Every node's total is its self plus its children's totals.
        for (qint32 i = 0; i < t.size(); ++i) {
            quint64 sum = t.node(i).self;
            for (qint32 c : t.node(i).children)
                sum += t.node(c).total;
            QCOMPARE(sum, t.node(i).total);
        }
        const QList<qint32> path = t.pathTo(nodeAt(t, {p.main, p.bar, p.sysRead}));
        QCOMPARE(path.size(), 3);
        QCOMPARE(t.node(path.at(0)).frame, p.main);
        QCOMPARE(t.node(path.at(2)).frame, p.sysRead);
    }

    void bottomUpTotals()
    {
        const Profile p;
        const CallTree t = CallTree::build(p.table, p.weights, CallTree::Direction::BottomUp);
        QCOMPARE(t.root().total, 20u);
        // The first level: the functions the samples were taken in, self = total.
        QVERIFY(costAt(t, {p.bar}) == (Cost{10, 10}));
        QVERIFY(costAt(t, {p.foo}) == (Cost{7, 7}));
        QVERIFY(costAt(t, {p.sysRead}) == (Cost{3, 3}));
        QCOMPARE(nodeAt(t, {p.main}), -1);
        // Below: the callers.
        QVERIFY(costAt(t, {p.bar, p.foo, p.main}) == (Cost{0, 10}));
        QVERIFY(costAt(t, {p.foo, p.main}) == (Cost{0, 5}));
        QVERIFY(costAt(t, {p.foo, p.foo, p.bar, p.foo, p.main}) == (Cost{0, 2}));
        QVERIFY(costAt(t, {p.sysRead, p.bar, p.main}) == (Cost{0, 3}));
        quint64 self = 0;
        for (qint32 i = 0; i < t.size(); ++i)
            self += t.node(i).self;
        QCOMPARE(self, 20u);
    }

    void partsOfTheStack()
    {
        const Profile p;
        const CallTree user =
            CallTree::build(p.table, p.weights, CallTree::Direction::TopDown, StackPart::UserOnly);
        QVERIFY(costAt(user, {p.main, p.bar}) == (Cost{3, 3}));
        QCOMPARE(nodeAt(user, {p.main, p.bar, p.sysRead}), -1);
        const CallTree kernel = CallTree::build(p.table, p.weights, CallTree::Direction::TopDown,
                                                StackPart::KernelOnly);
        // Only one stack has kernel frames; the others have nothing left and count at the root.
        QCOMPARE(kernel.root().total, 20u);
        QCOMPARE(kernel.root().self, 17u);
        QVERIFY(costAt(kernel, {p.sysRead}) == (Cost{3, 3}));
        QCOMPARE(rootFirstFrames(p.table, p.mainBarSysRead, StackPart::Both),
                 (QList<quint32>{p.main, p.bar, p.sysRead}));
        QCOMPARE(rootFirstFrames(p.table, 999, StackPart::Both), QList<quint32>());
    }

    void functionCostsCountRecursionOnce()
    {
        const Profile p;
        const QList<FunctionCost> costs = functionCosts(p.table, p.weights);
        QCOMPARE(costs.size(), 4);
        const auto check = [&](int i, quint32 frame, quint64 self, quint64 total) {
            QCOMPARE(costs.at(i).frame, frame);
            QCOMPARE(costs.at(i).self, self);
            QCOMPARE(costs.at(i).total, total);
        };
        // foo is on the stack of 17 samples, three times in the recursive ones, but 17 it is.
        check(0, p.main, 0, 20);
        check(1, p.foo, 7, 17);
        check(2, p.bar, 10, 15);
        check(3, p.sysRead, 3, 3);
        const QList<FunctionCost> user = functionCosts(p.table, p.weights, StackPart::UserOnly);
        QCOMPARE(user.size(), 3);
        QCOMPARE(user.at(2).frame, p.bar);
        QCOMPARE(user.at(2).self, 13u); // sys_read's samples are bar's when the kernel is hidden
    }

    void foldedStacksExactBytes()
    {
        Profile p;
        QCOMPARE(foldedStacks(p.table, p.weights), QByteArray("main;bar;sys_read 3\n"
                                                              "main;foo 5\n"
                                                              "main;foo;bar 10\n"
                                                              "main;foo;bar;foo;foo 2\n"));
        QCOMPARE(foldedStacks(p.table, p.weights, StackPart::UserOnly),
                 QByteArray("main;bar 3\n"
                            "main;foo 5\n"
                            "main;foo;bar 10\n"
                            "main;foo;bar;foo;foo 2\n"));
        // A ';' inside a name would split it: it becomes ':'. An empty stack still counts.
        StackWeights w;
        w.add(p.cppStack, 4);
        w.add(p.none, 1);
        QCOMPARE(foldedStacks(p.table, w), QByteArray("[no stack] 1\n"
                                                      "main;ns::f(int: char) const 4\n"));
        QCOMPARE(foldedStacks(p.table, StackWeights()), QByteArray());
    }

    // offwaketime -f's form: the blocked comm and stack root first, "--", the waker's stack leaf
    // first and its comm; microseconds summed per line before rounding; a wait without a waker
    // ends in "[unknown waker]".
    void offWakeFoldedExactBytes()
    {
        Profile p;
        const quint32 wake = p.table.intern(
            StackFrame{FrameKind::Kernel, 0xffffffff81000100ull, "vmlinux", "", "try_to_wake_up"});
        const quint32 wakerStack = p.table.intern(0, {wake, p.sysRead, p.bar, p.main});
        QList<OffWakeSpan> spans;
        spans.append({p.mainBarSysRead, wakerStack, "a", "b", 1400});
        spans.append({p.mainBarSysRead, wakerStack, "a", "b", 1400}); // 2.8 us: 3
        spans.append({p.mainFoo, 0, "a", "", 5000000});
        spans.append({p.cppStack, p.mainFoo, "a;x", "[irq]", 400}); // under 1 us alone: 0
        QCOMPARE(offWakeFoldedStacks(p.table, spans),
                 QByteArray("a;main;bar;sys_read;--;try_to_wake_up;sys_read;bar;main;b 3\n"
                            "a;main;foo;--;[unknown waker] 5000\n"));
        QCOMPARE(offWakeFoldedStacks(p.table, spans, StackPart::KernelOnly),
                 QByteArray("a;--;[unknown waker] 5000\n"
                            "a;sys_read;--;try_to_wake_up;sys_read;b 3\n"));
        QCOMPARE(offWakeFoldedStacks(p.table, spans, StackPart::Both, 1),
                 QByteArray("a:x;main;ns::f(int: char) const;--;foo;main;[irq] 400\n"
                            "a;main;bar;sys_read;--;try_to_wake_up;sys_read;bar;main;b 2800\n"
                            "a;main;foo;--;[unknown waker] 5000000\n"));
    }

    void groupsComeFirst()
    {
        Profile p;
        StackWeights w;
        const quint32 bash = w.group("bash");
        const quint32 odd = w.group("odd;comm");
        QCOMPARE(w.group("bash"), bash);
        QCOMPARE(w.groupName(odd), QByteArray("odd;comm"));
        QCOMPARE(w.groupName(99), QByteArray());
        w.add(p.mainFoo, 5, bash);
        w.add(p.mainFoo, 2, odd);
        w.add(p.mainFoo, 1);
        w.add(p.none, 3, bash);
        QCOMPARE(w.total(), 11u);
        QCOMPARE(foldedStacks(p.table, w), QByteArray("bash 3\n"
                                                      "bash;main;foo 5\n"
                                                      "main;foo 1\n"
                                                      "odd:comm;main;foo 2\n"));

        const CallTree top = CallTree::build(p.table, w);
        QCOMPARE(top.root().total, 11u);
        QCOMPARE(top.root().children.size(), 3); // bash, odd;comm, main
        const qint32 bashNode = top.root().children.at(0);
        QCOMPARE(top.node(bashNode).frame, 0u);
        QCOMPARE(top.node(bashNode).group, bash);
        QCOMPARE(top.node(bashNode).total, 8u);
        QCOMPARE(top.node(bashNode).self, 3u);
        const qint32 foo = childWith(top, childWith(top, bashNode, p.main), p.foo);
        QVERIFY(foo > 0);
        QCOMPARE(top.node(foo).self, 5u);

        // Bottom-up: the group at the end of each path.
        const CallTree bottom = CallTree::build(p.table, w, CallTree::Direction::BottomUp);
        const qint32 leaf = childWith(bottom, 0, p.foo);
        QCOMPARE(bottom.node(leaf).total, 8u);
        QCOMPARE(bottom.node(leaf).self, 8u);
        const qint32 caller = childWith(bottom, leaf, p.main);
        QCOMPARE(bottom.node(caller).children.size(), 2);
        QCOMPARE(bottom.node(bottom.node(caller).children.at(0)).group, bash);
    }

    void anEmptyGroupNameKeepsItsPlace()
    {
        // A thread without a name must not merge with the ungrouped samples (nor leave an empty
        // root frame that flame graph tools misread).
        Profile p;
        StackWeights w;
        w.add(p.mainFoo, 2, w.group(QByteArray()));
        w.add(p.mainFoo, 1);
        QCOMPARE(foldedStacks(p.table, w), QByteArray("[unknown];main;foo 2\n"
                                                      "main;foo 1\n"));
    }

    void equalTotalsGiveAStableOrder()
    {
        // Siblings of equal total are ordered by frame, not by hash order, so the same session
        // draws the same flame graph every time it is opened.
        StackTable table;
        QList<quint32> frames;
        for (int i = 0; i < 50; ++i)
            frames.append(table.intern(
                StackFrame{FrameKind::User, quint64(i), "", "", "f" + QByteArray::number(i)}));
        StackWeights w;
        for (int i = 49; i >= 0; --i)
            w.add(table.intern(0, {frames[i]}), 1);
        const CallTree t = CallTree::build(table, w);
        QCOMPARE(t.root().children.size(), 50);
        for (int i = 0; i < 50; ++i)
            QCOMPARE(t.node(t.root().children.at(i)).frame, frames[i]);
    }

    void aLargeIndexSumsAsBuildDoes()
    {
        // Thousands of stacks sharing callers (an index that grows its lookup table several
        // times), defined in two batches as a live recording does, summed over two different
        // sets of weights: every node as CallTree::build makes it, children heaviest first, and
        // the function list as counted from the stacks.
        StackTable table;
        QList<quint32> functions;
        quint32 seed = 1;
        auto next = [&seed](quint32 n) {
            seed = seed * 1103515245u + 12345u;
            return (seed >> 8) % n;
        };
        QList<QList<quint32>> rootFirst;
        auto addStacks = [&](int count) {
            for (int s = 0; s < count; ++s) {
                QList<quint32> frames = rootFirst.isEmpty() || s % 10 == 0
                                            ? QList<quint32>{functions[qsizetype(next(5))]}
                                            : rootFirst[qsizetype(next(quint32(rootFirst.size())))];
                for (quint32 k = 0, extra = 1 + next(3); k < extra && frames.size() < 40; ++k)
                    frames.append(functions[qsizetype(next(300))]);
                rootFirst.append(frames);
                table.intern(next(7) == 0 ? UserStackTruncated : 0,
                             QList<quint32>(frames.crbegin(), frames.crend()));
            }
        };
        using D = CallTree::Direction;
        for (D d : {D::TopDown, D::BottomUp}) {
            CallTreeIndex index(d, StackPart::Both, true);
            rootFirst.clear();
            table = StackTable();
            functions.clear();
            for (int i = 0; i < 300; ++i)
                functions.append(
                    table.intern(StackFrame{i % 4 ? FrameKind::User : FrameKind::Kernel, quint64(i),
                                            "", "", "f" + QByteArray::number(i)}));
            seed = 1;
            addStacks(1000);
            index.update(table);
            addStacks(3000);
            index.update(table);
            QCOMPARE(index.stackCount(), table.stackCount());
            QVERIFY(index.nodeCount() > 4000);
            for (int round = 0; round < 2; ++round) {
                StackWeights w;
                for (quint32 id = 1; id <= quint32(table.stackCount()); ++id) {
                    if (round == 1 && id % 3 == 0)
                        continue; // a narrower range: some stacks have no samples
                    w.add(id, 1 + next(round ? 5 : 50));
                }
                const CallTree built = CallTree::build(table, w, d, StackPart::Both, true);
                const CallTree summed = index.sum(w);
                QCOMPARE(summed.size(), built.size());
                QCOMPARE(summed.root().total, w.total());
                for (qint32 n = 0; n < summed.size(); ++n) {
                    const CallTree::Node &a = summed.node(n);
                    const CallTree::Node &b = built.node(n);
                    QCOMPARE(a.frame, b.frame);
                    QCOMPARE(a.parent, b.parent);
                    QCOMPARE(a.self, b.self);
                    QCOMPARE(a.total, b.total);
                    QCOMPARE(a.children.size(), b.children.size());
                    quint64 below = a.self;
                    for (qsizetype c = 0; c < a.children.size(); ++c) {
                        const CallTree::Node &child = summed.node(a.children.at(c));
                        QCOMPARE(child.parent, n);
                        QCOMPARE(a.children.indexOf(a.children.at(c)), c);
                        if (c > 0)
                            QVERIFY(summed.node(a.children.at(c - 1)).total >= child.total);
                        below += child.total;
                    }
                    if (d == D::TopDown)
                        QCOMPARE(below, a.total);
                }
                if (d == D::TopDown) {
                    const QList<FunctionCost> fromTree = functionCosts(summed);
                    const QList<FunctionCost> fromStacks = functionCosts(table, w);
                    QCOMPARE(fromTree.size(), fromStacks.size());
                    for (qsizetype i = 0; i < fromTree.size(); ++i) {
                        QCOMPARE(fromTree[i].frame, fromStacks[i].frame);
                        QCOMPARE(fromTree[i].self, fromStacks[i].self);
                        QCOMPARE(fromTree[i].total, fromStacks[i].total);
                    }
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCallGraph)
#include "tst_callgraph.moc"
