#include "cli/diffreport.h"

#include "cli/profilereport.h"
#include "core/toplists.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <tuple>

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

// "-25.0 pp": a change of share in percentage points, which (unlike a relative change) reads
// the same for a function at 1% and one at 60% of the profile.
QString points(double delta)
{
    const double pp = delta * 100;
    if (std::fabs(pp) < 0.05)
        return delta == 0 ? QStringLiteral("0 pp") : QStringLiteral("%1 pp").arg(pp, 0, 'f', 3);
    return QStringLiteral("%1%2 pp")
        .arg(pp > 0 ? QStringLiteral("+") : QString())
        .arg(pp, 0, 'f', 1);
}

QString profileText(const SessionDiff::Profile &p)
{
    auto amount = [&p](quint64 v) { return p.offCpu ? formatNs(v) : QString::number(v); };
    auto signedAmount = [&amount](quint64 a, quint64 b) {
        if (a == b)
            return QStringLiteral("0");
        return (b > a ? QStringLiteral("+") : QStringLiteral("-")) + amount(b > a ? b - a : a - b);
    };
    QString s;
    switch (p.kind) {
    case SessionDiff::OffCpu:
        s = QStringLiteral("\nOff-CPU profile: %1 -> %2 off the CPU (%3 -> %4 waits)\n")
                .arg(formatNs(p.totalA), formatNs(p.totalB))
                .arg(p.eventsA)
                .arg(p.eventsB);
        break;
    case SessionDiff::InuseBytes:
        s = QStringLiteral("\nBytes in use at the end (memleak): %1 -> %2 bytes (%3 -> %4 "
                           "allocation events), %5\n")
                .arg(p.totalA)
                .arg(p.totalB)
                .arg(p.eventsA)
                .arg(p.eventsB)
                .arg(change(double(p.totalA), double(p.totalB), true));
        break;
    case SessionDiff::OnCpu:
        s = QStringLiteral("\nOn-CPU profile: %1 -> %2 samples\n").arg(p.totalA).arg(p.totalB);
        break;
    }
    if (p.functions.isEmpty())
        return s + QStringLiteral("  no function's share or weight changed\n");
    s += QStringLiteral("  the functions whose share of the profile changed most: A -> B as %1 "
                        "and share, the change in percentage points and %1\n")
             .arg(p.offCpu                            ? QStringLiteral("time")
                  : p.kind == SessionDiff::InuseBytes ? QStringLiteral("bytes")
                                                      : QStringLiteral("samples"));
    const auto line = [&](const char *label, quint64 a, quint64 b) {
        const QString sideA =
            QStringLiteral("%1 (%2%)").arg(amount(a)).arg(100.0 * p.shareA(a), 0, 'f', 1);
        const QString sideB =
            QStringLiteral("%1 (%2%)").arg(amount(b)).arg(100.0 * p.shareB(b), 0, 'f', 1);
        return QStringLiteral("    %1 %2 -> %3  %4, %5\n")
            .arg(QLatin1String(label), -5)
            .arg(sideA, 20)
            .arg(sideB, -20)
            .arg(points(p.shareB(b) - p.shareA(a)), signedAmount(a, b));
    };
    for (const SessionDiff::Function &f : p.functions) {
        s += QStringLiteral("  %1%2\n")
                 .arg(f.name, f.module.isEmpty() ? QString() : QStringLiteral("  ") + f.module);
        s += line("self", f.selfA, f.selfB);
        s += line("total", f.totalA, f.totalB);
    }
    return s;
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

    // One layout for every table: the name (at least 16 columns, as wide as the longest one up
    // to 60; a longer one shifts only its own line), the two counts, the change.
    const auto table = [](const QList<std::tuple<QString, qint64, qint64>> &rows) {
        qsizetype width = 16;
        for (const auto &r : rows)
            width = std::max(width, std::min<qsizetype>(std::get<0>(r).size(), 60));
        QString t = QStringLiteral("  %1%2%3  CHANGE\n")
                        .arg(QString(), -int(width))
                        .arg(QStringLiteral("A"), 12)
                        .arg(QStringLiteral("B"), 12);
        for (const auto &[name, a, b] : rows)
            t += QStringLiteral("  %1%2%3  %4\n")
                     .arg(name, -int(width))
                     .arg(a, 12)
                     .arg(b, 12)
                     .arg(change(double(a), double(b), true));
        return t;
    };
    QList<std::tuple<QString, qint64, qint64>> counts;
    for (const SessionDiff::Events &e : d.events)
        counts.append({QLatin1String(probeIdOf(e.type)), e.a, e.b});
    s += QStringLiteral("\nEvents\n") + table(counts);
    for (const SessionDiff::Events &e : d.events) {
        for (const SessionDiff::Keys &k : e.dimensions) {
            const QString title =
                QStringLiteral("\n%1 events by %2")
                    .arg(QLatin1String(probeIdOf(e.type)), dimensionName(k.dimension));
            if (k.keys.isEmpty()) {
                s += title + QStringLiteral(": none in either session\n");
                continue;
            }
            QList<std::tuple<QString, qint64, qint64>> rows;
            for (const SessionDiff::Key &key : k.keys)
                rows.append({key.key, key.a, key.b});
            s += title +
                 (k.total > k.keys.size()
                      ? QStringLiteral(" (the busiest %1 of %2)\n").arg(k.keys.size()).arg(k.total)
                      : QStringLiteral("\n")) +
                 table(rows);
        }
    }

    for (const SessionDiff::Profile &p : d.profiles)
        s += profileText(p);
    if (!d.profileOnlyInA.isEmpty())
        s += QStringLiteral("\nprofile only in A: %1\n")
                 .arg(d.profileOnlyInA.join(QLatin1String(", ")));
    if (!d.profileOnlyInB.isEmpty())
        s += QStringLiteral("\nprofile only in B: %1\n")
                 .arg(d.profileOnlyInB.join(QLatin1String(", ")));
    return s;
}

} // namespace bpflens::cli
