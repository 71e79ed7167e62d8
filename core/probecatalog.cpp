#include "probecatalog.h"

#include "usdtargs.h"

#include "openflags.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <limits>

namespace bpflens {

namespace {

using Type = ProbeOption::Type;

// Titles and descriptions are marked for translation here (lupdate reads the
// QT_TRANSLATE_NOOP marks) and translated where shown (QCoreApplication::translate(
// "ProbeCatalog", ...)), so the catalog itself stays plain data.
#define TR(marked) QStringLiteral(marked)

constexpr qint64 maxPid = 4194304; // PID_MAX_LIMIT on 64-bit

ProbeOption boolOption(const QString &name, const QString &title, const QString &description,
                       bool def = false)
{
    return {name, Type::Bool, title, description, def, 0, 0, {}};
}

ProbeOption intOption(const QString &name, const QString &title, const QString &description,
                      qint64 def, qint64 min, qint64 max)
{
    return {name, Type::Int, title, description, def, min, max, {}};
}

ProbeOption stringOption(const QString &name, const QString &title, const QString &description,
                         qint64 maxLength)
{
    return {name, Type::String, title, description, QString(), 0, maxLength, {}};
}

ProbeOption pidOption()
{
    return intOption(QStringLiteral("pid"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Process ID")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Only this process (0: every process)")),
                     0, 0, maxPid);
}
ProbeOption tidOption()
{
    return intOption(QStringLiteral("tid"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Thread ID")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Only this thread (0: every thread)")), 0,
                     0, maxPid);
}
ProbeOption uidOption()
{
    return intOption(QStringLiteral("uid"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "User ID")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Only this user (-1: every user)")), -1,
                     -1, std::numeric_limits<quint32>::max() - 1);
}
ProbeOption commOption()
{
    return stringOption(
        QStringLiteral("comm"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Command name")),
        TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                             "Only tasks with this name (as in /proc/PID/comm, up to 15 bytes)")),
        15);
}
ProbeOption cgroupOption()
{
    return stringOption(
        QStringLiteral("cgroup"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Cgroup")),
        TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                             "Only tasks in this cgroup v2 (a path under /sys/fs/cgroup)")),
        4096);
}
ProbeOption intervalOption()
{
    return intOption(QStringLiteral("interval"),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Interval (ms)")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "How often histograms are snapshotted")),
                     1000, 100, 3600 * 1000);
}
ProbeOption unitsOption()
{
    return {QStringLiteral("units"),
            Type::Choice,
            TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Units")),
            TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Histogram units, like biolatency -m")),
            QStringLiteral("usecs"),
            0,
            0,
            {QStringLiteral("usecs"), QStringLiteral("msecs")}};
}

// The latency probes of custom hooks (tppair, uprobe) time anything from nanoseconds up.
ProbeOption customUnitsOption()
{
    return {QStringLiteral("units"),
            Type::Choice,
            TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Units")),
            TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Histogram units")),
            QStringLiteral("usecs"),
            0,
            0,
            {QStringLiteral("nsecs"), QStringLiteral("usecs"), QStringLiteral("msecs")}};
}

// Kernel functions can be hooked two ways; auto takes fentry where the kernel has it. Forcing
// kprobes exercises (and measures) the path older or locked-down kernels would take.
ProbeOption attachOption()
{
    return {QStringLiteral("attach"),
            Type::Choice,
            TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Function hooks")),
            TR(QT_TRANSLATE_NOOP(
                "ProbeCatalog",
                "How kernel functions are traced: auto (fentry where the kernel supports it, else "
                "kprobes), fentry only, or kprobes only")),
            QStringLiteral("auto"),
            0,
            0,
            {QStringLiteral("auto"), QStringLiteral("fentry"), QStringLiteral("kprobe")}};
}

// The same filter with a probe-specific meaning (what "in this process" covers).
ProbeOption withDescription(ProbeOption o, const QString &description)
{
    o.description = description;
    return o;
}

