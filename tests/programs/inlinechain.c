/* A CPU-bound program whose hot loop is an always_inline function, for the symbolizer's and the
 * profiler's inline-frame tests (issues #29, #32): main -> inline_caller -> inline_spin, where
 * inline_spin is inlined into inline_caller (-O2 -g), so its code has no symbol of its own and
 * only DWARF's DW_TAG_inlined_subroutine names it.
 *   inlinechain [seconds, default 2] [--dump FILE]
 * The tests find the lines by the markers in the comments: LINE_LOOP and LINE_SPIN (the loop and
 * its body, where the samples fall), LINE_DUMP (where --dump takes its registers, inside
 * inline_spin) and LINE_CALL (inline_caller's call of inline_spin). Keep each on its own line. */
#include "dumpstack.h"

#include <time.h>

#if defined(__clang__)
#define CHAIN_FUNCTION __attribute__((noinline))
#else
#define CHAIN_FUNCTION __attribute__((noipa))
#endif

volatile unsigned long spin_counter;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static inline __attribute__((always_inline)) unsigned long inline_spin(unsigned long n,
                                                                       const char *dump)
{
    BPFLENS_DUMP_STACK(dump);             /* LINE_DUMP */
    for (unsigned long i = 0; i < n; ++i) /* LINE_LOOP */
        spin_counter = spin_counter + 1;  /* LINE_SPIN */
    return spin_counter;
}

CHAIN_FUNCTION unsigned long inline_caller(double seconds, const char *dump)
{
    const double end = now() + seconds;
    unsigned long r = 0;
    do {
        r += inline_spin(1000000, dump); /* LINE_CALL */
        dump = NULL;
    } while (now() < end);
    return r;
}

int main(int argc, char **argv)
{
    double seconds;
    const char *dump;
    bpflens_parse_arguments(argc, argv, &seconds, &dump);
    return inline_caller(seconds, dump) == 0;
}
