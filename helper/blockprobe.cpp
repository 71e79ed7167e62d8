#include "helper/blockprobe.h"

#include <linux/types.h>

#include "block.skel.h"
#include "bpf/block.records.h"
#include "helper/histogrammap.h"

#include <QFile>
#include <QFileInfo>
#include <QMap>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <cerrno>
#include <cstring>

namespace bpflens {

namespace {

struct Hook
{
    const char *name;
    bool required;
};

// block_io_start (6.5+) is where the submitter is current; without it the submitter is taken
// at insert/issue, which is right for direct submission but may name kblockd or a plug flusher.
constexpr Hook hooks[] = {
    {"block_io_start", false},      {"block_rq_insert", false},      {"block_rq_issue", true},
    {"block_rq_complete", true},    {"block_rq_requeue", false},     {"block_rq_merge", false},
    {"block_bio_backmerge", false}, {"block_bio_frontmerge", false},
};

QString tpBtf(const char *name)
{
    return QStringLiteral("tp_btf/") + QLatin1String(name);
}

} // namespace

BlockFlagDecoder::BlockFlagDecoder(const KernelFeatures &kernel)
{
    // The op is in the low bits, below the first flag bit (REQ_OP_BITS).
    qint64 firstFlag = 0;
    if (!kernel.enumValue(QStringLiteral("__REQ_FAILFAST_DEV"), &firstFlag) || firstFlag <= 0 ||
        firstFlag > 16)
        return;
    m_opMask = (1u << firstFlag) - 1;
    // libbpf-tools biolatency's print_cmd_flags, in its order.
    static const char *const flags[][2] = {
        {"__REQ_NOWAIT", "NoWait-"},    {"__REQ_BACKGROUND", "Background-"},
        {"__REQ_RAHEAD", "ReadAhead-"}, {"__REQ_PREFLUSH", "PreFlush-"},
        {"__REQ_FUA", "FUA-"},          {"__REQ_INTEGRITY", "Integrity-"},
        {"__REQ_IDLE", "Idle-"},        {"__REQ_NOMERGE", "NoMerge-"},
        {"__REQ_PRIO", "Priority-"},    {"__REQ_META", "Metadata-"},
        {"__REQ_SYNC", "Sync-"},
    };
    for (const auto &f : flags) {
        qint64 bit = 0;
        if (kernel.enumValue(QLatin1String(f[0]), &bit) && bit >= 0 && bit < 32)
            m_flags.append({1u << bit, QByteArray(f[1])});
    }
    static const char *const ops[][2] = {
        {"REQ_OP_READ", "Read"},
        {"REQ_OP_WRITE", "Write"},
        {"REQ_OP_FLUSH", "Flush"},
        {"REQ_OP_DISCARD", "Discard"},
        {"REQ_OP_SECURE_ERASE", "SecureErase"},
        {"REQ_OP_ZONE_RESET", "ZoneReset"},
        {"REQ_OP_WRITE_SAME", "WriteSame"},
        {"REQ_OP_ZONE_RESET_ALL", "ZoneResetAll"},
        {"REQ_OP_WRITE_ZEROES", "WriteZeroes"},
        {"REQ_OP_ZONE_OPEN", "ZoneOpen"},
        {"REQ_OP_ZONE_CLOSE", "ZoneClose"},
        {"REQ_OP_ZONE_FINISH", "ZoneFinish"},
        {"REQ_OP_ZONE_APPEND", "ZoneAppend"},
        {"REQ_OP_SCSI_IN", "SCSIIn"},
        {"REQ_OP_SCSI_OUT", "SCSIOut"},
        {"REQ_OP_DRV_IN", "DrvIn"},
        {"REQ_OP_DRV_OUT", "DrvOut"},
    };
    for (const auto &o : ops) {
        qint64 value = 0;
        if (kernel.enumValue(QLatin1String(o[0]), &value) && value >= 0)
            m_ops.append({quint32(value), QByteArray(o[1])});
    }
}

QByteArray BlockFlagDecoder::decode(quint32 cmdFlags) const
{
    QByteArray s;
    for (const auto &f : m_flags) {
        if (cmdFlags & f.first)
            s += f.second;
    }
    const quint32 op = cmdFlags & m_opMask;
    for (const auto &o : m_ops) {
        if (o.first == op)
            return s + o.second;
    }
    return s + "Unknown";
}

BlockProbe::BlockProbe()
    : SkeletonProbe(QStringLiteral("block"))
{
}

BlockProbe::~BlockProbe() = default;

quint32 BlockProbe::diskDevice(const QString &disk)
{
    if (disk.isEmpty() || disk.contains(QLatin1Char('/')) || disk.startsWith(QLatin1Char('.')))
        return 0;
    QFile f(QStringLiteral("/sys/block/%1/dev").arg(disk));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> parts = f.readAll().trimmed().split(':');
    if (parts.size() != 2)
        return 0;
    bool okMajor = false, okMinor = false;
    const quint32 major = parts[0].toUInt(&okMajor);
    const quint32 minor = parts[1].toUInt(&okMinor);
    if (!okMajor || !okMinor || major >= (1u << 12) || minor >= (1u << 20))
        return 0;
    return major << 20 | minor;
}

AttachPlan BlockProbe::plan(const KernelFeatures &kernel, const QVariantMap &options)
{
    AttachPlan p;
    if (!kernel.hasBtf()) {
        p.available = false;
        p.reason = kernel.btfError();
        return p;
    }
    for (const Hook &h : hooks) {
        if (kernel.hasBtfTracepoint(QLatin1String(h.name))) {
            // Without block_io_start no request would have a submitter: as fatal as the others.
            p.groups.append(
                {{{h.name, tpBtf(h.name)}}, h.required || &h == &hooks[0], QLatin1String(h.name)});
        } else if (h.required) {
            // Classic block tracepoints carry no request pointer to pair issue and completion.
            p.available = false;
            p.reason = QStringLiteral("the kernel has no BTF tracepoint %1").arg(tpBtf(h.name));
            return p;
        }
    }
    if (!kernel.hasBtfTracepoint(QStringLiteral("block_rq_insert")))
        p.reason = QStringLiteral("no block_rq_insert: queue times are 0");
    else if (!kernel.hasBtfTracepoint(QStringLiteral("block_io_start")))
        p.reason = QStringLiteral("no block_io_start: the submitter is taken at insert/issue");
    const QString disk = options.value(QStringLiteral("disk")).toString();
    if (!disk.isEmpty() && !diskDevice(disk)) {
        p.available = false;
        p.reason = QStringLiteral("no disk named \"%1\" in /sys/block").arg(disk.left(32));
    }
    return p;
}

ProbeAvailability BlockProbe::availability(const KernelFeatures &kernel,
                                           const QVariantMap &options) const
{
    return availabilityOf(plan(kernel, options));
}

bool BlockProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    const AttachPlan p = plan(kernel, options);
    if (!p.available) {
        *error = p.reason;
        return false;
    }
    m_decoder = std::make_unique<BlockFlagDecoder>(kernel);
    if (!m_decoder->isValid()) {
        *error = QStringLiteral("the kernel's BTF has no request flag bits (__REQ_FAILFAST_DEV)");
        return false;
    }
    m_lastUnattributed = 0;
    m_lastMerged = 0;
    return startSkeleton(p, options, error, [&](CommonFilters &f, QString *) {
        auto *ro = m_skel->rodata;
        ro->filters_active = f.tgid || f.tid || f.uidSet || !f.comm.isEmpty() || ro->filter_cgroup;
        setRequestRodata(ro, kernel, options);
        m_perDisk = options.value(QStringLiteral("perDisk")).toBool();
        m_perFlags = options.value(QStringLiteral("perFlags")).toBool();
        ro->targ_per_disk = m_perDisk;
        ro->targ_per_flags = m_perFlags;
        m_unit = timeUnitOption(options);
        ro->unit_div = unitDivisor(m_unit);
        ro->min_ns = quint64(options.value(QStringLiteral("minLatencyUs")).toLongLong()) * 1000u;
        // Older kernels passed (q, rq, bio).
        ro->bio_merge_arg = kernel.tracepointArgCount(QStringLiteral("block_bio_backmerge")) == 3;
        ro->pid_at_rq = !kernel.hasBtfTracepoint(QStringLiteral("block_io_start"));
        setHistogramMap(m_skel->maps.hists);
        return true;
    });
}

