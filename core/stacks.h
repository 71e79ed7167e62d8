#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

#include <vector>

namespace bpflens {

struct RecordBatch;

// Where a frame's code lives.
enum class FrameKind : quint8
{
    Kernel = 1, // module "vmlinux" or a kernel module's name
    User = 2,   // module: the mapped file's path
};

// One function of a sampled stack, symbolised at record time so that a session opens with
// every name on another machine. A frame with a symbol stands for the function (address is the
// function's start) at one source line: the samples of one function at one line share one frame,
// and without DWARF (no file, line 0) all samples of the function do. A frame without a symbol
// (stripped code, JIT) keeps the instruction's address.
//
// A function the compiler inlined into another is a frame of its own, marked inlined, before
// (leaf side of) the frame of the function it was inlined into; its address is that function's
// start. file and line say where in the frame's function the stack was: the sampled line in the
// innermost frame, the line of the call in each caller (for an inlined frame's caller, the line
// where it was inlined), as perf report --inline, hotspot and eu-addr2line -i show them.
struct StackFrame
{
    FrameKind kind = FrameKind::User;
    quint64 address = 0; // kernel: absolute; user: relative to the module's load base
    QByteArray module;   // "vmlinux", "ext4", "/usr/lib/x86_64-linux-gnu/libc.so.6"; "" unknown
    QByteArray buildId;  // lower-case hex; "" when unknown
    QByteArray symbol;   // demangled; "" when unknown
    // Initialised here so that StackFrame{kind, address, module, buildId, symbol} stays valid
    // (-Wmissing-field-initializers).
    QByteArray file{}; // the source file's path as DWARF names it; "" when unknown
    quint32 line = 0;  // 0 when unknown
    bool inlined = false;
    bool operator==(const StackFrame &) const = default;
};
size_t qHash(const StackFrame &frame, size_t seed = 0);

// What is known about how complete a stack is.
enum StackFlag : quint8
{
    KernelStackTruncated = 1, // deeper than the kernel stack the probe copies
    UserStackTruncated = 2,   // the unwinder did not reach the thread's first frame
    UserFramePointers = 4,    // some user frames were found by frame pointers, not DWARF CFI
    NoUserStack = 8,          // a kernel thread, or a kernel-only recording
};
// The flags as stacks.csv and the JSON lines write them: "kernel_truncated user_frame_pointers";
// a bit this build has no name for as "0x10".
QByteArray stackFlagWords(quint8 flags);

// A frame's id and its content, as a session file and the stream carry it. Ids are given in
// order from 1, so a reader can check that every definition comes once and before its use.
struct FrameDefinition
{
    quint32 id = 0;
    StackFrame frame;
    bool operator==(const FrameDefinition &) const = default;
};

// A whole stack: its frames leaf first (kernel frames, then user frames). Ids from 1 too; 0 in
// an event means "no stack".
struct StackDefinition
{
    quint32 id = 0;
    quint8 flags = 0; // StackFlag
    QList<quint32> frames;
    bool operator==(const StackDefinition &) const = default;
};

// Every frame and stack of a session, each stored once: the samples refer to stacks by id, so a
// long profile stays small. The producer (the engine) interns frames and stacks and hands the
// new definitions on with each batch; a consumer (the session reader, the GUI, the CLI) adds
// them in the order they come and checks them.
class StackTable
{
public:
    // ---- producing
    quint32 intern(const StackFrame &frame);
    quint32 intern(quint8 flags, const QList<quint32> &frames);
    // Moves the definitions made since the previous call into batch.frames and batch.stacks.
    void takeNewDefinitions(RecordBatch &batch);
    // Appends every definition of the table to batch.frames and batch.stacks (saving a whole
    // session again).
    void appendAllDefinitions(RecordBatch &batch) const;

    // ---- consuming
    // False with a message for an id out of order or a stack naming a frame not defined yet;
    // nothing is added then.
    bool add(const FrameDefinition &definition, QString *error);
    bool add(const StackDefinition &definition, QString *error);
    // The batch's frames, then its stacks.
    bool addDefinitions(const RecordBatch &batch, QString *error);

    // ---- reading
    qsizetype frameCount() const { return qsizetype(m_frames.size()); }
    qsizetype stackCount() const { return qsizetype(m_stacks.size()); }
    bool hasStack(quint32 id) const { return id >= 1 && id <= m_stacks.size(); }
    bool hasFrame(quint32 id) const { return id >= 1 && id <= m_frames.size(); }
    // id must be valid (hasFrame / hasStack).
    const StackFrame &frame(quint32 id) const { return m_frames[id - 1]; }
    const StackDefinition &stack(quint32 id) const { return m_stacks[id - 1]; }
    // The frame as people read it: the symbol, or "module+0x1a2b" / "[unknown]" without one;
    // an inlined frame's symbol with " (inlined)" after it, as perf shows it.
    QString frameName(quint32 id) const;
    // The first frame of the same function as id (the same kind, module, build id, symbol,
    // address and inlined mark, whatever the line): the call trees, the flame graph and the
    // function lists merge a function's lines into one node by it. id itself when it is the
    // first; id must be valid.
    quint32 functionOf(quint32 id) const { return m_functions[id - 1]; }
    // "file.c:12", "file.c" or "" (the file's name without its directory).
    QString sourceLocation(quint32 id) const;
    bool isEmpty() const { return m_frames.empty() && m_stacks.empty(); }
    void clear() { *this = StackTable{}; }

private:
    void addFunction(const StackFrame &frame);

    std::vector<StackFrame> m_frames;
    std::vector<quint32> m_functions;         // per frame: functionOf()
    QHash<StackFrame, quint32> m_functionIds; // the frame without its file and line -> first id
    std::vector<StackDefinition> m_stacks;
    QHash<StackFrame, quint32> m_frameIds;
    QHash<QList<quint32>, quint32> m_stackIds[16]; // per flags value
    qsizetype m_newFrames = 0; // definitions not yet handed on: the last ones of m_frames
    qsizetype m_newStacks = 0;
};

} // namespace bpflens
