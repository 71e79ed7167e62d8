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

// Decodes count events of type E at the end of its columns (the sequential path: the salvage
// reader, SQL over sessions, decode()): rows are added, filled in place, and committed at once.
template<typename E>
bool EventChunkCodec::decodeEvents(EventStore &s, qint64 count, chunk::Input &in)
{
    EventColumns<E> &c = s.columns<E>();
    PlacedChunk placed;
    placed.type = eventTypeOf<E>;
    placed.base = c.size();
    placed.count = count;
    const size_t base = size_t(placed.base);
    const size_t end = base + size_t(count);
    forEachField<E>([&]<std::size_t I>() {
        if constexpr (!FieldAt<E, I>::keyed)
            std::get<I>(c.fields).resize(end);
    });
    if constexpr (EventColumns<E>::keyedCount > 0)
        c.key.resize(end);
    if (!decodeInto<E>(s, in, placed)) {
        // Leave the store as it was, with every column of one length.
        c.forEachVector([&](auto &v) { v.resize(std::min(v.size(), base)); });
        return false;
    }
    commit(&s, placed);
    return true;
}

// Decodes the chunk into rows [placed.base, placed.base + placed.count) of E's columns, which
// exist already, column by column. Nothing outside those rows is written (the parallel load
// runs this for several chunks at once); what depends on earlier chunks is left in placed.
template<typename E>
bool EventChunkCodec::decodeInto(EventStore &s, chunk::Input &in, PlacedChunk &placed)
{
    using Key = typename EventColumns<E>::Key;
    constexpr std::size_t keyedCount = EventColumns<E>::keyedCount;
    EventColumns<E> &c = s.columns<E>();
    const qint64 count = placed.count;
    const size_t base = size_t(placed.base);
    const size_t end = base + size_t(count);
    std::vector<Key> keys(keyedCount ? size_t(count) : 0);
    forEachField<E>([&]<std::size_t I>() {
        using F = FieldAt<E, I>;
        const char *name = std::get<I>(EventTraits<E>::fields).name;
        if (in.failed())
            return;
        in.at(name, 0);
        if constexpr (isCgroupField<E, I>()) {
            if (!in.withCgroups()) {
                // 0: unknown (a keyed field's value is in keys, already 0)
                if constexpr (!F::keyed) {
                    auto &column = std::get<I>(c.fields);
                    std::fill(column.begin() + qsizetype(base), column.begin() + qsizetype(end),
                              StorageAt<E, I>{});
                }
                return;
            }
        }
        if constexpr (F::kind == FieldKind::Time) {
            ColumnVector<quint64> &times = std::get<I>(c.fields);
            quint64 t = 0;
            for (qint64 i = 0; i < count; ++i) {
                in.setEvent(i);
                t += quint64(unzigzag(in.varint()));
                times[base + size_t(i)] = t;
            }
        } else if constexpr (F::kind == FieldKind::BytesList) {
            ColumnVector<ListRef> &lists = std::get<I>(c.fields);
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
            placed.lists.reserve(placed.lists.size() + size_t(total));
            for (qint64 i = 0; i < count; ++i) {
                in.setEvent(i);
                ListRef &r = lists[base + size_t(i)];
                r.begin = quint32(placed.lists.size());
                for (quint32 k = 0; k < r.count; ++k)
                    placed.lists.push_back(in.string());
            }
        } else if constexpr (F::keyed) {
            constexpr std::size_t pos = EventColumns<E>::template keyPosition<I>();
            for (qint64 i = 0; i < count; ++i) {
                in.setEvent(i);
                keys[size_t(i)].values[pos] = readValue<E, I>(in);
            }
        } else {
            auto &column = std::get<I>(c.fields);
            for (qint64 i = 0; i < count; ++i) {
                in.setEvent(i);
                column[base + size_t(i)] = readValue<E, I>(in);
            }
        }
    });
    if (!in.failed() && in.remaining() != 0)
        in.failChunk(QStringLiteral("%1 bytes are left over after %2 events")
                         .arg(in.remaining())
                         .arg(count));
    if (!in.failed() && in.checksTimes() && count > 0) {
        // The row's first_ns/last_ns were computed from the same events when it was written: a
        // difference means the times (or the row) were altered.
        const ColumnVector<quint64> &times = c.times();
        const auto [lo, hi] =
            std::minmax_element(times.begin() + qsizetype(base), times.begin() + qsizetype(end));
        if (*lo != in.expectedFirst() || *hi != in.expectedLast())
            in.failChunk(QStringLiteral("its events' times run from %1 to %2 ns, but its row "
                                        "says %3 to %4 ns")
                             .arg(*lo)
                             .arg(*hi)
                             .arg(in.expectedFirst())
                             .arg(in.expectedLast()));
    }
    if (in.failed())
        return false;
    if constexpr (keyedCount > 0) {
        // The chunk's own numbering, in order of first use, which the commit maps to the
        // store's. Runs of one combination are the rule (one disk, one operation): looked up
        // once per run.
        QHash<Key, quint32> ids;
        for (size_t i = 0; i < keys.size(); ++i) {
            quint32 id;
            if (i > 0 && keys[i] == keys[i - 1]) {
                id = c.key[base + i - 1];
            } else {
                const auto it = ids.constFind(keys[i]);
                if (it != ids.constEnd()) {
                    id = it.value();
                } else {
                    id = quint32(ids.size());
                    ids.insert(keys[i], id);
                    placed.keys.insert(placed.keys.end(), keys[i].values.begin(),
                                       keys[i].values.end());
                }
            }
            c.key[base + i] = id;
        }
    }
    return true;
}

