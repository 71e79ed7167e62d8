<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ProbeCatalog</name>
    <message>
        <source>Process ID</source>
        <translation>进程 ID</translation>
    </message>
    <message>
        <source>Only this process (0: every process)</source>
        <translation>仅此进程（0：所有进程）</translation>
    </message>
    <message>
        <source>Thread ID</source>
        <translation>线程 ID</translation>
    </message>
    <message>
        <source>Only this thread (0: every thread)</source>
        <translation>仅此线程（0：所有线程）</translation>
    </message>
    <message>
        <source>User ID</source>
        <translation>用户 ID</translation>
    </message>
    <message>
        <source>Only this user (-1: every user)</source>
        <translation>仅此用户（-1：所有用户）</translation>
    </message>
    <message>
        <source>Command name</source>
        <translation>命令名</translation>
    </message>
    <message>
        <source>Only tasks with this name (as in /proc/PID/comm, up to 15 bytes)</source>
        <translation>仅限此名称的任务（同 /proc/PID/comm，最多 15 字节）</translation>
    </message>
    <message>
        <source>Cgroup</source>
        <translation>Cgroup</translation>
    </message>
    <message>
        <source>Only tasks in this cgroup v2 (a path under /sys/fs/cgroup)</source>
        <translation>仅限此 cgroup v2 中的任务（/sys/fs/cgroup 下的路径）</translation>
    </message>
    <message>
        <source>Container</source>
        <translation>容器</translation>
    </message>
    <message>
        <source>Only tasks of this running container: its id, a prefix of it, or a Kubernetes pod&apos;s UID</source>
        <translation>仅限此运行中容器的任务：容器 ID、其前缀或 Kubernetes Pod 的 UID</translation>
    </message>
    <message>
        <source>Systemd unit</source>
        <translation>systemd 单元</translation>
    </message>
    <message>
        <source>Only tasks of this running systemd unit or slice, as nginx.service or user@1000.service</source>
        <translation>仅限此运行中 systemd 单元或 slice 的任务，例如 nginx.service 或 user@1000.service</translation>
    </message>
    <message>
        <source>Interval (ms)</source>
        <translation>间隔（ms）</translation>
    </message>
    <message>
        <source>How often histograms are snapshotted</source>
        <translation>直方图快照的频率</translation>
    </message>
    <message>
        <source>Units</source>
        <translation>单位</translation>
    </message>
    <message>
        <source>Histogram units, like biolatency -m</source>
        <translation>直方图单位，同 biolatency -m</translation>
    </message>
    <message>
        <source>Process execution</source>
        <translation>进程执行</translation>
    </message>
    <message>
        <source>Every exec with its full argument list, like execsnoop</source>
        <translation>每次 exec 及其完整参数列表，同 execsnoop</translation>
    </message>
    <message>
        <source>Include failed execs</source>
        <translation>包含失败的 exec</translation>
    </message>
    <message>
        <source>Also report execs that failed, like execsnoop -x</source>
        <translation>同时报告失败的 exec，同 execsnoop -x</translation>
    </message>
    <message>
        <source>File opens</source>
        <translation>文件打开</translation>
    </message>
    <message>
        <source>Every open, openat, openat2 and creat, like opensnoop</source>
        <translation>每次 open、openat、openat2 和 creat，同 opensnoop</translation>
    </message>
    <message>
        <source>Failed opens only</source>
        <translation>仅失败的打开</translation>
    </message>
    <message>
        <source>Only report opens that failed, like opensnoop -x</source>
        <translation>仅报告失败的打开，同 opensnoop -x</translation>
    </message>
    <message>
        <source>Block I/O</source>
        <translation>块 I/O</translation>
    </message>
    <message>
        <source>Every block request with its latency (biosnoop) and latency histograms (biolatency)</source>
        <translation>每个块请求及其延迟（biosnoop），以及延迟直方图（biolatency）</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>Only this disk (as in /proc/partitions, e.g. vda)</source>
        <translation>仅此磁盘（同 /proc/partitions，例如 vda）</translation>
    </message>
    <message>
        <source>Include queue time</source>
        <translation>包含排队时间</translation>
    </message>
    <message>
        <source>Measure from insertion into the queue, like biolatency -Q</source>
        <translation>从插入队列时开始计时，同 biolatency -Q</translation>
    </message>
    <message>
        <source>Per disk</source>
        <translation>按磁盘</translation>
    </message>
    <message>
        <source>One histogram per disk, like biolatency -D</source>
        <translation>每个磁盘一个直方图，同 biolatency -D</translation>
    </message>
    <message>
        <source>Per flag set</source>
        <translation>按标志组合</translation>
    </message>
    <message>
        <source>One histogram per operation and flags, like biolatency -F</source>
        <translation>每种操作和标志一个直方图，同 biolatency -F</translation>
    </message>
    <message>
        <source>Minimum latency (µs)</source>
        <translation>最小延迟（µs）</translation>
    </message>
    <message>
        <source>Only record requests at least this slow (histograms count all)</source>
        <translation>仅记录至少这么慢的请求（直方图统计全部）</translation>
    </message>
    <message>
        <source>Run queue latency</source>
        <translation>运行队列延迟</translation>
    </message>
    <message>
        <source>How long runnable tasks wait for a CPU, like runqlat</source>
        <translation>可运行任务等待 CPU 的时间，同 runqlat</translation>
    </message>
    <message>
        <source>Per process</source>
        <translation>按进程</translation>
    </message>
    <message>
        <source>One histogram per process, like runqlat -P</source>
        <translation>每个进程一个直方图，同 runqlat -P</translation>
    </message>
    <message>
        <source>Per thread</source>
        <translation>按线程</translation>
    </message>
    <message>
        <source>One histogram per thread, like runqlat -L</source>
        <translation>每个线程一个直方图，同 runqlat -L</translation>
    </message>
    <message>
        <source>TCP connects</source>
        <translation>TCP 连接</translation>
    </message>
    <message>
        <source>Page cache</source>
        <translation>页缓存</translation>
    </message>
    <message>
        <source>Page cache hits, misses and dirtied pages per interval, like cachestat (system-wide unless filtered)</source>
        <translation>每个间隔的页缓存命中、未命中和脏页数，类似 cachestat（未过滤时为全系统）</translation>
    </message>
    <message>
        <source>Only page cache activity in this process&apos;s context: its reads and file page faults, the pages they and the readahead they start insert, and the pages it dirties (write, write fault). Writeback by the kernel&apos;s flusher threads and reclaim never count (0: every process)</source>
        <translation>仅统计此进程上下文中的页缓存活动：它的读取和文件缺页、这些操作及其触发的预读所插入的页，以及它弄脏的页（write、写缺页）。内核刷写线程的回写和内存回收从不计入（0：所有进程）</translation>
    </message>
    <message>
        <source>Only page cache activity in this thread&apos;s context, as for the process filter (0: every thread)</source>
        <translation>仅统计此线程上下文中的页缓存活动，规则同进程过滤（0：所有线程）</translation>
    </message>
    <message>
        <source>Only page cache activity of tasks running as this user, as for the process filter (-1: every user)</source>
        <translation>仅统计以此用户身份运行的任务的页缓存活动，规则同进程过滤（-1：所有用户）</translation>
    </message>
    <message>
        <source>Only page cache activity of tasks with this name (as in /proc/PID/comm, up to 15 bytes), as for the process filter</source>
        <translation>仅统计具有此名称的任务的页缓存活动（与 /proc/PID/comm 相同，最多 15 字节），规则同进程过滤</translation>
    </message>
    <message>
        <source>Only page cache activity of tasks in this cgroup v2 (a path under /sys/fs/cgroup), as for the process filter; pages are counted for the task that touches them, not for the cgroup the memory is charged to</source>
        <translation>仅统计此 cgroup v2（/sys/fs/cgroup 下的路径）中任务的页缓存活动，规则同进程过滤；页面计入访问它的任务，而不是内存所计费的 cgroup</translation>
    </message>
    <message>
        <source>Tracepoint pair latency</source>
        <translation>跟踪点对延迟</translation>
    </message>
    <message>
        <source>Time from a start tracepoint to an end tracepoint with the same key, as a histogram and the slow pairs as events</source>
        <translation>从起始跟踪点到具有相同键的结束跟踪点的时间，以直方图呈现，慢的配对记为事件</translation>
    </message>
    <message>
        <source>Start tracepoint</source>
        <translation>起始跟踪点</translation>
    </message>
    <message>
        <source>End tracepoint</source>
        <translation>结束跟踪点</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>End key</source>
        <translation>结束键</translation>
    </message>
    <message>
        <source>The key at the end tracepoint, when it carries it differently (empty: the same as Key)</source>
        <translation>结束跟踪点处的键（当其表示方式不同时；留空：与“键”相同）</translation>
    </message>
    <message>
        <source>Event threshold (µs)</source>
        <translation>事件阈值（µs）</translation>
    </message>
    <message>
        <source>Record every pair at least this slow as an event (-1: none, 0: all; the histogram counts all)</source>
        <translation>将至少这么慢的每个配对记录为事件（-1：不记录，0：全部；直方图统计全部）</translation>
    </message>
    <message>
        <source>Histogram units</source>
        <translation>直方图单位</translation>
    </message>
    <message>
        <source>Only pairs this process starts (0: every process)</source>
        <translation>仅此进程发起的配对（0：所有进程）</translation>
    </message>
    <message>
        <source>Only pairs started by tasks with this name (up to 15 bytes)</source>
        <translation>仅限此名称的任务发起的配对（最多 15 字节）</translation>
    </message>
    <message>
        <source>I/O stack breakdown</source>
        <translation>I/O 栈分解</translation>
    </message>
    <message>
        <source>Where the time of read, write, open and fsync goes: syscall, VFS, file system and block layers, with each layer&apos;s exclusive share</source>
        <translation>read、write、open 和 fsync 的时间花在哪里：系统调用、VFS、文件系统和块设备各层，以及每层的独占份额</translation>
    </message>
    <message>
        <source>Only block requests on this disk (as in /proc/partitions, e.g. vda)</source>
        <translation>仅此磁盘上的块请求（同 /proc/partitions，例如 vda）</translation>
    </message>
    <message>
        <source>Measure the block request queue as its own layer, like biolatency -Q</source>
        <translation>将块请求队列作为单独的一层测量，同 biolatency -Q</translation>
    </message>
    <message>
        <source>Slow file-system operations</source>
        <translation>慢文件系统操作</translation>
    </message>
    <message>
        <source>ext4 (and xfs, btrfs) reads, writes, opens and fsyncs slower than a threshold, like ext4slower</source>
        <translation>慢于阈值的 ext4（以及 xfs、btrfs）读、写、打开和 fsync 操作，同 ext4slower</translation>
    </message>
    <message>
        <source>Only operations at least this slow (0: all)</source>
        <translation>仅至少这么慢的操作（0：全部）</translation>
    </message>
    <message>
        <source>Function hooks</source>
        <translation>函数挂钩方式</translation>
    </message>
    <message>
        <source>How kernel functions are traced: auto (fentry where the kernel supports it, else kprobes), fentry only, or kprobes only</source>
        <translation>如何跟踪内核函数：auto（内核支持时用 fentry，否则用 kprobe）、仅 fentry 或仅 kprobe</translation>
    </message>
    <message>
        <source>Every file descriptor</source>
        <translation>所有文件描述符</translation>
    </message>
    <message>
        <source>Also count reads and writes on pipes, sockets, terminals and eventfds, which measure waiting rather than I/O (by default only regular files and block devices count)</source>
        <translation>也统计管道、套接字、终端和 eventfd 上的读写，它们测量的是等待而非 I/O（默认只统计普通文件和块设备）</translation>
    </message>
    <message>
        <source>CPU profile</source>
        <translation>CPU 剖析</translation>
    </message>
    <message>
        <source>Where the CPUs spend their time: samples of the running code at a fixed frequency on every CPU, with kernel and user call stacks, like perf record -g or profile</source>
        <translation>CPU 时间花在哪里：在每个 CPU 上以固定频率对运行中的代码采样，并带有内核和用户调用栈，类似 perf record -g 或 profile</translation>
    </message>
    <message>
        <source>Frequency (Hz)</source>
        <translation>频率（Hz）</translation>
    </message>
    <message>
        <source>Samples per second on each CPU (99 avoids running in lockstep with timers)</source>
        <translation>每个 CPU 每秒的采样数（99 可避免与定时器同步）</translation>
    </message>
    <message>
        <source>User stack copy (bytes)</source>
        <translation>用户栈复制量（字节）</translation>
    </message>
    <message>
        <source>How much of each sample&apos;s user stack is copied for unwinding code built without frame pointers; deeper stacks are cut off (0: frame pointers only)</source>
        <translation>每个采样复制多少用户栈，用于展开未使用帧指针编译的代码；更深的栈会被截断（0：仅用帧指针）</translation>
    </message>
    <message>
        <source>Kernel stacks only</source>
        <translation>仅内核栈</translation>
    </message>
    <message>
        <source>Record no user stacks (cheaper, no symbolisation)</source>
        <translation>不记录用户栈（开销更低，不做符号解析）</translation>
    </message>
    <message>
        <source>User stacks only</source>
        <translation>仅用户栈</translation>
    </message>
    <message>
        <source>Record no kernel stacks</source>
        <translation>不记录内核栈</translation>
    </message>
    <message>
        <source>Include idle</source>
        <translation>包含空闲</translation>
    </message>
    <message>
        <source>Also record the samples of idle CPUs (PID 0)</source>
        <translation>同时记录空闲 CPU 的采样（PID 0）</translation>
    </message>
    <message>
        <source>Off-CPU time</source>
        <translation>离开 CPU 的时间</translation>
    </message>
    <message>
        <source>Where threads wait: every time a thread leaves the CPU (blocks, sleeps or is preempted) for at least the minimum time, with the call stacks it left from, like offcputime</source>
        <translation>线程在哪里等待：每当线程离开 CPU（阻塞、睡眠或被抢占）至少达到最短时间时，记录它离开时的调用栈，类似 offcputime</translation>
    </message>
    <message>
        <source>Minimum time off-CPU (µs)</source>
        <translation>最短离开 CPU 时间（µs）</translation>
    </message>
    <message>
        <source>Only record threads off the CPU at least this long</source>
        <translation>仅记录离开 CPU 至少这么长时间的线程</translation>
    </message>
    <message>
        <source>How much of a waiting thread&apos;s user stack is copied, when its system call returns, for unwinding code built without frame pointers (0: frame pointers only)</source>
        <translation>等待线程的系统调用返回时复制多少用户栈，用于展开未使用帧指针编译的代码（0：仅用帧指针）</translation>
    </message>
    <message>
        <source>TCP accepts</source>
        <translation>TCP 接受</translation>
    </message>
    <message>
        <source>Every TCP connection a process accepts over IPv4 and IPv6, with the listen queue&apos;s length, like tcpaccept</source>
        <translation>进程通过 IPv4 和 IPv6 接受的每个 TCP 连接，以及监听队列的长度，类似 tcpaccept</translation>
    </message>
    <message>
        <source>TCP retransmits</source>
        <translation>TCP 重传</translation>
    </message>
    <message>
        <source>Every TCP retransmission (data, SYN, SYN-ACK, tail-loss probe) with per-connection counts per interval, like tcpretrans</source>
        <translation>每次 TCP 重传（数据、SYN、SYN-ACK、尾部丢包探测），并按连接统计每个间隔的次数，类似 tcpretrans</translation>
    </message>
    <message>
        <source>TCP sessions</source>
        <translation>TCP 会话</translation>
    </message>
    <message>
        <source>Every TCP connection when it closes, with its lifetime and the bytes it sent and received, like tcplife</source>
        <translation>每个 TCP 连接关闭时的记录，包括其生命周期以及发送和接收的字节数，类似 tcplife</translation>
    </message>
    <message>
        <source>Every active TCP connect over IPv4 and IPv6, with connects per destination per interval, like tcpconnect</source>
        <translation>每个通过 IPv4 和 IPv6 主动发起的 TCP 连接，并按目标统计每个间隔的连接数，类似 tcpconnect</translation>
    </message>
    <message>
        <source>Destination ports</source>
        <translation>目标端口</translation>
    </message>
    <message>
        <source>Only connects to these ports, as 80,443 (tcpconnect -P); at most 16</source>
        <translation>仅连接到这些端口，例如 80,443（tcpconnect -P）；最多 16 个</translation>
    </message>
    <message>
        <source>Source ports</source>
        <translation>源端口</translation>
    </message>
    <message>
        <source>Only connects from these local ports, as 40000,40001; at most 16</source>
        <translation>仅来自这些本地端口的连接，例如 40000,40001；最多 16 个</translation>
    </message>
    <message>
        <source>Name contains</source>
        <translation>名称包含</translation>
    </message>
    <message>
        <source>Only commands whose name contains this text, like execsnoop -n</source>
        <translation>仅名称包含此文本的命令，类似 execsnoop -n</translation>
    </message>
    <message>
        <source>Arguments contain</source>
        <translation>参数包含</translation>
    </message>
    <message>
        <source>Only execs whose arguments, joined by spaces, contain this text, like execsnoop -l</source>
        <translation>仅参数（以空格连接）包含此文本的 exec，类似 execsnoop -l</translation>
    </message>
    <message>
        <source>Maximum arguments</source>
        <translation>最多参数个数</translation>
    </message>
    <message>
        <source>Read at most this many arguments; an exec with more is marked truncated, like execsnoop --max-args</source>
        <translation>最多读取这么多个参数；参数更多的 exec 标记为已截断，类似 execsnoop --max-args</translation>
    </message>
    <message>
        <source>With flags</source>
        <translation>包含标志</translation>
    </message>
    <message>
        <source>Only opens with one of these flags, as O_WRONLY,O_RDWR,O_CREAT (opensnoop -f)</source>
        <translation>只记录带有其中某个标志的打开，如 O_WRONLY,O_RDWR,O_CREAT（opensnoop -f）</translation>
    </message>
    <message>
        <source>Full paths</source>
        <translation>完整路径</translation>
    </message>
    <message>
        <source>Resolve relative paths against the directory they were opened in, like opensnoop -F</source>
        <translation>将相对路径按打开时所在的目录解析为完整路径，如 opensnoop -F</translation>
    </message>
    <message>
        <source>Block I/O sizes</source>
        <translation>块 I/O 大小</translation>
    </message>
    <message>
        <source>The size of every block request as it is issued, as histograms of Kbytes per command, like bitesize</source>
        <translation>每个块请求下发到设备时的大小，按命令统计为以 KB 为单位的直方图，同 bitesize</translation>
    </message>
    <message>
        <source>One histogram per command and disk</source>
        <translation>每个命令和磁盘一个直方图</translation>
    </message>
    <message>
        <source>Per operation</source>
        <translation>按操作</translation>
    </message>
    <message>
        <source>One histogram per command and operation (read, write, flush…)</source>
        <translation>每个命令和操作（读、写、刷新…）一个直方图</translation>
    </message>
    <message>
        <source>User function calls</source>
        <translation>用户函数调用</translation>
    </message>
    <message>
        <source>Calls of a function in a program or library counted per interval, optionally per argument, and timed from entry to return, like strlen_count and funclatency -u</source>
        <translation>按时间间隔统计程序或库中某个函数的调用次数，可按参数分组，并测量从进入到返回的时间，如 strlen_count 和 funclatency -u</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>BINARY:FUNCTION, the binary as a path, a library name (libc) or a program in PATH, e.g. libc:strlen or /usr/bin/bash:readline; BINARY:0xADDRESS for an address</source>
        <translation>二进制文件:函数，二进制文件可为路径、库名（libc）或 PATH 中的程序，例如 libc:strlen 或 /usr/bin/bash:readline；地址写作 二进制文件:0x地址</translation>
    </message>
    <message>
        <source>Count by</source>
        <translation>统计依据</translation>
    </message>
    <message>
        <source>What the calls are counted by: empty (all together), argN (the value of argument N, from 0) or str(argN) (the string argument N points to)</source>
        <translation>按什么统计调用：留空（全部合计）、argN（第 N 个参数的值，从 0 开始）或 str(argN)（第 N 个参数指向的字符串）</translation>
    </message>
    <message>
        <source>String length</source>
        <translation>字符串长度</translation>
    </message>
    <message>
        <source>Bytes of a string argument kept as its key, with the terminating NUL</source>
        <translation>作为键保留的字符串参数字节数，含结尾的 NUL</translation>
    </message>
    <message>
        <source>Time calls</source>
        <translation>测量调用时间</translation>
    </message>
    <message>
        <source>Also attach at the return: a histogram of the time from entry to return, and the slow calls as events</source>
        <translation>同时挂接到返回处：从进入到返回时间的直方图，慢调用记录为事件</translation>
    </message>
    <message>
        <source>With Time calls: record every call at least this slow as an event (-1: none, 0: all)</source>
        <translation>启用“测量调用时间”时：将至少这么慢的每次调用记录为事件（-1：不记录，0：全部）</translation>
    </message>
    <message>
        <source>Tracepoint counts</source>
        <translation>跟踪点计数</translation>
    </message>
    <message>
        <source>Hits of one tracepoint per interval, grouped by up to two of its fields or the command, or a histogram of one numeric field</source>
        <translation>每个间隔内某个跟踪点的命中次数，可按其最多两个字段或命令名分组，或统计一个数值字段的直方图</translation>
    </message>
    <message>
        <source>Tracepoint</source>
        <translation>跟踪点</translation>
    </message>
    <message>
        <source>And by</source>
        <translation>再按</translation>
    </message>
    <message>
        <source>A second key, written as Count by is (prev.pid with next.pid)</source>
        <translation>第二个键，写法与“计数依据”相同（prev.pid 搭配 next.pid）</translation>
    </message>
    <message>
        <source>Histogram of</source>
        <translation>直方图字段</translation>
    </message>
    <message>
        <source>A numeric field whose values are kept as a log2 histogram per key instead of counting hits</source>
        <translation>一个数值字段，按键以 log2 直方图记录其取值，而不是统计命中次数</translation>
    </message>
    <message>
        <source>USDT probe hits</source>
        <translation>USDT 探针命中</translation>
    </message>
    <message>
        <source>Hits of a static probe (USDT, sys/sdt.h) in a program or library counted per interval, optionally per argument, and recorded with their arguments</source>
        <translation>程序或库中静态探针（USDT，sys/sdt.h）的命中次数，按时间间隔计数，可按参数分组，并连同参数一起记录</translation>
    </message>
    <message>
        <source>USDT probe</source>
        <translation>USDT 探针</translation>
    </message>
    <message>
        <source>BINARY:PROVIDER:NAME or BINARY:NAME, the binary as a path, a library name or a program in PATH, e.g. /usr/bin/python3:python:function__entry</source>
        <translation>BINARY:PROVIDER:NAME 或 BINARY:NAME，二进制文件可以是路径、库名或 PATH 中的程序，例如 /usr/bin/python3:python:function__entry</translation>
    </message>
    <message>
        <source>What the hits are counted by: empty (all together), argN (the value of argument N, from 0) or str(argN) (the string argument N points to)</source>
        <translation>命中按什么计数：留空（全部合计）、argN（第 N 个参数的值，从 0 开始）或 str(argN)（第 N 个参数指向的字符串）</translation>
    </message>
    <message>
        <source>Record hits</source>
        <translation>记录命中</translation>
    </message>
    <message>
        <source>Record every hit as an event with its arguments (off: counts only, for probes that fire often)</source>
        <translation>将每次命中连同参数记录为事件（关闭：仅计数，适用于频繁触发的探针）</translation>
    </message>
    <message>
        <source>Where the measured time begins: a tracepoint (block_rq_issue), u:BINARY:FUNCTION, ur:BINARY:FUNCTION (its return), usdt:BINARY:PROVIDER:NAME, k:FUNCTION or kr:FUNCTION</source>
        <translation>计时开始的位置：跟踪点（block_rq_issue）、u:二进制文件:函数、ur:二进制文件:函数（函数返回）、usdt:二进制文件:提供者:名称、k:函数 或 kr:函数</translation>
    </message>
    <message>
        <source>Where the measured time ends, written as Start tracepoint is, e.g. block_rq_complete or ur:/usr/bin/prog:parse; the start itself: from each hit to the next with its key</source>
        <translation>计时结束的位置，写法与开始跟踪点相同，例如 block_rq_complete 或 ur:/usr/bin/prog:parse；与开始相同：从每次命中到同一键的下一次命中</translation>
    </message>
    <message>
        <source>What pairs a start with its end: tid (the thread), pid, argN (the value of the tracepoint&apos;s or USDT probe&apos;s argument N) or argN.field.field (a field of the struct a tracepoint&apos;s argument N points to)</source>
        <translation>将开始与结束配对的依据：tid（线程）、pid、argN（跟踪点或 USDT 探针第 N 个参数的值）或 argN.字段.字段（跟踪点第 N 个参数所指结构体的字段）</translation>
    </message>
    <message>
        <source>What is counted: a tracepoint (sched_switch, block:block_rq_issue), u:BINARY:FUNCTION, ur:BINARY:FUNCTION, usdt:BINARY:PROVIDER:NAME, k:FUNCTION or kr:FUNCTION</source>
        <translation>计数对象：跟踪点（sched_switch、block:block_rq_issue）、u:二进制文件:函数、ur:二进制文件:函数、usdt:二进制文件:提供者:名称、k:函数 或 kr:函数</translation>
    </message>
    <message>
        <source>Empty (all hits together), comm, tid, pid, an argument by name or as argN (a USDT probe&apos;s too), or a field behind it (next.pid, arg0.q.id)</source>
        <translation>留空（所有命中合计）、comm、tid、pid、按名称或 argN 指定的参数（USDT 探针的参数亦可），或其后的字段（next.pid、arg0.q.id）</translation>
    </message>
    <message>
        <source>Off-wake time</source>
        <translation>唤醒等待时间</translation>
    </message>
    <message>
        <source>Why threads wait: every off-CPU wait of at least the minimum time with the stack it blocked in, joined with the thread (or interrupt) that woke it and the waker&apos;s stack, like offwaketime</source>
        <translation>线程为何等待：每次至少达到最短时间的离开 CPU 等待，连同阻塞时的调用栈，以及唤醒它的线程（或中断）和唤醒者的调用栈，类似 offwaketime</translation>
    </message>
    <message>
        <source>OOM kills</source>
        <translation>OOM 终止</translation>
    </message>
    <message>
        <source>Every process the OOM killer kills: its memory and cgroup, the task that ran out of memory and whether a cgroup limit or the machine ran out, like oomkill</source>
        <translation>OOM killer 终止的每个进程：其内存与 cgroup、内存耗尽时运行的任务，以及耗尽的是 cgroup 限制还是整机内存，类似 oomkill</translation>
    </message>
    <message>
        <source>Only kills of this process (0: every process)</source>
        <translation>仅此进程被终止的事件（0：所有进程）</translation>
    </message>
    <message>
        <source>Only kills of this user&apos;s processes (-1: every user)</source>
        <translation>仅此用户的进程被终止的事件（-1：所有用户）</translation>
    </message>
    <message>
        <source>Only kills of tasks with this name (as in /proc/PID/comm, up to 15 bytes)</source>
        <translation>仅此名称的任务被终止的事件（同 /proc/PID/comm，最多 15 字节）</translation>
    </message>
    <message>
        <source>Only kills of tasks in this cgroup v2 or below it (a path under /sys/fs/cgroup)</source>
        <translation>仅此 cgroup v2 及其下层中的任务被终止的事件（/sys/fs/cgroup 下的路径）</translation>
    </message>
    <message>
        <source>Memory reclaim</source>
        <translation>内存回收</translation>
    </message>
    <message>
        <source>Only record reclaims at least this slow (histograms count all)</source>
        <translation>仅记录至少这么慢的回收（直方图统计全部）</translation>
    </message>
    <message>
        <source>Page faults</source>
        <translation>缺页异常</translation>
    </message>
    <message>
        <source>Where processes fault their memory in: every minor and major page fault the kernel counts for a task, with its kernel and user call stacks, the faulting address and whether it was anonymous memory, a file, the stack or the heap, like perf record -e minor-faults -g</source>
        <translation>进程在何处调入内存：内核为任务计数的每次次要和主要缺页异常，附带内核和用户调用栈、触发缺页的地址，以及该地址是匿名内存、文件、栈还是堆，类似 perf record -e minor-faults -g</translation>
    </message>
    <message>
        <source>Sample every Nth fault</source>
        <translation>每 N 次缺页记录一次</translation>
    </message>
    <message>
        <source>Record one fault in every N on each CPU, each standing for N (1: every fault, exact counts; more for processes faulting millions of pages)</source>
        <translation>在每个 CPU 上每 N 次缺页记录一次，每条记录代表 N 次（1：记录每次缺页，计数精确；缺页达数百万次的进程可设更大的值）</translation>
    </message>
    <message>
        <source>record one fault in N (every=N), or without the user-stack copy (stackBytes=0)</source>
        <translation>每 N 次缺页记录一次（every=N），或不复制用户栈（stackBytes=0）</translation>
    </message>
    <message>
        <source>Syscall hooks</source>
        <translation>系统调用挂钩</translation>
    </message>
    <message>
        <source>How failed execs are seen: auto (fexit on the syscall handlers where the kernel supports it; else the raw sys_exit tracepoint, which every system call runs but which alone sees 32-bit processes&apos; calls, where they can run; else the per-syscall tracepoints, and the raw sys_exit where there are none), or only one of them</source>
        <translation>如何看到失败的 exec：auto（内核支持时在系统调用处理函数上使用 fexit；否则在可运行 32 位进程的内核上使用原始 sys_exit 跟踪点——每个系统调用都会经过它，但只有它能看到 32 位进程的调用；否则使用每个系统调用各自的跟踪点，没有这些跟踪点时使用原始 sys_exit），或只用其中一种</translation>
    </message>
    <message>
        <source>How the open calls are hooked: auto (fexit on the syscall handlers where the kernel supports it; else the raw sys_exit tracepoint, which every system call runs but which alone sees 32-bit processes&apos; calls, where they can run; else the per-syscall tracepoints), or only one of them</source>
        <translation>如何挂钩 open 调用：auto（内核支持时在系统调用处理函数上使用 fexit；否则在可运行 32 位进程的内核上使用原始 sys_exit 跟踪点——每个系统调用都会经过它，但只有它能看到 32 位进程的调用；否则使用每个系统调用各自的跟踪点），或只用其中一种</translation>
    </message>
    <message>
        <source>Thread states</source>
        <translation>线程状态</translation>
    </message>
    <message>
        <source>When each thread ran (on which CPU), waited for a CPU or was blocked, and why: what it waited for and who woke it. The critical path of a thread follows these wakeups</source>
        <translation>每个线程何时运行（在哪个 CPU 上）、何时等待 CPU 或被阻塞，以及原因：它在等待什么、谁唤醒了它。线程的关键路径沿着这些唤醒追溯</translation>
    </message>
    <message>
        <source>No kernel stacks</source>
        <translation>不采集内核栈</translation>
    </message>
    <message>
        <source>Take no kernel stack where a thread blocks or is woken (cheaper; the reasons and the interrupts&apos; wakeups are then not known)</source>
        <translation>线程阻塞或被唤醒时不采集内核栈（开销更低；但阻塞原因和中断唤醒将无法得知）</translation>
    </message>
    <message>
        <source>Every direct reclaim (like drsnoop), memory cgroup reclaim (a cgroup over memory.high or memory.max) and memory compaction (like compactsnoop) a task stalls in, with the pages it reclaimed, and latency histograms per kind</source>
        <translation>任务所陷入的每次直接回收（类似 drsnoop）、内存 cgroup 回收（cgroup 超出 memory.high 或 memory.max）和内存规整（类似 compactsnoop），附带回收的页数，以及按类型的延迟直方图</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>内存分配</translation>
    </message>
    <message>
        <source>record one allocation in N (sampleEvery=N), or without the user-stack copy (stackBytes=0)</source>
        <translation>每 N 次分配只记录一次（sampleEvery=N），或不复制用户栈（stackBytes=0）</translation>
    </message>
    <message>
        <source>Allocator</source>
        <translation>分配器</translation>
    </message>
    <message>
        <source>Sample every Nth allocation</source>
        <translation>每 N 次分配采样一次</translation>
    </message>
    <message>
        <source>Record one allocation in N, chosen at random, each standing for N (1: every allocation, exact; more for processes allocating millions a second)</source>
        <translation>随机记录 N 次分配中的一次，每次代表 N 次（1：记录每次分配，精确；每秒分配数百万次的进程可取更大值）</translation>
    </message>
    <message>
        <source>How much of each allocation&apos;s user stack is copied for unwinding code built without frame pointers; deeper stacks are cut off (0: frame pointers only)</source>
        <translation>每次分配复制多少用户栈，用于展开未使用帧指针编译的代码；更深的栈会被截断（0：仅帧指针）</translation>
    </message>
    <message>
        <source>Blocks tracked</source>
        <translation>跟踪的内存块</translation>
    </message>
    <message>
        <source>How many recorded blocks the kernel tracks until they are freed; allocations past it are counted, not recorded</source>
        <translation>内核在释放前最多跟踪多少个已记录的内存块；超出的分配只计数，不记录</translation>
    </message>
    <message>
        <source>Every block a running process allocates (malloc, calloc, realloc, posix_memalign, mmap, ...) with its size and call stack, and when it is freed: outstanding memory and leaks by stack, like memleak; no restart and no preloaded library. With no process given, the kernel&apos;s allocations (kmalloc, slab caches, pages) on the whole machine</source>
        <translation>运行中进程分配的每个内存块（malloc、calloc、realloc、posix_memalign、mmap 等）及其大小和调用栈，以及何时释放：按调用栈统计未释放内存和泄漏，类似 memleak；无需重启，无需预加载库。未指定进程时，记录整台机器上内核的分配（kmalloc、slab 缓存、页）</translation>
    </message>
    <message>
        <source>The process whose allocations are recorded (0: the kernel&apos;s own allocations, of every process)</source>
        <translation>记录其内存分配的进程（0：内核自身的分配，涵盖所有进程）</translation>
    </message>
    <message>
        <source>The library or program whose malloc and free are hooked (empty: the one the process uses: jemalloc, tcmalloc, mimalloc or AddressSanitizer&apos;s when it has one mapped, the program itself when it has its own malloc, else libc)</source>
        <translation>挂钩其 malloc 和 free 的库或程序（留空：进程所用的分配器：已映射的 jemalloc、tcmalloc、mimalloc 或 AddressSanitizer；程序自带 malloc 时为程序本身；否则为 libc）</translation>
    </message>