QList<ProbeInfo> buildCatalog()
{
    QList<ProbeInfo> c;
    c.append(
        {QStringLiteral("exec"),
         ProbeGroup::Processes,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Process execution")),
         TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                              "Every exec with its full argument list, like execsnoop")),
         {pidOption(), uidOption(), commOption(), cgroupOption(),
          boolOption(QStringLiteral("failed"),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Include failed execs")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Also report execs that failed, like execsnoop -x"))),
          stringOption(QStringLiteral("name"),
                       TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Name contains")),
                       TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                            "Only commands whose name contains this text, like "
                                            "execsnoop -n")),
                       15),
          stringOption(
              QStringLiteral("line"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Arguments contain")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Only execs whose arguments, joined by spaces, "
                                                   "contain this text, like execsnoop -l")),
              256),
          intOption(QStringLiteral("maxArgs"),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Maximum arguments")),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "Read at most this many arguments; an exec with more is "
                                         "marked truncated, like execsnoop --max-args")),
                    20, 1, 20)},
         true,
         false});
    c.append({QStringLiteral("open"),
              ProbeGroup::Files,
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "File opens")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Every open, openat, openat2 and creat, like opensnoop")),
              {pidOption(), tidOption(), uidOption(), commOption(), cgroupOption(),
               boolOption(QStringLiteral("failedOnly"),
                          TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Failed opens only")),
                          TR(QT_TRANSLATE_NOOP(
                              "ProbeCatalog", "Only report opens that failed, like opensnoop -x"))),
               stringOption(
                   QStringLiteral("flags"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "With flags")),
                   TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Only opens with one of these flags, as "
                                                        "O_WRONLY,O_RDWR,O_CREAT (opensnoop -f)")),
                   200),
               boolOption(QStringLiteral("fullPath"),
                          TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Full paths")),
                          TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                               "Resolve relative paths against the directory they "
                                               "were opened in, like opensnoop -F")))},
              true,
              false});
    c.append(
        {QStringLiteral("block"),
         ProbeGroup::BlockIo,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Block I/O")),
         TR(QT_TRANSLATE_NOOP(
             "ProbeCatalog",
             "Every block request with its latency (biosnoop) and latency histograms "
             "(biolatency)")),
         {pidOption(), commOption(), cgroupOption(),
          stringOption(QStringLiteral("disk"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Disk")),
                       TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                            "Only this disk (as in /proc/partitions, e.g. vda)")),
                       31),
          boolOption(
              QStringLiteral("queued"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Include queue time")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Measure from insertion into the queue, like biolatency -Q"))),
          boolOption(
              QStringLiteral("perDisk"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Per disk")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per disk, like biolatency -D"))),
          boolOption(
              QStringLiteral("perFlags"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Per flag set")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "One histogram per operation and flags, like biolatency -F"))),
          unitsOption(), intervalOption(),
          intOption(QStringLiteral("minLatencyUs"),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Minimum latency (µs)")),
                    TR(QT_TRANSLATE_NOOP(
                        "ProbeCatalog",
                        "Only record requests at least this slow (histograms count all)")),
                    0, 0, 3600ll * 1000 * 1000)},
         true,
         true});
    c.append(
        {QStringLiteral("bitesize"),
         ProbeGroup::BlockIo,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Block I/O sizes")),
         TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                              "The size of every block request as it is issued, as histograms of "
                              "Kbytes per command, like bitesize")),
         {pidOption(), commOption(), cgroupOption(),
          stringOption(QStringLiteral("disk"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Disk")),
                       TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                            "Only this disk (as in /proc/partitions, e.g. vda)")),
                       31),
          boolOption(QStringLiteral("perDisk"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Per disk")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per command and disk"))),
          boolOption(
              QStringLiteral("perOperation"),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Per operation")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per command and operation (read, "
                                                   "write, flush…)"))),
          intervalOption()},
         false,
         true});
    c.append(
        {QStringLiteral("runqlat"),
         ProbeGroup::Scheduler,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Run queue latency")),
         TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                              "How long runnable tasks wait for a CPU, like runqlat")),
         {pidOption(), tidOption(), commOption(), cgroupOption(),
          boolOption(
              QStringLiteral("perProcess"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Per process")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per process, like runqlat -P"))),
          boolOption(
              QStringLiteral("perThread"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Per thread")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "One histogram per thread, like runqlat -L"))),
          unitsOption(), intervalOption()},
         false,
         true});
    c.append(
        {QStringLiteral("profile"),
         ProbeGroup::Cpu,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "CPU profile")),
         TR(QT_TRANSLATE_NOOP(
             "ProbeCatalog",
             "Where the CPUs spend their time: samples of the running code at a fixed frequency on "
             "every CPU, with kernel and user call stacks, like perf record -g or profile")),
         {pidOption(), tidOption(), commOption(), cgroupOption(),
          intOption(QStringLiteral("frequency"),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Frequency (Hz)")),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "Samples per second on each CPU (99 avoids running in "
                                         "lockstep with timers)")),
                    99, 1, 10000),
          intOption(QStringLiteral("stackBytes"),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog", "User stack copy (bytes)")),
                    TR(QT_TRANSLATE_NOOP(
                        "ProbeCatalog",
                        "How much of each sample's user stack is copied for unwinding code built "
                        "without frame pointers; deeper stacks are cut off (0: frame pointers "
                        "only)")),
                    16384, 0, 32768),
          boolOption(QStringLiteral("kernelOnly"),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Kernel stacks only")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Record no user stacks (cheaper, no symbolisation)"))),
          boolOption(QStringLiteral("userOnly"),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "User stacks only")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Record no kernel stacks"))),
          boolOption(QStringLiteral("idle"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Include idle")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Also record the samples of idle CPUs (PID 0)")))},
         true,
         false});
    c.append(
        {QStringLiteral("offcpu"),
         ProbeGroup::Cpu,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Off-CPU time")),
         TR(QT_TRANSLATE_NOOP(
             "ProbeCatalog",
             "Where threads wait: every time a thread leaves the CPU (blocks, sleeps or is "
             "preempted) for at least the minimum time, with the call stacks it left from, like "
             "offcputime")),
         {pidOption(), tidOption(), commOption(), cgroupOption(),
          intOption(QStringLiteral("minUs"),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Minimum time off-CPU (µs)")),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "Only record threads off the CPU at least this long")),
                    1000, 0, 3600ll * 1000 * 1000),
          intOption(QStringLiteral("stackBytes"),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog", "User stack copy (bytes)")),
                    TR(QT_TRANSLATE_NOOP(
                        "ProbeCatalog",
                        "How much of a waiting thread's user stack is copied, when its system "
                        "call returns, for unwinding code built without frame pointers (0: frame "
                        "pointers only)")),
                    16384, 0, 32768),
          boolOption(QStringLiteral("kernelOnly"),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Kernel stacks only")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Record no user stacks (cheaper, no symbolisation)"))),
          boolOption(QStringLiteral("userOnly"),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "User stacks only")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Record no kernel stacks")))},
         true,
         false});
    c.append(
        {QStringLiteral("tcpconnect"),
         ProbeGroup::Network,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "TCP connects")),
         TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                              "Every active TCP connect over IPv4 and IPv6, with connects "
                              "per destination per interval, like tcpconnect")),
         {pidOption(), uidOption(), commOption(), cgroupOption(),
          stringOption(
              QStringLiteral("ports"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Destination ports")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Only connects to these ports, as 80,443 "
                                                   "(tcpconnect -P); at most 16")),
              200),
          stringOption(
              QStringLiteral("sourcePorts"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Source ports")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Only connects from these local ports, as "
                                                   "40000,40001; at most 16")),
              200),
          intervalOption()},
         true,
         false});
    c.append({QStringLiteral("tcpaccept"),
              ProbeGroup::Network,
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "TCP accepts")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Every TCP connection a process accepts over IPv4 and IPv6, "
                                   "with the listen queue's length, like tcpaccept")),
              {pidOption(), uidOption(), commOption(), cgroupOption()},
              true,
              false});
    c.append(
        {QStringLiteral("tcpretrans"),
         ProbeGroup::Network,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "TCP retransmits")),
         TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                              "Every TCP retransmission (data, SYN, SYN-ACK, tail-loss probe) "
                              "with per-connection counts per interval, like tcpretrans")),
         {pidOption(), uidOption(), commOption(), cgroupOption(), attachOption(), intervalOption()},
         true,
         false});
    c.append({QStringLiteral("tcplife"),
              ProbeGroup::Network,
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "TCP sessions")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Every TCP connection when it closes, with its lifetime and "
                                   "the bytes it sent and received, like tcplife")),
              {pidOption(), uidOption(), commOption(), cgroupOption()},
              true,
              false});
    c.append(
        {QStringLiteral("cachestat"),
         ProbeGroup::Memory,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Page cache")),
         TR(QT_TRANSLATE_NOOP(
             "ProbeCatalog",
             "Page cache hits, misses and dirtied pages per interval, like cachestat "
             "(system-wide unless filtered)")),
         {withDescription(
              pidOption(),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only page cache activity in this process's context: its "
                                   "reads and file page faults, the pages they and the readahead "
                                   "they start insert, and the pages it dirties (write, write "
                                   "fault). Writeback by the kernel's flusher threads and "
                                   "reclaim never count (0: every process)"))),
          withDescription(
              tidOption(),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only page cache activity in this thread's context, as for "
                                   "the process filter (0: every thread)"))),
          withDescription(
              uidOption(),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only page cache activity of tasks running as this user, as "
                                   "for the process filter (-1: every user)"))),
          withDescription(
              commOption(),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only page cache activity of tasks with this name (as in "
                                   "/proc/PID/comm, up to 15 bytes), as for the process filter"))),
          withDescription(
              cgroupOption(),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only page cache activity of tasks in this cgroup v2 (a path "
                                   "under /sys/fs/cgroup), as for the process filter; pages are "
                                   "counted for the task that touches them, not for the cgroup "
                                   "the memory is charged to"))),
          intervalOption()},
         false,
         false});
    c.append(
        {QStringLiteral("iostack"),
         ProbeGroup::IoStack,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "I/O stack breakdown")),
         TR(QT_TRANSLATE_NOOP(
             "ProbeCatalog",
             "Where the time of read, write, open and fsync goes: syscall, VFS, file system "
             "and block layers, with each layer's exclusive share")),
         {pidOption(), tidOption(), commOption(), cgroupOption(),
          stringOption(
              QStringLiteral("disk"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Disk")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only block requests on this disk (as in /proc/partitions, e.g. "
                                   "vda)")),
              31),
          boolOption(QStringLiteral("queued"),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Include queue time")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Measure the block request queue as its own layer, like "
                                          "biolatency -Q"))),
          boolOption(QStringLiteral("allFds"),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Every file descriptor")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Also count reads and writes on pipes, sockets, "
                                          "terminals and eventfds, which measure waiting rather "
                                          "than I/O (by default only regular files and block "
                                          "devices count)"))),
          unitsOption(), intervalOption(), attachOption()},
         false,
         true});
    c.append({QStringLiteral("fsslower"),
              ProbeGroup::Files,
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Slow file-system operations")),
              TR(QT_TRANSLATE_NOOP(
                  "ProbeCatalog",
                  "ext4 (and xfs, btrfs) reads, writes, opens and fsyncs slower than a threshold, "
                  "like ext4slower")),
              {pidOption(), tidOption(), commOption(), cgroupOption(),
               intOption(QStringLiteral("minLatencyUs"),
                         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Minimum latency (µs)")),
                         TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                              "Only operations at least this slow (0: all)")),
                         10000, 0, 3600ll * 1000 * 1000),
               attachOption()},
              true,
              false});
    // Text with a default: the tracepoint pair is usable as it comes (syscall latency).
    auto textOption = [](const QString &name, const QString &title, const QString &description,
                         const QString &def, qint64 maxLength) {
        ProbeOption o = stringOption(name, title, description, maxLength);
        o.defaultValue = def;
        return o;
    };
    // What the caller resolved for a uprobe or USDT hook (client/probetargets.h, probehooks.h).
    auto hookOptions = [](const QString &prefix) {
        ProbeOption offset = intOption(prefix + QStringLiteral("Offset"), QStringLiteral("Offset"),
                                       QString(), 0, 0, std::numeric_limits<qint64>::max());
        ProbeOption args = stringOption(prefix + QStringLiteral("Args"),
                                        QStringLiteral("Argument specs"), QString(), 1024);
        ProbeOption semaphore =
            intOption(prefix + QStringLiteral("Semaphore"), QStringLiteral("Semaphore"), QString(),
                      0, 0, std::numeric_limits<qint64>::max());
        // A USDT probe at several places: every site (core/usdtargs.h), at most MaxUsdtSites.
        ProbeOption sites = stringOption(prefix + QStringLiteral("Sites"), QStringLiteral("Sites"),
                                         QString(), 32768);
        offset.internal = args.internal = semaphore.internal = sites.internal = true;
        return QList<ProbeOption>{offset, args, semaphore, sites};
    };
    c.append(
        {QStringLiteral("tppair"),
         ProbeGroup::Custom,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Tracepoint pair latency")),
         TR(QT_TRANSLATE_NOOP(
             "ProbeCatalog",
             "Time from a start tracepoint to an end tracepoint with the same key, as a histogram "
             "and the slow pairs as events")),
         {textOption(QStringLiteral("start"),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Start tracepoint")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Where the measured time begins: a tracepoint "
                                          "(block_rq_issue), u:BINARY:FUNCTION, "
                                          "ur:BINARY:FUNCTION (its return), "
                                          "usdt:BINARY:PROVIDER:NAME, k:FUNCTION or kr:FUNCTION")),
                     QStringLiteral("sys_enter"), 200),
          textOption(
              QStringLiteral("end"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "End tracepoint")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Where the measured time ends, written as Start "
                                                   "tracepoint is, e.g. block_rq_complete or "
                                                   "ur:/usr/bin/prog:parse; the start itself: from "
                                                   "each hit to the next with its key")),
              QStringLiteral("sys_exit"), 200),
          textOption(QStringLiteral("key"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Key")),
                     TR(QT_TRANSLATE_NOOP(
                         "ProbeCatalog",
                         "What pairs a start with its end: tid (the thread), pid, argN (the value "
                         "of the tracepoint's or USDT probe's argument N) or argN.field.field (a "
                         "field of the struct a tracepoint's argument N points to)")),
                     QStringLiteral("tid"), 256),
          stringOption(QStringLiteral("endKey"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "End key")),
                       TR(QT_TRANSLATE_NOOP(
                           "ProbeCatalog",
                           "The key at the end tracepoint, when it carries it differently (empty: "
                           "the same as Key)")),
                       256),
          intOption(QStringLiteral("thresholdUs"),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Event threshold (µs)")),
                    TR(QT_TRANSLATE_NOOP(
                        "ProbeCatalog",
                        "Record every pair at least this slow as an event (-1: none, 0: all; the "
                        "histogram counts all)")),
                    -1, -1, 3600ll * 1000 * 1000),
          customUnitsOption(), intervalOption(),
          intOption(QStringLiteral("pid"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Process ID")),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "Only pairs this process starts (0: every process)")),
                    0, 0, maxPid),
          stringOption(
              QStringLiteral("comm"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Command name")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                   "Only pairs started by tasks with this name (up to 15 bytes)")),
              15)},
         true,
         true});
    c.last().options += hookOptions(QStringLiteral("start")) + hookOptions(QStringLiteral("end"));
    c.append(
        {QStringLiteral("tpcount"),
         ProbeGroup::Custom,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Tracepoint counts")),
         TR(QT_TRANSLATE_NOOP(
             "ProbeCatalog",
             "Hits of one tracepoint per interval, grouped by up to two of its fields or the "
             "command, or a histogram of one numeric field")),
         {textOption(
              QStringLiteral("tracepoint"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Tracepoint")),
              TR(QT_TRANSLATE_NOOP("ProbeCatalog", "What is counted: a tracepoint (sched_switch, "
                                                   "block:block_rq_issue), u:BINARY:FUNCTION, "
                                                   "ur:BINARY:FUNCTION, usdt:BINARY:PROVIDER:NAME, "
                                                   "k:FUNCTION or kr:FUNCTION")),
              QStringLiteral("sched_switch"), 200),
          textOption(QStringLiteral("key"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Count by")),
                     TR(QT_TRANSLATE_NOOP(
                         "ProbeCatalog",
                         "Empty (all hits together), comm, tid, pid, an argument by name or as "
                         "argN (a USDT probe's too), or a field behind it (next.pid, arg0.q.id)")),
                     QString(), 256),
          textOption(QStringLiteral("key2"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "And by")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "A second key, written as Count by is (prev.pid with "
                                          "next.pid)")),
                     QString(), 256),
          textOption(QStringLiteral("histogram"),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Histogram of")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "A numeric field whose values are kept as a log2 "
                                          "histogram per key instead of counting hits")),
                     QString(), 256),
          intervalOption(), pidOption(), commOption()},
         false,
         true});
    c.last().options += hookOptions(QStringLiteral("hook"));
    c.append(
        {QStringLiteral("uprobe"),
         ProbeGroup::Custom,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "User function calls")),
         TR(QT_TRANSLATE_NOOP(
             "ProbeCatalog",
             "Calls of a function in a program or library counted per interval, optionally per "
             "argument, and timed from entry to return, like strlen_count and funclatency -u")),
         {textOption(QStringLiteral("target"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Function")),
                     TR(QT_TRANSLATE_NOOP(
                         "ProbeCatalog",
                         "BINARY:FUNCTION, the binary as a path, a library name (libc) or a "
                         "program in PATH, e.g. libc:strlen or /usr/bin/bash:readline; "
                         "BINARY:0xADDRESS for an address")),
                     QStringLiteral("libc:malloc"), 1024),
          textOption(QStringLiteral("key"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Count by")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "What the calls are counted by: empty (all together), "
                                          "argN (the value of argument N, from 0) or str(argN) "
                                          "(the string argument N points to)")),
                     QString(), 16),
          intOption(QStringLiteral("strLength"),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog", "String length")),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "Bytes of a string argument kept as its key, with the "
                                         "terminating NUL")),
                    64, 1, 128),
          boolOption(QStringLiteral("latency"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Time calls")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Also attach at the return: a histogram of the time "
                                          "from entry to return, and the slow calls as events"))),
          intOption(QStringLiteral("thresholdUs"),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Event threshold (µs)")),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "With Time calls: record every call at least this slow "
                                         "as an event (-1: none, 0: all)")),
                    -1, -1, 3600ll * 1000 * 1000),
          customUnitsOption(), pidOption(), uidOption(), commOption(), intervalOption()},
         true,
         true});
    ProbeOption usdtArgs =
        stringOption(QStringLiteral("args"), QStringLiteral("Argument specs"), QString(), 1024);
    usdtArgs.internal = true;
    ProbeOption usdtSemaphore = intOption(QStringLiteral("semaphore"), QStringLiteral("Semaphore"),
                                          QString(), 0, 0, std::numeric_limits<qint64>::max());
    usdtSemaphore.internal = true;
    ProbeOption usdtSites =
        stringOption(QStringLiteral("sites"), QStringLiteral("Sites"), QString(), 32768);
    usdtSites.internal = true;
    c.append(
        {QStringLiteral("usdt"),
         ProbeGroup::Custom,
         TR(QT_TRANSLATE_NOOP("ProbeCatalog", "USDT probe hits")),
         TR(QT_TRANSLATE_NOOP(
             "ProbeCatalog",
             "Hits of a static probe (USDT, sys/sdt.h) in a program or library counted per "
             "interval, optionally per argument, and recorded with their arguments")),
         {textOption(
              QStringLiteral("target"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "USDT probe")),
              TR(QT_TRANSLATE_NOOP(
                  "ProbeCatalog",
                  "BINARY:PROVIDER:NAME or BINARY:NAME, the binary as a path, a library "
                  "name or a program in PATH, e.g. /usr/bin/python3:python:function__entry")),
              QStringLiteral("libstdc++:libstdcxx:throw"), 1024),
          textOption(QStringLiteral("key"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Count by")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "What the hits are counted by: empty (all together), "
                                          "argN (the value of argument N, from 0) or str(argN) "
                                          "(the string argument N points to)")),
                     QString(), 16),
          intOption(QStringLiteral("strLength"),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog", "String length")),
                    TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                         "Bytes of a string argument kept as its key, with the "
                                         "terminating NUL")),
                    64, 1, 128),
          boolOption(QStringLiteral("events"), TR(QT_TRANSLATE_NOOP("ProbeCatalog", "Record hits")),
                     TR(QT_TRANSLATE_NOOP("ProbeCatalog",
                                          "Record every hit as an event with its arguments "
                                          "(off: counts only, for probes that fire often)")),
                     true),
          pidOption(), uidOption(), commOption(), intervalOption(), usdtArgs, usdtSemaphore,
          usdtSites},
         true,
         false});
    return c;
}

