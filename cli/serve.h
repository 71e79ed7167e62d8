#pragma once

#include <QStringList>

namespace bpflens::cli {

// serve --listen ADDR:PORT --probe ID[:opts] ...: runs the probes until SIGINT/SIGTERM and serves
// their histograms and counters on /metrics for Prometheus (docs/prometheus.md).
int serve(const QStringList &args);

} // namespace bpflens::cli