</context>
<context>
    <name>SessionModel</name>
    <message>
        <source>Exec</source>
        <translation>Exec</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>Open</translation>
    </message>
    <message>
        <source>Block I/O</source>
        <translation>块 I/O</translation>
    </message>
    <message>
        <source>TCP connect</source>
        <translation>TCP 连接</translation>
    </message>
    <message>
        <source>Slow file ops</source>
        <translation>慢文件操作</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>Tracepoint pairs</source>
        <translation>跟踪点对</translation>
    </message>
    <message>
        <source>Off-CPU</source>
        <translation>离开 CPU</translation>
    </message>
    <message>
        <source>CPU samples</source>
        <translation>CPU 采样</translation>
    </message>
    <message>
        <source>TCP accept</source>
        <translation>TCP 接受</translation>
    </message>
    <message>
        <source>TCP retransmit</source>
        <translation>TCP 重传</translation>
    </message>
    <message>
        <source>TCP sessions</source>
        <translation>TCP 会话</translation>
    </message>
    <message>
        <source>User function calls</source>
        <translation>用户函数调用</translation>
    </message>
    <message>
        <source>USDT probe hits</source>
        <translation>USDT 探针命中</translation>
    </message>
    <message>
        <source>Off-wake</source>
        <translation>唤醒等待</translation>
    </message>
    <message>
        <source>OOM kill</source>
        <translation>OOM 终止</translation>
    </message>
    <message>
        <source>Memory reclaim</source>
        <translation>内存回收</translation>
    </message>
    <message>
        <source>Page faults</source>
        <translation>缺页异常</translation>
    </message>
    <message>
        <source>Thread states</source>
        <translation>线程状态</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>内存分配</translation>
    </message>
</context>
<context>
    <name>SessionSave</name>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
</context>
<context>
    <name>askpass</name>
    <message>
        <source>Unknown Host Key</source>
        <translation>未知的主机密钥</translation>
    </message>
    <message>
        <source>This computer does not know the host key of the host yet. Trust it only if the fingerprint is the one of that host.</source>
        <translation>本机尚不认识该主机的主机密钥。仅当指纹确实属于该主机时才信任它。</translation>
    </message>
    <message>
        <source>Trust and Connect</source>
        <translation>信任并连接</translation>
    </message>
    <message>
        <source>Refuse</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>SSH Authentication</source>
        <translation>SSH 身份验证</translation>
    </message>
</context>
<context>
    <name>bpflens::Allocations</name>
    <message>
        <source>freed</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>in use at the end</source>
        <translation>结束时仍占用</translation>
    </message>
    <message>
        <source>process exited</source>
        <translation>进程已退出</translation>
    </message>
</context>
<context>
    <name>bpflens::CallTreeModel</name>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Self</source>
        <translation>自身</translation>
    </message>
    <message>
        <source>Self %</source>
        <translation>自身 %</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Total %</source>
        <translation>总计 %</translation>
    </message>
    <message>
        <source>The unwinder did not reach the thread&apos;s first frame: the callers of these samples are unknown.</source>
        <translation>栈展开未能到达线程的第一帧：这些采样的调用者未知。</translation>
    </message>
    <message>
        <source>Cost of samples taken in this function itself</source>
        <translation>在此函数本身中采到的样本开销</translation>
    </message>
    <message>
        <source>Cost of samples with this function on the stack, its callees included</source>
        <translation>栈上含有此函数的样本开销，包括其被调用函数</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%2 中的 %1</translation>
    </message>
    <message>
        <source>Bytes in use that this function allocated itself</source>
        <translation>此函数自身分配且仍占用的字节</translation>
    </message>
    <message>
        <source>Bytes in use allocated with this function on the stack, its callees included</source>
        <translation>调用栈上有此函数时分配且仍占用的字节，包括其被调用者</translation>
    </message>
</context>
<context>
    <name>bpflens::CompareController</name>
    <message>
        <source>Compare &amp;With…</source>
        <translation>与…比较(&amp;W)</translation>
    </message>
    <message>
        <source>Compare the open session with another session file: histograms, event counts and the CPU profile</source>
        <translation>将打开的会话与另一个会话文件比较：直方图、事件数和 CPU 剖析</translation>
    </message>
    <message>
        <source>Compare With Session</source>
        <translation>与会话比较</translation>
    </message>
    <message>
        <source>BPF Lens sessions (*.bpflens);;All files (*)</source>
        <translation>BPF Lens 会话 (*.bpflens);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot compare</source>
        <translation>无法比较</translation>
    </message>
    <message>
        <source>Cannot compare with %1: %2</source>
        <translation>无法与 %1 比较：%2</translation>
    </message>
    <message>
        <source>another session is still being read</source>
        <translation>另一个会话仍在读取中</translation>
    </message>
    <message>
        <source>open a session, and stop a running recording, first</source>
        <translation>请先打开一个会话，并停止正在进行的录制</translation>
    </message>
    <message>
        <source>Unsaved recording</source>
        <translation>未保存的录制</translation>
    </message>
    <message>
        <source>Compare %1 → %2 — BPF Lens</source>
        <translation>比较 %1 → %2 — BPF Lens</translation>
    </message>
    <message>
        <source>Comparison cancelled: the open session changed while the other was read</source>
        <translation>比较已取消：读取另一个会话时，打开的会话已更改</translation>
    </message>
    <message>
        <source>Reading %1 to compare…</source>
        <translation>正在读取 %1 以进行比较…</translation>
    </message>
