// The pagefault probe against the real kernel. A thread of the test, parked until the probe is
// attached, faults in memory the test controls between two getrusage(RUSAGE_THREAD) calls:
// - P fresh anonymous pages (one write each, transparent huge pages off for the mapping) in
//   bpflens_touch_anon_pages: the probe, filtered to the thread, records exactly the faults the
//   kernel counted for it (min_flt), every one of the P with its address in the mapping, kind
//   anon, minor, weight 1, and bpflens_touch_anon_pages in its symbolised user stack;
// - a file's pages dropped from the page cache (posix_fadvise DONTNEED, MADV_RANDOM against
//   readahead), read through a mapping in bpflens_read_file_pages: kind file, the majors as many
//   as maj_flt says; read again once cached: all minor;
// - one address range mapped anonymous, then a file (a memfd) in its place, then anonymous
//   again: every fault of each with the kind of the mapping it hit, though the probe keeps the
//   last mapping it looked up (bpf/pagefault.bpf.c's vma_cache);
// - every=4: about a quarter of the faults, each with weight 4;
// - a flood no drain keeps up with: what the ring buffer had no room for is counted, delivered
//   plus lost exactly the thread's faults;
// - every=0 and every=text refused by the catalog, saying which option.
#include "core/probecatalog.h"
#include "helper/engine.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/iotestdir.h"
#include "tests/testutil.h"

#include <QTest>
#include <QThread>

#include <condition_variable>
#include <fcntl.h>
#include <functional>
#include <mutex>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace bpflens;

namespace {

constexpr size_t Page = 4096;

} // namespace

extern "C" {

// The faulting functions the stacks must show: one write or read per page.
__attribute__((noinline)) void bpflens_touch_anon_pages(volatile char *p, size_t pages)
{
    for (size_t i = 0; i < pages; ++i)
        p[i * Page] = char(i);
}

__attribute__((noinline)) long bpflens_read_file_pages(const volatile char *p, size_t pages)
{
    long sum = 0;
    for (size_t i = 0; i < pages; ++i)
        sum += p[i * Page];
    return sum;
}
}

namespace {

// What the faulting thread saw of itself.
struct ThreadFaults
{
    pid_t tid = 0;
    long minor = 0; // min_flt's increase over the work
    long major = 0;
    bool ok = false;
};

// A thread that warms up, waits until the test attached the probe, then does work between two
// getrusage(RUSAGE_THREAD) calls, and stays (blocked, faulting nothing) until released, so
// nothing of its start or exit falls into the recording.
class FaultingThread
{
public:
    explicit FaultingThread(std::function<bool()> work)
        : m_work(std::move(work))
    {
        m_thread = std::thread([this] { run(); });
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return m_state >= Ready; });
    }
    ~FaultingThread()
    {
        release();
        m_thread.join();
    }
    pid_t tid() const { return m_result.tid; }
    void go()
    {
        std::lock_guard lock(m_mutex);
        m_state = Go;
        m_cv.notify_all();
    }
    bool done()
    {
        std::lock_guard lock(m_mutex);
        return m_state >= Done;
    }
    void release()
    {
        std::lock_guard lock(m_mutex);
        m_state = Released;
        m_cv.notify_all();
    }
    ThreadFaults result()
    {
        std::lock_guard lock(m_mutex);
        return m_result;
    }

private:
    enum State
    {
        Starting,
        Ready,
        Go,
        Done,
        Released
    };
    void run()
    {
        rusage before{}, after{};
        m_result.tid = pid_t(syscall(SYS_gettid));
        getrusage(RUSAGE_THREAD, &before); // its code and pages are in from here on
        {
            std::unique_lock lock(m_mutex);
            m_state = Ready;
            m_cv.notify_all();
            m_cv.wait(lock, [this] { return m_state >= Go; });
        }
        getrusage(RUSAGE_THREAD, &before);
        const bool ok = m_work();
        getrusage(RUSAGE_THREAD, &after);
        std::unique_lock lock(m_mutex);
        m_result.minor = after.ru_minflt - before.ru_minflt;
        m_result.major = after.ru_majflt - before.ru_majflt;
        m_result.ok = ok;
        if (m_state < Done)
            m_state = Done;
        m_cv.notify_all();
        m_cv.wait(lock, [this] { return m_state >= Released; });
    }

    std::function<bool()> m_work;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    State m_state = Starting;
    ThreadFaults m_result;
};

struct Recording
{
    bool ok = false;
    QString error;
    QString attachPath;
    StackTable stacks;
    QList<PageFaultEvent> events;
    quint64 lost = 0;
    quint64 seen = 0;
    ThreadFaults thread;
};

