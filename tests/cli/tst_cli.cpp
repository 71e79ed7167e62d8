// bpflens-cli as a user runs it: the real binary, real probes in this kernel, real files.
#include "cli/profilereport.h"
#include "core/callgraph.h"
#include "core/csvexport.h"
#include "core/events.h"
#include "core/protocol.h"
#include "core/sessioninfo.h"
#include "core/sessionstore.h"
#include "tests/engine/memcgtestutil.h"
#include "tests/helper/testbus.h"
#include "tests/testutil.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <arpa/inet.h>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <optional>
#include <poll.h>
#include <sched.h>
#include <sqlite3.h>
#include <sys/mount.h>
#include <thread>
#include <unistd.h>

using namespace bpflens;

namespace {

struct Run
{
    int status = -1;
    QString out;
    QString err;
};

Run runCli(const QStringList &args, const QString &program = QStringLiteral(BPFLENS_CLI),
           const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.status = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

// Waits until the recorder has created its file: it does so only once every probe is attached
// (up to a minute: loading four probes takes over 6 s in the VM matrix's emulated kernels).
bool waitForFile(const QString &path, QProcess &recorder)
{
    for (int i = 0; i < 3000; ++i) {
        if (QFile::exists(path))
            return true;
        if (recorder.state() == QProcess::NotRunning)
            return false;
        QTest::qWait(20);
    }
    return false;
}

QList<QStringList> csvRows(const QString &path)
{
    // The fields checked here hold no quotes or commas, so a plain split is enough.
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QStringList> rows;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (!line.trimmed().isEmpty())
            rows.append(QString::fromUtf8(line.trimmed()).split(QLatin1Char(',')));
    }
    return rows;
}

// count fsyncs of path, each after dirtying a block: ext4's sync tracepoints fire once per call.
bool dirtyFsyncs(const QString &path, int count)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    char buf[512];
    memset(buf, 'x', sizeof(buf));
    bool ok = true;
    for (int i = 0; ok && i < count; ++i)
        ok =
            pwrite(fd, buf, sizeof(buf), off_t(i) * 4096) == ssize_t(sizeof(buf)) && fsync(fd) == 0;
    ::close(fd);
    return ok;
}

// A SYN this process sends into the void and sends again: in a network namespace of a thread of
// its own (a veth pair; the neighbour entry of the target names a MAC address nobody has), a
// connect that is left 1.3 s for its first retransmit (after 1 s) and then closed.
bool synRetransmit()
{
    bool ok = false;
    std::thread t([&] {
        if (unshare(CLONE_NEWNET) != 0)
            return;
        // the shell, forked from this thread, works in its namespace
        if (system("ip link set lo up && ip link add v0 type veth peer name v1 && "
                   "ip link set v0 up && ip link set v1 up && ip addr add 10.78.0.1/24 dev v0 && "
                   "ip neigh add 10.78.0.9 lladdr 02:00:00:00:00:02 dev v0 nud permanent") != 0)
            return;
        const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(9);
        inet_pton(AF_INET, "10.78.0.9", &to.sin_addr);
        ok = ::connect(fd, reinterpret_cast<sockaddr *>(&to), sizeof(to)) != 0 &&
             errno == EINPROGRESS;
        // The first retransmit is due after the initial RTO of 1 s; on a loaded machine its
        // timer runs late (a dev suite beside an ASan build missed it after 1.3 s): until the
        // socket counts it, at most 10 s.
        QElapsedTimer waited;
        waited.start();
        tcp_info info{};
        do {
            QThread::msleep(50);
            socklen_t len = sizeof(info);
            if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0)
                break;
        } while (ok && info.tcpi_total_retrans < 1 && waited.elapsed() < 10000);
        ok = ok && info.tcpi_total_retrans >= 1;
        ::close(fd);
    });
    t.join();
    return ok;
}

