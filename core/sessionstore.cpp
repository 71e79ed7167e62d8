#include "core/sessionstore.h"

#include "core/cgroups.h"
#include "core/eventchunk.h"
#include "core/sessioninfo.h"
#include "core/sessionsalvage.h"
#include "core/specialfile.h"
#include "core/varint.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>
#include <QtEndian>

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace bpflens {

namespace {

// Tables are created in rollback-journal mode and only then switched to WAL, so the main file
// carries a complete header (application_id, user_version) from the first moment on, even if
// the recorder is killed before its first checkpoint.
const char *const SchemaCommonSql = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID;
CREATE TABLE probes(seq INTEGER PRIMARY KEY, id TEXT NOT NULL, options TEXT NOT NULL,
                    attach_path TEXT NOT NULL);
)sql";

const char *const Schema1StringsSql = R"sql(
CREATE TABLE strings(id INTEGER PRIMARY KEY, value BLOB NOT NULL);
)sql";

// Schema 3: every string carries the checksum of its id and bytes
// (EventChunkCodec::stringChecksum), so a flipped bit cannot rename what events show.
const char *const Schema3StringsSql = R"sql(
CREATE TABLE strings(id INTEGER PRIMARY KEY, value BLOB NOT NULL, crc INTEGER NOT NULL);
)sql";

const char *const SchemaSamplesSql = R"sql(
CREATE TABLE histograms(probe_id TEXT NOT NULL, key TEXT NOT NULL, time_ns INTEGER NOT NULL,
                        interval_ns INTEGER, unit INTEGER, sum INTEGER, slots BLOB);
CREATE TABLE probe_stats(probe_id TEXT NOT NULL, time_ns INTEGER NOT NULL,
                         events_seen INTEGER, events_lost INTEGER, run_count INTEGER,
                         run_time_ns INTEGER, events_unseen INTEGER, unfinished INTEGER);
CREATE TABLE counters(probe_id TEXT NOT NULL, name TEXT NOT NULL, time_ns INTEGER NOT NULL,
                      interval_ns INTEGER, value REAL);
)sql";

// Schema 1: one SQLite row per event. Reading it costs a sqlite3_step and a dozen column calls
// per event, about 2.4 s per million events.
const char *const Schema1EventsSql = R"sql(
CREATE TABLE exec_events(time_ns INTEGER NOT NULL, pid INTEGER, ppid INTEGER, uid INTEGER,
                         retval INTEGER, comm INTEGER, filename INTEGER, argv BLOB,
                         argv_truncated INTEGER);
CREATE TABLE open_events(time_ns INTEGER NOT NULL, pid INTEGER, tid INTEGER, uid INTEGER,
                         flags INTEGER, mode INTEGER, ret INTEGER, comm INTEGER, path INTEGER);
CREATE TABLE block_events(time_ns INTEGER NOT NULL, dev INTEGER, cmd_flags INTEGER,
                          sector INTEGER, bytes INTEGER, pid INTEGER, queue_ns INTEGER,
                          device_ns INTEGER, disk INTEGER, op INTEGER, comm INTEGER);
CREATE TABLE tcp_connect_events(time_ns INTEGER NOT NULL, pid INTEGER, uid INTEGER,
                                family INTEGER, saddr BLOB, daddr BLOB, sport INTEGER,
                                dport INTEGER, ret INTEGER, comm INTEGER);
CREATE TABLE fs_slow_events(time_ns INTEGER NOT NULL, pid INTEGER, op INTEGER, bytes INTEGER,
                            offset INTEGER, latency_ns INTEGER, fs INTEGER, comm INTEGER,
                            filename INTEGER);
)sql";

// Schema 2: one row per (batch, event type) holding the batch's events of that type as
// columns (EventChunkCodec), so a reader decodes a few thousand blobs instead of stepping
// through millions of rows.
const char *const Schema2EventsSql = R"sql(
CREATE TABLE event_chunks(seq INTEGER PRIMARY KEY, type INTEGER NOT NULL, count INTEGER NOT NULL,
                          first_ns INTEGER NOT NULL, last_ns INTEGER NOT NULL,
                          data BLOB NOT NULL);
CREATE TABLE stack_frames(id INTEGER PRIMARY KEY, kind INTEGER NOT NULL,
                          address INTEGER NOT NULL, module BLOB NOT NULL,
                          build_id BLOB NOT NULL, symbol BLOB NOT NULL);
CREATE TABLE stacks(id INTEGER PRIMARY KEY, flags INTEGER NOT NULL, frames BLOB NOT NULL);
)sql";

// Schema 3: schema 2 with a checksum per chunk (EventChunkCodec::checksum), checked before the
// chunk is decoded: one flipped bit in a varint would otherwise shift every later value of the
// chunk into events that never happened.
const char *const Schema3EventsSql = R"sql(
CREATE TABLE event_chunks(seq INTEGER PRIMARY KEY, type INTEGER NOT NULL, count INTEGER NOT NULL,
                          first_ns INTEGER NOT NULL, last_ns INTEGER NOT NULL,
                          data BLOB NOT NULL, crc INTEGER NOT NULL);
CREATE TABLE stack_frames(id INTEGER PRIMARY KEY, kind INTEGER NOT NULL,
                          address INTEGER NOT NULL, module BLOB NOT NULL,
                          build_id BLOB NOT NULL, symbol BLOB NOT NULL);
CREATE TABLE stacks(id INTEGER PRIMARY KEY, flags INTEGER NOT NULL, frames BLOB NOT NULL);
)sql";

// Schema 4: the cgroups the recording's events named (core/cgroups.h), each once: its id (the
// events' cgroup_id), its path under the cgroup v2 mount (bytes as the kernel has them) and what
// the path says: container id, runtime, Kubernetes pod and systemd unit ('' where none).
const char *const Schema4CgroupsSql = R"sql(
CREATE TABLE cgroups(id INTEGER PRIMARY KEY, path BLOB NOT NULL, container TEXT NOT NULL,
                     runtime TEXT NOT NULL, pod TEXT NOT NULL, unit TEXT NOT NULL);
)sql";

// Schema 4 also keeps each stack frame's source file, line and inlined mark (DWARF's inline
// chains: a function's lines are frames of their own, and a reader of schema 3 would show them
// as separate functions and the inlined ones as real calls).
const char *const Schema4EventsSql = R"sql(
CREATE TABLE event_chunks(seq INTEGER PRIMARY KEY, type INTEGER NOT NULL, count INTEGER NOT NULL,
                          first_ns INTEGER NOT NULL, last_ns INTEGER NOT NULL,
                          data BLOB NOT NULL, crc INTEGER NOT NULL);
CREATE TABLE stack_frames(id INTEGER PRIMARY KEY, kind INTEGER NOT NULL,
                          address INTEGER NOT NULL, module BLOB NOT NULL,
                          build_id BLOB NOT NULL, symbol BLOB NOT NULL,
                          file BLOB NOT NULL, line INTEGER NOT NULL, inlined INTEGER NOT NULL);
CREATE TABLE stacks(id INTEGER PRIMARY KEY, flags INTEGER NOT NULL, frames BLOB NOT NULL);
)sql";

// The tables whose rows SessionReader counts for its progress, in load order.
const char *const RowTables[] = {"strings",      "exec_events",        "open_events",
                                 "block_events", "tcp_connect_events", "fs_slow_events",
                                 "histograms",   "probe_stats",        "counters"};
const char *const Schema2RowTables[] = {"strings", "histograms", "probe_stats", "counters"};
// Schema 2 files written before stacks were recorded have neither table.
const char *const StackTables[] = {"stack_frames", "stacks"};

// SQLite stores signed 64-bit integers; u64 values round-trip bit for bit through the cast.
sqlite3_int64 s64(quint64 v)
{
    return sqlite3_int64(v);
}

QString sqliteReason(sqlite3 *db, int rc)
{
    const int base = rc & 0xff;
    QString reason;
    switch (base) {
    case SQLITE_FULL:
        reason = QStringLiteral("the disk is full");
        break;
    case SQLITE_READONLY:
        reason = QStringLiteral("the file is read-only");
        break;
    case SQLITE_IOERR:
        reason = QStringLiteral("input/output error");
        break;
    case SQLITE_CANTOPEN:
        reason = QStringLiteral("cannot open the file");
        break;
    case SQLITE_PERM:
        reason = QStringLiteral("permission denied");
        break;
    default:
        break;
    }
    const QString detail =
        db ? QString::fromUtf8(sqlite3_errmsg(db)) : QString::fromUtf8(sqlite3_errstr(rc));
    const int sysErrno = db ? sqlite3_system_errno(db) : 0;
    // "the disk is full (database or disk is full: No space left on device)"
    QString text = detail;
    // errno is only meaningful for failed system calls; elsewhere it is left over.
    if (sysErrno && (base == SQLITE_IOERR || base == SQLITE_CANTOPEN))
        text += QStringLiteral(": ") + QString::fromLocal8Bit(strerror(sysErrno));
    return reason.isEmpty() ? text : reason + QStringLiteral(" (") + text + QLatin1Char(')');
}

QByteArray encodeArgv(const QList<QByteArray> &argv)
{
    // Each argument is terminated (not separated) by NUL, so [] and [""] stay distinct.
    QByteArray out;
    for (const QByteArray &arg : argv) {
        out += arg;
        out += '\0';
    }
    return out;
}

QList<QByteArray> decodeArgv(const QByteArray &blob)
{
    QList<QByteArray> argv;
    qsizetype start = 0;
    for (qsizetype i = 0; i < blob.size(); ++i) {
        if (blob.at(i) == '\0') {
            argv.append(blob.mid(start, i - start));
            start = i + 1;
        }
    }
    return argv;
}

// IPv4 addresses keep their 4 bytes only when the rest of the array is zero, which it is for
// every address the kernel reports; anything else is stored whole so it still round-trips.
QByteArray encodeAddress(quint8 family, const std::array<quint8, 16> &addr)
{
    int len = 16;
    if (family == 4 && std::all_of(addr.begin() + 4, addr.end(), [](quint8 b) { return !b; }))
        len = 4;
    return QByteArray(reinterpret_cast<const char *>(addr.data()), len);
}

