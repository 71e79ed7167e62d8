#include "core/sessionsalvage.h"

#include "core/counttext.h"
#include "core/varint.h"

#include "core/eventchunk.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>
#include <QtEndian>

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <vector>

namespace bpflens {

namespace {

// The rows of one table that could not be read: single rowids or ranges, and possibly an
// unreadable tail whose extent is unknown.
struct ScanResult
{
    bool missing = false; // the table itself cannot be found or prepared
    qint64 read = 0;
    qint64 lost = 0; // rowids known to be lost (gaps between readable rows)
    QList<std::pair<qint64, qint64>> gaps;
    bool tailLost = false; // reading stopped at an unreadable part with no readable row after
    qint64 tailFrom = 0;
    bool implausible = false; // a damaged key pointed far past anything the file can hold
};

QByteArray blob(sqlite3_stmt *st, int column)
{
    const auto *p = static_cast<const char *>(sqlite3_column_blob(st, column));
    return p ? QByteArray(p, sqlite3_column_bytes(st, column)) : QByteArray();
}

QString rangeText(const QList<std::pair<qint64, qint64>> &gaps, bool tailLost, qint64 tailFrom)
{
    QStringList parts;
    for (const auto &[a, b] : gaps) {
        if (parts.size() == 5) {
            parts << QStringLiteral("…");
            break;
        }
        parts << (a == b ? QString::number(a) : QStringLiteral("%1–%2").arg(a).arg(b));
    }
    if (tailLost)
        parts << QStringLiteral("%1 and after").arg(tailFrom);
    return parts.join(QStringLiteral(", "));
}

class Salvager
{
public:
    Salvager(const QString &path, SessionData *data, const SessionReader::Progress &progress)
        : m_path(path)
        , m_data(data)
        , m_progress(progress)
    {
    }
    ~Salvager()
    {
        if (m_db)
            sqlite3_close_v2(m_db);
    }

    bool run(const QString &reason, QString *error);

private:
    bool openDatabase(bool immutable);
    // Runs a one-value query; false when it cannot be read.
    bool value(const char *sql, sqlite3_int64 *out);
    bool tableExists(const char *table);
    // Whether the table has these columns (comma-separated): the query prepares only then.
    bool columnsExist(const char *table, const char *columns);
    int probe(const QByteArray &table, qint64 from, qint64 *rowid);
    int nextReadable(const QByteArray &table, qint64 from, qint64 *rowid, bool *direct);
    ScanResult scan(const char *table, const char *columns,
                    const std::function<void(sqlite3_stmt *)> &row);
    // The keys from..to that can be reached from the end backwards, highest first.
    std::vector<qint64> keysBackwards(const QByteArray &table, qint64 from, qint64 to);
    // Reads the rows of these keys (lowest first); keys whose rows cannot be read go to
    // *unreadable.
    void readKeys(const QByteArray &table, const char *columns, const std::vector<qint64> &keys,
                  const std::function<void(sqlite3_stmt *)> &row, qint64 *read,
                  std::vector<qint64> *unreadable);
    bool tick();
    QString timeText(quint64 ns) const;
    void note(const QString &table, const ScanResult &r, const QString &what);

    void loadMeta();
    void loadProbes();
    void loadCgroups();
    void loadStrings();
    void loadChunks();
    void loadSamples();
    void loadStacks();

