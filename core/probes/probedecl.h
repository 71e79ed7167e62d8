#pragma once

// What the probe declarations (core/probes/<id>.h) share: the options many probes have and the
// pieces of the probes that count per key. docs/adding-a-probe.md.

#include "core/events.h"
#include "core/losscounters.h"
#include "core/probecatalog.h"

#include <QCoreApplication>

#include <limits>

namespace bpflens::probedecl {

using Type = ProbeOption::Type;

// Titles and descriptions are marked for translation where they are declared (lupdate reads the
// QT_TRANSLATE_NOOP marks in core/probes/) and translated where shown (QCoreApplication::
// translate("ProbeCatalog", ...)), so a declaration stays plain data.
inline QString text(const char *marked)
{
    return QString::fromUtf8(marked);
}

inline constexpr qint64 maxPid = 4194304; // PID_MAX_LIMIT on 64-bit

inline ProbeOption boolOption(const QString &name, const QString &title, const QString &description,
                              bool def = false)
{
    return {name, Type::Bool, title, description, def, 0, 0, {}};
}

inline ProbeOption intOption(const QString &name, const QString &title, const QString &description,
                             qint64 def, qint64 min, qint64 max)
{
    return {name, Type::Int, title, description, def, min, max, {}};
}

inline ProbeOption stringOption(const QString &name, const QString &title,
                                const QString &description, qint64 maxLength)
{
    return {name, Type::String, title, description, QString(), 0, maxLength, {}};
}

// Text with a default: a probe with a hook is usable as it comes (tppair: syscall latency).
inline ProbeOption textOption(const QString &name, const QString &title, const QString &description,
                              const QString &def, qint64 maxLength)
{
    ProbeOption o = stringOption(name, title, description, maxLength);
    o.defaultValue = def;
    return o;
}

inline ProbeOption pidOption()
{
    return intOption(
        QStringLiteral("pid"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Process ID")),
        text(QT_TRANSLATE_NOOP("ProbeCatalog", "Only this process (0: every process)")), 0, 0,
        maxPid);
}

inline ProbeOption tidOption()
{
    return intOption(QStringLiteral("tid"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Thread ID")),
                     text(QT_TRANSLATE_NOOP("ProbeCatalog", "Only this thread (0: every thread)")),
                     0, 0, maxPid);
}

inline ProbeOption uidOption()
{
    return intOption(QStringLiteral("uid"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "User ID")),
                     text(QT_TRANSLATE_NOOP("ProbeCatalog", "Only this user (-1: every user)")), -1,
                     -1, std::numeric_limits<quint32>::max() - 1);
}

inline ProbeOption commOption()
{
    return stringOption(
        QStringLiteral("comm"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Command name")),
        text(QT_TRANSLATE_NOOP("ProbeCatalog",
                               "Only tasks with this name (as in /proc/PID/comm, up to 15 bytes)")),
        15);
}

inline ProbeOption cgroupOption()
{
    return stringOption(
        QStringLiteral("cgroup"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Cgroup")),
        text(QT_TRANSLATE_NOOP("ProbeCatalog",
                               "Only tasks in this cgroup v2 (a path under /sys/fs/cgroup)")),
        4096);
}

// A container or systemd unit, resolved to its cgroup when the recording starts (Engine).
inline ProbeOption containerOption()
{
    return stringOption(
        QStringLiteral("container"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Container")),
        text(QT_TRANSLATE_NOOP("ProbeCatalog", "Only tasks of this running container: its id, a "
                                               "prefix of it, or a Kubernetes pod's UID")),
        256);
}

inline ProbeOption unitOption()
{
    return stringOption(
        QStringLiteral("unit"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Systemd unit")),
        text(QT_TRANSLATE_NOOP("ProbeCatalog", "Only tasks of this running systemd unit or "
                                               "slice, as nginx.service or user@1000.service")),
        256);
}

inline ProbeOption intervalOption()
{
    return intOption(
        QStringLiteral("interval"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Interval (ms)")),
        text(QT_TRANSLATE_NOOP("ProbeCatalog", "How often histograms are snapshotted")), 1000, 100,
        3600 * 1000);
}

inline ProbeOption unitsOption()
{
    return {QStringLiteral("units"),
            Type::Choice,
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "Units")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "Histogram units, like biolatency -m")),
            QStringLiteral("usecs"),
            0,
            0,
            {QStringLiteral("usecs"), QStringLiteral("msecs")}};
}

// The latency probes of custom hooks (tppair, uprobe) time anything from nanoseconds up.
inline ProbeOption customUnitsOption()
{
    return {QStringLiteral("units"),
            Type::Choice,
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "Units")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "Histogram units")),
            QStringLiteral("usecs"),
            0,
            0,
            {QStringLiteral("nsecs"), QStringLiteral("usecs"), QStringLiteral("msecs")}};
}

// Kernel functions can be hooked two ways; auto takes fentry where the kernel has it. Forcing
// kprobes exercises (and measures) the path older or locked-down kernels would take.
inline ProbeOption attachOption()
{
    return {QStringLiteral("attach"),
            Type::Choice,
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "Function hooks")),
            text(QT_TRANSLATE_NOOP(
                "ProbeCatalog",
                "How kernel functions are traced: auto (fentry where the kernel supports it, else "
                "kprobes), fentry only, or kprobes only")),
            QStringLiteral("auto"),
            0,
            0,
            {QStringLiteral("auto"), QStringLiteral("fentry"), QStringLiteral("kprobe")}};
}

