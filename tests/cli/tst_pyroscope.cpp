// record --pyroscope and serve --pyroscope (issue #32, part 3). Grafana Pyroscope is not
// packaged here: a receiver in this test (a QTcpServer) stands in for it, checks every request
// against Pyroscope's documented ingest API (POST /ingest, name=APP{labels}, from < until in
// unix seconds, format=pprof, sampleRate, spyName) and hands each body to the real
// `go tool pprof -raw`, which must show the known call chain of callchain_fp. Also: a server
// that answers 500 twice (the third try arrives), one that always answers 400 (said once, the
// recording completes and its file is intact), a port nobody listens on, and bad URLs.
#include "tests/gopprof.h"
#include "tests/helper/testbus.h"
#include "tests/testutil.h"

#include "core/sessionstore.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSysInfo>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <csignal>

using namespace bpflens;
using namespace bpflens::test;

namespace {

struct Request
{
    QByteArray method;
    QByteArray path;
    QList<std::pair<QString, QString>> query;
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;
    qint64 atMs = 0; // when it arrived
    QString param(const QString &key) const
    {
        for (const auto &[k, v] : query)
            if (k == key)
                return v;
        return {};
    }
};

// Pyroscope's ingest endpoint as far as a client can tell: HTTP/1.1, a response per request.
// statuses: the answers to the first requests in turn; after them, lastStatus.
class Receiver : public QObject
{
public:
    explicit Receiver(QList<int> statuses, int lastStatus = 200)
        : m_statuses(std::move(statuses))
        , m_last(lastStatus)
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                QObject::connect(s, &QTcpSocket::readyRead, this, [this, s] { read(s); });
                QObject::connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    bool listen() { return m_server.listen(QHostAddress::LocalHost, 0); }
    quint16 port() const { return m_server.serverPort(); }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(port()); }
    QList<Request> requests;
    QByteArray refusal = "profile name not accepted\nsecond line\n";

private:
    void read(QTcpSocket *s)
    {
        QByteArray buffer = s->property("buffer").toByteArray() + s->readAll();
        while (true) {
            const qsizetype end = buffer.indexOf("\r\n\r\n");
            if (end < 0)
                break;
            const QList<QByteArray> lines = buffer.left(end).split('\n');
            Request r;
            const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
            r.method = first.value(0);
            const QByteArray target = first.value(1);
            const qsizetype q = target.indexOf('?');
            r.path = q < 0 ? target : target.left(q);
            r.query = QUrlQuery(QString::fromLatin1(q < 0 ? QByteArray() : target.mid(q + 1)))
                          .queryItems(QUrl::FullyDecoded);
            for (qsizetype i = 1; i < lines.size(); ++i) {
                const QByteArray line = lines[i].trimmed();
                const qsizetype colon = line.indexOf(':');
                if (colon > 0)
                    r.headers.insert(line.left(colon).trimmed().toLower(),
                                     line.mid(colon + 1).trimmed());
            }
            const qsizetype length = r.headers.value("content-length").toLongLong();
            if (buffer.size() < end + 4 + length)
                break;
            r.body = buffer.mid(end + 4, length);
            buffer.remove(0, end + 4 + length);
            r.atMs = QDateTime::currentMSecsSinceEpoch();
            const int status =
                requests.size() < m_statuses.size() ? m_statuses[requests.size()] : m_last;
            requests.append(r);
            const QByteArray body = status == 200   ? QByteArray()
                                    : status == 400 ? refusal
                                                    : QByteArray("ingester unavailable\n");
            const QByteArray reason = status == 200   ? "OK"
                                      : status == 400 ? "Bad Request"
                                                      : "Internal Server Error";
            s->write("HTTP/1.1 " + QByteArray::number(status) + ' ' + reason +
                     "\r\nContent-Type: text/plain\r\nContent-Length: " +
                     QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
            s->disconnectFromHost();
            return;
        }
        s->setProperty("buffer", buffer);
    }

    QTcpServer m_server;
    QList<int> m_statuses;
    int m_last;
};

// Every request as Pyroscope documents /ingest; empty when it is. sampleRate: the profile
// probe's frequency, or empty for off-CPU waits (not taken at a rate: no sampleRate).
QString checkRequest(const Request &r, const QString &app, qint64 notBefore, qint64 notAfter,
                     const QString &sampleRate = QStringLiteral("99"))
{
    QString p;
    if (r.method != "POST")
        p += QStringLiteral("method %1, not POST; ").arg(QString::fromLatin1(r.method));
    if (r.path != "/ingest")
        p += QStringLiteral("path %1, not /ingest; ").arg(QString::fromLatin1(r.path));
    QStringList keys;
    for (const auto &[k, v] : r.query)
        keys << k;
    keys.sort();
    QStringList expected{QStringLiteral("format"), QStringLiteral("from"), QStringLiteral("name"),
                         QStringLiteral("spyName"), QStringLiteral("until")};
    if (!sampleRate.isEmpty())
        expected << QStringLiteral("sampleRate");
    expected.sort();
    if (keys != expected)
        p += QStringLiteral("parameters %1; ").arg(keys.join(QLatin1Char(',')));
    const QString name = QStringLiteral("%1{hostname=%2}").arg(app, QSysInfo::machineHostName());
    if (r.param(QStringLiteral("name")) != name)
        p += QStringLiteral("name=%1, expected %2; ").arg(r.param(QStringLiteral("name")), name);
    bool okFrom = false, okUntil = false;
    const qint64 from = r.param(QStringLiteral("from")).toLongLong(&okFrom);
    const qint64 until = r.param(QStringLiteral("until")).toLongLong(&okUntil);
    if (!okFrom || !okUntil || from >= until || from < notBefore || until > notAfter)
        p += QStringLiteral("from=%1 until=%2 (the test ran from %3 to %4); ")
                 .arg(r.param(QStringLiteral("from")), r.param(QStringLiteral("until")))
                 .arg(notBefore)
                 .arg(notAfter);
    if (r.param(QStringLiteral("format")) != QLatin1String("pprof"))
        p += QStringLiteral("format=%1; ").arg(r.param(QStringLiteral("format")));
    if (r.param(QStringLiteral("sampleRate")) != sampleRate)
        p += QStringLiteral("sampleRate=%1, expected %2; ")
                 .arg(r.param(QStringLiteral("sampleRate")), sampleRate);
    if (r.param(QStringLiteral("spyName")) != QLatin1String("bpflens"))
        p += QStringLiteral("spyName=%1; ").arg(r.param(QStringLiteral("spyName")));
    if (!r.body.startsWith("\x1f\x8b"))
        p += QStringLiteral("the body is not gzipped; ");
    return p;
}

// go tool pprof -raw of one pushed body.
PprofRun raw(const QByteArray &body, const QString &dir, int n)
{
    const QString path = QStringLiteral("%1/push%2.pb.gz").arg(dir).arg(n);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(body) != body.size())
        return {};
    f.close();
    return goPprof({QStringLiteral("-raw"), path}, dir);
}

