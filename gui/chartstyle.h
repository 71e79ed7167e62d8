#pragma once

#include <QPalette>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace bpflens {

// Charts follow the widget palette (light or dark desktop theme) instead of Qt Charts' fixed
// white theme.
void styleChart(QChart *chart, const QPalette &palette);

} // namespace bpflens