// A NULL pointer would bind NULL instead of an empty blob.
void bindBlob(sqlite3_stmt *st, int col, const QByteArray &bytes)
{
    sqlite3_bind_blob(st, col, bytes.isEmpty() ? "" : bytes.constData(), int(bytes.size()),
                      SQLITE_TRANSIENT);
}

QByteArray encodeSlots(const Log2Histogram &h)
{
    const int used = h.usedSlots();
    QByteArray out(used * 8, Qt::Uninitialized);
    for (int i = 0; i < used; ++i)
        qToLittleEndian<quint64>(h.slot(i), out.data() + i * 8);
    return out;
}

} // namespace

struct SessionWriter::Statements
{
    sqlite3_stmt *string = nullptr;
    sqlite3_stmt *exec = nullptr;
    sqlite3_stmt *open = nullptr;
    sqlite3_stmt *block = nullptr;
    sqlite3_stmt *tcp = nullptr;
    sqlite3_stmt *fsSlow = nullptr;
    sqlite3_stmt *histogram = nullptr;
    sqlite3_stmt *stats = nullptr;
    sqlite3_stmt *counter = nullptr;
    sqlite3_stmt *chunk = nullptr;
    sqlite3_stmt *frame = nullptr;
    sqlite3_stmt *stack = nullptr;
    sqlite3_stmt *cgroup = nullptr; // schema 4
    ~Statements()
    {
        for (sqlite3_stmt *s : {string, exec, open, block, tcp, fsSlow, histogram, stats, counter,
                                chunk, frame, stack, cgroup})
            sqlite3_finalize(s);
    }
};

SessionWriter::~SessionWriter()
{
    close();
}

void SessionWriter::close()
{
    delete m_stmts;
    m_stmts = nullptr;
    if (m_db)
        sqlite3_close_v2(m_db);
    m_db = nullptr;
    m_stringIds.clear();
    m_newStrings.clear();
}

QString SessionWriter::failure(const QString &what) const
{
    return QStringLiteral("%1 %2: %3").arg(what, m_path, sqliteReason(m_db, sqlite3_errcode(m_db)));
}

bool SessionWriter::exec(const char *sql, QString *error)
{
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) == SQLITE_OK)
        return true;
    if (error)
        *error = failure(QStringLiteral("cannot write"));
    return false;
}

