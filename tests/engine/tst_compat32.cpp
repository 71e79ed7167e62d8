// 32-bit processes on an x86_64 kernel: their system calls arrive as ia32 calls, with other
// numbers and argument registers, and the per-syscall tracepoints ignore them. A real -m32
// program (compat32/compat32.c) opens and execs, and the open and exec probes must report what
// it did exactly as for a 64-bit process; its readlink (ia32 85, x86_64's creat) must not show.
#include "helper/engine.h"
#include "helper/execprobe.h"
#include "helper/kernelfeatures.h"
#include "helper/openprobe.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/hooktestutil.h"
#include "tests/testutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens;

namespace {

const char *const compat32Program = BPFLENS_COMPAT32;

// Runs compat32 with args as a child that starts only once the probes are attached; its stdout
// goes to outPath.
struct Compat32Run
{
    Compat32Run(const QList<QByteArray> &args, const QByteArray &outPath)
        : m_argStorage(args)
        , m_outPath(outPath)
    {
        m_argv.push_back(const_cast<char *>(compat32Program));
        for (const QByteArray &a : m_argStorage)
            m_argv.push_back(const_cast<char *>(a.constData()));
        m_argv.push_back(nullptr);
        m_child = std::make_unique<test::GatedChild>([this] {
            const int fd = open(m_outPath.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
                _exit(126);
            execv(compat32Program, m_argv.data());
            _exit(127);
        });
    }
    QList<QByteArray> m_argStorage;
    QByteArray m_outPath;
    std::vector<char *> m_argv;
    std::unique_ptr<test::GatedChild> m_child;
};

// compat32's report: one "<call> <flags> <octal mode> <fd or -errno>" line per open. The mode
// register of an open without O_CREAT holds whatever the caller left there: only creat's counts.
struct Reported
{
    QByteArray call;
    int flags = 0;
    quint32 mode = 0;
    int ret = 0;
};

QList<Reported> readReport(const QByteArray &path)
{
    QFile f(QFile::decodeName(path));
    QList<Reported> out;
    if (!f.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QList<QByteArray> parts = line.split(' ');
        if (parts.size() != 4)
            continue;
        out.append({parts[0], parts[1].toInt(), parts[2].toUInt(nullptr, 8), parts[3].toInt()});
    }
    return out;
}

// The errno execve gave for program (run without arguments: it prints its usage and exits),
// 0 when it ran. A kernel built with CONFIG_IA32_EMULATION can still refuse every 32-bit ELF
// with ENOEXEC (ia32_emulation=0 on its command line, as on one machine of CI's kind).
int execErrno(const char *program)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return errno;
    const pid_t pid = fork();
    if (pid < 0)
        return errno;
    if (pid == 0) {
        close(fds[0]);
        const int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, STDOUT_FILENO);
            dup2(devnull, STDERR_FILENO);
        }
        execl(program, program, static_cast<char *>(nullptr));
        const int err = errno;
        (void)!write(fds[1], &err, sizeof err);
        _exit(127);
    }
    close(fds[1]);
    int err = 0;
    const ssize_t n = read(fds[0], &err, sizeof err);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return n == ssize_t(sizeof err) ? err : 0;
}

bool startProbe(Engine &engine, const QString &probe, QVariantMap options, QString *error,
                QString *attachPath = nullptr)
{
    QList<ProbeConfig> req{{probe, options, {}}};
    const bool ok = engine.start(req, error);
    if (attachPath)
        *attachPath = req[0].attachPath;
    return ok;
}

} // namespace

