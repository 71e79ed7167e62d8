#include "core/callgraph.h"

#include <algorithm>
#include <unordered_map>

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
        const bool known = stacks.hasFrame(f);
        const bool kernel = known && stacks.frame(f).kind == FrameKind::Kernel;
        if ((part == StackPart::UserOnly && kernel) || (part == StackPart::KernelOnly && !kernel))
            continue;
        // A function's lines are one node: the frame of its first line stands for them all.
        out.append(known ? stacks.functionOf(f) : f);
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

namespace {

// Children ranges from parents (a parent before its children), in node order.
void childRanges(const std::vector<qint32> &parent, std::vector<qint32> &start,
                 std::vector<qint32> &list)
{
    const size_t n = parent.size();
    start.assign(n + 1, 0);
    for (size_t i = 1; i < n; ++i)
        ++start[size_t(parent[i]) + 1];
    for (size_t i = 0; i < n; ++i)
        start[i + 1] += start[i];
    list.assign(n ? n - 1 : 0, 0);
    std::vector<qint32> at(start.begin(), start.end() - 1);
    for (size_t i = 1; i < n; ++i)
        list[size_t(at[size_t(parent[i])]++)] = qint32(i);
}

} // namespace

CallTree CallTree::fromRaw(Direction direction, const Raw &raw, size_t count, bool dropEmpty,
                           std::vector<qint32> *rawOfOut)
{
    CallTree tree;
    tree.m_direction = direction;
    if (!count)
        return tree;
    std::vector<qint32> local;
    std::vector<qint32> &rawOf = rawOfOut ? *rawOfOut : local;
    rawOf.clear();
    rawOf.reserve(count);
    tree.m_nodes.reserve(count);
    tree.m_nodes.emplace_back();
    tree.m_nodes[0].self = raw.self[0];
    tree.m_nodes[0].total = raw.total[0];
    rawOf.push_back(0);
    std::vector<qint32> kids;
    // Breadth first: the children of each node are made one after the other, already sorted.
    for (size_t at = 0; at < tree.m_nodes.size(); ++at) {
        const qint32 r = rawOf[at];
        kids.clear();
        for (qint32 k = raw.childStart[r]; k < raw.childStart[r + 1]; ++k) {
            const qint32 c = raw.childList[k];
            if (!dropEmpty || raw.total[c])
                kids.push_back(c);
        }
        std::sort(kids.begin(), kids.end(), [&raw](qint32 a, qint32 b) {
            if (raw.total[a] != raw.total[b])
                return raw.total[a] > raw.total[b];
            // Not by index: raw nodes may be made in hash order, which changes from run to run.
            if (raw.frame[a] != raw.frame[b])
                return raw.frame[a] < raw.frame[b];
            return raw.group && raw.group[a] < raw.group[b];
        });
        tree.m_nodes[at].children = Children(qint32(tree.m_nodes.size()), qint32(kids.size()));
        for (qint32 c : kids) {
            Node node;
            node.frame = raw.frame[c];
            node.group = raw.group ? raw.group[c] : 0;
            node.parent = qint32(at);
            node.self = raw.self[c];
            node.total = raw.total[c];
            tree.m_nodes.push_back(node);
            rawOf.push_back(c);
        }
    }
    return tree;
}

