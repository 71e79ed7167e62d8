#pragma once

#include "core/probes/probedecl.h"
#include "core/usdtargs.h"

namespace bpflens::probedecl {

// Its key may name any of the 12 arguments a USDT probe may have; its specs are the client's.
inline bool checkUsdt(const QString &id, const QVariantMap &options, QString *error)
{
    ProbeCatalog::UprobeKey key;
    QString why;
    if (!ProbeCatalog::parseUprobeKey(options.value(QStringLiteral("key")).toString(), &key, &why,
                                      MaxUsdtArgs)) {
        *error = QStringLiteral("probe %1, option key: %2").arg(id, why);
        return false;
    }
    if (options.value(QStringLiteral("target")).toString().trimmed().isEmpty()) {
        *error =
            QStringLiteral("probe %1: no USDT probe given (target=BINARY:PROVIDER:NAME)").arg(id);
        return false;
    }
    QList<UsdtArg> args;
    if (!parseUsdtArgs(options.value(QStringLiteral("args")).toString(), &args, &why)) {
        *error = QStringLiteral("probe %1, option args: %2").arg(id, why);
        return false;
    }
    return true;
}

// Hits of a static probe in a program or library (docs/usdt.md).
inline ProbeInfo usdtProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("usdt");
    p.group = ProbeGroup::Custom;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "USDT probe hits"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "Hits of a static probe (USDT, sys/sdt.h) in a program or library counted per "
        "interval, optionally per argument, and recorded with their arguments"));
    p.options = {
        textOption(QStringLiteral("target"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "USDT probe")),
                   text(QT_TRANSLATE_NOOP(
                       "ProbeCatalog",
                       "BINARY:PROVIDER:NAME or BINARY:NAME, the binary as a path, a library "
                       "name or a program in PATH, e.g. /usr/bin/python3:python:function__entry")),
                   QStringLiteral("libstdc++:libstdcxx:throw"), 1024),
        textOption(QStringLiteral("key"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Count by")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "What the hits are counted by: empty (all together), "
                                          "argN (the value of argument N, from 0) or str(argN) "
                                          "(the string argument N points to)")),
                   QString(), 16),
        intOption(QStringLiteral("strLength"),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog", "String length")),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "Bytes of a string argument kept as its key, with the "
                                         "terminating NUL")),
                  64, 1, 128),
        boolOption(QStringLiteral("events"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Record hits")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Record every hit as an event with its arguments "
                                          "(off: counts only, for probes that fire often)")),
                   true),
        pidOption(),
        uidOption(),
        commOption(),
        intervalOption(),
        internalOption(stringOption(QStringLiteral("args"), QStringLiteral("Argument specs"),
                                    QString(), 1024)),
        internalOption(intOption(QStringLiteral("semaphore"), QStringLiteral("Semaphore"),
                                 QString(), 0, 0, std::numeric_limits<qint64>::max())),
        internalOption(
            stringOption(QStringLiteral("sites"), QStringLiteral("Sites"), QString(), 32768))};
    p.eventTypes = {EventType::Usdt};
    p.check = checkUsdt;
    p.target = ProbeTarget::Usdt;
    p.keyed = {text(QT_TRANSLATE_NOOP("bpflens::CountersView", "USDT probe hits per key")),
               text(QT_TRANSLATE_NOOP("bpflens::CountersView", "hits per interval")),
               ProbeKeyedCounts::Others::Keys,
               isCountedKey,
               4,
               "USDT probe hits by key"};
    p.counters = {
        keysFullLoss("hits"),
        unreadableStringsLoss(),
        lossCounter(KeyedLoss::argumentFaults(),
                    QStringLiteral("%1 arguments unreadable (memory not mapped), read as 0")),
    };
    return p;
}

} // namespace bpflens::probedecl
