#pragma once

#include <QByteArray>

#include <vector>

namespace bpflens {

// The kernel's text symbols from /proc/kallsyms, read once, for naming the frames of kernel
// stacks. Trusted data (the kernel's own), so it is parsed here in the helper.
class Kallsyms
{
public:
    struct Symbol
    {
        quint64 start = 0;
        QByteArray name;   // "" when the address is below every symbol
        QByteArray module; // "vmlinux" or the module's name ("ext4")
    };

    // Reads path (a file in /proc/kallsyms's format). Without root, or with kptr_restrict,
    // every address reads 0: then nothing is loaded and every lookup fails.
    explicit Kallsyms(const char *path = "/proc/kallsyms");

    bool isEmpty() const { return m_entries.empty(); }
    size_t size() const { return m_entries.size(); }
    // The function containing address, false when none does (below the first symbol).
    bool lookup(quint64 address, Symbol *out) const;

private:
    struct Entry
    {
        quint64 start;
        quint32 nameOffset;
        quint16 nameLength;
        quint16 module; // index into m_modules
    };
    std::vector<Entry> m_entries;
    QByteArray m_names;
    std::vector<QByteArray> m_modules;
};

} // namespace bpflens