bool SessionWriter::create(const QString &path, const SessionInfo &info, QString *error)
{
    close();
    m_path = path;
    m_batches = 0;
    m_frameCount = 0;
    m_stackCount = 0;
    if (m_schema < 1 || m_schema > SessionSchemaVersion) {
        if (error)
            *error = QStringLiteral("cannot create %1: schema %2 is not one this version writes")
                         .arg(path)
                         .arg(m_schema);
        return false;
    }
    const QFileInfo fi(path);
    const QString dir = fi.absolutePath();
    if (fi.exists() || fi.isSymLink()) {
        if (error)
            *error = QStringLiteral("cannot create %1: the file already exists").arg(path);
        return false;
    }
    if (!QFileInfo(dir).isDir()) {
        if (error)
            *error =
                QStringLiteral("cannot create %1: the directory %2 does not exist").arg(path, dir);
        return false;
    }

    if (!QFileInfo(dir).isWritable()) {
        if (error)
            *error = QStringLiteral("cannot create %1: permission denied (the directory %2 is "
                                    "not writable)")
                         .arg(path, dir);
        return false;
    }

    const QByteArray native = QFile::encodeName(path);
    const int rc = sqlite3_open_v2(
        native.constData(), &m_db,
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_EXRESCODE, nullptr);
    if (rc != SQLITE_OK) {
        if (error) {
            const int sysErrno = m_db ? sqlite3_system_errno(m_db) : 0;
            *error = QStringLiteral("cannot create %1: %2")
                         .arg(path, sysErrno ? QString::fromLocal8Bit(strerror(sysErrno))
                                             : sqliteReason(m_db, rc));
        }
        sqlite3_close_v2(m_db);
        m_db = nullptr;
        return false;
    }
    sqlite3_extended_result_codes(m_db, 1);

    auto fail = [&](const QString &message) {
        if (error)
            *error = message;
        close();
        // Nothing of value is in a file whose schema did not commit.
        QFile::remove(path);
        QFile::remove(path + QStringLiteral("-journal"));
        QFile::remove(path + QStringLiteral("-wal"));
        QFile::remove(path + QStringLiteral("-shm"));
        return false;
    };
    const QString cannotCreate = QStringLiteral("cannot create");

    const QByteArray header = QStringLiteral("PRAGMA page_size = 4096;"
                                             "BEGIN IMMEDIATE;"
                                             "PRAGMA application_id = %1;"
                                             "PRAGMA user_version = %2;")
                                  .arg(SessionApplicationId)
                                  .arg(m_schema)
                                  .toUtf8();
    const char *const events = m_schema == 1   ? Schema1EventsSql
                               : m_schema == 2 ? Schema2EventsSql
                               : m_schema == 3 ? Schema3EventsSql
                                               : Schema4EventsSql;
    if (sqlite3_exec(m_db, header.constData(), nullptr, nullptr, nullptr) != SQLITE_OK ||
        sqlite3_exec(m_db, SchemaCommonSql, nullptr, nullptr, nullptr) != SQLITE_OK ||
        sqlite3_exec(m_db, m_schema >= 3 ? Schema3StringsSql : Schema1StringsSql, nullptr, nullptr,
                     nullptr) != SQLITE_OK ||
        sqlite3_exec(m_db, SchemaSamplesSql, nullptr, nullptr, nullptr) != SQLITE_OK ||
        sqlite3_exec(m_db, events, nullptr, nullptr, nullptr) != SQLITE_OK ||
        (m_schema >= 4 &&
         sqlite3_exec(m_db, Schema4CgroupsSql, nullptr, nullptr, nullptr) != SQLITE_OK))
        return fail(failure(cannotCreate));

    sqlite3_stmt *meta = nullptr;
    sqlite3_prepare_v2(m_db, "INSERT INTO meta(key, value) VALUES(?, ?)", -1, &meta, nullptr);
    auto putText = [&](const char *key, const QString &value) {
        sqlite3_bind_text(meta, 1, key, -1, SQLITE_STATIC);
        if (value.isNull()) {
            sqlite3_bind_null(meta, 2);
        } else {
            const QByteArray utf8 = value.toUtf8();
            sqlite3_bind_text(meta, 2, utf8.constData(), int(utf8.size()), SQLITE_TRANSIENT);
        }
        const bool ok = sqlite3_step(meta) == SQLITE_DONE;
        sqlite3_reset(meta);
        return ok;
    };
    auto putInt = [&](const char *key, sqlite3_int64 value) {
        sqlite3_bind_text(meta, 1, key, -1, SQLITE_STATIC);
        sqlite3_bind_int64(meta, 2, value);
        const bool ok = sqlite3_step(meta) == SQLITE_DONE;
        sqlite3_reset(meta);
        return ok;
    };
    const QString startWall =
        info.startWall.isValid() ? info.startWall.toUTC().toString(Qt::ISODateWithMs) : QString();
    bool ok = putInt("schema_version", m_schema) && putText("app_version", info.appVersion) &&
              putText("host", info.host) && putText("kernel_release", info.kernelRelease) &&
              putText("start_wall", startWall) &&
              putInt("start_monotonic_ns", s64(info.startMonotonicNs)) &&
              putInt("end_monotonic_ns", s64(info.endMonotonicNs)) &&
              (info.sshTarget.isEmpty() || putText("ssh_target", info.sshTarget));
    sqlite3_finalize(meta);

    sqlite3_stmt *probe = nullptr;
    sqlite3_prepare_v2(m_db, "INSERT INTO probes(id, options, attach_path) VALUES(?, ?, ?)", -1,
                       &probe, nullptr);
    for (const ProbeConfig &p : info.probes) {
        if (!ok)
            break;
        const QByteArray id = p.id.toUtf8();
        const QByteArray options =
            QJsonDocument(QJsonObject::fromVariantMap(p.options)).toJson(QJsonDocument::Compact);
        const QByteArray attach = p.attachPath.toUtf8();
        sqlite3_bind_text(probe, 1, id.constData(), int(id.size()), SQLITE_STATIC);
        sqlite3_bind_text(probe, 2, options.constData(), int(options.size()), SQLITE_STATIC);
        sqlite3_bind_text(probe, 3, attach.constData(), int(attach.size()), SQLITE_STATIC);
        ok = sqlite3_step(probe) == SQLITE_DONE;
        sqlite3_reset(probe);
    }
    sqlite3_finalize(probe);
    if (!ok || sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
        return fail(failure(cannotCreate));

    // WAL: a batch is one append to the log and readers never block the recorder.
    // synchronous=NORMAL: a killed process loses nothing committed; a power cut may lose the
    // last commits but never corrupts the file.
    sqlite3_stmt *mode = nullptr;
    sqlite3_prepare_v2(m_db, "PRAGMA journal_mode = WAL", -1, &mode, nullptr);
    const bool wal =
        sqlite3_step(mode) == SQLITE_ROW &&
        qstricmp(reinterpret_cast<const char *>(sqlite3_column_text(mode, 0)), "wal") == 0;
    sqlite3_finalize(mode);
    if (!wal ||
        sqlite3_exec(m_db, "PRAGMA synchronous = NORMAL", nullptr, nullptr, nullptr) != SQLITE_OK)
        return fail(failure(cannotCreate));
    // The writer only appends (chunks, strings, stacks under increasing ids): SQLite's default
    // 2 MiB page cache held pages it never reads again, resident for the whole recording.
    sqlite3_exec(m_db, "PRAGMA cache_size = -256", nullptr, nullptr, nullptr);

    m_stmts = new Statements;
    struct
    {
        sqlite3_stmt **stmt;
        const char *sql;
        int first; // the schemas the statement is for
        int last;
    } const prepared[] = {
        {&m_stmts->string, "INSERT INTO strings(id, value) VALUES(?, ?)", 1, 2},
        {&m_stmts->string, "INSERT INTO strings(id, value, crc) VALUES(?, ?, ?)", 3, 4},
        {&m_stmts->exec, "INSERT INTO exec_events VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)", 1, 1},
        {&m_stmts->open, "INSERT INTO open_events VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)", 1, 1},
        {&m_stmts->block, "INSERT INTO block_events VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", 1, 1},
        {&m_stmts->tcp, "INSERT INTO tcp_connect_events VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", 1,
         1},
        {&m_stmts->fsSlow, "INSERT INTO fs_slow_events VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)", 1, 1},
        {&m_stmts->histogram, "INSERT INTO histograms VALUES(?, ?, ?, ?, ?, ?, ?)", 1, 4},
        {&m_stmts->stats, "INSERT INTO probe_stats VALUES(?, ?, ?, ?, ?, ?, ?, ?)", 1, 4},
        {&m_stmts->counter, "INSERT INTO counters VALUES(?, ?, ?, ?, ?)", 1, 4},
        {&m_stmts->chunk,
         "INSERT INTO event_chunks(type, count, first_ns, last_ns, data) VALUES(?, ?, ?, ?, ?)", 2,
         2},
        {&m_stmts->chunk,
         "INSERT INTO event_chunks(type, count, first_ns, last_ns, data, crc) "
         "VALUES(?, ?, ?, ?, ?, ?)",
         3, 4},
        {&m_stmts->frame, "INSERT INTO stack_frames VALUES(?, ?, ?, ?, ?, ?)", 2, 3},
        {&m_stmts->frame, "INSERT INTO stack_frames VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)", 4, 4},
        {&m_stmts->stack, "INSERT INTO stacks VALUES(?, ?, ?)", 2, 4},
        // OR IGNORE: an id the file already has keeps its first path (ids are never reused
        // while the machine runs).
        {&m_stmts->cgroup, "INSERT OR IGNORE INTO cgroups VALUES(?, ?, ?, ?, ?, ?)", 4, 4},
    };
    for (const auto &p : prepared) {
        if (m_schema < p.first || m_schema > p.last)
            continue;
        if (sqlite3_prepare_v3(m_db, p.sql, -1, SQLITE_PREPARE_PERSISTENT, p.stmt, nullptr) !=
            SQLITE_OK)
            return fail(failure(cannotCreate));
    }
    m_stringIds.insert(QByteArray(), 0);
    return true;
}

bool SessionWriter::setMaxPageCount(qint64 pages)
{
    if (!m_db)
        return false;
    const QByteArray sql = QByteArrayLiteral("PRAGMA max_page_count = ") +
                           QByteArray::number(pages > 0 ? pages : 0xfffffffe);
    return sqlite3_exec(m_db, sql.constData(), nullptr, nullptr, nullptr) == SQLITE_OK;
}

quint32 SessionWriter::stringId(const QByteArray &bytes)
{
    const auto it = m_stringIds.constFind(bytes);
    if (it != m_stringIds.constEnd())
        return it.value();
    const auto id = quint32(m_stringIds.size()); // id 0 is "" and never stored
    m_stringIds.insert(bytes, id);
    m_newStrings.append(bytes);
    return id;
}

bool SessionWriter::writeSchema1Events(const RecordBatch &batch)
{
    Statements &s = *m_stmts;
    auto step = [](sqlite3_stmt *stmt) {
        const int rc = sqlite3_step(stmt);
        sqlite3_reset(stmt);
        return rc == SQLITE_DONE;
    };
    auto str = [&](sqlite3_stmt *stmt, int col, const QByteArray &bytes) {
        sqlite3_bind_int64(stmt, col, stringId(bytes));
    };
    for (const ExecEvent &e : batch.exec) {
        sqlite3_stmt *st = s.exec;
        sqlite3_bind_int64(st, 1, s64(e.timeNs));
        sqlite3_bind_int64(st, 2, e.pid);
        sqlite3_bind_int64(st, 3, e.ppid);
        sqlite3_bind_int64(st, 4, e.uid);
        sqlite3_bind_int64(st, 5, e.retval);
        str(st, 6, e.comm);
        str(st, 7, e.filename);
        const QByteArray argv = encodeArgv(e.argv);
        sqlite3_bind_blob(st, 8, argv.constData(), int(argv.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 9, e.argvTruncated ? 1 : 0);
        if (!step(st))
            return false;
    }
    for (const OpenEvent &e : batch.open) {
        sqlite3_stmt *st = s.open;
        sqlite3_bind_int64(st, 1, s64(e.timeNs));
        sqlite3_bind_int64(st, 2, e.pid);
        sqlite3_bind_int64(st, 3, e.tid);
        sqlite3_bind_int64(st, 4, e.uid);
        sqlite3_bind_int64(st, 5, e.flags);
        sqlite3_bind_int64(st, 6, e.mode);
        sqlite3_bind_int64(st, 7, e.ret);
        str(st, 8, e.comm);
        str(st, 9, e.path);
        if (!step(st))
            return false;
    }
    for (const BlockEvent &e : batch.block) {
        sqlite3_stmt *st = s.block;
        sqlite3_bind_int64(st, 1, s64(e.timeNs));
        sqlite3_bind_int64(st, 2, e.dev);
        sqlite3_bind_int64(st, 3, e.cmdFlags);
        sqlite3_bind_int64(st, 4, s64(e.sector));
        sqlite3_bind_int64(st, 5, e.bytes);
        sqlite3_bind_int64(st, 6, e.pid);
        sqlite3_bind_int64(st, 7, s64(e.queueNs));
        sqlite3_bind_int64(st, 8, s64(e.deviceNs));
        str(st, 9, e.disk);
        str(st, 10, e.op);
        str(st, 11, e.comm);
        if (!step(st))
            return false;
    }
    for (const TcpConnectEvent &e : batch.tcpConnect) {
        sqlite3_stmt *st = s.tcp;
        sqlite3_bind_int64(st, 1, s64(e.timeNs));
        sqlite3_bind_int64(st, 2, e.pid);
        sqlite3_bind_int64(st, 3, e.uid);
        sqlite3_bind_int64(st, 4, e.family);
        const QByteArray saddr = encodeAddress(e.family, e.saddr);
        const QByteArray daddr = encodeAddress(e.family, e.daddr);
        sqlite3_bind_blob(st, 5, saddr.constData(), int(saddr.size()), SQLITE_TRANSIENT);
        sqlite3_bind_blob(st, 6, daddr.constData(), int(daddr.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 7, e.sport);
        sqlite3_bind_int64(st, 8, e.dport);
        sqlite3_bind_int64(st, 9, e.ret);
        str(st, 10, e.comm);
        if (!step(st))
            return false;
    }
    for (const FsSlowEvent &e : batch.fsSlow) {
        sqlite3_stmt *st = s.fsSlow;
        sqlite3_bind_int64(st, 1, s64(e.timeNs));
        sqlite3_bind_int64(st, 2, e.pid);
        sqlite3_bind_int64(st, 3, e.op);
        sqlite3_bind_int64(st, 4, s64(e.bytes));
        sqlite3_bind_int64(st, 5, s64(e.offset));
        sqlite3_bind_int64(st, 6, s64(e.latencyNs));
        str(st, 7, e.fs);
        str(st, 8, e.comm);
        str(st, 9, e.filename);
        if (!step(st))
            return false;
    }
    return true;
}

bool SessionWriter::writeChunks(const RecordBatch &batch)
{
    sqlite3_stmt *st = m_stmts->chunk;
    const auto id = [this](const QByteArray &bytes) { return stringId(bytes); };
    // A chunk that fails its checksum is lost whole: chunks much larger than a page would
    // make one flipped bit cost thousands of events. A batch's events of a type that encode to
    // more than MaxChunkBytes go into pieces of about TargetChunkBytes each (schema 3; schema
    // 2 readers read them as well).
    constexpr qsizetype MaxChunkBytes = 16384;
    constexpr qsizetype TargetChunkBytes = 8192;
    for (EventType type : eventTypes) {
        const qsizetype total = EventChunkCodec::countIn(type, batch);
        if (total == 0)
            continue;
        // Encoding the whole first also gives every string its id in the order events name
        // them, whether or not the events are then split.
        const bool cgroups = m_schema >= 4;
        const QByteArray whole = EventChunkCodec::encode(type, batch, id, cgroups);
        const qsizetype pieces =
            m_schema >= 3 && whole.size() > MaxChunkBytes
                ? std::min(total, (whole.size() + TargetChunkBytes - 1) / TargetChunkBytes)
                : 1;
        for (qsizetype piece = 0; piece < pieces; ++piece) {
            const qsizetype begin = total * piece / pieces;
            const qsizetype end = total * (piece + 1) / pieces;
            const qsizetype n = end - begin;
            const QByteArray data =
                pieces == 1 ? whole : EventChunkCodec::encode(type, batch, begin, end, id, cgroups);
            quint64 first = ~quint64(0), last = 0;
            for (qsizetype i = begin; i < end; ++i) {
                const quint64 t = EventChunkCodec::timeAt(type, batch, i);
                first = std::min(first, t);
                last = std::max(last, t);
            }
            sqlite3_bind_int(st, 1, int(type));
            sqlite3_bind_int64(st, 2, n);
            sqlite3_bind_int64(st, 3, s64(first));
            sqlite3_bind_int64(st, 4, s64(last));
            sqlite3_bind_blob(st, 5, data.constData(), int(data.size()), SQLITE_STATIC);
            if (m_schema >= 3)
                sqlite3_bind_int64(st, 6,
                                   EventChunkCodec::checksum(int(type), n, first, last, data));
            const int rc = sqlite3_step(st);
            sqlite3_reset(st);
            if (rc != SQLITE_DONE)
                return false;
        }
    }
    return true;
}

bool SessionWriter::writeStacks(const RecordBatch &batch)
{
    for (const FrameDefinition &d : batch.frames) {
        sqlite3_stmt *st = m_stmts->frame;
        sqlite3_bind_int64(st, 1, d.id);
        sqlite3_bind_int(st, 2, int(d.frame.kind));
        sqlite3_bind_int64(st, 3, s64(d.frame.address));
        bindBlob(st, 4, d.frame.module);
        bindBlob(st, 5, d.frame.buildId);
        bindBlob(st, 6, d.frame.symbol);
        if (m_schema >= 4) {
            bindBlob(st, 7, d.frame.file);
            sqlite3_bind_int64(st, 8, d.frame.line);
            sqlite3_bind_int(st, 9, d.frame.inlined ? 1 : 0);
        }
        const int rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc != SQLITE_DONE)
            return false;
    }
    QByteArray frames;
    for (const StackDefinition &d : batch.stacks) {
        sqlite3_stmt *st = m_stmts->stack;
        frames.truncate(0);
        for (quint32 f : d.frames)
            putVarint(frames, f);
        sqlite3_bind_int64(st, 1, d.id);
        sqlite3_bind_int(st, 2, d.flags);
        bindBlob(st, 3, frames);
        const int rc = sqlite3_step(st);
        sqlite3_reset(st);
        if (rc != SQLITE_DONE)
            return false;
    }
    return true;
}

QString SessionWriter::checkDefinitions(const RecordBatch &batch) const
{
    // The reader refuses a definition out of order or a stack naming an unknown frame, so such
    // a batch is refused here rather than making the whole file unreadable.
    quint32 next = m_frameCount + 1;
    for (const FrameDefinition &d : batch.frames) {
        if (d.id != next)
            return QStringLiteral("stack frame %1 is defined out of order (expected %2)")
                .arg(d.id)
                .arg(next);
        if (d.frame.kind != FrameKind::Kernel && d.frame.kind != FrameKind::User)
            return QStringLiteral("stack frame %1 has kind %2, neither 1 (kernel) nor 2 (user)")
                .arg(d.id)
                .arg(int(d.frame.kind));
        ++next;
    }
    const quint32 frames = next - 1;
    next = m_stackCount + 1;
    for (const StackDefinition &d : batch.stacks) {
        if (d.id != next)
            return QStringLiteral("stack %1 is defined out of order (expected %2)")
                .arg(d.id)
                .arg(next);
        for (quint32 f : d.frames) {
            if (f < 1 || f > frames)
                return QStringLiteral("stack %1 names frame %2, which is not defined")
                    .arg(d.id)
                    .arg(f);
        }
        ++next;
    }
    return QString();
}

bool SessionWriter::writeRows(const RecordBatch &batch)
{
    Statements &s = *m_stmts;
    auto step = [](sqlite3_stmt *stmt) {
        const int rc = sqlite3_step(stmt);
        sqlite3_reset(stmt);
        return rc == SQLITE_DONE;
    };
    // Strings last: events refer to them by id, and new ones are collected as events are
    // encoded; all of it is one transaction, so the order inside it does not matter.
    const qsizetype knownStrings = m_newStrings.size();
    if (m_schema == 1) {
        if (!writeSchema1Events(batch))
            return false;
    } else if (!writeStacks(batch) || !writeChunks(batch)) {
        return false;
    }
    if (s.cgroup) {
        for (const CgroupPath &c : batch.cgroups) {
            sqlite3_stmt *st = s.cgroup;
            const CgroupNames names = parseCgroupPath(c.path);
            const QByteArray container = names.container.toUtf8();
            const QByteArray runtime = names.runtime.toUtf8();
            const QByteArray pod = names.pod.toUtf8();
            const QByteArray unit = names.unit.toUtf8();
            sqlite3_bind_int64(st, 1, s64(c.id));
            bindBlob(st, 2, c.path);
            sqlite3_bind_text(st, 3, container.constData(), int(container.size()),
                              SQLITE_TRANSIENT);
            sqlite3_bind_text(st, 4, runtime.constData(), int(runtime.size()), SQLITE_TRANSIENT);
            sqlite3_bind_text(st, 5, pod.constData(), int(pod.size()), SQLITE_TRANSIENT);
            sqlite3_bind_text(st, 6, unit.constData(), int(unit.size()), SQLITE_TRANSIENT);
            if (!step(st))
                return false;
        }
    }
    for (const HistogramSnapshot &h : batch.histograms) {
        sqlite3_stmt *st = s.histogram;
        const QByteArray probe = h.probeId.toUtf8();
        const QByteArray key = h.key.toUtf8();
        const QByteArray slots = encodeSlots(h.histogram);
        sqlite3_bind_text(st, 1, probe.constData(), int(probe.size()), SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 2, key.constData(), int(key.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 3, s64(h.timeNs));
        sqlite3_bind_int64(st, 4, s64(h.intervalNs));
        sqlite3_bind_int(st, 5, int(h.histogram.unit()));
        sqlite3_bind_int64(st, 6, s64(h.histogram.sum()));
        sqlite3_bind_blob(st, 7, slots.constData(), int(slots.size()), SQLITE_TRANSIENT);
        if (!step(st))
            return false;
    }
    for (const ProbeStats &p : batch.stats) {
        sqlite3_stmt *st = s.stats;
        const QByteArray probe = p.probeId.toUtf8();
        sqlite3_bind_text(st, 1, probe.constData(), int(probe.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 2, s64(p.timeNs));
        sqlite3_bind_int64(st, 3, s64(p.eventsSeen));
        sqlite3_bind_int64(st, 4, s64(p.eventsLost));
        sqlite3_bind_int64(st, 5, s64(p.runCount));
        sqlite3_bind_int64(st, 6, s64(p.runTimeNs));
        sqlite3_bind_int64(st, 7, s64(p.eventsUnseen));
        sqlite3_bind_int64(st, 8, s64(p.unfinished));
        if (!step(st))
            return false;
    }
    for (const CounterSample &c : batch.counters) {
        sqlite3_stmt *st = s.counter;
        const QByteArray probe = c.probeId.toUtf8();
        const QByteArray name = c.name.toUtf8();
        sqlite3_bind_text(st, 1, probe.constData(), int(probe.size()), SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 2, name.constData(), int(name.size()), SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 3, s64(c.timeNs));
        sqlite3_bind_int64(st, 4, s64(c.intervalNs));
        // SQLite has no NaN (it would store NULL anyway); NULL is read back as NaN.
        if (std::isnan(c.value))
            sqlite3_bind_null(st, 5);
        else
            sqlite3_bind_double(st, 5, c.value);
        if (!step(st))
            return false;
    }
    for (qsizetype i = knownStrings; i < m_newStrings.size(); ++i) {
        const QByteArray &bytes = m_newStrings.at(i);
        const qint64 id = m_stringIds.value(bytes);
        sqlite3_bind_int64(s.string, 1, id);
        sqlite3_bind_blob(s.string, 2, bytes.constData(), int(bytes.size()), SQLITE_STATIC);
        if (m_schema >= 3)
            sqlite3_bind_int64(s.string, 3, EventChunkCodec::stringChecksum(id, bytes));
        if (!step(s.string))
            return false;
    }
    return true;
}

bool SessionWriter::writeBatch(const RecordBatch &batch, QString *error)
{
    if (!m_db) {
        if (error)
            *error = QStringLiteral("cannot write: no session file is open");
        return false;
    }
    if (m_schema == 1) {
        // Schema 1 has a table for each of the first five types only (frozen: newer types are
        // chunks of schema 2).
        QString refused;
        forEachEventType([&]<typename E>() {
            if (refused.isEmpty() && int(eventTypeOf<E>) > int(EventType::FsSlow) &&
                !batch.events<E>().isEmpty())
                refused = QLatin1String(EventTraits<E>::probeId) + QStringLiteral(" events");
        });
        if (refused.isEmpty() && (!batch.frames.isEmpty() || !batch.stacks.isEmpty()))
            refused = QStringLiteral("stacks");
        if (!refused.isEmpty()) {
            if (error)
                *error = QStringLiteral("cannot write to %1: schema 1 files cannot hold %2")
                             .arg(m_path, refused);
            return false;
        }
    } else if (const QString why = checkDefinitions(batch); !why.isEmpty()) {
        if (error)
            *error = QStringLiteral("cannot write to %1: %2").arg(m_path, why);
        return false;
    }
    m_newStrings.clear();
    bool ok = sqlite3_exec(m_db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK &&
              writeRows(batch) &&
              sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr) == SQLITE_OK;
    if (ok) {
        m_newStrings.clear();
        ++m_batches;
        m_frameCount += quint32(batch.frames.size());
        m_stackCount += quint32(batch.stacks.size());
        return true;
    }
    const QString message = failure(QStringLiteral("cannot write to"));
    // SQLite may already have rolled back (it does on SQLITE_FULL); otherwise do it here so
    // the file keeps exactly the batches committed before this one.
    if (!sqlite3_get_autocommit(m_db))
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
    for (const QByteArray &bytes : std::as_const(m_newStrings))
        m_stringIds.remove(bytes);
    m_newStrings.clear();
    if (error)
        *error = message;
    return false;
}

bool SessionWriter::finish(quint64 endMonotonicNs, QString *error)
{
    if (!m_db) {
        if (error)
            *error = QStringLiteral("cannot finish: no session file is open");
        return false;
    }
    sqlite3_stmt *st = nullptr;
    sqlite3_prepare_v2(m_db, "UPDATE meta SET value = ? WHERE key = 'end_monotonic_ns'", -1, &st,
                       nullptr);
    sqlite3_bind_int64(st, 1, s64(endMonotonicNs));
    const bool ok = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    if (!ok) {
        if (error)
            *error = failure(QStringLiteral("cannot write to"));
        close();
        return false;
    }
    // Fold the WAL into the file and leave WAL mode, so the finished session is one file that
    // opens anywhere, also from read-only media. If a reader holds the file open the mode
    // switch is refused (SQLITE_BUSY); the file is still complete, only still in WAL mode.
    sqlite3_exec(m_db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
    sqlite3_exec(m_db, "PRAGMA journal_mode = DELETE", nullptr, nullptr, nullptr);
    close();
    return true;
}

// --- reading ---------------------------------------------------------------------------------

namespace {

std::atomic<int> g_decodeThreads{-1}; // SessionReader::setDecodeThreads()

// A row of event_chunks on its way through the parallel load: read by the loading thread,
// checked and decoded by a worker, committed by the loading thread in row order.
struct ChunkRow
{
    qint64 seq = 0;
    StoredChunk chunk; // chunk.data: set by the worker, from dataOffset in its job's bytes
    qsizetype dataOffset = 0;
    int dataType = 0;
    qsizetype base = -1; // its first row in its type's columns; -1: refused before decoding
    PlacedChunk placed;
    bool skipped = false; // an event type of a newer BPF Lens: counted, not decoded
    QString refusal;      // why the row is refused (what follows "table event_chunks, row N: ")
};

// Consecutive rows, some hundred KiB of them: a chunk is about 8 KiB, too little to hand to
// another thread on its own.
struct ChunkJob
{
    std::vector<ChunkRow> rows;
    QByteArray bytes;
    std::exception_ptr exception;
    bool done = false;
};

// Worker threads that run jobs in the order they were pushed, handing them back in that order.
// Without workers push() runs the job at once.
class ChunkDecoders
{
public:
    ChunkDecoders(int threads, std::function<void(ChunkJob &)> work)
        : m_work(std::move(work))
    {
        for (int i = 0; i < threads; ++i)
            m_threads.emplace_back([this] { runWorker(); });
    }
    ~ChunkDecoders()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_stopping = true;
        }
        m_wake.notify_all();
        for (std::thread &t : m_threads)
            t.join();
    }
    ChunkDecoders(const ChunkDecoders &) = delete;
    ChunkDecoders &operator=(const ChunkDecoders &) = delete;

    size_t queued() const
    {
        const std::lock_guard lock(m_mutex);
        return m_jobs.size();
    }
    void push(std::unique_ptr<ChunkJob> job)
    {
        if (m_threads.empty()) {
            m_work(*job);
            job->done = true;
            m_jobs.push_back(std::move(job));
            return;
        }
        {
            const std::lock_guard lock(m_mutex);
            m_jobs.push_back(std::move(job));
        }
        m_wake.notify_one();
    }
    // The oldest job, once it is done (waiting for it if wait); null if there is none or it is
    // not done yet.
    std::unique_ptr<ChunkJob> takeDone(bool wait)
    {
        std::unique_lock lock(m_mutex);
        if (wait)
            m_doneChanged.wait(lock, [this] { return m_jobs.empty() || m_jobs.front()->done; });
        if (m_jobs.empty() || !m_jobs.front()->done)
            return nullptr;
        std::unique_ptr<ChunkJob> job = std::move(m_jobs.front());
        m_jobs.pop_front();
        --m_next;
        return job;
    }

private:
    void runWorker()
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_wake.wait(lock, [this] { return m_stopping || m_next < m_jobs.size(); });
            if (m_stopping)
                return;
            ChunkJob *job = m_jobs[m_next++].get();
            lock.unlock();
            try {
                m_work(*job);
            } catch (...) {
                job->exception = std::current_exception();
            }
            lock.lock();
            job->done = true;
            m_doneChanged.notify_all();
        }
    }

    std::function<void(ChunkJob &)> m_work;
    std::vector<std::thread> m_threads;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_doneChanged;
    std::deque<std::unique_ptr<ChunkJob>> m_jobs; // in row order
    size_t m_next = 0;                            // the first job no worker has taken
    bool m_stopping = false;
};

int decodeThreadCount()
{
    const int set = g_decodeThreads.load();
    if (set >= 0)
        return set;
    // The loading thread reads the rows and commits; the others decode. More than a few
    // would wait on the one reading.
    return int(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
}

class Reader
{
public:
    Reader(const QString &path, SessionData *data, const SessionReader::Progress &progress)
        : m_path(path)
        , m_data(data)
        , m_progress(progress)
    {
    }
    ~Reader()
    {
        if (m_db)
            sqlite3_close_v2(m_db);
    }

    bool run(QString *error);
    // The refusal was damage the salvage reader may get around.
    bool salvageable() const { return m_damage; }

private:
    bool openDatabase(bool immutable);
    bool check(int rc);
    bool query(const char *sql, const std::function<bool(sqlite3_stmt *)> &row);
    bool tick();
    QByteArray blob(sqlite3_stmt *st, int col) const;
    const QByteArray &string(sqlite3_stmt *st, int col);
    bool tickBy(qint64 n);
    bool loadMeta();
    bool loadEvents();
    bool loadSchema1Events();
    bool loadChunks();
    void decodeJob(ChunkJob &job) const;
    void decodeRow(ChunkRow &row) const;
    bool commitJob(ChunkJob &job);
    bool loadStacks();
    bool loadCgroups();
    bool loadSamples();

    QString m_path;
    SessionData *m_data;
    const SessionReader::Progress &m_progress;
    sqlite3 *m_db = nullptr;
    QString m_error;
    qint64 m_done = 0;
    qint64 m_total = 0;
    std::vector<QByteArray> m_strings; // schema 1: file string id -> bytes
    std::vector<quint32> m_stringMap;  // schema 2: file string id -> EventStore pool id
    // The parallel chunk load: rows of each type made, and placed so far.
    std::vector<qsizetype> m_rowsPlaced;
    std::vector<qsizetype> m_rowsSized;
    int m_schema = 0;
    bool m_hasCounters = false;
    bool m_hasStacks = false;
    bool m_frameSources = false;    // stack_frames has file, line and inlined (schema 4)
    bool m_chunkChecksums = false;  // schema 3: event_chunks.crc
    bool m_stringChecksums = false; // schema 3: strings.crc
    bool m_damage = false;
    bool m_ours = false; // application_id says BPF Lens
};

QString damaged(const QString &path, const QString &why)
{
    return QStringLiteral("%1 is damaged (%2); it cannot be read").arg(path, why);
}

bool Reader::openDatabase(bool immutable)
{
    if (m_db)
        sqlite3_close_v2(m_db);
    m_db = nullptr;
    // immutable=1 tells SQLite the file cannot change, so it needs no -shm and takes no locks:
    // only used when there is no WAL to read and the directory does not let us create one.
    const QByteArray uri =
        QByteArrayLiteral("file:") +
        QUrl::toPercentEncoding(QFileInfo(m_path).absoluteFilePath(), "/") +
        (immutable ? QByteArrayLiteral("?immutable=1") : QByteArrayLiteral("?mode=ro"));
    const int rc =
        sqlite3_open_v2(uri.constData(), &m_db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    if (rc != SQLITE_OK) {
        m_error = QStringLiteral("cannot open %1: %2").arg(m_path, sqliteReason(m_db, rc));
        return false;
    }
    sqlite3_extended_result_codes(m_db, 1);
    return true;
}

bool Reader::check(int rc)
{
    if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE)
        return true;
    if (!m_error.isEmpty())
        return false;
    const int base = rc & 0xff;
    // SQLITE_ERROR once the file is known to be ours is a schema damage left unreadable
    // ("no such column"): the salvage reader may still read the other tables.
    if (base == SQLITE_CORRUPT || base == SQLITE_NOTADB || base == SQLITE_FORMAT ||
        (base == SQLITE_ERROR && m_ours)) {
        m_error = damaged(m_path, QString::fromUtf8(sqlite3_errmsg(m_db)));
        m_damage = true;
    } else
        m_error = QStringLiteral("cannot read %1: %2").arg(m_path, sqliteReason(m_db, rc));
    return false;
}

bool Reader::query(const char *sql, const std::function<bool(sqlite3_stmt *)> &row)
{
    sqlite3_stmt *st = nullptr;
    if (!check(sqlite3_prepare_v2(m_db, sql, -1, &st, nullptr)))
        return false;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (!row(st)) {
            sqlite3_finalize(st);
            return false;
        }
    }
    sqlite3_finalize(st);
    return check(rc);
}

bool Reader::tickBy(qint64 n)
{
    // Progress every 8192 rows or events, whichever way they come.
    const qint64 before = m_done;
    m_done += n;
    if (m_progress && (before >> 13) != (m_done >> 13) && !m_progress(m_done, m_total)) {
        m_error = QStringLiteral("cancelled");
        return false;
    }
    return true;
}

bool Reader::tick()
{
    ++m_done;
    if (m_progress && (m_done & 0x1fff) == 0 && !m_progress(m_done, m_total)) {
        m_error = QStringLiteral("cancelled");
        return false;
    }
    return true;
}

QByteArray Reader::blob(sqlite3_stmt *st, int col) const
{
    const int n = sqlite3_column_bytes(st, col);
    const void *p = sqlite3_column_blob(st, col);
    return n > 0 && p ? QByteArray(static_cast<const char *>(p), n) : QByteArray();
}

const QByteArray &Reader::string(sqlite3_stmt *st, int col)
{
    static const QByteArray empty;
    const sqlite3_int64 id = sqlite3_column_int64(st, col);
    if (id > 0 && quint64(id) < m_strings.size())
        return m_strings[size_t(id)];
    if (id != 0 && m_error.isEmpty()) {
        m_error = damaged(m_path, QStringLiteral("a string id is out of range"));
        m_damage = true;
    }
    return empty;
}

} // namespace

void applyMetaValue(SessionInfo &info, const QByteArray &key, sqlite3_stmt *st, int column)
{
    const QString text =
        sqlite3_column_type(st, column) == SQLITE_NULL
            ? QString()
            : QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, column)));
    const quint64 number = quint64(sqlite3_column_int64(st, column));
    if (key == "app_version")
        info.appVersion = text;
    else if (key == "host")
        info.host = text;
    else if (key == "ssh_target")
        info.sshTarget = text;
    else if (key == "kernel_release")
        info.kernelRelease = text;
    else if (key == "start_wall")
        info.startWall =
            text.isNull() ? QDateTime() : QDateTime::fromString(text, Qt::ISODateWithMs);
    else if (key == "start_monotonic_ns")
        info.startMonotonicNs = number;
    else if (key == "end_monotonic_ns")
        info.endMonotonicNs = number;
}

