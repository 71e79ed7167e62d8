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
// every name on another machine. A frame with a symbol stands for the whole function (address is
// the function's start), so the samples of one function share one frame; a frame without one
// (stripped code, JIT) keeps the instruction's address.
struct StackFrame
{
    FrameKind kind = FrameKind::User;
    quint64 address = 0; // kernel: absolute; user: relative to the module's load base
    QByteArray module;   // "vmlinux", "ext4", "/usr/lib/x86_64-linux-gnu/libc.so.6"; "" unknown
    QByteArray buildId;  // lower-case hex; "" when unknown
    QByteArray symbol;   // demangled; "" when unknown
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
    // The frame as people read it: the symbol, or "module+0x1a2b" / "[unknown]" without one.
    QString frameName(quint32 id) const;
    bool isEmpty() const { return m_frames.empty() && m_stacks.empty(); }
    void clear() { *this = StackTable{}; }

private:
    std::vector<StackFrame> m_frames;
    std::vector<StackDefinition> m_stacks;
    QHash<StackFrame, quint32> m_frameIds;
    QHash<QList<quint32>, quint32> m_stackIds[16]; // per flags value
    qsizetype m_newFrames = 0; // definitions not yet handed on: the last ones of m_frames
    qsizetype m_newStacks = 0;
};

} // namespace bpflens