bool waitFor(const std::function<bool()> &done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < ms)
        QTest::qWait(50);
    return done();
}

int countOf(const QByteArray &text, const QByteArray &what)
{
    return int(text.count(what));
}

} // namespace

class TestPyroscope : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void badArgumentsRefusedUpFront();
    void recordPushesEveryInterval();
    void serverErrorsAreRetried();
    void refusalIsSaidOnceAndRecordingCompletes();
    void unreachableServer();
    void servePushes();
    void recordThroughTheHelperPushes();

private:
    bool requireRootAndGo();
    QTemporaryDir m_dir;
};

bool TestPyroscope::requireRootAndGo()
{
    if (goTool().isEmpty()) {
        if (qEnvironmentVariableIsSet("CI"))
            qFatal("go is missing (Debian package golang-go; see .ci/deps --tests)");
        return false;
    }
    return true;
}

void TestPyroscope::badArgumentsRefusedUpFront()
{
    const QString out = m_dir.filePath(QStringLiteral("never.bpflens"));
    struct Case
    {
        QStringList args;
        const char *said;
    };
    const QList<Case> cases{
        {{QStringLiteral("--probe"), QStringLiteral("profile"), QStringLiteral("--pyroscope"),
          QStringLiteral("ftp://pyroscope:4040")},
         "--pyroscope ftp://pyroscope:4040: expected the server's http:// or https:// URL"},
        {{QStringLiteral("--probe"), QStringLiteral("profile"), QStringLiteral("--pyroscope"),
          QStringLiteral("pyroscope:4040")},
         "expected the server's http:// or https:// URL"},
        {{QStringLiteral("--probe"), QStringLiteral("profile"), QStringLiteral("--pyroscope"),
          QStringLiteral("http://")},
         "expected the server's http:// or https:// URL"},
        {{QStringLiteral("--probe"), QStringLiteral("exec"), QStringLiteral("--pyroscope"),
          QStringLiteral("http://127.0.0.1:4040")},
         "add --probe profile"},
        {{QStringLiteral("--probe"), QStringLiteral("profile"), QStringLiteral("--pyroscope"),
          QStringLiteral("http://127.0.0.1:4040"), QStringLiteral("--pyroscope-interval"),
          QStringLiteral("0s")},
         "--pyroscope-interval 0s: expected a time from 1s to 1h"},
        {{QStringLiteral("--probe"), QStringLiteral("profile"), QStringLiteral("--pyroscope"),
          QStringLiteral("http://127.0.0.1:4040"), QStringLiteral("--pyroscope-app"),
          QStringLiteral("a{b}")},
         "--pyroscope-app a{b}"},
    };
    for (const char *command : {"record", "serve"}) {
        for (const Case &c : cases) {
            QProcess p;
            QStringList args{QString::fromLatin1(command)};
            args += c.args;
            if (QLatin1String(command) == QLatin1String("record"))
                args << QStringLiteral("-o") << out;
            p.start(QStringLiteral(BPFLENS_CLI), args);
            QVERIFY(p.waitForFinished(30000));
            const QByteArray err = p.readAllStandardError();
            QVERIFY2(p.exitCode() == 2, qPrintable(args.join(QLatin1Char(' ')) +
                                                   QStringLiteral(": ") + QString::fromUtf8(err)));
            QVERIFY2(err.contains(c.said), err.constData());
            QVERIFY(!QFile::exists(out));
        }
    }
}

