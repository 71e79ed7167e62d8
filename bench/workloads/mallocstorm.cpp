// Allocations (the memleak probe's bench, bench/memleak-cost.py): after a byte on stdin (so a
// recorder can attach to the running process first), bench_churn allocates and frees --count
// blocks of 16 to 4096 bytes, one at a time, and bench_leak keeps --leak blocks of 4000 bytes;
// --rate paces the churn to that many allocations a second (0: as fast as it goes). Prints the
// churn's wall and CPU time, then waits for end of input so the kept blocks are still there when
// the recorder stops.

#include "workload.h"

#include <cstdlib>
#include <thread>
#include <unistd.h>

using namespace bpflens::bench;

void *volatile malloc_sink;

extern "C" __attribute__((noinline, used)) void bench_churn(long long count, long long rate)
{
    const double start = wallSeconds();
    for (long long i = 0; i < count; ++i) {
        malloc_sink = std::malloc(size_t(16 << (i % 9)));
        std::free(malloc_sink);
        // Paced in steps of 1000, so the pacing costs nothing per allocation.
        if (rate > 0 && i % 1000 == 999) {
            const double due = start + double(i + 1) / double(rate);
            const double now = wallSeconds();
            if (due > now)
                std::this_thread::sleep_for(std::chrono::duration<double>(due - now));
        }
    }
}

extern "C" __attribute__((noinline, used)) void bench_leak(long long n)
{
    for (long long i = 0; i < n; ++i)
        malloc_sink = std::malloc(4000);
}

int main(int argc, char **argv)
{
    const Args args(argc, argv, {{"count", "1000000"}, {"leak", "1000"}, {"rate", "0"}});
    const long long count = args.number("count", 1, 1000000000);
    const long long leak = args.number("leak", 0, 1000000);
    const long long rate = args.number("rate", 0, 1000000000);
    char c;
    if (read(0, &c, 1) != 1)
        return 1;
    Measurement m("malloc");
    m.start();
    bench_churn(count, rate);
    m.finish(count);
    bench_leak(leak);
    while (read(0, &c, 1) == 1) {
    }
    return 0;
}
