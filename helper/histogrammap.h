#pragma once

// The log2 histograms the BPF programs keep (struct bpflens_hist, bpf/bpflens.h) as
// Log2Histogram: one value, or every key of a hash map of them.
#include <linux/types.h>

#include "bpf/bpflens.h"
#include "core/histogram.h"

#include <bpf/bpf.h>

namespace bpflens {

inline Log2Histogram toLog2Histogram(const bpflens_hist &h, HistogramUnit unit)
{
    Log2Histogram out(unit);
    for (int i = 0; i < BPFLENS_MAX_SLOTS; ++i) {
        if (h.slots[i])
            out.addToSlot(i, h.slots[i]);
    }
    out.setSum(h.sum);
    return out;
}

// f(key, histogram) for every key of a BPF hash map whose values are struct bpflens_hist; a key
// deleted while the map is walked is skipped.
template<typename Key, typename F>
void forEachHistogram(int mapFd, HistogramUnit unit, F &&f)
{
    Key key{}, next{};
    const Key *prev = nullptr;
    while (bpf_map_get_next_key(mapFd, prev, &next) == 0) {
        key = next;
        prev = &key;
        bpflens_hist h;
        if (bpf_map_lookup_elem(mapFd, &key, &h) == 0)
            f(key, toLog2Histogram(h, unit));
    }
}

} // namespace bpflens