</context>
<context>
    <name>bpflens::ComparePage</name>
    <message>
        <source>Baseline &lt;b&gt;%1&lt;/b&gt; against comparison &lt;b&gt;%2&lt;/b&gt;: what changed from the first to the second.</source>
        <translation>基准 &lt;b&gt;%1&lt;/b&gt; 对比 &lt;b&gt;%2&lt;/b&gt;：从前者到后者发生了什么变化。</translation>
    </message>
    <message>
        <source>&amp;Histograms (%1)</source>
        <translation>直方图 (%1)(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation>事件(&amp;E)</translation>
    </message>
    <message>
        <source>CPU &amp;Profile</source>
        <translation>CPU 剖析(&amp;P)</translation>
    </message>
    <message>
        <source>Raw &amp;counts</source>
        <translation>原始计数(&amp;C)</translation>
    </message>
    <message>
        <source>Where the sessions hold different numbers of samples, the charts show each bucket&apos;s share of its session; tick to show counts.</source>
        <translation>当两个会话的样本数不同时，图表显示每个桶在其会话中的占比；勾选以显示计数。</translation>
    </message>
    <message>
        <source>only in the baseline: %1</source>
        <translation>仅在基准中：%1</translation>
    </message>
    <message>
        <source>only in the comparison: %1</source>
        <translation>仅在对比中：%1</translation>
    </message>
    <message>
        <source>not comparable (units differ): %1</source>
        <translation>无法比较（单位不同）：%1</translation>
    </message>
    <message>
        <source>%1: %2 against %3. The percentiles below are compared in %2; buckets of different units cannot be overlaid.</source>
        <translation>%1：%2 对比 %3。下面的百分位数以 %2 比较；不同单位的桶无法叠加。</translation>
    </message>
    <message>
        <source>The sessions hold no histogram in common (same probe and key).</source>
        <translation>两个会话没有共同的直方图（相同探针和键）。</translation>
    </message>
    <message>
        <source>Percentile changes</source>
        <translation>百分位数变化</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1：%2 (%3)</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Histogram %1 compared</source>
        <translation>直方图 %1 比较</translation>
    </message>
    <message>
        <source>% of samples</source>
        <translation>样本占比 %</translation>
    </message>
    <message>
        <source>count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>Neither session holds events.</source>
        <translation>两个会话都不包含事件。</translation>
    </message>
    <message>
        <source>Event counts compared</source>
        <translation>事件数比较</translation>
    </message>
    <message>
        <source>Colour by change of</source>
        <translation>按变化着色：</translation>
    </message>
    <message>
        <source>total share (with callees)</source>
        <translation>总占比（含被调用者）</translation>
    </message>
    <message>
        <source>self share</source>
        <translation>自身占比</translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation>着色依据</translation>
    </message>
    <message>
        <source>Red:</source>
        <translation>红色：</translation>
    </message>
    <message>
        <source>blue:</source>
        <translation>蓝色：</translation>
    </message>
    <message>
        <source>grey:</source>
        <translation>灰色：</translation>
    </message>
    <message>
        <source>Call paths only the baseline has (%1 of its samples) are not drawn.</source>
        <translation>仅基准中存在的调用路径（占其样本的 %1）未绘制。</translation>
    </message>
    <message>
        <source>+%1 pp</source>
        <translation>+%1 个百分点</translation>
    </message>
    <message>
        <source>−%1 pp</source>
        <translation>−%1 个百分点</translation>
    </message>
    <message>
        <source>±0 pp</source>
        <translation>±0 个百分点</translation>
    </message>
    <message>
        <source>New: the baseline has no samples on this call path</source>
        <translation>新增：基准在此调用路径上没有样本</translation>
    </message>
    <message>
        <source>Neither session has CPU profile samples. Record both with the &quot;profile&quot; or the &quot;offcpu&quot; probe for a differential flame graph.</source>
        <translation>两个会话都没有 CPU 剖析样本。请用 &quot;profile&quot; 或 &quot;offcpu&quot; 探针录制两者，以获得差分火焰图。</translation>
    </message>
    <message>
        <source>On-CPU samples</source>
        <translation>On-CPU 样本</translation>
    </message>
    <message>
        <source>Off-CPU time</source>
        <translation>Off-CPU 时间</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>剖析</translation>
    </message>
    <message>
        <source>On-CPU: where the CPU time went. Off-CPU: where threads waited, weighted by the time blocked.</source>
        <translation>On-CPU：CPU 时间花在哪里。Off-CPU：线程在哪里等待，按阻塞时间加权。</translation>
    </message>
    <message>
        <source>Neither session has on-CPU samples. Record both with the &quot;profile&quot; probe for a differential on-CPU flame graph.</source>
        <translation>两个会话都没有 On-CPU 样本。请用 &quot;profile&quot; 探针录制两者，以获得差分 On-CPU 火焰图。</translation>
    </message>
    <message>
        <source>The baseline has no on-CPU samples. Record both with the &quot;profile&quot; probe for a differential on-CPU flame graph.</source>
        <translation>基线没有 On-CPU 样本。请用 &quot;profile&quot; 探针录制两者，以获得差分 On-CPU 火焰图。</translation>
    </message>
    <message>
        <source>The comparison has no on-CPU samples. Record both with the &quot;profile&quot; probe for a differential on-CPU flame graph.</source>
        <translation>对比会话没有 On-CPU 样本。请用 &quot;profile&quot; 探针录制两者，以获得差分 On-CPU 火焰图。</translation>
    </message>
    <message>
        <source>Neither session has off-CPU samples. Record both with the &quot;offcpu&quot; probe for a differential off-CPU flame graph.</source>
        <translation>两个会话都没有 Off-CPU 样本。请用 &quot;offcpu&quot; 探针录制两者，以获得差分 Off-CPU 火焰图。</translation>
    </message>
    <message>
        <source>The baseline has no off-CPU samples. Record both with the &quot;offcpu&quot; probe for a differential off-CPU flame graph.</source>
        <translation>基线没有 Off-CPU 样本。请用 &quot;offcpu&quot; 探针录制两者，以获得差分 Off-CPU 火焰图。</translation>
    </message>
    <message>
        <source>The comparison has no off-CPU samples. Record both with the &quot;offcpu&quot; probe for a differential off-CPU flame graph.</source>
        <translation>对比会话没有 Off-CPU 样本。请用 &quot;offcpu&quot; 探针录制两者，以获得差分 Off-CPU 火焰图。</translation>
    </message>
    <message>
        <source>The comparison&apos;s off-CPU flame graph, weighted by time blocked (%1 → %2). %3 grew, %4 shrank, %5 unchanged, against the baseline&apos;s share of the same call path.</source>
        <translation>对比会话的 Off-CPU 火焰图，按阻塞时间加权（%1 → %2）。%3 增长，%4 缩减，%5 不变，相对于基线中同一调用路径的占比。</translation>
    </message>
    <message>
        <source>Call paths only the baseline has (%1 of its time blocked) are not drawn.</source>
        <translation>仅基线拥有的调用路径（占其阻塞时间的 %1）不会绘制。</translation>
    </message>
    <message>
        <source>New: the baseline has no time blocked on this call path</source>
        <translation>新增：基线在此调用路径上没有阻塞时间</translation>
    </message>
    <message>
        <source>Total, baseline → comparison: %1 → %2, %3</source>
        <translation>总计，基线 → 对比：%1 → %2，%3</translation>
    </message>
    <message>
        <source>Self, baseline → comparison: %1 → %2, %3</source>
        <translation>自身，基线 → 对比：%1 → %2，%3</translation>
    </message>
    <message>
        <source>Below each &amp;type:</source>
        <translation>每种类型下(&amp;T)：</translation>
    </message>
    <message>
        <source>Events per type, and below each type its values with the most events in either session, as the Top tab counts them.</source>
        <translation>每种类型的事件数，每种类型下列出在任一会话中事件最多的值，计数方式与“Top”标签页相同。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;p50 %2 → %3 %4 (%5) · p99 %6 → %7 %4 (%8) · %9 → %10</source>
        <extracomment>%9 the baseline&apos;s count, %10 &quot;N samples&quot; of the comparison</extracomment>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;p50 %2 → %3 %4 (%5) · p99 %6 → %7 %4 (%8) · %9 → %10</translation>
    </message>
    <message numerus="yes">
        <source>%Ln sample(s)</source>
        <translation>
            <numerusform>%Ln 个样本</numerusform>
        </translation>
    </message>
    <message>
        <source>The comparison&apos;s flame graph (%1 → %2). %3 grew, %4 shrank, %5 unchanged, against the baseline&apos;s share of the same call path.</source>
        <translation>对比会话的火焰图（%1 → %2）。%3 增长，%4 减少，%5 不变，相对于基准中同一调用路径的占比。</translation>
    </message>
</context>
<context>
    <name>bpflens::CountersView</name>
    <message>
        <source>Page cache counters</source>
        <translation>页缓存计数器</translation>
    </message>
    <message>
        <source>Page cache hit ratio</source>
        <translation>页缓存命中率</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>hit ratio %</source>
        <translation>命中率 %</translation>
    </message>
    <message>
        <source>pages per interval</source>
        <translation>每个间隔的页数</translation>
    </message>
    <message>
        <source>Hit ratio</source>
        <translation>命中率</translation>
    </message>
    <message>
        <source>Page cache</source>
        <translation>页缓存</translation>
    </message>
    <message>
        <source>TCP retransmits per connection</source>
        <translation>每个连接的 TCP 重传</translation>
    </message>
    <message>
        <source>other connections</source>
        <translation>其他连接</translation>
    </message>
    <message>
        <source>retransmits per interval</source>
        <translation>每个间隔的重传次数</translation>
    </message>
    <message>
        <source>TCP connects per destination</source>
        <translation>每个目标的 TCP 连接</translation>
    </message>
    <message>
        <source>other destinations</source>
        <translation>其他目标</translation>
    </message>
    <message>
        <source>connects per interval</source>
        <translation>每个间隔的连接数</translation>
    </message>
    <message>
        <source>User function calls per key</source>
        <translation>每个键的用户函数调用</translation>
    </message>
    <message>
        <source>other keys</source>
        <translation>其他键</translation>
    </message>
    <message>
        <source>calls per interval</source>
        <translation>每间隔调用次数</translation>
    </message>
    <message>
        <source>No counter samples in this session: record the Page cache (cachestat) probe to see hits, misses and dirtied pages over time, TCP retransmits (tcpretrans) for retransmits per connection, TCP connects (tcpconnect) for connects per destination, User function calls (uprobe) for calls per key, USDT probes (usdt) or Tracepoint counts (tpcount) for hits per key.</source>
        <translation>此会话中没有计数器样本：录制页缓存（cachestat）探针可查看命中、未命中和脏页随时间的变化，TCP 重传（tcpretrans）可查看每个连接的重传，TCP 连接（tcpconnect）可查看每个目标的连接数，用户函数调用（uprobe）可查看每个键的调用次数，USDT 探针（usdt）或跟踪点计数（tpcount）可查看每个键的命中次数。</translation>
    </message>
    <message>
        <source>USDT probe hits per key</source>
        <translation>每个键的 USDT 探针命中次数</translation>
    </message>
    <message>
        <source>Tracepoint hits per key</source>
        <translation>每个键的跟踪点命中次数</translation>
    </message>
    <message>
        <source>hits per interval</source>
        <translation>每间隔命中次数</translation>
    </message>
    <message>
        <source>accesses</source>
        <translation>访问</translation>
    </message>
    <message>
        <source>added</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>dirtied</source>
        <translation>置脏</translation>
    </message>
    <message>
        <source>misses</source>
        <translation>未命中</translation>
    </message>
    <message>
        <source>hits</source>
        <translation>命中</translation>
    </message>
    <message>
        <source>hit ratio</source>
        <translation>命中率</translation>
    </message>
</context>
<context>
    <name>bpflens::CriticalPathModel</name>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Wakeups away from the thread asked for</source>
        <translation>与所选线程相隔的唤醒次数</translation>
    </message>
    <message>
        <source>The wait did not end within the range</source>
        <translation>等待未在该范围内结束</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Thread</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>Woken by</source>
        <translation>唤醒者</translation>
    </message>
</context>
<context>
    <name>bpflens::CriticalPathSharesModel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>Thread</source>
        <translation>线程</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
</context>
<context>
    <name>bpflens::DetailsPane</name>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Event details</source>
        <translation>事件详情</translation>
    </message>
    <message>
        <source>No event selected</source>
        <translation>未选择事件</translation>
    </message>
    <message>
        <source>Stack frames</source>
        <translation>栈帧</translation>
    </message>
    <message>
        <source>Waker&apos;s stack frames</source>
        <translation>唤醒者的栈帧</translation>
    </message>
    <message>
        <source>Its wakeup was not seen (preempted, or lost).</source>
        <translation>未观察到它的唤醒（被抢占或丢失）。</translation>
    </message>
    <message>
        <source>Woken from an interrupt (%1), whose stack was:</source>
        <translation>由中断（%1）唤醒，其调用栈为：</translation>
    </message>
    <message>
        <source>Woken by %1 (PID %2, TID %3), whose stack was:</source>
        <translation>由 %1（PID %2，TID %3）唤醒，其调用栈为：</translation>
    </message>
    <message>
        <source>No wakeup seen ended this wait (it lasted past the recording, or its wakeup was not seen).</source>
        <translation>没有观察到结束此等待的唤醒（等待持续到录制结束之后，或其唤醒未被观察到）。</translation>
    </message>
</context>
<context>
    <name>bpflens::EventDiffModel</name>
    <message>
        <source>Baseline</source>
        <translation>基准</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Relative</source>
        <translation>相对</translation>
    </message>
    <message>
        <source>These events have no value in this dimension.</source>
        <translation>这些事件在此维度中没有值。</translation>
    </message>
    <message>
        <source>No event of either session has a value in this dimension.</source>
        <translation>两个会话中都没有事件在此维度中有值。</translation>
    </message>
    <message>
        <source>The %1 busiest of %2 values, by the larger of the two counts.</source>
        <translation>%2 个值中最多的 %1 个，按两个计数中较大者排序。</translation>
    </message>
    <message>
        <source>Events / %1</source>
        <translation>事件 / %1</translation>
    </message>
</context>
<context>
    <name>bpflens::EventTableModel</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>PPID</source>
        <translation>PPID</translation>
    </message>
    <message>
        <source>UID</source>
        <translation>UID</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Return</source>
        <translation>返回值</translation>
    </message>
    <message>
        <source>File name</source>
        <translation>文件名</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>TID</source>
        <translation>TID</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>标志</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>模式</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Sector</source>
        <translation>扇区</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源地址</translation>
    </message>
    <message>
        <source>Destination</source>
        <translation>目标地址</translation>
    </message>
    <message>
        <source>File system</source>
        <translation>文件系统</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>偏移</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>%1 ns</source>
        <translation>%1 ns</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Wall clock (UTC)</source>
        <translation>挂钟时间（UTC）</translation>
    </message>
    <message>
        <source>Timestamp (ns)</source>
        <translation>时间戳（ns）</translation>
    </message>
    <message>
        <source>Parent PID</source>
        <translation>父进程 PID</translation>
    </message>
    <message>
        <source>argv[%1]</source>
        <translation>argv[%1]</translation>
    </message>
    <message>
        <source>Arguments truncated</source>
        <translation>参数已截断</translation>
    </message>
    <message>
        <source>Cgroup ID</source>
        <translation>控制组 ID</translation>
    </message>
    <message>
        <source>Cgroup path</source>
        <translation>控制组路径</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>单元</translation>
    </message>
    <message>
        <source>Container</source>
        <translation>容器</translation>
    </message>
    <message>
        <source>Kubernetes pod</source>
        <translation>Kubernetes Pod</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Command flags</source>
        <translation>命令标志</translation>
    </message>
    <message>
        <source>Queue time</source>
        <translation>排队时间</translation>
    </message>
    <message>
        <source>Device time</source>
        <translation>设备时间</translation>
    </message>
    <message>
        <source>Issued at</source>
        <translation>下发时间</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>地址族</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Off-CPU time</source>
        <translation>离开 CPU 的时间</translation>
    </message>
    <message>
        <source>Stack</source>
        <translation>栈</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Local</source>
        <translation>本地</translation>
    </message>
    <message>
        <source>Remote</source>
        <translation>远端</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Queue limit</source>
        <translation>队列上限</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>已发送</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>已接收</translation>
    </message>
    <message>
        <source>Lifetime</source>
        <translation>生命周期</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Time of day</source>
        <translation>时刻</translation>
    </message>
    <message>
        <source>Argument</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>String</source>
        <translation>字符串</translation>
    </message>
    <message>
        <source>Blocked in</source>
        <translation>阻塞于</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>%1
in %2</source>
        <translation>%1
位于 %2</translation>
    </message>
    <message>
        <source>Stack id</source>
        <translation>栈 ID</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Woken by</source>
        <translation>唤醒者</translation>
    </message>
    <message>
        <source>Waker PID</source>
        <translation>唤醒者 PID</translation>
    </message>
    <message>
        <source>Waker TID</source>
        <translation>唤醒者 TID</translation>
    </message>
    <message>
        <source>Woken at (ns)</source>
        <translation>唤醒时刻 (ns)</translation>
    </message>
    <message>
        <source>Wakeup to running</source>
        <translation>从唤醒到运行</translation>
    </message>
    <message>
        <source>Waker stack</source>
        <translation>唤醒者调用栈</translation>
    </message>
    <message>
        <source>Woken from</source>
        <translation>唤醒于</translation>
    </message>
    <message>
        <source>Waker stack id</source>
        <translation>唤醒者栈 ID</translation>
    </message>
    <message>
        <source>cgroup %1, not named by the recording</source>
        <translation>cgroup %1，录制未能命名</translation>
    </message>
    <message>
        <source>%1 container %2
in %3</source>
        <translation>%1 容器 %2
位于 %3</translation>
    </message>
    <message>
        <source>Constraint</source>
        <translation>约束</translation>
    </message>
    <message>
        <source>RSS</source>
        <translation>RSS</translation>
    </message>
    <message>
        <source>Total VM</source>
        <translation>虚拟内存总量</translation>
    </message>
    <message>
        <source>Anonymous RSS</source>
        <translation>匿名 RSS</translation>
    </message>
    <message>
        <source>File RSS</source>
        <translation>文件 RSS</translation>
    </message>
    <message>
        <source>Shmem RSS</source>
        <translation>共享内存 RSS</translation>
    </message>
    <message>
        <source>Page tables</source>
        <translation>页表</translation>
    </message>
    <message>
        <source>oom_score_adj</source>
        <translation>oom_score_adj</translation>
    </message>
    <message>
        <source>Triggered by</source>
        <translation>触发者</translation>
    </message>
    <message>
        <source>Trigger PID</source>
        <translation>触发者 PID</translation>
    </message>
    <message>
        <source>Trigger TID</source>
        <translation>触发者 TID</translation>
    </message>
    <message>
        <source>Pages reclaimed</source>
        <translation>回收页数</translation>
    </message>
    <message>
        <source>Major</source>
        <translation>主要缺页</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>Allocated in</source>
        <translation>分配位置</translation>
    </message>
</context>
<context>
    <name>bpflens::ExplainModel</name>
    <message>
        <source>CPU function</source>
        <translation>CPU 函数</translation>
    </message>
    <message>
        <source>Activate to filter every view to %1</source>
        <translation>激活以将所有视图过滤为 %1</translation>
    </message>
    <message>
        <source>The filter bar cannot select by %1</source>
        <translation>过滤栏无法按%1筛选</translation>
    </message>
    <message>
        <source>%1% (%2 of %3)</source>
        <translation>%1%（%3 中的 %2）</translation>
    </message>
    <message>
        <source>only inside</source>
        <translation>仅在范围内</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>What</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>In the range</source>
        <translation>范围内</translation>
    </message>
    <message>
        <source>Outside</source>
        <translation>范围外</translation>
    </message>
    <message>
        <source>More common</source>
        <translation>更常见</translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %Ln event(s) in the range</source>
        <translation>
            <numerusform>范围内 %Ln 个事件中的 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %Ln event(s) outside the range</source>
        <translation>
            <numerusform>范围外 %Ln 个事件中的 %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ExplainPage</name>
    <message>
        <source>Over-represented in the range</source>
        <translation>范围内占比过高</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>No events. Open a session or record one, zoom into a spike in the timeline and see what is special about it.</source>
        <translation>没有事件。请打开或录制一个会话，在时间线中放大到一个尖峰，看看它有何特别之处。</translation>
    </message>
    <message>
        <source>Zoom into a spike in the timeline (Shift+drag across it) or select heatmap cells: this tab then lists the processes, files, disks and functions that are more common there than in the rest of the recording.</source>
        <translation>在时间线中放大到一个尖峰（按住 Shift 拖过它）或选择热图单元格：此标签页随后列出在该处比录制其余部分更常见的进程、文件、磁盘和函数。</translation>
    </message>
    <message>
        <source>No events in the visible range pass the filter. Zoom out or change the filter.</source>
        <translation>可见范围内没有事件通过过滤。请缩小或更改过滤条件。</translation>
    </message>
    <message>
        <source>The heatmap selection: %1 events from %2 to %3 with a latency of %4 – %5: %6 inside, %7 outside. Most over-represented first:</source>
        <translation>热图选区：%2 至 %3 之间延迟为 %4 – %5 的 %1 事件：范围内 %6 个，范围外 %7 个。最突出的在前：</translation>
    </message>
    <message>
        <source>Nothing is more common in the visible range than in the rest of the recording with at least %1 events and %2 % of the range&apos;s events.</source>
        <translation>在可见范围内，没有任何至少有 %1 个事件且占该范围事件 %2 % 的值比在录制的其余部分更常见。</translation>
    </message>
    <message numerus="yes">
        <source>%1 to %2: %Ln event(s) with the selected latency inside, %3 outside. Most over-represented first:</source>
        <translation>
            <numerusform>%1 至 %2：范围内 %Ln 个具有所选延迟的事件，范围外 %3 个。占比过高最多的排在前面：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 to %2: %Ln event(s) inside, %3 outside. Most over-represented first:</source>
        <translation>
            <numerusform>%1 至 %2：范围内 %Ln 个事件，范围外 %3 个。占比过高最多的排在前面：</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ExportController</name>
    <message>
        <source>&amp;Export CSV</source>
        <translation>导出 CSV(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Whole Session…</source>
        <translation>整个会话(&amp;W)…</translation>
    </message>
    <message>
        <source>&amp;Visible Time Range…</source>
        <translation>可见时间范围(&amp;V)…</translation>
    </message>
    <message>
        <source>One &amp;Probe…</source>
        <translation>单个探针(&amp;P)…</translation>
    </message>
    <message>
        <source>Export &amp;Chart as Image…</source>
        <translation>将图表导出为图片(&amp;C)…</translation>
    </message>
    <message>
        <source>Export One Probe</source>
        <translation>导出单个探针</translation>
    </message>
    <message>
        <source>Probe:</source>
        <translation>探针：</translation>
    </message>
    <message>
        <source>Export CSV Into</source>
        <translation>将 CSV 导出到</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n file(s) to %1</source>
        <translation>
            <numerusform>已将 %n 个文件导出到 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>there is no chart to export</source>
        <translation>没有可导出的图表</translation>
    </message>
    <message>
        <source>Exported by BPF Lens</source>
        <translation>由 BPF Lens 导出</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Export Chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG 图片 (*.png);;SVG 图片 (*.svg)</translation>
    </message>
    <message>
        <source>%1 has no image format BPF Lens can write: end the name with .png or .svg</source>
        <translation>%1 没有 BPF Lens 能写入的图像格式：文件名请以 .png 或 .svg 结尾</translation>
    </message>
    <message>
        <source>Export &amp;Trace…</source>
        <translation>导出跟踪(&amp;T)…</translation>
    </message>
    <message>
        <source>The session as a trace for Perfetto UI and chrome://tracing</source>
        <translation>将会话导出为 Perfetto UI 和 chrome://tracing 可打开的跟踪</translation>
    </message>
    <message>
        <source>Export Trace</source>
        <translation>导出跟踪</translation>
    </message>
    <message>
        <source>Trace Event JSON (*.json)</source>
        <translation>Trace Event JSON (*.json)</translation>
    </message>
    <message>
        <source>Exported the trace to %1</source>
        <translation>已将跟踪导出到 %1</translation>
    </message>
    <message>
        <source>Latency heatmap: %1</source>
        <translation>延迟热图：%1</translation>
    </message>
    <message>
        <source>Histograms</source>
        <translation>直方图</translation>
    </message>
    <message>
        <source>live recording</source>
        <translation>正在进行的录制</translation>
    </message>
    <message>
        <source>%1 — %2 — %3 to %4</source>
        <translation>%1 — %2 — %3 至 %4</translation>
    </message>
    <message>
        <source>Export &amp;pprof Profile</source>
        <translation>导出 &amp;pprof 剖析文件</translation>
    </message>
    <message>
        <source>&amp;On-CPU Samples…</source>
        <translation>On-CPU 样本(&amp;O)…</translation>
    </message>
    <message>
        <source>O&amp;ff-CPU Waits…</source>
        <translation>Off-CPU 等待(&amp;F)…</translation>
    </message>
    <message>
        <source>The profile of the visible time range under the filter, for go tool pprof, Parca and Pyroscope</source>
        <translation>可见时间范围内经过滤后的剖析数据，供 go tool pprof、Parca 和 Pyroscope 使用</translation>
    </message>
    <message>
        <source>Export pprof Profile</source>
        <translation>导出 pprof 剖析文件</translation>
    </message>
    <message>
        <source>pprof profile (*.pb.gz)</source>
        <translation>pprof 剖析文件 (*.pb.gz)</translation>
    </message>
    <message>
        <source>Exported the profile to %1</source>
        <translation>已将剖析文件导出到 %1</translation>
    </message>
    <message>
        <source>Export Off-&amp;Wake Stacks…</source>
        <translation>导出唤醒等待调用栈(&amp;W)…</translation>
    </message>
    <message>
        <source>The off-wake flame graph&apos;s stacks of the visible time range under the filter, folded for flamegraph.pl and speedscope</source>
        <translation>可见时间范围内、经过滤的唤醒等待火焰图调用栈，折叠格式，供 flamegraph.pl 和 speedscope 使用</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export Off-Wake Stacks</source>
        <translation>导出唤醒等待调用栈</translation>
    </message>
    <message>
        <source>Folded stacks (*.folded *.txt)</source>
        <translation>折叠调用栈 (*.folded *.txt)</translation>
    </message>
    <message>
        <source>Exported the off-wake stacks to %1</source>
        <translation>已将唤醒等待调用栈导出到 %1</translation>
    </message>
</context>
<context>
    <name>bpflens::FlameGraphView</name>
    <message>
        <source>Flame graph</source>
        <translation>火焰图</translation>
    </message>
    <message>
        <source>Call stacks as boxes as wide as their share of the samples. Click a box to zoom into it, Backspace zooms out, Escape resets.</source>
        <translation>调用栈显示为方框，宽度与其采样占比相同。点击方框可放大，Backspace 缩小，Escape 重置。</translation>
    </message>
    <message>
        <source>all off-CPU time</source>
        <translation>全部离开 CPU 的时间</translation>
    </message>
    <message>
        <source>all samples</source>
        <translation>全部采样</translation>
    </message>
    <message>
        <source>%1: %2 of off-CPU time (%3)</source>
        <translation>%1：占离开 CPU 时间的 %2（%3）</translation>
    </message>
    <message>
        <source>%1: %2 of samples</source>
        <translation>%1：占采样的 %2</translation>
    </message>
    <message>
        <source>%1 small functions</source>
        <translation>%1 个小函数</translation>
    </message>
    <message>
        <source>No samples</source>
        <translation>没有采样</translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s)</source>
        <translation>
            <numerusform>%n 个采样</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1：%2（%3）</translation>
    </message>
    <message>
        <source>%1 small functions, each narrower than %2 pixels, merged</source>
        <translation>已合并 %1 个小函数，每个窄于 %2 像素</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>总计</translation>
    </message>
    <message>
        <source>Click the caller to zoom in</source>
        <translation>点击调用者以放大</translation>
    </message>
    <message>
        <source>Truncated stacks: the unwinder did not reach the thread&apos;s first frame, so the callers of these samples are unknown.</source>
        <translation>截断的栈：栈展开未能到达线程的第一帧，因此这些采样的调用者未知。</translation>
    </message>
    <message>
        <source>Kernel: %1</source>
        <translation>内核：%1</translation>
    </message>
    <message>
        <source>User: %1</source>
        <translation>用户：%1</translation>
    </message>
    <message>
        <source>unknown module</source>
        <translation>未知模块</translation>
    </message>
    <message>
        <source>Self</source>
        <translation>自身</translation>
    </message>
    <message>
        <source>Self samples</source>
        <translation>自身采样</translation>
    </message>
    <message>
        <source>Total samples</source>
        <translation>总采样</translation>
    </message>
    <message>
        <source>Below: the blocked threads&apos; stacks. Above: the stacks of the threads that woke them, the frame that woke them first.</source>
        <translation>下方：被阻塞线程的调用栈。上方：唤醒它们的线程的调用栈，执行唤醒的帧在最前。</translation>
    </message>
    <message>
        <source>Waits whose wakeup was not seen (a preempted thread, or a wakeup lost to a full map)</source>
        <translation>未观察到唤醒的等待（被抢占的线程，或因映射表已满而丢失的唤醒）</translation>
    </message>
    <message>
        <source>The waker&apos;s command</source>
        <translation>唤醒者的命令</translation>
    </message>
    <message>
        <source>The blocked thread&apos;s command</source>
        <translation>被阻塞线程的命令</translation>
    </message>
    <message>
        <source>Waker&apos;s frame: the thread that woke the blocked one was here</source>
        <translation>唤醒者的帧：唤醒被阻塞线程的线程曾在此处</translation>
    </message>
    <message>
        <source>Blocked thread&apos;s frame</source>
        <translation>被阻塞线程的帧</translation>
    </message>
    <message>
        <source>Ended %1 of off-CPU time (%2)</source>
        <translation>结束了 %1 的离开 CPU 时间（%2）</translation>
    </message>
    <message>
        <source>all page faults</source>
        <translation>全部缺页异常</translation>
    </message>
    <message>
        <source>%1: %2 of page faults</source>
        <translation>%1：占缺页异常的 %2</translation>
    </message>
    <message numerus="yes">
        <source>%n page fault(s)</source>
        <translation>
            <numerusform>%n 次缺页异常</numerusform>
        </translation>
    </message>
    <message>
        <source>all memory in use</source>
        <translation>全部占用内存</translation>
    </message>
    <message>
        <source>%1: %2 of memory in use (%3)</source>
        <translation>%1：占用内存的 %2（%3）</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message numerus="yes">
        <source>Sampled: each recorded allocation stands for %Ln allocation(s)</source>
        <translation>
            <numerusform>采样：每次记录的分配代表 %Ln 次分配</numerusform>
        </translation>
    </message>
    <message>
        <source>Oldest block: allocated %1 before the range&apos;s end</source>
        <translation>最早的内存块：在范围结束前 %1 分配</translation>
    </message>
</context>
<context>
    <name>bpflens::HeatmapModel</name>
    <message>
        <source>%1 (histogram)</source>
        <translation>%1（直方图）</translation>
    </message>
    <message>
        <source>%1 — %2 (histogram)</source>
        <translation>%1 — %2（直方图）</translation>
    </message>
</context>
<context>
    <name>bpflens::HeatmapView</name>
    <message>
        <source>%1 ns</source>
        <translation>%1 ns</translation>
    </message>
    <message>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Latency heatmap</source>
        <translation>延迟热图</translation>
    </message>
    <message>
        <source>time since the session start</source>
        <translation>自会话开始的时间</translation>
    </message>
    <message>
        <source>count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>Histogram of the selection</source>
        <translation>所选内容的直方图</translation>
    </message>
    <message>
        <source>Click a cell or drag a rectangle to select events.</source>
        <translation>单击单元格或拖出矩形以选择事件。</translation>
    </message>
    <message>
        <source>&amp;Latency of:</source>
        <translation>延迟来源(&amp;L)：</translation>
    </message>
    <message>
        <source>Heatmap source</source>
        <translation>热图数据源</translation>
    </message>
    <message>
        <source>Colour &amp;scale:</source>
        <translation>颜色刻度(&amp;S)：</translation>
    </message>
    <message>
        <source>Logarithmic</source>
        <translation>对数</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>线性</translation>
    </message>
    <message>
        <source>Colour scale</source>
        <translation>颜色刻度</translation>
    </message>
    <message>
        <source>&amp;Clear selection</source>
        <translation>清除选择(&amp;C)</translation>
    </message>
    <message>
        <source>events: %1</source>
        <translation>事件：%1</translation>
    </message>
    <message>
        <source>samples: %1</source>
        <translation>样本：%1</translation>
    </message>
    <message>
        <source>%1 – %2
latency %3 – %4
%5</source>
        <translation>%1 – %2
延迟 %3 – %4
%5</translation>
    </message>
    <message>
        <source>Events with a latency in the visible range: %1.</source>
        <translation>可见范围内带延迟的事件：%1。</translation>
    </message>
    <message>
        <source>Samples in the visible range: %1.</source>
        <translation>可见范围内的样本：%1。</translation>
    </message>
    <message>
        <source>Hover a cell for its counts; click a cell or drag a rectangle to select.</source>
        <translation>悬停单元格查看计数；单击单元格或拖出矩形进行选择。</translation>
    </message>
    <message>
        <source>Selected: %1 – %2, latency %3 – %4: %5</source>
        <translation>已选择：%1 – %2，延迟 %3 – %4：%5</translation>
    </message>
    <message>
        <source>This session holds no events with a latency and no latency histograms.</source>
        <translation>此会话不包含带延迟的事件，也没有延迟直方图。</translation>
    </message>
    <message>
        <source>No events with a latency in this range</source>
        <translation>此范围内没有带延迟的事件</translation>
    </message>
    <message>
        <source>No histogram samples in this range</source>
        <translation>此范围内没有直方图样本</translation>
    </message>
    <message>
        <source>Explain…</source>
        <translation>解释…</translation>
    </message>
    <message>
        <source>Events per latency bucket</source>
        <translation>每个延迟区间的事件数</translation>
    </message>
    <message>
        <source>Samples per latency bucket</source>
        <translation>每个延迟区间的样本数</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>延迟</translation>
    </message>
    <message>
        <source>What is more common among the selected events than among the events of the same type and latencies in the rest of the recording</source>
        <translation>所选事件中比录制其余部分中同类型、同延迟的事件更常见的内容</translation>
    </message>
    <message>
        <source>Histogram samples have no processes, files or disks to explain: select a source with events (such as Block I/O)</source>
        <translation>直方图样本没有可解释的进程、文件或磁盘：请选择带事件的数据源（例如块 I/O）</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source> · p50 in %1 · p99 in %2</source>
        <translation> · p50 位于 %1 · p99 位于 %2</translation>
    </message>
</context>
<context>
    <name>bpflens::HelpController</name>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>文档(&amp;D)</translation>
    </message>
    <message>
        <source>How to record, read the views and use the command line</source>
        <translation>如何录制、阅读各视图以及使用命令行</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>&amp;About BPF Lens</source>
        <translation>关于 BPF Lens(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>BPF Lens Documentation</source>
        <translation>BPF Lens 文档</translation>
    </message>
    <message>
        <source>Topics</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Timeline &gt; Zoom around the pointer</source>
        <translation>时间线 &gt; 围绕指针缩放</translation>
    </message>
    <message>
        <source>Wheel, + and -</source>
        <translation>滚轮、+ 和 -</translation>
    </message>
    <message>
        <source>Timeline &gt; Move the visible range</source>
        <translation>时间线 &gt; 移动可见范围</translation>
    </message>
    <message>
        <source>Drag</source>
        <translation>拖动</translation>
    </message>
    <message>
        <source>Timeline &gt; Zoom to a range</source>
        <translation>时间线 &gt; 缩放到某一范围</translation>
    </message>
    <message>
        <source>Shift+Drag</source>
        <translation>Shift+拖动</translation>
    </message>
    <message>
        <source>Timeline &gt; Show everything</source>
        <translation>时间线 &gt; 显示全部</translation>
    </message>
    <message>
        <source>Home</source>
        <translation>Home</translation>
    </message>
    <message>
        <source>Timeline &gt; Select an event</source>
        <translation>时间线 &gt; 选择事件</translation>
    </message>
    <message>
        <source>Click</source>
        <translation>单击</translation>
    </message>
    <message>
        <source>About BPF Lens</source>
        <translation>关于 BPF Lens</translation>
    </message>
    <message>
        <source>&lt;h3&gt;BPF Lens %1&lt;/h3&gt;&lt;p&gt;A desktop profiler for Linux: the BCC and libbpf-tools probes, recorded through a privileged helper and explored in timelines, histograms, heatmaps and flame graphs.&lt;/p&gt;&lt;p&gt;Built with Qt %2, running on Qt %3.&lt;/p&gt;&lt;p&gt;License: GPL-2.0-or-later; the eBPF programs: GPL-2.0.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;BPF Lens %1&lt;/h3&gt;&lt;p&gt;一款 Linux 桌面性能分析器：BCC 与 libbpf-tools 的探针，经由特权助手录制，并在时间线、直方图、热图和火焰图中探索。&lt;/p&gt;&lt;p&gt;使用 Qt %2 构建，运行于 Qt %3。&lt;/p&gt;&lt;p&gt;许可证：GPL-2.0-or-later；eBPF 程序：GPL-2.0。&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>bpflens::HelperRecorder</name>
    <message>
        <source>There is no system D-Bus (%1), so the BPF Lens helper cannot be reached. Start the system bus (as root: &lt;code&gt;systemctl start dbus&lt;/code&gt;), or run BPF Lens as root to record without the helper.</source>
        <translation>没有系统 D-Bus（%1），因此无法连接 BPF Lens 辅助程序。请启动系统总线（以 root 身份：&lt;code&gt;systemctl start dbus&lt;/code&gt;），或以 root 身份运行 BPF Lens，无需辅助程序即可录制。</translation>
    </message>
    <message>
        <source>A recording is already running.</source>
        <translation>已有录制正在进行。</translation>
    </message>
    <message>
        <source>Waiting for authorisation…</source>
        <translation>正在等待授权…</translation>
    </message>
    <message>
        <source>The previous recording is still finishing.</source>
        <translation>上一次录制仍在结束中。</translation>
    </message>
    <message>
        <source>Cannot create the recording pipe: %1</source>
        <translation>无法创建录制管道：%1</translation>
    </message>
    <message>
        <source>Cannot run %1: %2</source>
        <translation>无法运行 %1：%2</translation>
    </message>
    <message>
        <source>Recording cancelled before it started.</source>
        <translation>录制在开始前已取消。</translation>
    </message>
    <message>
        <source>The helper ended the recording (%1) without finishing its stream.</source>
        <translation>辅助程序结束了录制（%1），但未正常结束其数据流。</translation>
    </message>
    <message>
        <source>The recorder (%1) ended without finishing the recording: %2</source>
        <translation>录制程序（%1）在未完成录制的情况下退出：%2</translation>
    </message>
    <message>
        <source>The helper stopped sending the recording without ending it (did it crash?): %1</source>
        <translation>辅助程序停止发送录制数据且未正常结束（是否已崩溃？）：%1</translation>
    </message>
    <message>
        <source>The helper refused the probe settings: %1</source>
        <translation>辅助程序拒绝了探针设置：%1</translation>
    </message>
    <message>
        <source>The helper is busy: %1. Stop one of your other recordings and try again.</source>
        <translation>辅助程序正忙：%1。请停止您的其他某个录制后重试。</translation>
    </message>
    <message>
        <source>The kernel refused a probe: %1</source>
        <translation>内核拒绝了一个探针：%1</translation>
    </message>
    <message>
        <source>bpflens-helper is not installed: install BPF Lens as root with cmake --install (configured with -DCMAKE_INSTALL_PREFIX=/usr), which installs the helper, its D-Bus service and the polkit policy.</source>
        <translation>未安装 bpflens-helper：请以 root 身份用 cmake --install 安装 BPF Lens（配置时使用 -DCMAKE_INSTALL_PREFIX=/usr），它会安装辅助程序、其 D-Bus 服务和 polkit 策略。</translation>
    </message>
    <message>
        <source>bpflens-helper is installed but could not be started: %1</source>
        <translation>bpflens-helper 已安装，但无法启动：%1</translation>
    </message>
    <message>
        <source>The helper did not answer: %1</source>
        <translation>辅助程序没有响应：%1</translation>
    </message>
    <message>
        <source>The connection to the system D-Bus is gone: %1</source>
        <translation>与系统 D-Bus 的连接已断开：%1</translation>
    </message>
    <message>
        <source>The helper reported an error (%1): %2</source>
        <translation>辅助程序报告了错误（%1）：%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;You are not allowed to record:&lt;/b&gt; polkit refused the action %1. Ask an administrator to allow it, for example with a rule for your group in &lt;code&gt;/etc/polkit-1/rules.d&lt;/code&gt;.</source>
        <translation>&lt;b&gt;您无权录制：&lt;/b&gt;polkit 拒绝了操作 %1。请管理员允许它，例如在 &lt;code&gt;/etc/polkit-1/rules.d&lt;/code&gt; 中为您的用户组添加规则。</translation>
    </message>
    <message>
        <source>You are not allowed to record: polkit refused the action %1. Ask an administrator to allow it, for example with a rule for your group in /etc/polkit-1/rules.d.</source>
        <translation>您无权录制：polkit 拒绝了操作 %1。请管理员允许它，例如在 /etc/polkit-1/rules.d 中为您的用户组添加规则。</translation>
    </message>
    <message>
        <source>The BPF Lens helper is no longer running, and the system bus did not start it again. Press Record to try again.</source>
        <translation>BPF Lens 助手已不再运行，系统总线也没有重新启动它。请按“录制”重试。</translation>
    </message>
</context>
<context>
    <name>bpflens::HistogramView</name>
    <message>
        <source>&amp;Show:</source>
        <translation>显示(&amp;S)：</translation>
    </message>
    <message>
        <source>Cumulative over the visible range</source>
        <translation>可见范围内累计</translation>
    </message>
    <message>
        <source>Last interval in the visible range</source>
        <translation>可见范围内的最后一个间隔</translation>
    </message>
    <message>
        <source>Histogram mode</source>
        <translation>直方图模式</translation>
    </message>
    <message>
        <source>%1 %2: %3 (%4 %)</source>
        <translation>%1 %2：%3（%4 %）</translation>
    </message>
    <message>
        <source>count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>Histogram %1 %2</source>
        <translation>直方图 %1 %2</translation>
    </message>
    <message>
        <source>This session holds no histograms.</source>
        <translation>此会话不含直方图。</translation>
    </message>
    <message>
        <source>no samples in the visible range</source>
        <translation>可见范围内没有样本</translation>
    </message>
    <message>
        <source>&amp;Log scale</source>
        <translation>对数刻度(&amp;L)</translation>
    </message>
    <message>
        <source>Counts on a logarithmic axis: a few slow requests show beside thousands of fast ones</source>
        <translation>计数使用对数坐标轴：少量慢请求也能与成千上万的快请求一同显示</translation>
    </message>
    <message>
        <source>count (log)</source>
        <translation>计数（对数）</translation>
    </message>
    <message>
        <source>%1–%2</source>
        <translation>%1–%2</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>p50 in %1 · p99 in %2 (darker bars) · 1 sample</source>
        <translation>p50 位于 %1 · p99 位于 %2（深色柱）· 1 个样本</translation>
    </message>
    <message numerus="yes">
        <source>p50 in %1 · p99 in %2 (darker bars) · %Ln samples</source>
        <translation>
            <numerusform>p50 位于 %1 · p99 位于 %2（深色柱）· %Ln 个样本</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::IoStackView</name>
    <message>
        <source>s</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <source>ns</source>
        <translation>ns</translation>
    </message>
    <message>
        <source>I/O stack</source>
        <translation>I/O 栈</translation>
    </message>
    <message>
        <source>No I/O stack data in this session: record the I/O stack breakdown (iostack) probe to see where read, write, open and fsync spend their time.</source>
        <translation>此会话中没有 I/O 栈数据：请使用“I/O 栈分解”（iostack）探针录制，以查看 read、write、open 和 fsync 的时间花在了哪里。</translation>
    </message>
    <message>
        <source>Exclusive time per layer and operation</source>
        <translation>各层、各操作的独占时间</translation>
    </message>
    <message>
        <source>&amp;Operation over time:</source>
        <translation>随时间变化的操作(&amp;O)：</translation>
    </message>
    <message>
        <source>Operation shown over time</source>
        <translation>随时间显示的操作</translation>
    </message>
    <message>
        <source>Exclusive time per layer over time</source>
        <translation>各层独占时间随时间的变化</translation>
    </message>
    <message>
        <source>Syscall</source>
        <translation>系统调用</translation>
    </message>
    <message>
        <source>VFS</source>
        <translation>VFS</translation>
    </message>
    <message>
        <source>File system</source>
        <translation>文件系统</translation>
    </message>
    <message>
        <source>Block queue</source>
        <translation>块设备队列</translation>
    </message>
    <message>
        <source>Block device</source>
        <translation>块设备</translation>
    </message>
    <message>
        <source>unattributed block I/O</source>
        <translation>未归属的块 I/O</translation>
    </message>
    <message>
        <source>%1 · %2: not measured on the recording kernel (its time is counted in the layer above)</source>
        <translation>%1 · %2：录制时的内核无法测量（其时间计入上一层）</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %2: %3 exclusive (%4 % of %5), %n call(s)</source>
        <translation>
            <numerusform>%1 · %2：独占 %3（占 %5 的 %4 %），%n 次调用</numerusform>
        </translation>
    </message>
    <message>
        <source>Not measured on the recording kernel: %1. Their time is counted in the layer above (they need fentry or kprobes).</source>
        <translation>录制时的内核无法测量：%1。其时间计入上一层（需要 fentry 或 kprobes）。</translation>
    </message>
    <message>
        <source>Block queue time is part of the layer above: record with the &quot;Include queue time&quot; option to see it separately.</source>
        <translation>块设备队列时间包含在上一层中：请启用“包含排队时间”选项录制，以单独查看。</translation>
    </message>
    <message>
        <source>%1 (not measured)</source>
        <translation>%1（未测量）</translation>
    </message>
    <message>
        <source>exclusive time (%1)</source>
        <translation>独占时间（%1）</translation>
    </message>
    <message>
        <source>Exclusive time per layer, visible range</source>
        <translation>各层独占时间（可见范围）</translation>
    </message>
    <message>
        <source>%1: no samples in the visible range</source>
        <translation>%1：可见范围内没有样本</translation>
    </message>
    <message>
        <source>%1 · %2 until %3 s: %4 (%5 %)</source>
        <translation>%1 · %2，截至 %3 秒：%4（%5 %）</translation>
    </message>
    <message>
        <source>seconds (interval end)</source>
        <translation>秒（间隔结束）</translation>
    </message>
    <message>
        <source>%1: exclusive time per layer over time</source>
        <translation>%1：各层独占时间随时间的变化</translation>
    </message>
</context>
<context>
    <name>bpflens::LatencySpinBox</name>
    <message>
        <source>%1 µs</source>
        <extracomment>Keep &quot;µs&quot; (or &quot;us&quot;): the text is read back as a latency, with its unit.</extracomment>
        <translation>%1 µs</translation>
    </message>
</context>
<context>
    <name>bpflens::LatencyStatsModel</name>
    <message>
        <source>Probe</source>
        <translation>探针</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>平均</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p90</source>
        <translation>p90</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>p99.9</source>
        <translation>p99.9</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
</context>
<context>
    <name>bpflens::MainWindow</name>
    <message>
        <source>BPF Lens</source>
        <translation>BPF Lens</translation>
    </message>
    <message>
        <source>Recording unavailable</source>
        <translation>无法录制</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Zoom</source>
        <translation>缩放(&amp;Z)</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>录制中</translation>
    </message>
    <message>
        <source>&amp;Recording</source>
        <translation>录制(&amp;R)</translation>
    </message>
    <message>
        <source>Unsaved recording</source>
        <translation>未保存的录制</translation>
    </message>
    <message>
        <source>%1[*] — BPF Lens</source>
        <translation>%1[*] — BPF Lens</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recording is not available.&lt;/b&gt; %1&lt;br&gt;Saved sessions can still be opened.</source>
        <translation>&lt;b&gt;无法录制。&lt;/b&gt;%1&lt;br&gt;仍可打开已保存的会话。</translation>
    </message>
    <message>
        <source>Recording problem</source>
        <translation>录制问题</translation>
    </message>
    <message>
        <source>Damaged session</source>
        <translation>会话已损坏</translation>
    </message>
    <message>
        <source>Hide this message</source>
        <translation>隐藏此消息</translation>
    </message>
    <message>
        <source>&lt;b&gt;This file is damaged&lt;/b&gt; (%1). Everything that could be read is shown; this was lost:&lt;ul&gt;%2&lt;/ul&gt;Save As writes what was read into a new, intact file.</source>
        <translation>&lt;b&gt;此文件已损坏&lt;/b&gt;（%1）。已显示所有可读取的内容；丢失的内容如下：&lt;ul&gt;%2&lt;/ul&gt;“另存为”会将已读取的内容写入一个新的完整文件。</translation>
    </message>
    <message>
        <source>Time of &amp;Day in Tables</source>
        <translation>表格中显示时刻(&amp;D)</translation>
    </message>
    <message>
        <source>Recording: waiting for the first data from the probes…</source>
        <translation>正在录制：等待探针的首批数据…</translation>
    </message>
    <message>
        <source>Recording on %1</source>
        <translation>正在 %1 上录制</translation>
    </message>
    <message>
        <source>%1 (recorded on %2)</source>
        <translation>%1（录制于 %2）</translation>
    </message>
    <message>
        <source>Unsaved recording on %1</source>
        <translation>%1 上未保存的录制</translation>
    </message>
    <message>
        <source>&amp;New Recording…</source>
        <translation>新建录制(&amp;N)…</translation>
    </message>
    <message>
        <source>Choose the probes to record and their options</source>
        <translation>选择要录制的探针及其选项</translation>
    </message>
    <message>
        <source>No data yet. Choose probes with New Recording and press Record, or open a session with File &gt; Open.</source>
        <translation>尚无数据。通过“新建录制”选择探针并点击“录制”，或通过“文件 &gt; 打开”打开会话。</translation>
    </message>
</context>
<context>
    <name>bpflens::MemoryPage</name>
    <message>
        <source>Top stacks of memory in use</source>
        <translation>占用内存最多的栈</translation>
    </message>
    <message>
        <source>Stacks holding memory</source>
        <translation>占用内存的栈</translation>
    </message>
    <message>
        <source>Stack frames</source>
        <translation>栈帧</translation>
    </message>
    <message numerus="yes">
        <source>In use at the range&apos;s end: %1 in %Ln block(s)</source>
        <translation>
            <numerusform>范围结束时占用：%1，共 %Ln 个内存块</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln stack(s)</source>
        <translation>
            <numerusform>%Ln 个栈</numerusform>
        </translation>
    </message>
    <message>
        <source>each event standing for %1 allocations</source>
        <translation>每个事件代表 %1 次分配</translation>
    </message>
    <message>
        <source>The blocks allocated in the visible range and not freed by its end, by the stack that allocated them. Over the whole recording: every block never freed while it was recorded. Zoom the range to two moments to see what grew between them.</source>
        <translation>在可见范围内分配且到范围结束时仍未释放的内存块，按分配它们的栈列出。整个录制：录制期间从未释放的每个内存块。将范围缩放到两个时刻之间，可查看其间增长了什么。</translation>
    </message>
    <message numerus="yes">
        <source>Allocated in the range: %1 in %Ln block(s)</source>
        <translation>
            <numerusform>范围内分配：%1，共 %Ln 个内存块</numerusform>
        </translation>
    </message>
    <message>
        <source>No allocations in this session.

Record a running process with the memleak probe to see which call stacks hold its memory.</source>
        <translation>此会话中没有内存分配。

使用 memleak 探针录制一个正在运行的进程，即可查看哪些调用栈占用了它的内存。</translation>
    </message>
    <message numerus="yes">
        <source>Every block allocated in this range was freed by its end (%Ln block(s), %1).</source>
        <translation>
            <numerusform>此范围内分配的每个内存块都在范围结束前释放了（%Ln 个内存块，%1）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Only the blocks still allocated at the range&apos;s end count: move its end later, or zoom out (Ctrl+0 shows the whole session).</source>
        <translation>只统计范围结束时仍被占用的内存块：将范围结束点后移，或缩小视图（Ctrl+0 显示整个会话）。</translation>
    </message>
    <message>
        <source>Zoom out on the timeline or clear the PID and command filters.</source>
        <translation>在时间线上缩小视图，或清除 PID 和命令过滤器。</translation>
    </message>
    <message>
        <source>Zoom out on the timeline (Ctrl+0 shows the whole session).</source>
        <translation>在时间线上缩小视图（Ctrl+0 显示整个会话）。</translation>
    </message>
    <message>
        <source>No allocations in this range.</source>
        <translation>此范围内没有内存分配。</translation>
    </message>
</context>
<context>
    <name>bpflens::MemoryStackModel</name>
    <message numerus="yes">
        <source>%1 in %Ln allocation(s) from this stack</source>
        <translation>
            <numerusform>%1，来自此栈的 %Ln 次分配</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 in %Ln allocation(s) from this stack, the oldest allocated %2 before the range&apos;s end</source>
        <translation>
            <numerusform>%1，来自此栈的 %Ln 次分配，最早的一次在范围结束前 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>The function that called the allocator: the stack&apos;s first frame</source>
        <translation>调用分配器的函数：栈的第一帧</translation>
    </message>
    <message>
        <source>Bytes allocated from this stack in the range and not freed by its end</source>
        <translation>此栈在范围内分配且到范围结束时仍未释放的字节</translation>
    </message>
    <message>
        <source>Blocks allocated from this stack in the range and not freed by its end</source>
        <translation>此栈在范围内分配且到范围结束时仍未释放的内存块</translation>
    </message>
    <message>
        <source>How long before the range&apos;s end the oldest of these blocks was allocated: how long a leak has been growing</source>
        <translation>这些内存块中最早的一个在范围结束前多久分配：泄漏已增长了多久</translation>
    </message>
    <message>
        <source>Allocated in</source>
        <translation>分配位置</translation>
    </message>
    <message>
        <source>In use</source>
        <translation>占用</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>内存块</translation>
    </message>
    <message>
        <source>Oldest</source>
        <translation>最早</translation>
    </message>
    <message>
        <source>Where in it, where the program&apos;s debug information says</source>
        <translation>在该函数中的位置（如程序的调试信息所示）</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源代码</translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewCostModel</name>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>CPU samples</source>
        <translation>CPU 采样</translation>
    </message>
    <message>
        <source>Off-CPU time</source>
        <translation>离开 CPU 的时间</translation>
    </message>
    <message>
        <source>Block I/O time</source>
        <translation>块 I/O 时间</translation>
    </message>
    <message>
        <source>Opens</source>
        <translation>打开次数</translation>
    </message>
    <message>
        <source>Connects</source>
        <translation>连接次数</translation>
    </message>
    <message>
        <source>%1 is part of BPF Lens: its own cost while recording</source>
        <translation>%1 属于 BPF Lens：这是录制本身的开销</translation>
    </message>
    <message>
        <source>Activate to filter every view to this process</source>
        <translation>激活以将所有视图筛选到此进程</translation>
    </message>
    <message>
        <source>%1 (BPF Lens)</source>
        <translation>%1（BPF Lens）</translation>
    </message>
    <message>
        <source>Of every CPU sample in the range, idle ones included</source>
        <translation>占范围内全部 CPU 采样的比例（含空闲）</translation>
    </message>
    <message>
        <source>Of the whole %1 in the range</source>
        <translation>占范围内全部“%1”的比例</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewFindingModel</name>
    <message numerus="yes">
        <source>%1 lost %Ln event(s): its buffer was full</source>
        <translation>
            <numerusform>%1 丢失了 %Ln 个事件：其缓冲区已满</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %Ln event(s) at %2–%3 s, %4× the usual rate</source>
        <extracomment>A burst of events: &quot;Block I/O: 870 events at 4.2–4.8 s, 12× the usual rate&quot;</extracomment>
        <translation>
            <numerusform>%1：%2–%3 秒出现 %Ln 个事件，是平常速率的 %4 倍</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %Ln failed with %2</source>
        <extracomment>&quot;Open: 1,234 failed with ENOENT&quot;</extracomment>
        <translation>
            <numerusform>%1：%Ln 次以 %2 失败</numerusform>
        </translation>
    </message>
    <message>
        <source>Run-queue latency p99 is %1, p50 %2: some threads waited far longer for a CPU</source>
        <translation>运行队列延迟 p99 为 %1，p50 为 %2：部分线程等待 CPU 的时间长得多</translation>
    </message>
    <message>
        <source>Show the events</source>
        <translation>显示事件</translation>
    </message>
    <message>
        <source>Explain the burst</source>
        <translation>解释这次突发</translation>
    </message>
    <message>
        <source>Show the histogram</source>
        <translation>显示直方图</translation>
    </message>
    <message>
        <source>%1 of the burst&apos;s events (%2 of %3); %4 elsewhere (%5 of %6)</source>
        <translation>占突发事件的 %1（%3 个中的 %2 个）；其他时间占 %4（%6 个中的 %5 个）</translation>
    </message>
    <message>
        <source>%1 of %2 in the visible range, %3 of them by BPF Lens&apos; own processes</source>
        <translation>可见范围内 %2 个中的 %1 个，其中 %3 个来自 BPF Lens 自身的进程</translation>
    </message>
    <message>
        <source>%1 of %2 in the visible range</source>
        <translation>可见范围内 %2 个中的 %1 个</translation>
    </message>
    <message>
        <source>Worth a look</source>
        <translation>值得一看</translation>
    </message>
    <message>
        <source>Shown in</source>
        <translation>显示于</translation>
    </message>
    <message>
        <source>%1 — %2 %3: %4 of them</source>
        <extracomment>&quot;… — Process 700 dd: 94 % of them&quot;</extracomment>
        <translation>%1 — %2 %3：占其中 %4</translation>
    </message>
    <message>
        <source>%1. To lose fewer: %2</source>
        <extracomment>&quot;pagefault lost 26,861 events: its buffer was full. To lose fewer: record one fault in N (every=N), …&quot;</extracomment>
        <translation>%1。要减少丢失：%2</translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewMemoryModel</name>
    <message numerus="yes">
        <source>%1 in %Ln allocation(s) from this stack, the oldest allocated %2 before the range&apos;s end</source>
        <translation>
            <numerusform>%1，来自此栈的 %Ln 次分配，最早的一次在范围结束前 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Activate to see the stacks holding memory in the Memory tab.</source>
        <translation>激活可在“内存”选项卡中查看占用内存的栈。</translation>
    </message>
    <message>
        <source>The blocks allocated in the visible range and not freed by its end, as the Memory tab&apos;s flame graph and top stacks sum them.</source>
        <translation>在可见范围内分配且到范围结束时仍未释放的内存块，与“内存”选项卡的火焰图和栈排行的统计方式相同。</translation>
    </message>
    <message>
        <source>The most the recorded blocks held at once in the range, whenever they were allocated.</source>
        <translation>范围内已录制的内存块同时占用的最大值，无论它们何时分配。</translation>
    </message>
    <message>
        <source>What the recorded blocks held at the range&apos;s end (%1) less what they held at its start (%2).</source>
        <translation>已录制的内存块在范围结束时的占用（%1）减去范围开始时的占用（%2）。</translation>
    </message>
    <message>
        <source>Every block allocated in the range, freed or not. Sampled (sampleEvery=%1): the bytes and blocks are estimates.</source>
        <translation>范围内分配的每个内存块，无论是否已释放。采样（sampleEvery=%1）：字节数和内存块数为估计值。</translation>
    </message>
    <message>
        <source>Every block allocated in the range, freed or not.</source>
        <translation>范围内分配的每个内存块，无论是否已释放。</translation>
    </message>
    <message>
        <source>Allocated in %1</source>
        <translation>分配于 %1</translation>
    </message>
    <message>
        <source>In use at the end</source>
        <translation>结束时占用</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Growth over the range</source>
        <translation>范围内增长</translation>
    </message>
    <message>
        <source>Allocated in the range</source>
        <translation>范围内分配</translation>
    </message>
    <message numerus="yes">
        <source>%1 in %Ln block(s), the oldest %2 old</source>
        <translation>
            <numerusform>%1，共 %Ln 个内存块，最早的已存在 %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 in %Ln block(s) from %2</source>
        <translation>
            <numerusform>%1，共 %Ln 个内存块，来自 %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln stack(s)</source>
        <translation>
            <numerusform>%Ln 个栈</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 at %2 s</source>
        <translation>%1，于 %2 秒</translation>
    </message>
    <message numerus="yes">
        <source>%1 in %Ln block(s)</source>
        <translation>
            <numerusform>%1，共 %Ln 个内存块</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewPage</name>
    <message>
        <source>Show BPF Lens&apos; own processes</source>
        <translation>显示 BPF Lens 自身的进程</translation>
    </message>
    <message>
        <source>bpflens, bpflens-cli, bpflens-helper and bpflens-symbolizer record and symbolise: their cost is the recording&apos;s, not the system&apos;s. They are left out of the top lists unless this is ticked.</source>
        <translation>bpflens、bpflens-cli、bpflens-helper 和 bpflens-symbolizer 负责录制和符号化：它们的开销属于录制本身，而不是被观察的系统。除非勾选此项，否则排行榜中不包含它们。</translation>
    </message>
    <message>
        <source>Worth a look</source>
        <translation>值得一看</translation>
    </message>
    <message>
        <source>Top processes</source>
        <translation>排名靠前的进程</translation>
    </message>
    <message>
        <source>Probes</source>
        <translation>探针</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>No session yet: record one, or open a .bpflens file.</source>
        <translation>尚无会话：请录制一个，或打开一个 .bpflens 文件。</translation>
    </message>
    <message>
        <source>Nothing stands out: no lost events, no bursts, no failed calls and no long run-queue waits.</source>
        <translation>没有异常：没有丢失的事件、没有突发、没有失败的调用，也没有长时间的运行队列等待。</translation>
    </message>
    <message>
        <source>No CPU samples, off-CPU, block I/O, open or connect events. Record with the profile, offcpu, block, open or tcpconnect probes to rank processes by them.</source>
        <translation>没有 CPU 采样、离开 CPU、块 I/O、打开或连接事件。使用 profile、offcpu、block、open 或 tcpconnect 探针录制，即可按这些指标为进程排名。</translation>
    </message>
    <message numerus="yes">
        <source>%1–%2 s: %Ln event(s)</source>
        <translation>
            <numerusform>%1–%2 秒：%Ln 个事件</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1–%2 s: %Ln event(s) pass the filter</source>
        <translation>
            <numerusform>%1–%2 秒：%Ln 个事件通过筛选</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) lost</source>
        <translation>
            <numerusform>丢失 %Ln 个事件</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 not seen</source>
        <translation>%1 未见</translation>
    </message>
    <message>
        <source>Not seen: %1</source>
        <translation>未见：%1</translation>
    </message>
    <message>
        <source>%1 unfinished</source>
        <translation>%1 未完成</translation>
    </message>
    <message>
        <source>Unfinished: %1</source>
        <translation>未完成：%1</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewProbeModel</name>
    <message>
        <source>ns</source>
        <translation>ns</translation>
    </message>
    <message>
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>KiB</translation>
    </message>
    <message>
        <source>%1–%2</source>
        <translation>%1–%2</translation>
    </message>
    <message>
        <source>%1–%2 %3</source>
        <translation>%1–%2 %3</translation>
    </message>
    <message>
        <source>Events the kernel had no room for: the ring buffer (or a map that follows a request) was full. The tables and the timeline miss them; histograms are counted in the kernel and are complete.</source>
        <translation>内核没有空间容纳的事件：环形缓冲区（或跟踪请求的映射）已满。表格和时间线中缺少它们；直方图在内核中计数，是完整的。</translation>
    </message>
    <message>
        <source>Events that could not be made because the kernel did not run the probe&apos;s program for one of their stages (a block request whose completion was never seen). No buffer was full.</source>
        <translation>因内核未对其某个阶段运行探针程序而无法生成的事件（从未看到完成的块请求）。没有缓冲区已满。</translation>
    </message>
    <message>
        <source>Requests seen starting and still open when the probe stopped: in flight at the stop, or ended without the kernel running the completion program. They have no event.</source>
        <translation>已看到开始、在探针停止时仍未结束的请求：停止时仍在进行中，或在内核未运行完成程序的情况下结束。它们没有事件。</translation>
    </message>
    <message>
        <source>%1 lost</source>
        <translation>丢失 %1</translation>
    </message>
    <message>
        <source>%1 not seen</source>
        <translation>%1 未见</translation>
    </message>
    <message>
        <source>%1 unfinished</source>
        <translation>%1 未完成</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>The session has no counters of this probe.</source>
        <translation>此会话没有该探针的计数器。</translation>
    </message>
    <message>
        <source>%1 lost: %2</source>
        <translation>%1 丢失：%2</translation>
    </message>
    <message>
        <source>%1 not seen: %2</source>
        <translation>%1 未见：%2</translation>
    </message>
    <message>
        <source>%1 unfinished: %2</source>
        <translation>%1 未完成：%2</translation>
    </message>
    <message>
        <source>Nothing was lost.</source>
        <translation>没有丢失任何事件。</translation>
    </message>
    <message>
        <source>The histograms of this probe are of stages of the same requests: see the I/O Stack tab.</source>
        <translation>该探针的直方图是同一批请求的各个阶段：请查看“I/O 栈”选项卡。</translation>
    </message>
    <message>
        <source>Counted in the kernel into log2 buckets: the bucket the value falls in, not the value.</source>
        <translation>在内核中按 log2 桶计数：显示的是值所在的桶，而不是值本身。</translation>
    </message>
    <message>
        <source>This probe counts into histograms in the kernel and records no single events.</source>
        <translation>该探针在内核中计入直方图，不记录单个事件。</translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s)</source>
        <translation>
            <numerusform>%Ln 个事件</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <comment>samples in intervals</comment>
        <extracomment>&quot;1,234 samples in 10 intervals&quot;</extracomment>
        <translation>%2中的 %1</translation>
    </message>
    <message numerus="yes">
        <source>%Ln sample(s)</source>
        <translation>
            <numerusform>%Ln 个样本</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln interval(s)</source>
        <translation>
            <numerusform>%Ln 个区间</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>counters of %Ln interval(s)</source>
        <translation>
            <numerusform>%Ln 个区间的计数器</numerusform>
        </translation>
    </message>
    <message>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>not counted</source>
        <translation>未计数</translation>
    </message>
    <message>
        <source>Over the whole recording. Only &quot;lost&quot; means a full buffer.</source>
        <translation>针对整个录制。只有“丢失”表示缓冲区已满。</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>探针</translation>
    </message>
    <message>
        <source>In the range</source>
        <translation>范围内</translation>
    </message>
    <message>
        <source>p50</source>
        <translation>p50</translation>
    </message>
    <message>
        <source>p99</source>
        <translation>p99</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大</translation>
    </message>
    <message>
        <source>Missing</source>
        <translation>缺失</translation>
    </message>
