// The runqlat probe against the real kernel: a child process whose two threads hand a token
// back and forth through pipes, pinned to one CPU so every hand-off is a sleep and a wake-up.
// Filtered to that child, the histograms must count one wait per hand-off (2 per round trip),
// and the measuring test process (not in the filter) adds nothing.
#include "core/probecatalog.h"
#include "helper/engine.h"
#include "helper/runqlatprobe.h"
#include "tests/testutil.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTest>

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens;

namespace {

constexpr int N = 2000;

struct PingPong
{
    int toPong[2];
    int toPing[2];
};

void *pong(void *arg)
{
    auto *p = static_cast<PingPong *>(arg);
    pthread_setname_np(pthread_self(), "rq-pong");
    char c;
    for (int i = 0; i < N; ++i) {
        if (read(p->toPong[0], &c, 1) != 1 || write(p->toPing[1], &c, 1) != 1)
            _exit(3);
    }
    return nullptr;
}

// The child: waits for "go", pins itself to one CPU (the thread inherits it), plays N round
// trips and exits. Only async-signal-safe calls and pthread_create after fork.
[[noreturn]] void child(int goFd, int uid = -1)
{
    if (uid >= 0 && setresuid(uid_t(uid), uid_t(uid), uid_t(uid)))
        _exit(4);
    // Named before anything is measured, so every key of the main thread carries this name.
    pthread_setname_np(pthread_self(), "rq-ping");
    char c = 0;
    if (read(goFd, &c, 1) != 1)
        _exit(1);
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(sched_getcpu(), &set);
    sched_setaffinity(0, sizeof(set), &set);
    PingPong p;
    if (pipe(p.toPong) || pipe(p.toPing))
        _exit(2);
    pthread_t t;
    if (pthread_create(&t, nullptr, pong, &p))
        _exit(2);
    for (int i = 0; i < N; ++i) {
        if (write(p.toPong[1], &c, 1) != 1 || read(p.toPing[0], &c, 1) != 1)
            _exit(3);
    }
    pthread_join(t, nullptr);
    _exit(0);
}

struct Run
{
    QString attachPath;
    QHash<QString, Log2Histogram> histograms;
    pid_t pid = 0;
    quint64 total() const
    {
        quint64 n = 0;
        for (const Log2Histogram &h : histograms)
            n += h.count();
        return n;
    }
};

// childUid: the uid the child plays as (-1: the test's own).
bool runPingPong(QVariantMap options, Run *run, int childUid = -1)
{
    int go[2];
    if (pipe(go))
        return false;
    const pid_t pid = fork();
    if (pid == 0) {
        close(go[1]);
        child(go[0], childUid);
    }
    close(go[0]);
    run->pid = pid;
    options.insert(QStringLiteral("pid"), qint64(pid));
    Engine engine;
    QList<ProbeConfig> req{{QStringLiteral("runqlat"), options, {}}};
    QString err;
    const bool started = engine.start(req, &err);
    if (!started)
        qWarning() << err;
    run->attachPath = req[0].attachPath;
    const char c = 'g';
    const bool sent = write(go[1], &c, 1) == 1;
    close(go[1]);
    int status = 0;
    waitpid(pid, &status, 0);
    RecordBatch batch;
    engine.stop(&batch);
    for (const HistogramSnapshot &s : std::as_const(batch.histograms)) {
        auto it = run->histograms.find(s.key);
        if (it == run->histograms.end())
            it = run->histograms.insert(s.key, Log2Histogram(s.histogram.unit()));
        it->merge(s.histogram);
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        qWarning() << "child failed" << status;
    return started && sent && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// As runPingPong, with a probe of its own whose histogram map holds keyLimit keys (the engine
// always uses the probe's default size); also returns the probe's counters.
bool runPingPongWithKeyLimit(QVariantMap options, quint32 keyLimit, Run *run,
                             QList<CounterSample> *counters)
{
    int go[2];
    if (pipe(go))
        return false;
    const pid_t pid = fork();
    if (pid == 0) {
        close(go[1]);
        child(go[0]);
    }
    close(go[0]);
    run->pid = pid;
    options.insert(QStringLiteral("pid"), qint64(pid));
    QVariantMap normalized;
    QString err;
    KernelFeatures kernel;
    RunqlatProbe probe;
    probe.setHistogramKeyLimit(keyLimit);
    const bool started =
        ProbeCatalog::validate(QStringLiteral("runqlat"), options, &normalized, &err) &&
        probe.start(normalized, kernel, &err);
    if (!started)
        qWarning() << err;
    const char c = 'g';
    const bool sent = write(go[1], &c, 1) == 1;
    close(go[1]);
    int status = 0;
    waitpid(pid, &status, 0);
    RecordBatch batch;
    if (started) {
        probe.detach();
        probe.snapshot(1, batch);
        probe.stop();
    }
    for (const HistogramSnapshot &s : std::as_const(batch.histograms)) {
        auto it = run->histograms.find(s.key);
        if (it == run->histograms.end())
            it = run->histograms.insert(s.key, Log2Histogram(s.histogram.unit()));
        it->merge(s.histogram);
    }
    *counters = batch.counters;
    return started && sent && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

QByteArray bpftool(const char *what)
{
    QProcess p;
    p.start(QStringLiteral("bpftool"), {QLatin1String(what), QStringLiteral("show")});
    if (!p.waitForFinished() || p.exitCode() != 0)
        return "bpftool failed";
    return p.readAllStandardOutput();
}

// How many of this process's descriptors are BPF objects of a kind (their /proc/self/fd link).
int bpfDescriptors(const char *kind)
{
    int n = 0;
    const QDir fds(QStringLiteral("/proc/self/fd"));
    for (const QString &fd : fds.entryList(QDir::Files | QDir::System)) {
        char target[64] = {};
        const ssize_t len =
            ::readlink(QFile::encodeName(fds.filePath(fd)).constData(), target, sizeof target - 1);
        n += len > 0 && qstrcmp(target, kind) == 0;
    }
    return n;
}

} // namespace

class TestRunqlat : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void availabilityNamesTheBtfTracepoints()
    {
        BPFLENS_REQUIRE_ROOT("reads the kernel's BTF");
        KernelFeatures kernel;
        RunqlatProbe probe;
        const ProbeAvailability a = probe.availability(kernel, {});
        QVERIFY2(a.available, qPrintable(a.reason));
        QCOMPARE(a.attachPath, QStringLiteral("tp_btf/sched_wakeup, tp_btf/sched_wakeup_new, "
                                              "tp_btf/sched_switch"));
    }

    // Besides the 2N hand-offs the child has a few waits of its own: its wake-up by "go", the
    // new thread's first run, the join, and any preemption. 1% of 2N covers them.
    void pingPongCountsEveryHandOff()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        Run run;
        QVERIFY(runPingPong({}, &run));
        QCOMPARE(run.attachPath, QStringLiteral("tp_btf/sched_wakeup, tp_btf/sched_wakeup_new, "
                                                "tp_btf/sched_switch"));
        QCOMPARE(run.histograms.keys(), QList<QString>{QString()});
        const quint64 n = run.total();
        qInfo() << "waits counted:" << n << "for" << 2 * N << "hand-offs";
        QVERIFY2(n >= quint64(2 * N) - quint64(2 * N) / 100 &&
                     n <= quint64(2 * N) + quint64(2 * N) / 100,
                 qPrintable(QString::number(n)));
        QCOMPARE(run.histograms.value(QString()).unit(), HistogramUnit::Microseconds);
    }

    void perThreadAndPerProcessKeys()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        Run threads;
        QVERIFY(runPingPong({{QStringLiteral("perThread"), true},
                             {QStringLiteral("units"), QStringLiteral("msecs")}},
                            &threads));
        quint64 ping = 0, pong = 0;
        for (auto it = threads.histograms.cbegin(); it != threads.histograms.cend(); ++it) {
            QCOMPARE(it.value().unit(), HistogramUnit::Milliseconds);
            const QStringList parts = it.key().split(QLatin1Char(' '));
            QCOMPARE(parts.size(), 2);
            // The new thread runs first under its parent's name, then as rq-pong.
            if (parts[0].toInt() == int(threads.pid)) {
                QCOMPARE(parts[1], QStringLiteral("rq-ping"));
                ping += it.value().count();
            } else {
                QVERIFY(parts[1] == QLatin1String("rq-pong") ||
                        parts[1] == QLatin1String("rq-ping"));
                pong += it.value().count();
            }
        }
        QVERIFY(threads.histograms.size() >= 2);
        qInfo() << "ping" << ping << "pong" << pong << "keys" << threads.histograms.keys();
        QVERIFY2(ping >= quint64(N) && ping <= quint64(N) + quint64(N) / 50,
                 qPrintable(QString::number(ping)));
        QVERIFY2(pong >= quint64(N) - 1 && pong <= quint64(N) + quint64(N) / 50,
                 qPrintable(QString::number(pong)));

        Run process;
        QVERIFY(runPingPong({{QStringLiteral("perProcess"), true}}, &process));
        quint64 own = 0;
        for (auto it = process.histograms.cbegin(); it != process.histograms.cend(); ++it) {
            // The process is named after its main thread, whatever ran.
            const QString key = it.key();
            QVERIFY2(key.startsWith(QString::number(process.pid) + QLatin1Char(' ')),
                     qPrintable(key));
            if (key == QStringLiteral("%1 rq-ping").arg(process.pid))
                own += it.value().count();
        }
        QVERIFY2(own >= quint64(2 * N) - quint64(2 * N) / 100, qPrintable(QString::number(own)));
    }

