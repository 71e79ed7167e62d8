#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// Page faults by stack: perf record -e minor-faults,major-faults -g.
inline ProbeInfo pagefaultProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("pagefault");
    p.group = ProbeGroup::Memory;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Page faults"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "Where processes fault their memory in: every minor and major page fault the kernel "
        "counts for a task, with its kernel and user call stacks, the faulting address and "
        "whether it was anonymous memory, a file, the stack or the heap, like perf record -e "
        "minor-faults -g"));
    p.lossHint = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "record one fault in N (every=N), or without the user-stack copy (stackBytes=0)"));
    p.options = {
        pidOption(),
        tidOption(),
        uidOption(),
        commOption(),
        cgroupOption(),
        containerOption(),
        unitOption(),
        intOption(QStringLiteral("every"),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog", "Sample every Nth fault")),
                  text(QT_TRANSLATE_NOOP(
                      "ProbeCatalog",
                      "Record one fault in every N on each CPU, each standing for N (1: every "
                      "fault, exact counts; more for processes faulting millions of pages)")),
                  1, 1, 1000000),
        intOption(QStringLiteral("stackBytes"),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog", "User stack copy (bytes)")),
                  text(QT_TRANSLATE_NOOP(
                      "ProbeCatalog",
                      "How much of each sample's user stack is copied for unwinding code built "
                      "without frame pointers; deeper stacks are cut off (0: frame pointers "
                      "only)")),
                  16384, 0, 32768)};
    p.eventTypes = {EventType::PageFault};
    return p;
}

} // namespace bpflens::probedecl
