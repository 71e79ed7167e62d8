// The offwake probe against the real kernel: wakechain (tests/engine/offcpu) has its main thread
// A block 20 times, on a pipe or a condition variable, and its thread B wake it each time after
// sleeping 20 ms in writer_sleep and computing 5 ms in wake_writer_compute. B starts a round only
// once A is off the CPU. Every one of A's waits must come back joined with its waker: B's tid
// exactly, B's user stack at the wakeup holding the function that woke A, and A's time off the
// CPU at least B's sleep and compute, both by the clock and by the kernel's own accounting (B's
// recorded sleep, woken by the timer interrupt, and B's time on the CPU after it).
#include "core/probecatalog.h"
#include "helper/engine.h"
#include "helper/offwakeprobe.h"
#include "tests/engine/enginetestutil.h"
#include "tests/testutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace bpflens;
using namespace bpflens::test;

namespace {

constexpr int Rounds = 20;
constexpr int SleepMs = 20;
constexpr int ComputeMs = 5;

struct Recording
{
    bool ok = false;
    QString attachPath;
    StackTable stacks;
    QList<OffWakeEvent> events;
    quint64 lost = 0;
    qint64 missed = 0;
    qint64 stacksLost = 0;
    qint64 wakersLost = 0;
    qint64 wakerCopiesLost = 0;
    quint32 wakee = 0;
    quint32 waker = 0;
    QList<quint64> sleepStarts; // B's clock as each of its sleeps began (wakechain's sleeps file)
    quint64 runCount = 0;
    quint64 runTimeNs = 0;
};

Recording record(const char *mode, QVariantMap options = {})
{
    Recording r;
    QTemporaryDir dir;
    const QString tids = dir.filePath(QStringLiteral("tids"));
    const QString sleeps = dir.filePath(QStringLiteral("sleeps"));
    GatedExec child(BPFLENS_WAKECHAIN,
                    {mode, QByteArray::number(Rounds), QByteArray::number(SleepMs),
                     QByteArray::number(ComputeMs), tids.toLocal8Bit(), sleeps.toLocal8Bit()});
    if (!options.contains(QStringLiteral("pid")))
        options.insert(QStringLiteral("pid"), qint64(child.pid()));
    Engine engine;
    QList<ProbeConfig> req{{QStringLiteral("offwake"), options, {}}};
    QString err;
    if (!engine.start(req, &err)) {
        qWarning() << "start:" << err;
        return r;
    }
    r.attachPath = req[0].attachPath;
    bool defined = true;
    qint64 unseen = 0;
    auto consume = [&](RecordBatch &b) {
        QString why;
        if (!r.stacks.addDefinitions(b, &why)) {
            qWarning() << "definitions:" << why;
            defined = false;
        }
        QVERIFY(b.events<OffCpuEvent>().isEmpty());
        for (const OffWakeEvent &e : std::as_const(b.events<OffWakeEvent>())) {
            for (quint32 id : {e.stackId, e.wakerStackId}) {
                if (id && !r.stacks.hasStack(id)) {
                    qWarning() << "stack" << id << "used before its definition";
                    defined = false;
                }
            }
            r.events.append(e);
        }
        for (const ProbeStats &s : std::as_const(b.stats)) {
            r.lost = s.eventsLost;
            unseen = qint64(s.eventsUnseen);
            r.runCount = s.runCount;
            r.runTimeNs = s.runTimeNs;
        }
        for (const CounterSample &c : std::as_const(b.counters)) {
            if (c.name == OffCpuProbe::switchInsMissedCounter())
                r.missed += qint64(c.value);
            else if (c.name == OffCpuProbe::stacksLostCounter())
                r.stacksLost += qint64(c.value);
            else if (c.name == OffCpuProbe::wakersLostCounter())
                r.wakersLost += qint64(c.value);
            else if (c.name == OffCpuProbe::wakerCopiesLostCounter())
                r.wakerCopiesLost += qint64(c.value);
            else
                qWarning() << "counter" << c.name << c.value;
        }
    };
    child.go();
    while (!child.finished()) {
        RecordBatch b;
        engine.poll(50, b);
        consume(b);
    }
    RecordBatch last;
    engine.stop(&last);
    consume(last);
    r.missed += unseen;
    QFile f(tids);
    if (f.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> two = f.readAll().trimmed().split(' ');
        if (two.size() == 2) {
            r.wakee = two[0].toUInt();
            r.waker = two[1].toUInt();
        }
    }
    QFile s(sleeps);
    if (s.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : s.readAll().split('\n')) {
            if (!line.isEmpty())
                r.sleepStarts.append(line.toULongLong());
        }
    }
    r.ok = defined && child.exitedCleanly() && r.wakee && r.waker && r.sleepStarts.size() == Rounds;
    return r;
}

