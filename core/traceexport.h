#pragma once

#include "core/sessionstore.h"

#include <QIODevice>

namespace bpflens {

struct TraceExportOptions
{
    // Only events in [startNs, endNs) (CLOCK_MONOTONIC, by the event's recorded time);
    // counters by their time.
    quint64 startNs = 0;
    quint64 endNs = ~quint64(0);
    bool counters = true;
};

// A session in the Trace Event Format (the JSON object form) that Perfetto UI, chrome://tracing
// and speedscope open (docs/trace-export.md): events with a latency as complete slices ("X") on
// tracks of their thread and type in their process, the others as instant events ("i") on their
// thread's track, counters as counter tracks ("C"), process and thread names from comm ("M").
// Times are microseconds after the session start. Streamed in pieces: a session may hold tens of
// millions of events.
class TraceExport
{
public:
    static bool write(const SessionData &session, QIODevice *device,
                      const TraceExportOptions &options, QString *error);
    // Whole or not at all (QSaveFile).
    static bool exportSession(const SessionData &session, const QString &path,
                              const TraceExportOptions &options, QString *error);
};

} // namespace bpflens
