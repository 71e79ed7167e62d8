#pragma once

#include "core/probes/probedecl.h"

namespace bpflens::probedecl {

// Allocations by stack in one process: memleak.
inline ProbeInfo memleakProbe()
{
    ProbeInfo p;
    p.id = QStringLiteral("memleak");
    p.group = ProbeGroup::Memory;
    p.title = text(QT_TRANSLATE_NOOP("ProbeCatalog", "Allocations"));
    p.description = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog",
        "Every block a running process allocates (malloc, calloc, realloc, posix_memalign, "
        "mmap, ...) with its size and call stack, and when it is freed: outstanding memory and "
        "leaks by stack, like memleak; no restart and no preloaded library. With no process "
        "given, the kernel's allocations (kmalloc, slab caches, pages) on the whole machine"));
    p.lossHint = text(QT_TRANSLATE_NOOP(
        "ProbeCatalog", "record one allocation in N (sampleEvery=N), or without the user-stack "
                        "copy (stackBytes=0)"));
    p.options = {
        withDescription(
            pidOption(),
            text(QT_TRANSLATE_NOOP("ProbeCatalog", "The process whose allocations are recorded (0: "
                                                   "the kernel's own allocations, of every "
                                                   "process)"))),
        tidOption(),
        commOption(),
        stringOption(QStringLiteral("allocator"),
                     text(QT_TRANSLATE_NOOP("ProbeCatalog", "Allocator")),
                     text(QT_TRANSLATE_NOOP(
                         "ProbeCatalog",
                         "The library or program whose malloc and free are hooked (empty: the "
                         "one the process uses: jemalloc, tcmalloc, mimalloc or AddressSanitizer's "
                         "when it has one mapped, the program itself when it has its own malloc, "
                         "else libc)")),
                     1024),
        intOption(QStringLiteral("sampleEvery"),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog", "Sample every Nth allocation")),
                  text(QT_TRANSLATE_NOOP(
                      "ProbeCatalog",
                      "Record one allocation in N, chosen at random, each standing for N (1: "
                      "every allocation, exact; more for processes allocating millions a "
                      "second)")),
                  1, 1, 1000000),
        intOption(QStringLiteral("stackBytes"),
                  text(QT_TRANSLATE_NOOP("ProbeCatalog", "User stack copy (bytes)")),
                  text(QT_TRANSLATE_NOOP(
                      "ProbeCatalog",
                      "How much of each allocation's user stack is copied for unwinding code "
                      "built without frame pointers; deeper stacks are cut off (0: frame "
                      "pointers only)")),
                  16384, 0, 32768),
        intOption(
            QStringLiteral("maxBlocks"), text(QT_TRANSLATE_NOOP("ProbeCatalog", "Blocks tracked")),
            text(QT_TRANSLATE_NOOP(
                "ProbeCatalog", "How many recorded blocks the kernel tracks until they are freed; "
                                "allocations past it are counted, not recorded")),
            1 << 20, 1024, 1 << 24),
        // What the caller resolved (client/probetargets.h): the allocator's functions' offsets
        // in ProbeConfig::file, "malloc=4096,free=8192,...".
        internalOption(stringOption(QStringLiteral("functions"), QStringLiteral("Functions"),
                                    QString(), 1024)),
    };
    p.eventTypes = {EventType::Allocation};
    p.target = ProbeTarget::Allocator;
    p.counters = {
        lossCounter(QStringLiteral("blocksFull"),
                    QStringLiteral("%1 allocations not recorded: the kernel's table of blocks "
                                   "was full (maxBlocks)")),
        lossCounter(QStringLiteral("callsFull"),
                    QStringLiteral("%1 allocator calls not seen: too many threads were in "
                                   "the allocator at once")),
        lossCounter(QStringLiteral("freesUnseen"),
                    QStringLiteral("%1 recorded blocks whose free was not seen (their address "
                                   "was allocated again): their lifetime ends there")),
    };
    return p;
}

} // namespace bpflens::probedecl
