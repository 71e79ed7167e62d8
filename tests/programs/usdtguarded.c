/* usdttarget's probe with a semaphore: its own file, since _SDT_HAS_SEMAPHORES gives every
 * probe of a file one. The body runs only while a tracer holds the semaphore. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

unsigned short bpflens_guarded_semaphore __attribute__((unused, section(".probes")));

volatile long guarded_sink;

void __attribute__((noinline)) bpflens_fire_guarded(long n, const char *word)
{
    if (__builtin_expect(bpflens_guarded_semaphore, 0)) {
        guarded_sink += n;
        STAP_PROBE2(bpflens, guarded, n, word);
    }
}
