#pragma once

#include "core/eventfilter.h"
#include "core/sessionstore.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace bpflens {

// Which samples a pprof profile holds: the profile probe's on-CPU samples, the offcpu probe's
// waits, or the memleak probe's allocations as a heap profile. They are never mixed in one
// profile (docs/profiling.md, docs/memory.md).
enum class PprofKind : quint8
{
    OnCpu,
    OffCpu,
    Heap,
};

struct PprofOptions
{
    PprofKind kind = PprofKind::OnCpu;
    // Only events in [startNs, endNs) (CLOCK_MONOTONIC, by the event's recorded time), clipped
    // to the session; the profile's time_nanos and duration_nanos are those of the range. A heap
    // profile counts the blocks allocated in the range, and as in use those not freed before
    // its end (core/allocations.h).
    quint64 startNs = 0;
    quint64 endNs = ~quint64(0);
    // As every view filters (pid, comm, the text filter; eventfilter.h).
    EventFilter filter;
    // Added to the profile's comments ("bpflens-cli export", the GUI's range and filter).
    QStringList comments;
    // A profile without samples instead of an error (serve's endpoint: an idle machine).
    bool allowEmpty = false;
};

// What went into a profile, for the caller's message.
struct PprofSummary
{
    qsizetype events = 0; // CPU samples, off-CPU waits or allocations in the range under the filter
    qsizetype samples = 0; // pprof samples: one per distinct (stack, pid, tid, comm); heap: stack
    qsizetype locations = 0;
    qsizetype functions = 0;
    qsizetype mappings = 0;
    qsizetype bytes = 0; // gzipped
};

// A session's CPU profile as pprof's profile.proto (github.com/google/pprof/proto/profile.proto),
// gzipped, as `go tool pprof`, Parca, Grafana Pyroscope and the OpenTelemetry profiles signal
// read it (docs/profiling.md "pprof"):
// - on-CPU: sample types samples/count and cpu/nanoseconds, period_type cpu/nanoseconds, period
//   1e9 / the profile probe's frequency; off-CPU: waits/count and off_cpu/nanoseconds (the
//   default), period 1 wait; heap (allocations), as Go's runtime/pprof writes its heap
//   profiles: alloc_objects/count, alloc_space/bytes, inuse_objects/count, inuse_space/bytes
//   (the default), period_type space/bytes, one sample per stack (sumAllocations) labelled
//   "bytes" with its blocks' mean size; a sampled recording's values already scaled by weight.
// - one location per session frame (a frame is a whole function: its address is the function's
//   start), each with one line naming its function (line number 0: lines and inlined frames are
//   not recorded); a mapping per module with its build id; kernel frames in the mapping
//   "[kernel.kallsyms]" (vmlinux) or "[<module>]" (a kernel module). Every mapping has
//   has_functions set, so pprof does not try to symbolise the addresses again.
// - a stack the unwinder or the kernel cut short ends (at its root) in a "[truncated]" location,
//   as the flame graph draws it; an event without a stack has the single location "[no stack]".
// - labels per sample: pid and tid (numeric), comm (string); a heap profile's samples are per
//   stack and carry the "bytes" label instead, as Go's.
class PprofExport
{
public:
    // The kinds the session has events of: on-CPU, off-CPU, heap.
    static QList<PprofKind> kindsIn(const SessionData &session);
    // The profile probe's frequency as the session's probes give it (default 99 Hz).
    static qint64 samplingFrequency(const SessionInfo &info);
    // The uncompressed profile.proto message. False (with *error) when the session has no
    // events of the kind in the range under the filter.
    static bool encode(const SessionData &session, const PprofOptions &options, QByteArray *proto,
                       QString *error, PprofSummary *summary = nullptr);
    // gzip (RFC 1952) through zlib, as pprof reads and writes profiles.
    static bool gzip(const QByteArray &data, QByteArray *out, QString *error);
    // encode() and gzip() into path, whole or not at all (writeWholeFile: a failed write leaves
    // no partial file and an existing one untouched). Overwriting is the caller's decision.
    static bool exportSession(const SessionData &session, const QString &path,
                              const PprofOptions &options, QString *error,
                              PprofSummary *summary = nullptr);
};

} // namespace bpflens
