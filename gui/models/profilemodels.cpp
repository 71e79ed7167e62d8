#include "gui/models/profilemodels.h"

#include "core/allocations.h"
#include "core/units.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"

#include <QCoreApplication>
#include <QLocale>

#include <deque>

namespace bpflens {

namespace {

template<typename E, auto StackMember, auto PidMember, auto CommMember>
void sumStacks(const SessionModel &session, const ProfileQuery &q, std::vector<quint64> &perStack,
               quint64 &noStack, qsizetype &events)
{
    const EventStore &store = session.events();
    constexpr EventType type = eventTypeOf<E>;
    const qsizetype begin = store.lowerBound(type, q.startNs);
    const qsizetype end =
        q.endNs == ~quint64(0) ? store.count(type) : store.lowerBound(type, q.endNs);
    const bool filtered = q.pid >= 0 || !q.comm.isEmpty();
    for (qsizetype i = begin; i < end; ++i) {
        if (filtered) {
            if (q.pid >= 0 && qint64(store.value<PidMember>(i)) != q.pid)
                continue;
            if (!q.comm.isEmpty() && store.value<CommMember>(i) != q.comm)
                continue;
        }
        quint64 w = 1;
        if constexpr (std::is_same_v<E, OffCpuEvent>)
            w = store.value<&OffCpuEvent::offNs>(i);
        else if constexpr (std::is_same_v<E, OffWakeEvent>)
            w = store.value<&OffWakeEvent::offNs>(i);
        else if constexpr (std::is_same_v<E, PageFaultEvent>)
            w = store.value<&PageFaultEvent::weight>(i);
        const quint32 id = store.value<StackMember>(i);
        ++events;
        if (id < perStack.size())
            perStack[id] += w;
        else
            noStack += w; // 0, or an id whose definition never arrived
    }
}

// The memory in use of the query as core/allocations.h sums it: its in-use bytes per stack as
// weights (index 0, the blocks without a stack, on the root as other kinds' stackless samples).
StackWeights inUseWeights(const SessionModel &session, const ProfileQuery &q, AllocationSums &sums)
{
    AllocationQuery a;
    a.startNs = q.startNs;
    a.endNs = q.endNs;
    a.pid = q.pid;
    a.comm = q.comm;
    sums = sumAllocations(session.events(), a, session.stacks().stackCount());
    StackWeights weights;
    for (size_t id = 0; id < sums.inuseBytes.size(); ++id) {
        if (sums.inuseBytes[id])
            weights.add(quint32(id), sums.inuseBytes[id]);
    }
    return weights;
}

} // namespace

StackWeights aggregateStacks(const SessionModel &session, const ProfileQuery &query,
                             qsizetype *events)
{
    if (query.kind == ProfileKind::MemoryInUse) {
        AllocationSums sums;
        StackWeights weights = inUseWeights(session, query, sums);
        if (events)
            *events = sums.events;
        return weights;
    }
    std::vector<quint64> perStack(size_t(session.stacks().stackCount()) + 1, 0);
    quint64 noStack = 0;
    qsizetype n = 0;
    if (query.kind == ProfileKind::OnCpu)
        sumStacks<CpuSampleEvent, &CpuSampleEvent::stackId, &CpuSampleEvent::pid,
                  &CpuSampleEvent::comm>(session, query, perStack, noStack, n);
    else if (query.kind == ProfileKind::OffCpu)
        sumStacks<OffCpuEvent, &OffCpuEvent::stackId, &OffCpuEvent::pid, &OffCpuEvent::comm>(
            session, query, perStack, noStack, n);
    else if (query.kind == ProfileKind::PageFaults)
        sumStacks<PageFaultEvent, &PageFaultEvent::stackId, &PageFaultEvent::pid,
                  &PageFaultEvent::comm>(session, query, perStack, noStack, n);
    else // the blocked stacks alone; buildProfile() puts their wakers on them
        sumStacks<OffWakeEvent, &OffWakeEvent::stackId, &OffWakeEvent::pid, &OffWakeEvent::comm>(
            session, query, perStack, noStack, n);
    StackWeights weights;
    // Samples without a stack still count towards the total (the root's self): a profile whose
    // stacks failed must not look like an idle one.
    if (noStack)
        weights.add(0, noStack);
    for (size_t id = 1; id < perStack.size(); ++id) {
        if (perStack[id])
            weights.add(quint32(id), perStack[id]);
    }
    if (events)
        *events = n;
    return weights;
}

QList<OffWakeSpan> offWakeSpans(const SessionModel &session, const ProfileQuery &q)
{
    const EventStore &store = session.events();
    constexpr EventType type = EventType::OffWake;
    const qsizetype begin = store.lowerBound(type, q.startNs);
    const qsizetype end =
        q.endNs == ~quint64(0) ? store.count(type) : store.lowerBound(type, q.endNs);
    QList<OffWakeSpan> spans;
    spans.reserve(std::max<qsizetype>(0, end - begin));
    for (qsizetype i = begin; i < end; ++i) {
        if (q.pid >= 0 && qint64(store.value<&OffWakeEvent::pid>(i)) != q.pid)
            continue;
        if (!q.comm.isEmpty() && store.value<&OffWakeEvent::comm>(i) != q.comm)
            continue;
        OffWakeSpan s;
        s.stackId = store.value<&OffWakeEvent::stackId>(i);
        s.wakerStackId = store.value<&OffWakeEvent::wakerStackId>(i);
        s.comm = store.value<&OffWakeEvent::comm>(i);
        s.wakerComm = store.value<&OffWakeEvent::wakerComm>(i);
        s.ns = store.value<&OffWakeEvent::offNs>(i);
        spans.append(std::move(s));
    }
    return spans;
}

namespace {

std::shared_ptr<const Profile> buildOffWakeProfile(const SessionModel &session,
                                                   const ProfileQuery &query, bool withBottomUp,
                                                   std::shared_ptr<const OffWakeStacks> &last)
{
    auto p = std::make_shared<Profile>();
    p->query = query;
    // Another session's table may have as many frames: the builder is cleared on a reset.
    auto ow = std::make_shared<OffWakeStacks>(
        offWakeStacks(session.stacks(), offWakeSpans(session, query), query.part,
                      ProfileText::offWakeNames(), last.get()));
    last = ow;
    p->events = ow->spans;
    p->total = ow->weights.total();
    // No "[truncated]" markers: the tree is the folded export's lines, frame for frame, and a
    // marker would stand between a comm and the stack below it.
    p->topDown = CallTree::build(ow->stacks, ow->weights, CallTree::Direction::TopDown);
    if (withBottomUp) {
        p->bottomUp = CallTree::build(ow->stacks, ow->weights, CallTree::Direction::BottomUp);
        p->hasBottomUp = true;
    }
    p->functions = functionCosts(p->topDown);
    const CallTree &t = p->topDown;
    p->wakerNodes.assign(size_t(t.size()), false);
    for (qint32 n = 1; n < t.size(); ++n) {
        // Parents come first: a node is the waker's when its parent is the separator or is
        // the waker's itself.
        const qint32 parent = t.node(n).parent;
        p->wakerNodes[size_t(n)] =
            parent > 0 && (p->wakerNodes[size_t(parent)] || t.node(parent).frame == ow->separator);
    }
    p->offWake = std::move(ow);
    return p;
}

} // namespace

std::shared_ptr<const Profile> buildProfile(const SessionModel &session, const ProfileQuery &query)
{
    return ProfileBuilder().build(session, query);
}

std::shared_ptr<const Profile> ProfileBuilder::build(const SessionModel &session,
                                                     const ProfileQuery &query, bool withBottomUp)
{
    if (query.kind == ProfileKind::OffWake)
        return buildOffWakeProfile(session, query, withBottomUp, m_offWake);
    // A table with fewer stacks than the index is another session's.
    if (!m_topDown || m_part != query.part ||
        m_topDown->stackCount() > session.stacks().stackCount()) {
        m_part = query.part;
        m_topDown = std::make_unique<CallTreeIndex>(CallTree::Direction::TopDown, m_part, true);
        m_bottomUp = std::make_unique<CallTreeIndex>(CallTree::Direction::BottomUp, m_part, true);
    }
    m_topDown->update(session.stacks());
    if (withBottomUp)
        m_bottomUp->update(session.stacks());
    auto p = std::make_shared<Profile>();
    p->query = query;
    StackWeights weights;
    AllocationSums sums;
    if (query.kind == ProfileKind::MemoryInUse) {
        weights = inUseWeights(session, query, sums);
        // An open range's end is the last moment recorded (endTimeNs() is one past it).
        p->ageEndNs = query.endNs == ~quint64(0) ? session.endTimeNs() - 1 : query.endNs;
        p->events = sums.events;
        p->allocatedBytes = sums.totalAllocBytes;
        p->sampleEvery = sums.sampleEvery;
        for (size_t id = 0; id < sums.inuseBlocks.size(); ++id) {
            p->inUseBlocks += sums.inuseBlocks[id];
            p->allocatedBlocks += sums.allocBlocks[id];
        }
    } else {
        weights = aggregateStacks(session, query, &p->events);
    }
    p->total = weights.total();
    if (query.kind == ProfileKind::MemoryInUse)
        p->topDown = m_topDown->sum(weights, sums.oldestInuseNs, &p->oldestInUseNs);
    else
        p->topDown = m_topDown->sum(weights);
    if (withBottomUp) {
        p->bottomUp = m_bottomUp->sum(weights);
        p->hasBottomUp = true;
    }
    p->functions = functionCosts(p->topDown);
    return p;
}

void ProfileBuilder::clear()
{
    m_topDown.reset();
    m_bottomUp.reset();
    m_offWake.reset();
}

namespace ProfileText {

static QString tr(const char *text)
{
    return QCoreApplication::translate("bpflens::ProfileText", text);
}

QString frameName(const StackTable &stacks, quint32 frame)
{
    if (frame == CallTree::TruncatedFrame)
        return tr("[truncated]");
    if (frame == 0)
        return tr("[no stack]");
    return stacks.frameName(frame);
}

OffWakeNames offWakeNames()
{
    OffWakeNames names;
    // The folded form's "--", named for what it means where people read it.
    names.separator = tr("woken by").toUtf8();
    names.unknownWaker = tr("[waker not seen]").toUtf8();
    names.unknownComm = tr("[unknown]").toUtf8();
    return names;
}

QString modulePath(const StackTable &stacks, quint32 frame)
{
    if (!stacks.hasFrame(frame))
        return {};
    return QString::fromUtf8(stacks.frame(frame).module);
}

QString moduleName(const StackTable &stacks, quint32 frame)
{
    const QString path = modulePath(stacks, frame);
    return path.mid(path.lastIndexOf(QLatin1Char('/')) + 1);
}

QString cost(quint64 value, bool isTime)
{
    return isTime ? EventTableModel::formatDuration(value) : QLocale().toString(value);
}

QString cost(quint64 value, const Profile &profile)
{
    if (profile.isBytes())
        return formatByteSize(value, QLocale());
    return cost(value, profile.isTime());
}

QString percent(quint64 part, quint64 total)
{
    const double p = total ? 100.0 * double(part) / double(total) : 0.0;
    return tr("%1%").arg(QLocale().toString(p, 'f', 1));
}

} // namespace ProfileText

namespace {

QString columnTitle(int column)
{
    static const char *const titles[] = {
        QT_TRANSLATE_NOOP("bpflens::CallTreeModel", "Function"),
        QT_TRANSLATE_NOOP("bpflens::CallTreeModel", "Module"),
        QT_TRANSLATE_NOOP("bpflens::CallTreeModel", "Self"),
        QT_TRANSLATE_NOOP("bpflens::CallTreeModel", "Self %"),
        QT_TRANSLATE_NOOP("bpflens::CallTreeModel", "Total"),
        QT_TRANSLATE_NOOP("bpflens::CallTreeModel", "Total %"),
    };
    if (column < 0 || column >= CallTreeModel::ColumnCount)
        return {};
    return QCoreApplication::translate("bpflens::CallTreeModel", titles[column]);
}

// One row of either model: a frame with its self and total.
QVariant costCell(const Profile &p, const StackTable &stacks, quint32 frame, quint64 self,
                  quint64 total, int column, int role)
{
    using C = CallTreeModel;
    switch (role) {
    case C::FrameIdRole:
        return QVariant::fromValue(frame);
    case C::CostRole:
        if (column == C::SelfColumn || column == C::SelfPercentColumn)
            return QVariant::fromValue(self);
        if (column == C::TotalColumn || column == C::TotalPercentColumn)
            return QVariant::fromValue(total);
        return {};
    case C::SortRole:
        switch (column) {
        case C::FunctionColumn:
            return ProfileText::frameName(stacks, frame);
        case C::ModuleColumn:
            return ProfileText::moduleName(stacks, frame);
        case C::SelfColumn:
        case C::SelfPercentColumn:
            return QVariant::fromValue(self);
        default:
            return QVariant::fromValue(total);
        }
    case Qt::DisplayRole:
        switch (column) {
        case C::FunctionColumn:
            return ProfileText::frameName(stacks, frame);
        case C::ModuleColumn:
            return ProfileText::moduleName(stacks, frame);
        case C::SelfColumn:
            return ProfileText::cost(self, p);
        case C::SelfPercentColumn:
            return ProfileText::percent(self, p.total);
        case C::TotalColumn:
            return ProfileText::cost(total, p);
        case C::TotalPercentColumn:
            return ProfileText::percent(total, p.total);
        }
        return {};
    case Qt::ToolTipRole:
        if (frame == CallTree::TruncatedFrame)
            return QCoreApplication::translate(
                "bpflens::CallTreeModel",
                "The unwinder did not reach the thread's first frame: the callers of these "
                "samples are unknown.");
        if (column == C::FunctionColumn || column == C::ModuleColumn) {
            const QString path = ProfileText::modulePath(stacks, frame);
            return path.isEmpty()
                       ? ProfileText::frameName(stacks, frame)
                       : QStringLiteral("%1\n%2").arg(ProfileText::frameName(stacks, frame), path);
        }
        // The views hide the cost columns to leave the function names room; the percentages
        // say the cost behind them here.
        if (column == C::SelfPercentColumn || column == C::TotalPercentColumn)
            return QCoreApplication::translate("bpflens::CallTreeModel", "%1 of %2")
                .arg(ProfileText::cost(column == C::SelfPercentColumn ? self : total, p),
                     ProfileText::cost(p.total, p));
        return {};
    case Qt::TextAlignmentRole:
        if (column >= C::SelfColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    }
    return {};
}

} // namespace

// ---- CallTreeModel ---------------------------------------------------------------------------

CallTreeModel::CallTreeModel(CallTree::Direction direction, QObject *parent)
    : QAbstractItemModel(parent)
    , m_direction(direction)
{
}

const CallTree *CallTreeModel::tree() const
{
    if (!m_profile)
        return nullptr;
    if (m_direction == CallTree::Direction::TopDown)
        return &m_profile->topDown;
    return m_profile->hasBottomUp ? &m_profile->bottomUp : nullptr;
}

void CallTreeModel::setProfile(std::shared_ptr<const Profile> profile, const StackTable *stacks)
{
    beginResetModel();
    m_profile = std::move(profile);
    m_stacks = stacks;
    endResetModel();
}

int CallTreeModel::rowOf(const CallTree &t, qint32 node)
{
    // Siblings are consecutive nodes.
    return int(t.node(t.node(node).parent).children.indexOf(node));
}

qint32 CallTreeModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? qint32(index.internalId()) : 0;
}

QModelIndex CallTreeModel::indexForNode(qint32 node, int column) const
{
    const CallTree *t = tree();
    if (!t || node <= 0 || node >= t->size())
        return {};
    return createIndex(rowOf(*t, node), column, quintptr(node));
}

QModelIndex CallTreeModel::indexForFrame(quint32 frame) const
{
    const CallTree *t = tree();
    if (!t)
        return {};
    // Breadth first: the shallowest level holding the frame, its heaviest node there (children
    // are sorted by total, so the first one met on that level is the heaviest of its parent).
    std::deque<qint32> queue(t->root().children.cbegin(), t->root().children.cend());
    qint32 best = -1;
    int bestDepth = -1;
    std::deque<int> depth(queue.size(), 0);
    while (!queue.empty()) {
        const qint32 n = queue.front();
        const int d = depth.front();
        queue.pop_front();
        depth.pop_front();
        if (bestDepth >= 0 && d > bestDepth)
            break;
        if (t->node(n).frame == frame) {
            if (best < 0 || t->node(n).total > t->node(best).total)
                best = n;
            bestDepth = d;
            continue;
        }
        for (qint32 c : t->node(n).children) {
            queue.push_back(c);
            depth.push_back(d + 1);
        }
    }
    return best > 0 ? indexForNode(best) : QModelIndex();
}

QModelIndex CallTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    const CallTree *t = tree();
    if (!t || column < 0 || column >= ColumnCount || row < 0)
        return {};
    const qint32 p = nodeOf(parent);
    const CallTree::Children &children = t->node(p).children;
    if (row >= children.size())
        return {};
    return createIndex(row, column, quintptr(children[row]));
}

