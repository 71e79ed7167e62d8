<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>bpflens::ComparePage</name>
    <message numerus="yes">
        <source>%Ln sample(s)</source>
        <translation>
            <numerusform>%Ln sample</numerusform>
            <numerusform>%Ln samples</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ExplainModel</name>
    <message numerus="yes">
        <source>%1 of the %Ln event(s) in the range</source>
        <translation>
            <numerusform>%1 of the %Ln event in the range</numerusform>
            <numerusform>%1 of the %Ln events in the range</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %Ln event(s) outside the range</source>
        <translation>
            <numerusform>%1 of the %Ln event outside the range</numerusform>
            <numerusform>%1 of the %Ln events outside the range</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ExplainPage</name>
    <message numerus="yes">
        <source>%1 to %2: %Ln event(s) with the selected latency inside, %3 outside. Most over-represented first:</source>
        <translation>
            <numerusform>%1 to %2: %Ln event with the selected latency inside, %3 outside. Most over-represented first:</numerusform>
            <numerusform>%1 to %2: %Ln events with the selected latency inside, %3 outside. Most over-represented first:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 to %2: %Ln event(s) inside, %3 outside. Most over-represented first:</source>
        <translation>
            <numerusform>%1 to %2: %Ln event inside, %3 outside. Most over-represented first:</numerusform>
            <numerusform>%1 to %2: %Ln events inside, %3 outside. Most over-represented first:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ExportController</name>
    <message numerus="yes">
        <source>Exported %n file(s) to %1</source>
        <translation>
            <numerusform>Exported %n file to %1</numerusform>
            <numerusform>Exported %n files to %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::FlameGraphView</name>
    <message numerus="yes">
        <source>%n sample(s)</source>
        <translation>
            <numerusform>%n sample</numerusform>
            <numerusform>%n samples</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n page fault(s)</source>
        <translation>
            <numerusform>%n page fault</numerusform>
            <numerusform>%n page faults</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Sampled: each recorded allocation stands for %Ln allocation(s)</source>
        <translation>
            <numerusform>Sampled: each recorded allocation stands for %Ln allocation</numerusform>
            <numerusform>Sampled: each recorded allocation stands for %Ln allocations</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::HistogramView</name>
    <message numerus="yes">
        <source>p50 in %1 · p99 in %2 (darker bars) · %Ln samples</source>
        <translation>
            <numerusform>p50 in %1 · p99 in %2 (darker bars) · %Ln sample</numerusform>
            <numerusform>p50 in %1 · p99 in %2 (darker bars) · %Ln samples</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::IoStackView</name>
    <message numerus="yes">
        <source>%1 · %2: %3 exclusive (%4 % of %5), %n call(s)</source>
        <translation>
            <numerusform>%1 · %2: %3 exclusive (%4 % of %5), %n call</numerusform>
            <numerusform>%1 · %2: %3 exclusive (%4 % of %5), %n calls</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::MemoryPage</name>
    <message numerus="yes">
        <source>In use at the range&apos;s end: %1 in %Ln block(s)</source>
        <translation>
            <numerusform>In use at the range&apos;s end: %1 in %Ln block</numerusform>
            <numerusform>In use at the range&apos;s end: %1 in %Ln blocks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln stack(s)</source>
        <translation>
            <numerusform>%Ln stack</numerusform>
            <numerusform>%Ln stacks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Allocated in the range: %1 in %Ln block(s)</source>
        <translation>
            <numerusform>Allocated in the range: %1 in %Ln block</numerusform>
            <numerusform>Allocated in the range: %1 in %Ln blocks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Every block allocated in this range was freed by its end (%Ln block(s), %1).</source>
        <translation>
            <numerusform>Every block allocated in this range was freed by its end (%Ln block, %1).</numerusform>
            <numerusform>Every block allocated in this range was freed by its end (%Ln blocks, %1).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::MemoryStackModel</name>
    <message numerus="yes">
        <source>%1 in %Ln allocation(s) from this stack</source>
        <translation>
            <numerusform>%1 in %Ln allocation from this stack</numerusform>
            <numerusform>%1 in %Ln allocations from this stack</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 in %Ln allocation(s) from this stack, the oldest allocated %2 before the range&apos;s end</source>
        <translation>
            <numerusform>%1 in %Ln allocation from this stack, the oldest allocated %2 before the range&apos;s end</numerusform>
            <numerusform>%1 in %Ln allocations from this stack, the oldest allocated %2 before the range&apos;s end</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewFindingModel</name>
    <message numerus="yes">
        <source>%1 lost %Ln event(s): its buffer was full</source>
        <translation>
            <numerusform>%1 lost %Ln event: its buffer was full</numerusform>
            <numerusform>%1 lost %Ln events: its buffer was full</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %Ln event(s) at %2–%3 s, %4× the usual rate</source>
        <extracomment>A burst of events: &quot;Block I/O: 870 events at 4.2–4.8 s, 12× the usual rate&quot;</extracomment>
        <translation>
            <numerusform>%1: %Ln event at %2–%3 s, %4× the usual rate</numerusform>
            <numerusform>%1: %Ln events at %2–%3 s, %4× the usual rate</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %Ln failed with %2</source>
        <extracomment>&quot;Open: 1,234 failed with ENOENT&quot;</extracomment>
        <translation>
            <numerusform>%1: %Ln failed with %2</numerusform>
            <numerusform>%1: %Ln failed with %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewMemoryModel</name>
    <message numerus="yes">
        <source>%1 in %Ln allocation(s) from this stack, the oldest allocated %2 before the range&apos;s end</source>
        <translation>
            <numerusform>%1 in %Ln allocation from this stack, the oldest allocated %2 before the range&apos;s end</numerusform>
            <numerusform>%1 in %Ln allocations from this stack, the oldest allocated %2 before the range&apos;s end</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 in %Ln block(s), the oldest %2 old</source>
        <translation>
            <numerusform>%1 in %Ln block, the oldest %2 old</numerusform>
            <numerusform>%1 in %Ln blocks, the oldest %2 old</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 in %Ln block(s) from %2</source>
        <translation>
            <numerusform>%1 in %Ln block from %2</numerusform>
            <numerusform>%1 in %Ln blocks from %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln stack(s)</source>
        <translation>
            <numerusform>%Ln stack</numerusform>
            <numerusform>%Ln stacks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 in %Ln block(s)</source>
        <translation>
            <numerusform>%1 in %Ln block</numerusform>
            <numerusform>%1 in %Ln blocks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewPage</name>
    <message numerus="yes">
        <source>%1–%2 s: %Ln event(s)</source>
        <translation>
            <numerusform>%1–%2 s: %Ln event</numerusform>
            <numerusform>%1–%2 s: %Ln events</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1–%2 s: %Ln event(s) pass the filter</source>
        <translation>
            <numerusform>%1–%2 s: %Ln event passes the filter</numerusform>
            <numerusform>%1–%2 s: %Ln events pass the filter</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) lost</source>
        <translation>
            <numerusform>%Ln event lost</numerusform>
            <numerusform>%Ln events lost</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewProbeModel</name>
    <message numerus="yes">
        <source>%Ln event(s)</source>
        <translation>
            <numerusform>%Ln event</numerusform>
            <numerusform>%Ln events</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln sample(s)</source>
        <translation>
            <numerusform>%Ln sample</numerusform>
            <numerusform>%Ln samples</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln interval(s)</source>
        <translation>
            <numerusform>%Ln interval</numerusform>
            <numerusform>%Ln intervals</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>counters of %Ln interval(s)</source>
        <translation>
            <numerusform>counters of %Ln interval</numerusform>
            <numerusform>counters of %Ln intervals</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::PercentileDiffModel</name>
    <message numerus="yes">
        <source>%1: %Ln sample(s) in the baseline, %2 in the comparison</source>
        <translation>
            <numerusform>%1: %Ln sample in the baseline, %2 in the comparison</numerusform>
            <numerusform>%1: %Ln samples in the baseline, %2 in the comparison</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ProfilePage</name>
    <message numerus="yes">
        <source>Off-CPU time in range: %1 (%Ln wait(s))</source>
        <translation>
            <numerusform>Off-CPU time in range: %1 (%Ln wait)</numerusform>
            <numerusform>Off-CPU time in range: %1 (%Ln waits)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Off-wake time in range: %1 (%Ln wait(s))</source>
        <translation>
            <numerusform>Off-wake time in range: %1 (%Ln wait)</numerusform>
            <numerusform>Off-wake time in range: %1 (%Ln waits)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Every block allocated in this range was freed by its end (%Ln block(s), %1).</source>
        <translation>
            <numerusform>Every block allocated in this range was freed by its end (%Ln block, %1).</numerusform>
            <numerusform>Every block allocated in this range was freed by its end (%Ln blocks, %1).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>In use: %1 in %Ln block(s), each event standing for %2 allocations</source>
        <translation>
            <numerusform>In use: %1 in %Ln block, each event standing for %2 allocations</numerusform>
            <numerusform>In use: %1 in %Ln blocks, each event standing for %2 allocations</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>In use: %1 in %Ln block(s)</source>
        <translation>
            <numerusform>In use: %1 in %Ln block</numerusform>
            <numerusform>In use: %1 in %Ln blocks</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Allocated in the range: %1 in %Ln block(s)</source>
        <translation>
            <numerusform>Allocated in the range: %1 in %Ln block</numerusform>
            <numerusform>Allocated in the range: %1 in %Ln blocks</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::QueryPage</name>
    <message numerus="yes">
        <source>Saved %Ln rows to %1</source>
        <translation>
            <numerusform>Saved %Ln row to %1</numerusform>
            <numerusform>Saved %Ln rows to %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>First %Ln rows shown (the result has more), in %1 ms</source>
        <translation>
            <numerusform>First %Ln row shown (the result has more), in %1 ms</numerusform>
            <numerusform>First %Ln rows shown (the result has more), in %1 ms</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln rows in %1 ms</source>
        <translation>
            <numerusform>%Ln row in %1 ms</numerusform>
            <numerusform>%Ln rows in %1 ms</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::RemoteRecorder</name>
    <message numerus="yes">
        <source>bpflens-cli %1 on %2, kernel %3: %4 of %Ln probe(s) can run there.</source>
        <translation>
            <numerusform>bpflens-cli %1 on %2, kernel %3: %4 of %Ln probe can run there.</numerusform>
            <numerusform>bpflens-cli %1 on %2, kernel %3: %4 of %Ln probes can run there.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::SessionDocument</name>
    <message numerus="yes">
        <source>The recording did not stop within %n second(s). It is still stopping and keeps what it recorded; close the window again once it has stopped.</source>
        <translation>
            <numerusform>The recording did not stop within %n second. It is still stopping and keeps what it recorded; close the window again once it has stopped.</numerusform>
            <numerusform>The recording did not stop within %n seconds. It is still stopping and keeps what it recorded; close the window again once it has stopped.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::StackChartView</name>
    <message numerus="yes">
        <source>%Ln sample(s)</source>
        <translation>
            <numerusform>%Ln sample</numerusform>
            <numerusform>%Ln samples</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln off-CPU wait(s)</source>
        <translation>
            <numerusform>%Ln off-CPU wait</numerusform>
            <numerusform>%Ln off-CPU waits</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln thread(s)</source>
        <translation>
            <numerusform>%Ln thread</numerusform>
            <numerusform>%Ln threads</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ThreadStateView</name>
    <message numerus="yes">
        <source>%1 (%Ln thread(s))</source>
        <translation>
            <numerusform>%1 (%Ln thread)</numerusform>
            <numerusform>%1 (%Ln threads)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Critical path of %1 from %2 to %3: %Ln step(s).</source>
        <translation>
            <numerusform>Critical path of %1 from %2 to %3: %Ln step.</numerusform>
            <numerusform>Critical path of %1 from %2 to %3: %Ln steps.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::TimelineWidget</name>
    <message numerus="yes">
        <source>%1 other processes: %Ln CPU sample(s) in view</source>
        <translation>
            <numerusform>%1 other processes: %Ln CPU sample in view</numerusform>
            <numerusform>%1 other processes: %Ln CPU samples in view</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (PID %2): %Ln CPU sample(s) in view</source>
        <translation>
            <numerusform>%1 (PID %2): %Ln CPU sample in view</numerusform>
            <numerusform>%1 (PID %2): %Ln CPU samples in view</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::TopPage</name>
    <message numerus="yes">
        <source>%1 of %Ln key(s)</source>
        <translation>
            <numerusform>%1 of %Ln key</numerusform>
            <numerusform>%1 of %Ln keys</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) in the visible range</source>
        <translation>
            <numerusform>%Ln event in the visible range</numerusform>
            <numerusform>%Ln events in the visible range</numerusform>
        </translation>
    </message>
</context>
</TS>
