#include "cli/pyroscopepush.h"

#include "cli/probespec.h"
#include "core/sessionstore.h"

#include "core/pprofexport.h"

#include <QDateTime>
#include <QMutex>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QRegularExpression>
#include <QSemaphore>
#include <QSet>
#include <QSysInfo>
#include <QTextStream>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <deque>
#include <limits>

namespace bpflens::cli {

namespace {

// Profiles waiting while the server is slow or away; the oldest is dropped beyond this.
constexpr qsizetype MaxQueued = 8;
// One request: connecting, sending and the answer.
constexpr int RequestTimeoutMs = 10000;

const QLatin1String ProfileProbe(EventTraits<CpuSampleEvent>::probeId);
const QLatin1String OffCpuProbe(EventTraits<OffCpuEvent>::probeId);

bool hasProbe(const QList<ProbeConfig> &probes, QLatin1String id)
{
    return std::any_of(probes.begin(), probes.end(),
                       [&](const ProbeConfig &p) { return p.id == id; });
}

// A label value as Pyroscope's name syntax holds it: app{key=value,...} has no quoting, so the
// characters that delimit it become '_'.
QString labelValue(QString value)
{
    static const QRegularExpression delimiters(QStringLiteral("[{}=,\\s\"]"));
    value.replace(delimiters, QStringLiteral("_"));
    return value.isEmpty() ? QStringLiteral("unknown") : value;
}

} // namespace

void addPyroscopeOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("pyroscope"),
                      QStringLiteral("Push the CPU profile (profile probe) and the off-CPU profile "
                                     "(offcpu probe) as pprof to Grafana Pyroscope's /ingest at "
                                     "this URL every interval (http://pyroscope:4040)."),
                      QStringLiteral("url")});
    parser.addOption({QStringLiteral("pyroscope-app"),
                      QStringLiteral("The application name in Pyroscope: NAME.cpu and NAME.offcpu "
                                     "(default bpflens)."),
                      QStringLiteral("name"), QStringLiteral("bpflens")});
    parser.addOption({QStringLiteral("pyroscope-interval"),
                      QStringLiteral("How often to push (default 15s; 1s to 1h)."),
                      QStringLiteral("time"), QStringLiteral("15s")});
}

bool pyroscopeConfigFrom(const QCommandLineParser &parser, const QList<ProbeConfig> &probes,
                         std::optional<PyroscopeConfig> *config, QString *error)
{
    config->reset();
    if (!parser.isSet(QStringLiteral("pyroscope"))) {
        for (const char *other : {"pyroscope-app", "pyroscope-interval"})
            if (parser.isSet(QString::fromLatin1(other))) {
                *error = QStringLiteral("--%1 goes with --pyroscope").arg(QLatin1String(other));
                return false;
            }
        return true;
    }
    PyroscopeConfig c;
    const QString text = parser.value(QStringLiteral("pyroscope"));
    c.url = QUrl(text, QUrl::StrictMode);
    const QString scheme = c.url.scheme().toLower();
    if (!c.url.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")) ||
        c.url.host().isEmpty() || c.url.hasQuery() || c.url.hasFragment() ||
        !c.url.userInfo().isEmpty()) {
        *error = QStringLiteral("--pyroscope %1: expected the server's http:// or https:// URL, "
                                "e.g. http://pyroscope:4040")
                     .arg(text.left(128));
        return false;
    }
    c.app = parser.value(QStringLiteral("pyroscope-app"));
    static const QRegularExpression appName(QStringLiteral("^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$"));
    if (!appName.match(c.app).hasMatch()) {
        *error = QStringLiteral("--pyroscope-app %1: expected letters, digits, '.', '_' and '-' "
                                "(at most 100)")
                     .arg(c.app.left(128));
        return false;
    }
    QString why;
    const auto interval = parseDuration(parser.value(QStringLiteral("pyroscope-interval")), &why);
    if (!interval || *interval < 1'000'000'000ull || *interval > 3600'000'000'000ull) {
        *error = QStringLiteral("--pyroscope-interval %1: expected a time from 1s to 1h")
                     .arg(parser.value(QStringLiteral("pyroscope-interval")).left(32));
        return false;
    }
    c.intervalMs = qint64(*interval / 1'000'000ull);
    if (!hasProbe(probes, ProfileProbe) && !hasProbe(probes, OffCpuProbe)) {
        *error = QStringLiteral("--pyroscope pushes CPU profiles: add --probe profile (on-CPU "
                                "samples) or --probe offcpu (off-CPU waits)");
        return false;
    }
    *config = c;
    return true;
}

