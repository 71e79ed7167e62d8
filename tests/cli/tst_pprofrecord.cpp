// A real profile through pprof (root: loads the profile and offcpu probes): bpflens-cli records
// every CPU while callchain_fp and callchain_nofp spin in main -> chain_a -> chain_b -> chain_c
// -> leaf_spin and sleepchain sleeps in main -> sleep_a -> sleep_b -> nap; export --pprof writes
// the profile, and the real `go tool pprof` (-top, -raw, -traces) must show those functions with
// the shares BPF Lens's own flame graph and function list give them (core/callgraph), within
// 3 points, machine-wide and for one process; the off-CPU profile likewise.
#include "tests/clirun.h"
#include "tests/gopprof.h"
#include "tests/testutil.h"

#include "core/callgraph.h"
#include "core/sessionstore.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace bpflens;
using namespace bpflens::test;

namespace {

CliRun cli(const QStringList &args)
{
    return runCli(QStringLiteral(BPFLENS_CLI), args);
}

// The shares (% of all the weights) of each function name: BPF Lens's function list (self,
// total) and its flame graph (the width of every box of that name, summed: a name is on one
// path per process here). The names compared occur once per stack, so summing over the frames
// of the two programs is the share pprof gives the name.
struct Own
{
    double self = 0;
    double total = 0;
    double flame = 0;
};
QHash<QByteArray, Own> ownShares(const StackTable &stacks, const StackWeights &w)
{
    QHash<QByteArray, Own> shares;
    const double all = double(w.total());
    for (const FunctionCost &c : functionCosts(stacks, w)) {
        Own &o = shares[stacks.frame(c.frame).symbol];
        o.self += 100.0 * double(c.self) / all;
        o.total += 100.0 * double(c.total) / all;
    }
    const CallTree tree = CallTree::build(stacks, w, CallTree::Direction::TopDown, StackPart::Both,
                                          /*markTruncated=*/true);
    for (qint32 i = 1; i < tree.size(); ++i) {
        const CallTree::Node &n = tree.node(i);
        if (stacks.hasFrame(n.frame))
            shares[stacks.frame(n.frame).symbol].flame += 100.0 * double(n.total) / all;
    }
    return shares;
}

template<typename E>
StackWeights weightsOf(const SessionData &d, qint64 pid)
{
    StackWeights w;
    const qsizetype n = d.events.count(eventTypeOf<E>);
    for (qsizetype i = 0; i < n; ++i) {
        if (pid >= 0 && qint64(d.events.value<&E::pid>(i)) != pid)
            continue;
        if constexpr (std::is_same_v<E, OffCpuEvent>)
            w.add(d.events.value<&E::stackId>(i), d.events.value<&E::offNs>(i));
        else
            w.add(d.events.value<&E::stackId>(i), 1);
    }
    return w;
}

// Every name's -top flat% and cum% within 3 points of BPF Lens's self and total, and cum% of
// its flame graph width.
QString compare(const QHash<QString, TopRow> &rows, const QHash<QByteArray, Own> &own,
                const QList<QByteArray> &names, bool checkSelf)
{
    QString problems;
    for (const QByteArray &name : names) {
        const Own o = own.value(name);
        const auto row = rows.constFind(QString::fromUtf8(name));
        if (row == rows.constEnd()) {
            problems += QStringLiteral("%1 is not in -top (BPF Lens: total %2%)\n")
                            .arg(QString::fromUtf8(name))
                            .arg(o.total);
            continue;
        }
        qInfo("%s: pprof flat %.2f%% cum %.2f%%, BPF Lens self %.2f%% total %.2f%% flame graph "
              "%.2f%%",
              name.constData(), row->flatPercent, row->cumPercent, o.self, o.total, o.flame);
        if ((checkSelf && qAbs(row->flatPercent - o.self) > 3) ||
            qAbs(row->cumPercent - o.total) > 3 || qAbs(row->cumPercent - o.flame) > 3)
            problems += QStringLiteral("%1: pprof flat %2% cum %3%, BPF Lens self %4% total %5% "
                                       "flame graph %6%\n")
                            .arg(QString::fromUtf8(name))
                            .arg(row->flatPercent)
                            .arg(row->cumPercent)
                            .arg(o.self)
                            .arg(o.total)
                            .arg(o.flame);
    }
    return problems;
}

} // namespace

