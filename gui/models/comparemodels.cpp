#include "gui/models/comparemodels.h"

#include "core/units.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/topmodel.h"

#include <QHash>
#include <QLocale>

#include <algorithm>
#include <climits>
#include <cmath>
#include <iterator>

namespace bpflens {

namespace {

QString number(double v)
{
    if (std::isnan(v))
        return noValue();
    // Percentiles are interpolated inside a bucket: more digits than these would be noise.
    return QLocale().toString(v, 'f', std::abs(v) >= 100 || v == std::floor(v) ? 0 : 1);
}

} // namespace

// PercentileDiffModel

PercentileDiffModel::PercentileDiffModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void PercentileDiffModel::setDiff(std::shared_ptr<const SessionDiff> diff)
{
    beginResetModel();
    m_diff = std::move(diff);
    endResetModel();
}

int PercentileDiffModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_diff)
        return 0;
    return int(m_diff->histograms.size() * std::size(Fractions));
}

int PercentileDiffModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString PercentileDiffModel::histogramName(const SessionDiff::Histogram &h)
{
    return h.key.isEmpty() ? h.probeId : QStringLiteral("%1 — %2").arg(h.probeId, h.key);
}

QString PercentileDiffModel::signedNumber(double value)
{
    if (std::isnan(value))
        return noValue();
    const QString n = number(std::abs(value));
    return value > 0 ? QLatin1Char('+') + n : value < 0 ? QChar(0x2212) + n : n;
}

QString PercentileDiffModel::relativeText(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return noValue();
    const double r = relativeChange(a, b);
    if (std::isinf(r))
        return tr("new");
    const QString n = QLocale().toString(std::abs(r) * 100.0, 'f', 1);
    return tr("%1%2%").arg(r > 0   ? QStringLiteral("+")
                           : r < 0 ? QString(QChar(0x2212))
                                   : QString(),
                           n);
}

QVariant PercentileDiffModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int h = index.row() / int(std::size(Fractions));
    const double f = Fractions[index.row() % std::size(Fractions)];
    const SessionDiff::Histogram &hist = m_diff->histograms[h];
    const double a = hist.percentileA(f), b = hist.percentileB(f);
    if (role == HistogramRole)
        return h;
    if (role == FractionRole)
        return f;
    if (role == Qt::TextAlignmentRole && index.column() >= BaselineColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == ValueRole) {
        switch (Columns(index.column())) {
        case BaselineColumn:
            return a;
        case ComparisonColumn:
            return b;
        case ChangeColumn:
            return b - a;
        case RelativeColumn:
            return std::isnan(a) || std::isnan(b) ? std::nan("") : relativeChange(a, b);
        case HistogramColumn:
            return histogramName(hist);
        case PercentileColumn:
            return f;
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        const QString unit = histogramAxisUnit(hist.a.unit());
        switch (Columns(index.column())) {
        case HistogramColumn:
            return histogramName(hist);
        case PercentileColumn:
            return QLatin1Char('p') + QString::number(f * 100.0, 'g', 3);
        case BaselineColumn:
            return std::isnan(a) ? number(a) : tr("%1 %2").arg(number(a), unit);
        case ComparisonColumn:
            return std::isnan(b) ? number(b) : tr("%1 %2").arg(number(b), unit);
        case ChangeColumn:
            return signedNumber(b - a);
        case RelativeColumn:
            return relativeText(a, b);
        case ColumnCount:
            break;
        }
    }
    if (role == Qt::ToolTipRole && index.column() == HistogramColumn) {
        return tr("%1: %Ln sample(s) in the baseline, %2 in the comparison", nullptr,
                  int(std::min<quint64>(hist.a.count(), INT_MAX)))
            .arg(histogramName(hist), QLocale().toString(hist.b.count()));
    }
    return {};
}

