#include "symbolizer/unwinder.h"

#include "symbolizer/rustdemangle.h"

#include <dwarf.h>
#include <elf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>

#include <cxxabi.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace bpflens::symbolizer {

namespace {

// No file is ever looked up by name: every module comes with its descriptor, and separate debug
// files (/usr/lib/debug) are not searched (the parent chose what this process reads).
int findElf(Dwfl_Module *, void **, const char *, Dwarf_Addr, char **, Elf **)
{
    return -1;
}

int findDebuginfo(Dwfl_Module *, void **, const char *, Dwarf_Addr, const char *, const char *,
                  GElf_Word, char **)
{
    return -1;
}

const Dwfl_Callbacks dwflCallbacks = {
    findElf,
    findDebuginfo,
    dwfl_offline_section_address,
    nullptr,
};

// A bare x86_64 ELF header: dwfl_attach_state takes the architecture from it, so unwinding (by
// frame pointers at least) works before, or without, any module.
Elf *architectureElf()
{
    static Elf64_Ehdr header = [] {
        Elf64_Ehdr h{};
        std::memcpy(h.e_ident, ELFMAG, SELFMAG);
        h.e_ident[EI_CLASS] = ELFCLASS64;
        h.e_ident[EI_DATA] = ELFDATA2LSB;
        h.e_ident[EI_VERSION] = EV_CURRENT;
        h.e_type = ET_CORE;
        h.e_machine = EM_X86_64;
        h.e_version = EV_CURRENT;
        h.e_ehsize = sizeof(Elf64_Ehdr);
        return h;
    }();
    return elf_memory(reinterpret_cast<char *>(&header), sizeof header);
}

std::string hex(const unsigned char *bytes, size_t size)
{
    static const char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(size * 2);
    for (size_t i = 0; i < size; ++i) {
        out += digits[bytes[i] >> 4];
        out += digits[bytes[i] & 15];
    }
    return out;
}

bool isRootSymbol(const std::string &s)
{
    return s == "_start" || s == "__libc_start_main" || s == "__libc_start_call_main" ||
           s == "start_thread" || s == "clone" || s == "clone3" || s == "__clone" ||
           s == "__clone3";
}

// The sample being unwound, for the thread callbacks.
struct Sample
{
    const std::array<uint64_t, symproto::RegisterCount> *registers = nullptr;
    std::span<const uint8_t> stack;
    // A read outside the copy since the last frame was reported: libdw takes a return address
    // it could not read for an undefined one (the outermost frame), so this tells the two apart.
    bool failedRead = false;
};

// A file's identity: the same binary in many processes (a build's hundreds of compilers) is
// parsed for symbols once.
struct FileKey
{
    uint64_t dev = 0;
    uint64_t ino = 0;
    int64_t size = 0;
    int64_t mtimeNs = 0;
    bool operator==(const FileKey &) const = default;
};

struct FileKeyHash
{
    size_t operator()(const FileKey &k) const
    {
        return std::hash<uint64_t>()(k.dev * 0x9e3779b97f4a7c15ull ^ k.ino ^
                                     uint64_t(k.size) << 20 ^ uint64_t(k.mtimeNs));
    }
};

struct ModuleRange
{
    std::string name;
    Dwarf_Addr low = 0;
    Dwarf_Addr high = 0;
    uint64_t bias = 0;
    FileKey file;
    bool hasFile = false;
};

// A function inlined at an address, from DWARF: its name and where in it the address is (the
// sampled line in the innermost one, the line of the call to the next inner one in the others).
struct InlinedFunction
{
    std::string symbol;
    std::string file;
    uint32_t line = 0;
};

// What DWARF says of one address: the functions inlined there, innermost first, and the line
// of the real function (the line of the call to the outermost inlined function, if any).
struct SourceInfo
{
    std::vector<InlinedFunction> inlined;
    std::string file;
    uint32_t line = 0;
};

// What one address in a file resolves to, whichever process maps it.
struct FileAddress
{
    std::string symbol;
    uint64_t symbolStart = 0;
    bool hasSymbol = false;
    bool hasCfi = false;
    SourceInfo source;
};

// What one lookup address resolves to, cached.
struct Resolved
{
    bool hasModule = false;
    bool hasCfi = false;
    Dwarf_Addr bias = 0;
    std::string module;
    std::string buildId;
    std::string symbol;
    uint64_t symbolStart = 0;
    SourceInfo source;
};

// The function symbols of one file (.symtab, else .dynsym), sorted by address, and the
// addresses already looked up in it. libdw would load a module's symbol table again for every
// process (a Dwfl per process): for a large binary that is most of a new process's cost.
struct FileSymbols
{
    struct Symbol
    {
        uint64_t start;
        uint64_t size;
        uint32_t name;   // offset into names
        uint8_t binding; // a global beats a weak one beats a local one at the same address
    };
    std::vector<Symbol> symbols;
    std::string names;
    std::unordered_map<uint64_t, FileAddress> addresses;
    uint64_t lastUse = 0;