    QString m_path;
    SessionData *m_data;
    const SessionReader::Progress &m_progress;
    sqlite3 *m_db = nullptr;
    bool m_cancelled = false;
    qint64 m_done = 0;
    qint64 m_fileBytes = 0;
    std::vector<quint32> m_stringMap;
    bool m_chunkChecksums = false; // schema 3 (event_chunks.crc, strings.crc)
    bool m_stringChecksums = false;
};

bool Salvager::openDatabase(bool immutable)
{
    if (m_db)
        sqlite3_close_v2(m_db);
    m_db = nullptr;
    const QByteArray uri =
        QByteArrayLiteral("file:") +
        QUrl::toPercentEncoding(QFileInfo(m_path).absoluteFilePath(), "/") +
        (immutable ? QByteArrayLiteral("?immutable=1") : QByteArrayLiteral("?mode=ro"));
    if (sqlite3_open_v2(uri.constData(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) !=
        SQLITE_OK)
        return false;
    // Damage is found where it is met rather than trusted: check cell sizes on every page.
    // writable_schema (nothing is written: the connection is read-only) makes SQLite take a
    // file shorter than its header says as it is instead of refusing it whole.
    sqlite3_exec(m_db, "PRAGMA cell_size_check = ON; PRAGMA writable_schema = ON", nullptr, nullptr,
                 nullptr);
    return true;
}

bool Salvager::value(const char *sql, sqlite3_int64 *out)
{
    sqlite3_stmt *st = nullptr;
    if (sqlite3_prepare_v2(m_db, sql, -1, &st, nullptr) != SQLITE_OK) {
        sqlite3_finalize(st);
        return false;
    }
    const int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW;
}

bool Salvager::tableExists(const char *table)
{
    sqlite3_stmt *st = nullptr;
    const QByteArray sql = QByteArrayLiteral("SELECT 1 FROM ") + table + " LIMIT 0";
    const bool ok = sqlite3_prepare_v2(m_db, sql.constData(), -1, &st, nullptr) == SQLITE_OK;
    sqlite3_finalize(st);
    return ok;
}

bool Salvager::columnsExist(const char *table, const char *columns)
{
    sqlite3_stmt *st = nullptr;
    const QByteArray sql = QByteArrayLiteral("SELECT ") + columns + " FROM " + table + " LIMIT 0";
    const bool ok = sqlite3_prepare_v2(m_db, sql.constData(), -1, &st, nullptr) == SQLITE_OK;
    sqlite3_finalize(st);
    return ok;
}

// The first rowid at or after from, reading nothing but the B-tree's keys: SQLITE_ROW with
// *rowid, SQLITE_DONE when there is none, anything else when the way there is damaged.
int Salvager::probe(const QByteArray &table, qint64 from, qint64 *rowid)
{
    const QByteArray sql = QByteArrayLiteral("SELECT rowid FROM ") + table +
                           " WHERE rowid >= ?1 ORDER BY rowid LIMIT 1";
    sqlite3_stmt *st = nullptr;
    int rc = sqlite3_prepare_v2(m_db, sql.constData(), -1, &st, nullptr);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, from);
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW)
            *rowid = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return rc;
}

// The first rowid at or after from that can be reached. When the seek to from fails, a seek
// further on is tried at growing distances until one works, then the distance is halved back
// to the nearest place where seeking works again: one damaged page costs its own rows.
int Salvager::nextReadable(const QByteArray &table, qint64 from, qint64 *rowid, bool *direct)
{
    int rc = probe(table, from, rowid);
    *direct = rc == SQLITE_ROW || rc == SQLITE_DONE;
    if (*direct)
        return rc;
    constexpr qint64 Max = std::numeric_limits<qint64>::max();
    qint64 bad = from;
    qint64 good = 0;
    qint64 step = 1;
    qint64 found = 0;
    for (;;) {
        if (bad > Max - step)
            return SQLITE_DONE; // nothing readable up to the largest rowid
        good = bad + step;
        rc = probe(table, good, &found);
        if (rc == SQLITE_ROW || rc == SQLITE_DONE)
            break;
        bad = good;
        step = step > Max / 2 ? Max : step * 2;
    }
    int goodRc = rc;
    while (good - bad > 1) {
        const qint64 mid = bad + (good - bad) / 2;
        qint64 r = 0;
        rc = probe(table, mid, &r);
        if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
            good = mid;
            goodRc = rc;
            found = r;
        } else {
            bad = mid;
        }
    }
    *rowid = found;
    return goodRc;
}

