#pragma once

#include "core/losscounters.h"
#include "helper/attachplan.h"
#include "helper/keyedcounts.h"
#include "helper/probe.h"

#include <QHash>

struct uprobe_bpf;

namespace bpflens {

// uprobe: a function in a user-space binary (BCC's strlen_count, funclatency -u). Calls are
// counted per interval, under one key or per argument (its value, or the string it points to);
// with "latency" a return probe times each call into a histogram, and calls at least
// thresholdUs slow become UprobeCallEvents. One precompiled program pair serves any function:
// it attaches by file and offset. The caller resolves the function and opens the file itself
// (client/binarytarget.h); the probe attaches to that descriptor (/proc/self/fd/N), never to a
// path of the caller's choosing.
class UprobeProbe : public SkeletonProbe<uprobe_bpf>
{
public:
    UprobeProbe();
    ~UprobeProbe() override;

    bool takesUserFile(const QVariantMap &) const override { return true; }
    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

    // Counter names besides the per-key counts: calls whose key found the count map full (so
    // counted nowhere else), and string arguments that could not be read (counted under "").
    static QString keysFullCounter() { return KeyedLoss::keysFull(); }
    static QString unreadableCounter() { return KeyedLoss::unreadableStrings(); }
    // The counter a key's calls go to: "calls" without a key, "arg1=42", "\"text\"".
    static QString callsCounter() { return QStringLiteral("calls"); }

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void readHistograms() override;
    void readCounters() override;

private:
    AttachPlan attachPlan(const KernelFeatures &kernel, const QVariantMap &options) const;
    QString counterName(const QByteArray &key) const;

    ProbeCatalog::UprobeKey m_key;
    HistogramUnit m_unit = HistogramUnit::Microseconds;
    QByteArray m_fdPath;
    KeyedCounts m_counts; // calls per raw struct uprobe_key
    quint64 m_lastKeysFull = 0;
    quint64 m_lastUnreadable = 0;
};

} // namespace bpflens
