#include "core/eventchunk.h"

#include "core/crc32c.h"
#include "core/varint.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <span>

namespace bpflens {

namespace chunk {

// --- decoding --------------------------------------------------------------------------------

class Input
{
public:
    Input(QByteArrayView blob, const std::vector<quint32> &strings, bool withCgroups)
        : m_withCgroups(withCgroups)
        , m_p(reinterpret_cast<const quint8 *>(blob.data()))
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
    bool withCgroups() const { return m_withCgroups; }
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
    // A failure of the chunk as a whole, not of one value.
    void failChunk(const QString &why)
    {
        if (m_error.isEmpty())
            m_error = why;
        m_p = m_end;
    }

    // The time range the chunk's row states, checked against its events' times.
    void expectTimes(quint64 first, quint64 last)
    {
        m_checkTimes = true;
        m_first = first;
        m_last = last;
    }
    bool checksTimes() const { return m_checkTimes; }
    quint64 expectedFirst() const { return m_first; }
    quint64 expectedLast() const { return m_last; }

    quint64 varint()
    {
        m_value = m_p;
        if (m_p < m_end && *m_p < 0x80) [[likely]]
            return *m_p++;
        quint64 v = 0;
        switch (getVarint(m_p, m_end, &v)) {
        case VarintRead::Ok:
            return v;
        case VarintRead::Truncated:
            fail(QStringLiteral("the chunk ends inside a number"));
            return 0;
        case VarintRead::TooLong:
            fail(QStringLiteral("a number does not fit in 64 bits"));
            return 0;
        }
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
    const bool m_withCgroups;
    const quint8 *m_p;
    const quint8 *m_begin;
    const quint8 *m_end;
    const quint8 *m_value; // where the value being read starts
    const std::vector<quint32> &m_strings;
    const char *m_column = "";
    qint64 m_event = 0;
    QString m_error;
    bool m_checkTimes = false;
    quint64 m_first = 0;
    quint64 m_last = 0;
};

// --- encoding --------------------------------------------------------------------------------

template<typename E>
QByteArray encodeEvents(std::span<const E> events, const EventChunkCodec::StringId &str,
                        bool withCgroups)
{
    QByteArray out;
    out.reserve(events.size() * qsizetype(fieldCount<E>) * 2);
    auto id = [&str](const QByteArray &bytes) -> quint64 {
        return bytes.isEmpty() ? 0 : str(bytes);
    };
    forEachField<E>([&]<std::size_t I>() {
        using F = FieldAt<E, I>;
        constexpr auto m = F::member;
        if constexpr (isCgroupField<E, I>()) {
            if (!withCgroups)
                return;
        }
        if constexpr (F::kind == FieldKind::Time) {
            quint64 previous = 0;
            for (const E &e : events) {
                // Wrapping subtraction: any order round-trips, in-order times make small deltas.
                putVarint(out, zigzag(qint64(e.*m - previous)));
                previous = e.*m;
            }
        } else if constexpr (F::kind == FieldKind::U8 || F::kind == FieldKind::Family ||
                             F::kind == FieldKind::Flag) {
            for (const E &e : events)
                out.append(char(e.*m));
        } else if constexpr (F::kind == FieldKind::S32) {
            for (const E &e : events)
                putVarint(out, zigzag(e.*m));
        } else if constexpr (F::kind == FieldKind::Bytes) {
            for (const E &e : events)
                putVarint(out, id(e.*m));
        } else if constexpr (F::kind == FieldKind::BytesList) {
            for (const E &e : events)
                putVarint(out, quint64((e.*m).size()));
            for (const E &e : events) {
                for (const QByteArray &s : e.*m)
                    putVarint(out, id(s));
            }
        } else if constexpr (F::kind == FieldKind::Address) {
            // Schema 1's rule: only an IPv4 address may be cut to 4 bytes.
            for (const E &e : events) {
                bool v4 = false;
                if constexpr (requires { e.family; })
                    v4 = e.family == 4;
                putAddress(out, e.*m, v4);
            }
        } else {
            for (const E &e : events)
                putVarint(out, quint64(e.*m));
        }
    });
    return out;
}

// --- decoding --------------------------------------------------------------------------------

// One value of field I of E, checked, in EventStore's storage form. BytesList columns are read
// whole by decodeEvents.
template<typename E, std::size_t I>
StorageAt<E, I> readValue(Input &in)
{
    constexpr FieldKind kind = FieldAt<E, I>::kind;
    if constexpr (kind == FieldKind::U32) {
        return in.u32();
    } else if constexpr (kind == FieldKind::S32) {
        return in.s32();
    } else if constexpr (kind == FieldKind::U64) {
        return in.varint();
    } else if constexpr (kind == FieldKind::U8) {
        return in.byte();
    } else if constexpr (kind == FieldKind::Flag) {
        const quint8 b = in.byte();
        if (b > 1)
            in.fail(QStringLiteral("%1 is not 0 or 1").arg(b));
        return b;
    } else if constexpr (kind == FieldKind::Family) {
        const quint8 f = in.byte();
        if (f != 4 && f != 6 && !in.failed())
            in.fail(QStringLiteral("family %1 is not 4 or 6").arg(f));
        return f;
    } else if constexpr (kind == FieldKind::Port) {
        const quint64 v = in.varint();
        if (v > 0xffff)
            in.fail(QStringLiteral("port %1 is out of range").arg(v));
        return quint16(v);
    } else if constexpr (kind == FieldKind::Bytes) {
        return in.string();
    } else if constexpr (kind == FieldKind::Address) {
        std::array<quint8, 16> a{};
        const quint8 len = in.byte();
        if (in.failed())
            return a;
        if (len != 4 && len != 16) {
            in.fail(QStringLiteral("address length %1 is not 4 or 16").arg(len));
            return a;
        }
        if (const quint8 *p = in.bytes(len))
            std::memcpy(a.data(), p, len);
        return a;
    }
}

} // namespace chunk

using chunk::encodeEvents;
using chunk::Input;

// Decodes count events of type E at the end of its columns, column by column, then restores
// the store's time order if the chunk did not continue it.
template<typename E>
bool EventChunkCodec::decodeEvents(EventStore &s, qint64 count, chunk::Input &in)
{
    EventColumns<E> &c = s.columns<E>();
    const size_t base = size_t(c.size());
    const size_t end = base + size_t(count);
    std::vector<typename EventColumns<E>::Key> keys(EventColumns<E>::keyedCount ? size_t(count)
                                                                                : 0);
    forEachField<E>([&]<std::size_t I>() {
        using F = FieldAt<E, I>;
        const char *name = std::get<I>(EventTraits<E>::fields).name;
        if (in.failed())
            return;
        in.at(name, 0);
        if constexpr (isCgroupField<E, I>()) {
            if (!in.withCgroups()) {
                // 0: unknown (a keyed field's value is in keys, already 0)
                if constexpr (!F::keyed)
                    std::get<I>(c.fields).resize(end);
                return;
            }
        }
        if constexpr (F::kind == FieldKind::Time) {
            ColumnVector<quint64> &times = std::get<I>(c.fields);
            times.resize(end);
            quint64 t = 0;
            for (qint64 i = 0; i < count; ++i) {
                in.setEvent(i);
                t += quint64(unzigzag(in.varint()));
                times[base + size_t(i)] = t;
            }
        } else if constexpr (F::kind == FieldKind::BytesList) {
            ColumnVector<ListRef> &lists = std::get<I>(c.fields);
            lists.resize(end);
            const QByteArray countColumn = QByteArray(name) + "_count";
            quint64 total = 0;
            for (qint64 i = 0; i < count && !in.failed(); ++i) {
                in.at(countColumn.constData(), i);
                const quint64 n = in.varint();
                // Every string takes at least one byte of what is left.
                if (n > quint64(in.remaining())) {
                    in.fail(QStringLiteral("%1 arguments cannot fit in the %2 bytes left")
                                .arg(n)
                                .arg(in.remaining()));
                    break;
                }
                lists[base + size_t(i)].count = quint32(n);
                total += n;
            }
            if (!in.failed() && total > quint64(in.remaining()))
                in.fail(QStringLiteral("%1 arguments cannot fit in the %2 bytes left")
                            .arg(total)
                            .arg(in.remaining()));
            if (in.failed())
                return;
            in.at(name, 0);
            // Doubling, not the exact size: a reserve per chunk to exactly what it adds copies
            // the whole list again for every chunk (quadratic in the chunks of a session).
            const size_t needed = s.m_lists.size() + size_t(total);
            if (needed > s.m_lists.capacity())
                s.m_lists.reserve(std::max(needed, 2 * s.m_lists.capacity()));
            for (qint64 i = 0; i < count; ++i) {
                in.setEvent(i);
                ListRef &r = lists[base + size_t(i)];
                r.begin = quint32(s.m_lists.size());
                for (quint32 k = 0; k < r.count; ++k)
                    s.m_lists.push_back(in.string());
            }
        } else if constexpr (F::keyed) {
            constexpr std::size_t pos = EventColumns<E>::template keyPosition<I>();
            for (qint64 i = 0; i < count; ++i) {
                in.setEvent(i);
                keys[size_t(i)].values[pos] = readValue<E, I>(in);
            }
        } else {
            auto &column = std::get<I>(c.fields);
            column.resize(end);
            for (qint64 i = 0; i < count; ++i) {
                in.setEvent(i);
                column[base + size_t(i)] = readValue<E, I>(in);
            }
        }
    });
    // Checked before the events join the store, so that a chunk refused for them leaves
    // nothing behind.
    if (!in.failed() && in.remaining() != 0)
        in.failChunk(QStringLiteral("%1 bytes are left over after %2 events")
                         .arg(in.remaining())
                         .arg(count));
    if (!in.failed() && in.checksTimes() && count > 0) {
        // The row's first_ns/last_ns were computed from the same events when it was written: a
        // difference means the times (or the row) were altered.
        const ColumnVector<quint64> &times = c.times();
        const auto [lo, hi] = std::minmax_element(times.begin() + qsizetype(base), times.end());
        if (*lo != in.expectedFirst() || *hi != in.expectedLast())
            in.failChunk(QStringLiteral("its events' times run from %1 to %2 ns, but its row "
                                        "says %3 to %4 ns")
                             .arg(*lo)
                             .arg(*hi)
                             .arg(in.expectedFirst())
                             .arg(in.expectedLast()));
    }
    if (in.failed()) {
        // Leave the store as it was, with every column of one length.
        c.forEachVector([&](auto &v) { v.resize(std::min(v.size(), base)); });
        return false;
    }
    if constexpr (EventColumns<E>::keyedCount > 0) {
        // Runs of one combination are the rule (one disk, one operation): intern each run once.
        c.key.resize(end);
        for (size_t i = 0; i < keys.size(); ++i)
            c.key[base + i] =
                i > 0 && keys[i] == keys[i - 1] ? c.key[base + i - 1] : c.internKey(keys[i]);
    }
    // Per-CPU buffers deliver slightly out of order; EventStore keeps each type time-sorted.
    // A stable sort of the new events merged after the old ones with equal times places every
    // event exactly where EventStore::append() would have placed it one by one.
    const ColumnVector<quint64> &times = c.times();
    const bool sorted = std::is_sorted(times.begin() + qsizetype(base), times.end());
    const quint64 newFirst =
        count > 0 ? *std::min_element(times.begin() + qsizetype(base), times.end()) : 0;
    if (!sorted || (base > 0 && count > 0 && times[base - 1] > newFirst)) {
        s.m_outOfOrder = true;
        const auto from =
            size_t(std::upper_bound(times.begin(), times.begin() + qsizetype(base), newFirst) -
                   times.begin());
        std::vector<quint32> order(end - from);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](quint32 a, quint32 b) { return times[from + a] < times[from + b]; });
        c.permute(qsizetype(from), order);
    }
    return true;
}

