#pragma once

#include "core/events.h"

#include <QByteArray>
#include <QList>

#include <vector>

namespace bpflens {

class EventStore;

// What the memory views and exports sum of a session's allocations (memleak, docs/memory.md):
// the blocks allocated in [startNs, endNs), optionally of one process or command.
struct AllocationQuery
{
    quint64 startNs = 0;
    quint64 endNs = ~quint64(0); // the session's end: every block allocated
    qint64 pid = -1;             // -1: every process
    QByteArray comm;             // empty: every command
};

// Per stack id (index 0: blocks without a stack), as Go's heap profiles count them: every block
// allocated in the range (alloc_*), and those of them still allocated at its end (inuse_*:
// not freed before endNs; with endNs the session's end, never freed while recorded). Bytes and
// blocks are scaled by each event's weight (the probe's sampling).
struct AllocationSums
{
    std::vector<quint64> allocBytes, allocBlocks, inuseBytes, inuseBlocks;
    // When the oldest block counted in use was allocated (~0: none): how long a leak has been
    // growing, as memleak's age.
    std::vector<quint64> oldestInuseNs;
    qsizetype events = 0;
    quint64 totalAllocBytes = 0, totalInuseBytes = 0;
    quint32 sampleEvery = 1; // the largest weight seen: what one event stood for
};

// Sums the store's allocations for the query; stackCount: the session's StackTable's
// stackCount(), ids above it count as no stack.
AllocationSums sumAllocations(const EventStore &store, const AllocationQuery &query,
                              qsizetype stackCount);

// The bytes a process (pid, or -1 for all together) held in recorded blocks over time: one
// point per change, (time, bytes held from then on), in time order, starting at the first
// allocation. Sampled events count weight times their size.
QList<QPair<quint64, quint64>> outstandingBytesOverTime(const EventStore &store, qint64 pid = -1);

} // namespace bpflens
