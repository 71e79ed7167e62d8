#pragma once

#include "core/eventstore.h"
#include "core/records.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <functional>
#include <vector>

namespace bpflens {

namespace chunk {
class Input;
}

// A row of event_chunks as the file stores it. Schema 3 rows carry a checksum; schema 2 rows
// do not (hasChecksum false).
struct StoredChunk
{
    int type = 0;
    qint64 count = 0;
    quint64 firstNs = 0;
    quint64 lastNs = 0;
    QByteArrayView data;
    bool hasChecksum = false;
    qint64 checksum = 0; // as stored: anything outside 0..2^32-1 never matches
    // Schema 4 and later: the types that carry a process end with the cgroup id column.
    bool hasCgroups = true;
};

// Why a stored chunk was refused: a checksum that does not match is told apart from contents
// that do not decode, because the damage report names it ("checksum mismatch").
enum class ChunkCheck
{
    Ok,
    ChecksumMismatch,
    Malformed,
};

// A chunk decoded into rows of EventStore's columns set aside for it (EventChunkCodec::
// decodePlaced), by one of the threads of a parallel load, waiting to be committed in chunk
// order. What depends on the chunks before it is kept here instead of in the store: the chunk's
// own key combinations (the key column's rows index these until the commit maps them to the
// store's) and its argument lists (ListRef::begin counts from the start of lists).
struct PlacedChunk
{
    EventType type{};
    qsizetype base = 0; // the chunk's first row
    qint64 count = 0;
    std::vector<quint64> keys; // keyedCount values per combination, in order of first use
    ColumnVector<quint32> lists;
};

// The columnar encoding of one event type's events of one batch, as schema 2 and 3 session files
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
    // withCgroups: schema 4's cgroup id column (false for the schemas before, which lack it).
    static QByteArray encode(EventType type, const RecordBatch &batch, const StringId &stringId,
                             bool withCgroups = true);
    // Events [begin, end) of type in batch as one chunk blob.
    static QByteArray encode(EventType type, const RecordBatch &batch, qsizetype begin,
                             qsizetype end, const StringId &stringId, bool withCgroups = true);
    static qsizetype countIn(EventType type, const RecordBatch &batch);
    static quint64 timeAt(EventType type, const RecordBatch &batch, qsizetype i);

    // Appends count events decoded from blob to store. strings maps the file's string ids to
    // ids of store.strings() (index 0 is the empty string). Every count, varint and id is
    // checked before use, so a hostile blob cannot make it read out of bounds or allocate more
    // than a small multiple of the blob's size; on failure *error says which column and event,
    // and store may hold part of the chunk (the caller discards it).
    // withCgroups as for encode(); without, the events' cgroup ids are 0 (unknown).
    static bool decode(EventType type, QByteArrayView blob, qint64 count,
                       const std::vector<quint32> &strings, EventStore *store, QString *error,
                       bool withCgroups = true);
    // The chunk's checksum (schema 3): CRC32C of type, count, firstNs and lastNs, each as 8
    // little-endian bytes, then the data.
    static quint32 checksum(int type, qint64 count, quint64 firstNs, quint64 lastNs,
                            QByteArrayView data);
    // A string's checksum (schema 3): CRC32C of its id as 8 little-endian bytes, then its bytes.
    static quint32 stringChecksum(qint64 id, QByteArrayView bytes);
    // Whether a string row's stored checksum is the one of its id and bytes (the one check of
    // a string every reader makes; stored is -1 when the column is not an integer).
    static bool stringChecksumMatches(qint64 id, QByteArrayView bytes, qint64 stored);

    // Whether the row's checksum matches its contents (true for a row without one).
    static bool checksumMatches(const StoredChunk &chunk);

    // The one way every reader decodes a chunk of a file. The checksum, when the row has one,
    // is checked before a byte of the data is decoded; then the data is decoded as decode()
    // does, and the row's firstNs/lastNs must be the smallest and largest time of its events.
    // No event is appended to store unless every check passes.
    static ChunkCheck decodeStored(const StoredChunk &chunk, const std::vector<quint32> &strings,
                                   EventStore *store, QString *error);

    // The parallel load (SessionReader): setRows() sizes a type's columns once, before any
    // thread writes (new rows are left uninitialised), and reserveLists() the argument lists
    // for rows events in chunkBytes of the type's chunks; decodePlaced() checks and decodes a
    // stored chunk as decodeStored() does, but into rows [base, base + count) and without touching
    // anything else of store, so that threads may decode distinct chunks at once; commit() then
    // joins each decoded chunk to the store in chunk order (its key combinations, its lists and the
    // time order, exactly as decodeStored() would have left them).
    static void setRows(EventStore *store, EventType type, qsizetype rows);
    static void reserveLists(EventStore *store, EventType type, qint64 rows, qint64 chunkBytes);
    static ChunkCheck decodePlaced(const StoredChunk &chunk, const std::vector<quint32> &strings,
                                   EventStore *store, qsizetype base, PlacedChunk *out,
                                   QString *error);
    static void commit(EventStore *store, PlacedChunk &placed);

    // Interns a string of the file into store's pool, for building the strings map.
    static quint32 intern(EventStore *store, const QByteArray &bytes);

    // Each event takes at least this many bytes in a chunk: the number of its columns.
    static int minBytesPerEvent(EventType type, bool withCgroups = true);

private:
    // placed: decode into rows [placed->base, placed->base + count) (decodePlaced); without,
    // append (decode, decodeStored).
    static bool decodeChunk(EventType type, QByteArrayView blob, qint64 count,
                            const std::vector<quint32> &strings, EventStore *store, QString *error,
                            const StoredChunk *row, bool withCgroups, PlacedChunk *placed);
    template<typename E>
    static bool decodeEvents(EventStore &store, qint64 count, chunk::Input &in);
    template<typename E>
    static bool decodeInto(EventStore &store, chunk::Input &in, PlacedChunk &placed);
    template<typename E>
    static void commitEvents(EventStore &store, const PlacedChunk &placed, qsizetype listBase);
};

} // namespace bpflens
