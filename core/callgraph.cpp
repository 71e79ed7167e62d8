#include "callgraph.h"

#include <algorithm>

namespace bpflens {

quint32 StackWeights::group(const QByteArray &groupName)
{
    const auto it = m_groupIds.constFind(groupName);
    if (it != m_groupIds.constEnd())
        return *it;
    m_groupNames.append(groupName);
    const quint32 id = quint32(m_groupNames.size());
    m_groupIds.insert(groupName, id);
    return id;
}

QList<quint32> rootFirstFrames(const StackTable &stacks, quint32 stackId, StackPart part)
{
    QList<quint32> out;
    if (!stacks.hasStack(stackId))
        return out;
    const QList<quint32> &frames = stacks.stack(stackId).frames;
    out.reserve(frames.size());
    for (qsizetype i = frames.size() - 1; i >= 0; --i) {
        const quint32 f = frames[i];
        const bool kernel = stacks.hasFrame(f) && stacks.frame(f).kind == FrameKind::Kernel;
        if ((part == StackPart::UserOnly && kernel) || (part == StackPart::KernelOnly && !kernel))
            continue;
        out.append(f);
    }
    return out;
}

bool isTruncated(const StackTable &stacks, quint32 stackId, StackPart part)
{
    if (!stacks.hasStack(stackId))
        return false;
    const StackDefinition &s = stacks.stack(stackId);
    // The user stack sits at the root end: when it is kept, only its completeness counts.
    const bool userKept = part != StackPart::KernelOnly && !(s.flags & NoUserStack);
    if (userKept)
        return s.flags & UserStackTruncated;
    return s.flags & KernelStackTruncated;
}

qint32 CallTree::child(qint32 parent, quint32 frame, quint32 group)
{
    // Group nodes are keyed with the top bit set, so they never meet a frame id.
    const quint64 key = (quint64(parent) << 32) | (frame ? frame : (0x80000000u | group));
    const auto it = m_index.constFind(key);
    if (it != m_index.constEnd())
        return *it;
    const qint32 index = qint32(m_nodes.size());
    Node n;
    n.frame = frame;
    n.group = frame ? 0 : group;
    n.parent = parent;
    m_nodes.push_back(n);
    m_nodes[size_t(parent)].children.append(index);
    m_index.insert(key, index);
    return index;
}

CallTree CallTree::build(const StackTable &stacks, const StackWeights &weights, Direction direction,
                         StackPart part, bool markTruncated)
{
    CallTree tree;
    tree.m_direction = direction;
    tree.m_nodes.emplace_back();
    tree.m_index.reserve(weights.weights().size() * 4);
    for (auto it = weights.weights().cbegin(); it != weights.weights().cend(); ++it) {
        const quint32 stackId = quint32(it.key());
        const quint32 group = quint32(it.key() >> 32);
        const quint64 w = it.value();
        QList<quint32> frames = rootFirstFrames(stacks, stackId, part);
        if (markTruncated && !frames.isEmpty() && isTruncated(stacks, stackId, part))
            frames.prepend(TruncatedFrame);
        if (direction == Direction::BottomUp)
            std::reverse(frames.begin(), frames.end());
        qint32 at = 0;
        tree.m_nodes[0].total += w;
        // Bottom-up trees start with the functions; the group goes at the end of each path.
        if (group && direction == Direction::TopDown) {
            at = tree.child(at, 0, group);
            tree.m_nodes[size_t(at)].total += w;
        }
        for (quint32 f : frames) {
            at = tree.child(at, f, 0);
            tree.m_nodes[size_t(at)].total += w;
        }
        if (group && direction == Direction::BottomUp) {
            at = tree.child(at, 0, group);
            tree.m_nodes[size_t(at)].total += w;
        }
        if (direction == Direction::TopDown || frames.isEmpty())
            tree.m_nodes[size_t(at)].self += w;
        else {
            // Bottom-up: the sample's own function is the first level below the root.
            qint32 first = at;
            while (tree.m_nodes[size_t(first)].parent > 0)
                first = tree.m_nodes[size_t(first)].parent;
            tree.m_nodes[size_t(first)].self += w;
        }
    }
    tree.m_index.clear();
    tree.sortChildrenByTotal();
    return tree;
}

void CallTree::sortChildrenByTotal()
{
    for (Node &n : m_nodes) {
        std::sort(n.children.begin(), n.children.end(), [this](qint32 a, qint32 b) {
            const Node &x = m_nodes[size_t(a)];
            const Node &y = m_nodes[size_t(b)];
            if (x.total != y.total)
                return x.total > y.total;
            // Not by index: nodes are made in hash order, which changes from run to run.
            if (x.frame != y.frame)
                return x.frame < y.frame;
            return x.group < y.group;
        });
    }
}

QList<qint32> CallTree::pathTo(qint32 index) const
{
    QList<qint32> path;
    for (qint32 at = index; at > 0; at = m_nodes[size_t(at)].parent)
        path.prepend(at);
    return path;
}

CallTreeIndex::CallTreeIndex(CallTree::Direction direction, StackPart part, bool markTruncated)
    : m_direction(direction)
    , m_part(part)
    , m_markTruncated(markTruncated)
{
    m_frame.push_back(0);
    m_parent.push_back(-1);
    m_end.push_back(0); // stack id 0: no stack
    m_self.push_back(0);
}

void CallTreeIndex::update(const StackTable &stacks)
{
    for (quint32 id = quint32(m_end.size()); id <= quint32(stacks.stackCount()); ++id) {
        QList<quint32> frames = rootFirstFrames(stacks, id, m_part);
        if (m_markTruncated && !frames.isEmpty() && isTruncated(stacks, id, m_part))
            frames.prepend(CallTree::TruncatedFrame);
        if (m_direction == CallTree::Direction::BottomUp)
            std::reverse(frames.begin(), frames.end());
        qint32 at = 0;
        qint32 first = 0;
        for (quint32 f : std::as_const(frames)) {
            const quint64 key = (quint64(at) << 32) | f;
            auto it = m_children.constFind(key);
            if (it == m_children.constEnd()) {
                const qint32 node = qint32(m_frame.size());
                m_frame.push_back(f);
                m_parent.push_back(at);
                it = m_children.insert(key, node);
            }
            at = *it;
            if (!first)
                first = at;
        }
        m_end.push_back(at);
        // Top-down: the leaf's node; bottom-up: the function the sample was taken in.
        m_self.push_back(m_direction == CallTree::Direction::TopDown ? at : first);
    }
}

CallTree CallTreeIndex::sum(const StackWeights &weights) const
{
    const size_t n = m_frame.size();
    std::vector<quint64> total(n, 0), self(n, 0);
    for (auto it = weights.weights().cbegin(); it != weights.weights().cend(); ++it) {
        const quint32 id = quint32(it.key());
        const bool known = id < m_end.size();
        total[size_t(known ? m_end[id] : 0)] += it.value();
        self[size_t(known ? m_self[id] : 0)] += it.value();
    }
    // A child's index is above its parent's: one backward pass sums every path.
    for (size_t i = n - 1; i > 0; --i)
        total[size_t(m_parent[i])] += total[i];

    CallTree tree;
    tree.m_direction = m_direction;
    std::vector<qint32> map(n, -1);
    map[0] = 0;
    tree.m_nodes.emplace_back();
    tree.m_nodes[0].self = self[0];
    tree.m_nodes[0].total = total[0];
    for (size_t i = 1; i < n; ++i) {
        if (!total[i])
            continue;
        const qint32 parent = map[size_t(m_parent[i])];
        CallTree::Node node;
        node.frame = m_frame[i];
        node.parent = parent;
        node.self = self[i];
        node.total = total[i];
        map[i] = qint32(tree.m_nodes.size());
        tree.m_nodes[size_t(parent)].children.append(map[i]);
        tree.m_nodes.push_back(std::move(node));
    }
    tree.sortChildrenByTotal();
    return tree;
}

QList<FunctionCost> functionCosts(const CallTree &topDown)
{
    // Depth first with the number of times each frame is on the current path: a recursive
    // function's total counts at its outermost node only.
    QHash<quint32, FunctionCost> costs;
    QHash<quint32, int> onPath;
    struct Step
    {
        qint32 node;
        bool exit;
    };
    std::vector<Step> todo;
    for (qint32 c : topDown.root().children)
        todo.push_back({c, false});
    while (!todo.empty()) {
        const Step s = todo.back();
        todo.pop_back();
        const CallTree::Node &n = topDown.node(s.node);
        const bool counted = n.frame != 0 && n.frame != CallTree::TruncatedFrame;
        if (s.exit) {
            if (counted)
                --onPath[n.frame];
            continue;
        }
        if (counted) {
            FunctionCost &c = costs[n.frame];
            c.frame = n.frame;
            c.self += n.self;
            int &depth = onPath[n.frame];
            if (depth++ == 0)
                c.total += n.total;
            todo.push_back({s.node, true});
        }
        for (qint32 c : n.children)
            todo.push_back({c, false});
    }
    QList<FunctionCost> out = costs.values();
    std::sort(out.begin(), out.end(), [](const FunctionCost &a, const FunctionCost &b) {
        if (a.total != b.total)
            return a.total > b.total;
        if (a.self != b.self)
            return a.self > b.self;
        return a.frame < b.frame;
    });
    return out;
}

QList<FunctionCost> functionCosts(const StackTable &stacks, const StackWeights &weights,
                                  StackPart part)
{
    QHash<quint32, FunctionCost> costs;
    QList<quint32> seen;
    for (auto it = weights.weights().cbegin(); it != weights.weights().cend(); ++it) {
        const QList<quint32> frames = rootFirstFrames(stacks, quint32(it.key()), part);
        if (frames.isEmpty())
            continue;
        const quint64 w = it.value();
        seen.clear();
        for (quint32 f : frames) {
            if (seen.contains(f))
                continue; // recursion: the sample counts once towards the function's total
            seen.append(f);
            FunctionCost &c = costs[f];
            c.frame = f;
            c.total += w;
        }
        costs[frames.last()].self += w;
    }
    QList<FunctionCost> out = costs.values();
    std::sort(out.begin(), out.end(), [](const FunctionCost &a, const FunctionCost &b) {
        if (a.total != b.total)
            return a.total > b.total;
        if (a.self != b.self)
            return a.self > b.self;
        return a.frame < b.frame;
    });
    return out;
}

QByteArray foldedStacks(const StackTable &stacks, const StackWeights &weights, StackPart part)
{
    // A frame's name may hold ';' (never in C symbols, possible in demangled C++), which would
    // split it: it becomes ':'. Spaces are fine; the readers split at a line's last space.
    auto clean = [](QString name) {
        name.replace(QLatin1Char(';'), QLatin1Char(':'));
        name.replace(QLatin1Char('\n'), QLatin1Char(' '));
        return name.toUtf8();
    };
    QHash<QByteArray, quint64> lines;
    for (auto it = weights.weights().cbegin(); it != weights.weights().cend(); ++it) {
        const quint32 group = quint32(it.key() >> 32);
        QByteArray line;
        if (group) {
            // An empty name would leave an empty root frame, or merge with the ungrouped lines.
            const QByteArray name = weights.groupName(group);
            line = name.isEmpty() ? QByteArray("[unknown]") : clean(QString::fromUtf8(name));
        }
        const QList<quint32> frames = rootFirstFrames(stacks, quint32(it.key()), part);
        for (quint32 f : frames) {
            if (!line.isEmpty())
                line += ';';
            line += clean(stacks.frameName(f));
        }
        if (line.isEmpty())
            line = "[no stack]";
        lines[line] += it.value();
    }
    QList<QByteArray> keys = lines.keys();
    std::sort(keys.begin(), keys.end());
    QByteArray out;
    for (const QByteArray &k : keys)
        out += k + ' ' + QByteArray::number(lines.value(k)) + '\n';
    return out;
}

} // namespace bpflens
