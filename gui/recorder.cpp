#include "gui/recorder.h"

#include "core/protocol.h"

#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace bpflens {

namespace {

// Reads per notifier activation: a helper that writes faster than the window draws must not
// starve the event loop; the notifier fires again for the rest.
constexpr int MaxReadsPerWakeup = 32;
// How long stop() waits for the helper's End frame before giving up on the stream.
constexpr int EndFrameTimeoutMs = 5000;

} // namespace

StreamRecorder::StreamRecorder(QObject *parent)
    : Recorder(parent)
{
}

StreamRecorder::~StreamRecorder()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void StreamRecorder::setBackend(OpenStream open, RequestStop requestStop)
{
    m_open = std::move(open);
    m_requestStop = std::move(requestStop);
}

QString StreamRecorder::unavailableReason() const
{
    if (isAvailable())
        return {};
    return m_unavailable.isEmpty() ? tr("No recording backend is available.") : m_unavailable;
}

void StreamRecorder::start(const QList<ProbeConfig> &probes)
{
    if (isRecording()) {
        Q_EMIT failed(tr("A recording is already running."));
        return;
    }
    if (!m_open) {
        Q_EMIT failed(unavailableReason());
        return;
    }
    QString error;
    const int fd = m_open(probes, &error);
    if (fd < 0) {
        Q_EMIT failed(error.isEmpty() ? tr("The recording could not be started.") : error);
        return;
    }
    attach(fd);
}

bool StreamRecorder::attach(int fd)
{
    if (isRecording()) {
        if (fd >= 0)
            ::close(fd);
        Q_EMIT failed(tr("A recording is already running."));
        return false;
    }
    const int flags = fd >= 0 ? ::fcntl(fd, F_GETFL) : -1;
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        if (fd >= 0)
            ::close(fd);
        Q_EMIT failed(tr("The recording stream cannot be read: %1").arg(why));
        return false;
    }
    m_fd = fd;
    m_started = false;
    m_lastTimeNs = 0;
    m_reader = std::make_unique<StreamReader>();
    m_notifier = new QSocketNotifier(fd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &StreamRecorder::readAvailable);
    return true;
}

void StreamRecorder::stop()
{
    if (!isRecording())
        return;
    if (m_requestStop) {
        m_requestStop();
        // The End frame normally arrives within one helper interval; a helper that hangs must
        // not leave the window recording forever.
        const int fd = m_fd;
        QTimer::singleShot(EndFrameTimeoutMs, this, [this, fd] {
            if (m_fd != fd)
                return;
            finish();
            Q_EMIT failed(tr("The helper did not end the recording within %1 s; the data "
                             "received so far is kept.")
                              .arg(EndFrameTimeoutMs / 1000));
        });
        return;
    }
    // Nothing upstream to tell: read what is already in the pipe, then end here.
    readAvailable();
    if (!isRecording())
        return;
    finish();
    Q_EMIT ended(tr("Recording stopped"), m_lastTimeNs);
}

qint64 StreamRecorder::framesRead() const
{
    return m_reader ? m_reader->framesRead() : 0;
}

void StreamRecorder::readAvailable()
{
    for (int i = 0; i < MaxReadsPerWakeup && isRecording(); ++i) {
        const StreamReader::ReadResult result = m_reader->readFrom(m_fd);
        deliverMessages();
        if (!isRecording())
            return; // the End frame finished it (or a slot stopped it)
        if (m_reader->hasError() || result == StreamReader::ReadResult::Failed ||
            result == StreamReader::ReadResult::Closed) {
            const QString why = m_reader->hasError() ? m_reader->errorString()
                                                     : tr("the stream closed without an end");
            finish();
            Q_EMIT failed(brokenStreamMessage(why));
            return;
        }
        if (result == StreamReader::ReadResult::WouldBlock)
            return;
    }
}

void StreamRecorder::deliverMessages()
{
    while (isRecording() && m_reader->hasMessage()) {
        StreamMessage m = m_reader->takeMessage();
        switch (m.type) {
        case StreamFrameType::Hello:
            m_started = true;
            m_lastTimeNs = m.info.startMonotonicNs;
            Q_EMIT started(m.info);
            break;
        case StreamFrameType::Batch:
            for (const ProbeStats &s : std::as_const(m.batch.stats))
                m_lastTimeNs = std::max(m_lastTimeNs, s.timeNs);
            Q_EMIT batch(m.batch);
            break;
        case StreamFrameType::End: {
            finish();
            const quint64 endNs = m.end.endMonotonicNs ? m.end.endMonotonicNs : m_lastTimeNs;
            switch (m.end.reason) {
            case StreamEndReason::Stopped:
                Q_EMIT ended(endReasonText(m.end.message), endNs);
                break;
            case StreamEndReason::HelperShutdown:
                Q_EMIT ended(
                    tr("The helper shut down: %1")
                        .arg(m.end.message.isEmpty() ? tr("no reason given") : m.end.message),
                    endNs);
                break;
            case StreamEndReason::Error:
                Q_EMIT failed(m.end.message.isEmpty() ? tr("The recording failed.")
                                                      : m.end.message);
                break;
            }
            return;
        }
        }
    }
}

QString StreamRecorder::brokenStreamMessage(const QString &why) const
{
    return tr("The recording stream broke off: %1").arg(why);
}

QString StreamRecorder::endReasonText(const QString &reason)
{
    if (reason.isEmpty() || reason == QLatin1String("stopped"))
        return tr("Recording stopped");
    if (reason == QLatin1String("caller-left"))
        return tr("The recording ended: the helper lost its connection to this window");
    if (reason == QLatin1String("stream-closed"))
        return tr("The recording ended: its stream was closed");
    if (reason == QLatin1String("helper-shutdown") ||
        reason == QLatin1String("the helper is exiting"))
        return tr("The recording ended: the helper shut down");
    if (reason.startsWith(QLatin1String("error: ")))
        return tr("The recording ended with an error: %1").arg(reason.mid(7));
    return reason;
}

void StreamRecorder::finish()
{
    if (m_notifier) {
        m_notifier->setEnabled(false);
        m_notifier->deleteLater(); // we may be inside its activated() signal
        m_notifier = nullptr;
    }
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
}

} // namespace bpflens
