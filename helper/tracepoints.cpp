#include "helper/tracepoints.h"

#include "helper/kernelfeatures.h"

#include <QDir>
#include <QHash>
#include <QRegularExpression>

#include <bpf/btf.h>

#include <algorithm>

namespace bpflens {

namespace {

constexpr int maxHops = 6;  // TPPAIR_MAX_HOPS
constexpr int maxArgs = 12; // MAX_BPF_FUNC_ARGS

const char *const tracefsRoots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};

QString btfName(const btf *b, quint32 nameOff)
{
    return QString::fromLatin1(btf__name_by_offset(b, nameOff));
}

// The C spelling of a type, as a reader of the kernel source knows it: typedef names are kept.
QString typeName(const btf *b, int id, int depth = 0)
{
    if (id == 0)
        return QStringLiteral("void");
    const btf_type *t = btf__type_by_id(b, __u32(id));
    if (!t || depth > 16)
        return QStringLiteral("?");
    const QString name = btfName(b, t->name_off);
    const QString named = name.isEmpty() ? QStringLiteral("(anonymous)") : name;
    switch (btf_kind(t)) {
    case BTF_KIND_INT:
    case BTF_KIND_FLOAT:
    case BTF_KIND_TYPEDEF:
        return name;
    case BTF_KIND_STRUCT:
        return QStringLiteral("struct ") + named;
    case BTF_KIND_UNION:
        return QStringLiteral("union ") + named;
    case BTF_KIND_ENUM:
    case BTF_KIND_ENUM64:
        return QStringLiteral("enum ") + named;
    case BTF_KIND_FWD:
        return (btf_kflag(t) ? QStringLiteral("union ") : QStringLiteral("struct ")) + name;
    case BTF_KIND_PTR: {
        const QString pointee = typeName(b, int(t->type), depth + 1);
        return pointee.endsWith(QLatin1Char('*')) ? pointee + QLatin1Char('*')
                                                  : pointee + QStringLiteral(" *");
    }
    case BTF_KIND_CONST:
        return QStringLiteral("const ") + typeName(b, int(t->type), depth + 1);
    case BTF_KIND_VOLATILE:
        return QStringLiteral("volatile ") + typeName(b, int(t->type), depth + 1);
    case BTF_KIND_RESTRICT:
    case BTF_KIND_TYPE_TAG:
        return typeName(b, int(t->type), depth + 1);
    case BTF_KIND_ARRAY:
        return QStringLiteral("%1[%2]")
            .arg(typeName(b, int(btf_array(t)->type), depth + 1))
            .arg(btf_array(t)->nelems);
    case BTF_KIND_FUNC_PROTO:
        return QStringLiteral("function");
    default:
        return named;
    }
}

// The BTF that has btf_trace_<event>: vmlinux's, or the split BTF of the module defining it.
const btf *tracepointBtf(const KernelFeatures &kernel, const QString &event)
{
    const KernelFeatures::BtfLocation l = kernel.btfTracepoint(event);
    return l.found() ? l.btf : kernel.btf();
}

// The FUNC_PROTO a btf_trace_<event> typedef points to (its first parameter is the probe's
// void *data), or 0.
int traceProtoOf(const btf *b, int typedefId)
{
    const btf_type *t = btf__type_by_id(b, __u32(btf__resolve_type(b, __u32(typedefId))));
    if (!t || !btf_is_ptr(t))
        return 0;
    const int protoId = int(t->type);
    t = btf__type_by_id(b, __u32(protoId));
    return t && btf_is_func_proto(t) && btf_vlen(t) >= 1 ? protoId : 0;
}

// The same by the event's name: a linear search of the BTF, so not for every event in a loop.
int traceProto(const btf *b, const QString &event)
{
    const QByteArray typeName = "btf_trace_" + event.toLatin1();
    const int id = btf__find_by_name_kind(b, typeName.constData(), BTF_KIND_TYPEDEF);
    return id > 0 ? traceProtoOf(b, id) : 0;
}

QList<int> paramTypes(const btf *b, int protoId)
{
    QList<int> out;
    const btf_type *t = btf__type_by_id(b, __u32(protoId));
    const btf_param *p = btf_params(t);
    for (int i = 1; i < btf_vlen(t); ++i)
        out.append(int(p[i].type));
    return out;
}

QByteArray signature(const QList<int> &types)
{
    QByteArray s;
    for (int id : types)
        s += QByteArray::number(id) + ',';
    return s;
}

// The probe functions __bpf_trace_<class> (one per event class, named after the class): their
// prototypes carry the TP_PROTO parameter names that btf_trace_ typedefs lack.
struct ClassFunction
{
    QString name; // the class
    QStringList params;
};

// A module's split BTF: its own types start after its base's.
__u32 firstOwnType(const btf *b)
{
    const btf *base = btf__base_btf(b);
    return base ? btf__type_cnt(base) : 1;
}

QHash<QByteArray, QList<ClassFunction>> classFunctions(const btf *b)
{
    QHash<QByteArray, QList<ClassFunction>> bySignature;
    const __u32 n = btf__type_cnt(b);
    for (__u32 id = firstOwnType(b); id < n; ++id) {
        const btf_type *t = btf__type_by_id(b, id);
        if (!btf_is_func(t))
            continue;
        const char *name = btf__name_by_offset(b, t->name_off);
        if (qstrncmp(name, "__bpf_trace_", 12) != 0)
            continue;
        const btf_type *proto = btf__type_by_id(b, t->type);
        if (!proto || !btf_is_func_proto(proto) || btf_vlen(proto) < 1)
            continue;
        ClassFunction f{QString::fromLatin1(name + 12), {}};
        QList<int> types;
        const btf_param *p = btf_params(proto);
        for (int i = 1; i < btf_vlen(proto); ++i) {
            types.append(int(p[i].type));
            f.params.append(btfName(b, p[i].name_off));
        }
        bySignature[signature(types)].append(f);
    }
    return bySignature;
}

int commonPrefix(const QString &a, const QString &b)
{
    int i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i])
        ++i;
    return i;
}

