// The open probe against the real kernel: opens of a unique path in a temporary directory on
// the root file system, done by this test and by a child of it, must be reported exactly.
#include "engine.h"
#include "enginetestutil.h"
#include "testutil.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <linux/openat2.h>
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
    }

    void opensAreReportedExactly()
    {
        BPFLENS_REQUIRE_ROOT("loads the open probe");
        const int n = 10;
        // The child opens the same path; filtered to this process, it must not show.
        test::GatedChild child([path = m_path.constData()] {
            for (int i = 0; i < 5; ++i)
                close(open(path, O_RDONLY));
        });
        QVERIFY(child.pid() > 0);

        Engine engine;
        QList<ProbeConfig> req{{QStringLiteral("open"), {{QStringLiteral("pid"), getpid()}}, {}}};
        QString error;
        QVERIFY2(engine.start(req, &error), qPrintable(error));
        QCOMPARE(req[0].attachPath, QStringLiteral("tp_btf/sys_exit"));

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

    void childIsSeenWhenFilteredToIt()
    {
        BPFLENS_REQUIRE_ROOT("loads the open probe");
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
            {QStringLiteral("open"), {{QStringLiteral("pid"), qint64(child.pid())}}, {}}};
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

    void failedOnly()
    {
        BPFLENS_REQUIRE_ROOT("loads the open probe");
        Engine engine;
        QList<ProbeConfig> req{
            {QStringLiteral("open"),
             {{QStringLiteral("tid"), gettid()}, {QStringLiteral("failedOnly"), true}},
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
        QList<ProbeConfig> req{
            {QStringLiteral("open"), {{QStringLiteral("pid"), qint64(child.pid())}}, {}}};
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
        QTRY_COMPARE_WITH_TIMEOUT(test::countPrograms({"open_"}), 0, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(test::countMaps({"open_"}), 0, 10000);
    }
};

QTEST_GUILESS_MAIN(TestOpenProbe)
#include "tst_openprobe.moc"
