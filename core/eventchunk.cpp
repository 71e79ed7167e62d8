#include "eventchunk.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace bpflens {

namespace {

// --- encoding --------------------------------------------------------------------------------

void putVarint(QByteArray &out, quint64 v)
{
    char buf[10];
    int n = 0;
    while (v >= 0x80) {
        buf[n++] = char(quint8(v) | 0x80);
        v >>= 7;
    }
    buf[n++] = char(v);
    out.append(buf, n);
}

quint64 zigzag(qint64 v)
{
    return (quint64(v) << 1) ^ quint64(v >> 63);
}

qint64 unzigzag(quint64 v)
{
    return qint64(v >> 1) ^ -qint64(v & 1);
}

// One column: f(event) for every event, appended to out.
template<typename List, typename F>
void column(QByteArray &out, const List &events, F f)
{
    for (const auto &e : events)
        putVarint(out, f(e));
}

template<typename List>
void timeColumn(QByteArray &out, const List &events)
{
    quint64 previous = 0;
    for (const auto &e : events) {
        // Wrapping subtraction: any order round-trips, in-order times make small deltas.
        putVarint(out, zigzag(qint64(e.timeNs - previous)));
        previous = e.timeNs;
    }
}

template<typename List, typename F>
void byteColumn(QByteArray &out, const List &events, F f)
{
    for (const auto &e : events)
        out.append(char(f(e)));
}

// Same rule as schema 1: an IPv4 address keeps 4 bytes when the other 12 are zero.
void putAddress(QByteArray &out, quint8 family, const std::array<quint8, 16> &addr)
{
    int len = 16;
    if (family == 4 && std::all_of(addr.begin() + 4, addr.end(), [](quint8 b) { return !b; }))
        len = 4;
    out.append(char(len));
    out.append(reinterpret_cast<const char *>(addr.data()), len);
}

// --- decoding --------------------------------------------------------------------------------

class Input
{
public:
    Input(QByteArrayView blob, const std::vector<quint32> &strings)
        : m_p(reinterpret_cast<const quint8 *>(blob.data()))
        , m_begin(m_p)
        , m_end(m_p + blob.size())
        , m_value(m_p)
        , m_strings(strings)
    {
    }

    // The column and event being decoded, for the error message.
    void at(const char *column, qint64 event)
    {
        m_column = column;
        m_event = event;
    }
    void setEvent(qint64 event) { m_event = event; }
    bool failed() const { return !m_error.isEmpty(); }
    QString error() const { return m_error; }
    qsizetype remaining() const { return m_end - m_p; }

    void fail(const QString &why)
    {
        if (m_error.isEmpty())
            m_error = QStringLiteral("column %1, event %2 (byte %3): %4")
                          .arg(QLatin1String(m_column))
                          .arg(m_event + 1)
                          .arg(m_value - m_begin)
                          .arg(why);
        m_p = m_end; // every later read fails fast without touching memory
    }