QList<QByteArray> symbols(const StackTable &t, quint32 stackId, FrameKind kind)
{
    QList<QByteArray> out;
    if (!t.hasStack(stackId))
        return out;
    for (quint32 f : t.stack(stackId).frames) {
        if (t.frame(f).kind == kind)
            out.append(t.frame(f).symbol);
    }
    return out;
}

QByteArray describe(const StackTable &t, const OffWakeEvent &e)
{
    return QByteArray::number(e.tid) + " off " + QByteArray::number(e.offNs) + " ns [" +
           symbols(t, e.stackId, FrameKind::User).join(' ') + " | " +
           symbols(t, e.stackId, FrameKind::Kernel).join(' ') + "] woken by " + e.wakerComm + " " +
           QByteArray::number(e.wakerTid) + " [" +
           symbols(t, e.wakerStackId, FrameKind::User).join(' ') + " | " +
           symbols(t, e.wakerStackId, FrameKind::Kernel).join(' ') + "]";
}

// A's waits of the rounds: blocked (not preempted: the copy of its user stack came as the call
// returned) in the function that waits.
QList<OffWakeEvent> waitsOf(const Recording &r, const QByteArray &waitFunction)
{
    QList<OffWakeEvent> waits;
    for (const OffWakeEvent &e : r.events) {
        if (e.tid == r.wakee &&
            symbols(r.stacks, e.stackId, FrameKind::User).contains(waitFunction) &&
            !(r.stacks.stack(e.stackId).flags & UserFramePointers))
            waits.append(e);
    }
    return waits;
}

