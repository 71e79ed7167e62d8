#pragma once

#include "core/sessionstore.h"

#include <QIODevice>

#include <cmath>
#include <functional>

namespace bpflens {

// JSON text pieces shared by the JSON lines and the trace export (docs/jsonl.md). Values come
// from the event types' declarations (eventschema.h's Column), in the forms CSV writes them, so
// a script reading JSON sees the same numbers and texts as one reading the CSV files.
namespace json {

// s (valid UTF-8) as a JSON string literal: '"', '\\' and control characters escaped.
void appendString(QByteArray &out, const QByteArray &utf8);
// Nanoseconds as microseconds with three decimals ("-1.005"), the trace format's unit.
void appendMicros(QByteArray &out, qint64 ns);
// A double as JSON: integers below 2^53 as integers, others in the shortest form that reads
// back the same; NaN and infinities (which JSON cannot hold) as null.
void appendDouble(QByteArray &out, double v);

// One declared column's value as JSON, by its Format: numbers as numbers, kernel bytes as their
// escaped text (CsvExport::escapeBytes: always valid UTF-8), argv as CSV's shell-quoted line,
// yes/no as 0 or 1, a time as signed nanoseconds after sessionStartNs.
void appendValue(QByteArray &out, Format format, const QVariant &value, quint64 sessionStartNs);

// Writes path whole or not at all (QSaveFile): write(device) fills it; false with *error
// naming the file when it cannot be written.
bool saveFile(const QString &path, QString *error, const std::function<bool(QIODevice *)> &write);

// The session's description as object members, `"host":…,…,"probes":[…]` (no braces): the
// JSON lines' "session" line and the trace's metadata.
void appendSessionFields(QByteArray &out, const SessionInfo &info);

// `"csvName":value` for every column of e shown in CSV, each preceded by a ',' except the first
// when first is true.
template<typename E>
void appendColumns(QByteArray &out, const E &e, quint64 sessionStartNs, bool first)
{
    for (const Column<E> &c : EventTraits<E>::columns) {
        if (!(c.show & InCsv))
            continue;
        if (!first)
            out += ',';
        first = false;
        out += '"';
        out += c.csvName; // declared names are plain ASCII identifiers
        out += "\":";
        appendValue(out, c.format, c.value(e), sessionStartNs);
    }
}

// The time relative to the session start, signed.
inline qint64 relativeNs(quint64 timeNs, quint64 sessionStartNs)
{
    return qint64(timeNs - sessionStartNs);
}

// A stack's frames root first, by name, as stacks.csv's `frames` column names them (escaped
// kernel bytes), as a JSON array.
void appendStackFrames(QByteArray &out, const StackTable &stacks, quint32 stackId);

} // namespace json

struct JsonlExportOptions
{
    // Only events in [startNs, endNs) (CLOCK_MONOTONIC); histograms and counters by their time.
    quint64 startNs = 0;
    quint64 endNs = ~quint64(0);
    bool histograms = true;
    bool counters = true;
};

// A session as JSON lines (docs/jsonl.md): a "session" line, the "stack" lines the samples name,
// then every event as one object per line, in time order across types, with the histogram and
// counter lines at their times. Written in pieces, never held whole: a session may hold tens of
// millions of events.
class JsonlExport
{
public:
    static bool write(const SessionData &session, QIODevice *device,
                      const JsonlExportOptions &options, QString *error);
    // Whole or not at all (QSaveFile).
    static bool exportSession(const SessionData &session, const QString &path,
                              const JsonlExportOptions &options, QString *error);
};

// The same lines for a recording as it runs (`bpflens-cli record --jsonl -`): the session line
// first, then each batch's stacks, events (in time order within the batch), histograms and
// counters. Batches follow one another in time, so the lines are in time order up to the
// reordering a recording's batches themselves have.
class JsonlStream
{
public:
    explicit JsonlStream(const SessionInfo &info);
    QByteArray header() const;
    // Lines for one batch; empty when it holds nothing.
    QByteArray format(const RecordBatch &batch);

private:
    SessionInfo m_info;
    StackTable m_stacks;
};

} // namespace bpflens
