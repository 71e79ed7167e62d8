#pragma once

#include "core/sessionstore.h"

struct sqlite3_stmt;

namespace bpflens {

// The salvage reader: loads what can still be read of a damaged session file
// (docs/session-format.md, "Damaged files"). SessionReader::open() calls it when its fast path
// meets SQLITE_CORRUPT/SQLITE_NOTADB or a malformed row or chunk; reason is what that said.
//
// Every table is read row by row in rowid order; when SQLite cannot step past a damaged B-tree
// page, the next readable rowid is searched (exponentially, then by bisection) so one bad page
// loses only its own rows. Each chunk is decoded on its own: one that fails is dropped and
// counted with its type, event count and time range. meta and probes degrade to unknown
// values; a string that cannot be read becomes "[lost string <id>]". data->damage says what was
// lost. Refuses (false, *error) only when the header or the schema cannot be read.
bool salvageSession(const QString &path, const QString &reason, SessionData *data, QString *error,
                    const SessionReader::Progress &progress = {});

// Sets the SessionInfo field the meta table's key names from the value in column of st (the
// one mapping of keys to fields, shared by the reader and the salvage reader).
void applyMetaValue(SessionInfo &info, const QByteArray &key, sqlite3_stmt *st, int column);

// A row of the counters table whose probe_id is in column of st and name, time_ns, interval_ns
// and value follow it (shared by the reader and the salvage reader). NULL reads back as NaN:
// the writer stores a NaN as NULL, since SQLite has none.
CounterSample counterFromRow(sqlite3_stmt *st, int column);

// A row of the histograms table whose probe_id is in column of st and key, time_ns, interval_ns,
// unit, sum and slots follow it. False for a unit this build does not know or a slots blob that
// is not a whole number of 8-byte slots within Log2Histogram::MaxSlots.
bool histogramFromRow(sqlite3_stmt *st, int column, HistogramSnapshot *out);

// A row of the probe_stats table whose probe_id is in column of st and time_ns, events_seen,
// events_lost, run_count and run_time_ns follow it, then events_unseen and unfinished when
// withCauses (files written before the lost events were split by cause have no such columns).
ProbeStats probeStatsFromRow(sqlite3_stmt *st, int column, bool withCauses);

// Writes data (as salvaged) to a new file at path with SessionWriter, one transaction per
// 50000 events. Refuses an existing file. The copy of a schema 2 file, or of one whose checksums
// were lost, is schema 2 too: new checksums would vouch for events nobody checked.
bool writeSessionCopy(const SessionData &data, const QString &path, QString *error);

} // namespace bpflens