</context>
<context>
    <name>bpflens::PercentileDiffModel</name>
    <message>
        <source>new</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>%1%2%</source>
        <translation>%1%2%</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>直方图</translation>
    </message>
    <message>
        <source>Percentile</source>
        <translation>百分位数</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>基准</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Relative</source>
        <translation>相对</translation>
    </message>
    <message numerus="yes">
        <source>%1: %Ln sample(s) in the baseline, %2 in the comparison</source>
        <translation>
            <numerusform>%1：基准中 %Ln 个样本，对比中 %2 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ProbePanel</name>
    <message>
        <source>Probes</source>
        <translation>探针</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Block I/O</source>
        <translation>块 I/O</translation>
    </message>
    <message>
        <source>I/O stack</source>
        <translation>I/O 栈</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>调度器</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>any</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Availability unknown until the helper answers.</source>
        <translation>在辅助程序响应之前，可用性未知。</translation>
    </message>
    <message>
        <source>available</source>
        <translation>可用</translation>
    </message>
    <message>
        <source>Available on this kernel.</source>
        <translation>在此内核上可用。</translation>
    </message>
    <message>
        <source>Attaches to %1</source>
        <translation>挂载到 %1</translation>
    </message>
    <message>
        <source>not available</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>Not available on this kernel: %1</source>
        <translation>在此内核上不可用：%1</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>未给出原因</translation>
    </message>
    <message>
        <source>Invalid option: %1</source>
        <translation>选项无效：%1</translation>
    </message>
    <message>
        <source>Select at least one probe to record.</source>
        <translation>请至少选择一个要录制的探针。</translation>
    </message>
    <message>
        <source>Kernel: not known until the helper answers</source>
        <translation>内核：在辅助程序响应之前未知</translation>
    </message>
    <message>
        <source>Kernel %1</source>
        <translation>内核 %1</translation>
    </message>
    <message>
        <source>The availability below is this kernel&apos;s, as the helper sees it.</source>
        <translation>下方的可用性针对此内核，由辅助程序判定。</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>被拒绝：%1</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>partly available</source>
        <translation>部分可用</translation>
    </message>
    <message>
        <source>Limited on this kernel: %1</source>
        <translation>在此内核上受限：%1</translation>
    </message>
    <message>
        <source>Cannot probe: %1</source>
        <translation>无法探测：%1</translation>
    </message>
    <message>
        <source>no USDT probe given (BINARY:PROVIDER:NAME)</source>
        <translation>未指定 USDT 探针（BINARY:PROVIDER:NAME）</translation>
    </message>
    <message>
        <source>Remote kernel %1 on %2</source>
        <translation>%2 上的远程内核 %1</translation>
    </message>
    <message>
        <source>The availability below is the kernel of %1, as bpflens-cli there sees it, not this computer&apos;s.</source>
        <translation>下方的可用性是 %1 的内核（由那里的 bpflens-cli 检测），而非本机的。</translation>
    </message>
    <message>
        <source>None of the selected probes can run on this kernel: %1.</source>
        <translation>所选探针均无法在此内核上运行：%1。</translation>
    </message>
    <message>
        <source>None of the selected probes can run on the kernel of %1: %2.</source>
        <translation>所选探针均无法在 %1 的内核上运行：%2。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>bpflens::ProfilePage</name>
    <message>
        <source>CPU profile</source>
        <translation>CPU 剖析</translation>
    </message>
    <message>
        <source>On-CPU</source>
        <translation>CPU 上</translation>
    </message>
    <message>
        <source>Off-CPU</source>
        <translation>离开 CPU</translation>
    </message>
    <message>
        <source>Profile kind</source>
        <translation>剖析类型</translation>
    </message>
    <message>
        <source>User + kernel</source>
        <translation>用户 + 内核</translation>
    </message>
    <message>
        <source>User only</source>
        <translation>仅用户</translation>
    </message>
    <message>
        <source>Kernel only</source>
        <translation>仅内核</translation>
    </message>
    <message>
        <source>Stack frames shown</source>
        <translation>显示的栈帧</translation>
    </message>
    <message>
        <source>Root at top</source>
        <translation>根在顶部</translation>
    </message>
    <message>
        <source>Icicle graph: callers at the top, callees below</source>
        <translation>冰柱图：调用者在上，被调用者在下</translation>
    </message>
    <message>
        <source>Search functions…</source>
        <translation>搜索函数…</translation>
    </message>
    <message>
        <source>Search functions</source>
        <translation>搜索函数</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>重置缩放</translation>
    </message>
    <message>
        <source>Show all call stacks again (Escape)</source>
        <translation>重新显示所有调用栈（Escape）</translation>
    </message>
    <message>
        <source>Top-down call tree</source>
        <translation>自顶向下调用树</translation>
    </message>
    <message>
        <source>Bottom-up call tree</source>
        <translation>自底向上调用树</translation>
    </message>
    <message>
        <source>Functions</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Bottom-Up</source>
        <translation>自底向上</translation>
    </message>
    <message>
        <source>Top-Down</source>
        <translation>自顶向下</translation>
    </message>
    <message>
        <source>Every function once: self and total cost</source>
        <translation>每个函数一次：自身开销和总开销</translation>
    </message>
    <message>
        <source>The functions samples were taken in, their callers below</source>
        <translation>采样所在的函数，其调用者在下方</translation>
    </message>
    <message>
        <source>From the threads&apos; first frames down to the callees</source>
        <translation>从线程的第一帧向下到被调用者</translation>
    </message>
    <message>
        <source>user code</source>
        <translation>用户代码</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>[truncated]: the unwinder did not reach the thread&apos;s first frame</source>
        <translation>[已截断]：栈展开未能到达线程的第一帧</translation>
    </message>
    <message>
        <source>search match</source>
        <translation>搜索匹配</translation>
    </message>
    <message>
        <source>Samples in range: %1</source>
        <translation>范围内采样：%1</translation>
    </message>
    <message>
        <source>No CPU samples in this session.

