#pragma once

#include "core/records.h"
#include "core/stacks.h"
#include "helper/symbolizerclient.h"

#include <QList>
#include <QString>

#include <linux/perf_event.h>

#include <vector>

struct bpf_link;
struct bpf_program;
struct sample_stacks;

namespace bpflens {

class StackResolver;

// What the probes that run a BPF program on a perf event of every CPU share (profile on its
// sampling clock, pagefault on the fault events): the events themselves, and each sample's
// stacks (bpf/samplestack.bpf.h), unwound and symbolised in one request per drain.

// The online CPUs, from /sys/devices/system/cpu/online ("0-3,5,7-8"); empty when unreadable.
QList<int> onlineCpus();

// perf_event_open(attr) on one CPU for every task, close-on-exec: the fd, or -1 with errno.
int openCpuPerfEvent(const perf_event_attr &attr, int cpu);

// Perf events of every online CPU, each with a BPF program attached.
class PerfEventSet
{
public:
    PerfEventSet() = default;
    ~PerfEventSet() { close(); }
    PerfEventSet(const PerfEventSet &) = delete;
    PerfEventSet &operator=(const PerfEventSet &) = delete;

    // Opens attr on every online CPU (a CPU gone offline meanwhile is skipped) and attaches
    // program to each; the events stay open until close(). false with *error naming the event
    // by name (what perf calls it: "cycles", "minor-faults").
    bool open(const perf_event_attr &attr, bpf_program *program, const char *name, QString *error);
    // Detaches the programs and closes the events.
    void close();

private:
    QList<int> m_fds;
    QList<bpf_link *> m_links;
};

// The stacks of the samples of one drain: added as they are decoded, then resolved together
// (one symbolizer request: the child reads each process's maps once) into stack ids of the
// recording's StackTable.
class SampledStacks
{
public:
    // Takes one sample's stacks: st as the record holds it, stackCopy its st.stack_size bytes
    // of user stack, noUser to ignore the user side (kernelOnly). Returns false, taking
    // nothing, for a record whose lengths are out of bounds.
    bool add(StackResolver *resolver, quint32 pid, quint32 tid, const sample_stacks &st,
             const char *stackCopy, bool noUser);
    // The same from a record that holds only what was taken (pagefault's, memleak's): tail is
    // st.stack_size bytes of user stack, then st.kstack_len kernel and st.ustack_len user
    // return addresses, 8 bytes each; st's own frame arrays are not read.
    bool addPacked(StackResolver *resolver, quint32 pid, quint32 tid, sample_stacks st,
                   const char *tail);
    // The stack ids of the samples added since the last call, in the order they were added.
    QList<quint32> resolve(StackResolver *resolver);
    // The drain's end: pending holds the events decoded with the samples added since the last
    // call, one each in the same order; each gets its stack id and goes into out.
    template<typename Event>
    void resolveInto(StackResolver *resolver, std::vector<Event> &pending, RecordBatch &out)
    {
        if (pending.empty())
            return;
        const QList<quint32> ids = resolve(resolver);
        auto &events = out.events<Event>();
        for (size_t i = 0; i < pending.size(); ++i) {
            pending[i].stackId = i < size_t(ids.size()) ? ids[qsizetype(i)] : 0;
            events.append(std::move(pending[i]));
        }
        pending.clear();
    }
    void clear();
    bool isEmpty() const { return m_pending.empty(); }

private:
    struct Pending
    {
        QList<quint64> kernel; // leaf first; the first one is the sampled instruction
        bool sampledInKernel = false;
        bool kernelTruncated = false;
        qsizetype user = -1; // index into m_users; -1: no user stack
    };
    std::vector<Pending> m_pending;
    QList<UserSample> m_users;
};

} // namespace bpflens
