#pragma once

#include "eventchunk.h"
#include "everytype.h"
#include "sessiontestdata.h"

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

} // namespace bpflens::test