Record with the profile probe to see where CPU time goes.</source>
        <translation>此会话中没有 CPU 采样。

使用 profile 探针录制，以查看 CPU 时间花在哪里。</translation>
    </message>
    <message>
        <source>No off-CPU events in this session.

Record with the offcpu probe to see where threads wait and for how long.</source>
        <translation>此会话中没有离开 CPU 的事件。

使用 offcpu 探针录制，以查看线程在哪里等待以及等待多久。</translation>
    </message>
    <message>
        <source>Zoom out on the timeline or clear the PID and command filters.</source>
        <translation>在时间线上缩小，或清除 PID 和命令筛选。</translation>
    </message>
    <message>
        <source>Zoom out on the timeline (Ctrl+0 shows the whole session).</source>
        <translation>在时间线上缩小（Ctrl+0 显示整个会话）。</translation>
    </message>
    <message>
        <source>No CPU samples in this range.</source>
        <translation>此范围内没有 CPU 采样。</translation>
    </message>
    <message>
        <source>No off-CPU time in this range.</source>
        <translation>此范围内没有离开 CPU 的时间。</translation>
    </message>
    <message>
        <source>Click a frame to zoom into it</source>
        <translation>点击帧以放大</translation>
    </message>
    <message numerus="yes">
        <source>Off-CPU time in range: %1 (%Ln wait(s))</source>
        <translation>
            <numerusform>范围内离开 CPU 的时间：%1（%Ln 次等待）</numerusform>
        </translation>
    </message>
    <message>
        <source>Off-wake</source>
        <translation>唤醒等待</translation>
    </message>
    <message>
        <source>woken by: the blocked stack ends below</source>
        <translation>唤醒来源：被阻塞的调用栈在其下方结束</translation>
    </message>
    <message>
        <source>waker</source>
        <translation>唤醒者</translation>
    </message>
    <message>
        <source>Off-wake flame graph</source>
        <translation>唤醒等待火焰图</translation>
    </message>
    <message>
        <source>Flame graph</source>
        <translation>火焰图</translation>
    </message>
    <message>
        <source>No off-wake waits in this session.