CallTree CallTree::build(const StackTable &stacks, const StackWeights &weights, Direction direction,
                         StackPart part, bool markTruncated)
{
    std::vector<quint32> frame{0}, group{0};
    std::vector<qint32> parent{-1};
    std::vector<quint64> self{0}, total{0};
    QHash<quint64, qint32> index; // (parent << 32 | frame or group marker) -> node
    index.reserve(weights.weights().size() * 4);
    auto child = [&](qint32 at, quint32 f, quint32 g) {
        // Group nodes are keyed with the top bit set, so they never meet a frame id.
        const quint64 key = (quint64(at) << 32) | (f ? f : (0x80000000u | g));
        const auto it = index.constFind(key);
        if (it != index.constEnd())
            return *it;
        const qint32 node = qint32(frame.size());
        frame.push_back(f);
        group.push_back(f ? 0 : g);
        parent.push_back(at);
        self.push_back(0);
        total.push_back(0);
        index.insert(key, node);
        return node;
    };
    for (auto it = weights.weights().cbegin(); it != weights.weights().cend(); ++it) {
        const quint32 stackId = quint32(it.key());
        const quint32 g = quint32(it.key() >> 32);
        const quint64 w = it.value();
        QList<quint32> frames = rootFirstFrames(stacks, stackId, part);
        if (markTruncated && !frames.isEmpty() && isTruncated(stacks, stackId, part))
            frames.prepend(TruncatedFrame);
        if (direction == Direction::BottomUp)
            std::reverse(frames.begin(), frames.end());
        qint32 at = 0;
        total[0] += w;
        // Bottom-up trees start with the functions; the group goes at the end of each path.
        if (g && direction == Direction::TopDown) {
            at = child(at, 0, g);
            total[size_t(at)] += w;
        }
        qint32 first = 0;
        for (quint32 f : std::as_const(frames)) {
            at = child(at, f, 0);
            total[size_t(at)] += w;
            if (!first)
                first = at;
        }
        if (g && direction == Direction::BottomUp) {
            at = child(at, 0, g);
            total[size_t(at)] += w;
        }
        // Bottom-up: the sample's own function is the first level below the root.
        if (direction == Direction::TopDown || frames.isEmpty())
            self[size_t(at)] += w;
        else
            self[size_t(first)] += w;
    }
    std::vector<qint32> childStart, childList;
    childRanges(parent, childStart, childList);
    const Raw raw{frame.data(), group.data(),      self.data(),
                  total.data(), childStart.data(), childList.data()};
    return fromRaw(direction, raw, frame.size(), false);
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

qint32 CallTreeIndex::findOrAdd(qint32 parent, quint32 frame)
{
    constexpr quint64 Empty = ~quint64(0);
    // Kept at most half full.
    if (m_frame.size() * 2 >= m_slotKey.size()) {
        const size_t size = std::max<size_t>(1024, m_slotKey.size() * 2);
        std::vector<quint64> keys(size, Empty);
        std::vector<qint32> nodes(size, 0);
        for (size_t i = 0; i < m_slotKey.size(); ++i) {
            if (m_slotKey[i] == Empty)
                continue;
            size_t at = size_t((m_slotKey[i] * 0x9E3779B97F4A7C15ull) >> 20) & (size - 1);
            while (keys[at] != Empty)
                at = (at + 1) & (size - 1);
            keys[at] = m_slotKey[i];
            nodes[at] = m_slotNode[i];
        }
        m_slotKey.swap(keys);
        m_slotNode.swap(nodes);
    }
    const quint64 key = (quint64(parent) << 32) | frame;
    const size_t mask = m_slotKey.size() - 1;
    size_t at = size_t((key * 0x9E3779B97F4A7C15ull) >> 20) & mask;
    while (m_slotKey[at] != Empty) {
        if (m_slotKey[at] == key)
            return m_slotNode[at];
        at = (at + 1) & mask;
    }
    const qint32 node = qint32(m_frame.size());
    m_frame.push_back(frame);
    m_parent.push_back(parent);
    m_slotKey[at] = key;
    m_slotNode[at] = node;
    return node;
}

void CallTreeIndex::update(const StackTable &stacks)
{
    const bool bottomUp = m_direction == CallTree::Direction::BottomUp;
    std::vector<quint32> frames;
    for (quint32 id = quint32(m_end.size()); id <= quint32(stacks.stackCount()); ++id) {
        // rootFirstFrames() without a list per stack.
        const QList<quint32> &leafFirst = stacks.stack(id).frames;
        frames.clear();
        for (qsizetype i = leafFirst.size() - 1; i >= 0; --i) {
            const quint32 f = leafFirst[i];
            const bool known = stacks.hasFrame(f);
            const bool kernel = known && stacks.frame(f).kind == FrameKind::Kernel;
            if ((m_part == StackPart::UserOnly && kernel) ||
                (m_part == StackPart::KernelOnly && !kernel))
                continue;
            frames.push_back(known ? stacks.functionOf(f) : f);
        }
        if (m_markTruncated && !frames.empty() && isTruncated(stacks, id, m_part))
            frames.insert(frames.begin(), CallTree::TruncatedFrame);
        if (bottomUp)
            std::reverse(frames.begin(), frames.end());
        qint32 at = 0;
        qint32 first = 0;
        for (quint32 f : frames) {
            at = findOrAdd(at, f);
            if (!first)
                first = at;
        }
        m_end.push_back(at);
        // Top-down: the leaf's node; bottom-up: the function the sample was taken in.
        m_self.push_back(bottomUp ? first : at);
    }
    if (m_childStart.size() != m_frame.size() + 1)
        childRanges(m_parent, m_childStart, m_childList);
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

    const CallTree::Raw raw{m_frame.data(),      nullptr,           self.data(), total.data(),
                            m_childStart.data(), m_childList.data()};
    return CallTree::fromRaw(m_direction, raw, n, true);
}

CallTree CallTreeIndex::sum(const StackWeights &weights, const std::vector<quint64> &leastPerStack,
                            std::vector<quint64> *leastPerNode) const
{
    const size_t n = m_frame.size();
    std::vector<quint64> total(n, 0), self(n, 0), least(n, ~quint64(0));
    for (auto it = weights.weights().cbegin(); it != weights.weights().cend(); ++it) {
        const quint32 id = quint32(it.key());
        const bool known = id < m_end.size();
        const size_t end = size_t(known ? m_end[id] : 0);
        total[end] += it.value();
        self[size_t(known ? m_self[id] : 0)] += it.value();
        if (it.value() && id < leastPerStack.size())
            least[end] = std::min(least[end], leastPerStack[id]);
    }
    for (size_t i = n - 1; i > 0; --i) {
        total[size_t(m_parent[i])] += total[i];
        least[size_t(m_parent[i])] = std::min(least[size_t(m_parent[i])], least[i]);
    }
    const CallTree::Raw raw{m_frame.data(),      nullptr,           self.data(), total.data(),
                            m_childStart.data(), m_childList.data()};
    std::vector<qint32> rawOf;
    CallTree tree = CallTree::fromRaw(m_direction, raw, n, true, &rawOf);
    if (leastPerNode) {
        leastPerNode->resize(rawOf.size());
        for (size_t i = 0; i < rawOf.size(); ++i)
            (*leastPerNode)[i] = least[size_t(rawOf[i])];
    }
    return tree;
}

QList<FunctionCost> functionCosts(const CallTree &topDown)
{
    // Frame ids are dense from 1: costs go into vectors indexed by frame, no hashing.
    quint32 maxFrame = 0;
    for (qint32 i = 1; i < topDown.size(); ++i) {
        const quint32 f = topDown.node(i).frame;
        if (f != CallTree::TruncatedFrame)
            maxFrame = std::max(maxFrame, f);
    }
    std::vector<quint64> self(size_t(maxFrame) + 1, 0), total(size_t(maxFrame) + 1, 0);
    std::vector<quint8> seen(size_t(maxFrame) + 1, 0);
    // Depth first with the number of times each frame is on the current path: a recursive
    // function's total counts at its outermost node only.
    std::vector<int> onPath(size_t(maxFrame) + 1, 0);
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
            --onPath[n.frame];
            continue;
        }
        if (counted) {
            seen[n.frame] = 1;
            self[n.frame] += n.self;
            if (onPath[n.frame]++ == 0)
                total[n.frame] += n.total;
            todo.push_back({s.node, true});
        }
        for (qint32 c : n.children)
            todo.push_back({c, false});
    }
    QList<FunctionCost> out;
    for (quint32 f = 1; f <= maxFrame; ++f) {
        if (seen[f])
            out.append({f, self[f], total[f]});
    }
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

