#include "cli/serve.h"

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/outputfile.h"
#include "cli/probespec.h"
#include "cli/pyroscopepush.h"
#include "cli/recordstream.h"
#include "cli/servepprof.h"
#include "client/helperclient.h"
#include "client/probetargets.h"
#include "core/openmetrics.h"
#include "core/probecatalog.h"
#include "core/protocol.h"
#include "dbusapi/helperapi.h"
#include "helper/engine.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDBusConnection>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QMutex>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTextStream>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <map>
#include <thread>
#include <unistd.h>

namespace bpflens::cli {

namespace {

std::atomic<bool> g_stop{false};

void requestStop(int)
{
    g_stop = true;
}

// A request line and headers fit in this; Prometheus sends a few hundred bytes.
constexpr qsizetype MaxRequestBytes = 8 * 1024;
// Whoever opens a connection and says nothing is dropped after this.
constexpr int RequestTimeoutMs = 10 * 1000;
// More scrapers than this at once is a misconfiguration or an attack: the rest are refused.
constexpr int MaxConnections = 32;

// GET and HEAD of /metrics over HTTP/1.x, one request per connection (Connection: close):
// what Prometheus needs, and little enough to get right.
class MetricsServer : public QObject
{
public:
    MetricsServer(const MetricsAggregator &metrics, QMutex &lock)
        : m_metrics(metrics)
        , m_lock(lock)
    {
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] { accept(); });
    }

    ~MetricsServer()
    {
        // The profiles being recorded end at once (their recorders poll this) and answer no one.
        m_stopProfiles = true;
        for (auto &[id, thread] : m_profileThreads)
            thread.join();
    }
    // Where the pprof endpoints record: through the helper, or in this process (root).
    void setViaHelper(bool viaHelper) { m_viaHelper = viaHelper; }

    bool listen(const QHostAddress &address, quint16 port)
    {
        return m_server.listen(address, port);
    }
    QString errorString() const { return m_server.errorString(); }
    quint16 port() const { return m_server.serverPort(); }

private:
    void accept()
    {
        while (QTcpSocket *socket = m_server.nextPendingConnection()) {
            if (m_open >= MaxConnections) {
                socket->abort();
                socket->deleteLater();
                continue;
            }
            // Counted by the socket's lifetime: an aborted socket may never say disconnected.
            ++m_open;
            QObject::connect(socket, &QObject::destroyed, this, [this] { --m_open; });
            auto *timer = new QTimer(socket);
            timer->setSingleShot(true);
            QObject::connect(timer, &QTimer::timeout, socket, [socket] {
                socket->abort();
                socket->deleteLater();
            });
            timer->start(RequestTimeoutMs);
            QObject::connect(socket, &QTcpSocket::readyRead, socket,
                             [this, socket] { readRequest(socket); });
            QObject::connect(socket, &QTcpSocket::disconnected, socket,
                             [socket] { socket->deleteLater(); });
        }
    }

    void respond(QTcpSocket *socket, const QByteArray &status, const QByteArray &contentType,
                 const QByteArray &body, bool head, const QByteArray &extraHeaders = {})
    {
        QByteArray r = "HTTP/1.1 " + status + "\r\nContent-Type: " + contentType +
                       "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n" +
                       extraHeaders + "Connection: close\r\n\r\n";
        if (!head)
            r += body;
        socket->setProperty("answered", true);
        socket->write(r);
        socket->disconnectFromHost();
    }

