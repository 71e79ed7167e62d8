#include "client/usdtnotes.h"

#include <cstring>

namespace bpflens {

namespace {

constexpr quint32 ntStapsdt = 3;

quint32 u32At(const char *p)
{
    quint32 v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

quint64 addressAt(const char *p, bool is64)
{
    if (is64) {
        quint64 v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    return u32At(p);
}

size_t align4(size_t n)
{
    return (n + 3) & ~size_t(3);
}

// The NUL-terminated string at [from, end), or false when it does not end before end.
bool takeString(const char *&from, const char *end, QString *out)
{
    const void *nul = std::memchr(from, '\0', size_t(end - from));
    if (!nul)
        return false;
    const char *stop = static_cast<const char *>(nul);
    *out = QString::fromUtf8(from, stop - from);
    from = stop + 1;
    return true;
}

} // namespace

QString UsdtTarget::display() const
{
    return path + QLatin1Char(':') + provider + QLatin1Char(':') + name;
}

bool parseStapsdtNotes(const char *data, size_t size, bool is64, QList<UsdtNote> *notes,
                       QString *why)
{
    notes->clear();
    const size_t addr = is64 ? 8 : 4;
    size_t at = 0;
    while (at < size) {
        if (notes->size() >= MaxUsdtNotes) {
            *why = QStringLiteral("more than %1 USDT notes").arg(MaxUsdtNotes);
            return true;
        }
        if (size - at < 12) {
            *why = QStringLiteral("a note header is cut at byte %1").arg(at);
            return false;
        }
        const quint32 namesz = u32At(data + at);
        const quint32 descsz = u32At(data + at + 4);
        const quint32 type = u32At(data + at + 8);
        at += 12;
        // Sizes compared with what is left, never added to a position first.
        if (align4(namesz) > size - at) {
            *why = QStringLiteral("a note's name is cut at byte %1").arg(at);
            return false;
        }
        const char *name = data + at;
        at += align4(namesz);
        if (align4(descsz) > size - at && descsz > size - at) {
            *why = QStringLiteral("a note's description is cut at byte %1").arg(at);
            return false;
        }
        const char *desc = data + at;
        at += qMin(align4(descsz), size - at);
        if (type != ntStapsdt || namesz != 8 || std::memcmp(name, "stapsdt", 8) != 0)
            continue;
        if (descsz < 3 * addr + 3) {
            *why = QStringLiteral("a stapsdt note of %1 bytes is too short").arg(descsz);
            return false;
        }
        UsdtNote n;
        n.pc = addressAt(desc, is64);
        n.base = addressAt(desc + addr, is64);
        n.semaphore = addressAt(desc + 2 * addr, is64);
        const char *p = desc + 3 * addr;
        const char *end = desc + descsz;
        if (!takeString(p, end, &n.provider) || !takeString(p, end, &n.name) ||
            !takeString(p, end, &n.args)) {
            *why = QStringLiteral("a stapsdt note's strings are not terminated");
            return false;
        }
        if (n.provider.isEmpty() || n.name.isEmpty()) {
            *why = QStringLiteral("a stapsdt note without a provider or a name");
            return false;
        }
        notes->append(n);
    }
    return true;
}

} // namespace bpflens
