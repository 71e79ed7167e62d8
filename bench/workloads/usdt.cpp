// USDT probe hits: bench:word fired --count times with its argument 0, 1, 2, 3 in turn, what the
// usdt probe with key=arg0 (or bpftrace's usdt probe with @[arg0] = count()) counts per value.

#include "workload.h"

#include <sys/sdt.h>

using namespace bpflens::bench;

int main(int argc, char **argv)
{
    const Args args(argc, argv, {{"count", "100000"}});
    const long long count = args.number("count", 1, 1000000000);
    Measurement m("usdt");
    m.start();
    for (long long i = 0; i < count; ++i) {
        const long long word = i % 4;
        DTRACE_PROBE1(bench, word, word);
    }
    m.finish(count);
    return 0;
}
