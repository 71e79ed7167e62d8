// The cachestat probe on the real kernel: a file of known size, dropped from the page cache,
// is read twice; the first read must miss once per page, the second must hit. Filtered to the
// reading process the counts are exact while the rest of the machine (and this test itself)
// uses the page cache meanwhile; unfiltered (system-wide, like cachestat) only what the read
// guarantees (lower bounds) is asserted.
#include "helper/engine.h"
#include "tests/engine/enginetestutil.h"
#include "tests/testutil.h"

#include <QCoreApplication>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <fcntl.h>
#include <functional>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens;

namespace {

// Big enough that readahead works in several windows, small enough to write and read in well
// under a second.
constexpr qint64 filePages = 4096;
// What this test process reads meanwhile, a size unlike filePages so a leak is recognisable.
constexpr qint64 otherPages = 1000;
// Cached before a filtered run and checked after it: whether something evicted pages meanwhile.
constexpr qint64 canaryPages = 256;

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

// Writes a file of pages pages and drops it from the page cache.
bool makeColdFile(const QString &path, qint64 pages)
{
    const qint64 page = sysconf(_SC_PAGESIZE);
    const int fd =
        open(path.toLocal8Bit().constData(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return false;
    QByteArray chunk(int(page), 'x');
    bool ok = true;
    for (qint64 i = 0; ok && i < pages; ++i)
        ok = write(fd, chunk.constData(), size_t(chunk.size())) == ssize_t(chunk.size());
    ok = ok && fsync(fd) == 0 && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0 &&
         residentPages(fd, pages * page) == 0;
    close(fd);
    return ok;
}

// Reads up to the file's size, not until read() says EOF: a read that starts at EOF makes 5.10
// (the VM matrix) allocate the page at index i_size / page size and insert it into the page
// cache before it checks i_size (generic_file_buffered_read's no_cached_page path), so the
// probe rightly counts one page added beyond the file; 6.x checks i_size first. The counts the
// tests assert are the file's pages on every kernel.
qint64 readWhole(const char *path, char *buf, size_t size)
{
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st
    {
    };
    if (fstat(fd, &st) != 0) {
        close(fd);
        return -1;
    }
    qint64 total = 0;
    while (total < st.st_size) {
        const ssize_t n = read(fd, buf, size_t(qMin<qint64>(qint64(size), st.st_size - total)));
        if (n <= 0)
            break;
        total += n;
    }
    close(fd);
    return total;
}

// What the reader child did while measured: bytes read and its own page faults (getrusage).
struct ReaderReport
{
    qint64 bytes = -1;
    long minorFaults = 0;
    long majorFaults = 0;
};

// A child process that reads one file when told to, and nothing else while measured: its pid
// is the filter. It runs its whole read path (open, read, getrusage, write, close) once before
// the gate on another file, so its code and buffer are faulted in and COW-copied by then; the
// report says whether it still took page faults (file faults are page cache accesses too).
// After reporting it waits for the gate to close, so its exit is never measured.
class Reader
{
public:
    Reader(const QByteArray &path, const QByteArray &warmup)
        : m_buf(128 * 1024, 0)
    {
        int go[2], done[2];
        if (pipe2(go, O_CLOEXEC) != 0 || pipe2(done, O_CLOEXEC) != 0)
            return;
        m_pid = fork();
        if (m_pid == 0) {
            close(go[1]);
            close(done[0]);
            ReaderReport r;
            rusage before{}, after{};
            readWhole(warmup.constData(), m_buf.data(), size_t(m_buf.size()));
            getrusage(RUSAGE_SELF, &before);
            const char ready = 1;
            (void)!write(done[1], &ready, 1);
            char c;
            while (read(go[0], &c, 1) < 0 && errno == EINTR) {
            }
            getrusage(RUSAGE_SELF, &before);
            r.bytes = readWhole(path.constData(), m_buf.data(), size_t(m_buf.size()));
            getrusage(RUSAGE_SELF, &after);
            r.minorFaults = after.ru_minflt - before.ru_minflt;
            r.majorFaults = after.ru_majflt - before.ru_majflt;
            (void)!write(done[1], &r, sizeof(r));
            while (read(go[0], &c, 1) < 0 && errno == EINTR) {
            }
            _exit(0);
        }
        close(go[0]);
        close(done[1]);
        m_go = go[1];
        m_done = done[0];
        // Warmed up before any probe starts, so the warm-up is never measured.
        char ready = 0;
        while (read(m_done, &ready, 1) < 0 && errno == EINTR) {
        }
    }
    ~Reader()
    {
        if (m_go >= 0)
            close(m_go);
        if (m_done >= 0)
            close(m_done);
        if (m_pid > 0) {
            kill(m_pid, SIGKILL);
            waitpid(m_pid, nullptr, 0);
        }
    }
    pid_t pid() const { return m_pid; }
    // Lets the child read and waits for its report (the child then waits to be killed).
    ReaderReport run()
    {
        ReaderReport r;
        const char c = 1;
        if (m_go < 0 || write(m_go, &c, 1) != 1)
            return r;
        ssize_t n;
        while ((n = read(m_done, &r, sizeof(r))) < 0 && errno == EINTR) {
        }
        if (n != ssize_t(sizeof(r)))
            r.bytes = -1;
        return r;
    }

private:
    QByteArray m_buf;
    pid_t m_pid = -1;
    int m_go = -1;
    int m_done = -1;
};

} // namespace

class TestCacheStat : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir *m_dir = nullptr;
    QList<__u32> m_programIds; // of the latest measure()

    QString file(const char *name) const { return m_dir->filePath(QLatin1String(name)); }

    // Runs the cachestat probe with options around work, returns the counters of that run.
    Totals measure(QVariantMap options, const std::function<void()> &work,
                   RecordBatch *all = nullptr)
    {
        options.insert(QStringLiteral("interval"), 100);
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("cachestat"), options, {}}};
        QString error;
        if (!engine.start(req, &error)) {
            qWarning("start: %s", qPrintable(error));
            return {};
        }
        m_programIds = test::ownProgramIds({QByteArrayLiteral("cachestat_")});
        work();
        RecordBatch batch;
        engine.poll(0, batch);
        engine.stop(&batch);
        if (all)
            *all = batch;
        return sum(batch);
    }

    static void print(const char *what, const Totals &t)
    {
        qInfo("%s: accesses %.0f added %.0f dirtied %.0f misses %.0f hits %.0f (%d samples)", what,
              t.accesses, t.added, t.dirtied, t.misses, t.hits, t.samples);
    }

    // Nothing of the probe stays open in this process, and the kernel frees its programs.
    bool ownProgramsGone() const
    {
        if (!test::ownProgramIds({QByteArrayLiteral("cachestat_")}).isEmpty())
            return false;
        for (int i = 0; i < 50 && test::programsAlive(m_programIds) > 0; ++i)
            QTest::qWait(100);
        return test::programsAlive(m_programIds) == 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        // Not /tmp: it may be tmpfs, whose pages never enter the page cache this way.
        m_dir = new QTemporaryDir(test::diskTestDirectory(QCoreApplication::applicationDirPath()) +
                                  QStringLiteral("/cachestat-XXXXXX"));
        QVERIFY(m_dir->isValid());
        struct statfs fs
        {
        };
        QCOMPARE(statfs(m_dir->path().toLocal8Bit().constData(), &fs), 0);
        QVERIFY2(fs.f_type != TMPFS_MAGIC, "the test file must be on a disk file system");
        // What the reader children warm up on; never measured.
        QVERIFY(makeColdFile(file("warmup"), 4));
    }

    void cleanupTestCase() { delete m_dir; }

    void availabilityNamesTracepoints()
    {
        BPFLENS_REQUIRE_ROOT("probes the kernel");
        Engine engine;
        const std::optional<ProbeStatus> s = engine.probe(QStringLiteral("cachestat"));
        QVERIFY(s);
        QVERIFY2(s->availability.available, qPrintable(s->availability.reason));
        // This kernel has every tracepoint in BTF: nothing may fall back to kprobes.
        if (engine.kernel().hasBtfTracepoint(QStringLiteral("mm_filemap_get_pages"))) {
            QCOMPARE(s->availability.attachPath,
                     QStringLiteral("tp_btf/mm_filemap_get_pages, tp_btf/mm_filemap_fault, "
                                    "tp_btf/mm_filemap_add_to_page_cache, "
                                    "tp_btf/writeback_dirty_folio"));
        }
        QVERIFY(!s->availability.attachPath.contains(QStringLiteral("kprobe")));
        // The reason tells what the numbers mean, since they are not BCC's kprobe counts.
        QVERIFY(s->availability.reason.contains(QStringLiteral("misses =")));
        QVERIFY(s->availability.reason.contains(QStringLiteral("hits =")));
    }

    // Pages of path in the page cache, -1 if it cannot be checked.
    static qint64 resident(const QString &path, qint64 pages)
    {
        const int fd = open(path.toLocal8Bit().constData(), O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return -1;
        const qint64 n = residentPages(fd, pages * sysconf(_SC_PAGESIZE));
        close(fd);
        return n;
    }

    // One filtered read of data by a reader child, while this process reads other (cold).
    // clean says whether the page cache stayed as the run needs it: data fully cached after
    // the read, and the canary (fully cached before) untouched. Something else on the machine
    // can evict pages mid-run (memory pressure, or drop_caches as stress-ng's iomix does);
    // then a page is read in twice, which the probe rightly counts, but the expected numbers
    // no longer hold.
    Totals filteredRead(const QString &option, const QString &data, const QString &other,
                        ReaderReport *report, bool *clean, RecordBatch *all = nullptr)
    {
        const qint64 page = sysconf(_SC_PAGESIZE);
        QByteArray buf(64 * 1024, 0);
        const QString canary = file("canary");
        readWhole(canary.toLocal8Bit().constData(), buf.data(), size_t(buf.size()));
        *clean = resident(canary, canaryPages) == canaryPages;
        Reader reader(data.toLocal8Bit(), file("warmup").toLocal8Bit());
        if (reader.pid() <= 0)
            return {};
        const Totals t = measure(
            {{option, qint64(reader.pid())}},
            [&] {
                if (readWhole(other.toLocal8Bit().constData(), buf.data(), size_t(buf.size())) !=
                    otherPages * page)
                    qWarning("could not read %s", qPrintable(other));
                *report = reader.run();
            },
            all);
        *clean = *clean && resident(canary, canaryPages) == canaryPages &&
                 resident(data, filePages) == filePages;
        print(qPrintable(QStringLiteral("read filtered by %1").arg(option)), t);
        qInfo("the reader's page faults: %ld minor, %ld major; page cache undisturbed: %s",
              report->minorFaults, report->majorFaults, *clean ? "yes" : "no");
        return t;
    }

    // Filtered to the reading process, every number is exact, while this test process reads
    // another cold file at the same time and the rest of the machine does what it does. The
    // reader's own page faults (its report) would be file accesses too; they are normally 0,
    // and only they may widen the bounds. A run whose page cache was disturbed (see
    // filteredRead) is repeated, up to attempts times.
    void filteredReadIsExact()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        constexpr int attempts = 5;
        const qint64 page = sysconf(_SC_PAGESIZE);
        const QString data = file("data");
        const QString other = file("other");
        QVERIFY(makeColdFile(file("canary"), canaryPages));

        ReaderReport report;
        RecordBatch first;
        Totals cold;
        bool clean = false;
        for (int i = 0; i < attempts && !clean; ++i) {
            QVERIFY(makeColdFile(data, filePages));
            QVERIFY(makeColdFile(other, otherPages));
            first = {};
            cold = filteredRead(QStringLiteral("pid"), data, other, &report, &clean, &first);
            QCOMPARE(report.bytes, filePages * page);
            QVERIFY2(!m_programIds.isEmpty(), "the probe's programs were not loaded");
            QVERIFY(ownProgramsGone());
        }
        QVERIFY2(clean, "something kept evicting the page cache during every attempt");
        QVERIFY(cold.samples > 0);
        double faults = double(report.minorFaults + report.majorFaults);
        // Every page was inserted once by the read and its readahead, which stops at EOF:
        // a probe counting folios instead of pages, or the other file, is off. A major
        // fault of the reader inserts its own readahead window on top.
        if (report.majorFaults == 0)
            QCOMPARE(cold.added, double(filePages));
        else
            QVERIFY2(cold.added >= double(filePages), qPrintable(QString::number(cold.added)));
        QCOMPARE(cold.dirtied, 0.0);
        QCOMPARE(cold.misses, cold.added);
        // Each page looked up once (a read's range once, however many batches), plus one
        // per file fault of the reader.
        QVERIFY2(cold.accesses >= double(filePages) && cold.accesses <= double(filePages) + faults,
                 qPrintable(QString::number(cold.accesses)));
        QVERIFY2(cold.hits <= faults, qPrintable(QString::number(cold.hits)));
        for (const CounterSample &c : std::as_const(first.counters)) {
            QVERIFY(c.intervalNs > 0);
            QVERIFY(c.timeNs > 0);
            QVERIFY(c.value >= 0);
        }

        // Warm, filtered by thread this time (the reader is single-threaded: tid = pid).
        Totals warm;
        clean = false;
        QByteArray buf(64 * 1024, 0);
        for (int i = 0; i < attempts && !clean; ++i) {
            // Cached again (unmeasured) if something evicted it since.
            readWhole(data.toLocal8Bit().constData(), buf.data(), size_t(buf.size()));
            QVERIFY(makeColdFile(other, otherPages));
            warm = filteredRead(QStringLiteral("tid"), data, other, &report, &clean);
            QCOMPARE(report.bytes, filePages * page);
            // Evicted before the read, the pages are misses again: not the warm case.
            clean = clean && warm.added == 0.0;
            QVERIFY(ownProgramsGone());
        }
        QVERIFY2(clean, "something kept evicting the page cache during every attempt");
        faults = double(report.minorFaults + report.majorFaults);
        if (report.majorFaults == 0)
            QCOMPARE(warm.misses, 0.0);
        QCOMPARE(warm.dirtied, 0.0);
        QVERIFY2(warm.accesses >= double(filePages) && warm.accesses <= double(filePages) + faults,
                 qPrintable(QString::number(warm.accesses)));
        QVERIFY2(warm.hits >= double(filePages) - warm.misses,
                 qPrintable(QString::number(warm.hits)));
        QVERIFY(warm.sawRatio);
    }

    // A filter that matches nobody who touches the page cache counts nothing at all: what the
    // kernel does on its own (writeback, reclaim) and other processes never leak in.
    void filterOnIdleProcessCountsNothing()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        const qint64 page = sysconf(_SC_PAGESIZE);
        const QString other = file("idle-other");
        QVERIFY(makeColdFile(other, otherPages));
        QByteArray buf(64 * 1024, 0);
        Reader idle(file("warmup").toLocal8Bit(), file("warmup").toLocal8Bit());
        const Totals t = measure({{QStringLiteral("pid"), qint64(idle.pid())}}, [&] {
            QCOMPARE(readWhole(other.toLocal8Bit().constData(), buf.data(), size_t(buf.size())),
                     otherPages * page);
            // Dirty pages of this process that the flusher writes back meanwhile.
            const int fd = open(file("dirty").toLocal8Bit().constData(),
                                O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            QVERIFY(fd >= 0);
            QCOMPARE(write(fd, buf.constData(), size_t(buf.size())), ssize_t(buf.size()));
            QCOMPARE(fsync(fd), 0);
            close(fd);
        });
        print("filtered to an idle process", t);
        QVERIFY(t.samples > 0);
        QCOMPARE(t.accesses, 0.0);
        QCOMPARE(t.added, 0.0);
        QCOMPARE(t.dirtied, 0.0);
        QCOMPARE(t.misses, 0.0);
        QCOMPARE(t.hits, 0.0);
        QVERIFY(!t.sawRatio);
    }

    void unknownCgroupIsAClearError()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("cachestat"),
                                {{QStringLiteral("cgroup"), QStringLiteral("no/such/cgroup")}},
                                {}}};
        QString error;
        QVERIFY(!engine.start(req, &error));
        QVERIFY2(error.contains(QStringLiteral("no/such/cgroup")), qPrintable(error));
        // A failed start leaves nothing of the probe loaded.
        QVERIFY(test::ownProgramIds({QByteArrayLiteral("cachestat_")}).isEmpty());
    }

    // Unfiltered, cachestat is system-wide: other processes' traffic adds to the counts, so
    // only what the read guarantees holds: at least its pages, inserted and looked up.
    void systemWideCountsEveryProcess()
    {
        BPFLENS_REQUIRE_ROOT("loads BPF programs");
        const qint64 page = sysconf(_SC_PAGESIZE);
        const QString data = file("wide");
        const QString other = file("wide-other");
        QVERIFY(makeColdFile(data, filePages));
        QVERIFY(makeColdFile(other, otherPages));
        QByteArray buf(64 * 1024, 0);
        Reader reader(data.toLocal8Bit(), file("warmup").toLocal8Bit());
        ReaderReport report;
        const Totals t = measure({}, [&] {
            QCOMPARE(readWhole(other.toLocal8Bit().constData(), buf.data(), size_t(buf.size())),
                     otherPages * page);
            report = reader.run();
        });
        print("cold reads of two processes, system-wide", t);
        QCOMPARE(report.bytes, filePages * page);
        // Both processes' pages, which no filter hides.
        QVERIFY2(t.added >= double(filePages + otherPages), qPrintable(QString::number(t.added)));
        QVERIFY2(t.accesses >= double(filePages + otherPages),
                 qPrintable(QString::number(t.accesses)));
        QVERIFY(t.sawRatio);
    }
};

QTEST_GUILESS_MAIN(TestCacheStat)
#include "tst_cachestat.moc"
