#include "symbolizer/symbolizerprotocol.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace bpflens::symproto {

namespace {

class Writer
{
public:
    Writer(MessageType type, uint32_t sequence, size_t payloadSize = 64)
    {
        m_buffer.reserve(HeaderSize + payloadSize);
        u32(Magic);
        u16(Version);
        u16(static_cast<uint16_t>(type));
        u32(sequence);
        u32(0); // payload size, set by finish()
    }
    void u16(uint16_t v) { bytes(&v, 2); }
    void u32(uint32_t v) { bytes(&v, 4); }
    void u64(uint64_t v) { bytes(&v, 8); }
    void bytes(const void *data, size_t size)
    {
        static_assert(std::endian::native == std::endian::little, "x86_64 only");
        // resize and memcpy, not insert(): a reply is some 15 writes a frame, and the test
        // builds (-O0) spent a fifth of the symboliser's time in insert's layers.
        const size_t at = m_buffer.size();
        m_buffer.resize(at + size);
        if (size)
            std::memcpy(m_buffer.data() + at, data, size);
    }
    size_t size() const { return m_buffer.size(); }
    std::vector<uint8_t> finish()
    {
        const auto payload = static_cast<uint32_t>(m_buffer.size() - HeaderSize);
        std::memcpy(m_buffer.data() + 12, &payload, 4);
        return std::move(m_buffer);
    }

private:
    std::vector<uint8_t> m_buffer;
};

class Reader
{
public:
    explicit Reader(std::span<const uint8_t> data)
        : m_data(data)
    {
    }
    bool ok() const { return m_ok; }
    bool atEnd() const { return m_ok && m_position == m_data.size(); }
    size_t remaining() const { return m_ok ? m_data.size() - m_position : 0; }
    std::span<const uint8_t> take(size_t size)
    {
        if (!m_ok || size > m_data.size() - m_position) {
            m_ok = false;
            return {};
        }
        auto out = m_data.subspan(m_position, size);
        m_position += size;
        return out;
    }
    template<typename T>
    T value()
    {
        T v{};
        auto s = take(sizeof(T));
        if (!s.empty())
            std::memcpy(&v, s.data(), sizeof(T));
        return v;
    }
    uint8_t u8() { return value<uint8_t>(); }
    uint16_t u16() { return value<uint16_t>(); }
    uint32_t u32() { return value<uint32_t>(); }
    uint64_t u64() { return value<uint64_t>(); }
    std::string string(size_t size)
    {
        auto s = take(size);
        return std::string(reinterpret_cast<const char *>(s.data()), s.size());
    }

private:
    std::span<const uint8_t> m_data;
    size_t m_position = 0;
    bool m_ok = true;
};

} // namespace

std::vector<uint8_t> encodeHello(uint32_t sequence, const Hello &hello)
{
    Writer w(MessageType::Hello, sequence);
    w.u32(hello.version);
    w.u32(hello.pid);
    w.u32(hello.uid);
    return w.finish();
}

std::vector<uint8_t> encodeAddModule(uint32_t sequence, const AddModule &module)
{
    Writer w(MessageType::AddModule, sequence);
    const size_t pathSize = std::min(module.path.size(), MaxPathBytes);
    w.u32(module.pid);
    w.u64(module.start);
    w.u64(module.end);
    w.u64(module.offset);
    w.u32(static_cast<uint32_t>(pathSize));
    w.bytes(module.path.data(), pathSize);
    return w.finish();
}

std::vector<uint8_t> encodeForgetProcess(uint32_t sequence, uint32_t pid)
{
    Writer w(MessageType::ForgetProcess, sequence);
    w.u32(pid);
    return w.finish();
}

std::vector<uint8_t> encodeUnwind(uint32_t sequence, const Unwind &unwind)
{
    const size_t stackSize = std::min(unwind.stack.size(), MaxStackBytes);
    const size_t ipCount = std::min(unwind.framePointerIps.size(), MaxFramePointerIps);
    Writer w(MessageType::Unwind, sequence, 16 + RegisterCount * 8 + stackSize + ipCount * 8);
    w.u32(unwind.pid);
    w.u32(unwind.tid);
    for (uint64_t r : unwind.registers)
        w.u64(r);
    w.u32(static_cast<uint32_t>(stackSize));
    w.u32(static_cast<uint32_t>(ipCount));
    w.bytes(unwind.stack.data(), stackSize);
    for (size_t i = 0; i < ipCount; ++i)
        w.u64(unwind.framePointerIps[i]);
    return w.finish();
}

