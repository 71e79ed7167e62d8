#include "cli/commands.h"
#include "cli/common.h"

#include "cli/diffreport.h"
#include "core/sessiondiff.h"

namespace bpflens::cli {

int diff(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "What changed from session A to session B: the histograms both hold (p50, p90, p99), "
        "event counts per type, per type the busiest processes, commands, files, disks, "
        "destinations, operations and errors side by side, and the functions whose share "
        "of the on-CPU and off-CPU profiles and of the bytes still in use (memleak) changed "
        "most."));
    parser.addPositionalArgument(QStringLiteral("A"),
                                 QStringLiteral("The session to compare with."));
    parser.addPositionalArgument(QStringLiteral("B"), QStringLiteral("The session compared."));
    parser.addOption({QStringLiteral("top"),
                      QStringLiteral("Keys per event type and dimension, and functions per "
                                     "profile (0: all)."),
                      QStringLiteral("N"), QStringLiteral("10")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("diff"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 2)
        return fail(QStringLiteral("diff needs two session files (bpflens-cli diff A B)"), Usage);
    bool ok = false;
    const int top = parser.value(QStringLiteral("top")).toInt(&ok);
    if (!ok || top < 0)
        return fail(QStringLiteral("--top expects a number of rows, 0 for all"), Usage);
    const QString pathA = parser.positionalArguments().at(0);
    const QString pathB = parser.positionalArguments().at(1);
    SessionData a, b;
    if (!loadSession(pathA, &a, &status) || !loadSession(pathB, &b, &status))
        return status;
    out() << diffText(diffSessions(a, b, top), pathA, pathB);
    return Ok;
}

} // namespace bpflens::cli