void TestPyroscope::recordPushesEveryInterval()
{
    BPFLENS_REQUIRE_ROOT("records the profile probe in-process");
    if (!requireRootAndGo())
        QSKIP("go tool pprof is not installed (Debian package golang-go)");
    Receiver receiver({});
    QVERIFY(receiver.listen());
    const QString session = m_dir.filePath(QStringLiteral("pushed.bpflens"));
    const qint64 startedS = QDateTime::currentSecsSinceEpoch();
    QProcess recorder;
    recorder.start(QStringLiteral(BPFLENS_CLI),
                   {QStringLiteral("record"), QStringLiteral("--direct"), QStringLiteral("--probe"),
                    QStringLiteral("profile"), QStringLiteral("--probe"), QStringLiteral("offcpu"),
                    QStringLiteral("--pyroscope"), receiver.url(),
                    QStringLiteral("--pyroscope-interval"), QStringLiteral("1s"),
                    QStringLiteral("-o"), session});
    QVERIFY(waitFor(
        [&] { return QFile::exists(session) || recorder.state() == QProcess::NotRunning; }, 60000));
    QVERIFY2(QFile::exists(session), recorder.readAllStandardError().constData());
    QProcess fp, sleeper;
    fp.start(QStringLiteral(BPFLENS_TEST_PROGRAMS "/callchain_fp"), {QStringLiteral("3")});
    // 2 s of naps: enough of them to be taken with the program still there to be symbolised,
    // when other tests' recordings keep the machine busy.
    sleeper.start(QStringLiteral(BPFLENS_SLEEPCHAIN), {QStringLiteral("40"), QStringLiteral("50")});
    for (QProcess *p : {&fp, &sleeper}) {
        QVERIFY(p->waitForFinished(60000));
        QCOMPARE(p->exitCode(), 0);
    }
    // Pushes arrive while the recording runs, not only at its end.
    QVERIFY2(waitFor([&] { return receiver.requests.size() >= 2; }, 10000),
             "fewer than 2 pushes in 3 s of 1 s intervals");
    ::kill(pid_t(recorder.processId()), SIGINT);
    QVERIFY(waitFor([&] { return recorder.state() == QProcess::NotRunning; }, 60000));
    const QByteArray err = recorder.readAllStandardError();
    QVERIFY2(recorder.exitCode() == 0, err.constData());
    const qint64 endedS = QDateTime::currentSecsSinceEpoch() + 1;

    // On-CPU pushes to bpflens.cpu with the 99 Hz period, off-CPU ones to bpflens.offcpu.
    QStringList functions, waits;
    QList<const Request *> cpu;
    for (int i = 0; i < receiver.requests.size(); ++i) {
        const Request &r = receiver.requests[i];
        const bool onCpu =
            r.param(QStringLiteral("name")).startsWith(QLatin1String("bpflens.cpu{"));
        const QString problems =
            onCpu ? checkRequest(r, QStringLiteral("bpflens.cpu"), startedS, endedS)
                  : checkRequest(r, QStringLiteral("bpflens.offcpu"), startedS, endedS, {});
        QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("push %1: ").arg(i) + problems));
        QCOMPARE(r.headers.value("content-type"), QByteArray("application/octet-stream"));
        const PprofRun run = raw(r.body, m_dir.path(), i);
        QVERIFY2(run.status == 0, qPrintable(run.said()));
        if (onCpu) {
            cpu.append(&r);
            QVERIFY2(run.out.contains("samples/count cpu/nanoseconds"),
                     run.out.left(2000).constData());
            QVERIFY2(run.out.contains("Period: 10101010"), run.out.left(2000).constData());
            for (const char *f : {"leaf_spin", "chain_c", "chain_b", "chain_a"})
                if (run.out.contains(f) && !functions.contains(QLatin1String(f)))
                    functions << QLatin1String(f);
        } else {
            QVERIFY2(run.out.contains("waits/count off_cpu/nanoseconds"),
                     run.out.left(2000).constData());
            for (const char *f : {"nap", "sleep_b", "sleep_a"})
                if (run.out.contains(f) && !waits.contains(QLatin1String(f)))
                    waits << QLatin1String(f);
        }
    }
    QVERIFY2(cpu.size() >= 2, "fewer than 2 on-CPU pushes");
    // Consecutive intervals in order, none pushed twice: a push starts no earlier than the
    // second in which the one before it ended. (It may start later: an interval in which no
    // sample reached the recorder, as under load, pushes nothing.)
    for (qsizetype i = 1; i < cpu.size(); ++i) {
        const qint64 from = cpu[i]->param(QStringLiteral("from")).toLongLong();
        const qint64 previousUntil = cpu[i - 1]->param(QStringLiteral("until")).toLongLong();
        QVERIFY2(from >= previousUntil - 1,
                 qPrintable(QStringLiteral("push %1 from %2, the one before until %3")
                                .arg(i)
                                .arg(from)
                                .arg(previousUntil)));
    }
    functions.sort();
    QCOMPARE(functions, (QStringList{QStringLiteral("chain_a"), QStringLiteral("chain_b"),
                                     QStringLiteral("chain_c"), QStringLiteral("leaf_spin")}));
    waits.sort();
    QCOMPARE(waits, (QStringList{QStringLiteral("nap"), QStringLiteral("sleep_a"),
                                 QStringLiteral("sleep_b")}));
    QVERIFY2(
        err.contains(
            QStringLiteral("pushed %1 profiles, 0 failed").arg(receiver.requests.size()).toUtf8()),
        err.constData());
    SessionData data;
    QString error;
    QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
    QVERIFY(data.events.count(EventType::CpuSample) > 0);
}

