// The C++ counterpart of callchain.c, for demangling: main -> bpflens_test::relay<int> ->
// bpflens_test::Spinner::spin, which spins (and dumps, with --dump FILE; dumpstack.h).
//   cxxchain [seconds, default 2] [--dump FILE]
#include "dumpstack.h"

#include <chrono>

// GCC's noipa: not inlined, cloned or specialised for its arguments. clang has no noipa; noinline
// keeps the symbols and the frames that the symbolizer's tests look for.
#if defined(__clang__)
#define CHAIN_FUNCTION __attribute__((noinline))
#else
#define CHAIN_FUNCTION __attribute__((noipa))
#endif

namespace bpflens_test {

volatile unsigned long sink;

struct Spinner
{
    CHAIN_FUNCTION unsigned long spin(double seconds, const char *dump);
    unsigned long counter = 0;
};

unsigned long Spinner::spin(double seconds, const char *dump)
{
    BPFLENS_DUMP_STACK(dump);
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end)
        for (int i = 0; i < 100000; ++i)
            sink = sink + 1;
    return sink;
}

template<typename T>
CHAIN_FUNCTION T relay(Spinner &spinner, double seconds, const char *dump)
{
    T r = static_cast<T>(spinner.spin(seconds, dump));
    sink = sink + static_cast<unsigned long>(r);
    return r + 1;
}

} // namespace bpflens_test

int main(int argc, char **argv)
{
    double seconds;
    const char *dump;
    bpflens_parse_arguments(argc, argv, &seconds, &dump);
    bpflens_test::Spinner spinner;
    const int r = bpflens_test::relay<int>(spinner, seconds, dump);
    bpflens_test::sink = bpflens_test::sink + static_cast<unsigned long>(r);
    return 0;
}
