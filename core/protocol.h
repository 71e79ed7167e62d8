#pragma once

#include "core/records.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <algorithm>
#include <deque>

namespace bpflens {

// The stream the privileged helper writes to the GUI or CLI over a Unix fd: a sequence of
// frames, each a fixed 12-byte little-endian header and a payload. docs/protocol.md describes
// every byte; the constants below are the limits it names.
// Major version 2 added the cgroup id to the records of every type that carries a process (their
// last field) and the cgroup section (22): a reader of 1.x refuses such a stream, with a message
// naming both versions, instead of misreading its records. This build still reads 1.x streams
// (an older helper's), their events' cgroup ids 0 (unknown).
inline constexpr quint8 StreamProtocolMajor = 2;
inline constexpr quint8 StreamProtocolOldestMajor = 1;
// Each event type's section came with a minor version: 1 added tracepoint pairs (type 6), and a
// type declared in BPFLENS_EVENT_TYPES brings the next minor version, so an older reader skips
// its sections instead of refusing the stream. Minor version 4 added the probe stats with loss
// causes (section 21), one more than the event types count. Minor version 10 added the stack
// frames with their source file, line and inlined mark (section 23); 11 OOM kills (type 15), 12
// reclaim spans (type 24: the numbers 16 to 23 are the other sections'), 13 page faults (type
// 25). The minor version counts the types, not their highest number, which jumped.
inline constexpr quint8 StackFrameWithSourceMinor = 10;
inline constexpr quint8 StreamProtocolMinor = [] {
    const int types = int(std::size(eventTypes));
    return std::max(quint8(types - 5 + 1), StackFrameWithSourceMinor);
}();
inline constexpr qsizetype StreamFrameHeaderBytes = 12;
// No frame payload is larger, so a hostile length cannot make a reader allocate more.
inline constexpr qsizetype StreamMaxPayloadBytes = 16 * 1024 * 1024;
// More arguments than this are cut by the writer (argvTruncated set) and refused by the reader.
inline constexpr qsizetype StreamMaxArgv = 4096;
// Stack definitions: longer module paths, build ids and symbols are cut by the writer (at a
// UTF-8 character boundary) and refused by the reader; a deeper stack is sent with its innermost
// frames and UserStackTruncated set, and refused by the reader.
inline constexpr qsizetype StreamMaxModuleBytes = 4096;
inline constexpr qsizetype StreamMaxBuildIdBytes = 128;
inline constexpr qsizetype StreamMaxSymbolBytes = 64 * 1024;
inline constexpr qsizetype StreamMaxStackFrames = 4096;
// A cgroup's path below the v2 mount: PATH_MAX.
inline constexpr qsizetype StreamMaxCgroupPathBytes = 4096;

enum class StreamFrameType : quint16
{
    Hello = 1, // SessionInfo; always the first frame
    Batch = 2, // a RecordBatch, or a part of one
    End = 3,   // why the stream ends; always the last frame
};

enum class StreamEndReason : quint8
{
    Stopped = 0,        // the client asked to stop
    Error = 1,          // the recording failed; message says why
    HelperShutdown = 2, // the helper is exiting (signal, service stop)
};

struct StreamEnd
{
    StreamEndReason reason = StreamEndReason::Stopped;
    QString message;
    quint64 endMonotonicNs = 0;
    bool operator==(const StreamEnd &) const = default;
};

// One decoded frame. Only the member that matches type is filled in.
struct StreamMessage
{
    StreamFrameType type = StreamFrameType::Hello;
    SessionInfo info;
    RecordBatch batch;
    StreamEnd end;
    bool operator==(const StreamMessage &other) const; // every field, the batch's lists too
};

// Encodes a stream into an internal buffer; flushTo() sends it. A RecordBatch larger than the
// frame limit becomes several Batch frames, so a consumer can see one engine batch arrive as a
// few RecordBatches (in order, nothing repeated or lost).
class StreamWriter
{
public:
    // maxPayloadBytes is clamped to [256, StreamMaxPayloadBytes]; smaller values are for tests.
    explicit StreamWriter(qsizetype maxPayloadBytes = StreamMaxPayloadBytes);

    // False if the header does not fit into one frame (nothing is written then).
    bool writeHello(const SessionInfo &info, QString *error = nullptr);
    // Records that cannot be sent (one record larger than a frame, a TCP family other than 4/6,
    // a histogram unit out of range) are left out and reported: false and error say how many
    // and why. Every other record is written.
    bool writeBatch(const RecordBatch &batch, QString *error = nullptr);
    // A message longer than 64 KiB is cut to that.
    void writeEnd(const StreamEnd &end);

    qsizetype pendingBytes() const { return m_pending.size() - m_sent; }
    QByteArray takePending();
    // Writes every pending byte to fd, waiting (poll) while a non-blocking fd is full. A reader
    // that has gone away is an error (never SIGPIPE). Unsent bytes stay pending on failure.
    bool flushTo(int fd, QString *error = nullptr);

    qint64 framesWritten() const { return m_frames; }

    // One frame with an arbitrary header; for tests and fuzz seeds.
    static QByteArray frame(quint16 type, QByteArrayView payload,
                            quint8 major = StreamProtocolMajor, quint8 minor = StreamProtocolMinor);

private:
    void appendFrame(StreamFrameType type, const QByteArray &payload);

    qsizetype m_maxPayload;
    QByteArray m_pending;
    qsizetype m_sent = 0;
    qint64 m_frames = 0;
};

// Decodes a stream fed in arbitrary pieces (a pipe or socket splits frames anywhere). Every
// length and count is checked against the bytes actually there; the first violation puts the
// reader into the error state with a message naming the frame and the field, after which it
// ignores all input. Messages of frames decoded before the error stay available; nothing of the
// bad frame is delivered.
class StreamReader
{
public:
    // maxPayloadBytes is clamped to [256, StreamMaxPayloadBytes].
    explicit StreamReader(qsizetype maxPayloadBytes = StreamMaxPayloadBytes);

    void feed(QByteArrayView bytes);
    // The writer closed its end. Unless the end-of-stream frame was decoded, that is an error
    // (the helper died, or the stream was cut in the middle of a frame).
    void closeInput();

    enum class ReadResult
    {
        Data,       // bytes were read and fed
        WouldBlock, // non-blocking fd with nothing to read
        Closed,     // end of file; closeInput() was called
        Failed      // read() failed; see errorString()
    };
    // One read() of up to 64 KiB from fd, fed to the decoder.
    ReadResult readFrom(int fd);

    bool hasMessage() const { return !m_messages.empty(); }
    StreamMessage takeMessage();

    bool hasError() const { return m_state == State::Failed; }
    QString errorString() const { return m_error; }
    bool atEnd() const { return m_state == State::Finished; } // End frame decoded
    bool hasHello() const { return m_helloSeen; }

    qint64 framesRead() const { return m_frames; }     // complete frames, skipped ones included
    qint64 framesSkipped() const { return m_skipped; } // unknown types from a newer minor version
    quint8 peerMinorVersion() const { return m_peerMinor; } // of the hello frame

private:
    enum class State
    {
        Reading,
        Finished,
        Failed
    };
    void decodeFrames();
    void fail(const QString &message);

    qsizetype m_maxPayload;
    State m_state = State::Reading;
    QString m_error;
    QByteArray m_buffer;
    qsizetype m_pos = 0; // start of the first undecoded byte in m_buffer
    qint64 m_frames = 0;
    qint64 m_skipped = 0;
    quint8 m_peerMinor = 0;
    bool m_helloSeen = false;
    std::deque<StreamMessage> m_messages;
};

} // namespace bpflens
