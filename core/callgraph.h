#pragma once

#include "core/stacks.h"

#include <QByteArray>
#include <QHash>
#include <QList>

#include <compare>
#include <cstddef>
#include <iterator>
#include <vector>

namespace bpflens {

// Samples summed per stack: the input of every profile view (flame graph, trees, top functions,
// folded export). A group puts a root frame above the stack's own frames (the command, as
// flamegraph.pl's input conventionally starts with it); group 0 is none.
class StackWeights
{
public:
    // groupName is remembered once per group id; names are kept as given (kernel bytes).
    quint32 group(const QByteArray &groupName);
    void add(quint32 stackId, quint64 weight, quint32 group = 0)
    {
        m_weights[(quint64(group) << 32) | stackId] += weight;
        m_total += weight;
    }
    quint64 total() const { return m_total; }
    bool isEmpty() const { return m_weights.isEmpty(); }
    const QHash<quint64, quint64> &weights() const { return m_weights; }
    QByteArray groupName(quint32 group) const
    {
        return group >= 1 && group <= quint32(m_groupNames.size()) ? m_groupNames[group - 1]
                                                                   : QByteArray();
    }

private:
    QHash<quint64, quint64> m_weights; // (group << 32 | stack id) -> weight
    QHash<QByteArray, quint32> m_groupIds;
    QList<QByteArray> m_groupNames;
    quint64 m_total = 0;
};

// Which part of each stack to keep.
enum class StackPart : quint8
{
    Both,
    UserOnly,
    KernelOnly,
};

// A call tree of summed stacks. Node 0 is the root (all samples); every other node is one frame
// reached by one path. Top-down: children are callees (the flame graph's shape); bottom-up:
// children are callers, starting from the functions samples were taken in.
class CallTree
{
public:
    enum class Direction : quint8
    {
        TopDown,
        BottomUp,
    };

    // A node's children: consecutive node indices, sorted by total, largest first (what the
    // flame graph and the trees show first). Nodes are numbered breadth first, so a tree needs
    // no list per node and a child's row is its index minus the first's.
    class Children
    {
    public:
        class const_iterator
        {
        public:
            using iterator_category = std::random_access_iterator_tag;
            using value_type = qint32;
            using difference_type = std::ptrdiff_t;
            using pointer = const qint32 *;
            using reference = qint32;
            const_iterator() = default;
            explicit const_iterator(qint32 at)
                : m_at(at)
            {
            }
            qint32 operator*() const { return m_at; }
            qint32 operator[](difference_type i) const { return m_at + qint32(i); }
            const_iterator &operator++() { return ++m_at, *this; }
            const_iterator operator++(int) { return const_iterator(m_at++); }
            const_iterator &operator--() { return --m_at, *this; }
            const_iterator operator--(int) { return const_iterator(m_at--); }
            const_iterator &operator+=(difference_type d) { return m_at += qint32(d), *this; }
            const_iterator &operator-=(difference_type d) { return m_at -= qint32(d), *this; }
            friend const_iterator operator+(const_iterator i, difference_type d)
            {
                return const_iterator(i.m_at + qint32(d));
            }
            friend const_iterator operator+(difference_type d, const_iterator i) { return i + d; }
            friend const_iterator operator-(const_iterator i, difference_type d)
            {
                return const_iterator(i.m_at - qint32(d));
            }
            friend difference_type operator-(const_iterator a, const_iterator b)
            {
                return difference_type(a.m_at) - b.m_at;
            }
            friend auto operator<=>(const_iterator, const_iterator) = default;

        private:
            qint32 m_at = 0;
        };

        Children() = default;
        Children(qint32 first, qint32 count)
            : m_first(first)
            , m_count(count)
        {
        }
        qsizetype size() const { return m_count; }
        bool isEmpty() const { return m_count == 0; }
        qint32 first() const { return m_first; }
        qint32 at(qsizetype i) const
        {
            Q_ASSERT(i >= 0 && i < m_count);
            return m_first + qint32(i);
        }
        qint32 operator[](qsizetype i) const { return at(i); }
        // The i-th child, or def when there is none (QList::value()).
        qint32 value(qsizetype i, qint32 def = -1) const
        {
            return i >= 0 && i < m_count ? m_first + qint32(i) : def;
        }
        // The row of node among these children, or -1.
        qsizetype indexOf(qint32 node) const
        {
            return node >= m_first && node < m_first + m_count ? node - m_first : -1;
        }
        bool contains(qint32 node) const { return indexOf(node) >= 0; }
        const_iterator begin() const { return const_iterator(m_first); }
        const_iterator end() const { return const_iterator(m_first + m_count); }
        const_iterator cbegin() const { return begin(); }
        const_iterator cend() const { return end(); }

