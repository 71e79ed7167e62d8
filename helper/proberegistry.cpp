// Which class implements each probe of the catalog. One line per probe.
#include "cachestatprobe.h"
#include "probe.h"
#include "tcpacceptprobe.h"
#include "tcpconnectprobe.h"
#include "tcplifeprobe.h"
#include "tcpretransprobe.h"

#include "bitesizeprobe.h"
#include "blockprobe.h"
#include "runqlatprobe.h"

#include "execprobe.h"
#include "openprobe.h"

#include "fsslowerprobe.h"
#include "iostackprobe.h"
#include "offcpuprobe.h"
#include "profileprobe.h"
#include "tpcountprobe.h"
#include "tppairprobe.h"
#include "uprobeprobe.h"
#include "usdtprobe.h"

#include <QHash>

namespace bpflens {

namespace {

template<typename T>
ProbeFactory factory()
{
    return [] { return std::unique_ptr<Probe>(new T); };
}

const QHash<QString, ProbeFactory> &registry()
{
    static const QHash<QString, ProbeFactory> r = {
        {QStringLiteral("tcpconnect"), factory<TcpConnectProbe>()},
        {QStringLiteral("tcpaccept"), factory<TcpAcceptProbe>()},
        {QStringLiteral("tcpretrans"), factory<TcpRetransProbe>()},
        {QStringLiteral("tcplife"), factory<TcpLifeProbe>()},
        {QStringLiteral("cachestat"), factory<CacheStatProbe>()},
        {QStringLiteral("block"), factory<BlockProbe>()},
        {QStringLiteral("bitesize"), factory<BitesizeProbe>()},
        {QStringLiteral("runqlat"), factory<RunqlatProbe>()},
        {QStringLiteral("exec"), factory<ExecProbe>()},
        {QStringLiteral("open"), factory<OpenProbe>()},
        {QStringLiteral("iostack"), factory<IoStackProbe>()},
        {QStringLiteral("fsslower"), factory<FsSlowerProbe>()},
        {QStringLiteral("tppair"), factory<TpPairProbe>()},
        {QStringLiteral("tpcount"), factory<TpCountProbe>()},
        {QStringLiteral("uprobe"), factory<UprobeProbe>()},
        {QStringLiteral("usdt"), factory<UsdtProbe>()},
        {QStringLiteral("profile"), factory<ProfileProbe>()},
        {QStringLiteral("offcpu"), factory<OffCpuProbe>()},
    };
    return r;
}

} // namespace

std::unique_ptr<Probe> createProbe(const QString &id)
{
    const ProbeFactory f = registry().value(id);
    return f ? f() : nullptr;
}

} // namespace bpflens
