// bpflens-cli serve against the real kernel and the real Prometheus: the block histogram on
// /metrics grows by the O_DIRECT writes the test makes, promtool accepts the exposition in both
// formats, and a Prometheus started here scrapes it and stores the series.
#include "helper/testbus.h"
#include "promtool.h"
#include "testutil.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace {

constexpr int N = 64;
constexpr int blockSize = 4096;

struct Response
{
    int status = 0;
    QByteArray headers;
    QByteArray body;
};

// One request over its own connection, HTTP/1.0 so no server answers in chunks.
Response http(quint16 port, const QByteArray &method, const QByteArray &path,
              const QByteArray &accept = {})
{
    Response r;
    QTcpSocket s;
    s.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!s.waitForConnected(5000))
        return r;
    QByteArray req = method + ' ' + path + " HTTP/1.0\r\nHost: 127.0.0.1\r\n";
    if (!accept.isEmpty())
        req += "Accept: " + accept + "\r\n";
    s.write(req + "\r\n");
    s.waitForBytesWritten(5000);
    QByteArray all;
    QElapsedTimer t;
    t.start();
    while (s.state() == QAbstractSocket::ConnectedState && t.elapsed() < 10000) {
        s.waitForReadyRead(500);
        all += s.readAll();
    }
    all += s.readAll();
    const qsizetype end = all.indexOf("\r\n\r\n");
    if (end < 0)
        return r;
    r.headers = all.left(end);
    r.body = all.mid(end + 4);
    const QList<QByteArray> first = r.headers.split('\n').value(0).split(' ');
    r.status = first.value(1).toInt();
    return r;
}

quint16 freePort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

QString diskOf(const QString &path)
{
    struct stat st
    {
    };
    if (stat(path.toLocal8Bit().constData(), &st) != 0)
        return {};
    const QString entry =
        QFileInfo(
            QStringLiteral("/sys/dev/block/%1:%2").arg(major(st.st_dev)).arg(minor(st.st_dev)))
            .canonicalFilePath();
    if (entry.isEmpty())
        return {};
    if (QFileInfo::exists(entry + QStringLiteral("/partition")))
        return QFileInfo(QFileInfo(entry).path()).fileName();
    return QFileInfo(entry).fileName();
}

// The requests of the disk's writes the block histogram counted so far: every flag set that
// writes (iomap's direct writes are Sync-Write, with Idle on newer kernels).
quint64 writeCount(const QByteArray &metrics, const QString &disk)
{
    static const QRegularExpression line(QString::fromLatin1(
        R"re(^bpflens_block_latency_seconds_count\{disk="([^"]*)",flags="([^"]*)"\} (\d+)$)re"));
    quint64 n = 0;
    for (const QByteArray &l : metrics.split('\n')) {
        const auto m = line.match(QString::fromUtf8(l));
        if (m.hasMatch() && m.captured(1) == disk && m.captured(2).contains(QLatin1String("Write")))
            n += m.captured(3).toULongLong();
    }
    return n;
}

QString promtool()
{
    return QStandardPaths::findExecutable(QStringLiteral("promtool"));
}

// The runqlat histogram of one scrape: its cumulative buckets in order of le, and _count.
struct RunqlatScrape
{
    QList<quint64> buckets;
    quint64 infBucket = 0;
    quint64 count = 0;
    quint64 events = 0;
    bool complete = false;
};

