// The fsslower probe against the real kernel: fsyncs of named files on a real disk, by this
// process, must each come back with the file's name, the process and ext4; a threshold above
// any latency reports none; another process's fsyncs are filtered out.
#include "helper/engine.h"
#include "helper/fsslowerprobe.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/hooktestutil.h"
#include "tests/engine/iotestdir.h"
#include "tests/testutil.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace bpflens;

namespace {

using test::ownComm;

// Writes a block to path and fsyncs it (fdatasync if data): async-signal-safe, for children too.
bool writeAndSync(const char *path, bool data)
{
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    char buf[4096];
    memset(buf, 0x11, sizeof(buf));
    const bool ok = write(fd, buf, sizeof(buf)) == ssize_t(sizeof(buf)) &&
                    (data ? fdatasync(fd) : fsync(fd)) == 0;
    close(fd);
    return ok;
}

} // namespace

class TestFsSlower : public QObject
{
    Q_OBJECT

    QTemporaryDir *m_dir = nullptr;
    bool m_ext4 = false;

    QByteArray file(const char *name) const
    {
        return QFile::encodeName(m_dir->filePath(QLatin1String(name)));
    }

    // minLatencyUs < 0: the probe's default threshold.
    RecordBatch record(qint64 minLatencyUs, const std::function<void()> &work, pid_t pid,
                       QString *attachPath, const QString &attach = QStringLiteral("auto"))
    {
        Engine engine;
        QVariantMap options{{QStringLiteral("pid"), qint64(pid)},
                            {QStringLiteral("attach"), attach}};
        if (minLatencyUs >= 0)
            options.insert(QStringLiteral("minLatencyUs"), minLatencyUs);
        QList<ProbeConfig> req{{QStringLiteral("fsslower"), options, {}}};
        QString error;
        RecordBatch b;
        if (!engine.start(req, &error)) {
            qWarning() << error;
            return b;
        }
        *attachPath = req[0].attachPath;
        work();
        engine.stop(&b);
        return b;
    }

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        const QString base = test::ioTestDirectory();
        const QString why = test::notOnADisk(base);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        m_dir = new QTemporaryDir(base + QStringLiteral("/bpflens-fsslower-XXXXXX"));
        QVERIFY(m_dir->isValid());
        // The probe reports ext4 by its own tracepoints; other file systems need functions.
        struct statfs sfs
        {
        };
        QCOMPARE(statfs(m_dir->path().toLocal8Bit().constData(), &sfs), 0);
        m_ext4 = sfs.f_type == 0xEF53;
    }

    void cleanupTestCase() { delete m_dir; }

    void availabilitySaysWhatIsReported()
    {
        BPFLENS_REQUIRE_ROOT("reads the kernel's BTF");
        KernelFeatures kernel;
        FsSlowerProbe probe;
        const ProbeAvailability a = probe.availability(kernel, {});
        const QByteArray ops = FsSlowerProbe::ext4Operations(kernel);
        const bool functions = kernel.canFentry(QStringLiteral("ext4_file_read_iter")) ||
                               kernel.canKprobe(QStringLiteral("ext4_file_read_iter"));
        if (kernel.hasBtfTracepoint(QStringLiteral("ext4_sync_file_enter"))) {
            QVERIFY2(a.available, qPrintable(a.reason));
            QVERIFY(ops.contains('F'));
            QVERIFY(a.attachPath.contains(QStringLiteral("tp_btf/ext4_sync_file_enter")));
        }
        if (!functions) {
            // This machine: fsync only, and the reason says what is missing and why.
            QCOMPARE(ops, QByteArray("F"));
            QCOMPARE(a.attachPath, QStringLiteral("tp_btf/ext4_sync_file_enter, "
                                                  "tp_btf/ext4_sync_file_exit"));
            QVERIFY2(a.reason.contains(QLatin1String("reads, writes, opens")),
                     qPrintable(a.reason));
            QVERIFY2(a.reason.contains(QLatin1String("fentry")), qPrintable(a.reason));
            QVERIFY2(a.reason.contains(QLatin1String("kprobe")), qPrintable(a.reason));
        } else {
            QVERIFY(ops.contains('R') && ops.contains('W') && ops.contains('O'));
        }
    }

    void everyFsyncWithZeroThreshold()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        if (!m_ext4)
            QSKIP("BPFLENS_TEST_DIR is not on ext4");
        const QList<QByteArray> names = {"first.dat", "second.dat", "third.dat"};
        const quint64 before = Engine::monotonicNowNs();
        QString path;
        bool ok = true;
        const RecordBatch b = record(
            0,
            [&] {
                for (int i = 0; i < names.size(); ++i)
                    ok = ok && writeAndSync(file(names[i].constData()).constData(), i == 2);
            },
            getpid(), &path);
        QVERIFY(ok);
        QVERIFY2(!path.isEmpty(), "the probe did not start");
        QList<FsSlowEvent> fsyncs;
        for (const FsSlowEvent &e : b.fsSlow) {
            QCOMPARE(e.pid, quint32(getpid()));
            QCOMPARE(e.fs, QByteArray("ext4"));
            QVERIFY(e.timeNs >= before && e.timeNs <= Engine::monotonicNowNs());
            if (e.op == 'F')
                fsyncs.append(e);
        }
        QCOMPARE(fsyncs.size(), names.size());
        for (int i = 0; i < names.size(); ++i) {
            QCOMPARE(fsyncs[i].filename, names[i]);
            QCOMPARE(fsyncs[i].comm, ownComm());
            QVERIFY(fsyncs[i].latencyNs > 0);
        }
        // Where reads, writes and opens are hooked too (fentry/kprobe kernels): the writes.
        KernelFeatures kernel;
        if (FsSlowerProbe::ext4Operations(kernel).contains('W')) {
            int writes = 0;
            for (const FsSlowEvent &e : b.fsSlow)
                writes += e.op == 'W' && e.bytes == 4096 && names.contains(e.filename);
            QCOMPARE(writes, names.size());
        }
        for (const ProbeStats &s : b.stats)
            QCOMPARE(s.eventsLost, 0u);
    }

    void hugeThresholdReportsNothing()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        QString path;
        bool ok = true;
        const RecordBatch b = record(
            3600ll * 1000 * 1000,
            [&] {
                for (int i = 0; i < 3; ++i)
                    ok = ok && writeAndSync(file("huge.dat").constData(), false);
            },
            getpid(), &path);
        QVERIFY(ok);
        QVERIFY2(!path.isEmpty(), "the probe did not start");
        QCOMPARE(b.fsSlow.size(), 0);
        QVERIFY(!b.stats.isEmpty());
    }

    void otherProcessesAreFilteredOut()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        if (!m_ext4)
            QSKIP("BPFLENS_TEST_DIR is not on ext4");
        const QByteArray theirs = file("child.dat");
        test::GatedChild child([p = theirs.constData()] { writeAndSync(p, false); });
        QVERIFY(child.pid() > 0);
        QString path;
        bool ok = false;
        const RecordBatch b = record(
            0,
            [&] {
                ok = writeAndSync(file("parent.dat").constData(), false);
                QCOMPARE(child.run(), 0);
            },
            getpid(), &path);
        QVERIFY(ok);
        int parent = 0;
        for (const FsSlowEvent &e : b.fsSlow) {
            QVERIFY(e.filename != "child.dat");
            parent += e.filename == "parent.dat" && e.op == 'F';
        }
        QCOMPARE(parent, 1);
    }

    // Through fentry and through kprobes (the VM matrix): with threshold 0, every read, write,
    // open and fsync of a known workload comes back once, in order, with the file's name, the
    // bytes and the offset it was at; with the default threshold (10 ms) fast cached reads are
    // filtered out and whatever is reported is that slow.
    void everyOperationThroughFunctions_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::newRow("fentry") << QStringLiteral("fentry");
        QTest::newRow("kprobe") << QStringLiteral("kprobe");
    }

    void everyOperationThroughFunctions()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        QFETCH(QString, mode);
        if (!m_ext4)
            QSKIP("BPFLENS_TEST_DIR is not on ext4");
        KernelFeatures kernel;
        const QString fn = QStringLiteral("ext4_file_read_iter");
        BPFLENS_REQUIRE_HOOKS(mode, mode == QLatin1String("fentry") ? kernel.canFentry(fn)
                                                                    : kernel.canKprobe(fn));
        QCOMPARE(FsSlowerProbe::ext4Operations(kernel, {{QStringLiteral("attach"), mode}}),
                 QByteArray("RWOF"));
        const QByteArray name = "ops-" + mode.toLatin1() + ".dat";
        const QByteArray path = file(name.constData());
        constexpr int cachedReads = 20;
        auto work = [&path](QStringList *expected) {
            char buf[4096];
            memset(buf, 0x22, sizeof(buf));
            bool ok = true;
            auto step = [&](bool done, char op, long bytes, long offset) {
                ok = ok && done;
                expected->append(QStringLiteral("%1 %2 @%3").arg(op).arg(bytes).arg(offset));
            };
            const int fd = open(path.constData(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            step(fd >= 0, 'O', 0, 0);
            step(pwrite(fd, buf, 4096, 8192) == 4096, 'W', 4096, 8192);
            step(pwrite(fd, buf, 1000, 100) == 1000, 'W', 1000, 100);
            step(pread(fd, buf, 4096, 8192) == 4096, 'R', 4096, 8192);
            step(pread(fd, buf, 512, 100) == 512, 'R', 512, 100);
            step(fsync(fd) == 0, 'F', 0, 0);
            close(fd);
            const int rd = open(path.constData(), O_RDONLY | O_CLOEXEC);
            step(rd >= 0, 'O', 0, 0);
            for (int i = 0; i < cachedReads; ++i)
                step(read(rd, buf, 300) == 300, 'R', 300, 300 * i);
            close(rd);
            return ok;
        };
        auto seen = [&name](const RecordBatch &b, QList<FsSlowEvent> *events) {
            QStringList got;
            for (const FsSlowEvent &e : b.fsSlow) {
                if (e.filename != name)
                    continue;
                events->append(e);
                got.append(QStringLiteral("%1 %2 @%3")
                               .arg(QChar::fromLatin1(e.op))
                               .arg(e.bytes)
                               .arg(e.offset));
            }
            return got;
        };
        QString attachPath;
        QStringList expected;
        bool ok = false;
        RecordBatch b = record(
            0, [&] { ok = work(&expected); }, getpid(), &attachPath, mode);
        QVERIFY(ok);
        QVERIFY2(attachPath.contains(mode + QStringLiteral("/ext4_file_write_iter")),
                 qPrintable(attachPath));
        QVERIFY2(!attachPath.contains(mode == QLatin1String("fentry") ? QLatin1String("kprobe/")
                                                                      : QLatin1String("fentry/")),
                 qPrintable(attachPath));
        QList<FsSlowEvent> events;
        QCOMPARE(seen(b, &events), expected);
        for (const FsSlowEvent &e : std::as_const(events)) {
            QCOMPARE(e.fs, QByteArray("ext4"));
            QCOMPARE(e.pid, quint32(getpid()));
            QCOMPARE(e.comm, ownComm());
        }
        for (const ProbeStats &st : b.stats)
            QCOMPARE(st.eventsLost, 0u);

        // The default threshold: only operations of 10 ms or more.
        expected.clear();
        events.clear();
        b = record(
            -1, [&] { ok = work(&expected); }, getpid(), &attachPath, mode);
        QVERIFY(ok);
        const QStringList slow = seen(b, &events);
        for (const FsSlowEvent &e : std::as_const(events))
            QVERIFY2(e.latencyNs >= 10'000'000, qPrintable(slow.join(QLatin1Char(','))));
        int reads = 0;
        for (const FsSlowEvent &e : std::as_const(events))
            reads += e.op == 'R';
        // Cached reads take microseconds; a few may be unlucky on a loaded machine, not most.
        QVERIFY2(reads < cachedReads / 2, qPrintable(slow.join(QLatin1Char(','))));
    }
};

QTEST_GUILESS_MAIN(TestFsSlower)
#include "tst_fsslower.moc"
