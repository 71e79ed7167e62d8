// bpflens-bench: the parts of the benchmark that need the session store, as a small program the
// runner (bench/run) starts once per measurement, so each measurement's peak memory is its own.
//   bpflens-bench count FILE [--comm C] [--path P] [--marker M --args K]
//                                                              events a recording kept
//   bpflens-bench generate FILE --events N [--schema 1]        write a synthetic session
//   bpflens-bench load FILE [--threads N]                      load it, time and memory
//   bpflens-bench export FILE --dir D                          CSV export rate
//   bpflens-bench query FILE --sql SQL [--plain DB] [--reps N] SQL over the session against the
//                                                              same rows in a plain SQLite table
//   bpflens-bench top FILE [--plain DB] [--reps N] [--threads N] top lists and latency statistics
//                                                              of the whole session against a
//                                                              GROUP BY on the plain table
// Every answer is one JSON object on stdout; every failure one line on stderr and exit 1.

#include "bench/procstatus.h"
#include "core/csvexport.h"
#include "core/sessiondiff.h"
#include "core/sessioninfo.h"
#include "core/sessionquery.h"
#include "core/sessionstore.h"
#include "core/spikeexplain.h"
#include "core/toplists.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTextStream>
#include <ctime>

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <map>

namespace bpflens {
using bench::statusKb;

namespace {

int fail(const QString &message)
{
    QTextStream(stderr) << "bpflens-bench: " << message << '\n';
    return 1;
}

void print(const QJsonObject &o)
{
    QTextStream(stdout) << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
}

qint64 fileBytes(const QString &path)
{
    qint64 total = 0;
    for (const char *suffix : {"", "-wal", "-shm"})
        total += QFileInfo(path + QLatin1String(suffix)).size();
    return total;
}

struct Options
{
    QString file;
    QMap<QString, QString> values;
};

bool parseOptions(const QStringList &args, const QStringList &known, Options *out, QString *error)
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a.startsWith(QLatin1String("--"))) {
            if (!known.contains(a.mid(2))) {
                *error = QStringLiteral("unknown option %1").arg(a);
                return false;
            }
            if (i + 1 >= args.size()) {
                *error = QStringLiteral("%1 needs a value").arg(a);
                return false;
            }
            out->values.insert(a.mid(2), args.at(++i));
        } else if (out->file.isEmpty()) {
            out->file = a;
        } else {
            *error = QStringLiteral("one session file only, not also %1").arg(a);
            return false;
        }
    }
    if (out->file.isEmpty()) {
        *error = QStringLiteral("name a session file");
        return false;
    }
    return true;
}

bool loadSession(const QString &path, SessionData *data, QString *error)
{
    if (!SessionReader::open(path, data, error)) {
        *error = QStringLiteral("cannot load %1: %2").arg(path, *error);
        return false;
    }
    return true;
}

constexpr EventType AllTypes[] = {EventType::Exec,       EventType::Open,       EventType::Block,
                                  EventType::TcpConnect, EventType::FsSlow,     EventType::TcpLife,
                                  EventType::TcpAccept,  EventType::TcpRetrans, EventType::Usdt};

