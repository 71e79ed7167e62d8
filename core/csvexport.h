#pragma once

#include "core/sessionstore.h"

#include <QStringList>

#include <optional>

namespace bpflens {

struct CsvExportOptions
{
    // Only what lies in [startNs, endNs) (CLOCK_MONOTONIC, like event times), e.g. the time
    // range visible in the GUI. Histograms, stats and counters are selected by their timeNs.
    quint64 startNs = 0;
    quint64 endNs = ~quint64(0);
    // Only this probe: its histograms, stats and counters, and the events of the type it
    // produces (probeIdFor()). Empty: all probes.
    QString probeId;
    // Only this event type's file (no histograms.csv, stats.csv or counters.csv).
    std::optional<EventType> eventType;
};

// Writes a session as RFC 4180 CSV files into a directory (docs/csv.md): one file per event
// type the session holds (exec.csv, open.csv, block.csv, tcpconnect.csv, fsslower.csv,
// tppair.csv, profile.csv, offcpu.csv), stacks.csv and stack_frames.csv when the session has
// stacks (the samples' stack ids join with them), plus histograms.csv, stats.csv and
// counters.csv. Each file is written to a temporary name and renamed
// when complete, so a failed export never leaves a half-written file behind.
class CsvExport
{
public:
    // Returns the absolute paths written; on failure an empty list and *error says why.
    static QStringList exportSession(const SessionData &session, const QString &directory,
                                     const CsvExportOptions &options, QString *error);

    static QString fileNameFor(EventType type); // "open.csv"
    static QString probeIdFor(EventType type);  // "open"

    // The reversible text form of kernel bytes: valid UTF-8 as is, "\\" for a backslash and
    // "\xNN" (upper-case hex) for every byte that is not part of valid UTF-8.
    static QByteArray escapeBytes(const QByteArray &bytes);
    static QByteArray unescapeBytes(const QByteArray &text);
    // RFC 4180 field: quoted when it holds a comma, quote, CR or LF; quotes doubled.
    static QByteArray quoteField(const QByteArray &utf8);
};

} // namespace bpflens
