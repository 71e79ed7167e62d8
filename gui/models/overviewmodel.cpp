#include "gui/models/overviewmodel.h"

#include "gui/models/eventmodels.h"
#include "gui/models/explainmodel.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/stackframes.h"

#include "core/probecatalog.h"
#include "core/units.h"

#include <QLocale>

#include <climits>
#include <cmath>

namespace bpflens {

namespace {

QString percent(double fraction)
{
    return OverviewCostModel::tr("%1 %").arg(QLocale().toString(100.0 * fraction, 'f', 1));
}

} // namespace

OverviewProbeModel::OverviewProbeModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void OverviewProbeModel::setProbes(QList<ProbeOverview> probes)
{
    beginResetModel();
    m_probes = std::move(probes);
    endResetModel();
}

int OverviewProbeModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_probes.size());
}

int OverviewProbeModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString OverviewProbeModel::bucketText(int slot, HistogramUnit unit)
{
    if (slot < 0)
        return noValue();
    const QLocale locale;
    QString low = locale.toString(Log2Histogram::slotLow(slot));
    QString high = locale.toString(Log2Histogram::slotHigh(slot));
    QString name;
    switch (unit) {
    case HistogramUnit::Nanoseconds:
        name = tr("ns");
        break;
    case HistogramUnit::Microseconds:
        name = tr("µs");
        break;
    case HistogramUnit::Milliseconds:
        name = tr("ms");
        break;
    case HistogramUnit::Kilobytes:
        name = tr("KiB");
        break;
    case HistogramUnit::Value:
        return tr("%1–%2").arg(low, high);
    }
    return tr("%1–%2 %3").arg(low, high, name);
}

QString OverviewProbeModel::lostExplanation()
{
    return tr("Events the kernel had no room for: the ring buffer (or a map that follows a "
              "request) was full. The tables and the timeline miss them; histograms are counted "
              "in the kernel and are complete.");
}

QString OverviewProbeModel::unseenExplanation()
{
    return tr("Events that could not be made because the kernel did not run the probe's program "
              "for one of their stages (a block request whose completion was never seen). No "
              "buffer was full.");
}

QString OverviewProbeModel::unfinishedExplanation()
{
    return tr("Requests seen starting and still open when the probe stopped: in flight at the "
              "stop, or ended without the kernel running the completion program. They have no "
              "event.");
}

QString OverviewProbeModel::lossText(quint64 lost, quint64 unseen, quint64 unfinished)
{
    const QLocale locale;
    QStringList parts;
    if (lost)
        parts << tr("%1 lost").arg(locale.toString(lost));
    if (unseen)
        parts << tr("%1 not seen").arg(locale.toString(unseen));
    if (unfinished)
        parts << tr("%1 unfinished").arg(locale.toString(unfinished));
    return parts.isEmpty() ? tr("none") : parts.join(QStringLiteral(" · "));
}

QVariant OverviewProbeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ProbeOverview &p = m_probes[index.row()];
    using Kind = ProbeOverview::Kind;
    switch (role) {
    case ProbeIdRole:
        return p.probeId;
    case KindRole:
        return int(p.kind);
    case EventsRole:
        return p.events;
    case SamplesRole:
        return p.samples;
    case IntervalsRole:
        return p.intervals;
    case LostRole:
        return p.lost;
    case UnseenRole:
        return p.unseen;
    case UnfinishedRole:
        return p.unfinished;
    case RealLossRole:
        return p.lost > 0;
    case Qt::TextAlignmentRole:
        return index.column() == ProbeColumn || index.column() == LossesColumn
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == LossesColumn) {
            if (!p.hasStats)
                return tr("The session has no counters of this probe.");
            QStringList why;
            if (p.lost)
                why << tr("%1 lost: %2").arg(QLocale().toString(p.lost), lostExplanation());
            if (p.unseen)
                why << tr("%1 not seen: %2").arg(QLocale().toString(p.unseen), unseenExplanation());
            if (p.unfinished)
                why << tr("%1 unfinished: %2")
                           .arg(QLocale().toString(p.unfinished), unfinishedExplanation());
            return why.isEmpty() ? tr("Nothing was lost.") : why.join(QStringLiteral("\n\n"));
        }
        if (p.kind == Kind::Histograms && index.column() >= P50Column &&
            index.column() <= MaxColumn)
            return p.p50Slot < 0 && p.samples > 0
                       ? tr("The histograms of this probe are of stages of the same requests: "
                            "see the I/O Stack tab.")
                       : tr("Counted in the kernel into log2 buckets: the bucket the value "
                            "falls in, not the value.");
        if (p.kind == Kind::Histograms && index.column() == RecordedColumn)
            return tr("This probe counts into histograms in the kernel and records no single "
                      "events.");
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    const QLocale locale;
    switch (index.column()) {
    case ProbeColumn:
        return p.probeId;
    case RecordedColumn:
        switch (p.kind) {
        case Kind::Events:
            return tr("%Ln event(s)", "", p.events);
        case Kind::Histograms:
            //: "1,234 samples in 10 intervals"
            return tr("%1 in %2", "samples in intervals")
                .arg(tr("%Ln sample(s)", "", qint64(p.samples)),
                     tr("%Ln interval(s)", "", p.intervals));
        case Kind::Counters:
            return tr("counters of %Ln interval(s)", "", p.intervals);
        case Kind::Nothing:
            return tr("no data");
        }
        return {};
    case P50Column:
    case P99Column:
    case MaxColumn: {
        const int c = index.column();
        if (p.kind == Kind::Events) {
            if (!p.hasLatency || p.events == 0)
                return noValue();
            return EventTableModel::formatDuration(c == P50Column   ? p.p50Ns
                                                   : c == P99Column ? p.p99Ns
                                                                    : p.maxNs);
        }
        if (p.kind == Kind::Histograms)
            return bucketText(c == P50Column   ? p.p50Slot
                              : c == P99Column ? p.p99Slot
                                               : p.maxSlot,
                              p.unit);
        return noValue();
    }
    case LossesColumn:
        return p.hasStats ? lossText(p.lost, p.unseen, p.unfinished) : tr("not counted");
    }
    return {};
}

