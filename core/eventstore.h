#pragma once

#include "events.h"
#include "stringpool.h"

#include <array>
#include <cstring>
#include <vector>

namespace bpflens {

// The events of a session or a live recording, kept compact enough for tens of millions of
// events: one packed row per event (40 bytes for open, 48 for block) with every string
// interned in one StringPool. Accessors return the public structs by value.
//
// Ordering: each type is kept sorted by timeNs, so lowerBound() is always a binary search.
// The engine appends in time order (O(1)); an append that goes back in time (per-CPU buffers
// can deliver slightly out of order) is inserted after the events with an equal or smaller
// time, which shifts the indices of the later events by one. append() returns where the
// event landed; outOfOrderAppends() says whether that ever happened.
class EventStore
{
public:
    EventStore() = default;

    qsizetype append(const ExecEvent &event);
    qsizetype append(const OpenEvent &event);
    qsizetype append(const BlockEvent &event);
    qsizetype append(const TcpConnectEvent &event);
    qsizetype append(const FsSlowEvent &event);
    qsizetype append(const TpPairEvent &event);

    // For loaders that know the counts, so vectors do not grow by doubling.
    void reserve(EventType type, qsizetype count);
    // Gives back the spare capacity once loading is done.
    void squeeze();
    void clear();

    qsizetype count(EventType type) const;
    qsizetype totalCount() const;
    bool isEmpty() const { return totalCount() == 0; }

    ExecEvent exec(qsizetype i) const;
    OpenEvent open(qsizetype i) const;
    BlockEvent block(qsizetype i) const;
    TcpConnectEvent tcpConnect(qsizetype i) const;
    FsSlowEvent fsSlow(qsizetype i) const;
    TpPairEvent tpPair(qsizetype i) const;

    // Cheap column access for models: no string copies beyond the pool's shared ones.
    quint64 timeNs(EventType type, qsizetype i) const;
    quint32 pid(EventType type, qsizetype i) const;
    const QByteArray &comm(EventType type, qsizetype i) const;
    quint64 deviceNs(qsizetype blockIndex) const;
    quint64 queueNs(qsizetype blockIndex) const;
    quint32 blockBytes(qsizetype blockIndex) const;
    quint64 latencyNs(qsizetype fsSlowIndex) const;
    quint64 tpPairLatencyNs(qsizetype tpPairIndex) const;
    const QByteArray &openPath(qsizetype openIndex) const;
    // The pooled operation name ("Read", "Sync-Write", ...), without copying a BlockEvent.
    const QByteArray &blockOp(qsizetype blockIndex) const;

    // One type's event times read in place (the rows keep them at a fixed stride), for loops
    // that probe thousands of times per redraw: timeNs() costs a call, a type switch and a
    // bounds check per probe. Valid until the store changes.
    struct TimeColumn
    {
        const char *base = nullptr;
        qsizetype stride = 0;
        qsizetype count = 0;
        quint64 operator[](qsizetype i) const
        {
            quint64 t;
            std::memcpy(&t, base + i * stride, sizeof t);
            return t;
        }
    };
    TimeColumn timeColumn(EventType type) const;

    // First index whose timeNs >= timeNs (count(type) if none): [lowerBound(a), lowerBound(b))
    // are the events in [a, b).
    qsizetype lowerBound(EventType type, quint64 timeNs) const;
    quint64 firstTimeNs() const; // over all types; 0 when empty
    quint64 lastTimeNs() const;  // over all types; 0 when empty

    bool outOfOrderAppends() const { return m_outOfOrder; }
    qint64 memoryBytes() const;
    const StringPool &strings() const { return m_strings; }

private:
    // The session file's chunk decoder fills the rows directly: going through the public
    // structs would copy every string once per event.
    friend class EventChunkCodec;

    struct ExecRow
    {
        quint64 timeNs;
        quint32 pid, ppid, uid;
        qint32 retval;
        quint32 comm, filename;
        quint32 argvBegin; // into m_argv
        quint32 argvCount : 31;
        quint32 argvTruncated : 1;
    };
    struct OpenRow
    {
        quint64 timeNs;
        quint32 pid, tid, uid;
        qint32 flags;
        quint32 mode;
        qint32 ret;
        quint32 comm, path;
    };
    // What varies little between block events (device, flags and their decoded names) is
    // interned as one key, which keeps a row at 48 bytes.
    struct BlockKey
    {
        quint32 dev, cmdFlags, disk, op;
        bool operator==(const BlockKey &) const = default;
    };
    struct BlockRow
    {
        quint64 timeNs, sector, queueNs, deviceNs;
        quint32 bytes, pid, key, comm;
    };
    struct TcpRow
    {
        quint64 timeNs;
        quint32 pid, uid;
        std::array<quint8, 16> saddr, daddr;
        quint16 sport, dport;
        qint32 ret;
        quint32 comm;
        quint8 family;
    };
    struct FsSlowRow
    {
        quint64 timeNs, bytes, offset, latencyNs;
        quint32 pid, fs, comm, filename;
        quint8 op;
    };
    struct TpPairRow
    {
        quint64 timeNs, key, latencyNs;
        quint32 pid, tid, comm;
    };
    static_assert(sizeof(OpenRow) == 40);
    static_assert(sizeof(BlockRow) == 48);

    template<typename Row>
    qsizetype insertRow(std::vector<Row> &rows, const Row &row);
    quint32 internBlockKey(const BlockKey &key);

    StringPool m_strings;
    std::vector<ExecRow> m_exec;
    std::vector<quint32> m_argv;
    std::vector<OpenRow> m_open;
    std::vector<BlockRow> m_block;
    std::vector<BlockKey> m_blockKeys;
    QHash<quint64, QList<quint32>> m_blockKeyIndex; // (dev ^ cmdFlags) -> candidate keys
    std::vector<TcpRow> m_tcp;
    std::vector<FsSlowRow> m_fsSlow;
    std::vector<TpPairRow> m_tpPair;
    bool m_outOfOrder = false;
};

} // namespace bpflens
