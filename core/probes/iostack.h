#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

inline QStringList iostackHistogramLabels(const QVariantMap &)
{
    return {QStringLiteral("op"), QStringLiteral("layer")};
}

// Where I/O time goes, layer by layer (docs/iostack.md).
inline ProbeInfo iostackProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("iostack");
    p.group = ProbeGroup::IoStack;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "I/O stack breakdown"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "Where the time of read, write, open and fsync goes: syscall, VFS, file system "
        "and block layers, with each layer's exclusive share"));
    p.options = {
        pidOption(),
        tidOption(),
        commOption(),
        cgroupOption(),
        containerOption(),
        unitOption(),
        stringOption(
            QStringLiteral("disk"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Disk")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only block requests on this disk (as in /proc/partitions, e.g. "
                                   "vda)")),
            31),
        boolOption(QStringLiteral("queued"),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "Include queue time")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Measure the block request queue as its own layer, like "
                                          "biolatency -Q"))),
        boolOption(QStringLiteral("allFds"),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "Every file descriptor")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Also count reads and writes on pipes, sockets, "
                                          "terminals and eventfds, which measure waiting rather "
                                          "than I/O (by default only regular files and block "
                                          "devices count)"))),
        unitsOption(),
        intervalOption(),
        attachOption()};
    p.producesHistograms = true;
    p.metrics.histogramLabels = iostackHistogramLabels;
    // Its keys are the layers one request passes: merged they would count it once per layer.
    p.histogramKeysOverlap = true;
    // Its counters are "op/layer/what": calls and times per layer.
    p.metrics.counters = ProbeMetrics::Counters::Layers;
    return p;
}

} // namespace bpflens::probedecl