class TestCompat32 : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QByteArray file(const char *name) const
    {
        return QFile::encodeName(m_dir.filePath(QString::fromLatin1(name)));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!*compat32Program) {
            // The build found no 32-bit toolchain: say so, and under CI fail rather than skip.
            if (test::rootRequired())
                QFAIL("no 32-bit toolchain: install gcc-multilib (.ci/deps) and reconfigure");
            QSKIP("no 32-bit toolchain (gcc-multilib): compat32 was not built");
        }
        // The probes' ia32 paths can only be seen with a 32-bit process: on a kernel that does
        // not run one there is nothing to record (tests/skip-allowlist.txt names this reason).
        if (const int err = execErrno(compat32Program); err == ENOEXEC)
            QSKIP("this kernel does not execute 32-bit programs (execve: Exec format error; "
                  "ia32 emulation is off)");
        else
            QVERIFY2(err == 0, qPrintable(QStringLiteral("execve(%1): %2")
                                              .arg(QString::fromLocal8Bit(compat32Program),
                                                   QString::fromLocal8Bit(strerror(err)))));
        // A kernel that runs them must be known to: the open probe's cheap ways miss their calls.
        QVERIFY2(KernelFeatures().runsCompatTasks(),
                 "a 32-bit program ran, but KernelFeatures says 32-bit processes cannot");
        QVERIFY(m_dir.isValid());
    }

    // Each way of the open probe that sees 32-bit calls: fexit on the ia32 handlers, where the
    // kernel has trampolines, and the raw sys_exit. auto takes one of them (the assertion on
    // the attach path below holds for it too); tst_openprobe checks which.
    void opensOfA32BitProcess_data()
    {
        QTest::addColumn<QString>("attach");
        QTest::newRow("fexit") << QStringLiteral("fexit");
        QTest::newRow("sys_exit") << QStringLiteral("sys_exit");
    }

    void opensOfA32BitProcess()
    {
        BPFLENS_REQUIRE_ROOT("loads the open probe");
        QFETCH(QString, attach);
        if (attach == QLatin1String("fexit"))
            BPFLENS_REQUIRE_HOOKS(
                QStringLiteral("fentry"),
                KernelFeatures().canFentry(QStringLiteral("__ia32_compat_sys_openat")));
        const QByteArray path = file("opened-by-compat32");
        QFile f(QFile::decodeName(path));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        const QByteArray report = file("open-report");
        Compat32Run run({"open", path}, report);
        QVERIFY(run.m_child->pid() > 0);

        Engine engine;
        QString error;
        QList<ProbeConfig> req{{QStringLiteral("open"),
                                {{QStringLiteral("pid"), qint64(run.m_child->pid())},
                                 {QStringLiteral("attach"), attach}},
                                {}}};
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        QVERIFY2(req[0].attachPath.contains(QLatin1String("__ia32_compat_sys_openat")) ||
                     req[0].attachPath == QLatin1String("tp_btf/sys_exit"),
                 qPrintable(req[0].attachPath));
        QCOMPARE(run.m_child->run(), 0);
        RecordBatch b;
        engine.stop(&b);

        const QList<Reported> expected = readReport(report);
        QCOMPARE(expected.size(), 5);
        const QList<QByteArray> paths{path, path, path + "-c", path, "/nonexistent/compat32"};
        QList<OpenEvent> ours;
        bool sawLoader = false;
        for (const OpenEvent &e : std::as_const(b.open)) {
            QCOMPARE(e.pid, quint32(run.m_child->pid()));
            if (e.comm != "compat32")
                continue; // the child's open of its stdout, before the exec
            if (paths.contains(e.path))
                ours.append(e);
            // The 32-bit dynamic loader's own openat calls are opens of this process too.
            sawLoader = sawLoader || e.path.contains("ld.so.cache") || e.path.contains("libc.so");
            // readlink's argument: an ia32 readlink taken for x86_64's creat would show it.
            QVERIFY2(e.path != "/proc/self/exe", "ia32 readlink was reported as an open");
        }
        QVERIFY(sawLoader);
        QCOMPARE(ours.size(), expected.size());
        for (int i = 0; i < expected.size(); ++i) {
            const QByteArray what = expected[i].call + ' ' + paths[i];
            QVERIFY2(ours[i].path == paths[i], what.constData());
            QVERIFY2(ours[i].flags == expected[i].flags, what.constData());
            QVERIFY2(ours[i].ret == expected[i].ret, what.constData());
            QVERIFY2(ours[i].tid == quint32(run.m_child->pid()), what.constData());
        }
        QVERIFY(ours[0].ret >= 0);     // openat
        QCOMPARE(ours[2].mode, 0640u); // creat
        QCOMPARE(ours[2].flags, O_CREAT | O_WRONLY | O_TRUNC);
        QCOMPARE(ours[3].flags, int(O_RDONLY | O_NOFOLLOW)); // openat2's open_how, 32-bit caller
        QCOMPARE(ours[4].ret, -ENOENT);
        QCOMPARE(b.stats.last().eventsLost, quint64(0));
    }

    // The per-syscall tracepoints do not fire for ia32 calls: taken by choice, the way misses
    // them, and the probe says so.
    void tracepointsSayTheyMiss32BitOpens()
    {
        BPFLENS_REQUIRE_ROOT("loads the open probe");
        const QString noTracefs = test::ensureTracefs();
        QVERIFY2(noTracefs.isEmpty(), qPrintable(noTracefs));
        const QVariantMap tracepoints{{QStringLiteral("attach"), QStringLiteral("tracepoints")}};
        const ProbeAvailability a = OpenProbe().availability(KernelFeatures(), tracepoints);
        QVERIFY2(a.available, qPrintable(a.reason));
        QVERIFY2(a.reason.contains(QLatin1String("32-bit processes' opens are not reported")),
                 qPrintable(a.reason));
        const QByteArray path = file("missed-by-tracepoints");
        const QByteArray report = file("missed-report");
        Compat32Run run({"open", path}, report);
        QVERIFY(run.m_child->pid() > 0);
        Engine engine;
        QString error;
        QVERIFY2(startProbe(engine, QStringLiteral("open"),
                            {{QStringLiteral("pid"), qint64(run.m_child->pid())},
                             {QStringLiteral("attach"), QStringLiteral("tracepoints")}},
                            &error),
                 qPrintable(error));
        QCOMPARE(run.m_child->run(), 0);
        RecordBatch b;
        engine.stop(&b);
        QCOMPARE(readReport(report).size(), 5); // it did open
        for (const OpenEvent &e : std::as_const(b.open))
            QVERIFY2(e.comm != "compat32", e.path.constData());
    }

    // Each way of the exec probe that sees 32-bit calls' failures: fexit on the ia32 handlers,
    // where the kernel has trampolines, and the raw sys_exit; auto is one of them.
    void execsOfA32BitProcess_data()
    {
        QTest::addColumn<bool>("fails");
        QTest::addColumn<QString>("attach");
        QTest::newRow("succeeds") << false << QStringLiteral("auto");
        for (const char *way : {"fexit", "sys_exit"})
            QTest::newRow(qPrintable(QStringLiteral("fails, %1").arg(QLatin1String(way))))
                << true << QString::fromLatin1(way);
    }

    // Successful execs are seen at sched_process_exec whatever the caller's width; failed ones
    // only at the ia32 execve's return, where argv is an array of 4-byte pointers.
    void execsOfA32BitProcess()
    {
        BPFLENS_REQUIRE_ROOT("loads the exec probe");
        QFETCH(bool, fails);
        QFETCH(QString, attach);
        if (attach == QLatin1String("fexit"))
            BPFLENS_REQUIRE_HOOKS(
                QStringLiteral("fentry"),
                KernelFeatures().canFentry(QStringLiteral("__ia32_compat_sys_execve")));
        const QByteArray target = fails ? file("missing-program") : QByteArray("/bin/true");
        const QList<QByteArray> args{"first", "", "third argument"};
        const QByteArray report = file("exec-report");
        Compat32Run run(QList<QByteArray>{"exec", target} + args, report);
        QVERIFY(run.m_child->pid() > 0);

        Engine engine;
        QString error, path;
        QVERIFY2(startProbe(engine, QStringLiteral("exec"),
                            {{QStringLiteral("pid"), qint64(run.m_child->pid())},
                             {QStringLiteral("failed"), true},
                             {QStringLiteral("attach"), attach}},
                            &error, &path),
                 qPrintable(error));
        // The way taken is the one that sees the ia32 calls.
        QVERIFY2(path.contains(QLatin1String("fexit/__ia32_compat_sys_execve")) ||
                     path.endsWith(QLatin1String(", tp_btf/sys_exit")),
                 qPrintable(path));
        QCOMPARE(run.m_child->run(), 0);
        RecordBatch b;
        engine.stop(&b);

        QList<ExecEvent> events;
        for (const ExecEvent &e : std::as_const(b.exec)) {
            if (e.filename == target)
                events.append(e);
        }
        QCOMPARE(events.size(), 1);
        const ExecEvent &e = events.first();
        QCOMPARE(e.pid, quint32(run.m_child->pid()));
        QCOMPARE(e.ppid, quint32(getpid()));
        QCOMPARE(e.argv, QList<QByteArray>{target} + args);
        QVERIFY(!e.argvTruncated);
        QCOMPARE(e.retval, fails ? -ENOENT : 0);
        if (fails) {
            QCOMPARE(e.comm, QByteArray("compat32"));
            QFile f(QFile::decodeName(report));
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll().trimmed(), QByteArray("exec -2"));
        }
    }

    // The per-syscall tracepoints do not fire for an ia32 execve either: taken by choice, the
    // way misses a 32-bit process's failed exec, and the probe says so (its successful execs
    // are still seen, at sched_process_exec).
    void tracepointsSayTheyMiss32BitFailedExecs()
    {
        BPFLENS_REQUIRE_ROOT("loads the exec probe");
        const QString noTracefs = test::ensureTracefs();
        QVERIFY2(noTracefs.isEmpty(), qPrintable(noTracefs));
        const QVariantMap options{{QStringLiteral("failed"), true},
                                  {QStringLiteral("attach"), QStringLiteral("tracepoints")}};
        const ProbeAvailability a = ExecProbe().availability(KernelFeatures(), options);
        QVERIFY2(a.available, qPrintable(a.reason));
        QVERIFY2(
            a.reason.contains(QLatin1String("32-bit processes' failed execs are not reported")),
            qPrintable(a.reason));
        const QByteArray target = file("missed-program");
        const QByteArray report = file("missed-exec-report");
        Compat32Run run({"exec", target}, report);
        QVERIFY(run.m_child->pid() > 0);
        Engine engine;
        QString error;
        QVariantMap withPid = options;
        withPid.insert(QStringLiteral("pid"), qint64(run.m_child->pid()));
        QVERIFY2(startProbe(engine, QStringLiteral("exec"), withPid, &error), qPrintable(error));
        QCOMPARE(run.m_child->run(), 0);
        RecordBatch b;
        engine.stop(&b);
        QFile f(QFile::decodeName(report));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().trimmed(), QByteArray("exec -2")); // it did try
        for (const ExecEvent &e : std::as_const(b.exec))
            QVERIFY2(e.filename != target, e.filename.constData());
    }
};

QTEST_GUILESS_MAIN(TestCompat32)
#include "tst_compat32.moc"
