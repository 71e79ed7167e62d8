#pragma once

#include <QtGlobal>

namespace bpflens {

// How top lists, latency statistics and spike rankings split their scan of the store: the
// events of each type in chunks, the chunks spread over threads, the per-thread tallies merged
// at the end. The result does not depend on the split; tests force uneven ones.
struct ScanSplit
{
    int threads = 0;           // 0: one per core (at most 8); 1: the calling thread only
    qsizetype chunkEvents = 0; // events per chunk; 0: 65 536
};

} // namespace bpflens
