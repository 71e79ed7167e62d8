// libFuzzer target for the session file's event chunk decoder (docs/session-format.md,
// schema 2). Input: event type u8, event count u32 LE, chunk blob (tests/core/chunktestdata.h).
// Besides "never crashes, never reads out of bounds, never allocates without bound" (ASan,
// UBSan, -rss_limit_mb), it checks that whatever the decoder accepts encodes again to a chunk
// that decodes to the same events.
#include "core/eventchunk.h"

#include <QtEndian>

#include <cstdint>
#include <cstdio>

using namespace bpflens;

namespace {

constexpr int Strings = 64; // ChunkFuzzStrings

[[noreturn]] void fail(const char *what)
{
    fprintf(stderr, "%s\n", what);
    __builtin_trap();
}

// A store whose pool holds "s1".."s63", and the file-id -> pool-id map for it.
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
    if (size < 5)
        return 0;
    // Every declared type: its own number (as in the seeds), other bytes mapped onto the list.
    const EventType type = isEventType(data[0])
                               ? EventType(data[0])
                               : eventTypes[data[0] % (sizeof(eventTypes) / sizeof(eventTypes[0]))];
    const quint32 count = qFromLittleEndian<quint32>(data + 1);
    const QByteArrayView blob(reinterpret_cast<const char *>(data + 5), qsizetype(size - 5));

    std::vector<quint32> map;
    EventStore store = makeStore(&map);
    QString error;
    if (!EventChunkCodec::decode(type, blob, count, map, &store, &error)) {
        if (error.isEmpty())
            fail("refused without saying why");
        return 0;
    }
    if (store.count(type) != qsizetype(count))
        fail("decoded a different number of events than the chunk claims");

    // Accepted: encode the events again (with the same string ids) and decode that.
    const RecordBatch batch = toBatch(store, type);
    const QByteArray again = EventChunkCodec::encode(type, batch, [](const QByteArray &s) {
        return s.startsWith('s') ? s.mid(1).toUInt() : 0u;
    });
    std::vector<quint32> map2;
    EventStore second = makeStore(&map2);
    if (!EventChunkCodec::decode(type, again, count, map2, &second, &error))
        fail(qPrintable(QStringLiteral("re-encoded chunk does not decode: ") + error));
    const RecordBatch batch2 = toBatch(second, type);
    if (!(batch == batch2))
        fail("re-encoded chunk decodes to other events");
    return 0;
}
