#include "gui/models/explainmodel.h"

#include "gui/models/topmodel.h"

#include <QLocale>

#include <algorithm>
#include <climits>
#include <cmath>

namespace bpflens {

ExplainModel::ExplainModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void ExplainModel::setExplanation(Explanation x)
{
    beginResetModel();
    m_x = std::move(x);
    endResetModel();
}

void ExplainModel::clear()
{
    setExplanation({});
}

std::optional<EventFilter> ExplainModel::filterFor(int row) const
{
    if (row < 0 || row >= m_x.rows.size())
        return std::nullopt;
    return m_x.rows[row].filter;
}

int ExplainModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_x.rows.size());
}

int ExplainModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ExplainModel::dimensionTitle(const std::optional<Dimension> &d)
{
    return d ? TopModel::dimensionTitle(*d) : tr("CPU function");
}

QVariant ExplainModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ExplainRow &r = m_x.rows[index.row()];
    const int column = index.column();
    const bool in = column == InsideColumn;
    const bool share = in || column == OutsideColumn;
    switch (role) {
    case FilterableRole:
        return r.filter.has_value();
    case CountRole:
        return share ? QVariant(in ? r.inside : r.outside) : QVariant();
    case TotalRole:
        return share ? QVariant(in ? r.insideTotal : r.outsideTotal) : QVariant();
    case ValueRole:
        switch (column) {
        case DimensionColumn:
            return dimensionTitle(r.dimension);
        case KeyColumn:
            return r.key;
        case InsideColumn:
            return r.insideShare();
        case OutsideColumn:
            return r.outsideShare();
        case LiftColumn:
            return r.lift();
        }
        return {};
    case Qt::TextAlignmentRole:
        return column <= KeyColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (column == KeyColumn)
            return r.filter ? tr("Activate to filter every view to %1").arg(r.key)
                            : tr("The filter bar cannot select by %1")
                                  .arg(dimensionTitle(r.dimension).toLower());
        if (share) {
            const QLocale locale;
            return in ? tr("%1 of the %Ln event(s) in the range", nullptr,
                           int(std::min<qint64>(r.insideTotal, INT_MAX)))
                            .arg(locale.toString(r.inside))
                      : tr("%1 of the %Ln event(s) outside the range", nullptr,
                           int(std::min<qint64>(r.outsideTotal, INT_MAX)))
                            .arg(locale.toString(r.outside));
        }
        return {};
    case Qt::DisplayRole: {
        const QLocale locale;
        switch (column) {
        case DimensionColumn:
            return dimensionTitle(r.dimension);
        case KeyColumn:
            return r.key;
        case InsideColumn:
        case OutsideColumn: {
            const double s = in ? r.insideShare() : r.outsideShare();
            return tr("%1% (%2 of %3)")
                .arg(locale.toString(s * 100.0, 'f', 1), locale.toString(in ? r.inside : r.outside),
                     locale.toString(in ? r.insideTotal : r.outsideTotal));
        }
        case LiftColumn: {
            const double lift = r.lift();
            if (std::isinf(lift))
                return tr("only inside");
            return tr("%1×").arg(locale.toString(lift, 'f', lift < 10 ? 1 : 0));
        }
        }
        return {};
    }
    }
    return {};
}

QVariant ExplainModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case DimensionColumn:
        return tr("What");
    case KeyColumn:
        return tr("Value");
    case InsideColumn:
        return tr("In the range");
    case OutsideColumn:
        return tr("Outside");
    case LiftColumn:
        return tr("More common");
    }
    return {};
}

} // namespace bpflens
