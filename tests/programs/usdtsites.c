/* Fires bpflens:site, one USDT probe written at two places whose argument specs differ, and
 * bpflens:done after each (also at two places), for the tests of probes at several sites:
 *   usdtsites CONST_COUNT VAR_N VAR_COUNT
 * The first place fires site(7, c) and done(7) CONST_COUNT times: its first argument is the
 * constant 7 ("-4@$7"). The second fires site(VAR_N, c) and done(VAR_N) VAR_COUNT times: VAR_N
 * comes from the command line, so it is in a register. c counts 0..COUNT-1 at each.
 * bpflens:many is at 65 places, one more than a probe is attached at: it is only refused. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>

volatile unsigned long long sites_sink;

static void __attribute__((noinline)) fire_constant(unsigned long long c)
{
    DTRACE_PROBE2(bpflens, site, 7, c);
    sites_sink += c;
    DTRACE_PROBE1(bpflens, done, 7);
}

static void __attribute__((noinline)) fire_variable(int n, unsigned long long c)
{
    DTRACE_PROBE2(bpflens, site, n, c);
    sites_sink += c * 3;
    DTRACE_PROBE1(bpflens, done, n);
}

#define MANY1 DTRACE_PROBE(bpflens, many);
#define MANY8 MANY1 MANY1 MANY1 MANY1 MANY1 MANY1 MANY1 MANY1

static void __attribute__((noinline)) fire_many(void)
{
    MANY8 MANY8 MANY8 MANY8 MANY8 MANY8 MANY8 MANY8 MANY1
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: usdtsites CONST_COUNT VAR_N VAR_COUNT\n");
        return 2;
    }
    const long constants = atol(argv[1]);
    const int n = atoi(argv[2]);
    const long variables = atol(argv[3]);
    if (constants < 0)
        fire_many();
    for (long c = 0; c < constants; c++)
        fire_constant((unsigned long long)c);
    for (long c = 0; c < variables; c++)
        fire_variable(n, (unsigned long long)c);
    return 0;
}
