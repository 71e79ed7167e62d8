#include "helper/iostackprobe.h"

#include <linux/types.h> // before the plain-C cell header

#include "bpf/iostack.records.h"
#include "helper/blockprobe.h"
#include "iostack.skel.h"
#include "iostack_compat.skel.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include <linux/bpf.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace bpflens {

namespace {

// Whether the verifier accepts atomic fetch operations (5.12 and later): a one-instruction
// program is the only reliable test, as distributions backport verifier changes. The answer
// cannot change while the system runs.
bool kernelHasAtomicFetch()
{
    static const bool has = [] {
        const bpf_insn insns[] = {
            {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0},
            {BPF_STX | BPF_DW | BPF_MEM, BPF_REG_10, BPF_REG_0, -8, 0},
            {BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_1, 0, 0, 1},
            {BPF_STX | BPF_DW | BPF_ATOMIC, BPF_REG_10, BPF_REG_1, -8, BPF_ADD | BPF_FETCH},
            {BPF_JMP | BPF_EXIT, 0, 0, 0, 0},
        };
        const int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, nullptr, "GPL", insns,
                                     sizeof(insns) / sizeof(insns[0]), nullptr);
        if (fd < 0)
            return false;
        close(fd);
        return true;
    }();
    return has;
}

// The object for this kernel. Both are built from iostack.bpf.c with the same programs, maps
// and variables in the same order, so the skeleton of one describes the other: only the ELF
// bytes differ. BPFLENS_TEST_IOSTACK_COMPAT=1 picks the compatible one on any kernel, so the
// tests run it on new kernels too.
iostack_bpf *openIoStackObject(bool *compat)
{
    const char *force = std::getenv("BPFLENS_TEST_IOSTACK_COMPAT");
    *compat = (force && std::strcmp(force, "1") == 0) || !kernelHasAtomicFetch();
    if (!*compat)
        return iostack_bpf__open();
    auto *obj = static_cast<iostack_bpf *>(calloc(1, sizeof(iostack_bpf)));
    if (!obj) {
        errno = ENOMEM;
        return nullptr;
    }
    int err = iostack_bpf__create_skeleton(obj);
    if (!err) {
        obj->skeleton->data = iostack_compat_bpf__elf_bytes(&obj->skeleton->data_sz);
        err = bpf_object__open_skeleton(obj->skeleton, nullptr);
    }
    if (err) {
        iostack_bpf__destroy(obj);
        errno = -err;
        return nullptr;
    }
    return obj;
}

const char *const opIds[IOSTACK_NR_OPS] = {"read", "write", "open", "fsync", "unattributed"};
const char *const layerIds[IOSTACK_NR_LAYERS] = {"syscall", "vfs", "fs", "block-queue",
                                                 "block-device"};

// The functions of the VFS and file-system layers, per operation. readv/writev have their own
// VFS entry; each function is hooked by fentry/fexit, else kprobe/kretprobe.
struct LayerFunction
{
    int op;
    int layer;
    const char *function;
};
constexpr LayerFunction layerFunctions[] = {
    {IOSTACK_OP_READ, IOSTACK_LAYER_VFS, "vfs_read"},
    {IOSTACK_OP_READ, IOSTACK_LAYER_VFS, "vfs_readv"},
    {IOSTACK_OP_WRITE, IOSTACK_LAYER_VFS, "vfs_write"},
    {IOSTACK_OP_WRITE, IOSTACK_LAYER_VFS, "vfs_writev"},
    {IOSTACK_OP_OPEN, IOSTACK_LAYER_VFS, "vfs_open"},
    {IOSTACK_OP_FSYNC, IOSTACK_LAYER_VFS, "vfs_fsync_range"},
    {IOSTACK_OP_READ, IOSTACK_LAYER_FS, "ext4_file_read_iter"},
    {IOSTACK_OP_WRITE, IOSTACK_LAYER_FS, "ext4_file_write_iter"},
    {IOSTACK_OP_OPEN, IOSTACK_LAYER_FS, "ext4_file_open"},
    {IOSTACK_OP_FSYNC, IOSTACK_LAYER_FS, "ext4_sync_file"},
};

AttachGroup btfGroup(const QList<QByteArray> &progs, const QStringList &tracepoints, bool required,
                     const QString &what)
{
    AttachGroup g;
    for (int i = 0; i < progs.size(); ++i)
        g.programs.append({progs[i], QStringLiteral("tp_btf/") + tracepoints[i]});
    g.required = required;
    g.what = what;
    return g;
}

QString hookList(const AttachGroup &g)
{
    QStringList parts;
    for (const AttachGroup::Program &p : g.programs)
        parts.append(p.path);
    return parts.join(QStringLiteral(", "));
}

