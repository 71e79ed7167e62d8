// The offcpu probe against the real kernel: sleepchain (tests/engine/offcpu, built with frame
// pointers) sleeps in nanosleep a known number of times through main -> sleep_a -> sleep_b ->
// nap. Filtered to it, every sleep must come back as one event at least as long as the sleep,
// with the kernel's sleeping path and the program's own chain, and nothing shorter than the
// probe's minimum.
#include "core/probecatalog.h"
#include "helper/engine.h"
#include "helper/offcpuprobe.h"
#include "tests/engine/enginetestutil.h"
#include "tests/testutil.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <ctime>

using namespace bpflens;
using namespace bpflens::test;

namespace {

struct Recording
{
    bool ok = false;
    QString attachPath;
    StackTable stacks;
    QList<OffCpuEvent> events;
    quint64 lost = 0;
    quint64 runCount = 0;
    quint64 runTimeNs = 0;
    qint64 missed = 0;                    // switch-ins the kernel never ran the program for
    qint64 stacksLost = 0;                // stacks the probe reported it could not keep
    qint64 stacksLostBeforeContinue = -1; // (short waits: those reported when it was continued)
    quint64 continuedNs = 0; // (short waits: CLOCK_MONOTONIC, the events' clock, at the SIGCONT)
    pid_t pid = 0;
};

// Whether the process is stopped (by a signal), from /proc/<pid>/stat's state.
bool isStopped(pid_t pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray stat = f.readAll();
    const qsizetype i = stat.lastIndexOf(") ");
    return i >= 0 && i + 2 < stat.size() && stat.at(i + 2) == 'T';
}

// Runs sleepchain count ms under the probe (filtered to it unless options say otherwise). With
// short waits, sleepchain stops itself after them, and is continued once the recorder has
// drained for a second and three times since: whatever it does with the short waits' stacks has
// been done before the sleeps (the drain that symbolizes the storm's longer spans can take
// seconds on a loaded emulated CPU, and nothing else of the recorder runs meanwhile).
Recording record(int count, int ms, QVariantMap options, const char *program = BPFLENS_SLEEPCHAIN,
                 int lingerMs = 0, int shortWaits = 0)
{
    Recording r;
    GatedExec child(program, {QByteArray::number(count), QByteArray::number(ms),
                              QByteArray::number(lingerMs), QByteArray::number(shortWaits)});
    r.pid = child.pid();
    if (!options.contains(QStringLiteral("pid")))
        options.insert(QStringLiteral("pid"), qint64(child.pid()));
    Engine engine;
    QList<ProbeConfig> req{{QStringLiteral("offcpu"), options, {}}};
    QString err;
    if (!engine.start(req, &err)) {
        qWarning() << "start:" << err;
        return r;
    }
    r.attachPath = req[0].attachPath;
    bool defined = true;
    qint64 unseen = 0; // the programs' runs the kernel skipped (ProbeStats::eventsUnseen)
    auto consume = [&](RecordBatch &b) {
        QString why;
        if (!r.stacks.addDefinitions(b, &why)) {
            qWarning() << "definitions:" << why;
            defined = false;
        }
        for (const OffCpuEvent &e : std::as_const(b.events<OffCpuEvent>())) {
            if (e.stackId && !r.stacks.hasStack(e.stackId)) {
                qWarning() << "stack" << e.stackId << "used before its definition";
                defined = false;
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
            else
                qWarning() << "counter" << c.name << c.value;
        }
    };
    child.go();
    QElapsedTimer stopped;
    int drainsSinceStop = 0;
    bool statsSinceStop = false; // the counters read after the stop: the storm's losses are in
    bool continued = shortWaits == 0;
    qint64 longestDrainMs = 0;
    while (!child.finished()) {
        RecordBatch b;
        QElapsedTimer drain;
        drain.start();
        engine.poll(50, b);
        consume(b);
        if (continued)
            continue;
        longestDrainMs = qMax(longestDrainMs, drain.elapsed());
        if (!stopped.isValid()) {
            if (isStopped(r.pid))
                stopped.start();
        } else if ((statsSinceStop = statsSinceStop || !b.stats.isEmpty()) &&
                   ++drainsSinceStop >= 3 && stopped.elapsed() >= 1000) {
            timespec now{};
            clock_gettime(CLOCK_MONOTONIC, &now);
            r.continuedNs = quint64(now.tv_sec) * 1000000000ull + quint64(now.tv_nsec);
            kill(r.pid, SIGCONT);
            continued = true;
            r.stacksLostBeforeContinue = r.stacksLost;
            qInfo("before the sleeps: %lld spans, the longest drain %lld ms",
                  qlonglong(r.events.size()), longestDrainMs);
        }
    }
    RecordBatch last;
    engine.stop(&last);
    consume(last);
    // A switch the kernel skipped the program for (recursion_misses) is a switch-in or -out
    // not seen either: counted with them, so that a sleep missing for it is accounted for.
    if (unseen)
        qInfo("the kernel skipped the programs %lld times", qlonglong(unseen));
    r.missed += unseen;
    r.ok = defined && child.exitedCleanly();
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

// Blocked in the sleep itself (schedule called by do_nanosleep), not preempted on the way.
bool sleptInNanosleep(const StackTable &t, const OffCpuEvent &e)
{
    const QList<QByteArray> kernel = symbols(t, e.stackId, FrameKind::Kernel);
    const qsizetype i = kernel.indexOf("do_nanosleep");
    return i > 0 && kernel[i - 1] == "schedule";
}

// Whether the user frames (leaf first) hold nap, sleep_b, sleep_a, main in this order.
bool hasSleepChain(const StackTable &t, const OffCpuEvent &e)
{
    const QList<QByteArray> user = symbols(t, e.stackId, FrameKind::User);
    const QList<QByteArray> chain{"nap", "sleep_b", "sleep_a", "main"};
    const qsizetype i = user.indexOf("nap");
    return i >= 0 && user.mid(i, chain.size()) == chain;
}

// The sleepchain's sleeps among a recording's events: spans of 10 ms or more in nanosleep, with
// a user stack unwound from the copy taken at the call's return. A thread woken from its sleep
// can also be preempted inside schedule() before it returns: its stack is the sleep's, but it
// was runnable, so no copy was promised (frame pointers), and it waits as long as the CPU is
// busy (tens of ms on a loaded emulated CPU, starting up to 11 ms after the sleep's end). Those
// spans are not sleeps; a sleep whose copy did not come is not counted either, so the tests'
// count of sleeps (all of them, or the missed) is what catches a copy that went wrong.
QList<OffCpuEvent> sleepsOf(const Recording &r)
{
    QList<OffCpuEvent> sleeps;
    for (const OffCpuEvent &e : r.events) {
        if (sleptInNanosleep(r.stacks, e) && e.offNs >= 10000000 &&
            !(r.stacks.stack(e.stackId).flags & UserFramePointers))
            sleeps.append(e);
    }
    return sleeps;
}

// Every span of a recording, for the log of a failed count.
void dumpSpans(const Recording &r)
{
    for (const OffCpuEvent &e : r.events) {
        const quint8 flags = r.stacks.hasStack(e.stackId) ? r.stacks.stack(e.stackId).flags : 0;
        qInfo("at %llu off %llu ns, stack flags %d: %s | %s", qulonglong(e.timeNs),
              qulonglong(e.offNs), flags,
              symbols(r.stacks, e.stackId, FrameKind::User).join(' ').constData(),
              symbols(r.stacks, e.stackId, FrameKind::Kernel).join(' ').constData());
    }
}

} // namespace

class TestOffCpu : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        QVERIFY2(QFile::exists(QStringLiteral(BPFLENS_SLEEPCHAIN)), BPFLENS_SLEEPCHAIN);
    }