QVariant OverviewProbeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == LossesColumn)
        return tr("Over the whole recording. Only \"lost\" means a full buffer.");
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ProbeColumn:
        return tr("Probe");
    case RecordedColumn:
        return tr("In the range");
    case P50Column:
        return tr("p50");
    case P99Column:
        return tr("p99");
    case MaxColumn:
        return tr("Max");
    case LossesColumn:
        return tr("Missing");
    }
    return {};
}

OverviewCostModel::OverviewCostModel(CostKind kind, QObject *parent)
    : QAbstractTableModel(parent)
{
    m_list.kind = kind;
}

void OverviewCostModel::setList(CostList list)
{
    beginResetModel();
    m_list = std::move(list);
    endResetModel();
}

EventFilter OverviewCostModel::filterFor(int row) const
{
    EventFilter f;
    if (row >= 0 && row < m_list.rows.size()) {
        f.pid = m_list.rows[row].pid;
        f.comm = m_list.rows[row].comm;
    }
    return f;
}

int OverviewCostModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_list.rows.size());
}

int OverviewCostModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString OverviewCostModel::kindTitle(CostKind kind)
{
    switch (kind) {
    case CostKind::CpuSamples:
        return tr("CPU samples");
    case CostKind::OffCpuTime:
        return tr("Off-CPU time");
    case CostKind::BlockTime:
        return tr("Block I/O time");
    case CostKind::Opens:
        return tr("Opens");
    case CostKind::Connects:
        return tr("Connects");
    }
    return {};
}

QString OverviewCostModel::valueText(CostKind kind, quint64 value)
{
    return costIsTime(kind) ? EventTableModel::formatDuration(value) : QLocale().toString(value);
}

QVariant OverviewCostModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CostRow &r = m_list.rows[index.row()];
    switch (role) {
    case PidRole:
        return r.pid;
    case CommRole:
        return r.comm;
    case ValueRole:
        return r.value;
    case OwnRole:
        return r.own;
    case Qt::TextAlignmentRole:
        return index.column() == ProcessColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (index.column() == ProcessColumn)
            return r.own ? tr("%1 is part of BPF Lens: its own cost while recording")
                               .arg(EventTableModel::displayBytes(r.comm))
                         : tr("Activate to filter every view to this process");
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case ProcessColumn: {
        const QString name =
            QString::number(r.pid) + QLatin1Char(' ') + EventTableModel::displayBytes(r.comm);
        return r.own ? tr("%1 (BPF Lens)").arg(name) : name;
    }
    case ValueColumn:
        return valueText(m_list.kind, r.value);
    case ShareColumn:
        return m_list.total ? percent(double(r.value) / double(m_list.total)) : noValue();
    }
    return {};
}

QVariant OverviewCostModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole && section == ShareColumn)
        return m_list.kind == CostKind::CpuSamples
                   ? tr("Of every CPU sample in the range, idle ones included")
                   : tr("Of the whole %1 in the range").arg(kindTitle(m_list.kind).toLower());
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case ProcessColumn:
        return tr("Process");
    case ValueColumn:
        return kindTitle(m_list.kind);
    case ShareColumn:
        return tr("Share");
    }
    return {};
}

