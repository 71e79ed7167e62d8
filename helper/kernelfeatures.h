#pragma once

#include <QHash>
#include <QString>

struct btf;

namespace bpflens {

// What the running kernel really offers, probed rather than assumed: a kprobe needs the kprobe
// PMU and a traceable symbol, an fentry needs a trial load and attach, a tp_btf needs the
// tracepoint's btf_trace_ type in the kernel's BTF. Results are cached per name.
class KernelFeatures
{
public:
    KernelFeatures();
    ~KernelFeatures();
    KernelFeatures(const KernelFeatures &) = delete;
    KernelFeatures &operator=(const KernelFeatures &) = delete;

    QString release() const { return m_release; }
    bool hasBtf() const { return m_btf != nullptr; }
    QString btfError() const { return m_btfError; }

    // tp_btf / raw tracepoint: "block_rq_issue"
    bool hasBtfTracepoint(const QString &name) const;
    // classic tracepoint: "syscalls/sys_enter_openat" (needs tracefs mounted)
    bool hasTracepoint(const QString &categoryAndName) const;
    bool hasKprobePmu() const;
    bool canKprobe(const QString &function) const;
    bool canFentry(const QString &function) const;
    // A type exists in the kernel's BTF (struct, enum, ...), for CO-RE decisions.
    bool hasBtfType(const QString &name, int kind) const;
    // The value of an enumerator of the kernel's BTF, as the running kernel defines it.
    bool enumValue(const QString &enumerator, qint64 *value) const;

    // Why kprobes or fentry are unavailable, for availability messages ("" when available).
    QString kprobeUnavailableReason() const;
    QString fentryUnavailableReason() const;

    const struct btf *btf() const { return m_btf; }

private:
    bool tracefsEventExists(const QString &categoryAndName) const;

    struct btf *m_btf = nullptr;
    QString m_btfError;
    QString m_release;
    mutable QHash<QString, bool> m_fentryCache;
    mutable QHash<QString, bool> m_kprobeCache;
    mutable int m_fentryProbe = -1; // -1 unknown, 0 no, 1 yes (any function)
};

} // namespace bpflens
