// Proves the build pipeline end to end: vmlinux.h generated from BTF, a CO-RE object compiled
// by clang, a bpftool skeleton compiled as C++, loaded into the running kernel and attached.
#include "selftest.skel.h"
#include "tests/testutil.h"

#include <QProcess>
#include <QTest>

#include <unistd.h>

class TestBpfPipeline : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void skeletonLoadsAttachesAndCounts()
    {
        BPFLENS_REQUIRE_ROOT("loads a BPF program");
        selftest_bpf *skel = selftest_bpf__open();
        QVERIFY2(skel, "selftest_bpf__open failed");
        skel->rodata->target_ppid = getpid();
        QCOMPARE(selftest_bpf__load(skel), 0);
        QCOMPARE(selftest_bpf__attach(skel), 0);

        const int runs = 5;
        for (int i = 0; i < runs; ++i)
            QCOMPARE(QProcess::execute(QStringLiteral("/bin/true"), {}), 0);

        const auto count = __atomic_load_n(&skel->bss->exec_count, __ATOMIC_RELAXED);
        selftest_bpf__destroy(skel);
        QCOMPARE(count, quint64(runs));
    }
};

QTEST_GUILESS_MAIN(TestBpfPipeline)
#include "tst_bpfpipeline.moc"
