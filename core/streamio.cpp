// Where the stream meets a file descriptor. The codec (protocol.cpp) only turns records into
// bytes and back, so the stream reader's fuzzer builds it alone, with no system call in reach.
#include "core/protocol.h"

#include <QString>

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

namespace bpflens {

bool StreamWriter::flushTo(int fd, QString *error)
{
    bool socket = true;
    while (m_sent < m_pending.size()) {
        const char *p = m_pending.constData() + m_sent;
        const size_t n = size_t(m_pending.size() - m_sent);
        ssize_t done;
        int err = 0;
        if (socket) {
            done = ::send(fd, p, n, MSG_NOSIGNAL);
            if (done < 0 && errno == ENOTSOCK) {
                socket = false;
                continue;
            }
            err = errno;
        } else {
            // A pipe has no MSG_NOSIGNAL: hold SIGPIPE back for this thread and take away the
            // one the write raises, so a reader that went away is an error and not our death.
            sigset_t pipeSet, old, pending;
            sigemptyset(&pipeSet);
            sigaddset(&pipeSet, SIGPIPE);
            pthread_sigmask(SIG_BLOCK, &pipeSet, &old);
            sigpending(&pending);
            const bool alreadyPending = sigismember(&pending, SIGPIPE);
            done = ::write(fd, p, n);
            err = errno;
            if (done < 0 && err == EPIPE && !alreadyPending) {
                const timespec zero{};
                sigtimedwait(&pipeSet, nullptr, &zero);
            }
            pthread_sigmask(SIG_SETMASK, &old, nullptr);
        }
        if (done >= 0) {
            m_sent += done;
            continue;
        }
        if (err == EINTR)
            continue;
        if (err == EAGAIN || err == EWOULDBLOCK) {
            pollfd pfd{fd, POLLOUT, 0};
            if (::poll(&pfd, 1, -1) < 0 && errno != EINTR) {
                err = errno;
            } else {
                continue;
            }
        }
        if (error) {
            *error = err == EPIPE || err == ECONNRESET
                         ? QStringLiteral("the reader closed the stream (%1 bytes not sent)")
                               .arg(pendingBytes())
                         : QStringLiteral("writing the stream failed: %1 (%2 bytes not sent)")
                               .arg(QString::fromLocal8Bit(strerror(err)))
                               .arg(pendingBytes());
        }
        return false;
    }
    m_pending.clear();
    m_sent = 0;
    return true;
}

StreamReader::ReadResult StreamReader::readFrom(int fd)
{
    char buf[64 * 1024];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n > 0) {
            feed(QByteArrayView(buf, n));
            return ReadResult::Data;
        }
        if (n == 0) {
            closeInput();
            return ReadResult::Closed;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return ReadResult::WouldBlock;
        fail(QStringLiteral("reading the stream failed: %1")
                 .arg(QString::fromLocal8Bit(strerror(errno))));
        return ReadResult::Failed;
    }
}

} // namespace bpflens