    // The file's DWARF, for source lines and inlined functions: opened once for every process
    // that maps the file, from a descriptor of its own. Through each process's Dwfl, every
    // process read and indexed it again, and every address walked its whole compile unit
    // (dwarf_getscopes): a test binary's 17 MB of .debug_info, under an emulated CPU, kept the
    // child busy long enough that the client gave up sending it modules.
    int dwarfFd = -1;
    Elf *dwarfElf = nullptr;
    Dwarf *dwarf = nullptr;
    bool dwarfOpened = false;
    // Per compile unit (by the offset of its DIE): where its inlined subroutines are, from one
    // walk of its DIEs, so that an address costs a search.
    struct InlineRange
    {
        Dwarf_Addr low;
        Dwarf_Addr high;
        Dwarf_Off die;
        int depth;
    };
    std::unordered_map<Dwarf_Off, std::vector<InlineRange>> inlines;

    FileSymbols() = default;
    FileSymbols(const FileSymbols &) = delete;
    FileSymbols &operator=(const FileSymbols &) = delete;
    ~FileSymbols()
    {
        if (dwarf)
            dwarf_end(dwarf);
        if (dwarfElf)
            elf_end(dwarfElf);
        if (dwarfFd >= 0)
            close(dwarfFd);
    }
    Dwarf *openDwarf()
    {
        if (!dwarfOpened && dwarfFd >= 0) {
            dwarfOpened = true;
            dwarfElf = elf_begin(dwarfFd, ELF_C_READ_MMAP, nullptr);
            if (dwarfElf)
                dwarf = dwarf_begin_elf(dwarfElf, DWARF_C_READ, nullptr);
        }
        return dwarf;
    }
    const std::vector<InlineRange> &inlinesOf(Dwarf_Die *cu);

    void load(Elf *elf);
    // The symbol at a file-relative address, or nullptr.
    const Symbol *find(uint64_t address) const;
};

const std::vector<FileSymbols::InlineRange> &FileSymbols::inlinesOf(Dwarf_Die *cu)
{
    const Dwarf_Off unit = dwarf_dieoffset(cu);
    if (auto it = inlines.find(unit); it != inlines.end())
        return it->second;
    // Hostile DWARF: a unit of more DIEs or inlined ranges than this is cut.
    constexpr size_t MaxDies = size_t(1) << 24;
    constexpr size_t MaxRanges = size_t(1) << 20;
    std::vector<InlineRange> ranges;
    struct Pending
    {
        Dwarf_Die die;
        int depth;
    };
    std::vector<Pending> dies;
    Dwarf_Die child;
    if (dwarf_child(cu, &child) == 0)
        dies.push_back({child, 1});
    for (size_t visited = 0; !dies.empty() && visited < MaxDies; ++visited) {
        Pending at = dies.back();
        dies.pop_back();
        Dwarf_Die next;
        if (dwarf_siblingof(&at.die, &next) == 0)
            dies.push_back({next, at.depth});
        if (dwarf_tag(&at.die) == DW_TAG_inlined_subroutine) {
            Dwarf_Addr base = 0, low = 0, high = 0;
            for (ptrdiff_t o = 0; (o = dwarf_ranges(&at.die, o, &base, &low, &high)) > 0 &&
                                  ranges.size() < MaxRanges;)
                if (low < high)
                    ranges.push_back({low, high, dwarf_dieoffset(&at.die), at.depth});
        }
        if (dwarf_haschildren(&at.die) > 0 && dwarf_child(&at.die, &next) == 0)
            dies.push_back({next, at.depth + 1});
    }
    std::sort(ranges.begin(), ranges.end(),
              [](const InlineRange &a, const InlineRange &b) { return a.low < b.low; });
    // A file's units are kept as long as the file: bounded like its addresses.
    if (inlines.size() >= 4096)
        inlines.clear();
    return inlines.emplace(unit, std::move(ranges)).first->second;
}

void FileSymbols::load(Elf *elf)
{
    Elf_Scn *chosen = nullptr;
    GElf_Shdr chosenHeader{};
    for (Elf_Scn *scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !chosen)) {
            chosen = scn;
            chosenHeader = sh;
            if (sh.sh_type == SHT_SYMTAB)
                break;
        }
    }
    if (!chosen || chosenHeader.sh_entsize == 0)
        return;
    Elf_Data *data = elf_getdata(chosen, nullptr);
    if (!data)
        return;
    const size_t count = data->d_size / chosenHeader.sh_entsize;
    // A name outside the string table, or without its terminator, is skipped (hostile files).
    Elf_Scn *strings = elf_getscn(elf, chosenHeader.sh_link);
    Elf_Data *stringData = strings ? elf_getdata(strings, nullptr) : nullptr;
    if (!stringData || !stringData->d_buf)
        return;
    const char *table = static_cast<const char *>(stringData->d_buf);
    const size_t tableSize = stringData->d_size;
    for (size_t i = 0; i < count; ++i) {
        GElf_Sym sym;
        if (!gelf_getsym(data, int(i), &sym))
            continue;
        const int type = GELF_ST_TYPE(sym.st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) ||
            sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS || sym.st_value == 0 ||
            sym.st_name == 0 || sym.st_name >= tableSize)
            continue;
        const char *name = table + sym.st_name;
        const size_t length = strnlen(name, tableSize - sym.st_name);
        if (length == 0 || length == tableSize - sym.st_name || names.size() > UINT32_MAX / 2)
            continue;
        const int binding = GELF_ST_BIND(sym.st_info);
        const uint8_t rank = binding == STB_GLOBAL ? 2 : binding == STB_WEAK ? 1 : 0;
        symbols.push_back({sym.st_value, sym.st_size, uint32_t(names.size()), rank});
        names.append(name, length);
        names.push_back('\0');
    }
    std::sort(symbols.begin(), symbols.end(), [](const Symbol &a, const Symbol &b) {
        return a.start != b.start ? a.start < b.start : a.binding > b.binding;
    });
}