void TestPyroscope::serverErrorsAreRetried()
{
    BPFLENS_REQUIRE_ROOT("records the profile probe in-process");
    if (!requireRootAndGo())
        QSKIP("go tool pprof is not installed (Debian package golang-go)");
    Receiver receiver({500, 500});
    QVERIFY(receiver.listen());
    const QString session = m_dir.filePath(QStringLiteral("retried.bpflens"));
    const qint64 startedS = QDateTime::currentSecsSinceEpoch();
    // One interval for the whole recording: one profile, pushed at the end, tried three times.
    QProcess recorder;
    recorder.start(QStringLiteral(BPFLENS_CLI),
                   {QStringLiteral("record"), QStringLiteral("--direct"), QStringLiteral("--probe"),
                    QStringLiteral("profile"), QStringLiteral("--pyroscope"), receiver.url(),
                    QStringLiteral("--pyroscope-interval"), QStringLiteral("10m"),
                    QStringLiteral("--duration"), QStringLiteral("4s"), QStringLiteral("-o"),
                    session});
    QVERIFY(waitFor(
        [&] { return QFile::exists(session) || recorder.state() == QProcess::NotRunning; }, 60000));
    QProcess fp;
    fp.start(QStringLiteral(BPFLENS_TEST_PROGRAMS "/callchain_fp"), {QStringLiteral("2")});
    QVERIFY(fp.waitForFinished(60000));
    QVERIFY(waitFor([&] { return recorder.state() == QProcess::NotRunning; }, 60000));
    const QByteArray err = recorder.readAllStandardError();
    QVERIFY2(recorder.exitCode() == 0, err.constData());
    QCOMPARE(receiver.requests.size(), 3);
    // Backoff: 1 s, then 2 s.
    QVERIFY(receiver.requests[1].atMs - receiver.requests[0].atMs >= 900);
    QVERIFY(receiver.requests[2].atMs - receiver.requests[1].atMs >= 1900);
    for (const Request &r : std::as_const(receiver.requests)) {
        QCOMPARE(r.body, receiver.requests[0].body); // the same profile each time
        const QString problems = checkRequest(r, QStringLiteral("bpflens.cpu"), startedS,
                                              QDateTime::currentSecsSinceEpoch() + 1);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
    }
    const PprofRun run = raw(receiver.requests[2].body, m_dir.path(), 100);
    QVERIFY2(run.status == 0, qPrintable(run.said()));
    QVERIFY2(run.out.contains("leaf_spin"), run.out.left(3000).constData());
    // The failure is said once, with the status and the first line of the server's answer.
    QCOMPARE(countOf(err, "HTTP 500 Internal Server Error: ingester unavailable"), 1);
    QVERIFY2(err.contains("pushed 1 profile, 0 failed"), err.constData());
}