int EventChunkCodec::minBytesPerEvent(EventType type, bool withCgroups)
{
    int n = 1;
    visitEventType(type, [&]<typename E>() {
        n = 0;
        // A byte per column; an address takes its length byte and at least 4 more.
        forEachField<E>([&]<std::size_t I>() {
            if (isCgroupField<E, I>() && !withCgroups)
                return;
            n += FieldAt<E, I>::kind == FieldKind::Address ? 5 : 1;
        });
    });
    return n;
}

qsizetype EventChunkCodec::countIn(EventType type, const RecordBatch &b)
{
    qsizetype n = 0;
    visitEventType(type, [&]<typename E>() { n = b.events<E>().size(); });
    return n;
}

quint64 EventChunkCodec::timeAt(EventType type, const RecordBatch &b, qsizetype i)
{
    quint64 t = 0;
    visitEventType(type, [&]<typename E>() { t = b.events<E>().at(i).timeNs; });
    return t;
}

QByteArray EventChunkCodec::encode(EventType type, const RecordBatch &b, const StringId &str,
                                   bool withCgroups)
{
    return encode(type, b, 0, countIn(type, b), str, withCgroups);
}

QByteArray EventChunkCodec::encode(EventType type, const RecordBatch &b, qsizetype begin,
                                   qsizetype end, const StringId &str, bool withCgroups)
{
    QByteArray out;
    visitEventType(type, [&]<typename E>() {
        const QList<E> &events = b.events<E>();
        out = encodeEvents(std::span<const E>(events.constData() + begin, size_t(end - begin)), str,
                           withCgroups);
    });
    return out;
}

