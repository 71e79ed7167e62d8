#include "cli/topreport.h"

#include "cli/plural.h"
#include "core/eventstore.h"
#include "core/units.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace bpflens::cli {

namespace {

QString duration(quint64 ns)
{
    return formatPlainValue(Format::Duration, QVariant::fromValue(ns), 0);
}

// RFC 4180: a field with a comma, quote or line break in quotes, quotes doubled.
QString csvField(const QString &s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) &&
        !s.contains(QLatin1Char('\n')) && !s.contains(QLatin1Char('\r')))
        return s;
    QString q = s;
    q.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

// Rows of cells as columns padded to their widest cell; the first textColumns left-aligned, the
// numbers after them right-aligned.
QString table(const QList<QStringList> &rows, int textColumns = 1)
{
    QList<qsizetype> widths;
    for (const QStringList &r : rows) {
        for (qsizetype c = 0; c < r.size(); ++c) {
            if (widths.size() <= c)
                widths.append(0);
            widths[c] = std::max(widths[c], r[c].size());
        }
    }
    QString s;
    for (const QStringList &r : rows) {
        QStringList cells;
        for (qsizetype c = 0; c < r.size(); ++c)
            cells << (c < textColumns ? r[c].leftJustified(widths[c])
                                      : r[c].rightJustified(widths[c]));
        s += cells.join(QStringLiteral("  ")).trimmed() + QLatin1Char('\n');
    }
    return s;
}

QString probeOf(EventType type)
{
    return QLatin1String(probeIdOf(type));
}

} // namespace

QString topReport(const TopList &list, Dimension dimension, TopMetric metric, ReportFormat format,
                  std::optional<EventType> probe)
{
    return topReport(list, dimensionName(dimension), metric, format, probe);
}

QString topReport(const TopList &list, const QString &dim, TopMetric metric, ReportFormat format,
                  std::optional<EventType> probe)
{
    if (format == ReportFormat::Json) {
        QJsonArray rows;
        for (const TopRow &r : list.rows) {
            QJsonObject o{{QStringLiteral("key"), r.key},
                          {QStringLiteral("count"), r.count},
                          {QStringLiteral("latency_count"), r.latencyCount},
                          {QStringLiteral("total_latency_ns"), qint64(r.totalLatencyNs)},
                          {QStringLiteral("p99_latency_ns"), qint64(r.p99LatencyNs)},
                          {QStringLiteral("bytes_count"), r.bytesCount},
                          {QStringLiteral("bytes"), qint64(r.bytes)}};
            if (r.pid >= 0)
                o.insert(QStringLiteral("pid"), r.pid);
            rows.append(o);
        }
        const QJsonObject doc{{QStringLiteral("by"), dim},
                              {QStringLiteral("metric"), metricName(metric)},
                              {QStringLiteral("keys"), list.keys},
                              {QStringLiteral("events"), list.events},
                              {QStringLiteral("rows"), rows}};
        return QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented));
    }
    if (format == ReportFormat::Csv) {
        QString s = dim + QStringLiteral(",count,total_latency_ns,p99_latency_ns,bytes\n");
        for (const TopRow &r : list.rows)
            s += QStringLiteral("%1,%2,%3,%4,%5\n")
                     .arg(csvField(r.key))
                     .arg(r.count)
                     .arg(r.totalLatencyNs)
                     .arg(r.p99LatencyNs)
                     .arg(r.bytes);
        return s;
    }
    const QString of = probe ? QStringLiteral(" of %1").arg(probeOf(*probe)) : QString();
    if (list.rows.isEmpty())
        return QStringLiteral("No%1 events have a %2 in this session (or pass the filter).\n")
            .arg(of, dim);
    QList<QStringList> rows{{dim, QStringLiteral("count"), QStringLiteral("total latency"),
                             QStringLiteral("p99 latency"), QStringLiteral("bytes")}};
    // A sum over unlike probes (block I/O time plus off-CPU time) is no number: "mixed".
    const auto sum = [](qint64 count, quint64 types, const QString &value) {
        return !count ? QStringLiteral("-") : mixesTypes(types) ? QStringLiteral("mixed") : value;
    };
    for (const TopRow &r : list.rows)
        rows.append({r.key, QString::number(r.count),
                     sum(r.latencyCount, r.latencyTypes, duration(r.totalLatencyNs)),
                     sum(r.latencyCount, r.latencyTypes, duration(r.p99LatencyNs)),
                     sum(r.bytesCount, r.bytesTypes, formatByteSize(r.bytes))});
    QString note;
    if (mixesTypes(list.latencyTypes) || mixesTypes(list.bytesTypes))
        note = QStringLiteral("mixed: latencies or bytes of different probes, which do not add "
                              "up; --probe ID lists one probe's\n");
    return QStringLiteral("Top %1 by %2%3 (%4 of %5, %6)\n")
               .arg(dim, metricName(metric), of)
               .arg(list.rows.size())
               .arg(list.keys)
               .arg(countOf(list.events, "event", "events")) +
           table(rows) + note;
}