QVariant PercentileDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Columns(section)) {
    case HistogramColumn:
        return tr("Histogram");
    case PercentileColumn:
        return tr("Percentile");
    case BaselineColumn:
        return tr("Baseline");
    case ComparisonColumn:
        return tr("Comparison");
    case ChangeColumn:
        return tr("Change");
    case RelativeColumn:
        return tr("Relative");
    case ColumnCount:
        break;
    }
    return {};
}

// EventDiffModel: top-level rows are SessionDiff::events; a key row's internal id is its
// type's row + 1 (0 marks a top-level row).

EventDiffModel::EventDiffModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void EventDiffModel::setDiff(std::shared_ptr<const SessionDiff> diff)
{
    beginResetModel();
    m_diff = std::move(diff);
    endResetModel();
}

void EventDiffModel::setDimension(Dimension dimension)
{
    if (dimension == m_dimension)
        return;
    beginResetModel();
    m_dimension = dimension;
    endResetModel();
    Q_EMIT headerDataChanged(Qt::Horizontal, NameColumn, NameColumn);
}

QList<Dimension> EventDiffModel::dimensions() const
{
    QList<Dimension> out;
    for (int d = 0; m_diff && d <= int(Dimension::Error); ++d) {
        for (const SessionDiff::Events &e : m_diff->events) {
            if (e.by(Dimension(d))) {
                out.append(Dimension(d));
                break;
            }
        }
    }
    return out;
}

const SessionDiff::Keys *EventDiffModel::keysOf(int typeRow) const
{
    return m_diff->events[typeRow].by(m_dimension);
}

QModelIndex EventDiffModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, parent.isValid() ? quintptr(parent.row() + 1) : 0);
}

QModelIndex EventDiffModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int EventDiffModel::rowCount(const QModelIndex &parent) const
{
    if (!m_diff)
        return 0;
    if (!parent.isValid())
        return int(m_diff->events.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    const SessionDiff::Keys *keys = keysOf(parent.row());
    return keys ? int(keys->keys.size()) : 0;
}

int EventDiffModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant EventDiffModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const bool isKey = index.internalId() != 0;
    const int typeRow = isKey ? int(index.internalId() - 1) : index.row();
    const SessionDiff::Events &e = m_diff->events[typeRow];
    QString name;
    qint64 a = e.a, b = e.b;
    if (isKey) {
        const SessionDiff::Key &k = keysOf(typeRow)->keys[index.row()];
        name = k.key;
        a = k.a;
        b = k.b;
    } else {
        name = SessionModel::typeName(e.type);
    }
    switch (role) {
    case EventTypeRole:
        return int(e.type);
    case Qt::ToolTipRole: {
        if (isKey || index.column() != NameColumn)
            return {};
        const SessionDiff::Keys *keys = keysOf(typeRow);
        if (!keys)
            return tr("These events have no value in this dimension.");
        if (keys->keys.isEmpty())
            return tr("No event of either session has a value in this dimension.");
        return tr("The %1 busiest of %2 values, by the larger of the two counts.")
            .arg(keys->keys.size())
            .arg(keys->total);
    }
    case Qt::TextAlignmentRole:
        if (index.column() != NameColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case ValueRole:
        switch (Columns(index.column())) {
        case NameColumn:
            return name;
        case BaselineColumn:
            return a;
        case ComparisonColumn:
            return b;
        case ChangeColumn:
            return b - a;
        case RelativeColumn:
            return relativeChange(double(a), double(b));
        case ColumnCount:
            break;
        }
        return {};
    case Qt::DisplayRole:
        switch (Columns(index.column())) {
        case NameColumn:
            return name;
        case BaselineColumn:
            return QLocale().toString(a);
        case ComparisonColumn:
            return QLocale().toString(b);
        case ChangeColumn:
            return b > a   ? QLatin1Char('+') + QLocale().toString(b - a)
                   : b < a ? QChar(0x2212) + QLocale().toString(a - b)
                           : QStringLiteral("0");
        case RelativeColumn:
            return PercentileDiffModel::relativeText(double(a), double(b));
        case ColumnCount:
            break;
        }
        return {};
    default:
        return {};
    }
}

QVariant EventDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Columns(section)) {
    case NameColumn:
        return tr("Events / %1").arg(TopModel::dimensionTitle(m_dimension));
    case BaselineColumn:
        return tr("Baseline");
    case ComparisonColumn:
        return tr("Comparison");
    case ChangeColumn:
        return tr("Change");
    case RelativeColumn:
        return tr("Relative");
    case ColumnCount:
        break;
    }
    return {};
}

