// libFuzzer target for the usdt probe's untrusted input that is not a whole file: the bytes of a
// .note.stapsdt section as the client parses them (client/usdtnotes.cpp), and argument specs as
// both the client and the root helper parse them (core/usdtargs.cpp). The first byte picks the
// ELF class; the rest is the section. Never crashes, never reads out of bounds; every note found
// has a provider and a name; every spec list that parses formats to text that parses back to it.
#include "client/usdtnotes.h"
#include "core/usdtargs.h"

#include <cstdint>

using namespace bpflens;

namespace {

void checkSpecs(const QString &text)
{
    QList<UsdtArg> args;
    QString why;
    if (!parseUsdtArgs(text, &args, &why)) {
        if (why.isEmpty() || !args.isEmpty())
            __builtin_trap();
        return;
    }
    if (args.size() > MaxUsdtArgs)
        __builtin_trap();
    QList<UsdtArg> back;
    if (!parseUsdtArgs(formatUsdtArgs(args), &back, &why) || back != args)
        __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const bool is64 = data[0] & 1;
    QList<UsdtNote> notes;
    QString why;
    if (!parseStapsdtNotes(reinterpret_cast<const char *>(data + 1), size - 1, is64, &notes,
                           &why) &&
        why.isEmpty())
        __builtin_trap();
    for (const UsdtNote &n : std::as_const(notes)) {
        if (n.provider.isEmpty() || n.name.isEmpty())
            __builtin_trap();
        checkSpecs(n.args);
    }
    // The input as spec text itself.
    checkSpecs(QString::fromUtf8(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1)));
    return 0;
}
