#pragma once

#include "attachplan.h"
#include "probehook.h"
#include "tracepoints.h"
#include "usdtargs.h"

#include <QVariantMap>

namespace bpflens {

class KernelFeatures;

// A hook of tppair (start, end) or tpcount that is not a tracepoint: a uprobe, uretprobe, USDT
// probe, kprobe or kretprobe, which the probes' pt_regs programs (tppair_start_regs, ...) serve.
// The user-space ones are resolved by the caller (client/probetargets.h), who hands over the
// opened file and writes what it found into the options under the hook's prefix:
// <prefix>Offset (the file offset), and for a USDT probe <prefix>Args (core/usdtargs.h) and
// <prefix>Semaphore. The helper parses no ELF symbols or notes: it checks them (uprobefile.h).
struct RegsHook
{
    ProbeHook hook;
    quint64 offset = 0;
    quint64 semaphore = 0;
    QList<UsdtArg> args;
};

// Why a uprobe or USDT hook cannot attach here (shared by the uprobe, usdt, tppair and tpcount
// probes).
QString noUprobesReason();

// Whether this kernel can attach hook, and what the caller resolved for it. False with *error
// saying why: no uprobes, no kprobes (or not on this function), arguments that cannot be read.
bool planRegsHook(const KernelFeatures &kernel, const ProbeHook &hook, const QVariantMap &options,
                  const QString &prefix, RegsHook *out, QString *error);

// A key (or tpcount's value) at such a hook: tid, pid, or argN of a USDT probe, whose spec goes
// to *arg (key->kind Arg).
bool resolveRegsKey(const RegsHook &h, const QString &text, TracepointKey *key, UsdtArg *arg,
                    QString *error);

// The helper's checks of the caller's file at a user-space hook: the offset in code, the
// semaphore in data (uprobefile.h).
bool checkRegsHookFile(const RegsHook &h, int fd, QString *error);

// The program name attached at h: by the file (fdPath, /proc/self/fd/N) and offset, limited to
// process pid (<= 0: every process), or by the kernel function's name.
AttachGroup::Program regsProgram(const QByteArray &name, const RegsHook &h,
                                 const QByteArray &fdPath, int pid);

} // namespace bpflens
