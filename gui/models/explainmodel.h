#pragma once

#include "core/spikeexplain.h"

#include <QAbstractTableModel>

namespace bpflens {

// An explanation of a range (core/spikeexplain.h) as a table, most over-represented first:
// what (dimension and value), its share of the range's events and of the events outside, each
// with the counts behind it ("94.0% (870 of 925)"), and how many times more common it is inside.
class ExplainModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        DimensionColumn,
        KeyColumn,
        InsideColumn,
        OutsideColumn,
        LiftColumn,
        ColumnCount
    };
    enum Roles
    {
        // The cell as a number: the shares as fractions, the lift (infinity: never outside),
        // the dimension and key as text.
        ValueRole = Qt::UserRole + 1,
        CountRole,     // Inside and Outside: the events with the value (qint64)
        TotalRole,     // Inside and Outside: the events that could have had one (qint64)
        FilterableRole // bool: activating the row can filter the views to it
    };

    explicit ExplainModel(QObject *parent = nullptr);

    void setExplanation(Explanation x);
    void clear();
    const Explanation &explanation() const { return m_x; }
    // The row's events as the views' filter; nullopt when the filter cannot say them.
    std::optional<EventFilter> filterFor(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Translated: "Process", ..., "CPU function".
    static QString dimensionTitle(const std::optional<Dimension> &d);

private:
    Explanation m_x;
};

} // namespace bpflens
