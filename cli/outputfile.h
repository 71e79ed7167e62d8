#pragma once

#include <QString>
#include <QTextStream>

namespace bpflens::cli {

// The one stream every command prints to. It writes to file descriptor 1 directly below
// QTextStream's own buffer, so a failed write (a full disk, /dev/full) sets its status, with
// its reason, instead of vanishing in a stdio buffer.
QTextStream &standardOutput();

// Flushes and closes standard output (the stream above and C stdio, which a few commands use
// directly) once the command is done. A write that failed on the way, or fails now, turns
// status Ok into Failure with "bpflens-cli: cannot write to standard output: <reason>":
// output cut short must never look complete. Any other status is kept as it is: that command
// has said what failed.
int finishStandardOutput(int status);

// Whether standard output has failed a write so far: a command that streams rows stops then.
bool standardOutputFailed();

// export's refusal to replace a file: false with "<path> already exists: choose another file,
// or --force" when path is an existing regular file (or a directory) and force is off. A
// device, a FIFO or a terminal is written to, never replaced.
bool mayWriteOver(const QString &path, bool force, QString *error);

} // namespace bpflens::cli
