#include "helper/bpfaccess.h"

#include <QFile>
#include <QList>
#include <QStringList>

#include <cstdio>
#include <sys/utsname.h>

namespace bpflens {

namespace {

constexpr int CapSysAdmin = 21;
constexpr int CapPerfmon = 38;
constexpr int CapBpf = 39;

bool has(quint64 caps, int cap)
{
    return (caps >> cap) & 1;
}

QByteArray readFile(const char *path)
{
    QFile f(QString::fromLatin1(path));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

QString bpfRefusalFrom(const QByteArray &lockdown, quint64 capEff, int kernelMajor, int kernelMinor,
                       int unprivilegedBpfDisabled)
{
    // Confidentiality mode forbids BPF programs from reading kernel memory
    // (LOCKDOWN_BPF_READ_KERNEL), which every probe does; integrity mode allows them.
    if (lockdown.contains("[confidentiality]"))
        return QStringLiteral(
            "the kernel is locked down in confidentiality mode (/sys/kernel/security/lockdown), "
            "which forbids BPF programs that read kernel memory: boot with lockdown=integrity or "
            "without lockdown (often: Secure Boot with a distribution kernel enables it)");
    const bool splitCaps = kernelMajor > 5 || (kernelMajor == 5 && kernelMinor >= 8);
    if (has(capEff, CapSysAdmin) || (splitCaps && has(capEff, CapBpf) && has(capEff, CapPerfmon)))
        return {};
    QString missing;
    if (splitCaps) {
        QStringList names;
        if (!has(capEff, CapBpf))
            names << QStringLiteral("CAP_BPF");
        if (!has(capEff, CapPerfmon))
            names << QStringLiteral("CAP_PERFMON");
        missing = names.join(QStringLiteral(" and ")) + QStringLiteral(" (or CAP_SYS_ADMIN)");
    } else {
        missing = QStringLiteral("CAP_SYS_ADMIN (kernels before 5.8 have no CAP_BPF)");
    }
    QString why = QStringLiteral("this process lacks %1, which loading tracing BPF programs needs")
                      .arg(missing);
    if (unprivilegedBpfDisabled > 0)
        why +=
            QStringLiteral(" (unprivileged BPF is disabled: kernel.unprivileged_bpf_disabled=%1)")
                .arg(unprivilegedBpfDisabled);
    why += QStringLiteral(": run as root, or in a container grant these capabilities");
    return why;
}

QString bpfRefusal()
{
    quint64 capEff = 0;
    const QList<QByteArray> lines = readFile("/proc/self/status").split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("CapEff:")) {
            bool ok = false;
            capEff = line.mid(7).trimmed().toULongLong(&ok, 16);
            if (!ok)
                return {}; // cannot tell: let the load say
        }
    }
    struct utsname u;
    int major = 0, minor = 0;
    if (uname(&u) == 0)
        sscanf(u.release, "%d.%d", &major, &minor);
    bool ok = false;
    int unprivileged = readFile("/proc/sys/kernel/unprivileged_bpf_disabled").trimmed().toInt(&ok);
    if (!ok)
        unprivileged = -1;
    return bpfRefusalFrom(readFile("/sys/kernel/security/lockdown"), capEff, major, minor,
                          unprivileged);
}

} // namespace bpflens
