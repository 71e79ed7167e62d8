#pragma once

#include "core/events.h"

#include <QColor>
#include <QIcon>
#include <QPalette>

namespace bpflens::colors {

// BPF Lens' colours, in one place so a thing has the same colour in every view: an event type
// in its timeline lane, its tab and its row of the summary; a block operation in the timeline
// and the charts; the series of a chart. All are mid-saturation hues that read on the light
// and the dark theme (gui/theme.h).

// An event type's colour, declared with the type (EventTraits::lane, core/events/<type>.h);
// the palette's highlight where a type declares none.
QColor eventType(EventType type, const QPalette &palette);
// The colour of the events a probe makes ("exec"), invalid for a probe without events of its
// own (histograms and counters only).
QColor probe(const QString &probeId, const QPalette &palette);

// Block I/O by operation, as the timeline's block lane and its key draw them.
enum class Operation
{
    Read,
    Write,
    Other
};
QColor operation(Operation op);

// The n-th series of a chart with many (Tableau 10: ten that stay apart), and the grey of the
// line or bar that sums the rest.
QColor series(int n);
QColor rest();

// A round swatch of a colour, for tabs and table rows.
QIcon swatch(const QColor &color);

} // namespace bpflens::colors
