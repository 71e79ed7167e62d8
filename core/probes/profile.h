#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// On-CPU samples with stacks: profile, perf record -g.
inline ProbeInfo profileProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("profile");
    p.group = ProbeGroup::Cpu;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "CPU profile"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "Where the CPUs spend their time: samples of the running code at a fixed frequency on "
        "every CPU, with kernel and user call stacks, like perf record -g or profile"));
    p.options = {
        pidOption(),
        tidOption(),
        commOption(),
        cgroupOption(),
        containerOption(),
        unitOption(),
        intOption(QStringLiteral("frequency"),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog", "Frequency (Hz)")),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "Samples per second on each CPU (99 avoids running in "
                                         "lockstep with timers)")),
                  99, 1, 10000),
        intOption(QStringLiteral("stackBytes"),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog", "User stack copy (bytes)")),
                  text(QT_TRANSLATE_NOOP(
                      "ProbeCatalog",
                      "How much of each sample's user stack is copied for unwinding code built "
                      "without frame pointers; deeper stacks are cut off (0: frame pointers "
                      "only)")),
                  16384, 0, 32768),
        boolOption(QStringLiteral("kernelOnly"),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "Kernel stacks only")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Record no user stacks (cheaper, no symbolisation)"))),
        boolOption(QStringLiteral("userOnly"),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "User stacks only")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "Record no kernel stacks"))),
        boolOption(QStringLiteral("idle"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Include idle")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Also record the samples of idle CPUs (PID 0)")))};
    p.eventTypes = {EventType::CpuSample};
    return p;
}

} // namespace bpflens::probedecl
