// The bitesize probe against the real kernel: O_DIRECT writes and reads of known sizes, on a
// file on a real disk, filtered to the workload's process and that disk, must be counted exactly in
// the Kbytes buckets of their sizes, keyed by this command (and disk, and operation).
#include "helper/blockprobe.h"
#include "helper/engine.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/iotestdir.h"
#include "tests/engine/loopdevice.h"
#include "tests/testutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace bpflens;

namespace {

// Each size (bytes) and how many direct writes, then as many reads, of it.
struct Size
{
    int bytes;
    int count;
};
constexpr Size sizes[] = {{4096, 12}, {16384, 7}, {65536, 5}};

using test::ownComm;

QHash<QString, Log2Histogram> histograms(const RecordBatch &b)
{
    QHash<QString, Log2Histogram> h;
    for (const HistogramSnapshot &s : b.histograms) {
        auto it = h.find(s.key);
        if (it == h.end())
            it = h.insert(s.key, Log2Histogram(s.histogram.unit()));
        it->merge(s.histogram);
    }
    return h;
}

// Where each extent of the file starts, as FIEMAP reports them (logical byte offsets). A direct
// write or read that crosses an extent boundary is one request per extent (iomap maps each),
// which a busy disk's allocator makes happen: the expected sizes follow the file's layout.
QList<quint64> extentStarts(const QString &path, QString *why)
{
    const int fd = open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *why = QStringLiteral("open: %1").arg(QString::fromLocal8Bit(strerror(errno)));
        return {};
    }
    constexpr int maxExtents = 256;
    std::vector<char> buf(sizeof(fiemap) + maxExtents * sizeof(fiemap_extent));
    auto *fm = reinterpret_cast<fiemap *>(buf.data());
    fm->fm_start = 0;
    fm->fm_length = FIEMAP_MAX_OFFSET;
    fm->fm_flags = FIEMAP_FLAG_SYNC;
    fm->fm_extent_count = maxExtents;
    QList<quint64> starts;
    if (ioctl(fd, FS_IOC_FIEMAP, fm) != 0)
        *why = QStringLiteral("FIEMAP: %1").arg(QString::fromLocal8Bit(strerror(errno)));
    else
        for (__u32 i = 0; i < fm->fm_mapped_extents; ++i)
            starts.append(fm->fm_extents[i].fe_logical);
    close(fd);
    return starts;
}

// The histogram the workload's requests of one kind make: each I/O in the Kbytes bucket of its
// size, or of each piece an extent boundary cuts it into.
Log2Histogram expected(const QList<quint64> &extents, int times = 1)
{
    Log2Histogram h(HistogramUnit::Kilobytes);
    quint64 offset = 0;
    for (const Size &s : sizes) {
        for (int i = 0; i < s.count; ++i, offset += quint64(s.bytes)) {
            quint64 from = offset;
            const quint64 end = offset + quint64(s.bytes);
            for (quint64 cut : extents) {
                if (cut > from && cut < end) {
                    h.add((cut - from) / 1024, quint64(times));
                    from = cut;
                }
            }
            h.add((end - from) / 1024, quint64(times));
        }
    }
    return h;
}

QString slots(const Log2Histogram &h)
{
    QStringList parts;
    for (int i = 0; i < h.usedSlots(); ++i) {
        if (h.slot(i))
            parts << QStringLiteral("%1:%2").arg(Log2Histogram::slotLabel(i)).arg(h.slot(i));
    }
    return parts.join(QLatin1String(", "));
}

} // namespace

class TestBitesize : public QObject
{
    Q_OBJECT

    QTemporaryDir *m_dir = nullptr;
    // Only this test's requests reach it: see LoopDevice. (bitesize counts a request for the
    // task that issues it, and on a shared disk the kernel issues others' queued requests from
    // the next submitter's context.)
    test::LoopDevice m_loop;
    QString m_file;
    QString m_disk;
    QList<quint64> m_extents;

    // The sizes written with O_DIRECT at distinct offsets, then read back the same way.
    bool directIo(QString *why)
    {
        const int fd =
            open(m_file.toLocal8Bit().constData(), O_RDWR | O_CREAT | O_DIRECT | O_CLOEXEC, 0600);
        if (fd < 0) {
            *why = QStringLiteral("open: %1").arg(QString::fromLocal8Bit(strerror(errno)));
            return false;
        }
        void *buf = nullptr;
        if (posix_memalign(&buf, 4096, 65536) != 0) {
            close(fd);
            return false;
        }
        memset(buf, 0x5a, 65536);
        bool ok = true;
        for (bool write : {true, false}) {
            off_t offset = 0;
            for (const Size &s : sizes) {
                for (int i = 0; ok && i < s.count; ++i, offset += s.bytes) {
                    ok = (write ? pwrite(fd, buf, s.bytes, offset)
                                : pread(fd, buf, s.bytes, offset)) == s.bytes;
                }
            }
        }
        if (!ok)
            *why = QStringLiteral("direct I/O failed: %1")
                       .arg(QString::fromLocal8Bit(strerror(errno)));
        free(buf);
        close(fd);
        return ok;
    }