const FileSymbols::Symbol *FileSymbols::find(uint64_t address) const
{
    auto it = std::upper_bound(symbols.begin(), symbols.end(), address,
                               [](uint64_t a, const Symbol &s) { return a < s.start; });
    if (it == symbols.begin())
        return nullptr;
    const Symbol *nearest = &*(it - 1);
    // The first of those at the nearest address is the preferred binding.
    while (nearest != symbols.data() && (nearest - 1)->start == nearest->start)
        --nearest;
    if (nearest->size == 0 || address - nearest->start < nearest->size)
        return nearest;
    // A sized symbol that ends before the address: one that starts earlier may enclose it
    // (a function's local labels); look back a little, as libdw does.
    for (int back = 0; back < 16 && nearest != symbols.data(); ++back) {
        --nearest;
        if (nearest->size && address - nearest->start < nearest->size)
            return nearest;
    }
    return nullptr;
}

} // namespace

std::string demangle(const char *name)
{
    // Both demanglers recurse; a name from a hostile file is bounded before it gets there.
    if (std::strlen(name) > symproto::MaxSymbolBytes)
        return name;
    std::string rust;
    if (demangleRust(name, &rust))
        return rust;
    if (name[0] == '_' && name[1] == 'Z') {
        int status = 0;
        char *out = abi::__cxa_demangle(name, nullptr, nullptr, &status);
        if (out && status == 0) {
            std::string s(out);
            std::free(out);
            return s;
        }
        std::free(out);
    }
    return name;
}

struct Unwinder::Files
{
    std::unordered_map<FileKey, std::unique_ptr<FileSymbols>, FileKeyHash> files;
    uint64_t clock = 0;
    // Files whose symbols are kept at most; the least recently used goes first.
    static constexpr size_t MaxFiles = 256;
    static constexpr size_t MaxAddressesPerFile = 1 << 16;

    // Descriptors of files not looked up yet, for their DWARF (FileSymbols::dwarfFd).
    std::unordered_map<FileKey, int, FileKeyHash> descriptors;

    ~Files()
    {
        for (const auto &[key, fd] : descriptors)
            close(fd);
    }

    // A module's file, as addModule gets it: a descriptor of its own is kept for its DWARF.
    void offer(const FileKey &key, int fd)
    {
        auto it = files.find(key);
        if (it != files.end()) {
            FileSymbols &f = *it->second;
            if (f.dwarfFd < 0 && !f.dwarfOpened)
                f.dwarfFd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
            return;
        }
        if (descriptors.count(key))
            return;
        if (descriptors.size() >= MaxFiles) {
            for (const auto &[k, d] : descriptors)
                close(d);
            descriptors.clear();
        }
        const int copy = fcntl(fd, F_DUPFD_CLOEXEC, 0);
        if (copy >= 0)
            descriptors.emplace(key, copy);
    }