Record with the offwake probe to see who woke the waiting threads.</source>
        <translation>此会话中没有唤醒等待。

使用 offwake 探针录制，即可查看是谁唤醒了等待的线程。</translation>
    </message>
    <message>
        <source>No off-wake waits in this range.</source>
        <translation>此范围内没有唤醒等待。</translation>
    </message>
    <message numerus="yes">
        <source>Off-wake time in range: %1 (%Ln wait(s))</source>
        <translation>
            <numerusform>范围内的唤醒等待时间：%1（%Ln 次等待）</numerusform>
        </translation>
    </message>
    <message>
        <source>Page faults</source>
        <translation>缺页异常</translation>
    </message>
    <message>
        <source>Page faults in range: %1</source>
        <translation>范围内的缺页异常：%1</translation>
    </message>
    <message>
        <source>No page faults in this session.

Record with the pagefault probe to see where processes fault their memory in.</source>
        <translation>此会话中没有缺页异常。

使用 pagefault 探针录制，以查看进程在何处调入内存。</translation>
    </message>
    <message>
        <source>No page faults in this range.</source>
        <translation>此范围内没有缺页异常。</translation>
    </message>
    <message>
        <source>Memory in use</source>
        <translation>占用内存</translation>
    </message>
    <message>
        <source>No allocations in this session.

Record a running process with the memleak probe to see which call stacks hold its memory.</source>
        <translation>此会话中没有内存分配。

用 memleak 探针记录一个运行中的进程，即可看到哪些调用栈占用了它的内存。</translation>
    </message>
    <message numerus="yes">
        <source>Every block allocated in this range was freed by its end (%Ln block(s), %1).</source>
        <translation>
            <numerusform>此范围内分配的内存块到范围结束时均已释放（%Ln 个内存块，%1）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Only the blocks still allocated at the range&apos;s end count: move its end later, or zoom out (Ctrl+0 shows the whole session).</source>
        <translation>只统计到范围结束时仍被占用的内存块：把范围的结束位置后移，或缩小视图（Ctrl+0 显示整个会话）。</translation>
    </message>
    <message>
        <source>No allocations in this range.</source>
        <translation>此范围内没有内存分配。</translation>
    </message>
    <message numerus="yes">
        <source>In use: %1 in %Ln block(s), each event standing for %2 allocations</source>
        <translation>
            <numerusform>占用：%1，共 %Ln 个内存块，每个事件代表 %2 次分配</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>In use: %1 in %Ln block(s)</source>
        <translation>
            <numerusform>占用：%1，共 %Ln 个内存块</numerusform>
        </translation>
    </message>
    <message>
        <source>The blocks allocated in the visible range and not freed by its end. Over the whole recording: every block never freed while it was recorded. Zoom the range to two moments to see what grew between them.</source>
        <translation>在可见范围内分配、到范围结束时仍未释放的内存块。整个记录范围内：记录期间从未释放的每个内存块。将范围缩放到两个时刻之间，即可看到其间增长了什么。</translation>
    </message>
    <message numerus="yes">
        <source>Allocated in the range: %1 in %Ln block(s)</source>
        <translation>
            <numerusform>范围内分配：%1，共 %Ln 个内存块</numerusform>
        </translation>
    </message>
    <message>
        <source>Sampled (sampleEvery=%1): each recorded allocation stands for %1, so the bytes and blocks are estimates.</source>
        <translation>采样（sampleEvery=%1）：每次记录的分配代表 %1 次，因此字节数和内存块数均为估计值。</translation>
    </message>
    <message>
        <source>On-CPU: where the CPUs were running, one sample per tick.
Off-CPU: where threads blocked, weighted by the time they waited.
Off-wake (offwake probe): each blocked stack with the stack of the thread that woke it on top.
Page faults (pagefault probe): where processes faulted their memory in, weighted by faults.</source>
        <translation>On-CPU：CPU 在哪里运行，每个时钟节拍一个样本。
Off-CPU：线程在哪里阻塞，按等待时间加权。
Off-wake（offwake 探针）：每个阻塞的栈，其上叠加唤醒它的线程的栈。
缺页（pagefault 探针）：进程在哪里将内存调入，按缺页次数加权。</translation>
    </message>
</context>
<context>
    <name>bpflens::ProfileText</name>
    <message>
        <source>[truncated]</source>
        <translation>[已截断]</translation>
    </message>
    <message>
        <source>[no stack]</source>
        <translation>[无栈]</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>woken by</source>
        <translation>唤醒来源</translation>
    </message>
    <message>
        <source>[waker not seen]</source>
        <translation>[未见唤醒者]</translation>
    </message>
    <message>
        <source>[unknown]</source>
        <translation>[未知]</translation>
    </message>
