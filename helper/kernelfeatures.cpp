#include "helper/kernelfeatures.h"

#include <QFile>
#include <QFileInfo>
#include <QStringList>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include <cerrno>
#include <cstring>
#include <sys/utsname.h>
#include <unistd.h>

namespace bpflens {

namespace {

const char *const tracefsRoots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};

// Whether word is a whole name in list: a line of its own or a field of one
// (available_filter_functions: "name" or "name [module]"; kallsyms: "addr T name\t[module]").
bool listHasName(const QByteArray &list, const QByteArray &word)
{
    if (word.isEmpty())
        return false;
    const auto isSeparator = [](char c) { return c == '\n' || c == ' ' || c == '\t'; };
    for (qsizetype at = list.indexOf(word); at >= 0; at = list.indexOf(word, at + 1)) {
        const qsizetype end = at + word.size();
        if ((at == 0 || isSeparator(list.at(at - 1))) &&
            (end == list.size() || isSeparator(list.at(end))))
            return true;
    }
    return false;
}

// A two-instruction program ("return 0") loaded as fentry on btfId and attached: succeeds only
// if the kernel really supports trampolines for this function.
bool fentryTryAttach(int btfId, int btfObjFd)
{
    const bpf_insn insns[] = {
        {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0},
        {BPF_JMP | BPF_EXIT, 0, 0, 0, 0},
    };
    bpf_prog_load_opts opts{}; // LIBBPF_OPTS without its GNU statement expression
    opts.sz = sizeof(opts);
    opts.expected_attach_type = BPF_TRACE_FENTRY;
    opts.attach_btf_id = btfId;
    opts.attach_btf_obj_fd = btfObjFd;
    const int progFd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "bpflens_fentry", "GPL", insns,
                                     sizeof(insns) / sizeof(insns[0]), &opts);
    if (progFd < 0)
        return false;
    const int linkFd = bpf_raw_tracepoint_open(nullptr, progFd);
    if (linkFd >= 0)
        close(linkFd);
    close(progFd);
    return linkFd >= 0;
}

} // namespace

KernelFeatures::KernelFeatures()
{
    utsname u{};
    if (uname(&u) == 0)
        m_release = QString::fromLocal8Bit(u.release);
    m_btf = btf__load_vmlinux_btf();
    if (!m_btf) {
        m_btfError = QStringLiteral("the kernel has no BTF (/sys/kernel/btf/vmlinux): %1")
                         .arg(QString::fromLocal8Bit(strerror(errno)));
    }
}

KernelFeatures::~KernelFeatures()
{
    releaseMemory();
}

void KernelFeatures::releaseMemory() const
{
    for (const ModuleBtf &m : std::as_const(m_modules)) {
        btf__free(m.btf);
        if (m.fd >= 0)
            close(m.fd);
    }
    m_modules.clear();
    m_modulesLoaded = false;
    btf__free(m_btf);
    m_btf = nullptr;
    m_kprobeList = QByteArray();
    m_kprobeListRead = false;
}

const struct btf *KernelFeatures::vmlinuxBtf() const
{
    if (!m_btf && hasBtf()) {
        m_btf = btf__load_vmlinux_btf();
        if (!m_btf)
            m_btfError = QStringLiteral("cannot parse the kernel's BTF again: %1")
                             .arg(QString::fromLocal8Bit(strerror(errno)));
    }
    return m_btf;
}

const struct btf *KernelFeatures::btf() const
{
    return vmlinuxBtf();
}

void KernelFeatures::loadModuleBtf() const
{
    if (m_modulesLoaded || !vmlinuxBtf())
        return;
    m_modulesLoaded = true;
    // The kernel's own list of BTF objects, as libbpf walks it to attach to module functions:
    // the fd is what a program load names as its attach target's BTF object.
    __u32 id = 0;
    while (bpf_btf_get_next_id(id, &id) == 0) {
        const int fd = bpf_btf_get_fd_by_id(id);
        if (fd < 0)
            continue;
        char name[64] = {};
        bpf_btf_info info{};
        info.name = reinterpret_cast<__u64>(name);
        info.name_len = sizeof(name);
        __u32 len = sizeof(info);
        if (bpf_obj_get_info_by_fd(fd, &info, &len) != 0 || !info.kernel_btf ||
            qstrcmp(name, "vmlinux") == 0) {
            close(fd);
            continue;
        }
        struct btf *b = btf__load_from_kernel_by_id_split(id, m_btf);
        if (!b) {
            close(fd);
            continue;
        }
        m_modules.append({QString::fromLatin1(name), b, fd});
    }
}

QList<const struct btf *> KernelFeatures::moduleBtfs() const
{
    loadModuleBtf();
    QList<const struct btf *> l;
    for (const ModuleBtf &m : std::as_const(m_modules))
        l.append(m.btf);
    return l;
}

