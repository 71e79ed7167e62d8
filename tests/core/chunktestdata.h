#pragma once

#include "core/eventchunk.h"
#include "tests/core/sessiontestdata.h"
#include "tests/everytype.h"

#include <QHash>
#include <QtEndian>

// The input format of tests/fuzz/fuzz_eventchunk.cpp and its seed corpus
// (tests/fuzz/corpus/eventchunk/): one byte event type, the event count as a little-endian u32,
// then the chunk blob. String ids below ChunkFuzzStrings exist.
namespace bpflens::test {

inline constexpr int ChunkFuzzStrings = 64;

inline QByteArray chunkFuzzInput(EventType type, quint32 count, const QByteArray &blob)
{
    QByteArray out(5, '\0');
    out[0] = char(type);
    qToLittleEndian<quint32>(count, out.data() + 1);
    return out + blob;
}

struct ChunkSeed
{
    QString name; // "valid-..." decode, "invalid-..." are refused
    QByteArray bytes;
};

inline QList<ChunkSeed> eventChunkSeeds()
{
    // Ids from a fixed table, wrapped into the range the fuzz target provides.
    QHash<QByteArray, quint32> ids;
    const EventChunkCodec::StringId id = [&ids](const QByteArray &s) {
        return ids.value(s, quint32(ids.size() % (ChunkFuzzStrings - 1) + 1));
    };
    RecordBatch b = makeBatch(5000000000ull, 0, 3);
    for (quint32 n = 0; n < 3; ++n)
        b.tpPair.append(makeTpPair(5000000000ull + n * 10, n));
    std::reverse(b.open.begin(), b.open.end()); // out of order
    // Every other declared type from its declaration.
    forEachEventType([&]<typename E>() {
        for (int k = 0; b.events<E>().isEmpty() && k < 3; ++k)
            b.events<E>().append(synthesizedEvent<E>(k, 5000000000ull + quint64(k) * 10));
    });
    QList<ChunkSeed> seeds;
    for (EventType type : eventTypes) {
        const char *name = probeIdOf(type);
        const QByteArray blob = EventChunkCodec::encode(type, b, id);
        const auto count = quint32(EventChunkCodec::countIn(type, b));
        seeds.append({QStringLiteral("valid-%1").arg(QLatin1String(name)),
                      chunkFuzzInput(type, count, blob)});
        seeds.append({QStringLiteral("invalid-%1-cut").arg(QLatin1String(name)),
                      chunkFuzzInput(type, count, blob.left(blob.size() - 2))});
    }
    seeds.append(
        {QStringLiteral("invalid-varint"),
         chunkFuzzInput(EventType::Open, 1, QByteArray(11, char(0xff)) + QByteArray(9, 0))});
    seeds.append({QStringLiteral("invalid-count"),
                  chunkFuzzInput(EventType::Block, 0xffffffffu, QByteArray(64, 1))});
    return seeds;
}

// The input format of tests/fuzz/fuzz_storedchunk.cpp (a row of event_chunks as the checked
// path reads it) and its seed corpus (tests/fuzz/corpus/storedchunk/): type u8, count u32 LE,
// first_ns and last_ns u64 LE, mode u8 (bit 0: the row has a checksum; bit 1: the right one,
// else the next field is), checksum u32 LE, then the chunk blob.
inline QByteArray storedChunkFuzzInput(EventType type, quint32 count, quint64 first, quint64 last,
                                       quint8 mode, quint32 checksum, const QByteArray &blob)
{
    QByteArray out(26, '\0');
    out[0] = char(type);
    qToLittleEndian<quint32>(count, out.data() + 1);
    qToLittleEndian<quint64>(first, out.data() + 5);
    qToLittleEndian<quint64>(last, out.data() + 13);
    out[21] = char(mode);
    qToLittleEndian<quint32>(checksum, out.data() + 22);
    return out + blob;
}

// "valid-..." seeds are accepted by EventChunkCodec::decodeStored, "invalid-..." refused.
inline QList<ChunkSeed> storedChunkSeeds()
{
    QList<ChunkSeed> seeds;
    for (const ChunkSeed &plain : eventChunkSeeds()) {
        if (!plain.name.startsWith(QStringLiteral("valid-")))
            continue;
        const auto type = EventType(plain.bytes.at(0));
        const quint32 count = qFromLittleEndian<quint32>(plain.bytes.constData() + 1);
        const QByteArray blob = plain.bytes.mid(5);
        // The range the writer would store: decoded, the store is sorted by time.
        EventStore store;
        std::vector<quint32> map(1, 0);
        for (int i = 1; i < ChunkFuzzStrings; ++i)
            map.push_back(EventChunkCodec::intern(&store, "s" + QByteArray::number(i)));
        QString error;
        if (!EventChunkCodec::decode(type, blob, count, map, &store, &error) || count == 0)
            continue;
        const quint64 first = store.timeNs(type, 0);
        const quint64 last = store.timeNs(type, count - 1);
        const quint32 crc = EventChunkCodec::checksum(int(type), count, first, last, blob);
        const QString name = plain.name.mid(6);
        // As schema 3 stores it, the checksum given both ways.
        seeds.append({QStringLiteral("valid-%1").arg(name),
                      storedChunkFuzzInput(type, count, first, last, 1, crc, blob)});
        seeds.append({QStringLiteral("valid-%1-computed").arg(name),
                      storedChunkFuzzInput(type, count, first, last, 3, 0, blob)});
        // A schema 2 row (no checksum) whose range is off by one.
        seeds.append({QStringLiteral("invalid-%1-range").arg(name),
                      storedChunkFuzzInput(type, count, first, last + 1, 0, 0, blob)});
        // A checksum that does not match.
        seeds.append({QStringLiteral("invalid-%1-checksum").arg(name),
                      storedChunkFuzzInput(type, count, first, last, 1, crc ^ 1, blob)});
    }
    return seeds;
}

} // namespace bpflens::test
