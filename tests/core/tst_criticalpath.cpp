// The critical path over known thread states (core/criticalpath.h), and bpflens-cli
// critical-path over a session file holding them. Times are in microseconds from 1 s.
#include "core/criticalpath.h"
#include "core/eventstore.h"
#include "core/sessioninfo.h"
#include "core/sessionstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace bpflens;

namespace {

using E = ThreadStateEvent;

constexpr quint64 Base = 1000000000ull;

quint64 us(quint64 t)
{
    return Base + t * 1000;
}

// One span of tid from..to (µs), with its waker where it is a wait that one ended.
E span(quint32 tid, const char *comm, quint8 state, quint64 from, quint64 to, quint8 reason = 0,
       quint32 wakerTid = 0, const char *wakerComm = "")
{
    E e;
    e.timeNs = us(from);
    e.durNs = (to - from) * 1000;
    e.pid = 100;
    e.tid = tid;
    e.comm = comm;
    e.state = state;
    e.reason = reason;
    e.cpu = tid % 2;
    e.wakerTid = wakerTid;
    e.wakerPid = wakerTid ? 100 : 0;
    e.wakerComm = wakerComm;
    return e;
}

// A (tid 1) waits on a pipe from 10 to 40, woken by B (tid 2); B slept from 5 to 25 (woken by
// the timer's interrupt), waited for a CPU to 26 and computed until it woke A at 40 and on to
// 45. A then waits for a CPU to 41 and runs to 50.
QList<E> chain()
{
    return {
        span(1, "reader", E::Running, 0, 10),
        span(1, "reader", E::Sleeping, 10, 40, E::Pipe, 2, "writer"),
        span(1, "reader", E::Runnable, 40, 41, E::Woken),
        span(1, "reader", E::Running, 41, 50),
        span(2, "writer", E::Running, 0, 5),
        span(2, "writer", E::Sleeping, 5, 25, E::Sleep, 0, "[irq]"),
        span(2, "writer", E::Runnable, 25, 26, E::Woken),
        span(2, "writer", E::Running, 26, 45),
    };
}

void fill(EventStore *store, const QList<E> &spans)
{
    for (const E &e : spans)
        store->append(e);
}

// "tid:state/reason:from-to@depth" per step, µs from Base
QByteArrayList describe(const CriticalPath &p)
{
    QByteArrayList out;
    for (const CriticalPathStep &s : p.steps) {
        out << QStringLiteral("%1:%2/%3:%4-%5@%6")
                   .arg(s.tid)
                   .arg(s.state ? E::stateName(s.state) : QStringLiteral("-"))
                   .arg(E::reasonName(s.reason))
                   .arg((s.startNs - Base) / 1000)
                   .arg((s.endNs - Base) / 1000)
                   .arg(s.depth)
                   .toLatin1();
    }
    return out;
}

struct Run
{
    int status = -1;
    QString out;
    QString err;
};

Run runCli(const QStringList &args)
{
    QProcess p;
    p.start(QStringLiteral(BPFLENS_CLI), args);
    Run r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.status = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestCriticalPath : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void index()
    {
        EventStore store;
        fill(&store, chain());
        const ThreadStateIndex index(store);
        QCOMPARE(index.tids(), (QList<quint32>{1, 2}));
        QCOMPARE(index.spans(1).size(), 4);
        QVERIFY(index.spans(3).isEmpty());
        // the span holding the moment just before: a span's end belongs to it
        QCOMPARE(store.value<&E::state>(index.spanBefore(1, us(40))), quint8(E::Sleeping));
        QCOMPARE(store.value<&E::state>(index.spanBefore(1, us(41))), quint8(E::Runnable));
        QCOMPARE(index.spanBefore(1, us(0)), qsizetype(-1));
        QCOMPARE(index.spanBefore(1, us(51)), qsizetype(-1));
        QCOMPARE(store.value<&E::state>(index.lastEndingBy(1, us(45))), quint8(E::Runnable));
    }

    // The wait is B's: its timer sleep (not followed: an interrupt ended it), its wait for a CPU
    // and its compute up to the wakeup, then A's own wait for a CPU and run.
    void followsTheWaker()
    {
        EventStore store;
        fill(&store, chain());
        const ThreadStateIndex index(store);
        const CriticalPath p = criticalPath(store, index, 1, us(10), us(50));
        QCOMPARE(describe(p), (QByteArrayList{
                                  "2:sleeping/sleep:10-25@1",
                                  "2:runnable/woken:25-26@1",
                                  "2:running/:26-40@1",
                                  "1:runnable/woken:40-41@0",
                                  "1:running/:41-50@0",
                              }));
        QCOMPARE(p.steps[0].wakerComm, QByteArray("[irq]"));
        QCOMPARE(p.steps[0].wakerTid, 0u);
        QVERIFY(!p.depthLimited);
        // every step points at its span
        for (const CriticalPathStep &s : p.steps) {
            QVERIFY(s.span >= 0);
            QCOMPARE(store.value<&E::tid>(s.span), s.tid);
        }
        // the shares: B's sleep first (15 of 40 µs)
        const QList<CriticalPathShare> shares = criticalPathShares(p);
        QCOMPARE(shares.first().tid, 2u);
        QCOMPARE(shares.first().state, quint8(E::Sleeping));
        QCOMPARE(shares.first().ns, 15000ull);
        quint64 total = 0;
        for (const CriticalPathShare &s : shares)
            total += s.ns;
        QCOMPARE(total, 40000ull);
    }

    // C woke B (at 20), which woke A: two wakeups deep; at most one followed with maxDepth 1.
    void deeperChainsAndTheDepthLimit()
    {
        QList<E> spans = {
            span(1, "a", E::Sleeping, 0, 30, E::Futex, 2, "b"),
            span(1, "a", E::Running, 30, 40),
            span(2, "b", E::Sleeping, 0, 20, E::Futex, 3, "c"),
            span(2, "b", E::Running, 20, 35),
            span(3, "c", E::Running, 0, 25),
        };
        EventStore store;
        fill(&store, spans);
        const ThreadStateIndex index(store);
        QCOMPARE(describe(criticalPath(store, index, 1, us(0), us(40))),
                 (QByteArrayList{"3:running/:0-20@2", "2:running/:20-30@1", "1:running/:30-40@0"}));
        const CriticalPath limited = criticalPath(store, index, 1, us(0), us(40), 1);
        QCOMPARE(describe(limited), (QByteArrayList{"2:sleeping/futex:0-20@1", "2:running/:20-30@1",
                                                    "1:running/:30-40@0"}));
        QVERIFY(limited.depthLimited);
    }

    // A wait ended by a thread not recorded (outside the filter) stays the waiter's, with who
    // ended it; a wait that goes on past the range's end is the waiter's too; a stretch with
    // no span is "not recorded".
    void whatIsNotFollowed()
    {
        QList<E> spans = {
            span(1, "a", E::Sleeping, 0, 10, E::Socket, 77, "outsider"),
            span(1, "a", E::Running, 10, 20),
            // 20 to 30: nothing recorded (a switch the kernel ran no program for)
            span(1, "a", E::Running, 30, 35),
            span(1, "a", E::Uninterruptible, 35, 60, E::Io, 0, "[irq]"),
        };
        EventStore store;
        fill(&store, spans);
        const ThreadStateIndex index(store);
        const CriticalPath p = criticalPath(store, index, 1, us(0), us(50));
        QCOMPARE(describe(p),
                 (QByteArrayList{"1:sleeping/socket:0-10@0", "1:running/:10-20@0", "1:-/:20-30@0",
                                 "1:running/:30-35@0", "1:uninterruptible/io:35-50@0"}));
        QCOMPARE(p.steps[0].wakerTid, 77u);
        QCOMPARE(p.steps[0].wakerComm, QByteArray("outsider"));
        QCOMPARE(p.steps[2].span, qsizetype(-1));
        // the I/O wait is cut at the range's end, before the interrupt that ended it
        QVERIFY(p.steps[4].wakerComm.isEmpty());
        // a range outside every span: one stretch not recorded; an empty range: nothing
        QCOMPARE(describe(criticalPath(store, index, 1, us(70), us(80))),
                 QByteArrayList{"1:-/:70-80@0"});
        QVERIFY(criticalPath(store, index, 1, us(10), us(10)).steps.isEmpty());
    }

    // A span of no length (two transitions in the same nanosecond) after a stretch not recorded:
    // the walk goes past it to the range's start, it does not stop there.
    void zeroLengthSpans()
    {
        QList<E> spans = {
            span(1, "a", E::Running, 0, 10),
            span(1, "a", E::Runnable, 20, 20, E::Preempted),
            span(1, "a", E::Running, 20, 30),
        };
        EventStore store;
        fill(&store, spans);
        const ThreadStateIndex index(store);
        QCOMPARE(describe(criticalPath(store, index, 1, us(0), us(30))),
                 (QByteArrayList{"1:running/:0-10@0", "1:-/:10-20@0", "1:running/:20-30@0"}));
        QCOMPARE(describe(criticalPath(store, index, 1, us(0), us(20))),
                 (QByteArrayList{"1:running/:0-10@0", "1:-/:10-20@0"}));
    }

    // Two threads waking each other in turn: every wakeup is earlier than the last, so the
    // walk ends, and the steps cover the range exactly.
    void pingPongEnds()
    {
        QList<E> spans;
        for (quint64 t = 0; t < 1000; t += 20) {
            spans << span(1, "ping", E::Running, t, t + 10)
                  << span(1, "ping", E::Sleeping, t + 10, t + 20, E::Pipe, 2, "pong");
            spans << span(2, "pong", E::Sleeping, t, t + 10, E::Pipe, 1, "ping")
                  << span(2, "pong", E::Running, t + 10, t + 20);
        }
        EventStore store;
        fill(&store, spans);
        const ThreadStateIndex index(store);
        // ping's waits are pong's runs and the other way round: one wakeup deep at most
        const CriticalPath p = criticalPath(store, index, 1, us(5), us(995));
        QVERIFY(!p.depthLimited);
        QCOMPARE(p.steps.first().depth, 0);
        quint64 covered = 0;
        quint64 at = us(5);
        for (const CriticalPathStep &s : p.steps) {
            QCOMPARE(s.startNs, at);
            at = s.endNs;
            covered += s.durationNs();
            // running, but for the last wait, which goes on past the range
            QVERIFY(s.state == E::Running || s.endNs == us(995));
            QVERIFY(s.depth == (s.tid == 1 ? 0 : 1));
        }
        QCOMPARE(at, us(995));
        QCOMPARE(covered, 990000ull);
    }

    void commandLine()
    {
        QTemporaryDir dir;
        const QString session = dir.filePath(QStringLiteral("states.bpflens"));
        SessionInfo info = sessionInfoForThisHost({{QStringLiteral("threadstate"), {}, {}}});
        info.startMonotonicNs = Base;
        SessionWriter writer;
        QString err;
        QVERIFY2(writer.create(session, info, &err), qPrintable(err));
        RecordBatch batch;
        batch.events<E>() = chain();
        QVERIFY2(writer.writeBatch(batch, &err), qPrintable(err));
        QVERIFY(writer.finish(us(100), &err));
        writer.close();

        // default range: the thread's spans, 0 to 50 µs
        const Run text = runCli({QStringLiteral("critical-path"), session, QStringLiteral("--tid"),
                                 QStringLiteral("1")});
        QCOMPARE(text.status, 0);
        const QStringList lines = text.out.split(QLatin1Char('\n'));
        QVERIFY2(lines.first().startsWith(
                     QStringLiteral("Critical path of reader 1 from 0.000000 s to 0.000050 s")),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains(QRegularExpression(
                     QStringLiteral("0\\.000010 +15\\.00 us +  writer 2 +sleeping \\(sleep\\) +"
                                    "\\[irq\\]"))),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains(QRegularExpression(
                     QStringLiteral("0\\.000026 +14\\.00 us +  writer 2 +running +0"))),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains(QStringLiteral("Time on the path")), qPrintable(text.out));

        const Run csv = runCli({QStringLiteral("critical-path"), session, QStringLiteral("--tid"),
                                QStringLiteral("1"), QStringLiteral("--from"),
                                QStringLiteral("10us"), QStringLiteral("--csv")});
        QCOMPARE(csv.status, 0);
        QCOMPARE(csv.out.split(QLatin1Char('\n')).first(),
                 QStringLiteral("start_s,dur_ns,depth,pid,tid,comm,state,reason,cpu,waker_tid,"
                                "waker_comm"));
        QVERIFY2(csv.out.contains(QStringLiteral("0.000010,15000,1,100,2,writer,sleeping,sleep,0,0,"
                                                 "[irq]\n")),
                 qPrintable(csv.out));

        const Run json = runCli({QStringLiteral("critical-path"), session, QStringLiteral("--tid"),
                                 QStringLiteral("1"), QStringLiteral("--json")});
        QCOMPARE(json.status, 0);
        const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(o.value(QStringLiteral("steps")).toArray().size(), 6);
        QCOMPARE(o.value(QStringLiteral("tid")).toInt(), 1);

        // the wakeups view: the two waits a wakeup ended, at the wakeup
        const Run wakeups =
            runCli({QStringLiteral("query"), session,
                    QStringLiteral("SELECT time_ns, tid, reason, blocked_ns, waker_tid, waker_comm "
                                   "FROM wakeups ORDER BY time_ns"),
                    QStringLiteral("--format"), QStringLiteral("csv")});
        QCOMPARE(wakeups.status, 0);
        QCOMPARE(wakeups.out,
                 QStringLiteral("time_ns,tid,reason,blocked_ns,waker_tid,waker_comm\r\n"
                                "1000025000,2,sleep,20000,0,[irq]\r\n"
                                "1000040000,1,pipe,30000,2,writer\r\n"));

        // errors: no --tid, a thread without states, a session without any
        const Run noTid = runCli({QStringLiteral("critical-path"), session});
        QCOMPARE(noTid.status, 2);
        QVERIFY2(noTid.err.contains(QStringLiteral("needs --tid")), qPrintable(noTid.err));
        const Run unknown = runCli({QStringLiteral("critical-path"), session,
                                    QStringLiteral("--tid"), QStringLiteral("9")});
        QCOMPARE(unknown.status, 1);
        QVERIFY2(unknown.err.contains(QStringLiteral("thread 9 has no thread states")),
                 qPrintable(unknown.err));
        const QString empty = dir.filePath(QStringLiteral("empty.bpflens"));
        SessionWriter w2;
        QVERIFY(w2.create(empty, info, &err));
        QVERIFY(w2.finish(us(100), &err));
        w2.close();
        const Run none = runCli(
            {QStringLiteral("critical-path"), empty, QStringLiteral("--tid"), QStringLiteral("1")});
        QCOMPARE(none.status, 1);
        QVERIFY2(none.err.contains(QStringLiteral("record them with --probe threadstate")),
                 qPrintable(none.err));
    }
};

QTEST_GUILESS_MAIN(TestCriticalPath)
#include "tst_criticalpath.moc"
