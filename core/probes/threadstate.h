#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// Thread states from the scheduler's switches and wakeups: the timeline Perfetto and Trace
// Compass draw from a trace, recorded live, and the wakeups the critical path follows.
inline ProbeInfo threadstateProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("threadstate");
    p.group = ProbeGroup::Scheduler;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Thread states"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "When each thread ran (on which CPU), waited for a CPU or was blocked, and why: what "
        "it waited for and who woke it. The critical path of a thread follows these wakeups"));
    p.options = {
        pidOption(),
        tidOption(),
        commOption(),
        cgroupOption(),
        containerOption(),
        unitOption(),
        boolOption(QStringLiteral("noStacks"),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "No kernel stacks")),
                   text(QT_TRANSLATE_NOOP(
                       "ProbeCatalog",
                       "Take no kernel stack where a thread blocks or is woken (cheaper; the "
                       "reasons and the interrupts' wakeups are then not known)")))};
    p.eventTypes = {EventType::ThreadState};
    p.counters = {
        lossCounter(QStringLiteral("transitionsMissed"),
                    QStringLiteral("%1 switches or wakeups the kernel did not run the probe "
                                   "for: the thread states around them are cut")),
    };
    return p;
}

} // namespace bpflens::probedecl
