// User function calls: bench_word(word) called --count times with four words in turn, the calls
// strlen_count counts by string (the uprobe probe with key=str(arg0), or bpftrace's uprobe with
// @[str(arg0)] = count()).

#include "workload.h"

using namespace bpflens::bench;

volatile size_t ucall_sink;

// Global, not inlined nor cloned: the symbol is where every call goes.
extern "C" __attribute__((noinline, used)) size_t bench_word(const char *word)
{
    const size_t n = std::strlen(word);
    ucall_sink = ucall_sink + n;
    return n;
}

int main(int argc, char **argv)
{
    const Args args(argc, argv, {{"count", "100000"}});
    const long long count = args.number("count", 1, 1000000000);
    static const char *const words[] = {"alpha", "bravo", "charlie", "delta"};
    Measurement m("ucall");
    m.start();
    for (long long i = 0; i < count; ++i)
        bench_word(words[i % 4]);
    m.finish(count);
    return 0;
}
