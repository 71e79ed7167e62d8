#include "core/elfheader.h"

#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace bpflens {

namespace {

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr unsigned char nativeData = ELFDATA2LSB;
#else
constexpr unsigned char nativeData = ELFDATA2MSB;
#endif

template<typename Ehdr>
void fillHeader(const unsigned char *bytes, ElfHeader *h)
{
    Ehdr e;
    std::memcpy(&e, bytes, sizeof e);
    h->type = e.e_type;
    h->machine = e.e_machine;
    h->phoff = e.e_phoff;
    h->phentsize = e.e_phentsize;
    h->phnum = e.e_phnum;
}

template<typename Phdr>
ElfSegment segmentFrom(const unsigned char *bytes)
{
    Phdr p;
    std::memcpy(&p, bytes, sizeof p);
    return ElfSegment{p.p_type, p.p_flags, p.p_offset, p.p_filesz};
}

} // namespace

ssize_t readFileAt(int fd, void *buf, size_t size, quint64 offset)
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

bool ElfHeader::is64() const
{
    return elfClass == ELFCLASS64;
}

bool ElfHeader::isNativeByteOrder() const
{
    return data == nativeData;
}

size_t ElfHeader::expectedPhentsize() const
{
    return is64() ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr);
}

ElfHeaderResult readElfHeader(int fd, ElfHeader *h)
{
    *h = ElfHeader();
    unsigned char bytes[sizeof(Elf64_Ehdr)] = {};
    const ssize_t got = readFileAt(fd, bytes, sizeof bytes, 0);
    if (got < 0)
        return ElfHeaderResult::ReadFailed;
    if (size_t(got) < EI_NIDENT || std::memcmp(bytes, ELFMAG, SELFMAG) != 0)
        return ElfHeaderResult::NotElf;
    h->elfClass = bytes[EI_CLASS];
    if (h->elfClass != ELFCLASS32 && h->elfClass != ELFCLASS64)
        return ElfHeaderResult::UnknownClass;
    h->data = bytes[EI_DATA];
    h->version = bytes[EI_VERSION];
    if (h->version != EV_CURRENT)
        return ElfHeaderResult::UnknownVersion;
    if (size_t(got) < (h->is64() ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
        return ElfHeaderResult::Truncated;
    if (h->is64())
        fillHeader<Elf64_Ehdr>(bytes, h);
    else
        fillHeader<Elf32_Ehdr>(bytes, h);
    return ElfHeaderResult::Ok;
}

ElfProgramHeaderProblem programHeaderProblem(const ElfHeader &h)
{
    if (h.phentsize != h.expectedPhentsize())
        return ElfProgramHeaderProblem::EntrySize;
    if (h.phnum == PN_XNUM)
        return ElfProgramHeaderProblem::ExtendedNumbering;
    if (h.phnum == 0)
        return ElfProgramHeaderProblem::NoHeaders;
    if (h.phnum > MaxElfProgramHeaders)
        return ElfProgramHeaderProblem::TooMany;
    return ElfProgramHeaderProblem::None;
}

ElfTableResult readElfSegments(int fd, const ElfHeader &h, quint64 fileSize,
                               std::vector<ElfSegment> *segments)
{
    segments->clear();
    const size_t entry = h.expectedPhentsize();
    const quint32 count = std::min<quint32>(h.phnum, MaxElfProgramHeaders);
    const quint64 tableSize = quint64(count) * entry; // at most 4096 * 56
    if (h.phoff > fileSize || fileSize - h.phoff < tableSize)
        return ElfTableResult::PastEnd;
    std::vector<unsigned char> table(tableSize);
    const ssize_t got = readFileAt(fd, table.data(), table.size(), h.phoff);
    if (got < 0)
        return ElfTableResult::ReadFailed;
    if (quint64(got) != tableSize)
        return ElfTableResult::PastEnd;
    segments->reserve(count);
    for (quint32 i = 0; i < count; ++i) {
        const unsigned char *bytes = table.data() + size_t(i) * entry;
        segments->push_back(h.is64() ? segmentFrom<Elf64_Phdr>(bytes)
                                     : segmentFrom<Elf32_Phdr>(bytes));
    }
    return ElfTableResult::Ok;
}

} // namespace bpflens
