// The oomkill probe against the real kernel: a child in a cgroup limited to 32 MiB (v2's
// memory.max with no swap, or v1's memory.limit_in_bytes where the memory controller is v1, as on
// the hybrid Debian machines) touches fresh anonymous memory until the OOM killer kills it.
// Exactly one kill is recorded: the child's pid and comm, the child as the task that ran the OOM
// killer, the memcg constraint, the child's cgroup v2 id and its memory (at least what it had
// touched when it was killed, at most the limit and what it still shares with the test). A
// process killed with SIGKILL by another is no OOM kill: nothing is recorded for it, nor for a
// kill outside the pid filter.
#include "core/probecatalog.h"
#include "helper/engine.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/hooktestutil.h"
#include "tests/engine/memcgtestutil.h"
#include "tests/testutil.h"

#include <QFile>
#include <QTest>

#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens;

namespace {

constexpr quint64 Limit = 32ull << 20;

// This process's anonymous resident memory (RssAnon in /proc/self/status), in bytes.
quint64 rssAnonBytes()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith("RssAnon:"))
            return line.mid(8).trimmed().split(' ').value(0).toULongLong() * 1024;
    }
    return 0;
}

struct Recording
{
    bool started = false;
    QString error;
    QString attachPath;
    QList<OomKillEvent> events;
};

// Records oomkill with options while run() runs, until it returns.
template<typename Run>
Recording record(const QVariantMap &options, Run &&run)
{
    Recording r;
    Engine engine;
    QList<ProbeConfig> req{{QStringLiteral("oomkill"), options, {}}};
    r.started = engine.start(req, &r.error);
    if (!r.started)
        return r;
    r.attachPath = req.first().attachPath;
    run();
    RecordBatch b;
    engine.poll(100, b);
    r.events += b.events<OomKillEvent>();
    RecordBatch last;
    engine.stop(&last);
    r.events += last.events<OomKillEvent>();
    return r;
}

} // namespace

