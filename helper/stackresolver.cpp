#include "helper/stackresolver.h"

#include "helper/kallsyms.h"

namespace bpflens {

StackResolver::StackResolver() = default;
StackResolver::~StackResolver() = default;

quint32 StackResolver::kernelFrame(quint64 address, bool returnAddress)
{
    const quint64 lookup = returnAddress && address ? address - 1 : address;
    const auto cached = m_kernelFrames.constFind(lookup);
    if (cached != m_kernelFrames.constEnd())
        return *cached;
    loadKernelSymbols();
    StackFrame frame;
    frame.kind = FrameKind::Kernel;
    Kallsyms::Symbol sym;
    if (m_kallsyms->lookup(lookup, &sym)) {
        frame.address = sym.start;
        frame.module = sym.module;
        frame.symbol = sym.name;
    } else {
        frame.address = address;
    }
    const quint32 id = m_table.intern(frame);
    m_kernelFrames.insert(lookup, id);
    return id;
}

void StackResolver::loadKernelSymbols()
{
    if (!m_kallsyms)
        m_kallsyms = std::make_unique<Kallsyms>();
}

bool StackResolver::startSymbolizer(QString *why)
{
    if (m_symbolizer && m_symbolizer->isRunning())
        return true;
    if (!m_symbolizerError.isEmpty()) {
        *why = m_symbolizerError;
        return false;
    }
    m_symbolizer = std::make_unique<SymbolizerClient>();
    if (!m_symbolizer->start(&m_symbolizerError)) {
        if (m_symbolizerError.isEmpty())
            m_symbolizerError = QStringLiteral("the symbolizer did not start");
        m_symbolizer.reset();
        *why = m_symbolizerError;
        return false;
    }
    return true;
}

bool StackResolver::hasSymbolizer() const
{
    return m_symbolizer != nullptr;
}

QList<SymbolizedStack> StackResolver::resolve(const QList<UserSample> &samples)
{
    if (!m_symbolizer || samples.isEmpty())
        return {};
    return m_symbolizer->resolve(samples);
}

quint32 StackResolver::userFrame(const SymbolizedFrame &f)
{
    StackFrame frame;
    frame.kind = FrameKind::User;
    frame.address = f.symbol.isEmpty() ? f.address : f.symbolStart;
    frame.module = f.module;
    frame.buildId = f.buildId;
    frame.symbol = f.symbol;
    frame.file = f.file;
    frame.line = f.line;
    frame.inlined = f.inlined;
    return m_table.intern(frame);
}

bool StackResolver::isTracingFrame(const StackFrame &frame)
{
    return frame.kind == FrameKind::Kernel &&
           (frame.symbol.startsWith("bpf_prog_") || frame.symbol.startsWith("bpf_trace_run") ||
            frame.symbol.startsWith("__bpf_trace_") || frame.symbol.startsWith("__traceiter_"));
}

quint32 StackResolver::unknownUserFrame(quint64 address)
{
    StackFrame frame;
    frame.kind = FrameKind::User;
    frame.address = address;
    return m_table.intern(frame);
}

// Where a wakeup ran, from the waker's kernel stack (leaf first): the first frame that enters a
// context decides. A hardware interrupt's handler runs on whichever task it interrupted, so its
// stack reaches the interrupt's entry (sysvec_*, common_interrupt) before any system call's;
// softirqs run from handle_softirqs (on an interrupt's exit, at local_bh_enable, in ksoftirqd).
// A stack that names none (cut short) is the task's; without one (lost) it is not known.
StackResolver::WakeContext StackResolver::wakeContext(const QList<quint64> &kernelIps)
{
    if (kernelIps.isEmpty())
        return WakeContext::Unknown;
    auto startsWith = [](const QByteArray &s, std::initializer_list<const char *> prefixes) {
        for (const char *p : prefixes) {
            if (s.startsWith(p))
                return true;
        }
        return false;
    };
    for (quint64 ip : kernelIps) {
        const QByteArray &name = m_table.frame(kernelFrame(ip, true)).symbol;
        if (startsWith(name, {"handle_softirqs", "__do_softirq", "do_softirq", "run_ksoftirqd"}))
            return WakeContext::SoftIrq;
        if (startsWith(name, {"asm_sysvec_", "sysvec_", "__sysvec_", "asm_common_interrupt",
                              "common_interrupt", "handle_irq_event", "hrtimer_interrupt",
                              "asm_exc_nmi", "exc_nmi"}))
            return WakeContext::HardIrq;
        if (startsWith(name, {"do_syscall_64", "entry_SYSCALL", "exc_page_fault",
                              "asm_exc_page_fault", "ret_from_fork", "kthread"}))
            return WakeContext::Task;
    }
    return WakeContext::Task;
}

} // namespace bpflens