    void catalog()
    {
        const ProbeInfo *info = ProbeCatalog::find(QStringLiteral("offcpu"));
        QVERIFY(info);
        QCOMPARE(info->group, ProbeGroup::Cpu);
        QVERIFY(info->producesEvents);
        QVariantMap opts;
        QString err;
        QVERIFY(ProbeCatalog::validate(QStringLiteral("offcpu"), {}, &opts, &err));
        QCOMPARE(opts.value(QStringLiteral("minUs")).toLongLong(), 1000);
        QVERIFY(!ProbeCatalog::validate(
            QStringLiteral("offcpu"),
            {{QStringLiteral("kernelOnly"), true}, {QStringLiteral("userOnly"), true}}, &opts,
            &err));
        QVERIFY2(err.contains(QStringLiteral("exclude")), qPrintable(err));
    }

    void tenSleeps()
    {
        const Recording r = record(10, 50, {});
        QVERIFY(r.ok);
        QVERIFY2(r.attachPath.startsWith(QStringLiteral("tp_btf/sched_switch")),
                 qPrintable(r.attachPath));
        QCOMPARE(r.lost, 0u);
        for (const OffCpuEvent &e : r.events) {
            QCOMPARE(e.pid, quint32(r.pid));
            QVERIFY(e.offNs >= 1000000); // the default minimum, 1 ms
        }
        const QList<OffCpuEvent> sleeps = sleepsOf(r);
        if (sleeps.size() < 8 || sleeps.size() + r.missed < 10)
            dumpSpans(r);
        for (const OffCpuEvent &e : sleeps)
            QCOMPARE(e.comm, QByteArray("sleepchain"));
        // Every sleep is an event, or is accounted for by the probe's own counters (see
        // offcpu.bpf.c's switch_in_missed; a sleep whose kernel stack was lost, on a machine
        // loaded enough that the map was full, is not known as one): nothing goes missing
        // unreported.
        if (r.missed || r.stacksLost)
            qInfo("%lld switch-ins not seen, %lld stacks lost", qlonglong(r.missed),
                  qlonglong(r.stacksLost));
        QVERIFY2(sleeps.size() <= 10 && sleeps.size() + r.missed + r.stacksLost >= 10,
                 qPrintable(QStringLiteral("%1 sleeps, %2 missed, %3 stacks lost")
                                .arg(sleeps.size())
                                .arg(r.missed)
                                .arg(r.stacksLost)));
        // Most of them known as sleeps, less those the probe reported (a 5.10 guest's slow first
        // drain: see unwindsCodeWithoutFramePointers).
        QVERIFY2(sleeps.size() >= qMax<qint64>(5, 8 - r.missed - r.stacksLost),
                 qPrintable(QStringLiteral("%1 sleeps, %2 missed, %3 stacks lost")
                                .arg(sleeps.size())
                                .arg(r.missed)
                                .arg(r.stacksLost)));
        // A sleep is off the CPU for its 50 ms, less the time the thread was preempted between
        // arming the timer and calling schedule() (on one loaded emulated CPU, 4 ms was seen):
        // most sleeps show all of it.
        QList<quint64> offs;
        for (const OffCpuEvent &e : std::as_const(sleeps))
            offs.append(e.offNs);
        std::sort(offs.begin(), offs.end());
        QVERIFY2(offs.at(offs.size() / 2) >= 50000000,
                 qPrintable(QString::number(offs.at(offs.size() / 2))));
        qint64 userLost = 0;
        for (const OffCpuEvent &e : std::as_const(sleeps)) {
            QVERIFY2(e.offNs < 2000000000ull, qPrintable(QString::number(e.offNs)));
            const QList<QByteArray> kernel = symbols(r.stacks, e.stackId, FrameKind::Kernel);
            QVERIFY2(kernel.contains("schedule"), kernel.join(' ').constData());
            QVERIFY(kernel.indexOf("schedule") < kernel.indexOf("do_nanosleep"));
            // Unwound with DWARF from the copy taken as nanosleep returned, to the first frame;
            // or its user stack lost, and counted so.
            const StackDefinition &s = r.stacks.stack(e.stackId);
            if (s.flags & NoUserStack) {
                ++userLost;
                continue;
            }
            QVERIFY(!(s.flags & UserStackTruncated));
            QVERIFY2(hasSleepChain(r.stacks, e),
                     symbols(r.stacks, e.stackId, FrameKind::User).join(' ').constData());
        }
        QVERIFY(userLost <= r.stacksLost);
        // Sorted by switch-out, 50 ms apart at least.
        for (qsizetype i = 1; i < sleeps.size(); ++i)
            QVERIFY(sleeps[i].timeNs >= sleeps[i - 1].timeNs + sleeps[i - 1].offNs);
    }

