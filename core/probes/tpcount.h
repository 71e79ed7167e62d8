#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// Hits of one hook per key (docs/tpcount.md).
inline ProbeInfo tpcountProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("tpcount");
    p.group = ProbeGroup::Custom;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Tracepoint counts"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "Hits of one tracepoint per interval, grouped by up to two of its fields or the "
        "command, or a histogram of one numeric field"));
    p.options =
        QList<ProbeOption>{
            textOption(QStringLiteral("tracepoint"),
                       text(QT_TRANSLATE_NOOP("ProbeCatalog", "Tracepoint")),
                       text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                              "What is counted: a tracepoint (sched_switch, "
                                              "block:block_rq_issue), u:BINARY:FUNCTION, "
                                              "ur:BINARY:FUNCTION, usdt:BINARY:PROVIDER:NAME, "
                                              "k:FUNCTION or kr:FUNCTION")),
                       QStringLiteral("sched_switch"), 200),
            textOption(
                QStringLiteral("key"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Count by")),
                text(QT_TRANSLATE_NOOP(
                    "ProbeCatalog",
                    "Empty (all hits together), comm, tid, pid, an argument by name or as "
                    "argN (a USDT probe's too), or a field behind it (next.pid, arg0.q.id)")),
                QString(), 256),
            textOption(QStringLiteral("key2"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "And by")),
                       text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                              "A second key, written as Count by is (prev.pid with "
                                              "next.pid)")),
                       QString(), 256),
            textOption(QStringLiteral("histogram"),
                       text(QT_TRANSLATE_NOOP("ProbeCatalog", "Histogram of")),
                       text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                              "A numeric field whose values are kept as a log2 "
                                              "histogram per key instead of counting hits")),
                       QString(), 256),
            intervalOption(),
            pidOption(),
            commOption()} +
        hookOptions(QStringLiteral("hook"));
    p.producesHistograms = true;
    p.target = ProbeTarget::Hooks;
    p.hooks = {{QStringLiteral("tracepoint"), QStringLiteral("hook")}};
    p.keyed = {text(QT_TRANSLATE_NOOP("bpflens::CountersView", "Tracepoint hits per key")),
               text(QT_TRANSLATE_NOOP("bpflens::CountersView", "hits per interval")),
               ProbeKeyedCounts::Others::Keys,
               isCountedKey,
               5,
               "tracepoint hits by key"};
    p.counters = {
        keysFullLoss("hits"),
        lossCounter(KeyedLoss::unreadableKeys(),
                    QStringLiteral("%1 hits not counted: a key or value met a NULL pointer or "
                                   "unreadable memory")),
    };
    return p;
}

} // namespace bpflens::probedecl
