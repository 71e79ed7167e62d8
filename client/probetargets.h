#pragma once

#include "core/records.h"

#include <QList>
#include <QString>

namespace bpflens {

// Before a recording starts, in the process of the user who asks for it: every probe that
// attaches into a user-space file (uprobe) gets its target resolved (binarytarget.h), its file
// opened with this user's permissions (ProbeConfig::file, fileOffset) and its "target" option
// rewritten to what was resolved ("libc:strlen" -> "/usr/lib/x86_64-linux-gnu/libc.so.6:strlen"),
// so the session says which file was probed. False with *error naming the probe and why.
bool resolveProbeTargets(QList<ProbeConfig> &probes, QString *error);

// Before a recording starts, tppair's and tpcount's uprobe and USDT hooks ("u:libc:strlen",
// core/probehook.h) are resolved the same way: the file opened, the hook option rewritten
// ("u:/usr/lib/x86_64-linux-gnu/libc.so.6:strlen"), the offset (and a USDT probe's argument specs
// and semaphore) written to the internal options <prefix>Offset, <prefix>Args and
// <prefix>Semaphore (prefix start, end or hook), and for a USDT probe at several places every
// site in <prefix>Sites. A pair's end in another binary than its start goes in as
// ProbeConfig::file2.

// Whether probe id with these options attaches into a user-space file and so needs
// resolveProbeTargets.
bool probeTakesUserFile(const QString &id, const QVariantMap &options);

} // namespace bpflens