    // Code without frame pointers blocking in libc, as most of Debian's: the copy of the user
    // stack taken when nanosleep returns unwinds it with DWARF CFI. Frame pointers alone
    // (stackBytes 0) never find the chain: the control that shows the copy is what finds it.
    void unwindsCodeWithoutFramePointers()
    {
#if !defined(__x86_64__)
        QSKIP("the BPF side copies user registers on x86_64 only");
#endif
        const Recording r = record(10, 50, {}, BPFLENS_SLEEPCHAIN_NOFP);
        QVERIFY(r.ok);
        QVERIFY2(r.attachPath.contains(QStringLiteral("sys_exit")), qPrintable(r.attachPath));
        QCOMPARE(r.lost, 0u);
        const QList<OffCpuEvent> sleeps = sleepsOf(r);
        if (sleeps.size() < 8 || sleeps.size() + r.missed < 10)
            dumpSpans(r);
        qint64 userLost = 0; // (see tenSleeps)
        for (const OffCpuEvent &e : sleeps) {
            if (r.stacks.stack(e.stackId).flags & NoUserStack) {
                ++userLost;
                continue;
            }
            const QList<QByteArray> user = symbols(r.stacks, e.stackId, FrameKind::User);
            QVERIFY2(hasSleepChain(r.stacks, e), user.join(' ').constData());
            QVERIFY2(!(r.stacks.stack(e.stackId).flags & UserStackTruncated),
                     user.join(' ').constData());
        }
        QVERIFY(userLost <= r.stacksLost);
        // A sleep whose kernel stack was lost is not known as one (see tenSleeps): a 5.10
        // guest's slow first drain held the startup's stacks while the first three sleeps
        // switched out, and their shared stack's bucket was taken (3 reported lost).
        QVERIFY2(sleeps.size() - userLost >= qMax<qint64>(5, 8 - r.stacksLost) &&
                     sleeps.size() + r.missed + r.stacksLost >= 10,
                 qPrintable(QStringLiteral("%1 sleeps, %2 missed, %3 stacks lost")
                                .arg(sleeps.size())
                                .arg(r.missed)
                                .arg(r.stacksLost)));

        const Recording fp =
            record(5, 20, {{QStringLiteral("stackBytes"), 0}}, BPFLENS_SLEEPCHAIN_NOFP);
        QVERIFY(fp.ok);
        QVERIFY2(!fp.attachPath.contains(QStringLiteral("sys_exit")), qPrintable(fp.attachPath));
        qsizetype fpSleeps = 0;
        qint64 fpUserLost = 0; // lost and counted, as above
        for (const OffCpuEvent &e : fp.events) {
            if (!sleptInNanosleep(fp.stacks, e))
                continue;
            ++fpSleeps;
            const quint32 flags = fp.stacks.stack(e.stackId).flags;
            if (flags & NoUserStack) {
                ++fpUserLost;
                continue;
            }
            QVERIFY2(
                flags & UserFramePointers,
                qPrintable(QStringLiteral("stack flags 0x%1: %2")
                               .arg(flags, 0, 16)
                               .arg(QString::fromUtf8(
                                   symbols(fp.stacks, e.stackId, FrameKind::User).join(' ')))));
            QVERIFY2(!hasSleepChain(fp.stacks, e),
                     symbols(fp.stacks, e.stackId, FrameKind::User).join(' ').constData());
        }
        QVERIFY2(fpUserLost <= fp.stacksLost,
                 qPrintable(QStringLiteral("%1 user stacks missing, %2 counted lost")
                                .arg(fpUserLost)
                                .arg(fp.stacksLost)));
        // Each sleep a span known as one, or accounted for by the probe's counters, as in
        // tenSleeps: a sleep whose kernel stack was lost (and counted) is not known as a sleep.
        if (fpSleeps + fp.missed < 5)
            dumpSpans(fp);
        QVERIFY2(fpSleeps + fp.missed + fp.stacksLost >= 5,
                 qPrintable(QStringLiteral("%1 sleeps, %2 missed, %3 stacks lost")
                                .arg(fpSleeps)
                                .arg(fp.missed)
                                .arg(fp.stacksLost)));
    }

