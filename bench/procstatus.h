#pragma once

// One reader of this process' /proc/self/status for bpflens-bench and bpflens_open_bench, so the
// CLI rows and the GUI rows of bench/run measure memory the same way.

#include <QByteArray>
#include <QFile>
#include <QString>

namespace bpflens::bench {

// A field such as "VmHWM" or "VmRSS" in KiB; -1 when it cannot be read.
inline qint64 statusKb(const char *field)
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray key = QByteArray(field) + ':';
    for (const QByteArray &line : f.readAll().split('\n')) {
        if (line.startsWith(key))
            return line.mid(key.size()).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}

} // namespace bpflens::bench
