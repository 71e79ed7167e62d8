#pragma once

#include <QString>

namespace bpflens {

// Where tppair's start and end and tpcount's hits come from: a tracepoint ("sched_switch",
// "block:block_rq_issue") or, with a prefix, a user-space function's entry or return, a USDT
// probe, or a kernel function's entry or return:
//   u:BINARY:FUNCTION   ur:BINARY:FUNCTION   usdt:BINARY:PROVIDER:NAME   k:FUNCTION   kr:FUNCTION
// BINARY and FUNCTION as the uprobe probe's target, BINARY:PROVIDER:NAME as the usdt probe's
// (no tracepoint category is named u, ur, usdt, k or kr). The caller resolves the user-space
// ones (client/probetargets.h); the helper attaches them by file and offset.
struct ProbeHook
{
    enum class Kind
    {
        Tracepoint,
        Uprobe,
        Uretprobe,
        Usdt,
        Kprobe,
        Kretprobe
    };
    Kind kind = Kind::Tracepoint;
    QString target; // what follows the prefix

    static ProbeHook parse(const QString &text)
    {
        const QString t = text.trimmed();
        static const struct
        {
            const char *prefix;
            Kind kind;
        } prefixes[] = {{"u:", Kind::Uprobe},
                        {"ur:", Kind::Uretprobe},
                        {"usdt:", Kind::Usdt},
                        {"k:", Kind::Kprobe},
                        {"kr:", Kind::Kretprobe}};
        for (const auto &p : prefixes) {
            if (t.startsWith(QLatin1String(p.prefix)))
                return {p.kind, t.mid(qsizetype(qstrlen(p.prefix))).trimmed()};
        }
        return {Kind::Tracepoint, t};
    }
    // Attached by file and offset: the caller opens the file.
    bool inUserFile() const
    {
        return kind == Kind::Uprobe || kind == Kind::Uretprobe || kind == Kind::Usdt;
    }
    // A return probe: no arguments to read.
    bool isReturn() const { return kind == Kind::Uretprobe || kind == Kind::Kretprobe; }
    QString prefix() const
    {
        switch (kind) {
        case Kind::Tracepoint:
            break;
        case Kind::Uprobe:
            return QStringLiteral("u:");
        case Kind::Uretprobe:
            return QStringLiteral("ur:");
        case Kind::Usdt:
            return QStringLiteral("usdt:");
        case Kind::Kprobe:
            return QStringLiteral("k:");
        case Kind::Kretprobe:
            return QStringLiteral("kr:");
        }
        return QString();
    }
    QString text() const { return prefix() + target; }
    // The attach path's kind (attachplan.h): "uprobe/", "kretprobe/" ...
    QString attachKind() const
    {
        switch (kind) {
        case Kind::Tracepoint:
            return QStringLiteral("raw_tp");
        case Kind::Uprobe:
            return QStringLiteral("uprobe");
        case Kind::Uretprobe:
            return QStringLiteral("uretprobe");
        case Kind::Usdt:
            return QStringLiteral("usdt");
        case Kind::Kprobe:
            return QStringLiteral("kprobe");
        case Kind::Kretprobe:
            return QStringLiteral("kretprobe");
        }
        return QString();
    }
};

} // namespace bpflens