KernelFeatures::BtfLocation KernelFeatures::findBtfType(const QString &name, int kind) const
{
    if (!vmlinuxBtf())
        return {};
    const QByteArray n = name.toLatin1();
    int id = btf__find_by_name_kind(m_btf, n.constData(), kind);
    if (id > 0)
        return {m_btf, id, 0, QString()};
    loadModuleBtf();
    for (const ModuleBtf &m : std::as_const(m_modules)) {
        // A split BTF's lookup also searches its base: only the module's own ids count here.
        id = btf__find_by_name_kind(m.btf, n.constData(), kind);
        if (id > 0)
            return {m.btf, id, m.fd, m.name};
    }
    return {};
}

bool KernelFeatures::hasBtfType(const QString &name, int kind) const
{
    const QString key = name + QLatin1Char('/') + QString::number(kind);
    auto it = m_typeCache.constFind(key);
    if (it != m_typeCache.cend())
        return *it;
    const bool found = findBtfType(name, kind).found();
    m_typeCache.insert(key, found);
    return found;
}

bool KernelFeatures::isSyscallHandler(const QString &function) const
{
    const BtfLocation l = findBtfType(function, BTF_KIND_FUNC);
    if (!l.found())
        return false;
    const btf_type *t = btf__type_by_id(l.btf, btf__type_by_id(l.btf, __u32(l.id))->type);
    if (!t || !btf_is_func_proto(t) || btf_vlen(t) != 1)
        return false;
    const int arg = btf__resolve_type(l.btf, btf_params(t)[0].type);
    t = arg > 0 ? btf__type_by_id(l.btf, __u32(arg)) : nullptr;
    if (!t || !btf_is_ptr(t))
        return false;
    const int target = btf__resolve_type(l.btf, t->type);
    t = target > 0 ? btf__type_by_id(l.btf, __u32(target)) : nullptr;
    return t && btf_is_struct(t) &&
           qstrcmp(btf__name_by_offset(l.btf, t->name_off), "pt_regs") == 0;
}

KernelFeatures::BtfLocation KernelFeatures::btfTracepoint(const QString &name) const
{
    return findBtfType(QStringLiteral("btf_trace_") + name, BTF_KIND_TYPEDEF);
}

bool KernelFeatures::hasBtfTracepoint(const QString &name) const
{
    return hasBtfType(QStringLiteral("btf_trace_") + name, BTF_KIND_TYPEDEF);
}

int KernelFeatures::tracepointArgCount(const QString &name) const
{
    auto it = m_argCountCache.constFind(name);
    if (it != m_argCountCache.cend())
        return *it;
    const BtfLocation l = btfTracepoint(name);
    if (!l.found())
        return -1;
    const struct btf *b = l.btf;
    const btf_type *t = btf__type_by_id(b, __u32(btf__resolve_type(b, __u32(l.id))));
    int n = -1;
    if (t && btf_is_ptr(t)) {
        t = btf__type_by_id(b, t->type);
        if (t && btf_is_func_proto(t))
            n = btf_vlen(t) - 1;
    }
    m_argCountCache.insert(name, n);
    return n;
}

bool KernelFeatures::tracefsEventExists(const QString &categoryAndName) const
{
    for (const char *root : tracefsRoots) {
        if (QFileInfo::exists(QString::fromLatin1(root) + QStringLiteral("/events/") +
                              categoryAndName + QStringLiteral("/id")))
            return true;
    }
    return false;
}

bool KernelFeatures::hasTracepoint(const QString &categoryAndName) const
{
    return tracefsEventExists(categoryAndName);
}

bool KernelFeatures::hasKprobePmu() const
{
    return QFileInfo::exists(QStringLiteral("/sys/bus/event_source/devices/kprobe/type"));
}

bool KernelFeatures::hasUprobes() const
{
    if (QFileInfo::exists(QStringLiteral("/sys/bus/event_source/devices/uprobe/type")))
        return true;
    for (const char *root : tracefsRoots) {
        if (QFileInfo::exists(QString::fromLatin1(root) + QStringLiteral("/uprobe_events")))
            return true;
    }
    return false;
}

bool KernelFeatures::canKprobe(const QString &function) const
{
    if (!hasKprobePmu())
        return false;
    auto it = m_kprobeCache.constFind(function);
    if (it != m_kprobeCache.cend())
        return *it;
    if (!m_kprobeListRead) {
        // available_filter_functions lists what kprobes may attach to (no notrace, no
        // blacklist); without tracefs, kallsyms is the best approximation. Read once: the
        // kernel formats its ~60,000 lines anew for every reader (0.7 s in an emulated guest,
        // where fsslower asked for eight functions), and the copy goes with this object, after
        // the probes are chosen (Engine::start()).
        QString path = QStringLiteral("/proc/kallsyms");
        for (const char *root : tracefsRoots) {
            const QString list =
                QString::fromLatin1(root) + QStringLiteral("/available_filter_functions");
            if (QFileInfo::exists(list)) {
                path = list;
                break;
            }
        }
        // Read whole: these files report size 0, so QFile::atEnd() is true before the first
        // read and an atEnd() loop saw nothing (canKprobe() was false on every kernel).
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            m_kprobeList = f.readAll();
        m_kprobeListRead = true;
    }
    const bool ok = listHasName(m_kprobeList, function.toLatin1());
    m_kprobeCache.insert(function, ok);
    return ok;
}

