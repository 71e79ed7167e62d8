#include "gui/models/criticalpathmodel.h"

#include "core/events.h"
#include "gui/models/eventmodels.h"

#include <QCoreApplication>
#include <QLocale>

namespace bpflens {

namespace {

using E = ThreadStateEvent;

} // namespace

CriticalPathModel::CriticalPathModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void CriticalPathModel::setPath(const CriticalPath &path, quint64 originNs)
{
    beginResetModel();
    m_path = path;
    m_origin = originNs;
    endResetModel();
}

void CriticalPathModel::clear()
{
    setPath({}, m_origin);
}

int CriticalPathModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_path.steps.size());
}

int CriticalPathModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString CriticalPathModel::stateText(quint8 state)
{
    if (state == 0)
        return tr("not recorded");
    const char *t = E::stateTitle(state);
    return *t ? QCoreApplication::translate("bpflens::ThreadStates", t) : QString::number(state);
}

QString CriticalPathModel::reasonText(quint8 reason)
{
    const char *t = E::reasonTitle(reason);
    return *t ? QCoreApplication::translate("bpflens::ThreadStates", t) : QString();
}

QString CriticalPathModel::threadText(quint32 tid, const QByteArray &comm)
{
    if (comm.isEmpty())
        return tid ? QString::number(tid) : QString();
    return tid ? QStringLiteral("%1 %2").arg(EventTableModel::displayBytes(comm)).arg(tid)
               : EventTableModel::displayBytes(comm); // "[irq]"
}

QVariant CriticalPathModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const CriticalPathStep &s = m_path.steps.at(index.row());
    switch (role) {
    case SpanRole:
        return QVariant::fromValue(s.span);
    case TidRole:
        return QVariant::fromValue(s.tid);
    case StartNsRole:
        return QVariant::fromValue(s.startNs);
    case EndNsRole:
        return QVariant::fromValue(s.endNs);
    case DurationNsRole:
        return QVariant::fromValue(s.durationNs());
    case StateRole:
        return QVariant::fromValue(s.state);
    case DepthRole:
        return s.depth;
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case StartColumn:
        case DurationColumn:
        case CpuColumn:
        case DepthColumn:
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (index.column() == DepthColumn)
            return tr("Wakeups away from the thread asked for");
        if (index.column() == WakerColumn && s.wakerComm.isEmpty() && s.state >= E::Sleeping)
            return tr("The wait did not end within the range");
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case StartColumn:
        return EventTableModel::formatTime(s.startNs, m_origin);
    case DurationColumn:
        return EventTableModel::formatDuration(s.durationNs());
    case ThreadColumn:
        // Indented by depth, as a call tree: the chain of wakers reads down and to the right.
        return QString(s.depth * 2, QLatin1Char(' ')) + threadText(s.tid, s.comm);
    case StateColumn:
        return stateText(s.state);
    case ReasonColumn:
        return reasonText(s.reason);
    case CpuColumn:
        return s.state == E::Running || s.state == E::Runnable ? QString::number(s.cpu) : QString();
    case DepthColumn:
        return s.depth;
    case WakerColumn:
        return threadText(s.wakerTid, s.wakerComm);
    default:
        return {};
    }
}

QVariant CriticalPathModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case StartColumn:
        return tr("Start");
    case DurationColumn:
        return tr("Duration");
    case ThreadColumn:
        return tr("Thread");
    case StateColumn:
        return tr("State");
    case ReasonColumn:
        return tr("Reason");
    case CpuColumn:
        return tr("CPU");
    case DepthColumn:
        return tr("Depth");
    case WakerColumn:
        return tr("Woken by");
    default:
        return {};
    }
}

// ---------------------------------------------------------------------------------------------

CriticalPathSharesModel::CriticalPathSharesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void CriticalPathSharesModel::setPath(const CriticalPath &path)
{
    beginResetModel();
    m_shares = criticalPathShares(path);
    m_totalNs = path.toNs > path.fromNs ? path.toNs - path.fromNs : 0;
    endResetModel();
}

void CriticalPathSharesModel::clear()
{
    setPath({});
}

int CriticalPathSharesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_shares.size());
}

int CriticalPathSharesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CriticalPathSharesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const CriticalPathShare &s = m_shares.at(index.row());
    const double fraction = m_totalNs ? double(s.ns) / double(m_totalNs) : 0.0;
    switch (role) {
    case TidRole:
        return QVariant::fromValue(s.tid);
    case NsRole:
        return QVariant::fromValue(s.ns);
    case FractionRole:
        return fraction;
    case Qt::TextAlignmentRole:
        return index.column() == TimeColumn || index.column() == ShareColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case ThreadColumn:
        return CriticalPathModel::threadText(s.tid, s.comm);
    case StateColumn: {
        const QString reason = CriticalPathModel::reasonText(s.reason);
        const QString state = CriticalPathModel::stateText(s.state);
        return reason.isEmpty() ? state : tr("%1 (%2)").arg(state, reason);
    }
    case TimeColumn:
        return EventTableModel::formatDuration(s.ns);
    case ShareColumn:
        return tr("%1 %").arg(QLocale().toString(fraction * 100.0, 'f', 1));
    default:
        return {};
    }
}

QVariant CriticalPathSharesModel::headerData(int section, Qt::Orientation orientation,
                                             int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ThreadColumn:
        return tr("Thread");
    case StateColumn:
        return tr("State");
    case TimeColumn:
        return tr("Time");
    case ShareColumn:
        return tr("Share");
    default:
        return {};
    }
}

} // namespace bpflens
