#include "client/probetargets.h"

#include "client/allocatortarget.h"
#include "client/binarytarget.h"
#include "client/usdtnotes.h"
#include "core/probecatalog.h"
#include "core/probehook.h"

namespace bpflens {

namespace {

// The options that name a hook (tppair's start and end, tpcount's tracepoint), with the
// prefix of the options the resolved hook is written to (helper/probehooks.h).
QList<ProbeHookOption> hookOptionsOf(const QString &id)
{
    const ProbeInfo *info = ProbeCatalog::find(id);
    return info ? info->hooks : QList<ProbeHookOption>();
}

ProbeTarget targetOf(const QString &id)
{
    const ProbeInfo *info = ProbeCatalog::find(id);
    return info ? info->target : ProbeTarget::None;
}

// tppair's and tpcount's uprobe and USDT hooks, resolved as the uprobe and usdt probes' targets
// are: the first hook's file is ProbeConfig::file, tppair's end in another binary file2.
bool resolveHooks(ProbeConfig &p, QString *error)
{
    const qint64 pid = p.options.value(QStringLiteral("pid")).toLongLong();
    for (const auto &[option, prefix] : hookOptionsOf(p.id)) {
        const ProbeHook hook = ProbeHook::parse(p.options.value(option).toString());
        if (!hook.inUserFile())
            continue;
        SharedFd file;
        quint64 offset = 0;
        QString display, why;
        if (hook.kind == ProbeHook::Kind::Usdt) {
            UsdtTarget t;
            if (!resolveUsdtTarget(hook.target, pid, &t, &why)) {
                *error = QStringLiteral("probe %1, %2 %3: %4")
                             .arg(p.id, option, hook.text().left(256), why);
                return false;
            }
            file = t.file;
            offset = t.offset;
            display = t.display();
            p.options.insert(prefix + QStringLiteral("Args"), formatUsdtArgs(t.args));
            p.options.insert(prefix + QStringLiteral("Semaphore"), qint64(t.semaphoreOffset));
            if (t.sites.size() > 1)
                p.options.insert(prefix + QStringLiteral("Sites"), formatUsdtSites(t.sites));
        } else {
            BinaryTarget t;
            if (!resolveBinaryTarget(hook.target, pid, &t, &why)) {
                *error = QStringLiteral("probe %1, %2 %3: %4")
                             .arg(p.id, option, hook.text().left(256), why);
                return false;
            }
            file = t.file;
            offset = t.offset;
            display = t.display();
        }
        const ProbeHook resolved{hook.kind, display};
        if (!p.file.isValid()) {
            p.file = file;
            p.fileOffset = offset;
        } else if (!sameFile(p.file, file)) {
            // tppair's end in another binary than its start: the helper takes it as the second
            // file, and checks the end's offsets in it.
            if (p.file2.isValid()) {
                *error = QStringLiteral("probe %1: %2 is in a third file; one probe's user-space "
                                        "hooks are in at most two binaries")
                             .arg(p.id, resolved.text());
                return false;
            }
            p.file2 = file;
        }
        p.options.insert(prefix + QStringLiteral("Offset"), qint64(offset));
        p.options.insert(option, resolved.text());
    }
    return true;
}

} // namespace

bool probeTakesUserFile(const QString &id, const QVariantMap &options)
{
    const ProbeTarget target = targetOf(id);
    if (target == ProbeTarget::BinaryFunction || target == ProbeTarget::Usdt)
        return true;
    // memleak without a process records the kernel's allocations: no file of the caller's.
    if (target == ProbeTarget::Allocator)
        return options.value(QStringLiteral("pid")).toLongLong() > 0;
    for (const ProbeHookOption &hook : hookOptionsOf(id)) {
        if (ProbeHook::parse(options.value(hook.option).toString()).inUserFile())
            return true;
    }
    return false;
}

bool resolveProbeTargets(QList<ProbeConfig> &probes, QString *error)
{
    for (ProbeConfig &p : probes) {
        if (!probeTakesUserFile(p.id, p.options))
            continue;
        if (!hookOptionsOf(p.id).isEmpty()) {
            if (!resolveHooks(p, error))
                return false;
            continue;
        }
        const ProbeInfo *info = ProbeCatalog::find(p.id);
        if (info && info->target == ProbeTarget::Allocator) {
            const qint64 pid = p.options.value(QStringLiteral("pid")).toLongLong();
            AllocatorTarget t;
            QString why;
            if (!resolveAllocator(pid, p.options.value(QStringLiteral("allocator")).toString(), &t,
                                  &why)) {
                *error = QStringLiteral("probe %1: %2").arg(p.id, why);
                return false;
            }
            p.file = t.file;
            p.fileOffset = t.functions.first().offset;
            p.options.insert(QStringLiteral("allocator"), t.path);
            p.options.insert(QStringLiteral("functions"), t.functionsOption());
            continue;
        }
        const ProbeOption *option = info ? info->option(QStringLiteral("target")) : nullptr;
        const QVariant given = p.options.value(QStringLiteral("target"));
        // Not given: the catalog's default, as the engine would fill it in.
        const QString spec = (given.isValid() ? given
                              : option        ? option->defaultValue
                                              : QVariant())
                                 .toString()
                                 .trimmed();
        if (info && info->target == ProbeTarget::Usdt) {
            if (spec.isEmpty()) {
                *error = QStringLiteral("probe %1: no USDT probe given "
                                        "(target=BINARY:PROVIDER:NAME)")
                             .arg(p.id);
                return false;
            }
            UsdtTarget t;
            QString why;
            if (!resolveUsdtTarget(spec, p.options.value(QStringLiteral("pid")).toLongLong(), &t,
                                   &why)) {
                *error = QStringLiteral("probe %1, target %2: %3").arg(p.id, spec.left(256), why);
                return false;
            }
            p.file = t.file;
            p.fileOffset = t.offset;
            p.options.insert(QStringLiteral("target"), t.display());
            // What the helper would otherwise have to read from the binary (docs/security.md).
            p.options.insert(QStringLiteral("args"), formatUsdtArgs(t.args));
            p.options.insert(QStringLiteral("semaphore"), qint64(t.semaphoreOffset));
            // A probe at several places: one uprobe at each, each with its own specs.
            if (t.sites.size() > 1)
                p.options.insert(QStringLiteral("sites"), formatUsdtSites(t.sites));
            continue;
        }
        if (spec.isEmpty()) {
            *error = QStringLiteral("probe %1: no function given (target=BINARY:FUNCTION, as "
                                    "libc:strlen)")
                         .arg(p.id);
            return false;
        }
        BinaryTarget t;
        QString why;
        if (!resolveBinaryTarget(spec, p.options.value(QStringLiteral("pid")).toLongLong(), &t,
                                 &why)) {
            *error = QStringLiteral("probe %1, target %2: %3").arg(p.id, spec.left(256), why);
            return false;
        }
        p.file = t.file;
        p.fileOffset = t.offset;
        p.options.insert(QStringLiteral("target"), t.display());
    }
    return true;
}

} // namespace bpflens