OverviewFindingModel::OverviewFindingModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void OverviewFindingModel::setFindings(QList<Finding> findings, quint64 originNs)
{
    beginResetModel();
    m_findings = std::move(findings);
    m_origin = originNs;
    endResetModel();
}

int OverviewFindingModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_findings.size());
}

int OverviewFindingModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString OverviewFindingModel::text(const Finding &f) const
{
    const QLocale locale;
    switch (f.kind) {
    case Finding::Kind::Losses: {
        const QString s =
            tr("%1 lost %Ln event(s): its buffer was full", "", f.count).arg(f.probeId);
        const ProbeInfo *probe = ProbeCatalog::find(f.probeId);
        if (!probe || probe->lossHint.isEmpty())
            return s;
        //: "pagefault lost 26,861 events: its buffer was full. To lose fewer: record one
        //: fault in N (every=N), …"
        return tr("%1. To lose fewer: %2").arg(s, ProbeCatalog::translated(probe->lossHint));
    }
    case Finding::Kind::Spike: {
        auto seconds = [&](quint64 t) {
            return locale.toString(double(t - std::min(t, m_origin)) / 1e9, 'f', 1);
        };
        //: A burst of events: "Block I/O: 870 events at 4.2–4.8 s, 12× the usual rate"
        QString s = tr("%1: %Ln event(s) at %2–%3 s, %4× the usual rate", "", f.count)
                        .arg(SessionModel::typeName(f.type), seconds(f.startNs), seconds(f.endNs),
                             locale.toString(f.factor, 'f', 0));
        if (f.cause)
            //: "… — Process 700 dd: 94 % of them"
            s = tr("%1 — %2 %3: %4 of them")
                    .arg(s, ExplainModel::dimensionTitle(f.cause->dimension), f.cause->key,
                         percent(f.cause->insideShare()));
        return s;
    }
    case Finding::Kind::Errors:
        //: "Open: 1,234 failed with ENOENT"
        return tr("%1: %Ln failed with %2", "", f.count)
            .arg(SessionModel::typeName(f.type), f.errorName);
    case Finding::Kind::RunQueue:
        return tr("Run-queue latency p99 is %1, p50 %2: some threads waited far longer for a "
                  "CPU")
            .arg(OverviewProbeModel::bucketText(f.p99Slot, f.unit),
                 OverviewProbeModel::bucketText(f.p50Slot, f.unit));
    }
    return {};
}

QString OverviewFindingModel::linkText(const Finding &f)
{
    switch (f.kind) {
    case Finding::Kind::Losses:
    case Finding::Kind::Errors:
        return tr("Show the events");
    case Finding::Kind::Spike:
        return tr("Explain the burst");
    case Finding::Kind::RunQueue:
        return tr("Show the histogram");
    }
    return {};
}

QVariant OverviewFindingModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Finding &f = m_findings[index.row()];
    switch (role) {
    case KindRole:
        return int(f.kind);
    case EventTypeRole:
        return int(f.type);
    case StartNsRole:
        return f.startNs;
    case EndNsRole:
        return f.endNs;
    case ErrorRole:
        return f.error;
    case SeverityRole:
        return f.kind == Finding::Kind::Losses;
    case Qt::DisplayRole:
        return index.column() == FindingColumn ? text(f) : linkText(f);
    case Qt::ToolTipRole:
        if (f.kind == Finding::Kind::Spike && f.cause)
            return tr("%1 of the burst's events (%2 of %3); %4 elsewhere (%5 of %6)")
                .arg(percent(f.cause->insideShare()), QLocale().toString(f.cause->inside),
                     QLocale().toString(f.cause->insideTotal), percent(f.cause->outsideShare()),
                     QLocale().toString(f.cause->outside),
                     QLocale().toString(f.cause->outsideTotal));
        if (f.kind == Finding::Kind::Errors)
            return f.ownCount ? tr("%1 of %2 in the visible range, %3 of them by BPF Lens' own "
                                   "processes")
                                    .arg(QLocale().toString(f.count), QLocale().toString(f.total),
                                         QLocale().toString(f.ownCount))
                              : tr("%1 of %2 in the visible range")
                                    .arg(QLocale().toString(f.count), QLocale().toString(f.total));
        if (f.kind == Finding::Kind::Losses)
            return OverviewProbeModel::lostExplanation();
        return {};
    }
    return {};
}

QVariant OverviewFindingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == FindingColumn ? tr("Worth a look") : tr("Shown in");
}

} // namespace bpflens

