/* Calls known functions with known arguments, for the uprobe probe's tests:
 *   uprobetarget ITEM...
 * where an ITEM is WORD:N:COUNT, which calls bpflens_count(WORD, N) COUNT times, or
 * sleep:US:COUNT, which calls bpflens_sleep(US) COUNT times (each sleeps US microseconds).
 * The functions are global, neither inlined nor cloned, so their symbols are where the calls go. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

TARGET_FUNCTION void bpflens_sleep(long us)
{
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&t, &t) != 0) {
    }
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        char word[256];
        long n, count;
        if (sscanf(argv[i], "%255[^:]:%ld:%ld", word, &n, &count) != 3) {
            fprintf(stderr, "uprobetarget: %s is not WORD:N:COUNT\n", argv[i]);
            return 2;
        }
        for (long c = 0; c < count; c++) {
            if (strcmp(word, "sleep") == 0)
                bpflens_sleep(n);
            else
                bpflens_count(word, n);
        }
    }
    return 0;
}
