#pragma once

#include <QString>

#include <functional>

class QIODevice;

namespace bpflens {

// Whether path is something a session reader may open: a regular file (or a symlink to one),
// or a path that does not exist (the caller then says so in its own words). A FIFO would make
// open(2) wait for a writer forever, and a socket or a device is never a session, so they are
// refused here, from stat(2) alone, before anything opens them; *error then says
// "not a BPF Lens session: <path> is a FIFO (named pipe)" and the like.
bool isOpenableSessionPath(const QString &path, QString *error);

// Writes path whole or not at all: write() fills the device; false (with "cannot write
// <path>: <reason>") when it or any write, flush or close fails. A regular file (or a new one)
// is written under a temporary name and renamed when complete, so a failure leaves no partial
// file and an existing one untouched. Anything else that exists (/dev/full, a FIFO, a
// terminal) is written directly, never replaced by a regular file of its name.
bool writeWholeFile(const QString &path, const std::function<bool(QIODevice *)> &write,
                    QString *error);

} // namespace bpflens