QModelIndex CallTreeModel::parent(const QModelIndex &child) const
{
    const CallTree *t = tree();
    if (!t || !child.isValid())
        return {};
    const qint32 p = t->node(nodeOf(child)).parent;
    return p > 0 ? createIndex(rowOf(*t, p), 0, quintptr(p)) : QModelIndex();
}

int CallTreeModel::rowCount(const QModelIndex &parent) const
{
    const CallTree *t = tree();
    if (!t || (parent.isValid() && parent.column() != 0))
        return 0;
    return int(t->node(nodeOf(parent)).children.size());
}

int CallTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant CallTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const qint32 n = nodeOf(index);
    if (role == NodeIndexRole)
        return QVariant::fromValue(n);
    const CallTree::Node &node = tree()->node(n);
    return costCell(*m_profile, *m_stacks, node.frame, node.self, node.total, index.column(), role);
}

QVariant CallTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole)
        return columnTitle(section);
    // Memory in use is not a cost of samples: its self is what the function allocated itself
    // (the allocator's caller), its total what was allocated below it.
    const bool bytes = m_profile && m_profile->isBytes();
    if (bytes && role == Qt::ToolTipRole && (section == SelfColumn || section == SelfPercentColumn))
        return tr("Bytes in use that this function allocated itself");
    if (bytes && role == Qt::ToolTipRole &&
        (section == TotalColumn || section == TotalPercentColumn))
        return tr("Bytes in use allocated with this function on the stack, its callees included");
    if (role == Qt::ToolTipRole && (section == SelfColumn || section == SelfPercentColumn))
        return tr("Cost of samples taken in this function itself");
    if (role == Qt::ToolTipRole && (section == TotalColumn || section == TotalPercentColumn))
        return tr("Cost of samples with this function on the stack, its callees included");
    return {};
}

// ---- FunctionListModel -----------------------------------------------------------------------

FunctionListModel::FunctionListModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void FunctionListModel::setProfile(std::shared_ptr<const Profile> profile, const StackTable *stacks)
{
    beginResetModel();
    m_profile = std::move(profile);
    m_stacks = stacks;
    endResetModel();
}

int FunctionListModel::rowForFrame(quint32 frame) const
{
    if (!m_profile)
        return -1;
    for (qsizetype i = 0; i < m_profile->functions.size(); ++i) {
        if (m_profile->functions[i].frame == frame)
            return int(i);
    }
    return -1;
}

int FunctionListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_profile ? 0 : int(m_profile->functions.size());
}

int FunctionListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : CallTreeModel::ColumnCount;
}

QVariant FunctionListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const FunctionCost &c = m_profile->functions[index.row()];
    if (role == CallTreeModel::NodeIndexRole)
        return {};
    return costCell(*m_profile, *m_stacks, c.frame, c.self, c.total, index.column(), role);
}

QVariant FunctionListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return columnTitle(section);
}

} // namespace bpflens
