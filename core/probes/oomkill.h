#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// OOM kills: oomkill.
inline ProbeInfo oomkillProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("oomkill");
    p.group = ProbeGroup::Memory;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "OOM kills"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog", "Every process the OOM killer kills: its memory and cgroup, the task that "
                        "ran out of memory and whether a cgroup limit or the machine ran out, "
                        "like oomkill"));
    const QString victim =
        text(QT_TRANSLATE_NOOP("ProbeCatalog", "Only kills of this process (0: every process)"));
    p.options = {
        withDescription(pidOption(), victim),
        withDescription(uidOption(), text(QT_TRANSLATE_NOOP(
                                         "ProbeCatalog", "Only kills of this user's processes (-1: "
                                                         "every user)"))),
        withDescription(commOption(), text(QT_TRANSLATE_NOOP(
                                          "ProbeCatalog", "Only kills of tasks with this name (as "
                                                          "in /proc/PID/comm, up to 15 bytes)"))),
        withDescription(cgroupOption(), text(QT_TRANSLATE_NOOP(
                                            "ProbeCatalog", "Only kills of tasks in this cgroup v2 "
                                                            "or below it (a path under "
                                                            "/sys/fs/cgroup)"))),
        containerOption(),
        unitOption(),
        attachOption()};
    p.eventTypes = {EventType::OomKill};
    return p;
}

} // namespace bpflens::probedecl
