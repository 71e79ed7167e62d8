#include "core/sessionquery.h"

#include "core/eventchunk.h"
#include "core/eventstore.h"
#include "core/histogram.h"
#include "core/sessioninfo.h"
#include "core/sessionstore.h"
#include "core/specialfile.h"
#include "core/varint.h"

#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QUrl>

#include <sqlite3.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

namespace bpflens {

// What every virtual table of one connection shares: the file's strings, interned once into a
// store that each chunk's scratch store starts as a copy of (the pool is implicitly shared, so
// the copy costs nothing and decoding interns nothing new).
struct QueryConnection
{
    sqlite3 *db = nullptr;
    EventStore strings;
    std::vector<quint32> stringIds{0}; // file string id -> id in strings' pool
    quint64 startNs = 0;
    bool chunkChecksums = false; // schema 3: event_chunks.crc and strings.crc are checked
    bool cgroupColumns = false;  // schema 4: chunks end with the cgroup id column
    bool stringChecksums = false;

    // Reads the strings added since the last call (a session being recorded grows).
    bool loadStrings(QString *error)
    {
        sqlite3_stmt *st = nullptr;
        if (sqlite3_prepare_v2(
                db,
                stringChecksums ? "SELECT id, value, crc FROM strings WHERE id >= ?1 ORDER BY id"
                                : "SELECT id, value, NULL FROM strings WHERE id >= ?1 ORDER BY id",
                -1, &st, nullptr) != SQLITE_OK) {
            *error = QStringLiteral("table strings: %1").arg(QString::fromUtf8(sqlite3_errmsg(db)));
            return false;
        }
        sqlite3_bind_int64(st, 1, qint64(stringIds.size()));
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            const qint64 id = sqlite3_column_int64(st, 0);
            if (id != qint64(stringIds.size())) {
                *error = QStringLiteral("table strings, id %1: string %1 is defined out of order "
                                        "(expected %2)")
                             .arg(id)
                             .arg(stringIds.size());
                sqlite3_finalize(st);
                return false;
            }
            const auto *p = static_cast<const char *>(sqlite3_column_blob(st, 1));
            const int n = sqlite3_column_bytes(st, 1);
            const QByteArray bytes(p, n);
            const qint64 stored =
                sqlite3_column_type(st, 2) == SQLITE_INTEGER ? sqlite3_column_int64(st, 2) : -1;
            if (stringChecksums && !EventChunkCodec::stringChecksumMatches(id, bytes, stored)) {
                *error = QStringLiteral("table strings, id %1: checksum mismatch").arg(id);
                sqlite3_finalize(st);
                return false;
            }
            stringIds.push_back(EventChunkCodec::intern(&strings, bytes));
        }
        if (rc != SQLITE_DONE)
            *error = QStringLiteral("table strings: %1").arg(QString::fromUtf8(sqlite3_errmsg(db)));
        sqlite3_finalize(st);
        return rc == SQLITE_DONE;
    }
};

