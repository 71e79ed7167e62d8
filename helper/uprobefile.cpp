#include "helper/uprobefile.h"

#include "core/elfheader.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace bpflens {

namespace {

QString hex(quint64 v)
{
    return QStringLiteral("0x%1").arg(v, 0, 16);
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

    ElfHeader h;
    const ElfHeaderResult read = readElfHeader(fd, &h);
    if (read == ElfHeaderResult::ReadFailed)
        return fail(QStringLiteral("cannot read the file: %1").arg(qt_error_string(errno)));
    if (read == ElfHeaderResult::NotElf)
        return fail(QStringLiteral("not an ELF file"));
    if (read == ElfHeaderResult::UnknownClass)
        return fail(QStringLiteral("not an ELF file (unknown class %1)").arg(h.elfClass));
    if (!h.isNativeByteOrder())
        return fail(QStringLiteral("an ELF file of the other byte order"));
    if (read == ElfHeaderResult::UnknownVersion)
        return fail(QStringLiteral("not an ELF file (unknown version %1)").arg(h.version));
    if (read == ElfHeaderResult::Truncated)
        return fail(QStringLiteral("the file is too short for an ELF header"));

    if (h.type != ET_EXEC && h.type != ET_DYN)
        return fail(
            QStringLiteral("neither an executable nor a shared object (ELF type %1)").arg(h.type));
    switch (programHeaderProblem(h)) {
    case ElfProgramHeaderProblem::None:
        break;
    case ElfProgramHeaderProblem::EntrySize:
        return fail(QStringLiteral("program header entries of %1 bytes, not %2")
                        .arg(h.phentsize)
                        .arg(h.expectedPhentsize()));
    case ElfProgramHeaderProblem::ExtendedNumbering:
        return fail(QStringLiteral("extended program header numbering (PN_XNUM) is not supported"));
    case ElfProgramHeaderProblem::NoHeaders:
        return fail(QStringLiteral("no program headers"));
    case ElfProgramHeaderProblem::TooMany:
        return fail(QStringLiteral("%1 program headers, more than %2")
                        .arg(h.phnum)
                        .arg(MaxElfProgramHeaders));
    }
    std::vector<ElfSegment> segments;
    switch (readElfSegments(fd, h, fileSize, &segments)) {
    case ElfTableResult::Ok:
        break;
    case ElfTableResult::PastEnd:
        return fail(QStringLiteral("the program headers lie past the end of the file"));
    case ElfTableResult::ReadFailed:
        return fail(
            QStringLiteral("cannot read the program headers: %1").arg(qt_error_string(errno)));
    }

    if (offset >= fileSize)
        return fail(QStringLiteral("offset %1 is past the end of the file (%2 bytes)")
                        .arg(hex(offset))
                        .arg(fileSize));
    for (const ElfSegment &s : segments) {
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
