#include "sessiondiff.h"

#include "sessionstore.h"

#include <QHash>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <limits>

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

QHash<QString, qint64> commandCounts(const SessionData &data, EventType type)
{
    QHash<QString, qint64> out;
    const qsizetype n = data.events.count(type);
    for (qsizetype i = 0; i < n; ++i)
        ++out[QString::fromUtf8(data.events.comm(type, i))];
    return out;
}

} // namespace

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
        const QHash<QString, qint64> ca = commandCounts(a, type);
        const QHash<QString, qint64> cb = commandCounts(b, type);
        QStringList names = ca.keys();
        for (auto it = cb.cbegin(); it != cb.cend(); ++it) {
            if (!ca.contains(it.key()))
                names.append(it.key());
        }
        for (const QString &n : std::as_const(names))
            e.commands.append({n, ca.value(n), cb.value(n)});
        std::sort(e.commands.begin(), e.commands.end(), [](const auto &x, const auto &y) {
            const qint64 mx = std::max(x.a, x.b), my = std::max(y.a, y.b);
            return mx != my ? mx > my : x.comm < y.comm;
        });
        if (top > 0 && e.commands.size() > top)
            e.commands.resize(top);
        d.events.append(e);
    });
    return d;
}

} // namespace bpflens