bool convert(const ProbeOption &o, const QVariant &in, QVariant *out, QString *why)
{
    const bool isText = in.typeId() == QMetaType::QString || in.typeId() == QMetaType::QByteArray;
    switch (o.type) {
    case Type::Bool:
        if (in.typeId() == QMetaType::Bool) {
            *out = in.toBool();
            return true;
        }
        if (isText) {
            const QString s = in.toString().toLower();
            if (s == QLatin1String("true") || s == QLatin1String("1") ||
                s == QLatin1String("yes") || s == QLatin1String("on")) {
                *out = true;
                return true;
            }
            if (s == QLatin1String("false") || s == QLatin1String("0") ||
                s == QLatin1String("no") || s == QLatin1String("off")) {
                *out = false;
                return true;
            }
        }
        *why = QStringLiteral("expects true or false");
        return false;
    case Type::Int: {
        bool ok = false;
        qint64 v = 0;
        switch (in.typeId()) {
        case QMetaType::Int:
        case QMetaType::LongLong:
        case QMetaType::Short:
        case QMetaType::Char:
        case QMetaType::SChar:
            v = in.toLongLong(&ok);
            break;
        case QMetaType::UInt:
        case QMetaType::ULongLong:
        case QMetaType::UShort:
        case QMetaType::UChar: {
            const quint64 u = in.toULongLong(&ok);
            ok = ok && u <= quint64(std::numeric_limits<qint64>::max());
            v = qint64(u);
            break;
        }
        case QMetaType::QString:
        case QMetaType::QByteArray:
            v = in.toString().trimmed().toLongLong(&ok);
            break;
        default:
            break;
        }
        if (!ok) {
            *why = QStringLiteral("expects a whole number");
            return false;
        }
        if (v < o.minimum || v > o.maximum) {
            *why = QStringLiteral("%1 is out of range (%2 to %3)")
                       .arg(v)
                       .arg(o.minimum)
                       .arg(o.maximum);
            return false;
        }
        *out = v;
        return true;
    }
    case Type::String:
    case Type::Choice: {
        if (!isText) {
            *why = QStringLiteral("expects text");
            return false;
        }
        const QString s = in.toString();
        if (o.type == Type::Choice && !o.choices.contains(s)) {
            *why = QStringLiteral("\"%1\" is not one of %2")
                       .arg(s.left(64), o.choices.join(QStringLiteral(", ")));
            return false;
        }
        if (o.type == Type::String && s.toUtf8().size() > o.maximum) {
            *why = QStringLiteral("is longer than %1 bytes").arg(o.maximum);
            return false;
        }
        if (s.contains(QChar(0))) {
            *why = QStringLiteral("contains a NUL character");
            return false;
        }
        *out = s;
        return true;
    }
    }
    return false;
}

} // namespace

