#include "eventstore.h"

#include <algorithm>
#include <cstddef>

namespace bpflens {

template<typename Row>
qsizetype EventStore::insertRow(std::vector<Row> &rows, const Row &row)
{
    if (rows.empty() || rows.back().timeNs <= row.timeNs) {
        rows.push_back(row);
        return qsizetype(rows.size()) - 1;
    }
    // upper_bound keeps events with equal times in append order.
    m_outOfOrder = true;
    const auto it = std::upper_bound(rows.begin(), rows.end(), row.timeNs,
                                     [](quint64 t, const Row &r) { return t < r.timeNs; });
    return qsizetype(rows.insert(it, row) - rows.begin());
}

quint32 EventStore::internBlockKey(const BlockKey &key)
{
    const quint64 hashKey = (quint64(key.dev) << 32) | key.cmdFlags;
    QList<quint32> &candidates = m_blockKeyIndex[hashKey];
    for (quint32 id : std::as_const(candidates)) {
        if (m_blockKeys[id] == key)
            return id;
    }
    const auto id = quint32(m_blockKeys.size());
    m_blockKeys.push_back(key);
    candidates.append(id);
    return id;
}

qsizetype EventStore::append(const ExecEvent &e)
{
    ExecRow row{};
    row.timeNs = e.timeNs;
    row.pid = e.pid;
    row.ppid = e.ppid;
    row.uid = e.uid;
    row.retval = e.retval;
    row.comm = m_strings.intern(e.comm);
    row.filename = m_strings.intern(e.filename);
    row.argvBegin = quint32(m_argv.size());
    row.argvCount = quint32(e.argv.size()) & 0x7fffffffu;
    row.argvTruncated = e.argvTruncated ? 1 : 0;
    for (const QByteArray &arg : e.argv)
        m_argv.push_back(m_strings.intern(arg));
    return insertRow(m_exec, row);
}

qsizetype EventStore::append(const OpenEvent &e)
{
    OpenRow row{e.timeNs,
                e.pid,
                e.tid,
                e.uid,
                e.flags,
                e.mode,
                e.ret,
                m_strings.intern(e.comm),
                m_strings.intern(e.path)};
    return insertRow(m_open, row);
}

qsizetype EventStore::append(const BlockEvent &e)
{
    const quint32 key =
        internBlockKey({e.dev, e.cmdFlags, m_strings.intern(e.disk), m_strings.intern(e.op)});
    BlockRow row{e.timeNs, e.sector, e.queueNs, e.deviceNs,
                 e.bytes,  e.pid,    key,       m_strings.intern(e.comm)};
    return insertRow(m_block, row);
}

qsizetype EventStore::append(const TcpConnectEvent &e)
{
    TcpRow row{};
    row.timeNs = e.timeNs;
    row.pid = e.pid;
    row.uid = e.uid;
    row.saddr = e.saddr;
    row.daddr = e.daddr;
    row.sport = e.sport;
    row.dport = e.dport;
    row.ret = e.ret;
    row.comm = m_strings.intern(e.comm);
    row.family = e.family;
    return insertRow(m_tcp, row);
}

qsizetype EventStore::append(const FsSlowEvent &e)
{
    FsSlowRow row{};
    row.timeNs = e.timeNs;
    row.bytes = e.bytes;
    row.offset = e.offset;
    row.latencyNs = e.latencyNs;
    row.pid = e.pid;
    row.fs = m_strings.intern(e.fs);
    row.comm = m_strings.intern(e.comm);
    row.filename = m_strings.intern(e.filename);
    row.op = e.op;
    return insertRow(m_fsSlow, row);
}

qsizetype EventStore::append(const TpPairEvent &e)
{
    TpPairRow row{};
    row.timeNs = e.timeNs;
    row.key = e.key;
    row.latencyNs = e.latencyNs;
    row.pid = e.pid;
    row.tid = e.tid;
    row.comm = m_strings.intern(e.comm);
    return insertRow(m_tpPair, row);
}

void EventStore::reserve(EventType type, qsizetype count)
{
    const auto n = size_t(std::max<qsizetype>(count, 0));
    switch (type) {
    case EventType::Exec:
        m_exec.reserve(n);
        break;
    case EventType::Open:
        m_open.reserve(n);
        break;
    case EventType::Block:
        m_block.reserve(n);
        break;
    case EventType::TcpConnect:
        m_tcp.reserve(n);
        break;
    case EventType::FsSlow:
        m_fsSlow.reserve(n);
        break;
    case EventType::TpPair:
        m_tpPair.reserve(n);
        break;
    }
}

void EventStore::squeeze()
{
    m_exec.shrink_to_fit();
    m_argv.shrink_to_fit();
    m_open.shrink_to_fit();
    m_block.shrink_to_fit();
    m_tcp.shrink_to_fit();
    m_fsSlow.shrink_to_fit();
    m_tpPair.shrink_to_fit();
}

void EventStore::clear()
{
    *this = EventStore();
}

qsizetype EventStore::count(EventType type) const
{
    switch (type) {
    case EventType::Exec:
        return qsizetype(m_exec.size());
    case EventType::Open:
        return qsizetype(m_open.size());
    case EventType::Block:
        return qsizetype(m_block.size());
    case EventType::TcpConnect:
        return qsizetype(m_tcp.size());
    case EventType::FsSlow:
        return qsizetype(m_fsSlow.size());
    case EventType::TpPair:
        return qsizetype(m_tpPair.size());
    }
    return 0;
}

qsizetype EventStore::totalCount() const
{
    return qsizetype(m_exec.size() + m_open.size() + m_block.size() + m_tcp.size() +
                     m_fsSlow.size() + m_tpPair.size());
}

ExecEvent EventStore::exec(qsizetype i) const
{
    const ExecRow &r = m_exec.at(size_t(i));
    ExecEvent e;
    e.timeNs = r.timeNs;
    e.pid = r.pid;
    e.ppid = r.ppid;
    e.uid = r.uid;
    e.retval = r.retval;
    e.comm = m_strings.string(r.comm);
    e.filename = m_strings.string(r.filename);
    e.argv.reserve(r.argvCount);
    for (quint32 k = 0; k < r.argvCount; ++k)
        e.argv.append(m_strings.string(m_argv[r.argvBegin + k]));
    e.argvTruncated = r.argvTruncated;
    return e;
}

OpenEvent EventStore::open(qsizetype i) const
{
    const OpenRow &r = m_open.at(size_t(i));
    OpenEvent e;
    e.timeNs = r.timeNs;
    e.pid = r.pid;
    e.tid = r.tid;
    e.uid = r.uid;
    e.flags = r.flags;
    e.mode = r.mode;
    e.ret = r.ret;
    e.comm = m_strings.string(r.comm);
    e.path = m_strings.string(r.path);
    return e;
}

const QByteArray &EventStore::blockOp(qsizetype blockIndex) const
{
    return m_strings.string(m_blockKeys[m_block.at(size_t(blockIndex)).key].op);
}

BlockEvent EventStore::block(qsizetype i) const
{
    const BlockRow &r = m_block.at(size_t(i));
    const BlockKey &k = m_blockKeys[r.key];
    BlockEvent e;
    e.timeNs = r.timeNs;
    e.dev = k.dev;
    e.cmdFlags = k.cmdFlags;
    e.sector = r.sector;
    e.bytes = r.bytes;
    e.pid = r.pid;
    e.queueNs = r.queueNs;
    e.deviceNs = r.deviceNs;
    e.disk = m_strings.string(k.disk);
    e.op = m_strings.string(k.op);
    e.comm = m_strings.string(r.comm);
    return e;
}

TcpConnectEvent EventStore::tcpConnect(qsizetype i) const
{
    const TcpRow &r = m_tcp.at(size_t(i));
    TcpConnectEvent e;
    e.timeNs = r.timeNs;
    e.pid = r.pid;
    e.uid = r.uid;
    e.family = r.family;
    e.saddr = r.saddr;
    e.daddr = r.daddr;
    e.sport = r.sport;
    e.dport = r.dport;
    e.ret = r.ret;
    e.comm = m_strings.string(r.comm);
    return e;
}

FsSlowEvent EventStore::fsSlow(qsizetype i) const
{
    const FsSlowRow &r = m_fsSlow.at(size_t(i));
    FsSlowEvent e;
    e.timeNs = r.timeNs;
    e.pid = r.pid;
    e.op = r.op;
    e.bytes = r.bytes;
    e.offset = r.offset;
    e.latencyNs = r.latencyNs;
    e.fs = m_strings.string(r.fs);
    e.comm = m_strings.string(r.comm);
    e.filename = m_strings.string(r.filename);
    return e;
}

TpPairEvent EventStore::tpPair(qsizetype i) const
{
    const TpPairRow &r = m_tpPair.at(size_t(i));
    TpPairEvent e;
    e.timeNs = r.timeNs;
    e.pid = r.pid;
    e.tid = r.tid;
    e.key = r.key;
    e.latencyNs = r.latencyNs;
    e.comm = m_strings.string(r.comm);
    return e;
}

namespace {
template<typename Rows, typename Field>
auto fieldOf(const Rows &rows, qsizetype i, Field field)
{
    return rows.at(size_t(i)).*field;
}
} // namespace

quint64 EventStore::timeNs(EventType type, qsizetype i) const
{
    switch (type) {
    case EventType::Exec:
        return m_exec.at(size_t(i)).timeNs;
    case EventType::Open:
        return m_open.at(size_t(i)).timeNs;
    case EventType::Block:
        return m_block.at(size_t(i)).timeNs;
    case EventType::TcpConnect:
        return m_tcp.at(size_t(i)).timeNs;
    case EventType::FsSlow:
        return m_fsSlow.at(size_t(i)).timeNs;
    case EventType::TpPair:
        return m_tpPair.at(size_t(i)).timeNs;
    }
    return 0;
}

quint32 EventStore::pid(EventType type, qsizetype i) const
{
    switch (type) {
    case EventType::Exec:
        return fieldOf(m_exec, i, &ExecRow::pid);
    case EventType::Open:
        return fieldOf(m_open, i, &OpenRow::pid);
    case EventType::Block:
        return fieldOf(m_block, i, &BlockRow::pid);
    case EventType::TcpConnect:
        return fieldOf(m_tcp, i, &TcpRow::pid);
    case EventType::FsSlow:
        return fieldOf(m_fsSlow, i, &FsSlowRow::pid);
    case EventType::TpPair:
        return fieldOf(m_tpPair, i, &TpPairRow::pid);
    }
    return 0;
}

const QByteArray &EventStore::comm(EventType type, qsizetype i) const
{
    quint32 id = 0;
    switch (type) {
    case EventType::Exec:
        id = fieldOf(m_exec, i, &ExecRow::comm);
        break;
    case EventType::Open:
        id = fieldOf(m_open, i, &OpenRow::comm);
        break;
    case EventType::Block:
        id = fieldOf(m_block, i, &BlockRow::comm);
        break;
    case EventType::TcpConnect:
        id = fieldOf(m_tcp, i, &TcpRow::comm);
        break;
    case EventType::FsSlow:
        id = fieldOf(m_fsSlow, i, &FsSlowRow::comm);
        break;
    case EventType::TpPair:
        id = fieldOf(m_tpPair, i, &TpPairRow::comm);
        break;
    }
    return m_strings.string(id);
}

quint64 EventStore::deviceNs(qsizetype i) const
{
    return m_block.at(size_t(i)).deviceNs;
}

quint64 EventStore::queueNs(qsizetype i) const
{
    return m_block.at(size_t(i)).queueNs;
}

quint32 EventStore::blockBytes(qsizetype i) const
{
    return m_block.at(size_t(i)).bytes;
}

quint64 EventStore::latencyNs(qsizetype i) const
{
    return m_fsSlow.at(size_t(i)).latencyNs;
}

quint64 EventStore::tpPairLatencyNs(qsizetype i) const
{
    return m_tpPair.at(size_t(i)).latencyNs;
}

const QByteArray &EventStore::openPath(qsizetype i) const
{
    return m_strings.string(m_open.at(size_t(i)).path);
}

namespace {
template<typename Row>
qsizetype lowerBoundOf(const std::vector<Row> &rows, quint64 t)
{
    const auto it = std::lower_bound(rows.begin(), rows.end(), t,
                                     [](const Row &r, quint64 v) { return r.timeNs < v; });
    return qsizetype(it - rows.begin());
}

template<typename Row>
void extendRange(const std::vector<Row> &rows, quint64 *first, quint64 *last, bool *any)
{
    if (rows.empty())
        return;
    *first = *any ? std::min(*first, rows.front().timeNs) : rows.front().timeNs;
    *last = *any ? std::max(*last, rows.back().timeNs) : rows.back().timeNs;
    *any = true;
}
} // namespace

qsizetype EventStore::lowerBound(EventType type, quint64 t) const
{
    switch (type) {
    case EventType::Exec:
        return lowerBoundOf(m_exec, t);
    case EventType::Open:
        return lowerBoundOf(m_open, t);
    case EventType::Block:
        return lowerBoundOf(m_block, t);
    case EventType::TcpConnect:
        return lowerBoundOf(m_tcp, t);
    case EventType::FsSlow:
        return lowerBoundOf(m_fsSlow, t);
    case EventType::TpPair:
        return lowerBoundOf(m_tpPair, t);
    }
    return 0;
}

template<typename Row>
EventStore::TimeColumn timeColumnOf(const std::vector<Row> &rows)
{
    return {reinterpret_cast<const char *>(rows.data()) + offsetof(Row, timeNs),
            qsizetype(sizeof(Row)), qsizetype(rows.size())};
}

EventStore::TimeColumn EventStore::timeColumn(EventType type) const
{
    switch (type) {
    case EventType::Exec:
        return timeColumnOf(m_exec);
    case EventType::Open:
        return timeColumnOf(m_open);
    case EventType::Block:
        return timeColumnOf(m_block);
    case EventType::TcpConnect:
        return timeColumnOf(m_tcp);
    case EventType::FsSlow:
        return timeColumnOf(m_fsSlow);
    case EventType::TpPair:
        return timeColumnOf(m_tpPair);
    }
    return {};
}

quint64 EventStore::firstTimeNs() const
{
    quint64 first = 0, last = 0;
    bool any = false;
    extendRange(m_exec, &first, &last, &any);
    extendRange(m_open, &first, &last, &any);
    extendRange(m_block, &first, &last, &any);
    extendRange(m_tcp, &first, &last, &any);
    extendRange(m_fsSlow, &first, &last, &any);
    extendRange(m_tpPair, &first, &last, &any);
    return first;
}

quint64 EventStore::lastTimeNs() const
{
    quint64 first = 0, last = 0;
    bool any = false;
    extendRange(m_exec, &first, &last, &any);
    extendRange(m_open, &first, &last, &any);
    extendRange(m_block, &first, &last, &any);
    extendRange(m_tcp, &first, &last, &any);
    extendRange(m_fsSlow, &first, &last, &any);
    extendRange(m_tpPair, &first, &last, &any);
    return last;
}

qint64 EventStore::memoryBytes() const
{
    auto bytes = [](const auto &v) { return qint64(v.capacity() * sizeof(v[0])); };
    const qint64 blockKeyIndex =
        qint64(m_blockKeyIndex.capacity()) * (8 + qint64(sizeof(QList<quint32>)) + 1) +
        qint64(m_blockKeys.size()) * (16 + 4);
    return qint64(sizeof(*this)) + m_strings.memoryBytes() + bytes(m_exec) + bytes(m_argv) +
           bytes(m_open) + bytes(m_block) + bytes(m_blockKeys) + blockKeyIndex + bytes(m_tcp) +
           bytes(m_fsSlow) + bytes(m_tpPair);
}

} // namespace bpflens
