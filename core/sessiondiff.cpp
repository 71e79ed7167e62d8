#include "core/sessiondiff.h"

#include "core/allocations.h"
#include "core/sessionstore.h"
#include "core/toplists.h"

#include <QFileInfo>
#include <QHash>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace bpflens {

namespace {

using HistogramKey = std::pair<QString, QString>; // probe, key

// Every snapshot of a probe and key merged: the distribution over the whole session.
QMap<HistogramKey, Log2Histogram> mergedHistograms(const SessionData &data)
{
    QMap<HistogramKey, Log2Histogram> out;
    for (const HistogramSnapshot &s : data.histograms) {
        auto it = out.find({s.probeId, s.key});
        if (it == out.end())
            it = out.insert({s.probeId, s.key}, Log2Histogram(s.histogram.unit()));
        // A probe's unit does not change within a session; a snapshot that did would be
        // merged into the wrong buckets, so it is left out.
        if (it->unit() == s.histogram.unit())
            it->merge(s.histogram);
    }
    return out;
}

QString histogramName(const HistogramKey &k)
{
    return k.second.isEmpty() ? k.first : k.first + QLatin1Char('/') + k.second;
}

// A type's events per key of dimension d over the whole session: the Top tab's list.
QHash<QString, qint64> keyCounts(const SessionData &data, EventType type, Dimension d)
{
    TopQuery q;
    q.dimension = d;
    q.type = type;
    q.limit = 0;
    QHash<QString, qint64> out;
    for (const TopRow &r : topList(data.events, q).rows)
        out[r.key] += r.count;
    return out;
}

SessionDiff::Keys diffKeys(const SessionData &a, const SessionData &b, EventType type, Dimension d,
                           int top)
{
    SessionDiff::Keys k;
    k.dimension = d;
    const QHash<QString, qint64> ca = keyCounts(a, type, d);
    const QHash<QString, qint64> cb = keyCounts(b, type, d);
    for (auto it = ca.cbegin(); it != ca.cend(); ++it)
        k.keys.append({it.key(), it.value(), cb.value(it.key())});
    for (auto it = cb.cbegin(); it != cb.cend(); ++it) {
        if (!ca.contains(it.key()))
            k.keys.append({it.key(), 0, it.value()});
    }
    std::sort(k.keys.begin(), k.keys.end(), [](const auto &x, const auto &y) {
        const qint64 mx = std::max(x.a, x.b), my = std::max(y.a, y.b);
        return mx != my ? mx > my : x.key < y.key;
    });
    k.total = k.keys.size();
    if (top > 0 && k.keys.size() > top)
        k.keys.resize(top);
    return k;
}

using FunctionKey = std::pair<QString, QString>; // name, module

// One session's profile of one kind summed per function.
struct FunctionSums
{
    qsizetype events = 0;
    quint64 total = 0;
    QHash<FunctionKey, std::pair<quint64, quint64>> functions; // self, total
};

FunctionKey functionKey(const StackTable &stacks, quint32 frame)
{
    if (!stacks.hasFrame(frame))
        return {stacks.frameName(frame), QString()};
    const StackFrame &f = stacks.frame(frame);
    QString module;
    if (!f.module.isEmpty()) {
        module = f.kind == FrameKind::Kernel
                     ? QStringLiteral("[%1]").arg(QString::fromUtf8(f.module))
                     : QFileInfo(QString::fromUtf8(f.module)).fileName();
    }
    return {stacks.frameName(frame), module};
}

// The functions of a profile summed per stack (index 0 and ids beyond the table: no stack).
FunctionSums functionSums(const StackTable &stacks, const std::vector<quint64> &perStack,
                          FunctionSums out);

FunctionSums functionSums(const SessionData &data, SessionDiff::ProfileKind kind)
{
    FunctionSums out;
    const StackTable &stacks = data.stacks;
    const EventStore &store = data.events;
    if (kind == SessionDiff::InuseBytes) {
        // What each session still held at its end, as sumAllocations counts it (sampled
        // events by their weight).
        AllocationSums sums = sumAllocations(store, {}, stacks.stackCount());
        out.events = sums.events;
        out.total = sums.totalInuseBytes;
        return functionSums(stacks, sums.inuseBytes, std::move(out));
    }
    const bool offCpu = kind == SessionDiff::OffCpu;
    // Summed per stack first: a profile has far fewer stacks than samples.
    std::vector<quint64> perStack(size_t(stacks.stackCount()) + 1, 0);
    const EventType type = offCpu ? EventType::OffCpu : EventType::CpuSample;
    out.events = store.count(type);
    for (qsizetype i = 0; i < out.events; ++i) {
        const quint32 id = offCpu ? store.value<&OffCpuEvent::stackId>(i)
                                  : store.value<&CpuSampleEvent::stackId>(i);
        const quint64 w = offCpu ? store.value<&OffCpuEvent::offNs>(i) : 1;
        // A sample without a (known) stack still counts towards the total, as the flame
        // graph's root counts it: a profile whose stacks failed must not look idle.
        out.total += w;
        if (id >= 1 && id < perStack.size())
            perStack[id] += w;
    }
    return functionSums(stacks, perStack, std::move(out));
}

FunctionSums functionSums(const StackTable &stacks, const std::vector<quint64> &perStack,
                          FunctionSums out)
{
    // Frame ids to function indices; one function may have several frames (the same symbol
    // in two builds of a library), and a sample counts once towards each function's total.
    std::vector<qint32> functionOf(size_t(stacks.frameCount()) + 1, -1);
    QHash<FunctionKey, qint32> indexOf;
    QList<FunctionKey> keys;
    std::vector<quint64> self, total;
    std::vector<quint32> lastStack; // the stack that last added to each function's total
    auto function = [&](quint32 frame) {
        const bool known = stacks.hasFrame(frame);
        if (known && functionOf[frame] >= 0)
            return functionOf[frame];
        const FunctionKey key = functionKey(stacks, frame);
        qint32 index = indexOf.value(key, -1);
        if (index < 0) {
            index = qint32(keys.size());
            indexOf.insert(key, index);
            keys.append(key);
            self.push_back(0);
            total.push_back(0);
            lastStack.push_back(0);
        }
        if (known)
            functionOf[frame] = index;
        return index;
    };
    for (quint32 id = 1; id < perStack.size(); ++id) {
        const quint64 w = perStack[id];
        const QList<quint32> &frames = stacks.stack(id).frames; // leaf first
        if (!w || frames.isEmpty())
            continue;
        for (quint32 f : frames) {
            const qint32 fn = function(f);
            if (lastStack[size_t(fn)] != id) {
                lastStack[size_t(fn)] = id;
                total[size_t(fn)] += w;
            }
        }
        self[size_t(function(frames.front()))] += w;
    }
    for (qsizetype i = 0; i < keys.size(); ++i)
        out.functions.insert(keys[i], {self[size_t(i)], total[size_t(i)]});
    return out;
}

SessionDiff::Profile diffProfile(const FunctionSums &a, const FunctionSums &b,
                                 SessionDiff::ProfileKind kind, int top)
{
    SessionDiff::Profile p;
    p.kind = kind;
    p.offCpu = kind == SessionDiff::OffCpu;
    p.eventsA = a.events;
    p.eventsB = b.events;
    p.totalA = a.total;
    p.totalB = b.total;
    auto add = [&](const FunctionKey &key) {
        SessionDiff::Function f;
        f.name = key.first;
        f.module = key.second;
        const auto ia = a.functions.value(key), ib = b.functions.value(key);
        f.selfA = ia.first;
        f.totalA = ia.second;
        f.selfB = ib.first;
        f.totalB = ib.second;
        const bool changed = f.selfA != f.selfB || f.totalA != f.totalB || p.change(f) != 0;
        if (changed)
            p.functions.append(f);
    };
    for (auto it = a.functions.cbegin(); it != a.functions.cend(); ++it)
        add(it.key());
    for (auto it = b.functions.cbegin(); it != b.functions.cend(); ++it) {
        if (!a.functions.contains(it.key()))
            add(it.key());
    }
    std::sort(p.functions.begin(), p.functions.end(), [&p](const auto &x, const auto &y) {
        const double cx = p.change(x), cy = p.change(y);
        if (cx != cy)
            return cx > cy;
        const quint64 mx = std::max(x.totalA, x.totalB), my = std::max(y.totalA, y.totalB);
        if (mx != my)
            return mx > my;
        return std::tie(x.name, x.module) < std::tie(y.name, y.module);
    });
    if (top > 0 && p.functions.size() > top)
        p.functions.resize(top);
    return p;
}

} // namespace

