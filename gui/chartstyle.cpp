#include "gui/chartstyle.h"

#include <QAbstractAxis>
#include <QChart>

namespace bpflens {

void styleChart(QChart *chart, const QPalette &palette)
{
    const bool dark = palette.color(QPalette::Window).lightness() < 128;
    chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(palette.brush(QPalette::Base));
    chart->setBackgroundRoundness(0);
    // Value axes in the user's number format ("1,5 s" in German, as the tables).
    chart->setLocalizeNumbers(true);
    chart->setTitleBrush(palette.brush(QPalette::Text));
    chart->legend()->setLabelColor(palette.color(QPalette::Text));
    QColor grid = palette.color(QPalette::Mid);
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsColor(palette.color(QPalette::Text));
        axis->setTitleBrush(palette.brush(QPalette::Text));
        axis->setGridLineColor(grid);
        axis->setLinePenColor(grid);
    }
}

} // namespace bpflens
