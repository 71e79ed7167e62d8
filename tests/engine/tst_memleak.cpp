// The memleak probe against the real kernel and a real process: leaker
// (tests/engine/memleak/leaker.c) allocates known blocks from known functions while the probe,
// resolved as its caller would resolve it, records it:
// - under bpflens_leak exactly 20 blocks of 4000 bytes are never freed, and under bpflens_churn
//   every one of its blocks is freed: outstanding 80000 bytes and 0;
// - calloc's blocks are n * size, realloc frees its old block and records its new one,
//   posix_memalign's address is the one it stored, mmap's 1 MiB stays and its munmapped 64 KiB
//   does not;
// - when the process exits, its blocks end with it and nothing of it stays in the kernel's
//   block table; stopped before it exits, they are outstanding at the recording's end;
// - linked statically, its own malloc is found in the program; stripped as well, the probe says
//   why it cannot find an allocator;
// - sampleEvery=4: about a quarter of the allocations, each standing for 4.
#include "client/probetargets.h"
#include "core/probecatalog.h"
#include "core/stacks.h"
#include "helper/engine.h"
#include "tests/engine/enginetestutil.h"
#include "tests/testutil.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QTest>
#include <QThread>

#include <atomic>
#include <thread>
#include <vector>

#include <bpf/bpf.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens;

namespace {

using E = AllocationEvent;

const QString LeakerPath = QStringLiteral(BPFLENS_TEST_PROGRAMS "/leaker");
const QString LeakerStatic = QStringLiteral(BPFLENS_TEST_PROGRAMS "/leaker_static");
const QString LeakerStripped = QStringLiteral(BPFLENS_TEST_PROGRAMS "/leaker_stripped");

// leaker, started and warmed up: it said 'r'.
class LeakerProcess
{
public:
    // preload: a library in LD_PRELOAD (a replacement allocator), as a service started with
    // jemalloc or tcmalloc preloaded.
    LeakerProcess(const QString &program, long churn = 50, long hoard = 0,
                  const QString &preload = {})
    {
        int in[2], out[2];
        if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)
            return;
        const QByteArray path = program.toLocal8Bit();
        const QByteArray n = QByteArray::number(churn);
        const QByteArray h = QByteArray::number(hoard);
        // The environment is built before fork: the child only execs.
        QList<QByteArray> env;
        for (char **e = environ; *e; ++e) {
            if (!QByteArray(*e).startsWith("LD_PRELOAD="))
                env.append(*e);
        }
        if (!preload.isEmpty())
            env.append("LD_PRELOAD=" + preload.toLocal8Bit());
        std::vector<char *> envp;
        for (QByteArray &e : env)
            envp.push_back(e.data());
        envp.push_back(nullptr);
        char *const argv[] = {const_cast<char *>(path.constData()),
                              const_cast<char *>(n.constData()), const_cast<char *>(h.constData()),
                              nullptr};
        m_pid = fork();
        if (m_pid == 0) {
            dup2(in[0], 0);
            dup2(out[1], 1);
            execve(path.constData(), argv, envp.data());
            _exit(127);
        }
        close(in[0]);
        close(out[1]);
        m_in = in[1];
        m_out = out[0];
        m_ready = waitFor('r', 10000);
    }
    ~LeakerProcess()
    {
        if (m_pid > 0 && !m_reaped) {
            kill(m_pid, SIGKILL);
            waitpid(m_pid, nullptr, 0);
        }
        if (m_in >= 0)
            close(m_in);
        if (m_out >= 0)
            close(m_out);
    }
    bool ready() const { return m_ready; }
    pid_t pid() const { return m_pid; }
    bool send(char c) { return write(m_in, &c, 1) == 1; }
    // Whether it answered c within ms, without blocking the caller longer than that.
    bool waitFor(char c, int ms)
    {
        pollfd p{m_out, POLLIN, 0};
        if (poll(&p, 1, ms) != 1)
            return false;
        char got = 0;
        return read(m_out, &got, 1) == 1 && got == c;
    }
    bool answered(char c) { return waitFor(c, 0); }
    bool exitCleanly()
    {
        int status = 0;
        if (!send('x') || waitpid(m_pid, &status, 0) != m_pid)
            return false;
        m_reaped = true;
        return WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }

private:
    pid_t m_pid = -1;
    int m_in = -1;
    int m_out = -1;
    bool m_ready = false;
    bool m_reaped = false;
};

