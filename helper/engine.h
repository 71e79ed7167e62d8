#pragma once

#include "core/records.h"
#include "helper/kernelfeatures.h"
#include "helper/probe.h"

#include <QList>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace bpflens {

class CgroupResolver;
class StackResolver;

struct ProbeStatus
{
    ProbeInfo info;
    ProbeAvailability availability;
};

// The probe engine: no D-Bus, no files. The helper service, the CLI (in-process as root) and
// the tests drive it the same way:
//   Engine e; e.start({{"exec", {}}, {"block", {{"disk", "vda"}}}}, &err);
//   while (recording) { RecordBatch b; e.poll(200, b); consume(b); }
//   e.stop(); // flushes the last records and snapshots into the batch given to stop()
class Engine
{
public:
    Engine();
    ~Engine();
    Engine(const Engine &) = delete;
    Engine &operator=(const Engine &) = delete;

    // Read (and the kernel's BTF parsed) on first use; released once probes are running.
    const KernelFeatures &kernel() const;
    // Frees what kernel() holds beyond its answers (the parsed BTF): a helper that answered
    // its calls goes back to its idle footprint. The next question no earlier one asked parses
    // the BTF again.
    void releaseKernelMemory() const
    {
        if (m_kernel)
            m_kernel->releaseMemory();
    }
    // The catalog with every probe's availability on this kernel (default options).
    QList<ProbeStatus> probes() const;
    // One probe's entry of that list, without the others' feature checks (each may load a
    // program); nullopt for an id not in the catalog.
    std::optional<ProbeStatus> probe(const QString &id) const;

    // Validates every request against the catalog and the kernel, then starts every probe.
    // All or nothing: on failure nothing stays attached and *error names the probe and why.
    // On success each request's attachPath and normalised options are filled in.
    bool start(QList<ProbeConfig> &requests, QString *error);
    bool isRunning() const { return !m_probes.empty(); }
    // Ring buffer size of each probe started afterwards (power of two, >= page size); 0, the
    // default, leaves each probe its own (Probe::defaultRingBufferBytes()).
    void setRingBufferBytes(quint32 bytes) { m_ringBufferBytes = bytes; }

    // Waits up to timeoutMs for records, then moves all waiting records into out, plus the
    // histogram and stats snapshots of every probe whose interval has elapsed.
    void poll(int timeoutMs, RecordBatch &out);
    // Detaches every probe, then drains everything the kernel recorded until the detach and
    // takes the final snapshots into out, then frees everything. Without out, what is left is
    // discarded.
    void stop(RecordBatch *out = nullptr);

    quint64 startMonotonicNs() const { return m_startNs; }
    // The stacks of the recording (profile, offcpu): every stack id an event of a batch names
    // is defined in that batch or an earlier one. nullptr when not recording.
    const StackTable *stacks() const;
    static quint64 monotonicNowNs();

    // Hands the heap's free pages back to the system (glibc keeps them, in every thread's
    // arena, for the next allocation): after a start freed its BTF copies, after a session.
    static void returnFreeMemory();

private:
    void takeNewStacks(RecordBatch &out);
    // The paths of the cgroups out's events name for the first time (out.cgroups); last: the
    // recording ends, ids still unresolved are handed out without a path.
    void takeNewCgroups(RecordBatch &out, bool last);

    // The kernel's BTF, which KernelFeatures holds, is over 5 MiB of heap on a distribution
    // kernel: only choosing and loading probes needs it, not hours of recording.
    mutable std::unique_ptr<KernelFeatures> m_kernel;
    std::vector<std::unique_ptr<Probe>> m_probes;
    std::vector<quint64> m_nextSnapshotNs;
    // Frames and stacks of the running recording, shared by its probes.
    std::unique_ptr<StackResolver> m_stackResolver;
    // The cgroups of the running recording (core/cgroups.h).
    std::unique_ptr<CgroupResolver> m_cgroups;
    int m_epollFd = -1;
    int m_statsFd = -1;
    quint64 m_startNs = 0;
    quint32 m_ringBufferBytes = 0;
};

} // namespace bpflens
