// Loopback TCP endpoints for the network probes' tests (tcpconnect, tcpaccept).
#pragma once

#include "tests/testutil.h"

#include <QByteArray>
#include <QFileInfo>
#include <QString>

#include <arpa/inet.h>
#include <array>
#include <cstring>
#include <netinet/in.h>
#include <optional>
#include <sys/socket.h>
#include <unistd.h>

namespace bpflens::test {

struct Endpoint
{
    int family = AF_INET; // AF_INET or AF_INET6
    sockaddr_storage addr{};
    socklen_t len = 0;
    quint16 port() const
    {
        return ntohs(family == AF_INET ? reinterpret_cast<const sockaddr_in *>(&addr)->sin_port
                                       : reinterpret_cast<const sockaddr_in6 *>(&addr)->sin6_port);
    }
};

inline Endpoint loopback(int family)
{
    Endpoint e;
    e.family = family;
    if (family == AF_INET) {
        auto *in = reinterpret_cast<sockaddr_in *>(&e.addr);
        in->sin_family = AF_INET;
        in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        e.len = sizeof(sockaddr_in);
    } else {
        auto *in6 = reinterpret_cast<sockaddr_in6 *>(&e.addr);
        in6->sin6_family = AF_INET6;
        in6->sin6_addr = in6addr_loopback;
        e.len = sizeof(sockaddr_in6);
    }
    return e;
}

// A listener on an ephemeral loopback port; *ep gets its address. -1 when the family is
// unavailable.
inline int listenOn(int family, Endpoint *ep, int backlog)
{
    *ep = loopback(family);
    const int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (bind(fd, reinterpret_cast<sockaddr *>(&ep->addr), ep->len) != 0 ||
        listen(fd, backlog) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr *>(&ep->addr), &ep->len) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

inline std::array<quint8, 16> addressBytes(int family)
{
    std::array<quint8, 16> a{};
    if (family == AF_INET) {
        const quint32 lo = htonl(INADDR_LOOPBACK);
        std::memcpy(a.data(), &lo, 4);
    } else {
        std::memcpy(a.data(), &in6addr_loopback, 16);
    }
    return a;
}

// IPv6 on the loopback device for the life of the object, when family is AF_INET6: a machine may
// have it switched off (net.ipv6.conf.lo.disable_ipv6), which the test undoes and restores.
// error() is set only when the kernel has no IPv6 at all.
class Ipv6Loopback
{
public:
    explicit Ipv6Loopback(int family)
    {
        if (family != AF_INET6)
            return;
        if (!QFileInfo::exists(QStringLiteral("/proc/sys/net/ipv6"))) {
            m_error = QStringLiteral("this kernel has no IPv6 (no /proc/sys/net/ipv6)");
            return;
        }
        m_setting.emplace(QStringLiteral("/proc/sys/net/ipv6/conf/lo/disable_ipv6"), "0");
    }
    QString error() const { return m_error; }

private:
    std::optional<SysfsSetting> m_setting;
    QString m_error;
};

} // namespace bpflens::test
