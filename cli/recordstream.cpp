#include "cli/recordstream.h"
#include "cli/common.h"

#include "core/protocol.h"
#include "core/sessioninfo.h"
#include "helper/engine.h"
#include "helper/enginestream.h"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace bpflens::cli {

namespace {

// The ending both stream writers share, once the recording has stopped: a reader that went
// away has nothing of the stream's end, so that is said first.
int endStream(int fd, bool readerStayed, const QString &error)
{
    if (!readerStayed)
        return fail(QStringLiteral("the reader of the stream went away"));
    if (!error.isEmpty())
        return fail(error);
    ::close(fd);
    return Ok;
}

} // namespace

int relayHelperStream(const HelperClient &helper, const QList<ProbeConfig> &requests, int fd,
                      quint64 durationNs, bool stopOnStdinEof)
{
    HelperClient::Session session;
    if (const int status =
            startHelperSession(helper, requests, &session, QStringLiteral("recording")))
        return status;
    installStopHandlers();
    // A reader that went away (ssh's channel closed) is a failed write, not a fatal signal.
    signal(SIGPIPE, SIG_IGN);
    ::fcntl(fd, F_SETPIPE_SZ, 1 << 20);
    const quint64 startNs = Engine::monotonicNowNs();
    bool stopSent = false;
    bool stdinOpen = stopOnStdinEof;
    QString error;
    auto stopOnce = [&] {
        if (stopSent)
            return;
        stopSent = true;
        HelperClient::Error stopError;
        if (!helper.stopSession(session.path, &stopError))
            error =
                QStringLiteral("the helper did not stop the recording: %1").arg(stopError.message);
    };
    bool readerGone = false;
    QByteArray buffer(1 << 16, Qt::Uninitialized);
    while (true) {
        pollfd p[2] = {{session.fd, POLLIN, 0}, {STDIN_FILENO, POLLIN, 0}};
        const int ready = ::poll(p, stdinOpen ? 2 : 1, 200);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready > 0 && p[0].revents) {
            const ssize_t n = ::read(session.fd, buffer.data(), size_t(buffer.size()));
            if (n == 0)
                break; // the helper ended the stream (after its End frame)
            if (n < 0 && errno != EINTR && errno != EAGAIN)
                break;
            for (ssize_t done = 0; n > 0 && done < n;) {
                const ssize_t w = ::write(fd, buffer.constData() + done, size_t(n - done));
                if (w < 0 && errno == EINTR)
                    continue;
                if (w <= 0) {
                    readerGone = true;
                    break;
                }
                done += w;
            }
            if (readerGone)
                break;
        }
        if (stdinOpen && ready > 0 && p[1].revents) {
            char ignored[256];
            const ssize_t n = ::read(STDIN_FILENO, ignored, sizeof ignored);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
                stdinOpen = false;
                stopOnce();
            }
        }
        if (g_stopRequested || (durationNs && Engine::monotonicNowNs() - startNs >= durationNs))
            stopOnce();
    }
    // The helper detaches as soon as it is told, or sees its stream's reader gone.
    stopOnce();
    ::close(session.fd);
    removeStopHandlers();
    return endStream(fd, !readerGone, error);
}

int recordToStream(QList<ProbeConfig> &requests, int fd, quint64 durationNs, bool stopOnStdinEof)
{
    installStopHandlers();
    Engine engine;
    QString error;
    if (!engine.start(requests, &error))
        return fail(error);
    // A pipe (ssh's channel for record --host, the window's) gets room for a few frames, so a
    // reader that stalls for a moment (sshd encrypting, the network) does not stall the engine
    // and let the ring buffer fill. Not every pipe may grow: the default is kept then.
    ::fcntl(fd, F_SETPIPE_SZ, 1 << 20);
    // The reader sets the pace: the window reads as fast as it can, and what the kernel
    // cannot hand over meanwhile is counted as lost, as in any recording.
    EngineStream stream(engine, fd, EngineStream::Pace::Reader);
    if (!stream.begin(sessionInfoForThisHost(requests))) {
        engine.stop();
        return fail(QStringLiteral("cannot write the stream: %1").arg(stream.errorString()));
    }
    auto stdinEnded = [&] {
        if (!stopOnStdinEof)
            return false;
        pollfd p{STDIN_FILENO, POLLIN, 0};
        if (::poll(&p, 1, 0) <= 0)
            return false;
        char buf[256];
        const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
        return n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN);
    };
    const bool readerStayed = stream.run([&] {
        return g_stopRequested || stdinEnded() ||
               (durationNs && Engine::monotonicNowNs() - engine.startMonotonicNs() >= durationNs);
    });
    // Detach first, then finish the stream.
    stream.stopEngine();
    removeStopHandlers();
    QString endError;
    if (readerStayed &&
        !stream.finish({StreamEndReason::Stopped, QString(), Engine::monotonicNowNs()}))
        endError =
            QStringLiteral("cannot write the end of the stream: %1").arg(stream.errorString());
    return endStream(fd, readerStayed, endError);
}

HelperStream readHelperStream(int fd, StreamReader &reader, int timeoutMs,
                              const std::function<void(StreamMessage &)> &onMessage, QString *error)
{
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, timeoutMs) <= 0)
        return HelperStream::Open;
    const StreamReader::ReadResult read = reader.readFrom(fd);
    bool ended = false;
    while (reader.hasMessage()) {
        StreamMessage m = reader.takeMessage();
        ended = ended || m.type == StreamFrameType::End;
        onMessage(m);
    }
    if (ended)
        return HelperStream::Ended;
    if (reader.hasError() || read == StreamReader::ReadResult::Closed ||
        read == StreamReader::ReadResult::Failed) {
        *error =
            QStringLiteral("the helper's stream broke off: %1")
                .arg(reader.hasError() ? reader.errorString() : QStringLiteral("end of stream"));
        return HelperStream::Broken;
    }
    return HelperStream::Open;
}

} // namespace bpflens::cli