class TestOomKill : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void declaration()
    {
        const ProbeInfo *info = ProbeCatalog::find(QStringLiteral("oomkill"));
        QVERIFY(info);
        QCOMPARE(info->group, ProbeGroup::Memory);
        QCOMPARE(info->eventTypes, QList<EventType>{EventType::OomKill});
        QVERIFY(!info->producesHistograms);
    }

    void killInAMemoryLimitedCgroup()
    {
        BPFLENS_REQUIRE_ROOT("makes a memory-limited cgroup and loads the oomkill probe");
        test::MemoryCgroup cg;
        QString why, error;
        const QByteArray name = "bpflens-oomkill-" + QByteArray::number(getpid());
        if (!cg.make(name, test::MemoryCgroup::Max, Limit, &why, &error)) {
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QSKIP(qPrintable(why));
        }
        // The child touches 4 KiB pages of anonymous memory, four times the limit, and counts
        // them in memory it shares with the test, which outlives its kill.
        auto *touched = static_cast<volatile quint64 *>(mmap(
            nullptr, sizeof(quint64), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
        QVERIFY(touched != MAP_FAILED);
        *touched = 0;
        const quint64 inherited = rssAnonBytes();
        test::GatedChild child([touched] {
            prctl(PR_SET_NAME, "bpflens-oomkid", 0, 0, 0);
            const size_t size = 4 * Limit;
            auto *p = static_cast<char *>(
                mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
            if (p == MAP_FAILED)
                _exit(2);
            for (size_t off = 0; off < size; off += 4096) {
                p[off] = 1;
                *touched = off + 4096;
            }
            _exit(3); // not killed
        });
        QVERIFY(child.pid() > 0);
        QVERIFY2(cg.add(child.pid(), &error), qPrintable(error));

        // Another process killed by SIGKILL from the test: not an OOM kill.
        test::GatedChild bystander([] { pause(); });
        QVERIFY(bystander.pid() > 0);

        int status = 0;
        const Recording r = record({}, [&] {
            kill(bystander.pid(), SIGKILL);
            status = child.run();
        });
        QVERIFY2(r.started, qPrintable(r.error));
        QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
                 qPrintable(QStringLiteral("the child was not OOM-killed: status %1").arg(status)));
        qInfo("attached at %s; the child had touched %llu KiB; %s cgroup", qPrintable(r.attachPath),
              static_cast<unsigned long long>(*touched >> 10), cg.isV1() ? "v1" : "v2");

        QList<OomKillEvent> ours;
        for (const OomKillEvent &e : r.events) {
            QVERIFY2(e.pid != quint32(bystander.pid()), "a SIGKILL from a process is no OOM kill");
            if (e.pid == quint32(child.pid()) || e.cgroupId == cg.id())
                ours.append(e);
        }
        QCOMPARE(ours.size(), 1);
        const OomKillEvent &e = ours.first();
        QCOMPARE(e.pid, quint32(child.pid()));
        QCOMPARE(e.comm, QByteArray("bpflens-oomkid"));
        QCOMPARE(e.cgroupId, cg.id());
        QCOMPARE(int(e.constraint), int(OomKillEvent::Memcg));
        // The child's own allocation ran the OOM killer.
        QCOMPARE(e.triggerPid, quint32(child.pid()));
        QCOMPARE(e.triggerTid, quint32(child.pid()));
        QCOMPARE(e.triggerComm, QByteArray("bpflens-oomkid"));
        // Its memory: the mapping of four times the limit; resident, at most the limit and what
        // it shares with the test since the fork (charged to the test's cgroup, counted in its
        // RSS too), at least the pages it had touched: less what the kernel's count leaves out,
        // since 6.2 a per-CPU counter whose CPUs each hold back up to max(32, 2 * CPUs) pages
        // (its "Killed process" line reads the same approximation).
        const quint64 cpus = quint64(sysconf(_SC_NPROCESSORS_CONF));
        const quint64 heldBack = cpus * qMax<quint64>(32, 2 * cpus) * 4096;
        QVERIFY2(e.totalVmBytes >= 4 * Limit, qPrintable(QString::number(e.totalVmBytes)));
        QVERIFY2(e.anonRssBytes + heldBack >= *touched &&
                     e.anonRssBytes <= Limit + inherited + heldBack,
                 qPrintable(QStringLiteral("anon RSS %1, touched %2, shared with the test %3")
                                .arg(e.anonRssBytes)
                                .arg(*touched)
                                .arg(inherited)));
        QVERIFY(e.pgtablesBytes > 0);
        QCOMPARE(e.oomScoreAdj, 0);
        munmap(const_cast<quint64 *>(touched), sizeof(quint64));
    }

    // Where oom_kill_process can be hooked, the constraint is the OOM killer's own (the VM
    // matrix's kernels; this machine has neither hook and takes the memory cgroups' limits).
    void constraintFromTheOomKiller_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::newRow("fentry") << QStringLiteral("fentry");
        QTest::newRow("kprobe") << QStringLiteral("kprobe");
    }

    void constraintFromTheOomKiller()
    {
        QFETCH(QString, kind);
        BPFLENS_REQUIRE_ROOT("makes a memory-limited cgroup and loads the oomkill probe");
        {
            KernelFeatures kernel;
            const QString fn = QStringLiteral("oom_kill_process");
            BPFLENS_REQUIRE_HOOKS(kind, kind == QLatin1String("fentry") ? kernel.canFentry(fn)
                                                                        : kernel.canKprobe(fn));
        }
        QString error;
        bool killed = false;
        const Recording r = record({{QStringLiteral("attach"), kind},
                                    {QStringLiteral("comm"), QStringLiteral("bpflens-oomhook")}},
                                   [&] {
                                       killed = test::oomKilledChild(
                                           "bpflens-oomkill-" + QByteArray::number(getpid()),
                                           "bpflens-oomhook", &error);
                                   });
        QVERIFY2(r.started, qPrintable(r.error));
        QVERIFY2(killed, qPrintable(error));
        QVERIFY2(r.attachPath.contains(kind + QStringLiteral("/oom_kill_process")),
                 qPrintable(r.attachPath));
        QCOMPARE(r.events.size(), 1);
        QCOMPARE(r.events.first().comm, QByteArray("bpflens-oomhook"));
        QCOMPARE(int(r.events.first().constraint), int(OomKillEvent::Memcg));
    }

    void filteredToAnotherProcessRecordsNothing()
    {
        BPFLENS_REQUIRE_ROOT("makes a memory-limited cgroup and loads the oomkill probe");
        test::MemoryCgroup cg;
        QString why, error;
        const QByteArray name = "bpflens-oomkill-" + QByteArray::number(getpid());
        if (!cg.make(name, test::MemoryCgroup::Max, Limit, &why, &error)) {
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QSKIP(qPrintable(why));
        }
        test::GatedChild child([] {
            const size_t size = 4 * Limit;
            auto *p = static_cast<char *>(
                mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
            if (p == MAP_FAILED)
                _exit(2);
            for (size_t off = 0; off < size; off += 4096)
                p[off] = 1;
            _exit(3);
        });
        QVERIFY(child.pid() > 0);
        QVERIFY2(cg.add(child.pid(), &error), qPrintable(error));
        int status = 0;
        // A pid filter on the victim: the test's own pid, never killed.
        const Recording r =
            record({{QStringLiteral("pid"), qint64(getpid())}}, [&] { status = child.run(); });
        QVERIFY2(r.started, qPrintable(r.error));
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        QCOMPARE(r.events.size(), 0);
    }
};

QTEST_GUILESS_MAIN(TestOomKill)
#include "tst_oomkill.moc"
