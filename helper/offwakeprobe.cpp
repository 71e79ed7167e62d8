#include "helper/offwakeprobe.h"

#include <linux/types.h>

// (the skeleton's type completes the SkeletonProbe<offcpu_bpf> members this class instantiates)
#include "offcpu.skel.h"

namespace bpflens {

OffWakeProbe::OffWakeProbe()
    : OffCpuProbe(QStringLiteral("offwake"), true)
{
}

} // namespace bpflens
