#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// Slow file-system operations: ext4slower.
inline ProbeInfo fsslowerProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("fsslower");
    p.group = ProbeGroup::Files;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Slow file-system operations"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "ext4 (and xfs, btrfs) reads, writes, opens and fsyncs slower than a threshold, "
        "like ext4slower"));
    p.options = {pidOption(),
                 tidOption(),
                 commOption(),
                 cgroupOption(),
                 containerOption(),
                 unitOption(),
                 intOption(QStringLiteral("minLatencyUs"),
                           text(QT_TRANSLATE_NOOP("ProbeCatalog", "Minimum latency (µs)")),
                           text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                                  "Only operations at least this slow (0: all)")),
                           10000, 0, 3600ll * 1000 * 1000),
                 attachOption()};
    p.eventTypes = {EventType::FsSlow};
    return p;
}

} // namespace bpflens::probedecl
