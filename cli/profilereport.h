#pragma once

#include "core/callgraph.h"

#include <QByteArray>
#include <QString>

namespace bpflens {
struct SessionData;
}

namespace bpflens::cli {

// Which samples a profile report sums: on-CPU samples count one each; off-CPU waits weigh
// their time off the CPU; page faults weigh the faults each stands for (every=N).
enum class ProfileKind : quint8
{
    OnCpu,
    OffCpu,
    PageFaults,
};

// A time as the reports print it: "1.50 s", "2.25 ms", "3.0 us", "40 ns".
QString formatNs(quint64 ns);

// The session's samples of one kind summed per stack, grouped by command (comm) when
// byProcess. Off-CPU weights are nanoseconds divided by unitNs (rounded, summed per stack
// first so short waits are not lost one by one); on-CPU weights ignore unitNs.
StackWeights profileWeights(const SessionData &data, ProfileKind kind, bool byProcess = false,
                            quint64 unitNs = 1);

// How many events of the kind carry no stack (stack id 0).
qsizetype samplesWithoutStack(const SessionData &data, ProfileKind kind);

// The "show" section of one kind: the top functions by total cost, with self and total as
// samples (off-CPU: time) and as a share of all samples. top 0 lists every function.
QString topFunctionsText(const SessionData &data, ProfileKind kind, int top);

// The folded stacks of "export --folded" (flamegraph.pl, inferno): on-CPU weights are samples,
// off-CPU weights microseconds, as bcc's offcputime -f writes them, page faults faults.
QByteArray foldedProfile(const SessionData &data, ProfileKind kind, StackPart part, bool byProcess);

// "export --folded --off-wake": the offwake probe's waits as offwaketime -f writes them
// (offWakeFoldedStacks), in microseconds.
QByteArray foldedOffWake(const SessionData &data, StackPart part);

} // namespace bpflens::cli
