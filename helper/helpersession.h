#pragma once

#include "core/protocol.h"
#include "core/records.h"
#include "helper/enginestream.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <mutex>
#include <thread>

namespace bpflens {

// One recording of the helper: a thread that owns its own Engine (Engine is not thread-safe,
// and one engine per session keeps sessions independent: the kernel lets several programs use
// the same tracepoint) and streams the protocol into the write end of a socket pair.
// The D-Bus side never blocks on it: results come back as queued signals.
class HelperSession : public QObject
{
    Q_OBJECT
public:
    // Takes ownership of streamFd (the helper's end of the socket pair).
    HelperSession(quint64 id, const QString &owner, uint uid, const QList<ProbeConfig> &probes,
                  int streamFd, QObject *parent = nullptr);
    // Stops (if still running) and waits for the thread: everything is detached afterwards.
    ~HelperSession() override;

    quint64 id() const { return m_id; }
    QString owner() const { return m_owner; }
    uint uid() const { return m_uid; }
    QString path() const;

    void start();
    // Asks the thread to stop; detached() follows within one poll interval (200 ms).
    void requestStop(StreamEndReason reason, const QString &why);

    // Bytes the client has not read yet beyond which the session ends: a client that stops
    // reading must not make the helper buffer without bound.
    static constexpr qsizetype MaxUnreadBytes = EngineStream::MaxUnreadBytes;

Q_SIGNALS:
    // The engine attached every probe (ok) or attached nothing (error says why).
    void started(bool ok, const QString &error);
    // Every probe is detached; the end frame is being written.
    void detached();
    // The thread is done and the stream closed. reason is SessionEnded's argument.
    void finished(const QString &reason);

private:
    void run();
    void post(const std::function<void()> &f);

    const quint64 m_id;
    const QString m_owner;
    const uint m_uid;
    const QList<ProbeConfig> m_probes;
    int m_fd;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};
    std::mutex m_mutex; // guards the two below
    StreamEndReason m_endReason = StreamEndReason::Stopped;
    QString m_endWhy;
};

} // namespace bpflens
