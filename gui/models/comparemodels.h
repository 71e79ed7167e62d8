#pragma once

#include "core/sessiondiff.h"
#include "gui/models/profilemodels.h"

#include <QAbstractItemModel>
#include <QAbstractTableModel>

#include <memory>
#include <vector>

namespace bpflens {

// The models of File > Compare With… (docs/diff.md): the numbers are core/sessiondiff's, the
// models only lay them out for the views.

// The percentiles p50, p90 and p99 of every histogram both sessions hold: baseline (A),
// comparison (B), the absolute and the relative change, in A's unit (as bpflens-cli diff).
class PercentileDiffModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        HistogramColumn,
        PercentileColumn,
        BaselineColumn,
        ComparisonColumn,
        ChangeColumn,
        RelativeColumn,
        ColumnCount
    };
    Q_ENUM(Columns)
    enum Roles
    {
        ValueRole = Qt::UserRole + 1, // double: the cell's number (NaN where a side is empty)
        HistogramRole,                // int: index into SessionDiff::histograms
        FractionRole,                 // double: 0.5, 0.9 or 0.99
    };
    Q_ENUM(Roles)
    static constexpr double Fractions[] = {0.5, 0.9, 0.99};

    explicit PercentileDiffModel(QObject *parent = nullptr);
    void setDiff(std::shared_ptr<const SessionDiff> diff);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "block — vda"
    static QString histogramName(const SessionDiff::Histogram &h);
    // "+11 (+9.2%)"-style parts: "+11", "+9.2%", "new" (from 0), "–" (NaN).
    static QString signedNumber(double value);
    static QString relativeText(double a, double b);

private:
    std::shared_ptr<const SessionDiff> m_diff;
};

// Events per type, baseline and comparison with the change; below each type the keys of one
// top-list dimension (setDimension) with the most events in either session
// (SessionDiff::Events::dimensions), side by side. A type without that dimension has no rows
// below it.
class EventDiffModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Columns
    {
        NameColumn, // the event type, or the key below it
        BaselineColumn,
        ComparisonColumn,
        ChangeColumn,
        RelativeColumn,
        ColumnCount
    };
    Q_ENUM(Columns)
    enum Roles
    {
        ValueRole = Qt::UserRole + 1, // qint64 count / change, double relative; name as text
        EventTypeRole,                // int EventType of the row (and of its keys)
    };
    Q_ENUM(Roles)

    explicit EventDiffModel(QObject *parent = nullptr);
    void setDiff(std::shared_ptr<const SessionDiff> diff);
    // The dimension whose keys are below each type (Command at first).
    void setDimension(Dimension dimension);
    Dimension dimension() const { return m_dimension; }
    // The dimensions some type of the diff has, in Dimension order.
    QList<Dimension> dimensions() const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    const SessionDiff::Keys *keysOf(int typeRow) const;

    std::shared_ptr<const SessionDiff> m_diff;
    Dimension m_dimension = Dimension::Command;
};

// What a differential flame graph needs per node of the comparison's top-down tree: the
// baseline's share of the same call path (matched by frame names from the root, since the two
// sessions number their frames differently) and the comparison's. Shares are fractions of each
// profile's total, so sessions of different length compare. Paths only the baseline has are
// not in the comparison's tree: they shrank to nothing and are counted in vanishedTotal.
struct DifferentialProfile
{
    enum class Measure : quint8
    {
        Total, // the path's share with its callees (inclusive)
        Self,  // the samples taken in the frame itself
    };
    struct NodeShares
    {
        double selfA = 0, selfB = 0, totalA = 0, totalB = 0;
        // The same as samples (off-CPU: nanoseconds blocked), what the tool tip shows beside
        // the shares.
        quint64 selfValueA = 0, selfValueB = 0, totalValueA = 0, totalValueB = 0;
        bool inA = false; // the call path exists in the baseline
    };
    std::shared_ptr<const Profile> comparison;
    std::vector<NodeShares> nodes; // per node of comparison->topDown
    double maxTotalDelta = 0;      // the largest |totalB - totalA| over the nodes
    double maxSelfDelta = 0;       // the same of self
    double vanishedTotal = 0;      // baseline share of the paths missing in the comparison
    quint64 baselineTotal = 0;     // the baseline profile's samples (off-CPU: nanoseconds)

    bool isEmpty() const { return !comparison || comparison->isEmpty(); }
    double delta(qint32 node, Measure m) const
    {
        const NodeShares &s = nodes[size_t(node)];
        return m == Measure::Total ? s.totalB - s.totalA : s.selfB - s.selfA;
    }
    double maxDelta(Measure m) const { return m == Measure::Total ? maxTotalDelta : maxSelfDelta; }
};

// baseline's and comparison's profiles with the stack tables their frame ids refer to.
DifferentialProfile differentialProfile(const Profile &baseline, const StackTable &baselineStacks,
                                        std::shared_ptr<const Profile> comparison,
                                        const StackTable &comparisonStacks);

} // namespace bpflens