// DifferentialProfile

DifferentialProfile differentialProfile(const Profile &baseline, const StackTable &baselineStacks,
                                        std::shared_ptr<const Profile> comparison,
                                        const StackTable &comparisonStacks)
{
    DifferentialProfile d;
    d.comparison = std::move(comparison);
    d.baselineTotal = baseline.total;
    if (!d.comparison)
        return d;
    const CallTree &ta = baseline.topDown;
    const CallTree &tb = d.comparison->topDown;
    // Frame names to small ids, then (parent node, name id) -> baseline node: a path is matched
    // one frame at a time without building its string.
    QHash<QString, quint32> nameIds;
    auto nameId = [&](const StackTable &stacks, quint32 frame) {
        const QString name = ProfileText::frameName(stacks, frame);
        const auto it = nameIds.constFind(name);
        if (it != nameIds.cend())
            return *it;
        const quint32 id = quint32(nameIds.size());
        nameIds.insert(name, id);
        return id;
    };
    QHash<quint64, qint32> childA;
    childA.reserve(ta.size());
    for (qint32 n = 1; n < ta.size(); ++n) {
        const CallTree::Node &node = ta.node(n);
        childA.insert((quint64(quint32(node.parent)) << 32) | nameId(baselineStacks, node.frame),
                      n);
    }
    const double totalA = double(baseline.total), totalB = double(d.comparison->total);
    auto share = [](quint64 v, double total) { return total > 0 ? double(v) / total : 0.0; };
    d.nodes.resize(size_t(tb.size()));
    std::vector<qint32> match(size_t(tb.size()), -1);
    std::vector<char> matchedA(size_t(ta.size()), 0);
    if (tb.size() > 0 && ta.size() > 0) {
        match[0] = 0;
        matchedA[0] = 1;
    }
    for (qint32 n = 0; n < tb.size(); ++n) {
        const CallTree::Node &node = tb.node(n);
        if (n > 0 && match[size_t(node.parent)] >= 0) {
            const quint64 key = (quint64(quint32(match[size_t(node.parent)])) << 32) |
                                nameId(comparisonStacks, node.frame);
            match[size_t(n)] = childA.value(key, -1);
        }
        DifferentialProfile::NodeShares &s = d.nodes[size_t(n)];
        s.selfB = share(node.self, totalB);
        s.totalB = share(node.total, totalB);
        s.selfValueB = node.self;
        s.totalValueB = node.total;
        if (const qint32 a = match[size_t(n)]; a >= 0) {
            matchedA[size_t(a)] = 1;
            s.inA = true;
            s.selfA = share(ta.node(a).self, totalA);
            s.totalA = share(ta.node(a).total, totalA);
            s.selfValueA = ta.node(a).self;
            s.totalValueA = ta.node(a).total;
        }
        d.maxTotalDelta = std::max(d.maxTotalDelta, std::abs(s.totalB - s.totalA));
        d.maxSelfDelta = std::max(d.maxSelfDelta, std::abs(s.selfB - s.selfA));
    }
    // A vanished path's share counts once, at its outermost missing frame.
    for (qint32 n = 1; n < ta.size(); ++n) {
        if (!matchedA[size_t(n)] && matchedA[size_t(ta.node(n).parent)])
            d.vanishedTotal += share(ta.node(n).total, totalA);
    }
    return d;
}

} // namespace bpflens
