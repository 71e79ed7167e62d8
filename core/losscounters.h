#pragma once

#include <QString>
#include <QStringList>

namespace bpflens {

// The probes that count per key (uprobe, usdt, tpcount) name each counter after its key ("calls",
// "arg1=42", "\"GET\"", "next.pid=17") and report beside them what they could not count. These
// are those loss counters: the helper emits them under these names, and whoever lists the keys
// (bpflens-cli show) leaves them out by this one list instead of a copy of its own. No key of
// these probes can have such a name: theirs are "calls" or "hits", start with a quote, or hold
// a "=".
namespace KeyedLoss {
inline QString keysFull()
{
    return QStringLiteral("keysFull");
}
inline QString unreadableStrings()
{
    return QStringLiteral("unreadableStrings");
}
inline QString unreadableKeys()
{
    return QStringLiteral("unreadableKeys");
}
inline QString argumentFaults()
{
    return QStringLiteral("argumentFaults");
}

// probeId's loss counters, in the order a report names them; empty for other probes.
inline QStringList counters(const QString &probeId)
{
    if (probeId == QLatin1String("uprobe"))
        return {keysFull(), unreadableStrings()};
    if (probeId == QLatin1String("usdt"))
        return {keysFull(), unreadableStrings(), argumentFaults()};
    if (probeId == QLatin1String("tpcount"))
        return {keysFull(), unreadableKeys()};
    return {};
}

inline bool isLossCounter(const QString &probeId, const QString &name)
{
    return counters(probeId).contains(name);
}
} // namespace KeyedLoss

} // namespace bpflens
