#include "cli/commands.h"
#include "cli/common.h"

#include "cli/explainreport.h"
#include "core/units.h"

#include <QHash>
#include <QLocale>

#include <algorithm>
#include <optional>

namespace bpflens::cli {

int explain(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "What is over-represented in a time range against the rest of the session: the "
        "processes, commands, files, disks, destinations, operations, errors and CPU functions "
        "whose share of the range's events is larger than their share outside (docs/explain.md)."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A session file."));
    parser.addOption({QStringLiteral("from"),
                      QStringLiteral("Start of the range after the session's start (12.5, 12.5s, "
                                     "1500ms; default: the start)."),
                      QStringLiteral("T")});
    parser.addOption({QStringLiteral("to"),
                      QStringLiteral("End of the range (default: the session's end)."),
                      QStringLiteral("T")});
    parser.addOption({QStringLiteral("type"), QStringLiteral("Only this probe's events."),
                      QStringLiteral("ID")});
    parser.addOption({QStringLiteral("min-latency"),
                      QStringLiteral("Only events with a latency of at least this (10ms)."),
                      QStringLiteral("DURATION")});
    parser.addOption({QStringLiteral("max-latency"),
                      QStringLiteral("Only events with a latency below this."),
                      QStringLiteral("DURATION")});
    parser.addOption({QStringLiteral("limit"), QStringLiteral("Rows (0: all)."),
                      QStringLiteral("N"), QStringLiteral("20")});
    parser.addOption({QStringLiteral("csv"), QStringLiteral("CSV output.")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("JSON output.")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("explain"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("explain takes one session file"), Usage);
    std::optional<quint64> from, to;
    for (const auto &[name, value] :
         {std::pair{QStringLiteral("from"), &from}, std::pair{QStringLiteral("to"), &to}}) {
        if (!parser.isSet(name))
            continue;
        *value = parseOffset(parser.value(name));
        if (!*value)
            return fail(QStringLiteral("--%1 expects a time after the session's start (12.5, "
                                       "12.5s, 1500ms), not \"%2\"")
                            .arg(name, parser.value(name).left(32)),
                        Usage);
    }
    if (from && to && *from >= *to)
        return fail(QStringLiteral("--from must be before --to"), Usage);
    ExplainQuery q;
    for (const auto &[name, value] :
         {std::pair{QStringLiteral("min-latency"), &q.filter.minLatencyNs},
          std::pair{QStringLiteral("max-latency"), &q.filter.maxLatencyNs}}) {
        if (!parser.isSet(name))
            continue;
        // The GUI's parser: a latency copied from the window ("2097.2 µs", "1.25 ms") works.
        const auto ns = parseLatencyNs(parser.value(name), QLocale::c(), 1'000'000'000);
        if (!ns)
            return fail(QStringLiteral("--%1: \"%2\" is not a duration (examples: 800ns, "
                                       "2097.2us, 1.25ms, 0.5s)")
                            .arg(name, parser.value(name).left(32)),
                        Usage);
        *value = *ns;
    }
    bool ok = false;
    q.limit = parser.value(QStringLiteral("limit")).toInt(&ok);
    if (!ok || q.limit < 0)
        return fail(QStringLiteral("--limit expects a number of rows, 0 for all"), Usage);
    if (parser.isSet(QStringLiteral("csv")) && parser.isSet(QStringLiteral("json")))
        return fail(QStringLiteral("--csv and --json exclude each other"), Usage);
    if (parser.isSet(QStringLiteral("type"))) {
        const QString id = parser.value(QStringLiteral("type"));
        for (EventType t : eventTypes) {
            if (QLatin1String(probeIdOf(t)) == id)
                q.type = t;
        }
        if (!q.type)
            return fail(QStringLiteral("--type: no probe records events as \"%1\"").arg(id), Usage);
    }
    const ReportFormat format = parser.isSet(QStringLiteral("csv"))    ? ReportFormat::Csv
                                : parser.isSet(QStringLiteral("json")) ? ReportFormat::Json
                                                                       : ReportFormat::Text;
    SessionData data;
    if (!loadSession(parser.positionalArguments().first(), &data, &status))
        return status;
    const quint64 start = data.info.startMonotonicNs;
    const quint64 end = std::max({data.info.endMonotonicNs, data.events.lastTimeNs() + 1, start});
    q.startNs = start + from.value_or(0);
    q.endNs = to ? start + *to : end;
    if (q.startNs >= end)
        return fail(QStringLiteral("--from %1 is after the session's end (%2 s)")
                        .arg(parser.value(QStringLiteral("from")))
                        .arg(double(end - start) / 1e9, 0, 'f', 3));
    out() << explainReport(explainRange(data.events, q, &data.stacks), q.startNs - start,
                           q.endNs - start, format);
    return Ok;
}

} // namespace bpflens::cli
