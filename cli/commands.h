#pragma once

#include "client/helperclient.h"

#include <QStringList>

namespace bpflens::cli {

// Each takes the arguments after the command name and returns the process exit status.
// Errors are one line on stderr, "bpflens-cli: <what went wrong>".
int probes(const QStringList &args);
int record(const QStringList &args);
int show(const QStringList &args);
int exportSession(const QStringList &args);
// recover DAMAGED -o NEW: what survived into a new file; 0 when anything was recovered.
int recover(const QStringList &args);
// diff A B [--top N]: histograms, event counts and top-list keys of two sessions (docs/diff.md).
int diff(const QStringList &args);
// top FILE [--by D] [--metric M] [--probe ID] [--limit N] [--stats] [--csv|--json]
// (docs/top.md).
int top(const QStringList &args);
// explain FILE [--from T] [--to T] [--type ID] [--min-latency D] [--csv|--json]: what is
// over-represented in a range (docs/explain.md).
int explain(const QStringList &args);
// critical-path FILE --tid N [--from T] [--to T] [--max-depth N] [--csv|--json]: what a
// thread's progress waited for, wakeup by wakeup (docs/threadstates.md).
int criticalPathCommand(const QStringList &args);
// query FILE SQL [--format table|csv|json], query [FILE] --tables (docs/sql.md).
int query(const QStringList &args);

// Starts a recording session on the helper. On failure says why on stderr (polkit's refusal,
// the helper's reason for options it refused, or "could not start the <what>") and returns the
// exit status for it; Ok otherwise.
int startHelperSession(const HelperClient &helper, const QList<ProbeConfig> &requests,
                       HelperClient::Session *session, const QString &what);

enum ExitStatus
{
    Ok = 0,
    Failure = 1,
    Usage = 2,
    NotAuthorized = 3,
    NoSession = 4,
    RemoteFailed = 5,   // record --host: ssh or the remote bpflens-cli failed to record
    ConnectionLost = 6, // record --host: the connection broke; the file holds what arrived
    Interrupted = 130,  // query: Ctrl-C stopped the statement (128 + SIGINT, as a shell says)
};

} // namespace bpflens::cli
