#include "uprobefile.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace bpflens {

namespace {

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr unsigned char nativeData = ELFDATA2LSB;
#else
constexpr unsigned char nativeData = ELFDATA2MSB;
#endif

// More than any real file has (the kernel's loader caps the table at 64 KiB), few enough that
// reading the table is cheap whatever the file claims.
constexpr quint32 maxPhnum = 4096;

QString hex(quint64 v)
{
    return QStringLiteral("0x%1").arg(v, 0, 16);
}

// Reads up to size bytes at offset: a regular file on FUSE or NFS may return short counts.
// Returns the number of bytes read (fewer at the end of the file), or -1 with errno.
ssize_t readAt(int fd, void *buf, size_t size, quint64 offset)
{
    size_t done = 0;
    // Capped: a file system that keeps failing with EINTR must not keep the helper here.
    for (int pass = 0; done < size && pass < 1024; ++pass) {
        const ssize_t n =
            ::pread(fd, static_cast<char *>(buf) + done, size - done, off_t(offset + done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (n == 0)
            break;
        done += size_t(n);
    }
    return ssize_t(done);
}

struct Header
{
    quint16 type = 0;
    quint64 phoff = 0;
    quint16 phentsize = 0;
    quint16 phnum = 0;
};

struct Segment
{
    quint32 type = 0;
    quint32 flags = 0;
    quint64 offset = 0;
    quint64 filesz = 0;
};

template<typename Ehdr>
Header headerFrom(const unsigned char *bytes)
{
    Ehdr e;
    std::memcpy(&e, bytes, sizeof e);
    return Header{e.e_type, e.e_phoff, e.e_phentsize, e.e_phnum};
}

template<typename Phdr>
Segment segmentFrom(const unsigned char *bytes)
{
    Phdr p;
    std::memcpy(&p, bytes, sizeof p);
    return Segment{p.p_type, p.p_flags, p.p_offset, p.p_filesz};
}

// What checkUprobeFile and checkUsdtSemaphore share: the descriptor and the ELF headers, and
// offset (span bytes from it) in the file range of a PT_LOAD with segmentFlag.
bool checkOffsetIn(int fd, quint64 offset, quint32 segmentFlag, quint64 span, QString *error)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (fd < 0)
        return fail(QStringLiteral("no file descriptor"));

    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0)
        return fail(QStringLiteral("not an open file descriptor: %1").arg(qt_error_string(errno)));
    // O_PATH descriptors are opened without read permission on the file: they prove nothing.
    if (flags & O_PATH)
        return fail(QStringLiteral("the file was opened with O_PATH, not for reading"));
    const int access = flags & O_ACCMODE;
    if (access != O_RDONLY && access != O_RDWR)
        return fail(QStringLiteral("the file was not opened for reading"));

    struct stat st;
    if (::fstat(fd, &st) != 0)
        return fail(QStringLiteral("cannot stat the file: %1").arg(qt_error_string(errno)));
    if (!S_ISREG(st.st_mode))
        return fail(QStringLiteral("not a regular file"));
    const quint64 fileSize = st.st_size > 0 ? quint64(st.st_size) : 0;

    unsigned char ehdr[sizeof(Elf64_Ehdr)] = {};
    const ssize_t got = readAt(fd, ehdr, sizeof ehdr, 0);
    if (got < 0)
        return fail(QStringLiteral("cannot read the file: %1").arg(qt_error_string(errno)));
    if (size_t(got) < EI_NIDENT || std::memcmp(ehdr, ELFMAG, SELFMAG) != 0)
        return fail(QStringLiteral("not an ELF file"));
    const unsigned char elfClass = ehdr[EI_CLASS];
    if (elfClass != ELFCLASS32 && elfClass != ELFCLASS64)
        return fail(QStringLiteral("not an ELF file (unknown class %1)").arg(elfClass));
    if (ehdr[EI_DATA] != nativeData)
        return fail(QStringLiteral("an ELF file of the other byte order"));
    if (ehdr[EI_VERSION] != EV_CURRENT)
        return fail(QStringLiteral("not an ELF file (unknown version %1)").arg(ehdr[EI_VERSION]));
    const bool is64 = elfClass == ELFCLASS64;
    const size_t ehdrSize = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
    if (size_t(got) < ehdrSize)
        return fail(QStringLiteral("the file is too short for an ELF header"));
    const Header h = is64 ? headerFrom<Elf64_Ehdr>(ehdr) : headerFrom<Elf32_Ehdr>(ehdr);

    if (h.type != ET_EXEC && h.type != ET_DYN)
        return fail(
            QStringLiteral("neither an executable nor a shared object (ELF type %1)").arg(h.type));
    const size_t phentsize = is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
    // The kernel's ELF loader accepts exactly its own entry size; so do we.
    if (h.phentsize != phentsize)
        return fail(QStringLiteral("program header entries of %1 bytes, not %2")
                        .arg(h.phentsize)
                        .arg(phentsize));
    // PN_XNUM means the real count is in section header 0: not for a file we merely check.
    if (h.phnum == PN_XNUM)
        return fail(QStringLiteral("extended program header numbering (PN_XNUM) is not supported"));
    if (h.phnum == 0)
        return fail(QStringLiteral("no program headers"));
    if (h.phnum > maxPhnum)
        return fail(QStringLiteral("%1 program headers, more than %2").arg(h.phnum).arg(maxPhnum));
    const quint64 tableSize = quint64(h.phnum) * phentsize; // at most 4096 * 56
    if (h.phoff > fileSize || fileSize - h.phoff < tableSize)
        return fail(QStringLiteral("the program headers lie past the end of the file"));

    std::vector<unsigned char> table(tableSize);
    const ssize_t tgot = readAt(fd, table.data(), table.size(), h.phoff);
    if (tgot < 0)
        return fail(
            QStringLiteral("cannot read the program headers: %1").arg(qt_error_string(errno)));
    if (quint64(tgot) != tableSize)
        return fail(QStringLiteral("the program headers lie past the end of the file"));

    if (offset >= fileSize)
        return fail(QStringLiteral("offset %1 is past the end of the file (%2 bytes)")
                        .arg(hex(offset))
                        .arg(fileSize));
    for (quint32 i = 0; i < h.phnum; ++i) {
        const unsigned char *entry = table.data() + size_t(i) * phentsize;
        const Segment s = is64 ? segmentFrom<Elf64_Phdr>(entry) : segmentFrom<Elf32_Phdr>(entry);
        if (s.type != PT_LOAD || !(s.flags & segmentFlag))
            continue;
        // offset - s.offset cannot wrap once offset >= s.offset: no p_offset + p_filesz sum.
        if (offset >= s.offset && offset - s.offset < s.filesz &&
            s.filesz - (offset - s.offset) >= span)
            return true;
    }
    return fail(segmentFlag == PF_X
                    ? QStringLiteral("offset %1 is not in an executable segment of the file")
                          .arg(hex(offset))
                    : QStringLiteral("offset %1 is not in a writable segment of the file")
                          .arg(hex(offset)));
}

} // namespace

bool checkUprobeFile(int fd, quint64 offset, QString *error)
{
    return checkOffsetIn(fd, offset, PF_X, 1, error);
}

bool checkUsdtSemaphore(int fd, quint64 offset, QString *error)
{
    // The kernel increments a 16-bit counter there while the probe is attached.
    if (offset % 2 != 0) {
        if (error)
            *error = QStringLiteral("semaphore offset %1 is not 2-byte aligned").arg(hex(offset));
        return false;
    }
    return checkOffsetIn(fd, offset, PF_W, 2, error);
}

} // namespace bpflens
