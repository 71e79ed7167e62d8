#include "core/crc32c.h"
#include "core/sessionsalvage.h"
#include "core/sessionstore.h"
#include "tests/core/chunktestdata.h"
#include "tests/core/sessiontestdata.h"
#include "tests/everytype.h"

#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include <sqlite3.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr quint64 Base = 6000000000ull;
constexpr int CrashBatchEvents = 200;

// Runs fn in a forked child with the uid/gid of "nobody", so permission tests mean something
// when the suite runs as root; returns what fn returned.
QString asNobody(const std::function<QString()> &fn)
{
    int fds[2];
    if (pipe(fds) != 0)
        return QStringLiteral("pipe failed");
    const pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        if (getuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
            _exit(2);
        const QByteArray out = fn().toUtf8();
        if (write(fds[1], out.constData(), size_t(out.size())) < 0)
            _exit(3);
        _exit(0);
    }
    close(fds[1]);
    QByteArray out;
    char buf[4096];
    ssize_t n;
    while ((n = read(fds[0], buf, sizeof buf)) > 0)
        out.append(buf, n);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return QStringLiteral("child failed with status %1").arg(status);
    return QString::fromUtf8(out);
}

// The child side of crashSafety(): records batches until it is killed, reporting each commit.
int recordUntilKilled(const char *path)
{
    SessionWriter writer;
    QString error;
    if (!writer.create(QString::fromLocal8Bit(path), makeInfo(), &error)) {
        fprintf(stderr, "%s\n", qPrintable(error));
        return 1;
    }
    for (quint32 b = 0;; ++b) {
        if (!writer.writeBatch(makeBatch(Base, b, CrashBatchEvents), &error)) {
            fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        printf("%u\n", b + 1);
        fflush(stdout);
    }
}

RecordBatch merged(const QList<RecordBatch> &batches)
{
    RecordBatch all;
    for (const RecordBatch &b : batches) {
        all.exec += b.exec;
        all.open += b.open;
        all.block += b.block;
        all.tcpConnect += b.tcpConnect;
        all.fsSlow += b.fsSlow;
        all.tpPair += b.tpPair;
        all.histograms += b.histograms;
        all.stats += b.stats;
        all.counters += b.counters;
    }
    return all;
}

// Compares everything with QCOMPARE; call through QVERIFY(sameContent(...)) is not needed.
void compareContent(const SessionData &data, const RecordBatch &all)
{
    const EventStore &ev = data.events;
    QCOMPARE(ev.count(EventType::Exec), all.exec.size());
    QCOMPARE(ev.count(EventType::Open), all.open.size());
    QCOMPARE(ev.count(EventType::Block), all.block.size());
    QCOMPARE(ev.count(EventType::TcpConnect), all.tcpConnect.size());
    QCOMPARE(ev.count(EventType::FsSlow), all.fsSlow.size());
    QCOMPARE(ev.count(EventType::TpPair), all.tpPair.size());
    for (qsizetype i = 0; i < all.tpPair.size(); ++i)
        QCOMPARE(ev.tpPair(i), all.tpPair[i]);
    for (qsizetype i = 0; i < all.exec.size(); ++i)
        QCOMPARE(ev.exec(i), all.exec[i]);
    for (qsizetype i = 0; i < all.open.size(); ++i)
        QCOMPARE(ev.open(i), all.open[i]);
    for (qsizetype i = 0; i < all.block.size(); ++i)
        QCOMPARE(ev.block(i), all.block[i]);
    for (qsizetype i = 0; i < all.tcpConnect.size(); ++i)
        QCOMPARE(ev.tcpConnect(i), all.tcpConnect[i]);
    for (qsizetype i = 0; i < all.fsSlow.size(); ++i)
        QCOMPARE(ev.fsSlow(i), all.fsSlow[i]);
    QCOMPARE(data.histograms, all.histograms);
    QCOMPARE(data.stats, all.stats);
    QCOMPARE(data.counters.size(), all.counters.size());
    for (qsizetype i = 0; i < all.counters.size(); ++i) {
        const CounterSample &got = data.counters[i];
        const CounterSample &want = all.counters[i];
        QCOMPARE(got.probeId, want.probeId);
        QCOMPARE(got.name, want.name);
        QCOMPARE(got.timeNs, want.timeNs);
        QCOMPARE(got.intervalNs, want.intervalNs);
        // Bit for bit, not fuzzy: QCOMPARE on doubles would accept a rounded value.
        QVERIFY2(got.value == want.value, qPrintable(QStringLiteral("counter %1: %2 != %3")
                                                         .arg(i)
                                                         .arg(got.value, 0, 'g', 17)
                                                         .arg(want.value, 0, 'g', 17)));
    }
}

QString writeSession(const QString &path, int batches, int eventsPerType, bool finish = true,
                     int schema = SessionSchemaVersion)
{
    SessionWriter writer;
    writer.setSchemaVersion(schema);
    QString error;
    if (!writer.create(path, makeInfo(), &error))
        return error;
    for (int b = 0; b < batches; ++b) {
        if (!writer.writeBatch(makeBatch(Base, quint32(b), eventsPerType), &error))
            return error;
    }
    if (finish && !writer.finish(Base + 1000000000000ull, &error))
        return error;
    return QString();
}

QByteArray varint(quint64 v)
{
    QByteArray out;
    while (v >= 0x80) {
        out.append(char(quint8(v) | 0x80));
        v >>= 7;
    }
    out.append(char(v));
    return out;
}

// Runs sql on the file with one bound blob (may be null).
bool execSql(const QString &path, const char *sql, const QByteArray *blob = nullptr)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open(QFile::encodeName(path).constData(), &db) != SQLITE_OK)
        return false;
    sqlite3_stmt *st = nullptr;
    bool ok = sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK;
    if (ok && blob)
        sqlite3_bind_blob(st, 1, blob->constData(), int(blob->size()), SQLITE_TRANSIENT);
    ok = ok && sqlite3_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    sqlite3_close(db);
    return ok;
}

qint64 countRows(const QString &path, const char *sql)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY, nullptr) !=
        SQLITE_OK)
        return -1;
    sqlite3_stmt *st = nullptr;
    qint64 n = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

// What the fast path says; damaged files are salvaged only when asked (tst_sessionsalvage).
QString openError(const QString &path,
                  SessionReader::Salvage salvage = SessionReader::Salvage::Refuse)
{
    SessionData data;
    QString error;
    if (SessionReader::open(path, &data, &error, {}, salvage))
        return QStringLiteral("opened");
    return error;
}

// CRC32C bit by bit, as its definition says (reflected, polynomial 0x82f63b78), over the
// bytes docs/session-format.md lists: the reference the table-driven code is held to.
quint32 referenceCrc32c(const QByteArray &bytes)
{
    quint32 c = ~0u;
    for (const char ch : bytes) {
        c ^= quint8(ch);
        for (int k = 0; k < 8; ++k)
            c = (c >> 1) ^ (c & 1 ? 0x82f63b78u : 0u);
    }
    return ~c;
}

QByteArray le64(qint64 v)
{
    QByteArray out(8, Qt::Uninitialized);
    qToLittleEndian<qint64>(v, out.data());
    return out;
}

