#pragma once

#include "events.h"
#include "histogram.h"

#include <QList>
#include <QString>

namespace bpflens {

struct SessionData;

// What changed from session A to session B (bpflens-cli diff, docs/diff.md): the histograms
// both hold, merged over each whole session, with their percentiles; event counts per type; and
// per type the commands with the most events in either session. A diff of a session with
// itself has no change anywhere.
struct SessionDiff
{
    struct Histogram
    {
        QString probeId;
        QString key;
        Log2Histogram a;
        Log2Histogram b;
        // The percentile of A and B in A's unit (B's converted where both are times); NaN when
        // that side has no samples.
        double percentileA(double fraction) const;
        double percentileB(double fraction) const;
    };
    struct Command
    {
        QString comm;
        qint64 a = 0;
        qint64 b = 0;
    };
    struct Events
    {
        EventType type = EventType(0);
        qint64 a = 0;
        qint64 b = 0;
        QList<Command> commands; // busiest first (by the larger of the two counts)
    };

    QList<Histogram> histograms; // in both; by probe, then key
    QStringList onlyInA;         // "block/vda": histograms one side lacks
    QStringList onlyInB;
    QStringList unitMismatch; // in both, in units that cannot be compared (Kbytes vs usecs)
    QList<Events> events;     // types with events in either session, in core/events.h order
};

// top: how many commands per type (0: all).
SessionDiff diffSessions(const SessionData &a, const SessionData &b, int top = 10);

// B relative to A: (b - a) / a; +inf when a is 0 and b is not, 0 when both are 0.
double relativeChange(double a, double b);

} // namespace bpflens
