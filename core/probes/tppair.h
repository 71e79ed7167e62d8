#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// Time from a start hook to an end hook (docs/tppair.md).
inline ProbeInfo tppairProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("tppair");
    p.group = ProbeGroup::Custom;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Tracepoint pair latency"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "Time from a start tracepoint to an end tracepoint with the same key, as a histogram "
        "and the slow pairs as events"));
    p.options =
        QList<ProbeOption>{
            textOption(QStringLiteral("start"),
                       text(QT_TRANSLATE_NOOP("ProbeCatalog", "Start tracepoint")),
                       text(QT_TRANSLATE_NOOP(
                           "ProbeCatalog", "Where the measured time begins: a tracepoint "
                                           "(block_rq_issue), u:BINARY:FUNCTION, "
                                           "ur:BINARY:FUNCTION (its return), "
                                           "usdt:BINARY:PROVIDER:NAME, k:FUNCTION or kr:FUNCTION")),
                       QStringLiteral("sys_enter"), 200),
            textOption(QStringLiteral("end"),
                       text(QT_TRANSLATE_NOOP("ProbeCatalog", "End tracepoint")),
                       text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                              "Where the measured time ends, written as Start "
                                              "tracepoint is, e.g. block_rq_complete or "
                                              "ur:/usr/bin/prog:parse; the start itself: from "
                                              "each hit to the next with its key")),
                       QStringLiteral("sys_exit"), 200),
            textOption(
                QStringLiteral("key"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Key")),
                text(QT_TRANSLATE_NOOP(
                    "ProbeCatalog",
                    "What pairs a start with its end: tid (the thread), pid, argN (the value "
                    "of the tracepoint's or USDT probe's argument N) or argN.field.field (a "
                    "field of the struct a tracepoint's argument N points to)")),
                QStringLiteral("tid"), 256),
            stringOption(
                QStringLiteral("endKey"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "End key")),
                text(QT_TRANSLATE_NOOP(
                    "ProbeCatalog",
                    "The key at the end tracepoint, when it carries it differently (empty: "
                    "the same as Key)")),
                256),
            intOption(QStringLiteral("thresholdUs"),
                      text(QT_TRANSLATE_NOOP("ProbeCatalog", "Event threshold (µs)")),
                      text(QT_TRANSLATE_NOOP(
                          "ProbeCatalog",
                          "Record every pair at least this slow as an event (-1: none, 0: all; the "
                          "histogram counts all)")),
                      -1, -1, 3600ll * 1000 * 1000),
            customUnitsOption(),
            intervalOption(),
            intOption(QStringLiteral("pid"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Process ID")),
                      text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                             "Only pairs this process starts (0: every process)")),
                      0, 0, maxPid),
            stringOption(
                QStringLiteral("comm"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Command name")),
                text(QT_TRANSLATE_NOOP(
                    "ProbeCatalog", "Only pairs started by tasks with this name (up to 15 bytes)")),
                15)} +
        hookOptions(QStringLiteral("start")) + hookOptions(QStringLiteral("end"));
    p.eventTypes = {EventType::TpPair};
    p.producesHistograms = true;
    // The tracepoint names the helper lists complete what the user types.
    for (ProbeOption &o : p.options)
        o.namesTracepoint = o.name == QLatin1String("start") || o.name == QLatin1String("end");
    p.target = ProbeTarget::Hooks;
    p.hooks = {{QStringLiteral("start"), QStringLiteral("start")},
               {QStringLiteral("end"), QStringLiteral("end")}};
    return p;
}

} // namespace bpflens::probedecl
