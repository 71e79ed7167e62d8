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
                  20, 1, 20),
        // How failed execs are seen (only with "failed"): auto is the cheapest way the kernel
        // allows; forcing one exercises (and measures) what another kernel would take.
        {QStringLiteral("attach"),
         ProbeOption::Type::Choice,
         text(QT_TRANSLATE_NOOP("ProbeCatalog", "Syscall hooks")),
         text(QT_TRANSLATE_NOOP(
             "ProbeCatalog",
             "How failed execs are seen: auto (fexit on the syscall handlers where the kernel "
             "supports it; else the raw sys_exit tracepoint, which every system call runs but "
             "which alone sees 32-bit processes' calls, where they can run; else the per-syscall "
             "tracepoints, and the raw sys_exit where there are none), or only one of them")),
         QStringLiteral("auto"),
         0,
         0,
         {QStringLiteral("auto"), QStringLiteral("fexit"), QStringLiteral("sys_exit"),
          QStringLiteral("tracepoints")}}};
    p.eventTypes = {EventType::Exec};
    return p;
}

} // namespace bpflens::probedecl
