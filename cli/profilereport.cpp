#include "cli/profilereport.h"

#include "cli/plural.h"
#include "core/sessionstore.h"

#include <QFileInfo>

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
        break;
    }
    return EventType::PageFault;
}

quint32 stackIdAt(const EventStore &events, ProfileKind kind, qsizetype i)
{
    switch (kind) {
    case ProfileKind::OnCpu:
        return events.value<&CpuSampleEvent::stackId>(i);
    case ProfileKind::OffCpu:
        return events.value<&OffCpuEvent::stackId>(i);
    case ProfileKind::PageFaults:
        break;
    }
    return events.value<&PageFaultEvent::stackId>(i);
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

StackWeights profileWeights(const SessionData &data, ProfileKind kind, bool byProcess,
                            quint64 unitNs)
{
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

QByteArray foldedProfile(const SessionData &data, ProfileKind kind, StackPart part, bool byProcess)
{
    return foldedStacks(data.stacks, profileWeights(data, kind, byProcess, 1000), part);
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
