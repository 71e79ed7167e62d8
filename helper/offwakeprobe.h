#pragma once

#include "helper/offcpuprobe.h"

namespace bpflens {

// offwake: offcpu's spans, each joined with the wakeup that ended it (offcpu.bpf.c's wakers):
// the waker's pid, tid, comm and kernel and user stack, as BCC's offwaketime.
class OffWakeProbe : public OffCpuProbe
{
public:
    OffWakeProbe();
};

} // namespace bpflens
