#include "core/stringpool.h"

namespace bpflens {

namespace {
// QArrayData header plus the terminating NUL, rounded to malloc's 16-byte granularity.
qint64 heapBytesOf(const QByteArray &bytes)
{
    if (bytes.isEmpty())
        return 0;
    const qint64 raw = qint64(sizeof(QArrayData)) + bytes.size() + 1;
    return (raw + 15) & ~qint64(15);
}
} // namespace

StringPool::StringPool()
{
    clear();
}

quint32 StringPool::intern(const QByteArray &bytes)
{
    if (bytes.isEmpty())
        return 0;
    const auto it = m_ids.constFind(bytes);
    if (it != m_ids.constEnd())
        return it.value();
    const auto id = quint32(m_strings.size());
    // The hash key and the list entry share one allocation (implicit sharing); detaching
    // from the caller's buffer keeps a large kernel buffer from being pinned by a short path.
    QByteArray own(bytes.constData(), bytes.size());
    m_strings.append(own);
    m_ids.insert(own, id);
    m_stringBytes += heapBytesOf(own);
    return id;
}

const QByteArray &StringPool::emptyString()
{
    static const QByteArray empty;
    return empty;
}

qint64 StringPool::memoryBytes() const
{
    // Per entry: a QByteArray in the list, and a hash node (key + id, padded) in a span whose
    // offset byte and growth slack cost about as much again as the node itself.
    const qint64 listBytes = m_strings.capacity() * qint64(sizeof(QByteArray));
    const qint64 hashBytes = qint64(m_ids.capacity()) * (qint64(sizeof(QByteArray)) + 8 + 1);
    return qint64(sizeof(*this)) + listBytes + hashBytes + m_stringBytes;
}

void StringPool::clear()
{
    m_strings.clear();
    m_ids.clear();
    m_stringBytes = 0;
    m_strings.append(QByteArray());
    m_ids.insert(QByteArray(), 0);
}

} // namespace bpflens