ScanResult Salvager::scan(const char *table, const char *columns,
                          const std::function<void(sqlite3_stmt *)> &row)
{
    ScanResult result;
    const QByteArray name(table);
    const QByteArray sql = QByteArrayLiteral("SELECT rowid, ") + columns + " FROM " + name +
                           " WHERE rowid >= ?1 ORDER BY rowid";
    {
        // A table missing from the schema, or whose columns a damaged schema misnames.
        sqlite3_stmt *st = nullptr;
        const bool ok = sqlite3_prepare_v2(m_db, sql.constData(), -1, &st, nullptr) == SQLITE_OK;
        sqlite3_finalize(st);
        if (!ok) {
            result.missing = true;
            return result;
        }
    }
    auto lose = [&](qint64 a, qint64 b) {
        if (b < a)
            return;
        // Rowids are dense and a row takes a few bytes: a gap larger than the file could hold
        // comes from a damaged key, not from lost rows.
        if (b - a >= m_fileBytes / 3 + 1) {
            result.implausible = true;
            return;
        }
        if (!result.gaps.isEmpty() && result.gaps.last().second + 1 == a)
            result.gaps.last().second = b;
        else
            result.gaps.append({a, b});
        result.lost += b - a + 1;
    };
    // Before rows a..b are given up, each is looked up by its own key. A seek for the first of
    // them can be sent astray by damage on a page before them (a damaged cell pointer or key
    // on a leaf makes the binary search land on a bogus key past the table's end), and a
    // backward walk stops at the next damaged page; a lookup of one key only needs that key's
    // own path from the root, so these rows cost nothing unless their own page is damaged.
    // Keys are looked up once each, in order, and all lie between rows read before and rows
    // read after, so no row is read twice.
    const QByteArray rowSql =
        QByteArrayLiteral("SELECT rowid, ") + columns + " FROM " + name + " WHERE rowid = ?1";
    auto recover = [&](qint64 a, qint64 b) {
        if (b < a)
            return;
        sqlite3_stmt *st = nullptr;
        // A gap the file cannot hold comes from a damaged key: lose() says so, unread.
        if (b - a >= m_fileBytes / 3 + 1 ||
            sqlite3_prepare_v2(m_db, rowSql.constData(), -1, &st, nullptr) != SQLITE_OK) {
            sqlite3_finalize(st);
            lose(a, b);
            return;
        }
        qint64 unreadFrom = a;
        for (qint64 key = a; key <= b && !m_cancelled; ++key) {
            sqlite3_reset(st);
            sqlite3_bind_int64(st, 1, key);
            if (sqlite3_step(st) == SQLITE_ROW) {
                lose(unreadFrom, key - 1);
                row(st);
                ++result.read;
                unreadFrom = key + 1;
            }
            tick(); // each lookup, read or not, so that a long gap can be cancelled
        }
        sqlite3_finalize(st);
        if (!m_cancelled)
            lose(unreadFrom, b);
    };
    // Rowids of every table here start at 1 and grow by one per row.
    qint64 from = 1;
    while (!m_cancelled) {
        sqlite3_stmt *st = nullptr;
        int rc = sqlite3_prepare_v2(m_db, sql.constData(), -1, &st, nullptr);
        bool gotRow = false;
        qint64 last = from - 1;
        if (rc == SQLITE_OK) {
            sqlite3_bind_int64(st, 1, from);
            while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
                gotRow = true;
                last = sqlite3_column_int64(st, 0);
                row(st);
                ++result.read;
                if (!tick())
                    break;
            }
        }
        sqlite3_finalize(st);
        if (rc == SQLITE_DONE || m_cancelled)
            break;
        // The row after `last` cannot be read: find the next one that can.
        const qint64 start = last == std::numeric_limits<qint64>::max() ? last : last + 1;
        qint64 next = 0;
        bool direct = false;
        const int found = nextReadable(name, start, &next, &direct);
        // A damaged key (a flipped bit in a rowid) can send every seek after it past the
        // table's end, though the rows after it are intact: those are read from the end back.
        sqlite3_int64 end = 0;
        const QByteArray endSql = QByteArrayLiteral("SELECT max(rowid) FROM ") + name;
        if ((found != SQLITE_ROW || next > start) && value(endSql.constData(), &end) &&
            end >= start && (found != SQLITE_ROW || next > end)) {
            std::vector<qint64> keys = keysBackwards(name, start, end);
            std::reverse(keys.begin(), keys.end());
            // The rows below the lowest of those keys first, to keep rowid order.
            recover(start, keys.empty() ? end : keys.front() - 1);
            std::vector<qint64> unreadable;
            readKeys(name, columns, keys, row, &result.read, &unreadable);
            for (const qint64 key : unreadable)
                lose(key, key);
            break;
        }
        if (found != SQLITE_ROW) {
            // The largest rowid may still be reachable (it is on the rightmost path).
            sqlite3_int64 max = 0;
            const QByteArray maxSql = QByteArrayLiteral("SELECT max(rowid) FROM ") + name;
            if (value(maxSql.constData(), &max) && max >= start) {
                recover(start, max);
            } else if (!(found == SQLITE_DONE && direct)) {
                result.tailLost = true;
                result.tailFrom = start;
            }
            break;
        }
        if (next < start) {
            // A seek past start landed before it: the keys themselves are damaged. Stop here
            // rather than read rows twice, and say that the rest is unknown.
            result.tailLost = true;
            result.tailFrom = start;
            break;
        }
        const qint64 previous = from;
        if (next == start && !gotRow) {
            // The key is reachable but the row's content is not (say, an overflow page).
            lose(start, start);
            from = start + 1;
        } else {
            recover(start, next - 1);
            from = next;
        }
        if (from <= previous) {
            // Only keys out of order (damage) get here: never read the same rows again.
            result.tailLost = true;
            result.tailFrom = from;
            break;
        }
    }
    return result;
}

std::vector<qint64> Salvager::keysBackwards(const QByteArray &table, qint64 from, qint64 to)
{
    // From the end down while the keys can be read and keep falling.
    std::vector<qint64> keys;
    const QByteArray keySql =
        QByteArrayLiteral("SELECT rowid FROM ") + table + " WHERE rowid <= ?1 ORDER BY rowid DESC";
    sqlite3_stmt *st = nullptr;
    if (sqlite3_prepare_v2(m_db, keySql.constData(), -1, &st, nullptr) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, to);
        while (sqlite3_step(st) == SQLITE_ROW) {
            const qint64 key = sqlite3_column_int64(st, 0);
            if (key < from || (!keys.empty() && key >= keys.back()))
                break;
            keys.push_back(key);
        }
    }
    sqlite3_finalize(st);
    return keys;
}

void Salvager::readKeys(const QByteArray &table, const char *columns,
                        const std::vector<qint64> &keys,
                        const std::function<void(sqlite3_stmt *)> &row, qint64 *read,
                        std::vector<qint64> *unreadable)
{
    const QByteArray rowSql =
        QByteArrayLiteral("SELECT rowid, ") + columns + " FROM " + table + " WHERE rowid = ?1";
    sqlite3_stmt *st = nullptr;
    if (keys.empty() ||
        sqlite3_prepare_v2(m_db, rowSql.constData(), -1, &st, nullptr) != SQLITE_OK) {
        sqlite3_finalize(st);
        return;
    }
    for (auto it = keys.begin(); it != keys.end() && !m_cancelled; ++it) {
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, *it);
        if (sqlite3_step(st) == SQLITE_ROW) {
            row(st);
            ++*read;
            tick();
        } else {
            unreadable->push_back(*it);
        }
    }
    sqlite3_finalize(st);
}

