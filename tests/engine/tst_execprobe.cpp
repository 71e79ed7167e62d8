// The exec probe against the real kernel: a uniquely named program in a temporary directory is
// exec'd by a child of this test with known arguments, and the engine must report exactly one
// event per exec with the right identity, argv and result.
#include "helper/engine.h"
#include "helper/kernelfeatures.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/hooktestutil.h"
#include "tests/testutil.h"

#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens;

namespace {

// Forks and execs path with argv; returns the child's pid after it ended, and its status.
pid_t forkExec(const QByteArray &path, const QList<QByteArray> &args, int *status)
{
    // Built before fork: the child only calls execv.
    std::vector<char *> argv;
    for (const QByteArray &a : args)
        argv.push_back(const_cast<char *>(a.constData()));
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
        execv(path.constData(), argv.data());
        _exit(127);
    }
    waitpid(pid, status, 0);
    return pid;
}

// The same through execveat(AT_FDCWD, path, ...): its own handler and tracepoints.
pid_t forkExecAt(const QByteArray &path, const QList<QByteArray> &args, int *status)
{
    std::vector<char *> argv;
    for (const QByteArray &a : args)
        argv.push_back(const_cast<char *>(a.constData()));
    argv.push_back(nullptr);
    char *envp[] = {nullptr};
    const pid_t pid = fork();
    if (pid == 0) {
        syscall(SYS_execveat, AT_FDCWD, path.constData(), argv.data(), envp, 0);
        _exit(127);
    }
    waitpid(pid, status, 0);
    return pid;
}

// What the exec probe with failed attaches on this kernel for a way of option attach, as it
// must report it. auto: fexit on the syscall handlers where the kernel has trampolines and types
// both handlers as such in its BTF; else
// the raw sys_exit where 32-bit processes can run (only it sees their calls); else the
// per-syscall tracepoints.
QString expectedFailedPath(const QString &attach)
{
    KernelFeatures kernel;
    QString way = attach;
    if (way == QLatin1String("auto"))
        way = kernel.canFentry(QStringLiteral("__x64_sys_execve")) &&
                      kernel.isSyscallHandler(QStringLiteral("__x64_sys_execve")) &&
                      kernel.isSyscallHandler(QStringLiteral("__x64_sys_execveat"))
                  ? QStringLiteral("fexit")
              : kernel.runsCompatTasks() ? QStringLiteral("sys_exit")
                                         : QStringLiteral("tracepoints");
    QStringList parts{QStringLiteral("tp_btf/sched_process_exec")};
    if (way == QLatin1String("sys_exit"))
        return parts.join(QStringLiteral(", ")) + QStringLiteral(", tp_btf/sys_exit");
    const QString form = way == QLatin1String("fexit") ? QStringLiteral("fexit/__x64_sys_%1")
                                                       : QStringLiteral("tp/syscalls/sys_enter_%1, "
                                                                        "tp/syscalls/sys_exit_%1");
    for (const char *call : {"execve", "execveat"})
        parts.append(form.arg(QLatin1String(call)));
    // 32-bit processes' calls, at their own handlers.
    if (way == QLatin1String("fexit") && kernel.runsCompatTasks())
        parts << QStringLiteral("fexit/__ia32_compat_sys_execve")
              << QStringLiteral("fexit/__ia32_compat_sys_execveat");
    return parts.join(QStringLiteral(", "));
}

const ProbeStats *statsOf(const RecordBatch &b)
{
    const ProbeStats *found = nullptr;
    for (const ProbeStats &s : b.stats) {
        if (s.probeId == QLatin1String("exec"))
            found = &s;
    }
    return found;
}

QList<ExecEvent> eventsFor(const RecordBatch &b, const QByteArray &filename)
{
    QList<ExecEvent> out;
    for (const ExecEvent &e : b.exec) {
        if (e.filename == filename)
            out.append(e);
    }
    return out;
}

} // namespace

