// SQL over session files (core/sessionquery.h, docs/sql.md): real files written by
// SessionWriter, every answer checked against the events computed here or the CSV export.
#include "core/csvexport.h"
#include "core/sessioninfo.h"
#include "core/sessionquery.h"
#include "core/sessionstore.h"
#include "tests/csvreader.h"
#include "tests/everytype.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <map>
#include <sqlite3.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr quint64 Start = 5'000'000'000;

SessionInfo sessionInfo()
{
    SessionInfo info;
    info.schemaVersion = SessionSchemaVersion;
    info.appVersion = QStringLiteral("test");
    info.host = QStringLiteral("host");
    info.kernelRelease = QStringLiteral("6.18");
    info.startWall = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
    info.startMonotonicNs = Start;
    return info;
}

bool writeSession(const QString &path, const QList<RecordBatch> &batches,
                  int schema = SessionSchemaVersion)
{
    SessionWriter w;
    w.setSchemaVersion(schema);
    QString error;
    if (!w.create(path, sessionInfo(), &error)) {
        qWarning() << error;
        return false;
    }
    for (const RecordBatch &b : batches) {
        if (!w.writeBatch(b, &error)) {
            qWarning() << error;
            return false;
        }
    }
    return w.finish(Start + 100'000'000'000ull, &error);
}

// Block events in batches (one chunk each), time-ordered, spread over comms, disks and
// latencies, with chunk k covering [Start + k s, Start + k s + count µs).
QList<RecordBatch> blockBatches(int chunks, int perChunk, quint32 seed)
{
    QRandomGenerator rng(seed);
    static const QByteArray comms[] = {"postgres", "kworker/0:1", "fio", "jbd2/vda1-8", "dd"};
    static const QByteArray disks[] = {"vda", "nvme0n1"};
    QList<RecordBatch> out;
    for (int c = 0; c < chunks; ++c) {
        RecordBatch b;
        for (int i = 0; i < perChunk; ++i) {
            BlockEvent e;
            e.timeNs = Start + quint64(c) * 1'000'000'000ull + quint64(i) * 1000;
            e.dev = (253u << 20) | quint32(rng.bounded(2));
            e.disk = disks[e.dev & 1];
            e.op = rng.bounded(2) ? "Read" : "Sync-Write";
            e.sector = rng.generate64() >> 20;
            e.bytes = 512u * (1 + rng.bounded(256));
            e.pid = 100 + rng.bounded(50);
            e.comm = comms[rng.bounded(5)];
            e.queueNs = rng.bounded(100'000);
            e.deviceNs = rng.bounded(10'000'000);
            e.cmdFlags = rng.bounded(4);
            b.block.append(e);
        }
        out.append(b);
    }
    return out;
}

QList<BlockEvent> allBlock(const QList<RecordBatch> &batches)
{
    QList<BlockEvent> all;
    for (const RecordBatch &b : batches)
        all += b.block;
    return all;
}

// The rows of one query, each value as text the way the CSV files write it.
struct Result
{
    bool ok = false;
    QString error;
    QStringList columns;
    QList<QVariantList> rows;
};

Result run(SessionQuery &q, const QString &sql)
{
    Result r;
    r.ok = q.exec(
        sql, &r.columns,
        [&](const QVariantList &v) {
            r.rows.append(v);
            return true;
        },
        &r.error);
    return r;
}

QByteArray csvText(const QVariant &v)
{
    if (v.typeId() == QMetaType::LongLong)
        return QByteArray::number(v.toLongLong());
    return v.toString().toUtf8();
}

QByteArray fileHash(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

bool execOnFile(const QString &path, const char *sql)
{
    sqlite3 *db = nullptr;
    bool ok = sqlite3_open(QFile::encodeName(path).constData(), &db) == SQLITE_OK &&
              sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok;
}

} // namespace

class TestSessionQuery : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    // Every declared type is a table whose columns hold what its CSV file holds, cell for cell
    // (the CSV export is the reference for the text forms: escaped bytes, argv, addresses).
    void everyTypeAndColumnMatchesTheCsvExport()
    {
        const QString path = m_dir.filePath(QStringLiteral("every.bpflens"));
        const auto [first, second] = splitBatch(everyTypeBatch(12, Start + 1000), 5);
        QVERIFY(writeSession(path, {first, second}));
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(path, &data, &error), qPrintable(error));
        const QString csvDir = m_dir.filePath(QStringLiteral("every-csv"));
        QVERIFY(QDir().mkpath(csvDir));
        QVERIFY2(!CsvExport::exportSession(data, csvDir, {}, &error).isEmpty(), qPrintable(error));

        SessionQuery q;
        QVERIFY2(q.open(path, &error), qPrintable(error));
        int types = 0;
        forEachEventType([&]<typename E>() {
            ++types;
            const QString table = QString::fromLatin1(EventTraits<E>::probeId);
            const auto csv = readCsv(QDir(csvDir).filePath(table + QStringLiteral(".csv")));
            QVERIFY2(csv.size() == 13, qPrintable(table));
            const QList<QByteArray> header = csv.first();
            QCOMPARE(header.mid(0, 2), (QList<QByteArray>{"time_s", "time"}));
            QStringList select{QStringLiteral("time_ns"), QStringLiteral("time_s")};
            for (const QByteArray &name : header.mid(2))
                select.append(u'"' + QString::fromUtf8(name) + u'"');
            const Result r = run(q, QStringLiteral("SELECT %1 FROM %2 ORDER BY time_ns")
                                        .arg(select.join(QStringLiteral(", ")), table));
            QVERIFY2(r.ok, qPrintable(table + u' ' + r.error));
            QCOMPARE(r.rows.size(), 12);
            const EventType type = eventTypeOf<E>;
            for (int i = 0; i < 12; ++i) {
                const QVariantList &row = r.rows.at(i);
                QCOMPARE(row.at(0).toULongLong(), data.events.timeNs(type, i));
                const double seconds = csv.at(i + 1).at(0).toDouble();
                QVERIFY(qAbs(row.at(1).toDouble() - seconds) < 1e-6);
                for (qsizetype c = 2; c < header.size(); ++c) {
                    const QByteArray got = csvText(row.at(c));
                    if (got != csv.at(i + 1).at(c))
                        QFAIL(qPrintable(QStringLiteral("%1 row %2 column %3: %4 != %5")
                                             .arg(table)
                                             .arg(i)
                                             .arg(QString::fromUtf8(header.at(c)),
                                                  QString::fromUtf8(got),
                                                  QString::fromUtf8(csv.at(i + 1).at(c)))));
                }
            }
        });
        QCOMPARE(types, int(std::size(eventTypes)));
        // The escaped form is valid UTF-8 text in SQL too, and argv reads like a shell line.
        const Result exec = run(q, QStringLiteral("SELECT argv, typeof(comm) FROM exec LIMIT 2"));
        QVERIFY2(exec.ok, qPrintable(exec.error));
        QCOMPARE(exec.rows.at(1).at(0).toString().toUtf8(),
                 formatArgv(synthesizedEvent<ExecEvent>(1, 0).argv));
        QCOMPARE(exec.rows.at(0).at(1).toString(), QStringLiteral("text"));
    }

    // The example and its relatives, against the events counted here.
    void aggregatesMatchTheEvents()
    {
        const QString path = m_dir.filePath(QStringLiteral("block.bpflens"));
        const QList<RecordBatch> batches = blockBatches(20, 700, 7);
        QVERIFY(writeSession(path, batches));
        std::map<QString, std::pair<qint64, quint64>> byComm; // count, max latency
        std::map<QString, quint64> bytesByDisk;
        for (const BlockEvent &e : allBlock(batches)) {
            auto &[n, max] = byComm[QString::fromLatin1(e.comm)];
            ++n;
            max = std::max(max, e.queueNs + e.deviceNs);
            bytesByDisk[QString::fromLatin1(e.disk)] += e.bytes;
        }
        SessionQuery q;
        QString error;
        QVERIFY2(q.open(path, &error), qPrintable(error));
        const Result r = run(q, QStringLiteral("SELECT comm, count(*), max(latency_ns) FROM block "
                                               "GROUP BY comm ORDER BY comm"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.columns, (QStringList{QStringLiteral("comm"), QStringLiteral("count(*)"),
                                         QStringLiteral("max(latency_ns)")}));
        QCOMPARE(r.rows.size(), qsizetype(byComm.size()));
        auto it = byComm.begin();
        for (const QVariantList &row : r.rows) {
            QCOMPARE(row.at(0).toString(), it->first);
            QCOMPARE(row.at(1).toLongLong(), it->second.first);
            QCOMPARE(row.at(2).toULongLong(), it->second.second);
            ++it;
        }
        const Result disks = run(q, QStringLiteral("SELECT disk, sum(bytes), dev_major FROM block "
                                                   "GROUP BY disk ORDER BY disk"));
        QVERIFY2(disks.ok, qPrintable(disks.error));
        QCOMPARE(disks.rows.size(), qsizetype(2));
        for (const QVariantList &row : disks.rows) {
            QCOMPARE(row.at(1).toULongLong(), bytesByDisk[row.at(0).toString()]);
            QCOMPARE(row.at(2).toLongLong(), 253);
        }
        // A join of an event table with the file's own tables and with itself.
        const Result join = run(q, QStringLiteral("SELECT count(*) FROM block AS a JOIN meta AS m "
                                                  "ON m.key = 'host' WHERE a.pid = 100"));
        QVERIFY2(join.ok, qPrintable(join.error));
        qint64 pid100 = 0;
        for (const BlockEvent &e : allBlock(batches))
            pid100 += e.pid == 100;
        QCOMPARE(join.rows.at(0).at(0).toLongLong(), pid100);
        // A self-join on time_ns looks each time up again (xFilter per outer row).
        const Result self = run(q, QStringLiteral("SELECT count(*), sum(a.bytes = b.bytes) FROM "
                                                  "block AS a JOIN block AS b ON b.time_ns = "
                                                  "a.time_ns"));
        QVERIFY2(self.ok, qPrintable(self.error));
        QCOMPARE(self.rows.at(0), (QVariantList{qint64(14000), qint64(14000)}));
    }

    // A time range on time_ns skips chunks and rows; the rows are the same as without it.
    void timeRangeGivesTheSameRowsAsAFullScan_data()
    {
        QTest::addColumn<QString>("where");
        const qint64 s = qint64(Start);
        auto add = [](const char *name, const QString &w) { QTest::newRow(name) << w; };
        add("inside one chunk", QStringLiteral("time_ns >= %1 AND time_ns < %2")
                                    .arg(s + 3'000'000'000)
                                    .arg(s + 3'000'100'000));
        add("across chunks", QStringLiteral("time_ns > %1 AND time_ns <= %2")
                                 .arg(s + 2'000'050'000)
                                 .arg(s + 6'000'300'000));
        add("between", QStringLiteral("time_ns BETWEEN %1 AND %2")
                           .arg(s + 5'000'000'000)
                           .arg(s + 5'000'699'000));
        add("equal", QStringLiteral("time_ns = %1").arg(s + 4'000'017'000));
        add("only low", QStringLiteral("time_ns >= %1").arg(s + 8'000'000'001));
        add("only high", QStringLiteral("time_ns < %1").arg(s + 1'000'000'000));
        add("empty", QStringLiteral("time_ns > %1 AND time_ns < %2").arg(s + 10).arg(s + 5));
        add("before everything", QStringLiteral("time_ns < %1").arg(s));
        add("real bound", QStringLiteral("time_ns > %1.5").arg(s + 7'000'000'000));
        add("negative", QStringLiteral("time_ns > -5 AND time_ns < %1").arg(s + 1000));
        add("extremes", QStringLiteral("time_ns > 9223372036854775807 OR time_ns < "
                                       "-9223372036854775808 OR time_ns = %1")
                            .arg(s + 9'000'000'000));
    }
    void timeRangeGivesTheSameRowsAsAFullScan()
    {
        QFETCH(QString, where);
        const QString path = m_dir.filePath(QStringLiteral("range.bpflens"));
        static const QList<RecordBatch> batches = blockBatches(10, 700, 3);
        if (!QFile::exists(path))
            QVERIFY(writeSession(path, batches));
        SessionQuery q;
        QString error;
        QVERIFY2(q.open(path, &error), qPrintable(error));
        const QString sql = QStringLiteral("SELECT time_ns, pid, sector FROM block WHERE %1");
        const Result pushed = run(q, sql.arg(where));
        QString unpushed = where;
        unpushed.replace(QStringLiteral("time_ns"), QStringLiteral("+time_ns"));
        const Result scanned = run(q, sql.arg(unpushed));
        QVERIFY2(pushed.ok, qPrintable(pushed.error));
        QVERIFY2(scanned.ok, qPrintable(scanned.error));
        QCOMPARE(pushed.rows, scanned.rows);
        // And both are what the events say (the WHERE evaluated by SQLite on a plain table).
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(":memory:", &db), SQLITE_OK);
        sqlite3_exec(db, "CREATE TABLE b(time_ns INTEGER, pid INTEGER, sector INTEGER)", nullptr,
                     nullptr, nullptr);
        sqlite3_stmt *ins = nullptr;
        sqlite3_prepare_v2(db, "INSERT INTO b VALUES(?, ?, ?)", -1, &ins, nullptr);
        for (const BlockEvent &e : allBlock(batches)) {
            sqlite3_bind_int64(ins, 1, qint64(e.timeNs));
            sqlite3_bind_int64(ins, 2, e.pid);
            sqlite3_bind_int64(ins, 3, qint64(e.sector));
            sqlite3_step(ins);
            sqlite3_reset(ins);
        }
        sqlite3_finalize(ins);
        sqlite3_stmt *st = nullptr;
        const QByteArray plain =
            QStringLiteral("SELECT time_ns, pid, sector FROM b WHERE %1").arg(where).toUtf8();
        QCOMPARE(sqlite3_prepare_v2(db, plain.constData(), -1, &st, nullptr), SQLITE_OK);
        QList<QVariantList> expected;
        while (sqlite3_step(st) == SQLITE_ROW)
            expected.append({qint64(sqlite3_column_int64(st, 0)),
                             qint64(sqlite3_column_int64(st, 1)),
                             qint64(sqlite3_column_int64(st, 2))});
        sqlite3_finalize(st);
        sqlite3_close(db);
        QCOMPARE(pushed.rows, expected);
    }

    // A damaged chunk is an SQL error naming the chunk; a range that skips it does not read it.
    void damagedChunkIsAnErrorNamingIt()
    {
        const QString path = m_dir.filePath(QStringLiteral("damaged.bpflens"));
        // Schema 2 (no checksums), so that the decoder's own checks are what stops the query.
        QVERIFY(writeSession(path, blockBatches(6, 300, 11), 2));
        // One chunk per batch: chunk 4 claims an event more than it holds, chunk 2 has a byte
        // left over.
        QVERIFY(execOnFile(path, "UPDATE event_chunks SET count = count + 1 WHERE seq = 4"));
        QVERIFY(execOnFile(path, "UPDATE event_chunks SET data = data || x'00' WHERE seq = 2"));
        SessionQuery q;
        QString error;
        QVERIFY2(q.open(path, &error), qPrintable(error));
        const Result all = run(q, QStringLiteral("SELECT count(*) FROM block"));
        QVERIFY(!all.ok);
        QVERIFY2(all.error.contains(QLatin1String("table event_chunks, row 2: block chunk")),
                 qPrintable(all.error));
        QVERIFY2(all.error.contains(QLatin1String("left over")), qPrintable(all.error));
        const Result fourth =
            run(q, QStringLiteral("SELECT count(*) FROM block WHERE time_ns >= %1")
                       .arg(Start + 3'000'000'000ull));
        QVERIFY(!fourth.ok);
        QVERIFY2(fourth.error.contains(QLatin1String("row 4: block chunk")),
                 qPrintable(fourth.error));
        // The first chunk alone is intact, and the range never touches the others.
        const Result firstOnly = run(q, QStringLiteral("SELECT count(*) FROM block WHERE "
                                                       "time_ns < %1")
                                            .arg(Start + 1'000'000'000ull));
        QVERIFY2(firstOnly.ok, qPrintable(firstOnly.error));
        QCOMPARE(firstOnly.rows.at(0).at(0).toLongLong(), 300);
        // A connection stays usable after an error.
        QVERIFY(run(q, QStringLiteral("SELECT count(*) FROM meta")).ok);
    }

    // Schema 3: a chunk or string whose checksum does not match stops the query, though the
    // altered bytes would still decode; a range that skips the chunk does not read it.
    void checksumMismatchIsAnErrorNamingIt()
    {
        const QString path = m_dir.filePath(QStringLiteral("crc.bpflens"));
        QVERIFY(writeSession(path, blockBatches(3, 300, 11)));
        // The last byte of chunk 2 is its last event's comm (a one-byte string id): another
        // id that exists decodes as well as the real one.
        QVERIFY(execOnFile(path, "UPDATE event_chunks SET data = substr(data, 1, length(data) - "
                                 "1) || CASE WHEN substr(data, -1) = x'01' THEN x'02' ELSE x'01' "
                                 "END WHERE seq = 2"));
        SessionQuery q;
        QString error;
        QVERIFY2(q.open(path, &error), qPrintable(error));
        const Result all = run(q, QStringLiteral("SELECT count(*) FROM block"));
        QVERIFY(!all.ok);
        QVERIFY2(all.error.contains(QLatin1String("table event_chunks, row 2: block chunk: "
                                                  "checksum mismatch")),
                 qPrintable(all.error));
        const Result first = run(q, QStringLiteral("SELECT count(*) FROM block WHERE time_ns < %1")
                                        .arg(Start + 1'000'000'000ull));
        QVERIFY2(first.ok, qPrintable(first.error));
        QCOMPARE(first.rows.at(0).at(0).toLongLong(), 300);

        QVERIFY(execOnFile(path, "UPDATE strings SET value = value || 'x' WHERE id = 2"));
        SessionQuery again;
        QVERIFY2(again.open(path, &error), qPrintable(error));
        const Result strings = run(again, QStringLiteral("SELECT count(*) FROM block WHERE "
                                                         "time_ns < %1")
                                              .arg(Start + 1'000'000'000ull));
        QVERIFY(!strings.ok);
        QVERIFY2(strings.error.contains(QLatin1String("table strings, id 2: checksum mismatch")),
                 qPrintable(strings.error));
    }

    // A session still being recorded: each query sees the batches committed so far, with the
    // strings the later batches added.
    void aSessionBeingRecordedGrowsBetweenQueries()
    {
        const QString path = m_dir.filePath(QStringLiteral("live.bpflens"));
        SessionWriter w;
        QString error;
        QVERIFY2(w.create(path, sessionInfo(), &error), qPrintable(error));
        QList<RecordBatch> batches = blockBatches(2, 100, 5);
        for (BlockEvent &e : batches[1].block)
            e.comm = "late-" + e.comm;
        QVERIFY2(w.writeBatch(batches[0], &error), qPrintable(error));
        SessionQuery q;
        QVERIFY2(q.open(path, &error), qPrintable(error));
        const QString sql = QStringLiteral("SELECT count(*), sum(comm LIKE 'late-%') FROM block");
        Result r = run(q, sql);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.rows.at(0), (QVariantList{qint64(100), qint64(0)}));
        QVERIFY2(w.writeBatch(batches[1], &error), qPrintable(error));
        r = run(q, sql);
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.rows.at(0), (QVariantList{qint64(200), qint64(100)}));
    }

    void writesAreRefusedAndTheFileIsUntouched_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::newRow("delete") << QStringLiteral("DELETE FROM meta");
        QTest::newRow("update") << QStringLiteral("UPDATE strings SET value = x'00'");
        QTest::newRow("insert into vtab") << QStringLiteral("INSERT INTO block(pid) VALUES(1)");
        QTest::newRow("delete from vtab") << QStringLiteral("DELETE FROM block");
        QTest::newRow("create") << QStringLiteral("CREATE TABLE t(x)");
        QTest::newRow("drop") << QStringLiteral("DROP TABLE counters");
        QTest::newRow("pragma") << QStringLiteral("PRAGMA user_version = 7");
        QTest::newRow("attach") << QStringLiteral("ATTACH '/tmp/x.db' AS x");
        QTest::newRow("vacuum") << QStringLiteral("VACUUM INTO '/tmp/sessionquery-copy.db'");
        QTest::newRow("two statements") << QStringLiteral("SELECT 1; DELETE FROM meta");
    }
    void writesAreRefusedAndTheFileIsUntouched()
    {
        QFETCH(QString, sql);
        const QString path = m_dir.filePath(QStringLiteral("readonly.bpflens"));
        if (!QFile::exists(path))
            QVERIFY(writeSession(path, blockBatches(2, 50, 1)));
        const QByteArray before = fileHash(path);
        SessionQuery q;
        QString error;
        QVERIFY2(q.open(path, &error), qPrintable(error));
        const Result r = run(q, sql);
        QVERIFY(!r.ok);
        QVERIFY(!r.error.isEmpty());
        q.close();
        QCOMPARE(fileHash(path), before);
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/sessionquery-copy.db")));
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/x.db")));
    }

    // Histogram slots and stack frames, stored as blobs, come out as rows.
    void histogramBucketsAndStackEntries()
    {
        const QString path = m_dir.filePath(QStringLiteral("hist.bpflens"));
        RecordBatch b = everyTypeBatch(3, Start + 10);
        HistogramSnapshot h;
        h.probeId = QStringLiteral("biolatency");
        h.key = QStringLiteral("vda");
        h.timeNs = Start + 1'000'000'000;
        h.intervalNs = 1'000'000'000;
        h.histogram = Log2Histogram(HistogramUnit::Microseconds);
        h.histogram.addToSlot(0, 3);
        h.histogram.addToSlot(4, 70);
        h.histogram.addToSlot(10, 1);
        b.histograms.append(h);
        QVERIFY(writeSession(path, {b}));
        SessionQuery q;
        QString error;
        QVERIFY2(q.open(path, &error), qPrintable(error));
        const Result r = run(q, QStringLiteral("SELECT probe_id, key, time_ns, interval_ns, unit, "
                                               "slot, bucket_low, bucket_high, count FROM "
                                               "histogram_buckets WHERE count > 0"));
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(r.rows.size(), qsizetype(3));
        QCOMPARE(r.rows.at(1), (QVariantList{QStringLiteral("biolatency"), QStringLiteral("vda"),
                                             qint64(Start + 1'000'000'000), qint64(1'000'000'000),
                                             QStringLiteral("usecs"), qint64(4), qint64(16),
                                             qint64(31), qint64(70)}));
        const Result all =
            run(q, QStringLiteral("SELECT count(*), sum(count) FROM histogram_buckets"));
        QVERIFY2(all.ok, qPrintable(all.error));
        QCOMPARE(all.rows.at(0), (QVariantList{qint64(11), qint64(74)}));

        const StackTable stacks = synthesizedStacks();
        const Result s = run(q, QStringLiteral("SELECT stack_id, flags, depth, frame_id FROM "
                                               "stack_entries ORDER BY stack_id, depth"));
        QVERIFY2(s.ok, qPrintable(s.error));
        QList<QVariantList> expected;
        for (quint32 id = 1; id <= quint32(stacks.stackCount()); ++id) {
            const StackDefinition &d = stacks.stack(id);
            for (qsizetype k = 0; k < d.frames.size(); ++k)
                expected.append({qint64(id), qint64(d.flags), qint64(k), qint64(d.frames.at(k))});
        }
        QCOMPARE(s.rows, expected);
        // The profile samples join with their stacks' leaf frames.
        const Result leaf =
            run(q, QStringLiteral("SELECT f.symbol, count(*) FROM profile AS p JOIN "
                                  "stack_entries AS e ON e.stack_id = p.stack_id AND "
                                  "e.depth = 0 JOIN stack_frames AS f ON f.id = e.frame_id "
                                  "GROUP BY f.symbol ORDER BY f.symbol"));
        QVERIFY2(leaf.ok, qPrintable(leaf.error));
        QCOMPARE(leaf.rows.size(), qsizetype(2)); // ext4_file_read_iter, do_syscall_64 twice
        QCOMPARE(leaf.rows.at(0).at(1).toLongLong() + leaf.rows.at(1).at(1).toLongLong(), 3);

        QVERIFY(execOnFile(path, "UPDATE histograms SET slots = x'0102'"));
        SessionQuery damaged;
        QVERIFY2(damaged.open(path, &error), qPrintable(error));
        const Result bad = run(damaged, QStringLiteral("SELECT * FROM histogram_buckets"));
        QVERIFY(!bad.ok);
        QVERIFY2(bad.error.contains(QLatin1String("table histograms, row 1")),
                 qPrintable(bad.error));
    }

    void filesThatAreNotSessionsAreRefused()
    {
        SessionQuery q;
        QString error;
        QVERIFY(!q.open(m_dir.filePath(QStringLiteral("missing.bpflens")), &error));
        QVERIFY2(error.contains(QLatin1String("no such file")), qPrintable(error));
        const QString text = m_dir.filePath(QStringLiteral("text.bpflens"));
        {
            QFile f(text);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("hello, this is not a database at all.\n");
        }
        QVERIFY(!q.open(text, &error));
        QVERIFY2(error.contains(QLatin1String("not an SQLite database")), qPrintable(error));
        const QString other = m_dir.filePath(QStringLiteral("other.db"));
        QVERIFY(execOnFile(other, "CREATE TABLE t(x)"));
        QVERIFY(!q.open(other, &error));
        QVERIFY2(error.contains(QLatin1String("another application")), qPrintable(error));
        const QString old = m_dir.filePath(QStringLiteral("schema1.bpflens"));
        QVERIFY(writeSession(old, blockBatches(1, 5, 1), 1));
        QVERIFY(!q.open(old, &error));
        QVERIFY2(error.contains(QLatin1String("schema 1")), qPrintable(error));
        QVERIFY(!q.isOpen());
    }

    // The table list follows the declarations: each type with time_ns and its CSV columns.
    void tablesFollowTheDeclarations()
    {
        const QList<SessionQuery::Table> tables = SessionQuery::virtualTables();
        qsizetype i = 0;
        forEachEventType([&]<typename E>() {
            const SessionQuery::Table &t = tables.at(i++);
            QCOMPARE(t.name, QString::fromLatin1(EventTraits<E>::probeId));
            QCOMPARE(t.kind, QStringLiteral("events"));
            QCOMPARE(t.columns.at(0).name, QStringLiteral("time_ns"));
            QStringList names;
            for (const auto &c : t.columns)
                names.append(c.name);
            for (const Column<E> &c : EventTraits<E>::columns) {
                if (c.csvName && (c.show & InCsv))
                    QVERIFY2(names.contains(QString::fromLatin1(c.csvName)), c.csvName);
            }
            QCOMPARE(names.contains(QStringLiteral("latency_ns")), hasLatency<E>);
        });
        QCOMPARE(tables.at(i).name, QStringLiteral("histogram_buckets"));
        const QString path = m_dir.filePath(QStringLiteral("tables.bpflens"));
        QVERIFY(writeSession(path, blockBatches(1, 5, 1)));
        SessionQuery q;
        QString error;
        QVERIFY2(q.open(path, &error), qPrintable(error));
        QStringList fileTables;
        for (const SessionQuery::Table &t : q.tables())
            if (t.kind == QLatin1String("table"))
                fileTables.append(t.name);
        QVERIFY2(fileTables.contains(QStringLiteral("counters")),
                 qPrintable(fileTables.join(u',')));
        QVERIFY(fileTables.contains(QStringLiteral("event_chunks")));
    }
};

QTEST_GUILESS_MAIN(TestSessionQuery)
#include "tst_sessionquery.moc"