// Joins a decoded chunk to the store, after every chunk before it: maps its key combinations to
// the store's, places its lists, and restores the store's time order if the chunk did not
// continue it.
template<typename E>
void EventChunkCodec::commitEvents(EventStore &s, const PlacedChunk &placed, qsizetype listBase)
{
    EventColumns<E> &c = s.columns<E>();
    const size_t base = size_t(placed.base);
    const size_t end = base + size_t(placed.count);
    if constexpr (EventColumns<E>::keyedCount > 0) {
        constexpr std::size_t n = EventColumns<E>::keyedCount;
        std::vector<quint32> ids(placed.keys.size() / n);
        bool same = true;
        for (size_t k = 0; k < ids.size(); ++k) {
            typename EventColumns<E>::Key key;
            std::copy_n(placed.keys.begin() + qsizetype(k * n), n, key.values.begin());
            ids[k] = c.internKey(key);
            same = same && ids[k] == k;
        }
        if (!same) {
            for (size_t i = base; i < end; ++i)
                c.key[i] = ids[c.key[i]];
        }
    }
    forEachField<E>([&]<std::size_t I>() {
        if constexpr (FieldAt<E, I>::kind == FieldKind::BytesList) {
            if (listBase != 0) {
                ColumnVector<ListRef> &lists = std::get<I>(c.fields);
                for (size_t i = base; i < end; ++i)
                    lists[i].begin += quint32(listBase);
            }
        }
    });
    // Per-CPU buffers deliver slightly out of order; EventStore keeps each type time-sorted.
    // A stable sort of the new events merged after the old ones with equal times places every
    // event exactly where EventStore::append() would have placed it one by one.
    const ColumnVector<quint64> &times = c.times();
    const auto first = times.begin() + qsizetype(base);
    const auto last = times.begin() + qsizetype(end);
    const bool sorted = std::is_sorted(first, last);
    const quint64 newFirst = placed.count > 0 ? *std::min_element(first, last) : 0;
    if (!sorted || (base > 0 && placed.count > 0 && times[base - 1] > newFirst)) {
        s.m_outOfOrder = true;
        const auto from = size_t(std::upper_bound(times.begin(), first, newFirst) - times.begin());
        std::vector<quint32> order(end - from);
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](quint32 a, quint32 b) { return times[from + a] < times[from + b]; });
        c.permute(qsizetype(from), order);
    }
}

void EventChunkCodec::setRows(EventStore *store, EventType type, qsizetype rows)
{
    visitEventType(type, [&]<typename E>() {
        EventColumns<E> &c = store->columns<E>();
        const auto n = size_t(std::max<qsizetype>(rows, 0));
        forEachField<E>([&]<std::size_t I>() {
            if constexpr (!FieldAt<E, I>::keyed)
                std::get<I>(c.fields).resize(n);
        });
        if constexpr (EventColumns<E>::keyedCount > 0)
            c.key.resize(n);
    });
}

