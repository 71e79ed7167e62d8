#pragma once

#include "core/allocations.h"

#include <QAbstractTableModel>

namespace bpflens {

class StackTable;

// The stacks holding memory at a range's end (memleak, docs/memory.md), as memleak prints them
// ("N bytes in M allocations from stack") and `bpflens-cli show` lists them: per stack the
// bytes and blocks allocated in the range and not freed by its end, and how long before the end
// its oldest such block was allocated (how long a leak has been growing). Most bytes first.
class MemoryStackModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        FunctionColumn, // the allocator's caller (StackNames::keyFunction), the stack in the tip
        // Its line ("leaker.c:95") where DWARF had it: two call sites in one function are two
        // stacks, told apart here.
        SourceColumn,
        BytesColumn,
        BlocksColumn,
        OldestColumn,
        ColumnCount
    };
    enum Roles
    {
        StackIdRole = Qt::UserRole + 1, // quint32
        SortRole,                       // the column's value as a number
    };
    struct Row
    {
        quint32 stackId = 0; // 0: blocks without a stack
        quint64 bytes = 0;
        quint64 blocks = 0;
        qint64 ageNs = -1; // of the oldest block; -1 unknown
    };
    // The stacks of the sums with bytes in use, most first (then the lower stack id); ages at
    // endNs.
    static QList<Row> rowsOf(const AllocationSums &sums, quint64 endNs);

    explicit MemoryStackModel(QObject *parent = nullptr);
    // The stacks must outlive the model or be replaced first (a session's reset).
    void setRows(QList<Row> rows, const StackTable *stacks);
    const QList<Row> &rows() const { return m_rows; }
    // The row of a stack id, -1 if none.
    int rowForStack(quint32 stackId) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "80,000 bytes in 20 allocations from stack, the oldest allocated 2.98 s before the end":
    // the line memleak and `bpflens-cli show` print, in the window's language.
    static QString summary(const Row &row);

private:
    QList<Row> m_rows;
    const StackTable *m_stacks = nullptr;
};

} // namespace bpflens
