#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// Off-CPU waits joined with their wakers: offwaketime.
inline ProbeInfo offwakeProbe()
{
    ProbeInfo p = offcpuProbe();
    p.id = QStringLiteral("offwake");
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Off-wake time"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "Why threads wait: every off-CPU wait of at least the minimum time with the stack it "
        "blocked in, joined with the thread (or interrupt) that woke it and the waker's stack, "
        "like offwaketime"));
    p.eventTypes = {EventType::OffWake};
    p.counters = {
        lossCounter(QStringLiteral("wakersLost"),
                    QStringLiteral("%1 waits recorded without their waker: the map of wakers "
                                   "was full")),
        lossCounter(QStringLiteral("wakerCopiesLost"),
                    QStringLiteral("%1 waker user stacks taken from frame pointers only: the ring "
                                   "buffer had no room for their copy")),
        lossCounter(QStringLiteral("stacksLost"),
                    QStringLiteral("%1 stacks lost: the stack map had no room")),
        lossCounter(QStringLiteral("threadsLost"),
                    QStringLiteral("%1 waits not recorded: the map of threads off the CPU was "
                                   "full")),
        lossCounter(QStringLiteral("switchInsMissed"),
                    QStringLiteral("%1 waits not recorded: their switch-in was not seen")),
    };
    return p;
}

} // namespace bpflens::probedecl
