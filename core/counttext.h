#pragma once

#include <QString>

namespace bpflens {

// "1 event", "2 events": the English messages of the core, the helper and the command line,
// which are not translated (the GUI's counts go through tr("%n event(s)") and
// translations/bpflens_en.ts). No "(s)" in a message (tests/ci/plurals.sh).
inline QString countOf(qint64 n, const char *one, const char *many)
{
    return QString::number(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? one : many);
}

} // namespace bpflens
