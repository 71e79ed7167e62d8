#pragma once

#include "core/callgraph.h"

#include <QAbstractItemModel>
#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace bpflens {

class SessionModel;

// Which samples a profile sums: on-CPU samples (weight 1 each) or off-CPU intervals (weight =
// the time blocked, so a thread that waited 2 s outweighs one that waited 2 ms), or off-wake
// waits (offwake: the same weight, each blocked stack topped by its waker's, as offwaketime
// and flamegraph.pl show them), or page faults (pagefault: weight = the faults each event
// stands for, 1, or N when recorded with every=N), or the memory in use (memleak: the bytes of
// the blocks allocated in the range and not freed by its end, sumAllocations()'s in-use bytes;
// zooming the range to [T1, T2) shows what grew between the two moments).
enum class ProfileKind : quint8
{
    OnCpu,
    OffCpu,
    OffWake,
    PageFaults,
    MemoryInUse,
};

// What the profile views show: the samples in [startNs, endNs) of one kind, optionally of one
// process or command (ViewState's filter), with part of each stack.
struct ProfileQuery
{
    ProfileKind kind = ProfileKind::OnCpu;
    quint64 startNs = 0;
    quint64 endNs = ~quint64(0);
    StackPart part = StackPart::Both;
    qint64 pid = -1; // -1: every process
    QByteArray comm; // empty: every command
    bool operator==(const ProfileQuery &) const = default;
};

// One aggregation of a session's samples, immutable once built and shared by the models and the
// flame graph. The trees refer to frames of the session's StackTable by id.
struct Profile
{
    ProfileQuery query;
    qsizetype events = 0; // samples (on-CPU) or off-CPU intervals summed
    quint64 total = 0;    // samples, or nanoseconds off the CPU
    CallTree topDown;     // with "[truncated]" markers (CallTree::TruncatedFrame)
    CallTree bottomUp;    // only with hasBottomUp (it is the big one: leaves rarely share callers)
    bool hasBottomUp = false;
    QList<FunctionCost> functions;
    // OffWake: the stacks the trees name frames of (offWakeStacks(): the session's frames
    // with the comms and the "woken by" separator between blocked and waker frames); null for
    // the other kinds, whose trees name the session's frames.
    std::shared_ptr<const OffWakeStacks> offWake;
    // MemoryInUse (core/allocations.h, scaled by the events' weights): the blocks the bytes in
    // use are, and what the range allocated in all, freed or not; the largest weight seen,
    // what one event stood for when the probe sampled (sampleEvery=N).
    quint64 inUseBlocks = 0;
    quint64 allocatedBytes = 0;
    quint64 allocatedBlocks = 0;
    quint32 sampleEvery = 1;
    // MemoryInUse: per top-down node when the oldest block in use under it was allocated (~0:
    // none), and the moment ages are taken at: the range's end, the session's end for a range
    // open to live data. memleak's age: how long a leak has been growing.
    std::vector<quint64> oldestInUseNs;
    quint64 ageEndNs = 0;
    // How long before ageEndNs the oldest block under the node was allocated; -1 when unknown.
    qint64 oldestAgeNs(qint32 node) const
    {
        if (node < 0 || size_t(node) >= oldestInUseNs.size() ||
            oldestInUseNs[size_t(node)] == ~quint64(0))
            return -1;
        const quint64 t = oldestInUseNs[size_t(node)];
        return t >= ageEndNs ? 0 : qint64(ageEndNs - t);
    }
    bool isEmpty() const { return total == 0; }
    bool isTime() const
    {
        return query.kind == ProfileKind::OffCpu || query.kind == ProfileKind::OffWake;
    }
    bool isFaults() const { return query.kind == ProfileKind::PageFaults; }
    bool isBytes() const { return query.kind == ProfileKind::MemoryInUse; }
    // The table the trees' frame ids refer to.
    const StackTable &stacks(const StackTable &sessionStacks) const
    {
        return offWake ? offWake->stacks : sessionStacks;
    }
    // Whether a top-down node is a frame of the waker (above the separator); false outside an
    // off-wake profile. The separator itself is neither.
    bool isWakerNode(qint32 node) const
    {
        return node >= 0 && size_t(node) < wakerNodes.size() && wakerNodes[size_t(node)];
    }
    std::vector<bool> wakerNodes; // per top-down node (OffWake only)
};

