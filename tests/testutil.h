#pragma once

#include <QString>
#include <QTest>

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

} // namespace bpflens::test

#define BPFLENS_REQUIRE_ROOT(why)                                                                  \
    do {                                                                                           \
        if (geteuid() != 0) {                                                                      \
            if (bpflens::test::rootRequired())                                                     \
                QFAIL("this test needs root (" why ") and CI must run it as root");                \
            QSKIP("needs root: " why);                                                             \
        }                                                                                          \
    } while (false)
