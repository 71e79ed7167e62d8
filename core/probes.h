#pragma once

#include "probes/bitesize.h"
#include "probes/block.h"
#include "probes/cachestat.h"
#include "probes/exec.h"
#include "probes/fsslower.h"
#include "probes/iostack.h"
#include "probes/offcpu.h"
#include "probes/open.h"
#include "probes/profile.h"
#include "probes/runqlat.h"
#include "probes/tcpaccept.h"
#include "probes/tcpconnect.h"
#include "probes/tcplife.h"
#include "probes/tcpretrans.h"
#include "probes/tpcount.h"
#include "probes/tppair.h"
#include "probes/uprobe.h"
#include "probes/usdt.h"

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
    X(tcpconnect)                                                                                  \
    X(tcpaccept)                                                                                   \
    X(tcpretrans)                                                                                  \
    X(tcplife)                                                                                     \
    X(cachestat)                                                                                   \
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
