#include "probehooks.h"

#include "kernelfeatures.h"
#include "uprobefile.h"
#include "usdtprobe.h"

namespace bpflens {

QString noUprobesReason()
{
    return QStringLiteral("this kernel has no uprobes (neither the uprobe PMU nor tracefs's "
                          "uprobe_events: CONFIG_UPROBE_EVENTS is off)");
}

bool planRegsHook(const KernelFeatures &kernel, const ProbeHook &hook, const QVariantMap &options,
                  const QString &prefix, RegsHook *out, QString *error)
{
    *out = RegsHook();
    out->hook = hook;
    if (hook.target.isEmpty()) {
        *error = QStringLiteral("%1 names nothing after the prefix").arg(hook.text());
        return false;
    }
    if (hook.kind == ProbeHook::Kind::Kprobe || hook.kind == ProbeHook::Kind::Kretprobe) {
        if (!kernel.canKprobe(hook.target)) {
            const QString r = kernel.kprobeUnavailableReason();
            *error = r.isEmpty() ? QStringLiteral("%1 cannot be kprobed").arg(hook.target) : r;
            return false;
        }
        return true;
    }
    if (!kernel.hasUprobes()) {
        *error = noUprobesReason();
        return false;
    }
    out->offset = quint64(options.value(prefix + QStringLiteral("Offset")).toLongLong());
    if (hook.kind != ProbeHook::Kind::Usdt)
        return true;
#if !defined(__x86_64__)
    *error = QStringLiteral("USDT arguments are only read on x86-64 so far");
    return false;
#endif
    out->semaphore = quint64(options.value(prefix + QStringLiteral("Semaphore")).toLongLong());
    QString why;
    if (!parseUsdtArgs(options.value(prefix + QStringLiteral("Args")).toString(), &out->args,
                       &why)) {
        *error = hook.text() + QStringLiteral(": ") + why;
        return false;
    }
    for (qsizetype i = 0; i < out->args.size(); ++i) {
        const UsdtArg &a = out->args[i];
        if (a.kind != UsdtArg::Kind::Constant && UsdtProbe::registerOffset(a.reg) < 0) {
            *error = QStringLiteral("%1: arg %2: register %3 cannot be read here")
                         .arg(hook.text())
                         .arg(i)
                         .arg(a.reg);
            return false;
        }
    }
    return true;
}

bool resolveRegsKey(const RegsHook &h, const QString &text, TracepointKey *key, UsdtArg *arg,
                    QString *error)
{
    *key = TracepointKey();
    *arg = UsdtArg();
    if (text == QLatin1String("tid")) {
        key->kind = TracepointKey::Kind::Tid;
        return true;
    }
    if (text == QLatin1String("pid")) {
        key->kind = TracepointKey::Kind::Pid;
        return true;
    }
    bool ok = false;
    const int n = text.startsWith(QLatin1String("arg")) ? text.mid(3).toInt(&ok) : -1;
    if (h.hook.kind != ProbeHook::Kind::Usdt) {
        *error = QStringLiteral("key %1 at %2: only a USDT probe's arguments can be keys here; "
                                "use tid or pid")
                     .arg(text, h.hook.text());
        return false;
    }
    if (!ok || n < 0) {
        *error = QStringLiteral("key %1 at %2: expected tid, pid or argN").arg(text, h.hook.text());
        return false;
    }
    if (n >= h.args.size()) {
        *error = QStringLiteral("key %1 at %2: the USDT probe has %3 argument(s)")
                     .arg(text, h.hook.text())
                     .arg(h.args.size());
        return false;
    }
    key->kind = TracepointKey::Kind::Arg;
    key->arg = n;
    key->size = h.args[n].size;
    key->type = h.args[n].isSigned ? QStringLiteral("signed") : QStringLiteral("unsigned");
    *arg = h.args[n];
    return true;
}

bool checkRegsHookFile(const RegsHook &h, int fd, QString *error)
{
    QString why;
    if (!checkUprobeFile(fd, h.offset, &why)) {
        *error = h.hook.text() + QStringLiteral(": ") + why;
        return false;
    }
    if (h.semaphore && !checkUsdtSemaphore(fd, h.semaphore, &why)) {
        *error = h.hook.text() + QStringLiteral(": the USDT probe's semaphore: ") + why;
        return false;
    }
    return true;
}

AttachGroup::Program regsProgram(const QByteArray &name, const RegsHook &h,
                                 const QByteArray &fdPath, int pid)
{
    AttachGroup::Program p{name, h.hook.attachKind() + QLatin1Char('/') + h.hook.target, true};
    if (h.hook.inUserFile()) {
        p.binary = fdPath;
        p.offset = h.offset;
        p.pid = pid > 0 ? pid : -1;
        p.refCtrOffset = h.semaphore;
    }
    return p;
}

} // namespace bpflens