// The event's own class function, else the one of the same prototype whose class name shares
// the longest prefix with the event (block_rq_issue is of class block_rq); none if that is
// ambiguous, since a wrong name would mislead more than no name.
QStringList paramNames(const QList<ClassFunction> &candidates, const QString &event)
{
    const ClassFunction *best = nullptr;
    int bestLen = 0;
    bool tie = false;
    for (const ClassFunction &f : candidates) {
        if (f.name == event)
            return f.params;
        const int len = commonPrefix(f.name, event);
        if (len > bestLen) {
            best = &f;
            bestLen = len;
            tie = false;
        } else if (len == bestLen) {
            tie = true;
        }
    }
    return best && !tie ? best->params : QStringList();
}

TracepointInfo describe(const btf *b, const QString &event, int protoId,
                        const QHash<QByteArray, QList<ClassFunction>> &functions)
{
    TracepointInfo info;
    info.name = event;
    const QList<int> types = paramTypes(b, protoId);
    const QStringList names = paramNames(functions.value(signature(types)), event);
    for (int i = 0; i < types.size(); ++i)
        info.args.append(
            {names.size() == types.size() ? names[i] : QString(), typeName(b, types[i])});
    return info;
}

// The category that holds event in tracefs, if tracefs is mounted.
QString tracefsCategory(const QString &event)
{
    for (const char *root : tracefsRoots) {
        const QDir events(QString::fromLatin1(root) + QStringLiteral("/events"));
        if (!events.exists())
            continue;
        for (const QString &cat : events.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            if (events.exists(cat + QLatin1Char('/') + event + QStringLiteral("/id")))
                return cat;
        }
        return QString();
    }
    return QString();
}

bool tracefsMounted()
{
    for (const char *root : tracefsRoots) {
        if (QDir(QString::fromLatin1(root) + QStringLiteral("/events")).exists())
            return true;
    }
    return false;
}

