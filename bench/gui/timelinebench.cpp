// Measures what one timeline redraw costs on a large session: binning a lane (per pixel
// column), painting the widget, and re-filtering by text. Usage:
//   bpflens_timeline_bench [events per lane, default 10000000] [--png FILE]
#include "gui/models/eventmodels.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/timelinebins.h"
#include "gui/models/viewstate.h"
#include "gui/timelinewidget.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>

#include <algorithm>
#include <cstdio>
#include <functional>

using namespace bpflens;

namespace {

double medianMs(int runs, const std::function<void()> &work)
{
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        work();
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

} // namespace

int main(int argc, char *argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = app.arguments();
    qsizetype n = 10'000'000;
    QString png;
    for (int i = 1; i < args.size(); ++i) {
        if (args.at(i) == QLatin1String("--png") && i + 1 < args.size())
            png = args.at(++i);
        else
            n = args.at(i).toLongLong();
    }
    if (n <= 0) {
        std::fprintf(stderr, "usage: bpflens_timeline_bench [events] [--png file]\n");
        return 2;
    }

    // Open and block events over 60 s with bursts, so some columns are empty and others full.
    constexpr quint64 Start = 1'000'000'000'000ull;
    constexpr quint64 Span = 60'000'000'000ull;
    SessionData data;
    data.info.startMonotonicNs = Start;
    data.events.reserve(EventType::Open, n);
    data.events.reserve(EventType::Block, n);
    QElapsedTimer fill;
    fill.start();
    OpenEvent open;
    open.comm = "worker";
    BlockEvent block;
    block.disk = "vda";
    block.comm = "kworker";
    const QByteArray paths[] = {"/usr/lib/libc.so.6", "/etc/passwd", "/var/log/syslog",
                                "/home/user/data.bin"};
    const QByteArray ops[] = {"Read", "Write", "Sync-Write", "Flush"};
    for (qsizetype i = 0; i < n; ++i) {
        // Quadratic spacing: dense at the start, sparse at the end.
        const double f = double(i) / double(n);
        const quint64 t = Start + quint64(f * f * double(Span));
        open.timeNs = t;
        open.path = paths[i % 4];
        data.events.append(open);
        block.timeNs = t + 50'000;
        block.deviceNs = 40'000 + quint64(i % 1000) * 100;
        block.op = ops[(i / 7) % 4];
        data.events.append(block);
    }
    const double fillMs = double(fill.nsecsElapsed()) / 1e6;

    SessionModel session;
    session.setSession(std::move(data));
    ViewState state;
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());
    EventTableModel openTable(&session, EventType::Open);
    EventTableModel blockTable(&session, EventType::Block);
    EventFilterModel openLane(&openTable, &state);
    EventFilterModel blockLane(&blockTable, &state);

    constexpr int Width = 1920;
    std::printf("events per lane: %lld (filled in %.0f ms, store %.0f MiB)\n", (long long)n, fillMs,
                double(session.events().memoryBytes()) / 1048576.0);
    // The per-lane summaries the widget keeps (built once, extended by live appends).
    LaneSummary openSummary, blockSummary;
    QElapsedTimer summaryTimer;
    summaryTimer.start();
    openSummary.update(openLane, session);
    blockSummary.update(blockLane, session);
    std::printf("lane summaries built in %.1f ms\n", double(summaryTimer.nsecsElapsed()) / 1e6);
    auto binMs = [&](EventFilterModel &lane, quint64 a, quint64 b) {
        const LaneSummary *summary = &lane == &blockLane ? &blockSummary : &openSummary;
        return medianMs(7, [&] { (void)TimelineBinner::bin(lane, session, a, b, Width, summary); });
    };
    const quint64 a = state.startNs(), b = state.endNs();
    std::printf("bin open lane, whole range, %d px: %.3f ms\n", Width, binMs(openLane, a, b));
    std::printf("bin block lane (op colours), whole range: %.3f ms\n", binMs(blockLane, a, b));
    const quint64 za = a + (b - a) * 9 / 10, zb = za + (b - a) / 100000;
    std::printf(
        "bin block lane, zoomed to 1/100000 (%lld events): %.3f ms\n",
        (long long)TimelineBinner::bin(blockLane, session, za, zb, Width, &blockSummary).total,
        binMs(blockLane, za, zb));

    TimelineWidget widget(&session, &state, {&openLane, &blockLane});
    widget.resize(Width, 300);
    const double firstPaint = medianMs(1, [&] { (void)widget.grab(); });
    const double cachedPaint = medianMs(7, [&] { (void)widget.grab(); });
    std::printf("timeline paint: first %.2f ms, cached zoom level %.2f ms\n", firstPaint,
                cachedPaint);
    if (!png.isEmpty())
        widget.grab().save(png);

    EventFilter filter;
    filter.text = "PASSWD";
    const double filterMs = medianMs(1, [&] { state.setFilter(filter); });
    std::printf("text filter over %lld open + block events: %.0f ms, %lld open rows match\n",
                (long long)(2 * n), filterMs, (long long)openLane.acceptedCount());
    const double zoomMs = medianMs(7, [&] {
        state.zoom(0.5, state.startNs() + 1);
        state.resetRange();
    });
    std::printf("zoom + reset with the filter active (table ranges): %.3f ms\n", zoomMs);
    return 0;
}
