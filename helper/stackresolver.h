#pragma once

#include "core/stacks.h"
#include "helper/symbolizerclient.h"

#include <QHash>
#include <QString>

#include <memory>

namespace bpflens {

class Kallsyms;

// What the stack-taking probes (profile, offcpu) of one recording share, owned by the Engine:
// the StackTable their events' stack ids point into (the engine hands its new definitions on
// with each batch), the kernel's symbols, and one symbolizer child for the user stacks.
class StackResolver
{
public:
    StackResolver();
    ~StackResolver();
    StackResolver(const StackResolver &) = delete;
    StackResolver &operator=(const StackResolver &) = delete;

    StackTable &table() { return m_table; }

    // The frame of a kernel code address. A return address (every frame but a sample's
    // interrupted instruction) is looked up one byte back: a call that is a function's last
    // instruction returns into the next function.
    quint32 kernelFrame(quint64 address, bool returnAddress);
    // Reads /proc/kallsyms now (once), at a probe's start rather than in the middle of a drain.
    void loadKernelSymbols();

    // Starts the symbolizer child unless it runs; false with why when it cannot (user frames
    // then keep their absolute addresses and no names).
    bool startSymbolizer(QString *why);
    bool hasSymbolizer() const;
    // One stack per sample (empty when there is no symbolizer).
    QList<SymbolizedStack> resolve(const QList<UserSample> &samples);
    // A process whose user stack is to be resolved at the end of this drain: its maps and files
    // are taken now, while it surely runs (SymbolizerClient::capture).
    void capture(quint32 pid)
    {
        if (m_symbolizer)
            m_symbolizer->capture(pid);
    }

    quint32 userFrame(const SymbolizedFrame &frame);
    // A user address no module was found for.
    quint32 unknownUserFrame(quint64 address);
    // A frame of the tracing machinery a BPF program took its stack in (the program itself,
    // bpf_trace_run4, __traceiter_sched_switch), not of the traced code.
    static bool isTracingFrame(const StackFrame &frame);

    // Where a wakeup ran, from the kernel stack taken at sched_waking (leaf first): in a task
    // (which is then the waker), in a hardware interrupt or a softirq (which ran on whichever
    // task it interrupted: not the waker), or not known (no stack).
    enum class WakeContext
    {
        Task,
        HardIrq,
        SoftIrq,
        Unknown
    };
    WakeContext wakeContext(const QList<quint64> &kernelIps);

    quint32 stack(quint8 flags, const QList<quint32> &frames)
    {
        return m_table.intern(flags, frames);
    }

private:
    StackTable m_table;
    std::unique_ptr<Kallsyms> m_kallsyms;
    QHash<quint64, quint32> m_kernelFrames; // by the address looked up
    std::unique_ptr<SymbolizerClient> m_symbolizer;
    QString m_symbolizerError;
};

} // namespace bpflens
