#include "core/csvexport.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QSaveFile>

#include <cmath>

namespace bpflens {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// A duration in seconds with 9 decimals (exact nanoseconds).
QByteArray seconds(quint64 ns)
{
    return QByteArray::number(ns / 1000000000u) + '.' +
           QByteArray::number(ns % 1000000000u).rightJustified(9, '0');
}

// Counters are mostly page counts: those are written as plain integers ("1000000", not
// "1e+06"). Anything else gets the shortest text that reads back as the same double.
QByteArray counterValue(double v)
{
    if (std::isnan(v))
        return QByteArray(); // an empty cell, which spreadsheets treat as "no value"
    constexpr double exactIntegers = 9007199254740992.0; // 2^53
    if (v == std::trunc(v) && std::fabs(v) < exactIntegers)
        return QByteArray::number(qint64(v));
    return QByteArray::number(v, 'g', QLocale::FloatingPointShortest);
}

class Writer
{
public:
    Writer(const SessionInfo &info, const QString &path)
        : m_info(info)
        , m_file(path)
    {
    }

    bool open() { return m_file.open(QIODevice::WriteOnly); }
    QString errorString() const { return m_file.errorString(); }

    void header(std::initializer_list<const char *> names)
    {
        for (const char *n : names)
            field(QByteArray(n));
        endRow();
    }
    void field(const QByteArray &utf8)
    {
        if (!m_rowStarted)
            m_rowStarted = true;
        else
            m_buffer += ',';
        m_buffer += CsvExport::quoteField(utf8);
    }
    void bytes(const QByteArray &raw) { field(CsvExport::escapeBytes(raw)); }
    void text(const QString &s) { field(s.toUtf8()); }
    template<typename T>
    void number(T v)
    {
        field(QByteArray::number(v));
    }
    // time_s and time, from a CLOCK_MONOTONIC timestamp.
    void time(quint64 ns)
    {
        const qint64 diff = qint64(ns - m_info.startMonotonicNs);
        const quint64 mag = diff < 0 ? quint64(0) - quint64(diff) : quint64(diff);
        field((diff < 0 ? QByteArrayLiteral("-") : QByteArray()) +
              QByteArray::number(mag / 1000000000u) + '.' +
              QByteArray::number(mag % 1000000000u).rightJustified(9, '0'));
        if (!m_info.startWall.isValid()) {
            field(QByteArray());
            return;
        }
        // Floor to whole microseconds, also before the start.
        const qint64 diffUs = diff >= 0 ? diff / 1000 : -((-diff + 999) / 1000);
        const qint64 us = m_info.startWall.toMSecsSinceEpoch() * 1000 + diffUs;
        const qint64 ms = us >= 0 ? us / 1000 : -((-us + 999) / 1000);
        const qint64 subUs = us - ms * 1000;
        const QDateTime wall = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
        field(wall.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzz")).toLatin1() +
              QByteArray::number(subUs).rightJustified(3, '0') + 'Z');
    }
    void endRow()
    {
        m_buffer += "\r\n";
        m_rowStarted = false;
        if (m_buffer.size() > (1 << 20))
            flush();
    }
    bool finish()
    {
        flush();
        return !m_failed && m_file.commit();
    }

private:
    void flush()
    {
        if (!m_buffer.isEmpty() && m_file.write(m_buffer) != m_buffer.size())
            m_failed = true;
        m_buffer.clear();
    }