class TestExecProbe : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QByteArray m_program; // a copy of /bin/true with a unique 15-character name
    QByteArray m_name;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_name = "bpfl" + QByteArray::number(QRandomGenerator::global()->generate(), 36)
                              .rightJustified(11, 'z')
                              .left(11);
        m_program = QFile::encodeName(m_dir.filePath(QString::fromLatin1(m_name)));
        QVERIFY(QFile::copy(QStringLiteral("/bin/true"), QFile::decodeName(m_program)));
        QVERIFY(chmod(m_program.constData(), 0755) == 0);
        // The per-syscall tracepoints are found in tracefs.
        if (geteuid() == 0) {
            const QString why = test::ensureTracefs();
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }
    }

    void execReportsIdentityAndArgv()
    {
        BPFLENS_REQUIRE_ROOT("loads the exec probe");
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("exec"), {}, {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        QCOMPARE(req[0].attachPath, QStringLiteral("tp_btf/sched_process_exec"));

        // From this binary's read-only data: the child may never have touched these pages.
        const QList<QByteArray> literal = {m_program, "--literal", "string literal argument"};
        QList<QByteArray> longArgs = {m_program, QByteArray(1000, 'a'), QByteArray(2000, 'b'), "",
                                      "end"};
        QList<QByteArray> many = {m_program};
        for (int i = 1; i < 25; ++i)
            many.append("arg" + QByteArray::number(i));

        int status = 0;
        const pid_t p1 = forkExec(m_program, literal, &status);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        const pid_t p2 = forkExec(m_program, longArgs, &status);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        const pid_t p3 = forkExec(m_program, many, &status);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);

        RecordBatch b;
        engine.stop(&b);
        const QList<ExecEvent> events = eventsFor(b, m_program);
        QCOMPARE(events.size(), 3);

        const pid_t pids[] = {p1, p2, p3};
        for (int i = 0; i < 3; ++i) {
            const ExecEvent &e = events[i];
            QCOMPARE(e.pid, quint32(pids[i]));
            QCOMPARE(e.ppid, quint32(getpid()));
            QCOMPARE(e.uid, quint32(getuid()));
            QCOMPARE(e.comm, m_name);
            QCOMPARE(e.retval, 0);
            QVERIFY(e.timeNs >= engine.startMonotonicNs());
            QVERIFY(e.timeNs <= Engine::monotonicNowNs());
        }
        QCOMPARE(events[0].argv, literal);
        QVERIFY(!events[0].argvTruncated);
        QCOMPARE(events[1].argv, longArgs);
        QVERIFY(!events[1].argvTruncated);
        QCOMPARE(events[2].argv, many.mid(0, 20));
        QVERIFY(events[2].argvTruncated);
        QVERIFY(events[0].timeNs < events[1].timeNs && events[1].timeNs < events[2].timeNs);

        const ProbeStats *stats = nullptr;
        for (const ProbeStats &s : b.stats) {
            if (s.probeId == QLatin1String("exec"))
                stats = &s;
        }
        QVERIFY(stats);
        QCOMPARE(stats->eventsLost, quint64(0));
        QVERIFY(stats->runCount >= 3);
    }

    // execsnoop's -n (the command's name contains), -l (the arguments contain) and --max-args:
    // each recording execs the test program and /bin/true with known arguments, and only the
    // execs the option names are reported, each once.
    void optionsLikeExecsnoop()
    {
        BPFLENS_REQUIRE_ROOT("loads the exec probe");
        auto record = [&](const QVariantMap &options, const QList<QList<QByteArray>> &runs) {
            Engine engine;
            QVariantMap withPid = options;
            QList<ProbeConfig> req{{QStringLiteral("exec"), withPid, {}}};
            QString error;
            if (!engine.start(req, &error)) {
                qWarning("start: %s", qPrintable(error));
                return QList<ExecEvent>();
            }
            for (const QList<QByteArray> &argv : runs) {
                int status = 0;
                forkExec(argv[0], argv, &status);
            }
            RecordBatch b;
            engine.stop(&b);
            QList<ExecEvent> mine;
            for (const ExecEvent &e : std::as_const(b.exec)) {
                if (e.ppid == quint32(getpid()))
                    mine.append(e);
            }
            return mine;
        };
        const QByteArray part = m_name.mid(3, 6); // inside the program's unique name
        QList<ExecEvent> named = record({{QStringLiteral("name"), QString::fromLatin1(part)}},
                                        {{m_program, "one"}, {"/bin/true", "two"}});
        QCOMPARE(named.size(), 1);
        QCOMPARE(named[0].argv, (QList<QByteArray>{m_program, "one"}));

        QList<ExecEvent> lined = record({{QStringLiteral("line"), QStringLiteral("needle in")}},
                                        {{m_program, "a", "needle"},
                                         {"/bin/true", "the needle", "in it"},
                                         {m_program, "needle in"},
                                         {m_program, "no", "match"}});
        QCOMPARE(lined.size(), 2); // across two arguments, and within one
        QCOMPARE(lined[0].argv, (QList<QByteArray>{"/bin/true", "the needle", "in it"}));
        QCOMPARE(lined[1].argv, (QList<QByteArray>{m_program, "needle in"}));

        QList<ExecEvent> capped = record(
            {{QStringLiteral("maxArgs"), 3}, {QStringLiteral("name"), QString::fromLatin1(part)}},
            {{m_program, "1", "2", "3", "4", "5"}, {m_program, "1", "2"}});
        QCOMPARE(capped.size(), 2);
        QCOMPARE(capped[0].argv, (QList<QByteArray>{m_program, "1", "2"}));
        QVERIFY(capped[0].argvTruncated);
        QCOMPARE(capped[1].argv, (QList<QByteArray>{m_program, "1", "2"}));
        QVERIFY(!capped[1].argvTruncated);

        // out of range: refused, nothing loaded
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("exec"), {{QStringLiteral("maxArgs"), 21}}, {}}};
        QString error;
        QVERIFY(!engine.start(req, &error));
        QVERIFY2(error.contains(QStringLiteral("out of range")), qPrintable(error));
    }

    void argvOverTheByteLimitIsMarkedTruncated()
    {
        BPFLENS_REQUIRE_ROOT("loads the exec probe");
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("exec"), {{QStringLiteral("comm"), m_name}}, {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        const QList<QByteArray> args = {m_program, QByteArray(3000, 'x'), QByteArray(3000, 'y')};
        int status = 0;
        forkExec(m_program, args, &status);
        RecordBatch b;
        engine.stop(&b);
        QCOMPARE(b.exec.size(), 1);
        const ExecEvent &e = b.exec[0];
        QVERIFY(e.argvTruncated);
        QCOMPARE(e.argv.size(), 3);
        QCOMPARE(e.argv[0], m_program);
        QCOMPARE(e.argv[1], args[1]);
        // The 4 KiB of argument space holds what fits of the last one.
        QVERIFY(args[2].startsWith(e.argv[2]));
        QCOMPARE(e.argv[0].size() + e.argv[1].size() + e.argv[2].size() + 3, 4096);
    }

    // Each way of option attach sees failed execs, execve's and execveat's, and says which it
    // took. auto stands in for fexit where the kernel has trampolines (the VM matrix; here it
    // is sys_exit), so that an fexit start, seconds under the matrix's emulated CPU, is paid
    // once per row kind; fexit by name is checked in tst_compat32.
    void failedExecOnlyWithOption_data()
    {
        QTest::addColumn<QString>("attach");
        QTest::addColumn<bool>("failed");
        QTest::addColumn<bool>("notExecutable");
        QTest::newRow("ENOENT, without failed") << QStringLiteral("auto") << false << false;
        QTest::newRow("EACCES, auto") << QStringLiteral("auto") << true << true;
        for (const char *way : {"auto", "sys_exit", "tracepoints"})
            QTest::newRow(qPrintable(QStringLiteral("ENOENT, %1").arg(QLatin1String(way))))
                << QString::fromLatin1(way) << true << false;
    }

    void failedExecOnlyWithOption()
    {
        BPFLENS_REQUIRE_ROOT("loads the exec probe");
        QFETCH(QString, attach);
        QFETCH(bool, failed);
        QFETCH(bool, notExecutable);
        const QByteArray path = m_program + (notExecutable ? "-noexec" : "-missing");
        if (notExecutable) {
            QFile f(QFile::decodeName(path));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("#!/bin/true\n");
            f.close();
            QVERIFY(chmod(path.constData(), 0644) == 0);
        }
        Engine engine;
        QList<ProbeConfig> req{
            {QStringLiteral("exec"),
             {{QStringLiteral("failed"), failed}, {QStringLiteral("attach"), attach}},
             {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        QCOMPARE(req[0].attachPath,
                 failed ? expectedFailedPath(attach) : QStringLiteral("tp_btf/sched_process_exec"));

        // An empty argument must not end argv (older kernels read "" as length 0). It lives on
        // the heap like the others: the failed path reads the caller's memory without faulting,
        // and a shared empty string in a library page the child never touched may not be there.
        QByteArray empty(1, 'e');
        empty.truncate(0);
        const QList<QByteArray> args = {path, "one", empty, QByteArray(300, 'z')};
        int status = 0;
        const pid_t bad = forkExec(path, args, &status);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 127);
        const pid_t badAt = forkExecAt(path, args, &status);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 127);
        // A successful exec in the same session is still reported once, with retval 0.
        const pid_t good = forkExec(m_program, {m_program}, &status);
        RecordBatch b;
        engine.stop(&b);
        if (notExecutable)
            QFile::remove(QFile::decodeName(path));

        const QList<ExecEvent> failures = eventsFor(b, path);
        const QList<ExecEvent> successes = eventsFor(b, m_program);
        QCOMPARE(successes.size(), 1);
        QCOMPARE(successes[0].pid, quint32(good));
        QCOMPARE(successes[0].retval, 0);
        if (!failed) {
            QCOMPARE(failures.size(), 0);
            return;
        }
        QCOMPARE(failures.size(), 2); // execve's, then execveat's
        const pid_t pids[] = {bad, badAt};
        for (int i = 0; i < 2; ++i) {
            const ExecEvent &e = failures[i];
            QCOMPARE(e.retval, notExecutable ? -EACCES : -ENOENT);
            QCOMPARE(e.pid, quint32(pids[i]));
            QCOMPARE(e.ppid, quint32(getpid()));
            QCOMPARE(e.argv, args);
            QVERIFY(!e.argvTruncated);
            // The exec failed, so the child still has this test's name.
            QCOMPARE(e.comm, QFile::encodeName(
                                 QFileInfo(QCoreApplication::applicationFilePath()).fileName())
                                 .left(15));
        }
        QCOMPARE(statsOf(b)->eventsLost, quint64(0));
    }

    void filtersDropOtherProcesses()
    {
        BPFLENS_REQUIRE_ROOT("loads the exec probe");
        // The pid filter names this process: its children's execs are not it.
        for (const QVariantMap &options :
             {QVariantMap{{QStringLiteral("pid"), qint64(getpid())}},
              QVariantMap{{QStringLiteral("uid"), qint64(getuid()) + 4242}},
              QVariantMap{{QStringLiteral("comm"), QStringLiteral("no-such-comm")}}}) {
            Engine engine;
            QList<ProbeConfig> req{{QStringLiteral("exec"), options, {}}};
            QString error;
            QVERIFY2(engine.start(req, &error), qPrintable(error));
            int status = 0;
            forkExec(m_program, {m_program}, &status);
            RecordBatch b;
            engine.stop(&b);
            QCOMPARE(eventsFor(b, m_program).size(), 0);
        }
        // Control: the same exec without filters is seen, so the zero above is the filter's.
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("exec"),
                                {{QStringLiteral("uid"), qint64(getuid())},
                                 {QStringLiteral("comm"), QString::fromLatin1(m_name)}},
                                {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        int status = 0;
        forkExec(m_program, {m_program}, &status);
        RecordBatch b;
        engine.stop(&b);
        QCOMPARE(eventsFor(b, m_program).size(), 1);
    }

    // fexit programs read a handler's pt_regs: the BTF must say that is its argument (Debian's
    // 5.10 gives __x64_sys_execveat a prototype whose pt_regs is only declared, and the verifier
    // refuses the program).
    void syscallHandlersKnownByTheirBtf()
    {
        KernelFeatures kernel;
        if (!kernel.hasBtf())
            QSKIP("the kernel has no BTF");
        QVERIFY(kernel.isSyscallHandler(QStringLiteral("__x64_sys_execve")));
        QVERIFY(kernel.isSyscallHandler(QStringLiteral("__x64_sys_openat")));
        QVERIFY(!kernel.isSyscallHandler(QStringLiteral("vfs_read"))); // (file *, ...)
        QVERIFY(!kernel.isSyscallHandler(QStringLiteral("do_exit")));  // (long)
        QVERIFY(!kernel.isSyscallHandler(QStringLiteral("no_such_function_here")));
    }

    void nothingStaysAttached()
    {
        BPFLENS_REQUIRE_ROOT("inspects the kernel's BPF objects");
        QCOMPARE(test::ownBpfObjects({}), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestExecProbe)
#include "tst_execprobe.moc"
