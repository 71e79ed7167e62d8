// The cachestat probe on the real kernel: a file of known size, dropped from the page cache,
// is read twice; the first read must miss about once per page, the second must hit.
#include "engine.h"
#include "testutil.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/vfs.h>
#include <unistd.h>

using namespace bpflens;

namespace {

// Large against the page cache traffic of the rest of the machine during a read of it (other
// builds run alongside), small enough to write and read in well under a second.
constexpr qint64 filePages = 4096;

struct Totals
{
    double accesses = 0;
    double added = 0;
    double dirtied = 0;
    double misses = 0;
    double hits = 0;
    int samples = 0;
    bool sawRatio = false;
};

Totals sum(const RecordBatch &b)
{
    Totals t;
    for (const CounterSample &c : b.counters) {
        if (c.probeId != QLatin1String("cachestat"))
            continue;
        ++t.samples;
        if (c.name == QLatin1String("accesses"))
            t.accesses += c.value;
        else if (c.name == QLatin1String("added"))
            t.added += c.value;
        else if (c.name == QLatin1String("dirtied"))
            t.dirtied += c.value;
        else if (c.name == QLatin1String("misses"))
            t.misses += c.value;
        else if (c.name == QLatin1String("hits"))
            t.hits += c.value;
        else if (c.name == QLatin1String("hitRatio"))
            t.sawRatio = true;
    }
    return t;
}

QByteArray bpfPrograms()
{
    QProcess p;
    p.start(QStringLiteral("bpftool"), {QStringLiteral("prog"), QStringLiteral("show")});
    p.waitForFinished(10000);
    return p.readAllStandardOutput();
}

qint64 residentPages(int fd, qint64 bytes)
{
    void *m = mmap(nullptr, size_t(bytes), PROT_READ, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return -1;
    const long page = sysconf(_SC_PAGESIZE);
    QByteArray vec(int((bytes + page - 1) / page), 0);
    qint64 n = -1;
    if (mincore(m, size_t(bytes), reinterpret_cast<unsigned char *>(vec.data())) == 0) {
        n = 0;
        for (char c : std::as_const(vec))
            n += c & 1;
    }
    munmap(m, size_t(bytes));
    return n;
}

} // namespace

class TestCacheStat : public QObject
{
    Q_OBJECT
private:
    // Reads the whole file with the probe running, returns the counters of that run.
    Totals measuredRead(const QString &path, qint64 bytes, RecordBatch *all = nullptr)
    {
        Engine engine;
        QList<ProbeConfig> req{
            {QStringLiteral("cachestat"), {{QStringLiteral("interval"), 100}}, {}}};
        QString error;
        if (!engine.start(req, &error)) {
            qWarning("start: %s", qPrintable(error));
            return {};
        }
        m_attachPath = req.first().attachPath;
        m_running = bpfPrograms();
        RecordBatch batch;
        const int fd = open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
        QByteArray buf(128 * 1024, 0);
        qint64 total = 0;
        for (;;) {
            const ssize_t n = read(fd, buf.data(), size_t(buf.size()));
            if (n <= 0)
                break;
            total += n;
        }
        close(fd);
        engine.poll(0, batch);
        engine.stop(&batch);
        if (total != bytes)
            qWarning("read %lld of %lld bytes", total, bytes);
        if (all)
            *all = batch;
        return sum(batch);
    }

    QString m_attachPath;
    QByteArray m_running;

private Q_SLOTS:
    void availabilityNamesTracepoints()
    {
        BPFLENS_REQUIRE_ROOT("probes the kernel");
        Engine engine;
        bool found = false;
        for (const ProbeStatus &s : engine.probes()) {
            if (s.info.id != QLatin1String("cachestat"))
                continue;
            found = true;
            QVERIFY2(s.availability.available, qPrintable(s.availability.reason));
            // This kernel has every tracepoint in BTF: nothing may fall back to kprobes.
            if (engine.kernel().hasBtfTracepoint(QStringLiteral("mm_filemap_get_pages"))) {
                QCOMPARE(s.availability.attachPath,
                         QStringLiteral("tp_btf/mm_filemap_get_pages, tp_btf/mm_filemap_fault, "
                                        "tp_btf/mm_filemap_add_to_page_cache, "
                                        "tp_btf/writeback_dirty_folio"));
            }
            QVERIFY(!s.availability.attachPath.contains(QStringLiteral("kprobe")));
            // The reason tells what the numbers mean, since they are not BCC's kprobe counts.
            QVERIFY(s.availability.reason.contains(QStringLiteral("misses =")));
            QVERIFY(s.availability.reason.contains(QStringLiteral("hits =")));
        }
        QVERIFY(found);
    }

