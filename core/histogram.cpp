#include "core/histogram.h"

#include <QStringList>

#include <algorithm>
#include <bit>
#include <numeric>

namespace bpflens {

QString histogramUnitName(HistogramUnit unit)
{
    switch (unit) {
    case HistogramUnit::Nanoseconds:
        return QStringLiteral("nsecs");
    case HistogramUnit::Microseconds:
        return QStringLiteral("usecs");
    case HistogramUnit::Milliseconds:
        return QStringLiteral("msecs");
    case HistogramUnit::Kilobytes:
        return QStringLiteral("Kbytes");
    case HistogramUnit::Value:
        return QStringLiteral("value");
    }
    return QString();
}

quint64 unitDivisor(HistogramUnit unit)
{
    switch (unit) {
    case HistogramUnit::Nanoseconds:
        return 1;
    case HistogramUnit::Microseconds:
        return 1000;
    case HistogramUnit::Milliseconds:
        return 1000 * 1000;
    case HistogramUnit::Kilobytes:
        return 1024;
    case HistogramUnit::Value:
        return 1;
    }
    return 1;
}

Log2Histogram::Log2Histogram(HistogramUnit unit)
    : m_unit(unit)
{
}

int Log2Histogram::slotOf(quint64 value)
{
    // bits.bpf.h's log2l(): floor(log2(v)), with 0 and 1 both in slot 0.
    return value < 2 ? 0 : std::bit_width(value) - 1;
}

quint64 Log2Histogram::slotLow(int slot)
{
    // print_log2_hist: low = (1 << (i + 1)) >> 1, and low -= 1 when low == high (slot 0).
    return slot == 0 ? 0 : quint64(1) << slot;
}

quint64 Log2Histogram::slotHigh(int slot)
{
    return slot >= 63 ? ~quint64(0) : (quint64(1) << (slot + 1)) - 1;
}

QString Log2Histogram::slotLabel(int slot)
{
    return QStringLiteral("%1 -> %2").arg(slotLow(slot)).arg(slotHigh(slot));
}

void Log2Histogram::add(quint64 value, quint64 count)
{
    m_slots[slotOf(value)] += count;
    m_sum += value * count;
}

void Log2Histogram::addToSlot(int slot, quint64 count, quint64 sum)
{
    m_slots[std::clamp(slot, 0, MaxSlots - 1)] += count;
    m_sum += sum;
}

int Log2Histogram::usedSlots() const
{
    for (int i = MaxSlots - 1; i >= 0; --i) {
        if (m_slots[i])
            return i + 1;
    }
    return 0;
}

quint64 Log2Histogram::count() const
{
    return std::accumulate(m_slots.begin(), m_slots.end(), quint64(0));
}

double Log2Histogram::mean() const
{
    const quint64 n = count();
    return n ? double(m_sum) / double(n) : 0.0;
}

double Log2Histogram::percentile(double fraction) const
{
    const quint64 n = count();
    if (n == 0)
        return 0.0;
    fraction = std::clamp(fraction, 0.0, 1.0);
    // The rank of the wanted value among n sorted values, then its place inside the bucket that
    // holds it, assuming the bucket's values are spread evenly over [low, high + 1).
    const double rank = fraction * double(n);
    double below = 0;
    for (int i = 0; i < MaxSlots; ++i) {
        const double c = double(m_slots[i]);
        if (c == 0)
            continue;
        if (below + c >= rank) {
            const double low = double(slotLow(i));
            const double high = double(slotHigh(i)) + 1.0;
            return low + (high - low) * ((rank - below) / c);
        }
        below += c;
    }
    return double(slotHigh(usedSlots() - 1)) + 1.0;
}

void Log2Histogram::merge(const Log2Histogram &other)
{
    for (int i = 0; i < MaxSlots; ++i)
        m_slots[i] += other.m_slots[i];
    m_sum += other.m_sum;
}

Log2Histogram Log2Histogram::subtract(const Log2Histogram &earlier) const
{
    // Counters only grow; a smaller later value means the counter was reset, so the later
    // value is the whole delta.
    Log2Histogram delta(m_unit);
    for (int i = 0; i < MaxSlots; ++i) {
        delta.m_slots[i] =
            m_slots[i] >= earlier.m_slots[i] ? m_slots[i] - earlier.m_slots[i] : m_slots[i];
    }
    delta.m_sum = m_sum >= earlier.m_sum ? m_sum - earlier.m_sum : m_sum;
    return delta;
}

QString Log2Histogram::toText() const
{
    // A line-for-line port of libbpf-tools' print_log2_hist() and print_stars().
    const int idxMax = usedSlots() - 1;
    if (idxMax < 0)
        return QString();
    const quint64 valMax = *std::max_element(m_slots.begin(), m_slots.end());
    const bool narrow = idxMax <= 32;
    const int starsMax = narrow ? 40 : 20;
    const int width = narrow ? 10 : 20;

    QString out;
    out += QString(narrow ? 5 : 15, QLatin1Char(' '));
    out += histogramUnitName(m_unit).leftJustified(narrow ? 19 : 29, QLatin1Char(' '));
    out += QStringLiteral(" : count    distribution\n");
    for (int i = 0; i <= idxMax; ++i) {
        const quint64 val = m_slots[i];
        out += QStringLiteral("%1 -> %2 : %3 |")
                   .arg(slotLow(i), width)
                   .arg(QString::number(slotHigh(i)).leftJustified(width, QLatin1Char(' ')))
                   .arg(QString::number(val).leftJustified(8, QLatin1Char(' ')));
        const int stars = int(std::min(val, valMax) * quint64(starsMax) / valMax);
        out += QString(stars, QLatin1Char('*'));
        out += QString(starsMax - stars, QLatin1Char(' '));
        if (val > valMax)
            out += QLatin1Char('+');
        out += QStringLiteral("|\n");
    }
    return out;
}

} // namespace bpflens
