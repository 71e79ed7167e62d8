#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <array>
#include <cstdint>

namespace bpflens {

// Latency unit of a histogram's values, as biolatency's -m switch selects.
enum class TimeUnit : quint8
{
    Nanoseconds = 0,
    Microseconds = 1,
    Milliseconds = 2
};

QString timeUnitName(TimeUnit unit); // "nsecs", "usecs", "msecs" as BCC prints them
quint64 nanosecondsPer(TimeUnit unit);

// A log2 histogram with BCC/libbpf-tools semantics: slot 0 holds 0 and 1, slot n (n >= 1)
// holds [2^n, 2^(n+1) - 1]. Values are in unit(); the kernel side divides before bucketing.
// sum() is exact when the producer tracked it (our BPF programs do), otherwise 0.
class Log2Histogram
{
public:
    static constexpr int MaxSlots = 64;

    explicit Log2Histogram(TimeUnit unit = TimeUnit::Microseconds);

    static int slotOf(quint64 value);
    static quint64 slotLow(int slot); // as print_log2_hist shows it (slot 0 -> 0)
    static quint64 slotHigh(int slot);
    static QString slotLabel(int slot); // "0 -> 1", "2 -> 3", ...

    TimeUnit unit() const { return m_unit; }
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
    TimeUnit m_unit;
};

} // namespace bpflens
