// A CPU-bound call chain with a known cost per function, for the profile benchmark:
// main -> chain_a -> chain_b -> chain_c -> leaf_spin, where each function spins by itself for
// 1, 2, 3 and 4 units of work, so a correct profile puts 10%, 20%, 30% and 40% of the samples
// in them (self) and the whole chain under main. Built twice (bench/CMakeLists.txt): with frame
// pointers (bench-cpu-fp) and without (bench-cpu-nofp), where only DWARF unwinding finds the
// callers.
//
// --procs N forks N workers (one per CPU: every sample of a 99 Hz profile lands in them), each
// running main's loop for --seconds. The JSON line counts chain_a calls (ops) and their CPU time.
// With --linger 1 every worker stays alive after the line, until stdin closes: a profiler that
// resolves user symbols only when it prints (bpftrace) can still read their /proc/PID/maps.

#include "workload.h"

#include <cerrno>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

using namespace bpflens::bench;

namespace {

long long g_unit = 2000; // LCG steps per unit of work

// Inlined into each chain function so that its samples are its own, not a helper's.
[[gnu::always_inline]] inline unsigned long long work(long long units, unsigned long long x)
{
    for (long long i = 0; i < units * g_unit; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        x ^= x >> 29;
        asm volatile("" : "+r"(x)); // no closed form, no vectorising
    }
    return x;
}

} // namespace

// extern "C", noinline and (GCC) noclone: the symbols are exactly these names, and no call
// becomes a jump (each adds to the callee's result after it returns), so every frame stays on the
// stack. clang has no noclone; noinline keeps its symbols and frames.
#if defined(__clang__)
#define CHAIN_FUNCTION [[gnu::noinline]]
#else
#define CHAIN_FUNCTION [[gnu::noinline, gnu::noclone]]
#endif
extern "C" {
// leaf_spin calls this once per op (a few instructions against its 8000 LCG steps) only so that
// it is not a leaf: GCC 12 gives a leaf function no frame even with -fno-omit-frame-pointer
// -mno-omit-leaf-frame-pointer, and a frame-pointer walk from it then skips chain_c.
CHAIN_FUNCTION unsigned long long chain_end(unsigned long long x)
{
    asm volatile("" : "+r"(x));
    return x;
}
CHAIN_FUNCTION unsigned long long leaf_spin(unsigned long long x)
{
    return chain_end(work(4, x)) + 1;
}
CHAIN_FUNCTION unsigned long long chain_c(unsigned long long x)
{
    x = work(3, x);
    return leaf_spin(x) + 1;
}
CHAIN_FUNCTION unsigned long long chain_b(unsigned long long x)
{
    x = work(2, x);
    return chain_c(x) + 1;
}
CHAIN_FUNCTION unsigned long long chain_a(unsigned long long x)
{
    x = work(1, x);
    return chain_b(x) + 1;
}
}

namespace {

double ownCpuSeconds()
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
           double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    const Args args(argc, argv,
                    {{"seconds", "10"}, {"procs", "2"}, {"unit", "2000"}, {"linger", "0"}});
    const double seconds = double(args.number("seconds", 1, 3600));
    const long long procs = args.number("procs", 1, 256);
    g_unit = args.number("unit", 1, 100000000);
    const bool linger = args.number("linger", 0, 1) != 0;

    int results[2];
    if (pipe(results) != 0)
        die(args.program(), std::string("pipe: ") + std::strerror(errno));
    const double wall0 = wallSeconds();
    std::vector<pid_t> workers;
    for (long long p = 0; p < procs; ++p) {
        const pid_t pid = fork();
        if (pid < 0)
            die(args.program(), std::string("fork: ") + std::strerror(errno));
        if (pid == 0) {
            // The chain runs right here in main, so every stack reads main -> chain_a -> ...
            close(results[0]);
            const double cpu0 = ownCpuSeconds();
            const double end = wallSeconds() + seconds;
            unsigned long long x = 0x9e3779b97f4a7c15ull + unsigned(p);
            long long ops = 0;
            while ((ops & 15) != 0 || wallSeconds() < end) {
                x = chain_a(x);
                ++ops;
            }
            char line[96];
            const int n = std::snprintf(line, sizeof line, "%lld %.6f %llu\n", ops,
                                        ownCpuSeconds() - cpu0, x & 1);
            if (write(results[1], line, size_t(n)) != n)
                _exit(1);
            close(results[1]);
            if (linger) {
                char c;
                while (read(STDIN_FILENO, &c, 1) > 0) {
                }
            }
            _exit(0);
        }
        workers.push_back(pid);
    }
    close(results[1]);
    long long ops = 0;
    double cpu = 0;
    FILE *in = fdopen(results[0], "r");
    long long o;
    double c;
    unsigned long long bit;
    int reports = 0;
    while (in && std::fscanf(in, "%lld %lf %llu", &o, &c, &bit) == 3) {
        ops += o;
        cpu += c;
        ++reports;
    }
    if (reports != procs)
        die(args.program(), "a worker did not report");
    const double wall = wallSeconds() - wall0;
    std::printf("{\"workload\":\"cpuchain\",\"ops\":%lld,\"wall_s\":%.6f,\"cpu_s\":%.6f,"
                "\"procs\":%lld,\"unit\":%lld,\"ops_per_cpu_s\":%.1f}\n",
                ops, wall, cpu, procs, g_unit, cpu > 0 ? double(ops) / cpu : 0.0);
    std::fflush(stdout);
    for (pid_t pid : workers)
        waitpid(pid, nullptr, 0);
    return 0;
}
