#include "helpersession.h"

#include "engine.h"
#include "sessioninfo.h"

#include <QMetaObject>
#include <QPointer>

#include <cerrno>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace bpflens {

namespace {

constexpr int PollMs = 200;
// A batch frame at least this often, so a client sees progress and the stats even when idle.
constexpr quint64 FrameIntervalNs = 500'000'000ull;
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

bool HelperSession::pump(StreamWriter &writer, QString *why)
{
    if (writer.pendingBytes() > 0) {
        if (m_outSent > 0 && m_outSent == m_out.size()) {
            m_out.clear();
            m_outSent = 0;
        }
        m_out += writer.takePending();
    }
    while (m_outSent < m_out.size()) {
        const ssize_t n = ::send(m_fd, m_out.constData() + m_outSent,
                                 size_t(m_out.size() - m_outSent), MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n > 0) {
            m_outSent += n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        *why = QStringLiteral("stream-closed");
        return false;
    }
    if (m_outSent == m_out.size()) {
        m_out.clear();
        m_outSent = 0;
    } else if (m_out.size() - m_outSent > MaxUnreadBytes) {
        *why = QStringLiteral("error: the client stopped reading the stream");
        return false;
    }
    // A reader that closed its end shows as a hang-up even when there is nothing to send.
    pollfd p{m_fd, 0, 0};
    if (::poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR))) {
        *why = QStringLiteral("stream-closed");
        return false;
    }
    return true;
}

bool HelperSession::drainBlocking(StreamWriter &writer, int timeoutMs)
{
    const quint64 deadline = Engine::monotonicNowNs() + quint64(timeoutMs) * 1000000ull;
    QString why;
    while (true) {
        if (!pump(writer, &why))
            return false;
        if (m_out.isEmpty())
            return true;
        const quint64 now = Engine::monotonicNowNs();
        if (now >= deadline)
            return false;
        pollfd p{m_fd, POLLOUT, 0};
        ::poll(&p, 1, int(qMax<quint64>(1, (deadline - now) / 1000000ull)));
    }
}

void HelperSession::run()
{
    QList<ProbeConfig> probes = m_probes;
    QString error;
    StreamWriter writer;
    {
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
        SessionInfo info = sessionInfoForThisHost(probes);
        info.startMonotonicNs = engine.startMonotonicNs();
        if (!writer.writeHello(info, &error))
            requestStop(StreamEndReason::Error, error);
        post([this] { Q_EMIT started(true, QString()); });

        RecordBatch batch;
        quint64 lastFrameNs = Engine::monotonicNowNs();
        QString why;
        while (!m_stop) {
            engine.poll(PollMs, batch);
            const quint64 now = Engine::monotonicNowNs();
            if (now - lastFrameNs >= FrameIntervalNs || batch.eventCount() >= 100000) {
                QString dropped;
                writer.writeBatch(batch, &dropped); // what cannot be encoded is reported, rest sent
                batch.clear();
                lastFrameNs = now;
            }
            if (!pump(writer, &why)) {
                requestStop(why.startsWith(QLatin1String("error")) ? StreamEndReason::Error
                                                                   : StreamEndReason::Stopped,
                            why);
                break;
            }
        }
        // Detach first, then finish the stream: a slow reader must not keep probes attached.
        engine.stop(&batch);
        post([this] { Q_EMIT detached(); });
        writer.writeBatch(batch);
    }
    StreamEnd end;
    {
        std::lock_guard lock(m_mutex);
        end.reason = m_endReason;
        end.message = m_endWhy;
    }
    end.endMonotonicNs = Engine::monotonicNowNs();
    writer.writeEnd(end);
    drainBlocking(writer, FinalDrainMs);
    ::shutdown(m_fd, SHUT_RDWR);
    ::close(m_fd);
    m_fd = -1;
    const QString reason = end.message.isEmpty() ? QStringLiteral("stopped") : end.message;
    post([this, reason] { Q_EMIT finished(reason); });
}

} // namespace bpflens
