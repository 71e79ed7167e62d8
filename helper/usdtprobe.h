#pragma once

#include "core/losscounters.h"
#include "core/usdtargs.h"
#include "helper/attachplan.h"
#include "helper/keyedcounts.h"
#include "helper/probe.h"

struct usdt_bpf;

namespace bpflens {

// usdt: a static probe (sys/sdt.h) of a user-space binary. Hits are counted per interval, under
// one key or per argument (its value, or the string it points to), and with "events" recorded
// as UsdtEvents with all their arguments. The caller resolves the probe from the binary's
// .note.stapsdt (client/usdtnotes.h) and hands over the opened file, the probe's file offset,
// the argument specs ("args") and the semaphore's file offset ("semaphore"); the helper parses
// no ELF notes. It checks the specs (core/usdtargs.h) and the semaphore's place
// (checkUsdtSemaphore), and attaches a plain uprobe with the kernel's reference counter for the
// semaphore, reading the arguments as the specs say. A probe at several places ("sites", all
// offsets checked) gets a uprobe at each, whose attach cookie picks its specs.
class UsdtProbe : public SkeletonProbe<usdt_bpf>
{
public:
    UsdtProbe();
    ~UsdtProbe() override;

    bool takesUserFile(const QVariantMap &) const override { return true; }
    ProbeAvailability availability(const KernelFeatures &kernel,
                                   const QVariantMap &options = {}) const override;

    // The loss counters (core/losscounters.h) and the counter of a probe without a key.
    static QString keysFullCounter() { return KeyedLoss::keysFull(); }
    static QString unreadableCounter() { return KeyedLoss::unreadableStrings(); }
    static QString argFaultsCounter() { return KeyedLoss::argumentFaults(); }
    static QString hitsCounter() { return QStringLiteral("hits"); }

    // offsetof(struct pt_regs, reg) on this machine, or -1 for a register it has not.
    static int registerOffset(const QString &reg);

protected:
    bool doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error) override;
    bool decode(const void *data, size_t size, RecordBatch &out) override;
    void readCounters() override;

private:
    AttachPlan attachPlan(const KernelFeatures &kernel, const QVariantMap &options) const;
    // The sites in options ("sites", or the one at the caller's offset with "args").
    bool sitesOf(const QVariantMap &options, QList<UsdtSite> *sites, QString *why) const;
    QString counterName(const QByteArray &key) const;

    ProbeCatalog::UprobeKey m_key;
    QList<UsdtArg> m_args; // the first site's
    QList<UsdtSite> m_sites;
    QList<QList<UsdtArg>> m_specs; // usdtSpecTable(m_sites)
    QByteArray m_fdPath;
    KeyedCounts m_counts;
    quint64 m_lastKeysFull = 0;
    quint64 m_lastUnreadable = 0;
    quint64 m_lastArgFaults = 0;
};

} // namespace bpflens
