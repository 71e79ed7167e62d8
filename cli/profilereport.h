#pragma once

#include "core/allocations.h"
#include "core/callgraph.h"

#include <QByteArray>
#include <QString>

namespace bpflens {
struct SessionData;
}

namespace bpflens::cli {

// Which samples a profile report sums: on-CPU samples count one each; off-CPU waits weigh
// their time off the CPU; page faults weigh the faults each stands for (every=N); allocations
// (memleak) weigh bytes: those still in use, or every byte allocated (as Go's heap profiles'
// inuse_space and alloc_space, core/allocations.h).
enum class ProfileKind : quint8
{
    OnCpu,
    OffCpu,
    PageFaults,
    InuseBytes,
    AllocBytes,
};

// A time as the reports print it: "1.50 s", "2.25 ms", "3.0 us", "40 ns".
QString formatNs(quint64 ns);

// The session's samples of one kind summed per stack, grouped by command (comm) when
// byProcess. Off-CPU weights are nanoseconds divided by unitNs (rounded, summed per stack
// first so short waits are not lost one by one); on-CPU weights ignore unitNs.
StackWeights profileWeights(const SessionData &data, ProfileKind kind, bool byProcess = false,
                            quint64 unitNs = 1);

// The allocations' bytes per stack (kind InuseBytes or AllocBytes) of the blocks the query
// selects, summed by sumAllocations(), grouped by command when byProcess.
StackWeights allocationWeights(const SessionData &data, ProfileKind kind,
                               const AllocationQuery &query, bool byProcess = false);

// How many events of the kind carry no stack (stack id 0).
qsizetype samplesWithoutStack(const SessionData &data, ProfileKind kind);

// The "show" section of one kind: the top functions by total cost, with self and total as
// samples (off-CPU: time) and as a share of all samples. top 0 lists every function.
QString topFunctionsText(const SessionData &data, ProfileKind kind, int top);

// The folded stacks of "export --folded" (flamegraph.pl, inferno): on-CPU weights are samples,
// off-CPU weights microseconds, as bcc's offcputime -f writes them, page faults faults,
// allocations bytes (of the blocks allocations selects; other kinds ignore it).
QByteArray foldedProfile(const SessionData &data, ProfileKind kind, StackPart part, bool byProcess,
                         const AllocationQuery &allocations = {});

// The "show" section of the allocations (memleak): what the query's blocks hold at its end, as
// memleak prints it: the top stacks by bytes in use, each "N bytes in M allocations from stack"
// with its oldest block's age and its frames leaf first, then the top functions by bytes in
// use. top 0 lists every stack and function. endNs: the recording's end, which the ages are
// measured to when the query runs to the session's end (else to the query's end).
QString allocationsText(const SessionData &data, const AllocationQuery &query, quint64 endNs,
                        int top);

// "export --folded --off-wake": the offwake probe's waits as offwaketime -f writes them
// (offWakeFoldedStacks), in microseconds.
QByteArray foldedOffWake(const SessionData &data, StackPart part);

} // namespace bpflens::cli
