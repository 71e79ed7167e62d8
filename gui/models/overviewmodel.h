#pragma once

#include "core/overview.h"

#include <QAbstractTableModel>

namespace bpflens {

// The Overview's probes (core/overview.h): what each recorded in the visible range, its
// latency percentiles and what it lost. A histogram-only probe says "N samples in M
// intervals", never "0 events"; its percentiles are the log2 buckets they fall in.
class OverviewProbeModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        ProbeColumn,
        RecordedColumn,
        P50Column,
        P99Column,
        MaxColumn,
        LossesColumn,
        ColumnCount
    };
    enum Roles
    {
        ProbeIdRole = Qt::UserRole + 1, // QString
        KindRole,                       // int, ProbeOverview::Kind
        EventsRole,                     // qint64: Events probes' events in the range
        SamplesRole,                    // quint64: Histograms probes' samples in the range
        IntervalsRole,                  // qint64: their intervals
        LostRole,                       // quint64, over the whole recording
        UnseenRole,                     // quint64
        UnfinishedRole,                 // quint64
        RealLossRole,                   // bool: events were lost (a full buffer), not only unseen
    };

    explicit OverviewProbeModel(QObject *parent = nullptr);
    void setProbes(QList<ProbeOverview> probes);
    const QList<ProbeOverview> &probes() const { return m_probes; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // A log2 bucket as a range in its unit: "16–31 µs", "4–7 KiB".
    static QString bucketText(int slot, HistogramUnit unit);
    // What each cause of a missing event means (tooltips here, in the session details and in
    // the status bar).
    static QString lostExplanation();
    static QString unseenExplanation();
    static QString unfinishedExplanation();
    // "12 lost · 4 not seen · 1 unfinished"; "none" when nothing is missing.
    static QString lossText(quint64 lost, quint64 unseen, quint64 unfinished);

private:
    QList<ProbeOverview> m_probes;
};

// The Overview's memory (core/overview.h MemoryOverview, memleak): bytes in use at the range's
// end, the peak, the growth over the range, what it allocated, then the stacks holding the most
// with their blocks and the age of the oldest. Empty without allocations.
class OverviewMemoryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        WhatColumn,
        AmountColumn,
        ColumnCount
    };
    enum Roles
    {
        StackIdRole = Qt::UserRole + 1, // quint32 on a stack's row, invalid on the others
        BytesRole,                      // quint64 (the growth: qint64)
    };
    // The rows before the stacks.
    enum Row
    {
        InUseRow,
        PeakRow,
        GrowthRow,
        AllocatedRow,
        StackRows // the first stack's
    };

    explicit OverviewMemoryModel(QObject *parent = nullptr);
    // stacks names the stacks' allocating functions (it must outlive the model or be replaced
    // first); originNs: the session's start, for the peak's time.
    void setMemory(MemoryOverview memory, const StackTable *stacks, quint64 originNs);
    const MemoryOverview &memory() const { return m_memory; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    MemoryOverview m_memory;
    const StackTable *m_stacks = nullptr;
    quint64 m_origin = 0;
};

// One kind of cost (core/overview.h CostKind): the top processes by it, in its own unit.
class OverviewCostModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        ProcessColumn,
        ValueColumn,
        ShareColumn,
        ColumnCount
    };
    enum Roles
    {
        PidRole = Qt::UserRole + 1, // qint64
        CommRole,                   // QByteArray
        ValueRole,                  // quint64: the cost, a count or ns
        OwnRole,                    // bool: a BPF Lens process
    };

    explicit OverviewCostModel(CostKind kind, QObject *parent = nullptr);
    CostKind kind() const { return m_list.kind; }
    void setList(CostList list);
    const CostList &list() const { return m_list; }
    // The row's process as the views' filter (pid and command).
    EventFilter filterFor(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString kindTitle(CostKind kind); // translated, "Off-CPU time"
    static QString valueText(CostKind kind, quint64 value);

private:
    CostList m_list;
};

// What is worth a look (core/overview.h Finding), one per row, each with where it leads.
class OverviewFindingModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns
    {
        FindingColumn,
        LinkColumn, // what activating the row shows: "Explain the burst"
        ColumnCount
    };
    enum Roles
    {
        KindRole = Qt::UserRole + 1, // int, Finding::Kind
        EventTypeRole,               // int, EventType
        StartNsRole,                 // quint64, Spike
        EndNsRole,                   // quint64, Spike
        ErrorRole,                   // qint32, Errors: the negative errno
        SeverityRole,                // bool: a real problem of the data (lost events)
    };

    explicit OverviewFindingModel(QObject *parent = nullptr);
    // origin: the session's start, for the times of spikes.
    void setFindings(QList<Finding> findings, quint64 originNs);
    const QList<Finding> &findings() const { return m_findings; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    QString text(const Finding &f) const;
    static QString linkText(const Finding &f);

private:
    QList<Finding> m_findings;
    quint64 m_origin = 0;
};

} // namespace bpflens
