#pragma once

#include <QString>

namespace bpflens::cli {

// "1 event", "2 events": the CLI's output is English and not translated (the GUI's counts go
// through tr("%n event(s)") and translations/bpflens_en.ts).
inline QString countOf(qint64 n, const char *one, const char *many)
{
    return QString::number(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? one : many);
}

} // namespace bpflens::cli
