#include "helper/bitesizeprobe.h"

#include <linux/types.h>

#include "bitesize.skel.h"
#include "bpf/bitesize.records.h"
#include "helper/blockprobe.h"
#include "helper/histogrammap.h"

#include <QMap>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

namespace bpflens {

BitesizeProbe::BitesizeProbe()
    : SkeletonProbe(QStringLiteral("bitesize"))
{
}

BitesizeProbe::~BitesizeProbe() = default;

AttachPlan BitesizeProbe::plan(const KernelFeatures &kernel, const QVariantMap &options)
{
    AttachPlan p;
    if (!kernel.hasBtf()) {
        p.available = false;
        p.reason = kernel.btfError();
        return p;
    }
    // The classic block_rq_issue has the bytes too, but not the request's disk as the kernel
    // names it nor its operation bits: the BTF one serves every kernel with BTF.
    if (!kernel.hasBtfTracepoint(QStringLiteral("block_rq_issue"))) {
        p.available = false;
        p.reason = QStringLiteral("the kernel has no BTF tracepoint tp_btf/block_rq_issue");
        return p;
    }
    p.groups.append({{{"bitesize_issue", QStringLiteral("tp_btf/block_rq_issue")}},
                     true,
                     QStringLiteral("block requests")});
    const QString disk = options.value(QStringLiteral("disk")).toString();
    if (!disk.isEmpty() && !BlockProbe::diskDevice(disk)) {
        p.available = false;
        p.reason = QStringLiteral("no disk named \"%1\" in /sys/block").arg(disk.left(32));
    }
    return p;
}

ProbeAvailability BitesizeProbe::availability(const KernelFeatures &kernel,
                                              const QVariantMap &options) const
{
    return availabilityOf(plan(kernel, options));
}

bool BitesizeProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel,
                            QString *error)
{
    const AttachPlan p = plan(kernel, options);
    if (!p.available) {
        *error = p.reason;
        return false;
    }
    m_decoder = std::make_unique<BlockFlagDecoder>(kernel);
    m_perDisk = options.value(QStringLiteral("perDisk")).toBool();
    m_perOperation = options.value(QStringLiteral("perOperation")).toBool();
    if (m_perOperation && !m_decoder->isValid()) {
        *error = QStringLiteral("the kernel's BTF has no request flag bits (__REQ_FAILFAST_DEV)");
        return false;
    }
    return startSkeleton(p, options, error, [&](CommonFilters &, QString *) {
        auto *ro = m_skel->rodata;
        const QString disk = options.value(QStringLiteral("disk")).toString();
        if (!disk.isEmpty()) {
            ro->filter_dev = true;
            ro->targ_dev = BlockProbe::diskDevice(disk);
        }
        ro->issue_arg = kernel.tracepointArgCount(QStringLiteral("block_rq_issue")) == 2;
        ro->targ_per_disk = m_perDisk;
        ro->targ_per_op = m_perOperation;
        ro->unit_div = unitDivisor(HistogramUnit::Kilobytes);
        setHistogramMap(m_skel->maps.hists);
        return true;
    });
}

void BitesizeProbe::readHistograms()
{
    if (!m_skel)
        return;
    forEachHistogram<bitesize_key>(
        bpf_map__fd(m_skel->maps.hists), HistogramUnit::Kilobytes,
        [this](const bitesize_key &key, const Log2Histogram &cumulative) {
            QStringList parts{
                QString::fromLocal8Bit(key.comm, int(qstrnlen(key.comm, sizeof(key.comm))))};
            if (m_perDisk)
                parts.append(QString::fromLocal8Bit(BlockProbe::diskNameOf(key.dev)));
            if (m_perOperation)
                parts.append(QString::fromLatin1(m_decoder->decode(key.op)));
            emitHistogram(parts.join(QLatin1Char('/')), cumulative);
        });
}

} // namespace bpflens
