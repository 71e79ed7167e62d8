#pragma once

#include "core/toplists.h"

#include <optional>

#include <QString>

namespace bpflens::cli {

enum class ReportFormat
{
    Text,
    Csv,
    Json,
};

// bpflens-cli top's report (docs/top.md): a top list as an aligned table (durations as "1.25
// ms"), CSV or JSON (durations in ns, bytes as numbers). probe: the text's heading names it,
// for one of the lists `top` prints per probe when their sums would not add up.
// dimensionName: what the rows are ("process", "container").
QString topReport(const TopList &list, const QString &dimensionName, TopMetric metric,
                  ReportFormat format, std::optional<EventType> probe = {});
QString topReport(const TopList &list, Dimension dimension, TopMetric metric, ReportFormat format,
                  std::optional<EventType> probe = {});

// bpflens-cli top --stats: latency statistics per probe and key, with where the slowest event
// is (seconds after the session's start, and its index among its type's events).
QString statsReport(const QList<LatencyStats> &stats, const EventStore &store,
                    quint64 sessionStartNs, ReportFormat format);

} // namespace bpflens::cli
