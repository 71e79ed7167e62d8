#pragma once

#include "client/helperclient.h"
#include "core/cgroupfilter.h"
#include "core/pprofexport.h"

#include <QByteArray>
#include <QString>

#include <atomic>

namespace bpflens::cli {

// serve's pull endpoint for continuous profilers (Parca, Grafana Alloy's pyroscope.scrape,
// go tool pprof): GET /debug/pprof/profile?seconds=N (on-CPU), /debug/pprof/offcpu?seconds=N
// (off-CPU), machine-wide or pid=PID, container=ID, unit=NAME; and /debug/pprof/heap?seconds=N
// (the memleak probe: pid=PID's allocations, without pid the kernel's); docs/prometheus.md
// "pprof".
struct PprofRequest
{
    PprofKind kind = PprofKind::OnCpu;
    int seconds = 30; // as Go's handler when absent
    qint64 pid = -1;
    // container= and unit=: the events of that container's or unit's cgroups only, picked
    // from the machine-wide recording by each event's cgroup id (core/cgroupfilter.h).
    CgroupFilter cgroups;
};

// Concurrent profiles at most; more answer 429.
inline constexpr int MaxConcurrentProfiles = 4;
inline constexpr int MaxProfileSeconds = 300;

enum class PprofRoute
{
    NotPprof,   // another path
    Ok,         // *request filled
    BadRequest, // *why says which parameter and why
};

// target: the request line's target, "/debug/pprof/profile?seconds=5&pid=42".
PprofRoute parsePprofRequest(const QByteArray &target, PprofRequest *request, QString *why);

// Records the request's probe (99 Hz profile, offcpu, or memleak) for its seconds, in this process
// (viaHelper false: root) or through the helper, and gives the gzipped profile. Returns early
// with an error when stop becomes true.
bool recordPprof(const PprofRequest &request, bool viaHelper, const QByteArray &helperBusName,
                 const std::atomic<bool> &stop, QByteArray *body, QString *error);

} // namespace bpflens::cli
