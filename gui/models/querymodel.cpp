#include "gui/models/querymodel.h"

#include "core/csvexport.h"

#include <QIODevice>
#include <QLocale>

#include <algorithm>
#include <numeric>

namespace bpflens {

namespace {

bool isNumber(const QVariant &v)
{
    return v.typeId() == QMetaType::LongLong || v.typeId() == QMetaType::Double;
}

// SQLite's order of storage classes (NULL, numbers, TEXT, BLOB), so a sorted column reads like
// ORDER BY would give it.
int storageRank(const QVariant &v)
{
    if (!v.isValid())
        return 0;
    if (isNumber(v))
        return 1;
    if (v.typeId() == QMetaType::QString)
        return 2;
    return 3;
}

bool lessThan(const QVariant &a, const QVariant &b)
{
    const int ra = storageRank(a), rb = storageRank(b);
    if (ra != rb)
        return ra < rb;
    switch (ra) {
    case 1:
        if (a.typeId() == QMetaType::LongLong && b.typeId() == QMetaType::LongLong)
            return a.toLongLong() < b.toLongLong();
        return a.toDouble() < b.toDouble();
    case 2:
        return a.toString() < b.toString();
    case 3:
        return a.toByteArray() < b.toByteArray();
    default:
        return false;
    }
}

} // namespace

QueryModel::QueryModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void QueryModel::setResult(const QStringList &columns, QList<QVariantList> rows)
{
    beginResetModel();
    m_columns = columns;
    m_rows = std::move(rows);
    m_order.resize(m_rows.size());
    std::iota(m_order.begin(), m_order.end(), 0);
    endResetModel();
}

void QueryModel::clear()
{
    setResult({}, {});
}

QString QueryModel::displayText(const QVariant &value)
{
    switch (value.typeId()) {
    case QMetaType::UnknownType:
        return QStringLiteral("NULL");
    case QMetaType::LongLong:
        return QString::number(value.toLongLong());
    case QMetaType::Double:
        return QString::number(value.toDouble(), 'g', QLocale::FloatingPointShortest);
    case QMetaType::QByteArray:
        return QString::fromUtf8(CsvExport::escapeBytes(value.toByteArray()));
    default:
        return value.toString();
    }
}

bool QueryModel::writeCsv(QIODevice *device) const
{
    auto line = [device](const QList<QByteArray> &cells) {
        QByteArray out;
        for (qsizetype i = 0; i < cells.size(); ++i)
            out += (i ? "," : "") + CsvExport::quoteField(cells.at(i));
        out += "\r\n";
        return device->write(out) == out.size();
    };
    QList<QByteArray> cells;
    for (const QString &c : m_columns)
        cells << c.toUtf8();
    if (!line(cells))
        return false;
    for (const int r : m_order) {
        cells.clear();
        for (const QVariant &v : m_rows.at(r)) {
            cells << (v.isValid() ? displayText(v).toUtf8() : QByteArray());
        }
        if (!line(cells))
            return false;
    }
    return true;
}

int QueryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int QueryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_columns.size());
}

QVariant QueryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const QVariant &value = m_rows.at(m_order.at(index.row())).value(index.column());
    switch (role) {
    case Qt::DisplayRole:
        return displayText(value);
    case Qt::ToolTipRole: {
        // Long text (argv, paths) is elided in the cell.
        const QString text = displayText(value);
        return text.size() > 40 ? text : QVariant();
    }
    case Qt::TextAlignmentRole:
        return isNumber(value) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                               : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case ValueRole:
        return value;
    default:
        return {};
    }
}

QVariant QueryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 &&
        section < m_columns.size())
        return m_columns.at(section);
    if (orientation == Qt::Vertical && role == Qt::DisplayRole && section >= 0 &&
        section < m_rows.size())
        return section + 1;
    return {};
}

void QueryModel::sort(int column, Qt::SortOrder order)
{
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    QList<int> oldRows;
    for (const QModelIndex &i : before)
        oldRows.append(m_order.at(i.row()));
    if (column < 0 || column >= m_columns.size()) {
        std::iota(m_order.begin(), m_order.end(), 0);
    } else {
        std::stable_sort(m_order.begin(), m_order.end(), [&](int a, int b) {
            const QVariant &va = m_rows.at(a).value(column);
            const QVariant &vb = m_rows.at(b).value(column);
            return order == Qt::AscendingOrder ? lessThan(va, vb) : lessThan(vb, va);
        });
    }
    QList<int> where(m_order.size());
    for (int r = 0; r < m_order.size(); ++r)
        where[m_order.at(r)] = r;
    QModelIndexList after;
    for (qsizetype k = 0; k < before.size(); ++k)
        after.append(index(where.at(oldRows.at(k)), before.at(k).column()));
    changePersistentIndexList(before, after);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

} // namespace bpflens