// The pusher's half on its own thread. add() and setInfo() come from the recording's thread and
// only touch m_lock's members.
class PyroscopeWorker : public QObject
{
public:
    explicit PyroscopeWorker(const PyroscopeConfig &config)
        : m_config(config)
    {
    }

    // ---- any thread
    void setInfo(const SessionInfo &info)
    {
        QMutexLocker locked(&m_lock);
        m_info = info;
    }
    void add(const RecordBatch &batch)
    {
        const auto &cpu = batch.events<CpuSampleEvent>();
        const auto &off = batch.events<OffCpuEvent>();
        if (batch.frames.isEmpty() && batch.stacks.isEmpty() && cpu.isEmpty() && off.isEmpty())
            return;
        QMutexLocker locked(&m_lock);
        m_pending.push_back({batch.frames, batch.stacks, cpu, off});
    }
    std::atomic<int> pushed{0};
    std::atomic<int> failed{0};
    QSemaphore drained;

    // ---- the worker's thread
    void begin()
    {
        m_nam = new QNetworkAccessManager(this);
        m_tick = new QTimer(this);
        // Never early (a coarse timer may fire 5 % early): consecutive intervals start in
        // different seconds, so no two pushes of a kind have the same from.
        m_tick->setTimerType(Qt::PreciseTimer);
        QObject::connect(m_tick, &QTimer::timeout, this, [this] { takeInterval(); });
        m_tick->start(int(m_config.intervalMs));
        m_retry = new QTimer(this);
        m_retry->setSingleShot(true);
        QObject::connect(m_retry, &QTimer::timeout, this, [this] { sendNext(); });
        m_intervalStartMs = QDateTime::currentMSecsSinceEpoch();
    }
    // The last interval goes now; drained is released once nothing is left or at the deadline.
    void finish()
    {
        m_finishing = true;
        m_tick->stop();
        takeInterval();
        auto *deadline = new QTimer(this);
        deadline->setSingleShot(true);
        QObject::connect(deadline, &QTimer::timeout, this, [this] { giveUp(); });
        deadline->start(m_config.finishWaitMs);
        checkDrained();
    }
    void shutdown()
    {
        if (m_reply) {
            m_reply->abort();
            delete m_reply;
        }
        // Everything this thread made (the manager, the timers) goes on this thread.
        qDeleteAll(children());
        m_nam = nullptr;
        m_tick = m_retry = nullptr;
    }

private:
    struct Piece
    {
        QList<FrameDefinition> frames;
        QList<StackDefinition> stacks;
        QList<CpuSampleEvent> cpu;
        QList<OffCpuEvent> off;
    };
    struct Push
    {
        PprofKind kind;
        QByteArray body;
        qint64 from = 0;  // unix seconds
        qint64 until = 0; // unix seconds, > from
        int tries = 0;
    };

    void say(const QString &message)
    {
        if (m_said.contains(message))
            return;
        m_said.insert(message);
        QTextStream(stderr) << "bpflens-cli: " << message << '\n';
    }

