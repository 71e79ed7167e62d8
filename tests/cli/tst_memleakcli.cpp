// The memleak probe's allocations through bpflens-cli, as a user reads them (#34 parts 1 and 4):
// export --folded --allocations (bytes in use, --alloc-space, --by-process, --from/--to), the
// heap profile of export --pprof read by the real `go tool pprof`, show's stacks and functions
// by bytes in use, and diff's bytes in use of two sessions.
// - writtenSession: a session of known blocks written here: each output exactly what those
//   blocks make, and the errors;
// - realLeaker (root): leaker (tests/engine/memleak/leaker.c) recorded with
//   `record --probe memleak:pid=N`: what it leaks in bpflens_leak and churns in bpflens_churn,
//   a round at a time, seen in every output.
#include "tests/clirun.h"
#include "tests/gopprof.h"
#include "tests/testutil.h"

#include "core/sessioninfo.h"
#include "core/sessionstore.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <cstdio>
#include <ctime>

using namespace bpflens;
using namespace bpflens::test;

namespace {

using E = AllocationEvent;

CliRun cli(const QStringList &args)
{
    return runCli(QStringLiteral(BPFLENS_CLI), args);
}

// The weights of the folded lines whose frames include function, summed.
quint64 foldedUnder(const QByteArray &folded, const QByteArray &function)
{
    quint64 sum = 0;
    for (const QByteArray &line : folded.split('\n')) {
        const qsizetype space = line.lastIndexOf(' ');
        if (space < 0)
            continue;
        const QList<QByteArray> frames = line.left(space).split(';');
        if (frames.contains(function))
            sum += line.mid(space + 1).toULongLong();
    }
    return sum;
}

quint64 monotonicNow()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return quint64(ts.tv_sec) * 1000000000ull + quint64(ts.tv_nsec);
}

// The known session: a program "app" (pid 100) that leaks in grow, churns in churn (every
// block freed at once) and holds a cache block from 0.5 s to 2.5 s; another process, "other",
// recorded one block in grow in four (weight 4) and exited with it.
constexpr quint64 Start = 1'000'000'000ull;
constexpr quint64 Second = 1'000'000'000ull;
constexpr quint64 End = Start + 3 * Second;
constexpr quint64 GrowSize = 1000, ChurnSize = 100, CacheSize = 500, OtherSize = 50;
constexpr quint32 OtherWeight = 4;
constexpr int Churns = 4;
// grow's blocks, by time after the start: two before 1 s, one after.
const QList<quint64> GrowAt = {Second / 10, Second / 5, Second * 3 / 2};
constexpr quint64 CacheAt = Second / 2, CacheFreed = Second * 5 / 2;
constexpr quint64 OtherAt = Second * 6 / 10;

RecordBatch knownAllocations(int extraGrowBlocks = 0)
{
    StackTable table;
    const QByteArray app = "/opt/app/app";
    auto user = [&](quint64 address, const char *symbol) {
        return table.intern(StackFrame{FrameKind::User, address, app, "cd34", symbol});
    };
    const quint32 main = user(0x1100, "main");
    const quint32 grow = table.intern(0, {user(0x1200, "grow"), main});
    const quint32 churn = table.intern(0, {user(0x1300, "churn"), main});
    const quint32 cache = table.intern(0, {user(0x1400, "cache"), main});
    RecordBatch batch;
    table.takeNewDefinitions(batch);
    QList<E> events;
    auto block = [&](quint64 at, quint64 size, quint32 stack, quint8 end, quint64 until,
                     quint32 pid = 100, quint32 weight = 1) {
        E e;
        e.timeNs = Start + at;
        e.durNs = until - at;
        e.pid = pid;
        e.tid = pid;
        e.comm = pid == 100 ? QByteArray("app") : QByteArray("other");
        e.size = size;
        e.address = 0x5000000 + e.timeNs;
        e.stackId = stack;
        e.end = end;
        e.weight = weight;
        events.append(e);
    };
    for (quint64 at : GrowAt)
        block(at, GrowSize, grow, E::Outstanding, End - Start);
    for (int i = 0; i < extraGrowBlocks; ++i)
        block(Second * 2 + quint64(i), GrowSize, grow, E::Outstanding, End - Start);
    for (int i = 0; i < Churns; ++i)
        block(Second / 4 + quint64(i) * 1000, ChurnSize, churn, E::Freed,
              Second / 4 + quint64(i) * 1000 + 500);
    block(CacheAt, CacheSize, cache, E::Freed, CacheFreed);
    block(OtherAt, OtherSize, grow, E::Exited, End - Start - 1000, 200, OtherWeight);
    std::stable_sort(events.begin(), events.end(),
                     [](const E &a, const E &b) { return a.timeNs < b.timeNs; });
    batch.events<E>() = events;
    return batch;
}

