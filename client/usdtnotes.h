#pragma once

#include "core/sharedfd.h"
#include "core/usdtargs.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace bpflens {

// One USDT probe site as sys/sdt.h records it in the .note.stapsdt section of a binary (note
// type 3, owner "stapsdt"): the probe's address, the link-time address of .stapsdt.base (to
// correct for prelinking), its semaphore's address (0: none) and its provider, name and
// argument specs.
struct UsdtNote
{
    quint64 pc = 0;
    quint64 base = 0;
    quint64 semaphore = 0;
    QString provider;
    QString name;
    QString args; // as written: "-4@%eax 8@-8(%rbp)"
};

// The notes in the bytes of a .note.stapsdt section of an ELF file of class is64 (in this
// machine's byte order), checked as untrusted input: every size against what is left, at most
// maxNotes notes. Notes of other owners or types are skipped; a cut or inconsistent note ends
// the list with *why saying so (the notes before it are kept). False only for a malformed
// section, when *why says what is wrong.
constexpr int MaxUsdtNotes = 65536;
bool parseStapsdtNotes(const char *data, size_t size, bool is64, QList<UsdtNote> *notes,
                       QString *why);

// A USDT probe resolved by the caller, as BinaryTarget is for a uprobe (binarytarget.h): the
// file opened with the caller's permissions, the file offsets of the probe's sites and its
// semaphore, and the argument specs parsed.
struct UsdtTarget
{
    QString path;                // canonical, as BinaryTarget::path
    QString provider;            // "bpflens"
    QString name;                // "tick"
    quint64 address = 0;         // the first site's virtual address in the file
    quint64 offset = 0;          // its file offset, where the uprobe goes
    quint64 semaphoreOffset = 0; // the file offset of its semaphore (one for all sites), 0: none
    QList<UsdtArg> args;         // the first site's
    // Every place the probe is at, in the notes' order (sites[0] is the one above); at most
    // MaxUsdtSites.
    QList<UsdtSite> sites;
    SharedFd file;

    // "/usr/bin/prog:bpflens:tick"
    QString display() const;
};

// Resolves spec, "BINARY:PROVIDER:NAME" or "BINARY:NAME" (BINARY as for resolveBinaryTarget).
// False with *error saying exactly why: the binary's errors as for uprobes, no .note.stapsdt
// section, no such probe (listing the probes the binary has), a probe at more than MaxUsdtSites
// sites or whose sites disagree on the semaphore or the number of arguments, an argument spec
// that is not supported.
bool resolveUsdtTarget(const QString &spec, qint64 pid, UsdtTarget *out, QString *error);

} // namespace bpflens
