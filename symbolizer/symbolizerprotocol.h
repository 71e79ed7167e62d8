#pragma once

// The messages between the helper (SymbolizerClient) and bpflens-symbolizer, over a
// SOCK_SEQPACKET socket: one message per packet, little-endian, no Qt (the child links only libdw
// and this). Every length is checked against what was received before it is used; a message that
// does not decode is dropped (an unwind request gets an empty, truncated stack back when at
// least its header decoded, so the client does not wait for nothing).
//
// Header (16 bytes): u32 magic "BLSY", u16 version, u16 type, u32 sequence, u32 payload size
// (= the packet's size - 16).
//   Hello (child → client, once, after the sandbox is in place): u32 version, u32 pid, u32 uid
//   AddModule (client → child, one descriptor in SCM_RIGHTS; an executable mapping of
//       /proc/<pid>/maps): u32 pid, u64 start, u64 end,
//       u64 file offset, u32 path size, path bytes
//   ForgetProcess: u32 pid
//   Unwind: u32 pid, u32 tid, 17 × u64 registers (DWARF numbering), u32 stack size,
//       u32 frame-pointer ip count, stack bytes (copied from registers[7] upwards), u64 ips
//   Stack (child → client, the Unwind's sequence): u32 flags (1 truncated, 2 frame pointers
//       used), u32 frame count, per frame: u64 address, u64 symbol start, u16 module size,
//       u16 build-id size, u16 symbol size, u16 file size, u32 line, u8 frame flags (1 inlined),
//       the four byte strings (module, build id, symbol, file)
// Version 2 added the source file, line and inlined flag: an address in a function that other
// functions were inlined into comes back as several frames, the innermost inlined one first.
#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace bpflens::symproto {

constexpr uint32_t Magic = 0x59534c42; // "BLSY"
constexpr uint16_t Version = 2;
constexpr size_t HeaderSize = 16;
constexpr size_t RegisterCount = 17;

// Limits, enforced by the decoders and (by cutting) the encoders.
constexpr size_t MaxStackBytes = 64 * 1024;
constexpr size_t MaxFramePointerIps = 512;
constexpr size_t MaxPathBytes = 4096;
constexpr size_t MaxFrames = 256; // physical frames an unwind walks
// Frames in a reply: the physical ones, each with the functions inlined into it.
constexpr size_t MaxReplyFrames = 1024;
constexpr size_t MaxSymbolBytes = 1024;
constexpr size_t MaxBuildIdBytes = 128; // hex: a 64-byte note
constexpr size_t MaxReplyBytes = 192 * 1024;
// The largest packet either side sends; receive buffers are this big.
constexpr size_t MaxMessageBytes = std::max<size_t>(
    HeaderSize + 16 + RegisterCount * 8 + MaxStackBytes + MaxFramePointerIps * 8 + 1024,
    MaxReplyBytes);
static_assert(MaxReplyBytes <= MaxMessageBytes);

enum class MessageType : uint16_t
{
    Hello = 1,
    AddModule = 2,
    ForgetProcess = 3,
    Unwind = 4,
    Stack = 0x84,
};

struct Header
{
    MessageType type{};
    uint32_t sequence = 0;
    std::span<const uint8_t> payload;
};

struct Hello
{
    uint32_t version = 0;
    uint32_t pid = 0;
    uint32_t uid = 0;
};

struct AddModule
{
    uint32_t pid = 0;
    uint64_t start = 0;
    uint64_t end = 0;
    uint64_t offset = 0;
    std::string path;
};

// Views into the packet it was decoded from.
struct Unwind
{
    uint32_t pid = 0;
    uint32_t tid = 0;
    std::array<uint64_t, RegisterCount> registers{};
    std::span<const uint8_t> stack;
    std::vector<uint64_t> framePointerIps;
};

struct Frame
{
    uint64_t address = 0;     // relative to the module's load bias; absolute without a module
    uint64_t symbolStart = 0; // relative like address; 0 without a symbol
    std::string module;
    std::string buildId; // lower-case hex
    std::string symbol;
    // From DWARF, when the module has it: the source file and line of this frame (the sampled
    // line in the innermost function, the line of the call in each caller). An inlined frame
    // names the inlined function; its address and symbol start are those of the function it
    // was inlined into, and the frames after it, up to the first that is not inlined, share them.
    std::string file{};
    uint32_t line = 0;
    bool inlined = false;
};

struct Stack
{
    std::vector<Frame> frames; // leaf first
    bool truncated = false;
    bool usedFramePointers = false;
};

std::vector<uint8_t> encodeHello(uint32_t sequence, const Hello &hello);
std::vector<uint8_t> encodeAddModule(uint32_t sequence, const AddModule &module);
std::vector<uint8_t> encodeForgetProcess(uint32_t sequence, uint32_t pid);
std::vector<uint8_t> encodeUnwind(uint32_t sequence, const Unwind &unwind);
// Cuts what does not fit MaxReplyFrames, MaxSymbolBytes, MaxPathBytes, MaxBuildIdBytes or
// MaxReplyBytes (then the stack is marked truncated). decodeStack accepts exactly what this can
// produce.
std::vector<uint8_t> encodeStack(uint32_t sequence, const Stack &stack);

// false when the packet is not a message of this version.
bool decodeHeader(std::span<const uint8_t> packet, Header *header);
bool decodeHello(std::span<const uint8_t> payload, Hello *hello);
bool decodeAddModule(std::span<const uint8_t> payload, AddModule *module);
bool decodeForgetProcess(std::span<const uint8_t> payload, uint32_t *pid);
bool decodeUnwind(std::span<const uint8_t> payload, Unwind *unwind);
bool decodeStack(std::span<const uint8_t> payload, Stack *stack);

} // namespace bpflens::symproto
