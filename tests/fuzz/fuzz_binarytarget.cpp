// libFuzzer target for the uprobe probe's handling of binaries a caller names (docs/security.md):
// the client's resolveBinaryTarget (client/binarytarget.cpp: libelf, symbol tables, program
// headers) and the root helper's checkUprobeFile (helper/uprobefile.cpp: ELF and program headers
// by pread). The input is the file, in a memfd, named by its /proc/self/fd path: an absolute
// path, so no ldconfig runs, and the dynamic linker is never asked to open it (an IFUNC is only
// resolved through a file this process has already loaded). Never crashes, never reads out of
// bounds, never hangs; and whatever the client resolves, the helper accepts. The same for the
// usdt probe's resolution (.note.stapsdt, client/usdtnotes.h) and the helper's semaphore check.
#include "client/binarytarget.h"
#include "client/usdtnotes.h"
#include "helper/uprobefile.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

using namespace bpflens;

namespace {

int memfdWith(const uint8_t *data, size_t size)
{
    const int fd = memfd_create("fuzz-elf", MFD_CLOEXEC);
    if (fd < 0) {
        perror("memfd_create");
        __builtin_trap();
    }
    size_t done = 0;
    while (done < size) {
        const ssize_t n = write(fd, data + done, size - done);
        if (n <= 0) {
            perror("write");
            __builtin_trap();
        }
        done += size_t(n);
    }
    return fd;
}

void resolveAndCheck(const QString &spec)
{
    BinaryTarget target;
    QString error;
    if (!resolveBinaryTarget(spec, 0, &target, &error)) {
        if (error.isEmpty() || target.file.isValid())
            __builtin_trap();
        return;
    }
    (void)target.display();
    // The client refuses what the helper would refuse: a user never gets a target that the
    // helper then turns down.
    if (!checkUprobeFile(target.file.get(), target.offset, &error)) {
        fprintf(stderr, "resolved %s, but the helper says: %s\n", qPrintable(target.display()),
                qPrintable(error));
        __builtin_trap();
    }
}

// The usdt probe's resolution of the same file: whatever the client resolves, the helper's
// checks of every site's and the semaphore's offsets accept, and the specs it sends read back.
void resolveUsdtAndCheck(const QString &spec)
{
    UsdtTarget target;
    QString error;
    if (!resolveUsdtTarget(spec, 0, &target, &error)) {
        if (error.isEmpty() || target.file.isValid())
            __builtin_trap();
        return;
    }
    (void)target.display();
    if (!checkUprobeFile(target.file.get(), target.offset, &error) ||
        (target.semaphoreOffset &&
         !checkUsdtSemaphore(target.file.get(), target.semaphoreOffset, &error))) {
        fprintf(stderr, "resolved %s, but the helper says: %s\n", qPrintable(target.display()),
                qPrintable(error));
        __builtin_trap();
    }
    QList<UsdtArg> back;
    if (!parseUsdtArgs(formatUsdtArgs(target.args), &back, &error) || back != target.args)
        __builtin_trap();
    // A probe at several places: every site, and the sites as the helper reads them back.
    if (target.sites.isEmpty() || target.sites.size() > MaxUsdtSites)
        __builtin_trap();
    for (const UsdtSite &site : std::as_const(target.sites)) {
        if (!checkUprobeFile(target.file.get(), site.offset, &error))
            __builtin_trap();
    }
    QList<UsdtSite> sites;
    if (!parseUsdtSites(formatUsdtSites(target.sites), &sites, &error) || sites != target.sites)
        __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const int fd = memfdWith(data, size);

    // Offsets the helper is handed: fixed ones, and ones the input itself chooses.
    uint64_t tail = 0;
    if (size >= sizeof tail)
        std::memcpy(&tail, data + size - sizeof tail, sizeof tail);
    const uint64_t offsets[] = {0, 0x1000, size / 2, size ? size - 1 : 0, tail, tail % (size + 1)};
    for (const uint64_t offset : offsets) {
        QString error;
        if (!checkUprobeFile(fd, offset, &error) && error.isEmpty())
            __builtin_trap();
    }

    const QString path = QStringLiteral("/proc/self/fd/%1").arg(fd);
    resolveAndCheck(path + QStringLiteral(":bpflens_count"));
    resolveAndCheck(path + QStringLiteral(":0x1000"));
    resolveUsdtAndCheck(path + QStringLiteral(":bpflens:tick"));
    resolveUsdtAndCheck(path + QStringLiteral(":guarded"));
    for (const uint64_t offset : offsets) {
        QString error;
        if (!checkUsdtSemaphore(fd, offset, &error) && error.isEmpty())
            __builtin_trap();
    }
    close(fd);
    return 0;
}