    // Per thread, with room for one key: the main thread waits first (for "go") and takes it;
    // every wait of the other thread is not counted, and must be reported as such, with the
    // map's size, so that counted and reported add up to every hand-off.
    void fullHistogramMapIsReported()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        Run run;
        QList<CounterSample> counters;
        QVERIFY(runPingPongWithKeyLimit({{QStringLiteral("perThread"), true}}, 1, &run, &counters));
        QCOMPARE(run.histograms.keys(), QList<QString>{QStringLiteral("%1 rq-ping").arg(run.pid)});
        quint64 full = 0;
        for (const CounterSample &c : std::as_const(counters)) {
            QCOMPARE(c.probeId, QStringLiteral("runqlat"));
            if (c.name == Probe::histogramMapFullCounter())
                full += quint64(c.value);
            else
                QCOMPARE(c.name, Probe::histogramKeysCounter());
            if (c.name == Probe::histogramKeysCounter())
                QCOMPARE(c.value, 1.0);
        }
        const quint64 counted = run.total();
        qInfo() << "counted" << counted << "not counted, map full:" << full;
        QVERIFY2(full >= quint64(N) - 1, qPrintable(QString::number(full)));
        QVERIFY2(counted + full >= quint64(2 * N) - quint64(2 * N) / 100 &&
                     counted + full <= quint64(2 * N) + quint64(2 * N) / 100,
                 qPrintable(QString::number(counted + full)));

