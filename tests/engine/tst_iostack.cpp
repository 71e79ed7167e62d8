// The iostack probe against the real kernel: a thread does a known mix of opens, O_DIRECT and
// buffered reads and writes, and fsyncs on a file on a real disk, with the probe filtered to
// that thread. The syscall layer must count exactly what the thread did, the ext4 fsync layer
// every fsync, the block layer every O_DIRECT request under the right operation, and each
// operation's exclusive times must add up to its syscall total.
#include "helper/engine.h"
#include "helper/iostackprobe.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/hooktestutil.h"
#include "tests/engine/iotestdir.h"
#include "tests/engine/loopdevice.h"
#include "tests/testutil.h"

#include <QHash>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <thread>
#include <unistd.h>

using namespace bpflens;

namespace {

constexpr int N = 16; // O_DIRECT writes, then as many O_DIRECT reads
constexpr int B = 8;  // buffered writes, then as many buffered (cached) reads
constexpr int K = 4;  // O_DIRECT writes of another process, which is not traced
constexpr int blockSize = 4096;
const QStringList ops = {QStringLiteral("read"), QStringLiteral("write"), QStringLiteral("open"),
                         QStringLiteral("fsync")};

struct Expected
{
    int reads = 0, writes = 0, opens = 0, fsyncs = 0;
    bool ok = false;
    QString why;
};

// Runs body in a thread that waits for go(): its tid is known before it does anything.
class GatedThread
{
public:
    explicit GatedThread(std::function<void()> body)
    {
        m_thread = std::thread([this, body] {
            {
                std::unique_lock lock(m_mutex);
                m_tid = gettid();
                m_cv.notify_all();
                m_cv.wait(lock, [this] { return m_go; });
            }
            body();
            // Stays until released: whatever the runtime does when a thread ends (ASan writes
            // to a pipe) is not the workload's, and must happen after the recording stopped.
            std::unique_lock lock(m_mutex);
            m_done = true;
            m_cv.notify_all();
            m_cv.wait(lock, [this] { return m_released; });
        });
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return m_tid != 0; });
    }
    ~GatedThread()
    {
        if (m_thread.joinable())
            join();
    }
    pid_t tid() const { return m_tid; }
    void go()
    {
        std::lock_guard lock(m_mutex);
        m_go = true;
        m_cv.notify_all();
    }
    // Lets the thread run its body and waits until the body is done (the thread stays).
    void runBody()
    {
        go();
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return m_done; });
    }
    void join()
    {
        {
            std::lock_guard lock(m_mutex);
            m_go = true;
            m_released = true;
            m_cv.notify_all();
        }
        m_thread.join();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    pid_t m_tid = 0;
    bool m_go = false;
    bool m_done = false;
    bool m_released = false;
    std::thread m_thread;
};

// Whether mode ("fentry", "kprobe") reaches both the VFS and ext4's functions here (fentry
// on a module's function needs the module's BTF: not on 5.10).
bool canHook(const KernelFeatures &kernel, const QString &mode)
{
    for (const QString &fn : {QStringLiteral("vfs_read"), QStringLiteral("ext4_file_read_iter")}) {
        if (!(mode == QLatin1String("fentry") ? kernel.canFentry(fn) : kernel.canKprobe(fn)))
            return false;
    }
    return true;
}

struct Sums
{
    QHash<QString, double> counters; // summed over intervals
    QHash<QString, Log2Histogram> histograms;
    QStringList negative; // counters that were ever below 0
    quint64 lost = 0;
};

Sums sum(const RecordBatch &b)
{
    Sums s;
    for (const CounterSample &c : b.counters) {
        if (c.probeId != QLatin1String("iostack"))
            continue;
        s.counters[c.name] += c.value;
        if (c.value < 0 || c.value > 1e18)
            s.negative.append(c.name);
    }
    for (const HistogramSnapshot &h : b.histograms) {
        auto it = s.histograms.find(h.key);
        if (it == s.histograms.end())
            it = s.histograms.insert(h.key, Log2Histogram(h.histogram.unit()));
        it->merge(h.histogram);
    }
    for (const ProbeStats &st : b.stats)
        s.lost = qMax(s.lost, st.eventsLost);
    return s;
}

} // namespace

