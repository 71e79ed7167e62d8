#pragma once

#include "events.h"
#include "histogram.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QVariantMap>

namespace bpflens {

// One histogram's counts for one interval [timeNs - intervalNs, timeNs]. key separates the
// histograms of one probe: "" for a single one, a disk ("vda"), a flag set ("Sync-Write"),
// a process ("1234 comm"), or an I/O stack cell ("read/vfs").
struct HistogramSnapshot
{
    QString probeId;
    QString key;
    quint64 timeNs = 0;
    quint64 intervalNs = 0;
    Log2Histogram histogram;
    bool operator==(const HistogramSnapshot &) const = default;
};

// Cumulative per-probe counters at timeNs. Nothing is lost silently: eventsLost counts every
// record the kernel could not deliver. runCount/runTimeNs come from the kernel's BPF stats.
struct ProbeStats
{
    QString probeId;
    quint64 timeNs = 0;
    quint64 eventsSeen = 0;
    quint64 eventsLost = 0;
    quint64 runCount = 0;
    quint64 runTimeNs = 0;
    bool operator==(const ProbeStats &) const = default;
};

// A probe's counter over one interval [timeNs - intervalNs, timeNs] (not cumulative), for probes
// whose output is a few numbers per interval rather than events or histograms (cachestat:
// "hits", "misses", ...). A ratio is a value too, hence double.
struct CounterSample
{
    QString probeId;
    quint64 timeNs = 0;
    quint64 intervalNs = 0;
    QString name;
    double value = 0;
    bool operator==(const CounterSample &) const = default;
};

// A probe as it was asked for and as it attached.
struct ProbeConfig
{
    QString id;
    QVariantMap options;
    QString attachPath; // e.g. "tp_btf/sched_process_exec", as the engine reports it
    bool operator==(const ProbeConfig &) const = default;
};

struct SessionInfo
{
    int schemaVersion = 0;
    QString appVersion;
    QString host;
    QString kernelRelease;
    QDateTime startWall; // UTC wall-clock time at startMonotonicNs
    quint64 startMonotonicNs = 0;
    quint64 endMonotonicNs = 0; // 0 while recording
    QList<ProbeConfig> probes;
    bool operator==(const SessionInfo &) const = default;
};

// What flows from the engine to its consumers (session writer, wire protocol, GUI models).
struct RecordBatch
{
    QList<ExecEvent> exec;
    QList<OpenEvent> open;
    QList<BlockEvent> block;
    QList<TcpConnectEvent> tcpConnect;
    QList<FsSlowEvent> fsSlow;
    QList<TpPairEvent> tpPair;
    QList<HistogramSnapshot> histograms;
    QList<ProbeStats> stats;
    QList<CounterSample> counters;

    bool isEmpty() const
    {
        return exec.isEmpty() && open.isEmpty() && block.isEmpty() && tcpConnect.isEmpty() &&
               fsSlow.isEmpty() && tpPair.isEmpty() && histograms.isEmpty() && stats.isEmpty() &&
               counters.isEmpty();
    }
    qsizetype eventCount() const
    {
        return exec.size() + open.size() + block.size() + tcpConnect.size() + fsSlow.size() +
               tpPair.size();
    }
    void clear() { *this = RecordBatch{}; }
};

} // namespace bpflens