void BlockProbe::doStop()
{
    SkeletonProbe::doStop();
    m_detached = false;
    m_unfinished.reset();
}

void BlockProbe::doDetach()
{
    SkeletonProbe::doDetach();
    m_detached = true;
}

// The stages left once no program runs any more: requests of wanted submitters seen inserted
// or issued whose completion the session did not see. Either they were still in flight at the
// stop (often, on a busy disk), or they ended without the completion program running, which the
// kernel does under load (issue 3: runs of up to 35 consecutive requests) and which is counted
// as not seen in the kernel only when the request's pointer starts its next life. Which of the
// two cannot be told from here, so they are a number of their own (ProbeStats::unfinished).
quint64 BlockProbe::unfinishedRequests() const
{
    const int fd = bpf_map__fd(m_skel->maps.start);
    const bool filtered = m_skel->rodata->filters_active;
    quint64 n = 0, key = 0, next = 0;
    const void *prev = nullptr;
    stage st{};
    while (bpf_map_get_next_key(fd, prev, &next) == 0) {
        if (bpf_map_lookup_elem(fd, &next, &st) == 0 && (st.known ? st.who.wanted : !filtered))
            ++n;
        key = next;
        prev = &key;
    }
    return n;
}

quint64 BlockProbe::unfinishedAtStop() const
{
    if (!m_detached || !m_skel)
        return 0;
    if (!m_unfinished)
        m_unfinished = unfinishedRequests();
    return *m_unfinished;
}

