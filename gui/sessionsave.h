#pragma once

#include "core/sessionstore.h"

namespace bpflens {

// Writes a whole in-memory session (a live recording, or one loaded and kept) to path with
// SessionWriter. The file appears only complete: it is written next to path under a temporary
// name and renamed over it, so a failed save never damages an existing file.
// endMonotonicNs ends the session if data.info has no end yet.
bool saveSession(const SessionData &data, quint64 endMonotonicNs, const QString &path,
                 QString *error);

} // namespace bpflens
