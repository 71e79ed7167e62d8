#include "helper/attachplan.h"

#include "helper/kernelfeatures.h"

#include <bpf/libbpf.h>

#include <QStringList>

#include <cerrno>

namespace bpflens {

namespace {

QString libbpfError(int err)
{
    char buf[256];
    libbpf_strerror(err, buf, sizeof(buf));
    return QString::fromLocal8Bit(buf);
}

// "tp/sched/sched_switch" -> "tp", "sched/sched_switch"
QString kindOf(const AttachGroup::Program &p)
{
    return p.path.section(QLatin1Char('/'), 0, 0);
}

QByteArray targetOf(const AttachGroup::Program &p)
{
    return p.path.section(QLatin1Char('/'), 1).toLatin1();
}

bool retargetedAtLoad(const QString &kind)
{
    return kind == QLatin1String("tp_btf") || kind == QLatin1String("fentry") ||
           kind == QLatin1String("fexit");
}

bpf_link *attachProgram(bpf_program *prog, const AttachGroup::Program &p)
{
    const QString kind = kindOf(p);
    if (!p.byPath || retargetedAtLoad(kind))
        return bpf_program__attach(prog);
    const QByteArray target = targetOf(p);
    if (kind == QLatin1String("tp")) {
        const int slash = target.indexOf('/');
        return bpf_program__attach_tracepoint(prog, target.left(slash).constData(),
                                              target.mid(slash + 1).constData());
    }
    if (kind == QLatin1String("raw_tp"))
        return bpf_program__attach_raw_tracepoint(prog, target.constData());
    if (kind == QLatin1String("kprobe") || kind == QLatin1String("kretprobe"))
        return bpf_program__attach_kprobe(prog, kind == QLatin1String("kretprobe"),
                                          target.constData());
    // usdt: a uprobe at a USDT probe's place (its semaphore in refCtrOffset).
    if (kind == QLatin1String("uprobe") || kind == QLatin1String("uretprobe") ||
        kind == QLatin1String("usdt")) {
        // What LIBBPF_OPTS does, without its GNU statement expression (-Wpedantic in C++).
        bpf_uprobe_opts opts{};
        opts.sz = sizeof(opts);
        opts.ref_ctr_offset = size_t(p.refCtrOffset);
        opts.bpf_cookie = p.cookie;
        opts.retprobe = kind == QLatin1String("uretprobe");
        return bpf_program__attach_uprobe_opts(prog, p.pid, p.binary.constData(), size_t(p.offset),
                                               &opts);
    }
    errno = EINVAL;
    return nullptr;
}

} // namespace

void AttachPlan::addReason(const QString &why)
{
    reason = reason.isEmpty() ? why : reason + QStringLiteral("; ") + why;
}

QString AttachPlan::path() const
{
    QStringList parts;
    for (const AttachGroup &g : groups) {
        for (const AttachGroup::Program &p : g.programs) {
            // A USDT probe's sites: one program each, one path for all.
            if (!parts.contains(p.path))
                parts.append(p.path);
        }
    }
    return parts.join(QStringLiteral(", "));
}

bool AttachPlan::applyAutoload(bpf_object *obj, QString *error) const
{
    bpf_program *prog = nullptr;
    bpf_object__for_each_program(prog, obj)
    {
        bpf_program__set_autoload(prog, false);
    }
    for (const AttachGroup &g : groups) {
        for (const AttachGroup::Program &p : g.programs) {
            prog = bpf_object__find_program_by_name(obj, p.name.constData());
            if (!prog) {
                *error = QStringLiteral("no BPF program %1").arg(QString::fromLatin1(p.name));
                return false;
            }
            bpf_program__set_autoload(prog, true);
            if (p.byPath && retargetedAtLoad(kindOf(p))) {
                if (int err = bpf_program__set_attach_target(prog, 0, targetOf(p).constData())) {
                    *error = QStringLiteral("cannot target %1: %2").arg(p.path, libbpfError(err));
                    return false;
                }
            }
        }
    }
    return true;
}

bool AttachPlan::attach(bpf_object *obj, QList<bpf_link *> *links, QString *attachedPath,
                        QString *degraded, QString *error) const
{
    QStringList paths;
    for (const AttachGroup &g : groups) {
        // In the plan's order whichever order they attach in; nullptr where none (yet).
        QList<bpf_link *> groupLinks(g.programs.size(), nullptr);
        QString failure;
        for (qsizetype n = 0; n < g.programs.size(); ++n) {
            const qsizetype i = g.endFirst ? g.programs.size() - 1 - n : n;
            const AttachGroup::Program &p = g.programs[i];
            bpf_program *prog = bpf_object__find_program_by_name(obj, p.name.constData());
            bpf_link *link = prog ? attachProgram(prog, p) : nullptr;
            if (!link) {
                failure =
                    QStringLiteral("%1: %2").arg(p.path, libbpfError(prog ? -errno : -ENOENT));
                break;
            }
            groupLinks[i] = link;
        }
        if (!failure.isEmpty()) {
            for (bpf_link *l : std::as_const(groupLinks))
                bpf_link__destroy(l);
            if (g.required) {
                *error = QStringLiteral("cannot attach %1").arg(failure);
                return false;
            }
            const QString why = QStringLiteral("%1 not reported (%2)").arg(g.what, failure);
            *degraded = degraded->isEmpty() ? why : *degraded + QStringLiteral("; ") + why;
            continue;
        }
        links->append(groupLinks);
        for (const AttachGroup::Program &p : g.programs) {
            if (!paths.contains(p.path))
                paths.append(p.path);
        }
    }
    if (paths.isEmpty()) {
        *error = QStringLiteral("%1: %2").arg(noneAttached, *degraded);
        return false;
    }
    *attachedPath = paths.join(QStringLiteral(", "));
    return true;
}

FunctionHooks FunctionHooks::fromOptions(const QVariantMap &options)
{
    const QString mode = options.value(QStringLiteral("attach")).toString();
    FunctionHooks h;
    h.fentry = mode != QLatin1String("kprobe");
    h.kprobe = mode != QLatin1String("fentry");
    return h;
}

QList<AttachGroup::Program> FunctionHooks::hook(const KernelFeatures &kernel,
                                                const QByteArray &prefix, const QString &fn,
                                                QString *why) const
{
    const QByteArray name = fn.toLatin1();
    if (fentry && kernel.canFentry(fn))
        return {{prefix + "fe_" + name, QStringLiteral("fentry/") + fn},
                {prefix + "fx_" + name, QStringLiteral("fexit/") + fn}};
    if (kprobe && kernel.canKprobe(fn))
        return {{prefix + "kp_" + name, QStringLiteral("kprobe/") + fn},
                {prefix + "kr_" + name, QStringLiteral("kretprobe/") + fn}};
    QStringList reasons;
    if (!fentry) {
        reasons << QStringLiteral("fentry is off (attach=kprobe)");
    } else {
        const QString r = kernel.fentryUnavailableReason();
        reasons << (r.isEmpty() ? QStringLiteral("no fentry on %1").arg(fn) : r);
    }
    if (!kprobe) {
        reasons << QStringLiteral("kprobes are off (attach=fentry)");
    } else {
        const QString r = kernel.kprobeUnavailableReason();
        reasons << (r.isEmpty() ? QStringLiteral("%1 cannot be kprobed").arg(fn) : r);
    }
    *why = reasons.join(QStringLiteral("; "));
    return {};
}

} // namespace bpflens
