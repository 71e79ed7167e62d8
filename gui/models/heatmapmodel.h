#pragma once

#include "core/histogram.h"
#include "gui/models/viewstate.h"

#include <QList>
#include <QString>

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

namespace bpflens {

class SessionModel;

// What a latency heatmap can show: the events of a type with a latency (eventschema.h's
// latencyFields: block, fsslower, tppair, uprobe, offcpu, ...), or the interval snapshots of
// one histogram with a time unit (runqlat, iostack's op/layer, the histograms of block).
struct HeatmapSource
{
    enum Kind : quint8
    {
        Events,
        Snapshots,
    };
    Kind kind = Events;
    EventType type = EventType::Block; // Events
    QString probeId;                   // Snapshots
    QString key;                       // Snapshots
    bool operator==(const HeatmapSource &) const = default;
};

// Counts per time column and log2 latency bucket for one source over [startNs, endNs): the
// heatmap's cells. Immutable once built; a view keeps the bins of its range and width, and
// paints them from an image, so a redraw never touches events.
struct HeatmapBins
{
    static constexpr int Slots = Log2Histogram::MaxSlots;

    HeatmapSource source;
    quint64 startNs = 0;
    quint64 endNs = 1;
    int columns = 0;
    // Rows are Log2Histogram slots in this unit: nanoseconds for events, the histogram's unit
    // for snapshots (slot n holds [2^n, 2^(n+1)) of it; slot 0 holds 0 and 1).
    HistogramUnit unit = HistogramUnit::Nanoseconds;
    std::vector<quint32> counts; // columns * Slots, column-major
    quint64 total = 0;
    quint32 maxCount = 0;
    int minSlot = 0; // the non-empty rows are [minSlot, maxSlot]; maxSlot < minSlot: none
    int maxSlot = -1;

    bool isEmpty() const { return total == 0; }
    quint32 count(int column, int slot) const
    {
        return counts[size_t(column) * Slots + size_t(slot)];
    }
    // Column c covers [columnStartNs(c), columnStartNs(c + 1)); columnStartNs(columns) is endNs.
    quint64 columnStartNs(int column) const;
    // The column holding time t in [startNs, endNs).
    int columnOf(quint64 timeNs) const;
    // A slot's latency window in ns, [low, high) (high 0: unbounded), as EventFilter takes it.
    quint64 slotLowNs(int slot) const;
    quint64 slotEndNs(int slot) const;
    // The range [first, second) that holds exactly the events or snapshots of columns
    // [c0, c1]: their time span for events; one nanosecond later for snapshots, which sit in
    // the column of their interval's last nanosecond.
    std::pair<quint64, quint64> selectionRange(int c0, int c1) const;
    // The cells [c0, c1] x [s0, s1] as one histogram (in unit), what a selection shows.
    Log2Histogram histogram(int c0, int c1, int s0, int s1) const;
};

// Latency bucket counts of an event type per stride of StrideEvents events in store order, so a
// heatmap column wider than a stride adds the stride's 64 counts instead of reading its events:
// the full-range rebuild of a 10M-event map costs about per column, not per event. Immutable
// once built; extended (copied) as complete strides are appended in time order. Valid while the
// type's events before strides() * StrideEvents keep their indices: an out-of-order append or a
// reset ends it.
struct HeatmapStrides
{
    static constexpr qsizetype StrideEvents = 512;
    static constexpr int Slots = Log2Histogram::MaxSlots;

    EventType type = EventType::Block;
    std::vector<quint32> counts; // strides() * Slots, stride-major
    std::vector<quint64> lastNs; // the time of each stride's last event
    qsizetype strides() const { return qsizetype(lastNs.size()); }
};

class HeatmapModel
{
public:
    // Every source the session can show, events first (in SessionModel::eventTypes() order),
    // then histograms by probe and key.
    static QList<HeatmapSource> sources(const SessionModel &session);
    // "Block I/O", "runqlat", "iostack — read/vfs".
    static QString sourceName(const HeatmapSource &source);

    // Events: the events of the source's type in [startNs, endNs) that pass filter's text, pid
    // and command (not its latency window: the heatmap shows every bucket, the window is what a
    // selected cell puts there), binned by event time into `columns` equal columns.
    // Snapshots: every snapshot whose end time lies in [startNs, endNs) (as the Histograms tab
    // merges them) in the column of its interval's last nanosecond; columns at least one
    // interval wide (fewer than requested when the range holds fewer intervals).
    // A set *cancel stops the binning early (the bins are then incomplete and to be dropped).
    // With strides of the source's type (and no filter but the latency window, which the map
    // ignores), whole strides inside a column are added from them; the bins are the same.
    static HeatmapBins build(const SessionModel &session, const HeatmapSource &source,
                             const EventFilter &filter, quint64 startNs, quint64 endNs, int columns,
                             const std::atomic_bool *cancel = nullptr,
                             const HeatmapStrides *strides = nullptr);
    // Whether build() reads strides under this filter: only when it accepts every event.
    static bool usesStrides(const HeatmapSource &source, const EventFilter &filter);
    // The strides of every complete stride of type's events: base's (of the same type, whose
    // events must still be where they were) and the ones after them. Null when cancelled.
    static std::shared_ptr<const HeatmapStrides>
    buildStrides(const SessionModel &session, EventType type,
                 std::shared_ptr<const HeatmapStrides> base = nullptr,
                 const std::atomic_bool *cancel = nullptr);
    // The events of an event source in [startNs, endNs), before any filter: what a build
    // walks, found by binary search. 0 for snapshot sources.
    static qsizetype eventsInRange(const SessionModel &session, const HeatmapSource &source,
                                   quint64 startNs, quint64 endNs);
};

} // namespace bpflens
