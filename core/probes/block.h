#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

inline QStringList blockHistogramLabels(const QVariantMap &options)
{
    QStringList l;
    if (options.value(QStringLiteral("perDisk")).toBool())
        l << QStringLiteral("disk");
    if (options.value(QStringLiteral("perFlags")).toBool())
        l << QStringLiteral("flags");
    return l;
}

// Block requests: biosnoop and biolatency.
inline ProbeInfo blockProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("block");
    p.group = ProbeGroup::BlockIo;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Block I/O"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog", "Every block request with its latency (biosnoop) and latency histograms "
                        "(biolatency)"));
    p.options = {
        pidOption(),
        commOption(),
        cgroupOption(),
        containerOption(),
        unitOption(),
        stringOption(QStringLiteral("disk"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Disk")),
                     text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                            "Only this disk (as in /proc/partitions, e.g. vda)")),
                     31),
        boolOption(
            QStringLiteral("queued"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Include queue time")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Measure from insertion into the queue, like biolatency -Q"))),
        boolOption(
            QStringLiteral("perDisk"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Per disk")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per disk, like biolatency -D"))),
        boolOption(
            QStringLiteral("perFlags"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Per flag set")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "One histogram per operation and flags, like biolatency -F"))),
        unitsOption(),
        intervalOption(),
        intOption(
            QStringLiteral("minLatencyUs"),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "Minimum latency (µs)")),
            text(QT_TRANSLATE_NOOP(
                "ProbeCatalog", "Only record requests at least this slow (histograms count all)")),
            0, 0, 3600ll * 1000 * 1000)};
    p.eventTypes = {EventType::Block};
    p.producesHistograms = true;
    p.metrics.histogramLabels = blockHistogramLabels;
    p.counters = {
        lossCounter(QStringLiteral("unattributed"),
                    QStringLiteral("%1 requests of unknown submitter (submitted before recording, "
                                   "or by the kernel)")),
        lossCounter(QStringLiteral("merged"),
                    QStringLiteral("%1 I/Os merged into other requests (no event of their own)")),
    };
    return p;
}

} // namespace bpflens::probedecl