const ProbeOption *ProbeInfo::option(const QString &name) const
{
    for (const ProbeOption &o : options) {
        if (o.name == name)
            return &o;
    }
    return nullptr;
}

const QList<ProbeInfo> &ProbeCatalog::probes()
{
    static const QList<ProbeInfo> catalog = buildCatalog();
    return catalog;
}

const ProbeInfo *ProbeCatalog::find(const QString &id)
{
    for (const ProbeInfo &p : probes()) {
        if (p.id == id)
            return &p;
    }
    return nullptr;
}

bool ProbeCatalog::parseUprobeKey(const QString &text, UprobeKey *key, QString *why, int maxArgs)
{
    static const QRegularExpression form(QStringLiteral("^(str\\()?arg([0-9]{1,2})(\\))?$"));
    const QString t = text.trimmed();
    *key = {};
    if (t.isEmpty())
        return true;
    const QRegularExpressionMatch m = form.match(t);
    if (!m.hasMatch() || m.hasCaptured(1) != m.hasCaptured(3)) {
        *why = QStringLiteral("\"%1\" is not argN or str(argN)").arg(t.left(64));
        return false;
    }
    key->arg = m.captured(2).toInt();
    if (key->arg >= maxArgs) {
        *why = maxArgs == MaxUprobeArgs
                   ? QStringLiteral("arg%1: only arguments 0 to %2 are passed in registers")
                         .arg(key->arg)
                         .arg(maxArgs - 1)
                   : QStringLiteral("arg%1: a USDT probe has at most %2 arguments (arg0 to arg%3)")
                         .arg(key->arg)
                         .arg(maxArgs)
                         .arg(maxArgs - 1);
        return false;
    }
    key->kind = m.hasCaptured(1) ? UprobeKey::Kind::String : UprobeKey::Kind::Integer;
    return true;
}