namespace bpflens {

OverviewMemoryModel::OverviewMemoryModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void OverviewMemoryModel::setMemory(MemoryOverview memory, const StackTable *stacks,
                                    quint64 originNs)
{
    beginResetModel();
    m_memory = std::move(memory);
    m_stacks = stacks;
    m_origin = originNs;
    endResetModel();
}

int OverviewMemoryModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_memory.present)
        return 0;
    return StackRows + int(m_memory.top.size());
}

int OverviewMemoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OverviewMemoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const MemoryOverview &m = m_memory;
    const int row = index.row();
    const QLocale locale;
    const auto bytes = [&locale](quint64 b) { return formatByteSize(b, locale); };
    const auto blocks = [](quint64 n) { return int(std::min<quint64>(n, INT_MAX)); };
    const MemoryOverview::Stack *stack = row >= StackRows ? &m.top[row - StackRows] : nullptr;
    switch (role) {
    case StackIdRole:
        return stack ? QVariant(stack->stackId) : QVariant();
    case BytesRole:
        if (stack)
            return stack->bytes;
        switch (row) {
        case InUseRow:
            return m.inUseBytes;
        case PeakRow:
            return m.peakBytes;
        case GrowthRow:
            return m.growthBytes();
        case AllocatedRow:
            return m.allocatedBytes;
        }
        return {};
    case Qt::ToolTipRole:
        if (stack) {
            QStringList lines{
                tr("%1 in %Ln allocation(s) from this stack, the oldest allocated "
                   "%2 before the range's end",
                   nullptr, blocks(stack->blocks))
                    .arg(bytes(stack->bytes),
                         EventTableModel::formatDuration(
                             m.endNs > stack->oldestNs ? m.endNs - stack->oldestNs : 0))};
            if (m_stacks && m_stacks->hasStack(stack->stackId)) {
                for (quint32 f : m_stacks->stack(stack->stackId).frames)
                    lines << QStringLiteral("    ") + m_stacks->frameName(f);
            }
            lines << tr("Activate to see the stacks holding memory in the Memory tab.");
            return lines.join(QLatin1Char('\n'));
        }
        switch (row) {
        case InUseRow:
            return tr("The blocks allocated in the visible range and not freed by its end, as "
                      "the Memory tab's flame graph and top stacks sum them.");
        case PeakRow:
            return tr("The most the recorded blocks held at once in the range, whenever they "
                      "were allocated.");
        case GrowthRow:
            return tr("What the recorded blocks held at the range's end (%1) less what they "
                      "held at its start (%2).")
                .arg(bytes(m.heldAtEndBytes), bytes(m.heldAtStartBytes));
        case AllocatedRow:
            return m.sampleEvery > 1
                       ? tr("Every block allocated in the range, freed or not. Sampled "
                            "(sampleEvery=%1): the bytes and blocks are estimates.")
                             .arg(locale.toString(m.sampleEvery))
                       : tr("Every block allocated in the range, freed or not.");
        }
        return {};
    case Qt::TextAlignmentRole:
        return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    if (index.column() == WhatColumn) {
        if (stack)
            return tr("Allocated in %1")
                .arg(m_stacks
                         ? StackNames::keyFunction(*m_stacks, EventType::Allocation, stack->stackId)
                         : QString::number(stack->stackId));
        switch (row) {
        case InUseRow:
            return tr("In use at the end");
        case PeakRow:
            return tr("Peak");
        case GrowthRow:
            return tr("Growth over the range");
        case AllocatedRow:
            return tr("Allocated in the range");
        }
        return {};
    }
    if (stack)
        return tr("%1 in %Ln block(s), the oldest %2 old", nullptr, blocks(stack->blocks))
            .arg(bytes(stack->bytes),
                 EventTableModel::formatDuration(
                     m.endNs > stack->oldestNs ? m.endNs - stack->oldestNs : 0));
    switch (row) {
    case InUseRow:
        return tr("%1 in %Ln block(s) from %2", nullptr, blocks(m.inUseBlocks))
            .arg(bytes(m.inUseBytes), tr("%Ln stack(s)", nullptr, int(m.stacks)));
    case PeakRow:
        return tr("%1 at %2 s")
            .arg(bytes(m.peakBytes),
                 locale.toString(double(qint64(m.peakNs - m_origin)) / 1e9, 'f', 3));
    case GrowthRow: {
        const qint64 g = m.growthBytes();
        return (g >= 0 ? QStringLiteral("+") : QStringLiteral("−")) +
               bytes(quint64(g >= 0 ? g : -g));
    }
    case AllocatedRow:
        return tr("%1 in %Ln block(s)", nullptr, blocks(m.allocatedBlocks))
            .arg(bytes(m.allocatedBytes));
    }
    return {};
}

} // namespace bpflens