OffWakeStacks offWakeStacks(const StackTable &stacks, const QList<OffWakeSpan> &spans,
                            StackPart part, const OffWakeNames &names,
                            const OffWakeStacks *previous)
{
    OffWakeStacks out;
    out.stacks = stacks;
    out.sessionFrames = stacks.frameCount();
    out.m_roles.assign(size_t(out.sessionFrames) + 1, quint8(OffWakeStacks::Role::Code));
    auto intern = [&](const StackFrame &f, OffWakeStacks::Role role) {
        const quint32 id = out.stacks.intern(f);
        if (id >= out.m_roles.size())
            out.m_roles.resize(id + 1, quint8(OffWakeStacks::Role::Code));
        out.m_roles[id] = quint8(role);
        return id;
    };
    if (previous && previous->sessionFrames == out.sessionFrames) {
        for (qsizetype id = out.sessionFrames + 1; id <= previous->stacks.frameCount(); ++id)
            intern(previous->stacks.frame(quint32(id)), previous->role(quint32(id)));
    }
    auto pseudo = [&](const QByteArray &name, OffWakeStacks::Role role) {
        // "--" and "comm" are not hex: no real frame has such a build id.
        return intern(
            StackFrame{FrameKind::User, 0, QByteArray(),
                       role == OffWakeStacks::Role::Comm ? QByteArray("comm") : QByteArray("--"),
                       name},
            role);
    };
    auto comm = [&](const QByteArray &c) {
        return pseudo(c.isEmpty() ? names.unknownComm : c, OffWakeStacks::Role::Comm);
    };
    auto copy = [&](quint32 f) {
        // The table is the session's: its frames are where they were.
        return stacks.hasFrame(f) ? f : pseudo(QByteArray("[unknown]"), OffWakeStacks::Role::Code);
    };
    struct Key
    {
        quint32 stackId;
        quint32 wakerStackId;
        QByteArray comm;
        QByteArray wakerComm;
        bool operator==(const Key &) const = default;
    };
    struct KeyHash
    {
        size_t operator()(const Key &k) const
        {
            return qHashMulti(0, k.stackId, k.wakerStackId, k.comm, k.wakerComm);
        }
    };
    std::unordered_map<Key, quint32, KeyHash> ids;
    out.separator = pseudo(names.separator, OffWakeStacks::Role::Separator);
    QList<quint32> leafFirst;
    for (const OffWakeSpan &s : spans) {
        ++out.spans;
        const Key key{s.stackId, s.wakerStackId, s.comm, s.wakerComm};
        auto it = ids.find(key);
        if (it == ids.end()) {
            // Built root first, interned leaf first as every stack of a table is.
            QList<quint32> rootFirst{comm(s.comm)};
            for (quint32 f : rootFirstFrames(stacks, s.stackId, part))
                rootFirst.append(copy(f));
            rootFirst.append(out.separator);
            if (s.wakerComm.isEmpty()) {
                rootFirst.append(pseudo(names.unknownWaker, OffWakeStacks::Role::UnknownWaker));
            } else {
                const QList<quint32> waker = rootFirstFrames(stacks, s.wakerStackId, part);
                for (auto w = waker.crbegin(); w != waker.crend(); ++w)
                    rootFirst.append(copy(*w));
                rootFirst.append(comm(s.wakerComm));
            }
            leafFirst = QList<quint32>(rootFirst.crbegin(), rootFirst.crend());
            it = ids.emplace(key, out.stacks.intern(0, leafFirst)).first;
        }
        out.weights.add(it->second, s.ns);
    }
    return out;
}