CounterSample counterFromRow(sqlite3_stmt *st, int column)
{
    CounterSample c;
    c.probeId = QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, column)));
    c.name = QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, column + 1)));
    c.timeNs = quint64(sqlite3_column_int64(st, column + 2));
    c.intervalNs = quint64(sqlite3_column_int64(st, column + 3));
    c.value = sqlite3_column_type(st, column + 4) == SQLITE_NULL
                  ? std::numeric_limits<double>::quiet_NaN()
                  : sqlite3_column_double(st, column + 4);
    return c;
}

bool histogramFromRow(sqlite3_stmt *st, int column, HistogramSnapshot *out)
{
    const int unit = sqlite3_column_int(st, column + 4);
    const auto *slots = static_cast<const char *>(sqlite3_column_blob(st, column + 6));
    const int n = sqlite3_column_bytes(st, column + 6);
    if (unit < 0 || unit > int(LastHistogramUnit) || n % 8 || n > Log2Histogram::MaxSlots * 8 ||
        (n && !slots))
        return false;
    HistogramSnapshot h;
    h.probeId = QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, column)));
    h.key = QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, column + 1)));
    h.timeNs = quint64(sqlite3_column_int64(st, column + 2));
    h.intervalNs = quint64(sqlite3_column_int64(st, column + 3));
    h.histogram = Log2Histogram(HistogramUnit(unit));
    for (int i = 0; i < n / 8; ++i)
        h.histogram.addToSlot(i, qFromLittleEndian<quint64>(slots + i * 8));
    h.histogram.setSum(quint64(sqlite3_column_int64(st, column + 5)));
    *out = std::move(h);
    return true;
}