// A member by name, also inside anonymous structs and unions (as C finds it).
bool findMember(const btf *b, const btf_type *composite, const QString &name, quint32 *bitOffset,
                int *typeId, quint32 *bitfieldSize, int depth = 0)
{
    if (depth > 16)
        return false;
    const btf_member *m = btf_members(composite);
    for (int i = 0; i < btf_vlen(composite); ++i) {
        const QString memberName = btfName(b, m[i].name_off);
        if (memberName == name) {
            *bitOffset = btf_member_bit_offset(composite, __u32(i));
            *bitfieldSize = btf_member_bitfield_size(composite, __u32(i));
            *typeId = int(m[i].type);
            return true;
        }
        if (!memberName.isEmpty())
            continue;
        const btf_type *inner = btf__type_by_id(b, __u32(btf__resolve_type(b, m[i].type)));
        if (inner && (btf_is_struct(inner) || btf_is_union(inner))) {
            quint32 innerOffset = 0;
            if (findMember(b, inner, name, &innerOffset, typeId, bitfieldSize, depth + 1)) {
                *bitOffset = btf_member_bit_offset(composite, __u32(i)) + innerOffset;
                return true;
            }
        }
    }
    return false;
}

bool isComposite(const btf_type *t)
{
    return t && (btf_is_struct(t) || btf_is_union(t));
}

bool isScalar(const btf_type *t)
{
    return t && (btf_is_int(t) || btf_is_any_enum(t) || btf_is_ptr(t));
}

QString plural(qsizetype n, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
}

} // namespace

QString Tracepoints::eventName(const QString &name, QString *error)
{
    static const QRegularExpression re(
        QStringLiteral("^(?:([A-Za-z0-9_]{1,64})[:/])?([A-Za-z_][A-Za-z0-9_]{0,127})$"));
    if (name.trimmed().isEmpty()) {
        *error = QStringLiteral("no tracepoint given");
        return QString();
    }
    const QRegularExpressionMatch m = re.match(name);
    if (!m.hasMatch()) {
        *error = QStringLiteral("\"%1\" is not a tracepoint name (expected a name like "
                                "block_rq_issue or block:block_rq_issue)")
                     .arg(name.left(140));
        return QString();
    }
    return m.captured(2);
}

bool Tracepoints::find(const KernelFeatures &kernel, const QString &name, TracepointInfo *info,
                       QString *error)
{
    if (!kernel.btf()) {
        *error = kernel.btfError();
        return false;
    }
    const QString event = eventName(name, error);
    if (event.isEmpty())
        return false;
    // A module's tracepoint (ext4's, where ext4 is a module) is in that module's BTF.
    const btf *b = tracepointBtf(kernel, event);
    const int proto = traceProto(b, event);
    if (!proto) {
        // tracefs lists syscalls:sys_enter_sync and the like, so the user has seen the name:
        // say what it is and what to take instead.
        if (event.startsWith(QLatin1String("sys_enter_")) ||
            event.startsWith(QLatin1String("sys_exit_")))
            *error = QStringLiteral("%1 is an event of tracefs's system call tracer, not a "
                                    "kernel tracepoint: take sys_enter or sys_exit, keyed by the "
                                    "system call number (sys_enter's id)")
                         .arg(name);
        else
            *error = QStringLiteral("tracepoint %1 does not exist in this kernel").arg(name);
        return false;
    }
    // The BTF knows no categories; tracefs, when mounted, does.
    const qsizetype sep = name.indexOf(QRegularExpression(QStringLiteral("[:/]")));
    if (sep > 0 && tracefsMounted()) {
        const QString category = name.left(sep);
        const QString real = tracefsCategory(event);
        if (!real.isEmpty() && real != category) {
            *error = QStringLiteral("tracepoint %1 does not exist in this kernel (%2 is in %3)")
                         .arg(name, event, real);
            return false;
        }
    }
    QHash<QByteArray, QList<ClassFunction>> functions = classFunctions(b);
    *info = describe(b, event, proto, functions);
    return true;
}