// Checks every round of a recording: joined with B, B's stack, A's time against B's.
void checkRounds(const Recording &r, const QByteArray &waitFunction, const QByteArray &wakeFunction,
                 const QList<QByteArray> &kernelWaits)
{
    QVERIFY(r.ok);
    QVERIFY2(r.attachPath.contains(QStringLiteral("tp_btf/sched_waking")),
             qPrintable(r.attachPath));
    QCOMPARE(r.lost, 0u);
    QCOMPARE(r.wakersLost, 0);
    QCOMPARE(r.wakerCopiesLost, 0);
    const QList<OffWakeEvent> waits = waitsOf(r, waitFunction);
    if (waits.size() != Rounds || r.missed || r.stacksLost) {
        qInfo("%lld switch-ins not seen, %lld stacks lost", qlonglong(r.missed),
              qlonglong(r.stacksLost));
        for (const OffWakeEvent &e : r.events)
            qInfo("%s", describe(r.stacks, e).constData());
    }
    // Every wait the kernel ran the programs for: a switch-in it did not run them for (seen on
    // a loaded 6.18, as offcpu's tests see it) is counted as missed, never silently dropped.
    QVERIFY2(waits.size() == Rounds || (waits.size() < Rounds && waits.size() + r.missed >= Rounds),
             qPrintable(QStringLiteral("%1 of %2 waits, %3 switch-ins missed")
                            .arg(waits.size())
                            .arg(Rounds)
                            .arg(r.missed)));
    qint64 sleepsUnknown = 0;
    int sleepsWithoutWaker = 0;
    qInfo("BPF %.2f us per program run (%llu runs: switches, wakeups, system call exits)",
          r.runCount ? double(r.runTimeNs) / 1e3 / double(r.runCount) : 0.0,
          qulonglong(r.runCount));
    qint64 kernelStacksUnknown = 0;
    for (const OffWakeEvent &e : waits) {
        const QByteArray what = describe(r.stacks, e);
        QCOMPARE(e.pid, r.wakee);
        QCOMPARE(e.comm, QByteArray("wakee"));
        // blocked where it waits (the names differ across kernels: one of them), or its kernel
        // stack lost and counted (the stack map full or colliding: seen in a loaded 5.10 guest)
        const QList<QByteArray> kernel = symbols(r.stacks, e.stackId, FrameKind::Kernel);
        const bool kernelLost = kernel.isEmpty() && ++kernelStacksUnknown <= r.stacksLost;
        QVERIFY2(kernelLost || std::any_of(kernelWaits.begin(), kernelWaits.end(),
                                           [&](const QByteArray &f) { return kernel.contains(f); }),
                 what.constData());
        // Joined with B, exactly.
        QVERIFY2(e.wakerTid == r.waker, what.constData());
        QCOMPARE(e.wakerPid, r.wakee);
        QCOMPARE(e.wakerComm, QByteArray("waker"));
        // Woken inside the span, as B's write or signal returned from the kernel.
        QVERIFY2(e.wakeNs > e.timeNs && e.wakeNs <= e.timeNs + e.offNs, what.constData());
        // B's stack at the wakeup: the kernel's wakeup inside B's system call, and B's own code
        // unwound with DWARF from the copy taken there (not frame pointers: A had been off the
        // CPU for over the minimum when B woke it).
        QVERIFY2(r.stacks.hasStack(e.wakerStackId), what.constData());
        const QList<QByteArray> wakerUser = symbols(r.stacks, e.wakerStackId, FrameKind::User);
        QVERIFY2(wakerUser.contains(wakeFunction) && wakerUser.contains("writer_round") &&
                     wakerUser.indexOf(wakeFunction) < wakerUser.indexOf("writer_round"),
                 what.constData());
        QVERIFY2(!(r.stacks.stack(e.wakerStackId).flags & UserFramePointers), what.constData());
        QVERIFY2(symbols(r.stacks, e.wakerStackId, FrameKind::Kernel).contains("try_to_wake_up"),
                 what.constData());
        // A's wait holds all of B's sleep and compute, by B's clock...
        QVERIFY2(e.offNs >= quint64(SleepMs + ComputeMs) * 1000000, what.constData());
        // ... and by the kernel's accounting: B's own wait before the wakeup (its sleep, woken
        // by the timer's interrupt: the chain's second link) and B's time from its switch-in to
        // the wakeup.
        const OffWakeEvent *sleep = nullptr;
        for (const OffWakeEvent &b : r.events) {
            if (b.tid == r.waker && b.timeNs + b.offNs <= e.wakeNs &&
                (!sleep || b.timeNs + b.offNs > sleep->timeNs + sleep->offNs) &&
                symbols(r.stacks, b.stackId, FrameKind::User).contains("writer_sleep"))
                sleep = &b;
        }
        // (a sleep whose stacks the stack map had no room for is not known as one, and one whose
        // switch-in the kernel did not run the program for is not reported: both counted)
        if (!sleep || sleep->timeNs < e.timeNs) {
            QVERIFY2(++sleepsUnknown <= r.stacksLost + r.missed, what.constData());
            continue;
        }
        QByteArray slept = describe(r.stacks, *sleep);
        // The sleep's timer was armed after B read its clock as the sleep began (the last start
        // before the span's), so the span ends 20 ms after that at the earliest. Not its length:
        // the span starts at the switch-out, microseconds after the arming on a real CPU, but an
        // emulated one (the matrix's TCG guests) may stall in between while its clock goes on
        // (16.2 ms of a 20 ms sleep were recorded on 6.1, 19.4 on another run).
        const auto after =
            std::upper_bound(r.sleepStarts.begin(), r.sleepStarts.end(), sleep->timeNs);
        QVERIFY2(after != r.sleepStarts.begin(), slept.constData());
        const quint64 began = *std::prev(after);
        slept += " (the sleep began at " + QByteArray::number(began) + ")";
        QVERIFY2(sleep->timeNs + sleep->offNs >= began + quint64(SleepMs) * 1000000,
                 slept.constData());
        // the timer's interrupt, or not known when its kernel stack was lost. On the 6.18 test
        // machine about one such sleep in several hundred ends at a switch-in that finds no
        // wakeup recorded (the sched_waking program did not record one; neither a full map, a
        // nested run nor a missed switch-in was counted; cause not established, issue #33's
        // note): at most one per run, said.
        if (sleep->wakerComm.isEmpty() && sleep->wakerTid == 0 && ++sleepsWithoutWaker == 1) {
            qInfo("a sleep of B without its wakeup: %s", slept.constData());
            continue;
        }
        QVERIFY2((sleep->wakerComm == "[irq]" ||
                  (sleep->wakerComm == "[unknown]" && r.stacksLost > 0)) &&
                     sleep->wakerTid == 0,
                 slept.constData());
        QVERIFY2(!r.stacks.hasStack(sleep->wakerStackId) ||
                     (r.stacks.stack(sleep->wakerStackId).flags & NoUserStack),
                 slept.constData());
        const quint64 computed = e.wakeNs - (sleep->timeNs + sleep->offNs);
        QVERIFY2(computed >= quint64(ComputeMs) * 1000000, slept.constData());
        QVERIFY2(e.offNs >= sleep->offNs + computed, (what + " / " + slept).constData());
    }
}

} // namespace

class TestOffWake : public QObject
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
        const ProbeInfo *info = ProbeCatalog::find(QStringLiteral("offwake"));
        QVERIFY(info);
        QVERIFY(info->eventTypes == QList<EventType>{EventType::OffWake});
        QVariantMap opts;
        QString err;
        QVERIFY(ProbeCatalog::validate(QStringLiteral("offwake"), {}, &opts, &err));
        QCOMPARE(opts.value(QStringLiteral("minUs")).toLongLong(), 1000);
        QVERIFY(info->lossCounters().contains(QStringLiteral("wakersLost")));
    }

    void pipeRounds()
    {
        const Recording r = record("pipe");
        checkRounds(r, "wait_for_byte", "wake_writer_write", {"pipe_read", "anon_pipe_read"});
    }

    void futexRounds()
    {
        const Recording r = record("futex");
        checkRounds(r, "wait_for_signal", "wake_writer_signal",
                    {"futex_wait_queue", "__futex_wait", "futex_wait"});
    }
};

QTEST_GUILESS_MAIN(TestOffWake)
#include "tst_offwake.moc"