namespace {

// Kernel bytes as the CSV files write them (escapeKernelBytes): most are plain ASCII, which is
// passed on without building a copy.
void resultBytes(sqlite3_context *ctx, const QByteArray &b)
{
    bool plain = true;
    for (const char c : b) {
        if (quint8(c) >= 0x80 || c == '\\') {
            plain = false;
            break;
        }
    }
    if (plain) {
        sqlite3_result_text(ctx, b.constData(), int(b.size()), SQLITE_TRANSIENT);
        return;
    }
    const QByteArray escaped = escapeKernelBytes(b);
    sqlite3_result_text(ctx, escaped.constData(), int(escaped.size()), SQLITE_TRANSIENT);
}

void resultUtf8(sqlite3_context *ctx, const QByteArray &utf8)
{
    sqlite3_result_text(ctx, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
}

// A declared column's value as its CSV cell says it (csvexport.cpp's writeCell), typed.
void resultFormatted(sqlite3_context *ctx, Format format, const QVariant &v)
{
    switch (format) {
    case Format::Bytes:
        resultBytes(ctx, v.toByteArray());
        return;
    case Format::Char:
        resultBytes(ctx, QByteArray(1, char(v.toInt())));
        return;
    case Format::Text:
        resultUtf8(ctx, v.toByteArray());
        return;
    case Format::Argv:
        resultUtf8(ctx, formatArgv(v.value<QList<QByteArray>>()));
        return;
    case Format::YesNo:
        sqlite3_result_int(ctx, v.toBool() ? 1 : 0);
        return;
    case Format::Time:
    case Format::Number:
    case Format::Hex:
    case Format::Octal:
    case Format::Duration:
    case Format::Size:
        // Unsigned 64-bit values above 2^63 wrap to negative, as in the file's own tables.
        sqlite3_result_int64(ctx, isSignedValue(v) ? v.toLongLong() : qint64(v.toULongLong()));
        return;
    }
}

void resultVariant(sqlite3_context *ctx, const QVariant &v)
{
    switch (v.typeId()) {
    case QMetaType::UnknownType:
        sqlite3_result_null(ctx);
        return;
    case QMetaType::QString:
        resultUtf8(ctx, v.toString().toUtf8());
        return;
    case QMetaType::QByteArray:
        resultUtf8(ctx, v.toByteArray());
        return;
    case QMetaType::Double:
        sqlite3_result_double(ctx, v.toDouble());
        return;
    default:
        sqlite3_result_int64(ctx, isSignedValue(v) ? v.toLongLong() : qint64(v.toULongLong()));
        return;
    }
}

const char *sqlType(Format format)
{
    switch (format) {
    case Format::Bytes:
    case Format::Char:
    case Format::Text:
    case Format::Argv:
        return "TEXT";
    default:
        return "INTEGER";
    }
}

void setVtabError(sqlite3_vtab *vtab, const QString &message)
{
    sqlite3_free(vtab->zErrMsg);
    vtab->zErrMsg = sqlite3_mprintf("%s", message.toUtf8().constData());
}

// ---- event tables -----------------------------------------------------------------------------

template<typename E>
struct EventCursor;

// One column of an event table and how its value is read.
template<typename E>
struct EventColumn
{
    QByteArray name;
    const char *type;
    Format format = Format::Number;
    const Column<E> *declared = nullptr; // for values computed by the declaration
    void (*emit)(sqlite3_context *, const EventCursor<E> &, const EventColumn &) = nullptr;
};

template<typename E>
struct EventCursor : sqlite3_vtab_cursor
{
    QueryConnection *shared = nullptr;
    sqlite3_stmt *chunks = nullptr;
    EventStore store; // the current chunk's events only
    qint64 seq = 0;
    qint64 decodedSeq = -1; // the chunk store holds, kept across xFilter calls
    qsizetype row = 0;
    qsizetype end = 0;
    qint64 lo = std::numeric_limits<qint64>::min();
    qint64 hi = std::numeric_limits<qint64>::max();
    bool eof = true;
    mutable std::optional<E> event; // row's event, for columns the declaration computes
    mutable qsizetype eventRow = -1;

    const E &current() const
    {
        if (eventRow != row) {
            event = store.template event<E>(row);
            eventRow = row;
        }
        return *event;
    }
};

// A field read in place (no event struct built): what keeps a query over millions of events
// within a small factor of a plain SQLite table.
template<typename E, std::size_t I>
void emitField(sqlite3_context *ctx, const EventCursor<E> &c, const EventColumn<E> &col)
{
    using F = FieldAt<E, I>;
    const auto &v = c.store.template value<F::member>(c.row);
    if constexpr (F::kind == FieldKind::Bytes) {
        if (col.format == Format::Bytes)
            resultBytes(ctx, v);
        else
            resultFormatted(ctx, col.format, QVariant(v));
    } else if constexpr (F::kind == FieldKind::BytesList || F::kind == FieldKind::Address) {
        resultFormatted(ctx, col.format, QVariant::fromValue(v));
    } else {
        switch (col.format) {
        case Format::Number:
        case Format::Hex:
        case Format::Octal:
        case Format::Duration:
        case Format::Size:
        case Format::Time:
            sqlite3_result_int64(ctx, qint64(v));
            return;
        case Format::YesNo:
            sqlite3_result_int(ctx, v ? 1 : 0);
            return;
        default:
            resultFormatted(ctx, col.format, QVariant::fromValue(v));
            return;
        }
    }
}

template<typename E>
void emitDeclared(sqlite3_context *ctx, const EventCursor<E> &c, const EventColumn<E> &col)
{
    resultFormatted(ctx, col.format, col.declared->value(c.current()));
}

template<typename E>
void emitTimeS(sqlite3_context *ctx, const EventCursor<E> &c, const EventColumn<E> &)
{
    const quint64 t = c.store.template value<FieldAt<E, 0>::member>(c.row);
    sqlite3_result_double(ctx, double(qint64(t - c.shared->startNs)) / 1e9);
}

template<typename E>
void emitLatency(sqlite3_context *ctx, const EventCursor<E> &c, const EventColumn<E> &)
{
    sqlite3_result_int64(ctx, qint64(c.store.template latencyNs<E>(c.row)));
}

// time_ns, time_s, the CSV columns in order, then latency_ns for a type whose declaration sums
// a latency but has no column of that name.
template<typename E>
const std::vector<EventColumn<E>> &eventColumns()
{
    static const std::vector<EventColumn<E>> columns = [] {
        std::vector<EventColumn<E>> out;
        out.push_back({"time_ns", "INTEGER", Format::Time, nullptr, &emitField<E, 0>});
        out.push_back({"time_s", "REAL", Format::Number, nullptr, &emitTimeS<E>});
        for (const Column<E> &declared : EventTraits<E>::columns) {
            if (!(declared.show & InCsv) || !declared.csvName)
                continue;
            EventColumn<E> col{declared.csvName, sqlType(declared.format), declared.format,
                               &declared, &emitDeclared<E>};
            // A column that shows one member as it is reads the member in place.
            forEachField<E>([&]<std::size_t I>() {
                constexpr auto member = FieldAt<E, I>::member;
                QVariant (*plain)(const E &) = &schema::memberValue<member>;
                if (declared.value == plain)
                    col.emit = &emitField<E, I>;
            });
            out.push_back(col);
        }
        if constexpr (hasLatency<E>) {
            const bool named = std::any_of(out.begin(), out.end(),
                                           [](const auto &c) { return c.name == "latency_ns"; });
            if (!named)
                out.push_back(
                    {"latency_ns", "INTEGER", Format::Duration, nullptr, &emitLatency<E>});
        }
        return out;
    }();
    return columns;
}

// idxNum bits of a time range pushed down to the chunks.
enum : int
{
    HasLow = 1,
    LowStrict = 2,
    HasHigh = 4,
    HighStrict = 8,
    Equal = 16,
};

template<typename E>
struct EventTable
{
    struct Vtab : sqlite3_vtab
    {
        QueryConnection *shared;
    };
    using Cursor = EventCursor<E>;

    static QByteArray declaration()
    {
        QByteArray sql = "CREATE TABLE x(";
        bool first = true;
        for (const EventColumn<E> &c : eventColumns<E>()) {
            sql += (first ? "" : ", ") + c.name + ' ' + c.type;
            first = false;
        }
        return sql + ')';
    }

    static int connect(sqlite3 *db, void *aux, int, const char *const *, sqlite3_vtab **out,
                       char **)
    {
        const int rc = sqlite3_declare_vtab(db, declaration().constData());
        if (rc != SQLITE_OK)
            return rc;
        auto *v = new Vtab{};
        v->shared = static_cast<QueryConnection *>(aux);
        *out = v;
        return SQLITE_OK;
    }
    static int disconnect(sqlite3_vtab *v)
    {
        delete static_cast<Vtab *>(v);
        return SQLITE_OK;
    }

    static int bestIndex(sqlite3_vtab *, sqlite3_index_info *info)
    {
        int low = -1, high = -1, equal = -1;
        int flags = 0;
        for (int i = 0; i < info->nConstraint; ++i) {
            const auto &c = info->aConstraint[i];
            if (!c.usable || c.iColumn != 0)
                continue;
            switch (c.op) {
            case SQLITE_INDEX_CONSTRAINT_EQ:
                equal = i;
                break;
            case SQLITE_INDEX_CONSTRAINT_GT:
            case SQLITE_INDEX_CONSTRAINT_GE:
                low = i;
                flags = (flags & ~LowStrict) | (c.op == SQLITE_INDEX_CONSTRAINT_GT ? LowStrict : 0);
                break;
            case SQLITE_INDEX_CONSTRAINT_LT:
            case SQLITE_INDEX_CONSTRAINT_LE:
                high = i;
                flags =
                    (flags & ~HighStrict) | (c.op == SQLITE_INDEX_CONSTRAINT_LT ? HighStrict : 0);
                break;
            default:
                break;
            }
        }
        // SQLite checks every constraint again on each row (omit stays 0): the range only
        // saves decoding chunks and rows that cannot match, so a bound this code does not
        // understand (a REAL, text) is simply not applied.
        int arg = 0;
        if (equal >= 0) {
            info->aConstraintUsage[equal].argvIndex = ++arg;
            info->idxNum = Equal;
            info->estimatedCost = 10;
            info->estimatedRows = 10;
            return SQLITE_OK;
        }
        if (low >= 0) {
            info->aConstraintUsage[low].argvIndex = ++arg;
            flags |= HasLow;
        }
        if (high >= 0) {
            info->aConstraintUsage[high].argvIndex = ++arg;
            flags |= HasHigh;
        }
        info->idxNum = flags;
        const double full = 1e7;
        info->estimatedCost = full / ((low >= 0 ? 4 : 1) * (high >= 0 ? 4 : 1));
        info->estimatedRows = sqlite3_int64(info->estimatedCost);
        return SQLITE_OK;
    }

    static int open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
    {
        auto *c = new Cursor;
        c->shared = static_cast<Vtab *>(v)->shared;
        *out = c;
        return SQLITE_OK;
    }
    static int close(sqlite3_vtab_cursor *cur)
    {
        auto *c = static_cast<Cursor *>(cur);
        sqlite3_finalize(c->chunks);
        delete c;
        return SQLITE_OK;
    }

    // The next chunk that holds a row in [lo, hi]; eof when there is none.
    static int nextChunk(Cursor *c)
    {
        constexpr EventType type = eventTypeOf<E>;
        for (;;) {
            const int rc = sqlite3_step(c->chunks);
            if (rc == SQLITE_DONE) {
                c->eof = true;
                return SQLITE_OK;
            }
            if (rc != SQLITE_ROW) {
                setVtabError(c->pVtab, QStringLiteral("table event_chunks: %1")
                                           .arg(QString::fromUtf8(
                                               sqlite3_errmsg(sqlite3_db_handle(c->chunks)))));
                return rc;
            }
            c->seq = sqlite3_column_int64(c->chunks, 0);
            // A join that looks up time_ns once per outer row filters again and again; the
            // chunk it lands in is usually the one already decoded (chunks never change once
            // written), and then its blob is not even read.
            if (c->seq != c->decodedSeq) {
                c->decodedSeq = -1;
                c->eventRow = -1;
                c->store = c->shared->strings;
                StoredChunk chunk;
                chunk.type = int(type);
                chunk.count = sqlite3_column_int64(c->chunks, 1);
                const auto *data = static_cast<const char *>(sqlite3_column_blob(c->chunks, 2));
                chunk.data = QByteArrayView(data, sqlite3_column_bytes(c->chunks, 2));
                chunk.firstNs = quint64(sqlite3_column_int64(c->chunks, 3));
                chunk.lastNs = quint64(sqlite3_column_int64(c->chunks, 4));
                chunk.hasChecksum = c->shared->chunkChecksums;
                chunk.hasCgroups = c->shared->cgroupColumns;
                chunk.checksum = sqlite3_column_type(c->chunks, 5) == SQLITE_INTEGER
                                     ? sqlite3_column_int64(c->chunks, 5)
                                     : -1;
                QString why;
                if (EventChunkCodec::decodeStored(chunk, c->shared->stringIds, &c->store, &why) !=
                    ChunkCheck::Ok) {
                    setVtabError(c->pVtab,
                                 QStringLiteral("the session is damaged (table event_chunks, row "
                                                "%1: %2 chunk: %3)")
                                     .arg(c->seq)
                                     .arg(QLatin1String(EventTraits<E>::probeId), why));
                    return SQLITE_CORRUPT;
                }
                c->decodedSeq = c->seq;
            }
            // The decoder sorts a chunk by time: the rows in range are one run of it.
            const auto times = c->store.timeColumn(type);
            c->row = 0;
            c->end = times.count;
            if (c->end > 0 && c->lo > 0)
                c->row = c->store.lowerBound(type, quint64(c->lo));
            // Times at or above 2^63 are negative in SQL: only cut the end off when none is.
            if (c->end > 0 && c->hi >= 0 && qint64(times[times.count - 1]) >= 0 &&
                c->hi < std::numeric_limits<qint64>::max())
                c->end = c->store.lowerBound(type, quint64(c->hi) + 1);
            if (c->row < c->end) {
                c->eof = false;
                return SQLITE_OK;
            }
        }
    }

    static int filter(sqlite3_vtab_cursor *cur, int idxNum, const char *, int argc,
                      sqlite3_value **argv)
    {
        auto *c = static_cast<Cursor *>(cur);
        c->eof = true;
        c->lo = std::numeric_limits<qint64>::min();
        c->hi = std::numeric_limits<qint64>::max();
        int arg = 0;
        auto integer = [&](qint64 *v) {
            if (arg >= argc)
                return false;
            sqlite3_value *value = argv[arg++];
            if (sqlite3_value_numeric_type(value) != SQLITE_INTEGER)
                return false;
            *v = sqlite3_value_int64(value);
            return true;
        };
        qint64 v = 0;
        if (idxNum & Equal) {
            if (integer(&v))
                c->lo = c->hi = v;
        }
        if ((idxNum & HasLow) && integer(&v)) {
            if ((idxNum & LowStrict) && v == std::numeric_limits<qint64>::max())
                return SQLITE_OK; // nothing is greater
            c->lo = (idxNum & LowStrict) ? v + 1 : v;
        }
        if ((idxNum & HasHigh) && integer(&v)) {
            if ((idxNum & HighStrict) && v == std::numeric_limits<qint64>::min())
                return SQLITE_OK;
            c->hi = (idxNum & HighStrict) ? v - 1 : v;
        }
        QString error;
        if (!c->shared->loadStrings(&error)) {
            setVtabError(c->pVtab, QStringLiteral("the session is damaged (%1)").arg(error));
            return SQLITE_CORRUPT;
        }
        sqlite3 *db = c->shared->db;
        if (!c->chunks) {
            // first_ns/last_ns as the writer recorded them; a chunk whose range is missing or
            // reaches past 2^63 (negative here) is always read.
            const char *sql = c->shared->chunkChecksums
                                  ? "SELECT seq, count, data, first_ns, last_ns, crc FROM "
                                    "event_chunks WHERE type = ?1 AND NOT "
                                    "coalesce(first_ns >= 0 AND last_ns >= 0 AND "
                                    "(last_ns < ?2 OR first_ns > ?3), 0) ORDER BY seq"
                                  : "SELECT seq, count, data, first_ns, last_ns, NULL FROM "
                                    "event_chunks WHERE type = ?1 AND NOT "
                                    "coalesce(first_ns >= 0 AND last_ns >= 0 AND "
                                    "(last_ns < ?2 OR first_ns > ?3), 0) ORDER BY seq";
            if (sqlite3_prepare_v2(db, sql, -1, &c->chunks, nullptr) != SQLITE_OK) {
                setVtabError(c->pVtab, QStringLiteral("table event_chunks: %1")
                                           .arg(QString::fromUtf8(sqlite3_errmsg(db))));
                return SQLITE_ERROR;
            }
        }
        sqlite3_reset(c->chunks);
        sqlite3_bind_int(c->chunks, 1, int(eventTypeOf<E>));
        sqlite3_bind_int64(c->chunks, 2, c->lo);
        sqlite3_bind_int64(c->chunks, 3, c->hi);
        if (c->lo > c->hi)
            return SQLITE_OK;
        return nextChunk(c);
    }

    static int next(sqlite3_vtab_cursor *cur)
    {
        auto *c = static_cast<Cursor *>(cur);
        if (++c->row < c->end)
            return SQLITE_OK;
        return nextChunk(c);
    }
    static int eof(sqlite3_vtab_cursor *cur) { return static_cast<Cursor *>(cur)->eof; }
    static int column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
    {
        const auto *c = static_cast<const Cursor *>(cur);
        const auto &columns = eventColumns<E>();
        if (i < 0 || size_t(i) >= columns.size()) {
            sqlite3_result_null(ctx);
            return SQLITE_OK;
        }
        const EventColumn<E> &col = columns[size_t(i)];
        col.emit(ctx, *c, col);
        return SQLITE_OK;
    }
    static int rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *id)
    {
        const auto *c = static_cast<const Cursor *>(cur);
        *id = (c->seq << 32) | c->row;
        return SQLITE_OK;
    }

    static const sqlite3_module module;
};

// xCreate null: eponymous-only, the table exists in every connection under the module's name
// and cannot be created or dropped. No xUpdate: read-only.
template<typename E>
const sqlite3_module EventTable<E>::module = [] {
    sqlite3_module m{};
    m.xConnect = &connect;
    m.xBestIndex = &bestIndex;
    m.xDisconnect = &disconnect;
    m.xDestroy = &disconnect;
    m.xOpen = &open;
    m.xClose = &close;
    m.xFilter = &filter;
    m.xNext = &next;
    m.xEof = &eof;
    m.xColumn = &column;
    m.xRowid = &rowid;
    return m;
}();

// ---- tables that expand a blob of a plain table into rows ------------------------------------

struct ExpandDefinition
{
    const char *name;
    const char *description;
    const char *declaration; // CREATE TABLE x(...)
    const char *source;      // the plain table's rows
    const char *table;       // its name, for messages; a file without it has no rows
    // Appends the rows one source row expands to; false with *error for a malformed row.
    bool (*expand)(sqlite3_stmt *source, std::vector<QVariantList> *rows, QString *error);
};

bool expandHistogram(sqlite3_stmt *st, std::vector<QVariantList> *rows, QString *error)
{
    const qint64 unit = sqlite3_column_int64(st, 5);
    if (unit < 0 || unit > int(LastHistogramUnit)) {
        *error = QStringLiteral("unit %1 is not known").arg(unit);
        return false;
    }
    const int bytes = sqlite3_column_bytes(st, 6);
    const auto *p = static_cast<const quint8 *>(sqlite3_column_blob(st, 6));
    if (bytes % 8 != 0 || bytes > Log2Histogram::MaxSlots * 8) {
        *error = QStringLiteral("slots of %1 bytes are not up to %2 counts of 8 bytes")
                     .arg(bytes)
                     .arg(Log2Histogram::MaxSlots);
        return false;
    }
    const QVariant probe = QString::fromUtf8(
        reinterpret_cast<const char *>(sqlite3_column_text(st, 1)), sqlite3_column_bytes(st, 1));
    const QVariant key = QString::fromUtf8(
        reinterpret_cast<const char *>(sqlite3_column_text(st, 2)), sqlite3_column_bytes(st, 2));
    const QVariant time = qint64(sqlite3_column_int64(st, 3));
    const QVariant interval = qint64(sqlite3_column_int64(st, 4));
    const QVariant unitName = histogramUnitName(HistogramUnit(unit));
    for (int slot = 0; slot < bytes / 8; ++slot) {
        quint64 count = 0;
        for (int b = 7; b >= 0; --b)
            count = (count << 8) | p[slot * 8 + b];
        rows->push_back({probe, key, time, interval, unitName, slot,
                         qint64(Log2Histogram::slotLow(slot)),
                         qint64(Log2Histogram::slotHigh(slot)), qint64(count)});
    }
    return true;
}

bool expandStack(sqlite3_stmt *st, std::vector<QVariantList> *rows, QString *error)
{
    const QVariant id = qint64(sqlite3_column_int64(st, 1));
    const QVariant flags = qint64(sqlite3_column_int64(st, 2));
    const auto *p = static_cast<const uchar *>(sqlite3_column_blob(st, 3));
    const uchar *end = p + sqlite3_column_bytes(st, 3);
    for (qint64 depth = 0; p < end; ++depth) {
        quint64 frame = 0;
        if (getVarint(p, end, &frame) != VarintRead::Ok || frame > 0xffffffffu) {
            *error = QStringLiteral("frame %1 is not a valid frame id").arg(depth + 1);
            return false;
        }
        rows->push_back({id, flags, depth, qint64(frame)});
    }
    return true;
}

// Views over the event tables, made in the connection's temporary schema. wakeups: every wait
// a recorded wakeup ended (the threadstate probe's blocked spans with a waker), one row per
// wakeup at its time, for joins by waker.
struct ViewDefinition
{
    const char *name;
    const char *description;
    const char *columns; // as the view names them, "name TYPE, ..."
    const char *select;
};

const ViewDefinition viewDefinitions[] = {
    {"wakeups",
     "every wakeup that ended a recorded thread's wait (table threadstate's waits with a waker), "
     "at the wakeup's time",
     "time_ns INTEGER, pid INTEGER, tid INTEGER, comm TEXT, state TEXT, reason TEXT, "
     "blocked_ns INTEGER, cpu INTEGER, stack_id INTEGER, waker_pid INTEGER, waker_tid INTEGER, "
     "waker_comm TEXT, waker_stack_id INTEGER",
     "SELECT time_ns + dur_ns, pid, tid, comm, state, reason, dur_ns, cpu, stack_id, waker_pid, "
     "waker_tid, waker_comm, waker_stack_id FROM threadstate "
     "WHERE state IN ('sleeping', 'uninterruptible', 'stopped') AND waker_comm != ''"},
};

const ExpandDefinition expandDefinitions[] = {
    {"histogram_buckets",
     "the slots of each histogram snapshot (table histograms), one row per slot",
     "CREATE TABLE x(probe_id TEXT, key TEXT, time_ns INTEGER, interval_ns INTEGER, unit TEXT, "
     "slot INTEGER, bucket_low INTEGER, bucket_high INTEGER, count INTEGER)",
     "SELECT rowid, probe_id, key, time_ns, interval_ns, unit, slots FROM histograms "
     "ORDER BY rowid",
     "histograms", &expandHistogram},
    {"stack_entries",
     "the frames of each stack (table stacks), leaf first (depth 0), one row per frame",
     "CREATE TABLE x(stack_id INTEGER, flags INTEGER, depth INTEGER, frame_id INTEGER)",
     "SELECT id, id, flags, frames FROM stacks ORDER BY id", "stacks", &expandStack},
};

struct ExpandVtab : sqlite3_vtab
{
    const ExpandDefinition *definition;
    sqlite3 *db;
};

bool hasTable(sqlite3 *db, const char *table)
{
    sqlite3_stmt *st = nullptr;
    bool found = false;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1", -1,
                           &st, nullptr) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
        found = sqlite3_step(st) == SQLITE_ROW;
    }
    sqlite3_finalize(st);
    return found;
}

