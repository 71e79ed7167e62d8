#include "core/pprofexport.h"

#include "core/allocations.h"
#include "core/callgraph.h"
#include "core/protobufwriter.h"
#include "core/specialfile.h"

#include <QHash>
#include <QIODevice>
#include <QSet>

#include <zlib.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace bpflens {

namespace {

// profile.proto's field numbers.
namespace Profile {
enum : int
{
    SampleType = 1,
    Sample = 2,
    Mapping = 3,
    Location = 4,
    Function = 5,
    StringTable = 6,
    TimeNanos = 9,
    DurationNanos = 10,
    PeriodType = 11,
    Period = 12,
    Comment = 13,
    DefaultSampleType = 14,
};
}
namespace ValueType {
enum : int
{
    Type = 1,
    Unit = 2,
};
}
namespace Sample {
enum : int
{
    LocationId = 1,
    Value = 2,
    Label = 3,
};
}
namespace Label {
enum : int
{
    Key = 1,
    Str = 2,
    Num = 3,
};
}
namespace Mapping {
enum : int
{
    Id = 1,
    MemoryStart = 2,
    MemoryLimit = 3,
    FileOffset = 4,
    Filename = 5,
    BuildId = 6,
    HasFunctions = 7,
    HasFilenames = 8,
    HasLineNumbers = 9,
    HasInlineFrames = 10,
};
}
namespace Location {
enum : int
{
    Id = 1,
    MappingId = 2,
    Address = 3,
    Line = 4,
};
}
namespace Line {
enum : int
{
    FunctionId = 1,
    Line = 2,
};
}
namespace Function {
enum : int
{
    Id = 1,
    Name = 2,
    SystemName = 3,
    Filename = 4,
};
}

// The string table: index 0 is "" as the format requires.
class Strings
{
public:
    Strings() { id(QByteArray()); }
    qint64 id(const QByteArray &s)
    {
        const auto it = m_ids.constFind(s);
        if (it != m_ids.constEnd())
            return it.value();
        const qint64 n = qint64(m_list.size());
        m_ids.insert(s, n);
        m_list.append(s);
        return n;
    }
    qint64 id(const QString &s) { return id(s.toUtf8()); }
    const QList<QByteArray> &list() const { return m_list; }

private:
    QHash<QByteArray, qint64> m_ids;
    QList<QByteArray> m_list;
};

// The events of a pprof sample: one per distinct stack, process, thread and command.
struct SampleKey
{
    quint32 stackId = 0;
    quint32 pid = 0;
    quint32 tid = 0;
    QByteArray comm;
    quint64 cgroupId = 0;
    bool operator==(const SampleKey &) const = default;
};
size_t qHash(const SampleKey &k, size_t seed = 0)
{
    return qHashMulti(seed, k.stackId, k.pid, k.tid, k.comm, k.cgroupId);
}
// On- and off-CPU: count and nanoseconds; heap: alloc_objects, alloc_space, inuse_objects,
// inuse_space, and the blocks' mean size for the "bytes" label.
struct SampleValues
{
    qint64 count = 0;
    qint64 nanoseconds = 0;
    qint64 inuseObjects = 0;
    qint64 inuseSpace = 0;
    qint64 blockBytes = 0;
};

// A module as a pprof mapping. Kernel code keeps its absolute addresses; user code's addresses
// are relative to its module's load base (core/stacks.h), so each user module is given a range
// of its own, one after the other, and its locations are placed there.
struct ModuleKey
{
    FrameKind kind = FrameKind::User;
    QByteArray module;
    QByteArray buildId;
    bool operator==(const ModuleKey &) const = default;
};
size_t qHash(const ModuleKey &k, size_t seed = 0)
{
    return qHashMulti(seed, quint8(k.kind), k.module, k.buildId);
}
struct ModuleRange
{
    quint64 id = 0;
    quint64 low = std::numeric_limits<quint64>::max();
    quint64 high = 0;  // the highest frame address
    quint64 start = 0; // the mapping's memory_start
    quint64 limit = 0;
    bool hasFiles = false; // some frame has a source file (DWARF)
    bool hasLines = false;
    bool hasInlined = false;
};

constexpr quint64 pageSize = 4096;
quint64 pageDown(quint64 a)
{
    return a & ~(pageSize - 1);
}
quint64 pageUp(quint64 a)
{
    return a > std::numeric_limits<quint64>::max() - pageSize ? std::numeric_limits<quint64>::max()
                                                              : pageDown(a + pageSize - 1);
}

QByteArray mappingName(const ModuleKey &m)
{
    if (m.kind == FrameKind::Kernel)
        return m.module == "vmlinux" ? QByteArrayLiteral("[kernel.kallsyms]")
                                     : '[' + m.module + ']';
    return m.module;
}

// The profile probe's frequency as the session recorded it (default 99 Hz).
qint64 samplingFrequency(const SessionInfo &info)
{
    for (const ProbeConfig &p : info.probes) {
        if (p.id == QLatin1String(EventTraits<CpuSampleEvent>::probeId)) {
            bool ok = false;
            const qint64 hz = p.options.value(QStringLiteral("frequency")).toLongLong(&ok);
            if (ok && hz > 0)
                return hz;
        }
    }
    return 99;
}

QString probeLine(const SessionInfo &info, const char *probeId)
{
    for (const ProbeConfig &p : info.probes) {
        if (p.id == QLatin1String(probeId))
            return p.attachPath.isEmpty()
                       ? QStringLiteral("probe %1").arg(p.id)
                       : QStringLiteral("probe %1 via %2").arg(p.id, p.attachPath);
    }
    return QStringLiteral("probe %1").arg(QLatin1String(probeId));
}

template<typename E>
void collect(const SessionData &session, const PprofOptions &options, quint64 startNs,
             quint64 endNs, qint64 periodNs, QHash<SampleKey, SampleValues> *samples,
             std::vector<SampleKey> *order, qsizetype *events)
{
    const EventStore &store = session.events;
    const EventType type = eventTypeOf<E>;
    const EventMatcher matcher(options.filter);
    const bool filtered = !options.filter.isEmpty();
    const qsizetype end = store.lowerBound(type, endNs);
    for (qsizetype i = store.lowerBound(type, startNs); i < end; ++i) {
        if (filtered && !matcher.accepts<E>(store, i))
            continue;
        SampleKey key{store.template value<&E::stackId>(i), store.template value<&E::pid>(i),
                      store.template value<&E::tid>(i), store.template value<&E::comm>(i),
                      store.template value<&E::cgroupId>(i)};
        auto it = samples->find(key);
        if (it == samples->end()) {
            order->push_back(key);
            it = samples->insert(key, {});
        }
        ++it->count;
        if constexpr (std::is_same_v<E, OffCpuEvent>)
            it->nanoseconds += qint64(store.template value<&E::offNs>(i));
        else
            it->nanoseconds += periodNs;
        ++*events;
    }
}

// The heap profile's samples: one per stack, as sumAllocations counts the blocks allocated in
// [startNs, endNs) and those still in use at endNs (the session's end: never freed while
// recorded). The filter's pid and comm go to the query; any other part of it picks the events
// first.
AllocationSums collectHeap(const SessionData &session, const PprofOptions &options, quint64 startNs,
                           quint64 endNs, quint64 sessionEnd,
                           QHash<SampleKey, SampleValues> *samples, std::vector<SampleKey> *order)
{
    using E = AllocationEvent;
    AllocationQuery query;
    query.startNs = startNs;
    query.endNs = endNs >= sessionEnd ? ~quint64(0) : endNs;
    EventFilter rest = options.filter;
    rest.pid = -1;
    rest.comm.clear();
    const EventStore *store = &session.events;
    EventStore kept;
    if (rest.isEmpty()) {
        query.pid = options.filter.pid;
        query.comm = options.filter.comm;
    } else {
        const EventMatcher matcher(options.filter);
        const qsizetype n = session.events.count(EventType::Allocation);
        for (qsizetype i = 0; i < n; ++i) {
            if (matcher.accepts<E>(session.events, i))
                kept.append(session.events.event<E>(i));
        }
        store = &kept;
    }
    AllocationSums sums = sumAllocations(*store, query, session.stacks.stackCount());
    for (size_t id = 0; id < sums.allocBlocks.size(); ++id) {
        if (!sums.allocBlocks[id])
            continue;
        SampleKey key;
        key.stackId = quint32(id);
        order->push_back(key);
        SampleValues &v = (*samples)[key];
        v.count = qint64(sums.allocBlocks[id]);
        v.nanoseconds = qint64(sums.allocBytes[id]);
        v.inuseObjects = qint64(sums.inuseBlocks[id]);
        v.inuseSpace = qint64(sums.inuseBytes[id]);
        // Go's label: its records are per stack and size, so this is their size; a stack here
        // may allocate several sizes, and gets their mean.
        v.blockBytes = v.nanoseconds / v.count;
    }
    return sums;
}

} // namespace

