#include "cli/commands.h"
#include "cli/common.h"

#include "cli/topreport.h"
#include "core/cgroups.h"
#include "core/toplists.h"

#include <limits>
#include <optional>

namespace bpflens::cli {

int top(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The top processes, commands, files, disks, destinations, operations, errors, "
        "containers or systemd units of a session by count, total latency, p99 latency or "
        "bytes; with --stats, the latency statistics per probe and key (docs/top.md, "
        "docs/containers.md)."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A session file."));
    parser.addOption({QStringLiteral("by"),
                      QStringLiteral("process, command, file, disk, destination, operation, "
                                     "error, container or unit."),
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
    const QString by = parser.value(QStringLiteral("by"));
    std::optional<CgroupKey> cgroupKey;
    if (by == QLatin1String("container"))
        cgroupKey = CgroupKey::Container;
    else if (by == QLatin1String("unit"))
        cgroupKey = CgroupKey::Unit;
    const auto dimension = cgroupKey ? std::optional(Dimension::Process) : dimensionFromName(by);
    if (!dimension)
        return fail(QStringLiteral("--by expects process, command, file, disk, destination, "
                                   "operation, error, container or unit, not \"%1\"")
                        .arg(by),
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
    if (cgroupKey) {
        q.metric = *metric;
        q.type = type;
        q.limit = limit;
        // A session from before BPF Lens kept cgroups, or from a machine without cgroup v2,
        // names none: said once, instead of a list of "[unknown]".
        if (data.cgroups.isEmpty() && format == ReportFormat::Text)
            QTextStream(stderr) << QStringLiteral(
                                       "bpflens-cli: %1 names no cgroups (recorded before BPF "
                                       "Lens kept them, or on a machine without a cgroup v2 "
                                       "hierarchy): every event is [unknown]\n")
                                       .arg(parser.positionalArguments().first());
        out() << topReport(topListByCgroup(data.events, data.cgroups, *cgroupKey, q), by, *metric,
                           format, type);
        return Ok;
    }
    q.dimension = *dimension;
    q.metric = *metric;
    q.type = type;
    q.limit = limit;
    // Ordered by a sum, a list over every probe would add unlike quantities: a process's 3 s
    // off the CPU and 1 ms on the disk are no "total latency" of 3.001 s. With more than one
    // probe whose events have the metric and the dimension, each gets its own list (as the
    // Top tab orders one probe's events); CSV and JSON keep one table, so they ask for one.
    if (*metric != TopMetric::Count && !type) {
        QList<EventType> kinds;
        for (EventType t : eventTypes) {
            bool has = false;
            visitEventType(t, [&]<typename E>() {
                has = *metric == TopMetric::Bytes ? hasBytes<E> : hasLatency<E>;
            });
            if (has && data.events.count(t) > 0 && typeHasDimension(t, *dimension))
                kinds << t;
        }
        if (kinds.size() > 1) {
            QStringList ids;
            for (EventType t : std::as_const(kinds))
                ids << QLatin1String(probeIdOf(t));
            const QString what =
                *metric == TopMetric::Bytes ? QStringLiteral("bytes") : QStringLiteral("latencies");
            if (format != ReportFormat::Text)
                return fail(QStringLiteral("--metric %1: the %2 of %3 do not add up; pass "
                                           "--probe %4")
                                .arg(metricName(*metric), what, ids.join(QStringLiteral(", ")),
                                     ids.join(QStringLiteral(" or --probe "))),
                            Usage);
            QString text = QStringLiteral("The %1 of %2 do not add up: one list per probe "
                                          "(--probe ID for one).\n")
                               .arg(what, ids.join(QStringLiteral(", ")));
            for (EventType t : std::as_const(kinds)) {
                q.type = t;
                text += QLatin1Char('\n') +
                        topReport(topList(data.events, q), *dimension, *metric, format, t);
            }
            out() << text;
            return Ok;
        }
    }
    out() << topReport(topList(data.events, q), *dimension, *metric, format);
    return Ok;
}

} // namespace bpflens::cli
