#pragma once

#include <QFileInfo>
#include <QString>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <sys/mount.h>
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

} // namespace bpflens::test

#define BPFLENS_REQUIRE_ROOT(why)                                                                  \
    do {                                                                                           \
        if (geteuid() != 0) {                                                                      \
            if (bpflens::test::rootRequired())                                                     \
                QFAIL("this test needs root (" why ") and CI must run it as root");                \
            QSKIP("needs root: " why);                                                             \
        }                                                                                          \
    } while (false)
