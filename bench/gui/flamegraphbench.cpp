// The profile views' cost on a large synthetic profile (issue #13's goal: 1M samples over 100k
// distinct stacks; a flame graph redraw under 50 ms, re-aggregating for a new time range under
// 200 ms). Usage: bpflens_flamegraph_bench [samples] [stacks]   (QT_QPA_PLATFORM=offscreen)
#include "gui/flamegraphview.h"
#include "gui/models/profilemodels.h"
#include "gui/models/sessionmodel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QRandomGenerator>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace bpflens;

namespace {

constexpr quint64 Start = 1'000'000'000'000ull;
constexpr quint64 Span = 60'000'000'000ull; // a minute of samples

// Stacks that share their callers as real ones do: each one extends a shorter stack made
// earlier by one to four frames, so the tree branches near the leaves and the distinct stacks
// are as deep as programs' (10 to 60 frames).
SessionData makeSession(int samples, int stacks)
{
    QRandomGenerator rng(7);
    SessionData d;
    d.info.startMonotonicNs = Start;
    d.info.endMonotonicNs = Start + Span;
    QString error;
    const int functions = 20000;
    for (int f = 1; f <= functions; ++f) {
        const bool kernel = f % 5 == 0;
        StackFrame frame{kernel ? FrameKind::Kernel : FrameKind::User,
                         quint64(f) * 64,
                         kernel ? QByteArray("vmlinux") : QByteArray("/usr/lib/libapp.so"),
                         {},
                         (kernel ? "k_func_" : "app::Function") + QByteArray::number(f)};
        d.stacks.add(FrameDefinition{quint32(f), frame}, &error);
    }
    std::vector<QList<quint32>> rootFirst;
    rootFirst.reserve(size_t(stacks));
    for (int s = 0; s < stacks; ++s) {
        QList<quint32> frames;
        if (s < 50 || rootFirst.empty()) {
            for (int k = 0; k < 8; ++k)
                frames << quint32(1 + rng.bounded(functions));
        } else {
            // Prefer extending recent, shallower stacks.
            frames = rootFirst[size_t(rng.bounded(int(rootFirst.size())))];
            if (frames.size() > 55)
                frames.resize(20);
            const int extra = 1 + int(rng.bounded(4));
            for (int k = 0; k < extra; ++k)
                frames << quint32(1 + rng.bounded(functions));
        }
        rootFirst.push_back(frames);
        QList<quint32> leafFirst(frames.crbegin(), frames.crend());
        d.stacks.add(StackDefinition{quint32(s + 1), quint8(s % 97 == 0 ? UserStackTruncated : 0),
                                     leafFirst},
                     &error);
    }
    // A skewed choice: a few hot stacks, a long tail, every stack used at least once.
    d.events.reserve(EventType::CpuSample, samples);
    for (int i = 0; i < samples; ++i) {
        CpuSampleEvent e;
        e.timeNs = Start + quint64(double(i) / samples * double(Span));
        e.cpu = quint32(i % 8);
        e.pid = 1000 + quint32(rng.bounded(20));
        e.tid = e.pid;
        e.comm = "app";
        const double u = rng.generateDouble();
        e.stackId = i < stacks ? quint32(i + 1) : quint32(1 + int(u * u * u * stacks) % stacks);
        d.events.append(e);
    }
    // Off-CPU waits and the same waits as off-wake ones, each woken from another of the
    // stacks by one of a few wakers: the off-wake profile against the off-CPU one it extends.
    // (A waker drawn from every stack makes each wait's path its own: a tree of a million
    // nodes, 45 times the off-CPU profile's time.)
    const int waits = samples / 10;
    d.events.reserve(EventType::OffCpu, waits);
    d.events.reserve(EventType::OffWake, waits);
    for (int i = 0; i < waits; ++i) {
        const double u = rng.generateDouble();
        OffWakeEvent w;
        w.timeNs = Start + quint64(double(i) / waits * double(Span));
        w.offNs = 1000 + rng.bounded(10'000'000);
        w.pid = w.tid = 1000 + quint32(rng.bounded(20));
        w.comm = "app";
        w.stackId = quint32(1 + int(u * u * u * stacks) % stacks);
        w.wakerPid = w.wakerTid = 2000 + quint32(rng.bounded(8));
        w.wakerComm = "waker" + QByteArray::number(w.wakerPid % 4);
        // Wakers are fewer than the places that wait (a pipe's writer, a lock's holder, a
        // timer): one of 500 stacks, a few of them hot.
        const double v = rng.generateDouble();
        w.wakerStackId = quint32(1 + int(v * v * 500) % stacks);
        w.wakeNs = w.timeNs + w.offNs;
        d.events.append(OffCpuEvent{w.timeNs, w.offNs, w.pid, w.tid, w.stackId, w.comm, 0});
        d.events.append(w);
    }
    return d;
}

template<typename F>
double medianMs(int runs, F &&f)
{
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
        QElapsedTimer t;
        t.start();
        f();
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    const int samples = argc > 1 ? atoi(argv[1]) : 1'000'000;
    const int stacks = argc > 2 ? atoi(argv[2]) : 100'000;
    SessionModel session;
    session.setSession(makeSession(samples, stacks));
    std::printf("%d samples, %lld distinct stacks, %lld frames\n", samples,
                qlonglong(session.stacks().stackCount()), qlonglong(session.stacks().frameCount()));

    ProfileQuery all;
    ProfileQuery half;
    half.startNs = Start + Span / 4;
    half.endNs = Start + 3 * Span / 4;
    const int runs = 5;
    std::shared_ptr<const Profile> profile;
    // What the page does: a ProfileBuilder kept across queries (its CallTreeIndex is built
    // once, then each range only sums), against building the trees from the weights each time.
    QElapsedTimer first;
    first.start();
    ProfileBuilder builder;
    builder.build(session, all, false);
    const double indexMs = double(first.nsecsElapsed()) / 1e6;
    // The page's default (flame graph, functions): no bottom-up tree.
    const double flameAll = medianMs(runs, [&] { builder.build(session, all, false); });
    const double flameHalf = medianMs(runs, [&] { builder.build(session, half, false); });
    first.restart();
    builder.build(session, all, true);
    const double indexBottomUpMs = double(first.nsecsElapsed()) / 1e6;
    const double sumAll = medianMs(runs, [&] { aggregateStacks(session, all); });
    const double sumHalf = medianMs(runs, [&] { aggregateStacks(session, half); });
    const double pageAll = medianMs(runs, [&] { profile = builder.build(session, all); });
    const double pageHalf = medianMs(runs, [&] { builder.build(session, half); });
    const double buildHalf = medianMs(3, [&] {
        const StackWeights w = aggregateStacks(session, half);
        CallTree::build(session.stacks(), w, CallTree::Direction::TopDown, StackPart::Both, true);
    });
    std::printf("top-down tree: %lld nodes, bottom-up: %lld\n", qlonglong(profile->topDown.size()),
                qlonglong(profile->bottomUp.size()));
    std::printf("first profile (indexes every stack, top-down):   %8.1f ms\n", indexMs);
    std::printf("first bottom-up (indexes every stack):           %8.1f ms\n", indexBottomUpMs);
    std::printf("re-aggregate (page default: sums, top-down, functions), whole: %8.1f ms\n",
                flameAll);
    std::printf("re-aggregate (page default: sums, top-down, functions), half:  %8.1f ms\n",
                flameHalf);
    std::printf("sum per stack, whole session:                    %8.1f ms\n", sumAll);
    std::printf("sum per stack, half range:                       %8.1f ms\n", sumHalf);
    std::printf("re-aggregate (+ bottom-up tree), whole:           %8.1f ms\n", pageAll);
    std::printf("re-aggregate (+ bottom-up tree), half:            %8.1f ms\n", pageHalf);
    std::printf("for comparison, CallTree::build top-down only, half:     %8.1f ms\n", buildHalf);

    // The off-wake profile (its own table, a copy of the session's, and a tree built from its
    // weights) against the off-CPU profile of the same waits (the CallTreeIndex's sums).
    ProfileQuery offCpu = half;
    offCpu.kind = ProfileKind::OffCpu;
    ProfileQuery offWake = half;
    offWake.kind = ProfileKind::OffWake;
    builder.build(session, offCpu, false);
    const double offCpuHalf = medianMs(runs, [&] { builder.build(session, offCpu, false); });
    std::shared_ptr<const Profile> offCpuProfile, offWakeProfile;
    const double offWakeHalf =
        medianMs(runs, [&] { offWakeProfile = builder.build(session, offWake, false); });
    offCpuProfile = builder.build(session, offCpu, false);
    std::printf("off-CPU tree: %lld nodes, off-wake tree: %lld\n",
                qlonglong(offCpuProfile->topDown.size()),
                qlonglong(offWakeProfile->topDown.size()));
    std::printf("off-CPU profile of %d waits, half range:          %8.1f ms\n", samples / 20,
                offCpuHalf);
    std::printf("off-wake profile of the same waits, half range:  %8.1f ms (%.2f times)\n",
                offWakeHalf, offWakeHalf / std::max(offCpuHalf, 1e-3));

    FlameGraphView view;
    view.resize(1600, std::max(900, view.minimumSizeHint().height()));
    view.setProfile(profile, &session.stacks());
    view.show();
    QApplication::processEvents();
    int toggle = 0;
    // A new picture each time: the selection changes what is drawn, the layout is redone.
    const double redraw = medianMs(9, [&] {
        view.setSelectedFrame(quint32(1 + (toggle++ % 2)));
        view.render();
    });
    const double zoomed = medianMs(9, [&] {
        view.zoomTo(toggle++ % 2 ? profile->topDown.root().children.value(0) : 0);
        view.render();
    });
    const double searched = medianMs(9, [&] {
        view.setSearch(toggle++ % 2 ? QStringLiteral("Function12") : QStringLiteral("k_func_3"));
        view.render();
    });
    const double cached = medianMs(9, [&] { view.repaint(); });
    std::printf("flame graph %dx%d, %zu boxes drawn\n", view.width(), view.height(),
                view.boxes().size());
    std::printf("redraw (layout + paint):                          %8.1f ms\n", redraw);
    std::printf("redraw after a zoom:                              %8.1f ms\n", zoomed);
    std::printf("redraw after a search:                            %8.1f ms\n", searched);
    std::printf("repaint from the cache:                           %8.1f ms\n", cached);
    return 0;
}
