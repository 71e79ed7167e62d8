#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <deque>

namespace bpflens::test {

// The D-Bus wire protocol by hand (little endian, SASL EXTERNAL, fd passing), for tests that
// need what a D-Bus library will not do: any signature with any value, fds of every kind,
// pipelined calls without waiting, and closing the socket in the middle of a call.
// Messages it builds are valid (dbus-daemon would drop the connection otherwise).

// The body of a message: a signature and the bytes that go with it.
class Marshaller
{
public:
    QByteArray data;
    void align(int n);
    void u8(quint8 v);
    void u16(quint16 v);
    void u32(quint32 v);
    void u64(quint64 v);
    void string(const QByteArray &s); // s and o
    void signature(const QByteArray &g);
    // Arrays: begin returns the length's offset, end patches it.
    qsizetype beginArray(char elementType);
    void endArray(qsizetype lengthAt, qsizetype start);
    qsizetype arrayStart() const { return data.size(); }
};

// Alignment of a complete type starting with c.
int alignmentOf(char c);

struct RawMessage
{
    enum Type : quint8
    {
        MethodCall = 1,
        MethodReturn = 2,
        Error = 3,
        Signal = 4
    };
    Type type = MethodCall;
    quint8 flags = 0; // 1: no reply expected, 2: no auto start
    quint32 serial = 0;
    quint32 replySerial = 0;
    QByteArray path, interface, member, errorName, destination, signature;
    QByteArray body;
    QList<int> fds; // sent with the message (dup'ed by the kernel); received ones are owned
};

class RawBus
{
public:
    RawBus() = default;
    ~RawBus();
    RawBus(const RawBus &) = delete;
    RawBus &operator=(const RawBus &) = delete;

    // Connects to "unix:path=..." and says Hello.
    bool open(const QString &address, QString *error);
    // Closes the socket at once, whatever is in flight.
    void close();
    bool isOpen() const { return m_fd >= 0; }
    QByteArray uniqueName() const { return m_unique; }

    // Sends a message (serial assigned when 0); returns its serial, 0 on failure (errno kept).
    quint32 send(RawMessage &m);
    // Sends only the first `bytes` of the message's encoding (a cut message), no fds.
    bool sendPartial(RawMessage &m, qsizetype bytes);
    // Waits up to timeoutMs for the next message. false on timeout or a closed connection.
    bool receive(RawMessage *m, int timeoutMs);
    bool hasBuffered() const;

private:
    QByteArray encode(RawMessage &m);
    bool writeAll(const QByteArray &bytes, const QList<int> &fds);
    bool readMore(int timeoutMs);
    bool takeMessage(RawMessage *m);
    bool readLine(QByteArray *line, int timeoutMs);

    int m_fd = -1;
    quint32 m_serial = 0;
    QByteArray m_in;
    std::deque<int> m_inFds;
    QByteArray m_unique;
};

} // namespace bpflens::test