// One O_DIRECT 4 KiB write: a block request this process issues, past the page cache.
bool directWrite(const QString &path)
{
    const int fd =
        ::open(QFile::encodeName(path).constData(), O_RDWR | O_CREAT | O_DIRECT | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    void *buf = nullptr;
    if (posix_memalign(&buf, 4096, 4096) != 0) {
        ::close(fd);
        return false;
    }
    memset(buf, 0x5a, 4096);
    const bool ok = pwrite(fd, buf, 4096, 0) == 4096 && fdatasync(fd) == 0;
    free(buf);
    ::close(fd);
    return ok;
}

// The tppair probe timing ext4's fsyncs of this process, every pair an event.
QString fsyncPairSpec()
{
    return QStringLiteral("tppair:start=ext4_sync_file_enter,end=ext4_sync_file_exit,pid=%1,"
                          "thresholdUs=0")
        .arg(getpid());
}

// Every event type by its name in BPFLENS_EVENT_TYPES, so a failure names a type nobody
// taught this test about.
QString eventTypeName(EventType type)
{
    switch (type) {
#define BPFLENS_TEST_TYPE_NAME(Name, Struct, member, number)                                       \
    case EventType::Name:                                                                          \
        return QStringLiteral(#Name);
        BPFLENS_EVENT_TYPES(BPFLENS_TEST_TYPE_NAME)
#undef BPFLENS_TEST_TYPE_NAME
    }
    return QStringLiteral("EventType %1").arg(int(type));
}

// A small profile whose folded stacks and top functions are known by heart: a program spinning in
// main -> chain_a -> leaf_spin, a few samples in chain_a itself, another command blocked in a
// read system call, one sample without a stack; and three off-CPU waits.
RecordBatch knownProfile()
{
    StackTable table;
    const QByteArray app = "/opt/app/callchain_fp";
    auto user = [&](quint64 address, const char *symbol) {
        return table.intern(StackFrame{FrameKind::User, address, app, "ab12", symbol});
    };
    const quint32 main = user(0x1100, "main");
    const quint32 chainA = user(0x1200, "chain_a");
    const quint32 leaf = user(0x1300, "leaf_spin");
    const quint32 read = table.intern(
        StackFrame{FrameKind::Kernel, 0xffffffff81000000ull, "vmlinux", "", "ksys_read"});
    // Leaf first: kernel frames, then user frames.
    const quint32 spinning = table.intern(0, {leaf, chainA, main});
    const quint32 inChainA = table.intern(0, {chainA, main});
    const quint32 reading = table.intern(0, {read, main});
    RecordBatch batch;
    table.takeNewDefinitions(batch);
    quint64 t = 1000000000ull;
    auto sample = [&](quint32 stack, const char *comm, quint32 pid) {
        t += 10000000ull;
        batch.cpuSample.append({t, 0, pid, pid, stack, QByteArray(comm)});
    };
    for (int i = 0; i < 3; ++i)
        sample(spinning, "app", 100);
    sample(inChainA, "app", 100);
    sample(reading, "reader", 200);
    sample(reading, "reader", 200);
    sample(0, "app", 100);
    // Off-CPU: 1.5 us twice in the read (3 us), 0.4 us once in chain_a (rounds to nothing in
    // microseconds on its own line, but counts in show's times).
    batch.offCpu.append({t + 1, 1500, 200, 200, reading, "reader"});
    batch.offCpu.append({t + 2, 1500, 200, 200, reading, "reader"});
    batch.offCpu.append({t + 3, 400, 100, 100, inChainA, "app"});
    return batch;
}

SessionData sessionOf(const RecordBatch &batch)
{
    SessionData data;
    QString error;
    if (!data.stacks.addDefinitions(batch, &error))
        qFatal("%s", qPrintable(error));
    for (const CpuSampleEvent &e : batch.cpuSample)
        data.events.append(e);
    for (const OffCpuEvent &e : batch.offCpu)
        data.events.append(e);
    return data;
}

const QByteArray knownFolded = "[no stack] 1\n"
                               "main;chain_a 1\n"
                               "main;chain_a;leaf_spin 3\n"
                               "main;ksys_read 2\n";

} // namespace

class TestCli : public QObject
{
    Q_OBJECT
    // tcpaccept attaches through tp/syscalls/..., which needs tracefs, as every tracepoint
    // completion does: mounted at boot where systemd runs, not on a CI machine without it.
    // Without it the probe is "not available" and its every-type check could only skip.
    std::unique_ptr<test::TracefsMount> m_tracefs;

private Q_SLOTS:
    void initTestCase()
    {
        if (geteuid() != 0)
            return;
        m_tracefs = std::make_unique<test::TracefsMount>();
        QVERIFY2(m_tracefs->error().isEmpty(), qPrintable(m_tracefs->error()));
    }

    void cleanupTestCase() { m_tracefs.reset(); }

    void recordShowExport()
    {
        BPFLENS_REQUIRE_ROOT("records BPF probes in-process");
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("run.bpflens"));
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        const QString pid = QString::number(getpid());

        // A uniquely named program to exec, and a uniquely named file to open.
        const QString tag = QStringLiteral("clit%1").arg(getpid() % 100000);
        const QString program = dir.filePath(tag);
        QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
        QFile::setPermissions(program, QFileDevice::ExeOwner | QFileDevice::ReadOwner);
        const QString opened = dir.filePath(tag + QStringLiteral(",\"quoted\".txt"));
        QVERIFY(QFile(opened).open(QIODevice::WriteOnly));

        QProcess recorder;
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       {QStringLiteral("record"), QStringLiteral("--direct"),
                        QStringLiteral("--probe"), QStringLiteral("exec:comm=") + tag,
                        QStringLiteral("--probe"), QStringLiteral("open:pid=") + pid,
                        QStringLiteral("--probe"), QStringLiteral("tcpconnect:pid=") + pid,
                        QStringLiteral("--probe"), QStringLiteral("runqlat:perProcess"),
                        QStringLiteral("-o"), session});
        QVERIFY2(waitForFile(session, recorder), recorder.readAllStandardError().constData());

        const int execs = 3;
        for (int i = 0; i < execs; ++i)
            QCOMPARE(QProcess::execute(program, {QStringLiteral("arg%1").arg(i)}), 0);
        const int opens = 7;
        for (int i = 0; i < opens; ++i) {
            QFile f(opened);
            QVERIFY(f.open(QIODevice::ReadOnly));
        }
        const int connects = 12;
        for (int i = 0; i < connects; ++i) {
            QTcpSocket s;
            s.connectToHost(QHostAddress::LocalHost, server.serverPort());
            QVERIFY(s.waitForConnected(5000));
            QVERIFY(server.waitForNewConnection(5000));
            delete server.nextPendingConnection();
        }
        // Stopped when the work is done, not after a fixed time: under qemu's TCG (the VM
        // matrix) the execs alone can outlast any fixed recording. Ctrl-C still drains
        // everything the kernel recorded before it.
        ::kill(pid_t(recorder.processId()), SIGINT);
        QVERIFY(recorder.waitForFinished(30000));
        QCOMPARE(recorder.exitCode(), 0);
        const QString summary = QString::fromUtf8(recorder.readAllStandardError());
        QVERIFY2(summary.contains(QStringLiteral(" events (0 lost) into ")), qPrintable(summary));

        // show: the probes, their counts and a biolatency-style histogram.
        const Run shown = runCli({QStringLiteral("show"), session});
        QCOMPARE(shown.status, 0);
        QVERIFY2(shown.out.contains(QStringLiteral("tcpconnect  events 12, lost 0")),
                 qPrintable(shown.out));
        QVERIFY2(shown.out.contains(QStringLiteral("exec        events 3, lost 0")),
                 qPrintable(shown.out));
        QVERIFY2(shown.out.contains(QStringLiteral("open        events ")), qPrintable(shown.out));
        QVERIFY(shown.out.contains(QStringLiteral("via tp_btf/inet_sock_set_state")));
        QVERIFY(shown.out.contains(QStringLiteral("usecs               : count    distribution")));
        const Run onlyTcp = runCli({QStringLiteral("show"), session, QStringLiteral("--probe"),
                                    QStringLiteral("tcpconnect")});
        QVERIFY(!onlyTcp.out.contains(QStringLiteral("runqlat")));

        // export: the same connects, with the listener's port.
        const QString csvDir = dir.filePath(QStringLiteral("csv"));
        const Run exported =
            runCli({QStringLiteral("export"), session, QStringLiteral("--csv"), csvDir});
        QCOMPARE(exported.status, 0);
        QVERIFY(exported.out.contains(QStringLiteral("tcpconnect.csv")));
        const QList<QStringList> rows = csvRows(csvDir + QStringLiteral("/tcpconnect.csv"));
        QCOMPARE(rows.size(), connects + 1);
        const qsizetype dport = rows.first().indexOf(QStringLiteral("dport"));
        QVERIFY(dport >= 0);
        for (int i = 1; i < rows.size(); ++i)
            QCOMPARE(rows[i].value(dport), QString::number(server.serverPort()));

        // The execs with their arguments, and the opens of a path that needs CSV quoting.
        QFile execCsv(csvDir + QStringLiteral("/exec.csv"));
        QVERIFY(execCsv.open(QIODevice::ReadOnly));
        const QByteArray execText = execCsv.readAll();
        for (int i = 0; i < execs; ++i)
            QVERIFY2(execText.contains(QStringLiteral("arg%1").arg(i).toUtf8()),
                     execText.constData());
        int execRows = 0;
        for (const QByteArray &line : execText.split('\n'))
            execRows += line.contains(program.toUtf8()) ? 1 : 0;
        QCOMPARE(execRows, execs);
        QFile openCsv(csvDir + QStringLiteral("/open.csv"));
        QVERIFY(openCsv.open(QIODevice::ReadOnly));
        const QByteArray quotedPath = '"' + opened.toUtf8().replace('"', "\"\"") + '"';
        QCOMPARE(openCsv.readAll().count(quotedPath), opens);
    }

    // What the kernel could not count is shown with its probe, summed over the intervals: a
    // runqlat whose per-thread map filled up twice, and block requests of unknown submitter.
    // A probe with nothing missing gets no such line.
    // A session whose middle event_chunks page is zeroed: show names what was lost, recover
    // writes the rest into a clean file, export warns.
    void damagedFileShowRecoverExport()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("whole.bpflens"));
        SessionInfo info = sessionInfoForThisHost({{QStringLiteral("open"), {}, {}}});
        info.startMonotonicNs = 1000000000ull;
        {
            SessionWriter writer;
            QString err;
            QVERIFY2(writer.create(session, info, &err), qPrintable(err));
            for (quint64 b = 0; b < 200; ++b) {
                RecordBatch batch;
                for (quint64 i = 0; i < 20; ++i) {
                    OpenEvent e;
                    e.timeNs = info.startMonotonicNs + b * 1000000000ull + i * 1000;
                    e.pid = quint32(100 + i);
                    e.comm = QByteArrayLiteral("cat");
                    e.path = QByteArrayLiteral("/etc/file-") + QByteArray::number(b * 20 + i);
                    batch.open.append(e);
                }
                batch.stats.append(
                    {QStringLiteral("open"), info.startMonotonicNs + b, b * 20, 0, 0, 0});
                QVERIFY2(writer.writeBatch(batch, &err), qPrintable(err));
            }
            QVERIFY(writer.finish(info.startMonotonicNs + 200000000000ull, &err));
        }
        // The middle leaf page of event_chunks, as SQLite's dbstat names it.
        QList<qint64> leaves;
        {
            sqlite3 *db = nullptr;
            QCOMPARE(sqlite3_open_v2(QFile::encodeName(session).constData(), &db,
                                     SQLITE_OPEN_READONLY, nullptr),
                     SQLITE_OK);
            sqlite3_stmt *st = nullptr;
            QCOMPARE(sqlite3_prepare_v2(db,
                                        "SELECT pageno FROM dbstat WHERE name = 'event_chunks' "
                                        "AND pagetype = 'leaf' ORDER BY pageno",
                                        -1, &st, nullptr),
                     SQLITE_OK);
            while (sqlite3_step(st) == SQLITE_ROW)
                leaves << sqlite3_column_int64(st, 0);
            sqlite3_finalize(st);
            sqlite3_close(db);
        }
        QVERIFY(leaves.size() > 3);
        const QString damaged = dir.filePath(QStringLiteral("damaged.bpflens"));
        {
            QFile f(session);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QByteArray bytes = f.readAll();
            const qint64 page = leaves.at(leaves.size() / 2);
            std::memset(bytes.data() + (page - 1) * 4096, 0, 4096);
            QFile out(damaged);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(bytes);
        }

        const Run shown = runCli({QStringLiteral("show"), damaged});
        QCOMPARE(shown.status, 0);
        QVERIFY2(shown.out.contains(QStringLiteral("\nDamaged:\n")), qPrintable(shown.out));
        QVERIFY2(shown.out.contains(QStringLiteral("database disk image is malformed")),
                 qPrintable(shown.out));
        static const QRegularExpression lostRows(
            QStringLiteral("Lost: event_chunks: (\\d+) chunk rows? could not be read "
                           "\\(rows \\d+–\\d+, events of unknown type and count between "
                           "(\\d+\\.\\d+) s and (\\d+\\.\\d+) s\\)"));
        const QRegularExpressionMatch m = lostRows.match(shown.out);
        QVERIFY2(m.hasMatch(), qPrintable(shown.out));
        const int lostChunks = m.captured(1).toInt();
        QVERIFY(lostChunks > 0);
        // One chunk per batch and second: the gap spans as many seconds as chunks were lost.
        QCOMPARE(qRound(m.captured(3).toDouble() - m.captured(2).toDouble()), lostChunks + 1);
        QVERIFY2(shown.err.isEmpty(), qPrintable(shown.err));

        const QString recovered = dir.filePath(QStringLiteral("recovered.bpflens"));
        const Run rec =
            runCli({QStringLiteral("recover"), damaged, QStringLiteral("-o"), recovered});
        QCOMPARE(rec.status, 0);
        QVERIFY2(
            rec.out.contains(
                QStringLiteral("Wrote %1: %2 events").arg(recovered).arg((200 - lostChunks) * 20)),
            qPrintable(rec.out));
        QVERIFY2(rec.out.contains(QStringLiteral("Damaged:")), qPrintable(rec.out));
        SessionData data;
        QString err;
        QVERIFY2(SessionReader::open(recovered, &data, &err, {}, SessionReader::Salvage::Refuse),
                 qPrintable(err));
        QVERIFY(!data.damage.isDamaged());
        QCOMPARE(data.events.count(EventType::Open), (200 - lostChunks) * 20);
        QCOMPARE(data.stats.size(), 200);
        QCOMPARE(data.info.host, info.host);
        const Run clean = runCli({QStringLiteral("show"), recovered});
        QCOMPARE(clean.status, 0);
        QVERIFY(!clean.out.contains(QStringLiteral("Damaged:")));

        // Never over an existing file; nothing to recover from a file without its header.
        const Run again =
            runCli({QStringLiteral("recover"), damaged, QStringLiteral("-o"), recovered});
        QCOMPARE(again.status, 1);
        QVERIFY2(again.err.contains(QStringLiteral("exists; recover does not overwrite")),
                 qPrintable(again.err));
        const QString headless = dir.filePath(QStringLiteral("headless.bpflens"));
        {
            QFile f(damaged);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QByteArray bytes = f.readAll();
            std::memset(bytes.data() + 16, 0xff, 4096 - 16); // keep only the magic
            QFile out(headless);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(bytes);
        }
        const Run none = runCli({QStringLiteral("recover"), headless, QStringLiteral("-o"),
                                 dir.filePath(QStringLiteral("none.bpflens"))});
        QCOMPARE(none.status, 4);
        QVERIFY2(none.err.contains(QStringLiteral("it cannot be read")), qPrintable(none.err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("none.bpflens"))));

        // export writes what survived and says on stderr that the file is damaged.
        const Run exported = runCli({QStringLiteral("export"), damaged, QStringLiteral("--csv"),
                                     dir.filePath(QStringLiteral("csv"))});
        QCOMPARE(exported.status, 0);
        QVERIFY2(exported.err.contains(QStringLiteral("is damaged; using what could be read")),
                 qPrintable(exported.err));
    }

    // show --events prints what opensnoop and execsnoop print, decoded the way the GUI's table
    // shows it, with their -t (seconds since the start) and -T (wall clock) time columns.
    void showEventsLikeTheBccTools()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("events.bpflens"));
        SessionInfo info = sessionInfoForThisHost(
            {{QStringLiteral("open"), {}, {}}, {QStringLiteral("exec"), {}, {}}});
        info.startMonotonicNs = 1000000000ull;
        info.startWall = QDateTime(QDate(2026, 11, 24), QTime(9, 30, 0), Qt::UTC);
        RecordBatch batch;
        OpenEvent o;
        o.pid = o.tid = 4242;
        o.comm = "cat";
        o.timeNs = 1500000000ull;
        o.flags = O_RDONLY | O_CLOEXEC;
        o.ret = 3;
        o.path = "/etc/hostname";
        batch.open.append(o);
        o.timeNs = 2250000000ull;
        o.flags = O_WRONLY | O_CREAT | O_TRUNC;
        o.mode = 0644;
        o.ret = -ENOENT;
        o.path = "/nonexistent/out";
        batch.open.append(o);
        ExecEvent x;
        x.timeNs = 3000000000ull;
        x.pid = 77;
        x.ppid = 1;
        x.comm = "sh";
        x.filename = "/bin/nosuch";
        x.argv = {"nosuch", "it's"};
        x.retval = -ENOENT;
        batch.exec.append(x);
        {
            SessionWriter writer;
            QString err;
            QVERIFY2(writer.create(session, info, &err), qPrintable(err));
            QVERIFY2(writer.writeBatch(batch, &err), qPrintable(err));
            QVERIFY(writer.finish(4000000000ull, &err));
        }

        const Run all = runCli({QStringLiteral("show"), session, QStringLiteral("--events")});
        QCOMPARE(all.status, 0);
        const QStringList lines = all.out.split(QLatin1Char('\n'));
        QVERIFY2(lines.contains(QStringLiteral("Open: 2 events")), qPrintable(all.out));
        QVERIFY2(
            lines.contains(QStringLiteral(" TIME(s)  PID  TID UID COMMAND FLAGS                    "
                                          "MODE RETURN PATH")),
            qPrintable(all.out));
        QVERIFY2(
            lines.contains(QStringLiteral("0.500000 4242 4242   0 cat     O_RDONLY|O_CLOEXEC       "
                                          "  00      3 /etc/hostname")),
            qPrintable(all.out));
        QVERIFY2(lines.contains(QStringLiteral("1.250000 4242 4242   0 cat     "
                                               "O_WRONLY|O_CREAT|O_TRUNC 0644 ENOENT "
                                               "/nonexistent/out")),
                 qPrintable(all.out));
        QVERIFY2(lines.contains(QStringLiteral("2.000000  77    1   0 sh      ENOENT /bin/nosuch "
                                               "nosuch it's")),
                 qPrintable(all.out));
        QVERIFY(!all.out.contains(QStringLiteral("Probes"))); // the events instead of the summary

        // -T: the local wall clock at each event.
        const Run clock = runCli({QStringLiteral("show"), session, QStringLiteral("--events"),
                                  QStringLiteral("--probe"), QStringLiteral("exec"),
                                  QStringLiteral("--time"), QStringLiteral("clock")});
        QCOMPARE(clock.status, 0);
        const QString at =
            info.startWall.toLocalTime().addSecs(2).toString(QStringLiteral("HH:mm:ss.zzz"));
        QVERIFY2(clock.out.contains(at + QStringLiteral("  77    1   0 sh      ENOENT")),
                 qPrintable(clock.out));
        QVERIFY2(!clock.out.contains(QStringLiteral("Open:")), qPrintable(clock.out));

        const Run first = runCli({QStringLiteral("show"), session, QStringLiteral("--events"),
                                  QStringLiteral("--limit"), QStringLiteral("1")});
        QVERIFY2(first.out.contains(QStringLiteral("Open: 2 events, the first 1")),
                 qPrintable(first.out));
        QVERIFY(!first.out.contains(QStringLiteral("/nonexistent/out")));

        const Run bad = runCli({QStringLiteral("show"), session, QStringLiteral("--events"),
                                QStringLiteral("--time"), QStringLiteral("sometimes")});
        QCOMPARE(bad.status, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("--time sometimes: expected relative or clock")),
                 qPrintable(bad.err));
    }

    void showSaysWhatWasNotCounted()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("missing.bpflens"));
        SessionInfo info = sessionInfoForThisHost(
            {{QStringLiteral("runqlat"), {{QStringLiteral("perThread"), true}}, {}},
             {QStringLiteral("block"), {}, {}},
             {QStringLiteral("exec"), {}, {}}});
        info.startMonotonicNs = 1000000000ull;
        RecordBatch batch;
        auto counter = [&](const char *probe, const char *name, quint64 t, double value) {
            batch.counters.append(
                {QLatin1String(probe), t, 1000000000ull, QLatin1String(name), value});
        };
        counter("runqlat", "histogramMapFull", 2000000000ull, 700);
        counter("runqlat", "histogramKeys", 2000000000ull, 10240);
        counter("runqlat", "histogramMapFull", 3000000000ull, 34);
        counter("runqlat", "histogramKeys", 3000000000ull, 10240);
        counter("block", "unattributed", 2000000000ull, 3);
        counter("block", "unattributed", 3000000000ull, 2);
        counter("block", "merged", 3000000000ull, 4);
        for (const char *probe : {"runqlat", "block", "exec"})
            batch.stats.append({QLatin1String(probe), 3000000000ull, 0, 0, 0, 0});
        // block: each cause of a missing event on a line of its own
        batch.stats[1].eventsLost = 6;
        batch.stats[1].eventsUnseen = 2;
        batch.stats[1].unfinished = 1;
        SessionWriter writer;
        QString err;
        QVERIFY2(writer.create(session, info, &err), qPrintable(err));
        QVERIFY2(writer.writeBatch(batch, &err), qPrintable(err));
        QVERIFY(writer.finish(3000000000ull, &err));
        writer.close();

        const Run shown = runCli({QStringLiteral("show"), session});
        QCOMPARE(shown.status, 0);
        QVERIFY2(shown.out.contains(
                     QStringLiteral("734 samples not counted: histogram map full (10240 keys)")),
                 qPrintable(shown.out));
        QVERIFY2(shown.out.contains(QStringLiteral("5 requests of unknown submitter")),
                 qPrintable(shown.out));
        QVERIFY2(shown.out.contains(QStringLiteral("4 I/Os merged into other requests")),
                 qPrintable(shown.out));
        QCOMPARE(shown.out.count(QStringLiteral("not counted")), 1);
        QCOMPARE(shown.out.count(QStringLiteral("unknown submitter")), 1);
        QVERIFY2(shown.out.contains(QStringLiteral("block       events 0, lost 6,")),
                 qPrintable(shown.out));
        QVERIFY2(shown.out.contains(QStringLiteral("6 events lost: no room")),
                 qPrintable(shown.out));
        QVERIFY2(shown.out.contains(QStringLiteral("2 events not seen: the kernel did not run")),
                 qPrintable(shown.out));
        QVERIFY2(shown.out.contains(QStringLiteral("1 requests unfinished at the stop")),
                 qPrintable(shown.out));
        // Only block lost anything: no cause line for the others.
        QCOMPARE(shown.out.count(QStringLiteral("events lost:")), 1);
        QCOMPARE(shown.out.count(QStringLiteral("not seen:")), 1);
    }

    // The keyed probes' loss counters are no keys: show lists the keys alone, busiest first,
    // and names each loss on a line of its own, usdt's argumentFaults as keysFull is.
    void showListsKeysApartFromTheirLosses()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("keys.bpflens"));
        SessionInfo info = sessionInfoForThisHost(
            {{QStringLiteral("usdt"), {{QStringLiteral("key"), QStringLiteral("arg1")}}, {}},
             {QStringLiteral("tpcount"), {{QStringLiteral("key"), QStringLiteral("comm")}}, {}},
             {QStringLiteral("uprobe"), {{QStringLiteral("key"), QStringLiteral("arg0")}}, {}}});
        info.startMonotonicNs = 1000000000ull;
        RecordBatch batch;
        auto counter = [&](const char *probe, const char *name, quint64 t, double value) {
            batch.counters.append(
                {QLatin1String(probe), t, 1000000000ull, QLatin1String(name), value});
        };
        for (quint64 t : {2000000000ull, 3000000000ull}) {
            counter("usdt", "arg1=7", t, 20);
            counter("usdt", "arg1=-3", t, 4);
            counter("usdt", "keysFull", t, 1);
            counter("usdt", "unreadableStrings", t, 2);
            counter("usdt", "argumentFaults", t, 3);
            counter("tpcount", "comm=dd", t, 9);
            counter("tpcount", "unreadableKeys", t, 5);
            counter("uprobe", "keysFull", t, 6);
        }
        for (const char *probe : {"usdt", "tpcount", "uprobe"})
            batch.stats.append({QLatin1String(probe), 3000000000ull, 0, 0, 0, 0});
        SessionWriter writer;
        QString err;
        QVERIFY2(writer.create(session, info, &err), qPrintable(err));
        QVERIFY2(writer.writeBatch(batch, &err), qPrintable(err));
        QVERIFY(writer.finish(3000000000ull, &err));
        writer.close();

        const Run shown = runCli({QStringLiteral("show"), session});
        QCOMPARE(shown.status, 0);
        auto row = [](int count, const char *key) {
            return QStringLiteral("%1  %2\n").arg(count, 12).arg(QLatin1String(key));
        };
        const QString usdt = QStringLiteral("\nUSDT probe hits by key (2 keys)\n") +
                             QStringLiteral("%1  KEY\n").arg(QStringLiteral("COUNT"), 12) +
                             row(40, "arg1=7") + row(8, "arg1=-3") +
                             QStringLiteral("2 hits not counted by key: the map of keys was full\n"
                                            "4 string arguments unreadable (NULL or not mapped), "
                                            "counted under \"\"\n"
                                            "6 arguments unreadable (memory not mapped), read as "
                                            "0\n");
        QVERIFY2(shown.out.contains(usdt), qPrintable(shown.out));
        const QString tpcount = QStringLiteral("\ntracepoint hits by key (1 keys)\n") +
                                QStringLiteral("%1  KEY\n").arg(QStringLiteral("COUNT"), 12) +
                                row(18, "comm=dd") +
                                QStringLiteral("10 hits not counted: a key or value met a NULL "
                                               "pointer or unreadable memory\n");
        QVERIFY2(shown.out.contains(tpcount), qPrintable(shown.out));
        // Only losses, no key: still said.
        QVERIFY2(shown.out.contains(QStringLiteral("\nuprobe calls by key (0 keys)\n") +
                                    QStringLiteral("%1  KEY\n").arg(QStringLiteral("COUNT"), 12) +
                                    QStringLiteral("12 calls not counted by key: the map of keys "
                                                   "was full\n")),
                 qPrintable(shown.out));
        for (const char *loss :
             {"keysFull", "unreadableStrings", "argumentFaults", "unreadableKeys"})
            QVERIFY2(!shown.out.contains(QLatin1String(loss)), loss);

        // One probe's, its busiest key: the losses all the same.
        const Run onlyUsdt =
            runCli({QStringLiteral("show"), session, QStringLiteral("--probe"),
                    QStringLiteral("usdt"), QStringLiteral("--top"), QStringLiteral("1")});
        QCOMPARE(onlyUsdt.status, 0);
        QVERIFY2(onlyUsdt.out.contains(QStringLiteral("USDT probe hits by key (2 keys, the 1 "
                                                      "busiest)\n")),
                 qPrintable(onlyUsdt.out));
        QVERIFY2(onlyUsdt.out.contains(QStringLiteral("6 arguments unreadable")),
                 qPrintable(onlyUsdt.out));
        QVERIFY(!onlyUsdt.out.contains(QStringLiteral("tracepoint hits")));
    }

    // The profile reports themselves, on a session in memory: the exact folded bytes
    // flamegraph.pl and inferno read, each stack part, grouped by command, and the top table.
    void foldedStacksAndTopFunctions()
    {
        const SessionData data = sessionOf(knownProfile());
        using cli::ProfileKind;
        QCOMPARE(cli::foldedProfile(data, ProfileKind::OnCpu, StackPart::Both, false), knownFolded);
        QCOMPARE(cli::foldedProfile(data, ProfileKind::OnCpu, StackPart::UserOnly, false),
                 QByteArray("[no stack] 1\nmain 2\nmain;chain_a 1\nmain;chain_a;leaf_spin 3\n"));
        QCOMPARE(cli::foldedProfile(data, ProfileKind::OnCpu, StackPart::KernelOnly, false),
                 QByteArray("[no stack] 5\nksys_read 2\n"));
        QCOMPARE(cli::foldedProfile(data, ProfileKind::OnCpu, StackPart::Both, true),
                 QByteArray("app 1\napp;main;chain_a 1\napp;main;chain_a;leaf_spin 3\n"
                            "reader;main;ksys_read 2\n"));
        // Off-CPU in microseconds, as offcputime -f writes them; a line worth less than half a
        // microsecond is left out rather than written as 0.
        QCOMPARE(cli::foldedProfile(data, ProfileKind::OffCpu, StackPart::Both, false),
                 QByteArray("main;ksys_read 3\n"));

        // Every line is what flamegraph.pl parses: frames, one space, a whole number.
        static const QRegularExpression foldedLine(QStringLiteral("^[^;\\n]+(;[^;\\n]+)* \\d+$"));
        for (const QByteArray &line : knownFolded.trimmed().split('\n'))
            QVERIFY2(foldedLine.match(QString::fromUtf8(line)).hasMatch(), line.constData());

        const QString top = cli::topFunctionsText(data, ProfileKind::OnCpu, 20);
        QVERIFY2(
            top.contains(QStringLiteral("On-CPU: 7 samples (1 without a stack), 4 functions\n")),
            qPrintable(top));
        // self, self %, total, total % of all 7 samples; where the code is.
        auto row = [](const char *self, const char *selfPct, const char *total,
                      const char *totalPct, const char *function) {
            return QStringLiteral("  %1 %2 %3 %4  %5")
                .arg(QLatin1String(self), 10)
                .arg(QLatin1String(selfPct), 7)
                .arg(QLatin1String(total), 10)
                .arg(QLatin1String(totalPct), 7)
                .arg(QLatin1String(function));
        };
        QVERIFY2(top.contains(row("0", "0.0%", "6", "85.7%", "main  callchain_fp\n")),
                 qPrintable(top));
        QVERIFY2(top.contains(row("1", "14.3%", "4", "57.1%", "chain_a  callchain_fp\n")),
                 qPrintable(top));
        QVERIFY2(top.contains(row("3", "42.9%", "3", "42.9%", "leaf_spin  callchain_fp\n")),
                 qPrintable(top));
        QVERIFY2(top.contains(row("2", "28.6%", "2", "28.6%", "ksys_read  [vmlinux]\n")),
                 qPrintable(top));
        // Largest total first.
        QVERIFY(top.indexOf(QStringLiteral(" main ")) < top.indexOf(QStringLiteral(" chain_a ")));
        QVERIFY(top.indexOf(QStringLiteral(" chain_a ")) <
                top.indexOf(QStringLiteral(" leaf_spin ")));
        const QString top2 = cli::topFunctionsText(data, ProfileKind::OnCpu, 2);
        QVERIFY2(top2.contains(QStringLiteral("4 functions; the top 2 by total")),
                 qPrintable(top2));
        QVERIFY(!top2.contains(QStringLiteral("leaf_spin")));

        const QString off = cli::topFunctionsText(data, ProfileKind::OffCpu, 20);
        QVERIFY2(off.contains(QStringLiteral("Off-CPU: 3 waits, 3.4 us off the CPU, 3 functions")),
                 qPrintable(off));
        QVERIFY2(off.contains(row("3.0 us", "88.2%", "3.0 us", "88.2%", "ksys_read  [vmlinux]")),
                 qPrintable(off));
    }

    // The same profile through a session file and the real binary: show's tables, and folded
    // stacks on stdout and into a file, byte for byte.
    void showAndExportFoldedFromAFile()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("profile.bpflens"));
        SessionInfo info = sessionInfoForThisHost(
            {{QStringLiteral("profile"), {}, {}}, {QStringLiteral("offcpu"), {}, {}}});
        info.startMonotonicNs = 1000000000ull;
        SessionWriter writer;
        QString err;
        QVERIFY2(writer.create(session, info, &err), qPrintable(err));
        QVERIFY2(writer.writeBatch(knownProfile(), &err), qPrintable(err));
        QVERIFY(writer.finish(3000000000ull, &err));
        writer.close();

        const Run shown = runCli({QStringLiteral("show"), session});
        QCOMPARE(shown.status, 0);
        QVERIFY2(shown.out.contains(QStringLiteral("On-CPU: 7 samples (1 without a stack)")),
                 qPrintable(shown.out));
        QVERIFY2(shown.out.contains(QStringLiteral("leaf_spin  callchain_fp")),
                 qPrintable(shown.out));
        QVERIFY2(shown.out.contains(QStringLiteral("Off-CPU: 3 waits")), qPrintable(shown.out));
        const Run onlyOff =
            runCli({QStringLiteral("show"), session, QStringLiteral("--probe"),
                    QStringLiteral("offcpu"), QStringLiteral("--top"), QStringLiteral("1")});
        QCOMPARE(onlyOff.status, 0);
        QVERIFY(!onlyOff.out.contains(QStringLiteral("On-CPU")));
        QVERIFY2(onlyOff.out.contains(QStringLiteral("the top 1 by total")),
                 qPrintable(onlyOff.out));

        const Run toStdout =
            runCli({QStringLiteral("export"), session, QStringLiteral("--folded")});
        QCOMPARE(toStdout.status, 0);
        QCOMPARE(toStdout.out.toUtf8(), knownFolded);
        QCOMPARE(toStdout.err, QString());
        const Run dash = runCli({QStringLiteral("export"), session, QStringLiteral("--folded"),
                                 QStringLiteral("-o"), QStringLiteral("-")});
        QCOMPARE(dash.out.toUtf8(), knownFolded);

        const QString file = dir.filePath(QStringLiteral("out.folded"));
        const Run toFile = runCli({QStringLiteral("export"), session, QStringLiteral("--folded"),
                                   QStringLiteral("--by-process"), QStringLiteral("--user-only"),
                                   QStringLiteral("-o"), file});
        QCOMPARE(toFile.status, 0);
        QCOMPARE(toFile.out, QString());
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("app 1\napp;main;chain_a 1\napp;main;chain_a;leaf_spin 3\n"
                                         "reader;main 2\n"));
        const Run off = runCli({QStringLiteral("export"), session, QStringLiteral("--folded"),
                                QStringLiteral("--off-cpu"), QStringLiteral("--kernel-only")});
        QCOMPARE(off.status, 0);
        QCOMPARE(off.out.toUtf8(), QByteArray("ksys_read 3\n"));
    }

    // Page faults (#34) through a session file: export --folded --page-faults weighs each
    // stack by faults (a sampled event by its weight), --by-process starts it with the command,
    // and show lists the top functions by faults.
    void foldedPageFaultsFromAFile()
    {
        RecordBatch batch = knownProfile();
        StackTable table;
        QString err;
        QVERIFY2(table.addDefinitions(batch, &err), qPrintable(err));
        // The known profile's stacks: 1 main;chain_a;leaf_spin, 3 main;ksys_read (leaf first).
        QCOMPARE(table.frameName(table.stack(1).frames.first()), QStringLiteral("leaf_spin"));
        QCOMPARE(table.frameName(table.stack(3).frames.first()), QStringLiteral("ksys_read"));
        auto fault = [&](quint64 t, quint32 pid, const char *comm, quint32 stack, quint32 weight,
                         bool major) {
            PageFaultEvent e;
            e.timeNs = t;
            e.pid = pid;
            e.tid = pid;
            e.comm = comm;
            e.major = major;
            e.kind = major ? PageFaultEvent::File : PageFaultEvent::Anon;
            e.address = 0x7f0000001000ull + t;
            e.stackId = stack;
            e.weight = weight;
            batch.events<PageFaultEvent>().append(e);
        };
        for (quint64 i = 0; i < 3; ++i)
            fault(1500000000ull + i, 100, "app", 1, 1, false);
        fault(1600000000ull, 200, "reader", 3, 4, true);

        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("faults.bpflens"));
        SessionInfo info = sessionInfoForThisHost({{QStringLiteral("pagefault"), {}, {}}});
        info.startMonotonicNs = 1000000000ull;
        SessionWriter writer;
        QVERIFY2(writer.create(session, info, &err), qPrintable(err));
        QVERIFY2(writer.writeBatch(batch, &err), qPrintable(err));
        QVERIFY(writer.finish(3000000000ull, &err));
        writer.close();

        const Run folded = runCli({QStringLiteral("export"), session, QStringLiteral("--folded"),
                                   QStringLiteral("--page-faults")});
        QCOMPARE(folded.status, 0);
        QCOMPARE(folded.out.toUtf8(), QByteArray("main;chain_a;leaf_spin 3\nmain;ksys_read 4\n"));
        const Run byProcess =
            runCli({QStringLiteral("export"), session, QStringLiteral("--folded"),
                    QStringLiteral("--page-faults"), QStringLiteral("--by-process"),
                    QStringLiteral("--user-only")});
        QCOMPARE(byProcess.status, 0);
        QCOMPARE(byProcess.out.toUtf8(),
                 QByteArray("app;main;chain_a;leaf_spin 3\nreader;main 4\n"));
        const Run shown = runCli({QStringLiteral("show"), session, QStringLiteral("--probe"),
                                  QStringLiteral("pagefault")});
        QCOMPARE(shown.status, 0);
        QVERIFY2(shown.out.contains(QStringLiteral("Page faults: 7 faults (sampled: 4 events)")),
                 qPrintable(shown.out));
        QVERIFY2(shown.out.contains(QStringLiteral("ksys_read  [vmlinux]")), qPrintable(shown.out));
        QVERIFY2(!shown.out.contains(QStringLiteral("On-CPU")), qPrintable(shown.out));
        const Run both = runCli({QStringLiteral("export"), session, QStringLiteral("--folded"),
                                 QStringLiteral("--page-faults"), QStringLiteral("--off-cpu")});
        QCOMPARE(both.status, 2);
        QVERIFY2(
            both.err.contains(QStringLiteral("--off-cpu and --page-faults exclude each other")),
            qPrintable(both.err));
    }

    // export --trace and --jsonl from a written session, checked as JSON; record --jsonl -
    // streams a recording's execs to stdout as they come (root).
    void exportsTraceAndJsonLines()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("profile.bpflens"));
        SessionInfo info = sessionInfoForThisHost(
            {{QStringLiteral("profile"), {}, {}}, {QStringLiteral("offcpu"), {}, {}}});
        info.startMonotonicNs = 1000000000ull;
        SessionWriter writer;
        QString err;
        QVERIFY2(writer.create(session, info, &err), qPrintable(err));
        QVERIFY2(writer.writeBatch(knownProfile(), &err), qPrintable(err));
        QVERIFY(writer.finish(3000000000ull, &err));
        writer.close();

        const QString traceFile = dir.filePath(QStringLiteral("out.json"));
        const Run trace =
            runCli({QStringLiteral("export"), session, QStringLiteral("--trace"), traceFile});
        QCOMPARE(trace.status, 0);
        QCOMPARE(trace.out, QString());
        QFile f(traceFile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
        QVERIFY2(doc.isObject(), qPrintable(parseError.errorString()));
        int samples = 0, waits = 0;
        for (const QJsonValue &v : doc.object().value(QStringLiteral("traceEvents")).toArray()) {
            const QJsonObject e = v.toObject();
            const QString cat = e.value(QStringLiteral("cat")).toString();
            if (cat == QLatin1String("profile")) {
                QCOMPARE(e.value(QStringLiteral("ph")).toString(), QStringLiteral("i"));
                ++samples;
            } else if (cat == QLatin1String("offcpu")) {
                QCOMPARE(e.value(QStringLiteral("ph")).toString(), QStringLiteral("X"));
                QCOMPARE(e.value(QStringLiteral("args"))
                             .toObject()
                             .value(QStringLiteral("stack"))
                             .toString()
                             .isEmpty(),
                         false);
                ++waits;
            }
        }
        QCOMPARE(samples, 7);
        QCOMPARE(waits, 3);

        const Run lines = runCli({QStringLiteral("export"), session, QStringLiteral("--jsonl")});
        QCOMPARE(lines.status, 0);
        QStringList types;
        for (const QString &line : lines.out.split(u'\n', Qt::SkipEmptyParts)) {
            const QJsonDocument d = QJsonDocument::fromJson(line.toUtf8(), &parseError);
            QVERIFY2(d.isObject(), qPrintable(line));
            types << d.object().value(QStringLiteral("type")).toString();
        }
        QCOMPARE(types.count(QStringLiteral("profile")), 7);
        QCOMPARE(types.count(QStringLiteral("offcpu")), 3);
        QCOMPARE(types.count(QStringLiteral("stack")), 3);
        QCOMPARE(types.first(), QStringLiteral("session"));

        const Run both = runCli({QStringLiteral("export"), session, QStringLiteral("--jsonl"),
                                 QStringLiteral("--trace"), traceFile});
        QCOMPARE(both.status, 2);
        QVERIFY2(both.err.contains(QStringLiteral("exclude each other")), qPrintable(both.err));
        QCOMPARE(both.err.count(u'\n'), 1);

        BPFLENS_REQUIRE_ROOT("records BPF probes in-process");
        const QString tag = QStringLiteral("jsnl%1").arg(getpid() % 100000);
        const QString program = dir.filePath(tag);
        QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
        QFile::setPermissions(program, QFileDevice::ExeOwner | QFileDevice::ReadOwner);
        const QString recorded = dir.filePath(QStringLiteral("live.bpflens"));
        QProcess recorder;
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       {QStringLiteral("record"), QStringLiteral("--direct"),
                        QStringLiteral("--probe"), QStringLiteral("exec:comm=") + tag,
                        QStringLiteral("--jsonl"), QStringLiteral("-"), QStringLiteral("-o"),
                        recorded});
        QVERIFY2(waitForFile(recorded, recorder), recorder.readAllStandardError().constData());
        const int execs = 3;
        for (int i = 0; i < execs; ++i)
            QCOMPARE(QProcess::execute(program, {}), 0);
        ::kill(pid_t(recorder.processId()), SIGINT);
        QVERIFY(recorder.waitForFinished(30000));
        QCOMPARE(recorder.exitCode(), 0);
        int seen = 0;
        const QList<QByteArray> streamed = recorder.readAllStandardOutput().split('\n');
        for (const QByteArray &line : streamed) {
            if (line.isEmpty())
                continue;
            const QJsonObject o = QJsonDocument::fromJson(line, &parseError).object();
            QVERIFY2(!o.isEmpty(), line.constData());
            if (o.value(QStringLiteral("type")).toString() == QLatin1String("exec") &&
                o.value(QStringLiteral("comm")).toString() == tag)
                ++seen;
        }
        QCOMPARE(seen, execs);
    }

    // record --jsonl - hands each batch to the reader as it comes, not when the recording ends:
    // an exec's line is on the pipe within a few seconds of the exec while a 20 s recording
    // still runs, and SIGINT then ends it with status 0 and nothing streamed twice.
    void jsonlStreamsWhileRecording()
    {
        BPFLENS_REQUIRE_ROOT("records BPF probes in-process");
        QTemporaryDir dir;
        const QString tag = QStringLiteral("live%1").arg(getpid() % 100000);
        const QString program = dir.filePath(tag);
        QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
        QFile::setPermissions(program, QFileDevice::ExeOwner | QFileDevice::ReadOwner);
        const QString recorded = dir.filePath(QStringLiteral("live.bpflens"));
        QProcess recorder;
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       {QStringLiteral("record"), QStringLiteral("--direct"),
                        QStringLiteral("--probe"), QStringLiteral("exec:comm=") + tag,
                        QStringLiteral("--duration"), QStringLiteral("20s"),
                        QStringLiteral("--jsonl"), QStringLiteral("-"), QStringLiteral("-o"),
                        recorded});
        QVERIFY2(waitForFile(recorded, recorder), recorder.readAllStandardError().constData());
        QElapsedTimer sinceExec;
        sinceExec.start();
        QCOMPARE(QProcess::execute(program, {}), 0);

        QByteArray streamed;
        const auto execLines = [&] {
            int n = 0;
            for (const QByteArray &line : streamed.split('\n')) {
                const QJsonObject o = QJsonDocument::fromJson(line).object();
                n += o.value(QStringLiteral("type")).toString() == QLatin1String("exec") &&
                     o.value(QStringLiteral("comm")).toString() == tag;
            }
            return n;
        };
        while (execLines() == 0 && sinceExec.elapsed() < 5000 &&
               recorder.state() == QProcess::Running) {
            recorder.waitForReadyRead(100);
            streamed += recorder.readAllStandardOutput();
        }
        const qint64 took = sinceExec.elapsed();
        QVERIFY2(execLines() == 1,
                 qPrintable(QStringLiteral("no line for the exec on stdout %1 ms after it, while "
                                           "recording; so far: %2")
                                .arg(took)
                                .arg(QString::fromUtf8(streamed))));
        QVERIFY2(recorder.state() == QProcess::Running, "the recording ended before its 20 s");
        qInfo("the exec's line came %lld ms after the exec", took);

        ::kill(pid_t(recorder.processId()), SIGINT);
        QVERIFY(recorder.waitForFinished(30000));
        QCOMPARE(recorder.exitStatus(), QProcess::NormalExit);
        QCOMPARE(recorder.exitCode(), 0);
        streamed += recorder.readAllStandardOutput();
        QCOMPARE(execLines(), 1);
        QVERIFY(streamed.startsWith("{\"type\":\"session\""));
        QVERIFY(streamed.endsWith('\n'));
    }

    // query: SQL over a session file, as an aligned table, CSV or JSON; errors are one line.
    // diff A B: a session with itself shows no change; against one with more dd writes, the
    // counts and every top-list dimension's keys say so, line by line.
    void diffComparesTwoSessions()
    {
        QTemporaryDir dir;
        const auto write = [&](const QString &name, int dd, int tar) {
            const QString path = dir.filePath(name);
            SessionInfo info = sessionInfoForThisHost({{QStringLiteral("block"), {}, {}}});
            info.startMonotonicNs = 1000000000ull;
            SessionWriter writer;
            QString err;
            if (!writer.create(path, info, &err))
                return QString();
            RecordBatch b;
            for (int i = 0; i < dd + tar; ++i) {
                BlockEvent e;
                e.timeNs = info.startMonotonicNs + quint64(i);
                e.pid = i < dd ? 100 : 200;
                e.comm = i < dd ? "dd" : "tar";
                e.disk = i < dd ? "vda" : "sdb";
                e.op = i % 2 ? "Write" : "Read";
                b.block.append(e);
            }
            HistogramSnapshot h;
            h.probeId = QStringLiteral("block");
            h.timeNs = info.startMonotonicNs + 1000;
            h.histogram.add(100, quint64(dd + tar));
            b.histograms.append(h);
            return writer.writeBatch(b, &err) && writer.finish(info.startMonotonicNs + 2000, &err)
                       ? path
                       : QString();
        };
        const QString a = write(QStringLiteral("a.bpflens"), 10, 0);
        const QString b = write(QStringLiteral("b.bpflens"), 15, 4);
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        const Run self = runCli({QStringLiteral("diff"), a, a});
        QCOMPARE(self.status, 0);
        QVERIFY2(self.out.contains(QLatin1String("block (usecs): 10 -> 10 samples, 0 (0%)\n")),
                 qPrintable(self.out));
        QVERIFY2(self.out.contains(
                     QLatin1String("  block                     10          10  0 (0%)\n")),
                 qPrintable(self.out));
        // Every row of every table after the histograms: no change.
        const QString selfTables = self.out.mid(self.out.indexOf(QLatin1String("\nEvents\n")));
        int rows = 0;
        for (const QString &line : selfTables.split(u'\n')) {
            if (!line.startsWith(QLatin1String("  ")) || line.endsWith(QLatin1String("CHANGE")))
                continue;
            QVERIFY2(line.endsWith(QLatin1String(" 0 (0%)")), qPrintable(line));
            ++rows;
        }
        // block; by process, command, disk, operation: 1, 1, 1, 2 keys.
        QCOMPARE(rows, 6);
        const Run d =
            runCli({QStringLiteral("diff"), a, b, QStringLiteral("--top"), QStringLiteral("5")});
        QCOMPARE(d.status, 0);
        // The keys counted from what write() makes: A's 10 dd requests on vda, alternately
        // Read and Write (5, 5); B's 15 dd on vda and 4 tar on sdb (Read 10, Write 9).
        for (const char *line : {"block (usecs): 10 -> 19 samples, +9 (+90.0%)\n",
                                 "  block                     10          19  +9 (+90.0%)\n",
                                 "\nblock events by process\n",
                                 "  100 dd                    10          15  +5 (+50.0%)\n"
                                 "  200 tar                    0           4  +4 (new)\n",
                                 "\nblock events by command\n",
                                 "  dd                        10          15  +5 (+50.0%)\n"
                                 "  tar                        0           4  +4 (new)\n",
                                 "\nblock events by disk\n",
                                 "  vda                       10          15  +5 (+50.0%)\n"
                                 "  sdb                        0           4  +4 (new)\n",
                                 "\nblock events by operation\n"
                                 "                             A           B  CHANGE\n"
                                 "  Read                       5          10  +5 (+100.0%)\n"
                                 "  Write                      5           9  +4 (+80.0%)\n"})
            QVERIFY2(d.out.contains(QLatin1String(line)), qPrintable(QLatin1String(line) + d.out));
        // A cut list says so; its rows are the busiest.
        const Run top1 =
            runCli({QStringLiteral("diff"), a, b, QStringLiteral("--top"), QStringLiteral("1")});
        QCOMPARE(top1.status, 0);
        QVERIFY2(top1.out.contains(QLatin1String("\nblock events by disk (the busiest 1 of 2)\n")),
                 qPrintable(top1.out));
        QVERIFY2(top1.out.contains(QLatin1String("  vda                       10          15")),
                 qPrintable(top1.out));
        QVERIFY2(!top1.out.contains(QLatin1String("  sdb ")), qPrintable(top1.out));
        const Run missing = runCli({QStringLiteral("diff"), a});
        QCOMPARE(missing.status, 2);
        QVERIFY(missing.err.contains(QLatin1String("two session files")));
    }

    // diff A B of two CPU profiles: compute's self share fell from 3 of 4 samples to 1 of 4,
    // malloc's rose; off-CPU waits move from poll to write. With itself: no change.
    void diffComparesProfiles()
    {
        QTemporaryDir dir;
        const auto write = [&](const QString &name, int compute, int malloc, quint64 pollNs,
                               quint64 writeNs) {
            const QString path = dir.filePath(name);
            SessionInfo info = sessionInfoForThisHost(
                {{QStringLiteral("profile"), {}, {}}, {QStringLiteral("offcpu"), {}, {}}});
            info.startMonotonicNs = 1000000000ull;
            SessionWriter writer;
            QString err;
            if (!writer.create(path, info, &err))
                return QString();
            RecordBatch b;
            const char *names[] = {"main", "compute", "malloc", "poll", "write"};
            for (quint32 i = 0; i < 5; ++i)
                b.frames.append(
                    {i + 1,
                     StackFrame{
                         FrameKind::User, 0x1000 + i * 0x100, "/usr/bin/app", {}, names[i]}});
            b.stacks.append({1, 0, {2, 1}}); // main → compute
            b.stacks.append({2, 0, {3, 1}}); // main → malloc
            b.stacks.append({3, 0, {4, 1}}); // main → poll
            b.stacks.append({4, 0, {5, 1}}); // main → write
            quint64 t = info.startMonotonicNs;
            for (int i = 0; i < compute + malloc; ++i) {
                CpuSampleEvent e;
                e.timeNs = ++t;
                e.comm = "app";
                e.stackId = i < compute ? 1 : 2;
                b.cpuSample.append(e);
            }
            for (const auto &[stack, ns] : {std::pair{3u, pollNs}, std::pair{4u, writeNs}}) {
                OffCpuEvent e;
                e.timeNs = ++t;
                e.comm = "app";
                e.stackId = stack;
                e.offNs = ns;
                b.offCpu.append(e);
            }
            return writer.writeBatch(b, &err) && writer.finish(t + 1, &err) ? path : QString();
        };
        const QString a = write(QStringLiteral("pa.bpflens"), 3, 1, 3000000, 1000000);
        const QString b = write(QStringLiteral("pb.bpflens"), 1, 3, 1000000, 3000000);
        QVERIFY(!a.isEmpty() && !b.isEmpty());
        const Run d = runCli({QStringLiteral("diff"), a, b});
        QCOMPARE(d.status, 0);
        for (const char *text :
             {"On-CPU profile: 4 -> 4 samples\n", "  compute  app\n", "3 (75.0%) -> 1 (25.0%)",
              "-50.0 pp, -2\n", "1 (25.0%) -> 3 (75.0%)", "+50.0 pp, +2\n",
              "Off-CPU profile: 4.00 ms -> 4.00 ms off the CPU (2 -> 2 waits)",
              "3.00 ms (75.0%) -> 1.00 ms (25.0%)", "-50.0 pp, -2.00 ms\n"})
            QVERIFY2(d.out.contains(QLatin1String(text)),
                     qPrintable(QLatin1String(text) + QLatin1Char('\n') + d.out));
        // main is on every stack on both sides: unchanged, so not listed.
        QVERIFY2(!d.out.contains(QLatin1String("  main  app\n")), qPrintable(d.out));
        const Run self = runCli({QStringLiteral("diff"), a, a});
        QCOMPARE(self.status, 0);
        QCOMPARE(self.out.count(QLatin1String("no function's share or weight changed")), 2);
        QVERIFY2(!self.out.contains(QLatin1String(" pp")), qPrintable(self.out));
    }

    // top: top lists and latency statistics of a session with known block and open events,
    // every number computed here from the events the test wrote; bad options are one line.
    void topPrintsListsAndStats()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("top.bpflens"));
        SessionInfo info = sessionInfoForThisHost(
            {{QStringLiteral("block"), {}, {}}, {QStringLiteral("open"), {}, {}}});
        info.startMonotonicNs = 1000000000ull;
        RecordBatch b;
        struct Known
        {
            QByteArray disk, op, comm;
            quint32 pid, bytes;
            quint64 latencyNs;
        };
        QList<Known> known;
        for (int i = 0; i < 40; ++i)
            known.append({i % 3 ? "vda" : "vdb", i % 2 ? "Write" : "Read", i % 4 ? "dd" : "tar",
                          quint32(500 + i % 4 / 3), quint32(4096 * (1 + i % 5)),
                          quint64(1000 + (i * 7919) % 100000)});
        for (int i = 0; i < known.size(); ++i) {
            BlockEvent e;
            e.timeNs = info.startMonotonicNs + quint64(i) * 1000;
            e.disk = known[i].disk;
            e.op = known[i].op;
            e.comm = known[i].comm;
            e.pid = known[i].pid;
            e.bytes = known[i].bytes;
            e.deviceNs = known[i].latencyNs;
            b.block.append(e);
        }
        for (int i = 0; i < 7; ++i) {
            OpenEvent e;
            e.timeNs = info.startMonotonicNs + quint64(i) * 1000 + 1;
            e.comm = "cat";
            e.path = "/nope";
            e.ret = i < 5 ? -2 : -13;
            b.open.append(e);
        }
        SessionWriter writer;
        QString err;
        QVERIFY2(writer.create(session, info, &err), qPrintable(err));
        QVERIFY2(writer.writeBatch(b, &err), qPrintable(err));
        QVERIFY(writer.finish(info.startMonotonicNs + 100000, &err));
        writer.close();

        // Disks by bytes, as CSV: the brute-force sums.
        QMap<QByteArray, std::tuple<qint64, quint64, quint64, std::vector<quint64>>> disks;
        for (const Known &k : std::as_const(known)) {
            auto &[count, latency, bytes, all] = disks[k.disk];
            ++count;
            latency += k.latencyNs;
            bytes += k.bytes;
            all.push_back(k.latencyNs);
        }
        auto nearestRank = [](std::vector<quint64> v, double p) {
            std::sort(v.begin(), v.end());
            return v[size_t(std::ceil(p * double(v.size()) - 1e-9)) - 1];
        };
        QStringList lines{QStringLiteral("disk,count,total_latency_ns,p99_latency_ns,bytes")};
        QList<QByteArray> order = disks.keys();
        std::sort(order.begin(), order.end(), [&](const QByteArray &x, const QByteArray &y) {
            return std::get<2>(disks[x]) > std::get<2>(disks[y]);
        });
        for (const QByteArray &d : order) {
            const auto &[count, latency, bytes, all] = disks[d];
            lines << QStringLiteral("%1,%2,%3,%4,%5")
                         .arg(QString::fromUtf8(d))
                         .arg(count)
                         .arg(latency)
                         .arg(nearestRank(all, 0.99))
                         .arg(bytes);
        }
        const Run csv =
            runCli({QStringLiteral("top"), session, QStringLiteral("--by"), QStringLiteral("disk"),
                    QStringLiteral("--metric"), QStringLiteral("bytes"), QStringLiteral("--csv")});
        QCOMPARE(csv.status, 0);
        QCOMPARE(csv.err, QString());
        QCOMPARE(csv.out, lines.join(u'\n') + u'\n');

        // Errors as JSON: ENOENT 5, EACCES 2.
        const Run json = runCli({QStringLiteral("top"), session, QStringLiteral("--by"),
                                 QStringLiteral("error"), QStringLiteral("--json")});
        QCOMPARE(json.status, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
        const QJsonArray rows = doc.value(QStringLiteral("rows")).toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.at(0).toObject().value(QStringLiteral("key")).toString(),
                 QStringLiteral("ENOENT"));
        QCOMPARE(rows.at(0).toObject().value(QStringLiteral("count")).toInteger(), 5);
        QCOMPARE(rows.at(1).toObject().value(QStringLiteral("count")).toInteger(), 2);

        // Processes as text, limited to one row: the busiest (500 dd, 20 of 40; 500 tar and 501 dd
        // 10).
        const Run text =
            runCli({QStringLiteral("top"), session, QStringLiteral("--probe"),
                    QStringLiteral("block"), QStringLiteral("--limit"), QStringLiteral("1")});
        QCOMPARE(text.status, 0);
        QVERIFY2(text.out.startsWith(QLatin1String("Top process by count (1 of 3, 40 events)\n")),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains(QLatin1String("500 dd")), qPrintable(text.out));

        // Latency statistics per disk and operation, with the slowest event's index.
        const Run stats = runCli(
            {QStringLiteral("top"), session, QStringLiteral("--stats"), QStringLiteral("--csv")});
        QCOMPARE(stats.status, 0);
        const QStringList statLines = stats.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(statLines.size(), 1 + 4);
        for (const QString &line : statLines.mid(1)) {
            const QStringList f = line.split(u',');
            QCOMPARE(f.size(), 12);
            QCOMPARE(f[0], QStringLiteral("block"));
            std::vector<quint64> v;
            qsizetype slowest = -1;
            for (qsizetype i = 0; i < known.size(); ++i) {
                if (QString::fromUtf8(known[i].disk + ' ' + known[i].op) != f[1])
                    continue;
                v.push_back(known[i].latencyNs);
                if (slowest < 0 || known[i].latencyNs > known[slowest].latencyNs)
                    slowest = i;
            }
            QVERIFY2(!v.empty(), qPrintable(line));
            QCOMPARE(f[2].toLongLong(), qint64(v.size()));
            QCOMPARE(f[3].toULongLong(), *std::min_element(v.begin(), v.end()));
            QCOMPARE(f[5].toULongLong(), nearestRank(v, 0.5));
            QCOMPARE(f[6].toULongLong(), nearestRank(v, 0.9));
            QCOMPARE(f[7].toULongLong(), nearestRank(v, 0.99));
            QCOMPARE(f[8].toULongLong(), nearestRank(v, 0.999));
            QCOMPARE(f[9].toULongLong(), known[slowest].latencyNs);
            QCOMPARE(f[10].toLongLong(), slowest);
        }

        const struct
        {
            QStringList args;
            const char *says;
        } errors[] = {
            {{session, QStringLiteral("--by"), QStringLiteral("disks")}, "--by expects"},
            {{session, QStringLiteral("--metric"), QStringLiteral("p50")}, "--metric expects"},
            {{session, QStringLiteral("--probe"), QStringLiteral("nope")}, "nope"},
            {{session, QStringLiteral("--limit"), QStringLiteral("-1")}, "--limit"},
            {{session, QStringLiteral("--csv"), QStringLiteral("--json")}, "exclude"},
            {{}, "one session file"},
        };
        for (const auto &e : errors) {
            const Run r = runCli(QStringList{QStringLiteral("top")} + e.args);
            QCOMPARE(r.status, 2);
            QCOMPARE(r.out, QString());
            QVERIFY2(r.err.startsWith(QLatin1String("bpflens-cli: ")) && r.err.count(u'\n') == 1 &&
                         r.err.contains(QLatin1String(e.says)),
                     qPrintable(r.err));
        }
    }

    // top --metric latency without --probe over block I/O and off-CPU waits: their sum is no
    // number (3 s asleep and 3 ms on the disk are not 3.003 s of latency), so it orders nothing.
    // The text gives each probe its own list; CSV and JSON, one table each, ask for --probe.
    void topNeverOrdersByUnlikeSums()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("mixed.bpflens"));
        SessionInfo info = sessionInfoForThisHost(
            {{QStringLiteral("block"), {}, {}}, {QStringLiteral("offcpu"), {}, {}}});
        info.startMonotonicNs = 1000000000ull;
        RecordBatch b;
        auto block = [&](quint64 at, quint32 pid, const char *comm, quint64 ns) {
            BlockEvent e;
            e.timeNs = info.startMonotonicNs + at;
            e.disk = "vda";
            e.op = "Write";
            e.comm = comm;
            e.pid = pid;
            e.bytes = 4096;
            e.deviceNs = ns;
            b.block.append(e);
        };
        auto off = [&](quint64 at, quint32 pid, const char *comm, quint64 ns) {
            OffCpuEvent e;
            e.timeNs = info.startMonotonicNs + at;
            e.pid = pid;
            e.tid = pid;
            e.comm = comm;
            e.offNs = ns;
            b.events<OffCpuEvent>().append(e);
        };
        // dd: 3 ms on the disk, 10 ms off the CPU; tar: 2 ms on the disk; sleep: 3 s asleep.
        for (int i = 0; i < 3; ++i)
            block(1000 * quint64(i), 600, "dd", 1'000'000);
        block(5000, 602, "tar", 2'000'000);
        off(6000, 600, "dd", 10'000'000);
        off(7000, 601, "sleep", 3'000'000'000);
        SessionWriter writer;
        QString err;
        QVERIFY2(writer.create(session, info, &err), qPrintable(err));
        QVERIFY2(writer.writeBatch(b, &err), qPrintable(err));
        QVERIFY(writer.finish(info.startMonotonicNs + 100000, &err));
        writer.close();

        for (const QString &metric : {QStringLiteral("latency"), QStringLiteral("p99")}) {
            const Run text =
                runCli({QStringLiteral("top"), session, QStringLiteral("--metric"), metric});
            QCOMPARE(text.status, 0);
            QVERIFY2(text.out.startsWith(
                         QLatin1String("The latencies of block, offcpu do not add up: one list "
                                       "per probe (--probe ID for one).\n")),
                     qPrintable(text.out));
            QVERIFY2(!text.out.contains(QLatin1String("mixed")), qPrintable(text.out));
            const qsizetype blockAt = text.out.indexOf(
                QStringLiteral("Top process by %1 of block (2 of 2, 4 events)\n").arg(metric));
            const qsizetype offAt = text.out.indexOf(
                QStringLiteral("Top process by %1 of offcpu (2 of 2, 2 events)\n").arg(metric));
            QVERIFY2(blockAt > 0 && offAt > blockAt, qPrintable(text.out));
            // On the disk dd leads by total (3 ms), tar by p99 (2 ms against 1 ms); off the CPU
            // sleep leads both; neither list holds the other's processes.
            const QString blocks = text.out.mid(blockAt, offAt - blockAt);
            const QString waits = text.out.mid(offAt);
            const bool total = metric == QLatin1String("latency");
            QVERIFY2(blocks.indexOf(QLatin1String(total ? "600 dd" : "602 tar")) <
                             blocks.indexOf(QLatin1String(total ? "602 tar" : "600 dd")) &&
                         !blocks.contains(QLatin1String("sleep")),
                     qPrintable(blocks));
            QVERIFY2(waits.indexOf(QLatin1String("601 sleep")) <
                             waits.indexOf(QLatin1String("600 dd")) &&
                         !waits.contains(QLatin1String("tar")),
                     qPrintable(waits));
        }
        for (const QString &format : {QStringLiteral("--json"), QStringLiteral("--csv")}) {
            const Run r = runCli({QStringLiteral("top"), session, QStringLiteral("--metric"),
                                  QStringLiteral("latency"), format});
            QCOMPARE(r.status, 2);
            QCOMPARE(r.out, QString());
            QVERIFY2(r.err.startsWith(QLatin1String("bpflens-cli: ")) && r.err.count(u'\n') == 1 &&
                         r.err.contains(QLatin1String("--probe block or --probe offcpu")),
                     qPrintable(r.err));
        }
        // One probe's, as JSON: only its events, ordered by their latency.
        const Run one = runCli({QStringLiteral("top"), session, QStringLiteral("--metric"),
                                QStringLiteral("latency"), QStringLiteral("--probe"),
                                QStringLiteral("offcpu"), QStringLiteral("--json")});
        QCOMPARE(one.status, 0);
        const QJsonArray rows = QJsonDocument::fromJson(one.out.toUtf8())
                                    .object()
                                    .value(QStringLiteral("rows"))
                                    .toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.at(0).toObject().value(QStringLiteral("key")).toString(),
                 QStringLiteral("601 sleep"));
        // Disks: only block I/O has them, so one list as before; counts are not sums.
        const Run disks =
            runCli({QStringLiteral("top"), session, QStringLiteral("--by"), QStringLiteral("disk"),
                    QStringLiteral("--metric"), QStringLiteral("latency")});
        QCOMPARE(disks.status, 0);
        QVERIFY2(disks.out.startsWith(QLatin1String("Top disk by latency (1 of 1, 4 events)\n")),
                 qPrintable(disks.out));
        const Run counts = runCli({QStringLiteral("top"), session});
        QCOMPARE(counts.status, 0);
        QVERIFY2(counts.out.startsWith(QLatin1String("Top process by count (3 of 3, 6 events)\n")),
                 qPrintable(counts.out));
    }

    // explain: a spike of slow dd writes to vda among background reads; the ranking of the
    // range's slow requests, as CSV, against a brute-force count of the events written.
    void explainRanksTheSpike()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("spike.bpflens"));
        SessionInfo info = sessionInfoForThisHost({{QStringLiteral("block"), {}, {}}});
        info.startMonotonicNs = 1000000000ull;
        constexpr quint64 Ms = 1000000;
        RecordBatch b;
        for (int i = 0; i < 100; ++i) {
            const bool spike = i >= 40 && i < 50;
            BlockEvent e;
            e.timeNs = info.startMonotonicNs + quint64(i) * Ms + 1;
            e.comm = spike ? "dd" : (i % 2 ? "tar" : "sh");
            e.pid = spike ? 700 : 500 + i % 2;
            e.disk = spike || i % 3 ? "vda" : "vdb";
            e.op = spike ? "Write" : "Read";
            e.deviceNs = spike ? 20 * Ms : (i % 10 == 0 ? 15 * Ms : 1 * Ms);
            b.block.append(e);
        }
        SessionWriter writer;
        QString err;
        QVERIFY2(writer.create(session, info, &err), qPrintable(err));
        QVERIFY2(writer.writeBatch(b, &err), qPrintable(err));
        QVERIFY(writer.finish(info.startMonotonicNs + 100 * Ms, &err));
        writer.close();

        // Brute force: per dimension and value, the slow requests inside [40 ms, 50 ms) and
        // outside; the values more common inside, by share difference, inside count, dimension.
        struct Value
        {
            int dim;
            QString dimName, key;
            qint64 in = 0, out = 0;
        };
        QMap<std::pair<int, QString>, Value> values;
        qint64 inTotal = 0, outTotal = 0;
        for (const BlockEvent &e : std::as_const(b.block)) {
            if (e.deviceNs < 10 * Ms)
                continue;
            const quint64 t = e.timeNs - info.startMonotonicNs;
            const bool in = t >= 40 * Ms && t < 50 * Ms;
            ++(in ? inTotal : outTotal);
            const std::tuple<int, QString, QString> keys[] = {
                {0, QStringLiteral("process"),
                 QString::number(e.pid) + u' ' + QString::fromUtf8(e.comm)},
                {1, QStringLiteral("command"), QString::fromUtf8(e.comm)},
                {3, QStringLiteral("disk"), QString::fromUtf8(e.disk)},
                {5, QStringLiteral("operation"), QString::fromUtf8(e.op)}};
            for (const auto &[dim, name, key] : keys) {
                Value &v = values[{dim, key}];
                v.dim = dim;
                v.dimName = name;
                v.key = key;
                ++(in ? v.in : v.out);
            }
        }
        // The documented score: the Wilson lower bound (95%) of the inside share minus the
        // outside share.
        auto score = [&](const Value &v) {
            const double n = double(inTotal), p = double(v.in) / n, z = 1.96, z2 = z * z;
            return (p + z2 / (2 * n) - z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n))) /
                       (1 + z2 / n) -
                   double(v.out) / double(outTotal);
        };
        QList<Value> ranked;
        for (const Value &v : std::as_const(values)) {
            if (v.in > 0 && score(v) > 0)
                ranked.append(v);
        }
        std::sort(ranked.begin(), ranked.end(), [&](const Value &x, const Value &y) {
            if (score(x) != score(y))
                return score(x) > score(y);
            if (x.in != y.in)
                return x.in > y.in;
            return x.dim < y.dim;
        });
        QStringList lines{QStringLiteral("dimension,key,inside,inside_total,inside_share,outside,"
                                         "outside_total,outside_share,score,lift")};
        for (const Value &v : std::as_const(ranked)) {
            const double inShare = double(v.in) / double(inTotal);
            const double outShare = double(v.out) / double(outTotal);
            lines << QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10")
                         .arg(v.dimName, v.key)
                         .arg(v.in)
                         .arg(inTotal)
                         .arg(QString::number(inShare, 'f', 6))
                         .arg(v.out)
                         .arg(outTotal)
                         .arg(QString::number(outShare, 'f', 6))
                         .arg(QString::number(score(v), 'f', 6))
                         .arg(v.out ? QString::number(inShare / outShare, 'f', 3)
                                    : QStringLiteral("inf"));
        }
        QVERIFY(ranked.size() >= 4); // dd, its pid, Write and vda
        const Run csv = runCli({QStringLiteral("explain"), session, QStringLiteral("--from"),
                                QStringLiteral("40ms"), QStringLiteral("--to"),
                                QStringLiteral("0.05"), QStringLiteral("--type"),
                                QStringLiteral("block"), QStringLiteral("--min-latency"),
                                QStringLiteral("10ms"), QStringLiteral("--csv")});
        QCOMPARE(csv.status, 0);
        QCOMPARE(csv.err, QString());
        QCOMPARE(csv.out, lines.join(u'\n') + u'\n');

        // As text, every event: the range's ten events are all dd's; "only inside" for a value
        // never seen outside.
        const Run text =
            runCli({QStringLiteral("explain"), session, QStringLiteral("--from"),
                    QStringLiteral("40ms"), QStringLiteral("--to"), QStringLiteral("50ms")});
        QCOMPARE(text.status, 0);
        QVERIFY2(text.out.startsWith(
                     QLatin1String("0.040 s to 0.050 s: 10 events inside, 90 outside\n")),
                 qPrintable(text.out));
        const QStringList textLines = text.out.split(u'\n');
        QVERIFY2(textLines.size() > 3 && textLines[3].startsWith(QLatin1String("process")) &&
                     textLines[3].contains(QLatin1String("700 dd")) &&
                     textLines[3].contains(QLatin1String("100.0%")) &&
                     textLines[3].contains(QLatin1String("(10/10)")) &&
                     textLines[3].contains(QLatin1String("(0/90)")) &&
                     textLines[3].endsWith(QLatin1String("only inside")),
                 qPrintable(text.out));

        // JSON: the same first row, lift null.
        const Run json = runCli({QStringLiteral("explain"), session, QStringLiteral("--from"),
                                 QStringLiteral("40ms"), QStringLiteral("--to"),
                                 QStringLiteral("50ms"), QStringLiteral("--json")});
        QCOMPARE(json.status, 0);
        const QJsonObject doc = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(doc.value(QStringLiteral("inside_events")).toInteger(), 10);
        QCOMPARE(doc.value(QStringLiteral("outside_events")).toInteger(), 90);
        const QJsonObject first = doc.value(QStringLiteral("rows")).toArray().at(0).toObject();
        QCOMPARE(first.value(QStringLiteral("key")).toString(), QStringLiteral("700 dd"));
        QCOMPARE(first.value(QStringLiteral("pid")).toInteger(), 700);
        QVERIFY(first.value(QStringLiteral("lift")).isNull());

        const struct
        {
            QStringList args;
            int status;
            const char *says;
        } errors[] = {
            {{session, QStringLiteral("--from"), QStringLiteral("soon")}, 2, "--from expects"},
            {{session, QStringLiteral("--from"), QStringLiteral("50ms"), QStringLiteral("--to"),
              QStringLiteral("40ms")},
             2,
             "before --to"},
            {{session, QStringLiteral("--type"), QStringLiteral("nope")}, 2, "nope"},
            {{session, QStringLiteral("--min-latency"), QStringLiteral("slow")}, 2, "duration"},
            {{session, QStringLiteral("--csv"), QStringLiteral("--json")}, 2, "exclude"},
            {{}, 2, "one session file"},
            {{session, QStringLiteral("--from"), QStringLiteral("5s")}, 1, "after the session"},
        };
        for (const auto &e : errors) {
            const Run r = runCli(QStringList{QStringLiteral("explain")} + e.args);
            QCOMPARE(r.status, e.status);
            QCOMPARE(r.out, QString());
            QVERIFY2(r.err.startsWith(QLatin1String("bpflens-cli: ")) && r.err.count(u'\n') == 1 &&
                         r.err.contains(QLatin1String(e.says)),
                     qPrintable(r.err));
        }
    }

    void queryPrintsTablesCsvAndJson()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("query.bpflens"));
        SessionInfo info = sessionInfoForThisHost(
            {{QStringLiteral("profile"), {}, {}}, {QStringLiteral("offcpu"), {}, {}}});
        info.startMonotonicNs = 1000000000ull;
        SessionWriter writer;
        QString err;
        QVERIFY2(writer.create(session, info, &err), qPrintable(err));
        QVERIFY2(writer.writeBatch(knownProfile(), &err), qPrintable(err));
        QVERIFY(writer.finish(3000000000ull, &err));
        writer.close();

        const QString sql = QStringLiteral("SELECT comm, count(*) AS n, sum(stack_id = 0) AS "
                                           "no_stack FROM profile GROUP BY comm ORDER BY comm");
        const Run table = runCli({QStringLiteral("query"), session, sql});
        QCOMPARE(table.status, 0);
        QCOMPARE(table.err, QString());
        QCOMPARE(table.out, QStringLiteral("comm    n  no_stack\n"
                                           "------  -  --------\n"
                                           "app     5         1\n"
                                           "reader  2         0\n"));
        const Run csv = runCli({QStringLiteral("query"), session, sql, QStringLiteral("--format"),
                                QStringLiteral("csv")});
        QCOMPARE(csv.status, 0);
        QCOMPARE(csv.out, QStringLiteral("comm,n,no_stack\r\napp,5,1\r\nreader,2,0\r\n"));
        const Run json =
            runCli({QStringLiteral("query"), session,
                    QStringLiteral("SELECT comm, sum(off_ns) AS off_ns, NULL AS missing FROM "
                                   "offcpu GROUP BY comm ORDER BY comm"),
                    QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(json.status, 0);
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(json.out.toUtf8(), &parseError);
        QVERIFY2(parseError.error == QJsonParseError::NoError, qPrintable(json.out));
        QCOMPARE(doc.array().size(), 2);
        QCOMPARE(doc.array().at(0).toObject().value(QStringLiteral("comm")).toString(),
                 QStringLiteral("app"));
        QCOMPARE(doc.array().at(0).toObject().value(QStringLiteral("off_ns")).toInteger(), 400);
        QCOMPARE(doc.array().at(1).toObject().value(QStringLiteral("off_ns")).toInteger(), 3000);
        QVERIFY(doc.array().at(1).toObject().value(QStringLiteral("missing")).isNull());

        const Run tables = runCli({QStringLiteral("query"), session, QStringLiteral("--tables")});
        QCOMPARE(tables.status, 0);
        for (const char *line : {"block (events: Block I/O)\n", "  latency_ns INTEGER\n",
                                 "profile (events", "  stack_id INTEGER\n", "histogram_buckets (",
                                 "stack_entries (", "counters (table)\n"})
            QVERIFY2(tables.out.contains(QLatin1String(line)), line);

        const struct
        {
            QStringList args;
            int status;
            const char *says;
        } errors[] = {
            {{session, QStringLiteral("SELECT * FROM nope")}, 1, "no such table: nope"},
            {{session, QStringLiteral("DELETE FROM meta")}, 1, "cannot change the session"},
            {{dir.filePath(QStringLiteral("missing.bpflens")), QStringLiteral("SELECT 1")},
             4,
             "no such file"},
            {{session}, 2, "a session file and one SQL statement"},
            {{session, sql, QStringLiteral("--format"), QStringLiteral("xml")}, 2, "xml"},
        };
        for (const auto &e : errors) {
            const Run r = runCli(QStringList{QStringLiteral("query")} + e.args);
            QCOMPARE(r.status, e.status);
            QCOMPARE(r.out, QString());
            QVERIFY2(r.err.startsWith(QLatin1String("bpflens-cli: ")) && r.err.count(u'\n') == 1 &&
                         r.err.contains(QLatin1String(e.says)),
                     qPrintable(r.err));
        }
    }

    // A session without samples, or options that do not go together: one line and a status.
    void foldedExportErrors_data()
    {
        QTest::addColumn<QStringList>("extra");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        QTest::newRow("no samples") << QStringList{QStringLiteral("--folded")} << 1
                                    << "has no CPU samples: record them with --probe profile";
        QTest::newRow("no waits") << QStringList{QStringLiteral("--folded"),
                                                 QStringLiteral("--off-cpu")}
                                  << 1 << "has no off-CPU waits";
        QTest::newRow("no page faults")
            << QStringList{QStringLiteral("--folded"), QStringLiteral("--page-faults")} << 1
            << "has no page faults: record them with --probe pagefault";
        QTest::newRow("both parts")
            << QStringList{QStringLiteral("--folded"), QStringLiteral("--user-only"),
                           QStringLiteral("--kernel-only")}
            << 2 << "--user-only and --kernel-only exclude each other";
        QTest::newRow("csv and folded")
            << QStringList{QStringLiteral("--folded"), QStringLiteral("--csv"),
                           QStringLiteral("/tmp")}
            << 2 << "--csv and --folded exclude each other";
        QTest::newRow("output without folded")
            << QStringList{QStringLiteral("--csv"), QStringLiteral("/tmp"), QStringLiteral("-o"),
                           QStringLiteral("x")}
            << 2 << "--output applies to --folded";
        QTest::newRow("probe with folded")
            << QStringList{QStringLiteral("--folded"), QStringLiteral("--probe"),
                           QStringLiteral("exec")}
            << 2 << "--probe applies to --csv";
        QTest::newRow("unwritable output")
            << QStringList{QStringLiteral("--folded"), QStringLiteral("-o"),
                           QStringLiteral("/nonexistent/dir/x.folded")}
            << 1 << "cannot write /nonexistent/dir/x.folded";
        QTest::newRow("bad top") << QStringList{QStringLiteral("--top"), QStringLiteral("many")}
                                 << 2 << "--top many: expected a number";
    }

    void foldedExportErrors()
    {
        QFETCH(QStringList, extra);
        QFETCH(int, status);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("s.bpflens"));
        // "unwritable output" needs samples to get as far as writing.
        const bool withSamples = QTest::currentDataTag() == QByteArrayLiteral("unwritable output");
        SessionInfo info = sessionInfoForThisHost({{QStringLiteral("exec"), {}, {}}});
        info.startMonotonicNs = 1000000000ull;
        SessionWriter writer;
        QString err;
        QVERIFY2(writer.create(session, info, &err), qPrintable(err));
        QVERIFY2(writer.writeBatch(withSamples ? knownProfile() : RecordBatch{}, &err),
                 qPrintable(err));
        QVERIFY(writer.finish(3000000000ull, &err));
        writer.close();
        const bool show = extra.first() == QLatin1String("--top");
        const Run r = runCli(
            QStringList{show ? QStringLiteral("show") : QStringLiteral("export"), session} + extra);
        QCOMPARE(r.status, status);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY2(r.err.startsWith(QStringLiteral("bpflens-cli: ")), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
        QCOMPARE(r.out, QString());
    }

    void interruptLeavesACompleteFile()
    {
        BPFLENS_REQUIRE_ROOT("records BPF probes in-process");
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("ctrlc.bpflens"));
        QProcess recorder;
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       {QStringLiteral("record"), QStringLiteral("--probe"),
                        QStringLiteral("runqlat"), QStringLiteral("-o"), session});
        QVERIFY(waitForFile(session, recorder));
        QTest::qWait(1500);
        ::kill(pid_t(recorder.processId()), SIGINT);
        QVERIFY(recorder.waitForFinished(10000));
        QCOMPARE(recorder.exitStatus(), QProcess::NormalExit);
        QCOMPARE(recorder.exitCode(), 0);

        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
        QVERIFY(data.info.endMonotonicNs > data.info.startMonotonicNs);
        QVERIFY(!data.histograms.isEmpty());
        QCOMPARE(data.info.probes.size(), 1);
        QCOMPARE(
            data.info.probes.first().attachPath,
            QStringLiteral("tp_btf/sched_wakeup, tp_btf/sched_wakeup_new, tp_btf/sched_switch"));
    }

    // A recorder killed outright (SIGKILL, the OOM killer, a power cut) never writes its end
    // time: the file still opens with every committed batch, and show gives the duration up
    // to the last data it holds, saying the recording did not finish, instead of "0.0s".
    void killedRecordingShowsItsRealDuration()
    {
        BPFLENS_REQUIRE_ROOT("records BPF probes in-process");
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("killed.bpflens"));
        QProcess recorder;
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       {QStringLiteral("record"), QStringLiteral("--direct"),
                        QStringLiteral("--probe"), QStringLiteral("runqlat:interval=200"),
                        QStringLiteral("-o"), session});
        QVERIFY(waitForFile(session, recorder));
        QTest::qWait(2500);
        ::kill(pid_t(recorder.processId()), SIGKILL);
        QVERIFY(recorder.waitForFinished(10000));

        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
        QCOMPARE(data.info.endMonotonicNs, quint64(0));
        QVERIFY(!data.histograms.isEmpty());
        const Run shown = runCli({QStringLiteral("show"), session});
        QCOMPARE(shown.status, 0);
        const QRegularExpression duration(
            QStringLiteral("Duration  (\\d+\\.\\d)s \\(recording did not finish: up to its last "
                           "data\\)"));
        const QRegularExpressionMatch m = duration.match(shown.out);
        QVERIFY2(m.hasMatch(), qPrintable(shown.out));
        // Histograms every 200 ms for 2.5 s: the last one is at least 1.5 s in.
        QVERIFY2(m.captured(1).toDouble() >= 1.5, qPrintable(shown.out));
    }

    // The disk filling up during a recording (a 512 KiB tmpfs here) stops it with a clear
    // message; what was committed before stays readable and the recorder ends (nothing stays
    // attached).
    void fullDiskStopsTheRecordingAndKeepsWhatWasWritten()
    {
        BPFLENS_REQUIRE_ROOT("mounts a tmpfs and records BPF probes in-process");
        QTemporaryDir dir;
        const QString mnt = dir.filePath(QStringLiteral("small"));
        QVERIFY(QDir().mkpath(mnt));
        QVERIFY2(mount("tmpfs", mnt.toLocal8Bit().constData(), "tmpfs", 0, "size=512k") == 0,
                 strerror(errno));
        const auto unmount =
            qScopeGuard([&] { umount2(mnt.toLocal8Bit().constData(), MNT_DETACH); });
        const QString session = mnt + QStringLiteral("/full.bpflens");
        QProcess recorder;
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       {QStringLiteral("record"), QStringLiteral("--direct"),
                        QStringLiteral("--probe"),
                        QStringLiteral("open:pid=") + QString::number(getpid()),
                        QStringLiteral("-o"), session});
        QVERIFY(waitForFile(session, recorder));
        // Opens until the file system is full and the recorder gives up (each open event
        // takes some bytes: a few thousand fill 512 KiB). This process's only, at about 2000 a
        // second, so that several one-second transactions commit before one no longer fits:
        // recording every process's opens on a machine busy compiling, the first transaction
        // (16384 opens) was already too large and nothing was kept.
        for (int round = 0; round < 1000 && recorder.state() != QProcess::NotRunning; ++round) {
            for (int i = 0; i < 100; ++i) {
                QFile f(QStringLiteral("/etc/hostname"));
                QVERIFY(f.open(QIODevice::ReadOnly));
            }
            recorder.waitForFinished(50);
        }
        QVERIFY2(recorder.state() == QProcess::NotRunning || recorder.waitForFinished(10000),
                 "the recorder went on with a full disk");
        QCOMPARE(recorder.exitStatus(), QProcess::NormalExit);
        QVERIFY(recorder.exitCode() != 0);
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QVERIFY2(err.contains(QStringLiteral("the disk is full")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("what was written before is in")), qPrintable(err));
        SessionData data;
        QString error;
        QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
        QVERIFY(data.events.count(EventType::Open) > 100);
    }

    // Root without the capabilities BPF needs (a container that dropped them): the probe list
    // names what is missing for every probe, and record says the same, instead of EPERM.
    void missingCapabilitiesAreNamed()
    {
        BPFLENS_REQUIRE_ROOT("drops capabilities with setpriv");
        QTemporaryDir dir;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"),
                   QStringLiteral("unix:path=") + dir.filePath(QStringLiteral("no-bus")));
        const QStringList drop{QStringLiteral("--bounding-set=-all"),
                               QStringLiteral("--inh-caps=-all"), QStringLiteral(BPFLENS_CLI)};
        const Run listed =
            runCli(drop + QStringList{QStringLiteral("probes"), QStringLiteral("--json")},
                   QStringLiteral("setpriv"), env);
        QCOMPARE(listed.status, 0);
        const QJsonArray probes = QJsonDocument::fromJson(listed.out.toUtf8())
                                      .object()
                                      .value(QStringLiteral("probes"))
                                      .toArray();
        QVERIFY(probes.size() >= 9);
        for (const QJsonValue &p : probes) {
            const QJsonObject o = p.toObject();
            QVERIFY(!o.value(QStringLiteral("available")).toBool());
            QVERIFY2(o.value(QStringLiteral("reason"))
                         .toString()
                         .contains(QStringLiteral("lacks CAP_BPF and CAP_PERFMON")),
                     qPrintable(o.value(QStringLiteral("reason")).toString()));
        }
        const Run recorded = runCli(
            drop + QStringList{QStringLiteral("record"), QStringLiteral("--direct"),
                               QStringLiteral("--probe"), QStringLiteral("exec"),
                               QStringLiteral("--duration"), QStringLiteral("1s"),
                               QStringLiteral("-o"), dir.filePath(QStringLiteral("x.bpflens"))},
            QStringLiteral("setpriv"), env);
        QVERIFY(recorded.status != 0);
        QVERIFY2(recorded.err.contains(QStringLiteral("lacks CAP_BPF and CAP_PERFMON")),
                 qPrintable(recorded.err));
    }

    void errorsAreOneLineAndAStatus_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        QTemporaryDir dir;
        QTest::newRow("unknown command")
            << QStringList{QStringLiteral("frobnicate")} << 2 << "unknown command";
        QTest::newRow("no probe") << QStringList{QStringLiteral("record")} << 2
                                  << "name at least one --probe";
        QTest::newRow("unknown probe")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe"),
                           QStringLiteral("nosuch")}
            << 2 << "unknown probe \"nosuch\"";
        QTest::newRow("unknown option")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe"),
                           QStringLiteral("block:colour=red")}
            << 2 << "probe block has no option \"colour\"";
        QTest::newRow("bad bool") << QStringList{QStringLiteral("record"),
                                                 QStringLiteral("--probe"),
                                                 QStringLiteral("block:queued=maybe")}
                                  << 2 << "option queued: expects true or false";
        // A list value keeps its commas: 99999 is a bad port of the list, not an option, and
        // 443 is a port, so the next complaint is about colour.
        QTest::newRow("bad port in a list")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe"),
                           QStringLiteral("tcpconnect:pid=1,ports=80,99999")}
            << 2 << "option ports: \"99999\" is not a port";
        QTest::newRow("port list then an option")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe"),
                           QStringLiteral("tcpconnect:ports=80,443,colour=red")}
            << 2 << "probe tcpconnect has no option \"colour\"";
        QTest::newRow("bad flag in a list")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe"),
                           QStringLiteral("open:flags=O_WRONLY,O_CREAT,O_BOGUS,failedOnly")}
            << 2 << "option flags: \"O_BOGUS\" is not an open flag";
        QTest::newRow("pair hook not found")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe"),
                           QStringLiteral("tppair:start=u:/nonexistent/prog:main,end=sys_exit")}
            << 2 << "probe tppair, start u:/nonexistent/prog:main: cannot open /nonexistent/prog";
        QTest::newRow("out of range")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe"),
                           QStringLiteral("exec:pid=-5")}
            << 2 << "-5 is out of range";
        QTest::newRow("bad duration")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe"),
                           QStringLiteral("runqlat"), QStringLiteral("--duration"),
                           QStringLiteral("soon")}
            << 2 << "is not a duration";
        QTest::newRow("no such dir")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe"),
                           QStringLiteral("runqlat"), QStringLiteral("-o"),
                           QStringLiteral("/nonexistent/dir/x.bpflens")}
            << 1 << "does not exist";
        QTest::newRow("not a session")
            << QStringList{QStringLiteral("show"), QStringLiteral(BPFLENS_CLI)} << 4
            << "is not an SQLite database";
        QTest::newRow("missing file")
            << QStringList{QStringLiteral("show"), QStringLiteral("/nonexistent.bpflens")} << 4
            << "/nonexistent.bpflens";
        QTest::newRow("export without dir")
            << QStringList{QStringLiteral("export"), QStringLiteral("x.bpflens")} << 2
            << "needs --csv DIR";
        QTest::newRow("stream-fd not open")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe"),
                           QStringLiteral("exec"), QStringLiteral("--stream-fd"),
                           QStringLiteral("917")}
            << 2 << "--stream-fd 917 is not an open file descriptor";
        QTest::newRow("stream-fd not a number")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe"),
                           QStringLiteral("exec"), QStringLiteral("--stream-fd"),
                           QStringLiteral("pipe")}
            << 2 << "--stream-fd pipe is not an open file descriptor";
        QTest::newRow("stream-fd and output")
            << QStringList{QStringLiteral("record"),   QStringLiteral("--probe"),
                           QStringLiteral("exec"),     QStringLiteral("--stream-fd"),
                           QStringLiteral("2"),        QStringLiteral("-o"),
                           QStringLiteral("x.bpflens")}
            << 2 << "--stream-fd and --output exclude each other";
        QTest::newRow("probe-json not an object")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe-json"),
                           QStringLiteral("[1,2]")}
            << 2 << "--probe-json [1,2]: expected";
        QTest::newRow("probe-json bad option")
            << QStringList{QStringLiteral("record"), QStringLiteral("--probe-json"),
                           QStringLiteral("{\"id\": \"exec\", \"options\": {\"pid\": \"x\"}}")}
            << 2 << "option pid: expects a whole number";
    }

    void errorsAreOneLineAndAStatus()
    {
        QFETCH(QStringList, args);
        QFETCH(int, status);
        QFETCH(QString, message);
        const Run r = runCli(args);
        QCOMPARE(r.status, status);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY2(r.err.startsWith(QStringLiteral("bpflens-cli: ")), qPrintable(r.err));
        QCOMPARE(r.err.count(QLatin1Char('\n')), 1);
    }

    void existingOutputIsKeptUnlessForced()
    {
        BPFLENS_REQUIRE_ROOT("records BPF probes in-process");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("keep.bpflens"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("precious");
        f.close();
        const Run r = runCli({QStringLiteral("record"), QStringLiteral("--probe"),
                              QStringLiteral("runqlat"), QStringLiteral("--duration"),
                              QStringLiteral("1s"), QStringLiteral("-o"), path});
        QCOMPARE(r.status, 1);
        QVERIFY(r.err.contains(QStringLiteral("already exists")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("precious"));
    }

    // The same recorder through bpflens-helper on a (private) system bus: the helper holds the
    // BPF programs, the CLI only reads the stream and writes the file.
    void recordThroughTheHelper()
    {
        BPFLENS_REQUIRE_ROOT("runs the helper, which loads BPF programs");
        test::TestBus bus;
        QString error;
        QVERIFY2(bus.start(&error), qPrintable(error));
        const QString session = bus.dir() + QStringLiteral("/helper.bpflens");
        const QString tag = QStringLiteral("clih%1").arg(getpid() % 100000);
        const QString program = bus.dir() + QLatin1Char('/') + tag;
        QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
        QFile::setPermissions(program, QFileDevice::ExeOwner | QFileDevice::ReadOwner);
        const QString opened = bus.dir() + QStringLiteral("/opened-") + tag;
        QVERIFY(QFile(opened).open(QIODevice::WriteOnly));

        QProcess recorder;
        recorder.setProcessEnvironment(bus.environment());
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       {QStringLiteral("record"), QStringLiteral("--probe"),
                        QStringLiteral("exec:comm=") + tag, QStringLiteral("--probe"),
                        QStringLiteral("open:pid=") + QString::number(getpid()),
                        QStringLiteral("--probe"), QStringLiteral("block"), QStringLiteral("-o"),
                        session});
        QVERIFY2(waitForFile(session, recorder), recorder.readAllStandardError().constData());
        const qint64 helper = bus.helperPid();
        QVERIFY(helper > 0);
        QVERIFY(test::bpfObjectsOf(helper).programs >= 3);
        QCOMPARE(test::bpfObjectsOf(recorder.processId()).total(), 0);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(QProcess::execute(program, {}), 0);
        for (int i = 0; i < 4; ++i) {
            QFile f(opened);
            QVERIFY(f.open(QIODevice::ReadOnly));
        }
        // Stopped when the work is done (see recordShowExport); --duration is checked below.
        ::kill(pid_t(recorder.processId()), SIGINT);
        QVERIFY(recorder.waitForFinished(30000));
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QCOMPARE(recorder.exitCode(), 0);
        // Nothing dropped. The block probe sees the whole machine's disks: under other tests'
        // I/O the kernel may skip its completion program ("N not seen"), which is no loss of
        // this test's exec and open events (counted exactly below).
        QVERIFY2(
            QRegularExpression(
                QStringLiteral(" events \\(0 lost(, \\d+ not seen)?(, \\d+ unfinished)?\\) into "))
                .match(err)
                .hasMatch(),
            qPrintable(err));
        QCOMPARE(test::bpfObjectsOf(helper).total(), 0);

        const Run shown = runCli({QStringLiteral("show"), session});
        QCOMPARE(shown.status, 0);
        QVERIFY2(shown.out.contains(QStringLiteral("exec        events 3, lost 0")),
                 qPrintable(shown.out));
        QVERIFY(shown.out.contains(QStringLiteral("via tp_btf/sched_process_exec")));
        SessionData data;
        QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
        int opens = 0;
        for (qsizetype i = 0; i < data.events.count(EventType::Open); ++i)
            opens += data.events.open(i).path == opened.toUtf8() ? 1 : 0;
        QCOMPARE(opens, 4);

        // --duration through the helper: the recording ends on its own, no sooner.
        const QString timed = bus.dir() + QStringLiteral("/timed.bpflens");
        QProcess third;
        third.setProcessEnvironment(bus.environment());
        third.start(QStringLiteral(BPFLENS_CLI),
                    {QStringLiteral("record"), QStringLiteral("--probe"), QStringLiteral("runqlat"),
                     QStringLiteral("--duration"), QStringLiteral("2s"), QStringLiteral("-o"),
                     timed});
        QVERIFY(third.waitForFinished(60000));
        QCOMPARE(third.exitCode(), 0);
        SessionData timedData;
        QVERIFY2(SessionReader::open(timed, &timedData, &error), qPrintable(error));
        QVERIFY(timedData.info.endMonotonicNs - timedData.info.startMonotonicNs >= 2000000000ull);
        QCOMPARE(test::bpfObjectsOf(helper).total(), 0);

        // Ctrl-C: Stop, the end frame, a finished file.
        const QString interrupted = bus.dir() + QStringLiteral("/ctrlc.bpflens");
        QProcess second;
        second.setProcessEnvironment(bus.environment());
        second.start(QStringLiteral(BPFLENS_CLI),
                     {QStringLiteral("record"), QStringLiteral("--probe"),
                      QStringLiteral("runqlat"), QStringLiteral("-o"), interrupted});
        QVERIFY(waitForFile(interrupted, second));
        QTest::qWait(1500);
        ::kill(pid_t(second.processId()), SIGINT);
        QVERIFY(second.waitForFinished(10000));
        QCOMPARE(second.exitCode(), 0);
        QCOMPARE(test::bpfObjectsOf(helper).total(), 0);
        SessionData ctrlc;
        QVERIFY2(SessionReader::open(interrupted, &ctrlc, &error), qPrintable(error));
        QVERIFY(ctrlc.info.endMonotonicNs > ctrlc.info.startMonotonicNs);
        QVERIFY(!ctrlc.histograms.isEmpty());
    }

    // Every tppair event the helper streams reaches the session file and its CSV. The
    // stream->file step once listed the event types by hand and left tppair's out (before
    // db940fc), which this catches: the workload's fsyncs are counted exactly.
    void tppairThroughTheHelperKeepsEveryEvent()
    {
        BPFLENS_REQUIRE_ROOT("runs the helper, which loads BPF programs");
        test::TestBus bus;
        QString error;
        QVERIFY2(bus.start(&error), qPrintable(error));
        // ext4's tracepoints fire for files on ext4: a directory on the disk, not a tmpfs.
        QTemporaryDir work(test::diskTestDirectory(QStringLiteral("/var/tmp")) +
                           QStringLiteral("/bpflens-cli-XXXXXX"));
        QVERIFY(work.isValid());
        const QString session = bus.dir() + QStringLiteral("/tppair.bpflens");

        QProcess recorder;
        recorder.setProcessEnvironment(bus.environment());
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       {QStringLiteral("record"), QStringLiteral("--probe"), fsyncPairSpec(),
                        QStringLiteral("-o"), session});
        if (!waitForFile(session, recorder)) {
            const QString err = QString::fromUtf8(recorder.readAllStandardError());
            if (err.contains(QStringLiteral("ext4_sync_file_enter")))
                QSKIP(qPrintable(QStringLiteral("this kernel cannot pair ext4's fsync "
                                                "tracepoints: ") +
                                 err.trimmed()));
            QFAIL(qPrintable(err));
        }
        constexpr int fsyncs = 25;
        QVERIFY(dirtyFsyncs(work.filePath(QStringLiteral("synced")), fsyncs));
        ::kill(pid_t(recorder.processId()), SIGINT);
        QVERIFY(recorder.waitForFinished(30000));
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QVERIFY2(recorder.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("Recorded %1 events (0 lost) into ").arg(fsyncs)),
                 qPrintable(err));

        SessionData data;
        QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
        // What the helper's probe counted travels in the same stream, as its stats.
        quint64 streamed = 0;
        for (const ProbeStats &st : std::as_const(data.stats))
            if (st.probeId == QLatin1String("tppair"))
                streamed = qMax(streamed, st.eventsSeen);
        QCOMPARE(streamed, quint64(fsyncs));
        QCOMPARE(data.events.count(EventType::TpPair), qsizetype(fsyncs));
        for (qsizetype i = 0; i < fsyncs; ++i) {
            QCOMPARE(data.events.pid(EventType::TpPair, i), quint32(getpid()));
            QVERIFY(data.events.tpPair(i).latencyNs > 0);
        }

        const QString csvDir = bus.dir() + QStringLiteral("/tppair-csv");
        const Run exported =
            runCli({QStringLiteral("export"), session, QStringLiteral("--csv"), csvDir});
        QCOMPARE(exported.status, 0);
        QCOMPARE(csvRows(csvDir + QStringLiteral("/tppair.csv")).size(), fsyncs + 1);
    }

    // funclatency for a user function through the helper: the CLI resolves u:/ur: as the user
    // and hands the helper the file; every call of bpflens_sleep(2000) is a pair of at least
    // 2 ms.
    void userFunctionPairThroughTheHelper()
    {
        BPFLENS_REQUIRE_ROOT("runs the helper, which loads BPF programs");
        test::TestBus bus;
        QString error;
        QVERIFY2(bus.start(&error), qPrintable(error));
        const QString session = bus.dir() + QStringLiteral("/upair.bpflens");
        const QString fn = QStringLiteral(BPFLENS_UPROBETARGET ":bpflens_sleep");
        QProcess recorder;
        recorder.setProcessEnvironment(bus.environment());
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       {QStringLiteral("record"), QStringLiteral("--probe"),
                        QStringLiteral("tppair:start=u:%1,end=ur:%1,thresholdUs=0").arg(fn),
                        QStringLiteral("-o"), session});
        QVERIFY2(waitForFile(session, recorder),
                 qPrintable(QString::fromUtf8(recorder.readAllStandardError())));
        constexpr int calls = 7;
        QCOMPARE(QProcess::execute(QStringLiteral(BPFLENS_UPROBETARGET),
                                   {QStringLiteral("sleep:2000:7")}),
                 0);
        ::kill(pid_t(recorder.processId()), SIGINT);
        QVERIFY(recorder.waitForFinished(30000));
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QVERIFY2(recorder.exitCode() == 0, qPrintable(err));
        SessionData data;
        QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
        QCOMPARE(data.events.count(EventType::TpPair), qsizetype(calls));
        for (qsizetype i = 0; i < calls; ++i)
            QVERIFY(data.events.tpPair(i).latencyNs >= 2000 * 1000);
    }

    // A pair whose sides are in two binaries through the helper: the CLI hands over both files
    // (two descriptors in one D-Bus call), from bpflens_sleep's entry in uprobetarget to the
    // return of libc's nanosleep it calls. Other processes' nanosleeps start no pair.
    void pairAcrossTwoBinariesThroughTheHelper()
    {
        BPFLENS_REQUIRE_ROOT("runs the helper, which loads BPF programs");
        test::TestBus bus;
        QString error;
        QVERIFY2(bus.start(&error), qPrintable(error));
        const QString session = bus.dir() + QStringLiteral("/upair2.bpflens");
        QProcess recorder;
        recorder.setProcessEnvironment(bus.environment());
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       {QStringLiteral("record"), QStringLiteral("--probe"),
                        QStringLiteral("tppair:start=u:%1:bpflens_sleep,end=ur:libc:nanosleep,"
                                       "thresholdUs=0")
                            .arg(QStringLiteral(BPFLENS_UPROBETARGET)),
                        QStringLiteral("-o"), session});
        QVERIFY2(waitForFile(session, recorder),
                 qPrintable(QString::fromUtf8(recorder.readAllStandardError())));
        constexpr int calls = 6;
        QCOMPARE(QProcess::execute(QStringLiteral(BPFLENS_UPROBETARGET),
                                   {QStringLiteral("sleep:3000:6")}),
                 0);
        ::kill(pid_t(recorder.processId()), SIGINT);
        QVERIFY(recorder.waitForFinished(30000));
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QVERIFY2(recorder.exitCode() == 0, qPrintable(err));
        SessionData data;
        QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
        QCOMPARE(data.events.count(EventType::TpPair), qsizetype(calls));
        for (qsizetype i = 0; i < calls; ++i) {
            const quint64 ns = data.events.tpPair(i).latencyNs;
            QVERIFY2(ns >= 3000 * 1000 && ns < 1000ull * 1000 * 1000,
                     qPrintable(QString::number(ns)));
        }
    }

    // Every event type reaches the user by each way bpflens-cli records: through the helper
    // and in-process into a session file (then its CSV export), and with --stream-fd into the
    // stream the window reads. The types come from BPFLENS_EVENT_TYPES: one added there that no
    // workload below produces fails here by name, and one this kernel cannot record skips with
    // the reason `bpflens-cli probes` gives, after every other type was checked.
    void everyEventTypeThroughEveryPath_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("through the helper") << QStringLiteral("helper");
        QTest::newRow("in-process") << QStringLiteral("direct");
        QTest::newRow("stream-fd") << QStringLiteral("stream-fd");
    }

    void everyEventTypeThroughEveryPath()
    {
        QFETCH(QString, path);
        BPFLENS_REQUIRE_ROOT("loads BPF programs, itself or through the helper");
        std::optional<test::TestBus> bus;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        QString error;
        if (path == QLatin1String("helper")) {
            bus.emplace();
            QVERIFY2(bus->start(&error), qPrintable(error));
            env = bus->environment();
        }
        // Block I/O and ext4's tracepoints need files on the disk, not a tmpfs.
        QTemporaryDir work(test::diskTestDirectory(QStringLiteral("/var/tmp")) +
                           QStringLiteral("/bpflens-cli-XXXXXX"));
        QVERIFY(work.isValid());
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost));
        const QString tag = QStringLiteral("clie%1").arg(getpid() % 100000);
        const QString program = work.filePath(tag);
        QVERIFY(QFile::copy(QStringLiteral("/bin/true"), program));
        QFile::setPermissions(program, QFileDevice::ExeOwner | QFileDevice::ReadOwner);
        const QString opened = work.filePath(QStringLiteral("opened"));
        QVERIFY(QFile(opened).open(QIODevice::WriteOnly));
        const QString me = QString::number(getpid());

        // A connect to this process's own listener, accepted: a TCP connect and a TCP accept.
        const auto loopbackConnection = [&] {
            QTcpSocket socket;
            socket.connectToHost(QHostAddress::LocalHost, server.serverPort());
            const bool ok = socket.waitForConnected(5000) && server.waitForNewConnection(5000);
            delete server.nextPendingConnection();
            return ok;
        };
        // Per type: the options of its probe (CsvExport::probeIdFor) and work that makes at
        // least one event of it, all from this test's processes.
        struct Workload
        {
            QString options;
            std::function<bool()> run;
        };
        // The memleak probe's process: a test program that allocates on command ('g', answered
        // 'd'; tests/engine/memleak/leaker.c), not this test, whose allocator a sanitizer may
        // have replaced.
        QProcess leaker;
        leaker.start(QStringLiteral(BPFLENS_LEAKER), {QStringLiteral("5")});
        QVERIFY2(leaker.waitForReadyRead(10000) && leaker.read(1) == "r",
                 qPrintable(leaker.errorString()));
        const std::map<EventType, Workload> workloads = {
            {EventType::Exec,
             {QStringLiteral("comm=") + tag, [&] { return QProcess::execute(program, {}) == 0; }}},
            {EventType::Open,
             {QStringLiteral("pid=") + me,
              [&] {
                  QFile f(opened);
                  return f.open(QIODevice::ReadOnly);
              }}},
            {EventType::Block,
             {QStringLiteral("pid=") + me,
              [&] { return directWrite(work.filePath(QStringLiteral("direct"))); }}},
            {EventType::TcpConnect, {QStringLiteral("pid=") + me, loopbackConnection}},
            {EventType::TcpAccept, {QStringLiteral("pid=") + me, loopbackConnection}},
            {EventType::TcpRetrans, {QStringLiteral("pid=") + me, synRetransmit}},
            {EventType::TcpLife, {QStringLiteral("pid=") + me, loopbackConnection}},
            // Threshold 0: any fsync is slow enough.
            {EventType::FsSlow,
             {QStringLiteral("pid=%1,minLatencyUs=0").arg(me),
              [&] { return dirtyFsyncs(work.filePath(QStringLiteral("fsslower")), 2); }}},
            // The default pair, sys_enter to sys_exit by thread: every kernel of the matrix has
            // it (5.10's guest has no ext4 tracepoints); the exact count is
            // tppairThroughTheHelperKeepsEveryEvent's.
            {EventType::TpPair,
             {QStringLiteral("pid=%1,thresholdUs=0").arg(me),
              [&] { return dirtyFsyncs(work.filePath(QStringLiteral("tppair")), 2); }}},
            // 300 ms of spinning at 499 Hz: a loaded machine still gives it tens of samples.
            {EventType::CpuSample,
             {QStringLiteral("pid=%1,frequency=499").arg(me),
              [&] {
                  QElapsedTimer t;
                  t.start();
                  volatile quint64 spins = 0;
                  while (t.elapsed() < 300)
                      spins = spins + 1;
                  return spins > 0;
              }}},
            // Two timed calls of a test program's function, each an event with threshold 0.
            {EventType::UprobeCall,
             {QStringLiteral("target=%1:bpflens_sleep,latency,thresholdUs=0")
                  .arg(QStringLiteral(BPFLENS_UPROBETARGET)),
              [&] {
                  return QProcess::execute(QStringLiteral(BPFLENS_UPROBETARGET),
                                           {QStringLiteral("sleep:100:2")}) == 0;
              }}},
            // Two hits of a test program's USDT probe, each an event.
            {EventType::Usdt,
             {QStringLiteral("target=%1:bpflens:tick").arg(QStringLiteral(BPFLENS_USDTTARGET)),
              [&] {
                  return QProcess::execute(QStringLiteral(BPFLENS_USDTTARGET),
                                           {QStringLiteral("tick:a:1:2")}) == 0;
              }}},
            {EventType::OffCpu,
             {QStringLiteral("pid=%1,minUs=1000").arg(me),
              [&] {
                  for (int i = 0; i < 3; ++i)
                      QThread::msleep(20);
                  return true;
              }}},
            // The same sleeps, each woken by the timer's interrupt.
            {EventType::OffWake,
             {QStringLiteral("pid=%1,minUs=1000").arg(me),
              [&] {
                  for (int i = 0; i < 3; ++i)
                      QThread::msleep(20);
                  return true;
              }}},
            // A child of this test OOM-killed in a 32 MiB memory cgroup.
            {EventType::OomKill,
             {QStringLiteral("comm=") + tag + QStringLiteral("oom"),
              [&] {
                  QString why;
                  const bool ok = test::oomKilledChild(
                      "bpflens-cli-oom-" + QByteArray::number(getpid()),
                      (tag + QStringLiteral("oom")).toLatin1().constData(), &why);
                  if (!ok)
                      qWarning("oomkill workload: %s", qPrintable(why));
                  return ok;
              }}},
            // The copy of /bin/true faulting in its pages as it starts (the exec workload's
            // program: its comm is the tag).
            {EventType::PageFault,
             {QStringLiteral("comm=") + tag, [&] { return QProcess::execute(program, {}) == 0; }}},
            // This test's threads sleeping: each sleep a blocked span woken by the timer.
            {EventType::ThreadState,
             {QStringLiteral("pid=%1").arg(me),
              [&] {
                  for (int i = 0; i < 3; ++i)
                      QThread::msleep(20);
                  return true;
              }}},
            // The leaker's blocks: 5 freed at once, the others kept.
            {EventType::Allocation,
             {QStringLiteral("pid=%1").arg(leaker.processId()),
              [&] {
                  return leaker.write("g") == 1 && leaker.waitForReadyRead(10000) &&
                         leaker.read(1) == "d";
              }}},
            // A child of this test reclaiming its page cache in a 16 MiB memory cgroup.
            {EventType::Reclaim,
             {QStringLiteral("comm=") + tag + QStringLiteral("rcl"),
              [&] {
                  QString why;
                  const bool ok = test::childReclaimsPageCache(
                      "bpflens-cli-reclaim-" + QByteArray::number(getpid()),
                      (tag + QStringLiteral("rcl")).toLatin1().constData(), work.path(), &why);
                  if (!ok)
                      qWarning("reclaim workload: %s", qPrintable(why));
                  return ok;
              }}},
        };

        // What this kernel can record, as the helper (or, as root without it, the CLI) says.
        const Run listed = runCli({QStringLiteral("probes"), QStringLiteral("--json")},
                                  QStringLiteral(BPFLENS_CLI), env);
        QVERIFY2(listed.status == 0, qPrintable(listed.err));
        QHash<QString, QString> unavailable;
        const QJsonArray probes = QJsonDocument::fromJson(listed.out.toUtf8())
                                      .object()
                                      .value(QStringLiteral("probes"))
                                      .toArray();
        QVERIFY(!probes.isEmpty());
        for (const QJsonValue &v : probes) {
            const QJsonObject o = v.toObject();
            if (!o.value(QStringLiteral("available")).toBool())
                unavailable.insert(o.value(QStringLiteral("id")).toString(),
                                   o.value(QStringLiteral("reason")).toString());
        }

        QStringList problems;
        QStringList cannot;
        QStringList args{QStringLiteral("record")};
        QList<EventType> recorded;
        for (const EventType type : eventTypes) {
            const auto it = workloads.find(type);
            const QString probe = CsvExport::probeIdFor(type);
            if (it == workloads.end()) {
                problems << QStringLiteral("%1 (probe %2): no workload in this test makes one")
                                .arg(eventTypeName(type), probe);
                continue;
            }
            if (unavailable.contains(probe)) {
                cannot << QStringLiteral("%1: this kernel cannot run probe %2: %3")
                              .arg(eventTypeName(type), probe, unavailable.value(probe));
                continue;
            }
            args << QStringLiteral("--probe") << probe + QLatin1Char(':') + it->second.options;
            recorded << type;
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("; "))));
        QVERIFY2(!recorded.isEmpty(), qPrintable(cannot.join(QStringLiteral("; "))));
        auto runWorkloads = [&] {
            for (const EventType type : std::as_const(recorded)) {
                if (!workloads.at(type).run())
                    return eventTypeName(type) + QStringLiteral(": the workload failed");
            }
            return QString();
        };

        // Per type, what the user gets: events in the file and rows in its CSV, or events in
        // the stream.
        std::map<EventType, qsizetype> found;
        std::map<EventType, qsizetype> csvFound;
        QProcess recorder;
        recorder.setProcessEnvironment(env);
        if (path == QLatin1String("stream-fd")) {
            // The window's way: the stream written into an inherited fd (3 here).
            int fds[2];
            QVERIFY(::pipe2(fds, O_CLOEXEC) == 0);
            const int writeEnd = fds[1];
            recorder.setChildProcessModifier([writeEnd] { ::dup2(writeEnd, 3); });
            recorder.start(QStringLiteral(BPFLENS_CLI),
                           args + QStringList{QStringLiteral("--stream-fd"), QStringLiteral("3")});
            ::close(writeEnd);
            StreamReader reader;
            auto readUntil = [&](const std::function<bool()> &done) {
                for (int i = 0; i < 3000 && !done() && !reader.hasError(); ++i) {
                    pollfd p{fds[0], POLLIN, 0};
                    if (::poll(&p, 1, 20) > 0 &&
                        reader.readFrom(fds[0]) == StreamReader::ReadResult::Closed)
                        break;
                    while (reader.hasMessage()) {
                        const StreamMessage m = reader.takeMessage();
                        forEachEventType([&]<typename E>() {
                            found[eventTypeOf<E>] += m.batch.events<E>().size();
                        });
                    }
                }
            };
            // The hello frame comes once every probe is attached.
            readUntil([&] { return reader.hasHello(); });
            QVERIFY2(reader.hasHello(), recorder.readAllStandardError().constData());
            const QString failed = runWorkloads();
            ::kill(pid_t(recorder.processId()), SIGINT);
            readUntil([&] { return reader.atEnd(); });
            ::close(fds[0]);
            QVERIFY2(failed.isEmpty(), qPrintable(failed));
            QVERIFY2(reader.atEnd(), qPrintable(reader.errorString()));
            QVERIFY(recorder.waitForFinished(30000));
        } else {
            const QString session = work.filePath(QStringLiteral("every.bpflens"));
            if (path == QLatin1String("direct"))
                args << QStringLiteral("--direct");
            recorder.start(QStringLiteral(BPFLENS_CLI),
                           args + QStringList{QStringLiteral("-o"), session});
            QVERIFY2(waitForFile(session, recorder), recorder.readAllStandardError().constData());
            const QString failed = runWorkloads();
            ::kill(pid_t(recorder.processId()), SIGINT);
            QVERIFY(recorder.waitForFinished(30000));
            QVERIFY2(failed.isEmpty(), qPrintable(failed));
            SessionData data;
            QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
            const QString csvDir = work.filePath(QStringLiteral("csv"));
            const Run exported =
                runCli({QStringLiteral("export"), session, QStringLiteral("--csv"), csvDir});
            QVERIFY2(exported.status == 0, qPrintable(exported.err));
            for (const EventType type : std::as_const(recorded)) {
                found[type] = data.events.count(type);
                csvFound[type] =
                    csvRows(csvDir + QLatin1Char('/') + CsvExport::fileNameFor(type)).size() - 1;
            }
        }
        const QString err = QString::fromUtf8(recorder.readAllStandardError());
        QVERIFY2(recorder.exitStatus() == QProcess::NormalExit && recorder.exitCode() == 0,
                 qPrintable(err));

        const QString where = path == QLatin1String("stream-fd")
                                  ? QStringLiteral("the stream")
                                  : QStringLiteral("the session file");
        for (const EventType type : std::as_const(recorded)) {
            if (found[type] == 0)
                problems << QStringLiteral("%1: no event in %2").arg(eventTypeName(type), where);
            else if (csvFound.count(type) && csvFound[type] != found[type])
                problems << QStringLiteral("%1: %2 in the session file, %3 rows in %4")
                                .arg(eventTypeName(type))
                                .arg(found[type])
                                .arg(csvFound[type])
                                .arg(CsvExport::fileNameFor(type));
        }
        QVERIFY2(problems.isEmpty(),
                 qPrintable(problems.join(QStringLiteral("; ")) + QStringLiteral("\n") + err));
        if (!cannot.isEmpty())
            QSKIP(qPrintable(QStringLiteral("every other type was recorded; ") +
                             cannot.join(QStringLiteral("; "))));
    }

    void helperErrorsAreOneLineAndAStatus()
    {
        BPFLENS_REQUIRE_ROOT("runs the helper and switches users");
        test::TestBus bus;
        QString error;
        QVERIFY2(bus.start(&error), qPrintable(error));
        const QString cli = bus.publicCopy(QStringLiteral(BPFLENS_CLI));
        const QString out = bus.dir() + QStringLiteral("/out");
        QVERIFY(QDir().mkpath(out));
        QFile::setPermissions(out, QFileDevice::Permissions(0x7777));
        auto as = [&](const QString &user, const QStringList &args) {
            const QString group =
                user == QLatin1String("nobody") ? QStringLiteral("nogroup") : user;
            return runCli(QStringList{QStringLiteral("--reuid=") + user,
                                      QStringLiteral("--regid=") + group,
                                      QStringLiteral("--clear-groups"), cli} +
                              args,
                          QStringLiteral("setpriv"), bus.environment());
        };
        struct Case
        {
            const char *user;
            QStringList args;
            int status;
            const char *message;
        };
        const QString file = out + QStringLiteral("/x.bpflens");
        const QList<Case> cases = {
            {"nobody",
             {QStringLiteral("record"), QStringLiteral("--probe"), QStringLiteral("exec"),
              QStringLiteral("-o"), file},
             3,
             "not authorised: polkit denied io.github.bpflens.trace"},
            {"nobody",
             {QStringLiteral("record"), QStringLiteral("--direct"), QStringLiteral("--probe"),
              QStringLiteral("exec"), QStringLiteral("-o"), file},
             3,
             "--direct runs the probes in this process, which needs root"},
            // Valid for the catalog, refused by the helper for this machine.
            {"daemon",
             {QStringLiteral("record"), QStringLiteral("--probe"),
              QStringLiteral("block:disk=nosuchdisk7"), QStringLiteral("-o"), file},
             2,
             "no disk named \"nosuchdisk7\""},
            {"daemon",
             {QStringLiteral("record"), QStringLiteral("--probe"), QStringLiteral("exec"),
              QStringLiteral("--duration"), QStringLiteral("1s"), QStringLiteral("-o"),
              QStringLiteral("/proc/x.bpflens")},
             1,
             "cannot write /proc/x.bpflens: the directory /proc is not writable"},
            {"daemon", {QStringLiteral("show"), cli}, 4, "is not an SQLite database"},
        };
        for (const Case &c : cases) {
            const Run r = as(QLatin1String(c.user), c.args);
            const QString what = QLatin1String(c.user) + QLatin1Char(' ') +
                                 c.args.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err;
            QVERIFY2(r.status == c.status, qPrintable(what));
            QVERIFY2(r.err.contains(QLatin1String(c.message)), qPrintable(what));
            QVERIFY2(r.err.startsWith(QStringLiteral("bpflens-cli: ")), qPrintable(what));
            QVERIFY2(r.err.count(QLatin1Char('\n')) == 1, qPrintable(what));
            QVERIFY(!QFile::exists(file));
        }
        // Nothing stays attached after any of them.
        if (const qint64 helper = bus.helperPid())
            QTRY_COMPARE(test::bpfObjectsOf(helper).total(), 0);
    }

    void unprivilegedRecordSaysWhy()
    {
        BPFLENS_REQUIRE_ROOT("switches to the user nobody");
        // nobody cannot run binaries under a 0700 home: copy the CLI to a world-readable dir.
        QTemporaryDir dir;
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                              QFileDevice::ExeOwner | QFileDevice::ReadOther |
                                              QFileDevice::ExeOther | QFileDevice::ReadGroup |
                                              QFileDevice::ExeGroup);
        const QString copy = dir.filePath(QStringLiteral("bpflens-cli"));
        QVERIFY(QFile::copy(QStringLiteral(BPFLENS_CLI), copy));
        // No helper to reach, whatever this machine has: a system bus (and a helper on it)
        // would otherwise take the user to polkit instead.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"),
                   QStringLiteral("unix:path=") + dir.filePath(QStringLiteral("no-bus")));
        const Run r = runCli({QStringLiteral("--reuid=nobody"), QStringLiteral("--regid=nogroup"),
                              QStringLiteral("--clear-groups"), copy, QStringLiteral("record"),
                              QStringLiteral("--probe"), QStringLiteral("exec"),
                              QStringLiteral("-o"), dir.filePath(QStringLiteral("x.bpflens"))},
                             QStringLiteral("setpriv"), env);
        QCOMPARE(r.status, 3);
        QVERIFY2(r.err.contains(QStringLiteral("recording needs root")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("install bpflens-helper")), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("x.bpflens"))));
    }

    // The offwake probe's waits in a session file: folded in offwaketime -f's form, queryable by
    // their waker's fields, and in offwake.csv with them (#33).
    void offWakeExportsAndQueries()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("offwake.bpflens"));
        SessionInfo info = sessionInfoForThisHost(
            {{QString::fromLatin1(EventTraits<OffWakeEvent>::probeId), {}, {}}});
        info.startMonotonicNs = 1000000000ull;
        SessionWriter writer;
        QString err;
        QVERIFY2(writer.create(session, info, &err), qPrintable(err));
        // The known profile's stacks (1 main;chain_a;leaf_spin, 2 main;chain_a, 3
        // main;ksys_read): reader blocked in the read, woken by app from chain_a twice (1.5 us
        // each), and once by the timer's interrupt (2 us); one wait without a wakeup.
        RecordBatch b = knownProfile();
        b.cpuSample.clear();
        b.offCpu.clear();
        auto wait = [&](quint64 t, quint64 off, quint32 waker, const char *wakerComm,
                        quint32 wakerStack) {
            OffWakeEvent e;
            e.timeNs = t;
            e.offNs = off;
            e.pid = e.tid = 200;
            e.stackId = 3;
            e.comm = "reader";
            e.wakeNs = wakerComm[0] ? t + off - 100 : 0;
            e.wakerPid = e.wakerTid = waker;
            e.wakerComm = wakerComm;
            e.wakerStackId = wakerStack;
            b.events<OffWakeEvent>().append(e);
        };
        wait(1100000000ull, 1500, 100, "app", 2);
        wait(1200000000ull, 1500, 100, "app", 2);
        wait(1300000000ull, 2000, 0, "[irq]", 0);
        wait(1400000000ull, 7000, 0, "", 0);
        QVERIFY2(writer.writeBatch(b, &err), qPrintable(err));
        QVERIFY(writer.finish(2000000000ull, &err));
        writer.close();

        const Run folded = runCli({QStringLiteral("export"), session, QStringLiteral("--folded"),
                                   QStringLiteral("--off-wake")});
        QCOMPARE(folded.status, 0);
        QCOMPARE(folded.out, QStringLiteral("reader;main;ksys_read;--;[irq] 2\n"
                                            "reader;main;ksys_read;--;[unknown waker] 7\n"
                                            "reader;main;ksys_read;--;chain_a;main;app 3\n"));
        const Run kernel = runCli({QStringLiteral("export"), session, QStringLiteral("--folded"),
                                   QStringLiteral("--off-wake"), QStringLiteral("--kernel-only")});
        QCOMPARE(kernel.status, 0);
        QVERIFY2(kernel.out.contains(QStringLiteral("reader;ksys_read;--;app 3\n")),
                 qPrintable(kernel.out));
        const Run both = runCli({QStringLiteral("export"), session, QStringLiteral("--folded"),
                                 QStringLiteral("--off-wake"), QStringLiteral("--off-cpu")});
        QCOMPARE(both.status, 2);
        QVERIFY2(both.err.contains(QStringLiteral("exclude each other")), qPrintable(both.err));
        const Run noOffCpu = runCli({QStringLiteral("export"), session, QStringLiteral("--folded"),
                                     QStringLiteral("--off-cpu")});
        QVERIFY(noOffCpu.status != 0);

        const Run query = runCli(
            {QStringLiteral("query"), session,
             QStringLiteral("SELECT waker_comm, waker_tid, count(*) AS n, sum(off_ns) AS off, "
                            "sum(wake_ns > 0) AS woken, max(wake_delay_ns) AS delay FROM offwake "
                            "GROUP BY waker_comm ORDER BY waker_comm"),
             QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(query.status, 0);
        QCOMPARE(query.out, QStringLiteral("waker_comm,waker_tid,n,off,woken,delay\r\n"
                                           ",0,1,7000,0,0\r\n"
                                           "[irq],0,1,2000,1,100\r\n"
                                           "app,100,2,3000,2,100\r\n"));

        const QString csvDir = dir.filePath(QStringLiteral("csv"));
        const Run csv =
            runCli({QStringLiteral("export"), session, QStringLiteral("--csv"), csvDir});
        QCOMPARE(csv.status, 0);
        QFile offwake(csvDir + QStringLiteral("/offwake.csv"));
        QVERIFY(offwake.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = offwake.readAll().split('\n');
        QVERIFY2(lines.size() >= 5, lines.join('|').constData());
        QCOMPARE(lines[0].trimmed(),
                 QByteArray("time_s,time,pid,tid,comm,off_ns,stack_id,waker_comm,waker_pid,"
                            "waker_tid,wake_ns,wake_delay_ns,waker_stack_id,cgroup_id"));
        QVERIFY2(
            lines[1].trimmed().endsWith(",200,200,reader,1500,3,app,100,100,1100001400,100,2,0"),
            lines[1].constData());
        QVERIFY(QFile::exists(csvDir + QStringLiteral("/stacks.csv")));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