int count(const Options &o)
{
    SessionData data;
    QString error;
    if (!loadSession(o.file, &data, &error))
        return fail(error);
    const QByteArray comm = o.values.value(QStringLiteral("comm")).toUtf8();
    const QByteArray path = o.values.value(QStringLiteral("path")).toUtf8();
    const QByteArray marker = o.values.value(QStringLiteral("marker")).toUtf8();
    const int wantArgs = o.values.value(QStringLiteral("args"), QStringLiteral("0")).toInt();

    QJsonObject events;
    QJsonObject matching;
    for (EventType type : AllTypes) {
        const qsizetype n = data.events.count(type);
        qsizetype mine = 0;
        for (qsizetype i = 0; i < n && !comm.isEmpty(); ++i) {
            // The loader's own opens at start-up are not the workload's: match the path too.
            const bool pathMatches = type != EventType::Open || path.isEmpty() ||
                                     data.events.value<&OpenEvent::path>(i) == path;
            mine += data.events.comm(type, i) == comm && pathMatches ? 1 : 0;
        }
        const QString name = CsvExport::probeIdFor(type);
        events.insert(name, qint64(n));
        matching.insert(name, qint64(mine));
    }
    // An exec counts as complete when every marker argument the exec storm passed is there,
    // in order, and the kernel side did not cut the list.
    qint64 execWithMarker = 0;
    qint64 execComplete = 0;
    for (qsizetype i = 0; i < data.events.count(EventType::Exec) && !marker.isEmpty(); ++i) {
        const ExecEvent e = data.events.exec(i);
        if (!e.argv.join(' ').contains(marker))
            continue;
        ++execWithMarker;
        bool complete = !e.argvTruncated && e.argv.size() == wantArgs + 1;
        for (int a = 0; complete && a < wantArgs; ++a)
            complete = e.argv.at(a + 1) == marker + "-arg" + QByteArray::number(a);
        execComplete += complete ? 1 : 0;
    }
    // Stats are cumulative per probe: the last snapshot of each is its total.
    QMap<QString, ProbeStats> last;
    for (const ProbeStats &s : std::as_const(data.stats)) {
        if (!last.contains(s.probeId) || last[s.probeId].timeNs <= s.timeNs)
            last[s.probeId] = s;
    }
    qint64 lost = 0;
    qint64 unseen = 0;
    qint64 unfinished = 0;
    qint64 runCount = 0;
    qint64 runTimeNs = 0;
    for (const ProbeStats &s : std::as_const(last)) {
        lost += qint64(s.eventsLost);
        unseen += qint64(s.eventsUnseen);
        unfinished += qint64(s.unfinished);
        runCount += qint64(s.runCount);
        runTimeNs += qint64(s.runTimeNs);
    }
    // Summed per name: what the probes counted besides events (e.g. block's "merged").
    QMap<QString, double> counterSums;
    for (const CounterSample &c : std::as_const(data.counters))
        counterSums[c.name] += c.value;
    QJsonObject counters;
    for (auto it = counterSums.cbegin(); it != counterSums.cend(); ++it)
        counters.insert(it.key(), qint64(it.value()));
    qint64 histogramCount = 0;
    for (const HistogramSnapshot &h : std::as_const(data.histograms))
        histogramCount += qint64(h.histogram.count());
    print(QJsonObject{{QStringLiteral("events"), events},
                      {QStringLiteral("matching"), matching},
                      {QStringLiteral("exec_with_marker"), execWithMarker},
                      {QStringLiteral("exec_complete_argv"), execComplete},
                      {QStringLiteral("lost"), lost},
                      {QStringLiteral("unseen"), unseen},
                      {QStringLiteral("unfinished"), unfinished},
                      {QStringLiteral("run_count"), runCount},
                      {QStringLiteral("run_time_ns"), runTimeNs},
                      {QStringLiteral("histogram_count"), histogramCount},
                      {QStringLiteral("counter_samples"), qint64(data.counters.size())},
                      {QStringLiteral("counters"), counters},
                      {QStringLiteral("file_bytes"), fileBytes(o.file)}});
    return 0;
}

// The strings of the synthetic sessions, made once: building them per event (a few
// allocations each) took longer than writing the events. Shared copies are refcounts.
struct SyntheticStrings
{
    QByteArray comms[53], tools[31], numbers[101], paths[997];
    QByteArray flag = QByteArrayLiteral("--flag"), disk = QByteArrayLiteral("vda"),
               op = QByteArrayLiteral("Write");
    SyntheticStrings()
    {
        for (int i = 0; i < 53; ++i)
            comms[i] = "worker-" + QByteArray::number(i);
        for (int i = 0; i < 31; ++i)
            tools[i] = "/usr/bin/tool" + QByteArray::number(i);
        for (int i = 0; i < 101; ++i)
            numbers[i] = QByteArray::number(i);
        for (int i = 0; i < 997; ++i)
            paths[i] = "/srv/data/file-" + QByteArray::number(i) + ".dat";
    }
};