bool writeKnown(const QString &path, int extraGrowBlocks = 0)
{
    SessionInfo info = sessionInfoForThisHost({{QStringLiteral("memleak"), {}, {}}});
    info.startMonotonicNs = Start;
    SessionWriter writer;
    QString error;
    const bool ok = writer.create(path, info, &error) &&
                    writer.writeBatch(knownAllocations(extraGrowBlocks), &error) &&
                    writer.finish(End, &error);
    writer.close();
    if (!ok)
        qWarning("%s", qPrintable(error));
    return ok;
}

QByteArray folded(const QString &session, const QStringList &more = {})
{
    const CliRun r = cli(QStringList{QStringLiteral("export"), session, QStringLiteral("--folded"),
                                     QStringLiteral("--allocations")} +
                         more);
    if (r.status != 0)
        return "status " + QByteArray::number(r.status) + ": " + r.err;
    return r.out;
}

} // namespace

class TestMemleakCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void writtenSession();
    void realLeaker();
};

void TestMemleakCli::writtenSession()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString session = dir.filePath(QStringLiteral("known.bpflens"));
    QVERIFY(writeKnown(session));

    // In use at the end: grow's three blocks and the other process's (it never freed it);
    // churn's and the cache's were freed.
    const quint64 growInUse = quint64(GrowAt.size()) * GrowSize + OtherSize * OtherWeight;
    QCOMPARE(folded(session), "main;grow " + QByteArray::number(growInUse) + '\n');
    // Every byte allocated.
    QCOMPARE(folded(session, {QStringLiteral("--alloc-space")}),
             "main;cache " + QByteArray::number(CacheSize) + "\nmain;churn " +
                 QByteArray::number(Churns * ChurnSize) + "\nmain;grow " +
                 QByteArray::number(growInUse) + '\n');
    QCOMPARE(folded(session, {QStringLiteral("--by-process"), QStringLiteral("--user-only")}),
             "app;main;grow " + QByteArray::number(quint64(GrowAt.size()) * GrowSize) +
                 "\nother;main;grow " + QByteArray::number(OtherSize * OtherWeight) + '\n');
    // What grew after 1 s: grow's last block alone.
    QCOMPARE(folded(session, {QStringLiteral("--from"), QStringLiteral("1s")}),
             "main;grow " + QByteArray::number(GrowSize) + '\n');
    // Up to 1 s, in use as it was then: the cache block too (freed at 2.5 s).
    QCOMPARE(folded(session, {QStringLiteral("--to"), QStringLiteral("1000ms")}),
             "main;cache " + QByteArray::number(CacheSize) + "\nmain;grow " +
                 QByteArray::number(2 * GrowSize + OtherSize * OtherWeight) + '\n');
    QCOMPARE(folded(session, {QStringLiteral("--from"), QStringLiteral("0.25"),
                              QStringLiteral("--to"), QStringLiteral("1")}),
             "main;cache " + QByteArray::number(CacheSize) + "\nmain;grow " +
                 QByteArray::number(OtherSize * OtherWeight) + '\n');

    // show: memleak's lines, the stack leaf first, the oldest block's age (grow's first block,
    // at 0.1 s, 2.9 s before the end).
    CliRun r = cli({QStringLiteral("show"), session});
    QCOMPARE(r.status, 0);
    const QString shown = QString::fromUtf8(r.out);
    const QString growLine =
        QStringLiteral("%1 bytes in %2 allocations from stack, the oldest allocated 2.90 s before "
                       "the end\n      grow  app\n      main  app\n")
            .arg(growInUse)
            .arg(GrowAt.size() + OtherWeight);
    QVERIFY2(shown.contains(growLine), qPrintable(shown));
    QVERIFY2(!shown.contains(QStringLiteral("      churn")), qPrintable(shown));
    // The functions: main holds everything, grow all of it itself.
    static const QRegularExpression growRow(
        QStringLiteral("\\n\\s+(\\d+)\\s+100\\.0%\\s+(\\d+)\\s+100\\.0%\\s+(\\d+)  grow  app\\n"));
    const auto m = growRow.match(shown);
    QVERIFY2(m.hasMatch(), qPrintable(shown));
    QCOMPARE(m.captured(1).toULongLong(), growInUse);
    QCOMPARE(m.captured(3).toULongLong(), quint64(GrowAt.size() + OtherWeight));
    // A range: what grew from 1 s.
    r = cli({QStringLiteral("show"), session, QStringLiteral("--from"), QStringLiteral("1")});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.out.contains("Allocations from 1.000 s to 3.000 s"), r.out.constData());
    QVERIFY2(r.out.contains(
                 QStringLiteral("%1 bytes in 1 allocation from stack").arg(GrowSize).toUtf8()),
             r.out.constData());

    // diff: B leaked two more blocks in grow.
    const QString more = dir.filePath(QStringLiteral("more.bpflens"));
    QVERIFY(writeKnown(more, 2));
    r = cli({QStringLiteral("diff"), session, more});
    QCOMPARE(r.status, 0);
    QVERIFY2(r.out.contains(QStringLiteral("Bytes in use at the end (memleak): %1 -> %2 bytes")
                                .arg(growInUse)
                                .arg(growInUse + 2 * GrowSize)
                                .toUtf8()),
             r.out.constData());
    QVERIFY2(r.out.contains("\n  grow  app\n"), r.out.constData());
    QVERIFY2(r.out.contains(QStringLiteral(", +%1\n").arg(2 * GrowSize).toUtf8()),
             r.out.constData());

    // pprof: Go's heap profile, read by go tool pprof.
    if (goTool().isEmpty()) {
        if (qEnvironmentVariableIsSet("CI"))
            QFAIL("go is missing (Debian package golang-go; see .ci/deps --tests)");
        qWarning("go tool pprof is not installed: the heap profile is not read back");
    } else {
        const QString heap = dir.filePath(QStringLiteral("heap.pb.gz"));
        r = cli({QStringLiteral("export"), session, QStringLiteral("--pprof"), heap,
                 QStringLiteral("--probe"), QStringLiteral("memleak")});
        QVERIFY2(r.status == 0, r.err.constData());
        const PprofRun raw = goPprof({QStringLiteral("-raw"), heap}, dir.path());
        QVERIFY2(raw.status == 0, qPrintable(raw.said()));
        QVERIFY2(raw.out.contains("alloc_objects/count alloc_space/bytes inuse_objects/count "
                                  "inuse_space/bytes[dflt]"),
                 raw.out.constData());
        QVERIFY2(raw.out.contains("PeriodType: space bytes"), raw.out.constData());
        const PprofRun top =
            goPprof({QStringLiteral("-top"), QStringLiteral("-unit=B"), heap}, dir.path());
        QVERIFY2(top.status == 0, qPrintable(top.said()));
        QVERIFY2(top.out.contains("Type: inuse_space\n"), top.out.constData());
        QCOMPARE(parseTop(top.out).value(QStringLiteral("grow")).flat,
                 QStringLiteral("%1B").arg(growInUse));
        const PprofRun allocs =
            goPprof({QStringLiteral("-top"), QStringLiteral("-sample_index=alloc_objects"), heap},
                    dir.path());
        QVERIFY2(allocs.status == 0, qPrintable(allocs.said()));
        QCOMPARE(parseTop(allocs.out).value(QStringLiteral("churn")).flat, QString::number(Churns));
        // The range: from 1 s, grow's last block.
        r = cli({QStringLiteral("export"), session, QStringLiteral("--pprof"), heap,
                 QStringLiteral("--allocations"), QStringLiteral("--from"), QStringLiteral("1s"),
                 QStringLiteral("--force")});
        QVERIFY2(r.status == 0, r.err.constData());
        const PprofRun late =
            goPprof({QStringLiteral("-top"), QStringLiteral("-unit=B"), heap}, dir.path());
        QCOMPARE(parseTop(late.out).value(QStringLiteral("grow")).flat,
                 QStringLiteral("%1B").arg(GrowSize));
    }

    // Errors: said in one line, status 2 for arguments, 1 for what the file lacks.
    struct Case
    {
        QStringList args;
        int status;
        QByteArray says;
    };
    const QString target = dir.filePath(QStringLiteral("x"));
    const QList<Case> cases = {
        {{QStringLiteral("export"), session, QStringLiteral("--folded"),
          QStringLiteral("--alloc-space")},
         2,
         "--alloc-space applies to --folded --allocations"},
        {{QStringLiteral("export"), session, QStringLiteral("--folded"),
          QStringLiteral("--allocations"), QStringLiteral("--off-cpu")},
         2,
         "--off-cpu and --allocations exclude each other"},
        {{QStringLiteral("export"), session, QStringLiteral("--folded"),
          QStringLiteral("--allocations"), QStringLiteral("--from"), QStringLiteral("9s")},
         1,
         "--from 9s is after the session's end (3.000 s)"},
        {{QStringLiteral("export"), session, QStringLiteral("--folded"), QStringLiteral("--from"),
          QStringLiteral("1")},
         2,
         "--from applies to --pprof and to --folded --allocations"},
        {{QStringLiteral("export"), session, QStringLiteral("--csv"), dir.path(),
          QStringLiteral("--to"), QStringLiteral("1")},
         2,
         "--to applies to --pprof and to --folded --allocations"},
        {{QStringLiteral("export"), session, QStringLiteral("--pprof"), target,
          QStringLiteral("--alloc-space")},
         2,
         "--alloc-space does not apply to --pprof"},
        {{QStringLiteral("export"), session, QStringLiteral("--pprof"), target,
          QStringLiteral("--probe"), QStringLiteral("offcpu"), QStringLiteral("--allocations")},
         2,
         "--allocations and --probe offcpu exclude each other"},
        {{QStringLiteral("show"), session, QStringLiteral("--from"), QStringLiteral("2"),
          QStringLiteral("--to"), QStringLiteral("1")},
         2,
         "--from must be before --to"},
        {{QStringLiteral("show"), session, QStringLiteral("--events"), QStringLiteral("--to"),
          QStringLiteral("1")},
         2,
         "--to applies to the allocations' summary, not to --events"},
    };
    for (const Case &c : cases) {
        r = cli(c.args);
        QVERIFY2(
            r.status == c.status && r.err.contains(c.says) && r.err.count('\n') == 1,
            qPrintable(
                c.args.join(QLatin1Char(' ')) +
                QStringLiteral(": status %1: %2").arg(r.status).arg(QString::fromUtf8(r.err))));
    }
    QVERIFY(!QFile::exists(target));
    // A session without allocations.
    const QString none = dir.filePath(QStringLiteral("none.bpflens"));
    {
        SessionInfo info = sessionInfoForThisHost({{QStringLiteral("exec"), {}, {}}});
        info.startMonotonicNs = Start;
        SessionWriter writer;
        QString error;
        QVERIFY2(writer.create(none, info, &error) && writer.finish(End, &error),
                 qPrintable(error));
        writer.close();
    }
    r = cli({QStringLiteral("export"), none, QStringLiteral("--folded"),
             QStringLiteral("--allocations")});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("has no allocations: record them with --probe memleak"),
             r.err.constData());
    r = cli({QStringLiteral("show"), none, QStringLiteral("--from"), QStringLiteral("1")});
    QCOMPARE(r.status, 1);
    QVERIFY2(r.err.contains("--from and --to apply to the allocations"), r.err.constData());
}