// Sums the session's samples per stack for the query. Reads the EventStore's columns in place
// and sums into a vector indexed by stack id (ids are dense), so a range of a million samples
// costs a few milliseconds before the tree is built.
StackWeights aggregateStacks(const SessionModel &session, const ProfileQuery &query,
                             qsizetype *events = nullptr);
// The off-wake waits of the query (ProfileKind::OffWake): those starting in its range, of its
// process and command, as offWakeStacks() and offWakeFoldedStacks() take them.
QList<OffWakeSpan> offWakeSpans(const SessionModel &session, const ProfileQuery &query);
// The weights, the trees and the function list of the query.
std::shared_ptr<const Profile> buildProfile(const SessionModel &session, const ProfileQuery &query);

// buildProfile() for a view that asks again and again (each range, each live batch): keeps a
// CallTreeIndex per direction for the stack part asked last, extended as stacks arrive, so a
// new profile only sums. clear() when the session is replaced.
class ProfileBuilder
{
public:
    std::shared_ptr<const Profile> build(const SessionModel &session, const ProfileQuery &query,
                                         bool withBottomUp = true);
    void clear();

private:
    StackPart m_part = StackPart::Both;
    std::unique_ptr<CallTreeIndex> m_topDown;
    std::unique_ptr<CallTreeIndex> m_bottomUp;
    std::shared_ptr<const OffWakeStacks> m_offWake; // the last off-wake table: its ids are kept
};

// How the profile views name and format things, shared by the models and the flame graph.
namespace ProfileText {
QString frameName(const StackTable &stacks, quint32 frame); // "[truncated]" for the marker
// The off-wake flame graph's names for its frames that are not code, translated.
OffWakeNames offWakeNames();
QString moduleName(const StackTable &stacks, quint32 frame); // file name: "libc.so.6"
QString modulePath(const StackTable &stacks, quint32 frame); // full: "/usr/lib/…/libc.so.6"
QString cost(quint64 value, bool isTime);                    // "1,234" or "1.25 ms"
// A cost in the profile's unit: "1,234" (samples, faults), "1.25 ms" or "78.1 KiB".
QString cost(quint64 value, const Profile &profile);
QString percent(quint64 part, quint64 total); // "12.3%"
} // namespace ProfileText

// A CallTree as a tree model: top-down (callees below callers) or bottom-up (callers below the
// functions samples were taken in). Rows are the node's children, largest total first; sort
// with a QSortFilterProxyModel on SortRole.
class CallTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Columns
    {
        FunctionColumn,
        ModuleColumn,
        SelfColumn,
        SelfPercentColumn,
        TotalColumn,
        TotalPercentColumn,
        ColumnCount
    };
    Q_ENUM(Columns)
    enum Roles
    {
        NodeIndexRole = Qt::UserRole + 1, // qint32 index into the CallTree
        FrameIdRole,                      // quint32 StackTable frame id (or TruncatedFrame)
        SortRole,                         // the column's raw value (name, or quint64 cost)
        CostRole,                         // quint64 self or total of the cost columns
    };
    Q_ENUM(Roles)

    CallTreeModel(CallTree::Direction direction, QObject *parent = nullptr);

    // The profile to show (null: none) and the table its frame ids refer to.
    void setProfile(std::shared_ptr<const Profile> profile, const StackTable *stacks);
    std::shared_ptr<const Profile> profile() const { return m_profile; }
    CallTree::Direction direction() const { return m_direction; }
    const CallTree *tree() const;

    QModelIndex indexForNode(qint32 node, int column = 0) const;
    // The heaviest node of the frame nearest the top level (invalid if the frame is absent):
    // where a function picked elsewhere is shown.
    QModelIndex indexForFrame(quint32 frame) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    qint32 nodeOf(const QModelIndex &index) const;
    static int rowOf(const CallTree &t, qint32 node);

    CallTree::Direction m_direction;
    std::shared_ptr<const Profile> m_profile;
    const StackTable *m_stacks = nullptr;
};

// The functions of a profile, heaviest total first: self (samples taken in the function) and
// total (samples with the function anywhere on the stack, once per sample).
class FunctionListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    using Columns = CallTreeModel::Columns;
    using Roles = CallTreeModel::Roles;

    explicit FunctionListModel(QObject *parent = nullptr);
    void setProfile(std::shared_ptr<const Profile> profile, const StackTable *stacks);
    int rowForFrame(quint32 frame) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Profile> m_profile;
    const StackTable *m_stacks = nullptr;
};

} // namespace bpflens