    // Waits under the minimum are not reported, but their stacks were taken at the switch-out:
    // thousands of distinct ones (a busy machine's) must not stay in the stack map, where each
    // takes a bucket and the stacks that hash to it are lost. Before the sweep, 12000 short waits
    // through distinct chains left the sleeps after them without stacks.
    void shortWaitsLeaveNoStackBehind()
    {
        const Recording r = record(10, 50, {}, BPFLENS_SLEEPCHAIN, 0, 12000);
        QVERIFY(r.ok);
        QCOMPARE(r.lost, 0u);
        // During the storm itself stacks are lost (12000 distinct ones in a 4096-bucket map,
        // swept every 100 ms); after the stop that ends it, which lasts until the recorder has
        // drained for a second, none may be. What follows the continue is told by the clock,
        // not by a span: under a loaded emulated CPU a short wait can last a second too (91
        // "sleeps" followed such a one on 6.12), and the stop's own stack, taken as the storm
        // ends, may be one the unswept map had no room for.
        QVERIFY(r.continuedNs > 0);
        Recording after = r;
        after.events.clear();
        for (const OffCpuEvent &e : r.events) {
            if (e.timeNs < r.continuedNs)
                continue;
            after.events.append(e);
        }
        // Before the sweep, some 86% of the buckets stayed taken: a sleep kept both its stacks
        // with a chance of about 2%, and none of the ten did. With it, the map is empty again
        // after the stop: at least 8 of the 10 sleeps keep their whole chain. (The stop used to
        // be a second's poll(): a recorder still symbolizing the storm's longer spans had not
        // swept by then, and a 6.1 guest lost all ten sleeps' user stacks.)
        const QList<OffCpuEvent> sleeps = sleepsOf(after);
        qsizetype whole = 0;
        for (const OffCpuEvent &e : sleeps)
            whole += hasSleepChain(after.stacks, e) ? 1 : 0;
        if (whole < 8)
            dumpSpans(after);
        // And none lost after the stop: the map had room for every stack of the sleeps. (Their
        // user stacks alone would not show a full map: a sleep's copy unwinds without its
        // frame-pointer chain's id.)
        QVERIFY(r.stacksLostBeforeContinue >= 0);
        QCOMPARE(r.stacksLost - r.stacksLostBeforeContinue, 0);
        QVERIFY2(whole >= 8 && sleeps.size() <= 10,
                 qPrintable(QStringLiteral("%1 of %2 sleeps with their stacks, %3 missed, %4 "
                                           "stacks lost")
                                .arg(whole)
                                .arg(sleeps.size())
                                .arg(r.missed)
                                .arg(r.stacksLost)));
    }

