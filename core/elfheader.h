#pragma once

#include <QtGlobal>

#include <sys/types.h>

#include <vector>

// The ELF file header and the program header table, read with pread from a descriptor and
// checked as they are read, without libelf. The helper (root) reads nothing else of the files
// callers hand it; the client reads them so before libelf sees a file. One reader, so both sides
// of the privilege boundary accept the same files (docs/security.md).
namespace bpflens {

// More than any real file has (the kernel's loader caps the table at 64 KiB), few enough that
// reading the table is cheap whatever the file claims.
constexpr quint32 MaxElfProgramHeaders = 4096;

// Reads up to size bytes at offset: a regular file on FUSE or NFS may return short counts.
// Returns the number of bytes read (fewer at the end of the file), or -1 with errno.
ssize_t readFileAt(int fd, void *buf, size_t size, quint64 offset);

struct ElfHeader
{
    unsigned char elfClass = 0; // ELFCLASS32 or ELFCLASS64
    unsigned char data = 0;     // byte order: ELFDATA2LSB or ELFDATA2MSB
    unsigned char version = 0;  // e_ident[EI_VERSION]
    // Multi-byte fields are only meaningful in this machine's byte order: callers refuse the
    // other one.
    quint16 type = 0;
    quint16 machine = 0;
    quint64 phoff = 0;
    quint16 phentsize = 0;
    quint16 phnum = 0;

    bool is64() const;
    bool isNativeByteOrder() const;
    // The program header entry size of its class, the only one the kernel's loader accepts.
    size_t expectedPhentsize() const;
};

enum class ElfHeaderResult
{
    Ok,
    ReadFailed,     // errno says why
    NotElf,         // shorter than e_ident, or no ELF magic
    UnknownClass,   // elfClass is set
    UnknownVersion, // elfClass, data and version are set
    Truncated,      // shorter than the header of its class; elfClass, data and version are set
};

// Reads the ELF header at the start of fd, checking the magic, the class, the version and the
// length in that order. The identification is set as far as it was read, so a caller may refuse
// the other byte order before an unknown version.
ElfHeaderResult readElfHeader(int fd, ElfHeader *header);

enum class ElfProgramHeaderProblem
{
    None,
    EntrySize,         // phentsize is not expectedPhentsize()
    ExtendedNumbering, // PN_XNUM: the count is in section header 0, which nobody here reads
    NoHeaders,
    TooMany, // more than MaxElfProgramHeaders
};

// Whether header describes a program header table the kernel's loader would accept, checked in
// the order of the enum.
ElfProgramHeaderProblem programHeaderProblem(const ElfHeader &header);

struct ElfSegment
{
    quint32 type = 0;
    quint32 flags = 0;
    quint64 offset = 0;
    quint64 filesz = 0;
};

enum class ElfTableResult
{
    Ok,
    PastEnd,    // the table does not lie within fileSize bytes, or the file ended early
    ReadFailed, // errno says why
};

// Reads the program header table of header (checked with programHeaderProblem() first) from fd,
// a file of fileSize bytes. Whatever header says, entries are read at the size of its class and
// never more than MaxElfProgramHeaders of them.
ElfTableResult readElfSegments(int fd, const ElfHeader &header, quint64 fileSize,
                               std::vector<ElfSegment> *segments);

} // namespace bpflens