    quint64 varint()
    {
        m_value = m_p;
        if (m_p < m_end && *m_p < 0x80) [[likely]]
            return *m_p++;
        quint64 v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (m_p >= m_end) {
                fail(QStringLiteral("the chunk ends inside a number"));
                return 0;
            }
            const quint8 b = *m_p++;
            // The tenth byte may only hold the 64th bit.
            if (shift == 63 && b > 1) {
                fail(QStringLiteral("a number does not fit in 64 bits"));
                return 0;
            }
            v |= quint64(b & 0x7f) << shift;
            if (!(b & 0x80))
                return v;
        }
        fail(QStringLiteral("a number does not fit in 64 bits"));
        return 0;
    }
    quint32 u32()
    {
        const quint64 v = varint();
        if (v > 0xffffffffu) {
            fail(QStringLiteral("%1 does not fit in 32 bits").arg(v));
            return 0;
        }
        return quint32(v);
    }
    qint32 s32()
    {
        const qint64 v = unzigzag(varint());
        if (v < std::numeric_limits<qint32>::min() || v > std::numeric_limits<qint32>::max()) {
            fail(QStringLiteral("%1 does not fit in 32 bits").arg(v));
            return 0;
        }
        return qint32(v);
    }
    quint8 byte()
    {
        m_value = m_p;
        if (m_p >= m_end) {
            fail(QStringLiteral("the chunk ends early"));
            return 0;
        }
        return *m_p++;
    }
    const quint8 *bytes(qsizetype n)
    {
        m_value = m_p;
        if (n > remaining()) {
            fail(QStringLiteral("the chunk ends early"));
            return nullptr;
        }
        const quint8 *p = m_p;
        m_p += n;
        return p;
    }
    quint32 string()
    {
        const quint64 id = varint();
        if (id >= m_strings.size()) {
            if (!failed())
                fail(QStringLiteral("string id %1 is out of range (the file has %2 strings)")
                         .arg(id)
                         .arg(m_strings.size() - 1));
            return 0;
        }
        return m_strings[size_t(id)];
    }

private:
    const quint8 *m_p;
    const quint8 *m_begin;
    const quint8 *m_end;
    const quint8 *m_value; // where the value being read starts
    const std::vector<quint32> &m_strings;
    const char *m_column = "";
    qint64 m_event = 0;
    QString m_error;
};

} // namespace

int EventChunkCodec::minBytesPerEvent(EventType type)
{
    switch (type) {
    case EventType::Exec:
        return 9;
    case EventType::Open:
        return 9;
    case EventType::Block:
        return 11;
    case EventType::TcpConnect:
        return 10 + 8; // two addresses of at least 4 bytes after their length byte
    case EventType::FsSlow:
        return 9;
    case EventType::TpPair:
        return 6;
    }
    return 1;
}

qsizetype EventChunkCodec::countIn(EventType type, const RecordBatch &b)
{
    switch (type) {
    case EventType::Exec:
        return b.exec.size();
    case EventType::Open:
        return b.open.size();
    case EventType::Block:
        return b.block.size();
    case EventType::TcpConnect:
        return b.tcpConnect.size();
    case EventType::FsSlow:
        return b.fsSlow.size();
    case EventType::TpPair:
        return b.tpPair.size();
    }
    return 0;
}

quint64 EventChunkCodec::timeAt(EventType type, const RecordBatch &b, qsizetype i)
{
    switch (type) {
    case EventType::Exec:
        return b.exec.at(i).timeNs;
    case EventType::Open:
        return b.open.at(i).timeNs;
    case EventType::Block:
        return b.block.at(i).timeNs;
    case EventType::TcpConnect:
        return b.tcpConnect.at(i).timeNs;
    case EventType::FsSlow:
        return b.fsSlow.at(i).timeNs;
    case EventType::TpPair:
        return b.tpPair.at(i).timeNs;
    }
    return 0;
}

