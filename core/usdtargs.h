#pragma once

#include <QList>
#include <QString>

namespace bpflens {

// One argument of a USDT probe, as its .note.stapsdt spec says where to find it when the probe
// fires (x86-64 operands, AT&T syntax as GCC writes them):
//   "-4@%eax"     the register, 4 bytes, signed
//   "8@-16(%rbp)" 8 bytes in memory at the register plus an offset
//   "2@$5"        a constant
// Parsed on both sides of the trust boundary: the client reads it from the binary, the helper
// gets it back as text in the probe's options and parses it again, refusing what it cannot
// fetch (so a caller cannot make the BPF program read anything but the probed process's own
// registers and memory, as a uprobe may anyway).
struct UsdtArg
{
    enum class Kind : quint8
    {
        Constant,
        Register,
        Memory, // *(register + offset)
    };
    Kind kind = Kind::Constant;
    QString reg;      // the 64-bit register's name without '%': "rax", "rbp", "r12", "rip"
    qint64 value = 0; // the constant, or the memory operand's offset
    quint8 size = 8;  // 1, 2, 4 or 8 bytes
    bool isSigned = false;

    bool operator==(const UsdtArg &) const = default;
};

// USDT probes have at most 12 arguments (sys/sdt.h's STAP_PROBE12).
constexpr int MaxUsdtArgs = 12;

// The space-separated specs of one probe; false with *why naming the argument (from 0) and what
// is not supported ("arg 1: 8@(%rax,%rdx,8): index registers are not supported").
bool parseUsdtArgs(const QString &text, QList<UsdtArg> *args, QString *why);
// The canonical text of args, which parseUsdtArgs reads back to the same list: registers by
// their 64-bit names ("-4@%rax" for "-4@%eax": the low four bytes of the same register).
QString formatUsdtArgs(const QList<UsdtArg> &args);

// One place a USDT probe fires from: a probe inlined, or written in several functions, has one
// note per place, each with its own argument specs (a constant at one, a register at another).
struct UsdtSite
{
    quint64 offset = 0; // the file offset the uprobe goes to
    QList<UsdtArg> args;

    bool operator==(const UsdtSite &) const = default;
};

// The most places one probe attaches at: each is a uprobe of its own (libc's busiest probes have
// a few dozen; a bound keeps one caller from making the helper create thousands).
constexpr int MaxUsdtSites = 64;

// The sites as the probes' options carry them, "OFFSET=SPECS;OFFSET=SPECS" (OFFSET decimal,
// SPECS as formatUsdtArgs writes them). Parsed again by the helper: false with *why for more
// than MaxUsdtSites sites, a bad offset or spec (naming the site, from 0), or sites with
// different argument counts (a key argN must mean something at every site).
bool parseUsdtSites(const QString &text, QList<UsdtSite> *sites, QString *why);
QString formatUsdtSites(const QList<UsdtSite> &sites);

// The distinct argument lists of sites, in first-seen order, and for each site the index of its
// list (what the BPF program gets as the attach cookie): most probes need one.
QList<QList<UsdtArg>> usdtSpecTable(const QList<UsdtSite> &sites, QList<int> *specOfSite);

} // namespace bpflens
