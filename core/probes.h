#pragma once

#include "core/probes/bitesize.h"
#include "core/probes/block.h"
#include "core/probes/cachestat.h"
#include "core/probes/exec.h"
#include "core/probes/fsslower.h"
#include "core/probes/iostack.h"
#include "core/probes/memleak.h"
#include "core/probes/offcpu.h"
#include "core/probes/offwake.h"
#include "core/probes/oomkill.h"
#include "core/probes/open.h"
#include "core/probes/pagefault.h"
#include "core/probes/profile.h"
#include "core/probes/reclaim.h"
#include "core/probes/runqlat.h"
#include "core/probes/tcpaccept.h"
#include "core/probes/tcpconnect.h"
#include "core/probes/tcplife.h"
#include "core/probes/tcpretrans.h"
#include "core/probes/threadstate.h"
#include "core/probes/tpcount.h"
#include "core/probes/tppair.h"
#include "core/probes/uprobe.h"
#include "core/probes/usdt.h"

namespace bpflens {

// Every probe, once, in the order the probe panel and `bpflens-cli probes` list them. A probe's
// whole shape (options, events, histograms, counters, charts, metrics, target) is declared in
// core/probes/<id>.h; ProbeCatalog::probes() is this list, and every layer reads it from there
// (docs/adding-a-probe.md).
#define BPFLENS_PROBES(X)                                                                          \
    X(exec)                                                                                        \
    X(open)                                                                                        \
    X(block)                                                                                       \
    X(bitesize)                                                                                    \
    X(runqlat)                                                                                     \
    X(profile)                                                                                     \
    X(offcpu)                                                                                      \
    X(offwake)                                                                                     \
    X(threadstate)                                                                                 \
    X(tcpconnect)                                                                                  \
    X(tcpaccept)                                                                                   \
    X(tcpretrans)                                                                                  \
    X(tcplife)                                                                                     \
    X(cachestat)                                                                                   \
    X(oomkill)                                                                                     \
    X(reclaim)                                                                                     \
    X(pagefault)                                                                                   \
    X(memleak)                                                                                     \
    X(iostack)                                                                                     \
    X(fsslower)                                                                                    \
    X(tppair)                                                                                      \
    X(tpcount)                                                                                     \
    X(uprobe)                                                                                      \
    X(usdt)

inline QList<ProbeInfo> declaredProbes()
{
#define BPFLENS_PROBE_DECL(id) probedecl::id##Probe(),
    QList<ProbeInfo> probes{BPFLENS_PROBES(BPFLENS_PROBE_DECL)};
#undef BPFLENS_PROBE_DECL
    for (ProbeInfo &p : probes)
        p.producesEvents = !p.eventTypes.isEmpty();
    return probes;
}

} // namespace bpflens