QByteArray EventChunkCodec::encode(EventType type, const RecordBatch &b, const StringId &str)
{
    QByteArray out;
    auto id = [&str](const QByteArray &bytes) -> quint64 {
        return bytes.isEmpty() ? 0 : str(bytes);
    };
    switch (type) {
    case EventType::Exec: {
        const auto &ev = b.exec;
        out.reserve(ev.size() * 24);
        timeColumn(out, ev);
        column(out, ev, [](const ExecEvent &e) { return e.pid; });
        column(out, ev, [](const ExecEvent &e) { return e.ppid; });
        column(out, ev, [](const ExecEvent &e) { return e.uid; });
        column(out, ev, [](const ExecEvent &e) { return zigzag(e.retval); });
        column(out, ev, [&](const ExecEvent &e) { return id(e.comm); });
        column(out, ev, [&](const ExecEvent &e) { return id(e.filename); });
        byteColumn(out, ev, [](const ExecEvent &e) { return e.argvTruncated ? 1 : 0; });
        column(out, ev, [](const ExecEvent &e) { return quint64(e.argv.size()); });
        for (const ExecEvent &e : ev) {
            for (const QByteArray &arg : e.argv)
                putVarint(out, id(arg));
        }
        break;
    }
    case EventType::Open: {
        const auto &ev = b.open;
        out.reserve(ev.size() * 16);
        timeColumn(out, ev);
        column(out, ev, [](const OpenEvent &e) { return e.pid; });
        column(out, ev, [](const OpenEvent &e) { return e.tid; });
        column(out, ev, [](const OpenEvent &e) { return e.uid; });
        column(out, ev, [](const OpenEvent &e) { return zigzag(e.flags); });
        column(out, ev, [](const OpenEvent &e) { return e.mode; });
        column(out, ev, [](const OpenEvent &e) { return zigzag(e.ret); });
        column(out, ev, [&](const OpenEvent &e) { return id(e.comm); });
        column(out, ev, [&](const OpenEvent &e) { return id(e.path); });
        break;
    }
    case EventType::Block: {
        const auto &ev = b.block;
        out.reserve(ev.size() * 24);
        timeColumn(out, ev);
        column(out, ev, [](const BlockEvent &e) { return e.dev; });
        column(out, ev, [](const BlockEvent &e) { return e.cmdFlags; });
        column(out, ev, [](const BlockEvent &e) { return e.sector; });
        column(out, ev, [](const BlockEvent &e) { return e.bytes; });
        column(out, ev, [](const BlockEvent &e) { return e.pid; });
        column(out, ev, [](const BlockEvent &e) { return e.queueNs; });
        column(out, ev, [](const BlockEvent &e) { return e.deviceNs; });
        column(out, ev, [&](const BlockEvent &e) { return id(e.disk); });
        column(out, ev, [&](const BlockEvent &e) { return id(e.op); });
        column(out, ev, [&](const BlockEvent &e) { return id(e.comm); });
        break;
    }
    case EventType::TcpConnect: {
        const auto &ev = b.tcpConnect;
        out.reserve(ev.size() * 32);
        timeColumn(out, ev);
        column(out, ev, [](const TcpConnectEvent &e) { return e.pid; });
        column(out, ev, [](const TcpConnectEvent &e) { return e.uid; });
        byteColumn(out, ev, [](const TcpConnectEvent &e) { return e.family; });
        for (const TcpConnectEvent &e : ev)
            putAddress(out, e.family, e.saddr);
        for (const TcpConnectEvent &e : ev)
            putAddress(out, e.family, e.daddr);
        column(out, ev, [](const TcpConnectEvent &e) { return e.sport; });
        column(out, ev, [](const TcpConnectEvent &e) { return e.dport; });
        column(out, ev, [](const TcpConnectEvent &e) { return zigzag(e.ret); });
        column(out, ev, [&](const TcpConnectEvent &e) { return id(e.comm); });
        break;
    }
    case EventType::FsSlow: {
        const auto &ev = b.fsSlow;
        out.reserve(ev.size() * 24);
        timeColumn(out, ev);
        column(out, ev, [](const FsSlowEvent &e) { return e.pid; });
        byteColumn(out, ev, [](const FsSlowEvent &e) { return e.op; });
        column(out, ev, [](const FsSlowEvent &e) { return e.bytes; });
        column(out, ev, [](const FsSlowEvent &e) { return e.offset; });
        column(out, ev, [](const FsSlowEvent &e) { return e.latencyNs; });
        column(out, ev, [&](const FsSlowEvent &e) { return id(e.fs); });
        column(out, ev, [&](const FsSlowEvent &e) { return id(e.comm); });
        column(out, ev, [&](const FsSlowEvent &e) { return id(e.filename); });
        break;
    }
    case EventType::TpPair: {
        const auto &ev = b.tpPair;
        out.reserve(ev.size() * 16);
        timeColumn(out, ev);
        column(out, ev, [](const TpPairEvent &e) { return e.pid; });
        column(out, ev, [](const TpPairEvent &e) { return e.tid; });
        column(out, ev, [](const TpPairEvent &e) { return e.key; });
        column(out, ev, [](const TpPairEvent &e) { return e.latencyNs; });
        column(out, ev, [&](const TpPairEvent &e) { return id(e.comm); });
        break;
    }
    }
    return out;
}