quint32 EventChunkCodec::intern(EventStore *store, const QByteArray &bytes)
{
    return store->m_strings.intern(bytes);
}

bool EventChunkCodec::decode(EventType type, QByteArrayView blob, qint64 count,
                             const std::vector<quint32> &strings, EventStore *store, QString *error,
                             bool withCgroups)
{
    return decodeChunk(type, blob, count, strings, store, error, nullptr, withCgroups);
}

quint32 EventChunkCodec::checksum(int type, qint64 count, quint64 firstNs, quint64 lastNs,
                                  QByteArrayView data)
{
    quint32 crc = crc32cOfInt(type);
    crc = crc32cOfInt(count, crc);
    crc = crc32cOfInt(qint64(firstNs), crc);
    crc = crc32cOfInt(qint64(lastNs), crc);
    return crc32c(data, crc);
}

quint32 EventChunkCodec::stringChecksum(qint64 id, QByteArrayView bytes)
{
    return crc32c(bytes, crc32cOfInt(id));
}

bool EventChunkCodec::stringChecksumMatches(qint64 id, QByteArrayView bytes, qint64 stored)
{
    return qint64(stringChecksum(id, bytes)) == stored;
}

bool EventChunkCodec::checksumMatches(const StoredChunk &chunk)
{
    return !chunk.hasChecksum || qint64(checksum(chunk.type, chunk.count, chunk.firstNs,
                                                 chunk.lastNs, chunk.data)) == chunk.checksum;
}

