#pragma once

#include "core/records.h"
#include "core/sessionstore.h"

// A small profile with known numbers for the profile models and the CPU profile page: 100
// on-CPU samples of process "app" (pid 100) and "parser" (pid 200), 10 ms apart from StartNs, and
// two off-CPU intervals.
//
//   stack 1: main → compute                        50 samples, 0 … 490 ms
//   stack 2: main → compute → malloc               30 samples, 500 … 790 ms
//   stack 3: main → write → entry_SYSCALL_64 → vfs_write (kernel)  15 samples, 800 … 940 ms
//   stack 4: parse, the user stack truncated       5 samples (pid 200), 950 … 990 ms
//
// Off-CPU: 900 ms blocked in stack 3, 100 ms in stack 2.
namespace bpflens::test {

inline constexpr quint64 ProfileStartNs = 50'000'000'000ull;
inline constexpr quint64 SampleStepNs = 10'000'000ull;

enum ProfileFrame : quint32
{
    MainFrame = 1,
    ComputeFrame,
    MallocFrame,
    WriteFrame,
    EntryFrame,
    VfsWriteFrame,
    ParseFrame,
};

inline RecordBatch profileBatch()
{
    RecordBatch b;
    auto frame = [&](quint32 id, FrameKind kind, const char *module, const char *symbol,
                     quint64 address) {
        b.frames.append({id, StackFrame{kind, address, module, {}, symbol}});
    };
    frame(MainFrame, FrameKind::User, "/usr/bin/app", "main", 0x1100);
    frame(ComputeFrame, FrameKind::User, "/usr/bin/app", "compute(int)", 0x1200);
    frame(MallocFrame, FrameKind::User, "/usr/lib/x86_64-linux-gnu/libc.so.6", "malloc", 0x9a000);
    frame(WriteFrame, FrameKind::User, "/usr/lib/x86_64-linux-gnu/libc.so.6", "write", 0x10e000);
    frame(EntryFrame, FrameKind::Kernel, "vmlinux", "entry_SYSCALL_64", 0xffffffff81000000);
    frame(VfsWriteFrame, FrameKind::Kernel, "vmlinux", "vfs_write", 0xffffffff81300000);
    frame(ParseFrame, FrameKind::User, "/usr/bin/parser", "parse", 0x2200);
    b.stacks.append({1, 0, {ComputeFrame, MainFrame}});
    b.stacks.append({2, 0, {MallocFrame, ComputeFrame, MainFrame}});
    b.stacks.append({3, 0, {VfsWriteFrame, EntryFrame, WriteFrame, MainFrame}});
    b.stacks.append({4, UserStackTruncated, {ParseFrame}});
    for (int k = 0; k < 100; ++k) {
        CpuSampleEvent e;
        e.timeNs = ProfileStartNs + quint64(k) * SampleStepNs;
        e.cpu = quint32(k % 2);
        e.stackId = k < 50 ? 1 : k < 80 ? 2 : k < 95 ? 3 : 4;
        e.pid = e.stackId == 4 ? 200 : 100;
        e.tid = e.pid;
        e.comm = e.stackId == 4 ? "parser" : "app";
        b.cpuSample.append(e);
    }
    OffCpuEvent a;
    a.timeNs = ProfileStartNs + 100 * SampleStepNs;
    a.offNs = 900'000'000;
    a.pid = a.tid = 100;
    a.stackId = 3;
    a.comm = "app";
    OffCpuEvent c = a;
    c.timeNs += SampleStepNs;
    c.offNs = 100'000'000;
    c.stackId = 2;
    b.offCpu << a << c;
    return b;
}

inline SessionData profileSession()
{
    SessionData d;
    d.info.schemaVersion = 1;
    d.info.startMonotonicNs = ProfileStartNs;
    d.info.endMonotonicNs = ProfileStartNs + 102 * SampleStepNs;
    d.info.probes = {{QStringLiteral("profile"), {}, QStringLiteral("perf_event/cpu-clock")},
                     {QStringLiteral("offcpu"), {}, QStringLiteral("tp_btf/sched_switch")}};
    const RecordBatch b = profileBatch();
    QString error;
    d.stacks.addDefinitions(b, &error);
    for (const CpuSampleEvent &e : b.cpuSample)
        d.events.append(e);
    for (const OffCpuEvent &e : b.offCpu)
        d.events.append(e);
    return d;
}

} // namespace bpflens::test
