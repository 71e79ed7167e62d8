#include "gui/models/stackframes.h"

#include "gui/models/profilemodels.h"

namespace bpflens {

bool StackNames::isSchedulerFrame(const StackFrame &frame)
{
    if (frame.kind != FrameKind::Kernel)
        return false;
    const QByteArray &s = frame.symbol;
    // Names as the kernel's symbol table has them; a compiler suffix (".isra.0", ".cold") keeps
    // the prefix.
    return s == "schedule" || s.startsWith("__schedule") || s.startsWith("schedule_") ||
           s.startsWith("io_schedule") || s.startsWith("preempt_schedule") ||
           s.startsWith("__cond_resched") || s.startsWith("_cond_resched") ||
           s.startsWith("__wait_for_common") || s.startsWith("do_wait_for_common");
}

int StackNames::keyFrameIndex(const StackTable &stacks, EventType type, quint32 stackId)
{
    if (!stacks.hasStack(stackId))
        return -1;
    const QList<quint32> &frames = stacks.stack(stackId).frames;
    if (frames.isEmpty())
        return -1;
    if (type == EventType::OffCpu || type == EventType::OffWake) {
        for (int i = 0; i < frames.size(); ++i) {
            if (!isSchedulerFrame(stacks.frame(frames[i])))
                return i;
        }
    }
    return 0;
}

quint32 StackNames::keyFrame(const StackTable &stacks, EventType type, quint32 stackId)
{
    const int i = keyFrameIndex(stacks, type, stackId);
    return i < 0 ? 0 : stacks.stack(stackId).frames[i];
}

QString StackNames::keyFunction(const StackTable &stacks, EventType type, quint32 stackId)
{
    const quint32 frame = keyFrame(stacks, type, stackId);
    return frame ? stacks.frameName(frame) : StackFramesModel::tr("[no stack]");
}

bool StackNames::isWakeupFrame(const StackFrame &frame)
{
    if (frame.kind != FrameKind::Kernel)
        return false;
    const QByteArray &s = frame.symbol;
    return s.startsWith("try_to_wake_up") || s.startsWith("ttwu_") || s.startsWith("__wake_up") ||
           s.startsWith("wake_up_") || s.startsWith("default_wake_function") ||
           s.startsWith("autoremove_wake_function") || s.startsWith("woken_wake_function") ||
           s.startsWith("wake_bit_function") || s.startsWith("var_wake_function") ||
           s.startsWith("wake_page_function") || s.startsWith("pollwake") ||
           s.startsWith("ep_autoremove_wake_function") || s.startsWith("ep_poll_callback") ||
           s.startsWith("swake_up");
}

int StackNames::wakerKeyFrameIndex(const StackTable &stacks, quint32 stackId)
{
    if (!stacks.hasStack(stackId))
        return -1;
    const QList<quint32> &frames = stacks.stack(stackId).frames;
    if (frames.isEmpty())
        return -1;
    for (int i = 0; i < frames.size(); ++i) {
        if (!isWakeupFrame(stacks.frame(frames[i])))
            return i;
    }
    return 0;
}

quint32 StackNames::wakerKeyFrame(const StackTable &stacks, quint32 stackId)
{
    const int i = wakerKeyFrameIndex(stacks, stackId);
    return i < 0 ? 0 : stacks.stack(stackId).frames[i];
}

QString StackNames::wakerKeyFunction(const StackTable &stacks, quint32 stackId)
{
    const quint32 frame = wakerKeyFrame(stacks, stackId);
    return frame ? stacks.frameName(frame) : StackFramesModel::tr("[no stack]");
}

StackFramesModel::StackFramesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void StackFramesModel::setStack(const StackTable *stacks, EventType type, quint32 stackId)
{
    setStack(stacks, stackId, [type](const StackTable &table, quint32 id) {
        return StackNames::keyFrameIndex(table, type, id);
    });
}

void StackFramesModel::setWakerStack(const StackTable *stacks, quint32 stackId)
{
    setStack(stacks, stackId, &StackNames::wakerKeyFrameIndex);
}

void StackFramesModel::setStack(const StackTable *stacks, quint32 stackId,
                                const std::function<int(const StackTable &, quint32)> &keyRow)
{
    beginResetModel();
    m_stacks = stacks;
    m_frames.clear();
    m_flags = 0;
    m_keyRow = -1;
    m_stackId = stacks && stacks->hasStack(stackId) ? stackId : 0;
    if (m_stackId) {
        m_frames = stacks->stack(stackId).frames;
        m_flags = stacks->stack(stackId).flags;
        m_keyRow = keyRow(*stacks, stackId);
    }
    m_shown = m_stackId != 0;
    endResetModel();
}

void StackFramesModel::setFrames(const StackTable *stacks, const QList<quint32> &frames,
                                 quint8 flags)
{
    beginResetModel();
    m_stacks = stacks;
    m_stackId = 0;
    m_shown = stacks != nullptr;
    m_frames.clear();
    if (stacks) {
        for (quint32 f : frames) {
            if (stacks->hasFrame(f))
                m_frames.append(f);
        }
    }
    m_flags = m_shown ? flags : 0;
    m_keyRow = m_frames.isEmpty() ? -1 : 0;
    endResetModel();
}

QString StackFramesModel::markerText() const
{
    if (m_flags & UserStackTruncated)
        return tr("[truncated: the unwinder did not reach the thread's first frame]");
    if (m_flags & KernelStackTruncated)
        return tr("[truncated: the kernel stack was deeper than the frames copied]");
    return {};
}

int StackFramesModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_shown)
        return 0;
    return int(m_frames.size()) + (markerText().isEmpty() ? 0 : 1);
}

int StackFramesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StackFramesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const int column = index.column();
    if (row >= m_frames.size()) {
        switch (role) {
        case Qt::DisplayRole:
        case Qt::ToolTipRole:
            return column == FunctionColumn ? QVariant(markerText()) : QVariant();
        case FrameIdRole:
            return QVariant::fromValue(quint32(0));
        case IsKeyFrameRole:
            return false;
        case IsMarkerRole:
            return true;
        case IsInlinedRole:
            return false;
        default:
            return {};
        }
    }
    const quint32 frame = m_frames[row];
    const StackFrame &f = m_stacks->frame(frame);
    const bool kernel = f.kind == FrameKind::Kernel;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case FunctionColumn:
            // The inlined mark is in the kind column, translated.
            return f.inlined && !f.symbol.isEmpty() ? QString::fromUtf8(f.symbol)
                                                    : m_stacks->frameName(frame);
        case ModuleColumn:
            return ProfileText::moduleName(*m_stacks, frame);
        case SourceColumn:
            return m_stacks->sourceLocation(frame);
        case KindColumn:
            if (f.inlined)
                return kernel ? tr("kernel, inlined") : tr("user, inlined");
            return kernel ? tr("kernel") : tr("user");
        }
        return {};
    case Qt::ToolTipRole: {
        // Everything the session knows of the frame, for a name too long for the column.
        QStringList lines{m_stacks->frameName(frame)};
        const QString path = ProfileText::modulePath(*m_stacks, frame);
        if (!path.isEmpty())
            lines << path;
        lines << (kernel ? tr("kernel, address 0x%1") : tr("user, offset 0x%1 in the file"))
                     .arg(f.address, 0, 16);
        if (!f.buildId.isEmpty())
            lines << tr("build id %1").arg(QString::fromLatin1(f.buildId));
        if (!f.file.isEmpty())
            lines << (f.line ? tr("source %1, line %2").arg(QString::fromUtf8(f.file)).arg(f.line)
                             : tr("source %1").arg(QString::fromUtf8(f.file)));
        if (f.inlined)
            lines << tr("Inlined: the compiler put this function's code into its caller, the "
                        "next frame; it has no call of its own.");
        if (row == m_keyRow && row > 0)
            lines << tr("The function the thread blocked in: the frames above it are the "
                        "scheduler's.");
        return lines.join(QLatin1Char('\n'));
    }
    case FrameIdRole:
        return QVariant::fromValue(frame);
    case FrameKindRole:
        return int(f.kind);
    case IsKeyFrameRole:
        return row == m_keyRow;
    case IsMarkerRole:
        return false;
    case IsInlinedRole:
        return f.inlined;
    }
    return {};
}

QVariant StackFramesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FunctionColumn:
        return tr("Function");
    case ModuleColumn:
        return tr("Module");
    case SourceColumn:
        return tr("Source");
    case KindColumn:
        return tr("Where");
    }
    return {};
}

} // namespace bpflens