bool Salvager::tick()
{
    ++m_done;
    if (m_progress && (m_done & 0x3ff) == 0 && !m_progress(m_done, 0))
        m_cancelled = true;
    return !m_cancelled;
}

QString Salvager::timeText(quint64 ns) const
{
    const quint64 start = m_data->info.startMonotonicNs;
    if (start && ns >= start)
        return QStringLiteral("%1 s").arg(double(ns - start) / 1e9, 0, 'f', 3);
    return QStringLiteral("monotonic %1 ns").arg(ns);
}

void Salvager::note(const QString &table, const ScanResult &r, const QString &what)
{
    SessionDamage &d = m_data->damage;
    if (r.missing) {
        d.lost << QStringLiteral("%1: the table cannot be read; all %2 are lost").arg(table, what);
        return;
    }
    if (r.implausible)
        d.lost << QStringLiteral("%1: damaged row keys; an unknown number of %2 may be missing")
                      .arg(table, what);
    if (!r.lost && !r.tailLost)
        return;
    d.unreadableRows += r.lost;
    QString text =
        r.tailLost && !r.lost
            ? QStringLiteral("%1: the %2 from row %3 on could not be read")
                  .arg(table, what)
                  .arg(r.tailFrom)
            : QStringLiteral("%1: %2 %3 could not be read (rows %4)%5")
                  .arg(table)
                  .arg(r.lost)
                  .arg(what, rangeText(r.gaps, r.tailLost, r.tailFrom),
                       r.tailLost ? QStringLiteral(", and an unknown number after") : QString());
    d.lost << text;
}

void Salvager::loadMeta()
{
    SessionInfo &info = m_data->info;
    QStringList unknown;
    // meta is a WITHOUT ROWID table: each key is looked up on its own, so one unreadable key
    // leaves the others.
    const char *const keys[] = {
        "app_version",      "host",      "kernel_release", "start_wall", "start_monotonic_ns",
        "end_monotonic_ns", "ssh_target"};
    for (const char *key : keys) {
        sqlite3_stmt *st = nullptr;
        int rc =
            sqlite3_prepare_v2(m_db, "SELECT value FROM meta WHERE key = ?1", -1, &st, nullptr);
        if (rc == SQLITE_OK) {
            sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
            rc = sqlite3_step(st);
        }
        if (rc != SQLITE_ROW) {
            // Only a recording over ssh has ssh_target.
            if (rc != SQLITE_DONE ||
                (qstrcmp(key, "start_wall") != 0 && qstrcmp(key, "ssh_target") != 0))
                unknown << QString::fromLatin1(key);
            sqlite3_finalize(st);
            continue;
        }
        applyMetaValue(info, QByteArray(key), st, 0);
        sqlite3_finalize(st);
    }
    if (info.startWall.isValid())
        info.startWall = info.startWall.toUTC();
    if (!unknown.isEmpty())
        m_data->damage.lost
            << QStringLiteral("meta: unknown %1").arg(unknown.join(QStringLiteral(", ")));
}

void Salvager::loadProbes()
{
    SessionInfo &info = m_data->info;
    const ScanResult r = scan("probes", "id, options, attach_path", [&](sqlite3_stmt *st) {
        ProbeConfig p;
        p.id = QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, 1)));
        const int n = sqlite3_column_bytes(st, 2);
        const void *blob = sqlite3_column_blob(st, 2);
        p.options = QJsonDocument::fromJson(blob ? QByteArray(static_cast<const char *>(blob), n)
                                                 : QByteArray())
                        .object()
                        .toVariantMap();
        p.attachPath =
            QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, 3)));
        info.probes.append(p);
    });
    note(QStringLiteral("probes"), r, QStringLiteral("probe configurations"));
}

void Salvager::loadCgroups()
{
    // Schema 4: what the events' cgroup ids name (docs/containers.md).
    if (m_data->info.schemaVersion < 4)
        return;
    const ScanResult r = scan("cgroups", "id, path", [&](sqlite3_stmt *st) {
        m_data->cgroups.add(CgroupPath{quint64(sqlite3_column_int64(st, 1)), blob(st, 2)});
    });
    note(QStringLiteral("cgroups"), r, QStringLiteral("cgroup names"));
}