int cellIndex(int op, int layer)
{
    return op * IOSTACK_NR_LAYERS + layer;
}

} // namespace

IoStackProbe::IoStackProbe()
    : SkeletonProbe(QStringLiteral("iostack"))
{
}

IoStackProbe::~IoStackProbe() = default;

QStringList IoStackProbe::opNames()
{
    QStringList l;
    for (const char *o : opIds)
        l.append(QLatin1String(o));
    return l;
}

QStringList IoStackProbe::layerNames()
{
    QStringList l;
    for (const char *n : layerIds)
        l.append(QLatin1String(n));
    return l;
}

IoStackProbe::Plan IoStackProbe::plan(const KernelFeatures &kernel, const QVariantMap &options)
{
    Plan p;
    AttachPlan &a = p.attach;
    if (!kernel.hasBtf()) {
        a.available = false;
        a.reason = kernel.btfError();
        return p;
    }
    // The syscall layer is the frame everything else is measured in: without it, nothing.
    if (!kernel.hasBtfTracepoint(QStringLiteral("sys_enter")) ||
        !kernel.hasBtfTracepoint(QStringLiteral("sys_exit"))) {
        a.available = false;
        a.reason = QStringLiteral("the kernel has no raw sys_enter/sys_exit tracepoints in its "
                                  "BTF, which every layer is measured within");
        return p;
    }
    const QString disk = options.value(QStringLiteral("disk")).toString();
    if (!disk.isEmpty() && !BlockProbe::diskDevice(disk)) {
        a.available = false;
        a.reason = QStringLiteral("no disk named \"%1\" in /sys/block").arg(disk.left(32));
        return p;
    }
    const bool queued = options.value(QStringLiteral("queued")).toBool();

    // cells[op][layer]: hooks, or why not
    QString hooks[IOSTACK_NR_OPS][IOSTACK_NR_LAYERS];
    QString missing[IOSTACK_NR_OPS][IOSTACK_NR_LAYERS];

    a.groups.append(btfGroup({"iostack_sys_enter", "iostack_sys_exit"},
                             {QStringLiteral("sys_enter"), QStringLiteral("sys_exit")}, true,
                             QStringLiteral("syscalls")));
    for (int op = 0; op < IOSTACK_OP_UNATTRIBUTED; ++op)
        hooks[op][IOSTACK_LAYER_SYSCALL] = hookList(a.groups.last());

    // ext4's fsync tracepoints are stable where the function may be inlined or renamed.
    const bool syncTracepoints = kernel.hasBtfTracepoint(QStringLiteral("ext4_sync_file_enter")) &&
                                 kernel.hasBtfTracepoint(QStringLiteral("ext4_sync_file_exit"));
    if (syncTracepoints) {
        a.groups.append(btfGroup(
            {"iostack_ext4_sync_enter", "iostack_ext4_sync_exit"},
            {QStringLiteral("ext4_sync_file_enter"), QStringLiteral("ext4_sync_file_exit")}, false,
            QStringLiteral("the ext4 fsync layer")));
        hooks[IOSTACK_OP_FSYNC][IOSTACK_LAYER_FS] = hookList(a.groups.last());
    }
    const FunctionHooks functionHooks = FunctionHooks::fromOptions(options);
    for (const LayerFunction &f : layerFunctions) {
        const QString fn = QLatin1String(f.function);
        QString &h = hooks[f.op][f.layer];
        if (f.layer == IOSTACK_LAYER_FS && f.op == IOSTACK_OP_FSYNC && syncTracepoints)
            continue;
        AttachGroup g;
        g.required = false;
        g.what = QStringLiteral("the %1 layer of %2 (%3)")
                     .arg(QLatin1String(layerIds[f.layer]), QLatin1String(opIds[f.op]), fn);
        QString why;
        g.programs = functionHooks.hook(kernel, "iostack_", fn, &why);
        if (g.programs.isEmpty()) {
            QString &m = missing[f.op][f.layer];
            if (m.isEmpty())
                m = QStringLiteral("%1 needs fentry or kprobes: %2").arg(fn, why);
            continue;
        }
        a.groups.append(g);
        h = h.isEmpty() ? hookList(g) : h + QStringLiteral(", ") + hookList(g);
        if (f.op == IOSTACK_OP_FSYNC && f.layer == IOSTACK_LAYER_VFS)
            p.vfsFsync = true;
    }

    // Block: issue and completion are the request's life; the rest refines it.
    const bool blockCore = kernel.hasBtfTracepoint(QStringLiteral("block_rq_issue")) &&
                           kernel.hasBtfTracepoint(QStringLiteral("block_rq_complete"));
    QString blockMissing;
    if (blockCore) {
        p.ioStart = kernel.hasBtfTracepoint(QStringLiteral("block_io_start"));
        if (p.ioStart)
            a.groups.append(btfGroup({"iostack_io_start"}, {QStringLiteral("block_io_start")},
                                     false, QStringLiteral("block attribution")));
        const bool insert = kernel.hasBtfTracepoint(QStringLiteral("block_rq_insert"));
        if (insert)
            a.groups.append(btfGroup({"iostack_rq_insert"}, {QStringLiteral("block_rq_insert")},
                                     false, QStringLiteral("queue times")));
        a.groups.append(
            btfGroup({"iostack_rq_issue", "iostack_rq_complete"},
                     {QStringLiteral("block_rq_issue"), QStringLiteral("block_rq_complete")}, false,
                     QStringLiteral("the block layers")));
        QString blockHooks = hookList(a.groups.last());
        for (const char *tp : {"block_rq_requeue", "block_rq_merge"}) {
            if (kernel.hasBtfTracepoint(QLatin1String(tp)))
                a.groups.append(btfGroup({QByteArray("iostack_rq_") + (tp + 9)},
                                         {QLatin1String(tp)}, false, QLatin1String(tp)));
        }
        for (int op = 0; op < IOSTACK_NR_OPS; ++op) {
            hooks[op][IOSTACK_LAYER_BLOCK_DEVICE] = blockHooks;
            if (queued && insert)
                hooks[op][IOSTACK_LAYER_BLOCK_QUEUE] =
                    QStringLiteral("tp_btf/block_rq_insert, ") + blockHooks;
            else if (queued)
                missing[op][IOSTACK_LAYER_BLOCK_QUEUE] =
                    QStringLiteral("the kernel has no block_rq_insert tracepoint");
            else
                missing[op][IOSTACK_LAYER_BLOCK_QUEUE] =
                    QStringLiteral("queue time is only measured with the queued option");
        }
        if (!p.ioStart)
            a.addReason(QStringLiteral("no block_io_start: requests are attributed to the task "
                                       "that inserts or issues them"));
    } else {
        blockMissing = QStringLiteral("the kernel has no BTF tracepoints block_rq_issue and "
                                      "block_rq_complete");
        for (int op = 0; op < IOSTACK_NR_OPS; ++op) {
            missing[op][IOSTACK_LAYER_BLOCK_DEVICE] = blockMissing;
            missing[op][IOSTACK_LAYER_BLOCK_QUEUE] = blockMissing;
        }
    }
    if (kernel.hasBtfTracepoint(QStringLiteral("sched_process_exit")))
        a.groups.append(btfGroup({"iostack_thread_exit"}, {QStringLiteral("sched_process_exit")},
                                 false, QStringLiteral("thread exits")));

    // What is not measured, per layer, said once per reason.
    QMap<QString, QStringList> notMeasured; // reason -> cells
    for (int op = 0; op < IOSTACK_NR_OPS; ++op) {
        for (int layer = 0; layer < IOSTACK_NR_LAYERS; ++layer) {
            if (op == IOSTACK_OP_UNATTRIBUTED && layer < IOSTACK_LAYER_BLOCK_QUEUE)
                continue;
            Layer l;
            l.op = QLatin1String(opIds[op]);
            l.layer = QLatin1String(layerIds[layer]);
            l.hooks = hooks[op][layer];
            l.available = !l.hooks.isEmpty();
            l.reason = missing[op][layer];
            if (!l.available && l.reason.isEmpty())
                l.reason = QStringLiteral("no hook for this layer on this kernel");
            p.layers.append(l);
            if (!l.available && !(layer == IOSTACK_LAYER_BLOCK_QUEUE && !queued))
                notMeasured[l.reason].append(l.op + QLatin1Char('/') + l.layer);
        }
    }
    for (auto it = notMeasured.cbegin(); it != notMeasured.cend(); ++it)
        a.addReason(QStringLiteral("not measured: %1 (%2)")
                        .arg(it.value().join(QStringLiteral(", ")), it.key()));
    return p;
}