    // What arrived since the last push becomes one profile per kind the recording has.
    void takeInterval()
    {
        const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
        std::deque<Piece> pieces;
        SessionInfo info;
        {
            QMutexLocker locked(&m_lock);
            pieces.swap(m_pending);
            info = m_info;
        }
        m_data.events.clear();
        quint64 first = std::numeric_limits<quint64>::max(), last = 0;
        for (Piece &p : pieces) {
            RecordBatch definitions;
            definitions.frames = std::move(p.frames);
            definitions.stacks = std::move(p.stacks);
            QString error;
            if (!m_stackError && !m_data.stacks.addDefinitions(definitions, &error)) {
                // The stream's ids are broken: nothing sensible can be pushed any more.
                m_stackError = true;
                say(QStringLiteral("pushing to Pyroscope stopped: %1").arg(error));
            }
            for (const CpuSampleEvent &e : std::as_const(p.cpu)) {
                m_data.events.append(e);
                first = std::min(first, e.timeNs);
                last = std::max(last, e.timeNs);
            }
            for (const OffCpuEvent &e : std::as_const(p.off)) {
                m_data.events.append(e);
                first = std::min(first, e.timeNs);
                last = std::max(last, e.timeNs);
            }
        }
        const qint64 fromMs = m_intervalStartMs;
        m_intervalStartMs = nowMs;
        if (m_stackError || first > last)
            return;
        // The events' own clock (the recording host's CLOCK_MONOTONIC) only bounds the range;
        // the interval's wall-clock times say when.
        m_data.info = info;
        m_data.info.startMonotonicNs = first;
        m_data.info.endMonotonicNs = last + 1;
        m_data.info.startWall = QDateTime::fromMSecsSinceEpoch(fromMs, Qt::UTC);
        const qint64 from = fromMs / 1000;
        const qint64 until = std::max(from + 1, (nowMs + 999) / 1000);
        for (const PprofKind kind : {PprofKind::OnCpu, PprofKind::OffCpu}) {
            const EventType type =
                kind == PprofKind::OnCpu ? EventType::CpuSample : EventType::OffCpu;
            if (!m_data.events.count(type))
                continue; // nothing of this kind in the interval: nothing to push
            PprofOptions options;
            options.kind = kind;
            options.comments << QStringLiteral("bpflens-cli, pushed to Pyroscope every %1 s")
                                    .arg(double(m_config.intervalMs) / 1000.0);
            QByteArray proto, body;
            QString error;
            if (!PprofExport::encode(m_data, options, &proto, &error) ||
                !PprofExport::gzip(proto, &body, &error)) {
                ++failed;
                say(QStringLiteral("cannot make the profile for Pyroscope: %1").arg(error));
                continue;
            }
            m_queue.push_back({kind, body, from, until, 0});
            if (qsizetype(m_queue.size()) > MaxQueued) {
                m_queue.pop_front();
                ++failed;
                say(QStringLiteral("Pyroscope at %1 takes profiles slower than they are made: "
                                   "the oldest waiting ones are dropped")
                        .arg(m_config.url.toDisplayString()));
            }
        }
        m_data.events.clear();
        sendNext();
    }

    QUrl ingestUrl(const Push &p) const
    {
        QUrl url = m_config.url;
        QString path = url.path();
        while (path.endsWith(QLatin1Char('/')))
            path.chop(1);
        url.setPath(path + QStringLiteral("/ingest"));
        const bool onCpu = p.kind == PprofKind::OnCpu;
        const QString host =
            m_data.info.host.isEmpty() ? QSysInfo::machineHostName() : m_data.info.host;
        const QString name =
            QStringLiteral("%1.%2{hostname=%3}")
                .arg(m_config.app, onCpu ? QStringLiteral("cpu") : QStringLiteral("offcpu"),
                     labelValue(host));
        QByteArray query = "name=" + QUrl::toPercentEncoding(name) +
                           "&from=" + QByteArray::number(p.from) +
                           "&until=" + QByteArray::number(p.until) + "&format=pprof";
        // Off-CPU waits are not taken at a rate: Pyroscope's default stands, and the profile's
        // own sample types say what its values are.
        if (onCpu)
            query +=
                "&sampleRate=" + QByteArray::number(PprofExport::samplingFrequency(m_data.info));
        query += "&spyName=bpflens";
        url.setQuery(QString::fromLatin1(query), QUrl::StrictMode);
        return url;
    }

    void sendNext()
    {
        if (!m_nam || m_reply || m_queue.empty() || m_retry->isActive()) {
            checkDrained();
            return;
        }
        Push &p = m_queue.front();
        ++p.tries;
        QNetworkRequest request(ingestUrl(p));
        request.setHeader(QNetworkRequest::ContentTypeHeader,
                          QStringLiteral("application/octet-stream"));
        request.setHeader(QNetworkRequest::UserAgentHeader,
                          QStringLiteral("bpflens/%1").arg(QLatin1String(BPFLENS_VERSION)));
        request.setTransferTimeout(RequestTimeoutMs);
        m_reply = m_nam->post(request, p.body);
        QObject::connect(m_reply, &QNetworkReply::finished, this, [this] { answered(); });
    }

