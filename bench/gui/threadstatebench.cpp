// What the Threads view's lanes cost on a large session (issue #33: "the thread-state timeline
// of a 10M-switch recording draws in under 16 ms per frame"): building the lanes, merging one
// lane per pixel column, and painting the view at the full range, zoomed and panned, uncached
// (each frame a new range) and from the cache. Usage:
//   bpflens_threadstate_bench [spans, default 10000000] [threads, default 100] [--png FILE]
#include "core/eventstore.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/threadstatemodel.h"
#include "gui/models/viewstate.h"
#include "gui/threadstateview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QScrollBar>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <queue>
#include <random>

using namespace bpflens;

namespace {

using E = ThreadStateEvent;

struct Stats
{
    double median = 0;
    double max = 0;
};

Stats measure(int runs, const std::function<void(int)> &work)
{
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        work(i);
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.back()};
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    qsizetype n = 10'000'000;
    int threads = 100;
    QString png;
    int positional = 0;
    for (int i = 1; i < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--png") && i + 1 < args.size())
            png = args.at(++i);
        else if (positional++ == 0)
            n = args.at(i).toLongLong();
        else
            threads = args.at(i).toInt();
    }
    if (n <= 0 || threads <= 0) {
        std::fprintf(stderr, "usage: bpflens_threadstate_bench [spans] [threads] [--png file]\n");
        return 2;
    }

    // Each thread cycles running (10-200 µs), runnable (5-50 µs), sleeping or now and then
    // D (50 µs-1 ms, woken by the thread before it), in ten processes; the spans are made in
    // time order across threads (the store keeps time order).
    constexpr quint64 Start = 1'000'000'000'000ull;
    SessionData data;
    data.info.startMonotonicNs = Start;
    data.events.reserve(EventType::ThreadState, n);
    std::mt19937 rng(33);
    QList<QByteArray> comms;
    for (int t = 0; t < threads; ++t)
        comms << "worker-" + QByteArray::number(t);
    using Next = std::pair<quint64, int>; // the thread's next span start, the thread
    std::priority_queue<Next, std::vector<Next>, std::greater<>> queue;
    std::vector<quint8> phase(size_t(threads), 0);
    for (int t = 0; t < threads; ++t)
        queue.push({Start + quint64(t) * 1000, t});
    QElapsedTimer fill;
    fill.start();
    quint64 end = Start;
    E e;
    for (qsizetype i = 0; i < n; ++i) {
        const auto [time, t] = queue.top();
        queue.pop();
        e.timeNs = time;
        e.tid = quint32(10000 + t);
        e.pid = quint32(10000 + t / 10 * 10);
        e.comm = comms[t];
        e.cpu = quint32(t % 8);
        e.wakerTid = e.wakerPid = 0;
        e.wakerComm.clear();
        e.reason = 0;
        switch (phase[size_t(t)]) {
        case 0:
            e.state = E::Running;
            e.durNs = 10'000 + rng() % 190'000;
            break;
        case 1:
            e.state = E::Runnable;
            e.reason = E::Preempted;
            e.durNs = 5'000 + rng() % 45'000;
            break;
        default:
            e.state = rng() % 10 ? E::Sleeping : E::Uninterruptible;
            e.reason = e.state == E::Sleeping ? E::Futex : E::Io;
            e.durNs = 50'000 + rng() % 950'000;
            e.wakerTid = quint32(10000 + (t + threads - 1) % threads);
            e.wakerPid = e.wakerTid / 10 * 10;
            e.wakerComm = comms[(t + threads - 1) % threads];
            break;
        }
        phase[size_t(t)] = quint8((phase[size_t(t)] + 1) % 3);
        data.events.append(e);
        end = std::max(end, time + e.durNs);
        queue.push({time + e.durNs, t});
    }
    data.info.endMonotonicNs = end;
    const double fillMs = double(fill.nsecsElapsed()) / 1e6;

