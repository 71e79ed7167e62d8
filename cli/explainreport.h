#pragma once

#include "cli/topreport.h"
#include "core/spikeexplain.h"

#include <QString>

namespace bpflens::cli {

// bpflens-cli explain's report (docs/explain.md): the over-represented values of a range as an
// aligned table (shares as percentages with the counts behind them), CSV or JSON (shares as
// fractions, lift null where the value never occurs outside). fromNs/toNs: the range as time
// after the session's start.
QString explainReport(const Explanation &x, quint64 fromNs, quint64 toNs, ReportFormat format);

} // namespace bpflens::cli
