// libFuzzer target for the checked chunk path every reader of a session file takes
// (EventChunkCodec::decodeStored, docs/session-format.md "Checksums"): a row of event_chunks
// with its checksum, time range and data. Input (tests/core/chunktestdata.h,
// storedChunkFuzzInput): event type u8, count u32 LE, first_ns u64 LE, last_ns u64 LE, mode u8
// (bit 0: the row has a checksum; bit 1: it is the right one, else the next u32 LE is), the
// checksum u32 LE, then the data. Besides what ASan and UBSan catch, it checks that
// - a row whose checksum does not match is refused as a mismatch, before anything is decoded,
//   and one bit flipped anywhere in a row whose checksum matched is always refused;
// - a refused row appends no event to the store;
// - an accepted row holds count events whose times run from first_ns to last_ns, and encodes
//   again to a row that is accepted with the same events.
#include "core/eventchunk.h"

#include <QtEndian>

#include <algorithm>
#include <cstdint>
#include <cstdio>

using namespace bpflens;

namespace {

constexpr int Strings = 64; // ChunkFuzzStrings
constexpr size_t Header = 26;

[[noreturn]] void fail(const char *what)
{
    fprintf(stderr, "%s\n", what);
    __builtin_trap();
}

EventStore makeStore(std::vector<quint32> *map)
{
    EventStore store;
    map->assign(1, 0);
    for (int i = 1; i < Strings; ++i)
        map->push_back(EventChunkCodec::intern(&store, "s" + QByteArray::number(i)));
    return store;
}

RecordBatch toBatch(const EventStore &s, EventType type)
{
    RecordBatch b;
    visitEventType(type, [&]<typename E>() {
        for (qsizetype i = 0; i < s.count(type); ++i)
            b.events<E>().append(s.event<E>(i));
    });
    return b;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < Header)
        return 0;
    StoredChunk row;
    // Every declared type by its number, other bytes mapped onto the list, and now and then
    // a type that does not exist.
    row.type = isEventType(data[0]) || data[0] >= 0xf0
                   ? int(data[0])
                   : int(eventTypes[data[0] % (sizeof(eventTypes) / sizeof(eventTypes[0]))]);
    row.count = qFromLittleEndian<quint32>(data + 1);
    row.firstNs = qFromLittleEndian<quint64>(data + 5);
    row.lastNs = qFromLittleEndian<quint64>(data + 13);
    const quint8 mode = data[21];
    const quint32 given = qFromLittleEndian<quint32>(data + 22);
    row.data =
        QByteArrayView(reinterpret_cast<const char *>(data + Header), qsizetype(size - Header));
    const quint32 right =
        EventChunkCodec::checksum(row.type, row.count, row.firstNs, row.lastNs, row.data);
    row.hasChecksum = mode & 1;
    row.checksum = (mode & 2) ? right : given;

    std::vector<quint32> map;
    EventStore store = makeStore(&map);
    QString error;
    const ChunkCheck result = EventChunkCodec::decodeStored(row, map, &store, &error);
    const bool mismatch = row.hasChecksum && row.checksum != qint64(right);
    if (mismatch != (result == ChunkCheck::ChecksumMismatch))
        fail("a checksum mismatch was not told as one");
    if (result != ChunkCheck::Ok) {
        if (error.isEmpty())
            fail("refused without saying why");
        if (store.totalCount() != 0)
            fail("a refused row left events in the store");
        return 0;
    }
    const EventType type = EventType(row.type);
    if (store.count(type) != row.count)
        fail("decoded a different number of events than the row claims");
    if (row.count > 0) {
        // The store keeps each type sorted by time.
        if (store.timeNs(type, 0) != row.firstNs || store.timeNs(type, row.count - 1) != row.lastNs)
            fail("accepted a row whose time range is not its events'");
    }

    // A single flipped bit in a checked row is always found (CRC32C finds every odd number of
    // flipped bits and every burst up to 32 bits).
    if (row.hasChecksum && !row.data.isEmpty()) {
        QByteArray flipped = row.data.toByteArray();
        const qsizetype at = qsizetype(given % quint32(flipped.size()));
        flipped[at] = char(flipped[at] ^ char(1 << (given >> 29)));
        StoredChunk altered = row;
        altered.data = flipped;
        std::vector<quint32> map3;
        EventStore third = makeStore(&map3);
        if (EventChunkCodec::decodeStored(altered, map3, &third, &error) !=
            ChunkCheck::ChecksumMismatch)
            fail("a flipped bit went unnoticed");
    }

    // Accepted: the events as a new row, with its own range and checksum, read back the same.
    const RecordBatch batch = toBatch(store, type);
    const QByteArray again = EventChunkCodec::encode(type, batch, [](const QByteArray &s) {
        return s.startsWith('s') ? s.mid(1).toUInt() : 0u;
    });
    StoredChunk second = row;
    second.data = again;
    second.hasChecksum = true;
    second.checksum = EventChunkCodec::checksum(second.type, second.count, second.firstNs,
                                                second.lastNs, second.data);
    std::vector<quint32> map2;
    EventStore other = makeStore(&map2);
    if (EventChunkCodec::decodeStored(second, map2, &other, &error) != ChunkCheck::Ok)
        fail(qPrintable(QStringLiteral("re-encoded row is refused: ") + error));
    if (!(toBatch(other, type) == batch))
        fail("re-encoded row decodes to other events");
    return 0;
}