    const SessionInfo &m_info;
    QSaveFile m_file;
    QByteArray m_buffer;
    bool m_rowStarted = false;
    bool m_failed = false;
};

// One cell of a declared column (eventschema.h's Format says how).
template<typename E>
void writeCell(Writer &w, const Column<E> &c, const E &e)
{
    const QVariant v = c.value(e);
    switch (c.format) {
    case Format::Bytes:
        w.bytes(v.toByteArray());
        break;
    case Format::Char:
        w.bytes(QByteArray(1, char(v.toInt())));
        break;
    case Format::Text:
        w.field(v.toByteArray());
        break;
    case Format::Argv:
        w.field(formatArgv(v.value<QList<QByteArray>>()));
        break;
    case Format::YesNo:
        w.number(v.toBool() ? 1 : 0);
        break;
    case Format::Time:
        w.time(v.toULongLong());
        break;
    case Format::Number:
    case Format::Hex:
    case Format::Octal:
    case Format::Duration:
    case Format::Size:
        if (isSignedValue(v))
            w.number(v.toLongLong());
        else
            w.number(v.toULongLong());
        break;
    }
}

void writeStacks(Writer &w, const StackTable &stacks)
{
    w.header({"stack_id", "flags", "depth", "frame_ids", "frames"});
    for (quint32 id = 1; id <= quint32(stacks.stackCount()); ++id) {
        const StackDefinition &s = stacks.stack(id);
        QByteArray ids, names;
        // Root first, as call paths are read (and folded stacks are written).
        for (qsizetype i = s.frames.size() - 1; i >= 0; --i) {
            const bool first = i == s.frames.size() - 1;
            ids += (first ? "" : ";") + QByteArray::number(s.frames[i]);
            // A ';' in a name (demangled C++ can have one) is written \x3B, so the split at ';'
            // stays reversible with unescapeBytes().
            names +=
                (first ? "" : ";") + CsvExport::escapeBytes(stacks.frameName(s.frames[i]).toUtf8())
                                         .replace(';', "\\x3B");
        }
        w.number(id);
        w.field(stackFlagWords(s.flags));
        w.number(s.frames.size());
        w.field(ids);
        w.field(names);
        w.endRow();
    }
}

// The cgroups the events' cgroup_id columns name (docs/containers.md).
void writeCgroups(Writer &w, const CgroupTable &cgroups)
{
    w.header({"cgroup_id", "path", "container", "runtime", "pod", "unit"});
    for (const CgroupPath &c : cgroups.all()) {
        const CgroupNames n = cgroups.names(c.id);
        w.number(c.id);
        w.bytes(c.path);
        w.text(n.container);
        w.text(n.runtime);
        w.text(n.pod);
        w.text(n.unit);
        w.endRow();
    }
}

void writeStackFrames(Writer &w, const StackTable &stacks)
{
    w.header(
        {"frame_id", "kind", "module", "build_id", "address", "symbol", "file", "line", "inlined"});
    for (quint32 id = 1; id <= quint32(stacks.frameCount()); ++id) {
        const StackFrame &f = stacks.frame(id);
        w.number(id);
        w.field(f.kind == FrameKind::Kernel ? "kernel" : "user");
        w.bytes(f.module);
        w.bytes(f.buildId);
        w.field("0x" + QByteArray::number(f.address, 16));
        w.bytes(f.symbol);
        w.bytes(f.file);
        if (f.line)
            w.number(f.line);
        else
            w.field("");
        w.number(f.inlined ? 1 : 0);
        w.endRow();
    }
}

template<typename E>
void writeEvents(Writer &w, const EventStore &store, qsizetype from, qsizetype to)
{
    w.field("time_s");
    w.field("time");
    for (const Column<E> &c : EventTraits<E>::columns) {
        if (c.show & InCsv)
            w.field(c.csvName);
    }
    w.endRow();
    for (qsizetype i = from; i < to; ++i) {
        const E e = store.event<E>(i);
        w.time(e.timeNs);
        for (const Column<E> &c : EventTraits<E>::columns) {
            if (c.show & InCsv)
                writeCell(w, c, e);
        }
        w.endRow();
    }
}

} // namespace

QString CsvExport::fileNameFor(EventType type)
{
    const QString id = probeIdFor(type);
    return id.isEmpty() ? QString() : id + QStringLiteral(".csv");
}

QString CsvExport::probeIdFor(EventType type)
{
    return QLatin1String(probeIdOf(type));
}

QByteArray CsvExport::escapeBytes(const QByteArray &bytes)
{
    return escapeKernelBytes(bytes);
}

QByteArray CsvExport::unescapeBytes(const QByteArray &text)
{
    QByteArray out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text.at(i);
        if (c == '\\' && i + 1 < text.size() && text.at(i + 1) == '\\') {
            out += '\\';
            ++i;
        } else if (c == '\\' && i + 3 < text.size() && text.at(i + 1) == 'x' &&
                   hexValue(text.at(i + 2)) >= 0 && hexValue(text.at(i + 3)) >= 0) {
            out += char(hexValue(text.at(i + 2)) << 4 | hexValue(text.at(i + 3)));
            i += 3;
        } else {
            out += c;
        }
    }
    return out;
}

QByteArray CsvExport::quoteField(const QByteArray &utf8)
{
    bool needsQuotes = false;
    for (char c : utf8) {
        if (c == ',' || c == '"' || c == '\r' || c == '\n') {
            needsQuotes = true;
            break;
        }
    }
    if (!needsQuotes)
        return utf8;
    QByteArray out = utf8;
    out.replace('"', "\"\"");
    return '"' + out + '"';
}

