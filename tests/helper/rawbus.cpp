#include "tests/helper/rawbus.h"

#include <QElapsedTimer>

#include <cerrno>
#include <cstring>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace bpflens::test {

namespace {

constexpr qsizetype MaxFdsPerRead = 64;

qsizetype alignUp(qsizetype v, int n)
{
    return (v + n - 1) / n * n;
}

quint32 readU32(const QByteArray &b, qsizetype at)
{
    quint32 v;
    memcpy(&v, b.constData() + at, 4);
    return v;
}

} // namespace

void Marshaller::align(int n)
{
    while (data.size() % n)
        data.append('\0');
}

void Marshaller::u8(quint8 v)
{
    data.append(char(v));
}

void Marshaller::u16(quint16 v)
{
    align(2);
    data.append(reinterpret_cast<const char *>(&v), 2);
}

void Marshaller::u32(quint32 v)
{
    align(4);
    data.append(reinterpret_cast<const char *>(&v), 4);
}

void Marshaller::u64(quint64 v)
{
    align(8);
    data.append(reinterpret_cast<const char *>(&v), 8);
}

void Marshaller::string(const QByteArray &s)
{
    u32(quint32(s.size()));
    data.append(s);
    data.append('\0');
}

void Marshaller::signature(const QByteArray &g)
{
    u8(quint8(g.size()));
    data.append(g);
    data.append('\0');
}

qsizetype Marshaller::beginArray(char elementType)
{
    u32(0);
    const qsizetype at = data.size() - 4;
    align(alignmentOf(elementType));
    return at;
}

void Marshaller::endArray(qsizetype lengthAt, qsizetype start)
{
    const quint32 len = quint32(data.size() - start);
    memcpy(data.data() + lengthAt, &len, 4);
}

int alignmentOf(char c)
{
    switch (c) {
    case 'y':
    case 'g':
    case 'v':
        return 1;
    case 'n':
    case 'q':
        return 2;
    case 'b':
    case 'i':
    case 'u':
    case 's':
    case 'o':
    case 'h':
    case 'a':
        return 4;
    default: // x t d ( {
        return 8;
    }
}

RawBus::~RawBus()
{
    close();
}

void RawBus::close()
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
    for (int fd : m_inFds)
        ::close(fd);
    m_inFds.clear();
    m_in.clear();
}

bool RawBus::readLine(QByteArray *line, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!m_in.contains("\r\n")) {
        if (t.elapsed() > timeoutMs || !readMore(int(timeoutMs - t.elapsed())))
            return false;
    }
    const qsizetype end = m_in.indexOf("\r\n");
    *line = m_in.left(end);
    m_in.remove(0, end + 2);
    return true;
}

bool RawBus::open(const QString &address, QString *error)
{
    close();
    const QString prefix = QStringLiteral("unix:path=");
    if (!address.startsWith(prefix)) {
        *error = QStringLiteral("only unix:path= addresses: %1").arg(address);
        return false;
    }
    const QByteArray path = address.mid(prefix.size()).toLocal8Bit();
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    if (size_t(path.size()) >= sizeof(sa.sun_path)) {
        *error = QStringLiteral("socket path too long");
        return false;
    }
    memcpy(sa.sun_path, path.constData(), size_t(path.size()));
    m_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_fd < 0 || ::connect(m_fd, reinterpret_cast<sockaddr *>(&sa), sizeof(sa)) != 0) {
        *error = QStringLiteral("connect: %1").arg(QString::fromLocal8Bit(strerror(errno)));
        close();
        return false;
    }
    const QByteArray uid = QByteArray::number(geteuid());
    QByteArray line;
    if (!writeAll(QByteArray("\0AUTH EXTERNAL ", 15) + uid.toHex() + "\r\n", {}) ||
        !readLine(&line, 10000) || !line.startsWith("OK ") ||
        !writeAll("NEGOTIATE_UNIX_FD\r\n", {}) || !readLine(&line, 10000) ||
        line != "AGREE_UNIX_FD" || !writeAll("BEGIN\r\n", {})) {
        *error = QStringLiteral("authentication failed: %1").arg(QString::fromLatin1(line));
        close();
        return false;
    }
    RawMessage hello;
    hello.path = "/org/freedesktop/DBus";
    hello.interface = "org.freedesktop.DBus";
    hello.member = "Hello";
    hello.destination = "org.freedesktop.DBus";
    const quint32 serial = send(hello);
    RawMessage reply;
    while (serial && receive(&reply, 10000)) {
        if (reply.replySerial == serial && reply.type == RawMessage::MethodReturn) {
            // One string: length, bytes.
            m_unique = reply.body.mid(4, qsizetype(readU32(reply.body, 0)));
            return true;
        }
    }
    *error = QStringLiteral("no reply to Hello");
    close();
    return false;
}

QByteArray RawBus::encode(RawMessage &m)
{
    if (m.serial == 0)
        m.serial = ++m_serial;
    Marshaller h;
    h.u8('l');
    h.u8(m.type);
    h.u8(m.flags);
    h.u8(1);
    h.u32(quint32(m.body.size()));
    h.u32(m.serial);
    const qsizetype lengthAt = h.beginArray('(');
    const qsizetype start = h.arrayStart();
    auto field = [&](quint8 code, char type, const QByteArray &value) {
        h.align(8);
        h.u8(code);
        h.signature(QByteArray(1, type));
        if (type == 'g')
            h.signature(value);
        else
            h.string(value);
    };
    if (!m.path.isEmpty())
        field(1, 'o', m.path);
    if (!m.interface.isEmpty())
        field(2, 's', m.interface);
    if (!m.member.isEmpty())
        field(3, 's', m.member);
    if (!m.errorName.isEmpty())
        field(4, 's', m.errorName);
    if (m.replySerial) {
        h.align(8);
        h.u8(5);
        h.signature("u");
        h.u32(m.replySerial);
    }
    if (!m.destination.isEmpty())
        field(6, 's', m.destination);
    if (!m.signature.isEmpty())
        field(8, 'g', m.signature);
    if (!m.fds.isEmpty()) {
        h.align(8);
        h.u8(9);
        h.signature("u");
        h.u32(quint32(m.fds.size()));
    }
    h.endArray(lengthAt, start);
    h.align(8);
    return h.data + m.body;
}

