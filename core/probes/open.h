#pragma once

#include "core/openflags.h"
#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// The flag filter's names, as the BPF program will match them.
inline bool checkOpen(const QString &id, const QVariantMap &options, QString *error)
{
    if (!options.contains(QStringLiteral("flags")))
        return true;
    quint32 bits = 0;
    quint8 modes = 0;
    QString why;
    if (!OpenFlags::parse(options.value(QStringLiteral("flags")).toString(), &bits, &modes, &why)) {
        *error = QStringLiteral("probe %1, option flags: %2").arg(id, why);
        return false;
    }
    return true;
}

// Files opened: opensnoop.
inline ProbeInfo openProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("open");
    p.group = ProbeGroup::Files;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "File opens"));
    p.description = text(
        QT_TRANSLATE_NOOP("ProbeCatalog", "Every open, openat, openat2 and creat, like opensnoop"));
    p.options = {
        pidOption(),
        tidOption(),
        uidOption(),
        commOption(),
        cgroupOption(),
        containerOption(),
        unitOption(),
        boolOption(QStringLiteral("failedOnly"),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "Failed opens only")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Only report opens that failed, like opensnoop -x"))),
        stringOption(
            QStringLiteral("flags"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "With flags")),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "Only opens with one of these flags, as "
                                                   "O_WRONLY,O_RDWR,O_CREAT (opensnoop -f)")),
            200),
        boolOption(QStringLiteral("fullPath"),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog", "Full paths")),
                   text(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Resolve relative paths against the directory they "
                                          "were opened in, like opensnoop -F"))),
        // The cheapest way the kernel allows is auto's; forcing one exercises (and measures)
        // what another kernel would take.
        {QStringLiteral("attach"),
         ProbeOption::Type::Choice,
         text(QT_TRANSLATE_NOOP("ProbeCatalog", "Syscall hooks")),
         text(QT_TRANSLATE_NOOP(
             "ProbeCatalog",
             "How the open calls are hooked: auto (fexit on the syscall handlers where the kernel "
             "supports it; else the raw sys_exit tracepoint, which every system call runs but "
             "which alone sees 32-bit processes' calls, where they can run; else the per-syscall "
             "tracepoints), or only one of them")),
         QStringLiteral("auto"),
         0,
         0,
         {QStringLiteral("auto"), QStringLiteral("fexit"), QStringLiteral("sys_exit"),
          QStringLiteral("tracepoints")}}};
    p.eventTypes = {EventType::Open};
    p.check = checkOpen;
    return p;
}

} // namespace bpflens::probedecl