// A mix like a busy recording: mostly opens, then block I/O, execs and connects, with a few
// hundred distinct processes and paths so the string pool does real work.
// blockOnly: every event a block request (the SQL benchmark's 10M-event table).
RecordBatch syntheticBatch(quint64 first, int size, quint64 startNs, bool blockOnly = false)
{
    static const SyntheticStrings strings;
    RecordBatch b;
    b.open.reserve(size * 6 / 10 + 1);
    b.block.reserve(size * 2 / 10 + 1);
    b.exec.reserve(size / 10 + 1);
    b.tcpConnect.reserve(size / 10 + 1);
    for (int k = 0; k < size; ++k) {
        const quint64 i = first + quint64(k);
        const quint64 t = startNs + i * 1000;
        const quint32 pid = 1000 + quint32(i % 397);
        const QByteArray &comm = strings.comms[pid % 53];
        switch (blockOnly ? 1 : i % 10) {
        case 0: {
            ExecEvent e;
            e.timeNs = t;
            e.pid = pid;
            e.ppid = 1;
            e.comm = comm;
            e.filename = strings.tools[i % 31];
            e.argv = {e.filename, strings.flag, strings.numbers[i % 101]};
            b.exec.append(e);
            break;
        }
        case 1:
        case 2: {
            BlockEvent e;
            e.timeNs = t;
            e.dev = (254u << 20) | 0;
            e.cmdFlags = 1;
            e.sector = i * 8;
            e.bytes = 4096;
            e.pid = pid;
            e.queueNs = 1000 + i % 5000;
            e.deviceNs = 50000 + i % 100000;
            e.disk = strings.disk;
            e.op = strings.op;
            e.comm = comm;
            b.block.append(e);
            break;
        }
        case 3: {
            TcpConnectEvent e;
            e.timeNs = t;
            e.pid = pid;
            e.saddr = {127, 0, 0, 1};
            e.daddr = {127, 0, 0, 1};
            e.sport = quint16(30000 + i % 20000);
            e.dport = 8080;
            e.comm = comm;
            b.tcpConnect.append(e);
            break;
        }
        default: {
            OpenEvent e;
            e.timeNs = t;
            e.pid = pid;
            e.tid = pid;
            e.ret = 3;
            e.comm = comm;
            e.path = strings.paths[i % 997];
            b.open.append(e);
        }
        }
    }
    return b;
}

int generate(const Options &o)
{
    bool ok = false;
    const qint64 n = o.values.value(QStringLiteral("events")).toLongLong(&ok);
    if (!ok || n < 1)
        return fail(QStringLiteral("--events must be a positive number of events"));
    if (QFileInfo::exists(o.file))
        return fail(
            QStringLiteral("%1 exists already: the benchmark never overwrites a file").arg(o.file));
    SessionInfo info;
    info.host = QStringLiteral("bench");
    info.kernelRelease = QStringLiteral("synthetic");
    info.startWall = QDateTime::currentDateTimeUtc();
    info.startMonotonicNs = 1'000'000'000;
    info.probes = {{QStringLiteral("exec"), {}, {}},
                   {QStringLiteral("open"), {}, {}},
                   {QStringLiteral("block"), {}, {}},
                   {QStringLiteral("tcpconnect"), {}, {}}};
    SessionWriter writer;
    // --schema 1: the row-per-event layout of earlier versions, the baseline opening is compared
    // with.
    const int schema =
        o.values.value(QStringLiteral("schema"), QString::number(SessionSchemaVersion)).toInt();
    const QString mix = o.values.value(QStringLiteral("mix"), QStringLiteral("all"));
    if (mix != QLatin1String("all") && mix != QLatin1String("block"))
        return fail(QStringLiteral("--mix is all or block"));
    writer.setSchemaVersion(schema);
    QString error;
    if (!writer.create(o.file, info, &error))
        return fail(error);
    // The recorder's batch size (cli record flushes at most 200000 events per transaction).
    constexpr int BatchSize = 200000;
    QElapsedTimer timer;
    qint64 busyNs = 0;
    for (qint64 done = 0; done < n; done += BatchSize) {
        const RecordBatch batch =
            syntheticBatch(quint64(done), int(qMin<qint64>(BatchSize, n - done)),
                           info.startMonotonicNs, mix == QLatin1String("block"));
        timer.start(); // only the writing, not building the synthetic batch
        if (!writer.writeBatch(batch, &error))
            return fail(error);
        busyNs += timer.nsecsElapsed();
    }
    timer.start();
    if (!writer.finish(info.startMonotonicNs + quint64(n) * 1000 + 1, &error))
        return fail(error);
    busyNs += timer.nsecsElapsed();
    const qint64 bytes = fileBytes(o.file);
    print(QJsonObject{{QStringLiteral("events"), n},
                      {QStringLiteral("write_s"), double(busyNs) / 1e9},
                      {QStringLiteral("events_per_s"), double(n) * 1e9 / double(busyNs)},
                      {QStringLiteral("file_bytes"), bytes},
                      {QStringLiteral("file_bytes_per_event"), double(bytes) / double(n)}});
    return 0;
}

