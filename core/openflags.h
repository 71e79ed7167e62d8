#pragma once

#include <QString>
#include <QtGlobal>

namespace bpflens {

// The flags of open(2) as people write them: "O_WRONLY|O_CREAT|O_TRUNC", and the names back as
// the open probe's filter. x86_64's values (asm-generic's), the only ones the probes record.
namespace OpenFlags {

// Bits of the access mode (flags & 3) as the open probe's filter carries them.
enum AccessMode : quint8
{
    ReadOnly = 1,
    WriteOnly = 2,
    ReadWrite = 4,
};

// "O_RDONLY|O_CLOEXEC"; bits without a name as "0x…" at the end.
QString text(qint32 flags);

// A filter's names ("O_WRONLY,O_CREAT" or "O_WRONLY|O_CREAT"; the O_ may be left out, case does
// not matter): the flag bits, any of which passes, and the access modes, any of which passes.
// False with why set for a name that is no flag.
bool parse(const QString &names, quint32 *bits, quint8 *accessModes, QString *why);

} // namespace OpenFlags

// "ENOENT" for 2; the number as text where it has no name.
QString errnoName(int error);

} // namespace bpflens