QStringList CsvExport::exportSession(const SessionData &session, const QString &directory,
                                     const CsvExportOptions &options, QString *error)
{
    auto fail = [&](const QString &message) {
        if (error)
            *error = message;
        return QStringList();
    };
    QDir dir(directory);
    if (!QFileInfo(directory).isDir() && !QDir().mkpath(directory))
        return fail(
            QStringLiteral("cannot export to %1: the directory cannot be created").arg(directory));
    if (!QFileInfo(directory).isWritable())
        return fail(
            QStringLiteral("cannot export to %1: the directory is not writable").arg(directory));

    const EventStore &events = session.events;
    const bool allProbes = options.probeId.isEmpty();
    QStringList written;
    auto writeFile = [&](const QString &name, const std::function<void(Writer &)> &body) {
        const QString path = dir.absoluteFilePath(name);
        Writer w(session.info, path);
        if (!w.open()) {
            if (error)
                *error = QStringLiteral("cannot write %1: %2").arg(path, w.errorString());
            return false;
        }
        body(w);
        if (!w.finish()) {
            if (error)
                *error = QStringLiteral("cannot write %1: %2").arg(path, w.errorString());
            return false;
        }
        written.append(path);
        return true;
    };

    const auto selected = [&](EventType type) {
        return (!options.eventType || *options.eventType == type) &&
               (allProbes || options.probeId == probeIdFor(type));
    };
    // The stacks the exported samples' stack ids refer to: all of them, whatever the time range,
    // so that every id can be joined.
    bool stacksSelected = false;
    forEachEventType([&]<typename E>() {
        if constexpr (hasStackId<E>)
            stacksSelected = stacksSelected || selected(eventTypeOf<E>);
    });
    for (EventType type : eventTypes) {
        if (events.count(type) == 0 || !selected(type))
            continue;
        const qsizetype from = events.lowerBound(type, options.startNs);
        const qsizetype to = std::max(from, events.lowerBound(type, options.endNs));
        if (!writeFile(fileNameFor(type), [&](Writer &w) {
                visitEventType(type, [&]<typename E>() { writeEvents<E>(w, events, from, to); });
            }))
            return {};
    }
    if (stacksSelected && !session.stacks.isEmpty()) {
        if (!writeFile(QStringLiteral("stacks.csv"),
                       [&](Writer &w) { writeStacks(w, session.stacks); }) ||
            !writeFile(QStringLiteral("stack_frames.csv"),
                       [&](Writer &w) { writeStackFrames(w, session.stacks); }))
            return {};
    }
    if (!session.cgroups.isEmpty() && !writeFile(QStringLiteral("cgroups.csv"), [&](Writer &w) {
            writeCgroups(w, session.cgroups);
        }))
        return {};
    if (options.eventType)
        return written;

    auto inRange = [&](const QString &probeId, quint64 t) {
        return (allProbes || probeId == options.probeId) && t >= options.startNs &&
               t < options.endNs;
    };
    const bool histogramsOk = writeFile(QStringLiteral("histograms.csv"), [&](Writer &w) {
        w.header({"probe_id", "key", "time_s", "time", "interval_s", "unit", "slot", "low", "high",
                  "count", "sum"});
        for (const HistogramSnapshot &h : session.histograms) {
            if (!inRange(h.probeId, h.timeNs))
                continue;
            const int used = std::max(1, h.histogram.usedSlots());
            const QByteArray interval = seconds(h.intervalNs);
            for (int slot = 0; slot < used; ++slot) {
                w.text(h.probeId);
                w.text(h.key);
                w.time(h.timeNs);
                w.field(interval);
                w.text(histogramUnitName(h.histogram.unit()));
                w.number(slot);
                w.number(Log2Histogram::slotLow(slot));
                w.number(Log2Histogram::slotHigh(slot));
                w.number(h.histogram.slot(slot));
                w.number(h.histogram.sum());
                w.endRow();
            }
        }
    });
    if (!histogramsOk)
        return {};
    const bool statsOk = writeFile(QStringLiteral("stats.csv"), [&](Writer &w) {
        w.header({"probe_id", "time_s", "time", "events_seen", "events_lost", "run_count",
                  "run_time_ns", "events_unseen", "unfinished"});
        for (const ProbeStats &s : session.stats) {
            if (!inRange(s.probeId, s.timeNs))
                continue;
            w.text(s.probeId);
            w.time(s.timeNs);
            w.number(s.eventsSeen);
            w.number(s.eventsLost);
            w.number(s.runCount);
            w.number(s.runTimeNs);
            w.number(s.eventsUnseen);
            w.number(s.unfinished);
            w.endRow();
        }
    });
    if (!statsOk)
        return {};
    const bool countersOk = writeFile(QStringLiteral("counters.csv"), [&](Writer &w) {
        w.header({"time_s", "time", "probe_id", "name", "interval_s", "value"});
        for (const CounterSample &c : session.counters) {
            if (!inRange(c.probeId, c.timeNs))
                continue;
            w.time(c.timeNs);
            w.text(c.probeId);
            w.text(c.name);
            w.field(seconds(c.intervalNs));
            w.field(counterValue(c.value));
            w.endRow();
        }
    });
    if (!countersOk)
        return {};
    return written;
}

} // namespace bpflens
