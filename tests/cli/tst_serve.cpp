// bpflens-cli serve against the real kernel and the real Prometheus: the block histogram on
// /metrics grows by the O_DIRECT writes the test makes, promtool accepts the exposition in both
// formats, and a Prometheus started here scrapes it, stores the series and answers the Grafana
// dashboard's queries.
#include "tests/helper/testbus.h"
#include "tests/promtool.h"
#include "tests/testutil.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUrl>

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

// n O_DIRECT writes of one block each: n block requests of the file's disk, whatever else runs.
// Returns what failed, or nothing.
QString directWrites(const QString &path, int n)
{
    const QByteArray file = path.toLocal8Bit();
    const int fd = open(file.constData(), O_RDWR | O_CREAT | O_DIRECT | O_CLOEXEC, 0600);
    if (fd < 0)
        return QStringLiteral("open %1: %2").arg(path, QString::fromLocal8Bit(strerror(errno)));
    void *buf = nullptr;
    if (posix_memalign(&buf, blockSize, blockSize) != 0) {
        close(fd);
        return QStringLiteral("posix_memalign failed");
    }
    memset(buf, 0x5a, blockSize);
    QString failed;
    for (int i = 0; i < n && failed.isEmpty(); ++i) {
        if (pwrite(fd, buf, blockSize, off_t(i) * blockSize) != ssize_t(blockSize))
            failed = QStringLiteral("pwrite: %1").arg(QString::fromLocal8Bit(strerror(errno)));
    }
    free(buf);
    close(fd);
    return failed;
}

// One query of the Grafana dashboard (docs/grafana/bpflens-dashboard.json), as its panel has it.
struct DashboardQuery
{
    QString panel;
    QString panelType;
    QString refId;
    QString expr;
    QString format;
    QString legendFormat;
};

QList<DashboardQuery> dashboardQueries(const QJsonObject &dashboard)
{
    QList<DashboardQuery> out;
    for (const QJsonValue &p : dashboard.value(QStringLiteral("panels")).toArray()) {
        const QJsonObject panel = p.toObject();
        for (const QJsonValue &t : panel.value(QStringLiteral("targets")).toArray()) {
            const QJsonObject target = t.toObject();
            out.append({panel.value(QStringLiteral("title")).toString(),
                        panel.value(QStringLiteral("type")).toString(),
                        target.value(QStringLiteral("refId")).toString(),
                        target.value(QStringLiteral("expr")).toString(),
                        target.value(QStringLiteral("format")).toString(),
                        target.value(QStringLiteral("legendFormat")).toString()});
        }
    }
    return out;
}

// As Grafana's Prometheus data source puts a multi-value variable into a regex matcher: the
// regex's special characters escaped, the backslash doubled for PromQL's string.
QString grafanaRegexEscape(const QString &value)
{
    QString out;
    for (const QChar c : value) {
        if (QStringLiteral("\\^$.|?*+()[]{}").contains(c))
            out += QStringLiteral("\\\\");
        out += c;
    }
    return out;
}

// A query with the dashboard's variables replaced as Grafana replaces them: the chosen values
// (or the variable's "All" value), and $__rate_interval by a range holding several of the
// test's one-second scrapes. A variable the dashboard does not declare is left in, and named.
QString substituteVariables(QString expr, const QJsonObject &dashboard,
                            const QHash<QString, QString> &chosen, QStringList *unknown)
{
    QHash<QString, QString> values;
    for (const QJsonValue &v : dashboard.value(QStringLiteral("templating"))
                                   .toObject()
                                   .value(QStringLiteral("list"))
                                   .toArray()) {
        const QJsonObject var = v.toObject();
        const QString name = var.value(QStringLiteral("name")).toString();
        if (chosen.contains(name))
            values.insert(name, chosen.value(name));
        else if (var.value(QStringLiteral("includeAll")).toBool())
            values.insert(name, var.value(QStringLiteral("allValue")).toString());
    }
    for (const char *range : {"__rate_interval", "__interval", "__range"})
        values.insert(QLatin1String(range), QStringLiteral("1m"));
    static const QRegularExpression variable(
        QStringLiteral("\\$\\{(\\w+)\\}|\\$(\\w+)|\\[\\[(\\w+)\\]\\]"));
    QString out;
    qsizetype from = 0;
    for (auto it = variable.globalMatch(expr); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QString name = m.captured(1);
        if (name.isEmpty())
            name = m.captured(2);
        if (name.isEmpty())
            name = m.captured(3);
        out += expr.mid(from, m.capturedStart() - from);
        if (values.contains(name)) {
            out += values.value(name);
        } else {
            out += m.captured();
            unknown->append(name);
        }
        from = m.capturedEnd();
    }
    return out + expr.mid(from);
}