    void readRequest(QTcpSocket *socket)
    {
        if (socket->property("answered").toBool()) {
            socket->readAll();
            return;
        }
        QByteArray request = socket->property("request").toByteArray();
        request += socket->read(MaxRequestBytes + 1 - request.size());
        const qsizetype end = request.indexOf("\r\n\r\n");
        if (end < 0) {
            if (request.size() > MaxRequestBytes)
                respond(socket, "431 Request Header Fields Too Large", "text/plain",
                        "request too large\n", false);
            else
                socket->setProperty("request", request);
            return;
        }
        const QList<QByteArray> lines = request.left(end).split('\n');
        const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
        if (requestLine.size() != 3 || !requestLine[2].startsWith("HTTP/1.")) {
            respond(socket, "400 Bad Request", "text/plain", "bad request\n", false);
            return;
        }
        const QByteArray &method = requestLine[0];
        const bool head = method == "HEAD";
        if (method != "GET" && !head) {
            respond(socket, "405 Method Not Allowed", "text/plain", "only GET and HEAD\n", false);
            return;
        }
        PprofRequest profile;
        QString why;
        switch (parsePprofRequest(requestLine[1], &profile, &why)) {
        case PprofRoute::BadRequest:
            respond(socket, "400 Bad Request", "text/plain; charset=utf-8", why.toUtf8() + '\n',
                    head, "X-Content-Type-Options: nosniff\r\n");
            return;
        case PprofRoute::Ok:
            startProfile(socket, profile, head);
            return;
        case PprofRoute::NotPprof:
            break;
        }
        QByteArray path = requestLine[1];
        if (const qsizetype q = path.indexOf('?'); q >= 0)
            path.truncate(q);
        if (path != "/metrics") {
            respond(socket, "404 Not Found", "text/plain",
                    "not found: try /metrics, /debug/pprof/profile, /debug/pprof/offcpu or "
                    "/debug/pprof/heap\n",
                    head);
            return;
        }
        QByteArray accept;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines[i].trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon > 0 && line.left(colon).trimmed().toLower() == "accept")
                accept = line.mid(colon + 1).trimmed();
        }
        const auto format = MetricsAggregator::negotiate(accept);
        QByteArray body;
        {
            // Held only while rendering what is aggregated already: the drain reads the kernel
            // or the helper's stream without it, and takes it only to add a decoded batch.
            QMutexLocker locked(&m_lock);
            body = m_metrics.render(format);
        }
        respond(socket, "200 OK", MetricsAggregator::contentType(format), body, head);
    }

    // GET /debug/pprof/profile, /offcpu or /heap: records the probe on a thread of its own for the
    // request's seconds and answers with the profile as Go's net/http/pprof does; at most
    // MaxConcurrentProfiles at once, the rest get 429.
    void startProfile(QTcpSocket *socket, const PprofRequest &request, bool head)
    {
        const QByteArray nosniff = "X-Content-Type-Options: nosniff\r\n";
        if (m_profiling >= MaxConcurrentProfiles) {
            respond(socket, "429 Too Many Requests", "text/plain; charset=utf-8",
                    QByteArray("too many profiles at once: at most ") +
                        QByteArray::number(MaxConcurrentProfiles) + " are recorded together\n",
                    head, nosniff);
            return;
        }
        // The request is complete; the answer takes the profile's seconds.
        for (QTimer *t : socket->findChildren<QTimer *>())
            t->stop();
        socket->setProperty("answered", true);
        ++m_profiling;
        const quint64 id = ++m_nextProfile;
        const QByteArray busName = "bpflens-cli-serve-pprof-" + QByteArray::number(id);
        QPointer<QTcpSocket> client(socket);
        m_profileThreads.emplace(
            id, std::thread([this, id, request, busName, client, head, nosniff] {
                QByteArray body;
                QString error;
                const bool ok =
                    recordPprof(request, m_viaHelper, busName, m_stopProfiles, &body, &error);
                if (m_stopProfiles)
                    return;
                QMetaObject::invokeMethod(
                    this,
                    [this, id, ok, body, error, client, head, nosniff] {
                        --m_profiling;
                        if (auto it = m_profileThreads.find(id); it != m_profileThreads.end()) {
                            it->second.join();
                            m_profileThreads.erase(it);
                        }
                        if (!client)
                            return;
                        if (ok)
                            respond(client, "200 OK", "application/octet-stream", body, head,
                                    "Content-Disposition: attachment; filename=\"profile\"\r\n" +
                                        nosniff);
                        else
                            respond(client, "500 Internal Server Error",
                                    "text/plain; charset=utf-8",
                                    "could not record the profile: " + error.toUtf8() + '\n', head,
                                    nosniff);
                    },
                    Qt::QueuedConnection);
            }));
    }

    const MetricsAggregator &m_metrics;
    QMutex &m_lock;
    bool m_viaHelper = false;
    int m_profiling = 0;
    quint64 m_nextProfile = 0;
    std::atomic<bool> m_stopProfiles{false};
    std::map<quint64, std::thread> m_profileThreads;
    int m_open = 0; // before m_server: its sockets report their end while it is destroyed
    QTcpServer m_server;
};

bool parseListen(const QString &text, QHostAddress *address, quint16 *port)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    if (colon < 0)
        return false;
    QString host = text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    bool ok = false;
    const uint p = text.mid(colon + 1).toUInt(&ok);
    if (!ok || p > 65535)
        return false;
    *port = quint16(p);
    if (host.isEmpty() || host == QLatin1String("*")) {
        *address = QHostAddress::Any;
        return true;
    }
    if (host == QLatin1String("localhost")) {
        *address = QHostAddress::LocalHost;
        return true;
    }
    return address->setAddress(host);
}

} // namespace

