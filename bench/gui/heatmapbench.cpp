// The latency heatmap on a large synthetic session: building its bins (per range and width)
// against the timeline binning the same block lane at the same width (the peer, same run), and
// the redraw the user waits for (cells painted from the cached image, axes, legend). Usage:
//   bpflens_heatmap_bench [block events, default 10000000]
#include "gui/heatmapview.h"
#include "gui/models/eventmodels.h"
#include "gui/models/heatmapmodel.h"
#include "gui/models/sessionmodel.h"
#include "gui/models/timelinebins.h"
#include "gui/models/viewstate.h"

#include <QApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

using namespace bpflens;

namespace {

struct Times
{
    double p50 = 0;
    double max = 0;
};

Times measure(int runs, const std::function<void()> &work)
{
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        work();
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
    const qsizetype n = args.size() > 1 ? args.at(1).toLongLong() : 10'000'000;
    if (n <= 0) {
        std::fprintf(stderr, "usage: bpflens_heatmap_bench [events]\n");
        return 2;
    }

    // Block requests over 60 s, latencies spread over 15 log2 buckets (2 µs .. 65 ms) with a
    // slower tail (to 1 s) every few thousand requests: what a dd with direct I/O and a busy disk
    // give.
    constexpr quint64 Start = 1'000'000'000'000ull;
    constexpr quint64 Span = 60'000'000'000ull;
    SessionData data;
    data.info.startMonotonicNs = Start;
    data.events.reserve(EventType::Block, n);
    BlockEvent block;
    block.disk = "vda";
    block.comm = "dd";
    block.op = "Write";
    quint64 x = 88172645463325252ull;
    for (qsizetype i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        block.timeNs = Start + Span * quint64(i) / quint64(n);
        const int bucket = 11 + int(x % 8) + int((x >> 8) % 8) + ((x >> 16) % 4096 == 0 ? 4 : 0);
        block.queueNs = (x >> 20) % 2000;
        block.deviceNs = (quint64(1) << bucket) + (x >> 24) % (quint64(1) << bucket);
        block.pid = quint32(1000 + i % 4);
        data.events.append(block);
    }
    SessionModel session;
    session.setSession(std::move(data));
    ViewState state;
    state.setFullRange(session.firstTimeNs(), session.endTimeNs());
    EventTableModel table(&session, EventType::Block);
    EventFilterModel lane(&table, &state);
    LaneSummary summary;
    summary.update(lane, session);

    constexpr int Width = 1920;
    constexpr int Columns = Width / 3; // the view's 3 px cells
    const HeatmapSource source{HeatmapSource::Events, EventType::Block, {}, {}};
    std::printf("block events: %lld, %d px, %d heatmap columns\n", (long long)n, Width, Columns);
    const quint64 a = state.startNs(), b = state.endNs();
    // The per-stride summary the view builds once (on its worker) and extends while live.
    std::shared_ptr<const HeatmapStrides> strides;
    const Times stridesTime =
        measure(3, [&] { strides = HeatmapModel::buildStrides(session, EventType::Block); });
    std::printf("stride summary (%lld strides of %lld events): p50 %.2f ms\n",
                (long long)strides->strides(), (long long)HeatmapStrides::StrideEvents,
                stridesTime.p50);
    for (const quint64 zoom : {1ull, 10ull, 100ull, 10000ull}) {
        const quint64 za = zoom == 1 ? a : a + (b - a) / 3, zb = za + (b - a) / zoom;
        const Times heat =
            measure(5, [&] { (void)HeatmapModel::build(session, source, {}, za, zb, Columns); });
        const Times peer =
            measure(5, [&] { (void)TimelineBinner::bin(lane, session, za, zb, Width, &summary); });
        const HeatmapBins bins = HeatmapModel::build(session, source, {}, za, zb, Columns);
        const qsizetype inRange = session.events().lowerBound(EventType::Block, zb) -
                                  session.events().lowerBound(EventType::Block, za);
        if (qsizetype(bins.total) != inRange)
            std::printf("bins hold %llu events, the range %lld\n", (unsigned long long)bins.total,
                        (long long)inRange);
        const Times strided = measure(5, [&] {
            (void)HeatmapModel::build(session, source, {}, za, zb, Columns, nullptr, strides.get());
        });
        if (HeatmapModel::build(session, source, {}, za, zb, Columns, nullptr, strides.get())
                .counts != bins.counts)
            std::printf("the bins with strides differ\n");
        std::printf("1/%llu of the range (%llu events): heatmap bins p50 %.2f ms max %.2f ms, "
                    "with strides p50 %.2f ms max %.2f ms; timeline lane (peer) p50 %.2f ms; "
                    "ratio %.2f, with strides %.2f\n",
                    (unsigned long long)zoom, (unsigned long long)bins.total, heat.p50, heat.max,
                    strided.p50, strided.max, peer.p50, peer.p50 > 0 ? heat.p50 / peer.p50 : 0.0,
                    peer.p50 > 0 ? strided.p50 / peer.p50 : 0.0);
    }

    HeatmapView view(&session, &state);
    view.resize(Width, 700);
    view.show();
    view.refresh(); // at the view's real width
    QImage target(view.plot()->size(), QImage::Format_RGB32);
    const Times redraw = measure(25, [&] { view.plot()->render(&target); });
    std::printf("heatmap redraw (cached bins, %dx%d plot): p50 %.2f ms max %.2f ms\n",
                view.plot()->width(), view.plot()->height(), redraw.p50, redraw.max);
    const Times rebuild = measure(5, [&] { view.refresh(); });
    std::printf("heatmap refresh (bins + image), whole range: p50 %.2f ms max %.2f ms\n",
                rebuild.p50, rebuild.max);
    return 0;
}