std::vector<uint8_t> encodeStack(uint32_t sequence, const Stack &stack)
{
    bool truncated = stack.truncated;
    size_t count = std::min(stack.frames.size(), MaxReplyFrames);
    if (count < stack.frames.size())
        truncated = true;
    // Frames that would not fit the reply are cut (the stack is then truncated).
    size_t size = HeaderSize + 8;
    for (size_t i = 0; i < count; ++i) {
        const Frame &f = stack.frames[i];
        const size_t frameSize = 29 + std::min(f.module.size(), MaxPathBytes) +
                                 std::min(f.buildId.size(), MaxBuildIdBytes) +
                                 std::min(f.symbol.size(), MaxSymbolBytes) +
                                 std::min(f.file.size(), MaxPathBytes);
        if (size + frameSize > MaxReplyBytes) {
            count = i;
            truncated = true;
            break;
        }
        size += frameSize;
    }
    Writer w(MessageType::Stack, sequence, size - HeaderSize); // written in one allocation
    w.u32((truncated ? 1u : 0u) | (stack.usedFramePointers ? 2u : 0u));
    w.u32(static_cast<uint32_t>(count));
    for (size_t i = 0; i < count; ++i) {
        const Frame &f = stack.frames[i];
        const size_t moduleSize = std::min(f.module.size(), MaxPathBytes);
        const size_t buildIdSize = std::min(f.buildId.size(), MaxBuildIdBytes);
        const size_t symbolSize = std::min(f.symbol.size(), MaxSymbolBytes);
        const size_t fileSize = std::min(f.file.size(), MaxPathBytes);
        w.u64(f.address);
        w.u64(f.symbolStart);
        w.u16(static_cast<uint16_t>(moduleSize));
        w.u16(static_cast<uint16_t>(buildIdSize));
        w.u16(static_cast<uint16_t>(symbolSize));
        w.u16(static_cast<uint16_t>(fileSize));
        w.u32(f.line);
        const uint8_t flags = f.inlined ? 1 : 0;
        w.bytes(&flags, 1);
        w.bytes(f.module.data(), moduleSize);
        w.bytes(f.buildId.data(), buildIdSize);
        w.bytes(f.symbol.data(), symbolSize);
        w.bytes(f.file.data(), fileSize);
    }
    return w.finish();
}

bool decodeHeader(std::span<const uint8_t> packet, Header *header)
{
    Reader r(packet);
    const uint32_t magic = r.u32();
    const uint16_t version = r.u16();
    const uint16_t type = r.u16();
    const uint32_t sequence = r.u32();
    const uint32_t payloadSize = r.u32();
    if (!r.ok() || magic != Magic || version != Version || payloadSize != r.remaining())
        return false;
    header->type = static_cast<MessageType>(type);
    header->sequence = sequence;
    header->payload = packet.subspan(HeaderSize);
    return true;
}

bool decodeHello(std::span<const uint8_t> payload, Hello *hello)
{
    Reader r(payload);
    hello->version = r.u32();
    hello->pid = r.u32();
    hello->uid = r.u32();
    return r.atEnd();
}

bool decodeAddModule(std::span<const uint8_t> payload, AddModule *module)
{
    Reader r(payload);
    module->pid = r.u32();
    module->start = r.u64();
    module->end = r.u64();
    module->offset = r.u64();
    const uint32_t pathSize = r.u32();
    if (!r.ok() || pathSize > MaxPathBytes || module->end <= module->start)
        return false;
    module->path = r.string(pathSize);
    return r.atEnd();
}

bool decodeForgetProcess(std::span<const uint8_t> payload, uint32_t *pid)
{
    Reader r(payload);
    *pid = r.u32();
    return r.atEnd();
}

bool decodeUnwind(std::span<const uint8_t> payload, Unwind *unwind)
{
    Reader r(payload);
    unwind->pid = r.u32();
    unwind->tid = r.u32();
    for (uint64_t &reg : unwind->registers)
        reg = r.u64();
    const uint32_t stackSize = r.u32();
    const uint32_t ipCount = r.u32();
    if (!r.ok() || stackSize > MaxStackBytes || ipCount > MaxFramePointerIps)
        return false;
    unwind->stack = r.take(stackSize);
    unwind->framePointerIps.clear();
    if (r.remaining() != size_t(ipCount) * 8)
        return false;
    unwind->framePointerIps.reserve(ipCount);
    for (uint32_t i = 0; i < ipCount; ++i)
        unwind->framePointerIps.push_back(r.u64());
    return r.atEnd();
}

bool decodeStack(std::span<const uint8_t> payload, Stack *stack)
{
    if (HeaderSize + payload.size() > MaxReplyBytes)
        return false;
    Reader r(payload);
    const uint32_t flags = r.u32();
    const uint32_t count = r.u32();
    if (!r.ok() || count > MaxReplyFrames || (flags & ~3u))
        return false;
    stack->truncated = flags & 1;
    stack->usedFramePointers = flags & 2;
    stack->frames.clear();
    stack->frames.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
        Frame f;
        f.address = r.u64();
        f.symbolStart = r.u64();
        const uint16_t moduleSize = r.u16();
        const uint16_t buildIdSize = r.u16();
        const uint16_t symbolSize = r.u16();
        const uint16_t fileSize = r.u16();
        f.line = r.u32();
        const uint8_t flags = r.u8();
        if (!r.ok() || moduleSize > MaxPathBytes || buildIdSize > MaxBuildIdBytes ||
            symbolSize > MaxSymbolBytes || fileSize > MaxPathBytes || (flags & ~1u))
            return false;
        f.inlined = flags & 1;
        f.module = r.string(moduleSize);
        f.buildId = r.string(buildIdSize);
        f.symbol = r.string(symbolSize);
        f.file = r.string(fileSize);
        if (!r.ok())
            return false;
        stack->frames.push_back(std::move(f));
    }
    return r.atEnd();
}

} // namespace bpflens::symproto
