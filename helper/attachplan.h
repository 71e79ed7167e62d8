#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

struct bpf_link;
struct bpf_object;

namespace bpflens {

// Which programs of a skeleton a probe attaches on this kernel, decided before load. A group is
// attached all or nothing (an entry hook without its exit hook would only fill a map); a
// required group that fails fails the probe, an optional one is skipped and said so.
struct AttachGroup
{
    struct Program
    {
        QByteArray name; // the BPF program's name in the object
        QString path;    // "tp_btf/sys_enter"
    };
    QList<Program> programs;
    bool required = true;
    QString what; // "failed execs", for messages
};

struct AttachPlan
{
    QList<AttachGroup> groups;
    bool available = true;
    QString reason; // why not, or what is degraded

    void addReason(const QString &why);
    QString path() const; // every program's path, joined with ", "

    // Before load: only the planned programs are loaded (the others may not even verify here).
    bool applyAutoload(bpf_object *obj, QString *error) const;
    // After load: attaches group by group. links receives every link (destroy them on stop),
    // attachedPath what really attached, degraded why optional groups were skipped.
    bool attach(bpf_object *obj, QList<bpf_link *> *links, QString *attachedPath, QString *degraded,
                QString *error) const;
};

} // namespace bpflens
