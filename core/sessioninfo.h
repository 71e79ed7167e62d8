#pragma once

#include "core/records.h"

namespace bpflens {

// The session file schema this build writes and the newest it reads (docs/session-format.md).
// 4: event chunks end with the cgroup id column, the cgroups table, and each stack frame's source
// file, line and inlined mark (docs/session-format.md).
inline constexpr int SessionSchemaVersion = 4;

// CLOCK_MONOTONIC now, the clock bpf_ktime_get_ns() reads.
quint64 monotonicNowNs();

// A SessionInfo for a recording that starts now on this machine: host name, kernel release
// (uname), this build's version and schema, and the wall-clock (UTC) and monotonic time of
// the same instant, which is what maps event times to wall-clock times.
SessionInfo sessionInfoForThisHost(const QList<ProbeConfig> &probes = {});

} // namespace bpflens
