// SYN retransmits on demand: in a network namespace of its own, --count non-blocking connects to
// an address whose neighbour entry names a MAC address nobody has (a veth pair, as
// tests/engine/tst_tcpretrans.cpp builds), so every SYN is lost. TCP_SYNCNT 1 ends each connect
// after about 3 s instead of 2 minutes; the connects run at once, so the run takes that long
// whatever the count. How many SYNs the kernel sent again is timer-driven, so it is not assumed:
// each socket's TCP_INFO says how many it retransmitted, and their sum is printed as "events".

#include "workload.h"

#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace bpflens::bench;

int main(int argc, char **argv)
{
    const Args args(argc, argv, {{"count", "100"}, {"port", "47391"}});
    const long long count = args.number("count", 1, 10000);
    const long long port = args.number("port", 1, 65535);
    // A namespace of its own: the veth pair and the bogus neighbour vanish with the process.
    if (unshare(CLONE_NEWNET) != 0)
        die(args.program(), std::string("unshare(CLONE_NEWNET): ") + std::strerror(errno));
    if (std::system("ip link set lo up && ip link add v0 type veth peer name v1 &&"
                    " ip link set v1 up && ip link set v0 up &&"
                    " ip addr add 10.78.0.1/24 dev v0 &&"
                    " ip neigh add 10.78.0.9 lladdr 02:00:00:00:78:09 dev v0 nud permanent") != 0)
        die(args.program(), "cannot set up the veth pair (ip link/addr/neigh failed)");

    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(uint16_t(port));
    inet_pton(AF_INET, "10.78.0.9", &addr.sin_addr);
    Measurement m("tcpretrans");
    m.start();
    std::vector<pollfd> fds;
    const int synCount = 1;
    for (long long i = 0; i < count; ++i) {
        const int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (s < 0 || setsockopt(s, IPPROTO_TCP, TCP_SYNCNT, &synCount, sizeof synCount) != 0)
            die(args.program(), std::string("socket: ") + std::strerror(errno));
        if (connect(s, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0 ||
            errno != EINPROGRESS)
            die(args.program(), std::string("connect did not wait: ") + std::strerror(errno));
        fds.push_back({s, POLLOUT, 0});
    }
    // A connect that timed out reports POLLOUT|POLLERR; wait until every one has.
    size_t done = 0;
    while (done < fds.size()) {
        if (poll(fds.data(), fds.size(), 10000) < 0 && errno != EINTR)
            die(args.program(), std::string("poll: ") + std::strerror(errno));
        done = 0;
        for (pollfd &p : fds) {
            if (p.revents != 0)
                p.events = 0;
            done += p.events == 0 ? 1 : 0;
        }
    }
    long long retransmits = 0;
    for (const pollfd &p : fds) {
        tcp_info info{};
        socklen_t len = sizeof info;
        if (getsockopt(p.fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0)
            die(args.program(), std::string("TCP_INFO: ") + std::strerror(errno));
        retransmits += info.tcpi_total_retrans;
        close(p.fd);
    }
    m.finish(count,
             "\"events\":" + std::to_string(retransmits) + ",\"port\":" + std::to_string(port));
    return 0;
}