QList<IoStackProbe::Layer> IoStackProbe::layers(const KernelFeatures &kernel,
                                                const QVariantMap &options)
{
    return plan(kernel, options).layers;
}

ProbeAvailability IoStackProbe::availability(const KernelFeatures &kernel,
                                             const QVariantMap &options) const
{
    return availabilityOf(plan(kernel, options).attach);
}

iostack_bpf *IoStackProbe::openSkeleton()
{
    bool compat = false;
    iostack_bpf *skel = openIoStackObject(&compat);
    if (skel && compat)
        qInfo("iostack: using the object without atomic fetch operations (kernels before 5.12)");
    return skel;
}

bool IoStackProbe::doStart(const QVariantMap &options, const KernelFeatures &kernel, QString *error)
{
    const Plan p = plan(kernel, options);
    if (!startSkeleton(p.attach, options, error, [&](CommonFilters &, QString *) {
            auto *ro = m_skel->rodata;
            BlockProbe::setRequestRodata(ro, kernel, options);
            m_unit = timeUnitOption(options);
            ro->unit_div = unitDivisor(m_unit);
            ro->attribute_at_rq = !p.ioStart;
            ro->vfs_fsync_hooked = p.vfsFsync;
            ro->targ_all_fds = options.value(QStringLiteral("allFds")).toBool();
            return true;
        }))
        return false;

    m_cells = QList<Cell>(IOSTACK_NR_CELLS, Cell{0, 0, 0, Log2Histogram(m_unit)});
    m_reported = m_cells;
    m_measured = QList<bool>(IOSTACK_NR_CELLS, false);
    // What attached decides what is reported: a cell of a layer that did not attach would
    // only ever say 0, which reads as "no time there".
    const QString attached = attachPath();
    for (const Layer &l : p.layers) {
        bool on = l.available;
        const QStringList parts = l.hooks.split(QStringLiteral(", "), Qt::SkipEmptyParts);
        for (const QString &h : parts)
            on = on && attached.contains(h);
        const int op = int(opNames().indexOf(l.op));
        const int layer = int(layerNames().indexOf(l.layer));
        if (op >= 0 && layer >= 0)
            m_measured[cellIndex(op, layer)] = on;
    }
    return true;
}