// CPU seconds of a clock (the process's, or the calling thread's).
double cpuSeconds(clockid_t clock)
{
    timespec ts{};
    clock_gettime(clock, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

int load(const Options &o)
{
    // --threads N: SessionReader::setDecodeThreads (-1, the default: automatic; 0: the
    // loading thread alone).
    if (o.values.contains(QStringLiteral("threads")))
        SessionReader::setDecodeThreads(o.values.value(QStringLiteral("threads")).toInt());
    const qint64 before = statusKb("VmRSS");
    SessionData data;
    QString error;
    QElapsedTimer timer;
    // On a busy machine the wall time says more about the others than about the load: the CPU
    // time of the process and of the loading thread (the rows' reading and the commits, the
    // part that does not spread over cores) say what it would take on idle cores.
    const double cpuBefore = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
    const double threadBefore = cpuSeconds(CLOCK_THREAD_CPUTIME_ID);
    timer.start();
    if (!loadSession(o.file, &data, &error))
        return fail(error);
    const qint64 ns = timer.nsecsElapsed();
    const double cpu = cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - cpuBefore;
    const double threadCpu = cpuSeconds(CLOCK_THREAD_CPUTIME_ID) - threadBefore;
    const qint64 n = data.events.totalCount();
    const qint64 hwm = statusKb("VmHWM");
    const qint64 rss = statusKb("VmRSS");
    print(
        QJsonObject{{QStringLiteral("events"), n},
                    {QStringLiteral("load_s"), double(ns) / 1e9},
                    {QStringLiteral("cpu_s"), cpu},
                    {QStringLiteral("loading_thread_cpu_s"), threadCpu},
                    {QStringLiteral("events_per_s"), double(n) * 1e9 / double(qMax<qint64>(ns, 1))},
                    {QStringLiteral("rss_before_kb"), before},
                    {QStringLiteral("peak_kb"), hwm},
                    {QStringLiteral("rss_after_kb"), rss},
                    {QStringLiteral("store_bytes"), data.events.memoryBytes()},
                    {QStringLiteral("peak_bytes_per_event"),
                     double(hwm - before) * 1024 / double(qMax<qint64>(n, 1))},
                    {QStringLiteral("resident_bytes_per_event"),
                     double(rss - before) * 1024 / double(qMax<qint64>(n, 1))}});
    return 0;
}

int exportCsv(const Options &o)
{
    const QString dir = o.values.value(QStringLiteral("dir"));
    if (dir.isEmpty())
        return fail(QStringLiteral("export needs --dir DIRECTORY"));
    SessionData data;
    QString error;
    if (!loadSession(o.file, &data, &error))
        return fail(error);
    QElapsedTimer timer;
    timer.start();
    const QStringList files = CsvExport::exportSession(data, dir, {}, &error);
    const qint64 ns = timer.nsecsElapsed();
    if (files.isEmpty())
        return fail(error);
    qint64 bytes = 0;
    for (const QString &f : files)
        bytes += QFileInfo(f).size();
    const qint64 rows = data.events.totalCount();
    print(QJsonObject{
        {QStringLiteral("rows"), rows},
        {QStringLiteral("export_s"), double(ns) / 1e9},
        {QStringLiteral("rows_per_s"), double(rows) * 1e9 / double(qMax<qint64>(ns, 1))},
        {QStringLiteral("csv_bytes"), bytes}});
    return 0;
}

// Copies every event table the session holds into a plain SQLite table of the same name and
// columns (what a user converting the session would query), in one transaction.
bool buildPlainCopy(SessionQuery &session, const QString &path, QString *error)
{
    sqlite3 *db = nullptr;
    if (sqlite3_open(QFile::encodeName(path).constData(), &db) != SQLITE_OK) {
        *error = QStringLiteral("cannot create %1").arg(path);
        sqlite3_close(db);
        return false;
    }
    auto sqlError = [&] {
        *error = QStringLiteral("%1: %2").arg(path, QString::fromUtf8(sqlite3_errmsg(db)));
        sqlite3_close(db);
        return false;
    };
    if (sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN", nullptr,
                     nullptr, nullptr) != SQLITE_OK)
        return sqlError();
    for (const SessionQuery::Table &t : SessionQuery::virtualTables()) {
        if (t.kind != QLatin1String("events"))
            continue;
        QStringList columns, marks;
        for (const SessionQuery::TableColumn &c : t.columns) {
            columns.append(c.name + u' ' + c.type);
            marks.append(QStringLiteral("?"));
        }
        const QByteArray create =
            QStringLiteral("CREATE TABLE %1(%2)").arg(t.name, columns.join(u',')).toUtf8();
        if (sqlite3_exec(db, create.constData(), nullptr, nullptr, nullptr) != SQLITE_OK)
            return sqlError();
        sqlite3_stmt *insert = nullptr;
        const QByteArray sql =
            QStringLiteral("INSERT INTO %1 VALUES(%2)").arg(t.name, marks.join(u',')).toUtf8();
        if (sqlite3_prepare_v2(db, sql.constData(), -1, &insert, nullptr) != SQLITE_OK)
            return sqlError();
        bool ok = true;
        const bool read = session.exec(
            QStringLiteral("SELECT * FROM %1").arg(t.name), nullptr,
            [&](const QVariantList &row) {
                for (qsizetype i = 0; i < row.size(); ++i) {
                    const QVariant &v = row.at(i);
                    const int k = int(i) + 1;
                    if (v.typeId() == QMetaType::LongLong)
                        sqlite3_bind_int64(insert, k, v.toLongLong());
                    else if (v.typeId() == QMetaType::Double)
                        sqlite3_bind_double(insert, k, v.toDouble());
                    else if (!v.isValid())
                        sqlite3_bind_null(insert, k);
                    else
                        sqlite3_bind_text(insert, k, v.toString().toUtf8().constData(), -1,
                                          SQLITE_TRANSIENT);
                }
                ok = sqlite3_step(insert) == SQLITE_DONE && sqlite3_reset(insert) == SQLITE_OK;
                return ok;
            },
            error);
        sqlite3_finalize(insert);
        if (!read)
            return sqlite3_close(db), false;
        if (!ok)
            return sqlError();
    }
    if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
        return sqlError();
    sqlite3_close(db);
    return true;
}

// One run of sql on the plain copy, its rows as text (to compare with the session's).
bool runPlain(sqlite3 *db, const QByteArray &sql, QList<QStringList> *rows, QString *error)
{
    sqlite3_stmt *st = nullptr;
    if (sqlite3_prepare_v2(db, sql.constData(), -1, &st, nullptr) != SQLITE_OK) {
        *error = QString::fromUtf8(sqlite3_errmsg(db));
        return false;
    }
    const int n = sqlite3_column_count(st);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        QStringList row;
        for (int i = 0; i < n; ++i)
            row.append(
                QString::fromUtf8(reinterpret_cast<const char *>(sqlite3_column_text(st, i))));
        rows->append(row);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        *error = QString::fromUtf8(sqlite3_errmsg(db));
    return rc == SQLITE_DONE;
}

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    return v.isEmpty() ? 0 : v.at(v.size() / 2);
}

