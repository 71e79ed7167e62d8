// Every translatable text of the probe catalog (core/probecatalog.cpp marks them with its own
// TR macro, which lupdate cannot expand), for lupdate only: this file is not compiled.
// tst_translations checks that the .ts files cover every text the catalog has at run time.

// One text per line, exactly as the catalog has it.
// clang-format off
QT_TRANSLATE_NOOP("ProbeCatalog", "Process ID");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only this process (0: every process)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Thread ID");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only this thread (0: every thread)");
QT_TRANSLATE_NOOP("ProbeCatalog", "User ID");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only this user (-1: every user)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Command name");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only tasks with this name (as in /proc/PID/comm, up to 15 bytes)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Cgroup");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only tasks in this cgroup v2 (a path under /sys/fs/cgroup)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Interval (ms)");
QT_TRANSLATE_NOOP("ProbeCatalog", "How often histograms are snapshotted");
QT_TRANSLATE_NOOP("ProbeCatalog", "Units");
QT_TRANSLATE_NOOP("ProbeCatalog", "Histogram units, like biolatency -m");
QT_TRANSLATE_NOOP("ProbeCatalog", "Process execution");
QT_TRANSLATE_NOOP("ProbeCatalog", "Every exec with its full argument list, like execsnoop");
QT_TRANSLATE_NOOP("ProbeCatalog", "Include failed execs");
QT_TRANSLATE_NOOP("ProbeCatalog", "Also report execs that failed, like execsnoop -x");
QT_TRANSLATE_NOOP("ProbeCatalog", "File opens");
QT_TRANSLATE_NOOP("ProbeCatalog", "Every open, openat, openat2 and creat, like opensnoop");
QT_TRANSLATE_NOOP("ProbeCatalog", "Failed opens only");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only report opens that failed, like opensnoop -x");
QT_TRANSLATE_NOOP("ProbeCatalog", "Block I/O");
QT_TRANSLATE_NOOP("ProbeCatalog", "Every block request with its latency (biosnoop) and latency histograms (biolatency)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Disk");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only this disk (as in /proc/partitions, e.g. vda)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Include queue time");
QT_TRANSLATE_NOOP("ProbeCatalog", "Measure from insertion into the queue, like biolatency -Q");
QT_TRANSLATE_NOOP("ProbeCatalog", "Per disk");
QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per disk, like biolatency -D");
QT_TRANSLATE_NOOP("ProbeCatalog", "Per flag set");
QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per operation and flags, like biolatency -F");
QT_TRANSLATE_NOOP("ProbeCatalog", "Minimum latency (µs)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only record requests at least this slow (histograms count all)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Run queue latency");
QT_TRANSLATE_NOOP("ProbeCatalog", "How long runnable tasks wait for a CPU, like runqlat");
QT_TRANSLATE_NOOP("ProbeCatalog", "Per process");
QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per process, like runqlat -P");
QT_TRANSLATE_NOOP("ProbeCatalog", "Per thread");
QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per thread, like runqlat -L");
QT_TRANSLATE_NOOP("ProbeCatalog", "TCP connects");
QT_TRANSLATE_NOOP("ProbeCatalog", "Every active TCP connect over IPv4 and IPv6, like tcpconnect");
QT_TRANSLATE_NOOP("ProbeCatalog", "Page cache");
QT_TRANSLATE_NOOP("ProbeCatalog", "Page cache hits, misses and dirtied pages per interval, like cachestat (system-wide unless filtered)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only page cache activity in this process's context: its reads and file page faults, the pages they and the readahead they start insert, and the pages it dirties (write, write fault). Writeback by the kernel's flusher threads and reclaim never count (0: every process)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only page cache activity in this thread's context, as for the process filter (0: every thread)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only page cache activity of tasks running as this user, as for the process filter (-1: every user)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only page cache activity of tasks with this name (as in /proc/PID/comm, up to 15 bytes), as for the process filter");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only page cache activity of tasks in this cgroup v2 (a path under /sys/fs/cgroup), as for the process filter; pages are counted for the task that touches them, not for the cgroup the memory is charged to");
QT_TRANSLATE_NOOP("ProbeCatalog", "Tracepoint pair latency");
QT_TRANSLATE_NOOP("ProbeCatalog", "Time from a start tracepoint to an end tracepoint with the same key, as a histogram and the slow pairs as events");
QT_TRANSLATE_NOOP("ProbeCatalog", "Start tracepoint");
QT_TRANSLATE_NOOP("ProbeCatalog", "Where the measured time begins, e.g. block_rq_issue or block:block_rq_issue");
QT_TRANSLATE_NOOP("ProbeCatalog", "End tracepoint");
QT_TRANSLATE_NOOP("ProbeCatalog", "Where the measured time ends, e.g. block_rq_complete");
QT_TRANSLATE_NOOP("ProbeCatalog", "Key");
QT_TRANSLATE_NOOP("ProbeCatalog", "What pairs a start with its end: tid (the thread), pid, argN (the value of the tracepoint's argument N) or argN.field.field (a field of the struct argument N points to)");
QT_TRANSLATE_NOOP("ProbeCatalog", "End key");
QT_TRANSLATE_NOOP("ProbeCatalog", "The key at the end tracepoint, when it carries it differently (empty: the same as Key)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Event threshold (µs)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Record every pair at least this slow as an event (-1: none, 0: all; the histogram counts all)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Histogram units");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only pairs this process starts (0: every process)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only pairs started by tasks with this name (up to 15 bytes)");
QT_TRANSLATE_NOOP("ProbeCatalog", "I/O stack breakdown");
QT_TRANSLATE_NOOP("ProbeCatalog", "Where the time of read, write, open and fsync goes: syscall, VFS, file system and block layers, with each layer's exclusive share");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only block requests on this disk (as in /proc/partitions, e.g. vda)");
QT_TRANSLATE_NOOP("ProbeCatalog", "Measure the block request queue as its own layer, like biolatency -Q");
QT_TRANSLATE_NOOP("ProbeCatalog", "Slow file-system operations");
QT_TRANSLATE_NOOP("ProbeCatalog", "ext4 (and xfs, btrfs) reads, writes, opens and fsyncs slower than a threshold, like ext4slower");
QT_TRANSLATE_NOOP("ProbeCatalog", "Only operations at least this slow (0: all)");
// clang-format on