struct ExpandCursor : sqlite3_vtab_cursor
{
    sqlite3_stmt *source = nullptr;
    std::vector<QVariantList> rows;
    size_t row = 0;
    qint64 rowid = 0;
    bool eof = true;
};

int expandConnect(sqlite3 *db, void *aux, int, const char *const *, sqlite3_vtab **out, char **)
{
    const auto *d = static_cast<const ExpandDefinition *>(aux);
    const int rc = sqlite3_declare_vtab(db, d->declaration);
    if (rc != SQLITE_OK)
        return rc;
    auto *v = new ExpandVtab{};
    v->definition = d;
    v->db = db;
    *out = v;
    return SQLITE_OK;
}
int expandDisconnect(sqlite3_vtab *v)
{
    delete static_cast<ExpandVtab *>(v);
    return SQLITE_OK;
}
int expandBestIndex(sqlite3_vtab *, sqlite3_index_info *info)
{
    info->estimatedCost = 1e5;
    return SQLITE_OK;
}
int expandOpen(sqlite3_vtab *, sqlite3_vtab_cursor **out)
{
    *out = new ExpandCursor;
    return SQLITE_OK;
}
int expandClose(sqlite3_vtab_cursor *cur)
{
    auto *c = static_cast<ExpandCursor *>(cur);
    sqlite3_finalize(c->source);
    delete c;
    return SQLITE_OK;
}
int expandFill(ExpandCursor *c)
{
    const ExpandDefinition *d = static_cast<ExpandVtab *>(c->pVtab)->definition;
    while (c->row >= c->rows.size()) {
        c->rows.clear();
        c->row = 0;
        const int rc = sqlite3_step(c->source);
        if (rc == SQLITE_DONE) {
            c->eof = true;
            return SQLITE_OK;
        }
        if (rc != SQLITE_ROW) {
            setVtabError(c->pVtab,
                         QStringLiteral("table %1: %2")
                             .arg(QLatin1String(d->table),
                                  QString::fromUtf8(sqlite3_errmsg(sqlite3_db_handle(c->source)))));
            return rc;
        }
        QString why;
        if (!d->expand(c->source, &c->rows, &why)) {
            setVtabError(c->pVtab, QStringLiteral("the session is damaged (table %1, row %2: %3)")
                                       .arg(QLatin1String(d->table))
                                       .arg(sqlite3_column_int64(c->source, 0))
                                       .arg(why));
            return SQLITE_CORRUPT;
        }
    }
    c->eof = false;
    return SQLITE_OK;
}
int expandFilter(sqlite3_vtab_cursor *cur, int, const char *, int, sqlite3_value **)
{
    auto *c = static_cast<ExpandCursor *>(cur);
    const auto *v = static_cast<ExpandVtab *>(c->pVtab);
    c->eof = true;
    c->rows.clear();
    c->row = 0;
    c->rowid = 0;
    if (!c->source) {
        if (sqlite3_prepare_v2(v->db, v->definition->source, -1, &c->source, nullptr) !=
            SQLITE_OK) {
            // Files written before the table existed (stacks) simply have no rows.
            if (!hasTable(v->db, v->definition->table))
                return SQLITE_OK;
            setVtabError(c->pVtab, QStringLiteral("table %1: %2")
                                       .arg(QLatin1String(v->definition->table),
                                            QString::fromUtf8(sqlite3_errmsg(v->db))));
            return SQLITE_ERROR;
        }
    }
    sqlite3_reset(c->source);
    return expandFill(c);
}
int expandNext(sqlite3_vtab_cursor *cur)
{
    auto *c = static_cast<ExpandCursor *>(cur);
    ++c->row;
    ++c->rowid;
    return expandFill(c);
}
int expandEof(sqlite3_vtab_cursor *cur)
{
    return static_cast<ExpandCursor *>(cur)->eof;
}
int expandColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i)
{
    const auto *c = static_cast<const ExpandCursor *>(cur);
    const QVariantList &row = c->rows[c->row];
    resultVariant(ctx, i >= 0 && i < row.size() ? row.at(i) : QVariant());
    return SQLITE_OK;
}
int expandRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *id)
{
    *id = static_cast<ExpandCursor *>(cur)->rowid;
    return SQLITE_OK;
}