QString statsReport(const QList<LatencyStats> &stats, const EventStore &store,
                    quint64 sessionStartNs, ReportFormat format)
{
    auto maxTime = [&](const LatencyStats &s) { return store.timeNs(s.type, s.maxIndex); };
    if (format == ReportFormat::Json) {
        QJsonArray rows;
        for (const LatencyStats &s : stats)
            rows.append(QJsonObject{{QStringLiteral("probe"), probeOf(s.type)},
                                    {QStringLiteral("key"), s.key},
                                    {QStringLiteral("count"), s.count},
                                    {QStringLiteral("min_ns"), qint64(s.minNs)},
                                    {QStringLiteral("mean_ns"), s.meanNs},
                                    {QStringLiteral("p50_ns"), qint64(s.p50Ns)},
                                    {QStringLiteral("p90_ns"), qint64(s.p90Ns)},
                                    {QStringLiteral("p99_ns"), qint64(s.p99Ns)},
                                    {QStringLiteral("p99_9_ns"), qint64(s.p999Ns)},
                                    {QStringLiteral("max_ns"), qint64(s.maxNs)},
                                    {QStringLiteral("max_index"), qint64(s.maxIndex)},
                                    {QStringLiteral("max_time_ns"), qint64(maxTime(s))}});
        return QString::fromUtf8(QJsonDocument(rows).toJson(QJsonDocument::Indented));
    }
    if (format == ReportFormat::Csv) {
        QString s = QStringLiteral("probe,key,count,min_ns,mean_ns,p50_ns,p90_ns,p99_ns,p99_9_ns,"
                                   "max_ns,max_index,max_time_ns\n");
        for (const LatencyStats &l : stats)
            s += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12\n")
                     .arg(probeOf(l.type), csvField(l.key))
                     .arg(l.count)
                     .arg(l.minNs)
                     .arg(QString::number(l.meanNs, 'f', 1))
                     .arg(l.p50Ns)
                     .arg(l.p90Ns)
                     .arg(l.p99Ns)
                     .arg(l.p999Ns)
                     .arg(l.maxNs)
                     .arg(l.maxIndex)
                     .arg(maxTime(l));
        return s;
    }
    if (stats.isEmpty())
        return QStringLiteral("No events with a latency in this session (or pass the filter).\n");
    QList<QStringList> rows{{QStringLiteral("probe"), QStringLiteral("key"),
                             QStringLiteral("count"), QStringLiteral("min"), QStringLiteral("mean"),
                             QStringLiteral("p50"), QStringLiteral("p90"), QStringLiteral("p99"),
                             QStringLiteral("p99.9"), QStringLiteral("max"),
                             QStringLiteral("slowest at")}};
    for (const LatencyStats &l : stats)
        rows.append(
            {probeOf(l.type), l.key.isEmpty() ? QStringLiteral("-") : l.key,
             QString::number(l.count), duration(l.minNs), duration(quint64(l.meanNs + 0.5)),
             duration(l.p50Ns), duration(l.p90Ns), duration(l.p99Ns), duration(l.p999Ns),
             duration(l.maxNs),
             formatPlainValue(Format::Time, QVariant::fromValue(maxTime(l)), sessionStartNs) +
                 QStringLiteral(" s")});
    return QStringLiteral("Latency per probe and key (exact percentiles, nearest rank)\n") +
           table(rows, 2);
}

} // namespace bpflens::cli