    FileSymbols *get(const FileKey &key, Elf *elf)
    {
        ++clock;
        auto it = files.find(key);
        if (it != files.end()) {
            it->second->lastUse = clock;
            return it->second.get();
        }
        if (!elf)
            return nullptr;
        if (files.size() >= MaxFiles) {
            auto oldest =
                std::min_element(files.begin(), files.end(), [](const auto &a, const auto &b) {
                    return a.second->lastUse < b.second->lastUse;
                });
            files.erase(oldest);
        }
        auto f = std::make_unique<FileSymbols>();
        f->lastUse = clock;
        f->load(elf);
        if (auto d = descriptors.find(key); d != descriptors.end()) {
            f->dwarfFd = d->second;
            descriptors.erase(d);
        }
        return files.emplace(key, std::move(f)).first->second.get();
    }
};

struct Unwinder::Process
{
    Dwfl *dwfl = nullptr;
    Elf *archElf = nullptr;
    bool attached = false;
    bool reportedOnce = false;
    uint64_t lastUse = 0;
    Sample sample;
    std::vector<ModuleRange> modules;
    std::unordered_map<uint64_t, Resolved> cache;
    Files *files = nullptr;

    ~Process()
    {
        if (dwfl)
            dwfl_end(dwfl);
        if (archElf)
            elf_end(archElf);
    }

    const Resolved &resolve(Dwarf_Addr lookup);
};

namespace {

constexpr size_t MaxCacheEntries = 1 << 16;

pid_t nextThread(Dwfl *, void *, void **)
{
    return 0;
}

bool getThread(Dwfl *, pid_t, void *arg, void **threadArg)
{
    *threadArg = arg;
    return true;
}

// Reads only from the copied stack: whatever lies outside it is unknown and the unwind stops.
bool memoryRead(Dwfl *, Dwarf_Addr address, Dwarf_Word *result, void *arg)
{
    Sample &s = static_cast<Unwinder::Process *>(arg)->sample;
    if (!s.registers)
        return false;
    const uint64_t sp = (*s.registers)[7];
    const uint64_t offset = address - sp;
    if (address < sp || offset > s.stack.size() || s.stack.size() - offset < sizeof(Dwarf_Word)) {
        s.failedRead = true;
        return false;
    }
    std::memcpy(result, s.stack.data() + offset, sizeof(Dwarf_Word));
    return true;
}

bool setInitialRegisters(Dwfl_Thread *thread, void *arg)
{
    const Sample &s = static_cast<Unwinder::Process *>(arg)->sample;
    if (!s.registers)
        return false;
    Dwarf_Word regs[symproto::RegisterCount];
    std::copy(s.registers->begin(), s.registers->end(), regs);
    if (!dwfl_thread_state_registers(thread, 0, symproto::RegisterCount, regs))
        return false;
    dwfl_thread_state_register_pc(thread, regs[16]);
    return true;
}

const Dwfl_Thread_Callbacks threadCallbacks = {
    nextThread, getThread, memoryRead, setInitialRegisters, nullptr, nullptr,
};

bool hasCfiAt(Dwfl_Module *module, Dwarf_Addr address)
{
    Dwarf_Addr bias = 0;
    for (Dwarf_CFI *cfi :
         {dwfl_module_eh_cfi(module, &bias), dwfl_module_dwarf_cfi(module, &bias)}) {
        Dwarf_Frame *frame = nullptr;
        if (cfi && dwarf_cfi_addrframe(cfi, address - bias, &frame) == 0) {
            std::free(frame);
            return true;
        }
    }
    return false;
}

// A DIE's name as the symbol table would give it: the linkage name demangled (C++'s
// "ns::f(int)"), else DW_AT_name; both looked up through DW_AT_abstract_origin and
// DW_AT_specification, where an inlined instance keeps them.
std::string dieName(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    for (int name : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name}) {
        if (dwarf_attr_integrate(die, name, &attr)) {
            if (const char *s = dwarf_formstring(&attr))
                return demangle(s);
        }
    }
    if (dwarf_attr_integrate(die, DW_AT_name, &attr)) {
        if (const char *s = dwarf_formstring(&attr))
            return std::string(s, strnlen(s, symproto::MaxSymbolBytes));
    }
    return {};
}

// A source path as DWARF names it, made absolute with the unit's DW_AT_comp_dir (a build that
// compiles "../../src/x.c" from its build directory records it so) and with "." and ".."
// removed, as perf and hotspot show it. Bounded like a module's path.
std::string sourcePath(const char *name, const char *compDir)
{
    std::string path(name, strnlen(name, symproto::MaxPathBytes));
    if (path.empty())
        return path;
    if (path.front() != '/' && compDir && compDir[0] == '/')
        path = std::string(compDir, strnlen(compDir, symproto::MaxPathBytes)) + '/' + path;
    if (path.front() != '/')
        return path.substr(0, symproto::MaxPathBytes);
    std::vector<std::string> parts;
    size_t at = 1;
    while (at <= path.size()) {
        size_t next = path.find('/', at);
        if (next == std::string::npos)
            next = path.size();
        const std::string part = path.substr(at, next - at);
        if (part == "..") {
            if (!parts.empty())
                parts.pop_back();
        } else if (!part.empty() && part != ".") {
            parts.push_back(part);
        }
        at = next + 1;
    }
    std::string out;
    for (const std::string &part : parts)
        out += '/' + part;
    return out.empty() ? std::string("/") : out.substr(0, symproto::MaxPathBytes);
}