quint32 RawBus::send(RawMessage &m)
{
    if (m_fd < 0)
        return 0;
    const QByteArray bytes = encode(m);
    return writeAll(bytes, m.fds) ? m.serial : 0;
}

bool RawBus::sendPartial(RawMessage &m, qsizetype bytes)
{
    if (m_fd < 0)
        return false;
    const QByteArray all = encode(m);
    return writeAll(all.left(bytes), {});
}

bool RawBus::writeAll(const QByteArray &bytes, const QList<int> &fds)
{
    qsizetype done = 0;
    bool fdsSent = fds.isEmpty();
    while (done < bytes.size()) {
        iovec iov{const_cast<char *>(bytes.constData()) + done, size_t(bytes.size() - done)};
        msghdr msg{};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        QByteArray control;
        if (!fdsSent) {
            control.resize(qsizetype(CMSG_SPACE(sizeof(int) * size_t(fds.size()))), '\0');
            msg.msg_control = control.data();
            msg.msg_controllen = size_t(control.size());
            cmsghdr *c = CMSG_FIRSTHDR(&msg);
            c->cmsg_level = SOL_SOCKET;
            c->cmsg_type = SCM_RIGHTS;
            c->cmsg_len = CMSG_LEN(sizeof(int) * size_t(fds.size()));
            memcpy(CMSG_DATA(c), fds.constData(), sizeof(int) * size_t(fds.size()));
        }
        const ssize_t n = ::sendmsg(m_fd, &msg, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN) {
                pollfd p{m_fd, POLLOUT, 0};
                ::poll(&p, 1, 1000);
                continue;
            }
            return false;
        }
        fdsSent = true;
        done += n;
    }
    return true;
}

bool RawBus::readMore(int timeoutMs)
{
    if (m_fd < 0)
        return false;
    pollfd p{m_fd, POLLIN, 0};
    const int r = ::poll(&p, 1, qMax(0, timeoutMs));
    if (r <= 0)
        return false;
    char buf[65536];
    iovec iov{buf, sizeof(buf)};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * MaxFdsPerRead)];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof(control);
    const ssize_t n = ::recvmsg(m_fd, &msg, MSG_CMSG_CLOEXEC);
    if (n <= 0) {
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            return true;
        close();
        return false;
    }
    for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (size_t i = 0; i < count; ++i) {
                int fd;
                memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
                m_inFds.push_back(fd);
            }
        }
    }
    m_in.append(buf, n);
    return true;
}

bool RawBus::hasBuffered() const
{
    if (m_in.size() < 16)
        return false;
    const qsizetype total = alignUp(16 + readU32(m_in, 12), 8) + readU32(m_in, 4);
    return m_in.size() >= total;
}

bool RawBus::takeMessage(RawMessage *m)
{
    if (!hasBuffered())
        return false;
    const qsizetype fieldsEnd = 16 + readU32(m_in, 12);
    const qsizetype bodyAt = alignUp(fieldsEnd, 8);
    const qsizetype bodyLen = readU32(m_in, 4);
    *m = RawMessage{};
    m->type = RawMessage::Type(quint8(m_in[1]));
    m->flags = quint8(m_in[2]);
    m->serial = readU32(m_in, 8);
    quint32 unixFds = 0;
    qsizetype pos = 16;
    while (pos < fieldsEnd) {
        pos = alignUp(pos, 8);
        const quint8 code = quint8(m_in[pos]);
        const int sigLen = quint8(m_in[pos + 1]);
        const char type = m_in[pos + 2];
        pos += 2 + sigLen + 1;
        if (type == 's' || type == 'o') {
            pos = alignUp(pos, 4);
            const qsizetype len = readU32(m_in, pos);
            const QByteArray value = m_in.mid(pos + 4, len);
            pos += 4 + len + 1;
            if (code == 1)
                m->path = value;
            else if (code == 2)
                m->interface = value;
            else if (code == 3)
                m->member = value;
            else if (code == 4)
                m->errorName = value;
            else if (code == 6)
                m->destination = value;
        } else if (type == 'u') {
            pos = alignUp(pos, 4);
            const quint32 v = readU32(m_in, pos);
            pos += 4;
            if (code == 5)
                m->replySerial = v;
            else if (code == 9)
                unixFds = v;
        } else if (type == 'g') {
            const int len = quint8(m_in[pos]);
            const QByteArray value = m_in.mid(pos + 1, len);
            pos += 1 + len + 1;
            if (code == 8)
                m->signature = value;
        } else {
            break; // not sent by dbus-daemon
        }
    }
    m->body = m_in.mid(bodyAt, bodyLen);
    m_in.remove(0, bodyAt + bodyLen);
    for (quint32 i = 0; i < unixFds && !m_inFds.empty(); ++i) {
        m->fds.append(m_inFds.front());
        m_inFds.pop_front();
    }
    return true;
}

bool RawBus::receive(RawMessage *m, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!takeMessage(m)) {
        const int left = int(timeoutMs - t.elapsed());
        if (left <= 0 || !readMore(left))
            return false;
    }
    return true;
}

} // namespace bpflens::test