    void minimumCutsShorterOnes()
    {
        // 10 ms sleeps under a 500 ms minimum: none is reported (unless the machine is so
        // loaded that a woken thread waits 490 ms for a CPU).
        const Recording r = record(10, 10, {{QStringLiteral("minUs"), 500000}});
        QVERIFY(r.ok);
        for (const OffCpuEvent &e : r.events)
            QVERIFY(e.offNs >= 500000000);
        QVERIFY(r.events.size() <= 1);
        const Recording all = record(5, 20, {{QStringLiteral("minUs"), 10000}});
        QVERIFY(all.ok);
        qsizetype n = 0;
        for (const OffCpuEvent &e : all.events)
            n += sleptInNanosleep(all.stacks, e);
        // (n can exceed 5: a preemption inside schedule() has the sleep's stack, see tenSleeps)
        QVERIFY2(n + all.missed >= 5,
                 qPrintable(QStringLiteral("%1 sleeps, %2 missed").arg(n).arg(all.missed)));
    }

    // Many short sleeps in one place: the thread is asleep again with the same stack ids while
    // user space reads the previous event and drops its references. No event may lose a stack.
    void repeatedStacksStayDefined()
    {
        const Recording r = record(300, 2, {});
        QVERIFY(r.ok);
        qsizetype n = 0;
        for (const OffCpuEvent &e : r.events) {
            if (!sleptInNanosleep(r.stacks, e))
                continue;
            ++n;
            QVERIFY2(hasSleepChain(r.stacks, e),
                     symbols(r.stacks, e.stackId, FrameKind::User).join(' ').constData());
        }
        if (r.missed)
            qInfo("%lld switch-ins not seen", qlonglong(r.missed));
        qInfo("BPF %.2f us per context switch (%llu switches)",
              r.runCount ? r.runTimeNs / 1e3 / double(r.runCount) : 0.0, qulonglong(r.runCount));
        // Not every one of 300: a 2 ms sleep whose thread was preempted for over 1 ms between
        // arming its timer and calling schedule() is off the CPU for less than the 1 ms minimum
        // (one of 300 on a loaded emulated CPU), and rightly not reported.
        QVERIFY2(n >= 290, qPrintable(QStringLiteral("%1 sleeps, %2 missed").arg(n).arg(r.missed)));
    }