</context>
<context>
    <name>bpflens::QueryPage</name>
    <message>
        <source>SQL query</source>
        <translation>SQL 查询</translation>
    </message>
    <message>
        <source>Tables and columns</source>
        <translation>表和列</translation>
    </message>
    <message>
        <source>Double-click a table or column to insert its name</source>
        <translation>双击表或列以插入其名称</translation>
    </message>
    <message>
        <source>SQL statement</source>
        <translation>SQL 语句</translation>
    </message>
    <message>
        <source>SELECT … FROM exec</source>
        <translation>SELECT … FROM exec</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Run the statement (Ctrl+Return)</source>
        <translation>运行语句（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the running statement</source>
        <translation>停止正在运行的语句</translation>
    </message>
    <message>
        <source>&amp;Export CSV…</source>
        <translation>导出 CSV(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the rows shown as a CSV file</source>
        <translation>将显示的行保存为 CSV 文件</translation>
    </message>
    <message>
        <source>Export Query Result</source>
        <translation>导出查询结果</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message numerus="yes">
        <source>Saved %Ln rows to %1</source>
        <translation>
            <numerusform>已将 %Ln 行保存到 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot export: %1</source>
        <translation>无法导出：%1</translation>
    </message>
    <message>
        <source>Query result</source>
        <translation>查询结果</translation>
    </message>
    <message>
        <source>This session cannot be queried: %1</source>
        <translation>无法查询此会话：%1</translation>
    </message>
    <message>
        <source>Open a session to query its events with SQL.</source>
        <translation>打开一个会话，即可用 SQL 查询其事件。</translation>
    </message>
    <message>
        <source>SQL queries become available once the recording is saved (File &gt; Save).</source>
        <translation>录制保存后即可使用 SQL 查询（文件 &gt; 保存）。</translation>
    </message>
    <message>
        <source>Event tables</source>
        <translation>事件表</translation>
    </message>
    <message>
        <source>Other virtual tables</source>
        <translation>其他虚拟表</translation>
    </message>
    <message>
        <source>Tables of the file</source>
        <translation>文件中的表</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>正在运行…</translation>
    </message>
    <message>
        <source>Cancelled after %1 ms: %2</source>
        <translation>已在 %1 ms 后取消：%2</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message numerus="yes">
        <source>First %Ln rows shown (the result has more), in %1 ms</source>
        <translation>
            <numerusform>显示前 %Ln 行（结果还有更多），用时 %1 ms</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln rows in %1 ms</source>
        <translation>
            <numerusform>%Ln 行，用时 %1 ms</numerusform>
        </translation>
    </message>
    <message>
        <source>Ctrl+Return runs the statement.</source>
        <translation>按 Ctrl+Return 运行语句。</translation>
    </message>
</context>
<context>
    <name>bpflens::RecordPage</name>
    <message>
        <source>&lt;b&gt;New recording&lt;/b&gt;</source>
        <translation>&lt;b&gt;新建录制&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Tick the probes to run and set their options, then Record. The views fill while it runs; Stop ends it.</source>
        <translation>勾选要运行的探针并设置其选项，然后点击录制。录制期间视图会实时填充；点击停止结束录制。</translation>
    </message>
    <message>
        <source>Back to the Session</source>
        <translation>返回会话</translation>
    </message>
</context>
<context>
    <name>bpflens::RecordingController</name>
    <message>
        <source>The BPF Lens helper (bpflens-helper) is not installed or not reachable on the system D-Bus. To record, install it as root with &lt;code&gt;cmake --install build/release&lt;/code&gt;: it installs bpflens-helper, its D-Bus service and the polkit policy that lets you record without being root. Then start BPF Lens again.</source>
        <translation>BPF Lens 辅助程序（bpflens-helper）未安装，或在系统 D-Bus 上无法访问。如需录制，请以 root 身份运行 &lt;code&gt;cmake --install build/release&lt;/code&gt; 进行安装：它会安装 bpflens-helper、其 D-Bus 服务以及让您无需 root 即可录制的 polkit 策略。然后重新启动 BPF Lens。</translation>
    </message>
    <message>
        <source>&amp;Record</source>
        <translation>录制(&amp;R)</translation>
    </message>
    <message>
        <source>Record the selected probes (Ctrl+R)</source>
        <translation>录制所选探针（Ctrl+R）</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Stop the recording (Ctrl+.)</source>
        <translation>停止录制（Ctrl+.）</translation>
    </message>
    <message>
        <source>CPU time the probes&apos; BPF programs took, per second of recording (100 % = one CPU)</source>
        <translation>探针的 BPF 程序每录制一秒所用的 CPU 时间（100 % = 一个 CPU）</translation>
    </message>
    <message>
        <source>Cannot record</source>
        <translation>无法录制</translation>
    </message>
    <message>
        <source>Starting the recording…</source>
        <translation>正在开始录制…</translation>
    </message>
    <message>
        <source>Recording cancelled</source>
        <translation>录制已取消</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>录制中</translation>
    </message>
    <message>
        <source>Recording failed</source>
        <translation>录制失败</translation>
    </message>
    <message>
        <source>%1

The data recorded until then is kept.</source>
        <translation>%1

此前录制的数据已保留。</translation>
    </message>
    <message>
        <source>● Recording %1</source>
        <translation>● 录制中 %1</translation>
    </message>
    <message>
        <source>Duration %1</source>
        <translation>时长 %1</translation>
    </message>
    <message>
        <source>%1 events/s</source>
        <translation>%1 事件/秒</translation>
    </message>
    <message>
        <source>%1 lost</source>
        <translation>丢失 %1</translation>
    </message>
    <message>
        <source>No events were lost.</source>
        <translation>没有丢失事件。</translation>
    </message>
    <message>
        <source>probes %1 % CPU</source>
        <translation>探针 CPU %1 %</translation>
    </message>
    <message>
        <source>%1 lost: %2</source>
        <translation>%1 丢失：%2</translation>
    </message>
    <message>
        <source>%1 not seen</source>
        <translation>%1 未见</translation>
    </message>
    <message>
        <source>%1 not seen: %2</source>
        <translation>%1 未见：%2</translation>
    </message>
    <message>
        <source>%1 unfinished</source>
        <translation>%1 未完成</translation>
    </message>
    <message>
        <source>%1 unfinished: %2</source>
        <translation>%1 未完成：%2</translation>
    </message>
    <message>
        <source>Stopping the recording…</source>
        <translation>正在停止录制…</translation>
    </message>
    <message>
        <source>Recording on %1</source>
        <translation>正在 %1 上录制</translation>
    </message>
    <message>
        <source>● Recording on %1 %2</source>
        <translation>● 正在 %1 上录制 %2</translation>
    </message>
    <message>
        <source>Recorded on %1 · duration %2</source>
        <translation>录制于 %1 · 时长 %2</translation>
    </message>
    <message>
        <source>%1 via %2</source>
        <translation>%1（经由 %2）</translation>
    </message>
    <message>
        <source>Recording without %1: this kernel cannot run them</source>
        <translation>正在录制，不含 %1：此内核无法运行它们</translation>
    </message>
    <message>
        <source>Recording on %1 without %2: its kernel cannot run them</source>
        <translation>正在 %1 上录制，不含 %2：其内核无法运行它们</translation>
    </message>
</context>
<context>
    <name>bpflens::RemoteHostController</name>
    <message>
        <source>Record on &amp;Host…</source>
        <translation>在主机上录制…(&amp;H)</translation>
    </message>
    <message>
        <source>Rec&amp;ent Hosts</source>
        <translation>最近的主机(&amp;E)</translation>
    </message>
    <message>
        <source>Record on This &amp;Computer</source>
        <translation>在本机录制(&amp;C)</translation>
    </message>
</context>
<context>
    <name>bpflens::RemoteHostDialog</name>
    <message>
        <source>Record on Host</source>
        <translation>在主机上录制</translation>
    </message>
    <message>
        <source>BPF Lens connects with &lt;b&gt;ssh&lt;/b&gt;, using your SSH configuration, keys and agent, and runs &lt;b&gt;bpflens-cli&lt;/b&gt; on the host, which records through its own helper (or as root there). The recording appears here live.</source>
        <translation>BPF Lens 使用您的 SSH 配置、密钥和代理通过 &lt;b&gt;ssh&lt;/b&gt; 连接，并在主机上运行 &lt;b&gt;bpflens-cli&lt;/b&gt;，由其通过该主机的辅助程序（或以 root 身份）录制。录制内容会实时显示在这里。</translation>
    </message>
    <message>
        <source>user@host or user@host:port</source>
        <translation>user@host 或 user@host:port</translation>
    </message>
    <message>
        <source>Ask me whether to trust a new host key</source>
        <translation>询问是否信任新的主机密钥</translation>
    </message>
    <message>
        <source>Off: a host whose key is not in your known hosts is refused, as ssh -o StrictHostKeyChecking=yes does. On: its fingerprint is shown and the key is added only if you trust it. A changed key is refused either way.</source>
        <translation>关闭：密钥不在您的已知主机中的主机会被拒绝，如同 ssh -o StrictHostKeyChecking=yes。开启：显示其指纹，仅当您信任时才添加该密钥。已更改的密钥在两种情况下都会被拒绝。</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <source>&amp;Record</source>
        <translation>录制(&amp;R)</translation>
    </message>
    <message>
        <source>Enter a host, then Connect.</source>
        <translation>请输入主机，然后点击连接。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a host: enter user@host, host or user@host:port.</source>
        <translation>“%1”不是主机：请输入 user@host、host 或 user@host:port。</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>None of the selected probes can run there: %1.</source>
        <translation>所选探针均无法在该主机上运行：%1。</translation>
    </message>
    <message>
        <source>Selected but not recorded, as that kernel cannot run them: %1.</source>
        <translation>已选择但不会录制，因为该内核无法运行它们：%1。</translation>
    </message>
</context>
<context>
    <name>bpflens::RemoteRecorder</name>
    <message>
        <source>Connecting to &lt;b&gt;%1&lt;/b&gt;…</source>
        <translation>正在连接 &lt;b&gt;%1&lt;/b&gt;…</translation>
    </message>
    <message>
        <source>Not connected to a host: choose &lt;b&gt;Recording &amp;gt; Record on Host…&lt;/b&gt;.</source>
        <translation>未连接到主机：请选择&lt;b&gt;录制 &amp;gt; 在主机上录制…&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>ssh refused the host key of %1: it is not in your known hosts (~/.ssh/known_hosts) or does not match it. BPF Lens never accepts a host key silently: compare its fingerprint with the host&apos;s (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub there) and add it with ssh %2 in a terminal, or tick &quot;Ask me whether to trust a new host key&quot;.</source>
        <translation>ssh 拒绝了 %1 的主机密钥：它不在您的已知主机（~/.ssh/known_hosts）中或与之不符。BPF Lens 从不静默接受主机密钥：请将其指纹与该主机的指纹比较（在该主机上运行 ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub），然后在终端中用 ssh %2 添加，或勾选“询问是否信任新的主机密钥”。</translation>
    </message>
    <message>
        <source>bpflens-cli is not installed on %1 (it is not in the PATH of the login shell there). Install BPF Lens %2 on that host.</source>
        <translation>%1 上未安装 bpflens-cli（不在该处登录 shell 的 PATH 中）。请在该主机上安装 BPF Lens %2。</translation>
    </message>
    <message>
        <source>Cannot connect to %1 with %2 (exit status %3): %4</source>
        <translation>无法用 %2 连接 %1（退出状态 %3）：%4</translation>
    </message>
    <message>
        <source>ssh said nothing</source>
        <translation>ssh 没有输出</translation>
    </message>
    <message>
        <source>bpflens-cli %1 on %2 did not start (exit status %3): %4</source>
        <translation>%2 上的 bpflens-cli %1 未能启动（退出状态 %3）：%4</translation>
    </message>
    <message>
        <source>it said nothing</source>
        <translation>它没有输出</translation>
    </message>
    <message>
        <source>ssh is not installed on this computer: install the OpenSSH client (Debian: openssh-client).</source>
        <translation>本机未安装 ssh：请安装 OpenSSH 客户端（Debian：openssh-client）。</translation>
    </message>
    <message>
        <source>bpflens-cli probes --json on %1 gave no probe list</source>
        <translation>%1 上的 bpflens-cli probes --json 未返回探针列表</translation>
    </message>
    <message>
        <source>This computer has version %1: the recording may fail unless both are the same.</source>
        <translation>本机版本为 %1：除非两者相同，否则录制可能失败。</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>Cannot read ssh&apos;s output: %1</source>
        <translation>无法读取 ssh 的输出：%1</translation>
    </message>
    <message>
        <source>ssh exit status %1</source>
        <translation>ssh 退出状态 %1</translation>
    </message>
    <message>
        <source>ssh exit status %1: %2</source>
        <translation>ssh 退出状态 %1：%2</translation>
    </message>
    <message>
        <source>The connection to %1 was lost after %2 s (%3). Everything received until then is kept.</source>
        <translation>与 %1 的连接在 %2 秒后中断（%3）。此前收到的所有内容都已保留。</translation>
    </message>
    <message numerus="yes">
        <source>bpflens-cli %1 on %2, kernel %3: %4 of %Ln probe(s) can run there.</source>
        <translation>
            <numerusform>%2 上的 bpflens-cli %1，内核 %3：%Ln 个探针中有 %4 个可在该处运行。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ResultsPage</name>
    <message>
        <source>Views</source>
        <translation>视图</translation>
    </message>
    <message>
        <source>&amp;Overview</source>
        <translation>概览(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Histograms</source>
        <translation>直方图(&amp;H)</translation>
    </message>
    <message>
        <source>Heat&amp;map</source>
        <translation>热图(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Latency</source>
        <translation>延迟(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;CPU</source>
        <translation>CPU(&amp;C)</translation>
    </message>
    <message>
        <source>I/O &amp;Stack</source>
        <translation>I/O 栈(&amp;S)</translation>
    </message>
    <message>
        <source>Co&amp;unters</source>
        <translation>计数器(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;I/O</source>
        <translation>I/O(&amp;I)</translation>
    </message>
    <message>
        <source>&amp;Top</source>
        <translation>排行(&amp;T)</translation>
    </message>
    <message>
        <source>E&amp;xplain</source>
        <translation>解释(&amp;X)</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>查询</translation>
    </message>
    <message>
        <source>&amp;Analysis</source>
        <translation>分析(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation>事件(&amp;E)</translation>
    </message>
    <message>
        <source>Filtering…</source>
        <translation>正在筛选…</translation>
    </message>
    <message>
        <source>Event type</source>
        <translation>事件类型</translation>
    </message>
    <message>
        <source>Event t&amp;ype:</source>
        <translation>事件类型(&amp;Y)：</translation>
    </message>
    <message>
        <source>%1 events</source>
        <translation>%1 事件</translation>
    </message>
    <message>
        <source>Filter: command, path, file, disk…</source>
        <translation>过滤：命令、路径、文件、磁盘…</translation>
    </message>
    <message>
        <source>Text filter</source>
        <translation>文本过滤</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>PID filter</source>
        <translation>PID 过滤</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Command filter</source>
        <translation>命令过滤</translation>
    </message>
    <message>
        <source>any latency</source>
        <translation>任意延迟</translation>
    </message>
    <message>
        <source>Minimum latency filter</source>
        <translation>最小延迟过滤</translation>
    </message>
    <message>
        <source>Block requests and slow file operations at least this slow (type a unit: 10 ms, 1.5 s, 250 µs, 800 ns)</source>
        <translation>至少这么慢的块请求和慢文件操作（可带单位输入：10 ms、1.5 s、250 µs、800 ns）</translation>
    </message>
    <message>
        <source>Remove this filter</source>
        <translation>移除此筛选</translation>
    </message>
    <message>
        <source>File %1</source>
        <translation>文件 %1</translation>
    </message>
    <message>
        <source>Disk %1</source>
        <translation>磁盘 %1</translation>
    </message>
    <message>
        <source>Operation %1</source>
        <translation>操作 %1</translation>
    </message>
    <message>
        <source>To %1</source>
        <translation>目标 %1</translation>
    </message>
    <message>
        <source>Failed with %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>&amp;Next Tab</source>
        <translation>下一个标签页(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous Tab</source>
        <translation>上一个标签页(&amp;P)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Waiting for the first data</source>
        <translation>等待首批数据</translation>
    </message>
    <message>
        <source>No session</source>
        <translation>无会话</translation>
    </message>
    <message>
        <source>Visible: %1 s – %2 s (%3)</source>
        <translation>可见：%1 秒 – %2 秒（%3）</translation>
    </message>
    <message>
        <source>Flame &amp;Graph</source>
        <translation>火焰图(&amp;G)</translation>
    </message>
    <message>
        <source>Stac&amp;k Chart</source>
        <translation>栈图(&amp;K)</translation>
    </message>
    <message>
        <source>Container or unit filter</source>
        <translation>容器或单元筛选</translation>
    </message>
    <message>
        <source>Only the events of one container or systemd unit</source>
        <translation>仅显示一个容器或 systemd 单元的事件</translation>
    </message>
    <message>
        <source>Container %1</source>
        <translation>容器 %1</translation>
    </message>
    <message>
        <source>Every container and unit</source>
        <translation>所有容器和单元</translation>
    </message>
    <message>
        <source>Unit %1</source>
        <translation>单元 %1</translation>
    </message>
    <message>
        <source>T&amp;hreads</source>
        <translation>线程(&amp;H)</translation>
    </message>
    <message>
        <source>Top &amp;Stacks</source>
        <translation>栈排行(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Memory</source>
        <translation>内存(&amp;M)</translation>
    </message>
</context>
<context>
    <name>bpflens::SessionDocument</name>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Open Session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>BPF Lens sessions (*.bpflens);;All files (*)</source>
        <translation>BPF Lens 会话 (*.bpflens);;所有文件 (*)</translation>
    </message>
    <message>
        <source>a recording is running: stop it first</source>
        <translation>正在录制：请先停止录制</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cannot open session</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Save failed</source>
        <translation>保存失败</translation>
    </message>
    <message>
        <source>Save Session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>BPF Lens sessions (*.bpflens)</source>
        <translation>BPF Lens 会话 (*.bpflens)</translation>
    </message>
    <message>
        <source>Unsaved recording</source>
        <translation>未保存的录制</translation>
    </message>
    <message>
        <source>The recording has not been saved. Save it first?</source>
        <translation>录制尚未保存。要先保存吗？</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>A recording is running. Stop it and save what it recorded, or discard it?</source>
        <translation>录制正在进行。停止并保存已录制的内容，还是丢弃？</translation>
    </message>
    <message>
        <source>Stop and Save…</source>
        <translation>停止并保存…</translation>
    </message>
    <message>
        <source>Recording not saved</source>
        <translation>录制未保存</translation>
    </message>
    <message numerus="yes">
        <source>The recording did not stop within %n second(s). It is still stopping and keeps what it recorded; close the window again once it has stopped.</source>
        <translation>
            <numerusform>录制未在 %n 秒内停止。它仍在停止中，并保留已录制的内容；停止后请再次关闭窗口。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::StackChartView</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Stack chart</source>
        <translation>栈图</translation>
    </message>
    <message>
        <source>Call stacks over time, one band per thread, the outermost frame at the top. Wheel zooms, drag pans, Shift+wheel scrolls the threads.</source>
        <translation>调用栈随时间的变化，每个线程一条带，最外层帧在顶部。滚轮缩放，拖动平移，Shift+滚轮滚动线程。</translation>
    </message>
    <message>
        <source>[no stack]</source>
        <translation>[无栈]</translation>
    </message>
    <message>
        <source>[truncated]</source>
        <translation>[已截断]</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>位于 %1</translation>
    </message>
    <message>
        <source>%1 – %2 (%3)</source>
        <translation>%1 – %2（%3）</translation>
    </message>
    <message numerus="yes">
        <source>%Ln sample(s)</source>
        <translation>
            <numerusform>%Ln 个采样</numerusform>
        </translation>
    </message>
    <message>
        <source>off the CPU: waiting</source>
        <translation>离开 CPU：等待中</translation>
    </message>
    <message>
        <source>thread %1, PID %2</source>
        <translation>线程 %1，PID %2</translation>
    </message>
    <message>
        <source>No samples in the visible range.

Zoom out on the timeline (Ctrl+0 shows the whole session).</source>
        <translation>可见范围内没有采样。

在时间线上缩小（Ctrl+0 显示整个会话）。</translation>
    </message>
    <message>
        <source>%1
PID %2, TID %3
%4, %5</source>
        <translation>%1
PID %2，TID %3
%4，%5</translation>
    </message>
    <message numerus="yes">
        <source>%Ln off-CPU wait(s)</source>
        <translation>
            <numerusform>%Ln 次离开 CPU 的等待</numerusform>
        </translation>
    </message>
    <message>
        <source>Off-CPU waits</source>
        <translation>离开 CPU 的等待</translation>
    </message>
    <message>
        <source>Also draw where threads waited (the offcpu probe), hatched, as long as they waited</source>
        <translation>同时绘制线程等待之处（offcpu 探针），以斜线填充，长度即等待时间</translation>
    </message>
    <message>
        <source>Scroll the threads</source>
        <translation>滚动线程</translation>
    </message>
    <message>
        <source>Call stack of the selected box</source>
        <translation>所选方框的调用栈</translation>
    </message>
    <message>
        <source>Click a box to see its call stack here. The wheel zooms, dragging pans, Shift+wheel scrolls through the threads.</source>
        <translation>点击方框，在此查看其调用栈。滚轮缩放，拖动平移，Shift+滚轮在线程间滚动。</translation>
    </message>
    <message numerus="yes">
        <source>%Ln thread(s)</source>
        <translation>
            <numerusform>%Ln 个线程</numerusform>
        </translation>
    </message>
    <message>
        <source>No CPU samples in this session.

Record with the profile probe to see each thread&apos;s call stacks over time.</source>
        <translation>此会话中没有 CPU 采样。

使用 profile 探针录制，即可查看每个线程的调用栈随时间的变化。</translation>
    </message>
    <message>
        <source>This session&apos;s samples have no call stacks.

Record with the profile probe and its kernel or user stacks to see them over time.</source>
        <translation>此会话的采样没有调用栈。

使用 profile 探针及其内核栈或用户栈录制，即可查看其随时间的变化。</translation>
    </message>
    <message>
        <source>No samples of the processes the filter shows.

Clear the PID and command filters.</source>
        <translation>筛选显示的进程没有采样。

清除 PID 和命令筛选。</translation>
    </message>
    <message>
        <source>Merging the stacks…</source>
        <translation>正在合并调用栈…</translation>
    </message>
</context>
<context>
    <name>bpflens::StackFramesModel</name>
    <message>
        <source>[no stack]</source>
        <translation>[无栈]</translation>
    </message>
    <message>
        <source>[truncated: the unwinder did not reach the thread&apos;s first frame]</source>
        <translation>[已截断：回溯未到达线程的第一个帧]</translation>
    </message>
    <message>
        <source>[truncated: the kernel stack was deeper than the frames copied]</source>
        <translation>[已截断：内核栈比复制的帧更深]</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>kernel, address 0x%1</source>
        <translation>内核，地址 0x%1</translation>
    </message>
    <message>
        <source>user, offset 0x%1 in the file</source>
        <translation>用户，文件内偏移 0x%1</translation>
    </message>
    <message>
        <source>build id %1</source>
        <translation>构建 ID %1</translation>
    </message>
    <message>
        <source>The function the thread blocked in: the frames above it are the scheduler&apos;s.</source>
        <translation>线程阻塞所在的函数：其上方的帧属于调度器。</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>kernel, inlined</source>
        <translation>内核，内联</translation>
    </message>
    <message>
        <source>user, inlined</source>
        <translation>用户，内联</translation>
    </message>
    <message>
        <source>source %1, line %2</source>
        <translation>源文件 %1，第 %2 行</translation>
    </message>
    <message>
        <source>source %1</source>
        <translation>源文件 %1</translation>
    </message>
    <message>
        <source>Inlined: the compiler put this function&apos;s code into its caller, the next frame; it has no call of its own.</source>
        <translation>内联：编译器已将此函数的代码放入其调用者（下一帧）中；它没有自己的调用。</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源代码</translation>
    </message>
</context>
<context>
    <name>bpflens::StartPage</name>
    <message>
        <source>Record what the kernel sees, then zoom into every event.</source>
        <translation>录制内核所见，再放大查看每一个事件。</translation>
    </message>
    <message>
        <source>Record…</source>
        <translation>录制…</translation>
    </message>
    <message>
        <source>Open a Session…</source>
        <translation>打开会话…</translation>
    </message>
    <message>
        <source>Open the Example Recording</source>
        <translation>打开示例录制</translation>
    </message>
    <message>
        <source>Documentation</source>
        <translation>文档</translation>
    </message>
    <message>
        <source>Recent sessions</source>
        <translation>最近的会话</translation>
    </message>
    <message>
        <source>Sessions you open or save appear here.</source>
        <translation>您打开或保存的会话会显示在这里。</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Record… opens the recording page: tick the probes to run there, then Record. BPF Lens asks for permission once per recording.</source>
        <translation>“录制…”打开录制页面：在那里勾选要运行的探针，然后点击录制。BPF Lens 每次录制会请求一次授权。</translation>
    </message>
    <message>
        <source>Session files (*.bpflens) can also be dropped on the window.</source>
        <translation>也可以把会话文件（*.bpflens）拖放到窗口上。</translation>
    </message>
    <message>
        <source>Recent Sessions</source>
        <translation>最近的会话</translation>
    </message>
</context>
<context>
    <name>bpflens::StreamRecorder</name>
    <message>
        <source>No recording backend is available.</source>
        <translation>没有可用的录制后端。</translation>
    </message>
    <message>
        <source>A recording is already running.</source>
        <translation>已有录制正在进行。</translation>
    </message>
    <message>
        <source>The recording could not be started.</source>
        <translation>无法开始录制。</translation>
    </message>
    <message>
        <source>The recording stream cannot be read: %1</source>
        <translation>无法读取录制数据流：%1</translation>
    </message>
    <message>
        <source>The helper did not end the recording within %1 s; the data received so far is kept.</source>
        <translation>辅助程序未在 %1 秒内结束录制；已接收的数据已保留。</translation>
    </message>
    <message>
        <source>Recording stopped</source>
        <translation>录制已停止</translation>
    </message>
    <message>
        <source>the stream closed without an end</source>
        <translation>数据流在没有结束标记的情况下关闭</translation>
    </message>
    <message>
        <source>The recording stream broke off: %1</source>
        <translation>录制数据流中断：%1</translation>
    </message>
    <message>
        <source>The helper shut down: %1</source>
        <translation>辅助程序已退出：%1</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>未给出原因</translation>
    </message>
    <message>
        <source>The recording failed.</source>
        <translation>录制失败。</translation>
    </message>
    <message>
        <source>The recording ended: the helper lost its connection to this window</source>
        <translation>录制已结束：辅助程序与此窗口的连接已断开</translation>
    </message>
    <message>
        <source>The recording ended: its stream was closed</source>
        <translation>录制已结束：其数据流已关闭</translation>
    </message>
    <message>
        <source>The recording ended: the helper shut down</source>
        <translation>录制已结束：辅助程序已关闭</translation>
    </message>
    <message>
        <source>The recording ended with an error: %1</source>
        <translation>录制因错误而结束：%1</translation>
    </message>
</context>
<context>
    <name>bpflens::SummaryPanel</name>
    <message>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Session information</source>
        <translation>会话信息</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>探针</translation>
    </message>
    <message>
        <source>Events seen</source>
        <translation>已捕获事件</translation>
    </message>
    <message>
        <source>Attached to</source>
        <translation>挂载点</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Recorded by</source>
        <translation>录制工具</translation>
    </message>
    <message>
        <source>BPF Lens %1 (schema %2)</source>
        <translation>BPF Lens %1（架构版本 %2）</translation>
    </message>
    <message>
        <source>Started (UTC)</source>
        <translation>开始时间（UTC）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>%1 events</source>
        <translation>%1 事件</translation>
    </message>
    <message>
        <source>Histogram snapshots</source>
        <translation>直方图快照</translation>
    </message>
    <message>
        <source>Memory for events</source>
        <translation>事件占用内存</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>no data yet</source>
        <translation>尚无数据</translation>
    </message>
    <message>
        <source>Lost</source>
        <translation>丢失</translation>
    </message>
    <message>
        <source>Not seen</source>
        <translation>未见</translation>
    </message>
    <message>
        <source>Unfinished</source>
        <translation>未完成</translation>
    </message>
    <message>
        <source>defaults</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>none yet: record one, or open a .bpflens file</source>
        <translation>尚无：录制一个，或打开 .bpflens 文件</translation>
    </message>
    <message>
        <source>BPF Lens %1</source>
        <translation>BPF Lens %1</translation>
    </message>
    <message>
        <source>%1 so far (recording)</source>
        <translation>目前 %1（正在录制）</translation>
    </message>
    <message>
        <source>%1 up to the newest data (the recording was not stopped cleanly)</source>
        <translation>%1，截至最新数据（录制未正常停止）</translation>
    </message>
    <message>
        <source>%1 via %2</source>
        <translation>%1（经由 %2）</translation>
    </message>
    <message>
        <source>Session details</source>
        <translation>会话详情</translation>
    </message>
    <message>
        <source>Probe setup</source>
        <translation>探针设置</translation>
    </message>
    <message>
        <source>not saved</source>
        <translation>未保存</translation>
    </message>
    <message>
        <source>kernel %1</source>
        <translation>内核 %1</translation>
    </message>
    <message>
        <source>started %1</source>
        <translation>开始于 %1</translation>
    </message>
    <message>
        <source>The events this session holds. The kernel&apos;s own count, %1 at its last sample, is taken once a second and catches up.</source>
        <translation>本会话包含的事件。内核自己的计数（上次采样时为 %1）每秒采样一次，随后会追上。</translation>
    </message>
</context>
<context>
    <name>bpflens::Theme</name>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>Follow the &amp;Desktop</source>
        <translation>跟随桌面(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>D&amp;ark</source>
        <translation>深色(&amp;A)</translation>
    </message>
</context>
<context>
    <name>bpflens::ThreadStateView</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Thread states</source>
        <translation>线程状态</translation>
    </message>
    <message>
        <source>Each thread&apos;s state over time, one lane per thread under its process. Wheel zooms, drag pans, Shift+wheel scrolls the threads, a click selects a span.</source>
        <translation>每个线程随时间变化的状态，每个线程一条泳道，归在其进程下。滚轮缩放，拖动平移，Shift+滚轮滚动线程，单击选中一段。</translation>
    </message>
    <message>
        <source>CPU %1</source>
        <translation>CPU %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%Ln thread(s))</source>
        <translation>
            <numerusform>%1（%Ln 个线程）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 on CPU %2</source>
        <translation>%1，在 CPU %2 上</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Duration: %1</source>
        <translation>时长：%1</translation>
    </message>
    <message>
        <source>Start: %1</source>
        <translation>开始：%1</translation>
    </message>
    <message>
        <source>Blocked on CPU %1</source>
        <translation>在 CPU %1 上阻塞</translation>
    </message>
    <message>
        <source>Woken by: %1</source>
        <translation>唤醒者：%1</translation>
    </message>
    <message>
        <source>Thread %1, PID %2</source>
        <translation>线程 %1，PID %2</translation>
    </message>
    <message>
        <source>Process %1: click to fold or unfold its threads</source>
        <translation>进程 %1：单击折叠或展开其线程</translation>
    </message>
    <message>
        <source>Thread %1, PID %2: running %3</source>
        <translation>线程 %1，PID %2：运行 %3</translation>
    </message>
    <message>
        <source>Critical &amp;Path</source>
        <translation>关键路径(&amp;P)</translation>
    </message>
    <message>
        <source>What the chosen thread waited for over the visible range: its wakeups walked back through the threads that woke it</source>
        <translation>所选线程在可见范围内等待的是什么：沿着唤醒它的线程回溯其唤醒链</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>No thread states in this session. Record with the Thread states probe (threadstate) to see when each thread ran, waited for a CPU or blocked, and why.</source>
        <translation>此会话没有线程状态。使用“线程状态”探针（threadstate）录制，即可看到每个线程何时运行、何时等待 CPU、何时阻塞以及原因。</translation>
    </message>
    <message numerus="yes">
        <source>Critical path of %1 from %2 to %3: %Ln step(s).</source>
        <translation>
            <numerusform>%1 从 %2 到 %3 的关键路径：%Ln 步。</numerusform>
        </translation>
    </message>
    <message>
        <source>Click a thread&apos;s lane to choose it for the critical path.</source>
        <translation>单击某个线程的泳道，选择它来计算关键路径。</translation>
    </message>
    <message>
        <source>Thread: %1</source>
        <translation>线程：%1</translation>
    </message>
    <message>
        <source>The chain of wakeups was cut at a depth of 64.</source>
        <translation>唤醒链在深度 64 处被截断。</translation>
    </message>
</context>
<context>
    <name>bpflens::ThreadStates</name>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Runnable</source>
        <translation>可运行</translation>
    </message>
    <message>
        <source>Sleeping</source>
        <translation>睡眠</translation>
    </message>
    <message>
        <source>Uninterruptible (D)</source>
        <translation>不可中断 (D)</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>被抢占</translation>
    </message>
    <message>
        <source>woken, waiting for a CPU</source>
        <translation>已唤醒，等待 CPU</translation>
    </message>
    <message>
        <source>new thread</source>
        <translation>新线程</translation>
    </message>
    <message>
        <source>I/O</source>
        <translation>I/O</translation>
    </message>
    <message>
        <source>futex</source>
        <translation>futex</translation>
    </message>
    <message>
        <source>kernel lock</source>
        <translation>内核锁</translation>
    </message>
    <message>
        <source>sleep</source>
        <translation>休眠</translation>
    </message>
    <message>
        <source>pipe</source>
        <translation>管道</translation>
    </message>
    <message>
        <source>socket</source>
        <translation>套接字</translation>
    </message>
    <message>
        <source>poll</source>
        <translation>poll</translation>
    </message>
    <message>
        <source>page fault</source>
        <translation>缺页</translation>
    </message>
    <message>
        <source>waiting for a child</source>
        <translation>等待子进程</translation>
    </message>
    <message>
        <source>signal</source>
        <translation>信号</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>kernel thread waiting for work</source>
        <translation>内核线程等待任务</translation>
    </message>
</context>
<context>
    <name>bpflens::TimeAxis</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
</context>
<context>
    <name>bpflens::TimelineWidget</name>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Events over time, one lane per event type. Wheel or +/- zoom, drag pans, Shift+drag zooms to a range, Home resets.</source>
        <translation>随时间变化的事件，每种事件类型一条泳道。滚轮或 +/- 缩放，拖动平移，Shift+拖动缩放到某一范围，Home 键重置。</translation>
    </message>
    <message>
        <source>read</source>
        <translation>读</translation>
    </message>
    <message>
        <source>write</source>
        <translation>写</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>other (%1)</source>
        <translation>其他（%1）</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>No events in this session: its probes keep counters and histograms (see the Counters and Histograms tabs).</source>
        <translation>此会话中没有事件：其探针记录的是计数器和直方图（见“计数器”和“直方图”标签页）。</translation>
    </message>
    <message>
        <source>&amp;Explain This Range</source>
        <translation>解释此范围(&amp;E)</translation>
    </message>
    <message>
        <source>What is more common in the visible range than in the rest of the recording</source>
        <translation>可见范围内比录制其余部分更常见的内容</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
    <message numerus="yes">
        <source>%1 other processes: %Ln CPU sample(s) in view</source>
        <translation>
            <numerusform>%1 个其他进程：视图中有 %Ln 个 CPU 采样</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (PID %2): %Ln CPU sample(s) in view</source>
        <translation>
            <numerusform>%1（PID %2）：视图中有 %Ln 个 CPU 采样</numerusform>
        </translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation>峰值 %1</translation>
    </message>
    <message>
        <source>%1 (PID %2)</source>
        <translation>%1（PID %2）</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1，于 %2</translation>
    </message>
    <message>
        <source>Peak in view: %1 at %2</source>
        <translation>视图内峰值：%1，于 %2</translation>
    </message>
    <message>
        <source>Peak of the recording: %1</source>
        <translation>整个记录的峰值：%1</translation>
    </message>
    <message>
        <source>%1: memory held in the blocks it allocated while recorded</source>
        <translation>%1：记录期间其分配的内存块所占用的内存</translation>
    </message>
    <message>
        <source>memory in use</source>
        <translation>占用内存</translation>
    </message>
</context>
<context>
    <name>bpflens::TopModel</name>
    <message>
        <source>Activate to filter every view to %1</source>
        <translation>激活以将所有视图筛选为 %1</translation>
    </message>
    <message>
        <source>The filter bar cannot select by %1</source>
        <translation>筛选栏无法按%1筛选</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>磁盘</translation>
    </message>
    <message>
        <source>Destination</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Total latency</source>
        <translation>总延迟</translation>
    </message>
    <message>
        <source>p99 latency</source>
        <translation>p99 延迟</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>bpflens::TopPage</name>
    <message>
        <source>Top list of</source>
        <translation>排行对象</translation>
    </message>
    <message>
        <source>Ordered by</source>
        <translation>排序依据</translation>
    </message>
    <message>
        <source>Top:</source>
        <translation>排行：</translation>
    </message>
    <message>
        <source>by</source>
        <translation>按</translation>
    </message>
    <message>
        <source>Top list</source>
        <translation>排行榜</translation>
    </message>
    <message>
        <source>Latency statistics</source>
        <translation>延迟统计</translation>
    </message>
    <message>
        <source>&amp;Go to Max</source>
        <translation>转到最大值(&amp;G)</translation>
    </message>
    <message>
        <source>Select the slowest event of the selected row and zoom to it</source>
        <translation>选择所选行中最慢的事件并缩放到该处</translation>
    </message>
    <message>
        <source>Latency per probe and key</source>
        <translation>按探针和键统计的延迟</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>正在计算…</translation>
    </message>
    <message>
        <source>No events. Open a session or record one to see its top processes, files, disks and latencies.</source>
        <translation>没有事件。打开或录制一个会话，即可查看其排名靠前的进程、文件、磁盘和延迟。</translation>
    </message>
    <message>
        <source>No events in the visible range have a %1 or pass the filter. Zoom out or change the filter.</source>
        <translation>可见范围内没有带%1或通过筛选的事件。请缩小视图或更改筛选条件。</translation>
    </message>
    <message>
        <source>Explain…</source>
        <translation>解释…</translation>
    </message>
    <message>
        <source>What is more common in the visible range than in the rest of the recording</source>
        <translation>可见范围内比录制其余部分更常见的内容</translation>
    </message>
    <message>
        <source>Events of</source>
        <translation>事件来源</translation>
    </message>
    <message>
        <source>of</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>All probes</source>
        <translation>所有探针</translation>
    </message>
    <message>
        <source> · latencies and bytes of different probes do not add up: choose a probe to see them</source>
        <translation> · 不同探针的延迟和字节数不能相加：请选择一个探针以查看</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <comment>keys, events</comment>
        <extracomment>&quot;10 of 42 keys, 1,234 events in the visible range&quot;</extracomment>
        <translation>%1，%2</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %Ln key(s)</source>
        <translation>
            <numerusform>%Ln 个键中的 %1 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) in the visible range</source>
        <translation>
            <numerusform>可见范围内 %Ln 个事件</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Views BPF Lens sessions (*.bpflens).</source>
        <translation>查看 BPF Lens 会话（*.bpflens）。</translation>
    </message>
    <message>
        <source>Session file to open.</source>
        <translation>要打开的会话文件。</translation>
    </message>
</context>
</TS>
