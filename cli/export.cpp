#include "cli/commands.h"
#include "cli/common.h"

#include "cli/profilereport.h"
#include "core/cgroupfilter.h"
#include "core/csvexport.h"
#include "core/jsonlexport.h"
#include "core/pprofexport.h"
#include "core/specialfile.h"
#include "core/traceexport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cstdio>
#include <optional>

namespace bpflens::cli {

namespace {

// --from and --to, offsets from the session's start; Ok, or fail()'s status.
int parseRange(const QCommandLineParser &parser, std::optional<quint64> *from,
               std::optional<quint64> *to)
{
    for (const auto &[name, value] :
         {std::pair{QStringLiteral("from"), from}, std::pair{QStringLiteral("to"), to}}) {
        if (!parser.isSet(name))
            continue;
        *value = parseOffset(parser.value(name));
        if (!*value)
            return fail(QStringLiteral("--%1 expects a time after the session's start (12.5, "
                                       "12.5s, 1500ms), not \"%2\"")
                            .arg(name, parser.value(name).left(32)),
                        Usage);
    }
    if (*from && *to && **from >= **to)
        return fail(QStringLiteral("--from must be before --to"), Usage);
    return Ok;
}

// The session's end as the range options see it: its recorded end, or its last event.
quint64 rangeEnd(const SessionData &data)
{
    const quint64 start = data.info.startMonotonicNs;
    return std::max({data.info.endMonotonicNs, data.events.lastTimeNs() + 1, start});
}

// export --folded: one profile as folded stacks, into a file or onto stdout.
int exportFolded(const QCommandLineParser &parser)
{
    const bool userOnly = parser.isSet(QStringLiteral("user-only"));
    const bool kernelOnly = parser.isSet(QStringLiteral("kernel-only"));
    if (userOnly && kernelOnly)
        return fail(QStringLiteral("--user-only and --kernel-only exclude each other"), Usage);
    for (const char *csvOnly : {"probe", "json"}) {
        if (parser.isSet(QLatin1String(csvOnly)))
            return fail(QStringLiteral("--%1 applies to --csv; --folded exports the CPU samples, "
                                       "or the off-CPU waits with --off-cpu")
                            .arg(QLatin1String(csvOnly)),
                        Usage);
    }
    const QString path = parser.positionalArguments().first();
    if (const QString output = parser.value(QStringLiteral("output"));
        output != QLatin1String("-")) {
        if (QString why; !mayWriteOver(output, parser.isSet(QStringLiteral("force")), &why))
            return fail(why);
    }
    const bool offWake = parser.isSet(QStringLiteral("off-wake"));
    const bool allocations = parser.isSet(QStringLiteral("allocations"));
    QStringList kinds;
    for (const char *k : {"off-cpu", "off-wake", "page-faults", "allocations"}) {
        if (parser.isSet(QLatin1String(k)))
            kinds << QStringLiteral("--") + QLatin1String(k);
    }
    if (kinds.size() > 1)
        return fail(
            QStringLiteral("%1 exclude each other").arg(kinds.join(QStringLiteral(" and "))),
            Usage);
    if (offWake && parser.isSet(QStringLiteral("by-process")))
        return fail(QStringLiteral("--by-process does not apply to --off-wake: its lines start "
                                   "with the blocked thread's command already"),
                    Usage);
    if (!allocations) {
        if (parser.isSet(QStringLiteral("alloc-space")))
            return fail(QStringLiteral("--alloc-space applies to --folded --allocations"), Usage);
        for (const char *rangeOnly : {"from", "to"}) {
            if (parser.isSet(QLatin1String(rangeOnly)))
                return fail(QStringLiteral("--%1 applies to --pprof and to --folded --allocations")
                                .arg(QLatin1String(rangeOnly)),
                            Usage);
        }
    }
    std::optional<quint64> from, to;
    if (const int status = parseRange(parser, &from, &to); status != Ok)
        return status;
    SessionData data;
    int status = Ok;
    if (!loadSession(path, &data, &status))
        return status;
    const StackPart part = userOnly     ? StackPart::UserOnly
                           : kernelOnly ? StackPart::KernelOnly
                                        : StackPart::Both;
    QByteArray folded;
    if (offWake) {
        if (!data.events.count(EventType::OffWake))
            return fail(QStringLiteral("%1 has no off-wake waits: record them with --probe %2")
                            .arg(path, QLatin1String(EventTraits<OffWakeEvent>::probeId)));
        folded = cli::foldedOffWake(data, part);
    }
    const bool offCpu = parser.isSet(QStringLiteral("off-cpu"));
    const bool pageFaults = parser.isSet(QStringLiteral("page-faults"));
    const ProfileKind kind =
        allocations  ? (parser.isSet(QStringLiteral("alloc-space")) ? ProfileKind::AllocBytes
                                                                    : ProfileKind::InuseBytes)
        : pageFaults ? ProfileKind::PageFaults
        : offCpu     ? ProfileKind::OffCpu
                     : ProfileKind::OnCpu;
    if (pageFaults && !data.events.count(EventType::PageFault))
        return fail(QStringLiteral("%1 has no page faults: record them with --probe %2")
                        .arg(path, QLatin1String(EventTraits<PageFaultEvent>::probeId)));
    // The blocks allocated in the range, in use at its end: what grew between two moments.
    AllocationQuery range;
    if (allocations) {
        if (!data.events.count(EventType::Allocation))
            return fail(QStringLiteral("%1 has no allocations: record them with --probe %2")
                            .arg(path, QLatin1String(EventTraits<AllocationEvent>::probeId)));
        const quint64 start = data.info.startMonotonicNs;
        if (from && start + *from >= rangeEnd(data))
            return fail(QStringLiteral("--from %1 is after the session's end (%2 s)")
                            .arg(parser.value(QStringLiteral("from")))
                            .arg(double(rangeEnd(data) - start) / 1e9, 0, 'f', 3));
        range.startNs = start + from.value_or(0);
        if (to && start + *to < rangeEnd(data))
            range.endNs = start + *to;
    }
    if (!offWake && !pageFaults && !allocations &&
        !data.events.count(offCpu ? EventType::OffCpu : EventType::CpuSample))
        return fail(offCpu ? QStringLiteral("%1 has no off-CPU waits: record them "
                                            "with --probe offcpu")
                                 .arg(path)
                           : QStringLiteral("%1 has no CPU samples: record them with --probe "
                                            "profile (or export the off-CPU waits with --off-cpu, "
                                            "the page faults with --page-faults, the allocations "
                                            "with --allocations)")
                                 .arg(path));
    if (!offWake)
        folded =
            cli::foldedProfile(data, kind, part, parser.isSet(QStringLiteral("by-process")), range);
    const QString output = parser.value(QStringLiteral("output"));
    if (output.isEmpty() || output == QLatin1String("-")) {
        out().flush();
        if (std::fwrite(folded.constData(), 1, size_t(folded.size()), stdout) !=
                size_t(folded.size()) ||
            std::fflush(stdout) != 0)
            return fail(QStringLiteral("cannot write the folded stacks to standard output"));
        return Ok;
    }
    // Whole or not at all: a flame graph made from half a file would look plausible.
    QString error;
    if (!writeWholeFile(
            output, [&](QIODevice *file) { return file->write(folded) == folded.size(); }, &error))
        return fail(error);
    return Ok;
}

// export --trace FILE and --jsonl [-o FILE]: one file, or standard output for "-".
int exportJson(const QCommandLineParser &parser, bool trace)
{
    for (const char *other : {"probe", "json", "off-cpu", "page-faults", "allocations",
                              "alloc-space", "user-only", "kernel-only", "by-process"}) {
        if (parser.isSet(QLatin1String(other)))
            return fail(QStringLiteral("--%1 does not apply to --%2")
                            .arg(QLatin1String(other),
                                 trace ? QStringLiteral("trace") : QStringLiteral("jsonl")),
                        Usage);
    }
    if (trace && parser.isSet(QStringLiteral("output")))
        return fail(QStringLiteral("--trace takes the file to write: --trace out.json"), Usage);
    const QString output =
        trace ? parser.value(QStringLiteral("trace")) : parser.value(QStringLiteral("output"));
    if (output != QLatin1String("-")) {
        if (QString why; !mayWriteOver(output, parser.isSet(QStringLiteral("force")), &why))
            return fail(why);
    }
    SessionData data;
    int status = Ok;
    if (!loadSession(parser.positionalArguments().first(), &data, &status))
        return status;
    QString error;
    if (output.isEmpty() || output == QLatin1String("-")) {
        out().flush();
        QFile stdoutFile;
        if (!stdoutFile.open(stdout, QIODevice::WriteOnly))
            return fail(QStringLiteral("cannot write to standard output"));
        const bool ok = trace ? TraceExport::write(data, &stdoutFile, {}, &error)
                              : JsonlExport::write(data, &stdoutFile, {}, &error);
        stdoutFile.close();
        if (!ok || std::fflush(stdout) != 0)
            return fail(error.isEmpty() ? QStringLiteral("cannot write to standard output")
                                        : error);
        return Ok;
    }
    const bool ok = trace ? TraceExport::exportSession(data, output, {}, &error)
                          : JsonlExport::exportSession(data, output, {}, &error);
    return ok ? Ok : fail(error);
}

// What a pprof profile of the kind holds, for the messages.
QString pprofKindName(PprofKind kind)
{
    switch (kind) {
    case PprofKind::OnCpu:
        return QStringLiteral("CPU samples");
    case PprofKind::OffCpu:
        return QStringLiteral("off-CPU waits");
    case PprofKind::Heap:
        break;
    }
    return QStringLiteral("allocations");
}

// export --pprof FILE: the CPU samples, the off-CPU waits or the allocations (a heap profile)
// as a gzipped profile.proto for go tool pprof, Parca and Pyroscope, limited to --from/--to,
// --pid and --comm.
int exportPprof(const QCommandLineParser &parser)
{
    for (const char *other : {"json", "user-only", "kernel-only", "by-process", "output",
                              "page-faults", "alloc-space"}) {
        if (parser.isSet(QLatin1String(other)))
            return fail(
                QStringLiteral("--%1 does not apply to --pprof%2")
                    .arg(QLatin1String(other),
                         qstrcmp(other, "alloc-space") == 0
                             ? QStringLiteral(": its heap profile holds alloc_space and "
                                              "inuse_space (go tool pprof -sample_index=...)")
                             : QString()),
                Usage);
    }
    const QString output = parser.value(QStringLiteral("pprof"));
    std::optional<PprofKind> kind;
    if (parser.isSet(QStringLiteral("off-cpu")) && parser.isSet(QStringLiteral("allocations")))
        return fail(QStringLiteral("--off-cpu and --allocations exclude each other"), Usage);
    if (parser.isSet(QStringLiteral("off-cpu")))
        kind = PprofKind::OffCpu;
    if (parser.isSet(QStringLiteral("allocations")))
        kind = PprofKind::Heap;
    if (parser.isSet(QStringLiteral("probe"))) {
        const QString probe = parser.value(QStringLiteral("probe"));
        const std::optional<PprofKind> chosen =
            probe == QLatin1String(EventTraits<CpuSampleEvent>::probeId) ? PprofKind::OnCpu
            : probe == QLatin1String(EventTraits<OffCpuEvent>::probeId)
                ? std::optional<PprofKind>(PprofKind::OffCpu)
            : probe == QLatin1String(EventTraits<AllocationEvent>::probeId)
                ? std::optional<PprofKind>(PprofKind::Heap)
                : std::nullopt;
        if (!chosen)
            return fail(QStringLiteral("--pprof exports the profile, the offcpu or the memleak "
                                       "probe, not \"%1\"")
                            .arg(probe.left(32)),
                        Usage);
        if (kind && *kind != *chosen)
            return fail(QStringLiteral("--%1 and --probe %2 exclude each other")
                            .arg(*kind == PprofKind::OffCpu ? QStringLiteral("off-cpu")
                                                            : QStringLiteral("allocations"),
                                 probe),
                        Usage);
        kind = chosen;
    }
    PprofOptions options;
    std::optional<quint64> from, to;
    if (const int status = parseRange(parser, &from, &to); status != Ok)
        return status;
    if (parser.isSet(QStringLiteral("pid"))) {
        bool ok = false;
        options.filter.pid = parser.value(QStringLiteral("pid")).toLongLong(&ok);
        if (!ok || options.filter.pid < 0 || options.filter.pid > 0x7fffffff)
            return fail(QStringLiteral("--pid expects a process id, not \"%1\"")
                            .arg(parser.value(QStringLiteral("pid")).left(32)),
                        Usage);
    }
    options.filter.comm = parser.value(QStringLiteral("comm")).toUtf8();
    CgroupFilter cgroups;
    cgroups.container = parser.value(QStringLiteral("container"));
    cgroups.unit = parser.value(QStringLiteral("unit"));
    for (const char *name : {"container", "unit"}) {
        if (parser.isSet(QLatin1String(name)) && parser.value(QLatin1String(name)).isEmpty())
            return fail(QStringLiteral("--%1 expects a %2")
                            .arg(QLatin1String(name), qstrcmp(name, "unit") == 0
                                                          ? QStringLiteral("systemd unit name")
                                                          : QStringLiteral("container id")),
                        Usage);
    }
    if (QString why; !checkCgroupFilter(cgroups, &why))
        return fail(QStringLiteral("--") + why, Usage);
    if (output != QLatin1String("-")) {
        if (QString why; !mayWriteOver(output, parser.isSet(QStringLiteral("force")), &why))
            return fail(why);
    }
    const QString path = parser.positionalArguments().first();
    SessionData data;
    int status = Ok;
    if (!loadSession(path, &data, &status))
        return status;
    if (!cgroups.isEmpty()) {
        if (data.cgroups.isEmpty())
            return fail(QStringLiteral("%1 names no containers or units: it was recorded before "
                                       "BPF Lens kept each event's cgroup (docs/containers.md)")
                            .arg(path));
        const QSet<quint64> ids = matchingCgroups(data.cgroups, cgroups);
        if (ids.isEmpty())
            return fail(QStringLiteral("%1 has no cgroup of %2 (bpflens-cli top %1 --by "
                                       "container or --by unit lists them)")
                            .arg(path, cgroups.describe()));
        keepCgroupEvents(&data.events, ids);
    }
    const QList<PprofKind> kinds = PprofExport::kindsIn(data);
    if (kinds.isEmpty())
        return fail(QStringLiteral("%1 has no CPU samples and no off-CPU waits: record them with "
                                   "--probe profile or --probe offcpu (or the allocations with "
                                   "--probe memleak)")
                        .arg(path));
    if (!kind) {
        kind = kinds.first();
        if (kinds.size() > 1) {
            QStringList names, others;
            for (PprofKind k : kinds) {
                names << pprofKindName(k);
                if (k == PprofKind::OffCpu)
                    others << QStringLiteral("--probe offcpu writes the waits");
                else if (k == PprofKind::Heap)
                    others << QStringLiteral("--probe memleak the allocations");
            }
            const QString last = names.takeLast();
            QTextStream(stderr) << "bpflens-cli: " << path << " has "
                                << names.join(QStringLiteral(", ")) << " and " << last
                                << ": writing the " << pprofKindName(*kind) << " ("
                                << others.join(QStringLiteral(", ")) << ")\n";
        }
    }
    options.kind = *kind;
    const quint64 start = data.info.startMonotonicNs;
    const quint64 end = rangeEnd(data);
    if (from && start + *from >= end)
        return fail(QStringLiteral("--from %1 is after the session's end (%2 s)")
                        .arg(parser.value(QStringLiteral("from")))
                        .arg(double(end - start) / 1e9, 0, 'f', 3));
    options.startNs = start + from.value_or(0);
    if (to)
        options.endNs = start + *to;
    QStringList what{
        QStringLiteral("bpflens-cli export --pprof of %1").arg(QFileInfo(path).fileName())};
    if (from || to)
        what << QStringLiteral("range %1 s to %2")
                    .arg(double(from.value_or(0)) / 1e9, 0, 'f', 3)
                    .arg(to ? QStringLiteral("%1 s").arg(double(*to) / 1e9, 0, 'f', 3)
                            : QStringLiteral("the end"));
    if (options.filter.pid >= 0)
        what << QStringLiteral("pid %1").arg(options.filter.pid);
    if (!options.filter.comm.isEmpty())
        what << QStringLiteral("comm %1").arg(QString::fromUtf8(options.filter.comm));
    if (!cgroups.isEmpty())
        what << cgroups.describe();
    options.comments << what.join(QStringLiteral(", "));
    QByteArray proto, gz;
    QString error;
    if (!PprofExport::encode(data, options, &proto, &error))
        return fail(QStringLiteral("%1: %2").arg(path, error));
    if (!PprofExport::gzip(proto, &gz, &error))
        return fail(error);
    if (output == QLatin1String("-")) {
        out().flush();
        if (std::fwrite(gz.constData(), 1, size_t(gz.size()), stdout) != size_t(gz.size()) ||
            std::fflush(stdout) != 0)
            return fail(QStringLiteral("cannot write the profile to standard output"));
        return Ok;
    }
    if (!writeWholeFile(
            output, [&](QIODevice *file) { return file->write(gz) == gz.size(); }, &error))
        return fail(error);
    return Ok;
}

} // namespace

int exportSession(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Exports a session as CSV files, as a trace for Perfetto and "
                       "chrome://tracing, as JSON lines, or its profile as folded stacks "
                       "(flamegraph.pl, inferno, speedscope: \"main;f;g 12\" per line) or as a "
                       "pprof profile (go tool pprof, Parca, Pyroscope)."));
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A .bpflens session file."));
    parser.addOption({QStringLiteral("csv"),
                      QStringLiteral("Directory to write the CSV files into."),
                      QStringLiteral("dir")});
    parser.addOption({QStringLiteral("probe"),
                      QStringLiteral("Only this probe (CSV); with --pprof profile (the default), "
                                     "offcpu or memleak."),
                      QStringLiteral("id")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print the files written as JSON.")});
    parser.addOption({QStringLiteral("folded"),
                      QStringLiteral("Write the CPU samples as folded stacks, one line per "
                                     "distinct stack with its number of samples.")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")},
                      QStringLiteral("Write the folded stacks or the JSON lines into this file "
                                     "(\"-\" or none: standard output)."),
                      QStringLiteral("file")});
    parser.addOption({QStringLiteral("off-cpu"),
                      QStringLiteral("Fold the off-CPU waits instead, weighted by microseconds "
                                     "off the CPU.")});
    parser.addOption({QStringLiteral("page-faults"),
                      QStringLiteral("Fold the page faults (--probe pagefault) instead, weighted "
                                     "by faults (a sampled recording's events count N each).")});
    parser.addOption({QStringLiteral("allocations"),
                      QStringLiteral("Fold the allocations (--probe memleak) instead, weighted by "
                                     "the bytes still in use at the end (of --from/--to's "
                                     "range: the blocks allocated in it and not freed by its "
                                     "end); with --pprof, write them as a heap profile.")});
    parser.addOption({QStringLiteral("alloc-space"),
                      QStringLiteral("With --folded --allocations: weigh every byte allocated, "
                                     "freed or not (Go's alloc_space), not the bytes in use.")});
    parser.addOption({QStringLiteral("off-wake"),
                      QStringLiteral("Fold the off-wake waits (--probe offwake) as offwaketime "
                                     "-f does: the blocked stack, \"--\", the waker's stack leaf "
                                     "first and its command, weighted by microseconds off the "
                                     "CPU.")});
    parser.addOption(
        {QStringLiteral("user-only"), QStringLiteral("Only the user-space frames of each stack.")});
    parser.addOption(
        {QStringLiteral("kernel-only"), QStringLiteral("Only the kernel frames of each stack.")});
    parser.addOption({QStringLiteral("by-process"),
                      QStringLiteral("Start each stack with the command (comm) it was taken in.")});
    parser.addOption({QStringLiteral("trace"),
                      QStringLiteral("Write a Chrome/Perfetto trace (Trace Event Format JSON) into "
                                     "this file (\"-\": standard output)."),
                      QStringLiteral("file")});
    parser.addOption({QStringLiteral("jsonl"),
                      QStringLiteral("Write the events as JSON lines, one object per event in "
                                     "time order, into -o FILE (\"-\" or none: standard "
                                     "output).")});
    parser.addOption({QStringLiteral("pprof"),
                      QStringLiteral("Write the CPU samples (or with --probe offcpu the off-CPU "
                                     "waits, with --probe memleak the allocations as a heap "
                                     "profile) as a gzipped pprof profile.proto into this file "
                                     "(\"-\": standard output), for go tool pprof, Parca and "
                                     "Pyroscope."),
                      QStringLiteral("file")});
    parser.addOption({QStringLiteral("from"),
                      QStringLiteral("--pprof, --folded --allocations: only events from this "
                                     "time after the session's start (12.5, 12.5s, 1500ms)."),
                      QStringLiteral("T")});
    parser.addOption({QStringLiteral("to"),
                      QStringLiteral("--pprof, --folded --allocations: only events before this "
                                     "time after the start (allocations: in use at it)."),
                      QStringLiteral("T")});
    parser.addOption({QStringLiteral("pid"), QStringLiteral("--pprof: only this process."),
                      QStringLiteral("pid")});
    parser.addOption({QStringLiteral("comm"),
                      QStringLiteral("--pprof: only this command (exact, as comm)."),
                      QStringLiteral("comm")});
    parser.addOption({QStringLiteral("container"),
                      QStringLiteral("--pprof: only this container (its id, or the first digits "
                                     "of it; a Kubernetes pod's UID: its containers)."),
                      QStringLiteral("id")});
    parser.addOption({QStringLiteral("unit"),
                      QStringLiteral("--pprof: only this systemd unit or slice "
                                     "(nginx.service, user@1000.service, system.slice)."),
                      QStringLiteral("name")});
    parser.addOption({QStringLiteral("force"),
                      QStringLiteral("Replace the output file, or the CSV files in the "
                                     "directory, if they exist (without it export refuses).")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("export"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("export takes one session file"), Usage);
    const bool folded = parser.isSet(QStringLiteral("folded"));
    QStringList modes;
    for (const char *mode : {"csv", "folded", "trace", "jsonl", "pprof"}) {
        if (parser.isSet(QLatin1String(mode)))
            modes << QStringLiteral("--") + QLatin1String(mode);
    }
    if (modes.size() > 1)
        return fail(QStringLiteral("%1 exclude each other: export one at a time")
                        .arg(modes.join(QStringLiteral(" and "))),
                    Usage);
    if (parser.isSet(QStringLiteral("pprof")))
        return exportPprof(parser);
    for (const char *pprofOnly : {"pid", "comm", "container", "unit"}) {
        if (parser.isSet(QLatin1String(pprofOnly)))
            return fail(QStringLiteral("--%1 applies to --pprof").arg(QLatin1String(pprofOnly)),
                        Usage);
    }
    if (folded)
        return exportFolded(parser);
    for (const char *rangeOnly : {"from", "to"}) {
        if (parser.isSet(QLatin1String(rangeOnly)))
            return fail(QStringLiteral("--%1 applies to --pprof and to --folded --allocations")
                            .arg(QLatin1String(rangeOnly)),
                        Usage);
    }
    if (parser.isSet(QStringLiteral("trace")) || parser.isSet(QStringLiteral("jsonl")))
        return exportJson(parser, parser.isSet(QStringLiteral("trace")));
    for (const char *foldedOnly : {"output", "off-cpu", "off-wake", "page-faults", "allocations",
                                   "alloc-space", "user-only", "kernel-only", "by-process"}) {
        if (parser.isSet(QLatin1String(foldedOnly)))
            return fail(QStringLiteral("--%1 applies to --folded").arg(QLatin1String(foldedOnly)),
                        Usage);
    }
    if (!parser.isSet(QStringLiteral("csv")))
        return fail(QStringLiteral("export needs --csv DIR, --folded, --trace FILE, --jsonl or "
                                   "--pprof FILE"),
                    Usage);
    const QString dir = parser.value(QStringLiteral("csv"));
    if (!parser.isSet(QStringLiteral("force"))) {
        // Any file an export can write, not only those this session fills: files of two
        // exports side by side would read as one.
        QStringList names{QStringLiteral("stacks.csv"), QStringLiteral("stack_frames.csv"),
                          QStringLiteral("histograms.csv"), QStringLiteral("stats.csv"),
                          QStringLiteral("counters.csv")};
        for (EventType t : eventTypes)
            names.append(CsvExport::fileNameFor(t));
        for (const QString &name : std::as_const(names)) {
            const QString path = QDir(dir).filePath(name);
            if (QFileInfo::exists(path))
                return fail(QStringLiteral("%1 already exists: choose another directory, or "
                                           "--force")
                                .arg(path));
        }
    }
    SessionData data;
    if (!loadSession(parser.positionalArguments().first(), &data, &status))
        return status;
    if (!QDir().mkpath(dir))
        return fail(QStringLiteral("cannot create directory %1").arg(dir));
    CsvExportOptions options;
    options.probeId = parser.value(QStringLiteral("probe"));
    QString error;
    const QStringList files = CsvExport::exportSession(data, dir, options, &error);
    if (!error.isEmpty())
        return fail(error);
    if (parser.isSet(QStringLiteral("json")))
        out() << QJsonDocument(QJsonArray::fromStringList(files)).toJson();
    else
        for (const QString &f : files)
            out() << f << '\n';
    return Ok;
}

} // namespace bpflens::cli