// The kernel's block tables this process holds (its memleak probes' "memleak_blocks" maps, by
// their descriptors: another recording on the machine has its own), and their entries now;
// -1 entries when it holds none.
int kernelBlocks()
{
    int n = -1;
    QDir fds(QStringLiteral("/proc/self/fd"));
    for (const QString &name : fds.entryList(QDir::Files | QDir::System)) {
        const int fd = name.toInt();
        char target[64] = {};
        const QByteArray path = fds.filePath(name).toLocal8Bit();
        if (readlink(path.constData(), target, sizeof(target) - 1) <= 0 ||
            qstrcmp(target, "anon_inode:bpf-map") != 0)
            continue;
        bpf_map_info info{};
        __u32 len = sizeof(info);
        if (bpf_obj_get_info_by_fd(fd, &info, &len) != 0 ||
            qstrcmp(info.name, "memleak_blocks") != 0)
            continue;
        struct
        {
            quint64 a, b;
        } key{}, next{};
        const void *prev = nullptr;
        n = qMax(n, 0);
        while (bpf_map_get_next_key(fd, prev, &next) == 0) {
            ++n;
            key = next;
            prev = &key;
        }
    }
    return n;
}

struct Recording
{
    QString error;
    QString attachPath;
    QVariantMap options;
    StackTable stacks;
    QList<E> events;
    QHash<QString, double> counters;
    quint64 lost = 0;
    quint64 seen = 0;
    int kernelBlocksBeforeExit = -1;
    int kernelBlocksAfterExit = -1;
    bool exited = false;
};

enum class Ending
{
    ProcessExits, // the process exits while recorded
    RecordingStops,
};

Recording record(const QString &program, QVariantMap options, Ending ending, long churn = 50,
                 long hoard = 0, const QString &preload = {})
{
    Recording r;
    LeakerProcess child(program, churn, hoard, preload);
    if (!child.ready()) {
        r.error = QStringLiteral("%1 did not start").arg(program);
        return r;
    }
    options.insert(QStringLiteral("pid"), qint64(child.pid()));
    QList<ProbeConfig> req{{QStringLiteral("memleak"), options, {}}};
    if (!resolveProbeTargets(req, &r.error))
        return r;
    Engine engine;
    if (!engine.start(req, &r.error))
        return r;
    r.attachPath = req[0].attachPath;
    r.options = req[0].options;
    auto consume = [&](const RecordBatch &b) {
        QString why;
        if (!r.stacks.addDefinitions(b, &why))
            r.error = why;
        r.events += b.events<E>();
        for (const ProbeStats &s : b.stats) {
            r.lost = s.eventsLost;
            r.seen = s.eventsSeen;
        }
        for (const CounterSample &c : b.counters)
            r.counters[c.name] += c.value;
    };
    if (!child.send('g')) {
        r.error = QStringLiteral("cannot start the work");
        return r;
    }
    QDeadlineTimer deadline(30000);
    bool done = false;
    while (!done && !deadline.hasExpired()) {
        RecordBatch b;
        engine.poll(20, b);
        consume(b);
        done = child.answered('d');
    }
    if (!done) {
        r.error = QStringLiteral("the work did not finish");
        return r;
    }
    RecordBatch b;
    engine.poll(100, b);
    consume(b);
    r.kernelBlocksBeforeExit = kernelBlocks();
    if (ending == Ending::ProcessExits) {
        r.exited = child.exitCleanly();
        for (int i = 0; i < 5; ++i) {
            RecordBatch more;
            engine.poll(50, more);
            consume(more);
        }
        r.kernelBlocksAfterExit = kernelBlocks();
    }
    RecordBatch last;
    engine.stop(&last);
    consume(last);
    return r;
}

