#include "timelinebins.h"

#include "eventmodels.h"
#include "sessionmodel.h"

#include <algorithm>

namespace bpflens {

LaneBins::Category TimelineBinner::categoryOf(const QByteArray &op)
{
    // biolatency -F names: "Read", "Sync-Write", "Write-FUA", "Flush", "Discard", ...
    if (op.contains("Read"))
        return LaneBins::Read;
    if (op.contains("Write"))
        return LaneBins::Write;
    return LaneBins::Other;
}

LaneBins TimelineBinner::bin(const EventFilterModel &lane, const SessionModel &session,
                             quint64 startNs, quint64 endNs, int width)
{
    LaneBins bins;
    bins.type = lane.type();
    bins.width = std::max(width, 1);
    bins.counts.assign(size_t(bins.width), 0);
    if (endNs <= startNs)
        return bins;
    const EventStore &store = session.events();
    const EventType type = lane.type();
    const double span = double(endNs - startNs);
    const double nsPerPx = span / bins.width;
    auto columnStart = [&](int c) { return startNs + quint64(span * c / bins.width); };
    auto xOf = [&](quint64 t) { return (double(t) - double(startNs)) / nsPerPx; };

    std::vector<qsizetype> bounds(size_t(bins.width) + 1);
    for (int c = 0; c <= bins.width; ++c)
        bounds[size_t(c)] = lane.acceptedLowerBound(c == bins.width ? endNs : columnStart(c));
    bins.total = bounds.back() - bounds.front();
    for (int c = 0; c < bins.width; ++c) {
        bins.counts[size_t(c)] = quint32(bounds[size_t(c) + 1] - bounds[size_t(c)]);
        bins.maxCount = std::max(bins.maxCount, bins.counts[size_t(c)]);
    }
    const bool isBlock = type == EventType::Block;
    bins.dense = double(bins.total) > SparseEventsPerColumn * bins.width;

    if (bins.dense) {
        if (isBlock) {
            for (auto &s : bins.share)
                s.assign(size_t(bins.width), 0.f);
            for (int c = 0; c < bins.width; ++c) {
                const qsizetype first = bounds[size_t(c)];
                const qsizetype n = bounds[size_t(c) + 1] - first;
                if (n == 0)
                    continue;
                const qsizetype samples = std::min<qsizetype>(n, SamplesPerColumn);
                int perCategory[LaneBins::CategoryCount] = {};
                // A per-column offset inside the stride, so a workload whose operations
                // repeat with the stride's period does not alias into stripes.
                const qsizetype stride = n / samples;
                const qsizetype offset =
                    stride > 1 ? qsizetype((quint64(c) * 2654435761u) % quint64(stride)) : 0;
                for (qsizetype s = 0; s < samples; ++s) {
                    const qsizetype k = first + s * n / samples + offset;
                    ++perCategory[categoryOf(store.block(lane.acceptedAt(k)).op)];
                }
                for (int cat = 0; cat < LaneBins::CategoryCount; ++cat)
                    bins.share[cat][size_t(c)] = float(perCategory[cat]) / float(samples);
            }
        }
        return bins;
    }

    // Sparse: every event. Block requests are drawn over their whole duration, so those that
    // complete after the range but started inside it count too.
    qsizetype first = bounds.front();
    qsizetype last = bounds.back();
    if (isBlock) {
        const quint64 reach = session.maxBlockSpanNs();
        last = lane.acceptedLowerBound(endNs + std::min(reach, ~quint64(0) - endNs));
    }
    std::vector<double> rowEnd(MaxSpanRows, -1e300);
    for (qsizetype k = first; k < last; ++k) {
        const qsizetype i = lane.acceptedAt(k);
        LaneBins::Span s;
        s.index = i;
        const quint64 t = store.timeNs(type, i);
        s.x1 = xOf(t);
        s.x0 = s.x1;
        if (isBlock) {
            const BlockEvent e = store.block(i);
            const quint64 begin = t - std::min(t, e.queueNs + e.deviceNs);
            if (begin >= endNs)
                continue;
            s.x0 = xOf(begin);
            s.category = categoryOf(e.op);
            // Greedy rows: the first row whose last span ended before this one starts.
            int row = 0;
            while (row < MaxSpanRows - 1 && rowEnd[size_t(row)] > s.x0 - 1)
                ++row;
            s.row = row;
            rowEnd[size_t(row)] = std::max(rowEnd[size_t(row)], s.x1);
            bins.rows = std::max(bins.rows, row + 1);
        }
        bins.spans.push_back(s);
    }
    return bins;
}

} // namespace bpflens
