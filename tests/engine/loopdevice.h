#pragma once

// A loop device over a file, which only the test's own requests reach, and an ext4 file system
// on it. On a disk other processes use, their requests (writeback, the journal, whatever a
// sync or a dropped page cache brings) share the queue with the test's: the kernel can issue
// queued requests from another submitter's context, merge and requeue them, and counts of "the
// test's requests" stop being exact. Everything is undone by the destructor too, so a failed
// QVERIFY leaves no mount or device behind.
#include <QByteArray>
#include <QFile>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>

namespace bpflens::test {

class LoopDevice
{
public:
    LoopDevice() = default;
    LoopDevice(const LoopDevice &) = delete;
    LoopDevice &operator=(const LoopDevice &) = delete;
    ~LoopDevice() { detach(); }

    // Unmounts the file system (if mounted) and detaches the device.
    void detach()
    {
        if (!m_mountPoint.isEmpty()) {
            // A lazy unmount as a last resort: a descriptor a failed test left open must not
            // keep the device attached.
            const QByteArray mp = QFile::encodeName(m_mountPoint);
            if (umount2(mp.constData(), 0) != 0)
                umount2(mp.constData(), MNT_DETACH);
            m_mountPoint.clear();
        }
        if (m_fd >= 0) {
            ioctl(m_fd, LOOP_CLR_FD, 0);
            close(m_fd);
            m_fd = -1;
        }
    }

    bool attach(const QString &backing, qint64 bytes, QString *why)
    {
        const int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
        if (ctl < 0) {
            *why = QStringLiteral("/dev/loop-control: %1")
                       .arg(QString::fromLocal8Bit(strerror(errno)));
            return false;
        }
        const int file =
            open(backing.toLocal8Bit().constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        bool ok = file >= 0 && ftruncate(file, bytes) == 0;
        // Another process can take the free device between asking and attaching: ask again.
        for (int attempt = 0; ok && m_fd < 0 && attempt < 10; ++attempt) {
            const int n = ioctl(ctl, LOOP_CTL_GET_FREE);
            if (n < 0)
                break;
            const QByteArray path = "/dev/loop" + QByteArray::number(n);
            const int fd = open(path.constData(), O_RDWR | O_CLOEXEC);
            if (fd >= 0 && ioctl(fd, LOOP_SET_FD, file) == 0) {
                m_fd = fd;
                m_name = QStringLiteral("loop%1").arg(n);
            } else if (fd >= 0) {
                close(fd);
            }
        }
        if (m_fd < 0)
            *why = QStringLiteral("attaching a loop device: %1")
                       .arg(QString::fromLocal8Bit(strerror(errno)));
        if (file >= 0)
            close(file);
        close(ctl);
        return m_fd >= 0;
    }

    // Makes an ext4 file system on the attached device and mounts it on dir (which exists).
    bool mountExt4(const QString &dir, QString *why)
    {
        // Inode tables and the journal initialised now: no lazy-init I/O runs under the test.
        // Features older kernels (5.10, in the VM matrix) cannot mount read-write are left out;
        // an older mkfs that does not know them makes a file system without them anyway.
        const QStringList common{QStringLiteral("-q"), QStringLiteral("-F"), QStringLiteral("-E"),
                                 QStringLiteral("lazy_itable_init=0,lazy_journal_init=0")};
        QString out;
        bool made = false;
        for (const QStringList &features :
             {QStringList{QStringLiteral("-O"), QStringLiteral("^orphan_file,^metadata_csum_seed")},
              QStringList{}}) {
            QProcess mkfs;
            mkfs.setProcessChannelMode(QProcess::MergedChannels);
            mkfs.start(QStringLiteral("mkfs.ext4"), common + features + QStringList{path()});
            if (!mkfs.waitForStarted()) {
                *why = QStringLiteral("mkfs.ext4: %1 (e2fsprogs)").arg(mkfs.errorString());
                return false;
            }
            mkfs.waitForFinished(120000);
            out = QString::fromLocal8Bit(mkfs.readAll()).trimmed();
            if (mkfs.exitStatus() == QProcess::NormalExit && mkfs.exitCode() == 0) {
                made = true;
                break;
            }
        }
        if (!made) {
            *why = QStringLiteral("mkfs.ext4 %1 failed: %2").arg(path(), out);
            return false;
        }
        const QByteArray mp = QFile::encodeName(dir);
        if (mount(QFile::encodeName(path()).constData(), mp.constData(), "ext4", 0, nullptr) != 0) {
            *why = QStringLiteral("mounting %1 on %2: %3")
                       .arg(path(), dir, QString::fromLocal8Bit(strerror(errno)));
            return false;
        }
        m_mountPoint = dir;
        return true;
    }

    QString name() const { return m_name; }
    QString path() const { return QStringLiteral("/dev/") + m_name; }

private:
    int m_fd = -1;
    QString m_name;
    QString m_mountPoint;
};

} // namespace bpflens::test