// The same filter with a probe-specific meaning (what "in this process" covers).
inline ProbeOption withDescription(ProbeOption o, const QString &description)
{
    o.description = description;
    return o;
}

inline ProbeOption internalOption(ProbeOption o)
{
    o.internal = true;
    return o;
}

// What the caller resolved for a uprobe or USDT hook (client/probetargets.h, probehooks.h).
inline QList<ProbeOption> hookOptions(const QString &prefix)
{
    return {
        internalOption(intOption(prefix + QStringLiteral("Offset"), QStringLiteral("Offset"),
                                 QString(), 0, 0, std::numeric_limits<qint64>::max())),
        internalOption(stringOption(prefix + QStringLiteral("Args"),
                                    QStringLiteral("Argument specs"), QString(), 1024)),
        internalOption(intOption(prefix + QStringLiteral("Semaphore"), QStringLiteral("Semaphore"),
                                 QString(), 0, 0, std::numeric_limits<qint64>::max())),
        // A USDT probe at several places: every site (core/usdtargs.h), at most MaxUsdtSites.
        internalOption(stringOption(prefix + QStringLiteral("Sites"), QStringLiteral("Sites"),
                                    QString(), 32768)),
    };
}

// The keys of the probes that count per key (uprobe's calls, usdt's and tpcount's hits: "calls",
// "hits", "arg1=42", "\"GET\"", "next.pid=12", "comm=dd id=1"), not the engine's own counters
// (histogramMapFull), which the Summary names.
inline bool isCountedKey(const QString &name)
{
    return name == QLatin1String("calls") || name == QLatin1String("hits") ||
           name.startsWith(QLatin1Char('"')) || name.contains(QLatin1Char('='));
}

inline ProbeCounter lossCounter(const QString &name, const QString &line)
{
    return {name, ProbeCounter::Role::Loss, line};
}

// The loss counters of the probes that count per key (losscounters.h), as show words them.
inline ProbeCounter keysFullLoss(const char *what)
{
    return lossCounter(KeyedLoss::keysFull(),
                       QStringLiteral("%1 ") + QLatin1String(what) +
                           QStringLiteral(" not counted by key: the map of keys was full"));
}

inline ProbeCounter unreadableStringsLoss()
{
    return lossCounter(KeyedLoss::unreadableStrings(),
                       QStringLiteral("%1 string arguments unreadable (NULL or not mapped), "
                                      "counted under \"\""));
}

} // namespace bpflens::probedecl