class TestIoStack : public QObject
{
    Q_OBJECT

    QTemporaryDir *m_dir = nullptr;
    // The file system the workload's files are on: ext4 on m_loop, which no other process's
    // requests reach (writeback, the journal, a sync elsewhere would otherwise share the
    // device's queue, merge with or be issued beside the workload's and make its block counts
    // inexact), or, where the VM runner's disk is the tests' alone, a directory on that disk.
    test::LoopDevice m_loop;
    QString m_fsDir;
    QByteArray m_direct, m_buffered, m_other;
    QString m_disk;
    void *m_buf = nullptr; // aligned, for the child (no malloc after fork)

    // The workload; every syscall it makes is one of those counted in e.
    static void workload(const QByteArray &direct, const QByteArray &buffered, Expected *e)
    {
        void *buf = nullptr;
        if (posix_memalign(&buf, blockSize, blockSize) != 0) {
            e->why = QStringLiteral("posix_memalign");
            return;
        }
        memset(buf, 0x3c, blockSize);
        const int dfd = open(direct.constData(), O_RDWR | O_DIRECT | O_CLOEXEC);
        ++e->opens;
        const int bfd = open(buffered.constData(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        ++e->opens;
        bool ok = dfd >= 0 && bfd >= 0;
        for (int i = 0; ok && i < N; ++i, ++e->writes)
            ok = pwrite(dfd, buf, blockSize, off_t(i) * blockSize) == blockSize;
        for (int i = 0; ok && i < N; ++i, ++e->reads)
            ok = pread(dfd, buf, blockSize, off_t(i) * blockSize) == blockSize;
        for (int i = 0; ok && i < B; ++i, ++e->writes)
            ok = write(bfd, buf, blockSize) == blockSize;
        for (int i = 0; ok && i < B; ++i, ++e->reads)
            ok = pread(bfd, buf, blockSize, off_t(i) * blockSize) == blockSize;
        ok = ok && fsync(bfd) == 0;
        ++e->fsyncs;
        ok = ok && fsync(bfd) == 0; // nothing left to write: the file system's time alone
        ++e->fsyncs;
        ok = ok && write(bfd, buf, blockSize) == blockSize;
        ++e->writes;
        ok = ok && fdatasync(bfd) == 0;
        ++e->fsyncs;
        if (!ok)
            e->why =
                QStringLiteral("workload failed: %1").arg(QString::fromLocal8Bit(strerror(errno)));
        e->ok = ok;
        close(dfd);
        close(bfd);
        free(buf);
    }

    bool record(QVariantMap options, Sums *out, Expected *e, QString *attachPath)
    {
        GatedThread t([this, e] { workload(m_direct, m_buffered, e); });
        options.insert(QStringLiteral("pid"), qint64(getpid()));
        options.insert(QStringLiteral("tid"), qint64(t.tid()));
        options.insert(QStringLiteral("disk"), m_disk);
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("iostack"), options, {}}};
        QString error;
        if (!engine.start(req, &error)) {
            qWarning() << error;
            return false;
        }
        *attachPath = req[0].attachPath;
        t.runBody();
        // Another process's requests: no traced syscall waits for them.
        test::GatedChild other([p = m_other.constData(), buf = m_buf] {
            const int fd = open(p, O_WRONLY | O_DIRECT | O_CLOEXEC);
            for (int i = 0; fd >= 0 && i < K; ++i) {
                if (pwrite(fd, buf, blockSize, off_t(i) * blockSize) != blockSize)
                    _exit(1);
            }
            _exit(fd >= 0 ? 0 : 2);
        });
        if (other.run() != 0) {
            qWarning() << "the other process's O_DIRECT writes failed";
            return false;
        }
        RecordBatch b;
        // Completions of requests the thread did not wait for (journal writes) trail a little.
        engine.poll(100, b);
        engine.stop(&b);
        t.join();
        *out = sum(b);
        if (!e->ok)
            qWarning() << e->why;
        return e->ok;
    }

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        const QString base = test::ioTestDirectory();
        const QString notDisk = test::notOnADisk(base);
        QVERIFY2(notDisk.isEmpty(), qPrintable(notDisk));
        m_dir = new QTemporaryDir(base + QStringLiteral("/bpflens-iostack-XXXXXX"));
        QVERIFY(m_dir->isValid());
        m_fsDir = m_dir->filePath(QStringLiteral("fs"));
        QVERIFY(QDir().mkpath(m_fsDir));
        QString why;
        if (!m_loop.attach(m_dir->filePath(QStringLiteral("fs.img")), qint64(64) << 20, &why) ||
            !m_loop.mountExt4(m_fsDir, &why)) {
            m_loop.detach();
            // Only on the disk BPFLENS_TEST_DIR names (the VM runner's, which nothing else
            // writes to) are the counts exact without a device of the test's own.
            QVERIFY2(qEnvironmentVariableIsSet("BPFLENS_TEST_DIR"),
                     qPrintable(why + QStringLiteral(": the test needs a loop device of its own "
                                                     "(on a shared disk its counts are not "
                                                     "exact)")));
            qInfo("%s: the workload's files are on the disk of BPFLENS_TEST_DIR, assumed to be "
                  "the tests' alone",
                  qPrintable(why));
        }
        m_disk = test::diskOf(m_fsDir);
        QVERIFY2(!m_disk.isEmpty(), "cannot find the disk under the test directory");
        m_direct = QFile::encodeName(m_fsDir + QStringLiteral("/direct.bin"));
        m_buffered = QFile::encodeName(m_fsDir + QStringLiteral("/buffered.bin"));
        // The O_DIRECT file exists on disk before recording, so its writes overwrite allocated
        // blocks: one request each, no allocation or flush of dirty pages in the way.
        m_other = QFile::encodeName(m_fsDir + QStringLiteral("/other.bin"));
        for (const QByteArray &path : {m_direct, m_other}) {
            const int fd = open(path.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            QVERIFY(fd >= 0);
            const QByteArray block(blockSize, 'x');
            for (int i = 0; i < N; ++i)
                QCOMPARE(write(fd, block.constData(), blockSize), ssize_t(blockSize));
            QCOMPARE(fsync(fd), 0);
            QCOMPARE(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
            close(fd);
        }
        QCOMPARE(posix_memalign(&m_buf, blockSize, blockSize), 0);
        memset(m_buf, 0x5a, blockSize);
    }

    void cleanupTestCase()
    {
        m_loop.detach();
        delete m_dir;
        free(m_buf);
    }

    void layersSayWhatIsMissingAndWhy()
    {
        BPFLENS_REQUIRE_ROOT("reads the kernel's BTF");
        KernelFeatures kernel;
        IoStackProbe probe;
        const ProbeAvailability a = probe.availability(kernel, {});
        QVERIFY2(a.available, qPrintable(a.reason));
        QVERIFY(a.attachPath.contains(QStringLiteral("tp_btf/sys_enter")));
        QVERIFY(a.attachPath.contains(QStringLiteral("tp_btf/block_rq_complete")));
        const QList<IoStackProbe::Layer> layers = IoStackProbe::layers(kernel);
        const bool functions = kernel.canFentry(QStringLiteral("vfs_read")) ||
                               kernel.canKprobe(QStringLiteral("vfs_read"));
        for (const IoStackProbe::Layer &l : layers) {
            const QByteArray cell = (l.op + QLatin1Char('/') + l.layer).toUtf8();
            QVERIFY2(l.available != l.hooks.isEmpty(), cell);
            if (!l.available)
                QVERIFY2(!l.reason.isEmpty(), cell);
            if (l.layer == QLatin1String("syscall") || l.layer == QLatin1String("block-device"))
                QVERIFY2(l.available, cell);
            if (l.layer == QLatin1String("vfs") && !functions) {
                // This machine: no fentry, no kprobes, and VFS has no tracepoints.
                QVERIFY2(!l.available, cell);
                QVERIFY2(l.reason.contains(QLatin1String("fentry")), qPrintable(l.reason));
                QVERIFY2(l.reason.contains(QLatin1String("kprobe")), qPrintable(l.reason));
                QVERIFY2(a.reason.contains(QString::fromUtf8(cell)), qPrintable(a.reason));
            }
        }
        // fsync's ext4 layer is there by its tracepoints, whatever else is missing.
        if (kernel.hasBtfTracepoint(QStringLiteral("ext4_sync_file_enter"))) {
            bool found = false;
            for (const IoStackProbe::Layer &l : layers) {
                if (l.op == QLatin1String("fsync") && l.layer == QLatin1String("fs")) {
                    found = true;
                    QVERIFY(l.available);
                    QCOMPARE(l.hooks, QStringLiteral("tp_btf/ext4_sync_file_enter, "
                                                     "tp_btf/ext4_sync_file_exit"));
                }
            }
            QVERIFY(found);
        }
        QVERIFY(!a.attachPath.contains(QLatin1String("kprobe")) || kernel.hasKprobePmu());
    }

    void badOptionsAreRefusedWithAReason()
    {
        BPFLENS_REQUIRE_ROOT("starts the engine");
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("iostack"),
                                {{QStringLiteral("disk"), QStringLiteral("nosuchdisk")}},
                                {}}};
        QString error;
        QVERIFY(!engine.start(req, &error));
        QVERIFY2(error.contains(QLatin1String("nosuchdisk")), qPrintable(error));
        QList<ProbeConfig> units{
            {QStringLiteral("iostack"), {{QStringLiteral("units"), QStringLiteral("hours")}}, {}}};
        QVERIFY(!engine.start(units, &error));
        QVERIFY2(error.contains(QLatin1String("units")), qPrintable(error));
        QVERIFY(!engine.isRunning());
    }

    void breakdown_data()
    {
        QTest::addColumn<bool>("queued");
        QTest::addColumn<bool>("compat");
        QTest::newRow("device") << false << false;
        QTest::newRow("queued") << true << false;
        // The object built for kernels before 5.12 (no atomic fetch): here it must give the
        // same exact counts and sums as the normal one. Not in the VM matrix's guests: on 5.10
        // the rows above load it anyway, and on the newer kernels these rows would check what
        // the host's run checks, at about 10 s of emulated loading and verifying a row.
        if (qEnvironmentVariableIsSet("BPFLENS_VM_MATRIX"))
            return;
        QTest::newRow("device-compat") << false << true;
        QTest::newRow("queued-compat") << true << true;
    }

    void breakdown()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        QFETCH(bool, queued);
        QFETCH(bool, compat);
        KernelFeatures kernel;
        Sums s;
        Expected e;
        QString path;
        if (compat) {
            qputenv("BPFLENS_TEST_IOSTACK_COMPAT", "1");
            // Fails the test if the probe loaded the normal object after all.
            QTest::ignoreMessage(QtInfoMsg, "iostack: using the object without atomic fetch "
                                            "operations (kernels before 5.12)");
        }
        const bool recorded = record({{QStringLiteral("queued"), queued}}, &s, &e, &path);
        qunsetenv("BPFLENS_TEST_IOSTACK_COMPAT");
        QVERIFY(recorded);
        QCOMPARE(s.lost, 0u);
        QVERIFY2(s.negative.isEmpty(), qPrintable(s.negative.join(QLatin1Char(','))));
        auto counter = [&s](const QString &name) { return s.counters.value(name, 0); };

        // The syscall layer counts exactly what the thread did, and histograms agree.
        const int expected[] = {e.reads, e.writes, e.opens, e.fsyncs};
        for (int i = 0; i < ops.size(); ++i) {
            const QString cell = ops[i] + QStringLiteral("/syscall");
            QCOMPARE(counter(cell + QStringLiteral("/count")), double(expected[i]));
            QCOMPARE(s.histograms.value(cell).count(), quint64(expected[i]));
            QVERIFY(counter(cell + QStringLiteral("/total_ns")) > 0);
        }

        // Every layer the kernel measures: exclusive within [0, total] (block: the union of
        // the requests in flight, so at most their sum), and the operation's exclusive times
        // add up to its syscall total exactly, as the kernel summed them.
        const QList<IoStackProbe::Layer> layers = IoStackProbe::layers(
            kernel, {{QStringLiteral("queued"), queued}, {QStringLiteral("disk"), m_disk}});
        for (const QString &op : ops) {
            double exclusive = 0;
            for (const IoStackProbe::Layer &l : layers) {
                if (l.op != op)
                    continue;
                const QString cell = op + QLatin1Char('/') + l.layer + QLatin1Char('/');
                if (!l.available) {
                    QVERIFY2(!s.counters.contains(cell + QStringLiteral("count")),
                             qPrintable(cell));
                    continue;
                }
                const double x = counter(cell + QStringLiteral("exclusive_ns"));
                QVERIFY2(x >= 0 && x <= counter(cell + QStringLiteral("total_ns")),
                         qPrintable(QStringLiteral("%1: exclusive %2 ns, total %3 ns over %4")
                                        .arg(cell)
                                        .arg(x, 0, 'f', 0)
                                        .arg(counter(cell + QStringLiteral("total_ns")), 0, 'f', 0)
                                        .arg(counter(cell + QStringLiteral("count")))));
                exclusive += x;
            }
            QStringList shares;
            for (const IoStackProbe::Layer &l : layers) {
                const QString x = op + QLatin1Char('/') + l.layer + QStringLiteral("/exclusive_ns");
                if (l.op == op && s.counters.contains(x))
                    shares << QStringLiteral("%1 %2 us")
                                  .arg(l.layer)
                                  .arg(counter(x) / 1000, 0, 'f', 1);
            }
            qInfo("%s: total %.1f us = %s", qPrintable(op),
                  counter(op + QStringLiteral("/syscall/total_ns")) / 1000,
                  qPrintable(shares.join(QStringLiteral(" + "))));
            QCOMPARE(quint64(exclusive),
                     quint64(counter(op + QStringLiteral("/syscall/total_ns"))));
            QVERIFY(counter(op + QStringLiteral("/syscall/exclusive_ns")) > 0);
        }

        // ext4's fsync layer: one per fsync and fdatasync.
        if (kernel.hasBtfTracepoint(QStringLiteral("ext4_sync_file_enter"))) {
            QCOMPARE(counter(QStringLiteral("fsync/fs/count")), double(e.fsyncs));
            QVERIFY(counter(QStringLiteral("fsync/fs/total_ns")) > 0);
            QCOMPARE(s.histograms.value(QStringLiteral("fsync/fs")).count(), quint64(e.fsyncs));
        }
        // Function layers where this kernel has them (the VM matrix): one per call.
        for (const IoStackProbe::Layer &l : layers) {
            if (!l.available || (l.layer != QLatin1String("vfs") && l.layer != QLatin1String("fs")))
                continue;
            if (l.op == QLatin1String("fsync") && l.layer == QLatin1String("fs"))
                continue;
            const int i = int(ops.indexOf(l.op));
            QCOMPARE(counter(l.op + QLatin1Char('/') + l.layer + QStringLiteral("/count")),
                     double(expected[i]));
        }

        // Block: each O_DIRECT request under the operation that waited for it; the cached
        // reads and the buffered writes cause none; fsync writes the buffered data. (open may
        // read directory or inode blocks: not asserted.)
        // On a miss, every block cell: whether requests went to another operation, to
        // unattributed, or nowhere tells which part of the matching lost them.
        QStringList blockCells;
        for (auto it = s.counters.cbegin(); it != s.counters.cend(); ++it) {
            if (it.key().contains(QLatin1String("/block-")))
                blockCells << QStringLiteral("%1=%2").arg(it.key()).arg(it.value(), 0, 'f', 0);
        }
        blockCells.sort();
        const QByteArray cells = blockCells.join(QLatin1Char(' ')).toUtf8();
        QVERIFY2(counter(QStringLiteral("read/block-device/count")) == N, cells.constData());
        QVERIFY2(counter(QStringLiteral("write/block-device/count")) == N, cells.constData());
        QVERIFY(counter(QStringLiteral("fsync/block-device/count")) >= 1);
        QVERIFY(counter(QStringLiteral("read/block-device/exclusive_ns")) > 0);
        QVERIFY(counter(QStringLiteral("write/block-device/exclusive_ns")) > 0);
        QCOMPARE(s.histograms.value(QStringLiteral("read/block-device")).count(), quint64(N));
        if (queued) {
            QCOMPARE(counter(QStringLiteral("read/block-queue/count")), double(N));
            QCOMPARE(counter(QStringLiteral("write/block-queue/count")), double(N));
        } else {
            // Not a layer without the option: no time may land there either, or the layers'
            // sum would miss it (a requeued request's wait for its second issue once did).
            for (const QString &op : ops) {
                for (const char *what : {"/block-queue/count", "/block-queue/exclusive_ns"})
                    QVERIFY2(!s.counters.contains(op + QLatin1String(what)), what);
            }
            QVERIFY(!s.histograms.contains(QStringLiteral("read/block-queue")));
        }
        // The other process's writes: reported as unattributed, never folded into the traced
        // thread's operations (whose counts above are exact).
        QVERIFY2(counter(QStringLiteral("unattributed/block-device/count")) >= K,
                 qPrintable(s.counters.keys().join(QLatin1Char(','))));
        QVERIFY(!s.counters.contains(QStringLiteral("unattributed/block-device/exclusive_ns")));
        QVERIFY(!path.contains(QLatin1String("kprobe")) || kernel.hasKprobePmu());
    }

    // Filtered to one thread, only that thread's I/O is counted: its one fsync, not the
    // workload this (main) thread runs meanwhile.
    void otherThreadsAreNotCounted()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        const int fd = open(m_direct.constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        GatedThread single([fd] { fsync(fd); });
        Engine engine;
        QList<ProbeConfig> req{
            {QStringLiteral("iostack"), {{QStringLiteral("tid"), qint64(single.tid())}}, {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        Expected e;
        workload(m_direct, m_buffered, &e);
        QVERIFY2(e.ok, qPrintable(e.why));
        single.runBody();
        RecordBatch b;
        engine.stop(&b);
        single.join();
        close(fd);
        const Sums s = sum(b);
        for (const QString &op : ops) {
            QCOMPARE(s.counters.value(op + QStringLiteral("/syscall/count"), 0),
                     op == QLatin1String("fsync") ? 1.0 : 0.0);
        }
    }

    // A read that waits on a pipe is waiting, not I/O: by default only reads and writes on
    // regular files and block devices count, and allFds counts every descriptor. The thread
    // reads one regular file, then blocks 300 ms on a pipe, then writes to the pipe.
    void pipeReadsAreWaitingNotIo_data()
    {
        QTest::addColumn<bool>("allFds");
        QTest::newRow("default") << false;
        QTest::newRow("allFds") << true;
    }
    void pipeReadsAreWaitingNotIo()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        QFETCH(bool, allFds);
        int pipeFds[2];
        QVERIFY(pipe2(pipeFds, O_CLOEXEC) == 0);
        const int file = open(m_buffered.constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(file >= 0);
        char byte = 0;
        bool readOk = false;
        GatedThread reader([&] {
            char buf[64];
            readOk = pread(file, buf, sizeof buf, 0) > 0 && read(pipeFds[0], &byte, 1) == 1 &&
                     write(pipeFds[1], "y", 1) == 1;
        });
        Engine engine;
        QList<ProbeConfig> req{
            {QStringLiteral("iostack"),
             {{QStringLiteral("tid"), qint64(reader.tid())}, {QStringLiteral("allFds"), allFds}},
             {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        reader.go();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        QCOMPARE(write(pipeFds[1], "x", 1), 1);
        reader.runBody();
        RecordBatch b;
        engine.stop(&b);
        reader.join();
        close(file);
        close(pipeFds[0]);
        close(pipeFds[1]);
        QVERIFY(readOk);
        const Sums s = sum(b);
        const double reads = s.counters.value(QStringLiteral("read/syscall/count"), 0);
        const double writes = s.counters.value(QStringLiteral("write/syscall/count"), 0);
        const double readNs = s.counters.value(QStringLiteral("read/syscall/total_ns"), 0);
        if (allFds) {
            QCOMPARE(reads, 2.0);
            QCOMPARE(writes, 1.0);
            QVERIFY2(readNs >= 250e6, qPrintable(QString::number(readNs)));
        } else {
            QCOMPARE(reads, 1.0);  // the regular file only
            QCOMPARE(writes, 0.0); // the pipe's write is not I/O either
            QVERIFY2(readNs < 250e6, qPrintable(QString::number(readNs)));
        }
    }

    // The function layers through each way of hooking them (attach=fentry, attach=kprobe; the
    // VM matrix, where ext4 is a module on 6.1): every layer of read, write, open and fsync is
    // measured, the attach path is the one asked for, and each layer counts one per call.
    void functionLayers_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::newRow("fentry") << QStringLiteral("fentry");
        QTest::newRow("kprobe") << QStringLiteral("kprobe");
    }

    void functionLayers()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        QFETCH(QString, mode);
        KernelFeatures kernel;
        const QString other =
            mode == QLatin1String("fentry") ? QStringLiteral("kprobe") : QStringLiteral("fentry");
        BPFLENS_REQUIRE_HOOKS(mode, canHook(kernel, mode));
        const QVariantMap options{{QStringLiteral("attach"), mode},
                                  {QStringLiteral("disk"), m_disk}};
        const QList<IoStackProbe::Layer> layers = IoStackProbe::layers(kernel, options);
        for (const IoStackProbe::Layer &l : layers) {
            const QString cell = l.op + QLatin1Char('/') + l.layer;
            if (l.op == QLatin1String("unattributed") || l.layer == QLatin1String("block-queue"))
                continue;
            QVERIFY2(l.available, qPrintable(cell + QStringLiteral(": ") + l.reason));
            if (l.layer != QLatin1String("vfs") && l.layer != QLatin1String("fs"))
                continue;
            // ext4's fsync keeps its tracepoints whatever the option says.
            if (l.hooks.startsWith(QLatin1String("tp_btf/ext4_sync_file")))
                continue;
            QVERIFY2(l.hooks.contains(mode + QLatin1Char('/')), qPrintable(cell + l.hooks));
            QVERIFY2(!l.hooks.contains(other + QLatin1Char('/')), qPrintable(cell + l.hooks));
        }

        Sums s;
        Expected e;
        QString path;
        QVERIFY(record({{QStringLiteral("attach"), mode}}, &s, &e, &path));
        QVERIFY2(path.contains(mode + QStringLiteral("/vfs_read")), qPrintable(path));
        QVERIFY2(path.contains(mode + QStringLiteral("/ext4_file_write_iter")), qPrintable(path));
        QVERIFY2(!path.contains(other + QLatin1Char('/')), qPrintable(path));
        QCOMPARE(s.lost, 0u);
        QVERIFY2(s.negative.isEmpty(), qPrintable(s.negative.join(QLatin1Char(','))));
        const int expected[] = {e.reads, e.writes, e.opens, e.fsyncs};
        for (int i = 0; i < ops.size(); ++i) {
            double exclusive = 0;
            for (const QString &layer :
                 {QStringLiteral("syscall"), QStringLiteral("vfs"), QStringLiteral("fs")}) {
                const QString cell = ops[i] + QLatin1Char('/') + layer;
                QCOMPARE(s.counters.value(cell + QStringLiteral("/count")), double(expected[i]));
                QCOMPARE(s.histograms.value(cell).count(), quint64(expected[i]));
            }
            for (const IoStackProbe::Layer &l : layers) {
                if (l.op == ops[i])
                    exclusive += s.counters.value(l.op + QLatin1Char('/') + l.layer +
                                                  QStringLiteral("/exclusive_ns"));
            }
            QCOMPARE(quint64(exclusive),
                     quint64(s.counters.value(ops[i] + QStringLiteral("/syscall/total_ns"))));
        }
        QCOMPARE(s.counters.value(QStringLiteral("read/block-device/count")), double(N));
        QCOMPARE(s.counters.value(QStringLiteral("write/block-device/count")), double(N));
    }

    // Buffered writes, fsync and cached reads on ext4, through fentry and through kprobes: for
    // each operation, the layers' exclusive times add up to the syscall layer's total within
    // 5%, every layer took some of it, and the kernel's syscall time is no more than the wall
    // time this thread saw around the calls.
    void exclusiveTimesAddUp_data() { functionLayers_data(); }

    void exclusiveTimesAddUp()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        QFETCH(QString, mode);
        KernelFeatures kernel;
        BPFLENS_REQUIRE_HOOKS(mode, canHook(kernel, mode));
        constexpr int rounds = 8;
        const QByteArray path = QFile::encodeName(m_fsDir + QStringLiteral("/sum.bin"));
        QHash<QString, qint64> wallNs;
        QHash<QString, int> calls;
        bool ok = true;
        GatedThread t([&] {
            const int fd = open(path.constData(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            char buf[blockSize];
            memset(buf, 0x42, sizeof(buf));
            auto timed = [&](const QString &op, const std::function<bool()> &call) {
                const auto t0 = std::chrono::steady_clock::now();
                ok = ok && call();
                wallNs[op] += std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::steady_clock::now() - t0)
                                  .count();
                ++calls[op];
            };
            for (int r = 0; ok && r < rounds; ++r) {
                for (int i = 0; i < 4; ++i) {
                    timed(QStringLiteral("write"),
                          [&] { return write(fd, buf, sizeof(buf)) == ssize_t(sizeof(buf)); });
                }
                timed(QStringLiteral("fsync"), [&] { return fsync(fd) == 0; });
                for (int i = 0; i < 4; ++i) {
                    timed(QStringLiteral("read"), [&] {
                        return pread(fd, buf, sizeof(buf), off_t(i) * blockSize) ==
                               ssize_t(sizeof(buf));
                    });
                }
            }
            ok = ok && fd >= 0;
            close(fd);
        });
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("iostack"),
                                {{QStringLiteral("tid"), qint64(t.tid())},
                                 {QStringLiteral("attach"), mode},
                                 {QStringLiteral("disk"), m_disk}},
                                {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        QVERIFY2(req[0].attachPath.contains(mode + QStringLiteral("/vfs_write")),
                 qPrintable(req[0].attachPath));
        t.runBody();
        RecordBatch b;
        engine.stop(&b);
        t.join();
        QVERIFY(ok);
        const Sums s = sum(b);
        QCOMPARE(s.lost, 0u);
        for (const QString &op :
             {QStringLiteral("read"), QStringLiteral("write"), QStringLiteral("fsync")}) {
            auto counter = [&](const QString &layer, const char *what) {
                return s.counters.value(op + QLatin1Char('/') + layer + QLatin1Char('/') +
                                        QLatin1String(what));
            };
            const double total = counter(QStringLiteral("syscall"), "total_ns");
            QVERIFY2(total > 0, qPrintable(op));
            double exclusive = 0;
            QStringList shares;
            for (const QString &layer : IoStackProbe::layerNames()) {
                const double x = counter(layer, "exclusive_ns");
                exclusive += x;
                shares << QStringLiteral("%1 %2 us").arg(layer).arg(x / 1000, 0, 'f', 1);
            }
            qInfo("%s via %s: total %.1f us (wall %.1f us) = %s", qPrintable(op), qPrintable(mode),
                  total / 1000, double(wallNs.value(op)) / 1000,
                  qPrintable(shares.join(QStringLiteral(" + "))));
            for (const QString &layer :
                 {QStringLiteral("syscall"), QStringLiteral("vfs"), QStringLiteral("fs")}) {
                QCOMPARE(counter(layer, "count"), double(calls.value(op)));
                QVERIFY2(counter(layer, "exclusive_ns") > 0, qPrintable(op + layer));
            }
            QVERIFY2(qAbs(exclusive - total) <= 0.05 * total,
                     qPrintable(QStringLiteral("%1: exclusive times add up to %2 ns, the syscall "
                                               "total is %3 ns")
                                    .arg(op)
                                    .arg(exclusive, 0, 'f', 0)
                                    .arg(total, 0, 'f', 0)));
            QVERIFY2(total <= double(wallNs.value(op)),
                     qPrintable(QStringLiteral("%1: %2 ns in the kernel, %3 ns of wall time")
                                    .arg(op)
                                    .arg(total, 0, 'f', 0)
                                    .arg(wallNs.value(op))));
        }
    }
};

QTEST_GUILESS_MAIN(TestIoStack)
#include "tst_iostack.moc"
