// Buffered I/O through the page cache: 4 KiB writes and reads of a file on the root file
// system, with an fsync every --sync operations, the traffic cachestat counts.

#include "workload.h"

#include <vector>

#include <fcntl.h>
#include <unistd.h>

using namespace bpflens::bench;

int main(int argc, char **argv)
{
    const Args args(argc, argv,
                    {{"count", "20000"},
                     {"sync", "64"},
                     {"file", "/var/tmp/bpflens-bench-buffered"},
                     {"blocks", "1024"}});
    const long long count = args.number("count", 1, 1000000000);
    const long long sync = args.number("sync", 1, 1000000000);
    const long long blocks = args.number("blocks", 1, 1 << 20);
    const std::string file = args.text("file");
    constexpr size_t BlockSize = 4096;
    std::vector<char> buffer(BlockSize, 'b');
    const int fd = open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        die(args.program(), "cannot open " + file + ": " + std::strerror(errno));
    // Every block exists before timing, so each read returns a full block from the cache.
    for (long long b = 0; b < blocks; ++b)
        if (pwrite(fd, buffer.data(), BlockSize, off_t(b * BlockSize)) != ssize_t(BlockSize))
            die(args.program(), "cannot fill " + file + ": " + std::strerror(errno));

    Measurement m("buffered");
    m.start();
    for (long long i = 0; i < count; ++i) {
        const off_t offset = off_t((i % blocks) * BlockSize);
        // Alternate: the writes dirty pages, the reads hit them in the cache.
        const ssize_t done = (i & 1) ? pread(fd, buffer.data(), BlockSize, offset)
                                     : pwrite(fd, buffer.data(), BlockSize, offset);
        if (done != ssize_t(BlockSize))
            die(args.program(), "I/O on " + file + " failed" +
                                    (done < 0 ? std::string(": ") + std::strerror(errno)
                                              : std::string(": short transfer")));
        if ((i + 1) % sync == 0 && fsync(fd) != 0)
            die(args.program(), "fsync of " + file + " failed: " + std::strerror(errno));
    }
    m.finish(count, "\"fsyncs\":" + std::to_string(count / sync));
    close(fd);
    return 0;
}
