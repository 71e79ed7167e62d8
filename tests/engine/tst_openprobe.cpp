// The open probe against the real kernel: opens of a unique path in a temporary directory on
// the root file system, done by this test and by a child of it, must be reported exactly, on
// each way the probe can hook the calls (option attach) that this kernel has.
#include "helper/engine.h"
#include "helper/kernelfeatures.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/hooktestutil.h"
#include "tests/testutil.h"

#include <QFile>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <QDir>
#include <QFileInfo>

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace bpflens;

namespace {

QList<OpenEvent> eventsFor(const RecordBatch &b, const QByteArray &path)
{
    QList<OpenEvent> out;
    for (const OpenEvent &e : b.open) {
        if (e.path == path)
            out.append(e);
    }
    return out;
}

// The events of this thread whose path ends with name.
QList<OpenEvent> endingWith(const RecordBatch &b, const QByteArray &name)
{
    QList<OpenEvent> out;
    for (const OpenEvent &e : b.open) {
        if (e.tid == quint32(gettid()) && e.path.endsWith(name))
            out.append(e);
    }
    return out;
}

// The ways of option attach, a data row each. auto is one of the others: which one,
// opensAreReportedExactly checks, with auto in the place of fexit (where the kernel has
// trampolines auto is fexit, and under the VM matrix's emulated CPU every start on fexit costs
// seconds); the other tests take each way by name.
void addWays(bool autoForFexit = false)
{
    QTest::addColumn<QString>("attach");
    QTest::newRow(autoForFexit ? "auto" : "fexit")
        << (autoForFexit ? QStringLiteral("auto") : QStringLiteral("fexit"));
    for (const char *way : {"sys_exit", "tracepoints"})
        QTest::newRow(way) << QString::fromLatin1(way);
}

// What a way attaches on this kernel, as the probe must report it. auto: fexit on the syscall
// handlers where the kernel has trampolines; else the raw sys_exit where 32-bit processes can
// run (only it sees their calls); else the per-syscall tracepoints.
QString expectedPath(const QString &attach)
{
    KernelFeatures kernel;
    QString way = attach;
    if (way == QLatin1String("auto"))
        way = kernel.canFentry(QStringLiteral("__x64_sys_openat")) ? QStringLiteral("fexit")
              : kernel.runsCompatTasks()                           ? QStringLiteral("sys_exit")
                                                                   : QStringLiteral("tracepoints");
    if (way == QLatin1String("sys_exit"))
        return QStringLiteral("tp_btf/sys_exit");
    const QString form = way == QLatin1String("fexit") ? QStringLiteral("fexit/__x64_sys_%1")
                                                       : QStringLiteral("tp/syscalls/sys_enter_%1, "
                                                                        "tp/syscalls/sys_exit_%1");
    QStringList parts;
    for (const char *call : {"openat", "open", "openat2", "creat"})
        parts.append(form.arg(QLatin1String(call)));
    // 32-bit processes' calls, at their own handlers.
    if (way == QLatin1String("fexit") && kernel.runsCompatTasks())
        parts << QStringLiteral("fexit/__ia32_compat_sys_openat")
              << QStringLiteral("fexit/__ia32_compat_sys_open")
              << QStringLiteral("fexit/__ia32_sys_openat2")
              << QStringLiteral("fexit/__ia32_sys_creat");
    return parts.join(QStringLiteral(", "));
}

const ProbeStats *statsOf(const RecordBatch &b, const QString &id)
{
    const ProbeStats *found = nullptr;
    for (const ProbeStats &s : b.stats) {
        if (s.probeId == id)
            found = &s;
    }
    return found;
}

} // namespace

// The fexit way needs trampolines, which this development machine lacks (the VM matrix has them).
#define REQUIRE_WAY(attach)                                                                        \
    do {                                                                                           \
        if ((attach) == QLatin1String("fexit"))                                                    \
            BPFLENS_REQUIRE_HOOKS(QStringLiteral("fentry"),                                        \
                                  KernelFeatures().canFentry(QStringLiteral("__x64_sys_openat"))); \
    } while (false)

