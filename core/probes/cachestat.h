#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// Page cache counters per interval: cachestat.
inline ProbeInfo cachestatProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("cachestat");
    p.group = ProbeGroup::Memory;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Page cache"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog", "Page cache hits, misses and dirtied pages per interval, like cachestat "
                        "(system-wide unless filtered)"));
    p.options = {
        withDescription(
            pidOption(),
            text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only page cache activity in this process's context: its "
                                   "reads and file page faults, the pages they and the readahead "
                                   "they start insert, and the pages it dirties (write, write "
                                   "fault). Writeback by the kernel's flusher threads and "
                                   "reclaim never count (0: every process)"))),
        withDescription(
            tidOption(),
            text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only page cache activity in this thread's context, as for "
                                   "the process filter (0: every thread)"))),
        withDescription(
            uidOption(),
            text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only page cache activity of tasks running as this user, as "
                                   "for the process filter (-1: every user)"))),
        withDescription(
            commOption(),
            text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only page cache activity of tasks with this name (as in "
                                   "/proc/PID/comm, up to 15 bytes), as for the process filter"))),
        withDescription(
            cgroupOption(),
            text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only page cache activity of tasks in this cgroup v2 (a path "
                                   "under /sys/fs/cgroup), as for the process filter; pages are "
                                   "counted for the task that touches them, not for the cgroup "
                                   "the memory is charged to"))),
        containerOption(),
        unitOption(),
        intervalOption()};
    // Counters, not events: drawn on the Counters view's page cache charts, exposed as metrics
    // of their own.
    p.counters = {
        {QStringLiteral("accesses"), ProbeCounter::Role::Amount,
         text(QT_TRANSLATE_NOOP("bpflens::CountersView", "accesses"))},
        {QStringLiteral("added"), ProbeCounter::Role::Amount,
         text(QT_TRANSLATE_NOOP("bpflens::CountersView", "added"))},
        {QStringLiteral("dirtied"), ProbeCounter::Role::Amount,
         text(QT_TRANSLATE_NOOP("bpflens::CountersView", "dirtied"))},
        {QStringLiteral("misses"), ProbeCounter::Role::Amount,
         text(QT_TRANSLATE_NOOP("bpflens::CountersView", "misses"))},
        {QStringLiteral("hits"), ProbeCounter::Role::Amount,
         text(QT_TRANSLATE_NOOP("bpflens::CountersView", "hits"))},
        {QStringLiteral("hitRatio"), ProbeCounter::Role::Gauge,
         text(QT_TRANSLATE_NOOP("bpflens::CountersView", "hit ratio"))},
    };
    p.counterCharts = {text(QT_TRANSLATE_NOOP("bpflens::CountersView", "Page cache")),
                       text(QT_TRANSLATE_NOOP("bpflens::CountersView", "pages per interval")),
                       text(QT_TRANSLATE_NOOP("bpflens::CountersView", "Hit ratio")),
                       text(QT_TRANSLATE_NOOP("bpflens::CountersView", "hit ratio %"))};
    p.metrics.counters = ProbeMetrics::Counters::Families;
    p.metrics.counterHelp = QStringLiteral("Page cache %1 (pages), as cachestat counts them");
    return p;
}

} // namespace bpflens::probedecl