    void uncachedReadMissesThenHits()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        // Not /tmp: it may be tmpfs, whose pages never enter the page cache this way.
        const QString base = test::diskTestDirectory(QCoreApplication::applicationDirPath());
        QTemporaryDir dir(base + QStringLiteral("/cachestat-XXXXXX"));
        QVERIFY2(dir.isValid(), qPrintable(base + QStringLiteral(": ") + dir.errorString()));
        struct statfs fs
        {
        };
        QCOMPARE(statfs(dir.path().toLocal8Bit().constData(), &fs), 0);
        QVERIFY2(fs.f_type != TMPFS_MAGIC, "the test file must be on a disk file system");

        const qint64 page = sysconf(_SC_PAGESIZE);
        const qint64 bytes = filePages * page;
        const QString path = dir.filePath(QStringLiteral("data"));
        int fd = open(path.toLocal8Bit().constData(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        QVERIFY(fd >= 0);
        QByteArray chunk(int(page) * 64, 'x');
        for (qint64 off = 0; off < bytes; off += chunk.size())
            QCOMPARE(write(fd, chunk.constData(), size_t(chunk.size())), ssize_t(chunk.size()));
        QCOMPARE(fsync(fd), 0);
        QCOMPARE(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
        // The precondition of "uncached": mincore() sees no page of it.
        QCOMPARE(residentPages(fd, bytes), 0);
        close(fd);

        // Other processes share the page cache: allow a quarter of the file as their noise.
        // A probe counting folios instead of pages, a read's range per batch instead of once,
        // or lookups as misses, is off by far more than that.
        const double tolerance = double(filePages) / 4;

        RecordBatch first;
        const Totals cold = measuredRead(path, bytes, &first);
        qInfo("cold read of %lld pages: accesses %.0f added %.0f dirtied %.0f misses %.0f "
              "hits %.0f (%d samples)",
              filePages, cold.accesses, cold.added, cold.dirtied, cold.misses, cold.hits,
              cold.samples);
        QVERIFY2(m_running.contains("cachestat_"), "the probe's programs were not loaded");
        QTRY_VERIFY_WITH_TIMEOUT(!bpfPrograms().contains("cachestat_"), 5000);
        QVERIFY(cold.samples > 0);
        // Every page had to be inserted: at least one miss per page, readahead stops at EOF.
        QVERIFY2(cold.added >= double(filePages), qPrintable(QString::number(cold.added)));
        QVERIFY2(cold.added <= double(filePages) + tolerance,
                 qPrintable(QString::number(cold.added)));
        QVERIFY2(qAbs(cold.misses - double(filePages)) <= tolerance,
                 qPrintable(QString::number(cold.misses)));
        // The reads looked up every page once.
        QVERIFY2(cold.accesses >= double(filePages), qPrintable(QString::number(cold.accesses)));
        QVERIFY2(cold.accesses <= double(filePages) + tolerance,
                 qPrintable(QString::number(cold.accesses)));
        QVERIFY2(cold.hits <= tolerance, qPrintable(QString::number(cold.hits)));
        for (const CounterSample &c : std::as_const(first.counters)) {
            QVERIFY(c.intervalNs > 0);
            QVERIFY(c.timeNs > 0);
            QVERIFY(c.value >= 0);
        }

        fd = open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
        QCOMPARE(residentPages(fd, bytes), filePages);
        close(fd);

        const Totals warm = measuredRead(path, bytes);
        qInfo("warm read of %lld pages: accesses %.0f added %.0f dirtied %.0f misses %.0f "
              "hits %.0f (%d samples)",
              filePages, warm.accesses, warm.added, warm.dirtied, warm.misses, warm.hits,
              warm.samples);
        QVERIFY2(warm.misses <= tolerance, qPrintable(QString::number(warm.misses)));
        QVERIFY2(warm.accesses >= double(filePages), qPrintable(QString::number(warm.accesses)));
        QVERIFY2(warm.accesses <= double(filePages) + tolerance,
                 qPrintable(QString::number(warm.accesses)));
        QVERIFY2(warm.hits >= double(filePages) - tolerance,
                 qPrintable(QString::number(warm.hits)));
        QVERIFY(warm.sawRatio);
        QTRY_VERIFY_WITH_TIMEOUT(!bpfPrograms().contains("cachestat_"), 5000);
    }
};

QTEST_GUILESS_MAIN(TestCacheStat)
#include "tst_cachestat.moc"
