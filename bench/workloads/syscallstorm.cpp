// Unrelated-syscall storm: getppid() --count times through syscall(2), so no libc cache answers
// it and every call enters the kernel. It opens nothing, so a probe that records open calls
// should record none of it: what the row measures is what the probe's hooks cost the system
// calls it does not record (a program on the raw sys_exit tracepoint runs for every system call
// of the machine; per-syscall tracepoints send every call down the kernel's slow path).
// Linked statically (bench/CMakeLists.txt): not even the dynamic loader opens a file under this
// program's comm.

#include "workload.h"

#include <sys/syscall.h>
#include <unistd.h>

using namespace bpflens::bench;

int main(int argc, char **argv)
{
    const Args args(argc, argv, {{"count", "100000"}});
    const long long count = args.number("count", 1, 1000000000);
    const long parent = syscall(SYS_getppid);
    long long wrong = 0;
    Measurement m("getppid");
    m.start();
    for (long long i = 0; i < count; ++i)
        wrong += syscall(SYS_getppid) != parent ? 1 : 0;
    if (wrong)
        die(args.program(), std::to_string(wrong) + " getppid calls returned another parent");
    m.finish(count);
    return 0;
}
