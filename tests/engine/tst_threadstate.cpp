// The threadstate probe against the real kernel. wakechain (tests/engine/offcpu) has its main
// thread A block 20 times, on a pipe or a condition variable, and its thread B wake it each
// time after sleeping 20 ms in writer_sleep and computing 5 ms; B starts a round only once A is
// off the CPU. Every one of A's waits must be a blocked span with the right reason, woken by B
// exactly, holding B's sleep (woken by the timer's interrupt) and B's compute by the kernel's
// own accounting; the critical path from A's last wakeup must name B's compute and, before it,
// B's timer wait. Also: a disk read's uninterruptible wait on block I/O, and a sleeping process
// killed by this test (woken by this test's thread, then gone).
#include "core/criticalpath.h"
#include "core/eventstore.h"
#include "core/probecatalog.h"
#include "helper/engine.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/iotestdir.h"
#include "tests/testutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace bpflens;
using namespace bpflens::test;

namespace {

using E = ThreadStateEvent;

constexpr int Rounds = 20;
constexpr int SleepMs = 20;
constexpr int ComputeMs = 5;

struct Recording
{
    bool ok = false;
    QString attachPath;
    StackTable stacks;
    EventStore store;
    QList<E> events;
    quint64 lost = 0;
    // spans not recorded: their thread's switch-in did not reach the probe (counted)
    qint64 transitionsMissed = 0;
    pid_t child = 0;
    QByteArray wakeeTids; // wakechain's "<A> <B>"
};

// Records the threadstate probe over program (started gated, so the probe sees all of it) until
// it exits, or until stopWhen() says so.
Recording record(const QByteArray &program, const QList<QByteArray> &args,
                 const std::function<bool(pid_t)> &whileRunning = {}, QVariantMap options = {})
{
    Recording r;
    GatedExec child(program, args);
    r.child = child.pid();
    if (!options.contains(QStringLiteral("pid")))
        options.insert(QStringLiteral("pid"), qint64(child.pid()));
    Engine engine;
    QList<ProbeConfig> req{{QStringLiteral("threadstate"), options, {}}};
    QString err;
    if (!engine.start(req, &err)) {
        qWarning() << "start:" << err;
        return r;
    }
    r.attachPath = req[0].attachPath;
    bool defined = true;
    auto consume = [&](RecordBatch &b) {
        QString why;
        if (!r.stacks.addDefinitions(b, &why)) {
            qWarning() << "definitions:" << why;
            defined = false;
        }
        for (const E &e : std::as_const(b.events<E>())) {
            for (quint32 id : {e.stackId, e.wakerStackId}) {
                if (id && !r.stacks.hasStack(id)) {
                    qWarning() << "stack" << id << "used before its definition";
                    defined = false;
                }
            }
            r.events.append(e);
            r.store.append(e);
        }
        for (const ProbeStats &s : std::as_const(b.stats))
            r.lost = s.eventsLost;
        for (const CounterSample &c : std::as_const(b.counters)) {
            if (c.name == QLatin1String("transitionsMissed"))
                r.transitionsMissed += qint64(c.value);
            else
                qWarning() << "counter" << c.name << c.value;
        }
    };
    child.go();
    bool steered = !whileRunning;
    while (!child.finished()) {
        RecordBatch b;
        engine.poll(50, b);
        consume(b);
        if (!steered)
            steered = whileRunning(child.pid());
    }
    RecordBatch last;
    engine.stop(&last);
    consume(last);
    r.ok = defined;
    return r;
}

QList<QByteArray> kernelSymbols(const StackTable &t, quint32 stackId)
{
    QList<QByteArray> out;
    if (!t.hasStack(stackId))
        return out;
    for (quint32 f : t.stack(stackId).frames)
        out.append(t.frame(f).symbol);
    return out;
}

QByteArray describe(const E &e)
{
    return QByteArray::number(e.tid) + ' ' + E::stateName(e.state).toLatin1() + '/' +
           E::reasonName(e.reason).toLatin1() + " at " + QByteArray::number(e.timeNs) + " for " +
           QByteArray::number(e.durNs) + " ns, woken by " + e.wakerComm + ' ' +
           QByteArray::number(e.wakerTid);
}

QList<E> spansOf(const Recording &r, quint32 tid)
{
    QList<E> spans;
    for (const E &e : r.events) {
        if (e.tid == tid)
            spans.append(e);
    }
    std::sort(spans.begin(), spans.end(),
              [](const E &a, const E &b) { return a.timeNs < b.timeNs; });
    return spans;
}

// A thread's spans follow each other without an overlap, and without a gap but where one of
// its switches or wakeups did not reach the probe (counted: the test machine's kernel runs no
// tracing program while its guest agent's threads are on a CPU, bpftrace's neither).
void checkContiguous(const QList<E> &spans, qint64 *missed)
{
    for (qsizetype i = 1; i < spans.size(); ++i) {
        const quint64 end = spans[i - 1].timeNs + spans[i - 1].durNs;
        const QByteArray what = describe(spans[i - 1]) + " then " + describe(spans[i]);
        QVERIFY2(spans[i].timeNs >= end, what.constData());
        if (spans[i].timeNs > end) {
            QVERIFY2(*missed > 0, what.constData());
            --*missed;
        }
    }
}

// B's side of one of A's waits w: its timer sleep inside the wait, woken by the interrupt, then
// only running or waiting for a CPU (computing, by its clock) up to the wakeup. Says why not.
bool bSideHolds(const E &w, const QList<E> &bs, quint64 shortfall, QByteArray *why)
{
    const quint64 woke = w.timeNs + w.durNs;
    const auto sleep = std::find_if(bs.rbegin(), bs.rend(), [&](const E &e) {
        return e.blocked() && e.timeNs + e.durNs <= woke &&
               e.durNs + shortfall >= quint64(SleepMs) * 1000000;
    });
    *why = describe(w) + ", B:";
    for (const E &e : bs) {
        if (e.timeNs + e.durNs >= w.timeNs && e.timeNs <= woke)
            *why += "\n  " + describe(e);
    }
    if (sleep == bs.rend() || sleep->timeNs < w.timeNs || sleep->reason != E::Sleep ||
        sleep->wakerComm != "[irq]" || sleep->wakerTid)
        return false;
    const quint64 awake = sleep->timeNs + sleep->durNs;
    quint64 ran = 0;
    quint64 seen = 0;
    for (const E &e : bs) {
        const quint64 from = qMax(e.timeNs, awake);
        const quint64 to = qMin(e.timeNs + e.durNs, woke);
        if (to <= from)
            continue;
        if (e.blocked())
            return false;
        seen += to - from;
        if (e.state == E::Running)
            ran += to - from;
    }
    return ran > 0 && seen == woke - awake && woke - awake >= quint64(ComputeMs) * 1000000 &&
           w.durNs >= sleep->durNs + (woke - awake);
}

void checkRounds(const Recording &r, quint8 reason, const QList<QByteArray> &wakeFunctions)
{
    QVERIFY(r.ok);
    QVERIFY2(r.attachPath.contains(QStringLiteral("sched_switch")), qPrintable(r.attachPath));
    QCOMPARE(r.lost, 0u);
    const QList<QByteArray> tids = r.wakeeTids.trimmed().split(' ');
    QCOMPARE(tids.size(), 2);
    const quint32 a = tids[0].toUInt();
    const quint32 b = tids[1].toUInt();
    const QList<E> as = spansOf(r, a);
    const QList<E> bs = spansOf(r, b);
    qint64 missed = r.transitionsMissed;
    checkContiguous(as, &missed);
    checkContiguous(bs, &missed);
    QVERIFY(!as.isEmpty() && !bs.isEmpty());
    QCOMPARE(as.last().comm, QByteArray("wakee")); // (its first are the fork's, before exec)

    // Every round's wait: blocked for the right reason, woken by B, exactly Rounds of them
    // (after the exec: before it, the forked child waited for the test's go).
    QList<E> waits;
    for (const E &e : as) {
        if (e.blocked() && e.comm == "wakee" && e.durNs >= quint64(SleepMs + ComputeMs) * 1000000)
            waits.append(e);
    }
    if (waits.size() != Rounds) {
        for (const E &e : as)
            qInfo("%s", describe(e).constData());
    }
    QCOMPARE(waits.size(), Rounds);
    // The emulated CPUs of the matrix's guests may stall between a timer's arming and the
    // switch-out (19.40 ms of a 20 ms sleep seen: tst_offwake).
    const quint64 shortfall =
        qEnvironmentVariableIsSet("BPFLENS_EMULATED_CPU") ? SleepMs * 100000 : 0;
    QList<E> explained;
    QList<QByteArray> unexplained;
    for (const E &w : waits) {
        const QByteArray what = describe(w);
        QCOMPARE(w.state, quint8(E::Sleeping));
        QVERIFY2(w.reason == reason, what.constData());
        QVERIFY2(w.wakerTid == b && w.wakerPid == a && w.wakerComm == "waker", what.constData());
        // where A blocked and where B woke it, in the kernel's own words
        QVERIFY2(kernelSymbols(r.stacks, w.stackId).contains("schedule"), what.constData());
        const QList<QByteArray> waker = kernelSymbols(r.stacks, w.wakerStackId);
        QVERIFY2(waker.contains("try_to_wake_up") &&
                     std::any_of(wakeFunctions.begin(), wakeFunctions.end(),
                                 [&](const QByteArray &f) { return waker.contains(f); }),
                 (what + " [" + waker.join(' ') + "]").constData());
        // After the wakeup: runnable (woken) until it runs.
        const auto next = std::find_if(as.begin(), as.end(),
                                       [&](const E &e) { return e.timeNs == w.timeNs + w.durNs; });
        QVERIFY2(next != as.end() && next->state == E::Runnable && next->reason == E::Woken,
                 what.constData());
        // By the kernel's accounting, A's wait holds B's timer sleep and B's run after it;
        // a round the kernel did not run the probe for all of B's transitions in (counted)
        // cannot show it.
        QByteArray why;
        if (bSideHolds(w, bs, shortfall, &why))
            explained.append(w);
        else
            unexplained << why;
    }
    QVERIFY2(unexplained.size() <= r.transitionsMissed, unexplained.join("\n").constData());
    QVERIFY(!explained.isEmpty());

    // The critical path from A's last explained wakeup back to its block: B's timer wait, then
    // B's compute (on the CPU or waiting for one up to the wakeup), covering the whole wait.
    const E &last = explained.last();
    const ThreadStateIndex index(r.store);
    const CriticalPath path =
        criticalPath(r.store, index, a, last.timeNs, last.timeNs + last.durNs);
    QVERIFY(!path.steps.isEmpty());
    quint64 covered = 0;
    QByteArray steps;
    for (const CriticalPathStep &s : path.steps) {
        covered += s.durationNs();
        steps += QByteArray::number(s.tid) + ':' + E::stateName(s.state).toLatin1() + '/' +
                 E::reasonName(s.reason).toLatin1() + '/' + QByteArray::number(s.durationNs()) +
                 '/' + s.wakerComm + ' ';
    }
    QCOMPARE(covered, last.durNs);
    QVERIFY2(std::all_of(path.steps.begin(), path.steps.end(),
                         [&](const CriticalPathStep &s) { return s.tid == b && s.depth == 1; }),
             steps.constData());
    const auto timer = std::find_if(path.steps.begin(), path.steps.end(), [](const auto &s) {
        return s.state == E::Sleeping && s.reason == E::Sleep && s.wakerComm == "[irq]";
    });
    QVERIFY2(timer != path.steps.end(), steps.constData());
    quint64 computeOnPath = 0;
    bool ranOnPath = false;
    for (auto it = timer + 1; it != path.steps.end(); ++it) {
        QVERIFY2(it->state == E::Running || it->state == E::Runnable, steps.constData());
        ranOnPath = ranOnPath || it->state == E::Running;
        computeOnPath += it->durationNs();
    }
    QVERIFY2(ranOnPath && computeOnPath >= quint64(ComputeMs) * 1000000, steps.constData());
    QVERIFY2(path.steps.last().state == E::Running, steps.constData());
}

pid_t currentTid()
{
    return pid_t(syscall(SYS_gettid));
}

} // namespace

