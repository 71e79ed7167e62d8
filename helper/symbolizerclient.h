#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <array>
#include <memory>

namespace bpflens {

// The registers of a user-space thread at a sample, as the profile and offcpu BPF programs copy
// them (x86_64, DWARF register numbering: 0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp,
// 7 rsp, 8-15 r8-r15, 16 the return address column = rip).
struct UserRegisters
{
    std::array<quint64, 17> dwarf{};
    bool valid = false; // false: the sample has no user context (a kernel thread)
    quint64 ip() const { return dwarf[16]; }
    quint64 sp() const { return dwarf[7]; }
    quint64 bp() const { return dwarf[6]; }
};

// What the kernel gave for one sample's user side: the registers, the top of the user stack
// copied from sp upwards (a bounded size, as perf --call-graph dwarf copies), and the frame-
// pointer chain bpf_get_stack(BPF_F_USER_STACK) walked (leaf first), for code without CFI.
struct UserSample
{
    quint32 pid = 0; // thread group id
    quint32 tid = 0;
    UserRegisters regs;
    QByteArray stack;
    QList<quint64> framePointerIps;
};

// One user frame, resolved from the ELF file mapped at the address.
struct SymbolizedFrame
{
    quint64 address = 0;     // the instruction's address relative to its module's load base
                             // (absolute when no module maps it)
    QByteArray module;       // the mapped file's path as the process sees it; empty when unmapped
    QByteArray buildId;      // lower-case hex of NT_GNU_BUILD_ID; empty when the file has none
    QByteArray symbol;       // demangled function name; empty when unknown
    quint64 symbolStart = 0; // the function's start, relative like address
    // From DWARF where the module has it: the source file and line (the sampled line in the
    // innermost function, the call's line in its callers); inlined: a function inlined into
    // the next frame's (address and symbolStart are that function's).
    QByteArray file{};
    quint32 line = 0;
    bool inlined = false;
    bool operator==(const SymbolizedFrame &) const = default;
};

struct SymbolizedStack
{
    QList<SymbolizedFrame> frames; // leaf first
    // The unwinder did not reach the outermost frame (_start, a thread's start routine): the
    // copied stack ended, CFI and frame pointers both failed, or a module could not be read.
    bool truncated = false;
    // How the stack was unwound: DWARF CFI for every frame, or frame pointers for some.
    bool usedFramePointers = false;
};

// Unwinds and symbolises user stacks in a separate, unprivileged process (bpflens-symbolizer):
// the ELF and DWARF data of other users' programs is untrusted input and is never parsed in the
// root helper. This side reads /proc/<pid>/maps, opens each mapped file (as the caller, usually
// root, through /proc/<pid>/map_files) and passes the descriptors over a socket; the child,
// which dropped to an unprivileged user with no_new_privs before reading any request, parses
// them. A crashed or hung child is restarted and its stacks come back as unknown frames.
class SymbolizerClient
{
public:
    SymbolizerClient();
    ~SymbolizerClient();
    SymbolizerClient(const SymbolizerClient &) = delete;
    SymbolizerClient &operator=(const SymbolizerClient &) = delete;

    // Starts the child. false and error when it cannot run (the executable is missing).
    bool start(QString *error);
    bool isRunning() const;

    // One stack per sample, in order; several requests are in flight at once. Reads the sampled
    // processes' maps while they still exist (the caller resolves soon after sampling, so
    // short-lived processes keep their names); a process that is gone and was never seen gives
    // unknown frames with absolute addresses.
    QList<SymbolizedStack> resolve(const QList<UserSample> &samples);
    // Reads a process's maps and opens the files it maps now, as the first of its events in a
    // drain is decoded, once per resolve(): a process that exits before the drain's resolve()
    // still gets its stacks named (/proc/<pid> goes with it). resolve() sends the files.
    void capture(quint32 pid);

    // Frees what the child holds for a process that exited. resolve() does this by itself for
    // the processes it found gone at two sweeps in a row (every two seconds by default).
    void forgetProcess(quint32 pid);
    // The processes whose maps this side keeps (and whose modules the child holds).
    qsizetype processCount() const;
    // How often resolve() looks for exited processes; for tests.
    void setExitSweepInterval(int ms);
    // How long one reply may take before the child counts as hung (default 10 s).
    void setReplyTimeout(int ms);

    // The child's pid, for tests that check its credentials; 0 when not running.
    qint64 childPid() const;

    // Where the executable is looked for: $BPFLENS_SYMBOLIZER, then next to this executable,
    // then the install's libexec directory.
    static QString executablePath();

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace bpflens
