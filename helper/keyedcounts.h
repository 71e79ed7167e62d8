#pragma once

// The counts a BPF hash map keeps per key (uprobe's calls, tpcount's hits) as per-interval
// differences. The kernel keeps them cumulative, with no delete-after-read, so no count between
// a read and a delete is lost; keys with nothing new are not reported.
#include <QByteArray>
#include <QHash>

#include <bpf/bpf.h>

namespace bpflens {

class KeyedCounts
{
public:
    void clear() { m_last.clear(); }

    // f(rawKey, increase) for every key of the map (values: __u64) with new counts since the
    // last call; rawKey holds the Key's bytes.
    template<typename Key, typename F>
    void forEachIncrease(int mapFd, F &&f)
    {
        Key key{}, next{};
        const Key *prev = nullptr;
        while (bpf_map_get_next_key(mapFd, prev, &next) == 0) {
            key = next;
            prev = &key;
            quint64 count = 0;
            if (bpf_map_lookup_elem(mapFd, &key, &count) != 0)
                continue;
            const QByteArray raw(reinterpret_cast<const char *>(&key), sizeof(key));
            quint64 &last = m_last[raw];
            if (count > last)
                f(raw, count - last);
            last = count;
        }
    }

private:
    QHash<QByteArray, quint64> m_last; // raw key -> cumulative count at the last read
};

} // namespace bpflens
