#include "cli/explainreport.h"

#include "cli/plural.h"
#include "core/toplists.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <cmath>

namespace bpflens::cli {

namespace {

QString csvField(const QString &s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) &&
        !s.contains(QLatin1Char('\n')) && !s.contains(QLatin1Char('\r')))
        return s;
    QString q = s;
    q.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QString percent(double share)
{
    return QString::number(share * 100.0, 'f', 1) + QLatin1Char('%');
}

QString seconds(quint64 ns)
{
    return QString::number(double(ns) / 1e9, 'f', 3);
}

QString liftText(const ExplainRow &r)
{
    const double lift = r.lift();
    if (std::isinf(lift))
        return QStringLiteral("only inside");
    return QString::number(lift, 'f', lift < 10 ? 1 : 0) + QLatin1Char('x');
}

} // namespace

QString explainReport(const Explanation &x, quint64 fromNs, quint64 toNs, ReportFormat format)
{
    if (format == ReportFormat::Json) {
        QJsonArray rows;
        for (const ExplainRow &r : x.rows) {
            const double lift = r.lift();
            QJsonObject o{{QStringLiteral("dimension"), explainDimensionName(r.dimension)},
                          {QStringLiteral("key"), r.key},
                          {QStringLiteral("inside"), r.inside},
                          {QStringLiteral("inside_total"), r.insideTotal},
                          {QStringLiteral("inside_share"), r.insideShare()},
                          {QStringLiteral("outside"), r.outside},
                          {QStringLiteral("outside_total"), r.outsideTotal},
                          {QStringLiteral("outside_share"), r.outsideShare()},
                          {QStringLiteral("score"), r.score()},
                          {QStringLiteral("lift"),
                           std::isinf(lift) ? QJsonValue(QJsonValue::Null) : QJsonValue(lift)}};
            if (r.pid >= 0)
                o.insert(QStringLiteral("pid"), r.pid);
            rows.append(o);
        }
        const QJsonObject doc{{QStringLiteral("from_ns"), qint64(fromNs)},
                              {QStringLiteral("to_ns"), qint64(toNs)},
                              {QStringLiteral("inside_events"), x.insideEvents},
                              {QStringLiteral("outside_events"), x.outsideEvents},
                              {QStringLiteral("rows"), rows}};
        return QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Indented));
    }
    if (format == ReportFormat::Csv) {
        QString s = QStringLiteral("dimension,key,inside,inside_total,inside_share,outside,"
                                   "outside_total,outside_share,score,lift\n");
        for (const ExplainRow &r : x.rows) {
            const double lift = r.lift();
            s += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8,%9,%10\n")
                     .arg(explainDimensionName(r.dimension), csvField(r.key))
                     .arg(r.inside)
                     .arg(r.insideTotal)
                     .arg(QString::number(r.insideShare(), 'f', 6))
                     .arg(r.outside)
                     .arg(r.outsideTotal)
                     .arg(QString::number(r.outsideShare(), 'f', 6))
                     .arg(QString::number(r.score(), 'f', 6))
                     .arg(std::isinf(lift) ? QStringLiteral("inf") : QString::number(lift, 'f', 3));
        }
        return s;
    }
    const QString head =
        QStringLiteral("%1 s to %2 s: %3 inside, %4 outside\n")
            .arg(seconds(fromNs), seconds(toNs), countOf(x.insideEvents, "event", "events"))
            .arg(x.outsideEvents);
    if (x.insideEvents == 0)
        return head + QStringLiteral("No events in the range (or passing the filter).\n");
    if (x.rows.isEmpty())
        return head + QStringLiteral("Nothing is more common inside the range than outside.\n");
    QList<QStringList> rows{{QStringLiteral("dimension"), QStringLiteral("value"),
                             QStringLiteral("inside"), QString(), QStringLiteral("outside"),
                             QString(), QStringLiteral("lift")}};
    for (const ExplainRow &r : x.rows)
        rows.append({explainDimensionName(r.dimension), r.key, percent(r.insideShare()),
                     QStringLiteral("(%1/%2)").arg(r.inside).arg(r.insideTotal),
                     percent(r.outsideShare()),
                     QStringLiteral("(%1/%2)").arg(r.outside).arg(r.outsideTotal), liftText(r)});
    // Columns padded to their widest cell: text left, numbers right.
    QList<qsizetype> widths(rows.first().size(), 0);
    for (const QStringList &r : std::as_const(rows))
        for (qsizetype c = 0; c < r.size(); ++c)
            widths[c] = std::max(widths[c], r[c].size());
    QString s = head + QStringLiteral("Over-represented in the range, most first:\n");
    for (const QStringList &r : std::as_const(rows)) {
        QStringList cells;
        for (qsizetype c = 0; c < r.size(); ++c)
            cells << (c < 2 ? r[c].leftJustified(widths[c]) : r[c].rightJustified(widths[c]));
        s += cells.join(QStringLiteral("  ")).trimmed() + QLatin1Char('\n');
    }
    return s;
}

} // namespace bpflens::cli
