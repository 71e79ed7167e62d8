// Loopback TCP connects: a listener thread accepts, the main thread connects and closes with
// an RST (SO_LINGER 0) so thousands of connects do not pile up in TIME_WAIT.

#include "workload.h"

#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace bpflens::bench;

int main(int argc, char **argv)
{
    const Args args(argc, argv, {{"count", "2000"}});
    const long long count = args.number("count", 1, 100000000);
    const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (listener < 0 || bind(listener, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
        listen(listener, 1024) != 0 ||
        getsockname(listener, reinterpret_cast<sockaddr *>(&addr), &len) != 0)
        die(args.program(), std::string("cannot listen on 127.0.0.1: ") + std::strerror(errno));

    std::thread acceptor([&] {
        for (long long i = 0; i < count; ++i) {
            const int c = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
            if (c < 0)
                die(args.program(), std::string("accept: ") + std::strerror(errno));
            close(c);
        }
    });
    Measurement m("tcp");
    m.start();
    const linger noLinger{1, 0};
    for (long long i = 0; i < count; ++i) {
        const int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (s < 0 || connect(s, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0)
            die(args.program(), std::string("connect: ") + std::strerror(errno));
        setsockopt(s, SOL_SOCKET, SO_LINGER, &noLinger, sizeof noLinger);
        close(s);
    }
    acceptor.join();
    m.finish(count, "\"port\":" + std::to_string(ntohs(addr.sin_port)));
    close(listener);
    return 0;
}
