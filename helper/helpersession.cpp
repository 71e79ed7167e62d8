#include "helper/helpersession.h"

#include "core/sessioninfo.h"
#include "helper/engine.h"

#include <QMetaObject>
#include <QPointer>

#include <sys/socket.h>
#include <unistd.h>

namespace bpflens {

namespace {

// Once stopped, how long the end of the stream may take to drain to a slow reader.
constexpr int FinalDrainMs = 2000;

} // namespace

HelperSession::HelperSession(quint64 id, const QString &owner, uint uid,
                             const QList<ProbeConfig> &probes, int streamFd, QObject *parent)
    : QObject(parent)
    , m_id(id)
    , m_owner(owner)
    , m_uid(uid)
    , m_probes(probes)
    , m_fd(streamFd)
{
}

HelperSession::~HelperSession()
{
    requestStop(StreamEndReason::HelperShutdown, QStringLiteral("the helper is exiting"));
    if (m_thread.joinable())
        m_thread.join();
    if (m_fd >= 0)
        ::close(m_fd);
}

QString HelperSession::path() const
{
    return QStringLiteral("/io/github/bpflens/Helper1/session/%1").arg(m_id);
}

void HelperSession::start()
{
    m_thread = std::thread([this] { run(); });
}

void HelperSession::requestStop(StreamEndReason reason, const QString &why)
{
    std::lock_guard lock(m_mutex);
    if (m_stop)
        return; // the first reason wins
    m_endReason = reason;
    m_endWhy = why;
    m_stop = true;
}

void HelperSession::post(const std::function<void()> &f)
{
    // Dropped if the session object is gone by the time the event loop gets to it.
    QMetaObject::invokeMethod(this, f, Qt::QueuedConnection);
}

void HelperSession::run()
{
    QList<ProbeConfig> probes = m_probes;
    QString error;
    Engine engine;
    if (!engine.start(probes, &error)) {
        post([this, error] {
            Q_EMIT started(false, error);
            Q_EMIT detached();
        });
        ::close(m_fd);
        m_fd = -1;
        post([this] { Q_EMIT finished(QStringLiteral("error: could not start")); });
        return;
    }
    // A client that hung up ends the session as if it had called Stop; one that stopped
    // reading, or a stream that cannot be written, is an error (SessionEnded's reasons).
    EngineStream stream(engine, m_fd, EngineStream::Pace::Engine);
    auto stopForStream = [&] {
        switch (stream.failure()) {
        case EngineStream::Failure::None:
        case EngineStream::Failure::Timeout:
            break;
        case EngineStream::Failure::Encoding:
            requestStop(StreamEndReason::Error, stream.errorString());
            break;
        case EngineStream::Failure::ReaderGone:
            requestStop(StreamEndReason::Stopped, QStringLiteral("stream-closed"));
            break;
        case EngineStream::Failure::ReaderBehind:
            requestStop(StreamEndReason::Error,
                        QStringLiteral("error: the client stopped reading the stream"));
            break;
        }
    };
    if (!stream.begin(sessionInfoForThisHost(probes)))
        stopForStream();
    post([this] { Q_EMIT started(true, QString()); });
    if (!stream.run([this] { return m_stop.load(); }))
        stopForStream();
    // Detach first, then finish the stream: a slow reader must not keep probes attached.
    stream.stopEngine();
    post([this] { Q_EMIT detached(); });
    StreamEnd end;
    {
        std::lock_guard lock(m_mutex);
        end.reason = m_endReason;
        end.message = m_endWhy;
    }
    end.endMonotonicNs = Engine::monotonicNowNs();
    stream.finish(end, FinalDrainMs);
    ::shutdown(m_fd, SHUT_RDWR);
    ::close(m_fd);
    m_fd = -1;
    const QString reason = end.message.isEmpty() ? QStringLiteral("stopped") : end.message;
    post([this, reason] { Q_EMIT finished(reason); });
}

} // namespace bpflens