quint32 EventChunkCodec::intern(EventStore *store, const QByteArray &bytes)
{
    return store->m_strings.intern(bytes);
}

namespace {

// Decodes the rows at the end of rows (from base on), column by column, then restores the
// store's time order if the chunk did not continue it.
template<typename Row, typename Fill>
bool decodeRows(std::vector<Row> &rows, qint64 count, Input &in, bool *outOfOrder, Fill fill)
{
    const size_t base = rows.size();
    rows.resize(base + size_t(count));
    Row *r = rows.data() + base;
    quint64 t = 0;
    in.at("time_ns", 0);
    for (qint64 i = 0; i < count; ++i) {
        in.setEvent(i);
        t += quint64(unzigzag(in.varint()));
        r[i].timeNs = t;
    }
    fill(r);
    if (in.failed())
        return false;
    // Per-CPU buffers deliver slightly out of order; EventStore keeps each type time-sorted.
    // Stable sort and merge: events with equal times keep their recorded order, exactly as
    // EventStore::append() would have placed them one by one.
    auto byTime = [](const Row &a, const Row &b) { return a.timeNs < b.timeNs; };
    if (!std::is_sorted(r, r + count, byTime)) {
        *outOfOrder = true;
        std::stable_sort(r, r + count, byTime);
    }
    if (base > 0 && count > 0 && rows[base - 1].timeNs > r[0].timeNs) {
        *outOfOrder = true;
        const auto from =
            std::upper_bound(rows.begin(), rows.begin() + qsizetype(base), r[0].timeNs,
                             [](quint64 v, const Row &row) { return v < row.timeNs; });
        std::inplace_merge(from, rows.begin() + qsizetype(base), rows.end(), byTime);
    }
    return true;
}

template<typename Row, typename Field, typename Read>
void fillColumn(Row *r, qint64 count, Input &in, const char *name, Field field, Read read)
{
    in.at(name, 0);
    for (qint64 i = 0; i < count; ++i) {
        in.setEvent(i);
        r[i].*field = read();
    }
}

} // namespace

