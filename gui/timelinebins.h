#pragma once

#include "viewstate.h"

#include <vector>

namespace bpflens {

class EventFilterModel;
class SessionModel;

// What one lane of the timeline draws for a time range at a given width. The cost follows
// the pixels, not the events: per pixel column the count is the difference of two binary
// searches, and only sparse ranges (a few events per pixel) visit events one by one.
struct LaneBins
{
    enum Category : quint8
    {
        Read,
        Write,
        Other,
        CategoryCount
    };
    struct Span
    {
        double x0 = 0, x1 = 0; // pixel columns, may reach outside [0, width)
        qsizetype index = -1;  // store index
        Category category = Other;
        int row = 0; // sub-row, so overlapping block requests stay visible
    };

    EventType type = EventType::Exec;
    int width = 0;
    bool dense = false;
    qsizetype total = 0;                     // accepted events in the range (by event time)
    std::vector<quint32> counts;             // per column
    std::vector<float> share[CategoryCount]; // dense block lanes: estimated share per column
    std::vector<Span> spans;                 // sparse: one entry per event (ticks have x0 == x1)
    int rows = 1;
    quint32 maxCount = 0;
};

class TimelineBinner
{
public:
    // Sparse drawing below this many events per pixel column on average.
    static constexpr double SparseEventsPerColumn = 2.0;
    static constexpr int MaxSpanRows = 4;
    // Dense block lanes classify at most this many sampled events per column.
    static constexpr int SamplesPerColumn = 16;

    static LaneBins bin(const EventFilterModel &lane, const SessionModel &session, quint64 startNs,
                        quint64 endNs, int width);
    static LaneBins::Category categoryOf(const QByteArray &op);
};

} // namespace bpflens
