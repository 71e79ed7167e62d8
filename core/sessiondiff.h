#pragma once

#include "core/events.h"
#include "core/histogram.h"

#include <QList>
#include <QString>

namespace bpflens {

struct SessionData;

// What changed from session A to session B (bpflens-cli diff, docs/diff.md): the histograms
// both hold, merged over each whole session, with their percentiles; event counts per type; per
// type and top-list dimension (core/toplists.h) the keys with the most events in either
// session; and for the on-CPU and off-CPU profiles and the bytes in use (memleak) both hold,
// the functions whose share of the profile changed most. A diff of a session with itself has
// no change anywhere.
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
    // One top-list row in both sessions, matched by its key's text (TopRow::key: "1234 dd",
    // "/etc/passwd", "10.0.0.1:443"); 0 where a session has no such event.
    struct Key
    {
        QString key;
        qint64 a = 0;
        qint64 b = 0;
    };
    // A type's events by one dimension: the keys busiest first (by the larger of the two
    // counts, then by key), cut to diffSessions' top.
    struct Keys
    {
        Dimension dimension = Dimension::Command;
        QList<Key> keys;
        qint64 total = 0; // distinct keys in either session, before the cut
    };
    struct Events
    {
        EventType type = EventType(0);
        qint64 a = 0;
        qint64 b = 0;
        // Every dimension the type has (typeHasDimension), in Dimension order; one without a
        // key in either session (no failed open) has no keys.
        QList<Keys> dimensions;
        const Keys *by(Dimension d) const;
    };

    // What a profile weighs: samples, nanoseconds off the CPU, or the bytes of the blocks still
    // in use at the session's end (core/allocations.h; sampled events by their weight).
    enum ProfileKind : quint8
    {
        OnCpu,
        OffCpu,
        InuseBytes,
    };
    // One function of a profile in both sessions. Functions are matched by name and module: the
    // two sessions number their frames differently. Self: samples (off-CPU: nanoseconds
    // blocked; bytes in use: bytes) taken in the function itself; total: with its callees, once
    // per sample however deep it recurses.
    struct Function
    {
        QString name;
        QString module; // file name ("libc.so.6"), "[vmlinux]" for the kernel, "" unknown
        quint64 selfA = 0, selfB = 0, totalA = 0, totalB = 0;
    };
    struct Profile
    {
        ProfileKind kind = OnCpu;
        bool offCpu = false; // kind OffCpu: weights are nanoseconds off the CPU, not samples
        qsizetype eventsA = 0, eventsB = 0;
        quint64 totalA = 0, totalB = 0; // the profile's weight, samples without a stack too
        // Functions whose share or weight changed, the largest change of share (self or
        // total, whichever moved more) first.
        QList<Function> functions;
        double shareA(quint64 v) const { return totalA ? double(v) / double(totalA) : 0.0; }
        double shareB(quint64 v) const { return totalB ? double(v) / double(totalB) : 0.0; }
        // The larger of |self share change| and |total share change|: the ranking key.
        double change(const Function &f) const;
    };

    QList<Histogram> histograms; // in both; by probe, then key
    QStringList onlyInA;         // "block/vda": histograms one side lacks
    QStringList onlyInB;
    QStringList unitMismatch;   // in both, in units that cannot be compared (Kbytes vs usecs)
    QList<Events> events;       // types with events in either session, in core/events.h order
    QList<Profile> profiles;    // on-CPU, off-CPU, bytes in use: those both sessions have weight in
    QStringList profileOnlyInA; // "on-CPU", "off-CPU", "bytes in use": profiles one side lacks
    QStringList profileOnlyInB;
};

// top: how many keys per type and dimension and functions per profile (0: all).
SessionDiff diffSessions(const SessionData &a, const SessionData &b, int top = 10);

// B relative to A: (b - a) / a; +inf when a is 0 and b is not, 0 when both are 0.
double relativeChange(double a, double b);

} // namespace bpflens
