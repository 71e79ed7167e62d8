#pragma once

#include "core/protocol.h"
#include "core/records.h"

#include <QByteArray>
#include <QString>

#include <functional>

namespace bpflens {

class Engine;

// The engine's records as the stream of docs/protocol.md, written into an fd. The helper's
// sessions and `bpflens-cli record --stream-fd` (the window's recorder as root) both stream
// through this, so whatever the engine records reaches every reader by the same code:
//   EngineStream s(engine, fd, pace);   // engine already started
//   s.begin(info);  s.run(stop);  s.stopEngine();  s.finish(end);
class EngineStream
{
public:
    enum class Pace
    {
        // Waits while the reader is behind (blocking writes): the reader sets the pace, as the
        // window that started bpflens-cli --stream-fd does. Pipes and sockets.
        Reader,
        // Never waits: what the reader has not taken is kept, up to MaxUnreadBytes, and a
        // reader further behind ends the stream. One stalled client must not stall the
        // helper's engine. Sockets only.
        Engine,
    };
    // Why begin(), run() or finish() returned false.
    enum class Failure
    {
        None,
        Encoding,     // the hello frame could not be encoded
        ReaderGone,   // the reader closed its end (or writing failed)
        ReaderBehind, // Pace::Engine: more than MaxUnreadBytes were waiting
        Timeout,      // Pace::Engine: the end did not drain within finish()'s time
    };

    static constexpr qsizetype MaxUnreadBytes = 64 * 1024 * 1024;
    static constexpr int PollMs = 200;
    // A batch frame at least this often, so a reader sees progress and stats even when idle.
    static constexpr quint64 FrameIntervalNs = 500'000'000ull;
    // Sooner when this many events wait: a frame stays well under the payload limit.
    static constexpr qsizetype MaxEventsPerFrame = 100000;

    // engine must be started and outlive this; fd stays the caller's to close.
    EngineStream(Engine &engine, int fd, Pace pace);

    // Sends the hello frame: info with the engine's start time.
    bool begin(SessionInfo info);
    // Polls the engine and sends its records until stopRequested() (asked every PollMs) says
    // so: true; or until the reader is gone or too far behind: false.
    bool run(const std::function<bool()> &stopRequested);
    // Detaches every probe; the records drained at the detach go out with finish().
    void stopEngine();
    // Sends the last records and the end frame. Pace::Engine gives up after drainMs.
    bool finish(const StreamEnd &end, int drainMs = 2000);

    Failure failure() const { return m_failure; }
    QString errorString() const { return m_error; }

private:
    bool send();
    bool sendWithoutWaiting();
    bool readerHungUp() const;
    bool fail(Failure failure, const QString &error);

    Engine &m_engine;
    const int m_fd;
    const Pace m_pace;
    StreamWriter m_writer;
    RecordBatch m_batch;
    quint64 m_lastFrameNs = 0;
    // Pace::Engine: bytes taken from the writer that the socket has not accepted yet.
    QByteArray m_out;
    qsizetype m_outSent = 0;
    Failure m_failure = Failure::None;
    QString m_error;
};

} // namespace bpflens