int query(const Options &o)
{
    const QString sql = o.values.value(QStringLiteral("sql"));
    if (sql.isEmpty())
        return fail(QStringLiteral("query needs --sql STATEMENT"));
    const int reps = o.values.value(QStringLiteral("reps"), QStringLiteral("3")).toInt();
    if (reps < 1)
        return fail(QStringLiteral("--reps must be at least 1"));
    const QString plainPath =
        o.values.value(QStringLiteral("plain"), o.file + QStringLiteral(".plain.db"));
    SessionQuery session;
    QString error;
    if (!session.open(o.file, &error))
        return fail(error);
    QElapsedTimer timer;
    double buildS = 0;
    if (!QFileInfo::exists(plainPath)) {
        timer.start();
        if (!buildPlainCopy(session, plainPath, &error)) {
            QFile::remove(plainPath);
            return fail(error);
        }
        buildS = double(timer.nsecsElapsed()) / 1e9;
    }
    sqlite3 *plain = nullptr;
    if (sqlite3_open_v2(QFile::encodeName(plainPath).constData(), &plain, SQLITE_OPEN_READONLY,
                        nullptr) != SQLITE_OK)
        return fail(QStringLiteral("cannot open %1").arg(plainPath));
    QList<double> sessionS, plainS;
    QList<QStringList> sessionRows, plainRows;
    // Alternating, so both see the same state of the page cache and of the machine.
    for (int r = 0; r < reps; ++r) {
        sessionRows.clear();
        plainRows.clear();
        timer.start();
        const bool ok = session.exec(
            sql, nullptr,
            [&](const QVariantList &row) {
                QStringList text;
                for (const QVariant &v : row)
                    text.append(v.toString());
                sessionRows.append(text);
                return true;
            },
            &error);
        sessionS.append(double(timer.nsecsElapsed()) / 1e9);
        if (!ok)
            return sqlite3_close(plain), fail(error);
        timer.start();
        if (!runPlain(plain, sql.toUtf8(), &plainRows, &error))
            return sqlite3_close(plain), fail(error);
        plainS.append(double(timer.nsecsElapsed()) / 1e9);
    }
    sqlite3_close(plain);
    const double s = median(sessionS), p = median(plainS);
    print(QJsonObject{{QStringLiteral("sql"), sql},
                      {QStringLiteral("rows"), qint64(sessionRows.size())},
                      {QStringLiteral("same_result"), sessionRows == plainRows},
                      {QStringLiteral("session_s"), s},
                      {QStringLiteral("plain_s"), p},
                      {QStringLiteral("ratio"), p > 0 ? s / p : 0},
                      {QStringLiteral("session_bytes"), fileBytes(o.file)},
                      {QStringLiteral("plain_bytes"), fileBytes(plainPath)},
                      {QStringLiteral("plain_build_s"), buildS}});
    return sessionRows == plainRows ? 0 : 1;
}

