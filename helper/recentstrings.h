#pragma once

#include <QByteArray>
#include <QHashFunctions>

#include <array>
#include <cstring>

namespace bpflens {

// The strings a probe decoded lately (comm, paths), by hash: a storm of events naming the same
// few strings shares one allocation each (QByteArray is implicitly shared) instead of two
// allocations per event, which the engine's batch, up to a second of events, would hold until
// the session writer takes it. A miss costs what decoding cost before: one allocation.
class RecentStrings
{
public:
    QByteArray get(const char *data, qsizetype size)
    {
        QByteArray &slot = m_slots[qHashBits(data, size_t(size)) % m_slots.size()];
        if (slot.size() != size || memcmp(slot.constData(), data, size_t(size)) != 0)
            slot = QByteArray(data, size);
        return slot;
    }

private:
    std::array<QByteArray, 256> m_slots;
};

} // namespace bpflens