bool inStack(const StackTable &t, quint32 stackId, const QByteArray &function)
{
    if (!t.hasStack(stackId))
        return false;
    for (quint32 f : t.stack(stackId).frames) {
        if (t.frame(f).kind == FrameKind::User && t.frame(f).symbol == function)
            return true;
    }
    return false;
}

QString describe(const StackTable &t, quint32 stackId)
{
    if (!t.hasStack(stackId))
        return QStringLiteral("no stack %1").arg(stackId);
    QStringList names;
    for (quint32 f : t.stack(stackId).frames)
        names << t.frameName(f);
    return names.join(QStringLiteral(" | "));
}

// The events whose stack holds function.
QList<E> under(const Recording &r, const QByteArray &function)
{
    QList<E> out;
    for (const E &e : r.events) {
        if (inStack(r.stacks, e.stackId, function))
            out.append(e);
    }
    return out;
}

quint64 liveBytes(const QList<E> &events)
{
    quint64 sum = 0;
    for (const E &e : events)
        sum += e.live() ? e.size * e.weight : 0;
    return sum;
}

QString dump(const Recording &r)
{
    QStringList lines;
    for (const E &e : r.events.mid(0, 60))
        lines << QStringLiteral("%1 %2 size %3 %4: %5")
                     .arg(E::functionName(e.function), E::endName(e.end))
                     .arg(e.size)
                     .arg(e.address, 0, 16)
                     .arg(describe(r.stacks, e.stackId));
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestMemleak : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void declaration()
    {
        const ProbeInfo *info = ProbeCatalog::find(QStringLiteral("memleak"));
        QVERIFY(info);
        QCOMPARE(info->group, ProbeGroup::Memory);
        QCOMPARE(info->eventTypes, QList<EventType>{EventType::Allocation});
        QVariantMap normalized;
        QString error;
        QVERIFY2(ProbeCatalog::validate(QStringLiteral("memleak"), {}, &normalized, &error),
                 qPrintable(error));
        QCOMPARE(normalized.value(QStringLiteral("sampleEvery")).toLongLong(), 1);
    }

    // What a caller is told before anything is loaded: no such process; a stripped static
    // program, which has neither a libc nor a malloc of its own to hook. (No process at all is
    // the kernel's allocations: kernelAllocations.)
    void unresolvableRefused()
    {
        QList<ProbeConfig> req;
        QString error;
        req = {{QStringLiteral("memleak"), {{QStringLiteral("pid"), 4194303}}, {}}};
        QVERIFY(!resolveProbeTargets(req, &error));
        QVERIFY2(error.contains(QStringLiteral("no process 4194303")), qPrintable(error));

        LeakerProcess stripped(LeakerStripped);
        QVERIFY(stripped.ready());
        req = {{QStringLiteral("memleak"), {{QStringLiteral("pid"), qint64(stripped.pid())}}, {}}};
        QVERIFY(!resolveProbeTargets(req, &error));
        QVERIFY2(error.contains(QStringLiteral("maps no libc and its program defines no malloc")),
                 qPrintable(error));
    }

    // A process the asking user may not trace: another user's. Its maps are not readable, and
    // the caller is told so before anything is loaded.
    void othersProcessRefused()
    {
        BPFLENS_REQUIRE_ROOT("drops to the user nobody to ask for a root process");
        LeakerProcess rootsProcess(LeakerPath);
        QVERIFY(rootsProcess.ready());
        int out[2];
        QVERIFY(pipe2(out, O_CLOEXEC) == 0);
        const pid_t child = fork();
        if (child == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0)
                _exit(2);
            QList<ProbeConfig> req{{QStringLiteral("memleak"),
                                    {{QStringLiteral("pid"), qint64(rootsProcess.pid())}},
                                    {}}};
            QString error;
            const bool ok = resolveProbeTargets(req, &error);
            const QByteArray text = ok ? QByteArray("resolved") : error.toUtf8();
            _exit(write(out[1], text.constData(), size_t(text.size())) == text.size() ? 0 : 3);
        }
        close(out[1]);
        QByteArray said(4096, '\0');
        const ssize_t n = read(out[0], said.data(), size_t(said.size()));
        close(out[0]);
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        said.truncate(qMax<ssize_t>(n, 0));
        QVERIFY2(said.contains("probe memleak: cannot read /proc/") &&
                     said.contains("Permission denied"),
                 said.constData());
    }

    void leaksByStack_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("preload");
        QTest::addColumn<QString>("allocator");
        QTest::addColumn<bool>("hooksMmap"); // the allocator's file defines mmap and munmap
        QTest::newRow("libc") << LeakerPath << QString() << QStringLiteral("libc") << true;
        QTest::newRow("static") << LeakerStatic << QString() << QStringLiteral("leaker_static")
                                << true;
        // Replacement allocators preloaded, as services run with them (Debian's libjemalloc2,
        // libtcmalloc-minimal4, libmimalloc2.0; .ci/deps --tests installs them). tcmalloc
        // defines mmap and munmap too; jemalloc and mimalloc do not, so the program's own
        // mmap calls (libc's) are not hooked with them (docs/memory.md). Not in the VM
        // matrix's guests: the same uprobes into another file, which no kernel changes.
        if (qEnvironmentVariableIsSet("BPFLENS_VM_MATRIX"))
            return;
        const QString lib = QStringLiteral("/usr/lib/x86_64-linux-gnu/");
        QTest::newRow("jemalloc") << LeakerPath << lib + QStringLiteral("libjemalloc.so.2")
                                  << QStringLiteral("libjemalloc") << false;
        QTest::newRow("tcmalloc") << LeakerPath << lib + QStringLiteral("libtcmalloc_minimal.so.4")
                                  << QStringLiteral("libtcmalloc_minimal") << true;
        QTest::newRow("mimalloc") << LeakerPath << lib + QStringLiteral("libmimalloc.so.2")
                                  << QStringLiteral("libmimalloc") << false;
    }
    void leaksByStack()
    {
        BPFLENS_REQUIRE_ROOT("loads the memleak probe");
        QFETCH(QString, program);
        QFETCH(QString, preload);
        QFETCH(QString, allocator);
        QFETCH(bool, hooksMmap);
        if (!preload.isEmpty() && !QFileInfo::exists(preload)) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL(qPrintable(preload + QStringLiteral(" is missing (see .ci/deps --tests)")));
            QSKIP(qPrintable(preload + QStringLiteral(" is not installed")));
        }
        const Recording r = record(program, {}, Ending::ProcessExits, 50, 0, preload);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QVERIFY2(r.options.value(QStringLiteral("allocator")).toString().contains(allocator),
                 qPrintable(r.options.value(QStringLiteral("allocator")).toString()));
        QCOMPARE(r.lost, 0u);
        QVERIFY(r.exited);

        const QList<E> leaks = under(r, "bpflens_leak");
        QVERIFY2(leaks.size() == 20, qPrintable(dump(r)));
        for (const E &e : leaks) {
            QCOMPARE(e.function, quint8(E::Malloc));
            QCOMPARE(e.size, 4000u);
            QCOMPARE(e.end, quint8(E::Exited));
            QCOMPARE(e.weight, 1u);
        }
        QCOMPARE(liveBytes(leaks), 80000u);

        const QList<E> churn = under(r, "bpflens_churn");
        QCOMPARE(churn.size(), 50);
        for (const E &e : churn) {
            QCOMPARE(e.size, 1000u);
            QCOMPARE(e.end, quint8(E::Freed));
        }
        QCOMPARE(liveBytes(churn), 0u);

        const QList<E> callocs = under(r, "bpflens_calloc_leak");
        QCOMPARE(callocs.size(), 3);
        for (const E &e : callocs) {
            QCOMPARE(e.function, quint8(E::Calloc));
            QCOMPARE(e.size, 3000u);
            QVERIFY(e.live());
        }

        // malloc(100), freed by the realloc, whose 5000 bytes stay
        const QList<E> reallocs = under(r, "bpflens_realloc_leak");
        QCOMPARE(reallocs.size(), 2);
        QCOMPARE(liveBytes(reallocs), 5000u);
        for (const E &e : reallocs) {
            if (e.function == E::Malloc) {
                QCOMPARE(e.size, 100u);
                QCOMPARE(e.end, quint8(E::Freed));
            } else {
                QCOMPARE(e.function, quint8(E::Realloc));
                QVERIFY(e.live());
            }
        }

        const QList<E> aligned = under(r, "bpflens_memalign_leak");
        QCOMPARE(aligned.size(), 3);
        QCOMPARE(liveBytes(aligned), 2u * 2048 + 512);
        int posix = 0;
        for (const E &e : aligned) {
            QVERIFY(e.live());
            if (e.function == E::PosixMemalign) {
                ++posix;
                QCOMPARE(e.size, 2048u);
                QCOMPARE(e.address % 64, 0u);
            } else {
                QCOMPARE(e.size, 512u);
                // Debian's mimalloc 2.0.9 answers memalign(256, 512) with a block aligned to
                // 128 only (a program calling it directly gets the same): the address
                // recorded is the one returned.
                if (allocator != QLatin1String("libmimalloc"))
                    QCOMPARE(e.address % 256, 0u);
            }
        }
        QCOMPARE(posix, 2);

        const QList<E> maps = under(r, "bpflens_mmap_leak");
        const int mapped = hooksMmap ? 2 : 0;
        QCOMPARE(maps.size(), mapped);
        QCOMPARE(liveBytes(maps), hooksMmap ? quint64(1) << 20 : 0);
        for (const E &e : maps)
            QCOMPARE(e.function, quint8(E::Mmap));

        // Nothing else was allocated while recorded, and every block the process held at its
        // exit left the kernel's table with it.
        QCOMPARE(r.events.size(), 20 + 50 + 3 + 2 + 3 + mapped);
        QCOMPARE(r.kernelBlocksBeforeExit, 20 + 3 + 1 + 3 + mapped / 2);
        QCOMPARE(r.kernelBlocksAfterExit, 0);
        for (const E &e : r.events)
            QCOMPARE(e.pid, quint32(r.events.first().pid));
    }

    // Stopped while the process lives: its blocks are outstanding at the recording's end, and
    // the kernel's table goes with the probe.
    void outstandingAtStop()
    {
        BPFLENS_REQUIRE_ROOT("loads the memleak probe");
        const Recording r = record(LeakerPath, {}, Ending::RecordingStops);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const QList<E> leaks = under(r, "bpflens_leak");
        QCOMPARE(leaks.size(), 20);
        for (const E &e : leaks)
            QCOMPARE(e.end, quint8(E::Outstanding));
        QCOMPARE(r.kernelBlocksBeforeExit, 20 + 3 + 1 + 3 + 1);
        // The table goes with the probe.
        QCOMPARE(kernelBlocks(), -1);
    }

    // A table too small for what the process keeps: every allocation is recorded or counted as
    // not recorded, none is dropped silently.
    void fullTableCounted()
    {
        BPFLENS_REQUIRE_ROOT("loads the memleak probe");
        constexpr long Hoard = 3000;
        const Recording r = record(LeakerPath, {{QStringLiteral("maxBlocks"), 1024}},
                                   Ending::RecordingStops, 50, Hoard);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const qsizetype hoarded = under(r, "bpflens_hoard").size();
        const double notRecorded = r.counters.value(QStringLiteral("blocksFull"));
        QVERIFY2(
            hoarded < Hoard && notRecorded > 0,
            qPrintable(QStringLiteral("%1 recorded, %2 counted").arg(hoarded).arg(notRecorded)));
        // The others the process allocates while the table is full are counted too: every
        // allocation of the work is one or the other.
        QCOMPARE(qint64(r.events.size()) + qint64(notRecorded),
                 qint64(20 + 50 + 3 + 2 + 3 + 2 + Hoard));
        QCOMPARE(r.lost, 0u);
    }

    // No process given: the kernel's allocations, here of one thread that creates 50 eventfds
    // and keeps them, and 30 more it closes at once. Each eventfd's context is one kmalloc in
    // do_eventfd, freed when the file is released.
    void kernelAllocations()
    {
        BPFLENS_REQUIRE_ROOT("loads the memleak probe");
        std::atomic<pid_t> tid{0};
        std::atomic<int> state{0}; // 1: ready, 2: go, 3: done, 4: release
        QList<int> kept;
        std::thread worker([&] {
            tid = pid_t(syscall(SYS_gettid));
            close(eventfd(0, EFD_CLOEXEC)); // the path warm
            state = 1;
            while (state.load() < 2)
                QThread::usleep(100);
            for (int i = 0; i < 50; ++i)
                kept.append(eventfd(0, EFD_CLOEXEC));
            for (int i = 0; i < 30; ++i)
                close(eventfd(0, EFD_CLOEXEC));
            state = 3;
            while (state.load() < 4)
                QThread::usleep(100);
        });
        while (state.load() < 1)
            QThread::usleep(100);
        Recording r;
        QList<ProbeConfig> req{
            {QStringLiteral("memleak"), {{QStringLiteral("tid"), qint64(tid)}}, {}}};
        QVERIFY2(resolveProbeTargets(req, &r.error), qPrintable(r.error));
        QVERIFY(!req[0].file.isValid());
        Engine engine;
        QVERIFY2(engine.start(req, &r.error), qPrintable(r.error));
        QVERIFY2(req[0].attachPath.contains(QStringLiteral("tp/kmem/kmalloc")),
                 qPrintable(req[0].attachPath));
        auto consume = [&](const RecordBatch &b) {
            QString why;
            QVERIFY2(r.stacks.addDefinitions(b, &why), qPrintable(why));
            r.events += b.events<E>();
            for (const ProbeStats &st : b.stats)
                r.lost = st.eventsLost;
        };
        state = 2;
        while (state.load() < 3) {
            RecordBatch b;
            engine.poll(20, b);
            consume(b);
        }
        RecordBatch b;
        engine.poll(100, b);
        consume(b);
        RecordBatch last;
        engine.stop(&last);
        consume(last);
        state = 4;
        worker.join();
        for (int fd : std::as_const(kept))
            close(fd);
        QCOMPARE(r.lost, 0u);
        // The context: the kmalloc do_eventfd itself makes (its file and dentry come from slab
        // caches further down).
        int live = 0, freed = 0;
        for (const E &e : std::as_const(r.events)) {
            QCOMPARE(e.tid, quint32(tid));
            if (e.function != E::Kmalloc || !r.stacks.hasStack(e.stackId))
                continue;
            const auto &frames = r.stacks.stack(e.stackId).frames;
            if (frames.size() < 2 || r.stacks.frame(frames[1]).kind != FrameKind::Kernel ||
                r.stacks.frame(frames[1]).symbol != "do_eventfd")
                continue;
            QVERIFY(e.size >= 32);
            (e.live() ? live : freed) += 1;
        }
        QVERIFY2(
            live == 50 && freed == 30,
            qPrintable(QStringLiteral("%1 live, %2 freed\n%3").arg(live).arg(freed).arg(dump(r))));
    }

    // One allocation in four, at random, each standing for four.
    void sampled()
    {
        BPFLENS_REQUIRE_ROOT("loads the memleak probe");
        constexpr long Churn = 4000;
        const Recording r =
            record(LeakerPath, {{QStringLiteral("sampleEvery"), 4}}, Ending::RecordingStops, Churn);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const QList<E> churn = under(r, "bpflens_churn");
        // 1000 expected; the binomial's standard deviation is 27
        QVERIFY2(churn.size() > 850 && churn.size() < 1150,
                 qPrintable(QString::number(churn.size())));
        for (const E &e : churn) {
            QCOMPARE(e.weight, 4u);
            QCOMPARE(e.end, quint8(E::Freed));
        }
    }
};

QTEST_GUILESS_MAIN(TestMemleak)
#include "tst_memleak.moc"