QByteArray offWakeFoldedStacks(const StackTable &stacks, const QList<OffWakeSpan> &spans,
                               StackPart part, quint64 unitNs)
{
    auto clean = [](QString name) {
        name.replace(QLatin1Char(';'), QLatin1Char(':'));
        name.replace(QLatin1Char('\n'), QLatin1Char(' '));
        return name.toUtf8();
    };
    const OffWakeStacks ow = offWakeStacks(stacks, spans, part);
    // Summed in nanoseconds per line first, as the off-CPU profile is (a wait of 400 ns is
    // worth nothing in microseconds, a thousand of them are worth 400).
    QHash<QByteArray, quint64> lines;
    for (auto it = ow.weights.weights().cbegin(); it != ow.weights.weights().cend(); ++it) {
        QByteArray line;
        for (quint32 f : rootFirstFrames(ow.stacks, quint32(it.key()), StackPart::Both)) {
            if (!line.isEmpty())
                line += ';';
            line += clean(ow.stacks.frameName(f));
        }
        lines[line] += it.value();
    }
    QList<QByteArray> keys = lines.keys();
    std::sort(keys.begin(), keys.end());
    QByteArray out;
    for (const QByteArray &k : keys) {
        const quint64 ns = lines.value(k);
        const quint64 w = unitNs > 1 ? (ns + unitNs / 2) / unitNs : ns;
        if (w)
            out += k + ' ' + QByteArray::number(w) + '\n';
    }
    return out;
}

} // namespace bpflens