ProbeStats probeStatsFromRow(sqlite3_stmt *st, int column, bool withCauses)
{
    ProbeStats p;
    p.probeId = QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, column)));
    p.timeNs = quint64(sqlite3_column_int64(st, column + 1));
    p.eventsSeen = quint64(sqlite3_column_int64(st, column + 2));
    p.eventsLost = quint64(sqlite3_column_int64(st, column + 3));
    p.runCount = quint64(sqlite3_column_int64(st, column + 4));
    p.runTimeNs = quint64(sqlite3_column_int64(st, column + 5));
    if (withCauses) {
        p.eventsUnseen = quint64(sqlite3_column_int64(st, column + 6));
        p.unfinished = quint64(sqlite3_column_int64(st, column + 7));
    }
    return p;
}

namespace {

bool Reader::loadMeta()
{
    SessionInfo &info = m_data->info;
    bool ok = query("SELECT key, value FROM meta", [&](sqlite3_stmt *st) {
        const QByteArray key(reinterpret_cast<const char *>(sqlite3_column_text(st, 0)));
        applyMetaValue(info, key, st, 1);
        return true;
    });
    if (info.startWall.isValid())
        info.startWall = info.startWall.toUTC();
    return ok &&
           query("SELECT id, options, attach_path FROM probes ORDER BY seq", [&](sqlite3_stmt *st) {
               ProbeConfig p;
               p.id = QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, 0)));
               p.options = QJsonDocument::fromJson(blob(st, 1)).object().toVariantMap();
               p.attachPath =
                   QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, 2)));
               info.probes.append(p);
               return true;
           });
}