void TestPyroscope::refusalIsSaidOnceAndRecordingCompletes()
{
    BPFLENS_REQUIRE_ROOT("records the profile probe in-process");
    Receiver receiver({}, 400);
    QVERIFY(receiver.listen());
    const QString session = m_dir.filePath(QStringLiteral("refused.bpflens"));
    QProcess recorder;
    QElapsedTimer took;
    took.start();
    recorder.start(QStringLiteral(BPFLENS_CLI),
                   {QStringLiteral("record"), QStringLiteral("--direct"), QStringLiteral("--probe"),
                    QStringLiteral("profile"), QStringLiteral("--pyroscope"), receiver.url(),
                    QStringLiteral("--pyroscope-interval"), QStringLiteral("1s"),
                    QStringLiteral("--duration"), QStringLiteral("5s"), QStringLiteral("-o"),
                    session});
    QVERIFY(waitFor(
        [&] { return QFile::exists(session) || recorder.state() == QProcess::NotRunning; }, 60000));
    QProcess fp;
    fp.start(QStringLiteral(BPFLENS_TEST_PROGRAMS "/callchain_fp"), {QStringLiteral("4")});
    QVERIFY(fp.waitForFinished(60000));
    QVERIFY(waitFor([&] { return recorder.state() == QProcess::NotRunning; }, 60000));
    const QByteArray err = recorder.readAllStandardError();
    // The recording is what record is for: it completes (status 0), the refusal is said.
    QVERIFY2(recorder.exitCode() == 0, err.constData());
    QVERIFY2(took.elapsed() < 30000, "the refusals held up the end of the recording");
    QVERIFY2(receiver.requests.size() >= 3, err.constData());
    // A 400 is not tried again: every request is another interval's profile.
    QSet<QString> intervals;
    for (const Request &r : std::as_const(receiver.requests))
        intervals.insert(r.param(QStringLiteral("from")) + QLatin1Char('-') +
                         r.param(QStringLiteral("until")));
    QCOMPARE(intervals.size(), receiver.requests.size());
    QCOMPARE(countOf(err, "HTTP 400 Bad Request: profile name not accepted"), 1);
    QVERIFY(!err.contains("second line"));
    QVERIFY2(
        err.contains(
            QStringLiteral("pushed 0 profiles, %1 failed").arg(receiver.requests.size()).toUtf8()),
        err.constData());
    QVERIFY2(err.contains("Recorded "), err.constData());
    SessionData data;
    QString error;
    QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
    QVERIFY(!data.damage.isDamaged());
    bool spun = false;
    for (qsizetype i = 0; i < data.events.count(EventType::CpuSample) && !spun; ++i)
        spun = data.events.value<&CpuSampleEvent::comm>(i) == "callchain_fp";
    QVERIFY2(spun, "the session lacks the program's samples");
}

