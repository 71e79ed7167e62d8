/* Calls known functions with known arguments, for the uprobe probe's tests:
 *   uprobetarget ITEM...
 * where an ITEM is WORD:N:COUNT, which calls bpflens_count(WORD, N) COUNT times, or
 * sleep:US:COUNT, which calls bpflens_sleep(US) COUNT times (each sleeps US microseconds), or
 * nap:US:COUNT, which calls bpflens_nap(US) COUNT times (the same sleep, with nanosleep its only
 * system call: where the clock has no vDSO, as on a guest whose TSC was found unstable,
 * bpflens_sleep's clock_gettime is a system call too), or
 * sync:US:COUNT, which calls libc's sync() COUNT times, each after sleeping US microseconds
 * (but the run's first sync() call: items sync:0:1 sync:10000:1 sync:30000:2 are 10, 30 and 30 ms
 * apart).
 * With BPFLENS_UPROBETARGET_TIMES=FILE it writes a line "US INNER_NS OUTER_NS" to FILE for each
 * bpflens_sleep call: the time the function's body took and the time around the call, both on
 * CLOCK_MONOTONIC (the clock of bpf_ktime_get_ns). A uprobe's latency of the call lies between
 * the two, however late a loaded machine woke the sleeper. For each sync() call the line is
 * "sync BEFORE_NS AFTER_NS", the times just before the call and just after it returned.
 * The functions are global, neither inlined nor cloned, so their symbols are where the calls go. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__clang__)
#define TARGET_FUNCTION __attribute__((noinline, used))
#else
#define TARGET_FUNCTION __attribute__((noipa, used))
#endif

volatile long target_sink;

TARGET_FUNCTION long bpflens_count(const char *word, long n)
{
    target_sink += (long)strlen(word) + n;
    return n;
}

static long long monotonic_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
}

volatile long long sleep_inner_ns;

TARGET_FUNCTION void bpflens_sleep(long us)
{
    const long long t0 = monotonic_ns();
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&t, &t) != 0) {
    }
    sleep_inner_ns = monotonic_ns() - t0;
}

TARGET_FUNCTION void bpflens_nap(long us)
{
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&t, &t) != 0) {
    }
}

int main(int argc, char **argv)
{
    const char *times_path = getenv("BPFLENS_UPROBETARGET_TIMES");
    FILE *times = times_path ? fopen(times_path, "w") : NULL;
    if (times_path && !times) {
        perror(times_path);
        return 2;
    }
    int synced = 0;
    for (int i = 1; i < argc; i++) {
        char word[256];
        long n, count;
        if (sscanf(argv[i], "%255[^:]:%ld:%ld", word, &n, &count) != 3) {
            fprintf(stderr, "uprobetarget: %s is not WORD:N:COUNT\n", argv[i]);
            return 2;
        }
        for (long c = 0; c < count; c++) {
            if (strcmp(word, "sync") == 0) {
                if (synced) {
                    struct timespec t = {n / 1000000, (n % 1000000) * 1000};
                    while (nanosleep(&t, &t) != 0) {
                    }
                }
                const long long before = monotonic_ns();
                sync();
                const long long after = monotonic_ns();
                synced = 1;
                if (times)
                    fprintf(times, "sync %lld %lld\n", before, after);
            } else if (strcmp(word, "sleep") == 0) {
                const long long t0 = monotonic_ns();
                bpflens_sleep(n);
                const long long outer = monotonic_ns() - t0;
                if (times)
                    fprintf(times, "%ld %lld %lld\n", n, sleep_inner_ns, outer);
            } else if (strcmp(word, "nap") == 0) {
                bpflens_nap(n);
            } else {
                bpflens_count(word, n);
            }
        }
    }
    if (times && fclose(times) != 0) {
        perror(times_path);
        return 2;
    }
    return 0;
}
