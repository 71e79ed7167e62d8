/* Sleeps with a known call chain for the offcpu probe's test: main -> sleep_a -> sleep_b ->
 * nap. Built twice: sleepchain, with frame pointers, where nap makes the system call itself
 * (inline on x86_64, so the thread blocks in a function with a frame pointer and the kernel's
 * frame-pointer walk sees the whole chain); and sleepchain_nofp (SLEEPCHAIN_LIBC), without frame
 * pointers and through libc's nanosleep, as most of Debian's code blocks: only DWARF unwinding
 * from a copy of the user stack finds the chain there.
 *   sleepchain [count, default 10] [milliseconds, default 50] [linger ms, default 0]
 *              [short waits, default 0]
 * With a linger it stays that long after its sleeps (in main, outside the chain) before it
 * exits. Short waits come first: that many waits of a microsecond (under any minimum), each
 * through a call chain of its own (up to 2^14); then it stops itself (SIGSTOP) until whoever
 * records it sends SIGCONT, and the sleeps follow. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__clang__)
#define CHAIN_FUNCTION __attribute__((noinline))
#else
/* noipa: neither inlined nor cloned (sleep_b.constprop.0 would not match the test's names) */
#define CHAIN_FUNCTION __attribute__((noipa))
#endif

volatile long sleep_sink;

/* Inlined into its caller, so that the caller is the frame that blocks. */
static inline __attribute__((always_inline)) long sleep_for(const struct timespec *t)
{
    long ret;
#if defined(__x86_64__) && !defined(SLEEPCHAIN_LIBC)
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "0"((long)SYS_nanosleep), "D"(t), "S"(0L)
                     : "rcx", "r11", "memory");
#else
    ret = nanosleep(t, NULL);
#endif
    sleep_sink = sleep_sink + ret;
    return ret;
}

CHAIN_FUNCTION long nap(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    return sleep_for(&t);
}

CHAIN_FUNCTION long sleep_b(long ms)
{
    long r = nap(ms);
    sleep_sink = sleep_sink + r;
    return r + 2;
}

CHAIN_FUNCTION long sleep_a(long ms)
{
    long r = sleep_b(ms);
    sleep_sink = sleep_sink + r;
    return r + 1;
}

CHAIN_FUNCTION long tiny_wait(void)
{
    struct timespec t = {0, 1000};
    return sleep_for(&t);
}

CHAIN_FUNCTION long branch(unsigned path, int level);

/* Two functions that differ (not folded into one), each a frame of its own on the way down */
CHAIN_FUNCTION long branch_0(unsigned path, int level)
{
    long r = branch(path, level);
    sleep_sink = sleep_sink + r;
    return r + 1;
}

CHAIN_FUNCTION long branch_1(unsigned path, int level)
{
    long r = branch(path, level);
    sleep_sink = sleep_sink + r * 3;
    return r + 2;
}

/* The bits of path below level choose the frames: each path waits in a chain of its own */
CHAIN_FUNCTION long branch(unsigned path, int level)
{
    long r;
    if (level == 0)
        r = tiny_wait();
    else if (path & (1u << (level - 1)))
        r = branch_1(path, level - 1);
    else
        r = branch_0(path, level - 1);
    sleep_sink = sleep_sink + r;
    return r;
}

int main(int argc, char **argv)
{
    const int count = argc > 1 ? atoi(argv[1]) : 10;
    const long ms = argc > 2 ? atol(argv[2]) : 50;
    const long linger = argc > 3 ? atol(argv[3]) : 0;
    const long shortWaits = argc > 4 ? atol(argv[4]) : 0;
    for (long i = 0; i < shortWaits; ++i)
        sleep_sink = sleep_sink + branch((unsigned)i, 14);
    if (shortWaits > 0)
        raise(SIGSTOP);
    for (int i = 0; i < count; ++i)
        sleep_sink = sleep_sink + sleep_a(ms);
    if (linger > 0)
        usleep((useconds_t)linger * 1000);
    return 0;
}
