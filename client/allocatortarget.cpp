#include "client/allocatortarget.h"

#include "client/binarytarget.h"

#include <QFileInfo>

namespace bpflens {

QStringList allocatorFunctionNames()
{
    return {QStringLiteral("malloc"),         QStringLiteral("calloc"),
            QStringLiteral("realloc"),        QStringLiteral("reallocarray"),
            QStringLiteral("posix_memalign"), QStringLiteral("aligned_alloc"),
            QStringLiteral("memalign"),       QStringLiteral("valloc"),
            QStringLiteral("pvalloc"),        QStringLiteral("mmap"),
            QStringLiteral("free"),           QStringLiteral("munmap")};
}

QString AllocatorTarget::functionsOption() const
{
    QStringList parts;
    for (const Function &f : functions)
        parts.append(f.name + QLatin1Char('=') + QString::number(f.offset));
    return parts.join(QLatin1Char(','));
}

bool resolveAllocator(qint64 pid, const QString &allocator, AllocatorTarget *out, QString *error)
{
    QString binary = allocator.trimmed();
    QString why;
    if (binary.isEmpty()) {
        // A replacement allocator the process has loaded serves its malloc (LD_PRELOAD or
        // linked in), whatever libc also defines; so does AddressSanitizer's.
        for (const char *name : {"jemalloc", "tcmalloc", "tcmalloc_minimal", "mimalloc", "asan"}) {
            const QString mapped = findMappedLibrary(QLatin1String(name), pid, &why);
            if (!why.isEmpty()) {
                *error = why;
                return false;
            }
            if (!mapped.isEmpty()) {
                binary = QLatin1String(name);
                break;
            }
        }
    }
    if (binary.isEmpty()) {
        // A program with a malloc of its own (statically linked, or an allocator built in)
        // answers its own calls; a dynamically linked one only imports it.
        const QString exe = QStringLiteral("/proc/%1/exe").arg(pid);
        BinaryTarget t;
        if (resolveBinaryTarget(exe + QStringLiteral(":malloc"), pid, &t, &why)) {
            binary = exe;
        } else if (!QFileInfo::exists(exe) && !QFileInfo(exe).isSymLink()) {
            *error = QStringLiteral("no process %1").arg(pid);
            return false;
        } else {
            binary = QStringLiteral("libc");
            why.clear();
            const QString libc = findMappedLibrary(binary, pid, &why);
            if (libc.isEmpty()) {
                *error = why.isEmpty()
                             ? QStringLiteral("process %1 maps no libc and its program defines no "
                                              "malloc (a statically linked program without "
                                              "symbols?): name its allocator (allocator=FILE)")
                                   .arg(pid)
                             : why;
                return false;
            }
        }
    }
    AllocatorTarget result;
    for (const QString &name : allocatorFunctionNames()) {
        BinaryTarget t;
        if (!resolveBinaryTarget(binary + QLatin1Char(':') + name, pid, &t, &why)) {
            if (name == QLatin1String("malloc") || name == QLatin1String("free")) {
                *error = QStringLiteral("process %1's allocator: %2").arg(pid).arg(why);
                return false;
            }
            continue; // an allocator without valloc or reallocarray: those calls are not made
        }
        if (!result.file.isValid()) {
            result.file = t.file;
            result.path = t.path;
        } else if (!sameFile(result.file, t.file)) {
            *error = QStringLiteral("%1 resolved to two files (%2, %3)")
                         .arg(binary, result.path, t.path);
            return false;
        }
        result.functions.append({name, t.offset});
    }
    *out = std::move(result);
    return true;
}

} // namespace bpflens
