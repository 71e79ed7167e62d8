#include "core/units.h"

#include <QRegularExpression>

#include <algorithm>
#include <array>
#include <cmath>

namespace bpflens {

QString noValue()
{
    return QStringLiteral("–");
}

QString formatByteSize(quint64 bytes, const QLocale &locale)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(locale.toString(bytes));
    static constexpr std::array<const char *, 6> Prefixes = {"KiB", "MiB", "GiB",
                                                             "TiB", "PiB", "EiB"};
    double value = double(bytes) / 1024.0;
    size_t i = 0;
    // 1023.96 KiB would print as "1024.0 KiB": the next prefix reads it as 1.0 MiB.
    while (i + 1 < Prefixes.size() && std::round(value * 10.0) >= 1024.0 * 10.0) {
        value /= 1024.0;
        ++i;
    }
    return QStringLiteral("%1 %2").arg(locale.toString(value, 'f', 1), QLatin1String(Prefixes[i]));
}

std::optional<quint64> parseLatencyNs(QStringView text, const QLocale &locale, quint64 bareUnitNs)
{
    // The number may carry the locale's group separators ("1,234.5", "1.234,5", "1 234,5");
    // the locale sorts them out below.
    static const QRegularExpression re(
        QStringLiteral("^\\s*([0-9][0-9.,'\\x{00a0}\\x{202f}]*)\\s*(ns|us|µs|μs|ms|s)?\\s*$"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = re.match(text.toString());
    if (!m.hasMatch())
        return std::nullopt;
    const QString number = m.captured(1);
    bool ok = false;
    double value = locale.toDouble(number, &ok);
    if (!ok) // "1.5" in a locale with a decimal comma, "1,5" in one with a dot
        value =
            QLocale::c().toDouble(QString(number).replace(QLatin1Char(','), QLatin1Char('.')), &ok);
    if (!ok)
        return std::nullopt;
    const QString unit = m.captured(2).toLower();
    double scale = double(bareUnitNs);
    if (unit == QLatin1String("ns"))
        scale = 1;
    else if (unit == QLatin1String("us") || unit == QStringLiteral("µs") ||
             unit == QStringLiteral("μs"))
        scale = 1e3;
    else if (unit == QLatin1String("ms"))
        scale = 1e6;
    else if (unit == QLatin1String("s"))
        scale = 1e9;
    const double ns = value * scale;
    if (!std::isfinite(ns) || ns < 0 || ns > 365.0 * 24 * 3600e9)
        return std::nullopt;
    return quint64(std::llround(ns));
}

QString histogramAxisUnit(HistogramUnit unit)
{
    return unit == HistogramUnit::Kilobytes ? histogramUnitSymbol(unit) : histogramUnitName(unit);
}

QString histogramUnitSymbol(HistogramUnit unit)
{
    switch (unit) {
    case HistogramUnit::Nanoseconds:
        return QStringLiteral("ns");
    case HistogramUnit::Microseconds:
        return QStringLiteral("µs");
    case HistogramUnit::Milliseconds:
        return QStringLiteral("ms");
    case HistogramUnit::Kilobytes:
        return QStringLiteral("KiB");
    case HistogramUnit::Value:
        return QString();
    }
    return QString();
}

int percentileSlot(const Log2Histogram &histogram, double fraction)
{
    const quint64 n = histogram.count();
    if (n == 0)
        return -1;
    // The epsilon keeps 0.9 * 10 at rank 9 whatever the rounding of 0.9 (as nearestRank()).
    const quint64 rank =
        std::max<quint64>(1, quint64(std::ceil(std::clamp(fraction, 0.0, 1.0) * double(n) - 1e-9)));
    quint64 below = 0;
    for (int i = 0; i < Log2Histogram::MaxSlots; ++i) {
        below += histogram.slot(i);
        if (below >= rank)
            return i;
    }
    return histogram.usedSlots() - 1;
}

} // namespace bpflens
