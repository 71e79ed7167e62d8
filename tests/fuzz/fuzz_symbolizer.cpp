// libFuzzer target for bpflens-symbolizer's parsing of untrusted input (docs/profiling.md,
// "Unwinding and symbols"). The input is an ELF file: written to a memfd and reported as a
// process's module twice (as the whole file at offset 0 and as a text mapping at 0x1000, the way
// /proc/<pid>/maps shows a PIE), then stacks with fixed registers and a fixed stack are unwound and
// symbolised through it, with and without a frame-pointer chain. Never crashes, never reads out of
// bounds, never hangs (ASan, UBSan, libFuzzer's timeouts); only the code here and in
// symbolizer/ is instrumented for coverage, libdw itself is the system's.
// The same bytes also go through the protocol's decoders: the helper decodes what the child
// sends, and a child that a hostile file took over may send anything. And they are a symbol's
// name for the demanglers (symbolizer/rustdemangle.cpp is ours, and a hostile file names its
// symbols as it likes); the seeds with Rust names (rust-*) start it there.
#include "symbolizer/rustdemangle.h"
#include "symbolizer/symbolizerprotocol.h"
#include "symbolizer/unwinder.h"

#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>

using namespace bpflens;

namespace {

constexpr uint64_t Base = 0x555555554000;
constexpr uint64_t StackTop = 0x7ffc00000000;

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

void decodeAll(const uint8_t *data, size_t size)
{
    const std::span<const uint8_t> bytes(data, size);
    symproto::Header header;
    if (symproto::decodeHeader(bytes, &header)) {
        symproto::Stack stack;
        symproto::decodeStack(header.payload, &stack);
    }
    symproto::Stack stack;
    if (symproto::decodeStack(bytes, &stack)) {
        // What decodes encodes again to the same bytes.
        const auto again = symproto::encodeStack(0, stack);
        if (again.size() != size + symproto::HeaderSize ||
            std::memcmp(again.data() + symproto::HeaderSize, data, size) != 0)
            __builtin_trap();
    }
    symproto::Unwind unwind;
    symproto::decodeUnwind(bytes, &unwind);
    symproto::AddModule module;
    symproto::decodeAddModule(bytes, &module);
    symproto::Hello hello;
    symproto::decodeHello(bytes, &hello);
}

void demangleAll(const uint8_t *data, size_t size)
{
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    std::string out;
    symbolizer::demangleRust(bytes, &out);
    // A name from a symbol table ends at its first NUL.
    const std::string name(bytes.substr(0, bytes.find('\0')));
    if (symbolizer::demangle(name.c_str()).empty() && !name.empty())
        __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    decodeAll(data, size);
    demangleAll(data, size);

    static symbolizer::Unwinder unwinder;
    std::string error;
    const int fd = memfdWith(data, size);
    const int text = dup(fd);
    unwinder.addModule(1, Base, Base + 0x1000, 0, "/fuzz/module", fd, &error);
    unwinder.addModule(1, Base + 0x1000, Base + 0x2000, 0x1000, "/fuzz/module", text, &error);

    // A stack of plausible return addresses into the module, linked by saved frame pointers.
    std::array<uint64_t, 64> stack{};
    const uint64_t sp = StackTop - sizeof stack;
    for (size_t i = 0; i < stack.size(); i += 4) {
        stack[i] = sp + (i + 4) * 8;           // saved rbp: the next record
        stack[i + 1] = Base + 0x1100 + i * 24; // return address
        stack[i + 2] = Base + 0x40 + i;
        stack[i + 3] = 0;
    }
    std::array<uint64_t, symproto::RegisterCount> registers{};
    registers[6] = sp;
    registers[7] = sp;
    const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t *>(stack.data()),
                                         sizeof stack);
    const std::array<uint64_t, 3> fpIps{Base + 0x1139, Base + 0x1180, Base + 0x11c0};
    for (uint64_t ip : {Base + 0x1139, Base + 0x1000, Base + 0x40, Base + 0x1ff0, uint64_t(0)}) {
        registers[16] = ip;
        unwinder.unwind(1, 1, registers, bytes, {});
        unwinder.unwind(1, 2, registers, bytes, fpIps);
    }
    unwinder.forgetProcess(1);
    return 0;
}
