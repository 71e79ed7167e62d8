// The tpcount probe against the real kernel: a child process the test controls makes known
// system calls, and the counts per key (by argument name, by argN, by a field behind an
// argument, by command) and the histogram of a field must be exactly what it did. Bad
// tracepoints, arguments and keys are refused before anything is loaded, with the bad value
// named.
#include "helper/engine.h"
#include "helper/kernelfeatures.h"
#include "helper/tpcountprobe.h"
#include "helper/tracepoints.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/iotestdir.h"
#include "tests/engine/loopdevice.h"
#include "tests/testutil.h"

#include <QHash>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

using namespace bpflens;

namespace {

const QList<QByteArray> ourPrograms{"tpcount_"};
constexpr char childComm[] = "tpcountwork";

struct Recording
{
    QHash<QString, double> counters;
    QHash<QString, Log2Histogram> histograms;
    QString attachPath;
};

// A child named tpcountwork that waits until the probe is attached, then runs work (which
// must only make raw system calls) and exits.
class Child
{
public:
    explicit Child(void (*work)(int devNull))
    {
        int go[2];
        if (pipe2(go, O_CLOEXEC) != 0)
            return;
        const int devNull = open("/dev/null", O_WRONLY | O_CLOEXEC);
        m_pid = fork();
        if (m_pid == 0) {
            close(go[1]);
            prctl(PR_SET_NAME, childComm);
            char byte;
            if (read(go[0], &byte, 1) != 1)
                _exit(2);
            work(devNull);
            _exit(0);
        }
        close(go[0]);
        close(devNull);
        m_go = go[1];
    }
    ~Child()
    {
        if (m_go >= 0)
            close(m_go);
        if (m_pid > 0 && !m_reaped) {
            kill(m_pid, SIGKILL);
            waitpid(m_pid, nullptr, 0);
        }
    }
    pid_t pid() const { return m_pid; }
    // Lets the child run its work and waits for its end; true when it exited 0.
    bool run()
    {
        int status = 0;
        if (write(m_go, "x", 1) != 1 || waitpid(m_pid, &status, 0) != m_pid)
            return false;
        m_reaped = true;
        return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }

private:
    pid_t m_pid = -1;
    int m_go = -1;
    bool m_reaped = false;
};

bool record(QVariantMap options, Child &child, Recording *r, QString *error)
{
    if (!options.contains(QStringLiteral("pid")))
        options.insert(QStringLiteral("pid"), int(child.pid()));
    Engine engine;
    QList<ProbeConfig> req{{QStringLiteral("tpcount"), options, {}}};
    if (!engine.start(req, error))
        return false;
    r->attachPath = req[0].attachPath;
    const bool ok = child.run();
    RecordBatch batch;
    engine.poll(10, batch);
    engine.stop(&batch);
    for (const CounterSample &c : std::as_const(batch.counters))
        r->counters[c.name] += c.value;
    for (const HistogramSnapshot &s : std::as_const(batch.histograms)) {
        auto it = r->histograms.find(s.key);
        if (it == r->histograms.end())
            it = r->histograms.insert(s.key, Log2Histogram(s.histogram.unit()));
        it->merge(s.histogram);
    }
    if (!ok)
        *error = QStringLiteral("the child failed");
    return ok;
}

void getppids(int)
{
    for (int i = 0; i < 37; ++i)
        syscall(SYS_getppid);
    for (int i = 0; i < 12; ++i)
        syscall(SYS_getpid);
}

// To /dev/null and to its duplicate: two file descriptors, 7 and 3 writes.
void writesToTwoFds(int devNull)
{
    const int other = int(syscall(SYS_dup, devNull));
    char buf[8] = {};
    for (int i = 0; i < 7; ++i)
        syscall(SYS_write, devNull, buf, 1);
    for (int i = 0; i < 3; ++i)
        syscall(SYS_write, other, buf, 1);
}

// Writes of 1 byte (4 times), 100 bytes (3 times) and 5000 bytes (twice).
void writesOfThreeSizes(int devNull)
{
    static char buf[5000];
    for (int i = 0; i < 4; ++i)
        syscall(SYS_write, devNull, buf, 1);
    for (int i = 0; i < 3; ++i)
        syscall(SYS_write, devNull, buf, 100);
    for (int i = 0; i < 2; ++i)
        syscall(SYS_write, devNull, buf, 5000);
}

void sleeps(int)
{
    const timespec ms{0, 1000 * 1000};
    for (int i = 0; i < 20; ++i)
        syscall(SYS_nanosleep, &ms, nullptr);
}

// The block device the child writes to, and its buffer: set before the fork.
char loopPath[64];
alignas(4096) char directBuffer[4096];
constexpr int directWrites = 8;

// 4 KiB O_DIRECT writes at distinct offsets: one request each.
void writesToTheLoopDevice(int)
{
    const int fd = int(syscall(SYS_openat, AT_FDCWD, loopPath, O_WRONLY | O_DIRECT | O_CLOEXEC));
    if (fd < 0)
        _exit(3);
    for (int i = 0; i < directWrites; ++i) {
        if (syscall(SYS_pwrite64, fd, directBuffer, sizeof(directBuffer),
                    off_t(i) * off_t(sizeof(directBuffer))) != long(sizeof(directBuffer)))
            _exit(4);
    }
    syscall(SYS_close, fd);
}

// Whether this kernel's BTF names sys_enter's arguments (5.10's does not: argN only there).
bool namesArguments()
{
    TracepointInfo info;
    QString error;
    return Tracepoints::find(KernelFeatures(), QStringLiteral("sys_enter"), &info, &error) &&
           info.args.size() == 2 && info.args[1].name == QLatin1String("id");
}

QString key(const QString &text, quint64 value)
{
    return text + QLatin1Char('=') + QString::number(value);
}

} // namespace

