#pragma once

// A known chain of thread states (issue #33) for the Threads view's tests: over 100 ms,
//   reader 100 (process 100) runs, blocks on a pipe at 10 ms until writer 200 wakes it at 60 ms,
//     waits for a CPU until 62 ms, then runs to the end;
//   writer 200 (process 200) runs, sleeps on a timer from 5 ms until an interrupt wakes it at
//     40 ms, waits for a CPU until 42 ms, runs until 70 ms (waking reader at 60 ms), sleeps;
//   helper 101 (process 100) runs until 30 ms, waits for I/O (D) until 80 ms, runs;
//   short 300 (process 300) runs for 3 ms and exits.
// The critical path of reader over the whole range: reader running, writer's sleep (woken by
// [irq]), writer runnable, writer running, reader runnable, reader running.

#include "core/events.h"
#include "core/records.h"

namespace bpflens::test {

inline constexpr quint64 ThreadsStartNs = 1'000'000'000'000ull;
inline constexpr quint64 Ms = 1'000'000ull;

inline ThreadStateEvent threadSpan(quint32 pid, quint32 tid, const char *comm, quint64 fromMs,
                                   quint64 toMs, quint8 state, quint8 reason = 0, quint32 cpu = 0)
{
    ThreadStateEvent e;
    e.timeNs = ThreadsStartNs + fromMs * Ms;
    e.durNs = (toMs - fromMs) * Ms;
    e.pid = pid;
    e.tid = tid;
    e.comm = comm;
    e.state = state;
    e.reason = reason;
    e.cpu = cpu;
    return e;
}

inline ThreadStateEvent wokenBy(ThreadStateEvent e, quint32 pid, quint32 tid, const char *comm)
{
    e.wakerPid = pid;
    e.wakerTid = tid;
    e.wakerComm = comm;
    e.stackId = 0;
    return e;
}

inline SessionData threadStateSession()
{
    using E = ThreadStateEvent;
    SessionData d;
    d.info.startMonotonicNs = ThreadsStartNs;
    d.info.endMonotonicNs = ThreadsStartNs + 100 * Ms;
    ProbeConfig probe;
    probe.id = QStringLiteral("threadstate");
    d.info.probes.append(probe);
    auto &s = d.events;
    s.append(threadSpan(100, 100, "reader", 0, 10, E::Running, 0, 1));
    s.append(wokenBy(threadSpan(100, 100, "reader", 10, 60, E::Sleeping, E::Pipe, 1), 200, 200,
                     "writer"));
    s.append(threadSpan(100, 100, "reader", 60, 62, E::Runnable, E::Woken, 1));
    s.append(threadSpan(100, 100, "reader", 62, 100, E::Running, 0, 1));

    s.append(threadSpan(200, 200, "writer", 0, 5, E::Running, 0, 0));
    s.append(
        wokenBy(threadSpan(200, 200, "writer", 5, 40, E::Sleeping, E::Sleep, 0), 0, 0, "[irq]"));
    s.append(threadSpan(200, 200, "writer", 40, 42, E::Runnable, E::Woken, 0));
    s.append(threadSpan(200, 200, "writer", 42, 70, E::Running, 0, 0));
    s.append(threadSpan(200, 200, "writer", 70, 100, E::Sleeping, E::Pipe, 0));

    s.append(threadSpan(100, 101, "helper", 0, 30, E::Running, 0, 2));
    s.append(wokenBy(threadSpan(100, 101, "helper", 30, 80, E::Uninterruptible, E::Io, 2), 0, 0,
                     "[irq]"));
    s.append(threadSpan(100, 101, "helper", 80, 100, E::Running, 0, 2));

    s.append(threadSpan(300, 300, "short", 0, 3, E::Running, 0, 3));
    return d;
}

} // namespace bpflens::test
