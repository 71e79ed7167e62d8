#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

inline QStringList bitesizeHistogramLabels(const QVariantMap &options)
{
    QStringList l{QStringLiteral("comm")};
    if (options.value(QStringLiteral("perDisk")).toBool())
        l << QStringLiteral("disk");
    if (options.value(QStringLiteral("perOperation")).toBool())
        l << QStringLiteral("op");
    return l;
}

// Block request sizes: bitesize.
inline ProbeInfo bitesizeProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("bitesize");
    p.group = ProbeGroup::BlockIo;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Block I/O sizes"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog", "The size of every block request as it is issued, as histograms of "
                        "Kbytes per command, like bitesize"));
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
        boolOption(QStringLiteral("perDisk"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Per disk")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per command and disk"))),
        boolOption(
            QStringLiteral("perOperation"),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "Per operation")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per command and operation (read, "
                                                   "write, flush…)"))),
        intervalOption()};
    p.producesHistograms = true;
    p.metrics.histogramLabels = bitesizeHistogramLabels;
    return p;
}

} // namespace bpflens::probedecl