bool EventChunkCodec::decode(EventType type, QByteArrayView blob, qint64 count,
                             const std::vector<quint32> &strings, EventStore *store, QString *error)
{
    auto refuse = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (count < 0)
        return refuse(QStringLiteral("negative event count %1").arg(count));
    // Checked before anything is allocated: every event needs a byte per column.
    if (count > blob.size() / minBytesPerEvent(type))
        return refuse(
            QStringLiteral("%1 events cannot fit in %2 bytes").arg(count).arg(blob.size()));
    if (strings.empty())
        return refuse(QStringLiteral("no string table"));
    Input in(blob, strings);
    EventStore &s = *store;
    bool outOfOrder = false;
    bool ok = false;
    auto u32 = [&] { return in.u32(); };
    auto s32 = [&] { return in.s32(); };
    auto u64 = [&] { return in.varint(); };
    auto str = [&] { return in.string(); };
    switch (type) {
    case EventType::Exec: {
        using R = EventStore::ExecRow;
        std::vector<quint32> argvCounts;
        ok = decodeRows(s.m_exec, count, in, &outOfOrder, [&](R *r) {
            fillColumn(r, count, in, "pid", &R::pid, u32);
            fillColumn(r, count, in, "ppid", &R::ppid, u32);
            fillColumn(r, count, in, "uid", &R::uid, u32);
            fillColumn(r, count, in, "retval", &R::retval, s32);
            fillColumn(r, count, in, "comm", &R::comm, str);
            fillColumn(r, count, in, "filename", &R::filename, str);
            in.at("argv_truncated", 0);
            for (qint64 i = 0; i < count; ++i) {
                in.setEvent(i);
                const quint8 b = in.byte();
                if (b > 1)
                    in.fail(QStringLiteral("%1 is not 0 or 1").arg(b));
                r[i].argvTruncated = b;
            }
            in.at("argv_count", 0);
            quint64 total = 0;
            for (qint64 i = 0; i < count && !in.failed(); ++i) {
                in.at("argv_count", i);
                const quint64 n = in.varint();
                // Every argument takes at least one byte of what is left.
                if (n > quint64(in.remaining())) {
                    in.fail(QStringLiteral("%1 arguments cannot fit in the %2 bytes left")
                                .arg(n)
                                .arg(in.remaining()));
                    break;
                }
                r[i].argvCount = quint32(n) & 0x7fffffffu;
                total += n;
            }
            if (!in.failed() && total > quint64(in.remaining()))
                in.fail(QStringLiteral("%1 arguments cannot fit in the %2 bytes left")
                            .arg(total)
                            .arg(in.remaining()));
            if (in.failed())
                return;
            in.at("argv", 0);
            s.m_argv.reserve(s.m_argv.size() + size_t(total));
            for (qint64 i = 0; i < count; ++i) {
                in.setEvent(i);
                r[i].argvBegin = quint32(s.m_argv.size());
                for (quint32 k = 0; k < r[i].argvCount; ++k)
                    s.m_argv.push_back(in.string());
            }
        });
        break;
    }
    case EventType::Open: {
        using R = EventStore::OpenRow;
        ok = decodeRows(s.m_open, count, in, &outOfOrder, [&](R *r) {
            fillColumn(r, count, in, "pid", &R::pid, u32);
            fillColumn(r, count, in, "tid", &R::tid, u32);
            fillColumn(r, count, in, "uid", &R::uid, u32);
            fillColumn(r, count, in, "flags", &R::flags, s32);
            fillColumn(r, count, in, "mode", &R::mode, u32);
            fillColumn(r, count, in, "ret", &R::ret, s32);
            fillColumn(r, count, in, "comm", &R::comm, str);
            fillColumn(r, count, in, "path", &R::path, str);
        });
        break;
    }
    case EventType::Block: {
        using R = EventStore::BlockRow;
        ok = decodeRows(s.m_block, count, in, &outOfOrder, [&](R *r) {
            // dev, cmd_flags, disk and op become one interned key: read them first into
            // scratch space, then intern each distinct combination once.
            std::vector<quint32> dev(static_cast<size_t>(count)), flags(static_cast<size_t>(count));
            in.at("dev", 0);
            for (size_t i = 0; i < dev.size(); ++i) {
                in.setEvent(qint64(i));
                dev[i] = in.u32();
            }
            in.at("cmd_flags", 0);
            for (size_t i = 0; i < flags.size(); ++i) {
                in.setEvent(qint64(i));
                flags[i] = in.u32();
            }
            fillColumn(r, count, in, "sector", &R::sector, u64);
            fillColumn(r, count, in, "bytes", &R::bytes, u32);
            fillColumn(r, count, in, "pid", &R::pid, u32);
            fillColumn(r, count, in, "queue_ns", &R::queueNs, u64);
            fillColumn(r, count, in, "device_ns", &R::deviceNs, u64);
            std::vector<quint32> disk(static_cast<size_t>(count)), op(static_cast<size_t>(count));
            in.at("disk", 0);
            for (size_t i = 0; i < disk.size(); ++i) {
                in.setEvent(qint64(i));
                disk[i] = in.string();
            }
            in.at("op", 0);
            for (size_t i = 0; i < op.size(); ++i) {
                in.setEvent(qint64(i));
                op[i] = in.string();
            }
            fillColumn(r, count, in, "comm", &R::comm, str);
            if (in.failed())
                return;
            EventStore::BlockKey last{};
            quint32 lastId = 0;
            bool haveLast = false;
            for (size_t i = 0; i < size_t(count); ++i) {
                const EventStore::BlockKey key{dev[i], flags[i], disk[i], op[i]};
                if (!haveLast || !(key == last)) {
                    lastId = s.internBlockKey(key);
                    last = key;
                    haveLast = true;
                }
                r[i].key = lastId;
            }
        });
        break;
    }
    case EventType::TcpConnect: {
        using R = EventStore::TcpRow;
        ok = decodeRows(s.m_tcp, count, in, &outOfOrder, [&](R *r) {
            fillColumn(r, count, in, "pid", &R::pid, u32);
            fillColumn(r, count, in, "uid", &R::uid, u32);
            in.at("family", 0);
            for (qint64 i = 0; i < count; ++i) {
                in.setEvent(i);
                r[i].family = in.byte();
                if (r[i].family != 4 && r[i].family != 6 && !in.failed())
                    in.fail(QStringLiteral("family %1 is not 4 or 6").arg(r[i].family));
            }
            auto address = [&](const char *name, std::array<quint8, 16> R::*field) {
                for (qint64 i = 0; i < count && !in.failed(); ++i) {
                    in.at(name, i);
                    const quint8 len = in.byte();
                    if (len != 4 && len != 16) {
                        in.fail(QStringLiteral("address length %1 is not 4 or 16").arg(len));
                        return;
                    }
                    const quint8 *p = in.bytes(len);
                    if (!p)
                        return;
                    (r[i].*field).fill(0);
                    std::memcpy((r[i].*field).data(), p, len);
                }
            };
            address("saddr", &R::saddr);
            address("daddr", &R::daddr);
            auto port = [&] {
                const quint64 v = in.varint();
                if (v > 0xffff)
                    in.fail(QStringLiteral("port %1 is out of range").arg(v));
                return quint16(v);
            };
            fillColumn(r, count, in, "sport", &R::sport, port);
            fillColumn(r, count, in, "dport", &R::dport, port);
            fillColumn(r, count, in, "ret", &R::ret, s32);
            fillColumn(r, count, in, "comm", &R::comm, str);
        });
        break;
    }
    case EventType::FsSlow: {
        using R = EventStore::FsSlowRow;
        ok = decodeRows(s.m_fsSlow, count, in, &outOfOrder, [&](R *r) {
            fillColumn(r, count, in, "pid", &R::pid, u32);
            fillColumn(r, count, in, "op", &R::op, [&] { return in.byte(); });
            fillColumn(r, count, in, "bytes", &R::bytes, u64);
            fillColumn(r, count, in, "offset", &R::offset, u64);
            fillColumn(r, count, in, "latency_ns", &R::latencyNs, u64);
            fillColumn(r, count, in, "fs", &R::fs, str);
            fillColumn(r, count, in, "comm", &R::comm, str);
            fillColumn(r, count, in, "filename", &R::filename, str);
        });
        break;
    }
    case EventType::TpPair: {
        using R = EventStore::TpPairRow;
        ok = decodeRows(s.m_tpPair, count, in, &outOfOrder, [&](R *r) {
            fillColumn(r, count, in, "pid", &R::pid, u32);
            fillColumn(r, count, in, "tid", &R::tid, u32);
            fillColumn(r, count, in, "key", &R::key, u64);
            fillColumn(r, count, in, "latency_ns", &R::latencyNs, u64);
            fillColumn(r, count, in, "comm", &R::comm, str);
        });
        break;
    }
    default:
        return refuse(QStringLiteral("unknown event type %1").arg(int(type)));
    }
    if (!ok || in.failed())
        return refuse(in.error());
    if (in.remaining() != 0)
        return refuse(QStringLiteral("%1 bytes are left over after %2 events")
                          .arg(in.remaining())
                          .arg(count));
    if (outOfOrder)
        s.m_outOfOrder = true;
    return true;
}

} // namespace bpflens
