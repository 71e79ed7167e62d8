#include "core/jsonlexport.h"
#include "core/specialfile.h"

#include <QLocale>

#include <algorithm>
#include <array>

namespace bpflens {

namespace json {

void appendString(QByteArray &out, const QByteArray &utf8)
{
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (const char c : utf8) {
        const auto u = quint8(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (u < 0x20) {
            out += "\\u00";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
    }
    out += '"';
}

void appendMicros(QByteArray &out, qint64 ns)
{
    const quint64 mag = ns < 0 ? quint64(0) - quint64(ns) : quint64(ns);
    if (ns < 0)
        out += '-';
    out += QByteArray::number(mag / 1000);
    const quint64 frac = mag % 1000;
    if (frac) {
        out += '.';
        out += QByteArray::number(frac).rightJustified(3, '0');
    }
}

void appendDouble(QByteArray &out, double v)
{
    if (!std::isfinite(v)) {
        out += "null";
        return;
    }
    constexpr double exactIntegers = 9007199254740992.0; // 2^53
    if (v == std::trunc(v) && std::fabs(v) < exactIntegers)
        out += QByteArray::number(qint64(v));
    else
        out += QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
}

bool saveFile(const QString &path, QString *error, const std::function<bool(QIODevice *)> &write)
{
    return writeWholeFile(path, write, error);
}

void appendSessionFields(QByteArray &out, const SessionInfo &info)
{
    out += "\"host\":";
    appendString(out, info.host.toUtf8());
    out += ",\"kernel\":";
    appendString(out, info.kernelRelease.toUtf8());
    out += ",\"app_version\":";
    appendString(out, info.appVersion.toUtf8());
    out += ",\"start_wall\":";
    appendString(
        out,
        info.startWall.isValid()
            ? info.startWall.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ")).toUtf8()
            : QByteArray());
    out += ",\"start_monotonic_ns\":" + QByteArray::number(info.startMonotonicNs);
    out += ",\"probes\":[";
    for (qsizetype i = 0; i < info.probes.size(); ++i) {
        if (i)
            out += ',';
        appendString(out, info.probes.at(i).id.toUtf8());
    }
    out += ']';
}

void appendValue(QByteArray &out, Format format, const QVariant &v, quint64 sessionStartNs)
{
    switch (format) {
    case Format::Bytes:
        appendString(out, escapeKernelBytes(v.toByteArray()));
        return;
    case Format::Char:
        appendString(out, escapeKernelBytes(QByteArray(1, char(v.toInt()))));
        return;
    case Format::Text:
        // Made by the declaration (addresses, names): text, so already valid UTF-8.
        appendString(out, v.toByteArray());
        return;
    case Format::Argv:
        appendString(out, formatArgv(v.value<QList<QByteArray>>()));
        return;
    case Format::YesNo:
        out += v.toBool() ? '1' : '0';
        return;
    case Format::Time:
        out += QByteArray::number(relativeNs(v.toULongLong(), sessionStartNs));
        return;
    case Format::Number:
    case Format::Hex:
    case Format::Octal:
    case Format::Duration:
    case Format::Size:
        if (isSignedValue(v))
            out += QByteArray::number(v.toLongLong());
        else
            out += QByteArray::number(v.toULongLong());
        return;
    }
}

void appendStackFrames(QByteArray &out, const StackTable &stacks, quint32 stackId)
{
    out += '[';
    if (stacks.hasStack(stackId)) {
        const StackDefinition &s = stacks.stack(stackId);
        for (qsizetype i = s.frames.size() - 1; i >= 0; --i) {
            if (i != s.frames.size() - 1)
                out += ',';
            appendString(out, escapeKernelBytes(stacks.frameName(s.frames[i]).toUtf8()));
        }
    }
    out += ']';
}

} // namespace json

namespace {

template<typename E>
void appendEventLine(QByteArray &out, const E &e, quint64 startNs)
{
    out += "{\"type\":\"";
    out += EventTraits<E>::probeId;
    out += "\",\"time_ns\":";
    out += QByteArray::number(json::relativeNs(e.timeNs, startNs));
    json::appendColumns(out, e, startNs, false);
    out += "}\n";
}

void appendStackLine(QByteArray &out, const StackTable &stacks, quint32 id)
{
    out += "{\"type\":\"stack\",\"stack_id\":";
    out += QByteArray::number(id);
    out += ",\"flags\":";
    json::appendString(out, stackFlagWords(stacks.stack(id).flags));
    out += ",\"frames\":";
    json::appendStackFrames(out, stacks, id);
    out += "}\n";
}

// A cgroup the events' cgroup_id names, with what its path says (docs/containers.md).
void appendCgroupLine(QByteArray &out, const CgroupPath &c)
{
    const CgroupNames n = parseCgroupPath(c.path);
    out += "{\"type\":\"cgroup\",\"cgroup_id\":";
    out += QByteArray::number(c.id);
    out += ",\"path\":";
    json::appendString(out, escapeKernelBytes(c.path));
    out += ",\"container\":";
    json::appendString(out, n.container.toUtf8());
    out += ",\"runtime\":";
    json::appendString(out, n.runtime.toUtf8());
    out += ",\"pod\":";
    json::appendString(out, n.pod.toUtf8());
    out += ",\"unit\":";
    json::appendString(out, n.unit.toUtf8());
    out += "}\n";
}

void appendHistogramLine(QByteArray &out, const HistogramSnapshot &h, quint64 startNs)
{
    out += "{\"type\":\"histogram\",\"time_ns\":";
    out += QByteArray::number(json::relativeNs(h.timeNs, startNs));
    out += ",\"probe_id\":";
    json::appendString(out, h.probeId.toUtf8());
    out += ",\"key\":";
    json::appendString(out, h.key.toUtf8());
    out += ",\"interval_ns\":" + QByteArray::number(h.intervalNs);
    out += ",\"unit\":";
    json::appendString(out, histogramUnitName(h.histogram.unit()).toUtf8());
    out += ",\"count\":" + QByteArray::number(h.histogram.count());
    out += ",\"sum\":" + QByteArray::number(h.histogram.sum());
    out += ",\"slots\":[";
    const int used = h.histogram.usedSlots();
    for (int slot = 0; slot < used; ++slot) {
        out += slot ? ",{\"low\":" : "{\"low\":";
        out += QByteArray::number(Log2Histogram::slotLow(slot));
        out += ",\"high\":" + QByteArray::number(Log2Histogram::slotHigh(slot));
        out += ",\"count\":" + QByteArray::number(h.histogram.slot(slot));
        out += '}';
    }
    out += "]}\n";
}

void appendCounterLine(QByteArray &out, const CounterSample &c, quint64 startNs)
{
    out += "{\"type\":\"counter\",\"time_ns\":";
    out += QByteArray::number(json::relativeNs(c.timeNs, startNs));
    out += ",\"probe_id\":";
    json::appendString(out, c.probeId.toUtf8());
    out += ",\"name\":";
    json::appendString(out, c.name.toUtf8());
    out += ",\"interval_ns\":" + QByteArray::number(c.intervalNs);
    out += ",\"value\":";
    json::appendDouble(out, c.value);
    out += "}\n";
}

QByteArray sessionLine(const SessionInfo &info)
{
    QByteArray out = "{\"type\":\"session\",";
    json::appendSessionFields(out, info);
    out += "}\n";
    return out;
}

// Calls emit(source, index) for the items of count.size() sources, each in time order, merged
// into one time order (ties: the lower source first). timeAt(source, index) gives the times.
template<typename TimeAt, typename Emit>
void mergeByTime(const std::vector<qsizetype> &from, const std::vector<qsizetype> &to,
                 TimeAt &&timeAt, Emit &&emit)
{
    std::vector<qsizetype> pos = from;
    const std::size_t n = pos.size();
    while (true) {
        std::size_t best = n;
        quint64 bestTime = 0;
        for (std::size_t s = 0; s < n; ++s) {
            if (pos[s] >= to[s])
                continue;
            const quint64 t = timeAt(s, pos[s]);
            if (best == n || t < bestTime) {
                best = s;
                bestTime = t;
            }
        }
        if (best == n)
            return;
        emit(best, pos[best]);
        ++pos[best];
    }
}

class Output
{
public:
    explicit Output(QIODevice *device)
        : m_device(device)
    {
    }
    QByteArray &buffer() { return m_buffer; }
    void maybeFlush()
    {
        if (m_buffer.size() > (1 << 20))
            flush();
    }
    bool flush()
    {
        if (!m_buffer.isEmpty() && m_device->write(m_buffer) != m_buffer.size())
            m_failed = true;
        m_buffer.clear();
        return !m_failed;
    }

private:
    QIODevice *m_device;
    QByteArray m_buffer;
    bool m_failed = false;
};

using StoreLineFn = void (*)(QByteArray &, const EventStore &, qsizetype, quint64);

template<typename E>
void appendStoreEvent(QByteArray &out, const EventStore &store, qsizetype i, quint64 startNs)
{
    appendEventLine(out, store.event<E>(i), startNs);
}

} // namespace

bool JsonlExport::write(const SessionData &session, QIODevice *device,
                        const JsonlExportOptions &options, QString *error)
{
    Output out(device);
    const quint64 startNs = session.info.startMonotonicNs;
    const EventStore &store = session.events;
    out.buffer() += sessionLine(session.info);

    constexpr std::size_t typeCount = std::size(eventTypes);
    std::array<StoreLineFn, typeCount> lineFns{};
    std::vector<qsizetype> from(typeCount), to(typeCount);
    std::vector<EventStore::TimeColumn> times(typeCount);
    bool samplesWithStacks = false;
    std::size_t t = 0;
    forEachEventType([&]<typename E>() {
        const EventType type = eventTypeOf<E>;
        lineFns[t] = &appendStoreEvent<E>;
        from[t] = store.lowerBound(type, options.startNs);
        to[t] = std::max(from[t], store.lowerBound(type, options.endNs));
        times[t] = store.timeColumn(type);
        if constexpr (hasStackId<E>)
            samplesWithStacks = samplesWithStacks || to[t] > from[t];
        ++t;
    });
    // Every cgroup, whatever the range: each cgroup_id can be looked up.
    for (const CgroupPath &c : session.cgroups.all())
        appendCgroupLine(out.buffer(), c);
    // Every stack, whatever the range, as stacks.csv has them: each stack_id can be looked up.
    if (samplesWithStacks) {
        for (quint32 id = 1; id <= quint32(session.stacks.stackCount()); ++id) {
            appendStackLine(out.buffer(), session.stacks, id);
            out.maybeFlush();
        }
    }

    // Histograms and counters in time order (stable: recording order among equal times),
    // emitted before the first event after them.
    const auto inRange = [&](quint64 time) {
        return time >= options.startNs && time < options.endNs;
    };
    std::vector<std::pair<quint64, qsizetype>> aggregates; // time, index (counters negated - 1)
    if (options.histograms) {
        for (qsizetype i = 0; i < session.histograms.size(); ++i) {
            if (inRange(session.histograms.at(i).timeNs))
                aggregates.emplace_back(session.histograms.at(i).timeNs, i);
        }
    }
    if (options.counters) {
        for (qsizetype i = 0; i < session.counters.size(); ++i) {
            if (inRange(session.counters.at(i).timeNs))
                aggregates.emplace_back(session.counters.at(i).timeNs, -i - 1);
        }
    }
    std::stable_sort(aggregates.begin(), aggregates.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    std::size_t nextAggregate = 0;
    const auto aggregatesUpTo = [&](quint64 time) {
        while (nextAggregate < aggregates.size() && aggregates[nextAggregate].first <= time) {
            const qsizetype i = aggregates[nextAggregate].second;
            if (i >= 0)
                appendHistogramLine(out.buffer(), session.histograms.at(i), startNs);
            else
                appendCounterLine(out.buffer(), session.counters.at(-i - 1), startNs);
            ++nextAggregate;
        }
    };

    mergeByTime(
        from, to, [&](std::size_t s, qsizetype i) { return times[s][i]; },
        [&](std::size_t s, qsizetype i) {
            aggregatesUpTo(times[s][i]);
            lineFns[s](out.buffer(), store, i, startNs);
            out.maybeFlush();
        });
    aggregatesUpTo(~quint64(0));
    if (!out.flush()) {
        if (error)
            *error = QStringLiteral("cannot write the JSON lines: %1").arg(device->errorString());
        return false;
    }
    return true;
}

bool JsonlExport::exportSession(const SessionData &session, const QString &path,
                                const JsonlExportOptions &options, QString *error)
{
    return json::saveFile(
        path, error, [&](QIODevice *device) { return write(session, device, options, nullptr); });
}

JsonlStream::JsonlStream(const SessionInfo &info)
    : m_info(info)
{
}

QByteArray JsonlStream::header() const
{
    return sessionLine(m_info);
}

QByteArray JsonlStream::format(const RecordBatch &batch)
{
    QByteArray out;
    const quint64 startNs = m_info.startMonotonicNs;
    const qsizetype firstNewStack = m_stacks.stackCount() + 1;
    // A batch whose definitions do not follow on is the producer's error; its stack ids then
    // name no stack here, and their "stack" lines are missing rather than wrong.
    QString ignored;
    m_stacks.addDefinitions(batch, &ignored);
    for (auto id = quint32(firstNewStack); id <= quint32(m_stacks.stackCount()); ++id)
        appendStackLine(out, m_stacks, id);
    for (const CgroupPath &c : batch.cgroups)
        appendCgroupLine(out, c);

    using BatchLineFn = void (*)(QByteArray &, const RecordBatch &, qsizetype, quint64);
    using BatchTimeFn = quint64 (*)(const RecordBatch &, qsizetype);
    constexpr std::size_t typeCount = std::size(eventTypes);
    std::array<BatchLineFn, typeCount> lineFns{};
    std::array<BatchTimeFn, typeCount> timeFns{};
    std::vector<qsizetype> from(typeCount, 0), to(typeCount, 0);
    std::size_t t = 0;
    forEachEventType([&]<typename E>() {
        lineFns[t] = [](QByteArray &o, const RecordBatch &b, qsizetype i, quint64 s) {
            appendEventLine(o, b.events<E>().at(i), s);
        };
        timeFns[t] = [](const RecordBatch &b, qsizetype i) { return b.events<E>().at(i).timeNs; };
        to[t] = batch.events<E>().size();
        ++t;
    });
    mergeByTime(
        from, to, [&](std::size_t s, qsizetype i) { return timeFns[s](batch, i); },
        [&](std::size_t s, qsizetype i) { lineFns[s](out, batch, i, startNs); });
    for (const HistogramSnapshot &h : batch.histograms)
        appendHistogramLine(out, h, startNs);
    for (const CounterSample &c : batch.counters)
        appendCounterLine(out, c, startNs);
    return out;
}

} // namespace bpflens
