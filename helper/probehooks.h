#pragma once

#include "core/probehook.h"
#include "core/usdtargs.h"
#include "helper/attachplan.h"
#include "helper/tracepoints.h"

#include <QVariantMap>

namespace bpflens {

class KernelFeatures;

// A hook of tppair (start, end) or tpcount that is not a tracepoint: a uprobe, uretprobe, USDT
// probe, kprobe or kretprobe, which the probes' pt_regs programs (tppair_start_regs, ...) serve.
// The user-space ones are resolved by the caller (client/probetargets.h), who hands over the
// opened file and writes what it found into the options under the hook's prefix:
// <prefix>Offset (the file offset), and for a USDT probe <prefix>Args (core/usdtargs.h) and
// <prefix>Semaphore, and for a USDT probe at several places <prefix>Sites (every site's offset
// and specs, core/usdtargs.h). The helper parses no ELF symbols or notes: it checks them
// (uprobefile.h).
struct RegsHook
{
    ProbeHook hook;
    quint64 offset = 0; // the first site's
    quint64 semaphore = 0;
    QList<UsdtArg> args; // the first site's
    // Where the hook attaches in its file: one uprobe per site (one site but for a USDT probe
    // at several places).
    QList<UsdtSite> sites;
    // The sites' distinct argument lists (usdtSpecTable), and which one each site has: its
    // uprobe's attach cookie.
    QList<QList<UsdtArg>> specs;
    QList<int> specOfSite;
};

// Why a uprobe or USDT hook cannot attach here (shared by the uprobe, usdt, tppair and tpcount
// probes).
QString noUprobesReason();

// Whether this kernel can attach hook, and what the caller resolved for it. False with *error
// saying why: no uprobes, no kprobes (or not on this function), arguments that cannot be read.
bool planRegsHook(const KernelFeatures &kernel, const ProbeHook &hook, const QVariantMap &options,
                  const QString &prefix, RegsHook *out, QString *error);

// A key (or tpcount's value) at such a hook: tid, pid, or argN of a USDT probe, whose spec in
// each of h.specs goes to *args (key->kind Arg; empty otherwise).
bool resolveRegsKey(const RegsHook &h, const QString &text, TracepointKey *key,
                    QList<UsdtArg> *args, QString *error);

// The helper's checks of the caller's file at a user-space hook: every site's offset in code,
// the semaphore in data (uprobefile.h).
bool checkRegsHookFile(const RegsHook &h, int fd, QString *error);

// Why a USDT probe whose sites hold their arguments in specLists different ways cannot be read
// on this kernel ("" when it can: one way, or attach cookies to pick one per site).
QString usdtSpecsUnreadableReason(const KernelFeatures &kernel, qsizetype specLists);

// The program name attached at h: by the file (fdPath, /proc/self/fd/N) and offset, limited to
// process pid (<= 0: every process), once per site with the site's spec index as cookie; or by
// the kernel function's name.
QList<AttachGroup::Program> regsPrograms(const QByteArray &name, const RegsHook &h,
                                         const QByteArray &fdPath, int pid);

// A USDT probe's path with its site count when it has several: "usdt/F:p:n (at 3 sites)".
QString usdtSitesPath(const QString &path, qsizetype sites);

} // namespace bpflens