ChunkCheck EventChunkCodec::decodeStored(const StoredChunk &chunk,
                                         const std::vector<quint32> &strings, EventStore *store,
                                         QString *error)
{
    if (chunk.hasChecksum) {
        const quint32 computed =
            checksum(chunk.type, chunk.count, chunk.firstNs, chunk.lastNs, chunk.data);
        if (qint64(computed) != chunk.checksum) {
            if (error)
                *error = QStringLiteral("checksum mismatch (the row says %1, its contents make "
                                        "%2)")
                             .arg(chunk.checksum)
                             .arg(computed);
            return ChunkCheck::ChecksumMismatch;
        }
    }
    if (!isEventType(chunk.type)) {
        if (error)
            *error = QStringLiteral("unknown event type %1").arg(chunk.type);
        return ChunkCheck::Malformed;
    }
    return decodeChunk(EventType(chunk.type), chunk.data, chunk.count, strings, store, error,
                       &chunk, chunk.hasCgroups)
               ? ChunkCheck::Ok
               : ChunkCheck::Malformed;
}

bool EventChunkCodec::decodeChunk(EventType type, QByteArrayView blob, qint64 count,
                                  const std::vector<quint32> &strings, EventStore *store,
                                  QString *error, const StoredChunk *row, bool withCgroups)
{
    auto refuse = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (count < 0)
        return refuse(QStringLiteral("negative event count %1").arg(count));
    // Checked before anything is allocated: every event needs a byte per column.
    if (count > blob.size() / minBytesPerEvent(type, withCgroups))
        return refuse(
            QStringLiteral("%1 events cannot fit in %2 bytes").arg(count).arg(blob.size()));
    if (strings.empty())
        return refuse(QStringLiteral("no string table"));
    Input in(blob, strings, withCgroups);
    if (row)
        in.expectTimes(row->firstNs, row->lastNs);
    bool ok = false;
    if (!visitEventType(type, [&]<typename E>() { ok = decodeEvents<E>(*store, count, in); }))
        return refuse(QStringLiteral("unknown event type %1").arg(int(type)));
    if (!ok || in.failed())
        return refuse(in.error());
    return true;
}

} // namespace bpflens
