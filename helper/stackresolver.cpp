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

} // namespace bpflens