// The Top tab's work on the whole session (core/toplists): the top commands and processes by
// count, and the latency statistics per disk and operation, each the median of reps runs; the
// peer is the same grouping (count and total latency per comm) by SQLite on the plain copy
// `query` builds, whose result must match. Also the spike ranking (core/spikeexplain) of the
// middle tenth against the rest.
int top(const Options &o)
{
    const int reps = o.values.value(QStringLiteral("reps"), QStringLiteral("3")).toInt();
    if (reps < 1)
        return fail(QStringLiteral("--reps must be at least 1"));
    // --threads 1: the scans on the calling thread only, as before they were split.
    ScanSplit split;
    bool threadsOk = true;
    split.threads =
        o.values.value(QStringLiteral("threads"), QStringLiteral("0")).toInt(&threadsOk);
    if (!threadsOk || split.threads < 0)
        return fail(QStringLiteral("--threads must be 0 (one per core) or more"));
    const QString plainPath =
        o.values.value(QStringLiteral("plain"), o.file + QStringLiteral(".plain.db"));
    QString error;
    if (!QFileInfo::exists(plainPath)) {
        SessionQuery session;
        if (!session.open(o.file, &error) || !buildPlainCopy(session, plainPath, &error))
            return QFile::remove(plainPath), fail(error);
    }
    SessionData data;
    if (!loadSession(o.file, &data, &error))
        return fail(error);
    sqlite3 *plain = nullptr;
    if (sqlite3_open_v2(QFile::encodeName(plainPath).constData(), &plain, SQLITE_OPEN_READONLY,
                        nullptr) != SQLITE_OK)
        return fail(QStringLiteral("cannot open %1").arg(plainPath));
    const QByteArray sql = "SELECT comm, count(*), sum(latency_ns) FROM block GROUP BY comm "
                           "ORDER BY 1";
    QList<double> commandS, processS, statsS, explainS, plainS;
    // CPU seconds of the process (every thread of the split scans) besides the wall time: on a
    // shared machine the wall time measures the load as much as the code.
    QList<double> commandCpuS, processCpuS, statsCpuS, explainCpuS;
    auto cpuS = [] {
        timespec ts{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
    };
    // Every list the Top tab can show (each dimension, its 50 rows; the metric only orders
    // them), wall and CPU seconds per dimension.
    std::map<Dimension, QList<double>> dimensionS, dimensionCpuS;
    QList<QStringList> topRows, plainRows;
    qint64 events = 0, processes = 0, statsRows = 0, explainRows = 0, statsPeakKb = 0;
    // "Explain this spike" over the whole session: the middle tenth against the rest, every
    // event read once either way.
    const quint64 first = data.events.firstTimeNs(), last = data.events.lastTimeNs();
    ExplainQuery spike;
    spike.startNs = first + (last - first) / 20 * 9;
    spike.endNs = first + (last - first) / 20 * 11;
    spike.limit = 50;
    QElapsedTimer timer;
    for (int r = 0; r < reps; ++r) {
        TopQuery q;
        q.dimension = Dimension::Command;
        q.limit = 0;
        timer.start();
        double cpu = cpuS();
        const TopList commands = topList(data.events, q, nullptr, split);
        commandS.append(double(timer.nsecsElapsed()) / 1e9);
        commandCpuS.append(cpuS() - cpu);
        q.dimension = Dimension::Process;
        q.limit = 50;
        timer.start();
        cpu = cpuS();
        processes = topList(data.events, q, nullptr, split).keys;
        processS.append(double(timer.nsecsElapsed()) / 1e9);
        processCpuS.append(cpuS() - cpu);
        for (int d = 0; d <= int(Dimension::Error); ++d) {
            q.dimension = Dimension(d);
            timer.start();
            cpu = cpuS();
            topList(data.events, q, nullptr, split);
            dimensionS[q.dimension].append(double(timer.nsecsElapsed()) / 1e9);
            dimensionCpuS[q.dimension].append(cpuS() - cpu);
        }
        // The statistics' own peak memory: the high-water mark reset (clear_refs 5) to the
        // resident size just before, read right after.
        if (QFile clear(QStringLiteral("/proc/self/clear_refs")); clear.open(QIODevice::WriteOnly))
            clear.write("5");
        const qint64 statsRssKb = statusKb("VmRSS");
        timer.start();
        cpu = cpuS();
        statsRows = latencyStats(data.events, 0, std::numeric_limits<quint64>::max(), {},
                                 std::nullopt, nullptr, split)
                        .size();
        statsS.append(double(timer.nsecsElapsed()) / 1e9);
        statsCpuS.append(cpuS() - cpu);
        statsPeakKb = std::max(statsPeakKb, statusKb("VmHWM") - statsRssKb);
        timer.start();
        cpu = cpuS();
        const Explanation x = explainRange(data.events, spike, &data.stacks, nullptr, split);
        explainS.append(double(timer.nsecsElapsed()) / 1e9);
        explainCpuS.append(cpuS() - cpu);
        explainRows = x.insideEvents + x.outsideEvents == commands.events ? x.rows.size() : -1;
        topRows.clear();
        events = commands.events;
        for (const TopRow &row : commands.rows)
            topRows.append(
                {row.key, QString::number(row.count), QString::number(row.totalLatencyNs)});
        std::sort(topRows.begin(), topRows.end());
        plainRows.clear();
        timer.start();
        if (!runPlain(plain, sql, &plainRows, &error))
            return sqlite3_close(plain), fail(error);
        plainS.append(double(timer.nsecsElapsed()) / 1e9);
        std::sort(plainRows.begin(), plainRows.end());
    }
    sqlite3_close(plain);
    // explain_rows -1: the ranking did not count every event once.
    const bool same = topRows == plainRows && explainRows >= 0;
    const double c = median(commandS), p = median(plainS);
    const double stats = median(statsS);
    // One refresh of the Top tab: its list (the slowest dimension) and the statistics.
    double refresh = 0, refreshCpu = 0;
    QJsonObject perDimension;
    for (const auto &[d, times] : dimensionS) {
        const double t = median(times), cpu = median(dimensionCpuS[d]);
        perDimension.insert(dimensionName(d),
                            QJsonObject{{QStringLiteral("s"), t}, {QStringLiteral("cpu_s"), cpu}});
        refresh = std::max(refresh, t + stats);
        refreshCpu = std::max(refreshCpu, cpu + median(statsCpuS));
    }
    print(QJsonObject{{QStringLiteral("events"), events},
                      {QStringLiteral("threads"), split.threads},
                      {QStringLiteral("commands"), qint64(topRows.size())},
                      {QStringLiteral("processes"), processes},
                      {QStringLiteral("stats_rows"), statsRows},
                      {QStringLiteral("top_command_s"), c},
                      {QStringLiteral("top_process_s"), median(processS)},
                      {QStringLiteral("stats_s"), stats},
                      {QStringLiteral("stats_peak_kb"), statsPeakKb},
                      {QStringLiteral("explain_s"), median(explainS)},
                      {QStringLiteral("top_refresh_s"), refresh},
                      {QStringLiteral("top_refresh_cpu_s"), refreshCpu},
                      {QStringLiteral("dimensions"), perDimension},
                      {QStringLiteral("top_command_cpu_s"), median(commandCpuS)},
                      {QStringLiteral("top_process_cpu_s"), median(processCpuS)},
                      {QStringLiteral("stats_cpu_s"), median(statsCpuS)},
                      {QStringLiteral("explain_cpu_s"), median(explainCpuS)},
                      {QStringLiteral("explain_rows"), explainRows},
                      {QStringLiteral("plain_group_by_s"), p},
                      {QStringLiteral("ratio"), p > 0 ? c / p : 0},
                      {QStringLiteral("refresh_ratio"), p > 0 ? refresh / p : 0},
                      {QStringLiteral("explain_ratio"), p > 0 ? median(explainS) / p : 0},
                      {QStringLiteral("same_result"), same}});
    return same ? 0 : 1;
}

// The Compare window's work (File > Compare With…, docs/diff.md): both sessions read as the
// GUI reads them and diffSessions() over them (every command), the median of reps runs; the
// peer is SQLite grouping the block events of both plain copies by comm, whose counts must
// equal the diff's block commands.
int compare(const Options &o)
{
    const int reps = o.values.value(QStringLiteral("reps"), QStringLiteral("3")).toInt();
    const QString other = o.values.value(QStringLiteral("with"));
    if (reps < 1)
        return fail(QStringLiteral("--reps must be at least 1"));
    if (other.isEmpty())
        return fail(QStringLiteral("compare needs --with FILE, the session to compare with"));
    QString error;
    sqlite3 *plain[2] = {nullptr, nullptr};
    const QString files[2] = {o.file, other};
    for (int k = 0; k < 2; ++k) {
        const QString plainPath = files[k] + QStringLiteral(".plain.db");
        if (!QFileInfo::exists(plainPath)) {
            SessionQuery session;
            if (!session.open(files[k], &error) || !buildPlainCopy(session, plainPath, &error))
                return QFile::remove(plainPath), fail(error);
        }
        if (sqlite3_open_v2(QFile::encodeName(plainPath).constData(), &plain[k],
                            SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
            return fail(QStringLiteral("cannot open %1").arg(plainPath));
    }
    const QByteArray sql = "SELECT comm, count(*) FROM block GROUP BY comm ORDER BY 1";
    QList<double> openS, diffS, plainS;
    QMap<QString, std::pair<qint64, qint64>> diffRows, plainRows;
    qint64 eventsA = 0, eventsB = 0;
    QElapsedTimer timer;
    for (int r = 0; r < reps; ++r) {
        timer.start();
        SessionData a, b;
        if (!loadSession(files[0], &a, &error) || !loadSession(files[1], &b, &error))
            return fail(error);
        openS.append(double(timer.nsecsElapsed()) / 1e9);
        eventsA = a.events.totalCount();
        eventsB = b.events.totalCount();
        timer.start();
        const SessionDiff d = diffSessions(a, b, 0);
        diffS.append(double(timer.nsecsElapsed()) / 1e9);
        diffRows.clear();
        for (const SessionDiff::Events &e : d.events) {
            if (e.type != EventType::Block)
                continue;
            if (const SessionDiff::Keys *commands = e.by(Dimension::Command)) {
                for (const SessionDiff::Key &c : commands->keys)
                    diffRows[c.key] = {c.a, c.b};
            }
        }
        plainRows.clear();
        timer.start();
        for (int k = 0; k < 2; ++k) {
            QList<QStringList> rows;
            if (!runPlain(plain[k], sql, &rows, &error))
                return sqlite3_close(plain[0]), sqlite3_close(plain[1]), fail(error);
            for (const QStringList &row : rows)
                (k == 0 ? plainRows[row.value(0)].first : plainRows[row.value(0)].second) =
                    row.value(1).toLongLong();
        }
        plainS.append(double(timer.nsecsElapsed()) / 1e9);
    }
    sqlite3_close(plain[0]);
    sqlite3_close(plain[1]);
    const bool same = diffRows == plainRows;
    const double open = median(openS), diff = median(diffS), p = median(plainS);
    print(QJsonObject{{QStringLiteral("events_a"), eventsA},
                      {QStringLiteral("events_b"), eventsB},
                      {QStringLiteral("open_both_s"), open},
                      {QStringLiteral("diff_s"), diff},
                      {QStringLiteral("compare_s"), open + diff},
                      {QStringLiteral("plain_group_by_s"), p},
                      {QStringLiteral("diff_ratio"), p > 0 ? diff / p : 0},
                      {QStringLiteral("compare_ratio"), p > 0 ? (open + diff) / p : 0},
                      {QStringLiteral("same_result"), same}});
    return same ? 0 : 1;
}

} // namespace
} // namespace bpflens

int main(int argc, char **argv)
{
    using namespace bpflens;
    QCoreApplication app(argc, argv);
    QStringList args = app.arguments().mid(1);
    const QString usage = QStringLiteral(
        "usage: bpflens-bench count|generate|load|export|query|top|compare FILE [options] (see "
        "bench/README.md)");
    if (args.isEmpty())
        return fail(usage);
    const QString command = args.takeFirst();
    const QMap<QString, QStringList> known{
        {QStringLiteral("count"),
         {QStringLiteral("comm"), QStringLiteral("path"), QStringLiteral("marker"),
          QStringLiteral("args")}},
        {QStringLiteral("generate"),
         {QStringLiteral("events"), QStringLiteral("schema"), QStringLiteral("mix")}},
        {QStringLiteral("load"), {QStringLiteral("threads")}},
        {QStringLiteral("export"), {QStringLiteral("dir")}},
        {QStringLiteral("query"),
         {QStringLiteral("sql"), QStringLiteral("plain"), QStringLiteral("reps")}},
        {QStringLiteral("top"),
         {QStringLiteral("plain"), QStringLiteral("reps"), QStringLiteral("threads")}},
        {QStringLiteral("compare"), {QStringLiteral("with"), QStringLiteral("reps")}}};
    if (!known.contains(command))
        return fail(QStringLiteral("unknown command '%1'; %2").arg(command, usage));
    Options o;
    QString error;
    if (!parseOptions(args, known.value(command), &o, &error))
        return fail(error);
    if (command == QLatin1String("count"))
        return count(o);
    if (command == QLatin1String("generate"))
        return generate(o);
    if (command == QLatin1String("load"))
        return load(o);
    if (command == QLatin1String("query"))
        return query(o);
    if (command == QLatin1String("top"))
        return top(o);
    if (command == QLatin1String("compare"))
        return compare(o);
    return exportCsv(o);
}
