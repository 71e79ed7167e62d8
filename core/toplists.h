#pragma once

#include "core/eventfilter.h"
#include "core/events.h"
#include "core/scansplit.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <limits>
#include <optional>

namespace bpflens {

class EventStore;

enum class TopMetric : quint8
{
    Count,
    Latency, // total latency
    P99,     // 99th percentile of the latency
    Bytes,
};

struct TopQuery
{
    Dimension dimension = Dimension::Process;
    TopMetric metric = TopMetric::Count;
    quint64 startNs = 0; // [startNs, endNs)
    quint64 endNs = std::numeric_limits<quint64>::max();
    EventFilter filter;
    std::optional<EventType> type; // only this type's events; all types when unset
    int limit = 10;                // 0: every row
};

// One key of a top list: the events of the range that pass the filter and have that key.
struct TopRow
{
    QString key;     // "1234 dd", "dd", "/etc/passwd", "vda", "1.2.3.4:80", "ENOENT"
    qint64 pid = -1; // Process rows
    QByteArray comm; // Process and Command rows
    qint64 count = 0;
    qint64 latencyCount = 0;    // events of types with a latency
    quint64 totalLatencyNs = 0; // their sum
    quint64 p99LatencyNs = 0;   // their 99th percentile (nearest rank)
    qint64 bytesCount = 0;      // events of types with bytes
    quint64 bytes = 0;
    // The types (typeBit()) whose latencies, and whose bytes, are in the sums above. More than
    // one bit: the sum adds unlike quantities (block I/O time and off-CPU time, disk bytes and
    // network bytes), which a view must not show as one number (docs/top.md).
    quint64 latencyTypes = 0;
    quint64 bytesTypes = 0;
    // What selects exactly this row's events in the GUI's filter (every dimension's rows can).
    std::optional<EventFilter> filter;
};

struct TopList
{
    QList<TopRow> rows;       // by the metric, largest first; ties by key
    qint64 keys = 0;          // rows before the limit
    qint64 events = 0;        // events counted (in the range, passing the filter, having a key)
    quint64 latencyTypes = 0; // the union of the rows' (before the limit)
    quint64 bytesTypes = 0;
};

constexpr quint64 typeBit(EventType t)
{
    return quint64(1) << quint8(t);
}
// Whether a mask of typeBit()s holds more than one type: its sums are of unlike quantities.
constexpr bool mixesTypes(quint64 types)
{
    return (types & (types - 1)) != 0;
}

// Latency statistics of one probe and key: block per disk and operation, fsslower per
// operation, other types with a latency as a whole. Percentiles by nearest rank over the exact
// latencies (docs/top.md).
struct LatencyStats
{
    EventType type = EventType::Exec;
    QString key; // "vda Sync-Write", "R", "" for the whole type
    qint64 count = 0;
    quint64 minNs = 0;
    double meanNs = 0;
    quint64 p50Ns = 0;
    quint64 p90Ns = 0;
    quint64 p99Ns = 0;
    quint64 p999Ns = 0;
    quint64 maxNs = 0;
    qsizetype maxIndex = -1; // the slowest event (its index in the type); the first of equals
};

// The dimension's name as the CLI spells it ("process", "destination") and back.
QString dimensionName(Dimension d);
std::optional<Dimension> dimensionFromName(const QString &name);
QString metricName(TopMetric m);
std::optional<TopMetric> metricFromName(const QString &name);
// Whether any type declares the dimension (Process and Command: every type).
bool typeHasDimension(EventType type, Dimension d);

// The value at rank ceil(fraction * n) of sorted values (nearest rank); 0 for none. Reorders
// values.
quint64 nearestRank(std::vector<quint64> &values, double fraction);

class CgroupTable;

// What a top list by cgroup groups by (docs/containers.md): the container, or the systemd unit,
// that the session's cgroups table gives each event's cgroup id.
enum class CgroupKey : quint8
{
    Container, // "docker 3f4e5a6b7c8d" (runtime and short id); "[host]" outside any container
    Unit,      // "nginx.service"; "[none]" for a cgroup in no unit
};
// "[unknown]": events whose cgroup the recording could not name (id 0, or not in the table).
inline constexpr const char *UnknownCgroupKey = "[unknown]";
// The name of event i's cgroup in a top list by key.
QString cgroupKeyText(const CgroupTable &cgroups, quint64 cgroupId, CgroupKey key);
// The top list of query by container or unit instead of query.dimension; rows have no filter.
TopList topListByCgroup(const EventStore &store, const CgroupTable &cgroups, CgroupKey key,
                        const TopQuery &query);

// cancel, when set and true, stops the scan: the result is then incomplete and to be dropped.
// split: how the scan is spread over threads (the result does not depend on it).
TopList topList(const EventStore &store, const TopQuery &query,
                const std::atomic_bool *cancel = nullptr, const ScanSplit &split = {});

// One row per type and key with events in [startNs, endNs) that pass the filter, in
// core/events.h order then by key; only types with a latency.
QList<LatencyStats> latencyStats(const EventStore &store, quint64 startNs, quint64 endNs,
                                 const EventFilter &filter, std::optional<EventType> type = {},
                                 const std::atomic_bool *cancel = nullptr,
                                 const ScanSplit &split = {});

} // namespace bpflens