qint64 PprofExport::samplingFrequency(const SessionInfo &info)
{
    return bpflens::samplingFrequency(info);
}

QList<PprofKind> PprofExport::kindsIn(const SessionData &session)
{
    QList<PprofKind> kinds;
    if (session.events.count(EventType::CpuSample))
        kinds.append(PprofKind::OnCpu);
    if (session.events.count(EventType::OffCpu))
        kinds.append(PprofKind::OffCpu);
    if (session.events.count(EventType::Allocation))
        kinds.append(PprofKind::Heap);
    return kinds;
}

bool PprofExport::encode(const SessionData &session, const PprofOptions &options, QByteArray *proto,
                         QString *error, PprofSummary *summary)
{
    const SessionInfo &info = session.info;
    const bool onCpu = options.kind == PprofKind::OnCpu;
    const bool heap = options.kind == PprofKind::Heap;
    const EventType type = heap    ? EventType::Allocation
                           : onCpu ? EventType::CpuSample
                                   : EventType::OffCpu;
    const quint64 sessionEnd =
        std::max({info.endMonotonicNs, session.events.lastTimeNs() + 1, info.startMonotonicNs});
    const quint64 startNs = std::max(options.startNs, info.startMonotonicNs);
    const quint64 endNs = std::min(options.endNs, sessionEnd);
    const qint64 hz = samplingFrequency(info);
    const qint64 periodNs = onCpu ? (1'000'000'000 + hz / 2) / hz : 1;

    QHash<SampleKey, SampleValues> sampleValues;
    std::vector<SampleKey> order; // first seen first: the same session gives the same bytes
    qsizetype events = 0;
    if (!session.events.count(type) && !options.allowEmpty) {
        if (error)
            *error = heap    ? QStringLiteral("the session has no allocations: record them with "
                                                 "the memleak probe")
                     : onCpu ? QStringLiteral("the session has no CPU samples: record them with "
                                              "the profile probe")
                             : QStringLiteral("the session has no off-CPU waits: record them "
                                              "with the offcpu probe");
        return false;
    }
    quint32 sampleEvery = 1;
    qint64 heapAllocBytes = 0;
    if (startNs < endNs) {
        if (heap) {
            const AllocationSums sums =
                collectHeap(session, options, startNs, endNs, sessionEnd, &sampleValues, &order);
            events = sums.events;
            sampleEvery = sums.sampleEvery;
            heapAllocBytes = qint64(sums.totalAllocBytes);
        } else if (onCpu)
            collect<CpuSampleEvent>(session, options, startNs, endNs, periodNs, &sampleValues,
                                    &order, &events);
        else
            collect<OffCpuEvent>(session, options, startNs, endNs, periodNs, &sampleValues, &order,
                                 &events);
    }
    if (!events && !options.allowEmpty) {
        if (error)
            *error = QStringLiteral("no %1 in the chosen time range under the filter")
                         .arg(heap    ? QStringLiteral("allocations")
                              : onCpu ? QStringLiteral("CPU samples")
                                      : QStringLiteral("off-CPU waits"));
        return false;
    }

    const StackTable &stacks = session.stacks;
    Strings strings;
    // Pass 1: the frames the samples use, and the address range of each module.
    QHash<ModuleKey, ModuleRange> modules;
    std::vector<ModuleKey> moduleOrder;
    QSet<quint32> seenFrames;
    for (const SampleKey &k : order) {
        if (!stacks.hasStack(k.stackId))
            continue;
        for (quint32 f : stacks.stack(k.stackId).frames) {
            if (seenFrames.contains(f) || !stacks.hasFrame(f))
                continue;
            seenFrames.insert(f);
            const StackFrame &frame = stacks.frame(f);
            if (frame.module.isEmpty())
                continue;
            const ModuleKey key{frame.kind, frame.module, frame.buildId};
            auto it = modules.find(key);
            if (it == modules.end()) {
                moduleOrder.push_back(key);
                it = modules.insert(key, {});
            }
            it->low = std::min(it->low, frame.address);
            it->high = std::max(it->high, frame.address);
            it->hasFiles |= !frame.file.isEmpty();
            it->hasLines |= frame.line != 0;
            it->hasInlined |= frame.inlined;
        }
    }
    // User modules first: pprof names the profile after its first mapping ("File:"), which
    // for a profile of one process is then its program or a library of it, not the kernel.
    std::stable_partition(moduleOrder.begin(), moduleOrder.end(),
                          [](const ModuleKey &k) { return k.kind == FrameKind::User; });
    for (size_t i = 0; i < moduleOrder.size(); ++i)
        modules[moduleOrder[i]].id = quint64(i) + 1;
    ProtobufWriter out;
    out.reserve(64 * 1024);
    ProtobufWriter m;
    quint64 nextUserStart = 0x400000; // where user modules' ranges begin (x86-64's usual)
    for (const ModuleKey &key : moduleOrder) {
        ModuleRange &r = modules[key];
        if (key.kind == FrameKind::Kernel) {
            r.start = pageDown(r.low);
            r.limit = pageUp(r.high + 1);
        } else {
            r.start = nextUserStart;
            r.limit = r.start + pageUp(r.high + 1);
            nextUserStart = (r.limit + 0xfffff) & ~quint64(0xfffff); // next MiB
        }
        m.clear();
        m.varint(Mapping::Id, r.id);
        m.varint(Mapping::MemoryStart, r.start);
        m.varint(Mapping::MemoryLimit, r.limit);
        m.varint(Mapping::FileOffset, 0);
        m.int64(Mapping::Filename, strings.id(mappingName(key)));
        m.int64(Mapping::BuildId, strings.id(key.buildId));
        m.varint(Mapping::HasFunctions, 1);
        if (r.hasFiles)
            m.varint(Mapping::HasFilenames, 1);
        if (r.hasLines)
            m.varint(Mapping::HasLineNumbers, 1);
        if (r.hasInlined)
            m.varint(Mapping::HasInlineFrames, 1);
        out.message(Profile::Mapping, m);
    }

    // Locations and functions. A location is an address: a frame, with the frames of the
    // functions inlined at that address before it (its Lines, innermost first, as pprof
    // expects them); a function is a name in a file.
    QHash<QByteArray, quint64> functionIds;
    ProtobufWriter fn, loc, line;
    auto function = [&](const QByteArray &name, const QByteArray &file) {
        const QByteArray key = name + '\0' + file;
        auto it = functionIds.constFind(key);
        if (it != functionIds.constEnd())
            return it.value();
        const quint64 id = quint64(functionIds.size()) + 1;
        functionIds.insert(key, id);
        fn.clear();
        fn.varint(Function::Id, id);
        fn.int64(Function::Name, strings.id(name));
        fn.int64(Function::SystemName, strings.id(name));
        if (!file.isEmpty())
            fn.int64(Function::Filename, strings.id(file));
        out.message(Profile::Function, fn);
        return id;
    };
    quint64 nextLocation = 1;
    auto marker = [&](const QByteArray &name) {
        const quint64 id = nextLocation++;
        loc.clear();
        loc.varint(Location::Id, id);
        line.clear();
        line.varint(Line::FunctionId, function(name, {}));
        loc.message(Location::Line, line);
        out.message(Profile::Location, loc);
        return id;
    };
    // leafFirst: inlined frames, then the frame they were inlined into (the last one).
    auto location = [&](const QList<quint32> &leafFirst) {
        const StackFrame &frame = stacks.frame(leafFirst.last());
        quint64 mappingId = 0;
        quint64 address = frame.address;
        if (!frame.module.isEmpty()) {
            const ModuleRange &r = modules[ModuleKey{frame.kind, frame.module, frame.buildId}];
            mappingId = r.id;
            if (frame.kind == FrameKind::User)
                address = r.start + frame.address;
        }
        const quint64 id = nextLocation++;
        loc.clear();
        loc.varint(Location::Id, id);
        loc.varint(Location::MappingId, mappingId);
        loc.varint(Location::Address, address);
        for (quint32 f : leafFirst) {
            const StackFrame &lf = stacks.frame(f);
            // pprof marks inlined lines itself: the bare name, not frameName()'s "(inlined)".
            const QByteArray name = lf.symbol.isEmpty() ? stacks.frameName(f).toUtf8() : lf.symbol;
            line.clear();
            line.varint(Line::FunctionId, function(name, lf.file));
            if (lf.line)
                line.varint(Line::Line, lf.line);
            loc.message(Location::Line, line);
        }
        out.message(Profile::Location, loc);
        return id;
    };
    QHash<QList<quint32>, quint64> locationIds;
    QHash<quint32, QList<quint64>> stackLocations; // stack id -> location ids, leaf first
    QList<quint32> group;
    for (const SampleKey &k : order) {
        if (!stacks.hasStack(k.stackId) || stackLocations.contains(k.stackId))
            continue;
        QList<quint64> &ids = stackLocations[k.stackId];
        group.clear();
        const QList<quint32> &stackFrames = stacks.stack(k.stackId).frames;
        for (qsizetype i = 0; i < stackFrames.size(); ++i) {
            const quint32 f = stackFrames[i];
            group.append(f);
            // An inlined frame belongs to the next frame's location; one left at the root end
            // (the stack was cut there) makes a location of its own.
            if (stacks.frame(f).inlined && i + 1 < stackFrames.size())
                continue;
            auto it = locationIds.constFind(group);
            if (it == locationIds.constEnd())
                it = locationIds.insert(group, location(group));
            ids.append(it.value());
            group.clear();
        }
    }
    quint64 truncatedLocation = 0, noStackLocation = 0;

    // The samples.
    const qint64 pidKey = strings.id(QByteArrayLiteral("pid"));
    const qint64 tidKey = strings.id(QByteArrayLiteral("tid"));
    const qint64 commKey = strings.id(QByteArrayLiteral("comm"));
    const qint64 bytesKey = heap ? strings.id(QByteArrayLiteral("bytes")) : 0;
    // Interned on first use: a profile without containers or units has no such strings.
    qint64 containerKey = -1, unitKey = -1;
    ProtobufWriter s, label;
    std::vector<quint64> ids;
    for (const SampleKey &k : order) {
        ids.clear();
        if (stacks.hasStack(k.stackId)) {
            for (quint64 id : std::as_const(stackLocations[k.stackId]))
                ids.push_back(id);
            if (!ids.empty() && isTruncated(stacks, k.stackId, StackPart::Both)) {
                if (!truncatedLocation)
                    truncatedLocation = marker(QByteArrayLiteral("[truncated]"));
                ids.push_back(truncatedLocation);
            }
        }
        if (ids.empty()) {
            if (!noStackLocation)
                noStackLocation = marker(QByteArrayLiteral("[no stack]"));
            ids.push_back(noStackLocation);
        }
        const SampleValues &v = sampleValues[k];
        s.clear();
        s.packed(Sample::LocationId, ids);
        if (heap) {
            // A heap sample stands for a stack, not a thread: its label is the block size, as
            // Go's (pprof -tags, -tagfocus=bytes=4kB).
            s.packed(Sample::Value, {v.count, v.nanoseconds, v.inuseObjects, v.inuseSpace});
            if (v.blockBytes) {
                label.clear();
                label.int64(Label::Key, bytesKey);
                label.varint(Label::Num, quint64(v.blockBytes), true);
                s.message(Sample::Label, label);
            }
            out.message(Profile::Sample, s);
            continue;
        }
        s.packed(Sample::Value, {v.count, v.nanoseconds});
        label.clear();
        label.int64(Label::Key, pidKey);
        label.varint(Label::Num, k.pid, true);
        s.message(Sample::Label, label);
        label.clear();
        label.int64(Label::Key, tidKey);
        label.varint(Label::Num, k.tid, true);
        s.message(Sample::Label, label);
        label.clear();
        label.int64(Label::Key, commKey);
        label.int64(Label::Str, strings.id(k.comm));
        s.message(Sample::Label, label);
        // The container and the systemd unit, where the session's cgroups table names them
        // (docs/containers.md): a label only where there is a name, as Go's pprof omits empty
        // ones.
        const CgroupNames names = session.cgroups.names(k.cgroupId);
        if (!names.container.isEmpty()) {
            label.clear();
            if (containerKey < 0)
                containerKey = strings.id(QByteArrayLiteral("container"));
            label.int64(Label::Key, containerKey);
            label.int64(Label::Str, strings.id(names.container.toUtf8()));
            s.message(Sample::Label, label);
        }
        if (!names.unit.isEmpty()) {
            label.clear();
            if (unitKey < 0)
                unitKey = strings.id(QByteArrayLiteral("unit"));
            label.int64(Label::Key, unitKey);
            label.int64(Label::Str, strings.id(names.unit.toUtf8()));
            s.message(Sample::Label, label);
        }
        out.message(Profile::Sample, s);
    }

    // The header: sample types, period, times, comments.
    ProtobufWriter vt;
    auto valueType = [&](int field, const char *type, const char *unit) {
        vt.clear();
        vt.int64(ValueType::Type, strings.id(QByteArray(type)));
        vt.int64(ValueType::Unit, strings.id(QByteArray(unit)));
        out.message(field, vt);
    };
    if (heap) {
        // As Go's writeHeapProto (runtime/pprof/protomem.go): period_type space/bytes and the
        // period its sampling rate in bytes (1: every allocation). One-in-N sampling has no
        // rate in bytes; its mean, the bytes between two recorded allocations, stands for it.
        valueType(Profile::PeriodType, "space", "bytes");
        out.int64(Profile::Period,
                  sampleEvery > 1 && events ? std::max<qint64>(heapAllocBytes / events, 1) : 1);
        valueType(Profile::SampleType, "alloc_objects", "count");
        valueType(Profile::SampleType, "alloc_space", "bytes");
        valueType(Profile::SampleType, "inuse_objects", "count");
        valueType(Profile::SampleType, "inuse_space", "bytes");
        // Go leaves it unset for a heap profile, and pprof then takes the last type: the same.
        out.int64(Profile::DefaultSampleType, strings.id(QByteArrayLiteral("inuse_space")));
    } else if (onCpu) {
        valueType(Profile::SampleType, "samples", "count");
        valueType(Profile::SampleType, "cpu", "nanoseconds");
        valueType(Profile::PeriodType, "cpu", "nanoseconds");
        out.int64(Profile::Period, periodNs);
    } else {
        valueType(Profile::SampleType, "waits", "count");
        valueType(Profile::SampleType, "off_cpu", "nanoseconds");
        valueType(Profile::PeriodType, "waits", "count");
        out.int64(Profile::Period, 1);
        out.int64(Profile::DefaultSampleType, strings.id(QByteArrayLiteral("off_cpu")));
    }
    if (info.startWall.isValid())
        out.int64(Profile::TimeNanos, info.startWall.toMSecsSinceEpoch() * 1'000'000 +
                                          qint64(startNs - info.startMonotonicNs));
    out.int64(Profile::DurationNanos, qint64(endNs > startNs ? endNs - startNs : 0));
    QStringList comments;
    comments << QStringLiteral("BPF Lens %1").arg(info.appVersion);
    comments << probeLine(info, heap    ? EventTraits<AllocationEvent>::probeId
                                : onCpu ? EventTraits<CpuSampleEvent>::probeId
                                        : EventTraits<OffCpuEvent>::probeId);
    if (heap && sampleEvery > 1)
        comments << QStringLiteral("sampled: each recorded allocation stands for %1, the values "
                                   "are scaled by it")
                        .arg(sampleEvery);
    if (!info.host.isEmpty())
        comments << QStringLiteral("host %1, kernel %2").arg(info.host, info.kernelRelease);
    comments << options.comments;
    comments.removeAll(QString());
    for (const QString &c : std::as_const(comments))
        out.int64(Profile::Comment, strings.id(c));
    for (const QByteArray &str : strings.list())
        out.bytes(Profile::StringTable, str);

    *proto = out.data();
    if (summary) {
        summary->events = events;
        summary->samples = qsizetype(order.size());
        summary->locations = qsizetype(nextLocation - 1);
        summary->functions = functionIds.size();
        summary->mappings = qsizetype(moduleOrder.size());
    }
    return true;
}

bool PprofExport::gzip(const QByteArray &data, QByteArray *out, QString *error)
{
    z_stream z{};
    // 15 + 16: a window of 32 KiB with a gzip header and trailer instead of zlib's.
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK) {
        if (error)
            *error = QStringLiteral("cannot compress the profile: zlib failed to start");
        return false;
    }
    out->resize(qsizetype(deflateBound(&z, uLong(data.size()))));
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.constData()));
    z.avail_in = uInt(data.size());
    z.next_out = reinterpret_cast<Bytef *>(out->data());
    z.avail_out = uInt(out->size());
    const int status = deflate(&z, Z_FINISH);
    const qsizetype written = qsizetype(z.total_out);
    deflateEnd(&z);
    if (status != Z_STREAM_END) {
        if (error)
            *error = QStringLiteral("cannot compress the profile (zlib status %1)").arg(status);
        out->clear();
        return false;
    }
    out->resize(written);
    return true;
}

bool PprofExport::exportSession(const SessionData &session, const QString &path,
                                const PprofOptions &options, QString *error, PprofSummary *summary)
{
    QByteArray proto, gz;
    if (!encode(session, options, &proto, error, summary) || !gzip(proto, &gz, error))
        return false;
    if (summary)
        summary->bytes = gz.size();
    return writeWholeFile(
        path, [&](QIODevice *file) { return file->write(gz) == gz.size(); }, error);
}

} // namespace bpflens