void Salvager::loadStrings()
{
    EventStore &store = m_data->events;
    m_stringMap.assign(1, 0);
    std::vector<bool> have(1, true);
    qint64 mismatched = 0;
    const char *const columns = m_stringChecksums ? "value, crc" : "value";
    const ScanResult r = scan("strings", columns, [&](sqlite3_stmt *st) {
        const qint64 id = sqlite3_column_int64(st, 0);
        // A damaged key can be anything; a string takes at least 3 bytes of the file.
        if (id <= 0 || id > m_fileBytes / 3 + 1)
            return;
        const int n = sqlite3_column_bytes(st, 1);
        const void *p = sqlite3_column_blob(st, 1);
        // A string that fails its checksum is lost like an unreadable one: the events naming
        // it show the placeholder, never bytes that were altered (or another string's id).
        if (m_stringChecksums &&
            !EventChunkCodec::stringChecksumMatches(
                id, QByteArrayView(static_cast<const char *>(p), p ? n : 0),
                sqlite3_column_type(st, 2) == SQLITE_INTEGER ? sqlite3_column_int64(st, 2) : -1)) {
            ++mismatched;
            return;
        }
        if (size_t(id) >= m_stringMap.size()) {
            m_stringMap.resize(size_t(id) + 1, 0);
            have.resize(size_t(id) + 1, false);
        }
        m_stringMap[size_t(id)] = EventChunkCodec::intern(
            &store, p ? QByteArray(static_cast<const char *>(p), n) : QByteArray());
        have[size_t(id)] = true;
    });
    // Lost strings up to the largest known id become placeholders, so the events naming them
    // keep their numbers and times.
    qint64 lostIds = 0;
    for (size_t id = 1; id < m_stringMap.size(); ++id) {
        if (!have[id]) {
            m_stringMap[id] = EventChunkCodec::intern(
                &store, QStringLiteral("[lost string %1]").arg(id).toUtf8());
            ++lostIds;
        }
    }
    // When the end of the table is lost, how many strings there were is unknown: ids up to a
    // bound the file's size sets (a string takes at least 3 bytes) read "[lost string]".
    // A chunk naming an id beyond that is damaged and dropped.
    if (r.tailLost || r.missing) {
        const quint32 lost = EventChunkCodec::intern(&store, QByteArrayLiteral("[lost string]"));
        const qint64 bound = std::min<qint64>(m_fileBytes / 3 + 1, qint64(1) << 24);
        if (qint64(m_stringMap.size()) < bound)
            m_stringMap.resize(size_t(bound), lost);
    }
    m_data->damage.stringsLost = std::max(lostIds, r.lost);
    if (mismatched)
        m_data->damage.lost << QStringLiteral("strings: %1 failed their checksum; events naming "
                                              "them show \"[lost string <id>]\"")
                                   .arg(countOf(mismatched, "string", "strings"));
    note(QStringLiteral("strings"), r,
         QStringLiteral("strings (events naming them show \"[lost string <id>]\", or \"[lost "
                        "string]\" past the last one read)"));
}

