#pragma once

#include "core/sharedfd.h"

#include <QList>
#include <QString>

namespace bpflens {

// The allocator a process uses, where the memleak probe hooks it: resolved by whoever asks,
// with that user's permissions, as a uprobe's function is (binarytarget.h).
struct AllocatorTarget
{
    struct Function
    {
        QString name; // "malloc"
        quint64 offset = 0;
    };
    QString path;              // the file hooked: "/usr/lib/x86_64-linux-gnu/libc.so.6"
    SharedFd file;             // path, opened O_RDONLY by the caller
    QList<Function> functions; // those of allocatorFunctionNames() the file has

    // "malloc=1234,calloc=5678,...", the probe's internal option "functions" (the helper
    // parses it: helper/memleakprobe.cpp)
    QString functionsOption() const;
};

// The functions memleak hooks, in its record's order (bpf/memleak.records.h), then free and
// munmap.
QStringList allocatorFunctionNames();

// Resolves the allocator of process pid: allocator when given (a path, a library name, a
// program), else the one the process uses: a jemalloc, tcmalloc, mimalloc or AddressSanitizer
// library it has mapped, its own program when that defines malloc (statically linked, or an
// allocator built in), else its libc. malloc and free must be there; the others are hooked where
// the file has them. False with *error saying why: no such process, maps not readable, no malloc.
bool resolveAllocator(qint64 pid, const QString &allocator, AllocatorTarget *out, QString *error);

} // namespace bpflens