    SessionModel session;
    session.setSession(std::move(data));
    ViewState state;
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());
    std::printf("spans: %lld over %d threads, %.1f s (filled in %.0f ms, store %.0f MiB)\n",
                (long long)n, threads, double(end - Start) / 1e9, fillMs,
                double(session.events().memoryBytes()) / 1048576.0);

    constexpr int Width = 1920, Height = 1000;
    ThreadStateView view(&session, &state);
    view.resize(Width, Height);
    QElapsedTimer build;
    build.start();
    (void)view.model()->rows();
    std::printf("lanes built (ThreadStateIndex, busiest first): %.0f ms\n",
                double(build.nsecsElapsed()) / 1e6);
    view.show();
    QCoreApplication::processEvents();
    ThreadStatePlot *plot = view.plot();
    const int plotWidth = plot->plotRect().width();
    const int lanesInSight = (plot->height() - ThreadStatePlot::AxisHeight) / plot->rowHeight();
    std::printf("view %dx%d, plot %d px wide, about %d rows in sight\n", Width, Height, plotWidth,
                lanesInSight);

    const quint64 full0 = state.fullStartNs(), full1 = state.fullEndNs();
    const quint64 fullSpan = full1 - full0;
    const Stats lane =
        measure(7, [&](int) { (void)view.model()->laneStates(10000, full0, full1, plotWidth); });
    std::printf("one lane merged per pixel, full range (%lld spans): p50 %.2f ms\n",
                (long long)(n / threads), lane.median);

    auto frames = [&](const char *what, quint64 length) {
        // Each frame a range not drawn before (panned by a pixel and a bit): the cache misses.
        const double nsPerPx = double(length) / plotWidth;
        const quint64 from = full0 + (fullSpan - length) / 3;
        state.setRange(from, from + length);
        (void)plot->grab();
        const Stats uncached = measure(9, [&](int k) {
            const quint64 s = std::min(from + quint64(nsPerPx * 1.37 * (k + 1)), full1 - length);
            state.setRange(s, s + length);
            // At the full range there is nothing to pan: a pixel of scrolling misses too.
            view.scrollBar()->setValue(k + 1);
            (void)plot->grab();
        });
        const Stats cached = measure(9, [&](int) { (void)plot->grab(); });
        std::printf("%-34s uncached p50 %6.2f ms, max %6.2f ms; cached p50 %5.2f ms\n", what,
                    uncached.median, uncached.max, cached.median);
    };
    view.scrollBar()->setValue(0);
    frames("full range", fullSpan);
    frames("zoomed to 1/10", fullSpan / 10);
    frames("zoomed to 1/1000", fullSpan / 1000);
    frames("zoomed to 1/100000", std::max<quint64>(fullSpan / 100000, 2000));
    // Scrolled to the bottom of the threads, full range.
    state.resetRange();
    view.scrollBar()->setValue(view.scrollBar()->maximum());
    const Stats scrolled = measure(9, [&](int k) {
        view.scrollBar()->setValue(view.scrollBar()->maximum() - (k % 2) * plot->rowHeight());
        state.setRange(full0 + quint64(k + 1) * 1000, full1);
        (void)plot->grab();
    });
    std::printf("%-34s uncached p50 %6.2f ms, max %6.2f ms\n", "scrolled, full range",
                scrolled.median, scrolled.max);

    // The critical path of the busiest thread over 1/100 of the range.
    const quint64 cp0 = full0 + fullSpan / 2;
    QElapsedTimer cp;
    cp.start();
    const CriticalPath path =
        criticalPath(session.events(), view.model()->index(), 10000, cp0, cp0 + fullSpan / 100);
    std::printf("critical path over 1/100 of the range: %lld steps in %.1f ms\n",
                (long long)path.steps.size(), double(cp.nsecsElapsed()) / 1e6);
    if (!png.isEmpty()) {
        state.resetRange();
        view.scrollBar()->setValue(0);
        plot->grab().save(png);
    }
    return 0;
}
