#pragma once

#include <QString>
#include <QStringList>

namespace bpflens {

// The probes that count per key (uprobe, usdt, tpcount) name each counter after its key ("calls",
// "arg1=42", "\"GET\"", "next.pid=17") and report beside them what they could not count. These
// are those loss counters: the helper emits them under these names, and whoever lists the keys
// (bpflens-cli show) leaves them out by these names instead of copies of its own. No key of
// these probes can have such a name: theirs are "calls" or "hits", start with a quote, or hold
// a "=". Which probe reports which, and what each means, is in the probe's declaration
// (core/probes/<id>.h: ProbeInfo::lossCounters()).
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

} // namespace KeyedLoss

} // namespace bpflens
