#include "probetargets.h"

#include "binarytarget.h"
#include "probecatalog.h"
#include "usdtnotes.h"

namespace bpflens {

bool probeTakesUserFile(const QString &id)
{
    return id == QLatin1String("uprobe") || id == QLatin1String("usdt");
}

bool resolveProbeTargets(QList<ProbeConfig> &probes, QString *error)
{
    for (ProbeConfig &p : probes) {
        if (!probeTakesUserFile(p.id))
            continue;
        const ProbeInfo *info = ProbeCatalog::find(p.id);
        const ProbeOption *option = info ? info->option(QStringLiteral("target")) : nullptr;
        const QVariant given = p.options.value(QStringLiteral("target"));
        // Not given: the catalog's default, as the engine would fill it in.
        const QString spec = (given.isValid() ? given
                              : option        ? option->defaultValue
                                              : QVariant())
                                 .toString()
                                 .trimmed();
        if (p.id == QLatin1String("usdt")) {
            if (spec.isEmpty()) {
                *error = QStringLiteral("probe usdt: no USDT probe given "
                                        "(target=BINARY:PROVIDER:NAME)");
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
