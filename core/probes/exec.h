#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// A process executed a program: execsnoop.
inline ProbeInfo execProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("exec");
    p.group = ProbeGroup::Processes;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Process execution"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog", "Every exec with its full argument list, like execsnoop"));
    p.options = {
        pidOption(),
        uidOption(),
        commOption(),
        cgroupOption(),
        containerOption(),
        unitOption(),
        boolOption(QStringLiteral("failed"),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "Include failed execs")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Also report execs that failed, like execsnoop -x"))),
        stringOption(QStringLiteral("name"),
                     text(QT_TRANSLATE_NOOP("ProbeCatalog", "Name contains")),
                     text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                            "Only commands whose name contains this text, like "
                                            "execsnoop -n")),
                     15),
        stringOption(
            QStringLiteral("line"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Arguments contain")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "Only execs whose arguments, joined by spaces, "
                                                   "contain this text, like execsnoop -l")),
            256),
        intOption(QStringLiteral("maxArgs"),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog", "Maximum arguments")),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "Read at most this many arguments; an exec with more is "
                                         "marked truncated, like execsnoop --max-args")),
                  20, 1, 20)};
    p.eventTypes = {EventType::Exec};
    return p;
}

} // namespace bpflens::probedecl