// The kind a fault of a mapping of this kind must read: the mapping's, or unknown where the
// probe said it cannot tell (no bpf_find_vma for perf event programs before 5.17).
int expectedKind(const Recording &r, int mappingKind)
{
    return r.attachPath.contains(QStringLiteral("address kinds unknown")) ? PageFaultEvent::Unknown
                                                                          : mappingKind;
}

// Whether a fault's kind is right: the expected one, or unknown because bpf_find_vma could not
// take the mmap lock at that moment (another thread of the process held it: this one records
// in-process, and under ASan its allocator maps memory while the faulting thread runs; seen
// for 5 of 256 faults). Never another mapping's kind.
bool kindRight(const Recording &r, int kind, int mappingKind)
{
    return kind == expectedKind(r, mappingKind) || kind == PageFaultEvent::Unknown;
}

// Records the pagefault probe filtered to a thread doing work; drains while it works unless
// drain is false (the flood).
Recording record(QVariantMap options, const std::function<bool()> &work, bool drain = true,
                 quint32 ringBufferBytes = 0)
{
    Recording r;
    FaultingThread t(work);
    options.insert(QStringLiteral("tid"), qint64(t.tid()));
    Engine engine;
    if (ringBufferBytes)
        engine.setRingBufferBytes(ringBufferBytes);
    QList<ProbeConfig> req{{QStringLiteral("pagefault"), options, {}}};
    if (!engine.start(req, &r.error))
        return r;
    r.attachPath = req.first().attachPath;
    auto consume = [&](const RecordBatch &b) {
        QString why;
        if (!r.stacks.addDefinitions(b, &why))
            r.error = why;
        r.events += b.events<PageFaultEvent>();
        for (const ProbeStats &s : b.stats) {
            r.lost = s.eventsLost;
            r.seen = s.eventsSeen;
        }
    };
    t.go();
    while (!t.done()) {
        if (drain) {
            RecordBatch b;
            engine.poll(20, b);
            consume(b);
        } else {
            QThread::msleep(20);
        }
    }
    RecordBatch b;
    engine.poll(100, b);
    consume(b);
    RecordBatch last;
    engine.stop(&last);
    consume(last);
    r.thread = t.result();
    r.ok = r.error.isEmpty() && r.thread.ok;
    return r;
}

