// Which class implements each probe of the catalog. One line per probe.
#include "helper/cachestatprobe.h"
#include "helper/probe.h"
#include "helper/tcpacceptprobe.h"
#include "helper/tcpconnectprobe.h"
#include "helper/tcplifeprobe.h"
#include "helper/tcpretransprobe.h"
#include "helper/threadstateprobe.h"

#include "helper/bitesizeprobe.h"
#include "helper/blockprobe.h"
#include "helper/runqlatprobe.h"

#include "helper/execprobe.h"
#include "helper/memleakprobe.h"
#include "helper/openprobe.h"
#include "helper/pagefaultprobe.h"

#include "helper/fsslowerprobe.h"
#include "helper/iostackprobe.h"
#include "helper/offcpuprobe.h"
#include "helper/offwakeprobe.h"
#include "helper/oomkillprobe.h"
#include "helper/profileprobe.h"
#include "helper/reclaimprobe.h"
#include "helper/tpcountprobe.h"
#include "helper/tppairprobe.h"
#include "helper/uprobeprobe.h"
#include "helper/usdtprobe.h"

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
        {QStringLiteral("offwake"), factory<OffWakeProbe>()},
        {QStringLiteral("threadstate"), factory<ThreadStateProbe>()},
        {QStringLiteral("oomkill"), factory<OomKillProbe>()},
        {QStringLiteral("reclaim"), factory<ReclaimProbe>()},
        {QStringLiteral("pagefault"), factory<PageFaultProbe>()},
        {QStringLiteral("memleak"), factory<MemleakProbe>()},
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