RunqlatScrape runqlatOf(const QByteArray &metrics)
{
    // \x22 is '"': an odd number of quotes inside a raw string throws moc off.
    static const QRegularExpression bucket(QString::fromLatin1(
        R"re(^bpflens_runqlat_latency_seconds_bucket\{le="([^\x22]*)"\} (\d+)$)re"));
    static const QRegularExpression count(
        QString::fromLatin1(R"re(^bpflens_runqlat_latency_seconds_count (\d+)$)re"));
    static const QRegularExpression events(
        QString::fromLatin1(R"re(^bpflens_probe_events_total\{probe="runqlat"\} (\d+)$)re"));
    RunqlatScrape r;
    bool haveInf = false, haveCount = false;
    for (const QByteArray &l : metrics.split('\n')) {
        const QString line = QString::fromUtf8(l);
        if (const auto m = bucket.match(line); m.hasMatch()) {
            if (m.captured(1) == QLatin1String("+Inf")) {
                r.infBucket = m.captured(2).toULongLong();
                haveInf = true;
            } else {
                r.buckets.append(m.captured(2).toULongLong());
            }
        } else if (const auto c = count.match(line); c.hasMatch()) {
            r.count = c.captured(1).toULongLong();
            haveCount = true;
        } else if (const auto e = events.match(line); e.hasMatch()) {
            r.events = e.captured(1).toULongLong();
        }
    }
    r.complete = haveInf && haveCount && !r.buckets.isEmpty();
    return r;
}

} // namespace

