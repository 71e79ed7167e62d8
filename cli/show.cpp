#include "cli/commands.h"
#include "cli/common.h"

#include "cli/eventlisting.h"

#include "cli/profilereport.h"
#include "core/sessionstore.h"
#include "helper/probe.h"

#include <QHash>
#include <QMap>

#include <algorithm>
#include <optional>

namespace bpflens::cli {

namespace {

// The time of the newest record of a session, or its start when it holds none.
quint64 lastDataNs(const SessionData &data)
{
    quint64 last = data.info.startMonotonicNs;
    if (!data.events.isEmpty())
        last = std::max(last, data.events.lastTimeNs());
    for (const HistogramSnapshot &h : data.histograms)
        last = std::max(last, h.timeNs);
    for (const ProbeStats &st : data.stats)
        last = std::max(last, st.timeNs);
    for (const CounterSample &c : data.counters)
        last = std::max(last, c.timeNs);
    return last;
}

} // namespace

int show(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Summarises a session and prints its histograms."));
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A .bpflens session file."));
    parser.addOption(
        {QStringLiteral("probe"), QStringLiteral("Only this probe."), QStringLiteral("id")});
    parser.addOption({QStringLiteral("top"),
                      QStringLiteral("Functions listed per profile (CPU samples, off-CPU "
                                     "waits, page faults), stacks and functions of the "
                                     "allocations; 0 lists all. Default 20."),
                      QStringLiteral("n"), QStringLiteral("20")});
    parser.addOption({QStringLiteral("events"),
                      QStringLiteral("Print the events, a line each, instead of the summary.")});
    parser.addOption({QStringLiteral("limit"),
                      QStringLiteral("With --events: the first n events of each type; 0 for "
                                     "all (the default)."),
                      QStringLiteral("n"), QStringLiteral("0")});
    parser.addOption({QStringLiteral("from"),
                      QStringLiteral("Allocations (memleak): only the blocks allocated from this "
                                     "time after the session's start (12.5, 12.5s, 1500ms)."),
                      QStringLiteral("T")});
    parser.addOption({QStringLiteral("to"),
                      QStringLiteral("Allocations (memleak): only the blocks allocated before "
                                     "this time after the start, in use as it was then: what "
                                     "grew from --from to --to."),
                      QStringLiteral("T")});
    parser.addOption({QStringLiteral("time"),
                      QStringLiteral("With --events: \"relative\" (seconds since the start, "
                                     "like execsnoop -t; the default) or \"clock\" (local "
                                     "time, like execsnoop -T)."),
                      QStringLiteral("style"), QStringLiteral("relative")});
    int status = Ok;
    if (!parse(parser, QStringLiteral("show"), args, &status))
        return status;
    if (parser.positionalArguments().size() != 1)
        return fail(QStringLiteral("show takes one session file"), Usage);
    EventListing listing;
    bool limitOk = false;
    listing.limit = parser.value(QStringLiteral("limit")).toLongLong(&limitOk);
    if (!limitOk || listing.limit < 0)
        return fail(QStringLiteral("--limit %1: expected a number of events, 0 for all")
                        .arg(parser.value(QStringLiteral("limit")).left(32)),
                    Usage);
    const QString timeStyle = parser.value(QStringLiteral("time"));
    if (timeStyle == QLatin1String("clock"))
        listing.time = EventListing::TimeStyle::Clock;
    else if (timeStyle != QLatin1String("relative"))
        return fail(QStringLiteral("--time %1: expected relative or clock").arg(timeStyle.left(32)),
                    Usage);
    bool topOk = false;
    const int top = parser.value(QStringLiteral("top")).toInt(&topOk);
    if (!topOk || top < 0)
        return fail(QStringLiteral("--top %1: expected a number of functions, 0 for all")
                        .arg(parser.value(QStringLiteral("top")).left(32)),
                    Usage);
    std::optional<quint64> from, to;
    for (const auto &[name, value] :
         {std::pair{QStringLiteral("from"), &from}, std::pair{QStringLiteral("to"), &to}}) {
        if (!parser.isSet(name))
            continue;
        if (parser.isSet(QStringLiteral("events")))
            return fail(QStringLiteral("--%1 applies to the allocations' summary, not to --events")
                            .arg(name),
                        Usage);
        *value = parseOffset(parser.value(name));
        if (!*value)
            return fail(QStringLiteral("--%1 expects a time after the session's start (12.5, "
                                       "12.5s, 1500ms), not \"%2\"")
                            .arg(name, parser.value(name).left(32)),
                        Usage);
    }
    if (from && to && *from >= *to)
        return fail(QStringLiteral("--from must be before --to"), Usage);
    SessionData data;
    if (!loadSession(parser.positionalArguments().first(), &data, &status, true))
        return status;
    const QString only = parser.value(QStringLiteral("probe"));
    // The range is the allocations' alone: said before anything is printed, not ignored.
    if ((from || to) && !data.events.count(EventType::Allocation))
        return fail(QStringLiteral("--from and --to apply to the allocations, and %1 has none "
                                   "(record them with --probe %2)")
                        .arg(parser.positionalArguments().first(),
                             QLatin1String(EventTraits<AllocationEvent>::probeId)));
    if (parser.isSet(QStringLiteral("events"))) {
        listing.probe = only;
        listing.print(out(), data);
        return Ok;
    }

    const SessionInfo &info = data.info;
    // A recorder that was killed never wrote its end: the session lasted at least until the
    // last data it committed.
    const quint64 endNs = info.endMonotonicNs ? info.endMonotonicNs : lastDataNs(data);
    if (from && info.startMonotonicNs + *from >= endNs)
        return fail(
            QStringLiteral("--from %1 is after the session's end (%2 s)")
                .arg(parser.value(QStringLiteral("from")))
                .arg(double(endNs - std::min(endNs, info.startMonotonicNs)) / 1e9, 0, 'f', 3));
    out() << "Session   " << parser.positionalArguments().first() << '\n'
          << "Host      " << info.host << " (kernel " << info.kernelRelease << ")\n";
    if (!info.sshTarget.isEmpty())
        out() << "Via       ssh " << info.sshTarget << '\n';
    out() << "Started   " << info.startWall.toString(Qt::ISODate) << '\n'
          << "Duration  "
          << QString::number(double(endNs - std::min(endNs, info.startMonotonicNs)) / 1e9, 'f', 1)
          << (info.endMonotonicNs ? "s\n" : "s (recording did not finish: up to its last data)\n")
          << "Recorded by BPF Lens " << info.appVersion << '\n';
    if (data.damage.isDamaged()) {
        out() << "\nDamaged:\n";
        printDamage(out(), data.damage, QStringLiteral("  "));
    }

    // Latest cumulative stats per probe.
    QHash<QString, ProbeStats> stats;
    for (const ProbeStats &s : std::as_const(data.stats))
        stats[s.probeId] = s;
    // What the kernel could not count or attribute, summed over the session's intervals.
    QHash<QString, quint64> histogramFull, histogramKeys, unfinished;
    // The losses a probe declares (core/probes/<id>.h) are listed under it, or under its table
    // of keys when it has one.
    auto lossesBelowProbe = [](const QString &probeId) {
        const ProbeInfo *probe = ProbeCatalog::find(probeId);
        return probe && !probe->keyed.tableTitle ? probe->lossCounters() : QStringList();
    };
    QHash<QString, QHash<QString, quint64>> declaredLosses;
    for (const CounterSample &c : std::as_const(data.counters)) {
        if (c.name == Probe::histogramMapFullCounter())
            histogramFull[c.probeId] += quint64(c.value);
        else if (c.name == Probe::histogramKeysCounter())
            histogramKeys[c.probeId] = qMax(histogramKeys[c.probeId], quint64(c.value));
        else if (lossesBelowProbe(c.probeId).contains(c.name))
            declaredLosses[c.probeId][c.name] += quint64(c.value);
        else if (c.name == QLatin1String("unfinished"))
            unfinished[c.probeId] += quint64(c.value); // files written before ProbeStats had it
    }
    // Statistics come once per snapshot interval, events with every batch: a recording that
    // stopped between the two (a full disk, a kill) holds more events than its last statistics
    // say. The events in the file are then the better count, where they are one probe's.
    QHash<QString, quint64> eventsInFile;
    for (EventType t : eventTypes)
        eventsInFile[QLatin1String(probeIdOf(t))] += quint64(data.events.count(t));
    QHash<QString, int> probesWithId;
    for (const ProbeConfig &p : info.probes)
        ++probesWithId[p.id];
    out() << "\nProbes\n";
    for (const ProbeConfig &p : info.probes) {
        if (!only.isEmpty() && p.id != only)
            continue;
        const ProbeStats s = stats.value(p.id);
        const quint64 seen = probesWithId.value(p.id) == 1
                                 ? std::max(s.eventsSeen, eventsInFile.value(p.id))
                                 : s.eventsSeen;
        out() << QStringLiteral("  %1 events %2, lost %3, BPF runs %4 costing %5 ms\n")
                     .arg(p.id.leftJustified(11))
                     .arg(seen)
                     .arg(s.eventsLost)
                     .arg(s.runCount)
                     .arg(double(s.runTimeNs) / 1e6, 0, 'f', 1);
        out() << "              via " << p.attachPath << '\n';
        // Each cause of a missing event on a line of its own: they mean different things.
        if (s.eventsLost) {
            out() << QStringLiteral("              %1 events lost: no room (the ring buffer or a "
                                    "tracking map was full)\n")
                         .arg(s.eventsLost);
            if (const ProbeInfo *probe = ProbeCatalog::find(p.id);
                probe && !probe->lossHint.isEmpty())
                out() << "              to lose fewer: " << probe->lossHint << '\n';
        }
        if (s.eventsUnseen)
            out() << QStringLiteral("              %1 events not seen: the kernel did not run "
                                    "the program for a stage (a completion)\n")
                         .arg(s.eventsUnseen);
        if (s.unfinished)
            unfinished[p.id] = s.unfinished;
        if (const quint64 n = histogramFull.value(p.id))
            out() << QStringLiteral("              %1 samples not counted: histogram map full (%2 "
                                    "keys)\n")
                         .arg(n)
                         .arg(histogramKeys.value(p.id));
        for (const QString &name : lossesBelowProbe(p.id)) {
            if (const quint64 n = declaredLosses.value(p.id).value(name))
                out() << QStringLiteral("              ")
                      << ProbeCatalog::find(p.id)->counter(name)->text.arg(n) << '\n';
        }
        if (const quint64 n = unfinished.value(p.id))
            out() << QStringLiteral("              %1 requests unfinished at the stop (in "
                                    "flight, or ended without the kernel running the completion "
                                    "program)\n")
                         .arg(n);
    }

    // Histograms: the whole session per probe and key, in biolatency's layout.
    QMap<QPair<QString, QString>, Log2Histogram> totals;
    for (const HistogramSnapshot &h : std::as_const(data.histograms)) {
        if (!only.isEmpty() && h.probeId != only)
            continue;
        auto it = totals.find({h.probeId, h.key});
        if (it == totals.end())
            it = totals.insert({h.probeId, h.key}, Log2Histogram(h.histogram.unit()));
        it->merge(h.histogram);
    }
    for (auto it = totals.cbegin(); it != totals.cend(); ++it) {
        out() << '\n' << it.key().first;
        if (!it.key().second.isEmpty())
            out() << " " << it.key().second;
        out() << QStringLiteral(": %1 samples, mean %2 %3, p50 %4, p99 %5\n")
                     .arg(it->count())
                     .arg(it->mean(), 0, 'f', 1)
                     .arg(histogramUnitName(it->unit()))
                     .arg(it->percentile(0.5), 0, 'f', 1)
                     .arg(it->percentile(0.99), 0, 'f', 1);
        out() << it->toText();
    }

    // Counts per key over the session, busiest first, as strlen_count prints them: uprobe's
    // calls, usdt's and tpcount's hits (the probes whose declarations give a table). Their loss
    // counters are no keys: each gets a line of its own below the table.
    QList<const ProbeInfo *> tabled;
    for (const ProbeInfo &probe : ProbeCatalog::probes()) {
        if (probe.keyed.tableTitle)
            tabled.append(&probe);
    }
    std::stable_sort(tabled.begin(), tabled.end(), [](const ProbeInfo *a, const ProbeInfo *b) {
        return a->keyed.rank < b->keyed.rank;
    });
    for (const ProbeInfo *k : std::as_const(tabled)) {
        if (!only.isEmpty() && only != k->id)
            continue;
        const QString &probeId = k->id;
        const QStringList lossNames = k->lossCounters();
        QHash<QString, double> calls;
        QHash<QString, quint64> losses;
        for (const CounterSample &c : std::as_const(data.counters)) {
            if (c.probeId != probeId)
                continue;
            if (lossNames.contains(c.name))
                losses[c.name] += quint64(c.value);
            else
                calls[c.name] += c.value;
        }
        const bool lost = std::any_of(lossNames.cbegin(), lossNames.cend(),
                                      [&](const QString &n) { return losses.value(n) > 0; });
        if (calls.isEmpty() && !lost)
            continue;
        QList<QPair<double, QString>> rows;
        for (auto it = calls.cbegin(); it != calls.cend(); ++it)
            rows.append({it.value(), it.key()});
        std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
            return a.first != b.first ? a.first > b.first : a.second < b.second;
        });
        // --top, as for the profiles' functions: 0 for all.
        const qsizetype shown = top > 0 ? qMin<qsizetype>(top, rows.size()) : rows.size();
        out() << QStringLiteral("\n%1 (%2 keys%3)\n")
                     .arg(QLatin1String(k->keyed.tableTitle))
                     .arg(rows.size())
                     .arg(shown < rows.size() ? QStringLiteral(", the %1 busiest").arg(shown)
                                              : QString());
        out() << QStringLiteral("%1  KEY\n").arg(QStringLiteral("COUNT"), 12);
        for (qsizetype i = 0; i < shown; ++i)
            out() << QStringLiteral("%1  %2\n").arg(qint64(rows[i].first), 12).arg(rows[i].second);
        for (const QString &name : lossNames) {
            if (const quint64 n = losses.value(name))
                out() << k->counter(name)->text.arg(n) << '\n';
        }
    }

    // Profiles: where the CPU time went, and where threads waited.
    if ((only.isEmpty() || only == QLatin1String(EventTraits<CpuSampleEvent>::probeId)) &&
        data.events.count(EventType::CpuSample))
        out() << cli::topFunctionsText(data, ProfileKind::OnCpu, top);
    if ((only.isEmpty() || only == QLatin1String(EventTraits<OffCpuEvent>::probeId)) &&
        data.events.count(EventType::OffCpu))
        out() << cli::topFunctionsText(data, ProfileKind::OffCpu, top);
    if ((only.isEmpty() || only == QLatin1String(EventTraits<PageFaultEvent>::probeId)) &&
        data.events.count(EventType::PageFault))
        out() << cli::topFunctionsText(data, ProfileKind::PageFaults, top);
    // Allocations: what is still held, by stack, as memleak prints it.
    if ((only.isEmpty() || only == QLatin1String(EventTraits<AllocationEvent>::probeId)) &&
        data.events.count(EventType::Allocation)) {
        AllocationQuery query;
        if (from)
            query.startNs = info.startMonotonicNs + *from;
        if (to && info.startMonotonicNs + *to < endNs)
            query.endNs = info.startMonotonicNs + *to;
        out() << cli::allocationsText(data, query, endNs, top);
    }
    return Ok;
}

} // namespace bpflens::cli
