// The reclaim probe against the real kernel: a child in a cgroup held to 16 MiB (v2's memory.high,
// or v1's memory.limit_in_bytes where the memory controller is v1) reads a 64 MiB file the test
// wrote on a disk and dropped from the page cache: its page cache outgrows the limit, so the
// kernel reclaims it in the child's own context, as memcg reclaim. At least one memcg span is
// the child's, each with pages reclaimed and a latency; none of the cgroup's spans belongs to
// another task, and none to the test's own process (outside any limit). The spans' latencies
// are all in the memcg histogram.
#include "core/probecatalog.h"
#include "helper/engine.h"
#include "tests/engine/enginetestutil.h"
#include "tests/engine/iotestdir.h"
#include "tests/engine/memcgtestutil.h"
#include "tests/testutil.h"

#include <QFile>
#include <QTest>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens;

namespace {

constexpr quint64 Limit = 16ull << 20;
constexpr quint64 FileSize = 64ull << 20;

} // namespace

class TestReclaim : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void declaration()
    {
        const ProbeInfo *info = ProbeCatalog::find(QStringLiteral("reclaim"));
        QVERIFY(info);
        QCOMPARE(info->group, ProbeGroup::Memory);
        QCOMPARE(info->eventTypes, QList<EventType>{EventType::Reclaim});
        QVERIFY(info->producesHistograms);
    }

    void memcgReclaimOfAChildsPageCache()
    {
        BPFLENS_REQUIRE_ROOT("makes a memory-limited cgroup and loads the reclaim probe");
        const QString dir = test::ioTestDirectory();
        const QString notDisk = test::notOnADisk(dir);
        QVERIFY2(notDisk.isEmpty(), qPrintable(notDisk));
        test::MemoryCgroup cg;
        QString why, error;
        const QByteArray name = "bpflens-reclaim-" + QByteArray::number(getpid());
        if (!cg.make(name, test::MemoryCgroup::High, Limit, &why, &error)) {
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QSKIP(qPrintable(why));
        }
        // The file, written and synced by the test (outside the limit) and dropped from the page
        // cache, so the child's reads bring every page in again, charged to its cgroup.
        const QByteArray path =
            QFile::encodeName(dir) + "/bpflens-reclaim-" + QByteArray::number(getpid());
        const int fd = ::open(path.constData(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        QVERIFY2(fd >= 0, strerror(errno));
        QByteArray block(1 << 20, 'r');
        bool written = true;
        for (quint64 off = 0; off < FileSize && written; off += quint64(block.size()))
            written = ::write(fd, block.constData(), size_t(block.size())) == block.size();
        written =
            written && ::fdatasync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
        ::close(fd);
        auto cleanupFile = qScopeGuard([&] { ::unlink(path.constData()); });
        QVERIFY(written);

        test::GatedChild child([&path] {
            prctl(PR_SET_NAME, "bpflens-reclaim", 0, 0, 0);
            const int in = ::open(path.constData(), O_RDONLY | O_CLOEXEC);
            if (in < 0)
                _exit(2);
            static char buf[1 << 16];
            ssize_t n;
            while ((n = ::read(in, buf, sizeof buf)) > 0) {
            }
            _exit(n == 0 ? 0 : 3);
        });
        QVERIFY(child.pid() > 0);
        QVERIFY2(cg.add(child.pid(), &error), qPrintable(error));

        Engine engine;
        QList<ProbeConfig> req{
            {QStringLiteral("reclaim"), {{QStringLiteral("units"), QStringLiteral("usecs")}}, {}}};
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        const int status = child.run();
        RecordBatch b;
        engine.poll(100, b);
        RecordBatch last;
        engine.stop(&last);
        QList<ReclaimEvent> events = b.events<ReclaimEvent>() + last.events<ReclaimEvent>();
        QList<HistogramSnapshot> histograms = b.histograms + last.histograms;
        QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                 qPrintable(QStringLiteral("the child failed: status %1").arg(status)));

        int childSpans = 0;
        quint64 childPages = 0;
        for (const ReclaimEvent &e : std::as_const(events)) {
            QVERIFY2(e.pid != quint32(getpid()), "the test's own process reclaimed");
            if (e.cgroupId == cg.id() || e.pid == quint32(child.pid())) {
                QCOMPARE(e.pid, quint32(child.pid()));
                QCOMPARE(e.tid, quint32(child.pid()));
                QCOMPARE(e.comm, QByteArray("bpflens-reclaim"));
                QCOMPARE(e.cgroupId, cg.id());
                QCOMPARE(int(e.kind), int(ReclaimEvent::Memcg));
                QVERIFY(e.latencyNs > 0);
                ++childSpans;
                childPages += e.pagesReclaimed;
            }
        }
        qInfo("attached at %s; %d memcg reclaim spans of the child (%s cgroup), %llu pages, "
              "%lld events in all",
              qPrintable(req.first().attachPath), childSpans, cg.isV1() ? "v1" : "v2",
              static_cast<unsigned long long>(childPages), static_cast<long long>(events.size()));
        QVERIFY(childSpans >= 1);
        // Each span reclaims what it can; together they must have made room for the file.
        QVERIFY2(childPages > 0, "no page reclaimed");
        // Every span is in its kind's histogram (each snapshot holds its interval's spans).
        quint64 memcgSpans = 0;
        for (const ReclaimEvent &e : std::as_const(events))
            memcgSpans += e.kind == ReclaimEvent::Memcg;
        quint64 counted = 0;
        for (const HistogramSnapshot &s : std::as_const(histograms)) {
            QVERIFY2(s.key == QLatin1String("memcg") || s.key == QLatin1String("direct") ||
                         s.key == QLatin1String("compaction"),
                     qPrintable(s.key));
            if (s.key == QLatin1String("memcg"))
                counted += s.histogram.count();
        }
        QCOMPARE(counted, memcgSpans);
    }

    // A write to /proc/sys/vm/compact_memory compacts every populated zone of every node in the
    // writer's own context (compact_nodes): one compaction span per zone, each the test
    // thread's, none reclaiming a page, each in the compaction histogram.
    void compactionOfAWriteToCompactMemory()
    {
        BPFLENS_REQUIRE_ROOT("loads the reclaim probe and compacts memory");
        const QString knob = QStringLiteral("/proc/sys/vm/compact_memory");
        if (!QFile::exists(knob))
            QSKIP("the kernel has no memory compaction (CONFIG_COMPACTION)");
        // populated zones: a zone's "present" pages above 0 (/proc/zoneinfo)
        QFile zoneinfo(QStringLiteral("/proc/zoneinfo"));
        QVERIFY(zoneinfo.open(QIODevice::ReadOnly));
        int zones = 0;
        for (const QByteArray &line : zoneinfo.readAll().split('\n')) {
            const QList<QByteArray> words = line.simplified().split(' ');
            if (words.size() == 2 && words[0] == "present" && words[1].toULongLong() > 0)
                ++zones;
        }
        QVERIFY(zones > 0);
        const quint32 me = quint32(gettid());
        Engine engine;
        QList<ProbeConfig> req{
            {QStringLiteral("reclaim"), {{QStringLiteral("tid"), qint64(me)}}, {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        QVERIFY2(req.first().attachPath.contains(QStringLiteral("mm_compaction_begin")),
                 qPrintable(req.first().attachPath));
        QFile compact(knob);
        QVERIFY(compact.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
        QCOMPARE(compact.write("1"), qint64(1));
        compact.close();
        RecordBatch b;
        engine.poll(100, b);
        RecordBatch last;
        engine.stop(&last);
        const QList<ReclaimEvent> events = b.events<ReclaimEvent>() + last.events<ReclaimEvent>();
        int spans = 0;
        for (const ReclaimEvent &e : events) {
            QCOMPARE(e.tid, me);
            QCOMPARE(int(e.kind), int(ReclaimEvent::Compaction));
            QCOMPARE(e.pagesReclaimed, 0ull);
            QVERIFY(e.latencyNs > 0);
            ++spans;
        }
        QCOMPARE(spans, zones);
        quint64 counted = 0;
        for (const HistogramSnapshot &s : b.histograms + last.histograms) {
            QCOMPARE(s.key, QStringLiteral("compaction"));
            counted += s.histogram.count();
        }
        QCOMPARE(counted, quint64(zones));
    }
};

QTEST_GUILESS_MAIN(TestReclaim)
#include "tst_reclaim.moc"
