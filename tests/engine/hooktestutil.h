#pragma once

// Tests of the fentry and kprobe paths. This development machine has neither (they skip here,
// saying why); the VM matrix sets BPFLENS_TEST_HOOKS=fentry,kprobe on kernels that have both, so
// there a missing path is a failure, never a silent skip.
#include <QString>
#include <QStringList>
#include <QTest>

namespace bpflens::test {

inline bool hooksPromised(const QString &kind)
{
    return qEnvironmentVariable("BPFLENS_TEST_HOOKS")
        .split(QLatin1Char(','), Qt::SkipEmptyParts)
        .contains(kind);
}

} // namespace bpflens::test

// kind: "fentry" or "kprobe"; available: whether this kernel can use it for the test's functions.
#define BPFLENS_REQUIRE_HOOKS(kind, available)                                                     \
    do {                                                                                           \
        if (!(available)) {                                                                        \
            if (bpflens::test::hooksPromised(kind))                                                \
                QFAIL(qPrintable(QStringLiteral("BPFLENS_TEST_HOOKS promises %1, but this kernel " \
                                                "cannot use it")                                   \
                                     .arg(kind)));                                                 \
            QSKIP(qPrintable(                                                                      \
                QStringLiteral("this kernel cannot use %1 (the VM matrix tests it)").arg(kind)));  \
        }                                                                                          \
    } while (false)
