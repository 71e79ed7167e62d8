#include "diffreport.h"

#include <QStringList>

#include <cmath>

namespace bpflens::cli {

namespace {

QString number(double v)
{
    if (std::isnan(v))
        return QStringLiteral("-");
    return QString::number(v, 'f', std::fabs(v) < 100 ? 1 : 0);
}

// "+9.6 (+8.0%)", "0 (0%)", "+3 (new)".
QString change(double a, double b, bool whole)
{
    if (std::isnan(a) || std::isnan(b))
        return QStringLiteral("-");
    const double delta = b - a;
    const QString abs = (delta > 0 ? QStringLiteral("+") : QString()) +
                        (whole ? QString::number(qint64(delta)) : number(delta));
    const double rel = relativeChange(a, b);
    if (std::isinf(rel))
        return abs + QStringLiteral(" (new)");
    return abs + QStringLiteral(" (%1%2%)")
                     .arg(rel > 0 ? QStringLiteral("+") : QString())
                     .arg(QString::number(rel * 100, 'f', rel == 0 ? 0 : 1));
}

} // namespace

QString diffText(const SessionDiff &d, const QString &nameA, const QString &nameB)
{
    QString s;
    s += QStringLiteral("A  %1\nB  %2\n").arg(nameA, nameB);

    s += QStringLiteral("\nHistograms, each session's snapshots merged (%1 in both)\n")
             .arg(d.histograms.size());
    for (const SessionDiff::Histogram &h : d.histograms) {
        s += QStringLiteral("%1%2 (%3): %4 -> %5 samples, %6\n")
                 .arg(h.probeId, h.key.isEmpty() ? QString() : QLatin1Char(' ') + h.key,
                      histogramUnitName(h.a.unit()))
                 .arg(h.a.count())
                 .arg(h.b.count())
                 .arg(change(double(h.a.count()), double(h.b.count()), true));
        for (const auto &[label, fraction] :
             {std::pair{"p50", 0.5}, std::pair{"p90", 0.9}, std::pair{"p99", 0.99}}) {
            const double pa = h.percentileA(fraction), pb = h.percentileB(fraction);
            s += QStringLiteral("  %1 %2 -> %3  %4\n")
                     .arg(QLatin1String(label))
                     .arg(number(pa), 10)
                     .arg(number(pb), -10)
                     .arg(change(pa, pb, false));
        }
    }
    if (!d.onlyInA.isEmpty())
        s += QStringLiteral("only in A: %1\n").arg(d.onlyInA.join(QLatin1String(", ")));
    if (!d.onlyInB.isEmpty())
        s += QStringLiteral("only in B: %1\n").arg(d.onlyInB.join(QLatin1String(", ")));
    if (!d.unitMismatch.isEmpty())
        s += QStringLiteral("not comparable (different units): %1\n")
                 .arg(d.unitMismatch.join(QLatin1String(", ")));

    // One layout for both tables: a 16-column name, the two counts, the change.
    const auto row = [](const QString &name, qint64 a, qint64 b) {
        return QStringLiteral("  %1%2%3  %4\n")
            .arg(name.left(16), -16)
            .arg(a, 12)
            .arg(b, 12)
            .arg(change(double(a), double(b), true));
    };
    const QString header = QStringLiteral("  %1%2%3  CHANGE\n")
                               .arg(QString(), -16)
                               .arg(QStringLiteral("A"), 12)
                               .arg(QStringLiteral("B"), 12);
    s += QStringLiteral("\nEvents\n") + header;
    for (const SessionDiff::Events &e : d.events)
        s += row(QLatin1String(probeIdOf(e.type)), e.a, e.b);
    for (const SessionDiff::Events &e : d.events) {
        if (e.commands.isEmpty())
            continue;
        s += QStringLiteral("\n%1 events by command\n").arg(QLatin1String(probeIdOf(e.type))) +
             header;
        for (const SessionDiff::Command &c : e.commands)
            s += row(c.comm, c.a, c.b);
    }
    return s;
}

} // namespace bpflens::cli
