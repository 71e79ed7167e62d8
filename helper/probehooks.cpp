#include "helper/probehooks.h"

#include "core/counttext.h"
#include "helper/kernelfeatures.h"
#include "helper/uprobefile.h"
#include "helper/usdtprobe.h"

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
    if (hook.kind != ProbeHook::Kind::Usdt) {
        out->sites = {UsdtSite{out->offset, {}}};
        out->specs = {{}};
        out->specOfSite = {0};
        return true;
    }
#if !defined(__x86_64__)
    *error = QStringLiteral("USDT arguments are only read on x86-64 so far");
    return false;
#endif
    out->semaphore = quint64(options.value(prefix + QStringLiteral("Semaphore")).toLongLong());
    QString why;
    const QString sites = options.value(prefix + QStringLiteral("Sites")).toString();
    if (!sites.isEmpty()) {
        if (!parseUsdtSites(sites, &out->sites, &why)) {
            *error = hook.text() + QStringLiteral(": ") + why;
            return false;
        }
        out->offset = out->sites.front().offset;
        out->args = out->sites.front().args;
    } else {
        if (!parseUsdtArgs(options.value(prefix + QStringLiteral("Args")).toString(), &out->args,
                           &why)) {
            *error = hook.text() + QStringLiteral(": ") + why;
            return false;
        }
        out->sites = {UsdtSite{out->offset, out->args}};
    }
    out->specs = usdtSpecTable(out->sites, &out->specOfSite);
    const QString noCookies = usdtSpecsUnreadableReason(kernel, out->specs.size());
    if (!noCookies.isEmpty()) {
        *error = hook.text() + QStringLiteral(": ") + noCookies;
        return false;
    }
    for (const QList<UsdtArg> &args : std::as_const(out->specs)) {
        for (qsizetype i = 0; i < args.size(); ++i) {
            const UsdtArg &a = args[i];
            if (a.kind != UsdtArg::Kind::Constant && UsdtProbe::registerOffset(a.reg) < 0) {
                *error = QStringLiteral("%1: arg %2: register %3 cannot be read here")
                             .arg(hook.text())
                             .arg(i)
                             .arg(a.reg);
                return false;
            }
        }
    }
    return true;
}

bool resolveRegsKey(const RegsHook &h, const QString &text, TracepointKey *key,
                    QList<UsdtArg> *args, QString *error)
{
    *key = TracepointKey();
    args->clear();
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
        *error =
            QStringLiteral("key %1 at %2: the USDT probe has %3")
                .arg(text, h.hook.text(), countOf(qint64(h.args.size()), "argument", "arguments"));
        return false;
    }
    key->kind = TracepointKey::Kind::Arg;
    key->arg = n;
    key->size = h.args[n].size;
    key->type = h.args[n].isSigned ? QStringLiteral("signed") : QStringLiteral("unsigned");
    for (const QList<UsdtArg> &spec : h.specs)
        args->append(spec.value(n));
    return true;
}

bool checkRegsHookFile(const RegsHook &h, int fd, QString *error)
{
    QString why;
    for (qsizetype i = 0; i < h.sites.size(); ++i) {
        if (!checkUprobeFile(fd, h.sites[i].offset, &why)) {
            *error = h.sites.size() > 1 ? QStringLiteral("%1: site %2 of %3: %4")
                                              .arg(h.hook.text())
                                              .arg(i + 1)
                                              .arg(h.sites.size())
                                              .arg(why)
                                        : h.hook.text() + QStringLiteral(": ") + why;
            return false;
        }
    }
    if (h.semaphore && !checkUsdtSemaphore(fd, h.semaphore, &why)) {
        *error = h.hook.text() + QStringLiteral(": the USDT probe's semaphore: ") + why;
        return false;
    }
    return true;
}

QList<AttachGroup::Program> regsPrograms(const QByteArray &name, const RegsHook &h,
                                         const QByteArray &fdPath, int pid)
{
    const QString path = h.hook.attachKind() + QLatin1Char('/') + h.hook.target;
    if (!h.hook.inUserFile())
        return {AttachGroup::Program{name, path, true}};
    QList<AttachGroup::Program> programs;
    for (qsizetype i = 0; i < h.sites.size(); ++i) {
        AttachGroup::Program p{name, usdtSitesPath(path, h.sites.size()), true};
        p.binary = fdPath;
        p.offset = h.sites[i].offset;
        p.pid = pid > 0 ? pid : -1;
        p.refCtrOffset = h.semaphore;
        p.cookie = quint64(h.specOfSite.value(i));
        programs.append(p);
    }
    return programs;
}

QString usdtSpecsUnreadableReason(const KernelFeatures &kernel, qsizetype specLists)
{
    qint64 helperId = 0;
    if (specLists <= 1 || kernel.enumValue(QStringLiteral("BPF_FUNC_get_attach_cookie"), &helperId))
        return {};
    // Without cookies (before 5.15) the program cannot tell its sites apart; reading one site's
    // arguments with another's specs would give wrong values, not an error.
    return QStringLiteral("its sites keep the arguments in %1 different places, and this kernel "
                          "(%2) cannot tell a program which site fired (BPF attach cookies, "
                          "Linux 5.15)")
        .arg(specLists)
        .arg(kernel.release());
}

QString usdtSitesPath(const QString &path, qsizetype sites)
{
    return sites > 1 ? path + QStringLiteral(" (at %1 sites)").arg(sites) : path;
}

} // namespace bpflens