// More inlining levels than this at one address are not followed (hostile DWARF).
constexpr size_t MaxInlineDepth = 64;

// The inline chain at an address, as eu-addr2line -i and perf's inline code read it: the
// address's line from the line table, then each DW_TAG_inlined_subroutine scope around it from
// the innermost out, whose DW_AT_call_file and DW_AT_call_line are where its caller called it.
// Nothing without DWARF (a stripped file keeps what the symbol table gives).
// What the innermost-first inlined subroutines at an address say (each one's name, and where
// in it the address is: the line of the call to the next inner one), over the address's own
// line from the line table, as eu-addr2line -i and perf's inline code read it.
SourceInfo sourceOf(Dwarf_Die *cu, std::string file, uint32_t line,
                    const std::vector<Dwarf_Die> &inlinedInnermostFirst)
{
    SourceInfo out;
    Dwarf_Attribute compDirAttr;
    const char *compDir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &compDirAttr));
    file = file.empty() ? file : sourcePath(file.c_str(), compDir);
    Dwarf_Files *files = nullptr;
    size_t fileCount = 0;
    if (dwarf_getsrcfiles(cu, &files, &fileCount) != 0)
        files = nullptr;
    for (Dwarf_Die die : inlinedInnermostFirst) {
        if (out.inlined.size() >= MaxInlineDepth)
            break;
        std::string name = dieName(&die);
        if (!name.empty())
            out.inlined.push_back({std::move(name), file, line});
        file.clear();
        line = 0;
        Dwarf_Attribute attr;
        Dwarf_Word value = 0;
        if (files && dwarf_attr(&die, DW_AT_call_file, &attr) &&
            dwarf_formudata(&attr, &value) == 0 && value < fileCount) {
            if (const char *src = dwarf_filesrc(files, value, nullptr, nullptr))
                file = sourcePath(src, compDir);
        }
        if (dwarf_attr(&die, DW_AT_call_line, &attr) && dwarf_formudata(&attr, &value) == 0 &&
            value <= UINT32_MAX)
            line = uint32_t(value);
    }
    out.file = std::move(file);
    out.line = line;
    return out;
}

// Through a process's Dwfl, for a module whose file the child could not keep a descriptor of:
// dwarf_getscopes walks the compile unit for each address.
SourceInfo resolveSource(Dwfl_Module *module, Dwarf_Addr lookup)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(module, lookup, &bias);
    if (!cu)
        return {};
    std::string file;
    uint32_t line = 0;
    if (Dwfl_Line *l = dwfl_module_getsrc(module, lookup)) {
        int number = 0;
        if (const char *src = dwfl_lineinfo(l, nullptr, &number, nullptr, nullptr, nullptr)) {
            file = std::string(src, strnlen(src, symproto::MaxPathBytes));
            line = number > 0 ? uint32_t(number) : 0;
        }
    }
    std::vector<Dwarf_Die> inlined;
    Dwarf_Die *scopes = nullptr;
    const int n = dwarf_getscopes(cu, lookup - bias, &scopes);
    for (int i = 0; i < n && inlined.size() < MaxInlineDepth; ++i) {
        const int tag = dwarf_tag(&scopes[i]);
        if (tag == DW_TAG_subprogram)
            break;
        if (tag == DW_TAG_inlined_subroutine)
            inlined.push_back(scopes[i]);
    }
    std::free(scopes);
    return sourceOf(cu, std::move(file), line, inlined);
}

// Through the file's own DWARF (FileSymbols::openDwarf), at a file-relative address: the
// compile unit from the address ranges, its inlined subroutines from the unit's cached ranges.
SourceInfo resolveSource(FileSymbols *symbols, Dwarf *dwarf, Dwarf_Addr address)
{
    Dwarf_Die cu;
    if (!dwarf_addrdie(dwarf, address, &cu))
        return {};
    std::string file;
    uint32_t line = 0;
    if (Dwarf_Line *l = dwarf_getsrc_die(&cu, address)) {
        int number = 0;
        if (const char *src = dwarf_linesrc(l, nullptr, nullptr))
            file = std::string(src, strnlen(src, symproto::MaxPathBytes));
        if (dwarf_lineno(l, &number) == 0 && number > 0)
            line = uint32_t(number);
    }
    std::vector<const FileSymbols::InlineRange *> around;
    for (const FileSymbols::InlineRange &r : symbols->inlinesOf(&cu)) {
        if (r.low > address)
            break; // sorted by low
        if (address < r.high)
            around.push_back(&r);
    }
    std::sort(around.begin(), around.end(),
              [](const auto *a, const auto *b) { return a->depth > b->depth; });
    std::vector<Dwarf_Die> inlined;
    for (const FileSymbols::InlineRange *r : around) {
        Dwarf_Die die;
        if (inlined.size() < MaxInlineDepth && dwarf_offdie(dwarf, r->die, &die))
            inlined.push_back(die);
    }
    return sourceOf(&cu, std::move(file), line, inlined);
}