void Salvager::loadChunks()
{
    SessionDamage &damage = m_data->damage;
    struct Lost
    {
        qint64 chunks = 0;
        qint64 events = 0;
        quint64 first = std::numeric_limits<quint64>::max();
        quint64 last = 0;
        QString why;
    };
    std::map<int, Lost> lostByType;
    // Neighbours of unreadable chunk rows bound the time those rows covered.
    struct Seen
    {
        qint64 seq;
        quint64 first;
        quint64 last;
    };
    std::vector<Seen> seen;
    // Chunks that failed their checksum, each named in the report (up to a few).
    struct Mismatch
    {
        qint64 seq;
        int type;
        qint64 events;
        quint64 first;
        quint64 last;
    };
    std::vector<Mismatch> mismatches;
    EventStore scratch;
    const std::vector<quint32> scratchMap(m_stringMap.size(), 0);
    const char *const columns = m_chunkChecksums ? "type, count, first_ns, last_ns, data, crc"
                                                 : "type, count, first_ns, last_ns, data";
    const ScanResult r = scan("event_chunks", columns, [&](sqlite3_stmt *st) {
        const qint64 seq = sqlite3_column_int64(st, 0);
        const int type = sqlite3_column_int(st, 1);
        const qint64 count = sqlite3_column_int64(st, 2);
        const quint64 first = quint64(sqlite3_column_int64(st, 3));
        const quint64 last = quint64(sqlite3_column_int64(st, 4));
        // Before reading it as a blob, which may convert it.
        const int dataType = sqlite3_column_type(st, 5);
        const void *p = sqlite3_column_blob(st, 5);
        const int n = sqlite3_column_bytes(st, 5);
        StoredChunk chunk;
        chunk.type = type;
        chunk.count = count;
        chunk.firstNs = first;
        chunk.lastNs = last;
        chunk.data = QByteArrayView(static_cast<const char *>(p), p ? n : 0);
        chunk.hasChecksum = m_chunkChecksums;
        chunk.hasCgroups = m_data->info.schemaVersion >= 4;
        chunk.checksum = m_chunkChecksums && sqlite3_column_type(st, 6) == SQLITE_INTEGER
                             ? sqlite3_column_int64(st, 6)
                             : -1;
        // Checked first and never decoded when it fails: its type, count and data may all
        // be altered. What it claims to hold is only reported (the count capped by what
        // its bytes could hold).
        if (!EventChunkCodec::checksumMatches(chunk)) {
            const qint64 most =
                n / (isEventType(type) ? EventChunkCodec::minBytesPerEvent(
                                             EventType(type), m_data->info.schemaVersion >= 4)
                                       : 1);
            mismatches.push_back({seq, type, std::clamp<qint64>(count, 0, most), first, last});
            return;
        }
        seen.push_back({seq, first, last});
        if (type >= 1 && !isEventType(type))
            return; // a newer type, skipped as on the fast path
        QString why;
        bool ok = type >= 1;
        if (!ok)
            why = QStringLiteral("event type %1 does not exist").arg(type);
        if (ok && dataType != SQLITE_BLOB && dataType != SQLITE_NULL) {
            ok = false;
            why = QStringLiteral("data is not a blob");
        }
        // Decoded once into a scratch store to check it whole (a failed decode leaves part
        // of the chunk behind), then for real: the same bytes cannot fail the second time.
        if (ok) {
            scratch.clearKeepingMemory();
            ok = EventChunkCodec::decodeStored(chunk, scratchMap, &scratch, &why) == ChunkCheck::Ok;
        }
        if (ok) {
            QString again;
            ok = EventChunkCodec::decodeStored(chunk, m_stringMap, &m_data->events, &again) ==
                 ChunkCheck::Ok;
        }
        if (ok) {
            ++damage.chunksKept;
            return;
        }
        Lost &l = lostByType[type];
        ++l.chunks;
        l.events += std::max<qint64>(count, 0);
        l.first = std::min(l.first, first);
        l.last = std::max(l.last, last);
        if (l.why.isEmpty())
            l.why = why;
    });
    if (r.missing) {
        damage.lost << QStringLiteral(
            "event_chunks: the table cannot be read; all events are lost");
        return;
    }
    // "chunk 12 of open: checksum mismatch, 512 events lost (3.000 s to 3.999 s)"
    constexpr size_t Named = 10;
    qint64 moreChunks = 0;
    qint64 moreEvents = 0;
    for (size_t i = 0; i < mismatches.size(); ++i) {
        const Mismatch &m = mismatches[i];
        ++damage.chunksLost;
        damage.eventsLost += m.events;
        if (i >= Named) {
            ++moreChunks;
            moreEvents += m.events;
            continue;
        }
        const QString name = isEventType(m.type) ? QLatin1String(probeIdOf(EventType(m.type)))
                                                 : QStringLiteral("type %1").arg(m.type);
        damage.lost << QStringLiteral("chunk %1 of %2: checksum mismatch, %3 events lost (%4 to "
                                      "%5)")
                           .arg(m.seq)
                           .arg(name)
                           .arg(m.events)
                           .arg(timeText(m.first), timeText(m.last));
    }
    if (moreChunks)
        damage.lost << QStringLiteral("%1 more failed their checksum, %2 lost")
                           .arg(countOf(moreChunks, "chunk", "chunks"),
                                countOf(moreEvents, "event", "events"));
    for (const auto &[type, l] : lostByType) {
        damage.chunksLost += l.chunks;
        damage.eventsLost += l.events;
        const QString name = isEventType(type) ? QLatin1String(probeIdOf(EventType(type)))
                                               : QStringLiteral("type %1").arg(type);
        damage.lost << QStringLiteral("%1 events: %2 with %3 from %4 to %5 could not be decoded "
                                      "(first: %6)")
                           .arg(name, countOf(l.chunks, "chunk", "chunks"),
                                countOf(l.events, "event", "events"), timeText(l.first),
                                timeText(l.last), l.why.trimmed());
    }
    if (r.implausible)
        damage.lost << QStringLiteral("event_chunks: damaged row keys; an unknown number of "
                                      "chunks may be missing");
    if (r.lost || r.tailLost) {
        damage.chunksLost += r.lost;
        damage.unreadableRows += r.lost;
        // Each gap lies between two readable chunks (by seq); their times bound it.
        for (const auto &[a, b] : r.gaps) {
            quint64 after = 0;
            quint64 before = 0;
            bool hasAfter = false;
            bool hasBefore = false;
            for (const Seen &s : seen) {
                if (s.seq < a && (!hasAfter || s.last > after)) {
                    after = s.last;
                    hasAfter = true;
                }
                if (s.seq > b && (!hasBefore || s.first < before)) {
                    before = s.first;
                    hasBefore = true;
                }
            }
            const QString when =
                hasAfter && hasBefore
                    ? QStringLiteral("between %1 and %2").arg(timeText(after), timeText(before))
                : hasAfter  ? QStringLiteral("after %1").arg(timeText(after))
                : hasBefore ? QStringLiteral("before %1").arg(timeText(before))
                            : QStringLiteral("at an unknown time");
            damage.lost << QStringLiteral("event_chunks: %1 could not be read (rows %2, events of "
                                          "unknown type and count %3)")
                               .arg(countOf(b - a + 1, "chunk row", "chunk rows"))
                               .arg(a == b ? QString::number(a)
                                           : QStringLiteral("%1–%2").arg(a).arg(b),
                                    when);
        }
        if (r.tailLost) {
            quint64 after = 0;
            for (const Seen &s : seen)
                after = std::max(after, s.last);
            damage.lost << QStringLiteral("event_chunks: the chunk rows from row %1 on could "
                                          "not be read (events after %2; their number is "
                                          "unknown)")
                               .arg(r.tailFrom)
                               .arg(seen.empty() ? QStringLiteral("the start") : timeText(after));
        }
    }
}

