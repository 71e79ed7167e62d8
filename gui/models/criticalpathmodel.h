#pragma once

#include "core/criticalpath.h"

#include <QAbstractTableModel>

namespace bpflens {

// A critical path's steps (criticalPath()) as a table, in time order: start, duration, thread
// (indented by its depth, the wakeups away from the thread asked for), state, reason, CPU, and
// for a wait the path did not follow, who ended it.
class CriticalPathModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        StartColumn,
        DurationColumn,
        ThreadColumn,
        StateColumn,
        ReasonColumn,
        CpuColumn,
        DepthColumn,
        WakerColumn,
        ColumnCount
    };
    Q_ENUM(Columns)
    enum Roles
    {
        SpanRole = Qt::UserRole + 1, // qsizetype ThreadStateEvent index, -1 for "not recorded"
        TidRole,                     // quint32
        StartNsRole,                 // quint64
        EndNsRole,                   // quint64
        DurationNsRole,              // quint64
        StateRole,                   // quint8 ThreadStateEvent::State, 0 unknown
        DepthRole,                   // int
    };
    Q_ENUM(Roles)

    explicit CriticalPathModel(QObject *parent = nullptr);

    // Times are shown in seconds since originNs (the session start).
    void setPath(const CriticalPath &path, quint64 originNs);
    void clear();
    const CriticalPath &path() const { return m_path; }
    const CriticalPathStep &step(int row) const { return m_path.steps.at(row); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString stateText(quint8 state);
    static QString reasonText(quint8 reason);
    static QString threadText(quint32 tid, const QByteArray &comm);

private:
    CriticalPath m_path;
    quint64 m_origin = 0;
};

// criticalPathShares() as a table: the time on the path per thread and state, longest first,
// with its share of the path's length.
class CriticalPathSharesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        ThreadColumn,
        // The numbers before the state: a long state (German, with its reason) is cut last.
        TimeColumn,
        ShareColumn,
        StateColumn,
        ColumnCount
    };
    Q_ENUM(Columns)
    enum Roles
    {
        TidRole = Qt::UserRole + 1, // quint32
        NsRole,                     // quint64
        FractionRole,               // double, 0..1 of the path
    };
    Q_ENUM(Roles)

    explicit CriticalPathSharesModel(QObject *parent = nullptr);
    void setPath(const CriticalPath &path);
    void clear();
    const QList<CriticalPathShare> &shares() const { return m_shares; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<CriticalPathShare> m_shares;
    quint64 m_totalNs = 0;
};

} // namespace bpflens
