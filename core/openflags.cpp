#include "core/openflags.h"

#include <QStringList>

#include <cstring>

namespace bpflens {

namespace {

struct Flag
{
    const char *name;
    quint32 bits;      // what the text form requires set
    quint32 filterBit; // the bit the filter tests
};

// In the order strace writes them. O_SYNC and O_TMPFILE include another flag's bit (O_DSYNC,
// O_DIRECTORY), which is then not named again.
constexpr Flag flags[] = {
    {"O_CREAT", 0100, 0100},           {"O_EXCL", 0200, 0200},
    {"O_NOCTTY", 0400, 0400},          {"O_TRUNC", 01000, 01000},
    {"O_APPEND", 02000, 02000},        {"O_NONBLOCK", 04000, 04000},
    {"O_SYNC", 04010000, 04000000},    {"O_DSYNC", 010000, 010000},
    {"O_ASYNC", 020000, 020000},       {"O_DIRECT", 040000, 040000},
    {"O_LARGEFILE", 0100000, 0100000}, {"O_TMPFILE", 020200000, 020000000},
    {"O_DIRECTORY", 0200000, 0200000}, {"O_NOFOLLOW", 0400000, 0400000},
    {"O_NOATIME", 01000000, 01000000}, {"O_CLOEXEC", 02000000, 02000000},
    {"O_PATH", 010000000, 010000000},
};

constexpr const char *accessNames[] = {"O_RDONLY", "O_WRONLY", "O_RDWR"};

} // namespace

QString OpenFlags::text(qint32 value)
{
    const quint32 v = quint32(value);
    QStringList parts;
    const quint32 access = v & 3;
    parts << (access < 3 ? QLatin1String(accessNames[access]) : QStringLiteral("0x3"));
    quint32 rest = v & ~3u;
    for (const Flag &f : flags) {
        if ((rest & f.bits) == f.bits) {
            parts << QLatin1String(f.name);
            rest &= ~f.bits;
        }
    }
    if (rest)
        parts << QStringLiteral("0x%1").arg(rest, 0, 16);
    return parts.join(QLatin1Char('|'));
}

bool OpenFlags::parse(const QString &names, quint32 *bits, quint8 *accessModes, QString *why)
{
    *bits = 0;
    *accessModes = 0;
    const QStringList parts =
        QString(names).replace(QLatin1Char('|'), QLatin1Char(',')).split(QLatin1Char(','));
    for (const QString &part : parts) {
        QString name = part.trimmed().toUpper();
        if (name.isEmpty())
            continue;
        if (!name.startsWith(QLatin1String("O_")))
            name.prepend(QLatin1String("O_"));
        bool known = false;
        for (int i = 0; i < 3; ++i) {
            if (name == QLatin1String(accessNames[i])) {
                *accessModes |= quint8(1 << i);
                known = true;
            }
        }
        for (const Flag &f : flags) {
            if (name == QLatin1String(f.name)) {
                *bits |= f.filterBit;
                known = true;
            }
        }
        if (!known) {
            *why = QStringLiteral("\"%1\" is not an open flag (O_RDONLY, O_WRONLY, O_RDWR, "
                                  "O_CREAT, O_TRUNC, O_APPEND, O_CLOEXEC…; a list is written "
                                  "O_WRONLY,O_CREAT)")
                       .arg(part.trimmed().left(64));
            return false;
        }
    }
    return true;
}

QString errnoName(int error)
{
    // glibc's names are the kernel's: the recording machine's numbers read the same here.
    if (const char *name = strerrorname_np(error))
        return QLatin1String(name);
    return QString::number(error);
}

} // namespace bpflens