void TestMemleakCli::realLeaker()
{
    BPFLENS_REQUIRE_ROOT("records the memleak probe in-process");
    // What leaker does per 'g' (tests/engine/memleak/leaker.c): bpflens_leak keeps LEAKS blocks
    // of LEAK_SIZE bytes; bpflens_churn frees each of its argv[1] blocks of CHURN_SIZE at once.
    constexpr quint64 Leaks = 20, LeakSize = 4000, ChurnSize = 1000;
    constexpr int Churns = 50;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QProcess leaker;
    leaker.start(QStringLiteral(BPFLENS_LEAKER), {QString::number(Churns)});
    QVERIFY2(leaker.waitForReadyRead(10000) && leaker.read(1) == "r",
             qPrintable(leaker.errorString()));
    const auto cleanup = qScopeGuard([&] {
        leaker.kill();
        leaker.waitForFinished();
    });
    auto round = [&] {
        return leaker.write("g") == 1 && leaker.waitForReadyRead(10000) && leaker.read(1) == "d";
    };
    // A recording of the leaker's rounds; between: called between two rounds (the time then).
    auto record = [&](const QString &session, int rounds, quint64 *between) {
        QProcess recorder;
        recorder.start(QStringLiteral(BPFLENS_CLI),
                       {QStringLiteral("record"), QStringLiteral("--direct"),
                        QStringLiteral("--probe"),
                        QStringLiteral("memleak:pid=%1").arg(leaker.processId()),
                        QStringLiteral("-o"), session});
        for (int i = 0;
             i < 3000 && !QFile::exists(session) && recorder.state() != QProcess::NotRunning; ++i)
            QTest::qWait(20);
        if (!QFile::exists(session))
            return QStringLiteral("no recording: ") +
                   QString::fromUtf8(recorder.readAllStandardError());
        for (int i = 0; i < rounds; ++i) {
            if (i == 1 && between) {
                QTest::qWait(200);
                *between = monotonicNow();
                QTest::qWait(200);
            }
            if (!round())
                return QStringLiteral("leaker did not finish round %1").arg(i + 1);
        }
        ::kill(pid_t(recorder.processId()), SIGINT);
        if (!recorder.waitForFinished(60000) || recorder.exitCode() != 0)
            return QStringLiteral("the recorder failed: ") +
                   QString::fromUtf8(recorder.readAllStandardError());
        return QString();
    };

    const QString one = dir.filePath(QStringLiteral("one.bpflens"));
    QString error = record(one, 1, nullptr);
    QVERIFY2(error.isEmpty(), qPrintable(error));

    // The flame graph's input: what bpflens_leak still holds, nothing of bpflens_churn.
    const QByteArray inuse = folded(one);
    QCOMPARE(foldedUnder(inuse, "bpflens_leak"), Leaks * LeakSize);
    QVERIFY2(!inuse.contains("bpflens_churn"), inuse.constData());
    QCOMPARE(foldedUnder(folded(one, {QStringLiteral("--alloc-space")}), "bpflens_churn"),
             Churns * ChurnSize);

    // show, as memleak prints it: the bytes and blocks, bpflens_leak the stack's leaf.
    CliRun r = cli({QStringLiteral("show"), one});
    QCOMPARE(r.status, 0);
    static const QRegularExpression leakStack(
        QStringLiteral("\\n  (\\d+) bytes in (\\d+) allocations from stack, the oldest allocated "
                       "[^\\n]+\\n      bpflens_leak  leaker\\n"));
    const auto m = leakStack.match(QString::fromUtf8(r.out));
    QVERIFY2(m.hasMatch(), r.out.constData());
    QCOMPARE(m.captured(1).toULongLong(), Leaks * LeakSize);
    QCOMPARE(m.captured(2).toULongLong(), Leaks);

    // The heap profile, as go tool pprof shows it.
    if (goTool().isEmpty()) {
        if (qEnvironmentVariableIsSet("CI"))
            QFAIL("go is missing (Debian package golang-go; see .ci/deps --tests)");
        qWarning("go tool pprof is not installed: the heap profile is not read back");
    } else {
        const QString heap = dir.filePath(QStringLiteral("heap.pb.gz"));
        r = cli({QStringLiteral("export"), one, QStringLiteral("--pprof"), heap,
                 QStringLiteral("--allocations")});
        QVERIFY2(r.status == 0, r.err.constData());
        const PprofRun raw = goPprof({QStringLiteral("-raw"), heap}, dir.path());
        QVERIFY2(raw.status == 0, qPrintable(raw.said()));
        QVERIFY2(raw.out.contains("alloc_objects/count alloc_space/bytes inuse_objects/count "
                                  "inuse_space/bytes[dflt]"),
                 raw.out.constData());
        // pprof's own unit: 80000 bytes are 78.12kB: kB of 1024 bytes, printed by Go's %.2f,
        // which rounds a tie to even as glibc's printf does (Qt's asprintf would say 78.13).
        char kBText[32];
        std::snprintf(kBText, sizeof(kBText), "%.2fkB", double(Leaks * LeakSize) / 1024);
        const PprofRun top =
            goPprof({QStringLiteral("-top"), QStringLiteral("-sample_index=inuse_space"), heap},
                    dir.path());
        QVERIFY2(top.status == 0, qPrintable(top.said()));
        QCOMPARE(parseTop(top.out).value(QStringLiteral("bpflens_leak")).flat,
                 QString::fromLatin1(kBText));
        const PprofRun objects =
            goPprof({QStringLiteral("-top"), QStringLiteral("-sample_index=inuse_objects"), heap},
                    dir.path());
        QCOMPARE(parseTop(objects.out).value(QStringLiteral("bpflens_leak")).flat,
                 QString::number(Leaks));
        const PprofRun allocs =
            goPprof({QStringLiteral("-top"), QStringLiteral("-sample_index=alloc_objects"), heap},
                    dir.path());
        QCOMPARE(parseTop(allocs.out).value(QStringLiteral("bpflens_churn")).flat,
                 QString::number(Churns));
    }

    // Two rounds: each output over the whole recording sees both, from the moment between
    // them (or up to it) one.
    const QString two = dir.filePath(QStringLiteral("two.bpflens"));
    quint64 between = 0;
    error = record(two, 2, &between);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    SessionData data;
    QVERIFY2(SessionReader::open(two, &data, &error), qPrintable(error));
    const QString at = QStringLiteral("%1ns").arg(between - data.info.startMonotonicNs);
    QCOMPARE(foldedUnder(folded(two), "bpflens_leak"), 2 * Leaks * LeakSize);
    QCOMPARE(foldedUnder(folded(two, {QStringLiteral("--from"), at}), "bpflens_leak"),
             Leaks * LeakSize);
    QCOMPARE(foldedUnder(folded(two, {QStringLiteral("--to"), at}), "bpflens_leak"),
             Leaks * LeakSize);
    r = cli({QStringLiteral("show"), two, QStringLiteral("--from"), at});
    QCOMPARE(r.status, 0);
    const auto late = leakStack.match(QString::fromUtf8(r.out));
    QVERIFY2(late.hasMatch(), r.out.constData());
    QCOMPARE(late.captured(1).toULongLong(), Leaks * LeakSize);

    // Between the two sessions: bpflens_leak holds twice as much.
    r = cli({QStringLiteral("diff"), one, two, QStringLiteral("--top"), QStringLiteral("0")});
    QCOMPARE(r.status, 0);
    static const QRegularExpression leakDiff(
        QStringLiteral("\\n  bpflens_leak  leaker\\n    self\\s+(\\d+) \\([^)]*\\) -> (\\d+) "
                       "\\([^)]*\\)\\s+\\S+ pp, "
                       "\\+(\\d+)\\n"));
    const auto d = leakDiff.match(QString::fromUtf8(r.out));
    QVERIFY2(d.hasMatch(), r.out.constData());
    QCOMPARE(d.captured(1).toULongLong(), Leaks * LeakSize);
    QCOMPARE(d.captured(2).toULongLong(), 2 * Leaks * LeakSize);
    QCOMPARE(d.captured(3).toULongLong(), Leaks * LeakSize);
}

QTEST_GUILESS_MAIN(TestMemleakCli)
#include "tst_memleakcli.moc"