    // The workload runs in a child forked before the probe starts and filtered by its pid: the
    // requests this process itself makes while loading and reading the probe (page faults of
    // code run for the first time, on a disk other tests keep busy) stay out of the counts.
    bool record(QVariantMap options, RecordBatch *b, QString *why)
    {
        int go[2];
        if (pipe2(go, O_CLOEXEC) != 0) {
            *why = QStringLiteral("pipe: %1").arg(QString::fromLocal8Bit(strerror(errno)));
            return false;
        }
        const pid_t child = fork();
        if (child < 0) {
            *why = QStringLiteral("fork: %1").arg(QString::fromLocal8Bit(strerror(errno)));
            return false;
        }
        if (child == 0) {
            close(go[1]);
            char byte = 0;
            QString ignored;
            _exit(read(go[0], &byte, 1) == 1 && directIo(&ignored) ? 0 : 1);
        }
        close(go[0]);
        options.insert(QStringLiteral("disk"), m_disk);
        options.insert(QStringLiteral("pid"), qint64(child));
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("bitesize"), options, {}}};
        bool ok = engine.start(req, why);
        if (ok && req[0].attachPath != QLatin1String("tp_btf/block_rq_issue")) {
            *why = QStringLiteral("attached to %1").arg(req[0].attachPath);
            ok = false;
        }
        // Closing the pipe without a byte tells the child to leave without any I/O.
        if (ok && write(go[1], "g", 1) != 1) {
            *why = QStringLiteral("starting the workload: %1")
                       .arg(QString::fromLocal8Bit(strerror(errno)));
            ok = false;
        }
        close(go[1]);
        int status = 0;
        waitpid(child, &status, 0);
        if (ok && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
            *why = QStringLiteral("the workload's direct I/O failed");
            ok = false;
        }
        engine.stop(b);
        return ok;
    }

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        const QString base = test::diskTestDirectory(test::ioTestDirectory());
        const QString notDisk = test::notOnADisk(base);
        QVERIFY2(notDisk.isEmpty(), qPrintable(notDisk));
        m_dir = new QTemporaryDir(base + QStringLiteral("/bpflens-bitesize-XXXXXX"));
        QVERIFY2(m_dir->isValid(), qPrintable(base + QStringLiteral(": ") + m_dir->errorString()));
        QString why;
        if (m_loop.attach(m_dir->filePath(QStringLiteral("loop.img")), 1 << 20, &why)) {
            m_file = m_loop.path();
            m_disk = m_loop.name();
        } else {
            // The VM runner's disk is the tests' alone; on a shared one, see LoopDevice.
            qInfo("%s: the workload writes a file on the test directory's disk", qPrintable(why));
            m_file = m_dir->filePath(QStringLiteral("sizes.bin"));
            m_disk = test::diskOf(m_dir->path());
        }
        QVERIFY2(!m_disk.isEmpty(), "cannot find the disk under the test directory");
        // Once before any recording: the file's blocks are allocated and this code is paged in,
        // so the recorded requests are exactly the workload's.
        QVERIFY2(directIo(&why), qPrintable(why));
        if (m_file.startsWith(QLatin1String("/dev/")))
            return; // a block device has no extents to cut requests
        m_extents = extentStarts(m_file, &why);
        QVERIFY2(!m_extents.isEmpty(), qPrintable(why));
        if (m_extents.size() > 1)
            qInfo() << "the file's extents start at" << m_extents;
    }

    void cleanupTestCase()
    {
        m_loop.detach();
        delete m_dir;
    }

    void sizesPerCommand()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        RecordBatch b;
        QString why;
        QVERIFY2(record({}, &b, &why), qPrintable(why));
        const auto h = histograms(b);
        const QString comm = QString::fromLocal8Bit(ownComm());
        QCOMPARE(h.keys(), QList<QString>{comm});
        QCOMPARE(h.value(comm).unit(), HistogramUnit::Kilobytes);
        QCOMPARE(slots(h.value(comm)), slots(expected(m_extents, 2)));
        QCOMPARE(h.value(comm).sum(), expected(m_extents, 2).sum());
    }

    void sizesPerDiskAndOperation()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        RecordBatch b;
        QString why;
        QVERIFY2(record({{QStringLiteral("perDisk"), true}, {QStringLiteral("perOperation"), true}},
                        &b, &why),
                 qPrintable(why));
        const auto h = histograms(b);
        const QString prefix =
            QString::fromLocal8Bit(ownComm()) + QLatin1Char('/') + m_disk + QLatin1Char('/');
        QCOMPARE(h.size(), 2);
        QCOMPARE(slots(h.value(prefix + QStringLiteral("Write"))), slots(expected(m_extents)));
        QCOMPARE(slots(h.value(prefix + QStringLiteral("Read"))), slots(expected(m_extents)));
    }

    void unknownDiskIsRefused()
    {
        BPFLENS_REQUIRE_ROOT("reads the kernel's BTF");
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("bitesize"),
                                {{QStringLiteral("disk"), QStringLiteral("nosuchdisk")}},
                                {}}};
        QString error;
        QVERIFY(!engine.start(req, &error));
        QVERIFY2(error.contains(QStringLiteral("no disk named \"nosuchdisk\"")), qPrintable(error));
    }

    void nothingStaysAttached()
    {
        BPFLENS_REQUIRE_ROOT("inspects the kernel's BPF objects");
        QCOMPARE(test::ownBpfObjects({}), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestBitesize)
#include "tst_bitesize.moc"
