/* Fires known USDT probes (sys/sdt.h) with known arguments, for the usdt probe's tests:
 *   usdttarget ITEM...
 * where an ITEM is PROBE:WORD:N:COUNT and PROBE is
 *   tick     bpflens:tick(WORD, N, c), c counting 0..COUNT-1: a string, a signed int and an
 *            unsigned long long;
 *   guarded  bpflens:guarded(N, WORD), fired only while its semaphore is set (usdtguarded.c):
 *            so it is only seen when the probe's reference counter works.
 * Built with -O2 (arguments mostly in registers) and -O0 (in memory on the stack, "-4@-20(%rbp)"),
 * so both kinds of argument spec are read. Each probe is at one place. */
#include <stdio.h>
#include <string.h>
#include <sys/sdt.h>

void bpflens_fire_guarded(long n, const char *word);

volatile unsigned long long target_sink;

static void __attribute__((noinline)) fire_tick(const char *word, int n, unsigned long long c)
{
    DTRACE_PROBE3(bpflens, tick, word, n, c);
    target_sink += c;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        char probe[32], word[256];
        long n, count;
        if (sscanf(argv[i], "%31[^:]:%255[^:]:%ld:%ld", probe, word, &n, &count) != 4) {
            fprintf(stderr, "usdttarget: %s is not PROBE:WORD:N:COUNT\n", argv[i]);
            return 2;
        }
        for (long c = 0; c < count; c++) {
            if (strcmp(probe, "tick") == 0) {
                fire_tick(word, (int)n, (unsigned long long)c);
            } else if (strcmp(probe, "guarded") == 0) {
                bpflens_fire_guarded(n, word);
            } else {
                fprintf(stderr, "usdttarget: no probe %s\n", probe);
                return 2;
            }
        }
    }
    return 0;
}