class TestTpCount : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
#if !defined(__x86_64__)
        QSKIP("the workloads read x86-64 system call registers (regs.di, regs.dx)");
#endif
    }

    // sys_enter's arguments are (struct pt_regs *regs, long id): "id" is the system call number.
    void countsPerArgumentByName()
    {
        if (!namesArguments())
            QSKIP("this kernel's BTF has no __bpf_trace_sys_enter: its arguments have no names "
                  "(argN, tested below, works everywhere)");
        Child child(getppids);
        Recording r;
        QString error;
        QVERIFY2(record({{QStringLiteral("tracepoint"), QStringLiteral("raw_syscalls:sys_enter")},
                         {QStringLiteral("key"), QStringLiteral("id")}},
                        child, &r, &error),
                 qPrintable(error));
        QCOMPARE(r.attachPath, QStringLiteral("raw_tp/sys_enter"));
        QCOMPARE(r.counters.value(key(QStringLiteral("id"), SYS_getppid)), 37.0);
        QCOMPARE(r.counters.value(key(QStringLiteral("id"), SYS_getpid)), 12.0);
        QVERIFY(!r.counters.contains(TpCountProbe::hitsCounter()));
        QVERIFY(!r.counters.contains(TpCountProbe::unreadableCounter()));
        QVERIFY(r.histograms.isEmpty());
    }

    // Without a key every hit counts as "hits"; argN names the same argument as its name.
    void countsAllHitsAndByArgN()
    {
        Child all(getppids);
        Recording r;
        QString error;
        QVERIFY2(
            record({{QStringLiteral("tracepoint"), QStringLiteral("sys_enter")}}, all, &r, &error),
            qPrintable(error));
        // 49 calls and at least the exit; whatever else the child's exit makes, no less.
        QVERIFY2(r.counters.value(TpCountProbe::hitsCounter()) >= 50,
                 qPrintable(QString::number(r.counters.value(TpCountProbe::hitsCounter()))));
        QCOMPARE(r.counters.size(), 1);

        Child byArg(getppids);
        Recording a;
        QVERIFY2(record({{QStringLiteral("tracepoint"), QStringLiteral("sys_enter")},
                         {QStringLiteral("key"), QStringLiteral("arg1")}},
                        byArg, &a, &error),
                 qPrintable(error));
        QCOMPARE(a.counters.value(key(QStringLiteral("arg1"), SYS_getppid)), 37.0);
        QCOMPARE(a.counters.value(key(QStringLiteral("arg1"), SYS_getpid)), 12.0);
    }

    // Two keys, the second a field behind the first argument (the registers): writes per fd.
    void countsPerTwoKeysThroughAPointer()
    {
        Child child(writesToTwoFds);
        Recording r;
        QString error;
        QVERIFY2(record({{QStringLiteral("tracepoint"), QStringLiteral("sys_enter")},
                         {QStringLiteral("key"), QStringLiteral("arg1")},
                         {QStringLiteral("key2"), QStringLiteral("arg0.di")}},
                        child, &r, &error),
                 qPrintable(error));
        QHash<quint64, double> perFd;
        const QString writes = key(QStringLiteral("arg1"), SYS_write) + QLatin1Char(' ');
        for (auto it = r.counters.cbegin(); it != r.counters.cend(); ++it) {
            if (it.key().startsWith(writes + QStringLiteral("arg0.di=")))
                perFd[it.key().mid(writes.size() + 8).toULongLong()] += it.value();
        }
        QCOMPARE(perFd.size(), 2);
        QList<double> counts = perFd.values();
        std::sort(counts.begin(), counts.end());
        QCOMPARE(counts, (QList<double>{3, 7}));
    }

    // bitehist's idea on any field: the sizes of write(2) as a log2 histogram per system call.
    void histogramOfAField()
    {
        Child child(writesOfThreeSizes);
        Recording r;
        QString error;
        QVERIFY2(record({{QStringLiteral("tracepoint"), QStringLiteral("sys_enter")},
                         {QStringLiteral("key"), QStringLiteral("arg1")},
                         {QStringLiteral("histogram"), QStringLiteral("arg0.dx")}},
                        child, &r, &error),
                 qPrintable(error));
        const QString writes = key(QStringLiteral("arg1"), SYS_write);
        QVERIFY2(r.histograms.contains(writes), qPrintable(r.histograms.keys().join(u',')));
        const Log2Histogram h = r.histograms.value(writes);
        QCOMPARE(h.unit(), HistogramUnit::Value);
        QCOMPARE(h.count(), quint64(9));
        QCOMPARE(h.slot(0), quint64(4));  // 1
        QCOMPARE(h.slot(6), quint64(3));  // 100: 64 -> 127
        QCOMPARE(h.slot(12), quint64(2)); // 5000: 4096 -> 8191
        QCOMPARE(h.sum(), quint64(4 * 1 + 3 * 100 + 2 * 5000));
        // Histograms replace the counts.
        QVERIFY(!r.counters.contains(writes));
    }

    void countsPerCommand()
    {
        Child child(getppids);
        Recording r;
        QString error;
        QVERIFY2(record({{QStringLiteral("tracepoint"), QStringLiteral("sys_enter")},
                         {QStringLiteral("key"), QStringLiteral("comm")},
                         {QStringLiteral("key2"), QStringLiteral("arg1")}},
                        child, &r, &error),
                 qPrintable(error));
        QCOMPARE(
            r.counters.value(
                QStringLiteral("comm=%1 arg1=%2").arg(QLatin1String(childComm)).arg(SYS_getppid)),
            37.0);
    }

    // I/O counted by disk: a dev_t key (the disk's, behind block_rq_issue's request) reads as
    // MAJOR:MINOR, as ls -l shows the device. A loop device only the child's writes reach.
    void countsPerDiskAsMajorMinor()
    {
        // block_rq_issue's one argument, struct request *rq (argN: 5.10's BTF names none).
        const QString diskKey = QStringLiteral("arg0.q.disk.part0.bd_dev");
        TracepointKey resolved;
        QString why;
        // The path is this kernel's (6.x) layout of struct request: an older one lacks a step.
        if (!Tracepoints::resolveKey(KernelFeatures(), QStringLiteral("block_rq_issue"), diskKey,
                                     &resolved, &why))
            QSKIP(qPrintable(why));
        QCOMPARE(resolved.type, QStringLiteral("dev_t"));
        QTemporaryDir dir(test::ioTestDirectory() + QStringLiteral("/bpflens-tpcount-XXXXXX"));
        QVERIFY2(dir.isValid(), qPrintable(dir.errorString()));
        test::LoopDevice loop;
        if (!loop.attach(dir.filePath(QStringLiteral("loop.img")), 1 << 20, &why))
            QSKIP(qPrintable(why));
        qstrncpy(loopPath, QFile::encodeName(loop.path()).constData(), sizeof(loopPath));
        struct stat st
        {
        };
        QCOMPARE(stat(loopPath, &st), 0);
        Child child(writesToTheLoopDevice);
        Recording r;
        QString error;
        QVERIFY2(record({{QStringLiteral("tracepoint"), QStringLiteral("block:block_rq_issue")},
                         {QStringLiteral("key"), diskKey}},
                        child, &r, &error),
                 qPrintable(error));
        const QString disk =
            QStringLiteral("%1=%2:%3").arg(diskKey).arg(major(st.st_rdev)).arg(minor(st.st_rdev));
        QCOMPARE(r.counters, (QHash<QString, double>{{disk, double(directWrites)}}));
    }

    // The BCC tutorial's task_switch: switches per (prev, next) pair, fields behind pointers
    // (sched_switch's arguments are preempt, prev, next[, prev_state]).
    void taskSwitchesByPrevAndNextPid()
    {
        Child child(sleeps);
        Recording r;
        QString error;
        QVERIFY2(record({{QStringLiteral("tracepoint"), QStringLiteral("sched:sched_switch")},
                         {QStringLiteral("key"), QStringLiteral("arg1.pid")},
                         {QStringLiteral("key2"), QStringLiteral("arg2.pid")}},
                        child, &r, &error),
                 qPrintable(error));
        // The pid filter sees the task switched away from: every key has the child as prev,
        // and each of its 20 sleeps switched away at least once.
        double fromChild = 0;
        const QString prefix =
            key(QStringLiteral("arg1.pid"), quint64(child.pid())) + QStringLiteral(" arg2.pid=");
        for (auto it = r.counters.cbegin(); it != r.counters.cend(); ++it) {
            QVERIFY2(it.key().startsWith(prefix), qPrintable(it.key()));
            fromChild += it.value();
        }
        QVERIFY2(fromChild >= 20, qPrintable(QString::number(fromChild)));
    }

    void refusals_data()
    {
        QTest::addColumn<QVariantMap>("options");
        QTest::addColumn<QString>("reason");
        const auto tp = [](QVariantMap more) {
            if (!more.contains(QStringLiteral("tracepoint")))
                more.insert(QStringLiteral("tracepoint"), QStringLiteral("sys_enter"));
            return more;
        };
        QTest::newRow("no such tracepoint")
            << tp({{QStringLiteral("tracepoint"), QStringLiteral("sys_entr")}})
            << QStringLiteral("tracepoint sys_entr does not exist in this kernel");
        // tracefs lists it (syscalls:sys_enter_sync), but it is the syscall tracer's, not BTF's.
        QTest::newRow("a system call event")
            << tp({{QStringLiteral("tracepoint"), QStringLiteral("syscalls:sys_enter_sync")}})
            << QStringLiteral("syscalls:sys_enter_sync is an event of tracefs's system call "
                              "tracer, not a kernel tracepoint: take sys_enter or sys_exit, keyed "
                              "by the system call number (sys_enter's id)");
        QTest::newRow("no such argument")
            << tp({{QStringLiteral("key"), QStringLiteral("nr")}})
            << (namesArguments()
                    ? QStringLiteral("sys_enter has no argument nr (its arguments: regs, id)")
                    : QStringLiteral("sys_enter has no argument nr (this kernel's BTF names none "
                                     "of its arguments: use argN)"));
        QTest::newRow("no such field") << tp({{QStringLiteral("key"), QStringLiteral("arg0.xyz")}})
                                       << QStringLiteral("struct pt_regs has no field xyz");
        QTest::newRow("the same key twice")
            << tp({{QStringLiteral("key"), QStringLiteral("arg1")},
                   {QStringLiteral("key2"), QStringLiteral("arg1")}})
            << QStringLiteral("key and key2 are the same (arg1)");
        QTest::newRow("a histogram of a name")
            << tp({{QStringLiteral("histogram"), QStringLiteral("comm")}})
            << QStringLiteral("histogram: comm is not a number");
        QTest::newRow("no tracepoint") << QVariantMap{{QStringLiteral("tracepoint"), QString()}}
                                       << QStringLiteral("no tracepoint given");
    }

    void refusals()
    {
        QFETCH(QVariantMap, options);
        QFETCH(QString, reason);
        KernelFeatures kernel;
        TpCountProbe probe;
        QVariantMap normalized;
        QString error;
        QVERIFY2(ProbeCatalog::validate(QStringLiteral("tpcount"), options, &normalized, &error),
                 qPrintable(error));
        const ProbeAvailability a = probe.availability(kernel, normalized);
        QVERIFY(!a.available);
        QVERIFY2(a.reason.startsWith(reason), qPrintable(a.reason));

        // Nothing of the tests before is held, so a leak of the failed start shows.
        QCOMPARE(test::ownBpfObjects(ourPrograms), QStringList());
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("tpcount"), options, {}}};
        QVERIFY(!engine.start(req, &error));
        QVERIFY2(
            error.startsWith(QStringLiteral("probe tpcount cannot run on this kernel: ") + reason),
            qPrintable(error));
        QCOMPARE(test::ownBpfObjects(ourPrograms), QStringList());
    }

    void cleanupTestCase()
    {
        QCOMPARE(test::ownBpfObjects(ourPrograms), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestTpCount)
#include "tst_tpcount.moc"