void Salvager::loadSamples()
{
    qint64 malformed = 0;
    const ScanResult h = scan("histograms", "probe_id, key, time_ns, interval_ns, unit, sum, slots",
                              [&](sqlite3_stmt *st) {
                                  HistogramSnapshot s;
                                  if (histogramFromRow(st, 1, &s))
                                      m_data->histograms.append(s);
                                  else
                                      ++malformed;
                              });
    note(QStringLiteral("histograms"), h, QStringLiteral("histogram snapshots"));
    if (malformed)
        m_data->damage.lost << QStringLiteral("histograms: %1 dropped")
                                   .arg(countOf(malformed, "malformed row", "malformed rows"));
    // Files written before the lost events were split by cause have no such columns.
    const bool causes = columnsExist("probe_stats", "events_unseen, unfinished");
    const ScanResult s =
        scan("probe_stats",
             causes ? "probe_id, time_ns, events_seen, events_lost, run_count, run_time_ns, "
                      "events_unseen, unfinished"
                    : "probe_id, time_ns, events_seen, events_lost, run_count, run_time_ns",
             [&](sqlite3_stmt *st) { m_data->stats.append(probeStatsFromRow(st, 1, causes)); });
    note(QStringLiteral("probe_stats"), s, QStringLiteral("statistics rows"));
    if (!tableExists("counters") && m_data->info.schemaVersion == 1)
        return; // schema 1 files written before counters existed
    const ScanResult c =
        scan("counters", "probe_id, name, time_ns, interval_ns, value",
             [&](sqlite3_stmt *st) { m_data->counters.append(counterFromRow(st, 1)); });
    note(QStringLiteral("counters"), c, QStringLiteral("counter samples"));
}

// Frames and stacks are defined with dense ids, each stack naming frames defined before it. A
// row that cannot be read leaves a gap; the ids after it must keep their meaning, so the gap is
// filled: a lost frame becomes "[lost frame]", a lost stack an empty stack marked truncated.
// Samples keep their stack ids either way.
void Salvager::loadStacks()
{
    if (!tableExists("stack_frames") || !tableExists("stacks"))
        return;
    StackTable &table = m_data->stacks;
    qint64 lostFrames = 0, lostStacks = 0, badFrames = 0, badStacks = 0;
    const auto fillFramesTo = [&](quint32 id) {
        while (quint32(table.frameCount()) + 1 < id) {
            StackFrame f;
            f.symbol = "[lost frame]";
            table.add(FrameDefinition{quint32(table.frameCount() + 1), f}, nullptr);
            ++lostFrames;
        }
    };
    const auto fillStacksTo = [&](quint32 id) {
        while (quint32(table.stackCount()) + 1 < id) {
            table.add(StackDefinition{quint32(table.stackCount() + 1), UserStackTruncated, {}},
                      nullptr);
            ++lostStacks;
        }
    };
    // The source columns of schema 4 where they are; a frame whose source is damaged keeps
    // its function without it.
    const bool sources = columnsExist("stack_frames", "file, line, inlined");
    const ScanResult f =
        scan("stack_frames",
             sources ? "id, kind, address, module, build_id, symbol, file, line, inlined"
                     : "id, kind, address, module, build_id, symbol",
             [&](sqlite3_stmt *st) {
                 const sqlite3_int64 id = sqlite3_column_int64(st, 1);
                 const int kind = sqlite3_column_int(st, 2);
                 if (id <= table.frameCount() || id > (1 << 30) ||
                     (kind != int(FrameKind::Kernel) && kind != int(FrameKind::User))) {
                     ++badFrames;
                     return;
                 }
                 fillFramesTo(quint32(id));
                 FrameDefinition d;
                 d.id = quint32(id);
                 d.frame.kind = FrameKind(kind);
                 d.frame.address = quint64(sqlite3_column_int64(st, 3));
                 d.frame.module = blob(st, 4);
                 d.frame.buildId = blob(st, 5);
                 d.frame.symbol = blob(st, 6);
                 if (sources) {
                     const sqlite3_int64 line = sqlite3_column_int64(st, 8);
                     const sqlite3_int64 inlined = sqlite3_column_int64(st, 9);
                     // A malformed source is left out; the frame keeps its function.
                     if (line >= 0 && line <= std::numeric_limits<quint32>::max() &&
                         (inlined == 0 || inlined == 1)) {
                         d.frame.file = blob(st, 7);
                         d.frame.line = quint32(line);
                         d.frame.inlined = inlined == 1;
                     } else {
                         ++badFrames;
                     }
                 }
                 table.add(d, nullptr);
             });
    note(QStringLiteral("stack_frames"), f, QStringLiteral("stack frames"));
    const ScanResult t = scan("stacks", "id, flags, frames", [&](sqlite3_stmt *st) {
        const sqlite3_int64 id = sqlite3_column_int64(st, 1);
        const sqlite3_int64 flags = sqlite3_column_int64(st, 2);
        if (id <= table.stackCount() || id > (1 << 30) || flags < 0 || flags > 255) {
            ++badStacks;
            return;
        }
        fillStacksTo(quint32(id));
        StackDefinition d;
        d.id = quint32(id);
        d.flags = quint8(flags);
        const auto *p = static_cast<const uchar *>(sqlite3_column_blob(st, 3));
        const int n = sqlite3_column_bytes(st, 3);
        const uchar *end = p ? p + n : p;
        bool ok = true;
        while (ok && p < end) {
            quint64 frame = 0;
            ok = getVarint(p, end, &frame) == VarintRead::Ok && frame >= 1 &&
                 frame <= quint64(table.frameCount());
            if (ok)
                d.frames.append(quint32(frame));
        }
        if (!ok) {
            // Its frames cannot be trusted: kept as an empty, truncated stack.
            d.frames.clear();
            d.flags |= UserStackTruncated;
            ++badStacks;
        }
        table.add(d, nullptr);
    });
    note(QStringLiteral("stacks"), t, QStringLiteral("stacks"));
    if (lostFrames || lostStacks || badFrames || badStacks)
        m_data->damage.lost << QStringLiteral("stacks: %1 and %2 unreadable, %3 and %4 "
                                              "malformed; their samples show them as lost")
                                   .arg(countOf(lostFrames, "frame", "frames"),
                                        countOf(lostStacks, "stack", "stacks"),
                                        countOf(badFrames, "frame", "frames"),
                                        countOf(badStacks, "stack", "stacks"));
}

