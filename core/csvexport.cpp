#include "csvexport.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QSaveFile>

#include <cmath>

namespace bpflens {

namespace {

// Length of the well-formed UTF-8 sequence at bytes[i] (Unicode table 3-7: no overlong forms,
// no surrogates, nothing above U+10FFFF), or 0 when the byte starts none.
int utf8SequenceAt(const QByteArray &bytes, qsizetype i)
{
    const auto at = [&](qsizetype k) { return quint8(bytes.at(k)); };
    const qsizetype left = bytes.size() - i;
    const quint8 b = at(i);
    if (b < 0x80)
        return 1;
    auto cont = [&](qsizetype k, quint8 lo = 0x80, quint8 hi = 0xbf) {
        return k - i < left && at(k) >= lo && at(k) <= hi;
    };
    if (b >= 0xc2 && b <= 0xdf)
        return cont(i + 1) ? 2 : 0;
    if (b >= 0xe0 && b <= 0xef) {
        const quint8 lo = b == 0xe0 ? 0xa0 : 0x80;
        const quint8 hi = b == 0xed ? 0x9f : 0xbf;
        return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
    }
    if (b >= 0xf0 && b <= 0xf4) {
        const quint8 lo = b == 0xf0 ? 0x90 : 0x80;
        const quint8 hi = b == 0xf4 ? 0x8f : 0xbf;
        return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    }
    return 0;
}

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

QByteArray ipAddress(quint8 family, const std::array<quint8, 16> &a)
{
    if (family == 4)
        return QByteArray::number(a[0]) + '.' + QByteArray::number(a[1]) + '.' +
               QByteArray::number(a[2]) + '.' + QByteArray::number(a[3]);
    // RFC 5952: lower-case hex, the longest run (>= 2) of zero groups becomes "::".
    quint16 groups[8];
    for (int i = 0; i < 8; ++i)
        groups[i] = quint16(a[size_t(2 * i)] << 8 | a[size_t(2 * i + 1)]);
    int bestStart = -1, bestLen = 0;
    for (int i = 0; i < 8;) {
        if (groups[i]) {
            ++i;
            continue;
        }
        int j = i;
        while (j < 8 && !groups[j])
            ++j;
        if (j - i > bestLen && j - i >= 2) {
            bestStart = i;
            bestLen = j - i;
        }
        i = j;
    }
    QByteArray out;
    for (int i = 0; i < 8; ++i) {
        if (i == bestStart) {
            out += "::";
            i += bestLen - 1;
            continue;
        }
        if (!out.isEmpty() && !out.endsWith(':'))
            out += ':';
        out += QByteArray::number(groups[i], 16);
    }
    return out;
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

constexpr EventType AllEventTypes[] = {EventType::Exec,       EventType::Open,   EventType::Block,
                                       EventType::TcpConnect, EventType::FsSlow, EventType::TpPair};

void writeEvents(Writer &w, const EventStore &store, EventType type, qsizetype from, qsizetype to)
{
    switch (type) {
    case EventType::Exec:
        w.header({"time_s", "time", "pid", "ppid", "uid", "comm", "retval", "filename", "argv",
                  "argv_truncated"});
        for (qsizetype i = from; i < to; ++i) {
            const ExecEvent e = store.exec(i);
            w.time(e.timeNs);
            w.number(e.pid);
            w.number(e.ppid);
            w.number(e.uid);
            w.bytes(e.comm);
            w.number(e.retval);
            w.bytes(e.filename);
            // Arguments joined by one space; a space inside an argument is written \x20 so
            // the split stays reversible.
            QByteArray argv;
            for (qsizetype k = 0; k < e.argv.size(); ++k) {
                if (k)
                    argv += ' ';
                argv += CsvExport::escapeBytes(e.argv.at(k)).replace(' ', "\\x20");
            }
            w.field(argv);
            w.number(e.argvTruncated ? 1 : 0);
            w.endRow();
        }
        break;
    case EventType::Open:
        w.header({"time_s", "time", "pid", "tid", "uid", "comm", "flags", "mode", "ret", "path"});
        for (qsizetype i = from; i < to; ++i) {
            const OpenEvent e = store.open(i);
            w.time(e.timeNs);
            w.number(e.pid);
            w.number(e.tid);
            w.number(e.uid);
            w.bytes(e.comm);
            w.number(e.flags);
            w.number(e.mode);
            w.number(e.ret);
            w.bytes(e.path);
            w.endRow();
        }
        break;
    case EventType::Block:
        w.header({"time_s", "time", "disk", "dev_major", "dev_minor", "op", "cmd_flags", "sector",
                  "bytes", "pid", "comm", "queue_ns", "device_ns"});
        for (qsizetype i = from; i < to; ++i) {
            const BlockEvent e = store.block(i);
            w.time(e.timeNs);
            w.bytes(e.disk);
            w.number(BlockEvent::major(e.dev));
            w.number(BlockEvent::minor(e.dev));
            w.bytes(e.op);
            w.number(e.cmdFlags);
            w.number(e.sector);
            w.number(e.bytes);
            w.number(e.pid);
            w.bytes(e.comm);
            w.number(e.queueNs);
            w.number(e.deviceNs);
            w.endRow();
        }
        break;
    case EventType::TcpConnect:
        w.header({"time_s", "time", "pid", "uid", "comm", "family", "saddr", "sport", "daddr",
                  "dport", "ret"});
        for (qsizetype i = from; i < to; ++i) {
            const TcpConnectEvent e = store.tcpConnect(i);
            w.time(e.timeNs);
            w.number(e.pid);
            w.number(e.uid);
            w.bytes(e.comm);
            w.number(e.family);
            w.field(ipAddress(e.family, e.saddr));
            w.number(e.sport);
            w.field(ipAddress(e.family, e.daddr));
            w.number(e.dport);
            w.number(e.ret);
            w.endRow();
        }
        break;
    case EventType::FsSlow:
        w.header({"time_s", "time", "fs", "pid", "comm", "op", "bytes", "offset", "latency_ns",
                  "filename"});
        for (qsizetype i = from; i < to; ++i) {
            const FsSlowEvent e = store.fsSlow(i);
            w.time(e.timeNs);
            w.bytes(e.fs);
            w.number(e.pid);
            w.bytes(e.comm);
            w.bytes(QByteArray(1, char(e.op)));
            w.number(e.bytes);
            w.number(e.offset);
            w.number(e.latencyNs);
            w.bytes(e.filename);
            w.endRow();
        }
        break;
    case EventType::TpPair:
        w.header({"time_s", "time", "pid", "tid", "comm", "key", "latency_ns"});
        for (qsizetype i = from; i < to; ++i) {
            const TpPairEvent e = store.tpPair(i);
            w.time(e.timeNs);
            w.number(e.pid);
            w.number(e.tid);
            w.bytes(e.comm);
            w.number(e.key);
            w.number(e.latencyNs);
            w.endRow();
        }
        break;
    }
}

} // namespace

QString CsvExport::fileNameFor(EventType type)
{
    switch (type) {
    case EventType::Exec:
        return QStringLiteral("exec.csv");
    case EventType::Open:
        return QStringLiteral("open.csv");
    case EventType::Block:
        return QStringLiteral("block.csv");
    case EventType::TcpConnect:
        return QStringLiteral("tcpconnect.csv");
    case EventType::FsSlow:
        return QStringLiteral("fsslower.csv");
    case EventType::TpPair:
        return QStringLiteral("tppair.csv");
    }
    return QString();
}

QString CsvExport::probeIdFor(EventType type)
{
    QString name = fileNameFor(type);
    name.chop(4);
    return name;
}

QByteArray CsvExport::escapeBytes(const QByteArray &bytes)
{
    QByteArray out;
    out.reserve(bytes.size());
    static const char hex[] = "0123456789ABCDEF";
    for (qsizetype i = 0; i < bytes.size();) {
        const char c = bytes.at(i);
        if (c == '\\') {
            out += "\\\\";
            ++i;
            continue;
        }
        const int n = utf8SequenceAt(bytes, i);
        if (n > 0) {
            out.append(bytes.constData() + i, n);
            i += n;
            continue;
        }
        const auto b = quint8(c);
        out += '\\';
        out += 'x';
        out += hex[b >> 4];
        out += hex[b & 0xf];
        ++i;
    }
    return out;
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

    for (EventType type : AllEventTypes) {
        if (events.count(type) == 0)
            continue;
        if (options.eventType && *options.eventType != type)
            continue;
        if (!allProbes && options.probeId != probeIdFor(type))
            continue;
        const qsizetype from = events.lowerBound(type, options.startNs);
        const qsizetype to = std::max(from, events.lowerBound(type, options.endNs));
        if (!writeFile(fileNameFor(type),
                       [&](Writer &w) { writeEvents(w, events, type, from, to); }))
            return {};
    }
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
                w.text(timeUnitName(h.histogram.unit()));
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
                  "run_time_ns"});
        for (const ProbeStats &s : session.stats) {
            if (!inRange(s.probeId, s.timeNs))
                continue;
            w.text(s.probeId);
            w.time(s.timeNs);
            w.number(s.eventsSeen);
            w.number(s.eventsLost);
            w.number(s.runCount);
            w.number(s.runTimeNs);
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
