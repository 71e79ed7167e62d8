#include "commands.h"
#include "common.h"

#include "toplists.h"
#include "topreport.h"

#include <limits>
#include <optional>

namespace bpflens::cli {

int top(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The top processes, commands, files, disks, destinations, operations or errors of a "
        "session by count, total latency, p99 latency or bytes; with --stats, the latency "
        "statistics per probe and key (docs/top.md)."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A session file."));
    parser.addOption({QStringLiteral("by"),
                      QStringLiteral("process, command, file, disk, destination, operation or "
                                     "error."),
                      QStringLiteral("DIMENSION"), QStringLiteral("process")});
    parser.addOption({QStringLiteral("metric"),
                      QStringLiteral("count, latency (total), p99 or bytes."),
                      QStringLiteral("METRIC"), QStringLiteral("count")});
    parser.addOption({QStringLiteral("probe"), QStringLiteral("Only this probe's events."),
                      QStringLiteral("ID")});
    parser.addOption({QStringLiteral("limit"), QStringLiteral("Rows (0: all)."),
                      QStringLiteral("N"), QStringLiteral("10")});
    parser.addOption(
        {QStringLiteral("stats"), QStringLiteral("Latency statistics per probe and key instead.")});
    parser.addOption({QStringLiteral("csv"), QStringLiteral("CSV output.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("JSON output.")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("top"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("top takes one session file"), Usage);
    const auto dimension = dimensionFromName(parser.value(QStringLiteral("by")));
    if (!dimension)
        return fail(QStringLiteral("--by expects process, command, file, disk, destination, "
                                   "operation or error, not \"%1\"")
                        .arg(parser.value(QStringLiteral("by"))),
                    Usage);
    const auto metric = metricFromName(parser.value(QStringLiteral("metric")));
    if (!metric)
        return fail(QStringLiteral("--metric expects count, latency, p99 or bytes, not \"%1\"")
                        .arg(parser.value(QStringLiteral("metric"))),
                    Usage);
    bool ok = false;
    const int limit = parser.value(QStringLiteral("limit")).toInt(&ok);
    if (!ok || limit < 0)
        return fail(QStringLiteral("--limit expects a number of rows, 0 for all"), Usage);
    if (parser.isSet(QStringLiteral("csv")) && parser.isSet(QStringLiteral("json")))
        return fail(QStringLiteral("--csv and --json exclude each other"), Usage);
    std::optional<EventType> type;
    if (parser.isSet(QStringLiteral("probe"))) {
        const QString id = parser.value(QStringLiteral("probe"));
        for (EventType t : eventTypes) {
            if (QLatin1String(probeIdOf(t)) == id)
                type = t;
        }
        if (!type)
            return fail(QStringLiteral("--probe: no probe records events as \"%1\"").arg(id),
                        Usage);
    }
    const ReportFormat format = parser.isSet(QStringLiteral("csv"))    ? ReportFormat::Csv
                                : parser.isSet(QStringLiteral("json")) ? ReportFormat::Json
                                                                       : ReportFormat::Text;
    SessionData data;
    if (!loadSession(parser.positionalArguments().first(), &data, &status))
        return status;
    if (parser.isSet(QStringLiteral("stats"))) {
        out() << statsReport(
            latencyStats(data.events, 0, std::numeric_limits<quint64>::max(), {}, type),
            data.events, data.info.startMonotonicNs, format);
        return Ok;
    }
    TopQuery q;
    q.dimension = *dimension;
    q.metric = *metric;
    q.type = type;
    q.limit = limit;
    out() << topReport(topList(data.events, q), *dimension, *metric, format);
    return Ok;
}

} // namespace bpflens::cli
