// Two threads passing a token through pipes: every hand-over wakes the other thread, so each
// round trip is two run-queue waits (what runqlat measures).

#include "workload.h"

#include <thread>

#include <unistd.h>

using namespace bpflens::bench;

int main(int argc, char **argv)
{
    const Args args(argc, argv, {{"count", "20000"}});
    const long long count = args.number("count", 1, 1000000000);
    int ping[2];
    int pong[2];
    if (pipe(ping) != 0 || pipe(pong) != 0)
        die(args.program(), std::string("pipe: ") + std::strerror(errno));

    Measurement m("pingpong");
    m.start();
    std::thread other([&] {
        char c;
        for (long long i = 0; i < count; ++i) {
            if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
                die(args.program(), "the pipe broke");
        }
    });
    char c = 'x';
    for (long long i = 0; i < count; ++i) {
        if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
            die(args.program(), "the pipe broke");
    }
    other.join();
    m.finish(count, "\"wakeups\":" + std::to_string(2 * count));
    return 0;
}