    private:
        qint32 m_first = 0;
        qint32 m_count = 0;
    };

    struct Node
    {
        quint32 frame = 0; // StackTable frame id; 0 for the root and for a group's node
        quint32 group = 0; // StackWeights group of a group node (frame 0), else 0
        qint32 parent = -1;
        quint64 self = 0;  // samples whose stack ends here (top-down) / starts here (bottom-up)
        quint64 total = 0; // samples through this node
        Children children;
    };

    // The frame id of the "[truncated]" marker node: never a StackTable id (those are dense
    // from 1). With markTruncated, a stack whose outermost frames are missing (the unwinder did
    // not reach the thread's first frame, or the kernel stack was cut) gets this marker where
    // the missing frames would be: between the root (or its group) and the outermost frame
    // known, so such samples do not pose as calls from the thread's start.
    static constexpr quint32 TruncatedFrame = 0xffffffffu;

    static CallTree build(const StackTable &stacks, const StackWeights &weights,
                          Direction direction = Direction::TopDown,
                          StackPart part = StackPart::Both, bool markTruncated = false);

    Direction direction() const { return m_direction; }
    qsizetype size() const { return qsizetype(m_nodes.size()); }
    const Node &node(qint32 index) const { return m_nodes[size_t(index)]; }
    const Node &root() const { return m_nodes.front(); }
    // The path of frames from the root to index (root excluded).
    QList<qint32> pathTo(qint32 index) const;

private:
    friend class CallTreeIndex;
    // Raw nodes in any order where a parent comes before its children (node 0 the root), with
    // their children as ranges of childList (childStart[i]..childStart[i + 1]): the tree with
    // the nodes renumbered breadth first and each node's children sorted. Nodes of total 0 are
    // left out (with their subtrees) when dropEmpty.
    struct Raw
    {
        const quint32 *frame;
        const quint32 *group; // null: every group 0
        const quint64 *self;
        const quint64 *total;
        const qint32 *childStart;
        const qint32 *childList;
    };
    // rawOf: where given, for each node of the tree the raw node it was made of.
    static CallTree fromRaw(Direction direction, const Raw &raw, size_t count, bool dropEmpty,
                            std::vector<qint32> *rawOf = nullptr);

