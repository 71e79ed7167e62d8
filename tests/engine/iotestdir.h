#pragma once

// A directory for I/O tests on a real disk: BPFLENS_TEST_DIR if set (the VM runner points it at
// its own disk), else /var/tmp on the root file system (/tmp may be tmpfs, which has no block
// device under it).
#include <QDir>
#include <QFileInfo>
#include <QString>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>

namespace bpflens::test {

inline QString ioTestDirectory()
{
    const QString env = qEnvironmentVariable("BPFLENS_TEST_DIR");
    return env.isEmpty() ? QDir::rootPath() + QStringLiteral("var/tmp") : env;
}

// Why path cannot hold disk I/O tests, or "" if it can.
inline QString notOnADisk(const QString &path)
{
    constexpr long tmpfsMagic = 0x01021994;
    constexpr long ramfsMagic = 0x858458f6;
    struct statfs sfs
    {
    };
    if (statfs(path.toLocal8Bit().constData(), &sfs) != 0)
        return QStringLiteral("%1 does not exist").arg(path);
    if (long(sfs.f_type) == tmpfsMagic || long(sfs.f_type) == ramfsMagic)
        return QStringLiteral("%1 is in memory (tmpfs/ramfs); set BPFLENS_TEST_DIR to a "
                              "directory on a disk")
            .arg(path);
    return {};
}

// The whole disk under a file: its /sys/dev/block entry, or the parent of a partition's.
inline QString diskOf(const QString &path)
{
    struct stat st
    {
    };
    if (stat(path.toLocal8Bit().constData(), &st) != 0)
        return {};
    const QString entry =
        QFileInfo(
            QStringLiteral("/sys/dev/block/%1:%2").arg(major(st.st_dev)).arg(minor(st.st_dev)))
            .canonicalFilePath();
    if (entry.isEmpty())
        return {};
    if (QFileInfo::exists(entry + QStringLiteral("/partition")))
        return QFileInfo(QFileInfo(entry).path()).fileName();
    return QFileInfo(entry).fileName();
}

} // namespace bpflens::test
