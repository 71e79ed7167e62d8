#include "cli/commands.h"
#include "cli/common.h"

#include "core/sessionsalvage.h"

#include <QFile>
#include <QFileInfo>

namespace bpflens::cli {

int recover(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Writes what can be read of a damaged session into a new file."));
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A damaged .bpflens session file."));
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                      QStringLiteral("The new session file (must not exist)."),
                      QStringLiteral("file")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("recover"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("recover takes one session file"), Usage);
    if (!parser.isSet(QStringLiteral("output")))
        return fail(QStringLiteral("recover needs -o NEW"), Usage);
    const QString source = parser.positionalArguments().first();
    const QString target = parser.value(QStringLiteral("output"));
    if (QFileInfo::exists(target))
        return fail(QStringLiteral("%1 exists; recover does not overwrite").arg(target));
    SessionData data;
    if (!loadSession(source, &data, &status, true))
        return status;
    QString error;
    if (!writeSessionCopy(data, target, &error)) {
        QFile::remove(target);
        return fail(error);
    }
    out() << QStringLiteral("Wrote %1: %2 events, %3 histogram snapshots, %4 statistics rows, "
                            "%5 counter samples\n")
                 .arg(target)
                 .arg(data.events.totalCount())
                 .arg(data.histograms.size())
                 .arg(data.stats.size())
                 .arg(data.counters.size());
    if (data.damage.isDamaged()) {
        out() << "Damaged:\n";
        printDamage(out(), data.damage, QStringLiteral("  "));
    } else {
        out() << source << " is not damaged: the copy holds all of it\n";
    }
    const bool any = data.events.totalCount() || !data.histograms.isEmpty() ||
                     !data.stats.isEmpty() || !data.counters.isEmpty();
    return any ? Ok : NoSession;
}

} // namespace bpflens::cli