QString describe(const StackTable &t, quint32 stackId)
{
    if (!t.hasStack(stackId))
        return QStringLiteral("no stack %1").arg(stackId);
    QStringList names;
    for (quint32 f : t.stack(stackId).frames)
        names << QStringLiteral("%1 %2 %3 0x%4")
                     .arg(int(t.frame(f).kind))
                     .arg(t.frameName(f), QString::fromUtf8(t.frame(f).module))
                     .arg(t.frame(f).address, 0, 16);
    return names.join(QStringLiteral(" | "));
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

// A private anonymous mapping of pages, without transparent huge pages (one of which would
// take 512 pages in one fault).
char *anonMapping(size_t pages)
{
    void *p =
        mmap(nullptr, pages * Page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return nullptr;
    madvise(p, pages * Page, MADV_NOHUGEPAGE);
    return static_cast<char *>(p);
}

} // namespace

class TestPageFault : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void declaration()
    {
        const ProbeInfo *info = ProbeCatalog::find(QStringLiteral("pagefault"));
        QVERIFY(info);
        QCOMPARE(info->group, ProbeGroup::Memory);
        QCOMPARE(info->eventTypes, QList<EventType>{EventType::PageFault});
        QVariantMap normalized;
        QString error;
        QVERIFY2(ProbeCatalog::validate(QStringLiteral("pagefault"), {}, &normalized, &error),
                 qPrintable(error));
        QCOMPARE(normalized.value(QStringLiteral("every")).toLongLong(), 1);
    }

    void badOptionsRefused_data()
    {
        QTest::addColumn<QVariant>("every");
        QTest::addColumn<QString>("reason");
        QTest::newRow("zero") << QVariant(0)
                              << QStringLiteral("option every: 0 is out of range (1 to 1000000)");
        QTest::newRow("text") << QVariant(QStringLiteral("often"))
                              << QStringLiteral("option every: expects a whole number");
        QTest::newRow("negative") << QVariant(-4)
                                  << QStringLiteral("option every: -4 is out of range");
    }
    void badOptionsRefused()
    {
        QFETCH(QVariant, every);
        QFETCH(QString, reason);
        QVariantMap normalized;
        QString error;
        QVERIFY(!ProbeCatalog::validate(QStringLiteral("pagefault"),
                                        {{QStringLiteral("every"), every}}, &normalized, &error));
        QVERIFY2(error.contains(reason), qPrintable(error));
        // The engine refuses it the same way, before loading anything.
        Engine engine;
        QList<ProbeConfig> req{
            {QStringLiteral("pagefault"), {{QStringLiteral("every"), every}}, {}}};
        QString engineError;
        QVERIFY(!engine.start(req, &engineError));
        QVERIFY2(engineError.contains(reason), qPrintable(engineError));
    }

    // Unfiltered, the probe records every process's faults but the recorder's own: its memory
    // grows with each event, so its own faults would feed themselves (it grew past 3 GB in 4 s
    // on an idle machine).
    void recorderOwnFaultsLeftOut()
    {
        BPFLENS_REQUIRE_ROOT("loads the pagefault probe");
        constexpr size_t P = 256;
        int go[2];
        QVERIFY(pipe2(go, O_CLOEXEC) == 0);
        const pid_t child = fork();
        if (child == 0) {
            char byte = 0;
            if (read(go[0], &byte, 1) != 1)
                _exit(1);
            char *map = anonMapping(P);
            if (!map)
                _exit(1);
            bpflens_touch_anon_pages(map, P);
            _exit(0);
        }
        QVERIFY(child > 0);
        close(go[0]);
        char *map = anonMapping(P);
        QVERIFY(map);
        auto unmap = qScopeGuard([&] { munmap(map, P * Page); });
        Engine engine;
        // Without user-stack copies: unwinding every other process's faults from their copies
        // took this test 75 s beside tst_engine, and stacks are not what it is about. Only
        // tasks of this test's name (the child is a fork): with every process's faults it
        // took 56 s of 81 beside two ASan test processes, whose shadow memory faults without
        // end. This process has the name too, so what leaves it out is still the recorder's
        // own exclusion.
        const QString ownComm = QString::fromLocal8Bit(test::ownComm());
        QVERIFY(!ownComm.isEmpty());
        QList<ProbeConfig> req{
            {QStringLiteral("pagefault"),
             {{QStringLiteral("stackBytes"), 0}, {QStringLiteral("comm"), ownComm}},
             {}}};
        QString error;
        const bool started = engine.start(req, &error);
        QVERIFY2(write(go[1], "g", 1) == 1, "the child");
        close(go[1]);
        QList<PageFaultEvent> events;
        if (started) {
            bpflens_touch_anon_pages(map, P); // this process's, which must not be recorded
            int status = 0;
            while (waitpid(child, &status, WNOHANG) == 0) {
                RecordBatch b;
                engine.poll(20, b);
                events += b.events<PageFaultEvent>();
            }
            RecordBatch last;
            engine.stop(&last);
            events += last.events<PageFaultEvent>();
        } else {
            waitpid(child, nullptr, 0);
        }
        QVERIFY2(started, qPrintable(error));
        qsizetype own = 0, childs = 0;
        for (const PageFaultEvent &e : std::as_const(events)) {
            own += e.pid == quint32(getpid());
            childs += e.pid == quint32(child);
        }
        QCOMPARE(own, 0);
        // The child's faults are there: its mapping's 256 and those of its exit, unless the
        // ring buffer was full.
        QVERIFY2(childs > 0,
                 qPrintable(QStringLiteral("%1 events, none of the child's").arg(events.size())));
    }

    void anonymousPagesExact()
    {
        BPFLENS_REQUIRE_ROOT("loads the pagefault probe");
        constexpr size_t P = 256;
        char *map = anonMapping(P);
        QVERIFY(map);
        auto unmap = qScopeGuard([&] { munmap(map, P * Page); });
        const Recording r = record({}, [map] {
            bpflens_touch_anon_pages(map, P);
            return true;
        });
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY2(!r.attachPath.contains(QStringLiteral("unsymbolised")), qPrintable(r.attachPath));
        const quint64 base = quint64(quintptr(map));
        int inMapping = 0, underToucher = 0, minorInMapping = 0, anon = 0, kindsRight = 0;
        quint64 weights = 0;
        for (const PageFaultEvent &e : r.events) {
            QCOMPARE(e.tid, quint32(r.thread.tid));
            QCOMPARE(e.pid, quint32(getpid()));
            QCOMPARE(e.weight, 1u);
            weights += e.weight;
            if (e.address < base || e.address >= base + P * Page)
                continue;
            ++inMapping;
            minorInMapping += !e.major;
            anon += e.kind == expectedKind(r, PageFaultEvent::Anon);
            kindsRight += kindRight(r, e.kind, PageFaultEvent::Anon);
            underToucher += inStack(r.stacks, e.stackId, "bpflens_touch_anon_pages");
        }
        qInfo("attached at %s; the thread counted %ld minor and %ld major faults; the probe "
              "recorded %lld (%d in the mapping, %d of them anon, %d under the toucher), "
              "%llu lost",
              qPrintable(r.attachPath), r.thread.minor, r.thread.major, qint64(r.events.size()),
              inMapping, anon, underToucher, static_cast<unsigned long long>(r.lost));
        QCOMPARE(r.lost, 0ull);
        if (!r.events.isEmpty())
            qInfo("a stack: %s", qPrintable(describe(r.stacks, r.events.first().stackId)));
        QCOMPARE(inMapping, int(P));
        QCOMPARE(minorInMapping, int(P));
        QCOMPARE(underToucher, int(P));
        QCOMPARE(kindsRight, int(P));
        QVERIFY2(anon >= int(P) / 2, qPrintable(QString::number(anon))); // most lookups succeed
        // Exactly what the kernel counted for the thread: nothing else of it faulted, and the
        // probe missed nothing.
        QCOMPARE(weights, quint64(r.thread.minor + r.thread.major));
        QCOMPARE(r.seen, quint64(r.events.size()));
    }

    void filePagesMajorThenMinor()
    {
        BPFLENS_REQUIRE_ROOT("loads the pagefault probe");
        const QString dir = test::ioTestDirectory();
        const QString notDisk = test::notOnADisk(dir);
        if (!notDisk.isEmpty())
            QSKIP(qPrintable(notDisk));
        constexpr size_t P = 64;
        const QByteArray path =
            QFile::encodeName(dir) + "/bpflens-pagefault-" + QByteArray::number(getpid());
        const int fd = ::open(path.constData(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        QVERIFY2(fd >= 0, strerror(errno));
        auto cleanup = qScopeGuard([&] {
            ::close(fd);
            ::unlink(path.constData());
        });
        const QByteArray content(int(P * Page), 'f');
        QCOMPARE(::write(fd, content.constData(), size_t(content.size())), ssize_t(content.size()));
        QCOMPARE(::fdatasync(fd), 0);
        QCOMPARE(::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);

        for (const bool cached : {false, true}) {
            quint64 base = 0;
            const Recording r = record({}, [fd, &base] {
                void *p = mmap(nullptr, P * Page, PROT_READ, MAP_SHARED, fd, 0);
                if (p == MAP_FAILED)
                    return false;
                // no readahead: each missing page is read by its own fault
                madvise(p, P * Page, MADV_RANDOM);
                base = quint64(quintptr(p));
                bpflens_read_file_pages(static_cast<const char *>(p), P);
                munmap(p, P * Page);
                return true;
            });
            QVERIFY2(r.ok, qPrintable(r.error));
            int inMapping = 0, majors = 0, file = 0, kindsRight = 0, underReader = 0, allMajors = 0;
            for (const PageFaultEvent &e : r.events) {
                allMajors += e.major;
                if (e.address < base || e.address >= base + P * Page)
                    continue;
                ++inMapping;
                majors += e.major;
                file += e.kind == expectedKind(r, PageFaultEvent::File);
                kindsRight += kindRight(r, e.kind, PageFaultEvent::File);
                underReader += inStack(r.stacks, e.stackId, "bpflens_read_file_pages");
            }
            qInfo("%s: the thread counted %ld minor and %ld major faults; the probe recorded "
                  "%lld, %d in the mapping (%d major, %d file, %d under the reader)",
                  cached ? "cached" : "dropped", r.thread.minor, r.thread.major,
                  qint64(r.events.size()), inMapping, majors, file, underReader);
            QCOMPARE(r.lost, 0ull);
            QVERIFY(inMapping >= 1);
            QCOMPARE(kindsRight, inMapping);
            QVERIFY2(file >= (inMapping + 1) / 2, qPrintable(QString::number(file)));
            QCOMPARE(underReader, inMapping);
            QCOMPARE(qint64(r.events.size()), qint64(r.thread.minor + r.thread.major));
            QCOMPARE(long(allMajors), r.thread.major);
            if (cached) {
                QCOMPARE(majors, 0);
            } else {
                QVERIFY2(majors >= 1, "no major fault on pages dropped from the page cache");
            }
        }
    }

    void replacedMappingKinds()
    {
        BPFLENS_REQUIRE_ROOT("loads the pagefault probe");
        constexpr size_t P = 64;
        const int fd = int(syscall(SYS_memfd_create, "bpflens-pagefault", MFD_CLOEXEC));
        QVERIFY2(fd >= 0, strerror(errno));
        auto closeFd = qScopeGuard([&] { ::close(fd); });
        QCOMPARE(::ftruncate(fd, off_t(P * Page)), 0);
        char *map = anonMapping(P);
        QVERIFY(map);
        auto unmap = qScopeGuard([&] { munmap(map, P * Page); });
        // Each round's pages in turn, the same addresses: anonymous, the file, anonymous.
        const Recording r = record({}, [map, fd] {
            bpflens_touch_anon_pages(map, P);
            if (mmap(map, P * Page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) != map)
                return false;
            bpflens_touch_anon_pages(map, P);
            if (mmap(map, P * Page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                     -1, 0) != map)
                return false;
            madvise(map, P * Page, MADV_NOHUGEPAGE);
            bpflens_touch_anon_pages(map, P);
            return true;
        });
        QVERIFY2(r.ok, qPrintable(r.error));
        const quint64 base = quint64(quintptr(map));
        QList<int> kinds;
        for (const PageFaultEvent &e : r.events) {
            if (e.address >= base && e.address < base + P * Page)
                kinds.append(int(e.kind));
        }
        qInfo("the thread counted %ld minor faults; %lld in the range, %llu lost", r.thread.minor,
              qint64(kinds.size()), static_cast<unsigned long long>(r.lost));
        QCOMPARE(r.lost, 0ull);
        QCOMPARE(kinds.size(), qsizetype(3 * P));
        // A mapping remembered past its replacement would give the new one's faults the old
        // kind: every fault reads its own mapping's kind (or unknown, kindRight).
        int known = 0;
        for (qsizetype i = 0; i < kinds.size(); ++i) {
            const int mappingKind =
                i / qsizetype(P) == 1 ? PageFaultEvent::File : PageFaultEvent::Anon;
            QVERIFY2(kindRight(r, kinds[i], mappingKind),
                     qPrintable(QStringLiteral("fault %1 of the range: kind %2, not %3")
                                    .arg(i)
                                    .arg(kinds[i])
                                    .arg(expectedKind(r, mappingKind))));
            known += kinds[i] == expectedKind(r, mappingKind);
        }
        QVERIFY2(known >= int(kinds.size()) / 2, qPrintable(QString::number(known)));
    }

    void everyFourthFault()
    {
        BPFLENS_REQUIRE_ROOT("loads the pagefault probe");
        constexpr size_t P = 1024;
        char *map = anonMapping(P);
        QVERIFY(map);
        auto unmap = qScopeGuard([&] { munmap(map, P * Page); });
        const Recording r = record({{QStringLiteral("every"), 4}}, [map] {
            bpflens_touch_anon_pages(map, P);
            return true;
        });
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY2(r.attachPath.contains(QStringLiteral("one fault in 4")), qPrintable(r.attachPath));
        const quint64 base = quint64(quintptr(map));
        int inMapping = 0;
        for (const PageFaultEvent &e : r.events) {
            QCOMPARE(e.weight, 4u);
            if (e.address >= base && e.address < base + P * Page)
                ++inMapping;
        }
        qInfo("every=4: %d of %zu faults recorded in the mapping (the thread counted %ld)",
              inMapping, P, r.thread.minor);
        // The period counts every task's faults on a CPU, so the thread's share is a quarter
        // on average, not exactly: within half of it either way.
        QVERIFY(inMapping >= int(P / 8));
        QVERIFY(inMapping <= int(P * 3 / 8));
    }

    void floodCountsWhatIsLost()
    {
        BPFLENS_REQUIRE_ROOT("loads the pagefault probe");
        // 16384 records of some 16.5 KiB each (the stack copy) into 32 MiB, not drained.
        constexpr size_t P = 16384;
        char *map = anonMapping(P);
        QVERIFY(map);
        auto unmap = qScopeGuard([&] { munmap(map, P * Page); });
        const Recording r = record(
            {},
            [map] {
                bpflens_touch_anon_pages(map, P);
                return true;
            },
            false);
        QVERIFY2(r.ok, qPrintable(r.error));
        qInfo("flood: the thread counted %ld faults; %lld delivered, %llu lost", r.thread.minor,
              qint64(r.events.size()), static_cast<unsigned long long>(r.lost));
        QVERIFY(r.lost > 0);
        QVERIFY(!r.events.isEmpty());
        QCOMPARE(quint64(r.events.size()) + r.lost, quint64(r.thread.minor + r.thread.major));
    }

    void nothingStaysAttached()
    {
        BPFLENS_REQUIRE_ROOT("inspects the kernel's BPF objects");
        QCOMPARE(test::ownBpfObjects({}), QStringList());
    }
};

QTEST_GUILESS_MAIN(TestPageFault)
#include "tst_pagefault.moc"