    Direction m_direction = Direction::TopDown;
    std::vector<Node> m_nodes;
};

// Every stack of a table placed once in one call tree (the shape CallTree::build gives); summing
// weights into it then walks arrays instead of hashing every frame of every stack, which is
// what a view re-aggregating for each new time range needs: a million samples over 100k
// stacks sum in tens of milliseconds. update() takes in the stacks defined since its last call
// (a live recording); a new table (another session) needs a new index. Groups are not
// supported: weights of group != 0 count as their stack's.
class CallTreeIndex
{
public:
    explicit CallTreeIndex(CallTree::Direction direction = CallTree::Direction::TopDown,
                           StackPart part = StackPart::Both, bool markTruncated = false);
    void update(const StackTable &stacks);
    // The tree of the weights: node for node the one CallTree::build makes with the index's
    // direction, part and marking. Sums along the index's arrays, then numbers the nodes with
    // samples breadth first, sorting each one's children (no hashing, no list per node).
    CallTree sum(const StackWeights &weights) const;
    // sum(), and per node of the tree the least of leastPerStack (indexed by stack id, ~0 where
    // none) over the stacks with weight through it: the oldest block a call path holds, where
    // the weights are bytes in use and leastPerStack when each stack's oldest was allocated.
    CallTree sum(const StackWeights &weights, const std::vector<quint64> &leastPerStack,
                 std::vector<quint64> *leastPerNode) const;
    qsizetype stackCount() const { return qsizetype(m_end.size()) - 1; }
    qsizetype nodeCount() const { return qsizetype(m_frame.size()); }

private:
    CallTree::Direction m_direction;
    StackPart m_part;
    bool m_markTruncated;
    std::vector<quint32> m_frame; // per node; node 0 is the root
    std::vector<qint32> m_parent;
    std::vector<qint32> m_end;  // per stack id: the node its path ends at (0: empty path)
    std::vector<qint32> m_self; // per stack id: the node its samples are self cost of
    // (parent << 32 | frame) -> node, open addressing (~0: empty): a QHash costs twice as much
    // over the millions of frames a first profile indexes.
    std::vector<quint64> m_slotKey;
    std::vector<qint32> m_slotNode;
    qint32 findOrAdd(qint32 parent, quint32 frame);
    // Each node's children as ranges of one array (CallTree::Raw), remade by update().
    std::vector<qint32> m_childStart;
    std::vector<qint32> m_childList;
};

// Cost per function over all samples: self (the function was the leaf) and total (it was on the
// stack, counted once per sample however often it recurses). Sorted by total, then self.
struct FunctionCost
{
    quint32 frame = 0;
    quint64 self = 0;
    quint64 total = 0;
};
QList<FunctionCost> functionCosts(const StackTable &stacks, const StackWeights &weights,
                                  StackPart part = StackPart::Both);

// The same from a top-down tree (CallTree::build or CallTreeIndex::sum), in one walk over its
// nodes: cheaper than the above when the tree exists anyway. "[truncated]" markers are skipped.
QList<FunctionCost> functionCosts(const CallTree &topDown);

// Folded stacks, the input of flamegraph.pl, inferno and speedscope: one line per distinct
// stack, root first, frames joined by ';', a space and the weight: "bash;main;read 12\n".
// Sorted by line, so equal inputs give equal bytes.
QByteArray foldedStacks(const StackTable &stacks, const StackWeights &weights,
                        StackPart part = StackPart::Both);

// One off-CPU span joined with its waker (offwake), for offWakeFoldedStacks.
struct OffWakeSpan
{
    quint32 stackId = 0;
    quint32 wakerStackId = 0;
    QByteArray comm;
    QByteArray wakerComm; // empty: the wakeup was not seen
    quint64 ns = 0;
};

// The names offWakeStacks() gives its frames that are not code. The folded export keeps these
// defaults (what `offwaketime -f` writes); the GUI passes translated ones.
struct OffWakeNames
{
    QByteArray separator = "--";
    QByteArray unknownWaker = "[unknown waker]";
    QByteArray unknownComm = "[unknown]";
};

// Off-wake spans as stacks of a table of their own, one per distinct (blocked stack, comm,
// waker stack, waker comm), weighted in nanoseconds: root first the blocked thread's comm, its
// stack limited to part, the separator, the waker's stack leaf first, the waker's comm (or the
// unknown waker). offWakeFoldedStacks() prints these and the GUI's off-wake flame graph is the
// call tree of them, so the two agree frame for frame. The table is a copy of the session's, so
// a code frame keeps its id (a function picked in another view is the same one here); comms and
// the separator are frames added after them, with a build id that is not hex (never a real
// frame's), told apart by role(). Given the previous result over the same session table
// (previous), those keep their ids too (a view's zoom and pick survive a new range); a session
// table that grew since (a live recording) starts them afresh.
struct OffWakeStacks
{
    enum class Role : quint8
    {
        Code,
        Comm,
        Separator,
        UnknownWaker,
    };
    StackTable stacks;
    StackWeights weights;
    quint32 separator = 0; // the separator's frame id
    qsizetype spans = 0;
    qsizetype sessionFrames = 0; // frames 1..sessionFrames are the session's, with their ids
    Role role(quint32 frame) const
    {
        return frame < m_roles.size() ? Role(m_roles[frame]) : Role::Code;
    }

private:
    friend OffWakeStacks offWakeStacks(const StackTable &, const QList<OffWakeSpan> &, StackPart,
                                       const OffWakeNames &, const OffWakeStacks *);
    std::vector<quint8> m_roles; // per frame id
};
OffWakeStacks offWakeStacks(const StackTable &stacks, const QList<OffWakeSpan> &spans,
                            StackPart part = StackPart::Both, const OffWakeNames &names = {},
                            const OffWakeStacks *previous = nullptr);

// Off-wake folded stacks in the form of BCC's `offwaketime -f`, which flamegraph.pl and
// speedscope read: the blocked thread's comm and stack root first, "--", then the waker's stack
// leaf first (the frame that woke it nearest the separator) and its comm, a space and the time
// in units of unitNs: "a;main;read;schedule;--;try_to_wake_up;pipe_write;write;main;b 12\n".
// A span whose wakeup was not seen ends in "--;[unknown waker]". Sorted by line.
QByteArray offWakeFoldedStacks(const StackTable &stacks, const QList<OffWakeSpan> &spans,
                               StackPart part = StackPart::Both, quint64 unitNs = 1000);

// The frames of a stack root first, limited to part.
QList<quint32> rootFirstFrames(const StackTable &stacks, quint32 stackId, StackPart part);
// Whether the part of the stack kept by part misses its outermost frames: the user stack is
// truncated (when user frames are kept), or only kernel frames are kept and the kernel stack
// is.
bool isTruncated(const StackTable &stacks, quint32 stackId, StackPart part);

} // namespace bpflens