class TestServe : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cleanup()
    {
        m_serve.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
        for (QProcess *p : {&m_prometheus, &m_serve}) {
            if (p->state() != QProcess::NotRunning) {
                p->terminate();
                if (!p->waitForFinished(10000))
                    p->kill();
                p->waitForFinished(5000);
            }
        }
    }

    void badArgumentsAreRefused()
    {
        QProcess p;
        p.start(QStringLiteral(BPFLENS_CLI),
                {QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("nowhere"),
                 QStringLiteral("--probe"), QStringLiteral("block")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("--listen nowhere: expected ADDRESS:PORT"));
        p.start(QStringLiteral(BPFLENS_CLI), {QStringLiteral("serve")});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("name at least one --probe"));
    }

    void servesBlockAndRunqlatToPrometheus()
    {
        BPFLENS_REQUIRE_ROOT("serve loads BPF programs");
        const QString tool = promtool();
        const QString prometheus = QStandardPaths::findExecutable(QStringLiteral("prometheus"));
        if (tool.isEmpty() || prometheus.isEmpty()) {
            if (qEnvironmentVariableIsSet("CI"))
                QFAIL("promtool and prometheus are missing (Debian package prometheus; see "
                      ".ci/deps)");
            QSKIP("promtool or prometheus is not installed (Debian package prometheus)");
        }
        const QString dir = bpflens::test::diskTestDirectory(QStringLiteral("/var/tmp"));
        QTemporaryDir work(dir + QStringLiteral("/tst_serve-XXXXXX"));
        QVERIFY(work.isValid());
        const QString disk = diskOf(work.path());
        QVERIFY2(!disk.isEmpty(), qPrintable(work.path()));

        const quint16 port = freePort();
        m_serve.setProcessChannelMode(QProcess::ForwardedOutputChannel);
        m_serve.start(QStringLiteral(BPFLENS_CLI),
                      {QStringLiteral("serve"), QStringLiteral("--listen"),
                       QStringLiteral("127.0.0.1:%1").arg(port), QStringLiteral("--probe"),
                       QStringLiteral("block:perDisk,perFlags"), QStringLiteral("--probe"),
                       QStringLiteral("runqlat")});
        QVERIFY(m_serve.waitForStarted());
        // Up once the probes are attached and a first snapshot was taken.
        QByteArray before;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 60000) {
            const Response r = http(port, "GET", "/metrics");
            if (r.status == 200 && r.body.contains("bpflens_probe_events_total{probe=\"block\"}")) {
                before = r.body;
                break;
            }
            QVERIFY2(m_serve.state() == QProcess::Running, "serve exited");
            QThread::msleep(200);
        }
        QVERIFY2(!before.isEmpty(), "no metrics after 60 s");
        const quint64 c0 = writeCount(before, disk);

        // N O_DIRECT writes: N block requests of the disk, whatever else runs.
        const QByteArray file = (work.path() + QStringLiteral("/data")).toLocal8Bit();
        const int fd = open(file.constData(), O_RDWR | O_CREAT | O_DIRECT | O_CLOEXEC, 0600);
        QVERIFY2(fd >= 0, strerror(errno));
        void *buf = nullptr;
        QCOMPARE(posix_memalign(&buf, blockSize, blockSize), 0);
        memset(buf, 0x5a, blockSize);
        for (int i = 0; i < N; ++i)
            QCOMPARE(pwrite(fd, buf, blockSize, off_t(i) * blockSize), ssize_t(blockSize));
        free(buf);
        close(fd);

        QByteArray after;
        quint64 c1 = c0;
        t.restart();
        while (t.elapsed() < 15000 && c1 < c0 + N) {
            QThread::msleep(300);
            after = http(port, "GET", "/metrics").body;
            c1 = writeCount(after, disk);
        }
        QVERIFY2(c1 >= c0 + N, qPrintable(QStringLiteral("write requests of %1 went from %2 to %3, "
                                                         "expected at least %4 more")
                                              .arg(disk)
                                              .arg(c0)
                                              .arg(c1)
                                              .arg(N)));
        QVERIFY(after.contains("bpflens_runqlat_latency_seconds_count "));

        // Both formats, as negotiated, pass the reference parser and linter.
        const Response om = http(port, "GET", "/metrics",
                                 "application/openmetrics-text;version=1.0.0,text/plain;q=0.5");
        QVERIFY(om.headers.contains(
            "Content-Type: application/openmetrics-text; version=1.0.0; charset=utf-8"));
        QVERIFY(om.body.endsWith("# EOF\n"));
        const Response text = http(port, "GET", "/metrics");
        QVERIFY(text.headers.contains("Content-Type: text/plain; version=0.0.4; charset=utf-8"));
        QVERIFY(!text.body.contains("# EOF"));
        for (const Response *r : {&om, &text}) {
            const auto check = bpflens::test::promtoolCheck(tool, r->body, r == &om);
            QVERIFY2(check.accepted, check.said.constData());
        }
        const Response head = http(port, "HEAD", "/metrics");
        QCOMPARE(head.status, 200);
        QVERIFY(head.body.isEmpty());
        QCOMPARE(http(port, "GET", "/other").status, 404);
        QCOMPARE(http(port, "POST", "/metrics").status, 405);
        // A request that never ends is cut off at 8 KiB, not buffered without bound.
        QCOMPARE(http(port, "GET", "/metrics?" + QByteArray(9000, 'x')).status, 431);

        // A real Prometheus scrapes it every second and stores the series.
        const quint16 promPort = freePort();
        QFile config(work.filePath(QStringLiteral("prometheus.yml")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QStringLiteral("global:\n  scrape_interval: 1s\nscrape_configs:\n"
                                    "  - job_name: bpflens\n    static_configs:\n"
                                    "      - targets: ['127.0.0.1:%1']\n")
                         .arg(port)
                         .toUtf8());
        config.close();
        m_prometheus.setProcessChannelMode(QProcess::MergedChannels);
        m_prometheus.start(
            prometheus,
            {QStringLiteral("--config.file=") + config.fileName(),
             QStringLiteral("--storage.tsdb.path=") + work.filePath(QStringLiteral("tsdb")),
             QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(promPort)});
        QVERIFY(m_prometheus.waitForStarted());
        const QByteArray query = "/api/v1/query?query=bpflens_block_latency_seconds_count";
        QByteArray answer;
        t.restart();
        while (t.elapsed() < 60000) {
            QThread::msleep(500);
            answer = http(promPort, "GET", query).body;
            if (answer.contains(QStringLiteral("\"disk\":\"%1\"").arg(disk).toUtf8()))
                break;
            QVERIFY2(m_prometheus.state() == QProcess::Running, m_prometheus.readAll().constData());
        }
        QVERIFY2(answer.contains(QStringLiteral("\"disk\":\"%1\"").arg(disk).toUtf8()),
                 answer.constData());
        QVERIFY(answer.contains("\"status\":\"success\""));
        // The scrape itself succeeded: Prometheus's own view of the target.
        const QByteArray up = http(promPort, "GET", "/api/v1/query?query=up").body;
        QVERIFY2(up.contains("\"job\":\"bpflens\"") && up.contains("\"1\"]"), up.constData());

        m_prometheus.terminate();
        QVERIFY(m_prometheus.waitForFinished(20000));
        m_serve.terminate();
        QVERIFY(m_serve.waitForFinished(20000));
        QCOMPARE(m_serve.exitStatus(), QProcess::NormalExit);
        QCOMPARE(m_serve.exitCode(), 0);
    }

    // A drain made slow (the test knob sleeps in every drain step, as a flood of events would
    // keep it busy) must not hold up a scrape: scrapes answer from what is already aggregated,
    // in a small fraction of one drain step, and every answer is a consistent state.
    void scrapesDoNotWaitForASlowDrain()
    {
        BPFLENS_REQUIRE_ROOT("serve loads BPF programs");
        constexpr int drainDelayMs = 1000;
        const quint16 port = freePort();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("BPFLENS_TEST_SERVE_DRAIN_DELAY_MS"),
                   QString::number(drainDelayMs));
        m_serve.setProcessEnvironment(env);
        m_serve.setProcessChannelMode(QProcess::ForwardedOutputChannel);
        m_serve.start(QStringLiteral(BPFLENS_CLI),
                      {QStringLiteral("serve"), QStringLiteral("--listen"),
                       QStringLiteral("127.0.0.1:%1").arg(port), QStringLiteral("--probe"),
                       QStringLiteral("runqlat")});
        QVERIFY(m_serve.waitForStarted());
        QElapsedTimer t;
        t.start();
        bool up = false;
        while (!up && t.elapsed() < 60000) {
            up = runqlatOf(http(port, "GET", "/metrics").body).complete;
            QVERIFY2(m_serve.state() == QProcess::Running, "serve exited");
            if (!up)
                QThread::msleep(200);
        }
        QVERIFY2(up, "no runqlat histogram after 60 s");

        // Spread over several drain steps, so that scrapes fall inside them.
        QList<qint64> took;
        QList<RunqlatScrape> scrapes;
        for (int i = 0; i < 16; ++i) {
            QElapsedTimer one;
            one.start();
            const Response r = http(port, "GET", "/metrics");
            took.append(one.elapsed());
            QCOMPARE(r.status, 200);
            scrapes.append(runqlatOf(r.body));
            QThread::msleep(drainDelayMs / 4);
        }
        for (int i = 0; i < scrapes.size(); ++i) {
            const RunqlatScrape &s = scrapes[i];
            QVERIFY2(s.complete, qPrintable(QStringLiteral("scrape %1 lacks runqlat").arg(i)));
            for (int b = 1; b < s.buckets.size(); ++b)
                QVERIFY2(s.buckets[b] >= s.buckets[b - 1],
                         qPrintable(QStringLiteral("scrape %1: bucket %2 below bucket %3")
                                        .arg(i)
                                        .arg(b)
                                        .arg(b - 1)));
            QVERIFY(s.infBucket >= s.buckets.last());
            QCOMPARE(s.count, s.infBucket);
            if (i > 0) {
                QVERIFY2(s.count >= scrapes[i - 1].count,
                         qPrintable(QStringLiteral("_count fell from %1 to %2")
                                        .arg(scrapes[i - 1].count)
                                        .arg(s.count)));
                QVERIFY(s.events >= scrapes[i - 1].events);
            }
        }
        // The drain is slow, not stuck: the numbers grew while the test scraped.
        QVERIFY2(scrapes.last().count > scrapes.first().count,
                 qPrintable(QStringLiteral("runqlat stayed at %1").arg(scrapes.first().count)));
        // A scrape that waited for the drain takes up to a whole step, half of one on average.
        std::sort(took.begin(), took.end());
        const qint64 median = took[took.size() / 2];
        QVERIFY2(median * 5 < drainDelayMs,
                 qPrintable(QStringLiteral("median scrape %1 ms against a drain step of %2 ms "
                                           "(all: %3)")
                                .arg(median)
                                .arg(drainDelayMs)
                                .arg(QString::number(took.last()))));
        qInfo("scrapes during %d ms drain steps: median %lld ms, worst %lld ms", drainDelayMs,
              median, took.last());

        m_serve.terminate();
        QVERIFY(m_serve.waitForFinished(20000));
        QCOMPARE(m_serve.exitStatus(), QProcess::NormalExit);
        QCOMPARE(m_serve.exitCode(), 0);
    }

    // Not root: serve runs the probes through the helper (as daemon, whom the test bus's polkit
    // rule lets trace) and drains its stream on the drain thread; a slow drain holds up no
    // scrape there either, and SIGTERM ends the helper's session.
    void servesThroughTheHelperAsAnOrdinaryUser()
    {
        BPFLENS_REQUIRE_ROOT("the helper loads BPF programs");
        bpflens::test::TestBus bus;
        QString error;
        QVERIFY2(bus.start(&error), qPrintable(error));
        const QString cli = bus.publicCopy(QStringLiteral(BPFLENS_CLI));
        QVERIFY(!cli.isEmpty());
        constexpr int drainDelayMs = 1000;
        const quint16 port = freePort();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"), bus.address());
        env.insert(QStringLiteral("BPFLENS_TEST_SERVE_DRAIN_DELAY_MS"),
                   QString::number(drainDelayMs));
        m_serve.setProcessEnvironment(env);
        m_serve.setProcessChannelMode(QProcess::ForwardedOutputChannel);
        m_serve.start(QStringLiteral("setpriv"),
                      {QStringLiteral("--reuid=daemon"), QStringLiteral("--regid=daemon"),
                       QStringLiteral("--clear-groups"), cli, QStringLiteral("serve"),
                       QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port),
                       QStringLiteral("--probe"), QStringLiteral("runqlat")});
        QVERIFY(m_serve.waitForStarted());
        QElapsedTimer t;
        t.start();
        RunqlatScrape first;
        while (!first.complete && t.elapsed() < 60000) {
            first = runqlatOf(http(port, "GET", "/metrics").body);
            QVERIFY2(m_serve.state() == QProcess::Running, qPrintable(bus.log()));
            if (!first.complete)
                QThread::msleep(200);
        }
        QVERIFY2(first.complete,
                 qPrintable(QStringLiteral("no runqlat histogram after 60 s\n") + bus.log()));
        QVERIFY(bus.helperPid() > 0);
        QVERIFY(bpflens::test::bpfObjectsOf(bus.helperPid()).programs > 0);
        QList<qint64> took;
        RunqlatScrape last = first;
        for (int i = 0; i < 8; ++i) {
            QThread::msleep(drainDelayMs / 4);
            QElapsedTimer one;
            one.start();
            const RunqlatScrape s = runqlatOf(http(port, "GET", "/metrics").body);
            took.append(one.elapsed());
            QVERIFY(s.complete);
            QCOMPARE(s.count, s.infBucket);
            QVERIFY(s.count >= last.count);
            last = s;
        }
        QVERIFY2(last.count > first.count,
                 qPrintable(QStringLiteral("runqlat stayed at %1").arg(first.count)));
        std::sort(took.begin(), took.end());
        QVERIFY2(took[took.size() / 2] * 5 < drainDelayMs,
                 qPrintable(QStringLiteral("median scrape %1 ms against a drain step of %2 ms")
                                .arg(took[took.size() / 2])
                                .arg(drainDelayMs)));
        m_serve.terminate();
        QVERIFY(m_serve.waitForFinished(20000));
        QCOMPARE(m_serve.exitStatus(), QProcess::NormalExit);
        QCOMPARE(m_serve.exitCode(), 0);
        // The helper stays for others; the session's programs are gone with the session.
        QTRY_COMPARE_WITH_TIMEOUT(bpflens::test::bpfObjectsOf(bus.helperPid()).programs, 0, 5000);
        QCOMPARE(bus.helperExitProblems(), QString());
    }

private:
    QProcess m_serve;
    QProcess m_prometheus;
};

QTEST_GUILESS_MAIN(TestServe)
#include "tst_serve.moc"
