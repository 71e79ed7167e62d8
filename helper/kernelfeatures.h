#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>

struct btf;

namespace bpflens {

// What the running kernel really offers, probed rather than assumed: a kprobe needs the kprobe
// PMU and a traceable symbol, an fentry needs a trial load and attach, a tp_btf needs the
// tracepoint's btf_trace_ type in the kernel's BTF. Results are cached per name.
// Types, functions and tracepoints of loaded modules (ext4 on Debian's kernels) are in the
// modules' own BTF (/sys/kernel/btf/<module>, split on top of vmlinux's): every lookup below
// searches vmlinux first, then the modules.
// The parsed BTF (5.5 MB of heap on a distribution kernel, plus the modules') and the kprobe
// target list are the bulk of this object: releaseMemory() drops them while every answer
// already given stays cached, and a question not asked before loads them again.
class KernelFeatures
{
public:
    // Where a BTF type was found. btf is vmlinux's or a module's split BTF (whose ids include
    // vmlinux's, so any type reached from id resolves in it); objFd is the module BTF object's
    // fd for BPF_PROG_LOAD's attach_btf_obj_fd, 0 for vmlinux.
    struct BtfLocation
    {
        const struct btf *btf = nullptr;
        int id = 0;
        int objFd = 0;
        QString module; // "" for vmlinux
        bool found() const { return id > 0; }
    };

    KernelFeatures();
    ~KernelFeatures();
    KernelFeatures(const KernelFeatures &) = delete;
    KernelFeatures &operator=(const KernelFeatures &) = delete;

    QString release() const { return m_release; }
    bool hasBtf() const { return m_btfError.isEmpty(); }
    QString btfError() const { return m_btfError; }

    // tp_btf / raw tracepoint: "block_rq_issue"
    bool hasBtfTracepoint(const QString &name) const;
    // classic tracepoint: "syscalls/sys_enter_openat" (needs tracefs mounted)
    bool hasTracepoint(const QString &categoryAndName) const;
    bool hasKprobePmu() const;
    // Uprobes: the uprobe PMU, or tracefs's uprobe_events (libbpf's legacy path).
    bool hasUprobes() const;
    bool canKprobe(const QString &function) const;
    bool canFentry(const QString &function) const;
    // A type exists in the kernel's BTF (struct, enum, ...), for CO-RE decisions.
    bool hasBtfType(const QString &name, int kind) const;
    // A syscall handler (__x64_sys_execveat) whose BTF says it takes the caller's pt_regs, as
    // fexit programs on it are written. Some kernels' BTF gives a handler another function's
    // prototype (Debian's 5.10: __x64_sys_execveat typed as __x64_sys_rseq's (void *__unused)),
    // which the verifier then refuses the program for ("arg#0 type is not a struct").
    bool isSyscallHandler(const QString &function) const;
    // The value of an enumerator of the kernel's BTF, as the running kernel defines it.
    bool enumValue(const QString &enumerator, qint64 *value) const;
    // The location's btf (and btf(), moduleBtfs()) stays valid until releaseMemory().
    BtfLocation findBtfType(const QString &name, int kind) const;
    // The BTF holding the tracepoint's btf_trace_<name> typedef (vmlinux or its module's).
    BtfLocation btfTracepoint(const QString &name) const;
    // Number of arguments of a tp_btf tracepoint (without the leading void *__data), -1 if
    // unknown. (block_rq_insert and friends took (q, rq) before 5.11.)
    int tracepointArgCount(const QString &name) const;
    // The split BTF of every loaded module that has one (empty without module BTF support).
    QList<const struct btf *> moduleBtfs() const;

    // Whether 32-bit processes can make system calls here (x86_64 only; false elsewhere): the
    // kernel has ia32 emulation (its __ia32_sys_ handlers are in its BTF) and neither its command
    // line (ia32_emulation=0, Linux 6.7) nor its build config (/boot/config-<release>,
    // CONFIG_IA32_EMULATION_DEFAULT_DISABLED) turns it off. Where neither says, it can: a probe
    // that cannot see such calls cheaply keeps the way that sees them.
    bool runsCompatTasks() const;

    // Why kprobes or fentry are unavailable, for availability messages ("" when available).
    QString kprobeUnavailableReason() const;
    QString fentryUnavailableReason() const;

    const struct btf *btf() const;

    // Frees the parsed BTF (vmlinux's and the modules') and the kprobe target list, keeping the
    // answers: the engine calls it before a skeleton loads, when libbpf parses the kernel's BTF
    // once more for itself, and the helper when a call has its answer. Pointers from btf(),
    // findBtfType() and moduleBtfs() are invalid afterwards.
    void releaseMemory() const;

private:
    bool compatTasksRun() const; // runsCompatTasks() uncached
    bool tracefsEventExists(const QString &categoryAndName) const;
    // vmlinux's BTF, parsed again after releaseMemory(); nullptr without BTF.
    const struct btf *vmlinuxBtf() const;
    void loadModuleBtf() const;
    bool findEnumValue(const QString &enumerator, qint64 *value) const; // enumValue() uncached

    struct ModuleBtf
    {
        QString name;
        struct btf *btf = nullptr;
        int fd = -1;
    };
    mutable QList<ModuleBtf> m_modules;
    mutable bool m_modulesLoaded = false;
    mutable struct btf *m_btf = nullptr;
    mutable QString m_btfError; // set when a parse after releaseMemory() fails
    QString m_release;
    mutable QHash<QString, bool> m_fentryCache;
    // Answers that need the BTF, kept across releaseMemory(): "name/kind" -> found, the
    // tracepoints' argument counts, the enumerators' values (nullopt: not in the BTF).
    mutable QHash<QString, bool> m_typeCache;
    mutable QHash<QString, int> m_argCountCache;
    mutable QHash<QString, std::optional<qint64>> m_enumCache;
    mutable QHash<QString, bool> m_kprobeCache;
    // What kprobes may attach to (canKprobe()), read on first use.
    mutable QByteArray m_kprobeList;
    mutable bool m_kprobeListRead = false;
    mutable int m_fentryProbe = -1; // -1 unknown, 0 no, 1 yes (any function)
    mutable int m_compatTasks = -1; // runsCompatTasks(): -1 not asked yet
};

} // namespace bpflens
