#pragma once

#include <QByteArray>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace bpflens::test {

// Root tests skip (with the reason) only on a developer's unprivileged run; under CI or with
// BPFLENS_REQUIRE_ROOT=1 the missing privilege is a failure, so CI cannot skip them.
inline bool rootRequired()
{
    return qEnvironmentVariableIsSet("CI") || qEnvironmentVariableIntValue("BPFLENS_REQUIRE_ROOT");
}

// Where a test puts files that must be on a real disk (block I/O, the page cache): the
// directory in BPFLENS_TEST_DIR when set (the VM matrix points it at an ext4 disk, its / being a
// read-only 9p share), otherwise fallback.
inline QString diskTestDirectory(const QString &fallback)
{
    const QString dir = qEnvironmentVariable("BPFLENS_TEST_DIR");
    return dir.isEmpty() ? fallback : dir;
}

// tracefs at /sys/kernel/tracing for the life of the object, as systemd mounts it at boot: the
// helper names tracepoint groups from it and tp/ programs find their ids there. Mounted here
// only when missing (and unmounted again), so a test does not depend on who set up the machine.
class TracefsMount
{
public:
    TracefsMount()
    {
        if (QFileInfo::exists(QStringLiteral("/sys/kernel/tracing/events")))
            return;
        if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, nullptr) == 0)
            m_mounted = true;
        else
            m_error = QString::fromLocal8Bit(strerror(errno));
    }
    ~TracefsMount()
    {
        if (m_mounted)
            umount("/sys/kernel/tracing");
    }
    TracefsMount(const TracefsMount &) = delete;
    TracefsMount &operator=(const TracefsMount &) = delete;
    // Empty when tracefs is there.
    QString error() const { return m_error; }

private:
    bool m_mounted = false;
    QString m_error;
};

// A sysfs attribute set for the life of the object and then restored, so a test sets up the
// kernel state it needs instead of depending on how the machine was set up (a disk's I/O
// scheduler, its write cache). For a choice attribute such as queue/scheduler ("none
// [mq-deadline] kyber") the value restored is the bracketed one.
class SysfsSetting
{
public:
    SysfsSetting(const QString &path, const QByteArray &value)
        : m_path(path)
    {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            m_error = f.errorString();
            return;
        }
        QByteArray old = f.readAll().trimmed();
        f.close();
        if (const qsizetype open = old.indexOf('['); open >= 0)
            old = old.mid(open + 1, old.indexOf(']', open) - open - 1);
        if (old == value)
            return;
        if (!write(value))
            return;
        m_old = old;
    }
    ~SysfsSetting()
    {
        if (!m_old.isEmpty())
            write(m_old);
    }
    SysfsSetting(const SysfsSetting &) = delete;
    SysfsSetting &operator=(const SysfsSetting &) = delete;
    // Empty when the attribute holds the value.
    QString error() const { return m_error; }

private:
    bool write(const QByteArray &value)
    {
        QFile f(m_path);
        if (!f.open(QIODevice::WriteOnly) || f.write(value) != value.size() || !f.flush()) {
            m_error = f.errorString();
            return false;
        }
        return true;
    }
    QString m_path;
    QByteArray m_old;
    QString m_error;
};

// This process's name as the kernel reports it (/proc/self/comm, up to 15 bytes): what a probe's
// comm option and its events' comm hold for the test's own tasks.
inline QByteArray ownComm()
{
    char comm[17] = {};
    prctl(PR_GET_NAME, comm);
    return QByteArray(comm);
}

} // namespace bpflens::test

#define BPFLENS_REQUIRE_ROOT(why)                                                                  \
    do {                                                                                           \
        if (geteuid() != 0) {                                                                      \
            if (bpflens::test::rootRequired())                                                     \
                QFAIL("this test needs root (" why ") and CI must run it as root");                \
            QSKIP("needs root: " why);                                                             \
        }                                                                                          \
    } while (false)