    void kernelOnlyAndUserOnly()
    {
        const Recording k = record(3, 20, {{QStringLiteral("kernelOnly"), true}});
        QVERIFY(k.ok);
        QVERIFY(!k.events.isEmpty());
        for (const OffCpuEvent &e : k.events) {
            QVERIFY(symbols(k.stacks, e.stackId, FrameKind::User).isEmpty());
            QVERIFY(k.stacks.stack(e.stackId).flags & NoUserStack);
        }
        // It stays a while after its sleeps: a process that exits within milliseconds of its
        // only waits may take its maps along before a loaded machine's helper reads them (see
        // docs/profiling.md, processes that exit quickly), which is not what this test is about.
        const Recording u =
            record(3, 20, {{QStringLiteral("userOnly"), true}}, BPFLENS_SLEEPCHAIN, 300);
        QVERIFY(u.ok);
        qsizetype chains = 0;
        for (const OffCpuEvent &e : u.events) {
            QVERIFY(symbols(u.stacks, e.stackId, FrameKind::Kernel).isEmpty());
            chains += hasSleepChain(u.stacks, e);
        }
        QVERIFY2(
            chains + u.missed >= 3,
            qPrintable(QStringLiteral("%1 sleep chains, %2 missed").arg(chains).arg(u.missed)));
    }

    void commFilter()
    {
        // No pid filter: the name alone selects the program among everything that sleeps.
        const Recording r = record(
            3, 20,
            {{QStringLiteral("comm"), QStringLiteral("sleepchain")}, {QStringLiteral("pid"), 0}});
        QVERIFY(r.ok);
        qsizetype n = 0;
        for (const OffCpuEvent &e : r.events) {
            QCOMPARE(e.comm, QByteArray("sleepchain"));
            n += sleptInNanosleep(r.stacks, e) && e.pid == quint32(r.pid);
        }
        QVERIFY2(n + r.missed >= 3,
                 qPrintable(QStringLiteral("%1 sleeps, %2 missed").arg(n).arg(r.missed)));
    }
};

QTEST_GUILESS_MAIN(TestOffCpu)
#include "tst_offcpu.moc"
