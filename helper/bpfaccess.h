#pragma once

#include <QByteArray>
#include <QString>

namespace bpflens {

// Why this process cannot load BPF programs at all, named before anything is tried, so the
// probe list says "kernel lockdown" or "no CAP_BPF" instead of each probe failing with EPERM.
// "" when nothing stands in the way that can be told without loading a program.
QString bpfRefusal();

// The decision itself, from what bpfRefusal() reads: the text of /sys/kernel/security/lockdown
// ("none integrity [confidentiality]"; empty without the lockdown LSM), the process's
// effective capabilities (CapEff of /proc/self/status), the kernel's major and minor version
// (CAP_BPF and CAP_PERFMON exist since 5.8) and /proc/sys/kernel/unprivileged_bpf_disabled
// (-1 unknown).
QString bpfRefusalFrom(const QByteArray &lockdown, quint64 capEff, int kernelMajor, int kernelMinor,
                       int unprivilegedBpfDisabled);

} // namespace bpflens
