#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <array>
#include <cstdint>

namespace bpflens {

// The unit of a histogram's values: a latency's, as biolatency's -m switch selects, or a size's
// (bitesize's Kbytes). The numbers are what session files and the stream store.
enum class HistogramUnit : quint8
{
    Nanoseconds = 0,
    Microseconds = 1,
    Milliseconds = 2,
    Kilobytes = 3, // 1024 bytes
    Value = 4,     // a plain number (tpcount's histogram of a tracepoint field), not divided
};
inline constexpr HistogramUnit LastHistogramUnit = HistogramUnit::Value;

// "nsecs", "usecs", "msecs", "Kbytes" as BCC prints them; "value" for a plain number.
QString histogramUnitName(HistogramUnit unit);
// What a raw value (ns, bytes) is divided by before bucketing: 1000 for usecs, 1024 for Kbytes.
quint64 unitDivisor(HistogramUnit unit);
inline bool isTimeUnit(HistogramUnit unit)
{
    return unit != HistogramUnit::Kilobytes && unit != HistogramUnit::Value;
}

// A log2 histogram with BCC/libbpf-tools semantics: slot 0 holds 0 and 1, slot n (n >= 1)
// holds [2^n, 2^(n+1) - 1]. Values are in unit(); the kernel side divides before bucketing.
// sum() is exact when the producer tracked it (our BPF programs do), otherwise 0.
class Log2Histogram
{
public:
    static constexpr int MaxSlots = 64;

    explicit Log2Histogram(HistogramUnit unit = HistogramUnit::Microseconds);

    static int slotOf(quint64 value);
    static quint64 slotLow(int slot); // as print_log2_hist shows it (slot 0 -> 0)
    static quint64 slotHigh(int slot);
    static QString slotLabel(int slot); // "0 -> 1", "2 -> 3", ...

    HistogramUnit unit() const { return m_unit; }
    void add(quint64 value, quint64 count = 1);
    void addToSlot(int slot, quint64 count, quint64 sum = 0);
    quint64 slot(int index) const { return m_slots[index]; }
    int usedSlots() const; // index of the highest non-empty slot + 1
    quint64 count() const;
    quint64 sum() const { return m_sum; }
    void setSum(quint64 sum) { m_sum = sum; }
    double mean() const;
    bool isEmpty() const { return count() == 0; }

    // Estimated by linear interpolation inside the bucket holding the rank (fraction in [0,1]).
    double percentile(double fraction) const;

    void merge(const Log2Histogram &other);
    // Interval delta: this minus an earlier cumulative snapshot of the same counter.
    Log2Histogram subtract(const Log2Histogram &earlier) const;

    // print_log2_hist layout: header "usecs : count distribution", 40-character star bar.
    QString toText() const;

    bool operator==(const Log2Histogram &other) const = default;

private:
    std::array<quint64, MaxSlots> m_slots{};
    quint64 m_sum = 0;
    HistogramUnit m_unit;
};

} // namespace bpflens