bool Salvager::run(const QString &reason, QString *error)
{
    auto refuse = [&](const QString &why) {
        *m_data = SessionData();
        if (error)
            *error = QStringLiteral("%1 is damaged beyond repair (%2; %3); it cannot be read")
                         .arg(m_path, reason, why);
        return false;
    };
    m_fileBytes = QFileInfo(m_path).size() + QFileInfo(m_path + QStringLiteral("-wal")).size();
    if (!openDatabase(false))
        return refuse(QStringLiteral("SQLite cannot open it"));
    sqlite3_int64 appId = 0;
    if (!value("PRAGMA application_id", &appId)) {
        // No -shm can be made next to the file: read it as immutable.
        if (!openDatabase(true) || !value("PRAGMA application_id", &appId))
            return refuse(QStringLiteral("its header cannot be read"));
    }
    if (qint32(appId) != SessionApplicationId)
        return refuse(QStringLiteral("its header does not name it a BPF Lens session"));
    sqlite3_exec(m_db, "BEGIN", nullptr, nullptr, nullptr);
    sqlite3_int64 schema = 0;
    if (!value("PRAGMA user_version", &schema) || schema < 1 || schema > SessionSchemaVersion)
        return refuse(QStringLiteral("its schema version is gone"));
    sqlite3_int64 tables = 0;
    if (!value("SELECT count(*) FROM sqlite_master", &tables) || !tableExists("meta"))
        return refuse(QStringLiteral("its table of tables cannot be read"));

    *m_data = SessionData();
    m_data->damage.reason = reason;
    m_data->info.schemaVersion = int(schema);
    // Wherever the columns are (a user_version altered from 3 to 2 does not turn checks off).
    m_chunkChecksums = columnsExist("event_chunks", "crc");
    m_stringChecksums = columnsExist("strings", "crc");
    loadMeta();
    loadProbes();
    loadStrings();
    if (schema >= 2) {
        loadChunks();
        if (!m_chunkChecksums || !m_stringChecksums) {
            m_data->damage.unverified = true;
            m_data->damage.lost << QStringLiteral(
                "events: this file has no checksums (schema 2, or they were lost), so an event "
                "altered by the damage that still decodes cannot be told from a real one; the "
                "events kept may include such");
        }
    } else {
        m_data->damage.lost << QStringLiteral("events: a damaged schema 1 file's events cannot "
                                              "be salvaged; all events are lost");
    }
    m_stringMap.clear();
    loadStacks();
    loadCgroups();
    loadSamples();
    sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr);
    if (m_cancelled) {
        *m_data = SessionData();
        if (error)
            *error = QStringLiteral("cancelled");
        return false;
    }
    if (m_data->damage.lost.isEmpty())
        m_data->damage.lost << QStringLiteral("nothing that could be identified");
    m_data->events.squeeze();
    return true;
}

} // namespace

bool salvageSession(const QString &path, const QString &reason, SessionData *data, QString *error,
                    const SessionReader::Progress &progress)
{
    Salvager salvager(path, data, progress);
    return salvager.run(reason, error);
}

bool writeSessionCopy(const SessionData &data, const QString &path, QString *error)
{
    // Events per transaction: bounded memory for the copies, few enough commits to be fast.
    constexpr qsizetype ChunkEvents = 50000;
    SessionWriter writer;
    // Checksums computed now would vouch for events that were never checked: a copy of a file
    // without them stays without them.
    if (data.info.schemaVersion == 2 || data.damage.unverified)
        writer.setSchemaVersion(2);
    if (!writer.create(path, data.info, error))
        return false;
    RecordBatch first;
    data.stacks.appendAllDefinitions(first); // before the samples that name them
    first.histograms = data.histograms;
    first.stats = data.stats;
    first.counters = data.counters;
    if (!writer.writeBatch(first, error))
        return false;
    bool written = true;
    const EventStore &store = data.events;
    forEachEventType([&]<typename E>() {
        const qsizetype n = store.count(eventTypeOf<E>);
        for (qsizetype begin = 0; written && begin < n; begin += ChunkEvents) {
            RecordBatch b;
            const qsizetype end = std::min(n, begin + ChunkEvents);
            QList<E> &events = b.events<E>();
            events.reserve(end - begin);
            for (qsizetype i = begin; i < end; ++i)
                events.append(store.event<E>(i));
            written = writer.writeBatch(b, error);
        }
    });
    return written && writer.finish(data.info.endMonotonicNs, error);
}

} // namespace bpflens