quint64 IoStackProbe::kernelLost() const
{
    if (!m_skel)
        return 0;
    return SkeletonProbe::kernelLost() +
           __atomic_load_n(&m_skel->bss->untracked_requests, __ATOMIC_RELAXED);
}

bool IoStackProbe::readCells()
{
    if (!m_skel || m_cells.size() != IOSTACK_NR_CELLS)
        return false;
    const int fd = bpf_map__fd(m_skel->maps.cells);
    for (__u32 i = 0; i < IOSTACK_NR_CELLS; ++i) {
        iostack_cell c{};
        if (bpf_map_lookup_elem(fd, &i, &c) != 0)
            return false;
        Cell &cell = m_cells[int(i)];
        cell.count = c.count;
        cell.totalNs = c.total_ns;
        cell.exclusiveNs = c.exclusive_ns;
        cell.hist = Log2Histogram(m_unit);
        for (int s = 0; s < BPFLENS_MAX_SLOTS; ++s) {
            if (c.hist.slots[s])
                cell.hist.addToSlot(s, c.hist.slots[s]);
        }
        cell.hist.setSum(c.hist.sum);
    }
    return true;
}

void IoStackProbe::readHistograms()
{
    if (!readCells())
        return;
    for (int i = 0; i < IOSTACK_NR_CELLS; ++i) {
        if (!m_measured.value(i))
            continue;
        const QString key = QLatin1String(opIds[i / IOSTACK_NR_LAYERS]) + QLatin1Char('/') +
                            QLatin1String(layerIds[i % IOSTACK_NR_LAYERS]);
        emitHistogram(key, m_cells[i].hist);
    }
}

void IoStackProbe::readCounters()
{
    // readHistograms() of the same snapshot read the cells: counters and histograms agree.
    for (int i = 0; i < m_cells.size(); ++i) {
        if (!m_measured.value(i))
            continue;
        const Cell &now = m_cells[i];
        Cell &before = m_reported[i];
        const quint64 count = now.count - before.count;
        const quint64 total = now.totalNs - before.totalNs;
        const quint64 exclusive = now.exclusiveNs - before.exclusiveNs;
        if (!count && !total && !exclusive)
            continue;
        const int op = i / IOSTACK_NR_LAYERS;
        const QString prefix = QLatin1String(opIds[op]) + QLatin1Char('/') +
                               QLatin1String(layerIds[i % IOSTACK_NR_LAYERS]) + QLatin1Char('/');
        emitCounter(prefix + QStringLiteral("count"), double(count));
        emitCounter(prefix + QStringLiteral("total_ns"), double(total));
        // Unattributed requests stack under no syscall: they have no exclusive share.
        if (op != IOSTACK_OP_UNATTRIBUTED)
            emitCounter(prefix + QStringLiteral("exclusive_ns"), double(exclusive));
        before.count = now.count;
        before.totalNs = now.totalNs;
        before.exclusiveNs = now.exclusiveNs;
    }
}

} // namespace bpflens