void TestPyroscope::unreachableServer()
{
    BPFLENS_REQUIRE_ROOT("records the profile probe in-process");
    quint16 closedPort = 0;
    {
        QTcpServer s;
        QVERIFY(s.listen(QHostAddress::LocalHost, 0));
        closedPort = s.serverPort();
    }
    const QString session = m_dir.filePath(QStringLiteral("unreachable.bpflens"));
    QProcess recorder;
    QElapsedTimer took;
    took.start();
    recorder.start(QStringLiteral(BPFLENS_CLI),
                   {QStringLiteral("record"), QStringLiteral("--direct"), QStringLiteral("--probe"),
                    QStringLiteral("profile"), QStringLiteral("--pyroscope"),
                    QStringLiteral("http://127.0.0.1:%1").arg(closedPort),
                    QStringLiteral("--pyroscope-interval"), QStringLiteral("1s"),
                    QStringLiteral("--duration"), QStringLiteral("4s"), QStringLiteral("-o"),
                    session});
    QVERIFY(recorder.waitForFinished(60000));
    const QByteArray err = recorder.readAllStandardError();
    QVERIFY2(recorder.exitCode() == 0, err.constData());
    QVERIFY2(took.elapsed() < 30000, "the unreachable server held up the end of the recording");
    QCOMPARE(countOf(err, "cannot reach Pyroscope at http://127.0.0.1:"), 2); // retrying, dropped
    QVERIFY2(err.contains("Connection refused"), err.constData());
    static const QRegularExpression summary(
        QStringLiteral("pushed 0 profiles, ([1-9]\\d*) failed"));
    QVERIFY2(summary.match(QString::fromUtf8(err)).hasMatch(), err.constData());
    SessionData data;
    QString error;
    QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
    QVERIFY(!data.damage.isDamaged());
    QVERIFY(data.events.count(EventType::CpuSample) > 0);
}