struct Walk
{
    Sample *sample = nullptr;
    struct Pc
    {
        Dwarf_Addr pc;
        bool activation;
    };
    std::vector<Pc> pcs;
    Dwarf_Word lastSp = 0;
    bool broken = false;
};

int frameCallback(Dwfl_Frame *frame, void *arg)
{
    auto *walk = static_cast<Walk *>(arg);
    Dwarf_Addr pc = 0;
    bool activation = false;
    // The step from this frame to its caller: done inside dwfl_frame_pc (which unwinds one frame
    // ahead to tell whether the caller is a signal frame), or after this returns for the first.
    walk->sample->failedRead = false;
    if (!dwfl_frame_pc(frame, &pc, &activation)) {
        walk->broken = true;
        return DWARF_CB_ABORT;
    }
    // Each caller's frame lies above its callee's: a stack pointer that does not grow means
    // looping or corrupt CFI.
    Dwarf_Word sp = 0;
    if (dwfl_frame_reg(frame, 7, &sp) == 0) {
        if (!walk->pcs.empty() && sp <= walk->lastSp && pc == walk->pcs.back().pc) {
            walk->broken = true;
            return DWARF_CB_ABORT;
        }
        walk->lastSp = sp;
    }
    walk->pcs.push_back({pc, activation});
    if (walk->pcs.size() >= symproto::MaxFrames) {
        walk->broken = true;
        return DWARF_CB_ABORT;
    }
    return DWARF_CB_OK;
}

} // namespace