bool KernelFeatures::canFentry(const QString &function) const
{
    if (!hasBtf())
        return false;
    auto it = m_fentryCache.constFind(function);
    if (it != m_fentryCache.cend())
        return *it;
    const BtfLocation l = findBtfType(function, BTF_KIND_FUNC);
    const bool ok = l.found() && fentryTryAttach(l.id, l.objFd);
    m_fentryCache.insert(function, ok);
    if (ok)
        m_fentryProbe = 1;
    return ok;
}

bool KernelFeatures::runsCompatTasks() const
{
    // Every plan of a start asks (availability, then the start): the files are read once.
    if (m_compatTasks < 0)
        m_compatTasks = compatTasksRun() ? 1 : 0;
    return m_compatTasks == 1;
}

bool KernelFeatures::compatTasksRun() const
{
#if defined(__x86_64__)
    const struct btf *b = vmlinuxBtf();
    if (!b || btf__find_by_name_kind(b, "__ia32_sys_creat", BTF_KIND_FUNC) <= 0)
        return false;
    // The kernel parses it with kstrtobool (0, n, f and "off" turn the emulation off); the last
    // one given counts.
    int onCommandLine = -1;
    QFile cmdline(QStringLiteral("/proc/cmdline"));
    if (cmdline.open(QIODevice::ReadOnly)) {
        for (const QByteArray &arg : cmdline.readAll().simplified().split(' ')) {
            if (arg.startsWith("ia32_emulation=")) {
                const QByteArray v = arg.mid(int(sizeof("ia32_emulation=")) - 1).toLower();
                onCommandLine =
                    !(v.startsWith('0') || v.startsWith('n') || v.startsWith('f') || v == "off");
            }
        }
    }
    if (onCommandLine >= 0)
        return onCommandLine == 1;
    QFile config(QStringLiteral("/boot/config-") + m_release);
    if (config.open(QIODevice::ReadOnly) &&
        listHasName(config.readAll(), "CONFIG_IA32_EMULATION_DEFAULT_DISABLED=y"))
        return false;
    return true;
#else
    return false;
#endif
}

bool KernelFeatures::enumValue(const QString &enumerator, qint64 *value) const
{
    // Each lookup walks every type of the kernel's BTF; the block probe asks for a dozen.
    auto it = m_enumCache.constFind(enumerator);
    if (it == m_enumCache.cend()) {
        qint64 v = 0;
        it = m_enumCache.insert(enumerator, findEnumValue(enumerator, &v) ? std::optional<qint64>(v)
                                                                          : std::nullopt);
    }
    if (!it->has_value())
        return false;
    *value = **it;
    return true;
}

bool KernelFeatures::findEnumValue(const QString &enumerator, qint64 *value) const
{
    const struct btf *b = vmlinuxBtf();
    if (!b)
        return false;
    const QByteArray wanted = enumerator.toLatin1();
    const __u32 n = btf__type_cnt(b);
    for (__u32 id = 1; id < n; ++id) {
        const struct btf_type *t = btf__type_by_id(b, id);
        if (btf_is_enum(t)) {
            const struct btf_enum *e = btf_enum(t);
            for (int i = 0; i < btf_vlen(t); ++i) {
                if (wanted == btf__name_by_offset(b, e[i].name_off)) {
                    *value = e[i].val;
                    return true;
                }
            }
        } else if (btf_is_enum64(t)) {
            const struct btf_enum64 *e = btf_enum64(t);
            for (int i = 0; i < btf_vlen(t); ++i) {
                if (wanted == btf__name_by_offset(b, e[i].name_off)) {
                    *value = qint64(btf_enum64_value(e + i));
                    return true;
                }
            }
        }
    }
    return false;
}

QString KernelFeatures::kprobeUnavailableReason() const
{
    if (!hasKprobePmu())
        return QStringLiteral(
            "the kernel has no kprobe support (no kprobe PMU: CONFIG_KPROBES is off)");
    return QString();
}

QString KernelFeatures::fentryUnavailableReason() const
{
    if (!hasBtf())
        return m_btfError;
    if (m_fentryProbe < 0)
        m_fentryProbe = canFentry(QStringLiteral("vfs_read")) ? 1 : 0;
    if (m_fentryProbe == 0)
        return QStringLiteral(
            "the kernel refuses fentry programs (no BPF trampoline support here)");
    return QString();
}

} // namespace bpflens