bool Reader::loadEvents()
{
    const bool ok =
        m_schema == 1 ? loadSchema1Events() : loadStacks() && loadChunks() && loadCgroups();
    m_strings.clear();
    m_stringMap.clear();
    return ok && loadSamples() && m_error.isEmpty();
}

bool Reader::loadCgroups()
{
    // Schema 4: the paths of the cgroups the events name (older files have none: every event's
    // cgroup id is 0, unknown).
    if (m_schema < 4)
        return true;
    return query("SELECT id, path FROM cgroups ORDER BY id", [&](sqlite3_stmt *st) {
        m_data->cgroups.add(CgroupPath{quint64(sqlite3_column_int64(st, 0)), blob(st, 1)});
        return true;
    });
}

bool Reader::loadStacks()
{
    if (!m_hasStacks)
        return true;
    StackTable &table = m_data->stacks;
    const auto bad = [&](const char *tableName, sqlite3_int64 id, const QString &why) {
        m_error = damaged(
            m_path,
            QStringLiteral("table %1, id %2: %3").arg(QLatin1String(tableName)).arg(id).arg(why));
        m_damage = true;
        return false;
    };
    const auto validId = [](sqlite3_int64 id) {
        return id >= 1 && id <= std::numeric_limits<quint32>::max();
    };
    bool ok = query(
        m_frameSources ? "SELECT id, kind, address, module, build_id, symbol, file, line, inlined "
                         "FROM stack_frames ORDER BY id"
                       : "SELECT id, kind, address, module, build_id, symbol FROM stack_frames "
                         "ORDER BY id",
        [&](sqlite3_stmt *st) {
            const sqlite3_int64 id = sqlite3_column_int64(st, 0);
            if (!validId(id))
                return bad("stack_frames", id, QStringLiteral("the id is out of range"));
            const sqlite3_int64 kind = sqlite3_column_int64(st, 1);
            if (kind != int(FrameKind::Kernel) && kind != int(FrameKind::User))
                return bad("stack_frames", id,
                           QStringLiteral("kind %1 is neither 1 (kernel) nor 2 (user)").arg(kind));
            FrameDefinition d;
            d.id = quint32(id);
            d.frame.kind = FrameKind(kind);
            d.frame.address = quint64(sqlite3_column_int64(st, 2));
            d.frame.module = blob(st, 3);
            d.frame.buildId = blob(st, 4);
            d.frame.symbol = blob(st, 5);
            if (m_frameSources) {
                d.frame.file = blob(st, 6);
                const sqlite3_int64 line = sqlite3_column_int64(st, 7);
                const sqlite3_int64 inlined = sqlite3_column_int64(st, 8);
                if (line < 0 || line > std::numeric_limits<quint32>::max())
                    return bad("stack_frames", id,
                               QStringLiteral("line %1 is out of range").arg(line));
                if (inlined != 0 && inlined != 1)
                    return bad("stack_frames", id,
                               QStringLiteral("inlined %1 is neither 0 nor 1").arg(inlined));
                d.frame.line = quint32(line);
                d.frame.inlined = inlined == 1;
            }
            QString why;
            if (!table.add(d, &why))
                return bad("stack_frames", id, why);
            return tick();
        });
    return ok && query("SELECT id, flags, frames FROM stacks ORDER BY id", [&](sqlite3_stmt *st) {
               const sqlite3_int64 id = sqlite3_column_int64(st, 0);
               if (!validId(id))
                   return bad("stacks", id, QStringLiteral("the id is out of range"));
               const sqlite3_int64 flags = sqlite3_column_int64(st, 1);
               if (flags < 0 || flags > 255)
                   return bad("stacks", id,
                              QStringLiteral("flags %1 are out of range (0-255)").arg(flags));
               StackDefinition d;
               d.id = quint32(id);
               d.flags = quint8(flags);
               const auto *p = static_cast<const uchar *>(sqlite3_column_blob(st, 2));
               const int n = sqlite3_column_bytes(st, 2);
               const uchar *end = p ? p + n : p;
               d.frames.reserve(n); // at least a byte per frame
               while (p < end) {
                   quint64 frame = 0;
                   if (getVarint(p, end, &frame) != VarintRead::Ok)
                       return bad(
                           "stacks", id,
                           QStringLiteral("frame %1 of the frames blob is cut short or longer "
                                          "than 64 bits")
                               .arg(d.frames.size() + 1));
                   if (frame > std::numeric_limits<quint32>::max())
                       return bad("stacks", id,
                                  QStringLiteral("frame id %1 is out of range").arg(frame));
                   d.frames.append(quint32(frame));
               }
               QString why;
               if (!table.add(d, &why))
                   return bad("stacks", id, why);
               return tick();
           });
}

bool Reader::loadChunks()
{
    EventStore &store = m_data->events;
    m_stringMap.assign(1, 0);
    const char *const stringSql = m_stringChecksums
                                      ? "SELECT id, value, crc FROM strings ORDER BY id"
                                      : "SELECT id, value, NULL FROM strings ORDER BY id";
    bool ok = query(stringSql, [&](sqlite3_stmt *st) {
        const sqlite3_int64 id = sqlite3_column_int64(st, 0);
        // Ids are dense from 1: the writer never leaves a gap, so a gap is damage.
        if (id != sqlite3_int64(m_stringMap.size())) {
            m_error = damaged(m_path, QStringLiteral("table strings: id %1 where %2 was expected")
                                          .arg(id)
                                          .arg(m_stringMap.size()));
            m_damage = true;
            return false;
        }
        const QByteArray bytes = blob(st, 1);
        if (m_stringChecksums &&
            !EventChunkCodec::stringChecksumMatches(
                id, bytes,
                sqlite3_column_type(st, 2) == SQLITE_INTEGER ? sqlite3_column_int64(st, 2) : -1)) {
            m_error =
                damaged(m_path, QStringLiteral("table strings, id %1: checksum mismatch").arg(id));
            m_damage = true;
            return false;
        }
        m_stringMap.push_back(EventChunkCodec::intern(&store, bytes));
        return tick();
    });
    // Each type's rows are allocated once: counts are summed first, capped by what the blobs
    // could hold so a hostile count cannot make this allocate more than the file's size. The
    // rows are made at once (not written: no page is touched until a worker writes its rows),
    // each chunk then decoded into its own rows by whichever thread is free.
    m_rowsPlaced.assign(256, 0);
    m_rowsSized.assign(256, 0);
    ok = ok && query("SELECT type, sum(max(min(count, length(data)), 0)), sum(length(data)) "
                     "FROM event_chunks GROUP BY type",
                     [&](sqlite3_stmt *st) {
                         const int type = sqlite3_column_int(st, 0);
                         if (!isEventType(type))
                             return true;
                         const auto t = EventType(type);
                         const qint64 count = sqlite3_column_int64(st, 1);
                         const qint64 bytes = sqlite3_column_int64(st, 2);
                         const qint64 rows = qBound<qint64>(
                             0, count, bytes / EventChunkCodec::minBytesPerEvent(t, m_schema >= 4));
                         EventChunkCodec::setRows(&store, t, rows);
                         EventChunkCodec::reserveLists(&store, t, rows, bytes);
                         m_rowsSized[size_t(type)] = rows;
                         return true;
                     });
    if (!ok)
        return false;
    const char *const chunkSql =
        m_chunkChecksums
            ? "SELECT seq, type, count, data, first_ns, last_ns, crc FROM event_chunks ORDER BY seq"
            : "SELECT seq, type, count, data, first_ns, last_ns, NULL FROM event_chunks ORDER BY "
              "seq";
    sqlite3_stmt *st = nullptr;
    if (!check(sqlite3_prepare_v2(m_db, chunkSql, -1, &st, nullptr)))
        return false;
    const int workers = decodeThreadCount();
    // A few jobs in flight per worker: enough to keep them busy, little enough not to show in
    // a session's peak memory.
    const size_t maxQueued = size_t(workers) * 2 + 1;
    constexpr qsizetype JobBytes = 256 * 1024;
    constexpr size_t JobRows = 64;
    bool failed = false;
    int rc = SQLITE_OK;
    {
        ChunkDecoders decoders(workers, [this](ChunkJob &job) { decodeJob(job); });
        const auto commitDone = [&](bool wait) {
            while (std::unique_ptr<ChunkJob> job = decoders.takeDone(wait)) {
                if (!commitJob(*job))
                    return false;
            }
            return true;
        };
        auto job = std::make_unique<ChunkJob>();
        const auto dispatch = [&] {
            while (decoders.queued() >= maxQueued) {
                if (!commitDone(true))
                    return false;
            }
            decoders.push(std::move(job));
            job = std::make_unique<ChunkJob>();
            return commitDone(false);
        };
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            ChunkRow &row = job->rows.emplace_back();
            row.seq = sqlite3_column_int64(st, 0);
            StoredChunk &chunk = row.chunk;
            chunk.type = sqlite3_column_int(st, 1);
            chunk.count = sqlite3_column_int64(st, 2);
            // Before reading it as a blob, which may convert it.
            row.dataType = sqlite3_column_type(st, 3);
            const void *p = sqlite3_column_blob(st, 3);
            const int n = p ? sqlite3_column_bytes(st, 3) : 0;
            row.dataOffset = job->bytes.size();
            job->bytes.append(static_cast<const char *>(p), n);
            chunk.data = QByteArrayView(static_cast<const char *>(p), n); // until dispatched
            chunk.firstNs = quint64(sqlite3_column_int64(st, 4));
            chunk.lastNs = quint64(sqlite3_column_int64(st, 5));
            chunk.hasChecksum = m_chunkChecksums;
            chunk.hasCgroups = m_schema >= 4;
            chunk.checksum =
                sqlite3_column_type(st, 6) == SQLITE_INTEGER ? sqlite3_column_int64(st, 6) : -1;
            // Its rows: only for a chunk whose count the decoder accepts (the same test), so
            // the rows placed never exceed the rows made.
            if (isEventType(chunk.type) &&
                (row.dataType == SQLITE_BLOB || row.dataType == SQLITE_NULL) && chunk.count >= 0 &&
                chunk.count <= n / EventChunkCodec::minBytesPerEvent(EventType(chunk.type),
                                                                     chunk.hasCgroups)) {
                qsizetype &placed = m_rowsPlaced[size_t(chunk.type)];
                if (placed + chunk.count <= m_rowsSized[size_t(chunk.type)]) {
                    row.base = placed;
                    placed += chunk.count;
                }
            }
            if ((job->bytes.size() >= JobBytes || job->rows.size() >= JobRows) && !dispatch()) {
                failed = true;
                break;
            }
        }
        // Also after a read error: a chunk refused before it is what a sequential read said.
        if (!failed && !job->rows.empty() && !dispatch())
            failed = true;
        if (!failed && !commitDone(true))
            failed = true;
    }
    sqlite3_finalize(st);
    if (failed || !check(rc))
        return false;
    forEachEventType([&]<typename E>() {
        const EventType t = eventTypeOf<E>;
        EventChunkCodec::setRows(&store, t, m_rowsPlaced[size_t(t)]);
    });
    return m_error.isEmpty();
}

