#pragma once

#include "records.h"

#include <QList>
#include <QString>

namespace bpflens {

// Before a recording starts, in the process of the user who asks for it: every probe that
// attaches into a user-space file (uprobe) gets its target resolved (binarytarget.h), its file
// opened with this user's permissions (ProbeConfig::file, fileOffset) and its "target" option
// rewritten to what was resolved ("libc:strlen" -> "/usr/lib/x86_64-linux-gnu/libc.so.6:strlen"),
// so the session says which file was probed. False with *error naming the probe and why.
bool resolveProbeTargets(QList<ProbeConfig> &probes, QString *error);

// Whether probe id attaches into a user-space file and so needs resolveProbeTargets.
bool probeTakesUserFile(const QString &id);

} // namespace bpflens
