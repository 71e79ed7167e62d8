// O_DIRECT 4 KiB reads or writes on a file on the root file system: every operation is one
// real block request, which the block probes (and biolatency) see.

#include "workload.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace bpflens::bench;

int main(int argc, char **argv)
{
    const Args args(argc, argv,
                    {{"count", "2000"},
                     {"mode", "read"},
                     {"file", "/var/tmp/bpflens-bench-dio"},
                     {"blocks", "4096"}});
    const long long count = args.number("count", 1, 100000000);
    const long long blocks = args.number("blocks", 1, 1 << 20);
    const std::string mode = args.text("mode");
    const std::string file = args.text("file");
    if (mode != "read" && mode != "write")
        die(args.program(), "--mode must be read or write, not '" + mode + "'");
    constexpr size_t BlockSize = 4096;

    void *buffer = nullptr;
    if (posix_memalign(&buffer, BlockSize, BlockSize) != 0)
        die(args.program(), "out of memory");
    std::memset(buffer, 0x5a, BlockSize);
    const int fd = open(file.c_str(), O_RDWR | O_CREAT | O_DIRECT | O_CLOEXEC, 0600);
    if (fd < 0)
        die(args.program(), "cannot open " + file + " with O_DIRECT: " + std::strerror(errno));
    // Allocated blocks before timing: reads must hit the disk and writes must not allocate.
    struct stat st
    {
    };
    fstat(fd, &st);
    if (st.st_size < off_t(blocks * BlockSize)) {
        for (long long b = 0; b < blocks; ++b)
            if (pwrite(fd, buffer, BlockSize, off_t(b * BlockSize)) != ssize_t(BlockSize))
                die(args.program(), "cannot fill " + file + ": " + std::strerror(errno));
        fsync(fd);
    }

    Measurement m(mode == "read" ? "dio-read" : "dio-write");
    m.start();
    const bool reading = mode == "read";
    for (long long i = 0; i < count; ++i) {
        // Stride through the file so no request merges with the previous one.
        const off_t offset = off_t(((i * 7) % blocks) * BlockSize);
        const ssize_t done =
            reading ? pread(fd, buffer, BlockSize, offset) : pwrite(fd, buffer, BlockSize, offset);
        if (done != ssize_t(BlockSize))
            die(args.program(), mode + " of " + file + " failed: " + std::strerror(errno));
    }
    m.finish(count);
    close(fd);
    free(buffer);
    return 0;
}