void EventChunkCodec::reserveLists(EventStore *store, EventType type, qint64 rows,
                                   qint64 chunkBytes)
{
    visitEventType(type, [&]<typename E>() {
        bool lists = false;
        forEachField<E>(
            [&]<std::size_t I>() { lists = lists || FieldAt<E, I>::kind == FieldKind::BytesList; });
        // Every string id takes a byte of a chunk at least, beside the byte per column each
        // event takes. Pages of a mapped column that are never written are never resident:
        // reserving more than is used costs address space only.
        const qint64 atMost = chunkBytes - rows * minBytesPerEvent(type);
        if (lists && atMost > 0)
            store->m_lists.reserve(store->m_lists.size() + size_t(atMost));
    });
}

void EventChunkCodec::commit(EventStore *store, PlacedChunk &placed)
{
    const auto listBase = qsizetype(store->m_lists.size());
    if (!placed.lists.empty()) {
        // Doubling, not the exact size: a reserve per chunk to exactly what it adds copies
        // the whole list again for every chunk (quadratic in the chunks of a session).
        ColumnVector<quint32> &all = store->m_lists;
        const size_t needed = all.size() + placed.lists.size();
        if (needed > all.capacity())
            all.reserve(std::max(needed, 2 * all.capacity()));
        all.insert(all.end(), placed.lists.begin(), placed.lists.end());
        ColumnVector<quint32>().swap(placed.lists);
    }
    visitEventType(placed.type, [&]<typename E>() { commitEvents<E>(*store, placed, listBase); });
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
    return decodeChunk(type, blob, count, strings, store, error, nullptr, withCgroups, nullptr);
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

namespace {
// What decodeStored() and decodePlaced() check before decoding, in that order.
ChunkCheck checkStored(const StoredChunk &chunk, QString *error)
{
    if (chunk.hasChecksum) {
        const quint32 computed = EventChunkCodec::checksum(chunk.type, chunk.count, chunk.firstNs,
                                                           chunk.lastNs, chunk.data);
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
    return ChunkCheck::Ok;
}
} // namespace

ChunkCheck EventChunkCodec::decodeStored(const StoredChunk &chunk,
                                         const std::vector<quint32> &strings, EventStore *store,
                                         QString *error)
{
    if (const ChunkCheck c = checkStored(chunk, error); c != ChunkCheck::Ok)
        return c;
    return decodeChunk(EventType(chunk.type), chunk.data, chunk.count, strings, store, error,
                       &chunk, chunk.hasCgroups, nullptr)
               ? ChunkCheck::Ok
               : ChunkCheck::Malformed;
}

ChunkCheck EventChunkCodec::decodePlaced(const StoredChunk &chunk,
                                         const std::vector<quint32> &strings, EventStore *store,
                                         qsizetype base, PlacedChunk *out, QString *error)
{
    if (const ChunkCheck c = checkStored(chunk, error); c != ChunkCheck::Ok)
        return c;
    out->type = EventType(chunk.type);
    out->base = base;
    out->count = chunk.count;
    return decodeChunk(out->type, chunk.data, chunk.count, strings, store, error, &chunk,
                       chunk.hasCgroups, out)
               ? ChunkCheck::Ok
               : ChunkCheck::Malformed;
}

bool EventChunkCodec::decodeChunk(EventType type, QByteArrayView blob, qint64 count,
                                  const std::vector<quint32> &strings, EventStore *store,
                                  QString *error, const StoredChunk *row, bool withCgroups,
                                  PlacedChunk *placed)
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
    if (!visitEventType(type, [&]<typename E>() {
            ok = placed ? decodeInto<E>(*store, in, *placed) : decodeEvents<E>(*store, count, in);
        }))
        return refuse(QStringLiteral("unknown event type %1").arg(int(type)));
    if (!ok || in.failed())
        return refuse(in.error());
    return true;
}

} // namespace bpflens