void Reader::decodeJob(ChunkJob &job) const
{
    for (ChunkRow &row : job.rows) {
        row.chunk.data =
            QByteArrayView(job.bytes.constData() + row.dataOffset, row.chunk.data.size());
        decodeRow(row);
        // Nothing after a refused row is committed.
        if (!row.refusal.isEmpty())
            return;
    }
}

void Reader::decodeRow(ChunkRow &row) const
{
    const StoredChunk &chunk = row.chunk;
    // The checks in the order the rows were always checked in.
    // The checksum first: a flipped type must not pass for a newer one.
    if (!EventChunkCodec::checksumMatches(chunk)) {
        row.refusal = QStringLiteral("checksum mismatch");
        return;
    }
    if (chunk.type < 1) {
        row.refusal = QStringLiteral("event type %1 does not exist").arg(chunk.type);
        return;
    }
    // A newer BPF Lens may add event types; their chunks are skipped like unknown tables.
    if (!isEventType(chunk.type)) {
        row.skipped = true;
        return;
    }
    if (row.dataType != SQLITE_BLOB && row.dataType != SQLITE_NULL) {
        row.refusal = QStringLiteral("data is not a blob");
        return;
    }
    StoredChunk checked = chunk;
    checked.hasChecksum = false; // checked above, once
    QString why;
    ChunkCheck result;
    if (row.base >= 0) {
        result = EventChunkCodec::decodePlaced(checked, m_stringMap, &m_data->events, row.base,
                                               &row.placed, &why);
    } else {
        // Refused for its count before a row is written; a scratch store gives the message.
        EventStore scratch;
        result = EventChunkCodec::decodeStored(checked, m_stringMap, &scratch, &why);
        if (result == ChunkCheck::Ok)
            why = QStringLiteral("more events than the table's counts allow");
        result = ChunkCheck::Malformed;
    }
    if (result != ChunkCheck::Ok)
        row.refusal = QStringLiteral("%1 chunk: %2")
                          .arg(QLatin1String(probeIdOf(EventType(chunk.type))), why)
                          .trimmed();
}

bool Reader::commitJob(ChunkJob &job)
{
    if (job.exception)
        std::rethrow_exception(job.exception);
    for (ChunkRow &row : job.rows) {
        if (!row.refusal.isEmpty()) {
            m_error = damaged(
                m_path,
                QStringLiteral("table event_chunks, row %1: %2").arg(row.seq).arg(row.refusal));
            m_damage = true;
            return false;
        }
        if (row.skipped) {
            if (!tickBy(row.chunk.count > 0 ? row.chunk.count : 0))
                return false;
            continue;
        }
        EventChunkCodec::commit(&m_data->events, row.placed);
        if (!tickBy(row.chunk.count))
            return false;
    }
    return true;
}

bool Reader::loadSchema1Events()
{
    EventStore &store = m_data->events;
    m_strings.assign(1, QByteArray());
    bool ok = query("SELECT id, value FROM strings ORDER BY id", [&](sqlite3_stmt *st) {
        const sqlite3_int64 id = sqlite3_column_int64(st, 0);
        // Ids are dense from 1; a gap or a huge id is not something our writer produces.
        if (id <= 0 || id > sqlite3_int64(m_total) + 1) {
            m_error = damaged(m_path, QStringLiteral("bad string id %1").arg(id));
            m_damage = true;
            return false;
        }
        if (size_t(id) >= m_strings.size())
            m_strings.resize(size_t(id) + 1);
        m_strings[size_t(id)] = blob(st, 1);
        return tick();
    });
    auto good = [&] { return m_error.isEmpty() && tick(); };
    ok = ok && query("SELECT * FROM exec_events ORDER BY rowid", [&](sqlite3_stmt *st) {
             ExecEvent e;
             e.timeNs = quint64(sqlite3_column_int64(st, 0));
             e.pid = quint32(sqlite3_column_int64(st, 1));
             e.ppid = quint32(sqlite3_column_int64(st, 2));
             e.uid = quint32(sqlite3_column_int64(st, 3));
             e.retval = qint32(sqlite3_column_int64(st, 4));
             e.comm = string(st, 5);
             e.filename = string(st, 6);
             e.argv = decodeArgv(blob(st, 7));
             e.argvTruncated = sqlite3_column_int(st, 8) != 0;
             store.append(e);
             return good();
         });
    ok = ok && query("SELECT * FROM open_events ORDER BY rowid", [&](sqlite3_stmt *st) {
             OpenEvent e;
             e.timeNs = quint64(sqlite3_column_int64(st, 0));
             e.pid = quint32(sqlite3_column_int64(st, 1));
             e.tid = quint32(sqlite3_column_int64(st, 2));
             e.uid = quint32(sqlite3_column_int64(st, 3));
             e.flags = qint32(sqlite3_column_int64(st, 4));
             e.mode = quint32(sqlite3_column_int64(st, 5));
             e.ret = qint32(sqlite3_column_int64(st, 6));
             e.comm = string(st, 7);
             e.path = string(st, 8);
             store.append(e);
             return good();
         });
    ok = ok && query("SELECT * FROM block_events ORDER BY rowid", [&](sqlite3_stmt *st) {
             BlockEvent e;
             e.timeNs = quint64(sqlite3_column_int64(st, 0));
             e.dev = quint32(sqlite3_column_int64(st, 1));
             e.cmdFlags = quint32(sqlite3_column_int64(st, 2));
             e.sector = quint64(sqlite3_column_int64(st, 3));
             e.bytes = quint32(sqlite3_column_int64(st, 4));
             e.pid = quint32(sqlite3_column_int64(st, 5));
             e.queueNs = quint64(sqlite3_column_int64(st, 6));
             e.deviceNs = quint64(sqlite3_column_int64(st, 7));
             e.disk = string(st, 8);
             e.op = string(st, 9);
             e.comm = string(st, 10);
             store.append(e);
             return good();
         });
    ok = ok && query("SELECT * FROM tcp_connect_events ORDER BY rowid", [&](sqlite3_stmt *st) {
             TcpConnectEvent e;
             e.timeNs = quint64(sqlite3_column_int64(st, 0));
             e.pid = quint32(sqlite3_column_int64(st, 1));
             e.uid = quint32(sqlite3_column_int64(st, 2));
             e.family = quint8(sqlite3_column_int64(st, 3));
             const QByteArray saddr = blob(st, 4);
             const QByteArray daddr = blob(st, 5);
             std::memcpy(e.saddr.data(), saddr.constData(),
                         size_t(qMin<qsizetype>(saddr.size(), 16)));
             std::memcpy(e.daddr.data(), daddr.constData(),
                         size_t(qMin<qsizetype>(daddr.size(), 16)));
             e.sport = quint16(sqlite3_column_int64(st, 6));
             e.dport = quint16(sqlite3_column_int64(st, 7));
             e.ret = qint32(sqlite3_column_int64(st, 8));
             e.comm = string(st, 9);
             store.append(e);
             return good();
         });
    ok = ok && query("SELECT * FROM fs_slow_events ORDER BY rowid", [&](sqlite3_stmt *st) {
             FsSlowEvent e;
             e.timeNs = quint64(sqlite3_column_int64(st, 0));
             e.pid = quint32(sqlite3_column_int64(st, 1));
             e.op = quint8(sqlite3_column_int64(st, 2));
             e.bytes = quint64(sqlite3_column_int64(st, 3));
             e.offset = quint64(sqlite3_column_int64(st, 4));
             e.latencyNs = quint64(sqlite3_column_int64(st, 5));
             e.fs = string(st, 6);
             e.comm = string(st, 7);
             e.filename = string(st, 8);
             store.append(e);
             return good();
         });
    return ok && m_error.isEmpty();
}

