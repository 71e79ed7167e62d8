#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// Off-CPU waits with stacks: offcputime.
inline ProbeInfo offcpuProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("offcpu");
    p.group = ProbeGroup::Cpu;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Off-CPU time"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "Where threads wait: every time a thread leaves the CPU (blocks, sleeps or is "
        "preempted) for at least the minimum time, with the call stacks it left from, like "
        "offcputime"));
    p.options = {
        pidOption(),
        tidOption(),
        commOption(),
        cgroupOption(),
        containerOption(),
        unitOption(),
        intOption(QStringLiteral("minUs"),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog", "Minimum time off-CPU (µs)")),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "Only record threads off the CPU at least this long")),
                  1000, 0, 3600ll * 1000 * 1000),
        intOption(QStringLiteral("stackBytes"),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog", "User stack copy (bytes)")),
                  text(QT_TRANSLATE_NOOP(
                      "ProbeCatalog",
                      "How much of a waiting thread's user stack is copied, when its system "
                      "call returns, for unwinding code built without frame pointers (0: frame "
                      "pointers only)")),
                  16384, 0, 32768),
        boolOption(QStringLiteral("kernelOnly"),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "Kernel stacks only")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Record no user stacks (cheaper, no symbolisation)"))),
        boolOption(QStringLiteral("userOnly"),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "User stacks only")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "Record no kernel stacks")))};
    p.eventTypes = {EventType::OffCpu};
    return p;
}

} // namespace bpflens::probedecl