        // With the default size nothing is missing, and nothing is reported.
        Run roomy;
        QVERIFY(
            runPingPongWithKeyLimit({{QStringLiteral("perThread"), true}}, 0, &roomy, &counters));
        QVERIFY(roomy.histograms.size() >= 2);
        QCOMPARE(counters.size(), 0);
    }

    // Another process's waits are not counted when filtered to the child.
    void filterExcludesOtherProcesses()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        Run run;
        QVERIFY(runPingPong({{QStringLiteral("comm"), QStringLiteral("rq-pong")},
                             {QStringLiteral("perThread"), true}},
                            &run));
        QCOMPARE(run.histograms.size(), 1);
        QVERIFY(run.histograms.keys().constFirst().endsWith(QStringLiteral(" rq-pong")));
        QVERIFY(run.total() >= quint64(N) - 1 && run.total() <= quint64(N) + quint64(N) / 50);
    }

    // The uid filter is the waiting task's uid (the task current at the wakeup and the switch is
    // another): the child's waits are counted under its uid and none under another. The filter
    // used to be dropped: every waiting task of the pid was counted whatever uid was asked.
    void uidFilterIsTheWaitingTasks()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs and runs a child as another user");
        constexpr int childUid = 65534; // nobody
        Run own;
        QVERIFY(runPingPong({{QStringLiteral("uid"), childUid}}, &own, childUid));
        QVERIFY2(own.total() >= quint64(N) - 1, qPrintable(QString::number(own.total())));
        Run other;
        QVERIFY(runPingPong({{QStringLiteral("uid"), childUid - 1}}, &other, childUid));
        QCOMPARE(other.total(), quint64(0));
    }

    void nothingStaysAttached()
    {
        BPFLENS_REQUIRE_ROOT("runs bpftool");
        Run run;
        QVERIFY(runPingPong({}, &run));
        // Other tests running beside this one attach sched_switch too: what must be gone is
        // every BPF object this process holds (a link lives as long as its descriptor), and
        // every link the kernel lists as ours.
        QCOMPARE(bpfDescriptors("anon_inode:bpf_link"), 0);
        QCOMPARE(bpfDescriptors("anon_inode:bpf-prog"), 0);
        const QByteArray ours = "tst_runqlat(" + QByteArray::number(getpid()) + ")";
        QVERIFY2(!bpftool("link").contains(ours), "a link of ours is still attached");
        QVERIFY2(!bpftool("prog").contains(ours), "a program of ours is still loaded");
    }
};

QTEST_GUILESS_MAIN(TestRunqlat)
#include "tst_runqlat.moc"
