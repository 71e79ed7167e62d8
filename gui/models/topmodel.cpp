#include "gui/models/topmodel.h"

#include "core/units.h"
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"

#include <QLocale>

namespace bpflens {

TopModel::TopModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void TopModel::setList(TopList list, Dimension dimension)
{
    beginResetModel();
    m_list = std::move(list);
    m_dimension = dimension;
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, KeyColumn, ColumnCount - 1);
}

void TopModel::clear()
{
    setList({}, m_dimension);
}

std::optional<EventFilter> TopModel::filterFor(int row) const
{
    if (row < 0 || row >= m_list.rows.size() || !m_list.rows[row].filter)
        return std::nullopt;
    const EventFilter &t = *m_list.rows[row].filter;
    EventFilter f;
    f.text = t.text;
    f.pid = t.pid;
    f.comm = t.comm;
    f.minLatencyNs = t.minLatencyNs;
    f.destination = t.destination;
    f.error = t.error;
    f.file = t.file;
    f.disk = t.disk;
    f.operation = t.operation;
    return f;
}

int TopModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_list.rows.size());
}

int TopModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TopModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TopRow &r = m_list.rows[index.row()];
    if (role == FilterableRole)
        return r.filter.has_value();
    if (role == ValueRole) {
        switch (index.column()) {
        case KeyColumn:
            return r.key;
        case CountColumn:
            return r.count;
        case LatencyColumn:
            return r.totalLatencyNs;
        case P99Column:
            return r.p99LatencyNs;
        case BytesColumn:
            return r.bytes;
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole)
        return index.column() == KeyColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                           : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && index.column() == KeyColumn)
        return r.filter ? tr("Activate to filter every view to %1").arg(r.key)
                        : tr("The filter bar cannot select by %1")
                              .arg(dimensionTitle(m_dimension).toLower());
    if (role != Qt::DisplayRole)
        return {};
    const QLocale locale;
    switch (index.column()) {
    case KeyColumn:
        return r.key;
    case CountColumn:
        return locale.toString(r.count);
    // A sum over unlike quantities is no number at all (a view hides such columns).
    case LatencyColumn:
        return r.latencyCount && !mixesTypes(r.latencyTypes)
                   ? EventTableModel::formatDuration(r.totalLatencyNs)
                   : noValue();
    case P99Column:
        return r.latencyCount && !mixesTypes(r.latencyTypes)
                   ? EventTableModel::formatDuration(r.p99LatencyNs)
                   : noValue();
    case BytesColumn:
        return r.bytesCount && !mixesTypes(r.bytesTypes) ? formatByteSize(r.bytes, locale)
                                                         : noValue();
    }
    return {};
}

QVariant TopModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    // The one probe a column's sums are of, named: "Total latency" of off-CPU events is time
    // off the CPU, of block requests time on the disk.
    auto of = [](const QString &title, quint64 types) {
        for (EventType t : SessionModel::eventTypes()) {
            if (types == typeBit(t))
                return tr("%1 (%2)").arg(title, SessionModel::typeName(t));
        }
        return title;
    };
    switch (section) {
    case KeyColumn:
        return dimensionTitle(m_dimension);
    case CountColumn:
        return metricTitle(TopMetric::Count);
    case LatencyColumn:
        return of(metricTitle(TopMetric::Latency), m_list.latencyTypes);
    case P99Column:
        return of(metricTitle(TopMetric::P99), m_list.latencyTypes);
    case BytesColumn:
        return of(metricTitle(TopMetric::Bytes), m_list.bytesTypes);
    }
    return {};
}

QString TopModel::dimensionTitle(Dimension d)
{
    switch (d) {
    case Dimension::Process:
        return tr("Process");
    case Dimension::Command:
        return tr("Command");
    case Dimension::File:
        return tr("File");
    case Dimension::Disk:
        return tr("Disk");
    case Dimension::Destination:
        return tr("Destination");
    case Dimension::Operation:
        return tr("Operation");
    case Dimension::Error:
        return tr("Error");
    }
    return {};
}

QString TopModel::metricTitle(TopMetric m)
{
    switch (m) {
    case TopMetric::Count:
        return tr("Events");
    case TopMetric::Latency:
        return tr("Total latency");
    case TopMetric::P99:
        return tr("p99 latency");
    case TopMetric::Bytes:
        return tr("Bytes");
    }
    return {};
}

// ---------------------------------------------------------------------------------------------

LatencyStatsModel::LatencyStatsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void LatencyStatsModel::setStats(QList<LatencyStats> stats)
{
    beginResetModel();
    m_stats = std::move(stats);
    endResetModel();
}

void LatencyStatsModel::clear()
{
    setStats({});
}

EventRef LatencyStatsModel::maxEvent(int row) const
{
    if (row < 0 || row >= m_stats.size())
        return {};
    return {m_stats[row].type, m_stats[row].maxIndex};
}

int LatencyStatsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_stats.size());
}

int LatencyStatsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LatencyStatsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LatencyStats &s = m_stats[index.row()];
    const quint64 ns[] = {s.minNs, quint64(s.meanNs + 0.5), s.p50Ns, s.p90Ns, s.p99Ns, s.p999Ns,
                          s.maxNs};
    if (role == Qt::TextAlignmentRole)
        return index.column() <= KeyColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                           : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != ValueRole)
        return {};
    const bool display = role == Qt::DisplayRole;
    switch (index.column()) {
    case ProbeColumn:
        return display ? SessionModel::typeName(s.type) : QString::fromLatin1(probeIdOf(s.type));
    case KeyColumn:
        return s.key.isEmpty() && display ? noValue() : s.key;
    case CountColumn:
        return display ? QVariant(QLocale().toString(s.count)) : QVariant(s.count);
    case MeanColumn:
        return display ? QVariant(EventTableModel::formatDuration(ns[1])) : QVariant(s.meanNs);
    default: {
        const quint64 v = ns[index.column() - MinColumn];
        return display ? QVariant(EventTableModel::formatDuration(v)) : QVariant(v);
    }
    }
}

QVariant LatencyStatsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ProbeColumn:
        return tr("Probe");
    case KeyColumn:
        return tr("Key");
    case CountColumn:
        return tr("Events");
    case MinColumn:
        return tr("Min");
    case MeanColumn:
        return tr("Mean");
    case P50Column:
        return tr("p50");
    case P90Column:
        return tr("p90");
    case P99Column:
        return tr("p99");
    case P999Column:
        return tr("p99.9");
    case MaxColumn:
        return tr("Max");
    }
    return {};
}

} // namespace bpflens
