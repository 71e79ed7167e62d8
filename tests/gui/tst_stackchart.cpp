// The stack chart's boxes (issue #29, "stacks where you click"): from a hand-made set of
// samples with known stacks, which samples share a box and at which depth, where a box starts
// and ends, the threads' order, the process filters, what a visible range holds, and the call
// path a clicked box lists (through StackFramesModel, under QAbstractItemModelTester).
#include "gui/models/sessionmodel.h"
#include "gui/models/stackchartmodel.h"
#include "gui/models/stackframes.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace bpflens;

namespace {

constexpr quint64 T0 = 70'000'000'000ull;
constexpr quint64 P = 10'000'000ull; // 100 Hz

enum Frame : quint32
{
    Main = 1,
    A,
    B,
    C,
    Worker,
    Parse,
};

enum Stack : quint32
{
    MainA = 1,     // main → a
    MainAB,        // main → a → b
    MainCB,        // main → c → b: b again, under another caller
    WorkerOnly,    // worker
    TruncatedParse // parse, the unwinder stopped there
};

constexpr quint32 AppTid = 10;
constexpr quint32 WorkerTid = 21; // 4 samples
constexpr quint32 ParserTid = 22; // 5 samples

void addSample(SessionData &d, quint64 t, quint32 pid, quint32 tid, const char *comm, quint32 stack)
{
    CpuSampleEvent e;
    e.timeNs = t;
    e.pid = pid;
    e.tid = tid;
    e.comm = comm;
    e.stackId = stack;
    d.events.append(e);
}

// Thread "app" (TID 10): main→a ×3, main→a→b ×2, main→c→b ×2 at one sample per period, then
// an off-CPU wait of 2.5 periods in main→a, then main→a and a sample without a stack.
// "worker" (TID 21, PID 20): 4 samples of worker, one tick missed after the second.
// "worker" (TID 22, PID 20): 5 samples of a truncated stack.
SessionData session()
{
    SessionData d;
    d.info.schemaVersion = 1;
    d.info.startMonotonicNs = T0;
    d.info.endMonotonicNs = T0 + 20 * P;
    d.info.probes = {{QStringLiteral("profile"),
                      {{QStringLiteral("frequency"), 100}},
                      QStringLiteral("perf_event/cpu-clock")},
                     {QStringLiteral("offcpu"), {}, QStringLiteral("tp_btf/sched_switch")}};
    QString error;
    auto frame = [&](quint32 id, FrameKind kind, const char *symbol) {
        QVERIFY(d.stacks.add(
            FrameDefinition{id, StackFrame{kind, 0x100u * id, "/usr/bin/app", {}, symbol}},
            &error));
    };
    frame(Main, FrameKind::User, "main");
    frame(A, FrameKind::User, "a");
    frame(B, FrameKind::User, "b");
    frame(C, FrameKind::User, "c");
    frame(Worker, FrameKind::User, "worker");
    frame(Parse, FrameKind::User, "parse");
    auto stack = [&](quint32 id, quint8 flags, QList<quint32> frames) {
        QVERIFY(d.stacks.add(StackDefinition{id, flags, frames}, &error));
    };
    stack(MainA, 0, {A, Main});
    stack(MainAB, 0, {B, A, Main});
    stack(MainCB, 0, {B, C, Main});
    stack(WorkerOnly, 0, {Worker});
    stack(TruncatedParse, UserStackTruncated, {Parse});

    const quint32 appStacks[] = {MainA, MainA, MainA, MainAB, MainAB, MainCB, MainCB};
    for (int k = 0; k < 7; ++k)
        addSample(d, T0 + quint64(k) * P, 10, AppTid, "app", appStacks[k]);
    addSample(d, T0 + 10 * P, 10, AppTid, "app", MainA);
    addSample(d, T0 + 11 * P, 10, AppTid, "app", 0);
    for (int k : {0, 1, 3, 4})
        addSample(d, T0 + P / 2 + quint64(k) * P, 20, WorkerTid, "worker", WorkerOnly);
    for (int k = 0; k < 5; ++k)
        addSample(d, T0 + P / 4 + quint64(k) * P, 20, ParserTid, "worker", TruncatedParse);
    OffCpuEvent wait;
    wait.timeNs = T0 + 7 * P;
    wait.offNs = 5 * P / 2;
    wait.pid = 10;
    wait.tid = AppTid;
    wait.comm = "app";
    wait.stackId = MainA;
    d.events.append(wait);
    return d;
}

struct Expected
{
    quint64 start;
    quint64 end;
    quint32 frame;
    quint32 samples;
    bool operator==(const Expected &) const = default;
};

// The boxes of thread t at depth, as (start, end, frame, samples) relative to T0.
QList<Expected> boxes(const StackChartModel &m, int t, int depth)
{
    QList<Expected> out;
    if (depth >= int(m.thread(t).levels.size()))
        return out;
    for (const StackChartModel::Box &b : m.thread(t).levels[size_t(depth)])
        out.append({b.startNs - T0, b.endNs - T0, b.frame, b.samples});
    return out;
}

int threadIndex(const StackChartModel &m, quint32 tid)
{
    for (int t = 0; t < m.threadCount(); ++t) {
        if (m.thread(t).tid == tid)
            return t;
    }
    return -1;
}

} // namespace