QList<TracepointInfo> Tracepoints::list(const KernelFeatures &kernel)
{
    QList<TracepointInfo> out;
    if (!kernel.btf())
        return out;
    // vmlinux's tracepoints, then the loaded modules' (each in its own split BTF).
    QList<const btf *> all{kernel.btf()};
    all += kernel.moduleBtfs();
    for (const btf *b : std::as_const(all)) {
        const QHash<QByteArray, QList<ClassFunction>> functions = classFunctions(b);
        const __u32 n = btf__type_cnt(b);
        for (__u32 id = firstOwnType(b); id < n; ++id) {
            const btf_type *t = btf__type_by_id(b, id);
            if (!btf_is_typedef(t))
                continue;
            const char *name = btf__name_by_offset(b, t->name_off);
            if (qstrncmp(name, "btf_trace_", 10) != 0)
                continue;
            const QString event = QString::fromLatin1(name + 10);
            if (const int proto = traceProtoOf(b, int(id)))
                out.append(describe(b, event, proto, functions));
        }
    }
    std::sort(out.begin(), out.end(),
              [](const TracepointInfo &x, const TracepointInfo &y) { return x.name < y.name; });
    return out;
}

bool Tracepoints::resolveKey(const KernelFeatures &kernel, const QString &tracepoint,
                             const QString &key, TracepointKey *out, QString *error)
{
    TracepointKey k;
    if (key == QLatin1String("tid") || key == QLatin1String("pid")) {
        k.kind = key == QLatin1String("tid") ? TracepointKey::Kind::Tid : TracepointKey::Kind::Pid;
        k.size = 4;
        k.type = QStringLiteral("pid_t");
        *out = k;
        return true;
    }
    // argN, or the argument's name where the BTF says it (sched_switch's "next"), then fields.
    static const QRegularExpression re(
        QStringLiteral("^([A-Za-z_][A-Za-z0-9_]{0,127})((?:\\.[A-Za-z_][A-Za-z0-9_]{0,127})*)$"));
    static const QRegularExpression argN(QStringLiteral("^arg([0-9]{1,2})$"));
    const QRegularExpressionMatch m = re.match(key);
    if (!m.hasMatch()) {
        *error = QStringLiteral("key \"%1\" is not valid: expected tid, pid, argN, an "
                                "argument's name, or either with fields (like arg0.__sector)")
                     .arg(key.left(140));
        return false;
    }
    if (!kernel.btf()) {
        *error = kernel.btfError();
        return false;
    }
    const QRegularExpressionMatch numbered = argN.match(m.captured(1));
    int namedArg = -1;
    if (!numbered.hasMatch()) {
        TracepointInfo info;
        if (!find(kernel, tracepoint, &info, error))
            return false;
        QStringList names;
        for (int i = 0; i < info.args.size(); ++i) {
            if (info.args[i].name == m.captured(1))
                namedArg = i;
            if (!info.args[i].name.isEmpty())
                names.append(info.args[i].name);
        }
        if (namedArg < 0) {
            *error =
                names.isEmpty()
                    ? QStringLiteral("%1 has no argument %2 (this kernel's BTF names none "
                                     "of its arguments: use argN)")
                          .arg(info.name, m.captured(1).left(140))
                    : QStringLiteral("%1 has no argument %2 (its arguments: %3)")
                          .arg(info.name, m.captured(1).left(140), names.join(QLatin1String(", ")));
            return false;
        }
    }
    QString ignored;
    const QString event = eventName(tracepoint, &ignored);
    const btf *b = tracepointBtf(kernel, event);
    const int proto = event.isEmpty() ? 0 : traceProto(b, event);
    if (!proto) {
        *error = QStringLiteral("tracepoint %1 does not exist in this kernel").arg(tracepoint);
        return false;
    }
    const QList<int> params = paramTypes(b, proto);
    k.arg = numbered.hasMatch() ? numbered.captured(1).toInt() : namedArg;
    const QString argName = QStringLiteral("arg%1").arg(k.arg);
    if (k.arg >= params.size() || k.arg >= maxArgs) {
        *error = params.isEmpty()
                     ? QStringLiteral("%1 has no arguments, %2 does not exist").arg(event, argName)
                     : QStringLiteral("%1 has %2, %3 does not exist")
                           .arg(event, plural(params.size(), "argument", "arguments"), argName);
        return false;
    }
    const QStringList fields =
        m.captured(2).isEmpty() ? QStringList() : m.captured(2).mid(1).split(QLatin1Char('.'));

    // Walk the path: where the key so far is (a register: the argument itself; or memory at
    // base + offset, base being the last pointer followed) and its type.
    int typeId = params[k.arg];
    bool inMemory = false;
    quint32 offset = 0;
    QString path = argName;
    QString where = QStringLiteral("%1 of %2").arg(argName, event);
    for (const QString &field : fields) {
        const btf_type *t = btf__type_by_id(b, __u32(btf__resolve_type(b, __u32(typeId))));
        if (t && btf_is_ptr(t)) {
            if (inMemory) {
                if (k.hops.size() >= maxHops) {
                    *error = QStringLiteral("key %1 follows more than %2 pointers")
                                 .arg(key, QString::number(maxHops));
                    return false;
                }
                k.hops.append(offset);
            }
            const int pointerType = typeId;
            inMemory = true;
            offset = 0;
            typeId = int(t->type);
            t = btf__type_by_id(b, __u32(btf__resolve_type(b, t->type)));
            if (!isComposite(t)) {
                *error = QStringLiteral("%1 is %2, not a pointer to a struct: it has no field %3")
                             .arg(where, typeName(b, pointerType), field);
                return false;
            }
        } else if (!inMemory || !isComposite(t)) {
            *error = QStringLiteral("%1 is %2, not a struct or a pointer to one: it has no "
                                    "field %3")
                         .arg(where, typeName(b, typeId), field);
            return false;
        }
        const QString structName = typeName(b, int(btf__resolve_type(b, __u32(typeId))));
        quint32 bitOffset = 0, bitfieldSize = 0;
        int memberType = 0;
        if (!findMember(b, t, field, &bitOffset, &memberType, &bitfieldSize)) {
            *error = QStringLiteral("%1 has no field %2").arg(structName, field);
            return false;
        }
        if (bitfieldSize || bitOffset % 8) {
            *error = QStringLiteral("field %1 of %2 is a bit field: a key must be a whole "
                                    "integer or pointer")
                         .arg(field, structName);
            return false;
        }
        offset += bitOffset / 8;
        typeId = memberType;
        path += QLatin1Char('.') + field;
        where = QStringLiteral("field %1 of %2").arg(field, structName);
    }
    const btf_type *leaf = btf__type_by_id(b, __u32(btf__resolve_type(b, __u32(typeId))));
    k.type = typeName(b, typeId);
    if (!isScalar(leaf)) {
        *error =
            QStringLiteral("key %1 is %2, not an integer or a pointer%3")
                .arg(path, k.type,
                     isComposite(leaf) ? QStringLiteral(": name a field inside it") : QString());
        return false;
    }
    const __s64 size = btf__resolve_size(b, __u32(typeId));
    if (size != 1 && size != 2 && size != 4 && size != 8) {
        *error = QStringLiteral("key %1 is %2, a %3-byte value: a key is 1, 2, 4 or 8 bytes")
                     .arg(path, k.type)
                     .arg(size);
        return false;
    }
    k.size = int(size);
    if (fields.isEmpty()) {
        k.kind = TracepointKey::Kind::Arg;
    } else {
        k.kind = TracepointKey::Kind::Field;
        k.leafOffset = offset;
    }
    *out = k;
    return true;
}

} // namespace bpflens
