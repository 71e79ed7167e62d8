#include "cli/profilereport.h"

#include "cli/plural.h"
#include "core/sessionstore.h"

#include <QFileInfo>
#include <QSet>

#include <algorithm>
#include <numeric>

namespace bpflens::cli {

QString formatNs(quint64 ns)
{
    if (ns >= 1000000000ull)
        return QStringLiteral("%1 s").arg(double(ns) / 1e9, 0, 'f', 2);
    if (ns >= 1000000ull)
        return QStringLiteral("%1 ms").arg(double(ns) / 1e6, 0, 'f', 2);
    if (ns >= 1000ull)
        return QStringLiteral("%1 us").arg(double(ns) / 1e3, 0, 'f', 1);
    return QStringLiteral("%1 ns").arg(ns);
}

namespace {

EventType eventType(ProfileKind kind)
{
    switch (kind) {
    case ProfileKind::OnCpu:
        return EventType::CpuSample;
    case ProfileKind::OffCpu:
        return EventType::OffCpu;
    case ProfileKind::PageFaults:
        return EventType::PageFault;
    case ProfileKind::InuseBytes:
    case ProfileKind::AllocBytes:
        break;
    }
    return EventType::Allocation;
}

quint32 stackIdAt(const EventStore &events, ProfileKind kind, qsizetype i)
{
    switch (kind) {
    case ProfileKind::OnCpu:
        return events.value<&CpuSampleEvent::stackId>(i);
    case ProfileKind::OffCpu:
        return events.value<&OffCpuEvent::stackId>(i);
    case ProfileKind::PageFaults:
        return events.value<&PageFaultEvent::stackId>(i);
    case ProfileKind::InuseBytes:
    case ProfileKind::AllocBytes:
        break;
    }
    return events.value<&AllocationEvent::stackId>(i);
}

QString percent(quint64 part, quint64 whole)
{
    return QStringLiteral("%1%").arg(whole ? 100.0 * double(part) / double(whole) : 0.0, 0, 'f', 1);
}

// Where a frame's code is, short: the file's name for user code, the kernel module's otherwise.
QString moduleName(const StackTable &stacks, quint32 frame)
{
    const StackFrame &f = stacks.frame(frame);
    if (f.module.isEmpty())
        return {};
    if (f.kind == FrameKind::Kernel)
        return QStringLiteral("[%1]").arg(QString::fromUtf8(f.module));
    return QFileInfo(QString::fromUtf8(f.module)).fileName();
}

} // namespace

StackWeights allocationWeights(const SessionData &data, ProfileKind kind,
                               const AllocationQuery &query, bool byProcess)
{
    StackWeights weights;
    const bool inuse = kind != ProfileKind::AllocBytes;
    const qsizetype stackCount = data.stacks.stackCount();
    auto add = [&](const std::vector<quint64> &bytes, quint32 group) {
        for (size_t id = 0; id < bytes.size(); ++id) {
            if (bytes[id])
                weights.add(quint32(id), bytes[id], group);
        }
    };
    AllocationSums all = sumAllocations(data.events, query, stackCount);
    std::vector<quint64> &rest = inuse ? all.inuseBytes : all.allocBytes;
    if (!byProcess || !query.comm.isEmpty()) {
        add(rest, byProcess ? weights.group(query.comm) : 0);
        return weights;
    }
    // sumAllocations selects one command at a time: a sum per command the blocks were
    // allocated in, in the order first seen (the groups' numbers do not show in the output).
    QList<QByteArray> comms;
    QSet<QByteArray> seen;
    const EventStore &events = data.events;
    const qsizetype n = events.count(EventType::Allocation);
    for (qsizetype i = 0; i < n; ++i) {
        const QByteArray &comm = events.value<&AllocationEvent::comm>(i);
        if (!comm.isEmpty() && !seen.contains(comm)) {
            seen.insert(comm);
            comms.append(comm);
        }
    }
    for (const QByteArray &comm : std::as_const(comms)) {
        AllocationQuery one = query;
        one.comm = comm;
        const AllocationSums s = sumAllocations(events, one, stackCount);
        const std::vector<quint64> &bytes = inuse ? s.inuseBytes : s.allocBytes;
        add(bytes, weights.group(comm));
        for (size_t id = 0; id < bytes.size(); ++id)
            rest[id] -= bytes[id];
    }
    // An empty comm (a process may name itself "") cannot be asked for: what no command took.
    add(rest, weights.group(QByteArray()));
    return weights;
}

StackWeights profileWeights(const SessionData &data, ProfileKind kind, bool byProcess,
                            quint64 unitNs)
{
    if (kind == ProfileKind::InuseBytes || kind == ProfileKind::AllocBytes)
        return allocationWeights(data, kind, {}, byProcess);
    StackWeights weights;
    const EventStore &events = data.events;
    if (kind == ProfileKind::OnCpu) {
        const qsizetype n = events.count(EventType::CpuSample);
        for (qsizetype i = 0; i < n; ++i) {
            const quint32 group =
                byProcess ? weights.group(events.value<&CpuSampleEvent::comm>(i)) : 0;
            weights.add(events.value<&CpuSampleEvent::stackId>(i), 1, group);
        }
        return weights;
    }
    if (kind == ProfileKind::PageFaults) {
        const qsizetype n = events.count(EventType::PageFault);
        for (qsizetype i = 0; i < n; ++i) {
            const quint32 group =
                byProcess ? weights.group(events.value<&PageFaultEvent::comm>(i)) : 0;
            weights.add(events.value<&PageFaultEvent::stackId>(i),
                        events.value<&PageFaultEvent::weight>(i), group);
        }
        return weights;
    }
    // Summed in nanoseconds first: a wait of 400 ns is worth nothing in microseconds, a
    // thousand of them are worth 400.
    QHash<quint64, quint64> ns;
    const qsizetype n = events.count(EventType::OffCpu);
    for (qsizetype i = 0; i < n; ++i) {
        const quint32 group = byProcess ? weights.group(events.value<&OffCpuEvent::comm>(i)) : 0;
        ns[(quint64(group) << 32) | events.value<&OffCpuEvent::stackId>(i)] +=
            events.value<&OffCpuEvent::offNs>(i);
    }
    for (auto it = ns.cbegin(); it != ns.cend(); ++it) {
        const quint64 w = unitNs > 1 ? (it.value() + unitNs / 2) / unitNs : it.value();
        if (w)
            weights.add(quint32(it.key()), w, quint32(it.key() >> 32));
    }
    return weights;
}

qsizetype samplesWithoutStack(const SessionData &data, ProfileKind kind)
{
    qsizetype none = 0;
    const qsizetype n = data.events.count(eventType(kind));
    for (qsizetype i = 0; i < n; ++i) {
        if (stackIdAt(data.events, kind, i) == 0)
            ++none;
    }
    return none;
}

QString topFunctionsText(const SessionData &data, ProfileKind kind, int top)
{
    const bool counted = kind != ProfileKind::OffCpu;
    const bool bytes = kind == ProfileKind::InuseBytes || kind == ProfileKind::AllocBytes;
    const qsizetype events = data.events.count(eventType(kind));
    const StackWeights weights = profileWeights(data, kind);
    const QList<FunctionCost> costs = functionCosts(data.stacks, weights);
    const qsizetype shown = top > 0 ? qMin<qsizetype>(top, costs.size()) : costs.size();
    auto amount = [&](quint64 w) { return counted ? QString::number(w) : formatNs(w); };

    QString text;
    if (kind == ProfileKind::OnCpu)
        text += QStringLiteral("\nOn-CPU: %1").arg(countOf(events, "sample", "samples"));
    else if (kind == ProfileKind::PageFaults && quint64(events) == weights.total())
        text += QStringLiteral("\nPage faults: %1").arg(countOf(events, "fault", "faults"));
    else if (kind == ProfileKind::PageFaults)
        text += QStringLiteral("\nPage faults: %1 (sampled: %2)")
                    .arg(countOf(qint64(weights.total()), "fault", "faults"),
                         countOf(events, "event", "events"));
    else if (bytes)
        text += QStringLiteral("\nAllocations: %1 %2 (%3)")
                    .arg(countOf(qint64(weights.total()), "byte", "bytes"),
                         kind == ProfileKind::InuseBytes ? QStringLiteral("in use")
                                                         : QStringLiteral("allocated"),
                         countOf(events, "event", "events"));
    else
        text += QStringLiteral("\nOff-CPU: %1, %2 off the CPU")
                    .arg(countOf(events, "wait", "waits"), formatNs(weights.total()));
    if (const qsizetype none = samplesWithoutStack(data, kind))
        text += QStringLiteral(" (%1 without a stack)").arg(none);
    text += QStringLiteral(", %1").arg(countOf(costs.size(), "function", "functions"));
    if (shown < costs.size())
        text += QStringLiteral("; the top %1 by total").arg(shown);
    text += QLatin1Char('\n');
    if (costs.isEmpty())
        return text;
    text += QStringLiteral("  %1 %2 %3 %4  function\n")
                .arg(QStringLiteral("self"), 10)
                .arg(QStringLiteral("self %"), 7)
                .arg(QStringLiteral("total"), 10)
                .arg(QStringLiteral("total %"), 7);
    for (qsizetype i = 0; i < shown; ++i) {
        const FunctionCost &c = costs[i];
        QString line = QStringLiteral("  %1 %2 %3 %4  %5")
                           .arg(amount(c.self), 10)
                           .arg(percent(c.self, weights.total()), 7)
                           .arg(amount(c.total), 10)
                           .arg(percent(c.total, weights.total()), 7)
                           .arg(data.stacks.frameName(c.frame));
        const QString module = moduleName(data.stacks, c.frame);
        if (!module.isEmpty())
            line += QStringLiteral("  ") + module;
        text += line + QLatin1Char('\n');
    }
    return text;
}

QByteArray foldedProfile(const SessionData &data, ProfileKind kind, StackPart part, bool byProcess,
                         const AllocationQuery &allocations)
{
    if (kind == ProfileKind::InuseBytes || kind == ProfileKind::AllocBytes)
        return foldedStacks(data.stacks, allocationWeights(data, kind, allocations, byProcess),
                            part);
    return foldedStacks(data.stacks, profileWeights(data, kind, byProcess, 1000), part);
}

QString allocationsText(const SessionData &data, const AllocationQuery &query, quint64 endNs,
                        int top)
{
    const StackTable &stacks = data.stacks;
    const AllocationSums s = sumAllocations(data.events, query, stacks.stackCount());
    const quint64 start = data.info.startMonotonicNs;
    const bool ranged = query.startNs > start || query.endNs != ~quint64(0);
    // The moment "in use" means: the range's end, else the recording's.
    const quint64 at = query.endNs != ~quint64(0) ? query.endNs : endNs;
    auto offset = [start](quint64 t) {
        return QStringLiteral("%1 s").arg(double(t - std::min(t, start)) / 1e9, 0, 'f', 3);
    };
    const quint64 allocBlocks = std::accumulate(s.allocBlocks.begin(), s.allocBlocks.end(), 0ull);
    const quint64 inuseBlocks = std::accumulate(s.inuseBlocks.begin(), s.inuseBlocks.end(), 0ull);

    QString text = QStringLiteral("\nAllocations");
    if (ranged)
        text += QStringLiteral(" from %1 to %2")
                    .arg(offset(std::max(query.startNs, start)), offset(at));
    if (query.pid >= 0)
        text += QStringLiteral(", pid %1").arg(query.pid);
    if (!query.comm.isEmpty())
        text += QStringLiteral(", comm %1").arg(QString::fromUtf8(query.comm));
    // "allocations", memleak's word, rather than "blocks" ("block" is a probe id).
    text +=
        QStringLiteral(": %1 (%2), %3 of them (%4) still in use %5")
            .arg(countOf(qint64(allocBlocks), "allocation", "allocations"),
                 countOf(qint64(s.totalAllocBytes), "byte", "bytes"))
            .arg(inuseBlocks)
            .arg(countOf(qint64(s.totalInuseBytes), "byte", "bytes"),
                 ranged ? QStringLiteral("at %1").arg(offset(at)) : QStringLiteral("at the end"));
    if (s.sampleEvery > 1)
        text += QStringLiteral(" (sampled: %1, each standing for up to %2 allocations)")
                    .arg(countOf(s.events, "event", "events"))
                    .arg(s.sampleEvery);
    if (s.allocBlocks[0])
        text += QStringLiteral(" (%1 without a stack)").arg(s.allocBlocks[0]);
    text += QLatin1Char('\n');
    if (!s.totalInuseBytes)
        return text;

    // The stacks, as memleak prints them: most bytes first, then by id (the same output for
    // the same file).
    std::vector<quint32> ids;
    for (quint32 id = 0; id < s.inuseBytes.size(); ++id) {
        if (s.inuseBytes[id])
            ids.push_back(id);
    }
    std::sort(ids.begin(), ids.end(), [&](quint32 a, quint32 b) {
        return s.inuseBytes[a] != s.inuseBytes[b] ? s.inuseBytes[a] > s.inuseBytes[b] : a < b;
    });
    const size_t shownStacks = top > 0 ? std::min(size_t(top), ids.size()) : ids.size();
    text +=
        QStringLiteral("%1 with blocks in use%2:\n")
            .arg(countOf(qsizetype(ids.size()), "stack", "stacks"),
                 shownStacks < ids.size() ? QStringLiteral(", the top %1 by bytes").arg(shownStacks)
                                          : QString());
    for (size_t i = 0; i < shownStacks; ++i) {
        const quint32 id = ids[i];
        text += QStringLiteral("  %1 in %2 from stack, the oldest allocated %3 before %4\n")
                    .arg(countOf(qint64(s.inuseBytes[id]), "byte", "bytes"),
                         countOf(qint64(s.inuseBlocks[id]), "allocation", "allocations"),
                         formatNs(at - std::min(at, s.oldestInuseNs[id])),
                         ranged ? QStringLiteral("the range's end") : QStringLiteral("the end"));
        if (!stacks.hasStack(id) || stacks.stack(id).frames.isEmpty()) {
            text += QStringLiteral("      [no stack]\n");
            continue;
        }
        for (quint32 f : stacks.stack(id).frames) {
            const QString module = moduleName(stacks, f);
            text += QStringLiteral("      %1%2\n")
                        .arg(stacks.frameName(f),
                             module.isEmpty() ? QString() : QStringLiteral("  ") + module);
        }
        if (isTruncated(stacks, id, StackPart::Both))
            text += QStringLiteral("      [truncated]\n");
    }

    // The functions, as for the other profiles, with the blocks under each.
    StackWeights bytes, blocks;
    for (quint32 id : ids) {
        bytes.add(id, s.inuseBytes[id]);
        blocks.add(id, s.inuseBlocks[id]);
    }
    const QList<FunctionCost> costs = functionCosts(stacks, bytes);
    QHash<quint32, quint64> blocksOf;
    for (const FunctionCost &c : functionCosts(stacks, blocks))
        blocksOf.insert(c.frame, c.total);
    const qsizetype shown = top > 0 ? qMin<qsizetype>(top, costs.size()) : costs.size();
    text += QStringLiteral("%1 holding them%2:\n")
                .arg(countOf(costs.size(), "function", "functions"),
                     shown < costs.size() ? QStringLiteral(", the top %1 by total").arg(shown)
                                          : QString());
    if (costs.isEmpty())
        return text;
    text += QStringLiteral("  %1 %2 %3 %4 %5  function\n")
                .arg(QStringLiteral("self bytes"), 12)
                .arg(QStringLiteral("self %"), 7)
                .arg(QStringLiteral("total bytes"), 12)
                .arg(QStringLiteral("total %"), 7)
                .arg(QStringLiteral("blocks"), 9);
    for (qsizetype i = 0; i < shown; ++i) {
        const FunctionCost &c = costs[i];
        QString line = QStringLiteral("  %1 %2 %3 %4 %5  %6")
                           .arg(c.self, 12)
                           .arg(percent(c.self, s.totalInuseBytes), 7)
                           .arg(c.total, 12)
                           .arg(percent(c.total, s.totalInuseBytes), 7)
                           .arg(blocksOf.value(c.frame), 9)
                           .arg(stacks.frameName(c.frame));
        const QString module = moduleName(stacks, c.frame);
        if (!module.isEmpty())
            line += QStringLiteral("  ") + module;
        text += line + QLatin1Char('\n');
    }
    return text;
}

QByteArray foldedOffWake(const SessionData &data, StackPart part)
{
    const EventStore &events = data.events;
    const qsizetype n = events.count(EventType::OffWake);
    QList<OffWakeSpan> spans;
    spans.reserve(n);
    for (qsizetype i = 0; i < n; ++i) {
        OffWakeSpan s;
        s.stackId = events.value<&OffWakeEvent::stackId>(i);
        s.wakerStackId = events.value<&OffWakeEvent::wakerStackId>(i);
        s.comm = events.value<&OffWakeEvent::comm>(i);
        s.wakerComm = events.value<&OffWakeEvent::wakerComm>(i);
        s.ns = events.value<&OffWakeEvent::offNs>(i);
        spans.append(std::move(s));
    }
    return offWakeFoldedStacks(data.stacks, spans, part);
}

} // namespace bpflens::cli