namespace QTest {
template<>
char *toString(const Expected &e)
{
    return qstrdup(QByteArray("[" + QByteArray::number(e.start) + ", " + QByteArray::number(e.end) +
                              ") frame " + QByteArray::number(e.frame) + " samples " +
                              QByteArray::number(e.samples))
                       .constData());
}
} // namespace QTest

class TestStackChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void samplingPeriod()
    {
        SessionModel s;
        s.setSession(session());
        QCOMPARE(StackChartModel::samplingPeriodNs(s.info()), P);
        // A session that does not say: the probe's default, 99 Hz.
        QCOMPARE(StackChartModel::samplingPeriodNs(SessionInfo{}), 1'000'000'000ull / 99);
    }

    void consecutiveSamplesMergeAlongTheirCallPath()
    {
        SessionModel s;
        s.setSession(session());
        StackChartModel m;
        m.build(s, {-1, {}, false});
        const int app = threadIndex(m, AppTid);
        QVERIFY(app >= 0);
        QCOMPARE(m.thread(app).samples, qsizetype(9));
        // Depth 0: main through the first seven samples, to the seventh plus a period; the
        // sample four periods later (the thread did not run between) starts a box of its own;
        // the sample without a stack is a box of its own too.
        QCOMPARE(boxes(m, app, 0),
                 (QList<Expected>{
                     {0, 7 * P, Main, 7}, {10 * P, 11 * P, Main, 1}, {11 * P, 12 * P, 0, 1}}));
        // Depth 1: a under main for five samples, c for two, a again.
        QCOMPARE(boxes(m, app, 1),
                 (QList<Expected>{{0, 5 * P, A, 5}, {5 * P, 7 * P, C, 2}, {10 * P, 11 * P, A, 1}}));
        // Depth 2: b twice, not one box: its caller changed from a to c in between.
        QCOMPARE(boxes(m, app, 2), (QList<Expected>{{3 * P, 5 * P, B, 2}, {5 * P, 7 * P, B, 2}}));
        QCOMPARE(m.thread(app).levels.size(), size_t(3));
    }

    void oneMissedTickStillMerges()
    {
        SessionModel s;
        s.setSession(session());
        StackChartModel m;
        m.build(s, {-1, {}, false});
        const int worker = threadIndex(m, WorkerTid);
        QVERIFY(worker >= 0);
        // Samples at 0.5, 1.5, 3.5 and 4.5 periods: two periods apart at most, one box.
        QCOMPARE(boxes(m, worker, 0), (QList<Expected>{{P / 2, P / 2 + 5 * P, Worker, 4}}));
    }

    void truncatedStacksStandOnAMarker()
    {
        SessionModel s;
        s.setSession(session());
        StackChartModel m;
        m.build(s, {});
        const int parser = threadIndex(m, ParserTid);
        QVERIFY(parser >= 0);
        QCOMPARE(boxes(m, parser, 0),
                 (QList<Expected>{{P / 4, P / 4 + 5 * P, StackChartModel::TruncatedFrame, 5}}));
        QCOMPARE(boxes(m, parser, 1), (QList<Expected>{{P / 4, P / 4 + 5 * P, Parse, 5}}));
    }

    void offCpuWaitsAreBoxesOfTheirStack()
    {
        SessionModel s;
        s.setSession(session());
        StackChartModel m;
        m.build(s, {});
        const int app = threadIndex(m, AppTid);
        QCOMPARE(m.thread(app).waits, qsizetype(1));
        // The wait is its own box, as long as it lasted; the samples around it do not merge
        // across it.
        QCOMPARE(boxes(m, app, 0), (QList<Expected>{{0, 7 * P, Main, 7},
                                                    {7 * P, 7 * P + 5 * P / 2, Main, 0},
                                                    {10 * P, 11 * P, Main, 1},
                                                    {11 * P, 12 * P, 0, 1}}));
        QCOMPARE(boxes(m, app, 1), (QList<Expected>{{0, 5 * P, A, 5},
                                                    {5 * P, 7 * P, C, 2},
                                                    {7 * P, 7 * P + 5 * P / 2, A, 0},
                                                    {10 * P, 11 * P, A, 1}}));
        const qsizetype wait = m.boxAt(app, 1, T0 + 8 * P);
        QCOMPARE(wait, qsizetype(2));
        QVERIFY(m.firstItem(app, 1, wait).isOffCpu());
    }

    void threadsByTheirSampleCount()
    {
        SessionModel s;
        s.setSession(session());
        StackChartModel m;
        m.build(s, {});
        QCOMPARE(m.threadCount(), 3);
        // 9, 5 and 4 samples: the parser thread before the worker despite its higher TID.
        QCOMPARE(m.thread(0).tid, AppTid);
        QCOMPARE(m.thread(1).tid, ParserTid);
        QCOMPARE(m.thread(2).tid, WorkerTid);
        QCOMPARE(m.thread(1).comm, QByteArray("worker"));
        QCOMPARE(m.thread(1).pid, 20u);
    }

    void followsTheProcessFilters()
    {
        SessionModel s;
        s.setSession(session());
        StackChartModel m;
        m.build(s, {20, {}, true});
        QCOMPARE(m.threadCount(), 2);
        QCOMPARE(m.thread(0).tid, ParserTid);
        QCOMPARE(m.thread(1).tid, WorkerTid);
        m.build(s, {-1, "app", true});
        QCOMPARE(m.threadCount(), 1);
        QCOMPARE(m.thread(0).tid, AppTid);
        QCOMPARE(m.thread(0).waits, qsizetype(1));
        m.build(s, {12345, {}, true});
        QVERIFY(m.isEmpty());
    }

    void visibleRangeQueries()
    {
        SessionModel s;
        s.setSession(session());
        StackChartModel m;
        m.build(s, {});
        // The first period: every thread ran.
        QCOMPARE(m.threadsIn(T0, T0 + P), (QList<int>{0, 1, 2}));
        // After the workers stopped: only app, two boxes deep (main → a, then no stack).
        QCOMPARE(m.threadsIn(T0 + 10 * P, T0 + 12 * P), (QList<int>{0}));
        QCOMPARE(m.depthIn(0, T0 + 10 * P, T0 + 12 * P), 2);
        QCOMPARE(m.boxesIn(0, 0, T0 + 10 * P, T0 + 12 * P),
                 (std::pair<qsizetype, qsizetype>(2, 4)));
        // Where b runs the band is three deep.
        QCOMPARE(m.depthIn(0, T0 + 3 * P, T0 + 4 * P), 3);
        // A range ending where a box starts does not hold it; one starting where it ends
        // neither.
        QCOMPARE(m.boxesIn(0, 2, T0, T0 + 3 * P), (std::pair<qsizetype, qsizetype>(0, 0)));
        QCOMPARE(m.boxesIn(0, 2, T0 + 7 * P, T0 + 9 * P), (std::pair<qsizetype, qsizetype>(2, 2)));
        QCOMPARE(m.boxAt(0, 2, T0 + 5 * P), qsizetype(1));
        QCOMPARE(m.boxAt(0, 2, T0 + 8 * P), qsizetype(-1));
        QVERIFY(m.threadsIn(T0 + 13 * P, T0 + 20 * P).isEmpty());
        // The first box at depth 0 that ends after 6 periods is main's first.
        QCOMPARE(m.firstEndingAfter(0, 0, T0 + 6 * P), qsizetype(0));
        QCOMPARE(m.firstEndingAfter(0, 0, T0 + 7 * P), qsizetype(1));
    }

    void aBoxListsItsCallPath()
    {
        SessionModel s;
        s.setSession(session());
        StackChartModel m;
        m.build(s, {});
        quint8 flags = 0xff;
        // b under c: b, then its callers, leaf first.
        QCOMPARE(m.boxFrames(0, 2, 1, &flags), (QList<quint32>{B, C, Main}));
        QCOMPARE(flags, quint8(0));
        QCOMPARE(m.boxFrames(0, 1, 0), (QList<quint32>{A, Main}));
        QCOMPARE(m.boxFrames(1, 1, 0, &flags), (QList<quint32>{Parse}));
        QCOMPARE(flags, quint8(UserStackTruncated));

        StackFramesModel frames;
        QAbstractItemModelTester tester(&frames,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        frames.setFrames(&s.stacks(), m.boxFrames(0, 2, 1), 0);
        QCOMPARE(frames.rowCount(), 3);
        QCOMPARE(frames.index(0, StackFramesModel::FunctionColumn).data().toString(),
                 QStringLiteral("b"));
        QVERIFY(frames.index(0, 0).data(StackFramesModel::IsKeyFrameRole).toBool());
        QCOMPARE(frames.index(2, StackFramesModel::FunctionColumn).data().toString(),
                 QStringLiteral("main"));
        // A truncated stack says so below its last frame.
        frames.setFrames(&s.stacks(), m.boxFrames(1, 1, 0, &flags), flags);
        QCOMPARE(frames.rowCount(), 2);
        QVERIFY(frames.index(1, 0).data(StackFramesModel::IsMarkerRole).toBool());
        frames.clear();
        QCOMPARE(frames.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestStackChart)
#include "tst_stackchart.moc"