bool ProbeCatalog::validate(const QString &id, const QVariantMap &options, QVariantMap *normalized,
                            QString *error)
{
    const ProbeInfo *info = find(id);
    if (!info) {
        *error = QStringLiteral("unknown probe \"%1\"").arg(id.left(64));
        return false;
    }
    QVariantMap result;
    for (auto it = options.cbegin(); it != options.cend(); ++it) {
        const ProbeOption *o = info->option(it.key());
        if (!o) {
            *error = QStringLiteral("probe %1 has no option \"%2\"").arg(id, it.key().left(64));
            return false;
        }
        QVariant value;
        QString why;
        if (!convert(*o, it.value(), &value, &why)) {
            *error = QStringLiteral("probe %1, option %2: %3").arg(id, o->name, why);
            return false;
        }
        result.insert(o->name, value);
    }
    for (const ProbeOption &o : info->options) {
        if (!result.contains(o.name))
            result.insert(o.name, o.defaultValue);
    }
    // tcpconnect's port lists
    for (const QString &name : {QStringLiteral("ports"), QStringLiteral("sourcePorts")}) {
        QList<quint16> ports;
        QString why;
        if (result.contains(name) && !parsePortList(result.value(name).toString(), &ports, &why)) {
            *error = QStringLiteral("probe %1, option %2: %3").arg(id, name, why);
            return false;
        }
    }
    // open's flag filter
    if (id == QLatin1String("open") && result.contains(QStringLiteral("flags"))) {
        quint32 bits = 0;
        quint8 modes = 0;
        QString why;
        if (!OpenFlags::parse(result.value(QStringLiteral("flags")).toString(), &bits, &modes,
                              &why)) {
            *error = QStringLiteral("probe %1, option flags: %2").arg(id, why);
            return false;
        }
    }
    // uprobe's key
    if (id == QLatin1String("uprobe")) {
        UprobeKey key;
        QString why;
        if (!parseUprobeKey(result.value(QStringLiteral("key")).toString(), &key, &why)) {
            *error = QStringLiteral("probe %1, option key: %2").arg(id, why);
            return false;
        }
        if (result.value(QStringLiteral("target")).toString().trimmed().isEmpty()) {
            *error = QStringLiteral("probe %1: no function given (target=BINARY:FUNCTION, as "
                                    "libc:strlen)")
                         .arg(id);
            return false;
        }
    }
    // usdt's key (up to the 12 arguments a USDT probe may have) and its specs
    if (id == QLatin1String("usdt")) {
        UprobeKey key;
        QString why;
        if (!parseUprobeKey(result.value(QStringLiteral("key")).toString(), &key, &why,
                            MaxUsdtArgs)) {
            *error = QStringLiteral("probe %1, option key: %2").arg(id, why);
            return false;
        }
        if (result.value(QStringLiteral("target")).toString().trimmed().isEmpty()) {
            *error = QStringLiteral("probe %1: no USDT probe given (target=BINARY:PROVIDER:NAME)")
                         .arg(id);
            return false;
        }
        QList<UsdtArg> args;
        if (!parseUsdtArgs(result.value(QStringLiteral("args")).toString(), &args, &why)) {
            *error = QStringLiteral("probe %1, option args: %2").arg(id, why);
            return false;
        }
    }
    // profile and offcpu: one of the two halves of a stack, not neither.
    if (result.value(QStringLiteral("kernelOnly")).toBool() &&
        result.value(QStringLiteral("userOnly")).toBool()) {
        *error = QStringLiteral("probe %1: kernelOnly and userOnly exclude each other").arg(id);
        return false;
    }
    *normalized = result;
    return true;
}

