#include "gui/models/memorymodels.h"

#include "core/stacks.h"
#include "core/units.h"
#include "gui/models/eventmodels.h"
#include "gui/models/stackframes.h"

#include <QLocale>

#include <algorithm>
#include <climits>

namespace bpflens {

QList<MemoryStackModel::Row> MemoryStackModel::rowsOf(const AllocationSums &sums, quint64 endNs)
{
    QList<Row> rows;
    for (size_t id = 0; id < sums.inuseBytes.size(); ++id) {
        if (!sums.inuseBytes[id])
            continue;
        Row r;
        r.stackId = quint32(id);
        r.bytes = sums.inuseBytes[id];
        r.blocks = sums.inuseBlocks[id];
        const quint64 oldest = sums.oldestInuseNs[id];
        if (oldest != ~quint64(0))
            r.ageNs = oldest >= endNs ? 0 : qint64(endNs - oldest);
        rows.append(r);
    }
    std::sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.stackId < b.stackId;
    });
    return rows;
}

MemoryStackModel::MemoryStackModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void MemoryStackModel::setRows(QList<Row> rows, const StackTable *stacks)
{
    beginResetModel();
    m_rows = std::move(rows);
    m_stacks = stacks;
    endResetModel();
}

int MemoryStackModel::rowForStack(quint32 stackId) const
{
    for (int r = 0; r < m_rows.size(); ++r) {
        if (m_rows[r].stackId == stackId)
            return r;
    }
    return -1;
}

int MemoryStackModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int MemoryStackModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString MemoryStackModel::summary(const Row &row)
{
    const int blocks = int(std::min<quint64>(row.blocks, INT_MAX));
    const QString bytes = formatByteSize(row.bytes, QLocale());
    if (row.ageNs < 0)
        return tr("%1 in %Ln allocation(s) from this stack", nullptr, blocks).arg(bytes);
    return tr("%1 in %Ln allocation(s) from this stack, the oldest allocated %2 before the "
              "range's end",
              nullptr, blocks)
        .arg(bytes, EventTableModel::formatDuration(quint64(row.ageNs)));
}

QVariant MemoryStackModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[index.row()];
    switch (role) {
    case StackIdRole:
        return r.stackId;
    case SortRole:
        switch (index.column()) {
        case FunctionColumn:
        case SourceColumn:
            return data(index, Qt::DisplayRole);
        case BytesColumn:
            return r.bytes;
        case BlocksColumn:
            return r.blocks;
        case OldestColumn:
            return r.ageNs;
        }
        return {};
    case Qt::TextAlignmentRole:
        return index.column() == FunctionColumn || index.column() == SourceColumn
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole: {
        QStringList lines{summary(r)};
        if (m_stacks && m_stacks->hasStack(r.stackId)) {
            for (quint32 f : m_stacks->stack(r.stackId).frames)
                lines << QStringLiteral("    ") + m_stacks->frameName(f);
        }
        return lines.join(QLatin1Char('\n'));
    }
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case FunctionColumn:
        return m_stacks ? StackNames::keyFunction(*m_stacks, EventType::Allocation, r.stackId)
                        : QString();
    case SourceColumn: {
        const quint32 frame =
            m_stacks ? StackNames::keyFrame(*m_stacks, EventType::Allocation, r.stackId) : 0;
        return frame ? m_stacks->sourceLocation(frame) : QString();
    }
    case BytesColumn:
        return formatByteSize(r.bytes, QLocale());
    case BlocksColumn:
        return QLocale().toString(r.blocks);
    case OldestColumn:
        return r.ageNs < 0 ? QString() : EventTableModel::formatDuration(quint64(r.ageNs));
    }
    return {};
}

QVariant MemoryStackModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case FunctionColumn:
            return tr("The function that called the allocator: the stack's first frame");
        case SourceColumn:
            return tr("Where in it, where the program's debug information says");
        case BytesColumn:
            return tr("Bytes allocated from this stack in the range and not freed by its end");
        case BlocksColumn:
            return tr("Blocks allocated from this stack in the range and not freed by its end");
        case OldestColumn:
            return tr("How long before the range's end the oldest of these blocks was "
                      "allocated: how long a leak has been growing");
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FunctionColumn:
        return tr("Allocated in");
    case SourceColumn:
        return tr("Source");
    case BytesColumn:
        return tr("In use");
    case BlocksColumn:
        return tr("Blocks");
    case OldestColumn:
        return tr("Oldest");
    }
    return {};
}

} // namespace bpflens
