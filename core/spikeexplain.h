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
class StackTable;

// "Explain this spike" (docs/explain.md): what is over-represented in a time range against the
// rest of the recording.
struct ExplainQuery
{
    quint64 startNs = 0; // the range, [startNs, endNs); the rest of the recording is "outside"
    quint64 endNs = std::numeric_limits<quint64>::max();
    // Events that fail it are counted neither inside nor outside. A latency window (min/max)
    // keeps the types with a latency only: "the slow requests".
    EventFilter filter;
    std::optional<EventType> type; // only this type's events; all types when unset
    int limit = 20;                // rows over all dimensions; 0: every over-represented value
};

// The one rule for which values an explanation lists at all: at least MinimumSupportEvents of the
// range's events and at least MinimumSupportShare of those that could have had one (the range's
// events of the types with the dimension). Below that a value is noise however high it scores:
// a list of one-event keys explains nothing.
inline constexpr qint64 MinimumSupportEvents = 5;
inline constexpr double MinimumSupportShare = 0.01;
constexpr bool hasMinimumSupport(qint64 inside, qint64 insideTotal)
{
    return inside >= MinimumSupportEvents &&
           double(inside) >= MinimumSupportShare * double(insideTotal);
}

// One value of one dimension: how often it is among the events inside the range and outside.
struct ExplainRow
{
    // Unset: a CPU function (the leaf frame of profile samples' stacks).
    std::optional<Dimension> dimension;
    QString key;            // as in top lists: "1234 dd", "/var/tmp/x", "vda", "ENOENT"; a function
    qint64 pid = -1;        // Process rows
    QByteArray comm;        // Process and Command rows
    qint64 inside = 0;      // events in the range with this value
    qint64 insideTotal = 0; // events in the range of the types that have the dimension
    qint64 outside = 0;     // the same outside the range
    qint64 outsideTotal = 0; //
    double insideShare() const { return insideTotal ? double(inside) / double(insideTotal) : 0; }
    double outsideShare() const
    {
        return outsideTotal ? double(outside) / double(outsideTotal) : 0;
    }
    // The ranking (docs/explain.md): the lower bound of the inside share (Wilson score
    // interval, 95%) minus the outside share, so a value seen once among few events does not
    // outrank one that makes up a large part of many.
    double score() const { return insideLowerBound() - outsideShare(); }
    double insideLowerBound() const;
    // How many times more common inside than outside; infinity when never outside.
    double lift() const;
    // Whether enough of the range's events have the value for its share to mean something
    // (hasMinimumSupport()).
    bool isSupported() const { return hasMinimumSupport(inside, insideTotal); }
    // What selects this row's events in the views' filter; unset where the filter cannot say
    // them (functions).
    std::optional<EventFilter> filter;
};

struct Explanation
{
    QList<ExplainRow> rows;   // score > 0 and isSupported(), highest first
    qint64 insideEvents = 0;  // events in the range passing the filter
    qint64 outsideEvents = 0; // the same outside
};

// The ranking's function dimension's name ("function") where dimensionName() has none.
QString explainDimensionName(const std::optional<Dimension> &d);

// Ranks every value of every dimension (process, command, file, disk, destination, operation,
// error; with stacks, the leaf function of CPU samples) by how much larger its share of the
// range's events is than its share of the events outside; values without the minimum support
// (hasMinimumSupport()) are left out. cancel as in topList().
Explanation explainRange(const EventStore &store, const ExplainQuery &query,
                         const StackTable *stacks = nullptr,
                         const std::atomic_bool *cancel = nullptr, const ScanSplit &split = {});

} // namespace bpflens
