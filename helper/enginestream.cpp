#include "helper/enginestream.h"

#include "helper/engine.h"

#include <cerrno>
#include <poll.h>
#include <sys/socket.h>

namespace bpflens {

EngineStream::EngineStream(Engine &engine, int fd, Pace pace)
    : m_engine(engine)
    , m_fd(fd)
    , m_pace(pace)
{
}

bool EngineStream::fail(Failure failure, const QString &error)
{
    if (m_failure == Failure::None) {
        m_failure = failure;
        m_error = error;
    }
    return false;
}

bool EngineStream::begin(SessionInfo info)
{
    info.startMonotonicNs = m_engine.startMonotonicNs();
    QString error;
    if (!m_writer.writeHello(info, &error))
        return fail(Failure::Encoding, error);
    m_lastFrameNs = Engine::monotonicNowNs();
    return send();
}

bool EngineStream::run(const std::function<bool()> &stopRequested)
{
    while (!stopRequested()) {
        m_engine.poll(PollMs, m_batch);
        const quint64 now = Engine::monotonicNowNs();
        if (now - m_lastFrameNs >= FrameIntervalNs || m_batch.eventCount() >= MaxEventsPerFrame) {
            // What cannot be encoded is left out; every other record is sent.
            m_writer.writeBatch(m_batch);
            m_batch.clear();
            m_lastFrameNs = now;
        }
        if (!send())
            return false;
        // With nothing to send, a reader that closed its end shows only as a hang-up. Not
        // asked in finish(): a reader may close as soon as it has the end frame.
        if (readerHungUp())
            return fail(Failure::ReaderGone, QStringLiteral("the reader closed the stream"));
    }
    return true;
}

void EngineStream::stopEngine()
{
    m_engine.stop(&m_batch);
}

bool EngineStream::finish(const StreamEnd &end, int drainMs)
{
    m_writer.writeBatch(m_batch);
    m_batch.clear();
    m_writer.writeEnd(end);
    if (m_pace == Pace::Reader)
        return send();
    const quint64 deadline = Engine::monotonicNowNs() + quint64(drainMs) * 1000000ull;
    while (true) {
        if (!sendWithoutWaiting())
            return false;
        if (m_out.isEmpty())
            return true;
        const quint64 now = Engine::monotonicNowNs();
        if (now >= deadline)
            return fail(Failure::Timeout,
                        QStringLiteral("%1 bytes of the stream's end were not taken in %2 ms")
                            .arg(m_out.size() - m_outSent)
                            .arg(drainMs));
        pollfd p{m_fd, POLLOUT, 0};
        ::poll(&p, 1, int(qMax<quint64>(1, (deadline - now) / 1000000ull)));
    }
}

bool EngineStream::send()
{
    if (m_failure != Failure::None)
        return false;
    if (m_pace == Pace::Engine)
        return sendWithoutWaiting();
    QString error;
    return m_writer.flushTo(m_fd, &error) || fail(Failure::ReaderGone, error);
}

bool EngineStream::sendWithoutWaiting()
{
    if (m_failure != Failure::None)
        return false;
    if (m_writer.pendingBytes() > 0) {
        if (m_outSent > 0 && m_outSent == m_out.size()) {
            m_out.clear();
            m_outSent = 0;
        }
        m_out += m_writer.takePending();
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
        return fail(Failure::ReaderGone, QStringLiteral("the reader closed the stream"));
    }
    if (m_outSent == m_out.size()) {
        m_out.clear();
        m_outSent = 0;
    } else if (m_out.size() - m_outSent > MaxUnreadBytes) {
        return fail(Failure::ReaderBehind,
                    QStringLiteral("the reader stopped reading the stream (%1 bytes waiting)")
                        .arg(m_out.size() - m_outSent));
    }
    return true;
}

bool EngineStream::readerHungUp() const
{
    pollfd p{m_fd, 0, 0};
    return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLERR));
}

} // namespace bpflens
