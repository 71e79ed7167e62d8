#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

inline QStringList reclaimHistogramLabels(const QVariantMap &)
{
    return {QStringLiteral("kind")};
}

// Memory reclaim stalls: drsnoop, memory cgroup limits' reclaim, and compaction (compactsnoop).
inline ProbeInfo reclaimProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("reclaim");
    p.group = ProbeGroup::Memory;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Memory reclaim"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog", "Every direct reclaim (like drsnoop), memory cgroup reclaim (a cgroup "
                        "over memory.high or memory.max) and memory compaction (like "
                        "compactsnoop) a task stalls in, with the pages it reclaimed, and "
                        "latency histograms per kind"));
    p.options = {pidOption(),
                 tidOption(),
                 uidOption(),
                 commOption(),
                 cgroupOption(),
                 containerOption(),
                 unitOption(),
                 unitsOption(),
                 intervalOption(),
                 intOption(QStringLiteral("minLatencyUs"),
                           text(QT_TRANSLATE_NOOP("ProbeCatalog", "Minimum latency (µs)")),
                           text(QT_TRANSLATE_NOOP(
                               "ProbeCatalog",
                               "Only record reclaims at least this slow (histograms count all)")),
                           0, 0, 3600ll * 1000 * 1000)};
    p.eventTypes = {EventType::Reclaim};
    p.producesHistograms = true;
    p.metrics.histogramLabels = reclaimHistogramLabels;
    return p;
}

} // namespace bpflens::probedecl
