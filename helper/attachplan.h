#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QVariantMap>

struct bpf_link;
struct bpf_object;

namespace bpflens {

class KernelFeatures;

// Which programs of a skeleton a probe attaches on this kernel, decided before load. A group is
// attached all or nothing (an entry hook without its exit hook would only fill a map); a
// required group that fails fails the probe, an optional one is skipped and said so.
struct AttachGroup
{
    struct Program
    {
        QByteArray name; // the BPF program's name in the object
        QString path;    // "tp_btf/sys_enter"
        // The program's section names no target (SEC("raw_tp"), SEC("kprobe")) or another one
        // than this kernel has: it goes to the path's target instead (tp_btf, fentry and fexit
        // are retargeted before load; tp, raw_tp, kprobe and kretprobe attach by name).
        bool byPath = false;
        // uprobe, uretprobe and usdt (byPath): the file as the kernel opens it (/proc/self/fd/N),
        // the offset in it, and the process it is limited to (-1: every process that maps it).
        QByteArray binary = {};
        quint64 offset = 0;
        int pid = -1;
        // uprobe: a USDT semaphore's file offset, which the kernel increments while attached
        // (0: none).
        quint64 refCtrOffset = 0;
        // uprobe: what bpf_get_attach_cookie returns in the program (a USDT site's specs);
        // nonzero needs Linux 5.15, where the kernel without it refuses the attach.
        quint64 cookie = 0;
    };
    QList<Program> programs;
    bool required = true;
    QString what; // "failed execs", for messages
    // Attach the programs last to first, the end of a pair before its start, which alone would
    // only fill a map. They still detach first to last: starts go first.
    bool endFirst = false;
};

struct AttachPlan
{
    QList<AttachGroup> groups;
    bool available = true;
    QString reason; // why not, or what is degraded
    // The error when every group is optional and none attached.
    QString noneAttached = QStringLiteral("no hook attached");

    void addReason(const QString &why);
    QString path() const; // every program's path, joined with ", "

    // Before load: only the planned programs are loaded (the others may not even verify here).
    bool applyAutoload(bpf_object *obj, QString *error) const;
    // After load: attaches group by group. links receives every link in the plan's order
    // (destroy them on stop), attachedPath what really attached, degraded why optional groups
    // were skipped. Fails when a required group fails, or when nothing attached.
    bool attach(bpf_object *obj, QList<bpf_link *> *links, QString *attachedPath, QString *degraded,
                QString *error) const;
};

// How a kernel function's entry and exit are hooked, from the probe option "attach"
// (auto|fentry|kprobe; auto: fentry where the kernel has it, else kprobes).
struct FunctionHooks
{
    bool fentry = true;
    bool kprobe = true;

    static FunctionHooks fromOptions(const QVariantMap &options);
    // The pair of programs hooking fn (<prefix>fe_<fn>/<prefix>fx_<fn> for fentry/fexit,
    // <prefix>kp_<fn>/<prefix>kr_<fn> for kprobe/kretprobe), or empty with *why set: each
    // allowed way and why it is not possible here, or that the option ruled it out.
    QList<AttachGroup::Program> hook(const KernelFeatures &kernel, const QByteArray &prefix,
                                     const QString &fn, QString *why) const;
};

} // namespace bpflens