int serve(const QStringList &args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Runs probes until SIGINT/SIGTERM and serves their histograms and "
                       "counters on http://ADDR:PORT/metrics for Prometheus (OpenMetrics), and "
                       "CPU profiles on /debug/pprof/profile?seconds=N and "
                       "/debug/pprof/offcpu?seconds=N, and heap profiles on "
                       "/debug/pprof/heap?seconds=N&pid=PID, for pprof, Parca and Pyroscope."));
    parser.addHelpOption();
    parser.addOption({QStringLiteral("probe"),
                      QStringLiteral("A probe to run, with options: block:perDisk, runqlat. "
                                     "Repeatable."),
                      QStringLiteral("ID[:opt=value,...]")});
    parser.addOption({QStringLiteral("listen"),
                      QStringLiteral("Address and port to serve on (default 127.0.0.1:9435)."),
                      QStringLiteral("addr:port"), QStringLiteral("127.0.0.1:9435")});
    parser.addOption({QStringLiteral("max-series"),
                      QStringLiteral("Label sets per metric; further keys are counted under "
                                     "\"other\" (default %1).")
                          .arg(MetricsAggregator::DefaultMaxSeries),
                      QStringLiteral("n"), QString::number(MetricsAggregator::DefaultMaxSeries)});
    parser.addOption({QStringLiteral("max-workloads"),
                      QStringLiteral("Container and unit label sets of bpflens_workload_events "
                                     "and bpflens_oom_kills; later ones are counted under "
                                     "\"other\" (default %1).")
                          .arg(MetricsAggregator::DefaultMaxWorkloads),
                      QStringLiteral("n"),
                      QString::number(MetricsAggregator::DefaultMaxWorkloads)});
    parser.addOption(
        {QStringLiteral("direct"),
         QStringLiteral(
             "Run the probes in this process (root only) instead of through the helper.")});
    addPyroscopeOptions(parser);
    if (!parser.parse(QStringList{QStringLiteral("bpflens-cli serve")} + args))
        return fail(QStringLiteral("serve: %1").arg(parser.errorText()), Usage);
    if (parser.isSet(QStringLiteral("help"))) {
        standardOutput() << parser.helpText();
        return Ok;
    }
    if (!parser.positionalArguments().isEmpty())
        return fail(QStringLiteral("serve: unexpected argument %1")
                        .arg(parser.positionalArguments().first()),
                    Usage);

    QList<ProbeConfig> requests;
    for (const QString &spec : parser.values(QStringLiteral("probe"))) {
        QString error;
        const auto config = parseProbeSpec(spec, &error);
        if (!config)
            return fail(error, Usage);
        requests.append(*config);
    }
    if (requests.isEmpty())
        return fail(QStringLiteral("nothing to serve: name at least one --probe (see "
                                   "bpflens-cli probes)"),
                    Usage);
    for (ProbeConfig &r : requests) {
        QVariantMap normalized;
        QString error;
        if (!ProbeCatalog::validate(r.id, r.options, &normalized, &error))
            return fail(error, Usage);
    }
    {
        QString error;
        if (!resolveProbeTargets(requests, &error))
            return fail(error, Usage);
    }
    std::optional<PyroscopeConfig> pyroscopeConfig;
    {
        QString error;
        if (!pyroscopeConfigFrom(parser, requests, &pyroscopeConfig, &error))
            return fail(error, Usage);
    }
    bool ok = false;
    const int maxSeries = parser.value(QStringLiteral("max-series")).toInt(&ok);
    if (!ok || maxSeries < 2 || maxSeries > 1000000)
        return fail(QStringLiteral("--max-series %1: expected a number from 2 to 1000000")
                        .arg(parser.value(QStringLiteral("max-series")).left(32)),
                    Usage);
    const int maxWorkloads = parser.value(QStringLiteral("max-workloads")).toInt(&ok);
    if (!ok || maxWorkloads < 2 || maxWorkloads > 100000)
        return fail(QStringLiteral("--max-workloads %1: expected a number from 2 to 100000")
                        .arg(parser.value(QStringLiteral("max-workloads")).left(32)),
                    Usage);
    QHostAddress address;
    quint16 port = 0;
    if (!parseListen(parser.value(QStringLiteral("listen")), &address, &port))
        return fail(QStringLiteral("--listen %1: expected ADDRESS:PORT, e.g. 127.0.0.1:9435 or "
                                   "[::1]:9435")
                        .arg(parser.value(QStringLiteral("listen")).left(64)),
                    Usage);

    MetricsAggregator metrics(maxSeries, maxWorkloads);
    QMutex metricsLock;
    MetricsServer server(metrics, metricsLock);
    // Before any probe is attached: a port that is taken fails fast and leaves nothing behind.
    if (!server.listen(address, port))
        return fail(QStringLiteral("cannot listen on %1: %2")
                        .arg(parser.value(QStringLiteral("listen")), server.errorString()));

    g_stop = false;
    struct sigaction sa
    {
    };
    sa.sa_handler = requestStop;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);

    const bool direct = parser.isSet(QStringLiteral("direct"));
    helperapi::registerTypes();
    const QString busName = QStringLiteral("bpflens-cli-serve");
    QDBusConnection bus = QDBusConnection::connectToBus(QDBusConnection::SystemBus, busName);
    const auto disconnectBus = qScopeGuard([&] { QDBusConnection::disconnectFromBus(busName); });
    HelperClient helper(bus);
    QString unreachable;
    // As root the probes run here, as record --direct does; through the helper otherwise.
    const bool viaHelper = !direct && geteuid() != 0 && helper.isReachable(&unreachable);
    if (!viaHelper && geteuid() != 0)
        return fail(direct ? QStringLiteral("--direct runs the probes in this process, which "
                                            "needs root")
                           : QStringLiteral("serving needs root or the BPF Lens helper, which is "
                                            "not reachable (%1)")
                                 .arg(unreachable),
                    NotAuthorized);

    server.setViaHelper(viaHelper);
    QString error;
    int status = Ok;
    Engine engine;
    HelperClient::Session session;
    // --pyroscope: the profile and offcpu probes' samples pushed from a thread of its own.
    std::optional<PyroscopePusher> pyroscope;
    if (pyroscopeConfig)
        pyroscope.emplace(*pyroscopeConfig);
    if (!viaHelper) {
        if (!engine.start(requests, &error))
            return fail(error);
        metrics.setProbes(requests);
        if (pyroscope)
            pyroscope->start(sessionInfoForThisHost(requests));
    } else {
        if (const int status =
                startHelperSession(helper, requests, &session, QStringLiteral("probes")))
            return status;
    }

    // The drain has its own thread so that a scrape never waits for it: reading ring buffers
    // or the helper's stream and decoding batches can take long under a flood of events, and
    // the scrape only needs the metrics lock for as long as add() or render() holds it.
    // Test only: a pause in every drain step stands in for such a flood.
    const int drainDelayMs = qEnvironmentVariableIntValue("BPFLENS_TEST_SERVE_DRAIN_DELAY_MS");
    std::atomic<bool> stopDrain{false};
    std::atomic<bool> drainEnded{false};
    bool streamEnded = false; // written by the drain, read after join()
    std::thread drain([&] {
        RecordBatch batch;
        if (!viaHelper) {
            while (!stopDrain) {
                // Waits in the kernel for at most this long, so stopDrain is seen promptly.
                engine.poll(100, batch);
                if (drainDelayMs > 0)
                    std::this_thread::sleep_for(std::chrono::milliseconds(drainDelayMs));
                QMutexLocker locked(&metricsLock);
                metrics.add(batch);
                locked.unlock();
                if (pyroscope)
                    pyroscope->add(batch);
                batch.clear();
            }
            return;
        }
        StreamReader reader;
        while (!stopDrain) {
            QString broke;
            const HelperStream state = readHelperStream(
                session.fd, reader, 100,
                [&](StreamMessage &m) {
                    if (drainDelayMs > 0)
                        std::this_thread::sleep_for(std::chrono::milliseconds(drainDelayMs));
                    if (m.type == StreamFrameType::Hello) {
                        if (pyroscope)
                            pyroscope->start(m.info);
                        QMutexLocker locked(&metricsLock);
                        metrics.setProbes(m.info.probes);
                    } else if (m.type == StreamFrameType::Batch) {
                        if (pyroscope)
                            pyroscope->add(m.batch);
                        QMutexLocker locked(&metricsLock);
                        metrics.add(m.batch);
                    } else if (m.end.reason != StreamEndReason::Stopped) {
                        error =
                            QStringLiteral("the helper ended the probes: %1").arg(m.end.message);
                        status = Failure;
                    }
                },
                &broke);
            if (state == HelperStream::Open)
                continue;
            if (state == HelperStream::Broken) {
                error = broke;
                status = Failure;
            }
            streamEnded = true;
            drainEnded = true;
            return;
        }
    });
    QTimer stopCheck;
    QObject::connect(&stopCheck, &QTimer::timeout, [&] {
        if (g_stop || drainEnded)
            QCoreApplication::exit();
    });
    stopCheck.start(100);
    QTextStream(stderr) << QStringLiteral("Serving http://%1:%2/metrics (Ctrl-C stops)\n")
                               .arg(address.protocol() == QAbstractSocket::IPv6Protocol
                                        ? QStringLiteral("[%1]").arg(address.toString())
                                        : address.toString())
                               .arg(server.port());
    QCoreApplication::exec();
    stopDrain = true;
    drain.join();
    if (!viaHelper) {
        RecordBatch batch;
        engine.stop(&batch);
        metrics.add(batch);
        if (pyroscope)
            pyroscope->add(batch);
    } else {
        if (!streamEnded)
            helper.stopSession(session.path, nullptr);
        ::close(session.fd);
    }
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (pyroscope) {
        pyroscope->finish();
        QTextStream(stderr) << pyroscope->summary() << '\n';
    }
    if (status != Ok)
        return fail(error, status);
    return Ok;
}

} // namespace bpflens::cli
