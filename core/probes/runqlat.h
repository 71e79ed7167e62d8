#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

inline QStringList runqlatHistogramLabels(const QVariantMap &options)
{
    if (options.value(QStringLiteral("perProcess")).toBool())
        return {QStringLiteral("pid"), QStringLiteral("comm")};
    if (options.value(QStringLiteral("perThread")).toBool())
        return {QStringLiteral("tid"), QStringLiteral("comm")};
    return {};
}

// Run queue latency: runqlat.
inline ProbeInfo runqlatProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("runqlat");
    p.group = ProbeGroup::Scheduler;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Run queue latency"));
    p.description = text(
        QT_TRANSLATE_NOOP("ProbeCatalog", "How long runnable tasks wait for a CPU, like runqlat"));
    p.options = {
        pidOption(),
        tidOption(),
        uidOption(),
        commOption(),
        cgroupOption(),
        containerOption(),
        unitOption(),
        boolOption(
            QStringLiteral("perProcess"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Per process")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per process, like runqlat -P"))),
        boolOption(
            QStringLiteral("perThread"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Per thread")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per thread, like runqlat -L"))),
        unitsOption(),
        intervalOption()};
    p.producesHistograms = true;
    p.metrics.histogramLabels = runqlatHistogramLabels;
    return p;
}

} // namespace bpflens::probedecl
