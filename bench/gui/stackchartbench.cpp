// The stack chart's cost on a large synthetic profile: merging 1M samples into boxes once per
// filter against the flame graph's aggregation of the same samples (the ratio is the result;
// absolute times depend on the machine), the boxes it keeps, and a redraw of the chart zoomed
// out and zoomed in. Usage: bpflens_stackchart_bench [samples] [threads] (QT_QPA_PLATFORM=
// offscreen). Samples run in bursts: a thread stays in one call path for a few samples, its
// leaf changes more often than its callers, as a sampled program's does.
#include "gui/models/profilemodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/stackchartmodel.h"
#include "gui/models/viewstate.h"
#include "gui/stackchartview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QRandomGenerator>

#include <cstdio>
#include <vector>

using namespace bpflens;

namespace {

constexpr quint64 Start = 1'000'000'000'000ull;
constexpr quint64 Period = 10'101'010ull; // 99 Hz

SessionData makeSession(int samples, int threads)
{
    QRandomGenerator rng(11);
    SessionData d;
    d.info.startMonotonicNs = Start;
    d.info.probes = {{QStringLiteral("profile"), {}, QStringLiteral("perf_event")}};
    QString error;
    const int functions = 5000;
    for (int f = 1; f <= functions; ++f) {
        const bool kernel = f % 5 == 0;
        d.stacks.add(
            FrameDefinition{quint32(f), StackFrame{kernel ? FrameKind::Kernel : FrameKind::User,
                                                   quint64(f) * 64,
                                                   kernel ? QByteArray("vmlinux")
                                                          : QByteArray("/usr/lib/libapp.so"),
                                                   {},
                                                   "app::Function" + QByteArray::number(f)}},
            &error);
    }
    // Per thread a random walk over call paths 10 to 40 deep: each sample keeps its
    // predecessor's path, or pops a few frames and pushes others.
    std::vector<QList<quint32>> paths(static_cast<size_t>(threads));
    for (auto &p : paths)
        for (int k = 0; k < 10; ++k)
            p << quint32(1 + rng.bounded(functions));
    QHash<QList<quint32>, quint32> ids;
    const int perThread = samples / threads;
    d.events.reserve(EventType::CpuSample, samples);
    for (int i = 0; i < perThread; ++i) {
        for (int t = 0; t < threads; ++t) {
            QList<quint32> &p = paths[size_t(t)];
            if (rng.bounded(3) != 0) {
                const int pop = std::min(int(p.size()) - 5, int(rng.bounded(6)));
                p.resize(p.size() - pop);
                const int push = int(rng.bounded(7));
                for (int k = 0; k < push && p.size() < 40; ++k)
                    p << quint32(1 + rng.bounded(functions));
            }
            QList<quint32> leafFirst(p.crbegin(), p.crend());
            quint32 id = ids.value(leafFirst);
            if (!id) {
                id = quint32(ids.size() + 1);
                ids.insert(leafFirst, id);
                d.stacks.add(StackDefinition{id, 0, leafFirst}, &error);
            }
            CpuSampleEvent e;
            e.timeNs = Start + quint64(i) * Period + quint64(t) * 1000;
            e.cpu = quint32(t % 2);
            e.pid = 1000 + quint32(t / 4);
            e.tid = 2000 + quint32(t);
            e.comm = "app";
            e.stackId = id;
            d.events.append(e);
        }
    }
    d.info.endMonotonicNs = Start + quint64(perThread) * Period;
    return d;
}

double ms(QElapsedTimer &t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const int samples = argc > 1 ? atoi(argv[1]) : 1'000'000;
    const int threads = argc > 2 ? atoi(argv[2]) : 16;
    SessionModel session;
    session.setSession(makeSession(samples, threads));
    std::printf("%d samples, %d threads, %lld stacks\n", samples, threads,
                qlonglong(session.stacks().stackCount()));

    QElapsedTimer t;
    t.start();
    qsizetype events = 0;
    const StackWeights weights = aggregateStacks(session, {}, &events);
    const double aggregate = ms(t);
    t.restart();
    StackChartModel model;
    model.build(session, {});
    const double merge = ms(t);
    qsizetype boxes = 0;
    for (int k = 0; k < model.threadCount(); ++k)
        for (const auto &level : model.thread(k).levels)
            boxes += qsizetype(level.size());
    std::printf("flame graph aggregation %.1f ms, stack chart merge %.1f ms (%.1fx); %lld boxes "
                "(%.1f per sample, %.0f MB)\n",
                aggregate, merge, merge / aggregate, qlonglong(boxes), double(boxes) / samples,
                double(boxes) * sizeof(StackChartModel::Box) / 1e6);

    ViewState state;
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());
    StackChartView view(&session, &state);
    view.resize(1366, 700);
    view.show();
    view.refresh();
    QImage image(view.plot()->size(), QImage::Format_ARGB32_Premultiplied);
    auto paint = [&](const char *what) {
        QElapsedTimer p;
        p.start();
        const int reps = 5;
        for (int r = 0; r < reps; ++r)
            view.plot()->render(&image);
        std::printf("redraw %s: %.1f ms\n", what, ms(p) / reps);
    };
    paint("whole session");
    const quint64 mid = session.firstTimeNs() + (session.endTimeNs() - session.firstTimeNs()) / 2;
    state.setRange(mid, mid + 2'000'000'000ull);
    paint("2 s");
    state.setRange(mid, mid + 50'000'000ull);
    paint("50 ms");
    return 0;
}
