#pragma once

// Tests of the fentry and kprobe paths. This development machine has neither (they skip here,
// saying why); the VM matrix sets BPFLENS_TEST_HOOKS=fentry,kprobe on kernels that have both, so
// there a missing path is a failure, never a silent skip.
#include "helper/kernelfeatures.h"

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

// Whether a program can tell which site of a USDT probe fired (BPF attach cookies, Linux 5.15):
// without them, a probe whose sites keep their arguments differently is refused.
inline bool kernelTellsUsdtSitesApart()
{
    KernelFeatures kernel;
    qint64 id = 0;
    return kernel.enumValue(QStringLiteral("BPF_FUNC_get_attach_cookie"), &id);
}

inline const QString &usdtSitesRefusal()
{
    static const QString text = QStringLiteral("cannot tell a program which site fired");
    return text;
}

} // namespace bpflens::test

// A test of a USDT probe whose sites differ, on a kernel without attach cookies: the recording
// must have been refused with the reason (ok false, error naming it); then there is nothing
// more to check here (the VM matrix's 6.1 and 6.12 run the rest).
#define BPFLENS_USDT_SITES_REFUSED(ok, error)                                                      \
    do {                                                                                           \
        if (!bpflens::test::kernelTellsUsdtSitesApart()) {                                         \
            QVERIFY2(!(ok), "a USDT probe with differing sites ran without attach cookies");       \
            QVERIFY2((error).contains(bpflens::test::usdtSitesRefusal()), qPrintable(error));      \
            QSKIP("this kernel has no BPF attach cookies (5.15): checked that the probe is "       \
                  "refused with the reason");                                                      \
        }                                                                                          \
    } while (false)

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
