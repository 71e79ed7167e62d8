#include "core/stacks.h"

#include "core/records.h"

namespace bpflens {

size_t qHash(const StackFrame &frame, size_t seed)
{
    return qHashMulti(seed, quint8(frame.kind), frame.address, frame.module, frame.buildId,
                      frame.symbol, frame.file, frame.line, frame.inlined);
}

void StackTable::addFunction(const StackFrame &frame)
{
    const quint32 id = quint32(m_frames.size()); // frame was pushed already
    if (frame.file.isEmpty() && frame.line == 0) {
        // Most frames (kernel, no DWARF): their own function, unless a frame of the same
        // function with a line came first.
        const auto it = m_functionIds.constFind(frame);
        m_functions.push_back(it != m_functionIds.constEnd() ? *it : id);
        if (it == m_functionIds.constEnd())
            m_functionIds.insert(frame, id);
        return;
    }
    StackFrame key = frame;
    key.file.clear();
    key.line = 0;
    const auto it = m_functionIds.constFind(key);
    if (it != m_functionIds.constEnd()) {
        m_functions.push_back(*it);
        return;
    }
    m_functions.push_back(id);
    m_functionIds.insert(key, id);
}

quint32 StackTable::intern(const StackFrame &frame)
{
    const auto it = m_frameIds.constFind(frame);
    if (it != m_frameIds.constEnd())
        return *it;
    m_frames.push_back(frame);
    addFunction(frame);
    const quint32 id = quint32(m_frames.size());
    m_frameIds.insert(frame, id);
    ++m_newFrames;
    return id;
}

quint32 StackTable::intern(quint8 flags, const QList<quint32> &frames)
{
    QHash<QList<quint32>, quint32> &ids = m_stackIds[flags & 15];
    const auto it = ids.constFind(frames);
    if (it != ids.constEnd())
        return *it;
    const quint32 id = quint32(m_stacks.size() + 1);
    m_stacks.push_back(StackDefinition{id, flags, frames});
    ids.insert(frames, id);
    ++m_newStacks;
    return id;
}

void StackTable::takeNewDefinitions(RecordBatch &batch)
{
    for (qsizetype i = qsizetype(m_frames.size()) - m_newFrames; i < qsizetype(m_frames.size());
         ++i)
        batch.frames.append(FrameDefinition{quint32(i + 1), m_frames[size_t(i)]});
    for (qsizetype i = qsizetype(m_stacks.size()) - m_newStacks; i < qsizetype(m_stacks.size());
         ++i)
        batch.stacks.append(m_stacks[size_t(i)]);
    m_newFrames = 0;
    m_newStacks = 0;
}

void StackTable::appendAllDefinitions(RecordBatch &batch) const
{
    batch.frames.reserve(batch.frames.size() + qsizetype(m_frames.size()));
    for (size_t i = 0; i < m_frames.size(); ++i)
        batch.frames.append(FrameDefinition{quint32(i + 1), m_frames[i]});
    batch.stacks.reserve(batch.stacks.size() + qsizetype(m_stacks.size()));
    for (const StackDefinition &s : m_stacks)
        batch.stacks.append(s);
}

bool StackTable::add(const FrameDefinition &definition, QString *error)
{
    if (definition.id != m_frames.size() + 1) {
        if (error)
            *error = QStringLiteral("stack frame %1 is defined out of order (expected %2)")
                         .arg(definition.id)
                         .arg(m_frames.size() + 1);
        return false;
    }
    m_frames.push_back(definition.frame);
    addFunction(definition.frame);
    return true;
}

bool StackTable::add(const StackDefinition &definition, QString *error)
{
    if (definition.id != m_stacks.size() + 1) {
        if (error)
            *error = QStringLiteral("stack %1 is defined out of order (expected %2)")
                         .arg(definition.id)
                         .arg(m_stacks.size() + 1);
        return false;
    }
    for (quint32 frame : definition.frames) {
        if (!hasFrame(frame)) {
            if (error)
                *error = QStringLiteral("stack %1 names frame %2, which is not defined")
                             .arg(definition.id)
                             .arg(frame);
            return false;
        }
    }
    m_stacks.push_back(definition);
    return true;
}

bool StackTable::addDefinitions(const RecordBatch &batch, QString *error)
{
    for (const FrameDefinition &f : batch.frames)
        if (!add(f, error))
            return false;
    for (const StackDefinition &s : batch.stacks)
        if (!add(s, error))
            return false;
    return true;
}

QString StackTable::frameName(quint32 id) const
{
    if (!hasFrame(id))
        return QStringLiteral("[unknown]");
    const StackFrame &f = frame(id);
    if (!f.symbol.isEmpty() && f.inlined)
        return QString::fromUtf8(f.symbol) + QStringLiteral(" (inlined)");
    if (!f.symbol.isEmpty())
        return QString::fromUtf8(f.symbol);
    if (f.module.isEmpty())
        return QStringLiteral("[unknown] 0x%1").arg(f.address, 0, 16);
    const QByteArray base = f.module.mid(f.module.lastIndexOf('/') + 1);
    return QStringLiteral("%1+0x%2").arg(QString::fromUtf8(base)).arg(f.address, 0, 16);
}

QString StackTable::sourceLocation(quint32 id) const
{
    if (!hasFrame(id))
        return {};
    const StackFrame &f = frame(id);
    if (f.file.isEmpty())
        return f.line ? QStringLiteral("?:%1").arg(f.line) : QString();
    const QString name = QString::fromUtf8(f.file.mid(f.file.lastIndexOf('/') + 1));
    return f.line ? QStringLiteral("%1:%2").arg(name).arg(f.line) : name;
}

QByteArray stackFlagWords(quint8 flags)
{
    static const std::pair<quint8, const char *> names[] = {
        {KernelStackTruncated, "kernel_truncated"},
        {UserStackTruncated, "user_truncated"},
        {UserFramePointers, "user_frame_pointers"},
        {NoUserStack, "no_user_stack"},
    };
    QByteArray out;
    for (const auto &[bit, name] : names) {
        if (flags & bit) {
            out += (out.isEmpty() ? "" : " ") + QByteArray(name);
            flags &= ~bit;
        }
    }
    if (flags)
        out += (out.isEmpty() ? "0x" : " 0x") + QByteArray::number(flags, 16);
    return out;
}

} // namespace bpflens
