#pragma once

#include "core/sessiondiff.h"

#include <QString>

namespace bpflens::cli {

// bpflens-cli diff's text: the histograms both sessions hold with their p50, p90 and p99 as A,
// B, the absolute and the relative change; event counts per type; and per type and top-list
// dimension the busiest keys of either session side by side; for the on-CPU and off-CPU
// profiles both hold, the functions whose share changed most, self and total, as A, B and the
// change.
QString diffText(const SessionDiff &diff, const QString &nameA, const QString &nameB);

} // namespace bpflens::cli