void BlockProbe::readCounters()
{
    const quint64 n = m_skel ? __atomic_load_n(&m_skel->bss->unattributed, __ATOMIC_RELAXED) : 0;
    if (n > m_lastUnattributed)
        emitCounter(unattributedCounter(), double(n - m_lastUnattributed));
    m_lastUnattributed = n;
    const quint64 m = m_skel ? __atomic_load_n(&m_skel->bss->merged, __ATOMIC_RELAXED) : 0;
    if (m > m_lastMerged)
        emitCounter(mergedCounter(), double(m - m_lastMerged));
    m_lastMerged = m;
}

bool BlockProbe::decode(const void *data, size_t size, RecordBatch &out)
{
    block_event e;
    if (size < sizeof(e))
        return false;
    memcpy(&e, data, sizeof(e));
    if (e.disk_len > BPFLENS_DISK_NAME_LEN || size != sizeof(e) + e.disk_len)
        return false;
    BlockEvent ev;
    ev.timeNs = e.ts;
    ev.dev = e.dev;
    ev.cmdFlags = e.cmd_flags;
    ev.sector = e.sector;
    ev.bytes = e.bytes;
    ev.pid = e.pid;
    ev.cgroupId = e.cgroup_id;
    ev.queueNs = e.queue_ns;
    ev.deviceNs = e.device_ns;
    ev.disk = QByteArray(static_cast<const char *>(data) + sizeof(e), int(e.disk_len));
    ev.op = m_decoder->decode(e.cmd_flags);
    ev.comm = QByteArray(e.comm, int(qstrnlen(e.comm, sizeof(e.comm))));
    if (!ev.disk.isEmpty())
        m_diskNames.insert(ev.dev, ev.disk);
    out.block.append(ev);
    return true;
}

QByteArray BlockProbe::diskName(quint32 dev)
{
    auto it = m_diskNames.constFind(dev);
    if (it != m_diskNames.cend())
        return *it;
    const QByteArray name = diskNameOf(dev);
    m_diskNames.insert(dev, name);
    return name;
}

QByteArray BlockProbe::diskNameOf(quint32 dev)
{
    // /sys/dev/block/MAJ:MIN links to the disk's directory, named like the disk.
    const QString link = QStringLiteral("/sys/dev/block/%1:%2")
                             .arg(BlockEvent::major(dev))
                             .arg(BlockEvent::minor(dev));
    QByteArray name = QFileInfo(QFileInfo(link).symLinkTarget()).fileName().toLocal8Bit();
    if (name.isEmpty())
        name = QStringLiteral("%1:%2")
                   .arg(BlockEvent::major(dev))
                   .arg(BlockEvent::minor(dev))
                   .toLatin1();
    return name;
}

void BlockProbe::readHistograms()
{
    if (!m_skel)
        return;
    // Raw flag sets that read the same (bits biolatency does not name) share one histogram.
    QMap<QString, Log2Histogram> merged;
    forEachHistogram<block_hist_key>(
        bpf_map__fd(m_skel->maps.hists), m_unit,
        [&](const block_hist_key &key, const Log2Histogram &one) {
            QStringList parts;
            if (m_perDisk)
                parts.append(QString::fromLocal8Bit(diskName(key.dev)));
            if (m_perFlags)
                parts.append(QString::fromLatin1(m_decoder->decode(key.cmd_flags)));
            const QString name = parts.join(QLatin1Char('/'));
            auto it = merged.find(name);
            if (it == merged.end())
                it = merged.insert(name, Log2Histogram(m_unit));
            it->merge(one);
        });
    for (auto it = merged.cbegin(); it != merged.cend(); ++it)
        emitHistogram(it.key(), it.value());
}

} // namespace bpflens