class TestThreadState : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        QVERIFY2(QFile::exists(QStringLiteral(BPFLENS_WAKECHAIN)), BPFLENS_WAKECHAIN);
    }

    void catalog()
    {
        const ProbeInfo *info = ProbeCatalog::find(QStringLiteral("threadstate"));
        QVERIFY(info);
        QVERIFY(info->eventTypes == QList<EventType>{EventType::ThreadState});
        QVariantMap opts;
        QString err;
        QVERIFY(ProbeCatalog::validate(QStringLiteral("threadstate"), {}, &opts, &err));
        QCOMPARE(opts.value(QStringLiteral("noStacks")).toBool(), false);
    }

    void pipeRounds()
    {
        QTemporaryDir dir;
        const QString tids = dir.filePath(QStringLiteral("tids"));
        Recording r = record(BPFLENS_WAKECHAIN,
                             {"pipe", QByteArray::number(Rounds), QByteArray::number(SleepMs),
                              QByteArray::number(ComputeMs), tids.toLocal8Bit()});
        QFile f(tids);
        QVERIFY(f.open(QIODevice::ReadOnly));
        r.wakeeTids = f.readAll();
        checkRounds(r, E::Pipe, {"pipe_write", "anon_pipe_write"});
    }

    void futexRounds()
    {
        QTemporaryDir dir;
        const QString tids = dir.filePath(QStringLiteral("tids"));
        Recording r = record(BPFLENS_WAKECHAIN,
                             {"futex", QByteArray::number(Rounds), QByteArray::number(SleepMs),
                              QByteArray::number(ComputeMs), tids.toLocal8Bit()});
        QFile f(tids);
        QVERIFY(f.open(QIODevice::ReadOnly));
        r.wakeeTids = f.readAll();
        checkRounds(r, E::Futex, {"futex_wake", "futex_wake_mark"});
    }

    // A disk read with O_DIRECT: the reader waits uninterruptibly for block I/O, and what ends
    // each wait is the completion, in an interrupt (or a kernel thread, for a device such as a
    // loop device that completes there), never the reader itself.
    void diskReadIsUninterruptibleIo()
    {
        const QString where = ioTestDirectory();
        const QString why = notOnADisk(where);
        if (!why.isEmpty())
            QSKIP(qPrintable(why));
        QTemporaryDir dir(where + QStringLiteral("/bpflens-threadstate-XXXXXX"));
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("data"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.write(QByteArray(4 << 20, 'x')) == 4 << 20);
            QVERIFY(f.flush());
            fsync(f.handle());
        }
        const Recording r = record("/bin/dd", {"if=" + path.toLocal8Bit(), "of=/dev/null",
                                               "bs=4096", "iflag=direct", "count=1024"});
        QVERIFY(r.ok);
        QCOMPARE(r.lost, 0u);
        qint64 missed = r.transitionsMissed;
        checkContiguous(spansOf(r, quint32(r.child)), &missed);
        int io = 0;
        qint64 unwoken = 0;
        for (const E &e : r.events) {
            // the reads' waits (not the exec's, which may wait for a VM's 9p root file system)
            const QList<QByteArray> stack = kernelSymbols(r.stacks, e.stackId);
            if (e.tid != quint32(r.child) || e.state != E::Uninterruptible ||
                !stack.contains("ksys_read"))
                continue;
            const QByteArray what = describe(e) + " [" + stack.join(' ') + "]";
            QVERIFY2(e.reason == E::Io, what.constData());
            // (a wakeup the kernel did not run the probe for is counted)
            if (e.wakerComm.isEmpty()) {
                QVERIFY2(++unwoken <= r.transitionsMissed, what.constData());
                continue;
            }
            QVERIFY2(e.wakerComm == "[irq]" || e.wakerComm == "[softirq]" ||
                         e.wakerComm.startsWith("kworker") || e.wakerComm.startsWith("loop"),
                     what.constData());
            ++io;
        }
        // (a read the device completes before its reader sleeps does not block at all)
        QVERIFY2(io > 0, "no uninterruptible I/O wait among 1024 direct reads");
    }

    // A process killed while it sleeps: its wait ends with this test's thread (the killer) as
    // its waker, though this test is outside the probe's filter, and nothing follows its exit.
    void killedSleeperIsWokenByItsKiller()
    {
        const pid_t me = currentTid();
        bool killed = false;
        const Recording r = record("/bin/sleep", {"30"}, [&](pid_t child) {
            // once it sleeps: its state in /proc says S
            QFile stat(QStringLiteral("/proc/%1/stat").arg(child));
            if (!stat.open(QIODevice::ReadOnly))
                return false;
            const QByteArray s = stat.readAll();
            const qsizetype close = s.lastIndexOf(')');
            if (close < 0 || s.mid(close + 2, 1) != "S")
                return false;
            QThread::msleep(50);
            killed = kill(child, SIGKILL) == 0;
            return true;
        });
        QVERIFY(r.ok);
        QVERIFY(killed);
        const QList<E> spans = spansOf(r, quint32(r.child));
        qint64 missed = r.transitionsMissed;
        checkContiguous(spans, &missed);
        QVERIFY(spans.size() >= 3);
        // (the last: the first is the fork's wait for the test's go, before the exec)
        auto wait = std::find_if(spans.rbegin(), spans.rend(),
                                 [](const E &e) { return e.blocked() && e.durNs >= 50000000; });
        QVERIFY(wait != spans.rend());
        QCOMPARE(wait->comm, QByteArray("sleep"));
        if (wait->reason != E::Sleep) {
            for (const E &e : spans)
                qInfo("%s [%s]", describe(e).constData(),
                      kernelSymbols(r.stacks, e.stackId).join(' ').constData());
        }
        QVERIFY2(wait->reason == E::Sleep && wait->wakerTid == quint32(me), describe(*wait));
        // then runnable, running, and gone: the exit's switch-out ends the last span
        QVERIFY2(spans.last().state == E::Running, describe(spans.last()));
        QVERIFY(wait != spans.rbegin() && std::prev(wait)->state == E::Runnable);
        // This test's own thread is the waker, but outside the filter: its states are not
        // recorded, so the critical path keeps the wait as the sleeper's own.
        const ThreadStateIndex index(r.store);
        QVERIFY(!index.hasThread(quint32(me)));
        const CriticalPath path = criticalPath(r.store, index, quint32(r.child), wait->timeNs,
                                               wait->timeNs + wait->durNs);
        QCOMPARE(path.steps.size(), 1);
        QCOMPARE(path.steps[0].wakerTid, quint32(me));
        QCOMPARE(path.steps[0].state, quint8(E::Sleeping));
    }
};

QTEST_GUILESS_MAIN(TestThreadState)
#include "tst_threadstate.moc"