// The metric names a query reads.
QStringList metricNames(const QString &expr)
{
    static const QRegularExpression name(QStringLiteral("\\bbpflens_[a-z0-9_]+"));
    QStringList out;
    for (auto it = name.globalMatch(expr); it.hasNext();)
        out.append(it.next().captured());
    out.removeDuplicates();
    return out;
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
                       QStringLiteral("runqlat"), QStringLiteral("--probe"),
                       QStringLiteral("bitesize"), QStringLiteral("--probe"),
                       QStringLiteral("cachestat")});
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

        const QString data = work.filePath(QStringLiteral("data"));
        QString failed = directWrites(data, N);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));

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

        // The Grafana dashboard against what Prometheus stored (no Grafana here): every query of
        // every panel, its variables replaced as Grafana does for this host and disk, is valid
        // PromQL, and the panels of the probes recorded here show series. More writes while
        // Prometheus scrapes give the block heatmap a rate to show.
        failed = directWrites(data, N);
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QFile dashboardFile(
            QStringLiteral(BPFLENS_SOURCE_DIR "/docs/grafana/bpflens-dashboard.json"));
        QVERIFY(dashboardFile.open(QIODevice::ReadOnly));
        QJsonParseError parseError;
        const QJsonObject dashboard =
            QJsonDocument::fromJson(dashboardFile.readAll(), &parseError).object();
        QVERIFY2(!dashboard.isEmpty(), qPrintable(parseError.errorString()));
        const QString instance = QStringLiteral("127.0.0.1:%1").arg(port);
        const QHash<QString, QString> chosen{
            {QStringLiteral("instance"), grafanaRegexEscape(instance)},
            {QStringLiteral("disk"), grafanaRegexEscape(disk)}};
        const QList<DashboardQuery> queries = dashboardQueries(dashboard);
        QVERIFY(queries.size() >= 9);
        // What serve emits here: the recorded probes' families and every probe's statistics.
        const QStringList recorded{QStringLiteral("block"), QStringLiteral("runqlat"),
                                   QStringLiteral("bitesize"), QStringLiteral("cachestat"),
                                   QStringLiteral("probe")};
        const auto isRecorded = [&](const QString &metric) {
            return recorded.contains(metric.section(QLatin1Char('_'), 1, 1));
        };
        struct Answer
        {
            QString status;
            QJsonArray result;
            QByteArray body;
        };
        const auto ask = [&](const QByteArray &path) {
            Answer a;
            a.body = http(promPort, "GET", path).body;
            const QJsonObject o = QJsonDocument::fromJson(a.body).object();
            a.status = o.value(QStringLiteral("status")).toString();
            const QJsonValue data = o.value(QStringLiteral("data"));
            a.result = data.isArray() ? data.toArray()
                                      : data.toObject().value(QStringLiteral("result")).toArray();
            return a;
        };
        QList<QString> exprs;
        for (const DashboardQuery &q : queries) {
            QStringList unknown;
            exprs.append(substituteVariables(q.expr, dashboard, chosen, &unknown));
            QVERIFY2(unknown.isEmpty(),
                     qPrintable(q.panel + QStringLiteral(": undeclared variable $") +
                                unknown.join(QStringLiteral(", $"))));
            QVERIFY2(!metricNames(q.expr).isEmpty(), qPrintable(q.panel));
        }
        // The block heatmap's +Inf bucket: the rate of every request of the disk.
        const auto blockRate = [](const QJsonArray &result) {
            for (const QJsonValue &v : result) {
                const QJsonObject o = v.toObject();
                if (o.value(QStringLiteral("metric"))
                        .toObject()
                        .value(QStringLiteral("le"))
                        .toString() == QLatin1String("+Inf"))
                    return o.value(QStringLiteral("value")).toArray().at(1).toString().toDouble();
            }
            return 0.0;
        };
        QList<Answer> answers;
        t.restart();
        for (bool done = false; !done && t.elapsed() < 60000;) {
            QThread::msleep(500);
            answers.clear();
            done = true;
            for (int i = 0; i < queries.size(); ++i) {
                answers.append(ask("/api/v1/query?query=" + QUrl::toPercentEncoding(exprs[i])));
                const QStringList names = metricNames(queries[i].expr);
                if (std::any_of(names.cbegin(), names.cend(), isRecorded) &&
                    answers.last().result.isEmpty())
                    done = false;
                if (queries[i].panelType == QLatin1String("heatmap") &&
                    queries[i].expr.contains(QLatin1String("bpflens_block_")) &&
                    !(blockRate(answers.last().result) > 0))
                    done = false;
            }
        }
        bool sawBlockHeatmap = false;
        for (int i = 0; i < queries.size(); ++i) {
            const DashboardQuery &q = queries[i];
            const Answer &a = answers[i];
            const QString what = q.panel + QLatin1Char('/') + q.refId + QStringLiteral(": ") +
                                 exprs[i] + QStringLiteral("\n") + QString::fromUtf8(a.body);
            QVERIFY2(a.status == QLatin1String("success"), qPrintable(what));
            const QStringList names = metricNames(q.expr);
            if (std::any_of(names.cbegin(), names.cend(), isRecorded))
                QVERIFY2(!a.result.isEmpty(), qPrintable(what));
            if (q.panelType != QLatin1String("heatmap"))
                continue;
            // Grafana draws the buckets as they are: the cumulative _bucket series by le.
            QCOMPARE(q.format, QStringLiteral("heatmap"));
            QCOMPARE(q.legendFormat, QStringLiteral("{{le}}"));
            QVERIFY2(names.size() == 1 && names[0].endsWith(QLatin1String("_bucket")),
                     qPrintable(what));
            QVERIFY2(q.expr.contains(QRegularExpression(QStringLiteral("\\bby \\(le\\)"))),
                     qPrintable(what));
            for (const QJsonValue &v : a.result) {
                const QJsonObject metric = v.toObject().value(QStringLiteral("metric")).toObject();
                QVERIFY2(metric.keys() == QStringList{QStringLiteral("le")}, qPrintable(what));
            }
            if (q.expr.contains(QLatin1String("bpflens_block_"))) {
                sawBlockHeatmap = true;
                QVERIFY2(blockRate(a.result) > 0, qPrintable(what));
            }
        }
        QVERIFY(sawBlockHeatmap);
        for (const QJsonValue &p : dashboard.value(QStringLiteral("panels")).toArray()) {
            const QJsonObject panel = p.toObject();
            if (panel.value(QStringLiteral("type")).toString() == QLatin1String("heatmap"))
                QVERIFY2(!panel.value(QStringLiteral("options"))
                              .toObject()
                              .value(QStringLiteral("calculate"))
                              .toBool(true),
                         qPrintable(panel.value(QStringLiteral("title")).toString()));
        }
        // The selectors' own queries: label_values(metric, label) list this host and disk.
        static const QRegularExpression labelValues(
            QStringLiteral("^label_values\\((\\w+),\\s*(\\w+)\\)$"));
        int selectors = 0;
        for (const QJsonValue &v : dashboard.value(QStringLiteral("templating"))
                                       .toObject()
                                       .value(QStringLiteral("list"))
                                       .toArray()) {
            const QJsonObject var = v.toObject();
            if (var.value(QStringLiteral("type")).toString() != QLatin1String("query"))
                continue;
            const QString definition = var.value(QStringLiteral("definition")).toString();
            const QRegularExpressionMatch m = labelValues.match(definition);
            QVERIFY2(m.hasMatch(), qPrintable(definition));
            const Answer a = ask("/api/v1/label/" + m.captured(2).toUtf8() +
                                 "/values?match%5B%5D=" + QUrl::toPercentEncoding(m.captured(1)));
            QVERIFY2(a.status == QLatin1String("success"), a.body.constData());
            const QString name = var.value(QStringLiteral("name")).toString();
            QStringList listed;
            for (const QJsonValue &value : a.result)
                listed.append(value.toString());
            if (name == QLatin1String("instance"))
                QVERIFY2(listed.contains(instance), a.body.constData());
            else if (name == QLatin1String("disk"))
                QVERIFY2(listed.contains(disk), a.body.constData());
            else if (isRecorded(m.captured(1)))
                QVERIFY2(!listed.isEmpty(), a.body.constData());
            ++selectors;
        }
        QCOMPARE(selectors, 3);

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
