/* A known chain of wakeups for the offwake probe's test: thread A (the main thread, "wakee")
 * blocks count times; thread B ("waker") wakes it each time, after sleeping sleep_ms in
 * writer_sleep and computing compute_ms in wake_writer_compute:
 *   wakechain pipe|futex [count, default 20] [sleep ms, default 20] [compute ms, default 5]
 *             [file] [sleeps file]
 * With a file, it writes "<A's tid> <B's tid>\n" into it at the end; with a sleeps file, the
 * CLOCK_MONOTONIC time (the clock of bpf_ktime_get_ns) at which each of B's sleeps began, in ns,
 * one a line: the sleep's timer is armed after it, so B's wait ends 20 ms after it at the
 * earliest, however long the thread took to get from the call to its switch-out.
 * pipe: A blocks reading a pipe in wait_for_byte; B writes the byte in wake_writer_write.
 * futex: A blocks on a condition variable in wait_for_signal; B signals it in
 * wake_writer_signal.
 * B starts a round only once A is off the CPU (A's voluntary context switches went up after A
 * announced its wait), so each of A's waits holds B's whole sleep and compute: A's time off the
 * CPU is at least sleep_ms + compute_ms, exactly. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__clang__)
#define CHAIN_FUNCTION __attribute__((noinline))
#else
#define CHAIN_FUNCTION __attribute__((noipa))
#endif

static int count = 20;
static long sleep_ms = 20;
static long compute_ms = 5;
static int use_futex;
static int pipe_fds[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int signalled;

static _Atomic int announced;        /* rounds A announced it is about to wait for */
static _Atomic long switches_before; /* A's voluntary context switches at its announcement */
static _Atomic pid_t wakee_tid;
static _Atomic pid_t waker_tid;
static long *sleep_starts; /* per round, B's clock as it called writer_sleep */
volatile unsigned long compute_sink;

static long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static long voluntary_switches(pid_t tid)
{
    char path[64], line[256];
    long n = -1;
    snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f)) {
        if (strncmp(line, "voluntary_ctxt_switches:", 24) == 0)
            n = atol(line + 24);
    }
    fclose(f);
    return n;
}

static void announce(int round)
{
    struct rusage u;
    getrusage(RUSAGE_THREAD, &u);
    atomic_store(&switches_before, u.ru_nvcsw);
    atomic_store(&announced, round + 1);
}

CHAIN_FUNCTION int wait_for_byte(int round)
{
    char b;
    announce(round);
    const int r = read(pipe_fds[0], &b, 1) == 1 ? 0 : -1;
    compute_sink = compute_sink + (unsigned long)r;
    return r;
}

CHAIN_FUNCTION int wait_for_signal(int round)
{
    pthread_mutex_lock(&lock);
    announce(round);
    while (!signalled)
        pthread_cond_wait(&cond, &lock);
    signalled = 0;
    pthread_mutex_unlock(&lock);
    return 0;
}

CHAIN_FUNCTION void writer_sleep(void)
{
    struct timespec t = {sleep_ms / 1000, (sleep_ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0)
        ;
}

CHAIN_FUNCTION void wake_writer_compute(void)
{
    const long end = now_ns() + compute_ms * 1000000L;
    unsigned long x = 1;
    while (now_ns() < end) {
        for (int i = 0; i < 1000; ++i)
            x = x * 6364136223846793005ul + 1442695040888963407ul;
    }
    compute_sink = x;
}

CHAIN_FUNCTION int wake_writer_write(void)
{
    const char b = 1;
    return write(pipe_fds[1], &b, 1) == 1 ? 0 : -1;
}

CHAIN_FUNCTION int wake_writer_signal(void)
{
    pthread_mutex_lock(&lock);
    signalled = 1;
    pthread_mutex_unlock(&lock);
    /* after the unlock: A, woken, does not block again on the mutex B still holds */
    const int r = pthread_cond_signal(&cond);
    compute_sink = compute_sink + (unsigned long)r; /* not a tail call: this frame stays */
    return r;
}

CHAIN_FUNCTION void writer_round(int round)
{
    /* wait until A is off the CPU in its wait of this round */
    while (atomic_load(&announced) <= round)
        sched_yield();
    while (voluntary_switches(atomic_load(&wakee_tid)) <= atomic_load(&switches_before))
        sched_yield();
    sleep_starts[round] = now_ns();
    writer_sleep();
    wake_writer_compute();
    const int r = use_futex ? wake_writer_signal() : wake_writer_write();
    compute_sink = compute_sink + (unsigned long)r; /* (not a tail call) */
}

static void *waker_main(void *arg)
{
    (void)arg;
    atomic_store(&waker_tid, (pid_t)syscall(SYS_gettid));
    for (int i = 0; i < count; ++i)
        writer_round(i);
    return NULL;
}

int main(int argc, char **argv)
{
    use_futex = argc > 1 && strcmp(argv[1], "futex") == 0;
    if (argc > 2)
        count = atoi(argv[2]);
    if (argc > 3)
        sleep_ms = atol(argv[3]);
    if (argc > 4)
        compute_ms = atol(argv[4]);
    if (count < 0 || pipe(pipe_fds) != 0)
        return 2;
    sleep_starts = calloc((size_t)count + 1, sizeof(long));
    if (!sleep_starts)
        return 2;
    atomic_store(&wakee_tid, (pid_t)syscall(SYS_gettid));
    pthread_t waker;
    if (pthread_create(&waker, NULL, waker_main, NULL) != 0)
        return 2;
    pthread_setname_np(waker, "waker");
    pthread_setname_np(pthread_self(), "wakee");
    for (int i = 0; i < count; ++i) {
        if ((use_futex ? wait_for_signal(i) : wait_for_byte(i)) != 0)
            return 1;
    }
    pthread_join(waker, NULL);
    if (argc > 5) {
        FILE *f = fopen(argv[5], "w");
        if (!f ||
            fprintf(f, "%d %d\n", (int)atomic_load(&wakee_tid), (int)atomic_load(&waker_tid)) < 0 ||
            fclose(f) != 0)
            return 3;
    }
    if (argc > 6) {
        FILE *f = fopen(argv[6], "w");
        if (!f)
            return 3;
        for (int i = 0; i < count; ++i)
            fprintf(f, "%ld\n", sleep_starts[i]);
        if (fclose(f) != 0)
            return 3;
    }
    return 0;
}