bool ProbeCatalog::parsePortList(const QString &text, QList<quint16> *ports, QString *why)
{
    ports->clear();
    if (text.trimmed().isEmpty())
        return true;
    for (const QString &part : text.split(QLatin1Char(','))) {
        bool ok = false;
        const uint port = part.trimmed().toUInt(&ok);
        if (!ok || port == 0 || port > 0xffff) {
            *why = QStringLiteral("\"%1\" is not a port (1 to 65535; a list is written 80,443)")
                       .arg(part.trimmed().left(64));
            return false;
        }
        if (!ports->contains(quint16(port)))
            ports->append(quint16(port));
    }
    if (ports->size() > MaxPortList) {
        *why = QStringLiteral("%1 ports listed; at most %2 can be")
                   .arg(ports->size())
                   .arg(MaxPortList);
        return false;
    }
    return true;
}

QString ProbeCatalog::spec(const QString &id, const QVariantMap &options, bool all)
{
    QStringList parts;
    auto add = [&](const QString &name, const QVariant &value, bool isBool) {
        if (isBool)
            parts << (value.toBool() ? name : name + QStringLiteral("=false"));
        else
            parts << name + QLatin1Char('=') + value.toString();
    };
    const ProbeInfo *info = find(id);
    QStringList known;
    if (info) {
        for (const ProbeOption &o : info->options) {
            known << o.name;
            if (!options.contains(o.name))
                continue;
            const QVariant v = options.value(o.name);
            const bool isBool = o.type == ProbeOption::Type::Bool;
            const bool isDefault = isBool ? v.toBool() == o.defaultValue.toBool()
                                          : v.toString() == o.defaultValue.toString();
            if (all || !isDefault)
                add(o.name, v, isBool);
        }
    }
    // Options the catalog does not know (a newer recorder's): as they are, sorted by name.
    for (auto it = options.cbegin(); it != options.cend(); ++it) {
        if (!known.contains(it.key()))
            add(it.key(), it.value(), it.value().typeId() == QMetaType::Bool);
    }
    return parts.join(QLatin1Char(','));
}

} // namespace bpflens
