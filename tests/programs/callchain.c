/* A CPU-bound program with a known call chain, main -> chain_a -> chain_b -> chain_c ->
 * leaf_spin, for the profiler's and the symbolizer's tests. Built twice: callchain_fp (frame
 * pointers) and callchain_nofp (none: only .eh_frame's CFI unwinds it, as most of Debian's
 * binaries). Each call is followed by work, so no call becomes a jump that would drop a frame.
 *   callchain [seconds, default 2] [--dump FILE] [--then-exec PROGRAM ARGS...]
 * leaf_spin spins on a volatile counter for the given time; with --dump it first writes its
 * registers, its stack and the maps into FILE (dumpstack.h). --then-exec replaces the process
 * with PROGRAM ARGS afterwards (the same pid with another image, for the symbolizer's tests). */
#include "dumpstack.h"
#include <unistd.h>

#include <time.h>

#if defined(__clang__)
#define CHAIN_FUNCTION __attribute__((noinline))
#else
/* noipa: neither inlined nor cloned (chain_b.constprop.0 would not match the tests' names). */
#define CHAIN_FUNCTION __attribute__((noipa))
#endif

volatile unsigned long spin_counter;
volatile unsigned long chain_sink;

#if defined(CALLCHAIN_BIG_RODATA)
/* 12 KiB of read-only data before the code: lld then starts the executable segment in the
 * middle of a file page (callchain_unaligned), as it does in every large binary it links. */
const unsigned char callchain_rodata[12345] = {1};
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

CHAIN_FUNCTION unsigned long leaf_spin(double seconds, const char *dump)
{
    BPFLENS_DUMP_STACK(dump);
    const double end = now() + seconds;
    while (now() < end)
        for (int i = 0; i < 100000; ++i)
            spin_counter = spin_counter + 1;
    return spin_counter;
}

CHAIN_FUNCTION unsigned long chain_c(double seconds, const char *dump)
{
    unsigned long r = leaf_spin(seconds, dump);
    chain_sink = chain_sink + r;
    return r + 3;
}

CHAIN_FUNCTION unsigned long chain_b(double seconds, const char *dump)
{
    unsigned long r = chain_c(seconds, dump);
    chain_sink = chain_sink + r;
    return r + 2;
}

CHAIN_FUNCTION unsigned long chain_a(double seconds, const char *dump)
{
    unsigned long r = chain_b(seconds, dump);
    chain_sink = chain_sink + r;
    return r + 1;
}

int main(int argc, char **argv)
{
    double seconds;
    const char *dump;
    int own = argc;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--then-exec") == 0) {
            own = i;
            break;
        }
    }
    bpflens_parse_arguments(own, argv, &seconds, &dump);
    unsigned long r = chain_a(seconds, dump);
#if defined(CALLCHAIN_BIG_RODATA)
    r += callchain_rodata[argc % sizeof(callchain_rodata)];
#endif
    chain_sink = chain_sink + r;
    if (own + 1 < argc) {
        execv(argv[own + 1], argv + own + 1);
        return 127;
    }
    return 0;
}
