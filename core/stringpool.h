#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>

namespace bpflens {

// Interns byte strings (comm, paths, disk names, argv) so that millions of events that name
// the same few thousand strings store a 4-byte id each. Id 0 is always the empty string, so a
// zero-initialised event refers to "" without touching the pool.
class StringPool
{
public:
    StringPool();

    quint32 intern(const QByteArray &bytes);
    // Ids come only from intern(); an unknown id is a programming error and yields "". Inline:
    // top lists and spike ranking read a string per event and dimension.
    const QByteArray &string(quint32 id) const
    {
        return id < quint32(m_strings.size()) ? m_strings.at(id) : emptyString();
    }
    qsizetype size() const { return m_strings.size(); }
    // An estimate of the heap the pool holds: the strings' own allocations plus the list and
    // hash bookkeeping, so EventStore::memoryBytes() reports what the process really pays.
    qint64 memoryBytes() const;
    void clear();

private:
    static const QByteArray &emptyString();

    QList<QByteArray> m_strings;
    QHash<QByteArray, quint32> m_ids;
    qint64 m_stringBytes = 0;
};

} // namespace bpflens