const sqlite3_module expandModule = [] {
    sqlite3_module m{};
    m.xConnect = &expandConnect;
    m.xBestIndex = &expandBestIndex;
    m.xDisconnect = &expandDisconnect;
    m.xDestroy = &expandDisconnect;
    m.xOpen = &expandOpen;
    m.xClose = &expandClose;
    m.xFilter = &expandFilter;
    m.xNext = &expandNext;
    m.xEof = &expandEof;
    m.xColumn = &expandColumn;
    m.xRowid = &expandRowid;
    return m;
}();

} // namespace

SessionQuery::SessionQuery() = default;

SessionQuery::~SessionQuery()
{
    close();
}

void SessionQuery::close()
{
    if (m_db)
        sqlite3_close_v2(m_db);
    m_db = nullptr;
    delete m_shared;
    m_shared = nullptr;
}

bool SessionQuery::open(const QString &path, QString *error)
{
    close();
    auto refuse = [&](const QString &why) {
        close();
        if (error)
            *error = why;
        return false;
    };
    const QFileInfo info(path);
    if (!info.exists())
        return refuse(QStringLiteral("cannot open %1: no such file").arg(path));
    if (info.isDir())
        return refuse(QStringLiteral("cannot open %1: it is a directory").arg(path));
    if (QString special; !isOpenableSessionPath(path, &special))
        return refuse(special);
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return refuse(QStringLiteral("cannot open %1: %2").arg(path, f.errorString()));
        if (f.read(16) != QByteArrayLiteral("SQLite format 3\0"))
            return refuse(
                QStringLiteral("not a BPF Lens session: %1 is not an SQLite database").arg(path));
    }
    // A session still being recorded is in WAL mode and needs the -shm index next to it. In a
    // directory we cannot write, SQLite cannot create that; without WAL content there is nothing
    // to index and the file is read as immutable; a WAL we cannot read is reported, as
    // SessionReader does, rather than silently ignored.
    const QString uri = QUrl::fromLocalFile(info.absoluteFilePath()).toString(QUrl::FullyEncoded);
    const bool hasWal = QFileInfo(path + QStringLiteral("-wal")).size() > 0;
    int rc = SQLITE_OK;
    for (const char *mode : {"?mode=ro", "?immutable=1"}) {
        close();
        const QByteArray name = uri.toUtf8() + mode;
        if (sqlite3_open_v2(name.constData(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                            nullptr) != SQLITE_OK)
            return refuse(QStringLiteral("cannot open %1: %2")
                              .arg(path, QString::fromUtf8(sqlite3_errmsg(m_db))));
        // The file is untrusted: nothing in its schema may run functions with side effects,
        // it cannot attach other files or load extensions, and nothing is written.
        sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
        sqlite3_db_config(m_db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
        sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
        sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
        sqlite3_limit(m_db, SQLITE_LIMIT_ATTACHED, 0);
        sqlite3_exec(m_db, "PRAGMA query_only = ON; PRAGMA cell_size_check = ON", nullptr, nullptr,
                     nullptr);
        sqlite3_stmt *st = nullptr;
        rc = sqlite3_prepare_v2(m_db, "PRAGMA application_id", -1, &st, nullptr);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
        sqlite3_finalize(st);
        if ((rc & 0xff) != SQLITE_CANTOPEN && (rc & 0xff) != SQLITE_READONLY)
            break;
        if (hasWal)
            return refuse(QStringLiteral("cannot open %1: it was not closed properly (it is still "
                                         "being recorded, or the recorder crashed) and its "
                                         "directory is not writable, so SQLite cannot read its "
                                         "write-ahead log; copy %1 and %1-wal to a writable "
                                         "directory")
                              .arg(path));
    }
    auto pragma = [&](const char *sql, qint64 *value) {
        sqlite3_stmt *st = nullptr;
        bool ok = sqlite3_prepare_v2(m_db, sql, -1, &st, nullptr) == SQLITE_OK &&
                  sqlite3_step(st) == SQLITE_ROW;
        if (ok)
            *value = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        return ok;
    };
    qint64 appId = 0, schema = 0;
    if (!pragma("PRAGMA application_id", &appId) || !pragma("PRAGMA user_version", &schema))
        return refuse(QStringLiteral("%1 is damaged (%2); it cannot be read")
                          .arg(path, QString::fromUtf8(sqlite3_errmsg(m_db))));
    if (appId != SessionApplicationId)
        return refuse(QStringLiteral(
                          "not a BPF Lens session: %1 is an SQLite database of another application")
                          .arg(path));
    if (schema > SessionSchemaVersion)
        return refuse(QStringLiteral("cannot open %1: it was written by a newer BPF Lens (schema "
                                     "%2, this version reads up to %3)")
                          .arg(path)
                          .arg(schema)
                          .arg(SessionSchemaVersion));
    if (schema < 2)
        return refuse(QStringLiteral("cannot query %1: it is a schema %2 session; SQL needs "
                                     "schema 2 (open it and save it again, or recover it into "
                                     "a new file)")
                          .arg(path)
                          .arg(schema));
    m_shared = new QueryConnection;
    m_shared->db = m_db;
    qint64 start = 0;
    {
        sqlite3_stmt *st = nullptr;
        if (sqlite3_prepare_v2(m_db, "SELECT value FROM meta WHERE key = 'start_monotonic_ns'", -1,
                               &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            start = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    m_shared->startNs = quint64(start);
    // As SessionReader: checked wherever the columns are; a schema 3 file without them is
    // damaged.
    const auto hasColumn = [&](const char *sql) {
        sqlite3_stmt *st = nullptr;
        const bool ok = sqlite3_prepare_v2(m_db, sql, -1, &st, nullptr) == SQLITE_OK;
        sqlite3_finalize(st);
        return ok;
    };
    m_shared->chunkChecksums = hasColumn("SELECT crc FROM event_chunks LIMIT 0");
    m_shared->stringChecksums = hasColumn("SELECT crc FROM strings LIMIT 0");
    m_shared->cgroupColumns = schema >= 4;
    if (schema >= 3 && (!m_shared->chunkChecksums || !m_shared->stringChecksums))
        return refuse(QStringLiteral("%1 is damaged (its checksum columns are missing); it "
                                     "cannot be read")
                          .arg(path));
    rc = SQLITE_OK;
    forEachEventType([&]<typename E>() {
        if (rc == SQLITE_OK)
            rc = sqlite3_create_module_v2(m_db, EventTraits<E>::probeId, &EventTable<E>::module,
                                          m_shared, nullptr);
    });
    for (const ExpandDefinition &d : expandDefinitions) {
        if (rc == SQLITE_OK)
            rc = sqlite3_create_module_v2(m_db, d.name, &expandModule,
                                          const_cast<ExpandDefinition *>(&d), nullptr);
    }
    // Sessions from before schema 4 have no cgroups table: an empty one lets the same join run
    // on them (their events' cgroup_id is 0, unknown).
    // The file stays untouched: the table is in the connection's temporary schema, made in
    // the one moment the connection may write.
    if (rc == SQLITE_OK && schema < 4)
        rc = sqlite3_exec(m_db,
                          "PRAGMA query_only = OFF; "
                          "CREATE TEMP TABLE cgroups(id INTEGER PRIMARY KEY, path BLOB NOT NULL, "
                          "container TEXT NOT NULL, runtime TEXT NOT NULL, pod TEXT NOT NULL, "
                          "unit TEXT NOT NULL); "
                          "PRAGMA query_only = ON",
                          nullptr, nullptr, nullptr);
    for (const ViewDefinition &v : viewDefinitions) {
        if (rc != SQLITE_OK)
            break;
        QByteArray names;
        for (const QByteArray &c : QByteArray(v.columns).split(','))
            names += (names.isEmpty() ? "" : ", ") + c.trimmed().split(' ').first();
        const QByteArray sql = "PRAGMA query_only = OFF; CREATE TEMP VIEW " + QByteArray(v.name) +
                               '(' + names + ") AS " + v.select + "; PRAGMA query_only = ON";
        rc = sqlite3_exec(m_db, sql.constData(), nullptr, nullptr, nullptr);
    }
    if (rc != SQLITE_OK)
        return refuse(QStringLiteral("cannot query %1: %2")
                          .arg(path, QString::fromUtf8(sqlite3_errmsg(m_db))));
    // The virtual tables read chunks through this connection, under the same limit: it must
    // let the file's own longest chunk through. length() reads no overflow page.
    qint64 longest = 0;
    {
        sqlite3_stmt *st = nullptr;
        if (sqlite3_prepare_v2(m_db, "SELECT max(length(data)) FROM event_chunks", -1, &st,
                               nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            longest = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_limit(
        m_db, SQLITE_LIMIT_LENGTH,
        int(std::clamp<qint64>(longest + 4096, DefaultMaxLength, std::numeric_limits<int>::max())));
    return true;
}

int SessionQuery::maxLength() const
{
    return m_db ? sqlite3_limit(m_db, SQLITE_LIMIT_LENGTH, -1) : DefaultMaxLength;
}

int SessionQuery::progress(void *self)
{
    auto *q = static_cast<SessionQuery *>(self);
    if (q->m_cancel && q->m_cancel->load(std::memory_order_relaxed))
        return 1;
    if (q->m_timeLimitMs > 0 && q->m_running.elapsed() >= q->m_timeLimitMs) {
        q->m_timedOut = true;
        return 1;
    }
    return 0;
}

bool SessionQuery::exec(const QString &sql, QStringList *columns, const Row &row, QString *error)
{
    m_failure = Failure::None;
    auto refuse = [&](const QString &why, Failure kind = Failure::Statement) {
        m_failure = kind;
        if (error)
            *error = why;
        return false;
    };
    // What an SQLite error code means for the caller. A stop asked for wins over the code:
    // a virtual table interrupted while reading the strings reports the file as damaged.
    auto refuseCode = [&](int rc, const QString &message) {
        if (m_cancel && m_cancel->load())
            return refuse(QStringLiteral("the query was cancelled"), Failure::Cancelled);
        if (m_timedOut)
            return refuse(QStringLiteral("the query ran longer than its time limit of %1 s")
                              .arg(double(m_timeLimitMs) / 1000.0),
                          Failure::TimedOut);
        switch (rc & 0xff) {
        case SQLITE_TOOBIG:
            return refuse(QStringLiteral("a string or BLOB would be longer than %1 bytes, the "
                                         "most a query may make (%2)")
                              .arg(maxLength())
                              .arg(message),
                          Failure::TooBig);
        case SQLITE_CORRUPT:
        case SQLITE_NOTADB:
            return refuse(message, Failure::Damaged);
        default:
            return refuse(message);
        }
    };
    if (!m_db)
        return refuse(QStringLiteral("no session is open"));
    const QByteArray utf8 = sql.toUtf8();
    sqlite3_stmt *st = nullptr;
    const char *tail = nullptr;
    m_timedOut = false;
    if (const int rc = sqlite3_prepare_v2(m_db, utf8.constData(), int(utf8.size()), &st, &tail);
        rc != SQLITE_OK)
        return refuseCode(rc, QString::fromUtf8(sqlite3_errmsg(m_db)));
    if (!st)
        return refuse(QStringLiteral("the query is empty"));
    if (!QByteArray(tail).trimmed().isEmpty() && QByteArray(tail).trimmed() != ";") {
        sqlite3_finalize(st);
        return refuse(QStringLiteral("give one statement at a time"));
    }
    if (!sqlite3_stmt_readonly(st)) {
        sqlite3_finalize(st);
        return refuse(QStringLiteral("a query cannot change the session: only reading "
                                     "statements (SELECT, WITH, read-only PRAGMAs) run"));
    }
    const int n = sqlite3_column_count(st);
    if (columns) {
        columns->clear();
        for (int i = 0; i < n; ++i)
            columns->append(QString::fromUtf8(sqlite3_column_name(st, i)));
    }
    QVariantList values(n);
    const bool watched = m_timeLimitMs > 0 || m_cancel;
    if (watched) {
        m_running.start();
        sqlite3_progress_handler(m_db, 1000, &SessionQuery::progress, this);
    }
    // Whatever way exec() returns, the handler goes with it (the GUI may install its own).
    const auto unwatch = qScopeGuard([&] {
        if (watched)
            sqlite3_progress_handler(m_db, 0, nullptr, nullptr);
    });
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        for (int i = 0; i < n; ++i) {
            switch (sqlite3_column_type(st, i)) {
            case SQLITE_INTEGER:
                values[i] = qint64(sqlite3_column_int64(st, i));
                break;
            case SQLITE_FLOAT:
                values[i] = sqlite3_column_double(st, i);
                break;
            case SQLITE_TEXT:
                values[i] =
                    QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, i)),
                                      sqlite3_column_bytes(st, i));
                break;
            case SQLITE_BLOB:
                values[i] = QByteArray(static_cast<const char *>(sqlite3_column_blob(st, i)),
                                       sqlite3_column_bytes(st, i));
                break;
            default:
                values[i] = QVariant();
                break;
            }
        }
        if (row && !row(values)) {
            sqlite3_finalize(st);
            return true;
        }
    }
    const QString message = QString::fromUtf8(sqlite3_errmsg(m_db));
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return refuseCode(rc, message);
    return true;
}

QList<SessionQuery::Table> SessionQuery::virtualTables()
{
    QList<Table> out;
    forEachEventType([&]<typename E>() {
        Table t{QString::fromLatin1(EventTraits<E>::probeId),
                QStringLiteral("events"),
                QString::fromUtf8(EventTraits<E>::title),
                {}};
        for (const EventColumn<E> &c : eventColumns<E>())
            t.columns.append({QString::fromLatin1(c.name), QString::fromLatin1(c.type)});
        out.append(t);
    });
    for (const ExpandDefinition &d : expandDefinitions) {
        Table t{QString::fromLatin1(d.name),
                QStringLiteral("virtual"),
                QString::fromUtf8(d.description),
                {}};
        // "CREATE TABLE x(a TEXT, b INTEGER)": the columns as declared.
        const QString decl = QString::fromLatin1(d.declaration);
        const qsizetype open = decl.indexOf(u'(');
        for (const QString &c : decl.mid(open + 1, decl.size() - open - 2).split(u',')) {
            const QStringList words = c.trimmed().split(u' ');
            t.columns.append({words.value(0), words.value(1)});
        }
        out.append(t);
    }
    for (const ViewDefinition &v : viewDefinitions) {
        Table t{QString::fromLatin1(v.name),
                QStringLiteral("view"),
                QString::fromUtf8(v.description),
                {}};
        for (const QByteArray &c : QByteArray(v.columns).split(',')) {
            const QList<QByteArray> words = c.trimmed().split(' ');
            t.columns.append(
                {QString::fromLatin1(words.value(0)), QString::fromLatin1(words.value(1))});
        }
        out.append(t);
    }
    return out;
}

QList<SessionQuery::Table> SessionQuery::tables() const
{
    QList<Table> out = virtualTables();
    if (!m_db)
        return out;
    sqlite3_stmt *st = nullptr;
    if (sqlite3_prepare_v2(m_db,
                           "SELECT s.name, p.name, p.type FROM sqlite_schema AS s, "
                           "pragma_table_info(s.name) AS p WHERE s.type = 'table' AND s.name "
                           "NOT LIKE 'sqlite_%' ORDER BY s.rowid, p.cid",
                           -1, &st, nullptr) != SQLITE_OK)
        return out;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const QString table =
            QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, 0)));
        if (out.isEmpty() || out.last().name != table || out.last().kind != QLatin1String("table"))
            out.append({table, QStringLiteral("table"), QString(), {}});
        out.last().columns.append(
            {QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, 1))),
             QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, 2)))});
    }
    sqlite3_finalize(st);
    return out;
}

} // namespace bpflens
