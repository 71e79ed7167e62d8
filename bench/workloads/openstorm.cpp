// Open storm: openat + close of one path, from one or more threads, optionally paced to a
// total rate so the runner can ramp the event rate to find where a tracer starts losing.

#include "workload.h"

#include <atomic>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

using namespace bpflens::bench;

int main(int argc, char **argv)
{
    const Args args(
        argc, argv,
        {{"count", "100000"}, {"threads", "1"}, {"rate", "0"}, {"path", "/etc/hostname"}});
    const long long count = args.number("count", 1, 1000000000);
    const long long threads = args.number("threads", 1, 256);
    const long long rate = args.number("rate", 0, 100000000); // ops/s in total, 0: flat out
    const std::string path = args.text("path");
    // access(), not open(): a check that opened the path would be one event too many.
    if (access(path.c_str(), R_OK) != 0)
        die(args.program(), "cannot open " + path + ": " + std::strerror(errno));

    std::atomic<long long> failures{0};
    Measurement m("open");
    m.start();
    const double t0 = wallSeconds();
    std::vector<std::thread> workers;
    for (long long t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            const long long mine = count / threads + (t < count % threads ? 1 : 0);
            const double perThreadRate = double(rate) / double(threads);
            for (long long i = 0; i < mine; ++i) {
                // Pace in small bursts: sleeping per call would cost more than the call.
                if (rate && (i & 63) == 0) {
                    const double due = t0 + double(i) / perThreadRate;
                    const double now = wallSeconds();
                    if (due > now)
                        usleep(useconds_t((due - now) * 1e6));
                }
                const int fd = openat(AT_FDCWD, path.c_str(), O_RDONLY | O_CLOEXEC);
                if (fd < 0)
                    ++failures;
                else
                    close(fd);
            }
        });
    }
    for (std::thread &w : workers)
        w.join();
    if (failures)
        die(args.program(), std::to_string(failures.load()) + " opens of " + path + " failed");
    m.finish(count, "\"threads\":" + std::to_string(threads) + ",\"rate\":" + std::to_string(rate));
    return 0;
}