const SessionDiff::Keys *SessionDiff::Events::by(Dimension d) const
{
    for (const Keys &k : dimensions) {
        if (k.dimension == d)
            return &k;
    }
    return nullptr;
}

double SessionDiff::Profile::change(const Function &f) const
{
    return std::max(std::abs(shareB(f.selfB) - shareA(f.selfA)),
                    std::abs(shareB(f.totalB) - shareA(f.totalA)));
}

double SessionDiff::Histogram::percentileA(double fraction) const
{
    return a.isEmpty() ? std::numeric_limits<double>::quiet_NaN() : a.percentile(fraction);
}

double SessionDiff::Histogram::percentileB(double fraction) const
{
    if (b.isEmpty())
        return std::numeric_limits<double>::quiet_NaN();
    // Both are times (checked by diffSessions): B's value in A's unit.
    return b.percentile(fraction) * double(unitDivisor(b.unit())) / double(unitDivisor(a.unit()));
}

double relativeChange(double a, double b)
{
    if (a == b)
        return 0;
    if (a == 0)
        return b > 0 ? std::numeric_limits<double>::infinity()
                     : -std::numeric_limits<double>::infinity();
    return (b - a) / a;
}

SessionDiff diffSessions(const SessionData &a, const SessionData &b, int top)
{
    SessionDiff d;
    const QMap<HistogramKey, Log2Histogram> ha = mergedHistograms(a);
    const QMap<HistogramKey, Log2Histogram> hb = mergedHistograms(b);
    for (auto it = ha.cbegin(); it != ha.cend(); ++it) {
        const auto other = hb.constFind(it.key());
        if (other == hb.cend()) {
            d.onlyInA.append(histogramName(it.key()));
            continue;
        }
        const bool comparable =
            it->unit() == other->unit() || (isTimeUnit(it->unit()) && isTimeUnit(other->unit()));
        if (!comparable) {
            d.unitMismatch.append(histogramName(it.key()));
            continue;
        }
        d.histograms.append({it.key().first, it.key().second, *it, *other});
    }
    for (auto it = hb.cbegin(); it != hb.cend(); ++it) {
        if (!ha.contains(it.key()))
            d.onlyInB.append(histogramName(it.key()));
    }

    forEachEventType([&]<typename E>() {
        const EventType type = eventTypeOf<E>;
        SessionDiff::Events e;
        e.type = type;
        e.a = a.events.count(type);
        e.b = b.events.count(type);
        if (e.a == 0 && e.b == 0)
            return;
        for (int dim = 0; dim <= int(Dimension::Error); ++dim) {
            if (typeHasDimension(type, Dimension(dim)))
                e.dimensions.append(diffKeys(a, b, type, Dimension(dim), top));
        }
        d.events.append(e);
    });

    for (const SessionDiff::ProfileKind kind :
         {SessionDiff::OnCpu, SessionDiff::OffCpu, SessionDiff::InuseBytes}) {
        const FunctionSums pa = functionSums(a, kind);
        const FunctionSums pb = functionSums(b, kind);
        const QString name = kind == SessionDiff::OffCpu       ? QStringLiteral("off-CPU")
                             : kind == SessionDiff::InuseBytes ? QStringLiteral("bytes in use")
                                                               : QStringLiteral("on-CPU");
        // A session whose blocks were all freed holds 0 bytes: still a side to compare with.
        const auto present = [kind](const FunctionSums &p) {
            return kind == SessionDiff::InuseBytes ? p.events > 0 : p.total > 0;
        };
        if (present(pa) && present(pb))
            d.profiles.append(diffProfile(pa, pb, kind, top));
        else if (present(pa))
            d.profileOnlyInA.append(name);
        else if (present(pb))
            d.profileOnlyInB.append(name);
    }
    return d;
}

} // namespace bpflens