class TestPprofRecord : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realProfileReadByGoToolPprof();
};

void TestPprofRecord::realProfileReadByGoToolPprof()
{
    BPFLENS_REQUIRE_ROOT("records the profile and offcpu probes in-process");
    if (goTool().isEmpty()) {
        if (qEnvironmentVariableIsSet("CI"))
            QFAIL("go is missing (Debian package golang-go; see .ci/deps --tests)");
        QSKIP("go tool pprof is not installed (Debian package golang-go)");
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString session = dir.filePath(QStringLiteral("real.bpflens"));
    QProcess recorder;
    recorder.start(QStringLiteral(BPFLENS_CLI),
                   {QStringLiteral("record"), QStringLiteral("--direct"), QStringLiteral("--probe"),
                    QStringLiteral("profile"), QStringLiteral("--probe"), QStringLiteral("offcpu"),
                    QStringLiteral("-o"), session});
    for (int i = 0; i < 3000 && !QFile::exists(session) && recorder.state() != QProcess::NotRunning;
         ++i)
        QTest::qWait(20);
    QVERIFY2(QFile::exists(session), recorder.readAllStandardError().constData());
    const QString programs = QStringLiteral(BPFLENS_TEST_PROGRAMS);
    // The sleeper first, alone, for 3 s: a process's frames get names only if it still runs
    // when the recorder decodes its first event, and the recorder's first drains, which resolve
    // the first stacks of every running process, took over a second under ASan here (its events
    // all decoded after it had exited; 20 naps of 50 ms failed one run in two, #35).
    QProcess sleeper, fp, nofp;
    sleeper.start(QStringLiteral(BPFLENS_SLEEPCHAIN), {QStringLiteral("60"), QStringLiteral("50")});
    QVERIFY(sleeper.waitForStarted());
    QVERIFY(sleeper.waitForFinished(60000));
    QCOMPARE(sleeper.exitCode(), 0);
    fp.start(programs + QStringLiteral("/callchain_fp"), {QStringLiteral("3")});
    nofp.start(programs + QStringLiteral("/callchain_nofp"), {QStringLiteral("3")});
    for (QProcess *p : {&fp, &nofp}) {
        QVERIFY(p->waitForStarted());
        QVERIFY(p->waitForFinished(60000));
        QCOMPARE(p->exitCode(), 0);
    }
    ::kill(pid_t(recorder.processId()), SIGINT);
    QVERIFY(recorder.waitForFinished(60000));
    QVERIFY2(recorder.exitCode() == 0, recorder.readAllStandardError().constData());

    SessionData data;
    QString error;
    QVERIFY2(SessionReader::open(session, &data, &error), qPrintable(error));
    // QProcess forgets the pid once the process is gone: the programs' own samples name them.
    qint64 fpProcess = -1, nofpProcess = -1, sleepProcess = -1;
    for (qsizetype i = 0; i < data.events.count(EventType::CpuSample); ++i) {
        const QByteArray &comm = data.events.value<&CpuSampleEvent::comm>(i);
        if (comm == "callchain_fp")
            fpProcess = data.events.value<&CpuSampleEvent::pid>(i);
        if (comm == "callchain_nofp")
            nofpProcess = data.events.value<&CpuSampleEvent::pid>(i);
    }
    for (qsizetype i = 0; i < data.events.count(EventType::OffCpu); ++i) {
        if (data.events.value<&OffCpuEvent::comm>(i) == "sleepchain")
            sleepProcess = data.events.value<&OffCpuEvent::pid>(i);
    }
    QVERIFY2(fpProcess > 0 && nofpProcess > 0 && sleepProcess > 0,
             "the recording has no samples of the test programs");

    const QList<QByteArray> chain{"leaf_spin", "chain_c", "chain_b", "chain_a"};
    // Machine-wide: everything the machine ran (other builds included); the chain's functions
    // with the same shares as BPF Lens's.
    const QString all = dir.filePath(QStringLiteral("all.pb.gz"));
    CliRun r = cli({QStringLiteral("export"), session, QStringLiteral("--pprof"), all});
    QVERIFY2(r.status == 0, r.err.constData());
    PprofRun top =
        goPprof({QStringLiteral("-top"), QStringLiteral("-sample_index=samples"), all}, dir.path());
    QVERIFY2(top.status == 0, qPrintable(top.said()));
    QHash<QByteArray, Own> own = ownShares(data.stacks, weightsOf<CpuSampleEvent>(data, -1));
    QVERIFY2(own.value("leaf_spin").self > 0, "no sample in leaf_spin");
    QString problems = compare(parseTop(top.out), own, chain, true);
    QVERIFY2(problems.isEmpty(), qPrintable(problems + QString::fromUtf8(top.out.left(3000))));
    // The default view (CPU time) shows the same shares.
    top = goPprof({QStringLiteral("-top"), all}, dir.path());
    QVERIFY2(top.out.contains("Type: cpu\n"), top.out.constData());
    problems = compare(parseTop(top.out), own, chain, true);
    QVERIFY2(problems.isEmpty(), qPrintable(problems));

    // One process, callchain_fp: main and the chain hold nearly every sample.
    const QString one = dir.filePath(QStringLiteral("fp.pb.gz"));
    r = cli({QStringLiteral("export"), session, QStringLiteral("--pprof"), one,
             QStringLiteral("--pid"), QString::number(fpProcess)});
    QVERIFY2(r.status == 0, r.err.constData());
    top =
        goPprof({QStringLiteral("-top"), QStringLiteral("-sample_index=samples"), one}, dir.path());
    QVERIFY2(top.status == 0, qPrintable(top.said()));
    own = ownShares(data.stacks, weightsOf<CpuSampleEvent>(data, fpProcess));
    problems = compare(parseTop(top.out), own, chain + QList<QByteArray>{"main"}, true);
    QVERIFY2(problems.isEmpty(), qPrintable(problems + QString::fromUtf8(top.out)));
    QVERIFY2(parseTop(top.out).value(QStringLiteral("chain_a")).cumPercent > 80,
             top.out.constData());

    // -raw: the program's mapping with its build id and the sample's labels. (A process that
    // only spins in user code may have no kernel frame: the kernel's mapping is checked in the
    // off-CPU profile below, where every wait has one.)
    const PprofRun raw = goPprof({QStringLiteral("-raw"), one}, dir.path());
    QVERIFY2(raw.status == 0, qPrintable(raw.said()));
    QByteArray buildId;
    for (qsizetype f = 1; f <= data.stacks.frameCount(); ++f) {
        if (data.stacks.frame(quint32(f)).symbol == "leaf_spin" &&
            data.stacks.frame(quint32(f)).module.endsWith("/callchain_fp"))
            buildId = data.stacks.frame(quint32(f)).buildId;
    }
    QVERIFY(!buildId.isEmpty());
    for (const QByteArray &expected :
         {programs.toUtf8() + "/callchain_fp " + buildId + " [FN]",
          "pid:[" + QByteArray::number(fpProcess) + "]", QByteArray("comm:[callchain_fp]")}) {
        QVERIFY2(raw.out.contains(expected),
                 qPrintable(QString::fromUtf8(expected) + QLatin1Char('\n') +
                            QString::fromUtf8(raw.out.left(4000))));
    }

    // -traces: callchain_nofp, unwound by CFI alone, with its whole chain leaf first.
    const PprofRun traces = goPprof({QStringLiteral("-traces"), all}, dir.path());
    QVERIFY2(traces.status == 0, qPrintable(traces.said()));
    bool chainSeen = false;
    for (const Trace &t : parseTraces(traces.out)) {
        if (t.labels.value(QStringLiteral("comm")) != QLatin1String("callchain_nofp") ||
            t.labels.value(QStringLiteral("pid")) != QString::number(nofpProcess))
            continue;
        const qsizetype leaf = t.frames.indexOf(QStringLiteral("leaf_spin"));
        chainSeen =
            chainSeen ||
            (leaf >= 0 && t.frames.mid(leaf, 5) ==
                              QStringList{QStringLiteral("leaf_spin"), QStringLiteral("chain_c"),
                                          QStringLiteral("chain_b"), QStringLiteral("chain_a"),
                                          QStringLiteral("main")});
    }
    QVERIFY2(chainSeen, traces.out.left(4000).constData());

    // Off-CPU, sleepchain's process: its time in main -> sleep_a -> sleep_b -> nap.
    const QString off = dir.filePath(QStringLiteral("off.pb.gz"));
    r = cli({QStringLiteral("export"), session, QStringLiteral("--pprof"), off,
             QStringLiteral("--probe"), QStringLiteral("offcpu"), QStringLiteral("--pid"),
             QString::number(sleepProcess)});
    QVERIFY2(r.status == 0, r.err.constData());
    top = goPprof({QStringLiteral("-top"), off}, dir.path());
    QVERIFY2(top.status == 0, qPrintable(top.said()));
    QVERIFY2(top.out.contains("Type: off_cpu\n"), top.out.constData());
    own = ownShares(data.stacks, weightsOf<OffCpuEvent>(data, sleepProcess));
    problems = compare(parseTop(top.out), own, {"nap", "sleep_b", "sleep_a", "main"}, false);
    if (!problems.isEmpty()) {
        // What the recording holds of the process's waits (a parallel suite's run once had no
        // user frame named in any of them): their stacks' flags and frames, and the probe's
        // losses.
        qint64 waits = 0, noUser = 0, framePointers = 0, named = 0, unnamed = 0;
        for (qsizetype i = 0; i < data.events.count(EventType::OffCpu); ++i) {
            if (data.events.value<&OffCpuEvent::pid>(i) != quint32(sleepProcess))
                continue;
            ++waits;
            const StackDefinition &st =
                data.stacks.stack(data.events.value<&OffCpuEvent::stackId>(i));
            noUser += bool(st.flags & NoUserStack);
            framePointers += bool(st.flags & UserFramePointers);
            for (quint32 f : st.frames) {
                const StackFrame &frame = data.stacks.frame(f);
                if (frame.kind == FrameKind::User)
                    (frame.symbol.isEmpty() ? unnamed : named) += 1;
            }
        }
        QStringList counters;
        for (const CounterSample &c : std::as_const(data.counters))
            if (c.probeId == QLatin1String("offcpu") && c.value)
                counters << QStringLiteral("%1 %2").arg(c.name).arg(c.value);
        qInfo("sleepchain %lld: %lld waits, %lld without a user stack, %lld by frame pointers; "
              "user frames %lld named, %lld not; offcpu counters: %s",
              sleepProcess, waits, noUser, framePointers, named, unnamed,
              qPrintable(counters.join(QStringLiteral(", "))));
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems + QString::fromUtf8(top.out)));
    QVERIFY2(parseTop(top.out).value(QStringLiteral("sleep_a")).cumPercent > 80,
             top.out.constData());
    // The waits' kernel frames, in the kernel's mapping.
    const PprofRun offRaw = goPprof({QStringLiteral("-raw"), off}, dir.path());
    QVERIFY2(offRaw.status == 0, qPrintable(offRaw.said()));
    static const QRegularExpression kernelMapping(
        QStringLiteral("\\n(\\d+): 0xffff\\S+ \\[kernel\\.kallsyms\\]"));
    const auto m = kernelMapping.match(QString::fromUtf8(offRaw.out));
    QVERIFY2(m.hasMatch(), offRaw.out.constData());
    QVERIFY2(QRegularExpression(QStringLiteral(" M=%1 (__)?schedule\\b").arg(m.captured(1)))
                 .match(QString::fromUtf8(offRaw.out))
                 .hasMatch(),
             offRaw.out.constData());
}

QTEST_MAIN(TestPprofRecord)
#include "tst_pprofrecord.moc"
