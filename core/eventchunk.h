#pragma once

#include "eventstore.h"
#include "records.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <functional>
#include <vector>

namespace bpflens {

namespace chunk {
class Input;
}

// The columnar encoding of one event type's events of one batch, as schema 2 session files
// store them (table event_chunks, docs/session-format.md): every column of the chunk's events
// in turn, in the order of the type's declared fields (core/events/<type>.h), as varints
// (times as zigzag deltas). Decoding writes straight into EventStore's rows,
// which is what makes opening a session of millions of events take seconds, not minutes.
class EventChunkCodec
{
public:
    // Maps a string to its id in the file's strings table.
    using StringId = std::function<quint32(const QByteArray &)>;

    // The events of type in batch as one chunk blob ("" when the batch has none of that type).
    static QByteArray encode(EventType type, const RecordBatch &batch, const StringId &stringId);
    static qsizetype countIn(EventType type, const RecordBatch &batch);
    static quint64 timeAt(EventType type, const RecordBatch &batch, qsizetype i);

    // Appends count events decoded from blob to store. strings maps the file's string ids to
    // ids of store.strings() (index 0 is the empty string). Every count, varint and id is
    // checked before use, so a hostile blob cannot make it read out of bounds or allocate more
    // than a small multiple of the blob's size; on failure *error says which column and event,
    // and store may hold part of the chunk (the caller discards it).
    static bool decode(EventType type, QByteArrayView blob, qint64 count,
                       const std::vector<quint32> &strings, EventStore *store, QString *error);
    // Interns a string of the file into store's pool, for building the strings map.
    static quint32 intern(EventStore *store, const QByteArray &bytes);

    // Each event takes at least this many bytes in a chunk: the number of its columns.
    static int minBytesPerEvent(EventType type);

private:
    template<typename E>
    static bool decodeEvents(EventStore &store, qint64 count, chunk::Input &in);
};

} // namespace bpflens
