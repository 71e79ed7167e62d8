// The memleak probe's test program: known allocations from known functions, on command.
// It warms up (the allocator's first calls, the lazy binding of every function it calls), says
// 'r' on stdout, then reads stdin: 'g' runs the work and answers 'd'; 'x' exits without freeing
// anything; end of input exits too. Nothing else in it allocates once it said 'r' (no stdio).
//
// The work, per function (argv[1], a count, scales the churn):
// - bpflens_leak: LEAKS blocks of LEAK_SIZE by malloc, kept;
// - bpflens_churn: CHURN blocks of CHURN_SIZE, each freed at once;
// - bpflens_calloc_leak: 3 calloc(10, 300), kept;
// - bpflens_realloc_leak: malloc(100), then realloc to 5000, kept (the first block freed);
// - bpflens_memalign_leak: 2 posix_memalign(64, 2048) and 1 memalign(256, 512), kept;
// - bpflens_mmap_leak: one 1 MiB anonymous mmap kept, one 64 KiB mapped and unmapped;
// - bpflens_hoard: argv[2] (default 0) blocks of 64 bytes, kept.
#define _GNU_SOURCE
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define LEAKS 20
#define LEAK_SIZE 4000
#define CHURN_SIZE 1000

static void *volatile kept[64];
static int nkept;
static void *volatile sink;
static void **hoard;

static void keep(void *p)
{
    if (nkept < 64)
        kept[nkept++] = p;
}

__attribute__((noinline)) void bpflens_hoard(long n)
{
    for (long i = 0; i < n; ++i)
        hoard[i] = malloc(64);
}

__attribute__((noinline)) void bpflens_leak(void)
{
    for (int i = 0; i < LEAKS; ++i)
        keep(malloc(LEAK_SIZE));
}

__attribute__((noinline)) void bpflens_churn(long n)
{
    for (long i = 0; i < n; ++i) {
        sink = malloc(CHURN_SIZE);
        free(sink);
    }
}

__attribute__((noinline)) void bpflens_calloc_leak(void)
{
    for (int i = 0; i < 3; ++i)
        keep(calloc(10, 300));
}

__attribute__((noinline)) void bpflens_realloc_leak(void)
{
    void *p = malloc(100);
    sink = p;
    keep(realloc(p, 5000));
}

__attribute__((noinline)) void bpflens_memalign_leak(void)
{
    for (int i = 0; i < 2; ++i) {
        void *p = 0;
        if (posix_memalign(&p, 64, 2048) == 0)
            keep(p);
    }
    keep(memalign(256, 512));
}

__attribute__((noinline)) void bpflens_mmap_leak(void)
{
    void *p = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED)
        keep(p);
    p = mmap(0, 64 << 10, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED)
        munmap(p, 64 << 10);
}

int main(int argc, char **argv)
{
    long churn = argc > 1 ? atol(argv[1]) : 50;
    long hoarded = argc > 2 ? atol(argv[2]) : 0;
    char c;

    hoard = calloc((size_t)hoarded + 1, sizeof(void *));

    /* every path once, freed: the allocator set up and every function bound */
    free(malloc(16));
    free(calloc(1, 16));
    free(realloc(malloc(16), 32));
    void *p = 0;
    if (posix_memalign(&p, 64, 64) == 0)
        free(p);
    free(memalign(64, 64));
    munmap(mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), 4096);
    if (write(1, "r", 1) != 1)
        return 1;
    while (read(0, &c, 1) == 1) {
        if (c == 'x')
            return 0;
        if (c != 'g')
            continue;
        bpflens_leak();
        bpflens_churn(churn);
        bpflens_calloc_leak();
        bpflens_realloc_leak();
        bpflens_memalign_leak();
        bpflens_mmap_leak();
        bpflens_hoard(hoarded);
        hoarded = 0;
        if (write(1, "d", 1) != 1)
            return 1;
    }
    return 0;
}