const Resolved &Unwinder::Process::resolve(Dwarf_Addr lookup)
{
    if (auto it = cache.find(lookup); it != cache.end())
        return it->second;
    if (cache.size() >= MaxCacheEntries)
        cache.clear();
    Resolved r;
    if (Dwfl_Module *module = dwfl_addrmodule(dwfl, lookup)) {
        r.hasModule = true;
        const char *name =
            dwfl_module_info(module, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
        r.module = name ? name : "";
        dwfl_module_getelf(module, &r.bias);
        const unsigned char *bits = nullptr;
        GElf_Addr vaddr = 0;
        const int size = dwfl_module_build_id(module, &bits, &vaddr);
        if (size > 0 && bits)
            r.buildId = hex(bits, std::min(size, 64));
        // The file's own table, shared by every process that maps it, searched by bisection.
        // libdw's lookup parses the table again in each process and then scans every symbol
        // for each address: on a stripped binary (.dynsym only, where most addresses are in no
        // symbol) that was 70% of the child's time while profiling a build. It stays only for
        // a module whose file could not be identified.
        const ModuleRange *range = nullptr;
        for (const ModuleRange &m : modules)
            if (m.hasFile && m.name == r.module && m.bias == r.bias)
                range = &m;
        FileSymbols *file = nullptr;
        if (range && files) {
            Dwarf_Addr ignored = 0;
            file = files->get(range->file, dwfl_module_getelf(module, &ignored));
        }
        const uint64_t relative = lookup - r.bias;
        if (file) {
            if (auto it = file->addresses.find(relative); it != file->addresses.end()) {
                r.symbol = it->second.symbol;
                r.symbolStart = it->second.symbolStart;
                r.hasCfi = it->second.hasCfi;
                r.source = it->second.source;
                return cache.emplace(lookup, std::move(r)).first->second;
            }
        }
        bool found = false;
        if (file) {
            if (const FileSymbols::Symbol *sym = file->find(relative)) {
                r.symbol = demangle(file->names.c_str() + sym->name);
                r.symbolStart = sym->start;
                found = true;
            }
        }
        if (!found && !file) {
            GElf_Off offset = 0;
            GElf_Sym sym;
            if (const char *symbol = dwfl_module_addrinfo(module, lookup, &offset, &sym, nullptr,
                                                          nullptr, nullptr)) {
                r.symbol = demangle(symbol);
                r.symbolStart = lookup - offset - r.bias;
            }
        }
        r.hasCfi = hasCfiAt(module, lookup);
        Dwarf *dwarf = file ? file->openDwarf() : nullptr;
        r.source = dwarf ? resolveSource(file, dwarf, relative) : resolveSource(module, lookup);
        if (file) {
            if (file->addresses.size() >= Files::MaxAddressesPerFile)
                file->addresses.clear();
            file->addresses.emplace(relative, FileAddress{r.symbol, r.symbolStart,
                                                          !r.symbol.empty(), r.hasCfi, r.source});
        }
    }
    return cache.emplace(lookup, std::move(r)).first->second;
}

Unwinder::Unwinder()
    : m_files(std::make_unique<Files>())
{
    elf_version(EV_CURRENT);
}

Unwinder::~Unwinder()
{
    // The processes' Dwfl handles first: the files' tables hold no pointers into them, but
    // the order keeps it that way should they ever.
    m_processes.clear();
}

size_t Unwinder::fileCount() const
{
    return m_files->files.size();
}

Unwinder::Process *Unwinder::process(uint32_t pid)
{
    ++m_clock;
    auto it = m_processes.find(pid);
    if (it != m_processes.end()) {
        it->second->lastUse = m_clock;
        return it->second.get();
    }
    if (m_processes.size() >= MaxProcesses) {
        auto oldest = std::min_element(
            m_processes.begin(), m_processes.end(),
            [](const auto &a, const auto &b) { return a.second->lastUse < b.second->lastUse; });
        m_processes.erase(oldest);
    }
    auto p = std::make_unique<Process>();
    p->lastUse = m_clock;
    p->files = m_files.get();
    p->dwfl = dwfl_begin(&dwflCallbacks);
    if (p->dwfl) {
        p->archElf = architectureElf();
        if (p->archElf)
            p->attached = dwfl_attach_state(p->dwfl, p->archElf, static_cast<pid_t>(pid),
                                            &threadCallbacks, p.get());
    }
    return m_processes.emplace(pid, std::move(p)).first->second.get();
}

bool Unwinder::addModule(uint32_t pid, uint64_t start, uint64_t end, uint64_t offset,
                         const std::string &path, int fd, std::string *error)
{
    Process *p = process(pid);
    if (!p->dwfl) {
        close(fd);
        *error = "dwfl_begin failed";
        return false;
    }
    FileKey key;
    struct stat st;
    const bool hasFile = fstat(fd, &st) == 0;
    if (hasFile)
        key = {uint64_t(st.st_dev), uint64_t(st.st_ino), int64_t(st.st_size),
               int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
    if (hasFile && p->files)
        p->files->offer(key, fd);
    // Where the file's addresses land: the bias, from the PT_LOAD segment this mapping shows.
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
    size_t phnum = 0;
    bool found = false;
    uint64_t bias = 0;
    GElf_Ehdr ehdr;
    if (elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &ehdr) &&
        elf_getphdrnum(elf, &phnum) == 0) {
        // The segment whose file pages the mapping starts in; an executable one first, as the
        // client sends executable mappings, and a read-only segment and the data segment's
        // RELRO part can start in the same file page.
        for (int pass = 0; pass < 2 && !found; ++pass) {
            for (size_t i = 0; i < phnum && !found; ++i) {
                GElf_Phdr ph;
                if (!gelf_getphdr(elf, static_cast<int>(i), &ph) || ph.p_type != PT_LOAD ||
                    (pass == 0 && !(ph.p_flags & PF_X)))
                    continue;
                // The mapping starts at the page holding p_offset, which is below p_offset
                // when the segment does not start on a page boundary in the file (GNU ld's
                // text after a read-only segment): offset - p_offset would wrap around.
                const uint64_t pageOffset = ph.p_offset & ~uint64_t(0xfff);
                if (offset >= pageOffset && offset < ph.p_offset + ph.p_filesz) {
                    bias = start - offset + ph.p_offset - ph.p_vaddr;
                    found = true;
                }
            }
        }
        if (found && ehdr.e_type == ET_EXEC)
            bias = 0;
    }
    if (elf)
        elf_end(elf);
    if (!found) {
        close(fd);
        *error = "not an ELF file with a PT_LOAD segment at this mapping's offset";
        return false;
    }
    (void)end;
    // Another mapping of a file already reported there (a second executable segment): libdwfl
    // would take the new descriptor for a conflict and drop the module it has.
    for (const ModuleRange &m : p->modules) {
        if (m.name == path && m.bias == bias) {
            close(fd);
            return true;
        }
    }

    if (p->reportedOnce)
        dwfl_report_begin_add(p->dwfl);
    else
        dwfl_report_begin(p->dwfl);
    p->reportedOnce = true;
    Dwfl_Module *module = dwfl_report_elf(p->dwfl, path.c_str(), path.c_str(), fd, bias, true);
    if (!module) {
        close(fd);
        *error = dwfl_errmsg(-1);
        dwfl_report_end(p->dwfl, nullptr, nullptr);
        return false;
    }
    Dwarf_Addr low = 0, high = 0;
    dwfl_module_info(module, nullptr, &low, &high, nullptr, nullptr, nullptr, nullptr);
    // A file mapped where another one was (dlclose, then dlopen): the old modules go.
    std::vector<ModuleRange> kept;
    bool replaced = false;
    for (const ModuleRange &m : p->modules) {
        if (m.low < high && low < m.high && !(m.low == low && m.high == high && m.name == path))
            replaced = true;
        else if (!(m.low == low && m.high == high && m.name == path))
            kept.push_back(m);
    }
    dwfl_report_end(p->dwfl, nullptr, nullptr);
    if (replaced) {
        dwfl_report_begin(p->dwfl);
        for (const ModuleRange &m : kept)
            dwfl_report_module(p->dwfl, m.name.c_str(), m.low, m.high);
        dwfl_report_module(p->dwfl, path.c_str(), low, high);
        dwfl_report_end(p->dwfl, nullptr, nullptr);
        p->cache.clear();
    }
    kept.push_back({path, low, high, bias, key, hasFile});
    p->modules = std::move(kept);
    return true;
}

void Unwinder::forgetProcess(uint32_t pid)
{
    m_processes.erase(pid);
}

symproto::Stack Unwinder::unwind(uint32_t pid, uint32_t tid,
                                 const std::array<uint64_t, symproto::RegisterCount> &registers,
                                 std::span<const uint8_t> stack,
                                 std::span<const uint64_t> framePointerIps)
{
    Process *p = process(pid);
    symproto::Stack out;
    Walk walk;
    walk.sample = &p->sample;
    int rc = -1;
    bool lastStepFailedRead = false;
    if (p->attached) {
        p->sample = {&registers, stack, false};
        rc = dwfl_getthread_frames(p->dwfl, static_cast<pid_t>(tid ? tid : pid), frameCallback,
                                   &walk);
        lastStepFailedRead = p->sample.failedRead;
        p->sample = {};
    }
    if (walk.pcs.empty())
        walk.pcs.push_back({registers[16], true});
    // libdw returns 0 when the CFI said the return address is undefined: the outermost frame
    // (_start, a thread's start routine); but also when the return address lay outside the copy.
    out.truncated = rc != 0 || walk.broken || lastStepFailedRead;
    // The kernel's frame-pointer chain, when the DWARF unwind stopped short of it.
    bool kernelChain = false;
    if (out.truncated && framePointerIps.size() > walk.pcs.size()) {
        kernelChain = true;
        walk.pcs.clear();
        for (size_t i = 0; i < framePointerIps.size() && i < symproto::MaxFrames; ++i)
            walk.pcs.push_back({framePointerIps[i], i == 0});
        out.usedFramePointers = true;
    }
    out.frames.reserve(walk.pcs.size());
    for (size_t i = 0; i < walk.pcs.size(); ++i) {
        const auto [pc, activation] = walk.pcs[i];
        // A return address points after the call: its function is the one at pc - 1.
        const Dwarf_Addr lookup = activation || pc == 0 ? pc : pc - 1;
        symproto::Frame f;
        f.address = pc;
        if (p->dwfl) {
            const Resolved &r = p->resolve(lookup);
            if (r.hasModule) {
                f.address = pc - r.bias;
                f.module = r.module;
                f.buildId = r.buildId;
                f.symbol = r.symbol;
                f.symbolStart = r.symbolStart;
                f.file = r.source.file;
                f.line = r.source.line;
                // The functions inlined here come first, innermost first, as perf report
                // --inline and hotspot show them.
                for (const InlinedFunction &in : r.source.inlined) {
                    symproto::Frame inl;
                    inl.address = f.address;
                    inl.symbolStart = f.symbolStart;
                    inl.module = f.module;
                    inl.buildId = f.buildId;
                    inl.symbol = in.symbol;
                    inl.file = in.file;
                    inl.line = in.line;
                    inl.inlined = true;
                    out.frames.push_back(std::move(inl));
                }
            }
            // Unwinding from this frame to its caller took elfutils' frame-pointer fallback.
            if (i + 1 < walk.pcs.size() && !r.hasCfi)
                out.usedFramePointers = true;
        }
        out.frames.push_back(std::move(f));
    }
    // A frame-pointer chain cannot say it reached the root; its last frame's name can.
    if (kernelChain && !out.frames.empty() && isRootSymbol(out.frames.back().symbol) &&
        walk.pcs.size() < symproto::MaxFrames)
        out.truncated = false;
    return out;
}

} // namespace bpflens::symbolizer
