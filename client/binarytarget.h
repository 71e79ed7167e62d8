#pragma once

#include "core/sharedfd.h"

#include <QString>

namespace bpflens {

// A function in a user-space binary where the uprobe probe attaches, resolved by whoever asks
// for it, with that user's own permissions: the GUI and bpflens-cli (unprivileged) resolve it
// and hand the helper the opened file and the offset, so the helper (root) never opens a path
// for a caller nor parses an ELF file a caller chose (docs/security.md).
struct BinaryTarget
{
    QString path;           // the file opened, canonical: "/usr/lib/x86_64-linux-gnu/libc.so.6"
    QString symbol;         // as asked: "strlen"; empty for an address
    QString implementation; // the symbol probed: "__strlen_avx2" for glibc's IFUNC strlen
    quint64 address = 0;    // the function's virtual address in the file (st_value, or as asked)
    quint64 offset = 0;     // the file offset uprobes attach at
    SharedFd file;          // path, opened O_RDONLY by the caller

    // "/usr/lib/x86_64-linux-gnu/libc.so.6:strlen", ":0x1139" for an address
    QString display() const;
};

// Resolves spec, "BINARY:FUNCTION" or "BINARY:0xADDRESS" (a virtual address as nm shows it):
// - BINARY: an absolute path; or a library name as the dynamic linker finds it ("c", "libc",
//   "libc.so.6", "pthread"), from ld.so.cache as `ldconfig -p` lists it, for this machine's
//   architecture; or a program name found in PATH ("bash"). With pid > 0, a name is first looked
//   for among the files process pid has mapped (/proc/PID/maps, opened through
//   /proc/PID/root), so the library the process really uses is probed.
// - FUNCTION: a symbol of type FUNC or IFUNC in .symtab or .dynsym. An IFUNC (glibc's strlen)
//   is resolved to the implementation this machine's dynamic linker picks, when the library is
//   already loaded in this process (dlopen RTLD_NOLOAD, so no code of the library runs);
//   otherwise refused with a reason naming the alternative.
// The address becomes a file offset through the executable PT_LOAD segment containing it.
// False with *error saying exactly why: file not found or unreadable (with the OS error), not
// an ELF file, no such symbol (naming the file), an address outside the file's code, a library
// name that resolves to nothing.
bool resolveBinaryTarget(const QString &spec, qint64 pid, BinaryTarget *out, QString *error);

// The file the library name resolves to, as described above; empty with *error when none.
QString findLibrary(const QString &name, qint64 pid, QString *error);

// Whether two descriptors are the same file (device and inode): two names resolved to one
// binary.
bool sameFile(const SharedFd &a, const SharedFd &b);

// The file process pid has mapped that matches library name as above, never one of this
// machine's libraries: empty when it maps none, and with *error set when its maps cannot be
// read.
QString findMappedLibrary(const QString &name, qint64 pid, QString *error);

} // namespace bpflens
