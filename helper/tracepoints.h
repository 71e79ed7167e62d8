#pragma once

#include <QList>
#include <QString>

struct btf;

namespace bpflens {

class KernelFeatures;

struct TracepointArg
{
    QString name; // "rq"; empty when the kernel's BTF does not say
    QString type; // "struct request *"
    bool operator==(const TracepointArg &) const = default;
};

// A tracepoint as a BTF (raw) tracepoint program sees it: the arguments of its TP_PROTO.
struct TracepointInfo
{
    QString name; // "block_rq_issue", without the category
    QList<TracepointArg> args;
    bool operator==(const TracepointInfo &) const = default;
};

// Where one side of a tracepoint pair finds its key, resolved against the kernel's BTF.
struct TracepointKey
{
    enum class Kind
    {
        Tid,
        Pid,
        Arg,  // the argument's value
        Field // a field inside the struct the argument points to
    };
    Kind kind = Kind::Tid;
    int arg = 0;
    int size = 8;           // bytes read: 1, 2, 4 or 8
    QList<quint32> hops;    // offsets of the pointers followed, in order
    quint32 leafOffset = 0; // of the key inside the last struct
    QString type;           // the key's C type ("sector_t"), for messages and the GUI
};

// The kernel's tracepoints from its BTF: each one has a btf_trace_<name> typedef of a pointer to
// the probe's prototype (void *data, TP_PROTO...). Module tracepoints live in the modules' BTF
// and are not listed.
class Tracepoints
{
public:
    // Every tracepoint, sorted by name. Argument names come from the event class's
    // __bpf_trace_<class> function where the BTF has it.
    static QList<TracepointInfo> list(const KernelFeatures &kernel);
    // One tracepoint. name may carry its category ("block:block_rq_issue", "block/...").
    static bool find(const KernelFeatures &kernel, const QString &name, TracepointInfo *info,
                     QString *error);
    // "block:block_rq_issue" -> "block_rq_issue"; an empty string (and *error) if malformed.
    static QString eventName(const QString &name, QString *error);
    // Resolves a key ("tid", "pid", "arg1", "arg0.q.id") for a tracepoint of this kernel.
    static bool resolveKey(const KernelFeatures &kernel, const QString &tracepoint,
                           const QString &key, TracepointKey *out, QString *error);
};

} // namespace bpflens
