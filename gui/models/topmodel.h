#pragma once

#include "core/toplists.h"
#include "gui/models/viewstate.h"

#include <QAbstractTableModel>

namespace bpflens {

// A top list (core/toplists.h) as a table: the key, then count, total latency, p99 latency and
// bytes, numbers in the user's locale with units; "–" where no event of the row has a latency
// or bytes.
class TopModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        KeyColumn,
        CountColumn,
        LatencyColumn,
        P99Column,
        BytesColumn,
        ColumnCount
    };
    enum Roles
    {
        ValueRole = Qt::UserRole + 1, // the cell as a number (count, ns, bytes), the key as text
        FilterableRole,               // bool: activating the row can filter the views to it
    };

    explicit TopModel(QObject *parent = nullptr);

    void setList(TopList list, Dimension dimension);
    void clear();
    const TopList &list() const { return m_list; }
    Dimension dimension() const { return m_dimension; }
    // The row's events as the views' filter; nullopt when the filter cannot say them.
    std::optional<EventFilter> filterFor(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString dimensionTitle(Dimension d); // translated, "Process"
    static QString metricTitle(TopMetric m);    // translated, "Total latency"

private:
    TopList m_list;
    Dimension m_dimension = Dimension::Process;
};

// Latency statistics per probe and key (core/toplists.h): count, min, mean, p50, p90, p99,
// p99.9 and max; maxEvent() is the slowest event of a row, for "Go to max".
class LatencyStatsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        ProbeColumn,
        KeyColumn,
        CountColumn,
        MinColumn,
        MeanColumn,
        P50Column,
        P90Column,
        P99Column,
        P999Column,
        MaxColumn,
        ColumnCount
    };
    enum Roles
    {
        ValueRole = Qt::UserRole + 1, // the cell as a number (count, ns), texts as text
    };

    explicit LatencyStatsModel(QObject *parent = nullptr);

    void setStats(QList<LatencyStats> stats);
    void clear();
    const QList<LatencyStats> &stats() const { return m_stats; }
    EventRef maxEvent(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<LatencyStats> m_stats;
};

} // namespace bpflens
