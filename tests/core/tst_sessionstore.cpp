#include "sessionstore.h"
#include "sessiontestdata.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

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

QString writeSession(const QString &path, int batches, int eventsPerType, bool finish = true)
{
    SessionWriter writer;
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

QString openError(const QString &path)
{
    SessionData data;
    QString error;
    if (SessionReader::open(path, &data, &error))
        return QStringLiteral("opened");
    return error;
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
            batches.append(makeBatch(Base, b, 2000));
        QElapsedTimer timer;
        timer.start();
        for (const RecordBatch &batch : batches)
            QVERIFY2(writer.writeBatch(batch, &error), qPrintable(error));
        const qint64 writeMs = std::max<qint64>(1, timer.elapsed());
        QCOMPARE(writer.batchesWritten(), 10);
        QVERIFY(writer.finish(Base + 20000000000ull, &error));
        QVERIFY(!QFileInfo::exists(path + QStringLiteral("-wal")));

        const qint64 fileBytes = QFileInfo(path).size();
        qInfo("100000 events: %lld ms to write (%lld events/s), file %lld bytes = %.1f bytes/event",
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
        QVERIFY(lastTotal > 100000);
        QCOMPARE(lastDone, lastTotal);
        SessionInfo expected = info;
        expected.endMonotonicNs = Base + 20000000000ull;
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

    void readsSessionWithoutCountersTable()
    {
        // Schema 1 files recorded before counters existed lack the table; they still open.
        const QString path = m_dir.filePath(QStringLiteral("nocounters.bpflens"));
        QCOMPARE(writeSession(path, 2, 10), QString());
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
                                                  "to 1)")
                                       .arg(newer));

        const QString source = m_dir.filePath(QStringLiteral("whole.bpflens"));
        const QString truncated = m_dir.filePath(QStringLiteral("truncated.bpflens"));
        QCOMPARE(writeSession(source, 3, 1000), QString());
        QVERIFY(QFile::copy(source, truncated));
        QVERIFY(QFile::resize(truncated, QFileInfo(source).size() / 2));
        const QString damaged = openError(truncated);
        QVERIFY2(damaged.startsWith(truncated + QStringLiteral(" is damaged")),
                 qPrintable(damaged));
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
