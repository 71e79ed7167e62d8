#pragma once

#include "core/records.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

namespace bpflens {

// What `bpflens-cli serve` exposes on /metrics (docs/prometheus.md): the records a recording
// delivers (per-interval histogram snapshots and counters, cumulative probe stats) summed into
// running totals, and rendered as the OpenMetrics or the Prometheus text exposition.
class MetricsAggregator
{
public:
    enum class Format
    {
        OpenMetrics, // application/openmetrics-text; version=1.0.0
        Prometheus,  // text/plain; version=0.0.4
    };

    static constexpr int DefaultMaxSeries = 500;
    // The series of the per-container and per-unit event counts (docs/containers.md): a
    // machine runs many more cgroups than a dashboard can show.
    static constexpr int DefaultMaxWorkloads = 50;

    // maxSeries bounds the label sets of each metric family: keys past it are added to one
    // series whose labels all read "other", so a busy host cannot grow the exposition unbounded.
    // maxWorkloads bounds bpflens_workload_events and bpflens_oom_kills likewise: the first
    // container and unit label sets seen keep their series (a counter never moves to another),
    // the rest count as "other".
    explicit MetricsAggregator(int maxSeries = DefaultMaxSeries,
                               int maxWorkloads = DefaultMaxWorkloads);

    // The probes as they run (normalised options): which labels a histogram key splits into
    // depends on them (block's perDisk and perFlags, runqlat's perProcess, ...).
    void setProbes(const QList<ProbeConfig> &probes);
    void add(const RecordBatch &batch);

    QByteArray render(Format format) const;

    // OpenMetrics when the Accept header names it, as Prometheus does; the 0.0.4 text otherwise.
    static Format negotiate(QByteArrayView accept);
    static QByteArray contentType(Format format);

    // The labels a histogram key of this probe splits into ("disk", "flags"; "comm", "disk",
    // "op"; ...), empty for a single unkeyed histogram.
    static QStringList histogramLabels(const ProbeConfig &probe);
    // A key split into values for those labels; comm may hold '/', so it takes what is left.
    static QStringList splitKey(const QString &key, const QStringList &labels);
    // The inclusive upper bound of a log2 slot in seconds (time units) or bytes (Kbytes) or the
    // value itself: values are bucketed after an integer division by the unit, so slot n of a
    // µs histogram holds everything below 2^(n+1) µs.
    static double bucketUpperBound(HistogramUnit unit, int slot);
    static QString baseUnit(HistogramUnit unit); // "seconds", "bytes", "" for Value

    qint64 overflowedKeys() const { return m_overflowed; }

private:
    struct Series
    {
        QStringList labelValues;
        Log2Histogram histogram;
        double value = 0;
    };
    struct Family
    {
        QString name; // without _total for counters
        QString type; // "histogram", "counter", "gauge"
        QString unit; // OpenMetrics UNIT, a suffix of name
        QString help;
        QStringList labels;
        HistogramUnit histogramUnit = HistogramUnit::Nanoseconds;
        int highestSlot = -1;      // every slot up to it is exposed, so buckets never disappear
        QHash<QString, int> index; // series key (label values joined by \x1f) -> m_series index
        QList<Series> series;
        bool capped = false;
        int maxSeries = 0; // 0: the aggregator's
        // Leading labels the "other" series keep past the cap: ones of a few values only, too
        // telling to lose (bpflens_oom_kills' constraint).
        int keptPastCap = 0;
    };

    Family &family(const QString &name, const QString &type, const QString &unit,
                   const QString &help, const QStringList &labels);
    // The series for these label values, or the family's "other" one past the cap.
    Series &series(Family &f, const QStringList &labelValues);
    void addCounter(const CounterSample &c);
    void addWorkloadEvents(const RecordBatch &batch);
    void addOomKills(const RecordBatch &batch);
    // The container and unit label values of a cgroup, from m_cgroups.
    QStringList workloadLabelValues(quint64 cgroupId) const;

    int m_maxSeries;
    int m_maxWorkloads;
    CgroupTable m_cgroups;                         // every cgroup the recording named so far
    QHash<QString, QStringList> m_histogramLabels; // probe id -> labels of its keys
    QMap<QString, Family> m_families;              // by name: rendered in name order
    qint64 m_overflowed = 0;
};

} // namespace bpflens