bool Reader::loadSamples()
{
    auto good = [&] { return m_error.isEmpty() && tick(); };
    bool ok = query("SELECT * FROM histograms ORDER BY rowid", [&](sqlite3_stmt *st) {
        HistogramSnapshot h;
        if (!histogramFromRow(st, 0, &h)) {
            m_error = damaged(m_path, QStringLiteral("a histogram row is malformed"));
            m_damage = true;
            return false;
        }
        m_data->histograms.append(h);
        return good();
    });
    // Files written before the causes were split have six columns.
    ok = ok && query("SELECT * FROM probe_stats ORDER BY rowid", [&](sqlite3_stmt *st) {
             m_data->stats.append(probeStatsFromRow(st, 0, sqlite3_column_count(st) >= 8));
             return good();
         });
    ok = ok &&
         (!m_hasCounters || query("SELECT * FROM counters ORDER BY rowid", [&](sqlite3_stmt *st) {
             m_data->counters.append(counterFromRow(st, 0));
             return good();
         }));
    return ok && m_error.isEmpty();
}

bool Reader::run(QString *error)
{
    auto refuse = [&](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    const QFileInfo fi(m_path);
    if (!fi.exists())
        return refuse(QStringLiteral("cannot open %1: the file does not exist").arg(m_path));
    if (fi.isDir())
        return refuse(QStringLiteral("cannot open %1: it is a directory").arg(m_path));
    if (QString special; !isOpenableSessionPath(m_path, &special))
        return refuse(special);

    // The first 16 bytes tell an SQLite file from anything else before SQLite is involved.
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly))
        return refuse(QStringLiteral("cannot open %1: %2").arg(m_path, file.errorString()));
    const QByteArray head = file.read(100);
    file.close();
    const QString walPath = m_path + QStringLiteral("-wal");
    const bool hasWal = QFileInfo(walPath).size() > 0;
    if (head.isEmpty() && !hasWal)
        return refuse(QStringLiteral("not a BPF Lens session: %1 is empty").arg(m_path));
    if (!head.isEmpty() && !head.startsWith(QByteArrayLiteral("SQLite format 3\0")))
        return refuse(
            QStringLiteral("not a BPF Lens session: %1 is not an SQLite database").arg(m_path));
    if (head.size() < 100 && !hasWal)
        return refuse(damaged(m_path, QStringLiteral("the file header is cut short")));

    // A session still being recorded (or left by a crashed recorder) is in WAL mode and needs
    // the -shm index next to it. In a directory we cannot write, SQLite cannot create that; if
    // there is no WAL content there is nothing it would index, so the file is read as
    // immutable. A WAL we cannot index is reported rather than silently ignored.
    if (!openDatabase(false))
        return refuse(m_error);
    sqlite3_stmt *st = nullptr;
    int rc = sqlite3_prepare_v2(m_db, "PRAGMA application_id", -1, &st, nullptr);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if ((rc & 0xff) == SQLITE_CANTOPEN || (rc & 0xff) == SQLITE_READONLY) {
        sqlite3_finalize(st);
        st = nullptr;
        if (hasWal)
            return refuse(
                QStringLiteral("cannot open %1: it was not closed properly (it is still being "
                               "recorded, or the recorder crashed) and its directory is not "
                               "writable, so SQLite cannot read its write-ahead log; copy %1 "
                               "and %1-wal to a writable directory")
                    .arg(m_path));
        if (!openDatabase(true))
            return refuse(m_error);
        rc = sqlite3_prepare_v2(m_db, "PRAGMA application_id", -1, &st, nullptr);
        if (rc == SQLITE_OK)
            rc = sqlite3_step(st);
    }
    const qint32 appId = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
    sqlite3_finalize(st);
    if (!check(rc))
        return refuse(m_error);
    if (appId != SessionApplicationId)
        return refuse(QStringLiteral("not a BPF Lens session: %1 is an SQLite database of "
                                     "another application")
                          .arg(m_path));
    m_ours = true;

    // One read transaction for the whole load: a recorder committing meanwhile cannot make
    // us see half of a batch or tables from different moments.
    if (!check(sqlite3_exec(m_db, "BEGIN", nullptr, nullptr, nullptr)))
        return refuse(m_error);
    int schema = 0;
    if (!query("PRAGMA user_version", [&](sqlite3_stmt *s) {
            schema = sqlite3_column_int(s, 0);
            return true;
        }))
        return refuse(m_error);
    if (schema > SessionSchemaVersion)
        return refuse(QStringLiteral("cannot open %1: it was written by a newer BPF Lens "
                                     "(schema %2, this version reads up to %3)")
                          .arg(m_path)
                          .arg(schema)
                          .arg(SessionSchemaVersion));
    if (schema < 1)
        return refuse(damaged(m_path, QStringLiteral("it has no schema version")));

    // Files written before counters were recorded are schema 1 too, without that table.
    if (!query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'counters'",
               [&](sqlite3_stmt *) {
                   m_hasCounters = true;
                   return true;
               }))
        return refuse(m_error);
    m_schema = schema;
    if (schema >= 2) {
        bool hasChunks = false;
        if (!query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'event_chunks'",
                   [&](sqlite3_stmt *) {
                       hasChunks = true;
                       return true;
                   }))
            return refuse(m_error);
        if (!hasChunks)
            return refuse(damaged(m_path, QStringLiteral("the table event_chunks is missing")));
        // Both stack tables or neither (a file from before stacks were recorded).
        int stackTables = 0;
        QString missing;
        for (const char *table : StackTables) {
            const QByteArray sql =
                QByteArrayLiteral("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '") +
                table + '\'';
            bool found = false;
            if (!query(sql.constData(), [&](sqlite3_stmt *) {
                    found = true;
                    return true;
                }))
                return refuse(m_error);
            stackTables += found;
            if (!found)
                missing = QLatin1String(table);
        }
        if (stackTables == 1)
            return refuse(damaged(m_path, QStringLiteral("the table %1 is missing").arg(missing)));
        // Checksums are used wherever the columns are, also in a file whose user_version was
        // altered to 2; a schema 3 file without them has lost them to damage.
        const auto hasColumn = [&](const char *sql) {
            sqlite3_stmt *s = nullptr;
            const bool ok = sqlite3_prepare_v2(m_db, sql, -1, &s, nullptr) == SQLITE_OK;
            sqlite3_finalize(s);
            return ok;
        };
        m_chunkChecksums = hasColumn("SELECT crc FROM event_chunks LIMIT 0");
        m_stringChecksums = hasColumn("SELECT crc FROM strings LIMIT 0");
        if (schema >= 3 && (!m_chunkChecksums || !m_stringChecksums)) {
            // The salvage reader reads it, saying that it cannot check it.
            m_damage = true;
            return refuse(
                damaged(m_path, QStringLiteral("the table %1 has no column crc")
                                    .arg(m_chunkChecksums ? QStringLiteral("strings")
                                                          : QStringLiteral("event_chunks"))));
        }
        m_hasStacks = stackTables == 2;
        // The frames' source columns wherever they are (schema 4); a schema 4 file without
        // them has lost them to damage.
        m_frameSources =
            m_hasStacks && hasColumn("SELECT file, line, inlined FROM stack_frames LIMIT 0");
        if (schema >= 4 && m_hasStacks && !m_frameSources) {
            m_damage = true;
            return refuse(damaged(
                m_path,
                QStringLiteral("the table stack_frames has no columns file, line, inlined")));
        }
        if (m_hasStacks) {
            for (const char *table : StackTables) {
                const QByteArray sql = QByteArrayLiteral("SELECT max(rowid) FROM ") + table;
                if (!query(sql.constData(), [&](sqlite3_stmt *s) {
                        m_total += sqlite3_column_int64(s, 0);
                        return true;
                    }))
                    return refuse(m_error);
            }
        }
        if (!query("SELECT sum(max(min(count, length(data)), 0)) FROM event_chunks",
                   [&](sqlite3_stmt *s) {
                       m_total += sqlite3_column_int64(s, 0);
                       return true;
                   }))
            return refuse(m_error);
    }
    for (const char *table : RowTables) {
        if (!m_hasCounters && qstrcmp(table, "counters") == 0)
            continue;
        if (schema >= 2 && std::find_if(std::begin(Schema2RowTables), std::end(Schema2RowTables),
                                        [table](const char *t) {
                                            return qstrcmp(t, table) == 0;
                                        }) == std::end(Schema2RowTables))
            continue;
        const QByteArray sql = QByteArrayLiteral("SELECT max(rowid) FROM ") + table;
        if (!query(sql.constData(), [&](sqlite3_stmt *s) {
                m_total += sqlite3_column_int64(s, 0);
                return true;
            }))
            return refuse(m_error);
    }
    if (m_progress && !m_progress(0, m_total))
        return refuse(QStringLiteral("cancelled"));

    *m_data = SessionData();
    if (!loadMeta() || !loadEvents()) {
        *m_data = SessionData();
        return refuse(m_error);
    }
    m_data->info.schemaVersion = schema;
    m_data->events.squeeze();
    sqlite3_exec(m_db, "COMMIT", nullptr, nullptr, nullptr);
    if (m_progress)
        m_progress(m_total, m_total);
    return true;
}

} // namespace

void SessionReader::setDecodeThreads(int threads)
{
    g_decodeThreads.store(std::max(threads, -1));
}

bool SessionReader::open(const QString &path, SessionData *data, QString *error,
                         const Progress &progress, Salvage salvage)
{
    QString why;
    bool damage = false;
    {
        Reader reader(path, data, progress);
        if (reader.run(&why))
            return true;
        damage = reader.salvageable();
    }
    // The fast path is untouched; only a damaged file takes the slow, defensive one.
    if (damage && salvage == Salvage::Allow) {
        // "<path> is damaged (<reason>); it cannot be read": the salvage reader keeps <reason>.
        const QString head = path + QStringLiteral(" is damaged (");
        const QString tail = QStringLiteral("); it cannot be read");
        const QString reason = why.startsWith(head) && why.endsWith(tail)
                                   ? why.mid(head.size(), why.size() - head.size() - tail.size())
                                   : why;
        return salvageSession(path, reason, data, error, progress);
    }
    if (error)
        *error = why;
    return false;
}

} // namespace bpflens
