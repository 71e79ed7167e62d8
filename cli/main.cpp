#include "cli/commands.h"
#include "cli/outputfile.h"
#include "cli/serve.h"

#include <QCoreApplication>
#include <QTextStream>

namespace {

int run(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("bpflens-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(BPFLENS_VERSION));
    QStringList args = app.arguments().mid(1);
    const QString command = args.isEmpty() ? QString() : args.takeFirst();
    using namespace bpflens::cli;
    if (command == QLatin1String("probes"))
        return probes(args);
    if (command == QLatin1String("record"))
        return record(args);
    if (command == QLatin1String("show"))
        return show(args);
    if (command == QLatin1String("export"))
        return exportSession(args);
    if (command == QLatin1String("recover"))
        return recover(args);
    if (command == QLatin1String("query"))
        return query(args);
    if (command == QLatin1String("diff"))
        return diff(args);
    if (command == QLatin1String("serve"))
        return serve(args);
    if (command == QLatin1String("top"))
        return top(args);
    if (command == QLatin1String("explain"))
        return explain(args);
    if (command == QLatin1String("critical-path"))
        return criticalPathCommand(args);
    if (command == QLatin1String("--version")) {
        standardOutput() << "bpflens-cli " << BPFLENS_VERSION << '\n';
        return Ok;
    }
    if (!command.isEmpty() && command != QLatin1String("--help") &&
        command != QLatin1String("-h")) {
        QTextStream(stderr)
            << "bpflens-cli: unknown command \"" << command
            << "\" (commands: probes, record, show, export, recover, query, diff, serve, top, "
               "explain, critical-path; "
               "see "
               "bpflens-cli --help)\n";
        return Usage;
    }
    standardOutput()
        << "Usage: bpflens-cli <command> [options]\n"
           "  probes [--json]                       the probes and whether this kernel runs them\n"
           "  record --probe ID[:opt=v,...] ...     record into a session file (--duration, "
           "--output)\n"
           "  record --host [user@]host ...         record another machine over ssh "
           "(docs/remote.md)\n"
           "  show FILE [--probe ID] [--top N]      session summary, histograms, top functions\n"
           "  export FILE --csv DIR [--probe ID]    CSV files\n"
           "  export FILE --folded [-o OUT]         folded stacks for flame graphs "
           "(--off-cpu, --by-process)\n"
           "  export FILE --trace OUT.json          Perfetto / chrome://tracing trace\n"
           "  export FILE --jsonl [-o OUT]          JSON lines, one event each, for jq\n"
           "  recover FILE -o NEW                   what a damaged file still holds, into NEW\n"
           "  query FILE SQL [--format csv|json]    SQL over the events, histograms, stacks\n"
           "  diff A B [--top N]                    what changed from session A to B\n"
           "  serve --probe ID ... [--listen A:P]   probes as Prometheus metrics on /metrics\n"
           "  top FILE [--by D] [--metric M]        top processes, files, disks, errors...\n"
           "  top FILE --stats                      latency p50..p99.9 and max per probe, key\n"
           "  explain FILE --from T --to T          what is over-represented in a time range\n"
           "  critical-path FILE --tid N            what a thread waited for, wakeup by wakeup\n"
           "Each command takes --help.\n";
    return Ok;
}

} // namespace

int main(int argc, char **argv)
{
    // Every command's output is checked once it is complete, flush and close included.
    return bpflens::cli::finishStandardOutput(run(argc, argv));
}