class TestOpenProbe : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QByteArray m_path;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_path = QFile::encodeName(m_dir.filePath(QStringLiteral("opened-by-tst_openprobe")));
        QFile f(QFile::decodeName(m_path));
        QVERIFY(f.open(QIODevice::WriteOnly));
        // The per-syscall tracepoints are found in tracefs.
        if (geteuid() == 0) {
            const QString why = test::ensureTracefs();
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }
    }

    void opensAreReportedExactly_data() { addWays(true); }

    void opensAreReportedExactly()
    {
        BPFLENS_REQUIRE_ROOT("loads the open probe");
        QFETCH(QString, attach);
        REQUIRE_WAY(attach);
        const int n = 10;
        // The child opens the same path; filtered to this process, it must not show.
        test::GatedChild child([path = m_path.constData()] {
            for (int i = 0; i < 5; ++i)
                close(open(path, O_RDONLY));
        });
        QVERIFY(child.pid() > 0);

        Engine engine;
        QList<ProbeConfig> req{
            {QStringLiteral("open"),
             {{QStringLiteral("pid"), getpid()}, {QStringLiteral("attach"), attach}},
             {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        const QString path = expectedPath(attach);
        QCOMPARE(req[0].attachPath, path);
        // Only the chosen way's programs load; without fullPath the sys_exit way's directory walk
        // is not loaded: nothing for the verifier to check.
        QCOMPARE(test::ownProgramIds({"open_btf_exit_f", "open_fx_at_f"}).size(), 0);
        QCOMPARE(test::ownProgramIds({"open_btf_exit"}).size(),
                 path.startsWith(QLatin1String("tp_btf/")) ? 1 : 0);
        QCOMPARE(test::ownProgramIds({"open_tp_"}).size(),
                 path.startsWith(QLatin1String("tp/")) ? 8 : 0);
        QCOMPARE(test::ownProgramIds({"open_fx_"}).size(), path.startsWith(QLatin1String("fexit/"))
                                                               ? path.count(QLatin1String("fexit/"))
                                                               : 0);

        QList<int> fds;
        for (int i = 0; i < n; ++i) {
            const int fd = open(m_path.constData(), O_RDONLY | O_CLOEXEC);
            QVERIFY(fd >= 0);
            fds.append(fd);
            close(fd);
        }
        const QByteArray created = m_path + "-created";
        const int cfd = open(created.constData(), O_WRONLY | O_CREAT | O_EXCL, 0640);
        QVERIFY(cfd >= 0);
        close(cfd);
        open_how how{};
        how.flags = O_RDONLY | O_NOFOLLOW;
        const int at2 = int(syscall(SYS_openat2, AT_FDCWD, m_path.constData(), &how, sizeof(how)));
        QVERIFY(at2 >= 0);
        close(at2);
        const QByteArray missing = m_path + "-missing";
        QCOMPARE(open(missing.constData(), O_RDONLY), -1);
        QCOMPARE(child.run(), 0);

        RecordBatch b;
        engine.stop(&b);
        QFile::remove(QFile::decodeName(created));

        const QList<OpenEvent> events = eventsFor(b, m_path);
        QCOMPARE(events.size(), n + 1); // the child's five are filtered out
        for (int i = 0; i < n; ++i) {
            const OpenEvent &e = events[i];
            QCOMPARE(e.pid, quint32(getpid()));
            QCOMPARE(e.tid, quint32(gettid()));
            QCOMPARE(e.uid, quint32(getuid()));
            QCOMPARE(e.flags, O_RDONLY | O_CLOEXEC);
            QCOMPARE(e.ret, fds[i]);
            QVERIFY(e.timeNs >= engine.startMonotonicNs() && e.timeNs <= Engine::monotonicNowNs());
            QCOMPARE(e.comm, QFile::encodeName(QCoreApplication::applicationFilePath().section(
                                                   QLatin1Char('/'), -1))
                                 .left(15));
        }
        QCOMPARE(events[n].flags, int(O_RDONLY | O_NOFOLLOW));
        QCOMPARE(events[n].ret, at2);

        const QList<OpenEvent> c = eventsFor(b, created);
        QCOMPARE(c.size(), 1);
        QCOMPARE(c[0].flags, O_WRONLY | O_CREAT | O_EXCL);
        QCOMPARE(c[0].mode, 0640u);
        QCOMPARE(c[0].ret, cfd);

        const QList<OpenEvent> m = eventsFor(b, missing);
        QCOMPARE(m.size(), 1);
        QCOMPARE(m[0].ret, -ENOENT);

        for (const OpenEvent &e : std::as_const(b.open))
            QCOMPARE(e.pid, quint32(getpid()));
        QCOMPARE(statsOf(b, QStringLiteral("open"))->eventsLost, quint64(0));
    }

    void childIsSeenWhenFilteredToIt_data() { addWays(); }

    void childIsSeenWhenFilteredToIt()
    {
        BPFLENS_REQUIRE_ROOT("loads the open probe");
        QFETCH(QString, attach);
        REQUIRE_WAY(attach);
        // The other half of the pid filter: filtered to the child, only the child's opens show,
        // and creat() is reported with its implied flags.
        const QByteArray created = m_path + "-creat";
        test::GatedChild child([path = m_path.constData(), c = created.constData()] {
            for (int i = 0; i < 5; ++i)
                close(open(path, O_RDONLY));
            close(creat(c, 0600));
        });
        Engine engine;
        QList<ProbeConfig> req{
            {QStringLiteral("open"),
             {{QStringLiteral("pid"), qint64(child.pid())}, {QStringLiteral("attach"), attach}},
             {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        close(open(m_path.constData(), O_RDONLY));
        QCOMPARE(child.run(), 0);
        RecordBatch b;
        engine.stop(&b);
        QFile::remove(QFile::decodeName(created));
        const QList<OpenEvent> events = eventsFor(b, m_path);
        QCOMPARE(events.size(), 5);
        for (const OpenEvent &e : events)
            QCOMPARE(e.pid, quint32(child.pid()));
        const QList<OpenEvent> c = eventsFor(b, created);
        QCOMPARE(c.size(), 1);
        QCOMPARE(c[0].flags, O_CREAT | O_WRONLY | O_TRUNC);
        QCOMPARE(c[0].mode, 0600u);
        QVERIFY(c[0].ret >= 0);
    }

    void failedOnly_data() { addWays(); }

    void failedOnly()
    {
        BPFLENS_REQUIRE_ROOT("loads the open probe");
        QFETCH(QString, attach);
        REQUIRE_WAY(attach);
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("open"),
                                {{QStringLiteral("tid"), gettid()},
                                 {QStringLiteral("failedOnly"), true},
                                 {QStringLiteral("attach"), attach}},
                                {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        close(open(m_path.constData(), O_RDONLY));
        const QByteArray missing = m_path + "-missing";
        QCOMPARE(open(missing.constData(), O_RDONLY), -1);
        QCOMPARE(open(m_dir.path().toLocal8Bit().constData(), O_WRONLY), -1); // EISDIR
        RecordBatch b;
        engine.stop(&b);
        QCOMPARE(eventsFor(b, m_path).size(), 0);
        QCOMPARE(eventsFor(b, missing).size(), 1);
        QCOMPARE(eventsFor(b, missing)[0].ret, -ENOENT);
        QCOMPARE(eventsFor(b, m_dir.path().toLocal8Bit()).size(), 1);
        QCOMPARE(eventsFor(b, m_dir.path().toLocal8Bit())[0].ret, -EISDIR);
        for (const OpenEvent &e : std::as_const(b.open))
            QVERIFY(e.ret < 0);
    }

    // opensnoop -f: an open passes with any of the named flags; access modes are values, so
    // O_RDONLY (0) can be asked for too.
    void flagsFilterLikeOpensnoop()
    {
        BPFLENS_REQUIRE_ROOT("loads the open probe");
        struct Case
        {
            QString flags;
            QList<int> expected; // indexes into opens below
        };
        const QList<int> opens{O_RDONLY,
                               O_WRONLY,
                               O_RDWR,
                               O_RDONLY | O_CREAT,
                               O_RDWR | O_TRUNC,
                               O_WRONLY | O_APPEND,
                               O_RDONLY | O_CLOEXEC};
        const QList<Case> cases{{QStringLiteral("O_WRONLY,O_CREAT"), {1, 3, 5}},
                                {QStringLiteral("O_RDONLY"), {0, 3, 6}},
                                {QStringLiteral("rdwr|append"), {2, 4, 5}},
                                {QStringLiteral("O_CLOEXEC"), {6}}};
        for (const Case &c : cases) {
            Engine engine;
            // The filter is the same code on every way (report_open): one way is enough, the
            // one that starts fast everywhere (the VM matrix's fexit takes seconds a start).
            QList<ProbeConfig> req{{QStringLiteral("open"),
                                    {{QStringLiteral("tid"), gettid()},
                                     {QStringLiteral("flags"), c.flags},
                                     {QStringLiteral("attach"), QStringLiteral("sys_exit")}},
                                    {}}};
            QString error;
            QVERIFY2(engine.start(req, &error), qPrintable(error));
            for (int i = 0; i < opens.size(); ++i) {
                const QByteArray path = m_path + "-flags-" + QByteArray::number(i);
                const int fd = open(path.constData(), opens[i], 0600);
                QVERIFY2(fd >= 0 || !(opens[i] & O_CREAT), path.constData());
                if (fd >= 0)
                    close(fd);
            }
            RecordBatch b;
            engine.stop(&b);
            QList<int> seen;
            for (const OpenEvent &e : std::as_const(b.open)) {
                if (e.path.startsWith(m_path + "-flags-"))
                    seen.append(e.path.mid(m_path.size() + 7).toInt());
            }
            QCOMPARE(seen, c.expected);
        }
        Engine engine;
        QList<ProbeConfig> bad{{QStringLiteral("open"),
                                {{QStringLiteral("flags"), QStringLiteral("O_WRONLY,O_BOGUS")}},
                                {}}};
        QString error;
        QVERIFY(!engine.start(bad, &error));
        QVERIFY2(error.contains(QLatin1String("\"O_BOGUS\" is not an open flag")),
                 qPrintable(error));
    }

    // opensnoop -F: a relative path is reported with the directory it was resolved against:
    // the working directory or the dirfd, across a mount point, a removed directory said as the
    // kernel says it, and a walk cut short said at its start.
    void fullPathResolvesRelativePaths_data() { addWays(); }

    void fullPathResolvesRelativePaths()
    {
        BPFLENS_REQUIRE_ROOT("loads the open probe and mounts a tmpfs");
        QFETCH(QString, attach);
        REQUIRE_WAY(attach);
        // A directory of the row's own: each row makes the same names.
        QTemporaryDir rowDir(m_dir.filePath(attach + QStringLiteral("-XXXXXX")));
        QVERIFY(rowDir.isValid());
        const QString top = QFileInfo(rowDir.path()).canonicalFilePath();
        const QByteArray topBytes = QFile::encodeName(top);
        const QByteArray mnt = topBytes + "/mnt";
        QVERIFY(mkdir(mnt.constData(), 0700) == 0);
        QVERIFY2(mount("tmpfs", mnt.constData(), "tmpfs", 0, "size=1m") == 0, strerror(errno));
        const auto unmount = qScopeGuard([&] { umount2(mnt.constData(), MNT_DETACH); });
        QVERIFY(mkdir((mnt + "/sub").constData(), 0700) == 0);
        QVERIFY(mkdir((topBytes + "/gone").constData(), 0700) == 0);
        // 50 levels: deeper than the walk's 48.
        QByteArray deep = topBytes + "/deep";
        QVERIFY(QDir().mkpath(QFile::decodeName(deep + QByteArray("/d").repeated(50))));
        deep += QByteArray("/d").repeated(50);
        const QString cwd = QDir::currentPath();
        const auto back = qScopeGuard([&] { QDir::setCurrent(cwd); });

        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("open"),
                                {{QStringLiteral("tid"), gettid()},
                                 {QStringLiteral("fullPath"), true},
                                 {QStringLiteral("attach"), attach}},
                                {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        // On the sys_exit way the walk loads only with the option (its program, 15 characters
        // of its name).
        QCOMPARE(test::ownProgramIds({"open_btf_exit_f"}).size(),
                 req[0].attachPath == QLatin1String("tp_btf/sys_exit") ? 1 : 0);
        // On the fexit way each handler's program is its twin with the walk.
        QCOMPARE(test::ownProgramIds({"open_fx_at_f"}).size(),
                 req[0].attachPath.startsWith(QLatin1String("fexit/")) ? 1 : 0);

        QVERIFY(chdir((mnt + "/sub").constData()) == 0);
        int fd = open("in-cwd", O_WRONLY | O_CREAT, 0600);
        QVERIFY(fd >= 0);
        close(fd);
        const int dfd = open(mnt.constData(), O_RDONLY | O_DIRECTORY);
        QVERIFY(dfd >= 0);
        fd = openat(dfd, "sub/../sub/at-dirfd", O_WRONLY | O_CREAT, 0600);
        QVERIFY(fd >= 0);
        close(fd);
        close(dfd);
        QCOMPARE(openat(9999, "bad-dirfd", O_RDONLY), -1);
        QCOMPARE(open((topBytes + "/absolute").constData(), O_RDONLY), -1);
        QVERIFY(chdir("/") == 0);
        const QByteArray fromRoot = topBytes.mid(1) + "/from-root";
        QCOMPARE(open(fromRoot.constData(), O_RDONLY), -1);
        QVERIFY(chdir((topBytes + "/gone").constData()) == 0);
        QVERIFY(rmdir((topBytes + "/gone").constData()) == 0);
        QCOMPARE(open("in-removed", O_RDONLY), -1);
        QVERIFY(chdir(deep.constData()) == 0);
        QCOMPARE(open("too-deep", O_RDONLY), -1);
        QVERIFY(chdir(cwd.toLocal8Bit().constData()) == 0);

        RecordBatch b;
        engine.stop(&b);
        auto only = [&](const QByteArray &name) -> QByteArray {
            const QList<OpenEvent> e = endingWith(b, name);
            return e.size() == 1 ? e.first().path : "<" + QByteArray::number(e.size()) + " events>";
        };
        QCOMPARE(only("/in-cwd"), mnt + "/sub/in-cwd");
        QCOMPARE(only("/at-dirfd"), mnt + "/sub/../sub/at-dirfd");
        QCOMPARE(only("bad-dirfd"), QByteArray("bad-dirfd")); // EBADF: nothing to resolve
        QCOMPARE(endingWith(b, "bad-dirfd").first().ret, -EBADF);
        QCOMPARE(only("/absolute"), topBytes + "/absolute");
        QCOMPARE(only("/from-root"), topBytes + "/from-root");
        QCOMPARE(only("/in-removed"), topBytes + "/gone (deleted)/in-removed");
        QCOMPARE(only("/too-deep"), "\xe2\x80\xa6" + QByteArray("/d").repeated(48) + "/too-deep");
        QCOMPARE(statsOf(b, QStringLiteral("open"))->eventsLost, quint64(0));
    }

    // A ring buffer of one page and a consumer that does not drain: whatever does not fit is
    // counted, so delivered + lost is exactly what the workload did.
    void floodOverrunsSmallRingBufferAndCountsEveryLoss()
    {
        BPFLENS_REQUIRE_ROOT("loads the open probe");
        const int opens = 3000;
        test::GatedChild child([path = m_path.constData()] {
            for (int i = 0; i < opens; ++i) {
                const int fd = open(path, i % 3 ? O_RDONLY : O_RDONLY | O_DIRECTORY);
                if (fd >= 0)
                    close(fd);
            }
        });
        Engine engine;
        engine.setRingBufferBytes(4096);
        // The ring and its loss count are the same on every way; sys_exit starts fast everywhere.
        QList<ProbeConfig> req{{QStringLiteral("open"),
                                {{QStringLiteral("pid"), qint64(child.pid())},
                                 {QStringLiteral("attach"), QStringLiteral("sys_exit")}},
                                {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        QCOMPARE(child.run(), 0);
        RecordBatch b;
        engine.stop(&b);
        const ProbeStats *stats = statsOf(b, QStringLiteral("open"));
        QVERIFY(stats);
        const qsizetype delivered = eventsFor(b, m_path).size();
        QCOMPARE(b.open.size(), delivered);
        qInfo("flood: %d opens, %lld delivered, %llu lost", opens, qint64(delivered),
              stats->eventsLost);
        QVERIFY(delivered > 0);
        QVERIFY(stats->eventsLost > 0);
        QCOMPARE(stats->eventsSeen, quint64(delivered));
        QCOMPARE(quint64(delivered) + stats->eventsLost, quint64(opens));
    }

    void nothingStaysAttached()
    {
        BPFLENS_REQUIRE_ROOT("inspects the kernel's BPF objects");
        QCOMPARE(test::ownBpfObjects({}), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestOpenProbe)
#include "tst_openprobe.moc"