// Sets every chunk's crc to what its (possibly edited) row holds, as a tool that knows the
// format would.
bool rechecksumChunks(const QString &path)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open(QFile::encodeName(path).constData(), &db) != SQLITE_OK)
        return false;
    sqlite3_stmt *st = nullptr;
    sqlite3_stmt *up = nullptr;
    bool ok = sqlite3_prepare_v2(db,
                                 "SELECT seq, type, count, first_ns, last_ns, data FROM "
                                 "event_chunks",
                                 -1, &st, nullptr) == SQLITE_OK &&
              sqlite3_prepare_v2(db, "UPDATE event_chunks SET crc = ?1 WHERE seq = ?2", -1, &up,
                                 nullptr) == SQLITE_OK;
    QList<std::pair<qint64, quint32>> updates;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        const QByteArrayView data(static_cast<const char *>(sqlite3_column_blob(st, 5)),
                                  sqlite3_column_bytes(st, 5));
        updates.append(
            {sqlite3_column_int64(st, 0),
             EventChunkCodec::checksum(sqlite3_column_int(st, 1), sqlite3_column_int64(st, 2),
                                       quint64(sqlite3_column_int64(st, 3)),
                                       quint64(sqlite3_column_int64(st, 4)), data)});
    }
    sqlite3_finalize(st);
    for (const auto &[seq, crc] : updates) {
        sqlite3_bind_int64(up, 1, crc);
        sqlite3_bind_int64(up, 2, seq);
        ok = ok && sqlite3_step(up) == SQLITE_DONE;
        sqlite3_reset(up);
    }
    sqlite3_finalize(up);
    sqlite3_close(db);
    return ok;
}

// Every event of every type, the string pool and the stacks of two loads, the same.
void compareLoads(const SessionData &got, const SessionData &want)
{
    QCOMPARE(got.events.outOfOrderAppends(), want.events.outOfOrderAppends());
    forEachEventType([&]<typename E>() {
        const EventType t = eventTypeOf<E>;
        QCOMPARE(got.events.count(t), want.events.count(t));
        for (qsizetype i = 0; i < want.events.count(t); ++i) {
            if (!(got.events.event<E>(i) == want.events.event<E>(i)))
                QFAIL(qPrintable(
                    QStringLiteral("%1 event %2 differs").arg(QLatin1String(probeIdOf(t))).arg(i)));
        }
    });
    QCOMPARE(got.events.strings().size(), want.events.strings().size());
    for (qsizetype i = 0; i < want.events.strings().size(); ++i)
        QCOMPARE(got.events.strings().string(quint32(i)), want.events.strings().string(quint32(i)));
    QCOMPARE(got.stacks.frameCount(), want.stacks.frameCount());
    QCOMPARE(got.stacks.stackCount(), want.stacks.stackCount());
    for (quint32 id = 1; id <= quint32(want.stacks.frameCount()); ++id)
        QVERIFY(got.stacks.frame(id) == want.stacks.frame(id));
    for (quint32 id = 1; id <= quint32(want.stacks.stackCount()); ++id)
        QVERIFY(got.stacks.stack(id) == want.stacks.stack(id));
}

// Loads path with the given number of decoding threads (SessionReader::setDecodeThreads).
bool loadWith(int threads, const QString &path, SessionData *data, QString *error,
              SessionReader::Salvage salvage = SessionReader::Salvage::Refuse)
{
    SessionReader::setDecodeThreads(threads);
    const bool ok = SessionReader::open(path, data, error, {}, salvage);
    SessionReader::setDecodeThreads(-1);
    return ok;
}

// A session of some hundred chunks per type, written so that loading it in parallel has
// something to get wrong: a batch of every type with stacks first, then batches whose events
// go back in time within a batch (reversed opens), across batches (batch 2's times again,
// written later: equal times keep the order they were written in), and block requests whose key
// combinations come in a different order from batch to batch. Returns the events appended one
// by one in the order written, what EventStore makes of them.
QString writeAwkwardSession(const QString &path, int batches, EventStore *appended)
{
    SessionWriter writer;
    QString error;
    if (!writer.create(path, makeInfo(), &error))
        return error;
    QList<RecordBatch> written;
    written.append(everyTypeBatch(400, Base));
    for (int b = 1; b < batches; ++b) {
        RecordBatch batch =
            withTpPairs(makeBatch(Base, quint32(b == batches / 2 ? 2 : b), 700), 300);
        if (b % 5 == 3)
            std::reverse(batch.open.begin(), batch.open.end());
        if (b % 3 == 1)
            std::reverse(batch.block.begin(), batch.block.end());
        batch.histograms.clear();
        batch.stats.clear();
        batch.counters.clear();
        written.append(batch);
    }
    for (const RecordBatch &batch : written) {
        if (!writer.writeBatch(batch, &error))
            return error;
        forEachEventType([&]<typename E>() {
            for (const E &e : batch.events<E>())
                appended->append(e);
        });
    }
    if (!writer.finish(Base + 1000000000000ull, &error))
        return error;
    return QString();
}

} // namespace

class TestSessionStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void roundTripsEverything()
    {
        // 10 batches x 5 types x 2000 = 100k events, with histograms and stats.
        const QString path = m_dir.filePath(QStringLiteral("round.bpflens"));
        SessionWriter writer;
        QString error;
        const SessionInfo info = makeInfo();
        QVERIFY2(writer.create(path, info, &error), qPrintable(error));
        QList<RecordBatch> batches;
        for (quint32 b = 0; b < 10; ++b)
            batches.append(withTpPairs(makeBatch(Base, b, 2000), 500));
        QElapsedTimer timer;
        timer.start();
        for (const RecordBatch &batch : batches)
            QVERIFY2(writer.writeBatch(batch, &error), qPrintable(error));
        const qint64 writeMs = std::max<qint64>(1, timer.elapsed());
        QCOMPARE(writer.batchesWritten(), 10);
        QVERIFY(writer.finish(Base + 20000000000ull, &error));
        QVERIFY(!QFileInfo::exists(path + QStringLiteral("-wal")));

        // 2000 events of a type are more than 16 KiB: each batch's go into pieces of about
        // 8 KiB (a chunk lost to one flipped bit then costs a few pages of events).
        QVERIFY(countRows(path, "SELECT count(*) FROM event_chunks") > 60);
        QVERIFY(countRows(path, "SELECT max(length(data)) FROM event_chunks") <= 16384);
        const qint64 fileBytes = QFileInfo(path).size();
        qInfo("105000 events: %lld ms to write (%lld events/s), file %lld bytes = %.1f bytes/event",
              writeMs, 100000 * 1000 / writeMs, fileBytes, double(fileBytes) / 100000);

        SessionData data;
        qint64 lastDone = -1, lastTotal = 0;
        QVERIFY2(SessionReader::open(path, &data, &error,
                                     [&](qint64 done, qint64 total) {
                                         lastDone = done;
                                         lastTotal = total;
                                         return true;
                                     }),
                 qPrintable(error));
        QVERIFY(lastTotal > 105000);
        QCOMPARE(lastDone, lastTotal);
        QCOMPARE(data.info.schemaVersion, SessionSchemaVersion);
        SessionInfo expected = info;
        expected.endMonotonicNs = Base + 20000000000ull;
        expected.schemaVersion = SessionSchemaVersion;
        QCOMPARE(data.info.startWall, expected.startWall);
        QCOMPARE(data.info.probes, expected.probes);
        QCOMPARE(data.info, expected);
        compareContent(data, merged(batches));
    }

    void roundTripsCounterValues()
    {
        // Values a cachestat interval can really produce (ratios, 0, no traffic as NaN) and
        // the extremes a double can hold; times past 2^63 like every other u64.
        const double values[] = {0.1,
                                 2.0 / 3.0,
                                 0.0,
                                 std::numeric_limits<double>::quiet_NaN(),
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::max(),
                                 std::numeric_limits<double>::denorm_min(),
                                 -1234567.875};
        RecordBatch batch;
        quint32 n = 0;
        for (double v : values) {
            CounterSample c;
            c.probeId = n % 2 ? QStringLiteral("cachestat") : QStringLiteral("caf\u00e9");
            c.name = n % 3 ? QStringLiteral("hitRatio") : QStringLiteral("r\u00e9ussite \u2713");
            c.timeNs = ~quint64(0) - n;
            c.intervalNs = n == 0 ? 0 : 250000000ull * n;
            c.value = v;
            batch.counters.append(c);
            ++n;
        }
        const QString path = m_dir.filePath(QStringLiteral("counters.bpflens"));
        SessionWriter writer;
        QString error;
        QVERIFY2(writer.create(path, makeInfo(), &error), qPrintable(error));
        QVERIFY2(writer.writeBatch(batch, &error), qPrintable(error));
        QVERIFY2(writer.finish(Base + 1, &error), qPrintable(error));

        SessionData data;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QCOMPARE(data.counters.size(), batch.counters.size());
        for (qsizetype i = 0; i < batch.counters.size(); ++i) {
            const CounterSample &got = data.counters[i];
            const CounterSample &want = batch.counters[i];
            QCOMPARE(got.probeId, want.probeId);
            QCOMPARE(got.name, want.name);
            QCOMPARE(got.timeNs, want.timeNs);
            QCOMPARE(got.intervalNs, want.intervalNs);
            if (std::isnan(want.value))
                QVERIFY2(std::isnan(got.value), qPrintable(QString::number(got.value)));
            else
                QVERIFY2(got.value == want.value, qPrintable(QStringLiteral("%1 != %2")
                                                                 .arg(got.value, 0, 'g', 17)
                                                                 .arg(want.value, 0, 'g', 17)));
        }

        // The sqlite3 shell and other tools see real numbers, not text or blobs.
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY,
                                 nullptr),
                 SQLITE_OK);
        sqlite3_stmt *st = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db, "SELECT typeof(value), value FROM counters ORDER BY rowid",
                                    -1, &st, nullptr),
                 SQLITE_OK);
        QCOMPARE(sqlite3_step(st), SQLITE_ROW);
        QCOMPARE(QByteArray(reinterpret_cast<const char *>(sqlite3_column_text(st, 0))),
                 QByteArrayLiteral("real"));
        QCOMPARE(sqlite3_column_double(st, 1), 0.1);
        sqlite3_finalize(st);
        sqlite3_close(db);
    }

    void readsStatsWrittenBeforeTheCausesWereSplit()
    {
        // Files written before the lost events were split by cause have no events_unseen and
        // unfinished columns: they open, with those at 0, by the reader and the salvage reader.
        const QString path = m_dir.filePath(QStringLiteral("nocauses.bpflens"));
        QCOMPARE(writeSession(path, 2, 10), QString());
        {
            sqlite3 *db = nullptr;
            QCOMPARE(sqlite3_open(QFile::encodeName(path).constData(), &db), SQLITE_OK);
            QCOMPARE(sqlite3_exec(db,
                                  "ALTER TABLE probe_stats DROP COLUMN unfinished;"
                                  "ALTER TABLE probe_stats DROP COLUMN events_unseen",
                                  nullptr, nullptr, nullptr),
                     SQLITE_OK);
            sqlite3_close(db);
        }
        RecordBatch expected = merged({makeBatch(Base, 0, 10), makeBatch(Base, 1, 10)});
        for (ProbeStats &s : expected.stats) {
            s.eventsUnseen = 0;
            s.unfinished = 0;
        }
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QCOMPARE(data.stats, expected.stats);
        SessionData salvaged;
        QVERIFY2(salvageSession(path, QStringLiteral("test"), &salvaged, &error),
                 qPrintable(error));
        QCOMPARE(salvaged.stats, expected.stats);
    }

    // Only a recording over ssh stores ssh_target, and a file without it (every local one, and
    // those from before the key) reads as it did: an empty target and no damage, salvaged too.
    void storesSshTargetOnlyWhenRecordedOverSsh()
    {
        for (const QString &target : {QStringLiteral("daemon@127.0.0.1:2222"), QString()}) {
            const QString path = m_dir.filePath(
                QStringLiteral("ssh-%1.bpflens").arg(target.isEmpty() ? u"none" : u"target"));
            SessionInfo info = makeInfo();
            info.sshTarget = target;
            SessionWriter writer;
            QString error;
            QVERIFY2(writer.create(path, info, &error), qPrintable(error));
            QVERIFY2(writer.writeBatch(makeBatch(Base, 0, 10), &error), qPrintable(error));
            QVERIFY2(writer.finish(Base + 1000000000ull, &error), qPrintable(error));
            {
                sqlite3 *db = nullptr;
                QCOMPARE(sqlite3_open(QFile::encodeName(path).constData(), &db), SQLITE_OK);
                sqlite3_stmt *st = nullptr;
                QCOMPARE(sqlite3_prepare_v2(db,
                                            "SELECT count(*) FROM meta WHERE key = 'ssh_target'",
                                            -1, &st, nullptr),
                         SQLITE_OK);
                QCOMPARE(sqlite3_step(st), SQLITE_ROW);
                QCOMPARE(sqlite3_column_int(st, 0), target.isEmpty() ? 0 : 1);
                sqlite3_finalize(st);
                sqlite3_close(db);
            }
            SessionData data;
            QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
            QCOMPARE(data.info.sshTarget, target);
            QCOMPARE(data.info.host, info.host);
            SessionData salvaged;
            QVERIFY2(salvageSession(path, QStringLiteral("test"), &salvaged, &error),
                     qPrintable(error));
            QCOMPARE(salvaged.info.sshTarget, target);
            // A file without the key lacks nothing: salvage names no meta key as lost.
            const QString lost = salvaged.damage.lost.join(QLatin1Char('\n'));
            QVERIFY2(!lost.contains(QLatin1String("meta")), qPrintable(lost));
        }
    }

    void readsSessionWithoutCountersTable()
    {
        // Schema 1 files recorded before counters existed lack the table; they still open.
        const QString path = m_dir.filePath(QStringLiteral("nocounters.bpflens"));
        QCOMPARE(writeSession(path, 2, 10, true, 1), QString());
        {
            sqlite3 *db = nullptr;
            QCOMPARE(sqlite3_open(QFile::encodeName(path).constData(), &db), SQLITE_OK);
            QCOMPARE(sqlite3_exec(db, "DROP TABLE counters", nullptr, nullptr, nullptr), SQLITE_OK);
            sqlite3_close(db);
        }
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QVERIFY(data.counters.isEmpty());
        QCOMPARE(data.info.schemaVersion, 1);
        RecordBatch expected = merged({makeBatch(Base, 0, 10), makeBatch(Base, 1, 10)});
        expected.counters.clear();
        compareContent(data, expected);
    }

    void cancelsFromProgress()
    {
        const QString path = m_dir.filePath(QStringLiteral("cancel.bpflens"));
        QCOMPARE(writeSession(path, 2, 5000), QString());
        SessionData data;
        QString error;
        QVERIFY(!SessionReader::open(path, &data, &error,
                                     [](qint64 done, qint64) { return done < 10000; }));
        QCOMPARE(error, QStringLiteral("cancelled"));
        QVERIFY(data.events.isEmpty());
    }

    void readsWhileRecording()
    {
        const QString path = m_dir.filePath(QStringLiteral("live.bpflens"));
        SessionWriter writer;
        QString error;
        QVERIFY(writer.create(path, makeInfo(), &error));
        QVERIFY(writer.writeBatch(makeBatch(Base, 0, 10), &error));
        QVERIFY(writer.writeBatch(makeBatch(Base, 1, 10), &error));
        SessionData data;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QCOMPARE(data.info.endMonotonicNs, quint64(0));
        compareContent(data, merged({makeBatch(Base, 0, 10), makeBatch(Base, 1, 10)}));
        // The writer carries on after a reader has looked.
        QVERIFY(writer.writeBatch(makeBatch(Base, 2, 10), &error));
        QVERIFY(writer.finish(Base + 1, &error));
        QVERIFY(SessionReader::open(path, &data, &error));
        QCOMPARE(data.events.count(EventType::Open), 30);
    }

    void survivesSigkillMidRecording()
    {
        const QString path = m_dir.filePath(QStringLiteral("crash.bpflens"));
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(),
                    {QStringLiteral("--record-until-killed"), path});
        QVERIFY(child.waitForStarted());
        quint32 reported = 0;
        QByteArray pending;
        auto readReports = [&] {
            pending += child.readAllStandardOutput();
            qsizetype nl;
            while ((nl = pending.indexOf('\n')) >= 0) {
                reported = std::max(reported, pending.left(nl).toUInt());
                pending.remove(0, nl + 1);
            }
        };
        while (reported < 20 && child.state() == QProcess::Running) {
            child.waitForReadyRead(10000);
            readReports();
        }
        QVERIFY2(reported >= 20, "the recording child stopped reporting commits");
        QTest::qWait(int(QRandomGenerator::global()->bounded(30)));
        ::kill(pid_t(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished(10000));
        readReports();
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        const qsizetype batches = data.stats.size() / 4;
        qInfo("child reported %u commits, the file holds %lld batches", reported, qint64(batches));
        QVERIFY(batches >= qsizetype(reported));
        QCOMPARE(data.stats.size(), batches * 4);
        QList<RecordBatch> expected;
        for (quint32 b = 0; b < quint32(batches); ++b)
            expected.append(makeBatch(Base, b, CrashBatchEvents));
        compareContent(data, merged(expected));
    }

    void reportsFullDiskAndKeepsEarlierBatches()
    {
        const QString path = m_dir.filePath(QStringLiteral("full.bpflens"));
        SessionWriter writer;
        QString error;
        QVERIFY(writer.create(path, makeInfo(), &error));
        QVERIFY(writer.writeBatch(makeBatch(Base, 0, 100), &error));
        QVERIFY(writer.setMaxPageCount(60));
        bool failed = false;
        quint32 b = 1;
        for (; b < 100 && !failed; ++b)
            failed = !writer.writeBatch(makeBatch(Base, b, 100), &error);
        QVERIFY(failed);
        QVERIFY2(error.contains(QStringLiteral("full")), qPrintable(error));
        QVERIFY2(error.contains(path), qPrintable(error));
        const quint32 committed = b - 1;
        writer.close();

        SessionData data;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QList<RecordBatch> expected;
        for (quint32 k = 0; k < committed; ++k)
            expected.append(makeBatch(Base, k, 100));
        compareContent(data, merged(expected));
    }

    void refusesUnwritablePlaces()
    {
        SessionWriter writer;
        QString error;
        const QString missing = m_dir.filePath(QStringLiteral("no/such/dir/x.bpflens"));
        QVERIFY(!writer.create(missing, makeInfo(), &error));
        QVERIFY2(error.contains(QStringLiteral("does not exist")), qPrintable(error));

        const QString existing = m_dir.filePath(QStringLiteral("exists.bpflens"));
        QVERIFY(QFile(existing).open(QIODevice::WriteOnly));
        QVERIFY(!writer.create(existing, makeInfo(), &error));
        QVERIFY2(error.contains(QStringLiteral("already exists")), qPrintable(error));

        const QString roDir = m_dir.filePath(QStringLiteral("ro"));
        QVERIFY(QDir().mkpath(roDir));
        chmod(QFile::encodeName(m_dir.path()).constData(), 0755);
        chmod(QFile::encodeName(roDir).constData(), 0555);
        const QString result = asNobody([&] {
            SessionWriter w;
            QString e;
            return w.create(roDir + QStringLiteral("/x.bpflens"), makeInfo(), &e)
                       ? QStringLiteral("created")
                       : e;
        });
        QVERIFY2(result.startsWith(QStringLiteral("cannot create ")), qPrintable(result));
        QVERIFY2(result.contains(QStringLiteral("is not writable")), qPrintable(result));
    }

    void opensInReadOnlyDirectory()
    {
        const QString dir = m_dir.filePath(QStringLiteral("ro-read"));
        QVERIFY(QDir().mkpath(dir));
        const QString finished = dir + QStringLiteral("/finished.bpflens");
        const QString unfinished = dir + QStringLiteral("/unfinished.bpflens");
        QCOMPARE(writeSession(finished, 2, 10), QString());
        {
            // Left in WAL mode as a crashed recorder leaves it, but with the WAL checkpointed.
            SessionWriter w;
            QString e;
            QVERIFY(w.create(unfinished, makeInfo(), &e));
            QVERIFY(w.writeBatch(makeBatch(Base, 0, 10), &e));
        }
        chmod(QFile::encodeName(m_dir.path()).constData(), 0755);
        chmod(QFile::encodeName(dir).constData(), 0555);
        for (const QString &f : {finished, unfinished})
            chmod(QFile::encodeName(f).constData(), 0444);
        auto countOpens = [](const QString &path) {
            return asNobody([path] {
                SessionData data;
                QString e;
                return SessionReader::open(path, &data, &e)
                           ? QString::number(data.events.count(EventType::Open))
                           : e;
            });
        };
        QCOMPARE(countOpens(finished), QStringLiteral("20"));
        QCOMPARE(countOpens(unfinished), QStringLiteral("10"));
        chmod(QFile::encodeName(dir).constData(), 0755);
    }

    void refusesWhatItCannotRead()
    {
        QCOMPARE(openError(m_dir.filePath(QStringLiteral("nothing.bpflens"))),
                 QStringLiteral("cannot open %1: the file does not exist")
                     .arg(m_dir.filePath(QStringLiteral("nothing.bpflens"))));

        const QString text = m_dir.filePath(QStringLiteral("text.bpflens"));
        {
            QFile f(text);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("time,pid\n1,2\n");
        }
        QCOMPARE(openError(text),
                 QStringLiteral("not a BPF Lens session: %1 is not an SQLite database").arg(text));

        const QString other = m_dir.filePath(QStringLiteral("other.sqlite"));
        {
            sqlite3 *db = nullptr;
            QCOMPARE(sqlite3_open(QFile::encodeName(other).constData(), &db), SQLITE_OK);
            QCOMPARE(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES(1);", nullptr,
                                  nullptr, nullptr),
                     SQLITE_OK);
            sqlite3_close(db);
        }
        QCOMPARE(openError(other), QStringLiteral("not a BPF Lens session: %1 is an SQLite "
                                                  "database of another application")
                                       .arg(other));

        const QString newer = m_dir.filePath(QStringLiteral("newer.bpflens"));
        QCOMPARE(writeSession(newer, 1, 10), QString());
        {
            sqlite3 *db = nullptr;
            QCOMPARE(sqlite3_open(QFile::encodeName(newer).constData(), &db), SQLITE_OK);
            QCOMPARE(sqlite3_exec(db, "PRAGMA user_version = 7", nullptr, nullptr, nullptr),
                     SQLITE_OK);
            sqlite3_close(db);
        }
        QCOMPARE(openError(newer), QStringLiteral("cannot open %1: it was written by a newer "
                                                  "BPF Lens (schema 7, this version reads up "
                                                  "to %2)")
                                       .arg(newer)
                                       .arg(SessionSchemaVersion));

        const QString source = m_dir.filePath(QStringLiteral("whole.bpflens"));
        const QString truncated = m_dir.filePath(QStringLiteral("truncated.bpflens"));
        QCOMPARE(writeSession(source, 3, 1000), QString());
        QVERIFY(QFile::copy(source, truncated));
        QVERIFY(QFile::resize(truncated, QFileInfo(source).size() / 2));
        const QString damaged = openError(truncated);
        QVERIFY2(damaged.startsWith(truncated + QStringLiteral(" is damaged")),
                 qPrintable(damaged));
        // By default the salvage reader keeps the half that is there.
        SessionData half;
        QString error;
        QVERIFY2(SessionReader::open(truncated, &half, &error), qPrintable(error));
        QCOMPARE(half.damage.reason, QStringLiteral("database disk image is malformed"));
        QVERIFY(!half.damage.lost.isEmpty());
        QVERIFY(half.events.totalCount() > 0);
    }

    void readsAndWritesSchema1()
    {
        // Files of earlier versions keep opening: the schema 1 writer is kept for this test.
        const QString path = m_dir.filePath(QStringLiteral("schema1.bpflens"));
        QCOMPARE(writeSession(path, 3, 300, true, 1), QString());
        QCOMPARE(countRows(path, "PRAGMA user_version"), 1);
        QCOMPARE(countRows(path, "SELECT count(*) FROM open_events"), 900);
        QCOMPARE(countRows(path, "SELECT count(*) FROM sqlite_master WHERE name = 'event_chunks'"),
                 0);
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QCOMPARE(data.info.schemaVersion, 1);
        compareContent(data, merged({makeBatch(Base, 0, 300), makeBatch(Base, 1, 300),
                                     makeBatch(Base, 2, 300)}));

        // Schema 1 has no table for tracepoint pairs: refused, never silently dropped.
        SessionWriter writer;
        writer.setSchemaVersion(1);
        const QString other = m_dir.filePath(QStringLiteral("schema1-tppair.bpflens"));
        QVERIFY2(writer.create(other, makeInfo(), &error), qPrintable(error));
        QVERIFY(!writer.writeBatch(withTpPairs(makeBatch(Base, 0, 3), 2), &error));
        QCOMPARE(error, QStringLiteral("cannot write to %1: schema 1 files cannot hold tppair "
                                       "events")
                            .arg(other));
        QCOMPARE(writer.batchesWritten(), 0);
        SessionWriter future;
        future.setSchemaVersion(9);
        QVERIFY(!future.create(m_dir.filePath(QStringLiteral("s9b.bpflens")), makeInfo(), &error));
        QVERIFY2(error.contains(QStringLiteral("schema 9")), qPrintable(error));
    }

    void storesOneChunkPerBatchAndType()
    {
        const QString path = m_dir.filePath(QStringLiteral("chunks.bpflens"));
        QCOMPARE(writeSession(path, 4, 250), QString());
        QCOMPARE(countRows(path, "PRAGMA user_version"), SessionSchemaVersion);
        // Five event types in each of four batches; no row-per-event tables at all.
        QCOMPARE(countRows(path, "SELECT count(*) FROM event_chunks"), 20);
        QCOMPARE(countRows(path, "SELECT sum(count) FROM event_chunks WHERE type = 2"), 1000);
        QCOMPARE(countRows(path, "SELECT count(*) FROM sqlite_master WHERE name LIKE '%_events'"),
                 0);
        QCOMPARE(countRows(path, "SELECT min(first_ns) FROM event_chunks"), qint64(Base));
    }

    void keepsTimeOrderOfOutOfOrderBatches()
    {
        // Per-CPU buffers deliver out of order, within a batch and across batches: the loaded
        // store must hold exactly what appending the same events one by one gives.
        RecordBatch late = makeBatch(Base + 5000, 0, 50);
        RecordBatch early = makeBatch(Base, 0, 50);
        std::reverse(early.open.begin(), early.open.end());
        early.open[3].timeNs = early.open[4].timeNs; // equal times keep their recorded order
        late = withTpPairs(late, 20);
        early = withTpPairs(early, 20);
        std::reverse(early.tpPair.begin(), early.tpPair.end());
        const QString path = m_dir.filePath(QStringLiteral("order.bpflens"));
        SessionWriter writer;
        QString error;
        QVERIFY(writer.create(path, makeInfo(), &error));
        QVERIFY(writer.writeBatch(late, &error));
        QVERIFY(writer.writeBatch(early, &error));
        QVERIFY(writer.finish(Base + 1, &error));

        EventStore expected;
        for (const RecordBatch *b : {&late, &early}) {
            for (const OpenEvent &e : b->open)
                expected.append(e);
            for (const ExecEvent &e : b->exec)
                expected.append(e);
            for (const BlockEvent &e : b->block)
                expected.append(e);
            for (const TpPairEvent &e : b->tpPair)
                expected.append(e);
        }
        SessionData data;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        QVERIFY(data.events.outOfOrderAppends());
        for (EventType t : {EventType::Open, EventType::Exec, EventType::Block, EventType::TpPair})
            QCOMPARE(data.events.count(t), expected.count(t));
        for (qsizetype i = 0; i < expected.count(EventType::Open); ++i)
            QCOMPARE(data.events.open(i), expected.open(i));
        for (qsizetype i = 0; i < expected.count(EventType::Exec); ++i)
            QCOMPARE(data.events.exec(i), expected.exec(i));
        for (qsizetype i = 0; i < expected.count(EventType::Block); ++i)
            QCOMPARE(data.events.block(i), expected.block(i));
        for (qsizetype i = 0; i < expected.count(EventType::TpPair); ++i)
            QCOMPARE(data.events.tpPair(i), expected.tpPair(i));
    }

    void loadsInParallelAsSequentially()
    {
        const QString path = m_dir.filePath(QStringLiteral("parallel.bpflens"));
        EventStore appended;
        QCOMPARE(writeAwkwardSession(path, 24, &appended), QString());
        // Many chunks of every type: each worker gets several jobs of them.
        QVERIFY(countRows(path, "SELECT count(*) FROM event_chunks") > 200);

        SessionData sequential;
        QString error;
        QVERIFY2(loadWith(0, path, &sequential, &error), qPrintable(error));
        QVERIFY(sequential.events.outOfOrderAppends());
        QVERIFY(sequential.stacks.stackCount() == SynthesizedStacks);
        // The sequential load is what appending every event one by one gives.
        forEachEventType([&]<typename E>() {
            const EventType t = eventTypeOf<E>;
            QCOMPARE(sequential.events.count(t), appended.count(t));
            for (qsizetype i = 0; i < appended.count(t); ++i) {
                if (!(sequential.events.event<E>(i) == appended.event<E>(i)))
                    QFAIL(qPrintable(QStringLiteral("%1 event %2 differs from the appended one")
                                         .arg(QLatin1String(probeIdOf(t)))
                                         .arg(i)));
            }
        });
        for (int threads : {1, 2, 3, 8, -1}) {
            SessionData parallel;
            QVERIFY2(loadWith(threads, path, &parallel, &error), qPrintable(error));
            compareLoads(parallel, sequential);
            if (QTest::currentTestFailed())
                QFAIL(qPrintable(QStringLiteral("with %1 threads").arg(threads)));
        }
    }

    void refusesADamagedChunkInTheMiddleAsSequentially()
    {
        const QString path = m_dir.filePath(QStringLiteral("middle.bpflens"));
        EventStore appended;
        QCOMPARE(writeAwkwardSession(path, 24, &appended), QString());
        const qint64 rows = countRows(path, "SELECT count(*) FROM event_chunks");
        const QByteArray middle = QByteArray::number(rows / 2);
        const qint64 seq = countRows(
            path, QByteArray("SELECT seq FROM event_chunks ORDER BY seq LIMIT 1 OFFSET " + middle)
                      .constData());
        const QByteArray where = " WHERE seq = " + QByteArray::number(seq);
        // A byte too many: the checksum says so. Then the same bytes with a checksum that fits
        // them: the decoder says what is wrong.
        QByteArray data;
        {
            sqlite3 *db = nullptr;
            QCOMPARE(sqlite3_open(QFile::encodeName(path).constData(), &db), SQLITE_OK);
            sqlite3_stmt *st = nullptr;
            QCOMPARE(sqlite3_prepare_v2(
                         db, QByteArray("SELECT data FROM event_chunks" + where).constData(), -1,
                         &st, nullptr),
                     SQLITE_OK);
            QCOMPARE(sqlite3_step(st), SQLITE_ROW);
            data = QByteArray(static_cast<const char *>(sqlite3_column_blob(st, 0)),
                              sqlite3_column_bytes(st, 0));
            sqlite3_finalize(st);
            sqlite3_close(db);
        }
        QVERIFY(!data.isEmpty());
        data.append('\0');
        QVERIFY(execSql(path, QByteArray("UPDATE event_chunks SET data = ?1" + where).constData(),
                        &data));
        for (bool rechecksummed : {false, true}) {
            if (rechecksummed)
                QVERIFY(rechecksumChunks(path));
            const QString expected =
                QStringLiteral("%1 is damaged (table event_chunks, row %2: %3")
                    .arg(path)
                    .arg(seq)
                    .arg(rechecksummed ? QStringLiteral("") : QStringLiteral("checksum mismatch"));
            SessionData sequential;
            QString sequentialError;
            QVERIFY(!loadWith(0, path, &sequential, &sequentialError));
            QVERIFY2(sequentialError.startsWith(expected), qPrintable(sequentialError));
            if (rechecksummed)
                QVERIFY2(sequentialError.contains(QLatin1String("bytes are left over")),
                         qPrintable(sequentialError));
            for (int threads : {1, 3, -1}) {
                SessionData parallel;
                QString parallelError;
                QVERIFY(!loadWith(threads, path, &parallel, &parallelError));
                QCOMPARE(parallelError, sequentialError);
            }
            // Salvaged: every other chunk, the same way.
            SessionData salvagedSequential;
            QVERIFY2(loadWith(0, path, &salvagedSequential, &sequentialError,
                              SessionReader::Salvage::Allow),
                     qPrintable(sequentialError));
            QCOMPARE(salvagedSequential.damage.chunksLost, 1);
            QVERIFY(salvagedSequential.events.totalCount() < appended.totalCount());
            QVERIFY(salvagedSequential.events.totalCount() > appended.totalCount() * 9 / 10);
            SessionData salvagedParallel;
            QString parallelError;
            QVERIFY2(
                loadWith(3, path, &salvagedParallel, &parallelError, SessionReader::Salvage::Allow),
                qPrintable(parallelError));
            QCOMPARE(salvagedParallel.damage.lost, salvagedSequential.damage.lost);
            compareLoads(salvagedParallel, salvagedSequential);
        }
    }

    void refusesMalformedChunks_data()
    {
        QTest::addColumn<QByteArray>("sql");
        QTest::addColumn<QByteArray>("blob");
        QTest::addColumn<QString>("why");
        // One open event: time, pid, tid, uid, flags, mode, ret, comm, path.
        auto openEvent = [](quint64 pid, quint64 comm) {
            return varint(0) + varint(pid) + varint(1) + varint(0) + varint(0) + varint(0) +
                   varint(0) + varint(comm) + varint(0);
        };
        const QByteArray one = "UPDATE event_chunks SET count = 1, data = ?1 WHERE type = 2";
        QTest::newRow("truncated") << QByteArray("UPDATE event_chunks SET data = "
                                                 "substr(data, 1, length(data) - 3) WHERE type = 2")
                                   << QByteArray() << QStringLiteral("ends");
        QTest::newRow("count one too many")
            << QByteArray("UPDATE event_chunks SET count = count + 1 WHERE type = 2")
            << QByteArray() << QStringLiteral("open chunk");
        QTest::newRow("count one too few")
            << QByteArray("UPDATE event_chunks SET count = count - 1 WHERE type = 2")
            << QByteArray() << QStringLiteral("open chunk");
        QTest::newRow("count huge")
            << QByteArray("UPDATE event_chunks SET count = 1000000000000000 WHERE type = 2")
            << QByteArray() << QStringLiteral("1000000000000000 events cannot fit in");
        QTest::newRow("count negative")
            << QByteArray("UPDATE event_chunks SET count = -5 WHERE type = 2") << QByteArray()
            << QStringLiteral("negative event count -5");
        QTest::newRow("string id out of range")
            << one << openEvent(7, 100000)
            << QStringLiteral("column comm, event 1 (byte 7): string id 100000 is out of range");
        QTest::newRow("pid beyond 32 bits")
            << one << openEvent(1ull << 40, 0) << QStringLiteral("column pid, event 1");
        QTest::newRow("varint beyond 64 bits")
            << one << QByteArray(11, char(0xff)) + QByteArray(9, '\0')
            << QStringLiteral("does not fit in 64 bits");
        QTest::newRow("bytes left over") << one << openEvent(7, 0) + QByteArray(3, '\0')
                                         << QStringLiteral("3 bytes are left over after 1 events");
        // One exec event whose argv count claims a billion arguments.
        QTest::newRow("argv count hostile")
            << QByteArray("UPDATE event_chunks SET count = 1, data = ?1 WHERE type = 1")
            << varint(0) + varint(1) + varint(1) + varint(0) + varint(0) + varint(0) + varint(0) +
                   QByteArray(1, '\0') + varint(1000000000) + QByteArray(4, '\0')
            << QStringLiteral("1000000000 arguments cannot fit");
        QTest::newRow("event type 0")
            << QByteArray("UPDATE event_chunks SET type = 0 WHERE type = 2") << QByteArray()
            << QStringLiteral("event type 0 does not exist");
        QTest::newRow("data is text")
            << QByteArray("UPDATE event_chunks SET data = 'abc' WHERE type = 2") << QByteArray()
            << QStringLiteral("data is not a blob");
        QTest::newRow("string table gap")
            << QByteArray("UPDATE strings SET id = 1000 WHERE id = 3") << QByteArray()
            << QStringLiteral("table strings: id 4 where 3 was expected");
        // The row's time range was computed from the same events: it must still agree.
        QTest::newRow("first_ns altered")
            << QByteArray("UPDATE event_chunks SET first_ns = first_ns - 1 WHERE type = 2")
            << QByteArray() << QStringLiteral("open chunk: its events' times run from");
        QTest::newRow("last_ns altered")
            << QByteArray("UPDATE event_chunks SET last_ns = last_ns + 1000 WHERE type = 3")
            << QByteArray() << QStringLiteral("block chunk: its events' times run from");
    }

    void refusesMalformedChunks()
    {
        QFETCH(QByteArray, sql);
        QFETCH(QByteArray, blob);
        QFETCH(QString, why);
        const QString path = m_dir.filePath(
            QStringLiteral("bad-%1.bpflens").arg(QString::number(qHash(QTest::currentDataTag()))));
        // Schema 2, whose rows have no checksums: in schema 3 each of these fails its checksum
        // first (refusesWhatFailsItsChecksum), and only the decoder's own checks are left here.
        QCOMPARE(writeSession(path, 1, 20, true, 2), QString());
        QVERIFY(execSql(path, sql.constData(), blob.isNull() ? nullptr : &blob));
        const QString error = openError(path);
        QVERIFY2(error.startsWith(path + QStringLiteral(" is damaged (table ")), qPrintable(error));
        QVERIFY2(error.contains(why), qPrintable(error));
        QVERIFY2(error.endsWith(QStringLiteral("; it cannot be read")), qPrintable(error));
        if (!why.startsWith(QStringLiteral("table strings")))
            QVERIFY2(error.contains(QStringLiteral("table event_chunks, row ")), qPrintable(error));

        // Salvaged, the file opens with the one bad chunk (or string) named as lost.
        SessionData data;
        QString salvageError;
        QVERIFY2(SessionReader::open(path, &data, &salvageError), qPrintable(salvageError));
        QVERIFY2(error.contains(QLatin1Char('(') + data.damage.reason + QLatin1Char(')')),
                 qPrintable(data.damage.reason));
        QVERIFY(!data.damage.lost.isEmpty());
        if (why.startsWith(QStringLiteral("table strings"))) {
            QVERIFY(data.damage.stringsLost > 0);
            QCOMPARE(data.damage.chunksLost, 0);
        } else {
            QCOMPARE(data.damage.chunksLost, 1);
            QVERIFY2(data.damage.lost.join(QLatin1Char('\n'))
                         .contains(QStringLiteral("could not be decoded")),
                     qPrintable(data.damage.lost.join(QLatin1Char('\n'))));
        }
        QVERIFY(data.events.totalCount() > 0);
    }

    void skipsChunksOfUnknownEventTypes()
    {
        // A newer version may add an event type without a schema bump: older readers skip it.
        const QString path = m_dir.filePath(QStringLiteral("future-type.bpflens"));
        QCOMPARE(writeSession(path, 1, 20), QString());
        QVERIFY(execSql(path, "UPDATE event_chunks SET type = 42 WHERE type = 4"));
        // The newer version's chunk carries its own valid checksum.
        QVERIFY(rechecksumChunks(path));
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error, {}, SessionReader::Salvage::Refuse),
                 qPrintable(error));
        QCOMPARE(data.events.count(EventType::TcpConnect), 0);
        QCOMPARE(data.events.count(EventType::Open), 20);
    }

    void checksumsFollowTheDocumentedLayout()
    {
        // CRC32C's check value, and the bytes docs/session-format.md says each row's crc covers.
        QCOMPARE(crc32c(QByteArrayView("123456789")), 0xe3069283u);
        QCOMPARE(referenceCrc32c("123456789"), 0xe3069283u);
        const QString path = m_dir.filePath(QStringLiteral("crc.bpflens"));
        QCOMPARE(writeSession(path, 3, 40), QString());
        QCOMPARE(countRows(path, "PRAGMA user_version"), SessionSchemaVersion);
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open_v2(QFile::encodeName(path).constData(), &db, SQLITE_OPEN_READONLY,
                                 nullptr),
                 SQLITE_OK);
        sqlite3_stmt *st = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db,
                                    "SELECT type, count, first_ns, last_ns, data, crc FROM "
                                    "event_chunks",
                                    -1, &st, nullptr),
                 SQLITE_OK);
        int chunks = 0;
        while (sqlite3_step(st) == SQLITE_ROW) {
            const QByteArray data(static_cast<const char *>(sqlite3_column_blob(st, 4)),
                                  sqlite3_column_bytes(st, 4));
            const QByteArray covered =
                le64(sqlite3_column_int64(st, 0)) + le64(sqlite3_column_int64(st, 1)) +
                le64(sqlite3_column_int64(st, 2)) + le64(sqlite3_column_int64(st, 3)) + data;
            QCOMPARE(sqlite3_column_int64(st, 5), qint64(referenceCrc32c(covered)));
            ++chunks;
        }
        sqlite3_finalize(st);
        QCOMPARE(chunks, 15);
        QCOMPARE(sqlite3_prepare_v2(db, "SELECT id, value, crc FROM strings", -1, &st, nullptr),
                 SQLITE_OK);
        int strings = 0;
        while (sqlite3_step(st) == SQLITE_ROW) {
            const QByteArray value(static_cast<const char *>(sqlite3_column_blob(st, 1)),
                                   sqlite3_column_bytes(st, 1));
            QCOMPARE(sqlite3_column_int64(st, 2),
                     qint64(referenceCrc32c(le64(sqlite3_column_int64(st, 0)) + value)));
            ++strings;
        }
        sqlite3_finalize(st);
        sqlite3_close(db);
        QVERIFY(strings > 10);
    }

    void refusesWhatFailsItsChecksum_data()
    {
        QTest::addColumn<QByteArray>("sql");
        QTest::addColumn<QString>("why");
        QTest::addColumn<bool>("string");
        // The second batch's open chunk (seq 7: five types per batch).
        QTest::newRow("a data byte")
            << QByteArray("UPDATE event_chunks SET data = substr(data, 1, 40) || x'07' || "
                          "substr(data, 42) WHERE seq = 7")
            << QStringLiteral("table event_chunks, row 7: checksum mismatch") << false;
        QTest::newRow("the count")
            << QByteArray("UPDATE event_chunks SET count = count - 1 WHERE seq = 7")
            << QStringLiteral("table event_chunks, row 7: checksum mismatch") << false;
        QTest::newRow("the time range")
            << QByteArray("UPDATE event_chunks SET first_ns = first_ns + 1 WHERE seq = 7")
            << QStringLiteral("table event_chunks, row 7: checksum mismatch") << false;
        // Not taken for a newer version's type and skipped without a word.
        QTest::newRow("the type") << QByteArray("UPDATE event_chunks SET type = 42 WHERE seq = 7")
                                  << QStringLiteral("table event_chunks, row 7: checksum mismatch")
                                  << false;
        QTest::newRow("the checksum")
            << QByteArray("UPDATE event_chunks SET crc = (crc | 4) - (crc & 4) WHERE seq = 7")
            << QStringLiteral("table event_chunks, row 7: checksum mismatch") << false;
        QTest::newRow("a string")
            << QByteArray("UPDATE strings SET value = x'41' || substr(value, 2) WHERE id = 3")
            << QStringLiteral("table strings, id 3: checksum mismatch") << true;
    }

    void refusesWhatFailsItsChecksum()
    {
        QFETCH(QByteArray, sql);
        QFETCH(QString, why);
        QFETCH(bool, string);
        const QString path = m_dir.filePath(
            QStringLiteral("crc-%1.bpflens").arg(QString::number(qHash(QTest::currentDataTag()))));
        QCOMPARE(writeSession(path, 3, 20), QString());
        SessionData original;
        QString error;
        QVERIFY2(SessionReader::open(path, &original, &error), qPrintable(error));
        QVERIFY(execSql(path, sql.constData()));
        error = openError(path);
        QCOMPARE(error, path + QStringLiteral(" is damaged (") + why +
                            QStringLiteral("); it cannot be read"));

        SessionData data;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        const QString lost = data.damage.lost.join(QLatin1Char('\n'));
        QVERIFY(!data.damage.unverified);
        if (string) {
            // The string is lost, not altered: its events keep everything else.
            QCOMPARE(data.damage.stringsLost, 1);
            QCOMPARE(data.damage.chunksLost, 0);
            QCOMPARE(data.events.totalCount(), original.events.totalCount());
            QVERIFY2(lost.contains(QStringLiteral("strings: 1 string failed their checksum")),
                     qPrintable(lost));
            return;
        }
        // The chunk is dropped whole, never decoded, and named; every other event is as written.
        QCOMPARE(data.damage.chunksLost, 1);
        // What the damaged row claims is what the report can say.
        const bool countAltered = qstrcmp(QTest::currentDataTag(), "the count") == 0;
        QCOMPARE(data.damage.eventsLost, countAltered ? 19 : 20);
        QVERIFY2(lost.contains(QRegularExpression(
                     QStringLiteral("^chunk 7 of (open|type 42): checksum mismatch, %1 events "
                                    "lost \\([0-9.]+ s to [0-9.]+ s\\)$")
                         .arg(countAltered ? 19 : 20),
                     QRegularExpression::MultilineOption)),
                 qPrintable(lost));
        QCOMPARE(data.events.count(EventType::Open), 40);
        QCOMPARE(data.events.totalCount(), original.events.totalCount() - 20);
        const RecordBatch b0 = makeBatch(Base, 0, 20);
        const RecordBatch b2 = makeBatch(Base, 2, 20);
        for (qsizetype i = 0; i < 20; ++i) {
            QCOMPARE(data.events.open(i), b0.open[i]);
            QCOMPARE(data.events.open(20 + i), b2.open[i]);
        }
    }

    void salvageSaysWhenItCannotTellAlteredEvents()
    {
        // A schema 2 file has no checksums: salvage keeps what still decodes and says that an
        // altered event cannot be told from a real one. A schema 3 file says nothing of the kind.
        for (int schema : {2, 3}) {
            const QString path =
                m_dir.filePath(QStringLiteral("unverified-%1.bpflens").arg(schema));
            QCOMPARE(writeSession(path, 3, 20, true, schema), QString());
            QVERIFY(execSql(path, "UPDATE event_chunks SET count = count + 1 WHERE seq = 7"));
            SessionData data;
            QString error;
            QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
            QVERIFY(data.damage.isDamaged());
            QCOMPARE(data.damage.chunksLost, 1);
            const QString lost = data.damage.lost.join(QLatin1Char('\n'));
            QCOMPARE(data.damage.unverified, schema == 2);
            QCOMPARE(lost.contains(QStringLiteral("cannot be told from a real one")), schema == 2);
            // Recovered, a schema 2 file's events do not get checksums that would vouch for
            // them; a schema 3 file's are written as this version writes.
            const QString copy =
                m_dir.filePath(QStringLiteral("unverified-%1-copy.bpflens").arg(schema));
            QVERIFY2(writeSessionCopy(data, copy, &error), qPrintable(error));
            QCOMPARE(countRows(copy, "PRAGMA user_version"),
                     schema == 2 ? 2 : SessionSchemaVersion);
        }
    }

    void chunkFuzzSeedCorpusIsCurrent()
    {
        // The seeds of tests/fuzz/fuzz_eventchunk.cpp: valid ones decode, invalid ones are
        // refused, and the committed files are what this build's encoder writes.
        QDir dir(QStringLiteral(BPFLENS_SOURCE_DIR "/tests/fuzz/corpus/eventchunk"));
        const bool update = qEnvironmentVariableIntValue("BPFLENS_UPDATE_FUZZ_CORPUS");
        const QList<ChunkSeed> seeds = eventChunkSeeds();
        for (const ChunkSeed &seed : seeds) {
            EventStore store;
            std::vector<quint32> map(1, 0);
            for (int i = 1; i < ChunkFuzzStrings; ++i)
                map.push_back(EventChunkCodec::intern(&store, "s" + QByteArray::number(i)));
            QString error;
            const bool ok = EventChunkCodec::decode(
                EventType(seed.bytes.at(0)), QByteArrayView(seed.bytes).sliced(5),
                qFromLittleEndian<quint32>(seed.bytes.constData() + 1), map, &store, &error);
            QVERIFY2(ok == seed.name.startsWith(QStringLiteral("valid")),
                     qPrintable(seed.name + QLatin1Char(' ') + error));
            QFile file(dir.filePath(seed.name));
            if (update) {
                QVERIFY(dir.mkpath(QStringLiteral(".")));
                QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
                file.write(seed.bytes);
                continue;
            }
            QVERIFY2(
                file.open(QIODevice::ReadOnly),
                qPrintable(file.fileName() +
                           QStringLiteral(" is missing; run with BPFLENS_UPDATE_FUZZ_CORPUS=1")));
            QVERIFY2(file.readAll() == seed.bytes,
                     qPrintable(seed.name + QStringLiteral(" is stale; run with "
                                                           "BPFLENS_UPDATE_FUZZ_CORPUS=1")));
        }
        QCOMPARE(dir.entryList(QDir::Files).size(), seeds.size());
    }

    void storedChunkFuzzSeedCorpusIsCurrent()
    {
        // The seeds of tests/fuzz/fuzz_storedchunk.cpp, as chunkFuzzSeedCorpusIsCurrent.
        QDir dir(QStringLiteral(BPFLENS_SOURCE_DIR "/tests/fuzz/corpus/storedchunk"));
        const bool update = qEnvironmentVariableIntValue("BPFLENS_UPDATE_FUZZ_CORPUS");
        const QList<ChunkSeed> seeds = storedChunkSeeds();
        QVERIFY(seeds.size() >= 4 * 13);
        for (const ChunkSeed &seed : seeds) {
            EventStore store;
            std::vector<quint32> map(1, 0);
            for (int i = 1; i < ChunkFuzzStrings; ++i)
                map.push_back(EventChunkCodec::intern(&store, "s" + QByteArray::number(i)));
            const QByteArray &b = seed.bytes;
            StoredChunk row;
            row.type = quint8(b.at(0));
            row.count = qFromLittleEndian<quint32>(b.constData() + 1);
            row.firstNs = qFromLittleEndian<quint64>(b.constData() + 5);
            row.lastNs = qFromLittleEndian<quint64>(b.constData() + 13);
            row.data = QByteArrayView(b).sliced(26);
            row.hasChecksum = b.at(21) & 1;
            row.checksum = (b.at(21) & 2)
                               ? EventChunkCodec::checksum(row.type, row.count, row.firstNs,
                                                           row.lastNs, row.data)
                               : qFromLittleEndian<quint32>(b.constData() + 22);
            QString error;
            const ChunkCheck result = EventChunkCodec::decodeStored(row, map, &store, &error);
            QVERIFY2((result == ChunkCheck::Ok) == seed.name.startsWith(QStringLiteral("valid")),
                     qPrintable(seed.name + QLatin1Char(' ') + error));
            if (seed.name.endsWith(QStringLiteral("-checksum")))
                QCOMPARE(result, ChunkCheck::ChecksumMismatch);
            QFile file(dir.filePath(seed.name));
            if (update) {
                QVERIFY(dir.mkpath(QStringLiteral(".")));
                QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
                file.write(seed.bytes);
                continue;
            }
            QVERIFY2(
                file.open(QIODevice::ReadOnly),
                qPrintable(file.fileName() +
                           QStringLiteral(" is missing; run with BPFLENS_UPDATE_FUZZ_CORPUS=1")));
            QVERIFY2(file.readAll() == seed.bytes,
                     qPrintable(seed.name + QStringLiteral(" is stale; run with "
                                                           "BPFLENS_UPDATE_FUZZ_CORPUS=1")));
        }
        QCOMPARE(dir.entryList(QDir::Files).size(), seeds.size());
    }

private:
    QTemporaryDir m_dir;
};

int main(int argc, char **argv)
{
    if (argc == 3 && qstrcmp(argv[1], "--record-until-killed") == 0)
        return recordUntilKilled(argv[2]);
    QCoreApplication app(argc, argv);
    TestSessionStore test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_sessionstore.moc"