void TestPyroscope::servePushes()
{
    BPFLENS_REQUIRE_ROOT("serve runs the profile probe in-process");
    if (!requireRootAndGo())
        QSKIP("go tool pprof is not installed (Debian package golang-go)");
    Receiver receiver({});
    QVERIFY(receiver.listen());
    const qint64 startedS = QDateTime::currentSecsSinceEpoch();
    QProcess serve;
    serve.start(QStringLiteral(BPFLENS_CLI),
                {QStringLiteral("serve"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                 QStringLiteral("--probe"), QStringLiteral("profile:frequency=49"),
                 QStringLiteral("--pyroscope"), receiver.url(),
                 QStringLiteral("--pyroscope-interval"), QStringLiteral("1s"),
                 QStringLiteral("--pyroscope-app"), QStringLiteral("db1")});
    QVERIFY(serve.waitForStarted());
    QProcess fp;
    fp.start(QStringLiteral(BPFLENS_TEST_PROGRAMS "/callchain_fp"), {QStringLiteral("3")});
    QVERIFY(fp.waitForFinished(60000));
    QVERIFY2(waitFor([&] { return receiver.requests.size() >= 2; }, 20000),
             serve.readAllStandardError().constData());
    ::kill(pid_t(serve.processId()), SIGTERM);
    QVERIFY(waitFor([&] { return serve.state() == QProcess::NotRunning; }, 60000));
    const QByteArray err = serve.readAllStandardError();
    QVERIFY2(serve.exitCode() == 0, err.constData());
    bool leaf = false;
    for (int i = 0; i < receiver.requests.size(); ++i) {
        const Request &r = receiver.requests[i];
        // sampleRate is the probe's frequency; pprof's period says the same.
        const QString problems =
            checkRequest(r, QStringLiteral("db1.cpu"), startedS,
                         QDateTime::currentSecsSinceEpoch() + 1, QStringLiteral("49"));
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        const PprofRun run = raw(r.body, m_dir.path(), 200 + i);
        QVERIFY2(run.status == 0, qPrintable(run.said()));
        QVERIFY2(run.out.contains("Period: 20408163"), run.out.left(2000).constData());
        leaf = leaf || run.out.contains("leaf_spin");
    }
    QVERIFY2(leaf, "no pushed profile shows callchain_fp's leaf_spin");
    QVERIFY2(
        err.contains(
            QStringLiteral("pushed %1 profiles, 0 failed").arg(receiver.requests.size()).toUtf8()),
        err.constData());
}

// Not root: record goes through the helper (as daemon, whom the test bus's polkit rule lets
// trace) and pushes from the stream the helper sends.
void TestPyroscope::recordThroughTheHelperPushes()
{
    BPFLENS_REQUIRE_ROOT("the helper loads BPF programs");
    if (!requireRootAndGo())
        QSKIP("go tool pprof is not installed (Debian package golang-go)");
    bpflens::test::TestBus bus;
    QString error;
    QVERIFY2(bus.start(&error), qPrintable(error));
    const QString cli = bus.publicCopy(QStringLiteral(BPFLENS_CLI));
    QVERIFY(!cli.isEmpty());
    const QString out = bus.dir() + QStringLiteral("/out");
    QVERIFY(QDir().mkpath(out));
    QVERIFY(QFile::setPermissions(out, QFileDevice::Permissions(0x7777)));
    const QString session = out + QStringLiteral("/helper.bpflens");
    Receiver receiver({});
    QVERIFY(receiver.listen());
    const qint64 startedS = QDateTime::currentSecsSinceEpoch();
    QProcess recorder;
    recorder.setProcessEnvironment(bus.environment());
    recorder.start(
        QStringLiteral("setpriv"),
        {QStringLiteral("--reuid=daemon"), QStringLiteral("--regid=daemon"),
         QStringLiteral("--clear-groups"), cli, QStringLiteral("record"), QStringLiteral("--probe"),
         QStringLiteral("profile"), QStringLiteral("--pyroscope"), receiver.url(),
         QStringLiteral("--pyroscope-interval"), QStringLiteral("1s"), QStringLiteral("--duration"),
         QStringLiteral("5s"), QStringLiteral("-o"), session});
    QVERIFY(waitFor(
        [&] { return QFile::exists(session) || recorder.state() == QProcess::NotRunning; }, 60000));
    QVERIFY2(QFile::exists(session),
             qPrintable(QString::fromUtf8(recorder.readAllStandardError()) + bus.log()));
    QProcess fp;
    fp.start(QStringLiteral(BPFLENS_TEST_PROGRAMS "/callchain_fp"), {QStringLiteral("3")});
    QVERIFY(fp.waitForFinished(60000));
    QVERIFY(waitFor([&] { return recorder.state() == QProcess::NotRunning; }, 60000));
    const QByteArray err = recorder.readAllStandardError();
    QVERIFY2(recorder.exitCode() == 0, qPrintable(QString::fromUtf8(err) + bus.log()));
    QVERIFY2(receiver.requests.size() >= 2, err.constData());
    bool leaf = false;
    for (int i = 0; i < receiver.requests.size(); ++i) {
        const Request &r = receiver.requests[i];
        const QString problems = checkRequest(r, QStringLiteral("bpflens.cpu"), startedS,
                                              QDateTime::currentSecsSinceEpoch() + 1);
        QVERIFY2(problems.isEmpty(), qPrintable(problems));
        const PprofRun run = raw(r.body, m_dir.path(), 300 + i);
        QVERIFY2(run.status == 0, qPrintable(run.said()));
        leaf = leaf || run.out.contains("leaf_spin");
    }
    QVERIFY2(leaf, "no pushed profile shows callchain_fp's leaf_spin");
    QVERIFY2(
        err.contains(
            QStringLiteral("pushed %1 profiles, 0 failed").arg(receiver.requests.size()).toUtf8()),
        err.constData());
    QCOMPARE(bus.helperExitProblems(), QString());
}

QTEST_GUILESS_MAIN(TestPyroscope)
#include "tst_pyroscope.moc"
