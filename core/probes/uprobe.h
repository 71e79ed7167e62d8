#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

inline bool checkUprobe(const QString &id, const QVariantMap &options, QString *error)
{
    ProbeCatalog::UprobeKey key;
    QString why;
    if (!ProbeCatalog::parseUprobeKey(options.value(QStringLiteral("key")).toString(), &key,
                                      &why)) {
        *error = QStringLiteral("probe %1, option key: %2").arg(id, why);
        return false;
    }
    if (options.value(QStringLiteral("target")).toString().trimmed().isEmpty()) {
        *error = QStringLiteral("probe %1: no function given (target=BINARY:FUNCTION, as "
                                "libc:strlen)")
                     .arg(id);
        return false;
    }
    return true;
}

// Calls of a user-space function: strlen_count, funclatency -u (docs/uprobe.md).
inline ProbeInfo uprobeProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("uprobe");
    p.group = ProbeGroup::Custom;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "User function calls"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "Calls of a function in a program or library counted per interval, optionally per "
        "argument, and timed from entry to return, like strlen_count and funclatency -u"));
    p.options = {
        textOption(
            QStringLiteral("target"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Function")),
            text(QT_TRANSLATE_NOOP(
                "ProbeCatalog", "BINARY:FUNCTION, the binary as a path, a library name (libc) or a "
                                "program in PATH, e.g. libc:strlen or /usr/bin/bash:readline; "
                                "BINARY:0xADDRESS for an address")),
            QStringLiteral("libc:malloc"), 1024),
        textOption(QStringLiteral("key"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Count by")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "What the calls are counted by: empty (all together), "
                                          "argN (the value of argument N, from 0) or str(argN) "
                                          "(the string argument N points to)")),
                   QString(), 16),
        intOption(QStringLiteral("strLength"),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog", "String length")),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "Bytes of a string argument kept as its key, with the "
                                         "terminating NUL")),
                  64, 1, 128),
        boolOption(QStringLiteral("latency"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Time calls")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Also attach at the return: a histogram of the time "
                                          "from entry to return, and the slow calls as events"))),
        intOption(QStringLiteral("thresholdUs"),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog", "Event threshold (µs)")),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "With Time calls: record every call at least this slow "
                                         "as an event (-1: none, 0: all)")),
                  -1, -1, 3600ll * 1000 * 1000),
        customUnitsOption(),
        pidOption(),
        uidOption(),
        commOption(),
        intervalOption()};
    p.eventTypes = {EventType::UprobeCall};
    p.producesHistograms = true;
    p.check = checkUprobe;
    p.target = ProbeTarget::BinaryFunction;
    p.keyed = {text(QT_TRANSLATE_NOOP("bpflens::CountersView", "User function calls per key")),
               text(QT_TRANSLATE_NOOP("bpflens::CountersView", "calls per interval")),
               ProbeKeyedCounts::Others::Keys,
               isCountedKey,
               3,
               "uprobe calls by key"};
    p.counters = {keysFullLoss("calls"), unreadableStringsLoss()};
    return p;
}

} // namespace bpflens::probedecl