    void answered()
    {
        QNetworkReply *reply = m_reply;
        m_reply = nullptr;
        reply->deleteLater();
        if (m_queue.empty())
            return; // given up on at the deadline
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const Push &p = m_queue.front();
        if (reply->error() == QNetworkReply::NoError && status >= 200 && status < 300) {
            ++pushed;
            m_queue.pop_front();
            sendNext();
            return;
        }
        const QString where = m_config.url.toDisplayString();
        QString why;
        // A server that answers: its status and the first line of what it said. One that
        // cannot be reached: why not.
        const bool refused = status > 0;
        if (refused) {
            const QByteArray body = reply->read(4096);
            const QString firstLine =
                QString::fromUtf8(
                    body.left(body.indexOf('\n') < 0 ? body.size() : body.indexOf('\n')))
                    .trimmed()
                    .left(200);
            why = QStringLiteral("HTTP %1 %2")
                      .arg(status)
                      .arg(reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString());
            if (!firstLine.isEmpty())
                why += QStringLiteral(": ") + firstLine;
        } else {
            why = reply->errorString();
        }
        // A server error, too many requests or no answer may pass; any other refusal (400: the
        // data, 401/403: authentication) will not, and is not tried again.
        const bool retry = !refused || status >= 500 || status == 429 || status == 408;
        if (retry && p.tries < PyroscopeTries) {
            say(refused ? QStringLiteral("Pyroscope at %1 refused the profile: %2 (trying again; "
                                         "the recording goes on)")
                              .arg(where, why)
                        : QStringLiteral("cannot reach Pyroscope at %1: %2 (trying again; the "
                                         "recording goes on)")
                              .arg(where, why));
            m_retry->start(1000 << (p.tries - 1));
            return;
        }
        ++failed;
        m_queue.pop_front();
        say(refused ? QStringLiteral("Pyroscope at %1 refused the profile: %2 (dropped after %3; "
                                     "the recording goes on)")
                          .arg(where, why,
                               p.tries == 1 ? QStringLiteral("1 try")
                                            : QStringLiteral("%1 tries").arg(p.tries))
                    : QStringLiteral("cannot reach Pyroscope at %1: %2 (dropped after %3 tries; "
                                     "the recording goes on)")
                          .arg(where, why)
                          .arg(p.tries));
        sendNext();
    }

    void checkDrained()
    {
        if (m_finishing && !m_released && !m_reply && m_queue.empty()) {
            m_released = true;
            drained.release();
        }
    }

    // The end of the recording waited long enough: what is left counts as failed.
    void giveUp()
    {
        if (m_released)
            return;
        failed += int(m_queue.size());
        m_queue.clear();
        m_retry->stop();
        if (m_reply)
            m_reply->abort(); // answered() finds the queue empty
        say(QStringLiteral("Pyroscope at %1 did not take the last profiles in %2 s")
                .arg(m_config.url.toDisplayString())
                .arg(m_config.finishWaitMs / 1000));
        checkDrained();
    }

    const PyroscopeConfig m_config;
    QMutex m_lock;
    std::deque<Piece> m_pending; // m_lock
    SessionInfo m_info;          // m_lock

    SessionData m_data; // the stacks so far; the interval's events
    bool m_stackError = false;
    qint64 m_intervalStartMs = 0;
    std::deque<Push> m_queue; // front: being sent or waiting for its retry
    QNetworkAccessManager *m_nam = nullptr;
    QTimer *m_tick = nullptr;
    QTimer *m_retry = nullptr;
    QNetworkReply *m_reply = nullptr;
    QSet<QString> m_said;
    bool m_finishing = false;
    bool m_released = false;
};

PyroscopePusher::PyroscopePusher(const PyroscopeConfig &config)
    : m_config(config)
    , m_thread(std::make_unique<QThread>())
    , m_worker(new PyroscopeWorker(config))
{
    m_thread->setObjectName(QStringLiteral("pyroscope"));
    m_worker->moveToThread(m_thread.get());
    m_thread->start();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->begin(); }, Qt::QueuedConnection);
}

PyroscopePusher::~PyroscopePusher()
{
    finish();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->shutdown(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
}

void PyroscopePusher::start(const SessionInfo &info)
{
    m_worker->setInfo(info);
}

void PyroscopePusher::add(const RecordBatch &batch)
{
    m_worker->add(batch);
}

void PyroscopePusher::finish()
{
    if (m_finished)
        return;
    m_finished = true;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->finish(); }, Qt::QueuedConnection);
    // The worker's own deadline releases it; this bound only guards against a stuck thread.
    m_worker->drained.tryAcquire(1, m_config.finishWaitMs + 5000);
}

int PyroscopePusher::pushed() const
{
    return m_worker->pushed;
}

int PyroscopePusher::failed() const
{
    return m_worker->failed;
}

QString PyroscopePusher::summary() const
{
    const int n = pushed(), m = failed();
    return QStringLiteral("Pyroscope %1: pushed %2 %3, %4 failed")
        .arg(m_config.url.toDisplayString())
        .arg(n)
        .arg(n == 1 ? QStringLiteral("profile") : QStringLiteral("profiles"))
        .arg(m);
}

} // namespace bpflens::cli
