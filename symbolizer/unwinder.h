#pragma once

// Unwinds and symbolises x86_64 user stacks from a copy of the stack and the registers, with
// libdw (elfutils): DWARF CFI (.eh_frame, .debug_frame) where the module has it, frame pointers
// where it does not (elfutils' x86_64 fallback), and the kernel's frame-pointer chain when that
// reaches further. The ELF files come as descriptors; nothing is opened by path. This parses
// untrusted files: it runs in bpflens-symbolizer, the sandboxed child, never in the helper.
#include "symbolizer/symbolizerprotocol.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>

namespace bpflens::symbolizer {

// A symbol's name as perf shows it: C++ and Rust (v0 and legacy) demangled, anything else, or
// anything the demanglers reject, unchanged.
std::string demangle(const char *name);

class Unwinder
{
public:
    Unwinder();
    ~Unwinder();
    Unwinder(const Unwinder &) = delete;
    Unwinder &operator=(const Unwinder &) = delete;

    // Reports the file mapped at [start, end) from file offset `offset` in process pid: an
    // executable mapping (others can be ambiguous: a read-only segment and the data segment's
    // RELRO part may start in the same file page). The same file again at the same place is
    // taken once; another file over a reported one replaces it (dlclose, dlopen). Always
    // takes fd (closes it on failure). false with error when the file is not a usable ELF file
    // (its frames then stay unknown).
    bool addModule(uint32_t pid, uint64_t start, uint64_t end, uint64_t offset,
                   const std::string &path, int fd, std::string *error);
    void forgetProcess(uint32_t pid);

    // registers: DWARF numbering (0-16, 16 = rip); stack: the bytes from registers[7] upwards.
    symproto::Stack unwind(uint32_t pid, uint32_t tid,
                           const std::array<uint64_t, symproto::RegisterCount> &registers,
                           std::span<const uint8_t> stack,
                           std::span<const uint64_t> framePointerIps);

    size_t processCount() const { return m_processes.size(); }
    // Processes kept at most; the least recently used one goes first.
    static constexpr size_t MaxProcesses = 1024;

    // Files whose symbol tables are kept, shared by the processes that map them.
    size_t fileCount() const;

    struct Process;
    struct Files;

private:
    Process *process(uint32_t pid);

    std::unique_ptr<Files> m_files;
    std::unordered_map<uint32_t, std::unique_ptr<Process>> m_processes;
    uint64_t m_clock = 0;
};

} // namespace bpflens::symbolizer
