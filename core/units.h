#pragma once

#include "core/histogram.h"

#include <QLocale>
#include <QString>
#include <QStringView>

#include <optional>

namespace bpflens {

// Quantities as people read and write them, one way for the GUI and the CLI alike.

// A byte count with binary prefixes and what they are: "512 B", "4.0 KiB", "280.3 MiB"
// (293,933,056 bytes), one decimal from KiB up, numbers in locale's form. The IEC symbols are
// the same in every language.
QString formatByteSize(quint64 bytes, const QLocale &locale = QLocale::c());

// What a table cell shows for a quantity it does not have: an en dash.
QString noValue();

// A latency as the GUI shows it or a user types it: a number in locale's form or with a dot
// ("2097.2", "1,05" in German, "1,234.5"), then perhaps a unit: ns, us, µs, ms or s, with or
// without a space ("2097.2us", "2097.2 µs", "1.25 ms"). A bare number is in bareUnitNs
// (the GUI's latency boxes: µs; the CLI: seconds, as its other durations). In nanoseconds;
// nothing when the text is not a latency or exceeds a year.
std::optional<quint64> parseLatencyNs(QStringView text, const QLocale &locale, quint64 bareUnitNs);

// A histogram's unit as a symbol beside a number: "ns", "µs", "ms", "KiB" (bitesize's Kbytes
// are 1024 bytes), "" for a plain number.
QString histogramUnitSymbol(HistogramUnit unit);

// A histogram's unit as the window's axes, buckets and percentiles name it: BCC's names for
// times ("usecs", as biolatency prints them), but "KiB" for bitesize's Kbytes, which are 1024
// bytes and not the kilobytes the name says.
QString histogramAxisUnit(HistogramUnit unit);

// The slot of a log2 histogram holding the value at rank ceil(fraction * count()) (nearest
// rank): all a log2 histogram knows of a percentile is that it lies in [slotLow, slotHigh] of
// that slot, which is what a view should say. -1 when empty.
int percentileSlot(const Log2Histogram &histogram, double fraction);

} // namespace bpflens
