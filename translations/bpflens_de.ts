<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ProbeCatalog</name>
    <message>
        <source>Process ID</source>
        <translation>Prozess-ID</translation>
    </message>
    <message>
        <source>Only this process (0: every process)</source>
        <translation>Nur dieser Prozess (0: alle Prozesse)</translation>
    </message>
    <message>
        <source>Thread ID</source>
        <translation>Thread-ID</translation>
    </message>
    <message>
        <source>Only this thread (0: every thread)</source>
        <translation>Nur dieser Thread (0: alle Threads)</translation>
    </message>
    <message>
        <source>User ID</source>
        <translation>Benutzer-ID</translation>
    </message>
    <message>
        <source>Only this user (-1: every user)</source>
        <translation>Nur dieser Benutzer (-1: alle Benutzer)</translation>
    </message>
    <message>
        <source>Command name</source>
        <translation>Befehlsname</translation>
    </message>
    <message>
        <source>Only tasks with this name (as in /proc/PID/comm, up to 15 bytes)</source>
        <translation>Nur Tasks mit diesem Namen (wie in /proc/PID/comm, bis zu 15 Bytes)</translation>
    </message>
    <message>
        <source>Cgroup</source>
        <translation>Cgroup</translation>
    </message>
    <message>
        <source>Only tasks in this cgroup v2 (a path under /sys/fs/cgroup)</source>
        <translation>Nur Tasks in dieser cgroup v2 (ein Pfad unter /sys/fs/cgroup)</translation>
    </message>
    <message>
        <source>Container</source>
        <translation>Container</translation>
    </message>
    <message>
        <source>Only tasks of this running container: its id, a prefix of it, or a Kubernetes pod&apos;s UID</source>
        <translation>Nur Tasks dieses laufenden Containers: seine ID, ein Präfix davon oder die UID eines Kubernetes-Pods</translation>
    </message>
    <message>
        <source>Systemd unit</source>
        <translation>Systemd-Unit</translation>
    </message>
    <message>
        <source>Only tasks of this running systemd unit or slice, as nginx.service or user@1000.service</source>
        <translation>Nur Tasks dieser laufenden systemd-Unit oder -Slice, etwa nginx.service oder user@1000.service</translation>
    </message>
    <message>
        <source>Interval (ms)</source>
        <translation>Intervall (ms)</translation>
    </message>
    <message>
        <source>How often histograms are snapshotted</source>
        <translation>Wie oft Histogramm-Snapshots erstellt werden</translation>
    </message>
    <message>
        <source>Units</source>
        <translation>Einheit</translation>
    </message>
    <message>
        <source>Histogram units, like biolatency -m</source>
        <translation>Einheit der Histogramme, wie biolatency -m</translation>
    </message>
    <message>
        <source>Process execution</source>
        <translation>Prozessstarts</translation>
    </message>
    <message>
        <source>Every exec with its full argument list, like execsnoop</source>
        <translation>Jeder exec mit vollständiger Argumentliste, wie execsnoop</translation>
    </message>
    <message>
        <source>Include failed execs</source>
        <translation>Fehlgeschlagene execs einbeziehen</translation>
    </message>
    <message>
        <source>Also report execs that failed, like execsnoop -x</source>
        <translation>Auch fehlgeschlagene execs melden, wie execsnoop -x</translation>
    </message>
    <message>
        <source>File opens</source>
        <translation>Dateiöffnungen</translation>
    </message>
    <message>
        <source>Every open, openat, openat2 and creat, like opensnoop</source>
        <translation>Jedes open, openat, openat2 und creat, wie opensnoop</translation>
    </message>
    <message>
        <source>Failed opens only</source>
        <translation>Nur fehlgeschlagene Öffnungen</translation>
    </message>
    <message>
        <source>Only report opens that failed, like opensnoop -x</source>
        <translation>Nur fehlgeschlagene Öffnungen melden, wie opensnoop -x</translation>
    </message>
    <message>
        <source>Block I/O</source>
        <translation>Block-I/O</translation>
    </message>
    <message>
        <source>Every block request with its latency (biosnoop) and latency histograms (biolatency)</source>
        <translation>Jeder Block-Request mit seiner Latenz (biosnoop) und Latenz-Histogramme (biolatency)</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>Datenträger</translation>
    </message>
    <message>
        <source>Only this disk (as in /proc/partitions, e.g. vda)</source>
        <translation>Nur dieser Datenträger (wie in /proc/partitions, z. B. vda)</translation>
    </message>
    <message>
        <source>Include queue time</source>
        <translation>Wartezeit einbeziehen</translation>
    </message>
    <message>
        <source>Measure from insertion into the queue, like biolatency -Q</source>
        <translation>Ab dem Einreihen in die Queue messen, wie biolatency -Q</translation>
    </message>
    <message>
        <source>Per disk</source>
        <translation>Pro Datenträger</translation>
    </message>
    <message>
        <source>One histogram per disk, like biolatency -D</source>
        <translation>Ein Histogramm pro Datenträger, wie biolatency -D</translation>
    </message>
    <message>
        <source>Per flag set</source>
        <translation>Pro Flag-Kombination</translation>
    </message>
    <message>
        <source>One histogram per operation and flags, like biolatency -F</source>
        <translation>Ein Histogramm pro Operation und Flags, wie biolatency -F</translation>
    </message>
    <message>
        <source>Minimum latency (µs)</source>
        <translation>Mindestlatenz (µs)</translation>
    </message>
    <message>
        <source>Only record requests at least this slow (histograms count all)</source>
        <translation>Nur Requests aufzeichnen, die mindestens so langsam sind (Histogramme zählen alle)</translation>
    </message>
    <message>
        <source>Run queue latency</source>
        <translation>Run-Queue-Latenz</translation>
    </message>
    <message>
        <source>How long runnable tasks wait for a CPU, like runqlat</source>
        <translation>Wie lange lauffähige Tasks auf eine CPU warten, wie runqlat</translation>
    </message>
    <message>
        <source>Per process</source>
        <translation>Pro Prozess</translation>
    </message>
    <message>
        <source>One histogram per process, like runqlat -P</source>
        <translation>Ein Histogramm pro Prozess, wie runqlat -P</translation>
    </message>
    <message>
        <source>Per thread</source>
        <translation>Pro Thread</translation>
    </message>
    <message>
        <source>One histogram per thread, like runqlat -L</source>
        <translation>Ein Histogramm pro Thread, wie runqlat -L</translation>
    </message>
    <message>
        <source>TCP connects</source>
        <translation>TCP-Verbindungsaufbauten</translation>
    </message>
    <message>
        <source>Page cache</source>
        <translation>Page-Cache</translation>
    </message>
    <message>
        <source>Page cache hits, misses and dirtied pages per interval, like cachestat (system-wide unless filtered)</source>
        <translation>Page-Cache-Treffer, -Fehlschläge und geänderte Seiten pro Intervall, wie cachestat (systemweit, sofern nicht gefiltert)</translation>
    </message>
    <message>
        <source>Only page cache activity in this process&apos;s context: its reads and file page faults, the pages they and the readahead they start insert, and the pages it dirties (write, write fault). Writeback by the kernel&apos;s flusher threads and reclaim never count (0: every process)</source>
        <translation>Nur Page-Cache-Aktivität im Kontext dieses Prozesses: seine Lesezugriffe und Datei-Page-Faults, die Seiten, die diese und das von ihnen angestoßene Readahead einfügen, und die Seiten, die er verändert (write, Schreib-Fault). Writeback durch die Flusher-Threads des Kernels und Reclaim zählen nie (0: jeder Prozess)</translation>
    </message>
    <message>
        <source>Only page cache activity in this thread&apos;s context, as for the process filter (0: every thread)</source>
        <translation>Nur Page-Cache-Aktivität im Kontext dieses Threads, wie beim Prozessfilter (0: jeder Thread)</translation>
    </message>
    <message>
        <source>Only page cache activity of tasks running as this user, as for the process filter (-1: every user)</source>
        <translation>Nur Page-Cache-Aktivität von Tasks, die als dieser Benutzer laufen, wie beim Prozessfilter (-1: jeder Benutzer)</translation>
    </message>
    <message>
        <source>Only page cache activity of tasks with this name (as in /proc/PID/comm, up to 15 bytes), as for the process filter</source>
        <translation>Nur Page-Cache-Aktivität von Tasks mit diesem Namen (wie in /proc/PID/comm, bis zu 15 Bytes), wie beim Prozessfilter</translation>
    </message>
    <message>
        <source>Only page cache activity of tasks in this cgroup v2 (a path under /sys/fs/cgroup), as for the process filter; pages are counted for the task that touches them, not for the cgroup the memory is charged to</source>
        <translation>Nur Page-Cache-Aktivität von Tasks in dieser cgroup v2 (ein Pfad unter /sys/fs/cgroup), wie beim Prozessfilter; Seiten zählen für den Task, der sie berührt, nicht für die cgroup, der der Speicher angerechnet wird</translation>
    </message>
    <message>
        <source>Tracepoint pair latency</source>
        <translation>Latenz zwischen Tracepoint-Paaren</translation>
    </message>
    <message>
        <source>Time from a start tracepoint to an end tracepoint with the same key, as a histogram and the slow pairs as events</source>
        <translation>Zeit von einem Start- bis zu einem End-Tracepoint mit demselben Schlüssel, als Histogramm und die langsamen Paare als Ereignisse</translation>
    </message>
    <message>
        <source>Start tracepoint</source>
        <translation>Start-Tracepoint</translation>
    </message>
    <message>
        <source>End tracepoint</source>
        <translation>End-Tracepoint</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>End key</source>
        <translation>End-Schlüssel</translation>
    </message>
    <message>
        <source>The key at the end tracepoint, when it carries it differently (empty: the same as Key)</source>
        <translation>Der Schlüssel am End-Tracepoint, falls er dort anders vorliegt (leer: wie Schlüssel)</translation>
    </message>
    <message>
        <source>Event threshold (µs)</source>
        <translation>Ereignisschwelle (µs)</translation>
    </message>
    <message>
        <source>Record every pair at least this slow as an event (-1: none, 0: all; the histogram counts all)</source>
        <translation>Jedes Paar, das mindestens so langsam ist, als Ereignis aufzeichnen (-1: keines, 0: alle; das Histogramm zählt alle)</translation>
    </message>
    <message>
        <source>Histogram units</source>
        <translation>Einheit der Histogramme</translation>
    </message>
    <message>
        <source>Only pairs this process starts (0: every process)</source>
        <translation>Nur Paare, die dieser Prozess startet (0: alle Prozesse)</translation>
    </message>
    <message>
        <source>Only pairs started by tasks with this name (up to 15 bytes)</source>
        <translation>Nur Paare, die Tasks mit diesem Namen starten (bis zu 15 Bytes)</translation>
    </message>
    <message>
        <source>I/O stack breakdown</source>
        <translation>I/O-Stack-Aufschlüsselung</translation>
    </message>
    <message>
        <source>Where the time of read, write, open and fsync goes: syscall, VFS, file system and block layers, with each layer&apos;s exclusive share</source>
        <translation>Wohin die Zeit von read, write, open und fsync geht: Syscall-, VFS-, Dateisystem- und Block-Schicht, mit dem exklusiven Anteil jeder Schicht</translation>
    </message>
    <message>
        <source>Only block requests on this disk (as in /proc/partitions, e.g. vda)</source>
        <translation>Nur Block-Requests auf diesem Datenträger (wie in /proc/partitions, z. B. vda)</translation>
    </message>
    <message>
        <source>Measure the block request queue as its own layer, like biolatency -Q</source>
        <translation>Die Block-Request-Queue als eigene Schicht messen, wie biolatency -Q</translation>
    </message>
    <message>
        <source>Slow file-system operations</source>
        <translation>Langsame Dateioperationen</translation>
    </message>
    <message>
        <source>ext4 (and xfs, btrfs) reads, writes, opens and fsyncs slower than a threshold, like ext4slower</source>
        <translation>Reads, Writes, Opens und Fsyncs von ext4 (sowie xfs, btrfs), die langsamer als eine Schwelle sind, wie ext4slower</translation>
    </message>
    <message>
        <source>Only operations at least this slow (0: all)</source>
        <translation>Nur Operationen, die mindestens so langsam sind (0: alle)</translation>
    </message>
    <message>
        <source>Function hooks</source>
        <translation>Funktions-Hooks</translation>
    </message>
    <message>
        <source>How kernel functions are traced: auto (fentry where the kernel supports it, else kprobes), fentry only, or kprobes only</source>
        <translation>Wie Kernelfunktionen verfolgt werden: auto (fentry, wo der Kernel es unterstützt, sonst kprobes), nur fentry oder nur kprobes</translation>
    </message>
    <message>
        <source>Every file descriptor</source>
        <translation>Jeder Dateideskriptor</translation>
    </message>
    <message>
        <source>Also count reads and writes on pipes, sockets, terminals and eventfds, which measure waiting rather than I/O (by default only regular files and block devices count)</source>
        <translation>Auch Lese- und Schreibzugriffe auf Pipes, Sockets, Terminals und eventfds zählen, die eher Warten als E/A messen (standardmäßig zählen nur reguläre Dateien und Blockgeräte)</translation>
    </message>
    <message>
        <source>CPU profile</source>
        <translation>CPU-Profil</translation>
    </message>
    <message>
        <source>Where the CPUs spend their time: samples of the running code at a fixed frequency on every CPU, with kernel and user call stacks, like perf record -g or profile</source>
        <translation>Wo die CPUs ihre Zeit verbringen: Stichproben des laufenden Codes mit fester Frequenz auf jeder CPU, mit Kernel- und Benutzer-Aufrufstacks, wie perf record -g oder profile</translation>
    </message>
    <message>
        <source>Frequency (Hz)</source>
        <translation>Frequenz (Hz)</translation>
    </message>
    <message>
        <source>Samples per second on each CPU (99 avoids running in lockstep with timers)</source>
        <translation>Stichproben pro Sekunde auf jeder CPU (99 vermeidet den Gleichtakt mit Timern)</translation>
    </message>
    <message>
        <source>User stack copy (bytes)</source>
        <translation>Kopie des Benutzerstacks (Bytes)</translation>
    </message>
    <message>
        <source>How much of each sample&apos;s user stack is copied for unwinding code built without frame pointers; deeper stacks are cut off (0: frame pointers only)</source>
        <translation>Wie viel vom Benutzerstack jeder Stichprobe kopiert wird, um Code ohne Frame-Pointer abzuwickeln; tiefere Stacks werden abgeschnitten (0: nur Frame-Pointer)</translation>
    </message>
    <message>
        <source>Kernel stacks only</source>
        <translation>Nur Kernel-Stacks</translation>
    </message>
    <message>
        <source>Record no user stacks (cheaper, no symbolisation)</source>
        <translation>Keine Benutzerstacks aufzeichnen (günstiger, keine Symbolauflösung)</translation>
    </message>
    <message>
        <source>User stacks only</source>
        <translation>Nur Benutzerstacks</translation>
    </message>
    <message>
        <source>Record no kernel stacks</source>
        <translation>Keine Kernel-Stacks aufzeichnen</translation>
    </message>
    <message>
        <source>Include idle</source>
        <translation>Leerlauf einbeziehen</translation>
    </message>
    <message>
        <source>Also record the samples of idle CPUs (PID 0)</source>
        <translation>Auch die Stichproben untätiger CPUs aufzeichnen (PID 0)</translation>
    </message>
    <message>
        <source>Off-CPU time</source>
        <translation>Off-CPU-Zeit</translation>
    </message>
    <message>
        <source>Where threads wait: every time a thread leaves the CPU (blocks, sleeps or is preempted) for at least the minimum time, with the call stacks it left from, like offcputime</source>
        <translation>Wo Threads warten: jedes Mal, wenn ein Thread die CPU mindestens für die Mindestzeit verlässt (blockiert, schläft oder verdrängt wird), mit den Aufrufstacks, von denen aus er sie verließ, wie offcputime</translation>
    </message>
    <message>
        <source>Minimum time off-CPU (µs)</source>
        <translation>Mindestzeit außerhalb der CPU (µs)</translation>
    </message>
    <message>
        <source>Only record threads off the CPU at least this long</source>
        <translation>Nur Threads aufzeichnen, die mindestens so lange nicht auf der CPU waren</translation>
    </message>
    <message>
        <source>How much of a waiting thread&apos;s user stack is copied, when its system call returns, for unwinding code built without frame pointers (0: frame pointers only)</source>
        <translation>Wie viel vom Benutzerstack eines wartenden Threads bei der Rückkehr seines Systemaufrufs kopiert wird, um Code ohne Frame-Pointer abzuwickeln (0: nur Frame-Pointer)</translation>
    </message>
    <message>
        <source>TCP accepts</source>
        <translation>TCP-Annahmen</translation>
    </message>
    <message>
        <source>Every TCP connection a process accepts over IPv4 and IPv6, with the listen queue&apos;s length, like tcpaccept</source>
        <translation>Jede TCP-Verbindung, die ein Prozess über IPv4 und IPv6 annimmt, mit der Länge der Listen-Warteschlange, wie tcpaccept</translation>
    </message>
    <message>
        <source>TCP retransmits</source>
        <translation>TCP-Retransmits</translation>
    </message>
    <message>
        <source>Every TCP retransmission (data, SYN, SYN-ACK, tail-loss probe) with per-connection counts per interval, like tcpretrans</source>
        <translation>Jede TCP-Neuübertragung (Daten, SYN, SYN-ACK, Tail-Loss-Probe) mit Zählern je Verbindung und Intervall, wie tcpretrans</translation>
    </message>
    <message>
        <source>TCP sessions</source>
        <translation>TCP-Sitzungen</translation>
    </message>
    <message>
        <source>Every TCP connection when it closes, with its lifetime and the bytes it sent and received, like tcplife</source>
        <translation>Jede TCP-Verbindung beim Schließen, mit Lebensdauer und gesendeten und empfangenen Bytes, wie tcplife</translation>
    </message>
    <message>
        <source>Every active TCP connect over IPv4 and IPv6, with connects per destination per interval, like tcpconnect</source>
        <translation>Jeder aktive TCP-Verbindungsaufbau über IPv4 und IPv6, mit Verbindungen je Ziel und Intervall, wie tcpconnect</translation>
    </message>
    <message>
        <source>Destination ports</source>
        <translation>Zielports</translation>
    </message>
    <message>
        <source>Only connects to these ports, as 80,443 (tcpconnect -P); at most 16</source>
        <translation>Nur Verbindungen zu diesen Ports, etwa 80,443 (tcpconnect -P); höchstens 16</translation>
    </message>
    <message>
        <source>Source ports</source>
        <translation>Quellports</translation>
    </message>
    <message>
        <source>Only connects from these local ports, as 40000,40001; at most 16</source>
        <translation>Nur Verbindungen von diesen lokalen Ports, etwa 40000,40001; höchstens 16</translation>
    </message>
    <message>
        <source>Name contains</source>
        <translation>Name enthält</translation>
    </message>
    <message>
        <source>Only commands whose name contains this text, like execsnoop -n</source>
        <translation>Nur Befehle, deren Name diesen Text enthält, wie execsnoop -n</translation>
    </message>
    <message>
        <source>Arguments contain</source>
        <translation>Argumente enthalten</translation>
    </message>
    <message>
        <source>Only execs whose arguments, joined by spaces, contain this text, like execsnoop -l</source>
        <translation>Nur Execs, deren mit Leerzeichen verbundene Argumente diesen Text enthalten, wie execsnoop -l</translation>
    </message>
    <message>
        <source>Maximum arguments</source>
        <translation>Höchstzahl Argumente</translation>
    </message>
    <message>
        <source>Read at most this many arguments; an exec with more is marked truncated, like execsnoop --max-args</source>
        <translation>Höchstens so viele Argumente lesen; ein Exec mit mehr wird als gekürzt markiert, wie execsnoop --max-args</translation>
    </message>
    <message>
        <source>With flags</source>
        <translation>Mit Flags</translation>
    </message>
    <message>
        <source>Only opens with one of these flags, as O_WRONLY,O_RDWR,O_CREAT (opensnoop -f)</source>
        <translation>Nur Öffnungen mit einem dieser Flags, etwa O_WRONLY,O_RDWR,O_CREAT (opensnoop -f)</translation>
    </message>
    <message>
        <source>Full paths</source>
        <translation>Vollständige Pfade</translation>
    </message>
    <message>
        <source>Resolve relative paths against the directory they were opened in, like opensnoop -F</source>
        <translation>Relative Pfade gegen das Verzeichnis auflösen, in dem sie geöffnet wurden, wie opensnoop -F</translation>
    </message>
    <message>
        <source>Block I/O sizes</source>
        <translation>Block-I/O-Größen</translation>
    </message>
    <message>
        <source>The size of every block request as it is issued, as histograms of Kbytes per command, like bitesize</source>
        <translation>Die Größe jedes Block-Requests bei der Ausgabe an das Gerät, als Histogramme in KByte je Befehl, wie bitesize</translation>
    </message>
    <message>
        <source>One histogram per command and disk</source>
        <translation>Ein Histogramm je Befehl und Datenträger</translation>
    </message>
    <message>
        <source>Per operation</source>
        <translation>Je Operation</translation>
    </message>
    <message>
        <source>One histogram per command and operation (read, write, flush…)</source>
        <translation>Ein Histogramm je Befehl und Operation (Lesen, Schreiben, Flush …)</translation>
    </message>
    <message>
        <source>User function calls</source>
        <translation>Aufrufe von Benutzerfunktionen</translation>
    </message>
    <message>
        <source>Calls of a function in a program or library counted per interval, optionally per argument, and timed from entry to return, like strlen_count and funclatency -u</source>
        <translation>Aufrufe einer Funktion in einem Programm oder einer Bibliothek, je Intervall gezählt, wahlweise je Argument, und vom Eintritt bis zur Rückkehr gemessen, wie strlen_count und funclatency -u</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>BINARY:FUNCTION, the binary as a path, a library name (libc) or a program in PATH, e.g. libc:strlen or /usr/bin/bash:readline; BINARY:0xADDRESS for an address</source>
        <translation>BINÄRDATEI:FUNKTION, die Binärdatei als Pfad, Bibliotheksname (libc) oder Programm im PATH, z. B. libc:strlen oder /usr/bin/bash:readline; BINÄRDATEI:0xADRESSE für eine Adresse</translation>
    </message>
    <message>
        <source>Count by</source>
        <translation>Zählen nach</translation>
    </message>
    <message>
        <source>What the calls are counted by: empty (all together), argN (the value of argument N, from 0) or str(argN) (the string argument N points to)</source>
        <translation>Wonach die Aufrufe gezählt werden: leer (alle zusammen), argN (der Wert von Argument N, ab 0) oder str(argN) (die Zeichenkette, auf die Argument N zeigt)</translation>
    </message>
    <message>
        <source>String length</source>
        <translation>Zeichenkettenlänge</translation>
    </message>
    <message>
        <source>Bytes of a string argument kept as its key, with the terminating NUL</source>
        <translation>Bytes eines Zeichenkettenarguments, die als Schlüssel behalten werden, mit dem abschließenden NUL</translation>
    </message>
    <message>
        <source>Time calls</source>
        <translation>Aufrufe messen</translation>
    </message>
    <message>
        <source>Also attach at the return: a histogram of the time from entry to return, and the slow calls as events</source>
        <translation>Auch an der Rückkehr ansetzen: ein Histogramm der Zeit vom Eintritt bis zur Rückkehr und die langsamen Aufrufe als Ereignisse</translation>
    </message>
    <message>
        <source>With Time calls: record every call at least this slow as an event (-1: none, 0: all)</source>
        <translation>Mit „Aufrufe messen“: jeden mindestens so langsamen Aufruf als Ereignis aufzeichnen (-1: keine, 0: alle)</translation>
    </message>
    <message>
        <source>Tracepoint counts</source>
        <translation>Tracepoint-Zählungen</translation>
    </message>
    <message>
        <source>Hits of one tracepoint per interval, grouped by up to two of its fields or the command, or a histogram of one numeric field</source>
        <translation>Treffer eines Tracepoints je Intervall, gruppiert nach bis zu zwei seiner Felder oder dem Befehl, oder ein Histogramm eines numerischen Felds</translation>
    </message>
    <message>
        <source>Tracepoint</source>
        <translation>Tracepoint</translation>
    </message>
    <message>
        <source>And by</source>
        <translation>Und nach</translation>
    </message>
    <message>
        <source>A second key, written as Count by is (prev.pid with next.pid)</source>
        <translation>Ein zweiter Schlüssel, geschrieben wie bei „Zählen nach“ (prev.pid mit next.pid)</translation>
    </message>
    <message>
        <source>Histogram of</source>
        <translation>Histogramm von</translation>
    </message>
    <message>
        <source>A numeric field whose values are kept as a log2 histogram per key instead of counting hits</source>
        <translation>Ein numerisches Feld, dessen Werte je Schlüssel als log2-Histogramm erfasst werden, statt Treffer zu zählen</translation>
    </message>
    <message>
        <source>USDT probe hits</source>
        <translation>USDT-Sonden-Treffer</translation>
    </message>
    <message>
        <source>Hits of a static probe (USDT, sys/sdt.h) in a program or library counted per interval, optionally per argument, and recorded with their arguments</source>
        <translation>Treffer einer statischen Sonde (USDT, sys/sdt.h) in einem Programm oder einer Bibliothek, je Intervall gezählt, wahlweise je Argument, und mit ihren Argumenten aufgezeichnet</translation>
    </message>
    <message>
        <source>USDT probe</source>
        <translation>USDT-Sonde</translation>
    </message>
    <message>
        <source>BINARY:PROVIDER:NAME or BINARY:NAME, the binary as a path, a library name or a program in PATH, e.g. /usr/bin/python3:python:function__entry</source>
        <translation>BINÄRDATEI:PROVIDER:NAME oder BINÄRDATEI:NAME, die Binärdatei als Pfad, Bibliotheksname oder Programm im PATH, z. B. /usr/bin/python3:python:function__entry</translation>
    </message>
    <message>
        <source>What the hits are counted by: empty (all together), argN (the value of argument N, from 0) or str(argN) (the string argument N points to)</source>
        <translation>Wonach die Treffer gezählt werden: leer (alle zusammen), argN (der Wert von Argument N, ab 0) oder str(argN) (die Zeichenkette, auf die Argument N zeigt)</translation>
    </message>
    <message>
        <source>Record hits</source>
        <translation>Treffer aufzeichnen</translation>
    </message>
    <message>
        <source>Record every hit as an event with its arguments (off: counts only, for probes that fire often)</source>
        <translation>Jeden Treffer als Ereignis mit seinen Argumenten aufzeichnen (aus: nur zählen, für Sonden, die oft auslösen)</translation>
    </message>
    <message>
        <source>Where the measured time begins: a tracepoint (block_rq_issue), u:BINARY:FUNCTION, ur:BINARY:FUNCTION (its return), usdt:BINARY:PROVIDER:NAME, k:FUNCTION or kr:FUNCTION</source>
        <translation>Wo die gemessene Zeit beginnt: ein Tracepoint (block_rq_issue), u:BINÄRDATEI:FUNKTION, ur:BINÄRDATEI:FUNKTION (ihre Rückkehr), usdt:BINÄRDATEI:PROVIDER:NAME, k:FUNKTION oder kr:FUNKTION</translation>
    </message>
    <message>
        <source>Where the measured time ends, written as Start tracepoint is, e.g. block_rq_complete or ur:/usr/bin/prog:parse; the start itself: from each hit to the next with its key</source>
        <translation>Wo die gemessene Zeit endet, geschrieben wie der Start-Tracepoint, z. B. block_rq_complete oder ur:/usr/bin/prog:parse; der Start selbst: von jedem Treffer bis zum nächsten mit seinem Schlüssel</translation>
    </message>
    <message>
        <source>What pairs a start with its end: tid (the thread), pid, argN (the value of the tracepoint&apos;s or USDT probe&apos;s argument N) or argN.field.field (a field of the struct a tracepoint&apos;s argument N points to)</source>
        <translation>Was einen Start seinem Ende zuordnet: tid (der Thread), pid, argN (der Wert von Argument N des Tracepoints oder der USDT-Sonde) oder argN.feld.feld (ein Feld der Struktur, auf die Argument N eines Tracepoints zeigt)</translation>
    </message>
    <message>
        <source>What is counted: a tracepoint (sched_switch, block:block_rq_issue), u:BINARY:FUNCTION, ur:BINARY:FUNCTION, usdt:BINARY:PROVIDER:NAME, k:FUNCTION or kr:FUNCTION</source>
        <translation>Was gezählt wird: ein Tracepoint (sched_switch, block:block_rq_issue), u:BINÄRDATEI:FUNKTION, ur:BINÄRDATEI:FUNKTION, usdt:BINÄRDATEI:PROVIDER:NAME, k:FUNKTION oder kr:FUNKTION</translation>
    </message>
    <message>
        <source>Empty (all hits together), comm, tid, pid, an argument by name or as argN (a USDT probe&apos;s too), or a field behind it (next.pid, arg0.q.id)</source>
        <translation>Leer (alle Treffer zusammen), comm, tid, pid, ein Argument nach Namen oder als argN (auch das einer USDT-Sonde) oder ein Feld dahinter (next.pid, arg0.q.id)</translation>
    </message>
    <message>
        <source>Off-wake time</source>
        <translation>Off-Wake-Zeit</translation>
    </message>
    <message>
        <source>Why threads wait: every off-CPU wait of at least the minimum time with the stack it blocked in, joined with the thread (or interrupt) that woke it and the waker&apos;s stack, like offwaketime</source>
        <translation>Warum Threads warten: jede Off-CPU-Wartezeit von mindestens der Mindestzeit mit dem Stack, in dem der Thread blockierte, verbunden mit dem Thread (oder Interrupt), der ihn weckte, und dessen Stack, wie offwaketime</translation>
    </message>
    <message>
        <source>OOM kills</source>
        <translation>OOM-Kills</translation>
    </message>
    <message>
        <source>Every process the OOM killer kills: its memory and cgroup, the task that ran out of memory and whether a cgroup limit or the machine ran out, like oomkill</source>
        <translation>Jeder Prozess, den der OOM-Killer beendet: sein Speicher und seine Cgroup, der Task, dem der Speicher ausging, und ob das Limit einer Cgroup oder der Speicher des Rechners erschöpft war, wie oomkill</translation>
    </message>
    <message>
        <source>Only kills of this process (0: every process)</source>
        <translation>Nur Kills dieses Prozesses (0: alle Prozesse)</translation>
    </message>
    <message>
        <source>Only kills of this user&apos;s processes (-1: every user)</source>
        <translation>Nur Kills der Prozesse dieses Benutzers (-1: alle Benutzer)</translation>
    </message>
    <message>
        <source>Only kills of tasks with this name (as in /proc/PID/comm, up to 15 bytes)</source>
        <translation>Nur Kills von Tasks mit diesem Namen (wie in /proc/PID/comm, bis zu 15 Bytes)</translation>
    </message>
    <message>
        <source>Only kills of tasks in this cgroup v2 or below it (a path under /sys/fs/cgroup)</source>
        <translation>Nur Kills von Tasks in dieser Cgroup v2 oder darunter (ein Pfad unter /sys/fs/cgroup)</translation>
    </message>
    <message>
        <source>Memory reclaim</source>
        <translation>Speicherrückgewinnung</translation>
    </message>
    <message>
        <source>Only record reclaims at least this slow (histograms count all)</source>
        <translation>Nur Rückgewinnungen aufzeichnen, die mindestens so langsam sind (Histogramme zählen alle)</translation>
    </message>
    <message>
        <source>Page faults</source>
        <translation>Seitenfehler</translation>
    </message>
    <message>
        <source>Where processes fault their memory in: every minor and major page fault the kernel counts for a task, with its kernel and user call stacks, the faulting address and whether it was anonymous memory, a file, the stack or the heap, like perf record -e minor-faults -g</source>
        <translation>Wo Prozesse ihren Speicher einlagern: jeder kleine (minor) und große (major) Seitenfehler, den der Kernel für einen Task zählt, mit Kernel- und Benutzer-Aufrufstapel, der auslösenden Adresse und ob sie anonymer Speicher, eine Datei, der Stack oder der Heap war, wie perf record -e minor-faults -g</translation>
    </message>
    <message>
        <source>Sample every Nth fault</source>
        <translation>Jeden N-ten Seitenfehler aufzeichnen</translation>
    </message>
    <message>
        <source>Record one fault in every N on each CPU, each standing for N (1: every fault, exact counts; more for processes faulting millions of pages)</source>
        <translation>Auf jeder CPU einen von N Seitenfehlern aufzeichnen, der für N steht (1: jeden Seitenfehler, exakte Zahlen; mehr für Prozesse, die Millionen Seiten einlagern)</translation>
    </message>
    <message>
        <source>record one fault in N (every=N), or without the user-stack copy (stackBytes=0)</source>
        <translation>einen von N Seitenfehlern aufzeichnen (every=N) oder ohne die Kopie des Benutzer-Stacks (stackBytes=0)</translation>
    </message>
    <message>
        <source>Syscall hooks</source>
        <translation>Syscall-Hooks</translation>
    </message>
    <message>
        <source>How failed execs are seen: auto (fexit on the syscall handlers where the kernel supports it; else the raw sys_exit tracepoint, which every system call runs but which alone sees 32-bit processes&apos; calls, where they can run; else the per-syscall tracepoints, and the raw sys_exit where there are none), or only one of them</source>
        <translation>Wie fehlgeschlagene Exec-Aufrufe gesehen werden: auto (fexit an den Syscall-Handlern, wo der Kernel es unterstützt; sonst der rohe Tracepoint sys_exit, den jeder Systemaufruf durchläuft, der aber als einziger die Aufrufe von 32-Bit-Prozessen sieht, wo diese laufen können; sonst die Tracepoints je Syscall, und wo es diese nicht gibt, der rohe sys_exit) oder nur einer davon</translation>
    </message>
    <message>
        <source>How the open calls are hooked: auto (fexit on the syscall handlers where the kernel supports it; else the raw sys_exit tracepoint, which every system call runs but which alone sees 32-bit processes&apos; calls, where they can run; else the per-syscall tracepoints), or only one of them</source>
        <translation>Wie die Open-Aufrufe eingehängt werden: auto (fexit an den Syscall-Handlern, wo der Kernel es unterstützt; sonst der rohe Tracepoint sys_exit, den jeder Systemaufruf durchläuft, der aber als einziger die Aufrufe von 32-Bit-Prozessen sieht, wo diese laufen können; sonst die Tracepoints je Syscall) oder nur einer davon</translation>
    </message>
    <message>
        <source>Thread states</source>
        <translation>Thread-Zustände</translation>
    </message>
    <message>
        <source>When each thread ran (on which CPU), waited for a CPU or was blocked, and why: what it waited for and who woke it. The critical path of a thread follows these wakeups</source>
        <translation>Wann jeder Thread lief (auf welcher CPU), auf eine CPU wartete oder blockiert war, und warum: worauf er wartete und wer ihn weckte. Der kritische Pfad eines Threads folgt diesen Weckvorgängen</translation>
    </message>
    <message>
        <source>No kernel stacks</source>
        <translation>Keine Kernel-Stacks</translation>
    </message>
    <message>
        <source>Take no kernel stack where a thread blocks or is woken (cheaper; the reasons and the interrupts&apos; wakeups are then not known)</source>
        <translation>Keinen Kernel-Stack nehmen, wo ein Thread blockiert oder geweckt wird (günstiger; Gründe und Weckvorgänge durch Interrupts sind dann unbekannt)</translation>
    </message>
    <message>
        <source>Every direct reclaim (like drsnoop), memory cgroup reclaim (a cgroup over memory.high or memory.max) and memory compaction (like compactsnoop) a task stalls in, with the pages it reclaimed, and latency histograms per kind</source>
        <translation>Jede direkte Rückgewinnung (wie drsnoop), Speicher-Cgroup-Rückgewinnung (eine Cgroup über memory.high oder memory.max) und Speicherverdichtung (wie compactsnoop), in der ein Task hängt, mit den zurückgewonnenen Seiten, und Latenz-Histogramme je Art</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>Speicherbelegungen</translation>
    </message>
    <message>
        <source>record one allocation in N (sampleEvery=N), or without the user-stack copy (stackBytes=0)</source>
        <translation>nur eine von N Belegungen aufzeichnen (sampleEvery=N) oder ohne Kopie des Benutzerstapels (stackBytes=0)</translation>
    </message>
    <message>
        <source>Allocator</source>
        <translation>Allokator</translation>
    </message>
    <message>
        <source>Sample every Nth allocation</source>
        <translation>Jede N-te Belegung erfassen</translation>
    </message>
    <message>
        <source>Record one allocation in N, chosen at random, each standing for N (1: every allocation, exact; more for processes allocating millions a second)</source>
        <translation>Eine von N Belegungen zufällig aufzeichnen, jede zählt für N (1: jede Belegung, exakt; mehr für Prozesse mit Millionen Belegungen pro Sekunde)</translation>
    </message>
    <message>
        <source>How much of each allocation&apos;s user stack is copied for unwinding code built without frame pointers; deeper stacks are cut off (0: frame pointers only)</source>
        <translation>Wie viel vom Benutzerstapel jeder Belegung kopiert wird, um Code ohne Frame-Pointer abzuwickeln; tiefere Stapel werden abgeschnitten (0: nur Frame-Pointer)</translation>
    </message>
    <message>
        <source>Blocks tracked</source>
        <translation>Verfolgte Blöcke</translation>
    </message>
    <message>
        <source>How many recorded blocks the kernel tracks until they are freed; allocations past it are counted, not recorded</source>
        <translation>Wie viele aufgezeichnete Blöcke der Kernel bis zu ihrer Freigabe verfolgt; Belegungen darüber hinaus werden gezählt, nicht aufgezeichnet</translation>
    </message>
    <message>
        <source>Every block a running process allocates (malloc, calloc, realloc, posix_memalign, mmap, ...) with its size and call stack, and when it is freed: outstanding memory and leaks by stack, like memleak; no restart and no preloaded library. With no process given, the kernel&apos;s allocations (kmalloc, slab caches, pages) on the whole machine</source>
        <translation>Jeder Block, den ein laufender Prozess belegt (malloc, calloc, realloc, posix_memalign, mmap, …), mit Größe und Aufrufstapel, und wann er freigegeben wird: belegter Speicher und Lecks nach Stapel, wie memleak; ohne Neustart und ohne vorgeladene Bibliothek. Ohne Prozess die Belegungen des Kernels (kmalloc, Slab-Caches, Seiten) auf dem ganzen Rechner</translation>
    </message>
    <message>
        <source>The process whose allocations are recorded (0: the kernel&apos;s own allocations, of every process)</source>
        <translation>Der Prozess, dessen Speicherbelegungen aufgezeichnet werden (0: die Belegungen des Kernels selbst, für alle Prozesse)</translation>
    </message>
    <message>
        <source>The library or program whose malloc and free are hooked (empty: the one the process uses: jemalloc, tcmalloc, mimalloc or AddressSanitizer&apos;s when it has one mapped, the program itself when it has its own malloc, else libc)</source>
        <translation>Die Bibliothek oder das Programm, dessen malloc und free abgefangen werden (leer: der Allokator des Prozesses: jemalloc, tcmalloc, mimalloc oder der von AddressSanitizer, wenn eingebunden, das Programm selbst, wenn es ein eigenes malloc hat, sonst libc)</translation>
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
        <translation>Block-I/O</translation>
    </message>
    <message>
        <source>TCP connect</source>
        <translation>TCP-Connect</translation>
    </message>
    <message>
        <source>Slow file ops</source>
        <translation>Langsame Dateioperationen</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Sonstige</translation>
    </message>
    <message>
        <source>Tracepoint pairs</source>
        <translation>Tracepoint-Paare</translation>
    </message>
    <message>
        <source>Off-CPU</source>
        <translation>Off-CPU</translation>
    </message>
    <message>
        <source>CPU samples</source>
        <translation>CPU-Stichproben</translation>
    </message>
    <message>
        <source>TCP accept</source>
        <translation>TCP-Annahme</translation>
    </message>
    <message>
        <source>TCP retransmit</source>
        <translation>TCP-Retransmit</translation>
    </message>
    <message>
        <source>TCP sessions</source>
        <translation>TCP-Sitzungen</translation>
    </message>
    <message>
        <source>User function calls</source>
        <translation>Aufrufe von Benutzerfunktionen</translation>
    </message>
    <message>
        <source>USDT probe hits</source>
        <translation>USDT-Sonden-Treffer</translation>
    </message>
    <message>
        <source>Off-wake</source>
        <translation>Off-Wake</translation>
    </message>
    <message>
        <source>OOM kill</source>
        <translation>OOM-Kill</translation>
    </message>
    <message>
        <source>Memory reclaim</source>
        <translation>Speicherrückgewinnung</translation>
    </message>
    <message>
        <source>Page faults</source>
        <translation>Seitenfehler</translation>
    </message>
    <message>
        <source>Thread states</source>
        <translation>Thread-Zustände</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>Speicherbelegungen</translation>
    </message>
</context>
<context>
    <name>SessionSave</name>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>%1 kann nicht gespeichert werden: %2</translation>
    </message>
</context>
<context>
    <name>askpass</name>
    <message>
        <source>Unknown Host Key</source>
        <translation>Unbekannter Host-Schlüssel</translation>
    </message>
    <message>
        <source>This computer does not know the host key of the host yet. Trust it only if the fingerprint is the one of that host.</source>
        <translation>Dieser Computer kennt den Host-Schlüssel des Hosts noch nicht. Vertrauen Sie ihm nur, wenn der Fingerabdruck der dieses Hosts ist.</translation>
    </message>
    <message>
        <source>Trust and Connect</source>
        <translation>Vertrauen und verbinden</translation>
    </message>
    <message>
        <source>Refuse</source>
        <translation>Ablehnen</translation>
    </message>
    <message>
        <source>SSH Authentication</source>
        <translation>SSH-Authentifizierung</translation>
    </message>
</context>
<context>
    <name>bpflens::Allocations</name>
    <message>
        <source>freed</source>
        <translation>freigegeben</translation>
    </message>
    <message>
        <source>in use at the end</source>
        <translation>am Ende belegt</translation>
    </message>
    <message>
        <source>process exited</source>
        <translation>Prozess beendet</translation>
    </message>
</context>
<context>
    <name>bpflens::CallTreeModel</name>
    <message>
        <source>Function</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>Self</source>
        <translation>Selbst</translation>
    </message>
    <message>
        <source>Self %</source>
        <translation>Selbst %</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Gesamt</translation>
    </message>
    <message>
        <source>Total %</source>
        <translation>Gesamt %</translation>
    </message>
    <message>
        <source>The unwinder did not reach the thread&apos;s first frame: the callers of these samples are unknown.</source>
        <translation>Der Unwinder hat den ersten Frame des Threads nicht erreicht: Die Aufrufer dieser Stichproben sind unbekannt.</translation>
    </message>
    <message>
        <source>Cost of samples taken in this function itself</source>
        <translation>Kosten der Stichproben, die in dieser Funktion selbst genommen wurden</translation>
    </message>
    <message>
        <source>Cost of samples with this function on the stack, its callees included</source>
        <translation>Kosten der Stichproben mit dieser Funktion auf dem Stack, einschließlich ihrer Aufgerufenen</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>Bytes in use that this function allocated itself</source>
        <translation>Belegter Speicher, den diese Funktion selbst belegt hat</translation>
    </message>
    <message>
        <source>Bytes in use allocated with this function on the stack, its callees included</source>
        <translation>Belegter Speicher, belegt mit dieser Funktion auf dem Stack, einschließlich ihrer Aufgerufenen</translation>
    </message>
</context>
<context>
    <name>bpflens::CompareController</name>
    <message>
        <source>Compare &amp;With…</source>
        <translation>&amp;Vergleichen mit …</translation>
    </message>
    <message>
        <source>Compare the open session with another session file: histograms, event counts and the CPU profile</source>
        <translation>Die geöffnete Sitzung mit einer anderen Sitzungsdatei vergleichen: Histogramme, Ereigniszahlen und das CPU-Profil</translation>
    </message>
    <message>
        <source>Compare With Session</source>
        <translation>Mit Sitzung vergleichen</translation>
    </message>
    <message>
        <source>BPF Lens sessions (*.bpflens);;All files (*)</source>
        <translation>BPF-Lens-Sitzungen (*.bpflens);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Cannot compare</source>
        <translation>Vergleich nicht möglich</translation>
    </message>
    <message>
        <source>Cannot compare with %1: %2</source>
        <translation>Vergleich mit %1 nicht möglich: %2</translation>
    </message>
    <message>
        <source>another session is still being read</source>
        <translation>eine andere Sitzung wird noch gelesen</translation>
    </message>
    <message>
        <source>open a session, and stop a running recording, first</source>
        <translation>öffnen Sie zuerst eine Sitzung und stoppen Sie eine laufende Aufzeichnung</translation>
    </message>
    <message>
        <source>Unsaved recording</source>
        <translation>Nicht gespeicherte Aufzeichnung</translation>
    </message>
    <message>
        <source>Compare %1 → %2 — BPF Lens</source>
        <translation>Vergleich %1 → %2 — BPF Lens</translation>
    </message>
    <message>
        <source>Comparison cancelled: the open session changed while the other was read</source>
        <translation>Vergleich abgebrochen: Die geöffnete Sitzung hat sich geändert, während die andere gelesen wurde</translation>
    </message>
    <message>
        <source>Reading %1 to compare…</source>
        <translation>%1 wird zum Vergleich gelesen …</translation>
    </message>
</context>
<context>
    <name>bpflens::ComparePage</name>
    <message>
        <source>Baseline &lt;b&gt;%1&lt;/b&gt; against comparison &lt;b&gt;%2&lt;/b&gt;: what changed from the first to the second.</source>
        <translation>Basis &lt;b&gt;%1&lt;/b&gt; gegen Vergleich &lt;b&gt;%2&lt;/b&gt;: was sich vom ersten zum zweiten geändert hat.</translation>
    </message>
    <message>
        <source>&amp;Histograms (%1)</source>
        <translation>&amp;Histogramme (%1)</translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation>&amp;Ereignisse</translation>
    </message>
    <message>
        <source>CPU &amp;Profile</source>
        <translation>CPU-&amp;Profil</translation>
    </message>
    <message>
        <source>Raw &amp;counts</source>
        <translation>Rohe &amp;Anzahlen</translation>
    </message>
    <message>
        <source>Where the sessions hold different numbers of samples, the charts show each bucket&apos;s share of its session; tick to show counts.</source>
        <translation>Wo die Sitzungen unterschiedlich viele Stichproben enthalten, zeigen die Diagramme den Anteil jedes Buckets an seiner Sitzung; ankreuzen, um Anzahlen zu zeigen.</translation>
    </message>
    <message>
        <source>only in the baseline: %1</source>
        <translation>nur in der Basis: %1</translation>
    </message>
    <message>
        <source>only in the comparison: %1</source>
        <translation>nur im Vergleich: %1</translation>
    </message>
    <message>
        <source>not comparable (units differ): %1</source>
        <translation>nicht vergleichbar (Einheiten verschieden): %1</translation>
    </message>
    <message>
        <source>%1: %2 against %3. The percentiles below are compared in %2; buckets of different units cannot be overlaid.</source>
        <translation>%1: %2 gegen %3. Die Perzentile unten werden in %2 verglichen; Buckets verschiedener Einheiten lassen sich nicht überlagern.</translation>
    </message>
    <message>
        <source>The sessions hold no histogram in common (same probe and key).</source>
        <translation>Die Sitzungen haben kein gemeinsames Histogramm (gleiche Sonde und gleicher Schlüssel).</translation>
    </message>
    <message>
        <source>Percentile changes</source>
        <translation>Änderungen der Perzentile</translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1: %2 (%3)</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Histogram %1 compared</source>
        <translation>Histogramm %1 verglichen</translation>
    </message>
    <message>
        <source>% of samples</source>
        <translation>% der Stichproben</translation>
    </message>
    <message>
        <source>count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>Neither session holds events.</source>
        <translation>Keine der Sitzungen enthält Ereignisse.</translation>
    </message>
    <message>
        <source>Event counts compared</source>
        <translation>Ereigniszahlen verglichen</translation>
    </message>
    <message>
        <source>Colour by change of</source>
        <translation>Färben nach Änderung des</translation>
    </message>
    <message>
        <source>total share (with callees)</source>
        <translation>Gesamtanteils (mit Aufgerufenen)</translation>
    </message>
    <message>
        <source>self share</source>
        <translation>Eigenanteils</translation>
    </message>
    <message>
        <source>Colour by</source>
        <translation>Färben nach</translation>
    </message>
    <message>
        <source>Red:</source>
        <translation>Rot:</translation>
    </message>
    <message>
        <source>blue:</source>
        <translation>Blau:</translation>
    </message>
    <message>
        <source>grey:</source>
        <translation>Grau:</translation>
    </message>
    <message>
        <source>Call paths only the baseline has (%1 of its samples) are not drawn.</source>
        <translation>Aufrufpfade, die nur die Basis hat (%1 ihrer Stichproben), werden nicht gezeichnet.</translation>
    </message>
    <message>
        <source>+%1 pp</source>
        <translation>+%1 Pp</translation>
    </message>
    <message>
        <source>−%1 pp</source>
        <translation>−%1 Pp</translation>
    </message>
    <message>
        <source>±0 pp</source>
        <translation>±0 Pp</translation>
    </message>
    <message>
        <source>New: the baseline has no samples on this call path</source>
        <translation>Neu: die Basis hat keine Stichproben auf diesem Aufrufpfad</translation>
    </message>
    <message>
        <source>Neither session has CPU profile samples. Record both with the &quot;profile&quot; or the &quot;offcpu&quot; probe for a differential flame graph.</source>
        <translation>Keine der beiden Sitzungen hat CPU-Profil-Stichproben. Zeichnen Sie beide mit der Sonde „profile“ oder „offcpu“ auf, um einen differenziellen Flame Graph zu erhalten.</translation>
    </message>
    <message>
        <source>On-CPU samples</source>
        <translation>On-CPU-Stichproben</translation>
    </message>
    <message>
        <source>Off-CPU time</source>
        <translation>Off-CPU-Zeit</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Profil</translation>
    </message>
    <message>
        <source>On-CPU: where the CPU time went. Off-CPU: where threads waited, weighted by the time blocked.</source>
        <translation>On-CPU: wohin die CPU-Zeit ging. Off-CPU: wo Threads warteten, gewichtet nach der blockierten Zeit.</translation>
    </message>
    <message>
        <source>Neither session has on-CPU samples. Record both with the &quot;profile&quot; probe for a differential on-CPU flame graph.</source>
        <translation>Keine der beiden Sitzungen hat On-CPU-Stichproben. Zeichnen Sie beide mit der Sonde „profile“ auf, um einen differenziellen On-CPU-Flame-Graph zu erhalten.</translation>
    </message>
    <message>
        <source>The baseline has no on-CPU samples. Record both with the &quot;profile&quot; probe for a differential on-CPU flame graph.</source>
        <translation>Die Basis hat keine On-CPU-Stichproben. Zeichnen Sie beide mit der Sonde „profile“ auf, um einen differenziellen On-CPU-Flame-Graph zu erhalten.</translation>
    </message>
    <message>
        <source>The comparison has no on-CPU samples. Record both with the &quot;profile&quot; probe for a differential on-CPU flame graph.</source>
        <translation>Der Vergleich hat keine On-CPU-Stichproben. Zeichnen Sie beide mit der Sonde „profile“ auf, um einen differenziellen On-CPU-Flame-Graph zu erhalten.</translation>
    </message>
    <message>
        <source>Neither session has off-CPU samples. Record both with the &quot;offcpu&quot; probe for a differential off-CPU flame graph.</source>
        <translation>Keine der beiden Sitzungen hat Off-CPU-Stichproben. Zeichnen Sie beide mit der Sonde „offcpu“ auf, um einen differenziellen Off-CPU-Flame-Graph zu erhalten.</translation>
    </message>
    <message>
        <source>The baseline has no off-CPU samples. Record both with the &quot;offcpu&quot; probe for a differential off-CPU flame graph.</source>
        <translation>Die Basis hat keine Off-CPU-Stichproben. Zeichnen Sie beide mit der Sonde „offcpu“ auf, um einen differenziellen Off-CPU-Flame-Graph zu erhalten.</translation>
    </message>
    <message>
        <source>The comparison has no off-CPU samples. Record both with the &quot;offcpu&quot; probe for a differential off-CPU flame graph.</source>
        <translation>Der Vergleich hat keine Off-CPU-Stichproben. Zeichnen Sie beide mit der Sonde „offcpu“ auf, um einen differenziellen Off-CPU-Flame-Graph zu erhalten.</translation>
    </message>
    <message>
        <source>The comparison&apos;s off-CPU flame graph, weighted by time blocked (%1 → %2). %3 grew, %4 shrank, %5 unchanged, against the baseline&apos;s share of the same call path.</source>
        <translation>Der Off-CPU-Flame-Graph des Vergleichs, gewichtet nach blockierter Zeit (%1 → %2). %3 gewachsen, %4 geschrumpft, %5 unverändert, gegenüber dem Anteil desselben Aufrufpfads in der Basis.</translation>
    </message>
    <message>
        <source>Call paths only the baseline has (%1 of its time blocked) are not drawn.</source>
        <translation>Aufrufpfade, die nur die Basis hat (%1 ihrer blockierten Zeit), werden nicht gezeichnet.</translation>
    </message>
    <message>
        <source>New: the baseline has no time blocked on this call path</source>
        <translation>Neu: Die Basis hat auf diesem Aufrufpfad keine blockierte Zeit</translation>
    </message>
    <message>
        <source>Total, baseline → comparison: %1 → %2, %3</source>
        <translation>Gesamt, Basis → Vergleich: %1 → %2, %3</translation>
    </message>
    <message>
        <source>Self, baseline → comparison: %1 → %2, %3</source>
        <translation>Selbst, Basis → Vergleich: %1 → %2, %3</translation>
    </message>
    <message>
        <source>Below each &amp;type:</source>
        <translation>Unter jedem &amp;Typ:</translation>
    </message>
    <message>
        <source>Events per type, and below each type its values with the most events in either session, as the Top tab counts them.</source>
        <translation>Ereignisse je Typ und unter jedem Typ seine Werte mit den meisten Ereignissen in einer der Sitzungen, gezählt wie im Tab „Top“.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;p50 %2 → %3 %4 (%5) · p99 %6 → %7 %4 (%8) · %9 → %10</source>
        <extracomment>%9 the baseline&apos;s count, %10 &quot;N samples&quot; of the comparison</extracomment>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;p50 %2 → %3 %4 (%5) · p99 %6 → %7 %4 (%8) · %9 → %10</translation>
    </message>
    <message numerus="yes">
        <source>%Ln sample(s)</source>
        <translation>
            <numerusform>%Ln Stichprobe</numerusform>
            <numerusform>%Ln Stichproben</numerusform>
        </translation>
    </message>
    <message>
        <source>The comparison&apos;s flame graph (%1 → %2). %3 grew, %4 shrank, %5 unchanged, against the baseline&apos;s share of the same call path.</source>
        <translation>Der Flammengraph des Vergleichs (%1 → %2). %3 gewachsen, %4 geschrumpft, %5 unverändert, gegenüber dem Anteil desselben Aufrufpfads in der Basis.</translation>
    </message>
</context>
<context>
    <name>bpflens::CountersView</name>
    <message>
        <source>Page cache counters</source>
        <translation>Page-Cache-Zähler</translation>
    </message>
    <message>
        <source>Page cache hit ratio</source>
        <translation>Page-Cache-Trefferquote</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>hit ratio %</source>
        <translation>Trefferquote %</translation>
    </message>
    <message>
        <source>pages per interval</source>
        <translation>Seiten pro Intervall</translation>
    </message>
    <message>
        <source>Hit ratio</source>
        <translation>Trefferquote</translation>
    </message>
    <message>
        <source>Page cache</source>
        <translation>Page-Cache</translation>
    </message>
    <message>
        <source>TCP retransmits per connection</source>
        <translation>TCP-Retransmits je Verbindung</translation>
    </message>
    <message>
        <source>other connections</source>
        <translation>andere Verbindungen</translation>
    </message>
    <message>
        <source>retransmits per interval</source>
        <translation>Retransmits pro Intervall</translation>
    </message>
    <message>
        <source>TCP connects per destination</source>
        <translation>TCP-Verbindungen je Ziel</translation>
    </message>
    <message>
        <source>other destinations</source>
        <translation>andere Ziele</translation>
    </message>
    <message>
        <source>connects per interval</source>
        <translation>Verbindungen je Intervall</translation>
    </message>
    <message>
        <source>User function calls per key</source>
        <translation>Aufrufe von Benutzerfunktionen je Schlüssel</translation>
    </message>
    <message>
        <source>other keys</source>
        <translation>andere Schlüssel</translation>
    </message>
    <message>
        <source>calls per interval</source>
        <translation>Aufrufe je Intervall</translation>
    </message>
    <message>
        <source>No counter samples in this session: record the Page cache (cachestat) probe to see hits, misses and dirtied pages over time, TCP retransmits (tcpretrans) for retransmits per connection, TCP connects (tcpconnect) for connects per destination, User function calls (uprobe) for calls per key, USDT probes (usdt) or Tracepoint counts (tpcount) for hits per key.</source>
        <translation>Keine Zählerwerte in dieser Sitzung: Zeichnen Sie die Sonde Page-Cache (cachestat) auf, um Treffer, Fehlschläge und geänderte Seiten über die Zeit zu sehen, TCP-Retransmits (tcpretrans) für Retransmits je Verbindung, TCP-Verbindungsaufbauten (tcpconnect) für Verbindungen je Ziel, Aufrufe von Benutzerfunktionen (uprobe) für Aufrufe je Schlüssel, USDT-Sonden (usdt) oder Tracepoint-Zählungen (tpcount) für Treffer je Schlüssel.</translation>
    </message>
    <message>
        <source>USDT probe hits per key</source>
        <translation>USDT-Sonden-Treffer je Schlüssel</translation>
    </message>
    <message>
        <source>Tracepoint hits per key</source>
        <translation>Tracepoint-Treffer je Schlüssel</translation>
    </message>
    <message>
        <source>hits per interval</source>
        <translation>Treffer je Intervall</translation>
    </message>
    <message>
        <source>accesses</source>
        <translation>Zugriffe</translation>
    </message>
    <message>
        <source>added</source>
        <translation>hinzugefügt</translation>
    </message>
    <message>
        <source>dirtied</source>
        <translation>geändert (dirty)</translation>
    </message>
    <message>
        <source>misses</source>
        <translation>Fehltreffer</translation>
    </message>
    <message>
        <source>hits</source>
        <translation>Treffer</translation>
    </message>
    <message>
        <source>hit ratio</source>
        <translation>Trefferquote</translation>
    </message>
</context>
<context>
    <name>bpflens::CriticalPathModel</name>
    <message>
        <source>not recorded</source>
        <translation>nicht aufgezeichnet</translation>
    </message>
    <message>
        <source>Wakeups away from the thread asked for</source>
        <translation>Aufweckungen Abstand zum gewählten Thread</translation>
    </message>
    <message>
        <source>The wait did not end within the range</source>
        <translation>Das Warten endete nicht im Bereich</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Beginn</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Thread</source>
        <translation>Thread</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>Tiefe</translation>
    </message>
    <message>
        <source>Woken by</source>
        <translation>Geweckt von</translation>
    </message>
</context>
<context>
    <name>bpflens::CriticalPathSharesModel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>Thread</source>
        <translation>Thread</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>Anteil</translation>
    </message>
</context>
<context>
    <name>bpflens::DetailsPane</name>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Event details</source>
        <translation>Ereignisdetails</translation>
    </message>
    <message>
        <source>No event selected</source>
        <translation>Kein Ereignis ausgewählt</translation>
    </message>
    <message>
        <source>Stack frames</source>
        <translation>Stack-Frames</translation>
    </message>
    <message>
        <source>Waker&apos;s stack frames</source>
        <translation>Stack-Frames des Weckers</translation>
    </message>
    <message>
        <source>Its wakeup was not seen (preempted, or lost).</source>
        <translation>Sein Wecken wurde nicht gesehen (verdrängt oder verloren).</translation>
    </message>
    <message>
        <source>Woken from an interrupt (%1), whose stack was:</source>
        <translation>Von einem Interrupt (%1) geweckt, dessen Stack war:</translation>
    </message>
    <message>
        <source>Woken by %1 (PID %2, TID %3), whose stack was:</source>
        <translation>Geweckt von %1 (PID %2, TID %3), dessen Stack war:</translation>
    </message>
    <message>
        <source>No wakeup seen ended this wait (it lasted past the recording, or its wakeup was not seen).</source>
        <translation>Kein beobachteter Weckvorgang beendete dieses Warten (es dauerte über die Aufzeichnung hinaus, oder sein Weckvorgang wurde nicht gesehen).</translation>
    </message>
</context>
<context>
    <name>bpflens::EventDiffModel</name>
    <message>
        <source>Baseline</source>
        <translation>Basis</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Relative</source>
        <translation>Relativ</translation>
    </message>
    <message>
        <source>These events have no value in this dimension.</source>
        <translation>Diese Ereignisse haben in dieser Dimension keinen Wert.</translation>
    </message>
    <message>
        <source>No event of either session has a value in this dimension.</source>
        <translation>Kein Ereignis der beiden Sitzungen hat in dieser Dimension einen Wert.</translation>
    </message>
    <message>
        <source>The %1 busiest of %2 values, by the larger of the two counts.</source>
        <translation>Die %1 häufigsten von %2 Werten, nach der größeren der beiden Anzahlen.</translation>
    </message>
    <message>
        <source>Events / %1</source>
        <translation>Ereignisse / %1</translation>
    </message>
</context>
<context>
    <name>bpflens::EventTableModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
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
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Return</source>
        <translation>Rückgabe</translation>
    </message>
    <message>
        <source>File name</source>
        <translation>Dateiname</translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation>Argumente</translation>
    </message>
    <message>
        <source>TID</source>
        <translation>TID</translation>
    </message>
    <message>
        <source>Flags</source>
        <translation>Flags</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>Modus</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Pfad</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>Datenträger</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>Operation</translation>
    </message>
    <message>
        <source>Sector</source>
        <translation>Sektor</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>Bytes</translation>
    </message>
    <message>
        <source>Queue</source>
        <translation>Warteschlange</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Gerät</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Destination</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>File system</source>
        <translation>Dateisystem</translation>
    </message>
    <message>
        <source>Offset</source>
        <translation>Offset</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>Latenz</translation>
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
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Typ</translation>
    </message>
    <message>
        <source>Wall clock (UTC)</source>
        <translation>Uhrzeit (UTC)</translation>
    </message>
    <message>
        <source>Timestamp (ns)</source>
        <translation>Zeitstempel (ns)</translation>
    </message>
    <message>
        <source>Parent PID</source>
        <translation>Eltern-PID</translation>
    </message>
    <message>
        <source>argv[%1]</source>
        <translation>argv[%1]</translation>
    </message>
    <message>
        <source>Arguments truncated</source>
        <translation>Argumente gekürzt</translation>
    </message>
    <message>
        <source>Cgroup ID</source>
        <translation>Cgroup-ID</translation>
    </message>
    <message>
        <source>Cgroup path</source>
        <translation>Cgroup-Pfad</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>Unit</translation>
    </message>
    <message>
        <source>Container</source>
        <translation>Container</translation>
    </message>
    <message>
        <source>Kubernetes pod</source>
        <translation>Kubernetes-Pod</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message>
        <source>Command flags</source>
        <translation>Befehls-Flags</translation>
    </message>
    <message>
        <source>Queue time</source>
        <translation>Wartezeit in der Queue</translation>
    </message>
    <message>
        <source>Device time</source>
        <translation>Gerätezeit</translation>
    </message>
    <message>
        <source>Issued at</source>
        <translation>Abgesetzt um</translation>
    </message>
    <message>
        <source>Family</source>
        <translation>Adressfamilie</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Off-CPU time</source>
        <translation>Off-CPU-Zeit</translation>
    </message>
    <message>
        <source>Stack</source>
        <translation>Stack</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Local</source>
        <translation>Lokal</translation>
    </message>
    <message>
        <source>Remote</source>
        <translation>Gegenstelle</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>In Warteschlange</translation>
    </message>
    <message>
        <source>Queue limit</source>
        <translation>Warteschlangengrenze</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Sent</source>
        <translation>Gesendet</translation>
    </message>
    <message>
        <source>Received</source>
        <translation>Empfangen</translation>
    </message>
    <message>
        <source>Lifetime</source>
        <translation>Lebensdauer</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Time of day</source>
        <translation>Uhrzeit</translation>
    </message>
    <message>
        <source>Argument</source>
        <translation>Argument</translation>
    </message>
    <message>
        <source>String</source>
        <translation>Zeichenkette</translation>
    </message>
    <message>
        <source>Blocked in</source>
        <translation>Blockiert in</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>%1
in %2</source>
        <translation>%1
in %2</translation>
    </message>
    <message>
        <source>Stack id</source>
        <translation>Stack-ID</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>Woken by</source>
        <translation>Geweckt von</translation>
    </message>
    <message>
        <source>Waker PID</source>
        <translation>PID des Weckers</translation>
    </message>
    <message>
        <source>Waker TID</source>
        <translation>TID des Weckers</translation>
    </message>
    <message>
        <source>Woken at (ns)</source>
        <translation>Geweckt um (ns)</translation>
    </message>
    <message>
        <source>Wakeup to running</source>
        <translation>Bis zur Ausführung</translation>
    </message>
    <message>
        <source>Waker stack</source>
        <translation>Stack des Weckers</translation>
    </message>
    <message>
        <source>Woken from</source>
        <translation>Geweckt aus</translation>
    </message>
    <message>
        <source>Waker stack id</source>
        <translation>Stack-ID des Weckers</translation>
    </message>
    <message>
        <source>cgroup %1, not named by the recording</source>
        <translation>Cgroup %1, von der Aufzeichnung nicht benannt</translation>
    </message>
    <message>
        <source>%1 container %2
in %3</source>
        <translation>%1-Container %2
in %3</translation>
    </message>
    <message>
        <source>Constraint</source>
        <translation>Beschränkung</translation>
    </message>
    <message>
        <source>RSS</source>
        <translation>RSS</translation>
    </message>
    <message>
        <source>Total VM</source>
        <translation>Virtueller Speicher</translation>
    </message>
    <message>
        <source>Anonymous RSS</source>
        <translation>Anonymer RSS</translation>
    </message>
    <message>
        <source>File RSS</source>
        <translation>Datei-RSS</translation>
    </message>
    <message>
        <source>Shmem RSS</source>
        <translation>Shmem-RSS</translation>
    </message>
    <message>
        <source>Page tables</source>
        <translation>Seitentabellen</translation>
    </message>
    <message>
        <source>oom_score_adj</source>
        <translation>oom_score_adj</translation>
    </message>
    <message>
        <source>Triggered by</source>
        <translation>Ausgelöst von</translation>
    </message>
    <message>
        <source>Trigger PID</source>
        <translation>PID des Auslösers</translation>
    </message>
    <message>
        <source>Trigger TID</source>
        <translation>TID des Auslösers</translation>
    </message>
    <message>
        <source>Pages reclaimed</source>
        <translation>Zurückgewonnene Seiten</translation>
    </message>
    <message>
        <source>Major</source>
        <translation>Major</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Adresse</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>Gewicht</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Grund</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Größe</translation>
    </message>
    <message>
        <source>End</source>
        <translation>Ende</translation>
    </message>
    <message>
        <source>Allocated in</source>
        <translation>Belegt in</translation>
    </message>
</context>
<context>
    <name>bpflens::ExplainModel</name>
    <message>
        <source>CPU function</source>
        <translation>CPU-Funktion</translation>
    </message>
    <message>
        <source>Activate to filter every view to %1</source>
        <translation>Aktivieren, um jede Ansicht auf %1 zu filtern</translation>
    </message>
    <message>
        <source>The filter bar cannot select by %1</source>
        <translation>Die Filterleiste kann nicht nach %1 auswählen</translation>
    </message>
    <message>
        <source>%1% (%2 of %3)</source>
        <translation>%1 % (%2 von %3)</translation>
    </message>
    <message>
        <source>only inside</source>
        <translation>nur innerhalb</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>What</source>
        <translation>Was</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>In the range</source>
        <translation>Im Bereich</translation>
    </message>
    <message>
        <source>Outside</source>
        <translation>Außerhalb</translation>
    </message>
    <message>
        <source>More common</source>
        <translation>Häufiger</translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %Ln event(s) in the range</source>
        <translation>
            <numerusform>%1 von %Ln Ereignis im Bereich</numerusform>
            <numerusform>%1 der %Ln Ereignisse im Bereich</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of the %Ln event(s) outside the range</source>
        <translation>
            <numerusform>%1 von %Ln Ereignis außerhalb des Bereichs</numerusform>
            <numerusform>%1 der %Ln Ereignisse außerhalb des Bereichs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ExplainPage</name>
    <message>
        <source>Over-represented in the range</source>
        <translation>Im Bereich überrepräsentiert</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Wird berechnet …</translation>
    </message>
    <message>
        <source>No events. Open a session or record one, zoom into a spike in the timeline and see what is special about it.</source>
        <translation>Keine Ereignisse. Öffnen oder zeichnen Sie eine Sitzung auf, zoomen Sie in der Zeitleiste in eine Spitze und sehen Sie, was an ihr besonders ist.</translation>
    </message>
    <message>
        <source>Zoom into a spike in the timeline (Shift+drag across it) or select heatmap cells: this tab then lists the processes, files, disks and functions that are more common there than in the rest of the recording.</source>
        <translation>Zoomen Sie in der Zeitleiste in eine Spitze (Umschalt+Ziehen darüber) oder wählen Sie Heatmap-Zellen: dieser Tab listet dann die Prozesse, Dateien, Datenträger und Funktionen, die dort häufiger sind als im Rest der Aufzeichnung.</translation>
    </message>
    <message>
        <source>No events in the visible range pass the filter. Zoom out or change the filter.</source>
        <translation>Keine Ereignisse im sichtbaren Bereich passieren den Filter. Zoomen Sie heraus oder ändern Sie den Filter.</translation>
    </message>
    <message>
        <source>The heatmap selection: %1 events from %2 to %3 with a latency of %4 – %5: %6 inside, %7 outside. Most over-represented first:</source>
        <translation>Die Heatmap-Auswahl: %1-Ereignisse von %2 bis %3 mit einer Latenz von %4 – %5: %6 innerhalb, %7 außerhalb. Am stärksten überrepräsentiert zuerst:</translation>
    </message>
    <message>
        <source>Nothing is more common in the visible range than in the rest of the recording with at least %1 events and %2 % of the range&apos;s events.</source>
        <translation>Nichts mit mindestens %1 Ereignissen und %2 % der Ereignisse des Bereichs ist im sichtbaren Bereich häufiger als im Rest der Aufzeichnung.</translation>
    </message>
    <message numerus="yes">
        <source>%1 to %2: %Ln event(s) with the selected latency inside, %3 outside. Most over-represented first:</source>
        <translation>
            <numerusform>%1 bis %2: %Ln Ereignis mit der gewählten Latenz innerhalb, %3 außerhalb. Am stärksten überrepräsentiert zuerst:</numerusform>
            <numerusform>%1 bis %2: %Ln Ereignisse mit der gewählten Latenz innerhalb, %3 außerhalb. Am stärksten überrepräsentiert zuerst:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 to %2: %Ln event(s) inside, %3 outside. Most over-represented first:</source>
        <translation>
            <numerusform>%1 bis %2: %Ln Ereignis innerhalb, %3 außerhalb. Am stärksten überrepräsentiert zuerst:</numerusform>
            <numerusform>%1 bis %2: %Ln Ereignisse innerhalb, %3 außerhalb. Am stärksten überrepräsentiert zuerst:</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ExportController</name>
    <message>
        <source>&amp;Export CSV</source>
        <translation>CSV &amp;exportieren</translation>
    </message>
    <message>
        <source>&amp;Whole Session…</source>
        <translation>&amp;Ganze Sitzung …</translation>
    </message>
    <message>
        <source>&amp;Visible Time Range…</source>
        <translation>&amp;Sichtbarer Zeitbereich …</translation>
    </message>
    <message>
        <source>One &amp;Probe…</source>
        <translation>Eine S&amp;onde …</translation>
    </message>
    <message>
        <source>Export &amp;Chart as Image…</source>
        <translation>&amp;Diagramm als Bild exportieren …</translation>
    </message>
    <message>
        <source>Export One Probe</source>
        <translation>Eine Sonde exportieren</translation>
    </message>
    <message>
        <source>Probe:</source>
        <translation>Sonde:</translation>
    </message>
    <message>
        <source>Export CSV Into</source>
        <translation>CSV exportieren nach</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>Export fehlgeschlagen</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n file(s) to %1</source>
        <translation>
            <numerusform>%n Datei nach %1 exportiert</numerusform>
            <numerusform>%n Dateien nach %1 exportiert</numerusform>
        </translation>
    </message>
    <message>
        <source>there is no chart to export</source>
        <translation>es gibt kein Diagramm zum Exportieren</translation>
    </message>
    <message>
        <source>Exported by BPF Lens</source>
        <translation>Exportiert von BPF Lens</translation>
    </message>
    <message>
        <source>cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Export Chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG image (*.svg)</source>
        <translation>PNG-Bild (*.png);;SVG-Bild (*.svg)</translation>
    </message>
    <message>
        <source>%1 has no image format BPF Lens can write: end the name with .png or .svg</source>
        <translation>%1 hat kein Bildformat, das BPF Lens schreiben kann: Beenden Sie den Namen mit .png oder .svg</translation>
    </message>
    <message>
        <source>Export &amp;Trace…</source>
        <translation>&amp;Trace exportieren …</translation>
    </message>
    <message>
        <source>The session as a trace for Perfetto UI and chrome://tracing</source>
        <translation>Die Sitzung als Trace für Perfetto UI und chrome://tracing</translation>
    </message>
    <message>
        <source>Export Trace</source>
        <translation>Trace exportieren</translation>
    </message>
    <message>
        <source>Trace Event JSON (*.json)</source>
        <translation>Trace-Event-JSON (*.json)</translation>
    </message>
    <message>
        <source>Exported the trace to %1</source>
        <translation>Trace nach %1 exportiert</translation>
    </message>
    <message>
        <source>Latency heatmap: %1</source>
        <translation>Latenz-Heatmap: %1</translation>
    </message>
    <message>
        <source>Histograms</source>
        <translation>Histogramme</translation>
    </message>
    <message>
        <source>live recording</source>
        <translation>laufende Aufzeichnung</translation>
    </message>
    <message>
        <source>%1 — %2 — %3 to %4</source>
        <translation>%1 — %2 — %3 bis %4</translation>
    </message>
    <message>
        <source>Export &amp;pprof Profile</source>
        <translation>&amp;pprof-Profil exportieren</translation>
    </message>
    <message>
        <source>&amp;On-CPU Samples…</source>
        <translation>&amp;On-CPU-Stichproben …</translation>
    </message>
    <message>
        <source>O&amp;ff-CPU Waits…</source>
        <translation>O&amp;ff-CPU-Wartezeiten …</translation>
    </message>
    <message>
        <source>The profile of the visible time range under the filter, for go tool pprof, Parca and Pyroscope</source>
        <translation>Das Profil des sichtbaren Zeitbereichs unter dem Filter, für go tool pprof, Parca und Pyroscope</translation>
    </message>
    <message>
        <source>Export pprof Profile</source>
        <translation>pprof-Profil exportieren</translation>
    </message>
    <message>
        <source>pprof profile (*.pb.gz)</source>
        <translation>pprof-Profil (*.pb.gz)</translation>
    </message>
    <message>
        <source>Exported the profile to %1</source>
        <translation>Profil nach %1 exportiert</translation>
    </message>
    <message>
        <source>Export Off-&amp;Wake Stacks…</source>
        <translation>Off-&amp;Wake-Stacks exportieren…</translation>
    </message>
    <message>
        <source>The off-wake flame graph&apos;s stacks of the visible time range under the filter, folded for flamegraph.pl and speedscope</source>
        <translation>Die Stacks des Off-Wake-Flame-Graphs im sichtbaren Zeitbereich unter dem Filter, gefaltet für flamegraph.pl und speedscope</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>Export Off-Wake Stacks</source>
        <translation>Off-Wake-Stacks exportieren</translation>
    </message>
    <message>
        <source>Folded stacks (*.folded *.txt)</source>
        <translation>Gefaltete Stacks (*.folded *.txt)</translation>
    </message>
    <message>
        <source>Exported the off-wake stacks to %1</source>
        <translation>Off-Wake-Stacks nach %1 exportiert</translation>
    </message>
</context>
<context>
    <name>bpflens::FlameGraphView</name>
    <message>
        <source>Flame graph</source>
        <translation>Flame-Graph</translation>
    </message>
    <message>
        <source>Call stacks as boxes as wide as their share of the samples. Click a box to zoom into it, Backspace zooms out, Escape resets.</source>
        <translation>Aufrufstacks als Kästen, so breit wie ihr Anteil an den Stichproben. Ein Klick auf einen Kasten zoomt hinein, Rücktaste zoomt heraus, Escape setzt zurück.</translation>
    </message>
    <message>
        <source>all off-CPU time</source>
        <translation>gesamte Off-CPU-Zeit</translation>
    </message>
    <message>
        <source>all samples</source>
        <translation>alle Stichproben</translation>
    </message>
    <message>
        <source>%1: %2 of off-CPU time (%3)</source>
        <translation>%1: %2 der Off-CPU-Zeit (%3)</translation>
    </message>
    <message>
        <source>%1: %2 of samples</source>
        <translation>%1: %2 der Stichproben</translation>
    </message>
    <message>
        <source>%1 small functions</source>
        <translation>%1 kleine Funktionen</translation>
    </message>
    <message>
        <source>No samples</source>
        <translation>Keine Stichproben</translation>
    </message>
    <message numerus="yes">
        <source>%n sample(s)</source>
        <translation>
            <numerusform>%n Stichprobe</numerusform>
            <numerusform>%n Stichproben</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2 (%3)</source>
        <translation>%1: %2 (%3)</translation>
    </message>
    <message>
        <source>%1 small functions, each narrower than %2 pixels, merged</source>
        <translation>%1 kleine Funktionen, jede schmaler als %2 Pixel, zusammengefasst</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>Gesamt</translation>
    </message>
    <message>
        <source>Click the caller to zoom in</source>
        <translation>Auf den Aufrufer klicken, um hineinzuzoomen</translation>
    </message>
    <message>
        <source>Truncated stacks: the unwinder did not reach the thread&apos;s first frame, so the callers of these samples are unknown.</source>
        <translation>Abgeschnittene Stacks: Der Unwinder hat den ersten Frame des Threads nicht erreicht, daher sind die Aufrufer dieser Stichproben unbekannt.</translation>
    </message>
    <message>
        <source>Kernel: %1</source>
        <translation>Kernel: %1</translation>
    </message>
    <message>
        <source>User: %1</source>
        <translation>Benutzer: %1</translation>
    </message>
    <message>
        <source>unknown module</source>
        <translation>unbekanntes Modul</translation>
    </message>
    <message>
        <source>Self</source>
        <translation>Selbst</translation>
    </message>
    <message>
        <source>Self samples</source>
        <translation>Eigene Stichproben</translation>
    </message>
    <message>
        <source>Total samples</source>
        <translation>Stichproben gesamt</translation>
    </message>
    <message>
        <source>Below: the blocked threads&apos; stacks. Above: the stacks of the threads that woke them, the frame that woke them first.</source>
        <translation>Darunter: die Stacks der blockierten Threads. Darüber: die Stacks der Threads, die sie weckten, der weckende Frame zuerst.</translation>
    </message>
    <message>
        <source>Waits whose wakeup was not seen (a preempted thread, or a wakeup lost to a full map)</source>
        <translation>Wartevorgänge, deren Aufwecken nicht gesehen wurde (ein verdrängter Thread oder ein Aufwecken, das an einer vollen Map verloren ging)</translation>
    </message>
    <message>
        <source>The waker&apos;s command</source>
        <translation>Der Befehl des Weckers</translation>
    </message>
    <message>
        <source>The blocked thread&apos;s command</source>
        <translation>Der Befehl des blockierten Threads</translation>
    </message>
    <message>
        <source>Waker&apos;s frame: the thread that woke the blocked one was here</source>
        <translation>Frame des Weckers: Hier war der Thread, der den blockierten weckte</translation>
    </message>
    <message>
        <source>Blocked thread&apos;s frame</source>
        <translation>Frame des blockierten Threads</translation>
    </message>
    <message>
        <source>Ended %1 of off-CPU time (%2)</source>
        <translation>Beendete %1 Off-CPU-Zeit (%2)</translation>
    </message>
    <message>
        <source>all page faults</source>
        <translation>alle Seitenfehler</translation>
    </message>
    <message>
        <source>%1: %2 of page faults</source>
        <translation>%1: %2 der Seitenfehler</translation>
    </message>
    <message numerus="yes">
        <source>%n page fault(s)</source>
        <translation>
            <numerusform>%n Seitenfehler</numerusform>
            <numerusform>%n Seitenfehler</numerusform>
        </translation>
    </message>
    <message>
        <source>all memory in use</source>
        <translation>gesamter belegter Speicher</translation>
    </message>
    <message>
        <source>%1: %2 of memory in use (%3)</source>
        <translation>%1: %2 des belegten Speichers (%3)</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message numerus="yes">
        <source>Sampled: each recorded allocation stands for %Ln allocation(s)</source>
        <translation>
            <numerusform>Stichproben: Jede aufgezeichnete Belegung steht für %Ln Belegung</numerusform>
            <numerusform>Stichproben: Jede aufgezeichnete Belegung steht für %Ln Belegungen</numerusform>
        </translation>
    </message>
    <message>
        <source>Oldest block: allocated %1 before the range&apos;s end</source>
        <translation>Ältester Block: %1 vor dem Ende des Bereichs belegt</translation>
    </message>
</context>
<context>
    <name>bpflens::HeatmapModel</name>
    <message>
        <source>%1 (histogram)</source>
        <translation>%1 (Histogramm)</translation>
    </message>
    <message>
        <source>%1 — %2 (histogram)</source>
        <translation>%1 — %2 (Histogramm)</translation>
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
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Latency heatmap</source>
        <translation>Latenz-Heatmap</translation>
    </message>
    <message>
        <source>time since the session start</source>
        <translation>Zeit seit Sitzungsbeginn</translation>
    </message>
    <message>
        <source>count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>Histogram of the selection</source>
        <translation>Histogramm der Auswahl</translation>
    </message>
    <message>
        <source>Click a cell or drag a rectangle to select events.</source>
        <translation>Eine Zelle anklicken oder ein Rechteck aufziehen, um Ereignisse auszuwählen.</translation>
    </message>
    <message>
        <source>&amp;Latency of:</source>
        <translation>&amp;Latenz von:</translation>
    </message>
    <message>
        <source>Heatmap source</source>
        <translation>Quelle der Heatmap</translation>
    </message>
    <message>
        <source>Colour &amp;scale:</source>
        <translation>Farb&amp;skala:</translation>
    </message>
    <message>
        <source>Logarithmic</source>
        <translation>Logarithmisch</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>Linear</translation>
    </message>
    <message>
        <source>Colour scale</source>
        <translation>Farbskala</translation>
    </message>
    <message>
        <source>&amp;Clear selection</source>
        <translation>Auswahl &amp;aufheben</translation>
    </message>
    <message>
        <source>events: %1</source>
        <translation>Ereignisse: %1</translation>
    </message>
    <message>
        <source>samples: %1</source>
        <translation>Stichproben: %1</translation>
    </message>
    <message>
        <source>%1 – %2
latency %3 – %4
%5</source>
        <translation>%1 – %2
Latenz %3 – %4
%5</translation>
    </message>
    <message>
        <source>Events with a latency in the visible range: %1.</source>
        <translation>Ereignisse mit Latenz im sichtbaren Bereich: %1.</translation>
    </message>
    <message>
        <source>Samples in the visible range: %1.</source>
        <translation>Stichproben im sichtbaren Bereich: %1.</translation>
    </message>
    <message>
        <source>Hover a cell for its counts; click a cell or drag a rectangle to select.</source>
        <translation>Zeiger über eine Zelle zeigt ihre Anzahl; Klick auf eine Zelle oder ein aufgezogenes Rechteck wählt aus.</translation>
    </message>
    <message>
        <source>Selected: %1 – %2, latency %3 – %4: %5</source>
        <translation>Ausgewählt: %1 – %2, Latenz %3 – %4: %5</translation>
    </message>
    <message>
        <source>This session holds no events with a latency and no latency histograms.</source>
        <translation>Diese Sitzung enthält keine Ereignisse mit Latenz und keine Latenz-Histogramme.</translation>
    </message>
    <message>
        <source>No events with a latency in this range</source>
        <translation>Keine Ereignisse mit Latenz in diesem Bereich</translation>
    </message>
    <message>
        <source>No histogram samples in this range</source>
        <translation>Keine Histogramm-Stichproben in diesem Bereich</translation>
    </message>
    <message>
        <source>Explain…</source>
        <translation>Erklären …</translation>
    </message>
    <message>
        <source>Events per latency bucket</source>
        <translation>Ereignisse je Latenzbereich</translation>
    </message>
    <message>
        <source>Samples per latency bucket</source>
        <translation>Messwerte je Latenzbereich</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>Latenz</translation>
    </message>
    <message>
        <source>What is more common among the selected events than among the events of the same type and latencies in the rest of the recording</source>
        <translation>Was unter den ausgewählten Ereignissen häufiger ist als unter den Ereignissen desselben Typs und derselben Latenzen im Rest der Aufzeichnung</translation>
    </message>
    <message>
        <source>Histogram samples have no processes, files or disks to explain: select a source with events (such as Block I/O)</source>
        <translation>Histogramm-Messwerte haben keine Prozesse, Dateien oder Datenträger, die sich erklären ließen: eine Quelle mit Ereignissen wählen (etwa Block-I/O)</translation>
    </message>
    <message>
        <source>%1 – %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source> · p50 in %1 · p99 in %2</source>
        <translation> · p50 in %1 · p99 in %2</translation>
    </message>
</context>
<context>
    <name>bpflens::HelpController</name>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>&amp;Dokumentation</translation>
    </message>
    <message>
        <source>How to record, read the views and use the command line</source>
        <translation>Wie man aufzeichnet, die Ansichten liest und die Kommandozeile nutzt</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>&amp;Tastenkürzel</translation>
    </message>
    <message>
        <source>&amp;About BPF Lens</source>
        <translation>Über BPF &amp;Lens</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>Über &amp;Qt</translation>
    </message>
    <message>
        <source>BPF Lens Documentation</source>
        <translation>BPF-Lens-Dokumentation</translation>
    </message>
    <message>
        <source>Topics</source>
        <translation>Themen</translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>Tastenkürzel</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>Aktion</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>Kürzel</translation>
    </message>
    <message>
        <source>Timeline &gt; Zoom around the pointer</source>
        <translation>Zeitachse &gt; Um den Mauszeiger zoomen</translation>
    </message>
    <message>
        <source>Wheel, + and -</source>
        <translation>Mausrad, + und -</translation>
    </message>
    <message>
        <source>Timeline &gt; Move the visible range</source>
        <translation>Zeitachse &gt; Sichtbaren Bereich verschieben</translation>
    </message>
    <message>
        <source>Drag</source>
        <translation>Ziehen</translation>
    </message>
    <message>
        <source>Timeline &gt; Zoom to a range</source>
        <translation>Zeitachse &gt; Auf einen Bereich zoomen</translation>
    </message>
    <message>
        <source>Shift+Drag</source>
        <translation>Umschalt+Ziehen</translation>
    </message>
    <message>
        <source>Timeline &gt; Show everything</source>
        <translation>Zeitachse &gt; Alles zeigen</translation>
    </message>
    <message>
        <source>Home</source>
        <translation>Pos1</translation>
    </message>
    <message>
        <source>Timeline &gt; Select an event</source>
        <translation>Zeitachse &gt; Ein Ereignis auswählen</translation>
    </message>
    <message>
        <source>Click</source>
        <translation>Klick</translation>
    </message>
    <message>
        <source>About BPF Lens</source>
        <translation>Über BPF Lens</translation>
    </message>
    <message>
        <source>&lt;h3&gt;BPF Lens %1&lt;/h3&gt;&lt;p&gt;A desktop profiler for Linux: the BCC and libbpf-tools probes, recorded through a privileged helper and explored in timelines, histograms, heatmaps and flame graphs.&lt;/p&gt;&lt;p&gt;Built with Qt %2, running on Qt %3.&lt;/p&gt;&lt;p&gt;License: GPL-2.0-or-later; the eBPF programs: GPL-2.0.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;BPF Lens %1&lt;/h3&gt;&lt;p&gt;Ein Desktop-Profiler für Linux: die Sonden von BCC und libbpf-tools, über einen privilegierten Helfer aufgezeichnet und in Zeitachsen, Histogrammen, Heatmaps und Flame Graphs erkundet.&lt;/p&gt;&lt;p&gt;Erstellt mit Qt %2, läuft mit Qt %3.&lt;/p&gt;&lt;p&gt;Lizenz: GPL-2.0-or-later; die eBPF-Programme: GPL-2.0.&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>bpflens::HelperRecorder</name>
    <message>
        <source>There is no system D-Bus (%1), so the BPF Lens helper cannot be reached. Start the system bus (as root: &lt;code&gt;systemctl start dbus&lt;/code&gt;), or run BPF Lens as root to record without the helper.</source>
        <translation>Es gibt keinen System-D-Bus (%1), daher ist der BPF-Lens-Helper nicht erreichbar. Starten Sie den System-Bus (als root: &lt;code&gt;systemctl start dbus&lt;/code&gt;) oder starten Sie BPF Lens als root, um ohne den Helper aufzuzeichnen.</translation>
    </message>
    <message>
        <source>A recording is already running.</source>
        <translation>Es läuft bereits eine Aufzeichnung.</translation>
    </message>
    <message>
        <source>Waiting for authorisation…</source>
        <translation>Warte auf Autorisierung …</translation>
    </message>
    <message>
        <source>The previous recording is still finishing.</source>
        <translation>Die vorige Aufzeichnung wird noch abgeschlossen.</translation>
    </message>
    <message>
        <source>Cannot create the recording pipe: %1</source>
        <translation>Die Pipe für die Aufzeichnung kann nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>Cannot run %1: %2</source>
        <translation>%1 kann nicht ausgeführt werden: %2</translation>
    </message>
    <message>
        <source>Recording cancelled before it started.</source>
        <translation>Aufzeichnung vor dem Start abgebrochen.</translation>
    </message>
    <message>
        <source>The helper ended the recording (%1) without finishing its stream.</source>
        <translation>Der Helper hat die Aufzeichnung beendet (%1), ohne ihren Datenstrom abzuschließen.</translation>
    </message>
    <message>
        <source>The recorder (%1) ended without finishing the recording: %2</source>
        <translation>Der Rekorder (%1) wurde beendet, ohne die Aufzeichnung abzuschließen: %2</translation>
    </message>
    <message>
        <source>The helper stopped sending the recording without ending it (did it crash?): %1</source>
        <translation>Der Helper hat aufgehört, die Aufzeichnung zu senden, ohne sie zu beenden (abgestürzt?): %1</translation>
    </message>
    <message>
        <source>The helper refused the probe settings: %1</source>
        <translation>Der Helper hat die Sonden-Einstellungen abgelehnt: %1</translation>
    </message>
    <message>
        <source>The helper is busy: %1. Stop one of your other recordings and try again.</source>
        <translation>Der Helper ist ausgelastet: %1. Beenden Sie eine Ihrer anderen Aufzeichnungen und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>The kernel refused a probe: %1</source>
        <translation>Der Kernel hat eine Sonde abgelehnt: %1</translation>
    </message>
    <message>
        <source>bpflens-helper is not installed: install BPF Lens as root with cmake --install (configured with -DCMAKE_INSTALL_PREFIX=/usr), which installs the helper, its D-Bus service and the polkit policy.</source>
        <translation>bpflens-helper ist nicht installiert: Installieren Sie BPF Lens als root mit cmake --install (konfiguriert mit -DCMAKE_INSTALL_PREFIX=/usr); das installiert den Helper, seinen D-Bus-Dienst und die polkit-Richtlinie.</translation>
    </message>
    <message>
        <source>bpflens-helper is installed but could not be started: %1</source>
        <translation>bpflens-helper ist installiert, konnte aber nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>The helper did not answer: %1</source>
        <translation>Der Helper hat nicht geantwortet: %1</translation>
    </message>
    <message>
        <source>The connection to the system D-Bus is gone: %1</source>
        <translation>Die Verbindung zum System-D-Bus ist weg: %1</translation>
    </message>
    <message>
        <source>The helper reported an error (%1): %2</source>
        <translation>Der Helper hat einen Fehler gemeldet (%1): %2</translation>
    </message>
    <message>
        <source>&lt;b&gt;You are not allowed to record:&lt;/b&gt; polkit refused the action %1. Ask an administrator to allow it, for example with a rule for your group in &lt;code&gt;/etc/polkit-1/rules.d&lt;/code&gt;.</source>
        <translation>&lt;b&gt;Sie dürfen nicht aufzeichnen:&lt;/b&gt; polkit hat die Aktion %1 abgelehnt. Bitten Sie einen Administrator, sie zu erlauben, zum Beispiel mit einer Regel für Ihre Gruppe in &lt;code&gt;/etc/polkit-1/rules.d&lt;/code&gt;.</translation>
    </message>
    <message>
        <source>You are not allowed to record: polkit refused the action %1. Ask an administrator to allow it, for example with a rule for your group in /etc/polkit-1/rules.d.</source>
        <translation>Sie dürfen nicht aufzeichnen: polkit hat die Aktion %1 abgelehnt. Bitten Sie einen Administrator, sie zu erlauben, zum Beispiel mit einer Regel für Ihre Gruppe in /etc/polkit-1/rules.d.</translation>
    </message>
    <message>
        <source>The BPF Lens helper is no longer running, and the system bus did not start it again. Press Record to try again.</source>
        <translation>Der BPF-Lens-Helfer läuft nicht mehr, und der Systembus hat ihn nicht wieder gestartet. Klicken Sie auf Aufzeichnen, um es erneut zu versuchen.</translation>
    </message>
</context>
<context>
    <name>bpflens::HistogramView</name>
    <message>
        <source>&amp;Show:</source>
        <translation>&amp;Anzeigen:</translation>
    </message>
    <message>
        <source>Cumulative over the visible range</source>
        <translation>Kumuliert über den sichtbaren Bereich</translation>
    </message>
    <message>
        <source>Last interval in the visible range</source>
        <translation>Letztes Intervall im sichtbaren Bereich</translation>
    </message>
    <message>
        <source>Histogram mode</source>
        <translation>Histogramm-Modus</translation>
    </message>
    <message>
        <source>%1 %2: %3 (%4 %)</source>
        <translation>%1 %2: %3 (%4 %)</translation>
    </message>
    <message>
        <source>count</source>
        <translation>Anzahl</translation>
    </message>
    <message>
        <source>Histogram %1 %2</source>
        <translation>Histogramm %1 %2</translation>
    </message>
    <message>
        <source>This session holds no histograms.</source>
        <translation>Diese Sitzung enthält keine Histogramme.</translation>
    </message>
    <message>
        <source>no samples in the visible range</source>
        <translation>keine Stichproben im sichtbaren Bereich</translation>
    </message>
    <message>
        <source>&amp;Log scale</source>
        <translation>&amp;Logarithmisch</translation>
    </message>
    <message>
        <source>Counts on a logarithmic axis: a few slow requests show beside thousands of fast ones</source>
        <translation>Anzahlen auf logarithmischer Achse: wenige langsame Anfragen sind neben Tausenden schnellen sichtbar</translation>
    </message>
    <message>
        <source>count (log)</source>
        <translation>Anzahl (log.)</translation>
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
        <translation>p50 in %1 · p99 in %2 (dunklere Balken) · 1 Messwert</translation>
    </message>
    <message numerus="yes">
        <source>p50 in %1 · p99 in %2 (darker bars) · %Ln samples</source>
        <translation>
            <numerusform>p50 in %1 · p99 in %2 (dunklere Balken) · %Ln Messwert</numerusform>
            <numerusform>p50 in %1 · p99 in %2 (dunklere Balken) · %Ln Messwerte</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::IoStackView</name>
    <message>
        <source>s</source>
        <translation>s</translation>
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
        <translation>I/O-Stack</translation>
    </message>
    <message>
        <source>No I/O stack data in this session: record the I/O stack breakdown (iostack) probe to see where read, write, open and fsync spend their time.</source>
        <translation>Diese Sitzung enthält keine I/O-Stack-Daten: Zeichnen Sie mit der Sonde „I/O-Stack-Aufschlüsselung“ (iostack) auf, um zu sehen, wo read, write, open und fsync ihre Zeit verbringen.</translation>
    </message>
    <message>
        <source>Exclusive time per layer and operation</source>
        <translation>Exklusive Zeit pro Schicht und Operation</translation>
    </message>
    <message>
        <source>&amp;Operation over time:</source>
        <translation>&amp;Operation über die Zeit:</translation>
    </message>
    <message>
        <source>Operation shown over time</source>
        <translation>Über die Zeit gezeigte Operation</translation>
    </message>
    <message>
        <source>Exclusive time per layer over time</source>
        <translation>Exklusive Zeit pro Schicht über die Zeit</translation>
    </message>
    <message>
        <source>Syscall</source>
        <translation>Syscall</translation>
    </message>
    <message>
        <source>VFS</source>
        <translation>VFS</translation>
    </message>
    <message>
        <source>File system</source>
        <translation>Dateisystem</translation>
    </message>
    <message>
        <source>Block queue</source>
        <translation>Block-Queue</translation>
    </message>
    <message>
        <source>Block device</source>
        <translation>Blockgerät</translation>
    </message>
    <message>
        <source>unattributed block I/O</source>
        <translation>nicht zugeordnete Block-I/O</translation>
    </message>
    <message>
        <source>%1 · %2: not measured on the recording kernel (its time is counted in the layer above)</source>
        <translation>%1 · %2: auf dem aufzeichnenden Kernel nicht gemessen (die Zeit zählt zur Schicht darüber)</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %2: %3 exclusive (%4 % of %5), %n call(s)</source>
        <translation>
            <numerusform>%1 · %2: %3 exklusiv (%4 % von %5), %n Aufruf</numerusform>
            <numerusform>%1 · %2: %3 exklusiv (%4 % von %5), %n Aufrufe</numerusform>
        </translation>
    </message>
    <message>
        <source>Not measured on the recording kernel: %1. Their time is counted in the layer above (they need fentry or kprobes).</source>
        <translation>Auf dem aufzeichnenden Kernel nicht gemessen: %1. Ihre Zeit zählt zur Schicht darüber (sie benötigen fentry oder kprobes).</translation>
    </message>
    <message>
        <source>Block queue time is part of the layer above: record with the &quot;Include queue time&quot; option to see it separately.</source>
        <translation>Die Block-Queue-Zeit ist Teil der Schicht darüber: Zeichnen Sie mit der Option „Wartezeit einbeziehen“ auf, um sie getrennt zu sehen.</translation>
    </message>
    <message>
        <source>%1 (not measured)</source>
        <translation>%1 (nicht gemessen)</translation>
    </message>
    <message>
        <source>exclusive time (%1)</source>
        <translation>exklusive Zeit (%1)</translation>
    </message>
    <message>
        <source>Exclusive time per layer, visible range</source>
        <translation>Exklusive Zeit pro Schicht, sichtbarer Bereich</translation>
    </message>
    <message>
        <source>%1: no samples in the visible range</source>
        <translation>%1: keine Messwerte im sichtbaren Bereich</translation>
    </message>
    <message>
        <source>%1 · %2 until %3 s: %4 (%5 %)</source>
        <translation>%1 · %2 bis %3 s: %4 (%5 %)</translation>
    </message>
    <message>
        <source>seconds (interval end)</source>
        <translation>Sekunden (Intervallende)</translation>
    </message>
    <message>
        <source>%1: exclusive time per layer over time</source>
        <translation>%1: exklusive Zeit pro Schicht über die Zeit</translation>
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
        <translation>Sonde</translation>
    </message>
    <message>
        <source>Key</source>
        <translation>Schlüssel</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>Min</translation>
    </message>
    <message>
        <source>Mean</source>
        <translation>Mittel</translation>
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
        <translation>p99,9</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>Max</translation>
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
        <translation>Aufzeichnung nicht verfügbar</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Zoom</source>
        <translation>&amp;Zoom</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>Ver&amp;größern</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>Ver&amp;kleinern</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>Zoom &amp;zurücksetzen</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>Aufzeichnung</translation>
    </message>
    <message>
        <source>&amp;Recording</source>
        <translation>Auf&amp;zeichnung</translation>
    </message>
    <message>
        <source>Unsaved recording</source>
        <translation>Ungespeicherte Aufzeichnung</translation>
    </message>
    <message>
        <source>%1[*] — BPF Lens</source>
        <translation>%1[*] — BPF Lens</translation>
    </message>
    <message>
        <source>&lt;b&gt;Recording is not available.&lt;/b&gt; %1&lt;br&gt;Saved sessions can still be opened.</source>
        <translation>&lt;b&gt;Aufzeichnen ist nicht möglich.&lt;/b&gt; %1&lt;br&gt;Gespeicherte Sitzungen lassen sich weiterhin öffnen.</translation>
    </message>
    <message>
        <source>Recording problem</source>
        <translation>Problem beim Aufzeichnen</translation>
    </message>
    <message>
        <source>Damaged session</source>
        <translation>Beschädigte Sitzung</translation>
    </message>
    <message>
        <source>Hide this message</source>
        <translation>Diese Meldung ausblenden</translation>
    </message>
    <message>
        <source>&lt;b&gt;This file is damaged&lt;/b&gt; (%1). Everything that could be read is shown; this was lost:&lt;ul&gt;%2&lt;/ul&gt;Save As writes what was read into a new, intact file.</source>
        <translation>&lt;b&gt;Diese Datei ist beschädigt&lt;/b&gt; (%1). Alles, was gelesen werden konnte, wird angezeigt; verloren ging:&lt;ul&gt;%2&lt;/ul&gt;Speichern unter schreibt das Gelesene in eine neue, intakte Datei.</translation>
    </message>
    <message>
        <source>Time of &amp;Day in Tables</source>
        <translation>&amp;Uhrzeit in Tabellen</translation>
    </message>
    <message>
        <source>Recording: waiting for the first data from the probes…</source>
        <translation>Aufzeichnung: warte auf die ersten Daten der Sonden …</translation>
    </message>
    <message>
        <source>Recording on %1</source>
        <translation>Aufzeichnung auf %1</translation>
    </message>
    <message>
        <source>%1 (recorded on %2)</source>
        <translation>%1 (aufgezeichnet auf %2)</translation>
    </message>
    <message>
        <source>Unsaved recording on %1</source>
        <translation>Ungespeicherte Aufzeichnung auf %1</translation>
    </message>
    <message>
        <source>&amp;New Recording…</source>
        <translation>&amp;Neue Aufzeichnung…</translation>
    </message>
    <message>
        <source>Choose the probes to record and their options</source>
        <translation>Die aufzuzeichnenden Sonden und ihre Optionen wählen</translation>
    </message>
    <message>
        <source>No data yet. Choose probes with New Recording and press Record, or open a session with File &gt; Open.</source>
        <translation>Noch keine Daten. Sonden unter „Neue Aufzeichnung“ wählen und Aufzeichnen drücken, oder eine Sitzung mit Datei &gt; Öffnen laden.</translation>
    </message>
</context>
<context>
    <name>bpflens::MemoryPage</name>
    <message>
        <source>Top stacks of memory in use</source>
        <translation>Top-Stacks des belegten Speichers</translation>
    </message>
    <message>
        <source>Stacks holding memory</source>
        <translation>Stacks, die Speicher belegen</translation>
    </message>
    <message>
        <source>Stack frames</source>
        <translation>Stack-Frames</translation>
    </message>
    <message numerus="yes">
        <source>In use at the range&apos;s end: %1 in %Ln block(s)</source>
        <translation>
            <numerusform>Belegt am Ende des Bereichs: %1 in %Ln Block</numerusform>
            <numerusform>Belegt am Ende des Bereichs: %1 in %Ln Blöcken</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln stack(s)</source>
        <translation>
            <numerusform>%Ln Stack</numerusform>
            <numerusform>%Ln Stacks</numerusform>
        </translation>
    </message>
    <message>
        <source>each event standing for %1 allocations</source>
        <translation>jedes Ereignis steht für %1 Belegungen</translation>
    </message>
    <message>
        <source>The blocks allocated in the visible range and not freed by its end, by the stack that allocated them. Over the whole recording: every block never freed while it was recorded. Zoom the range to two moments to see what grew between them.</source>
        <translation>Die im sichtbaren Bereich belegten und bis zu seinem Ende nicht freigegebenen Blöcke, nach dem Stack, der sie belegt hat. Über die ganze Aufzeichnung: jeder Block, der während der Aufzeichnung nie freigegeben wurde. Den Bereich auf zwei Zeitpunkte zoomen, um zu sehen, was dazwischen gewachsen ist.</translation>
    </message>
    <message numerus="yes">
        <source>Allocated in the range: %1 in %Ln block(s)</source>
        <translation>
            <numerusform>Im Bereich belegt: %1 in %Ln Block</numerusform>
            <numerusform>Im Bereich belegt: %1 in %Ln Blöcken</numerusform>
        </translation>
    </message>
    <message>
        <source>No allocations in this session.

Record a running process with the memleak probe to see which call stacks hold its memory.</source>
        <translation>Keine Speicherbelegungen in dieser Sitzung.

Einen laufenden Prozess mit der Sonde „memleak“ aufzeichnen, um zu sehen, welche Aufrufstacks seinen Speicher belegen.</translation>
    </message>
    <message numerus="yes">
        <source>Every block allocated in this range was freed by its end (%Ln block(s), %1).</source>
        <translation>
            <numerusform>Jeder in diesem Bereich belegte Block wurde bis zu seinem Ende freigegeben (%Ln Block, %1).</numerusform>
            <numerusform>Jeder in diesem Bereich belegte Block wurde bis zu seinem Ende freigegeben (%Ln Blöcke, %1).</numerusform>
        </translation>
    </message>
    <message>
        <source>Only the blocks still allocated at the range&apos;s end count: move its end later, or zoom out (Ctrl+0 shows the whole session).</source>
        <translation>Nur die am Ende des Bereichs noch belegten Blöcke zählen: das Ende später legen oder herauszoomen (Strg+0 zeigt die ganze Sitzung).</translation>
    </message>
    <message>
        <source>Zoom out on the timeline or clear the PID and command filters.</source>
        <translation>In der Zeitleiste herauszoomen oder die PID- und Befehlsfilter leeren.</translation>
    </message>
    <message>
        <source>Zoom out on the timeline (Ctrl+0 shows the whole session).</source>
        <translation>In der Zeitleiste herauszoomen (Strg+0 zeigt die ganze Sitzung).</translation>
    </message>
    <message>
        <source>No allocations in this range.</source>
        <translation>Keine Speicherbelegungen in diesem Bereich.</translation>
    </message>
</context>
<context>
    <name>bpflens::MemoryStackModel</name>
    <message numerus="yes">
        <source>%1 in %Ln allocation(s) from this stack</source>
        <translation>
            <numerusform>%1 in %Ln Belegung von diesem Stack</numerusform>
            <numerusform>%1 in %Ln Belegungen von diesem Stack</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 in %Ln allocation(s) from this stack, the oldest allocated %2 before the range&apos;s end</source>
        <translation>
            <numerusform>%1 in %Ln Belegung von diesem Stack, die älteste %2 vor dem Ende des Bereichs</numerusform>
            <numerusform>%1 in %Ln Belegungen von diesem Stack, die älteste %2 vor dem Ende des Bereichs</numerusform>
        </translation>
    </message>
    <message>
        <source>The function that called the allocator: the stack&apos;s first frame</source>
        <translation>Die Funktion, die den Allokator aufrief: der erste Frame des Stacks</translation>
    </message>
    <message>
        <source>Bytes allocated from this stack in the range and not freed by its end</source>
        <translation>Im Bereich von diesem Stack belegte und bis zu seinem Ende nicht freigegebene Bytes</translation>
    </message>
    <message>
        <source>Blocks allocated from this stack in the range and not freed by its end</source>
        <translation>Im Bereich von diesem Stack belegte und bis zu seinem Ende nicht freigegebene Blöcke</translation>
    </message>
    <message>
        <source>How long before the range&apos;s end the oldest of these blocks was allocated: how long a leak has been growing</source>
        <translation>Wie lange vor dem Ende des Bereichs der älteste dieser Blöcke belegt wurde: wie lange ein Leck schon wächst</translation>
    </message>
    <message>
        <source>Allocated in</source>
        <translation>Belegt in</translation>
    </message>
    <message>
        <source>In use</source>
        <translation>Belegt</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>Blöcke</translation>
    </message>
    <message>
        <source>Oldest</source>
        <translation>Ältester</translation>
    </message>
    <message>
        <source>Where in it, where the program&apos;s debug information says</source>
        <translation>Wo darin, soweit die Debug-Informationen des Programms es sagen</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewCostModel</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>CPU samples</source>
        <translation>CPU-Stichproben</translation>
    </message>
    <message>
        <source>Off-CPU time</source>
        <translation>Off-CPU-Zeit</translation>
    </message>
    <message>
        <source>Block I/O time</source>
        <translation>Block-I/O-Zeit</translation>
    </message>
    <message>
        <source>Opens</source>
        <translation>Öffnungen</translation>
    </message>
    <message>
        <source>Connects</source>
        <translation>Verbindungsaufbauten</translation>
    </message>
    <message>
        <source>%1 is part of BPF Lens: its own cost while recording</source>
        <translation>%1 gehört zu BPF Lens: der eigene Aufwand beim Aufzeichnen</translation>
    </message>
    <message>
        <source>Activate to filter every view to this process</source>
        <translation>Aktivieren, um alle Ansichten auf diesen Prozess zu filtern</translation>
    </message>
    <message>
        <source>%1 (BPF Lens)</source>
        <translation>%1 (BPF Lens)</translation>
    </message>
    <message>
        <source>Of every CPU sample in the range, idle ones included</source>
        <translation>Von allen CPU-Stichproben im Bereich, Leerlauf eingeschlossen</translation>
    </message>
    <message>
        <source>Of the whole %1 in the range</source>
        <translation>Vom gesamten Wert „%1“ im Bereich</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>Prozess</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>Anteil</translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewFindingModel</name>
    <message numerus="yes">
        <source>%1 lost %Ln event(s): its buffer was full</source>
        <translation>
            <numerusform>%1 hat %Ln Ereignis verloren: sein Puffer war voll</numerusform>
            <numerusform>%1 hat %Ln Ereignisse verloren: sein Puffer war voll</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %Ln event(s) at %2–%3 s, %4× the usual rate</source>
        <extracomment>A burst of events: &quot;Block I/O: 870 events at 4.2–4.8 s, 12× the usual rate&quot;</extracomment>
        <translation>
            <numerusform>%1: %Ln Ereignis bei %2–%3 s, %4× die übliche Rate</numerusform>
            <numerusform>%1: %Ln Ereignisse bei %2–%3 s, %4× die übliche Rate</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %Ln failed with %2</source>
        <extracomment>&quot;Open: 1,234 failed with ENOENT&quot;</extracomment>
        <translation>
            <numerusform>%1: %Ln mit %2 fehlgeschlagen</numerusform>
            <numerusform>%1: %Ln mit %2 fehlgeschlagen</numerusform>
        </translation>
    </message>
    <message>
        <source>Run-queue latency p99 is %1, p50 %2: some threads waited far longer for a CPU</source>
        <translation>Run-Queue-Latenz p99 ist %1, p50 %2: manche Threads warteten viel länger auf eine CPU</translation>
    </message>
    <message>
        <source>Show the events</source>
        <translation>Ereignisse zeigen</translation>
    </message>
    <message>
        <source>Explain the burst</source>
        <translation>Ausschlag erklären</translation>
    </message>
    <message>
        <source>Show the histogram</source>
        <translation>Histogramm zeigen</translation>
    </message>
    <message>
        <source>%1 of the burst&apos;s events (%2 of %3); %4 elsewhere (%5 of %6)</source>
        <translation>%1 der Ereignisse des Ausschlags (%2 von %3); %4 sonst (%5 von %6)</translation>
    </message>
    <message>
        <source>%1 of %2 in the visible range, %3 of them by BPF Lens&apos; own processes</source>
        <translation>%1 von %2 im sichtbaren Bereich, %3 davon von BPF Lens’ eigenen Prozessen</translation>
    </message>
    <message>
        <source>%1 of %2 in the visible range</source>
        <translation>%1 von %2 im sichtbaren Bereich</translation>
    </message>
    <message>
        <source>Worth a look</source>
        <translation>Auffällig</translation>
    </message>
    <message>
        <source>Shown in</source>
        <translation>Gezeigt in</translation>
    </message>
    <message>
        <source>%1 — %2 %3: %4 of them</source>
        <extracomment>&quot;… — Process 700 dd: 94 % of them&quot;</extracomment>
        <translation>%1 — %2 %3: %4 davon</translation>
    </message>
    <message>
        <source>%1. To lose fewer: %2</source>
        <extracomment>&quot;pagefault lost 26,861 events: its buffer was full. To lose fewer: record one fault in N (every=N), …&quot;</extracomment>
        <translation>%1. Damit weniger verloren gehen: %2</translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewMemoryModel</name>
    <message numerus="yes">
        <source>%1 in %Ln allocation(s) from this stack, the oldest allocated %2 before the range&apos;s end</source>
        <translation>
            <numerusform>%1 in %Ln Belegung von diesem Stack, die älteste %2 vor dem Ende des Bereichs</numerusform>
            <numerusform>%1 in %Ln Belegungen von diesem Stack, die älteste %2 vor dem Ende des Bereichs</numerusform>
        </translation>
    </message>
    <message>
        <source>Activate to see the stacks holding memory in the Memory tab.</source>
        <translation>Aktivieren, um die Speicher belegenden Stacks im Reiter „Speicher“ zu sehen.</translation>
    </message>
    <message>
        <source>The blocks allocated in the visible range and not freed by its end, as the Memory tab&apos;s flame graph and top stacks sum them.</source>
        <translation>Die im sichtbaren Bereich belegten und bis zu seinem Ende nicht freigegebenen Blöcke, wie der Flame-Graph und die Top-Stacks des Reiters „Speicher“ sie summieren.</translation>
    </message>
    <message>
        <source>The most the recorded blocks held at once in the range, whenever they were allocated.</source>
        <translation>Das Meiste, was die aufgezeichneten Blöcke im Bereich gleichzeitig belegten, wann immer sie belegt wurden.</translation>
    </message>
    <message>
        <source>What the recorded blocks held at the range&apos;s end (%1) less what they held at its start (%2).</source>
        <translation>Was die aufgezeichneten Blöcke am Ende des Bereichs belegten (%1), abzüglich dessen, was sie an seinem Anfang belegten (%2).</translation>
    </message>
    <message>
        <source>Every block allocated in the range, freed or not. Sampled (sampleEvery=%1): the bytes and blocks are estimates.</source>
        <translation>Jeder im Bereich belegte Block, freigegeben oder nicht. Stichproben (sampleEvery=%1): Bytes und Blöcke sind Schätzungen.</translation>
    </message>
    <message>
        <source>Every block allocated in the range, freed or not.</source>
        <translation>Jeder im Bereich belegte Block, freigegeben oder nicht.</translation>
    </message>
    <message>
        <source>Allocated in %1</source>
        <translation>Belegt in %1</translation>
    </message>
    <message>
        <source>In use at the end</source>
        <translation>Belegt am Ende</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>Spitze</translation>
    </message>
    <message>
        <source>Growth over the range</source>
        <translation>Zuwachs im Bereich</translation>
    </message>
    <message>
        <source>Allocated in the range</source>
        <translation>Im Bereich belegt</translation>
    </message>
    <message numerus="yes">
        <source>%1 in %Ln block(s), the oldest %2 old</source>
        <translation>
            <numerusform>%1 in %Ln Block, der älteste %2 alt</numerusform>
            <numerusform>%1 in %Ln Blöcken, der älteste %2 alt</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 in %Ln block(s) from %2</source>
        <translation>
            <numerusform>%1 in %Ln Block aus %2</numerusform>
            <numerusform>%1 in %Ln Blöcken aus %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln stack(s)</source>
        <translation>
            <numerusform>%Ln Stack</numerusform>
            <numerusform>%Ln Stacks</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 at %2 s</source>
        <translation>%1 bei %2 s</translation>
    </message>
    <message numerus="yes">
        <source>%1 in %Ln block(s)</source>
        <translation>
            <numerusform>%1 in %Ln Block</numerusform>
            <numerusform>%1 in %Ln Blöcken</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::OverviewPage</name>
    <message>
        <source>Show BPF Lens&apos; own processes</source>
        <translation>BPF Lens’ eigene Prozesse zeigen</translation>
    </message>
    <message>
        <source>bpflens, bpflens-cli, bpflens-helper and bpflens-symbolizer record and symbolise: their cost is the recording&apos;s, not the system&apos;s. They are left out of the top lists unless this is ticked.</source>
        <translation>bpflens, bpflens-cli, bpflens-helper und bpflens-symbolizer zeichnen auf und symbolisieren: Ihr Aufwand gehört zur Aufzeichnung, nicht zum System. Ohne dieses Häkchen fehlen sie in den Top-Listen.</translation>
    </message>
    <message>
        <source>Worth a look</source>
        <translation>Auffällig</translation>
    </message>
    <message>
        <source>Top processes</source>
        <translation>Top-Prozesse</translation>
    </message>
    <message>
        <source>Probes</source>
        <translation>Sonden</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Wird berechnet …</translation>
    </message>
    <message>
        <source>No session yet: record one, or open a .bpflens file.</source>
        <translation>Noch keine Sitzung: Zeichnen Sie eine auf oder öffnen Sie eine .bpflens-Datei.</translation>
    </message>
    <message>
        <source>Nothing stands out: no lost events, no bursts, no failed calls and no long run-queue waits.</source>
        <translation>Nichts fällt auf: keine verlorenen Ereignisse, keine Ausschläge, keine fehlgeschlagenen Aufrufe und keine langen Wartezeiten in der Run-Queue.</translation>
    </message>
    <message>
        <source>No CPU samples, off-CPU, block I/O, open or connect events. Record with the profile, offcpu, block, open or tcpconnect probes to rank processes by them.</source>
        <translation>Keine CPU-Stichproben, Off-CPU-, Block-I/O-, Open- oder Connect-Ereignisse. Mit den Probes profile, offcpu, block, open oder tcpconnect aufzeichnen, um Prozesse danach zu ordnen.</translation>
    </message>
    <message numerus="yes">
        <source>%1–%2 s: %Ln event(s)</source>
        <translation>
            <numerusform>%1–%2 s: %Ln Ereignis</numerusform>
            <numerusform>%1–%2 s: %Ln Ereignisse</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1–%2 s: %Ln event(s) pass the filter</source>
        <translation>
            <numerusform>%1–%2 s: %Ln Ereignis passiert den Filter</numerusform>
            <numerusform>%1–%2 s: %Ln Ereignisse passieren den Filter</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) lost</source>
        <translation>
            <numerusform>%Ln Ereignis verloren</numerusform>
            <numerusform>%Ln Ereignisse verloren</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 not seen</source>
        <translation>%1 nicht gesehen</translation>
    </message>
    <message>
        <source>Not seen: %1</source>
        <translation>Nicht gesehen: %1</translation>
    </message>
    <message>
        <source>%1 unfinished</source>
        <translation>%1 unvollendet</translation>
    </message>
    <message>
        <source>Unfinished: %1</source>
        <translation>Unvollendet: %1</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
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
        <translation>Ereignisse, für die der Kernel keinen Platz hatte: Der Ringpuffer (oder eine Map, die eine Anfrage verfolgt) war voll. Sie fehlen in den Tabellen und der Zeitleiste; Histogramme werden im Kernel gezählt und sind vollständig.</translation>
    </message>
    <message>
        <source>Events that could not be made because the kernel did not run the probe&apos;s program for one of their stages (a block request whose completion was never seen). No buffer was full.</source>
        <translation>Ereignisse, die nicht entstehen konnten, weil der Kernel das Programm der Sonde für einen ihrer Schritte nicht ausgeführt hat (eine Block-Anfrage, deren Abschluss nie gesehen wurde). Kein Puffer war voll.</translation>
    </message>
    <message>
        <source>Requests seen starting and still open when the probe stopped: in flight at the stop, or ended without the kernel running the completion program. They have no event.</source>
        <translation>Anfragen, deren Beginn gesehen wurde und die beim Stopp der Sonde noch offen waren: beim Stopp unterwegs, oder beendet, ohne dass der Kernel das Abschlussprogramm ausgeführt hat. Sie haben kein Ereignis.</translation>
    </message>
    <message>
        <source>%1 lost</source>
        <translation>%1 verloren</translation>
    </message>
    <message>
        <source>%1 not seen</source>
        <translation>%1 nicht gesehen</translation>
    </message>
    <message>
        <source>%1 unfinished</source>
        <translation>%1 unvollendet</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>The session has no counters of this probe.</source>
        <translation>Die Sitzung hat keine Zähler dieser Sonde.</translation>
    </message>
    <message>
        <source>%1 lost: %2</source>
        <translation>%1 verloren: %2</translation>
    </message>
    <message>
        <source>%1 not seen: %2</source>
        <translation>%1 nicht gesehen: %2</translation>
    </message>
    <message>
        <source>%1 unfinished: %2</source>
        <translation>%1 unvollendet: %2</translation>
    </message>
    <message>
        <source>Nothing was lost.</source>
        <translation>Nichts ging verloren.</translation>
    </message>
    <message>
        <source>The histograms of this probe are of stages of the same requests: see the I/O Stack tab.</source>
        <translation>Die Histogramme dieser Sonde sind Stufen derselben Anfragen: siehe Reiter „I/O-Stack“.</translation>
    </message>
    <message>
        <source>Counted in the kernel into log2 buckets: the bucket the value falls in, not the value.</source>
        <translation>Im Kernel in log2-Buckets gezählt: der Bucket, in den der Wert fällt, nicht der Wert.</translation>
    </message>
    <message>
        <source>This probe counts into histograms in the kernel and records no single events.</source>
        <translation>Diese Sonde zählt im Kernel in Histogramme und zeichnet keine einzelnen Ereignisse auf.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s)</source>
        <translation>
            <numerusform>%Ln Ereignis</numerusform>
            <numerusform>%Ln Ereignisse</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <comment>samples in intervals</comment>
        <extracomment>&quot;1,234 samples in 10 intervals&quot;</extracomment>
        <translation>%1 in %2</translation>
    </message>
    <message numerus="yes">
        <source>%Ln sample(s)</source>
        <translation>
            <numerusform>%Ln Messwert</numerusform>
            <numerusform>%Ln Messwerte</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln interval(s)</source>
        <translation>
            <numerusform>%Ln Intervall</numerusform>
            <numerusform>%Ln Intervallen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>counters of %Ln interval(s)</source>
        <translation>
            <numerusform>Zähler aus %Ln Intervall</numerusform>
            <numerusform>Zähler aus %Ln Intervallen</numerusform>
        </translation>
    </message>
    <message>
        <source>no data</source>
        <translation>keine Daten</translation>
    </message>
    <message>
        <source>not counted</source>
        <translation>nicht gezählt</translation>
    </message>
    <message>
        <source>Over the whole recording. Only &quot;lost&quot; means a full buffer.</source>
        <translation>Über die ganze Aufzeichnung. Nur „verloren“ bedeutet einen vollen Puffer.</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>Sonde</translation>
    </message>
    <message>
        <source>In the range</source>
        <translation>Im Bereich</translation>
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
        <translation>Max</translation>
    </message>
    <message>
        <source>Missing</source>
        <translation>Fehlend</translation>
    </message>
</context>
<context>
    <name>bpflens::PercentileDiffModel</name>
    <message>
        <source>new</source>
        <translation>neu</translation>
    </message>
    <message>
        <source>%1%2%</source>
        <translation>%1%2 %</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Histogram</source>
        <translation>Histogramm</translation>
    </message>
    <message>
        <source>Percentile</source>
        <translation>Perzentil</translation>
    </message>
    <message>
        <source>Baseline</source>
        <translation>Basis</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>Vergleich</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Änderung</translation>
    </message>
    <message>
        <source>Relative</source>
        <translation>Relativ</translation>
    </message>
    <message numerus="yes">
        <source>%1: %Ln sample(s) in the baseline, %2 in the comparison</source>
        <translation>
            <numerusform>%1: %Ln Stichprobe in der Basis, %2 im Vergleich</numerusform>
            <numerusform>%1: %Ln Stichproben in der Basis, %2 im Vergleich</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ProbePanel</name>
    <message>
        <source>Probes</source>
        <translation>Sonden</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>Prozesse</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>Dateien</translation>
    </message>
    <message>
        <source>Block I/O</source>
        <translation>Block-I/O</translation>
    </message>
    <message>
        <source>I/O stack</source>
        <translation>I/O-Stack</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>Scheduler</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>Benutzerdefiniert</translation>
    </message>
    <message>
        <source>any</source>
        <translation>alle</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Availability unknown until the helper answers.</source>
        <translation>Verfügbarkeit unbekannt, bis der Helper antwortet.</translation>
    </message>
    <message>
        <source>available</source>
        <translation>verfügbar</translation>
    </message>
    <message>
        <source>Available on this kernel.</source>
        <translation>Auf diesem Kernel verfügbar.</translation>
    </message>
    <message>
        <source>Attaches to %1</source>
        <translation>Hängt sich an %1</translation>
    </message>
    <message>
        <source>not available</source>
        <translation>nicht verfügbar</translation>
    </message>
    <message>
        <source>Not available on this kernel: %1</source>
        <translation>Auf diesem Kernel nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>kein Grund angegeben</translation>
    </message>
    <message>
        <source>Invalid option: %1</source>
        <translation>Ungültige Option: %1</translation>
    </message>
    <message>
        <source>Select at least one probe to record.</source>
        <translation>Wählen Sie mindestens eine Sonde zum Aufzeichnen aus.</translation>
    </message>
    <message>
        <source>Kernel: not known until the helper answers</source>
        <translation>Kernel: unbekannt, bis der Helper antwortet</translation>
    </message>
    <message>
        <source>Kernel %1</source>
        <translation>Kernel %1</translation>
    </message>
    <message>
        <source>The availability below is this kernel&apos;s, as the helper sees it.</source>
        <translation>Die Verfügbarkeit unten gilt für diesen Kernel, wie der Helper ihn sieht.</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>partly available</source>
        <translation>teilweise verfügbar</translation>
    </message>
    <message>
        <source>Limited on this kernel: %1</source>
        <translation>Auf diesem Kernel eingeschränkt: %1</translation>
    </message>
    <message>
        <source>Cannot probe: %1</source>
        <translation>Nicht messbar: %1</translation>
    </message>
    <message>
        <source>no USDT probe given (BINARY:PROVIDER:NAME)</source>
        <translation>keine USDT-Sonde angegeben (BINÄRDATEI:PROVIDER:NAME)</translation>
    </message>
    <message>
        <source>Remote kernel %1 on %2</source>
        <translation>Entfernter Kernel %1 auf %2</translation>
    </message>
    <message>
        <source>The availability below is the kernel of %1, as bpflens-cli there sees it, not this computer&apos;s.</source>
        <translation>Die Verfügbarkeit unten ist die des Kernels von %1, wie bpflens-cli dort sie sieht, nicht die dieses Computers.</translation>
    </message>
    <message>
        <source>None of the selected probes can run on this kernel: %1.</source>
        <translation>Keine der ausgewählten Sonden kann auf diesem Kernel laufen: %1.</translation>
    </message>
    <message>
        <source>None of the selected probes can run on the kernel of %1: %2.</source>
        <translation>Keine der ausgewählten Sonden kann auf dem Kernel von %1 laufen: %2.</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>bpflens::ProfilePage</name>
    <message>
        <source>CPU profile</source>
        <translation>CPU-Profil</translation>
    </message>
    <message>
        <source>On-CPU</source>
        <translation>On-CPU</translation>
    </message>
    <message>
        <source>Off-CPU</source>
        <translation>Off-CPU</translation>
    </message>
    <message>
        <source>Profile kind</source>
        <translation>Profilart</translation>
    </message>
    <message>
        <source>User + kernel</source>
        <translation>Benutzer + Kernel</translation>
    </message>
    <message>
        <source>User only</source>
        <translation>Nur Benutzer</translation>
    </message>
    <message>
        <source>Kernel only</source>
        <translation>Nur Kernel</translation>
    </message>
    <message>
        <source>Stack frames shown</source>
        <translation>Angezeigte Stack-Frames</translation>
    </message>
    <message>
        <source>Root at top</source>
        <translation>Wurzel oben</translation>
    </message>
    <message>
        <source>Icicle graph: callers at the top, callees below</source>
        <translation>Eiszapfen-Graph: Aufrufer oben, Aufgerufene darunter</translation>
    </message>
    <message>
        <source>Search functions…</source>
        <translation>Funktionen suchen…</translation>
    </message>
    <message>
        <source>Search functions</source>
        <translation>Funktionen suchen</translation>
    </message>
    <message>
        <source>Reset zoom</source>
        <translation>Zoom zurücksetzen</translation>
    </message>
    <message>
        <source>Show all call stacks again (Escape)</source>
        <translation>Wieder alle Aufrufstacks zeigen (Escape)</translation>
    </message>
    <message>
        <source>Top-down call tree</source>
        <translation>Aufrufbaum von oben nach unten</translation>
    </message>
    <message>
        <source>Bottom-up call tree</source>
        <translation>Aufrufbaum von unten nach oben</translation>
    </message>
    <message>
        <source>Functions</source>
        <translation>Funktionen</translation>
    </message>
    <message>
        <source>Bottom-Up</source>
        <translation>Bottom-up</translation>
    </message>
    <message>
        <source>Top-Down</source>
        <translation>Top-down</translation>
    </message>
    <message>
        <source>Every function once: self and total cost</source>
        <translation>Jede Funktion einmal: eigene und gesamte Kosten</translation>
    </message>
    <message>
        <source>The functions samples were taken in, their callers below</source>
        <translation>Die Funktionen, in denen Stichproben genommen wurden, ihre Aufrufer darunter</translation>
    </message>
    <message>
        <source>From the threads&apos; first frames down to the callees</source>
        <translation>Von den ersten Frames der Threads hinunter zu den Aufgerufenen</translation>
    </message>
    <message>
        <source>user code</source>
        <translation>Benutzercode</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>[truncated]: the unwinder did not reach the thread&apos;s first frame</source>
        <translation>[abgeschnitten]: Der Unwinder hat den ersten Frame des Threads nicht erreicht</translation>
    </message>
    <message>
        <source>search match</source>
        <translation>Suchtreffer</translation>
    </message>
    <message>
        <source>Samples in range: %1</source>
        <translation>Stichproben im Bereich: %1</translation>
    </message>
    <message>
        <source>No CPU samples in this session.

Record with the profile probe to see where CPU time goes.</source>
        <translation>Keine CPU-Stichproben in dieser Sitzung.

Mit der Sonde profile aufzeichnen, um zu sehen, wohin die CPU-Zeit geht.</translation>
    </message>
    <message>
        <source>No off-CPU events in this session.

Record with the offcpu probe to see where threads wait and for how long.</source>
        <translation>Keine Off-CPU-Ereignisse in dieser Sitzung.

Mit der Sonde offcpu aufzeichnen, um zu sehen, wo und wie lange Threads warten.</translation>
    </message>
    <message>
        <source>Zoom out on the timeline or clear the PID and command filters.</source>
        <translation>Auf der Zeitleiste herauszoomen oder die PID- und Befehlsfilter leeren.</translation>
    </message>
    <message>
        <source>Zoom out on the timeline (Ctrl+0 shows the whole session).</source>
        <translation>Auf der Zeitleiste herauszoomen (Strg+0 zeigt die ganze Sitzung).</translation>
    </message>
    <message>
        <source>No CPU samples in this range.</source>
        <translation>Keine CPU-Stichproben in diesem Bereich.</translation>
    </message>
    <message>
        <source>No off-CPU time in this range.</source>
        <translation>Keine Off-CPU-Zeit in diesem Bereich.</translation>
    </message>
    <message>
        <source>Click a frame to zoom into it</source>
        <translation>Auf einen Frame klicken, um hineinzuzoomen</translation>
    </message>
    <message numerus="yes">
        <source>Off-CPU time in range: %1 (%Ln wait(s))</source>
        <translation>
            <numerusform>Off-CPU-Zeit im Bereich: %1 (%Ln Wartevorgang)</numerusform>
            <numerusform>Off-CPU-Zeit im Bereich: %1 (%Ln Wartevorgänge)</numerusform>
        </translation>
    </message>
    <message>
        <source>Off-wake</source>
        <translation>Off-Wake</translation>
    </message>
    <message>
        <source>woken by: the blocked stack ends below</source>
        <translation>geweckt von: darunter endet der blockierte Stack</translation>
    </message>
    <message>
        <source>waker</source>
        <translation>Wecker</translation>
    </message>
    <message>
        <source>Off-wake flame graph</source>
        <translation>Off-Wake-Flame-Graph</translation>
    </message>
    <message>
        <source>Flame graph</source>
        <translation>Flame-Graph</translation>
    </message>
    <message>
        <source>No off-wake waits in this session.

Record with the offwake probe to see who woke the waiting threads.</source>
        <translation>Keine Off-Wake-Wartevorgänge in dieser Sitzung.

Zeichnen Sie mit der Sonde „offwake“ auf, um zu sehen, wer die wartenden Threads weckte.</translation>
    </message>
    <message>
        <source>No off-wake waits in this range.</source>
        <translation>Keine Off-Wake-Wartevorgänge in diesem Bereich.</translation>
    </message>
    <message numerus="yes">
        <source>Off-wake time in range: %1 (%Ln wait(s))</source>
        <translation>
            <numerusform>Off-Wake-Zeit im Bereich: %1 (%Ln Wartevorgang)</numerusform>
            <numerusform>Off-Wake-Zeit im Bereich: %1 (%Ln Wartevorgänge)</numerusform>
        </translation>
    </message>
    <message>
        <source>Page faults</source>
        <translation>Seitenfehler</translation>
    </message>
    <message>
        <source>Page faults in range: %1</source>
        <translation>Seitenfehler im Bereich: %1</translation>
    </message>
    <message>
        <source>No page faults in this session.

Record with the pagefault probe to see where processes fault their memory in.</source>
        <translation>Keine Seitenfehler in dieser Sitzung.

Mit der Sonde pagefault aufzeichnen, um zu sehen, wo Prozesse ihren Speicher einlagern.</translation>
    </message>
    <message>
        <source>No page faults in this range.</source>
        <translation>Keine Seitenfehler in diesem Bereich.</translation>
    </message>
    <message>
        <source>Memory in use</source>
        <translation>Belegter Speicher</translation>
    </message>
    <message>
        <source>No allocations in this session.

Record a running process with the memleak probe to see which call stacks hold its memory.</source>
        <translation>Keine Speicherbelegungen in dieser Sitzung.

Einen laufenden Prozess mit der Sonde „memleak“ aufzeichnen, um zu sehen, welche Aufrufstacks seinen Speicher halten.</translation>
    </message>
    <message numerus="yes">
        <source>Every block allocated in this range was freed by its end (%Ln block(s), %1).</source>
        <translation>
            <numerusform>Jeder in diesem Bereich belegte Block wurde bis zu seinem Ende freigegeben (%Ln Block, %1).</numerusform>
            <numerusform>Jeder in diesem Bereich belegte Block wurde bis zu seinem Ende freigegeben (%Ln Blöcke, %1).</numerusform>
        </translation>
    </message>
    <message>
        <source>Only the blocks still allocated at the range&apos;s end count: move its end later, or zoom out (Ctrl+0 shows the whole session).</source>
        <translation>Es zählen nur die Blöcke, die am Ende des Bereichs noch belegt sind: sein Ende später setzen oder herauszoomen (Strg+0 zeigt die ganze Sitzung).</translation>
    </message>
    <message>
        <source>No allocations in this range.</source>
        <translation>Keine Speicherbelegungen in diesem Bereich.</translation>
    </message>
    <message numerus="yes">
        <source>In use: %1 in %Ln block(s), each event standing for %2 allocations</source>
        <translation>
            <numerusform>Belegt: %1 in %Ln Block, jedes Ereignis steht für %2 Belegungen</numerusform>
            <numerusform>Belegt: %1 in %Ln Blöcken, jedes Ereignis steht für %2 Belegungen</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>In use: %1 in %Ln block(s)</source>
        <translation>
            <numerusform>Belegt: %1 in %Ln Block</numerusform>
            <numerusform>Belegt: %1 in %Ln Blöcken</numerusform>
        </translation>
    </message>
    <message>
        <source>The blocks allocated in the visible range and not freed by its end. Over the whole recording: every block never freed while it was recorded. Zoom the range to two moments to see what grew between them.</source>
        <translation>Die im sichtbaren Bereich belegten und bis zu seinem Ende nicht freigegebenen Blöcke. Über die ganze Aufzeichnung: jeder Block, der während der Aufzeichnung nie freigegeben wurde. Den Bereich auf zwei Zeitpunkte zoomen, um zu sehen, was dazwischen gewachsen ist.</translation>
    </message>
    <message numerus="yes">
        <source>Allocated in the range: %1 in %Ln block(s)</source>
        <translation>
            <numerusform>Im Bereich belegt: %1 in %Ln Block</numerusform>
            <numerusform>Im Bereich belegt: %1 in %Ln Blöcken</numerusform>
        </translation>
    </message>
    <message>
        <source>Sampled (sampleEvery=%1): each recorded allocation stands for %1, so the bytes and blocks are estimates.</source>
        <translation>Stichproben (sampleEvery=%1): Jede aufgezeichnete Belegung steht für %1, Bytes und Blöcke sind daher Schätzungen.</translation>
    </message>
    <message>
        <source>On-CPU: where the CPUs were running, one sample per tick.
Off-CPU: where threads blocked, weighted by the time they waited.
Off-wake (offwake probe): each blocked stack with the stack of the thread that woke it on top.
Page faults (pagefault probe): where processes faulted their memory in, weighted by faults.</source>
        <translation>On-CPU: wo die CPUs liefen, eine Stichprobe pro Takt.
Off-CPU: wo Threads blockierten, gewichtet nach ihrer Wartezeit.
Off-Wake (Sonde „offwake“): jeder blockierte Stack mit dem Stack des Threads, der ihn weckte, darüber.
Seitenfehler (Sonde „pagefault“): wo Prozesse ihren Speicher einlagerten, gewichtet nach Seitenfehlern.</translation>
    </message>
</context>
<context>
    <name>bpflens::ProfileText</name>
    <message>
        <source>[truncated]</source>
        <translation>[abgeschnitten]</translation>
    </message>
    <message>
        <source>[no stack]</source>
        <translation>[kein Stack]</translation>
    </message>
    <message>
        <source>%1%</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>woken by</source>
        <translation>geweckt von</translation>
    </message>
    <message>
        <source>[waker not seen]</source>
        <translation>[Wecker nicht gesehen]</translation>
    </message>
    <message>
        <source>[unknown]</source>
        <translation>[unbekannt]</translation>
    </message>
</context>
<context>
    <name>bpflens::QueryPage</name>
    <message>
        <source>SQL query</source>
        <translation>SQL-Abfrage</translation>
    </message>
    <message>
        <source>Tables and columns</source>
        <translation>Tabellen und Spalten</translation>
    </message>
    <message>
        <source>Double-click a table or column to insert its name</source>
        <translation>Doppelklick auf eine Tabelle oder Spalte fügt ihren Namen ein</translation>
    </message>
    <message>
        <source>SQL statement</source>
        <translation>SQL-Anweisung</translation>
    </message>
    <message>
        <source>SELECT … FROM exec</source>
        <translation>SELECT … FROM exec</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Ausführen</translation>
    </message>
    <message>
        <source>Run the statement (Ctrl+Return)</source>
        <translation>Die Anweisung ausführen (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Stop the running statement</source>
        <translation>Die laufende Anweisung anhalten</translation>
    </message>
    <message>
        <source>&amp;Export CSV…</source>
        <translation>Als CSV &amp;exportieren …</translation>
    </message>
    <message>
        <source>Save the rows shown as a CSV file</source>
        <translation>Die angezeigten Zeilen als CSV-Datei speichern</translation>
    </message>
    <message>
        <source>Export Query Result</source>
        <translation>Abfrageergebnis exportieren</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV-Dateien (*.csv)</translation>
    </message>
    <message numerus="yes">
        <source>Saved %Ln rows to %1</source>
        <translation>
            <numerusform>%Ln Zeile nach %1 gespeichert</numerusform>
            <numerusform>%Ln Zeilen nach %1 gespeichert</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot export: %1</source>
        <translation>Export nicht möglich: %1</translation>
    </message>
    <message>
        <source>Query result</source>
        <translation>Abfrageergebnis</translation>
    </message>
    <message>
        <source>This session cannot be queried: %1</source>
        <translation>Diese Sitzung kann nicht abgefragt werden: %1</translation>
    </message>
    <message>
        <source>Open a session to query its events with SQL.</source>
        <translation>Eine Sitzung öffnen, um ihre Ereignisse mit SQL abzufragen.</translation>
    </message>
    <message>
        <source>SQL queries become available once the recording is saved (File &gt; Save).</source>
        <translation>SQL-Abfragen sind möglich, sobald die Aufzeichnung gespeichert ist (Datei &gt; Speichern).</translation>
    </message>
    <message>
        <source>Event tables</source>
        <translation>Ereignistabellen</translation>
    </message>
    <message>
        <source>Other virtual tables</source>
        <translation>Weitere virtuelle Tabellen</translation>
    </message>
    <message>
        <source>Tables of the file</source>
        <translation>Tabellen der Datei</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Running…</source>
        <translation>Läuft …</translation>
    </message>
    <message>
        <source>Cancelled after %1 ms: %2</source>
        <translation>Abgebrochen nach %1 ms: %2</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>Fehler: %1</translation>
    </message>
    <message numerus="yes">
        <source>First %Ln rows shown (the result has more), in %1 ms</source>
        <translation>
            <numerusform>Erste %Ln Zeile angezeigt (das Ergebnis hat mehr), in %1 ms</numerusform>
            <numerusform>Erste %Ln Zeilen angezeigt (das Ergebnis hat mehr), in %1 ms</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln rows in %1 ms</source>
        <translation>
            <numerusform>%Ln Zeile in %1 ms</numerusform>
            <numerusform>%Ln Zeilen in %1 ms</numerusform>
        </translation>
    </message>
    <message>
        <source>Ctrl+Return runs the statement.</source>
        <translation>Strg+Eingabe führt die Anweisung aus.</translation>
    </message>
</context>
<context>
    <name>bpflens::RecordPage</name>
    <message>
        <source>&lt;b&gt;New recording&lt;/b&gt;</source>
        <translation>&lt;b&gt;Neue Aufzeichnung&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Tick the probes to run and set their options, then Record. The views fill while it runs; Stop ends it.</source>
        <translation>Die gewünschten Sonden ankreuzen und ihre Optionen einstellen, dann Aufzeichnen. Die Ansichten füllen sich während der Aufzeichnung; Stopp beendet sie.</translation>
    </message>
    <message>
        <source>Back to the Session</source>
        <translation>Zurück zur Sitzung</translation>
    </message>
</context>
<context>
    <name>bpflens::RecordingController</name>
    <message>
        <source>The BPF Lens helper (bpflens-helper) is not installed or not reachable on the system D-Bus. To record, install it as root with &lt;code&gt;cmake --install build/release&lt;/code&gt;: it installs bpflens-helper, its D-Bus service and the polkit policy that lets you record without being root. Then start BPF Lens again.</source>
        <translation>Der BPF-Lens-Helper (bpflens-helper) ist nicht installiert oder auf dem System-D-Bus nicht erreichbar. Installieren Sie ihn zum Aufzeichnen als root mit &lt;code&gt;cmake --install build/release&lt;/code&gt;: Das installiert bpflens-helper, seinen D-Bus-Dienst und die polkit-Richtlinie, mit der Sie ohne root-Rechte aufzeichnen können. Starten Sie BPF Lens danach neu.</translation>
    </message>
    <message>
        <source>&amp;Record</source>
        <translation>&amp;Aufzeichnen</translation>
    </message>
    <message>
        <source>Record the selected probes (Ctrl+R)</source>
        <translation>Die ausgewählten Sonden aufzeichnen (Strg+R)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>S&amp;toppen</translation>
    </message>
    <message>
        <source>Stop the recording (Ctrl+.)</source>
        <translation>Die Aufzeichnung beenden (Strg+.)</translation>
    </message>
    <message>
        <source>CPU time the probes&apos; BPF programs took, per second of recording (100 % = one CPU)</source>
        <translation>CPU-Zeit der BPF-Programme der Sonden pro Sekunde Aufzeichnung (100 % = eine CPU)</translation>
    </message>
    <message>
        <source>Cannot record</source>
        <translation>Aufzeichnen nicht möglich</translation>
    </message>
    <message>
        <source>Starting the recording…</source>
        <translation>Aufzeichnung wird gestartet …</translation>
    </message>
    <message>
        <source>Recording cancelled</source>
        <translation>Aufzeichnung abgebrochen</translation>
    </message>
    <message>
        <source>Recording</source>
        <translation>Aufzeichnung</translation>
    </message>
    <message>
        <source>Recording failed</source>
        <translation>Aufzeichnung fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1

The data recorded until then is kept.</source>
        <translation>%1

Die bis dahin aufgezeichneten Daten bleiben erhalten.</translation>
    </message>
    <message>
        <source>● Recording %1</source>
        <translation>● Aufzeichnung %1</translation>
    </message>
    <message>
        <source>Duration %1</source>
        <translation>Dauer %1</translation>
    </message>
    <message>
        <source>%1 events/s</source>
        <translation>%1 Ereignisse/s</translation>
    </message>
    <message>
        <source>%1 lost</source>
        <translation>%1 verloren</translation>
    </message>
    <message>
        <source>No events were lost.</source>
        <translation>Es gingen keine Ereignisse verloren.</translation>
    </message>
    <message>
        <source>probes %1 % CPU</source>
        <translation>Sonden %1 % CPU</translation>
    </message>
    <message>
        <source>%1 lost: %2</source>
        <translation>%1 verloren: %2</translation>
    </message>
    <message>
        <source>%1 not seen</source>
        <translation>%1 nicht gesehen</translation>
    </message>
    <message>
        <source>%1 not seen: %2</source>
        <translation>%1 nicht gesehen: %2</translation>
    </message>
    <message>
        <source>%1 unfinished</source>
        <translation>%1 unvollendet</translation>
    </message>
    <message>
        <source>%1 unfinished: %2</source>
        <translation>%1 unvollendet: %2</translation>
    </message>
    <message>
        <source>Stopping the recording…</source>
        <translation>Aufzeichnung wird angehalten …</translation>
    </message>
    <message>
        <source>Recording on %1</source>
        <translation>Aufzeichnung auf %1</translation>
    </message>
    <message>
        <source>● Recording on %1 %2</source>
        <translation>● Aufzeichnung auf %1 %2</translation>
    </message>
    <message>
        <source>Recorded on %1 · duration %2</source>
        <translation>Aufgezeichnet auf %1 · Dauer %2</translation>
    </message>
    <message>
        <source>%1 via %2</source>
        <translation>%1 über %2</translation>
    </message>
    <message>
        <source>Recording without %1: this kernel cannot run them</source>
        <translation>Aufzeichnung ohne %1: Dieser Kernel kann sie nicht ausführen</translation>
    </message>
    <message>
        <source>Recording on %1 without %2: its kernel cannot run them</source>
        <translation>Aufzeichnung auf %1 ohne %2: Sein Kernel kann sie nicht ausführen</translation>
    </message>
</context>
<context>
    <name>bpflens::RemoteHostController</name>
    <message>
        <source>Record on &amp;Host…</source>
        <translation>Auf &amp;Host aufzeichnen …</translation>
    </message>
    <message>
        <source>Rec&amp;ent Hosts</source>
        <translation>L&amp;etzte Hosts</translation>
    </message>
    <message>
        <source>Record on This &amp;Computer</source>
        <translation>Auf diesem &amp;Computer aufzeichnen</translation>
    </message>
</context>
<context>
    <name>bpflens::RemoteHostDialog</name>
    <message>
        <source>Record on Host</source>
        <translation>Auf Host aufzeichnen</translation>
    </message>
    <message>
        <source>BPF Lens connects with &lt;b&gt;ssh&lt;/b&gt;, using your SSH configuration, keys and agent, and runs &lt;b&gt;bpflens-cli&lt;/b&gt; on the host, which records through its own helper (or as root there). The recording appears here live.</source>
        <translation>BPF Lens verbindet sich mit &lt;b&gt;ssh&lt;/b&gt; über Ihre SSH-Konfiguration, Schlüssel und Ihren Agenten und startet &lt;b&gt;bpflens-cli&lt;/b&gt; auf dem Host, das über den dortigen Helper (oder dort als root) aufzeichnet. Die Aufzeichnung erscheint hier live.</translation>
    </message>
    <message>
        <source>user@host or user@host:port</source>
        <translation>benutzer@host oder benutzer@host:port</translation>
    </message>
    <message>
        <source>Ask me whether to trust a new host key</source>
        <translation>Fragen, ob einem neuen Host-Schlüssel vertraut werden soll</translation>
    </message>
    <message>
        <source>Off: a host whose key is not in your known hosts is refused, as ssh -o StrictHostKeyChecking=yes does. On: its fingerprint is shown and the key is added only if you trust it. A changed key is refused either way.</source>
        <translation>Aus: ein Host, dessen Schlüssel nicht in Ihren bekannten Hosts steht, wird abgelehnt, wie bei ssh -o StrictHostKeyChecking=yes. An: sein Fingerabdruck wird gezeigt und der Schlüssel nur hinzugefügt, wenn Sie ihm vertrauen. Ein geänderter Schlüssel wird in beiden Fällen abgelehnt.</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>&amp;Verbinden</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>&amp;Host:</translation>
    </message>
    <message>
        <source>&amp;Record</source>
        <translation>&amp;Aufzeichnen</translation>
    </message>
    <message>
        <source>Enter a host, then Connect.</source>
        <translation>Geben Sie einen Host ein, dann Verbinden.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a host: enter user@host, host or user@host:port.</source>
        <translation>„%1“ ist kein Host: geben Sie benutzer@host, host oder benutzer@host:port ein.</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Verbinde mit %1 …</translation>
    </message>
    <message>
        <source>None of the selected probes can run there: %1.</source>
        <translation>Keine der ausgewählten Sonden kann dort laufen: %1.</translation>
    </message>
    <message>
        <source>Selected but not recorded, as that kernel cannot run them: %1.</source>
        <translation>Ausgewählt, aber nicht aufgezeichnet, da jener Kernel sie nicht ausführen kann: %1.</translation>
    </message>
</context>
<context>
    <name>bpflens::RemoteRecorder</name>
    <message>
        <source>Connecting to &lt;b&gt;%1&lt;/b&gt;…</source>
        <translation>Verbinde mit &lt;b&gt;%1&lt;/b&gt; …</translation>
    </message>
    <message>
        <source>Not connected to a host: choose &lt;b&gt;Recording &amp;gt; Record on Host…&lt;/b&gt;.</source>
        <translation>Mit keinem Host verbunden: wählen Sie &lt;b&gt;Aufzeichnung &amp;gt; Auf Host aufzeichnen …&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>ssh refused the host key of %1: it is not in your known hosts (~/.ssh/known_hosts) or does not match it. BPF Lens never accepts a host key silently: compare its fingerprint with the host&apos;s (ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub there) and add it with ssh %2 in a terminal, or tick &quot;Ask me whether to trust a new host key&quot;.</source>
        <translation>ssh hat den Host-Schlüssel von %1 abgelehnt: er steht nicht in Ihren bekannten Hosts (~/.ssh/known_hosts) oder passt nicht dazu. BPF Lens akzeptiert einen Host-Schlüssel nie stillschweigend: vergleichen Sie seinen Fingerabdruck mit dem des Hosts (dort ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub) und fügen Sie ihn mit ssh %2 in einem Terminal hinzu, oder kreuzen Sie „Fragen, ob einem neuen Host-Schlüssel vertraut werden soll“ an.</translation>
    </message>
    <message>
        <source>bpflens-cli is not installed on %1 (it is not in the PATH of the login shell there). Install BPF Lens %2 on that host.</source>
        <translation>bpflens-cli ist auf %1 nicht installiert (es ist nicht im PATH der dortigen Login-Shell). Installieren Sie BPF Lens %2 auf diesem Host.</translation>
    </message>
    <message>
        <source>Cannot connect to %1 with %2 (exit status %3): %4</source>
        <translation>Verbindung zu %1 mit %2 nicht möglich (Exit-Status %3): %4</translation>
    </message>
    <message>
        <source>ssh said nothing</source>
        <translation>ssh hat nichts ausgegeben</translation>
    </message>
    <message>
        <source>bpflens-cli %1 on %2 did not start (exit status %3): %4</source>
        <translation>bpflens-cli %1 auf %2 ist nicht gestartet (Exit-Status %3): %4</translation>
    </message>
    <message>
        <source>it said nothing</source>
        <translation>es hat nichts ausgegeben</translation>
    </message>
    <message>
        <source>ssh is not installed on this computer: install the OpenSSH client (Debian: openssh-client).</source>
        <translation>ssh ist auf diesem Computer nicht installiert: installieren Sie den OpenSSH-Client (Debian: openssh-client).</translation>
    </message>
    <message>
        <source>bpflens-cli probes --json on %1 gave no probe list</source>
        <translation>bpflens-cli probes --json auf %1 lieferte keine Sondenliste</translation>
    </message>
    <message>
        <source>This computer has version %1: the recording may fail unless both are the same.</source>
        <translation>Dieser Computer hat Version %1: die Aufzeichnung kann fehlschlagen, wenn beide nicht gleich sind.</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Verbinde mit %1 …</translation>
    </message>
    <message>
        <source>Cannot read ssh&apos;s output: %1</source>
        <translation>Die Ausgabe von ssh ist nicht lesbar: %1</translation>
    </message>
    <message>
        <source>ssh exit status %1</source>
        <translation>ssh-Exit-Status %1</translation>
    </message>
    <message>
        <source>ssh exit status %1: %2</source>
        <translation>ssh-Exit-Status %1: %2</translation>
    </message>
    <message>
        <source>The connection to %1 was lost after %2 s (%3). Everything received until then is kept.</source>
        <translation>Die Verbindung zu %1 ist nach %2 s abgebrochen (%3). Alles bis dahin Empfangene bleibt erhalten.</translation>
    </message>
    <message numerus="yes">
        <source>bpflens-cli %1 on %2, kernel %3: %4 of %Ln probe(s) can run there.</source>
        <translation>
            <numerusform>bpflens-cli %1 auf %2, Kernel %3: %4 von %Ln Sonde kann dort laufen.</numerusform>
            <numerusform>bpflens-cli %1 auf %2, Kernel %3: %4 von %Ln Sonden können dort laufen.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::ResultsPage</name>
    <message>
        <source>Views</source>
        <translation>Ansichten</translation>
    </message>
    <message>
        <source>&amp;Overview</source>
        <translation>Ü&amp;bersicht</translation>
    </message>
    <message>
        <source>&amp;Histograms</source>
        <translation>&amp;Histogramme</translation>
    </message>
    <message>
        <source>Heat&amp;map</source>
        <translation>Heat&amp;map</translation>
    </message>
    <message>
        <source>&amp;Latency</source>
        <translation>&amp;Latenz</translation>
    </message>
    <message>
        <source>&amp;CPU</source>
        <translation>&amp;CPU</translation>
    </message>
    <message>
        <source>I/O &amp;Stack</source>
        <translation>I/O-&amp;Stack</translation>
    </message>
    <message>
        <source>Co&amp;unters</source>
        <translation>Zä&amp;hler</translation>
    </message>
    <message>
        <source>&amp;I/O</source>
        <translation>&amp;I/O</translation>
    </message>
    <message>
        <source>&amp;Top</source>
        <translation>&amp;Top</translation>
    </message>
    <message>
        <source>E&amp;xplain</source>
        <translation>Er&amp;klären</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>Abfrage</translation>
    </message>
    <message>
        <source>&amp;Analysis</source>
        <translation>&amp;Analyse</translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation>&amp;Ereignisse</translation>
    </message>
    <message>
        <source>Filtering…</source>
        <translation>Filtern…</translation>
    </message>
    <message>
        <source>Event type</source>
        <translation>Ereignistyp</translation>
    </message>
    <message>
        <source>Event t&amp;ype:</source>
        <translation>Ereignist&amp;yp:</translation>
    </message>
    <message>
        <source>%1 events</source>
        <translation>%1-Ereignisse</translation>
    </message>
    <message>
        <source>Filter: command, path, file, disk…</source>
        <translation>Filter: Befehl, Pfad, Datei, Datenträger …</translation>
    </message>
    <message>
        <source>Text filter</source>
        <translation>Textfilter</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>PID filter</source>
        <translation>PID-Filter</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Command filter</source>
        <translation>Befehlsfilter</translation>
    </message>
    <message>
        <source>any latency</source>
        <translation>beliebige Latenz</translation>
    </message>
    <message>
        <source>Minimum latency filter</source>
        <translation>Filter für Mindestlatenz</translation>
    </message>
    <message>
        <source>Block requests and slow file operations at least this slow (type a unit: 10 ms, 1.5 s, 250 µs, 800 ns)</source>
        <translation>Block-Anfragen und langsame Dateioperationen, die mindestens so langsam sind (mit Einheit eingeben: 10 ms, 1,5 s, 250 µs, 800 ns)</translation>
    </message>
    <message>
        <source>Remove this filter</source>
        <translation>Diesen Filter entfernen</translation>
    </message>
    <message>
        <source>File %1</source>
        <translation>Datei %1</translation>
    </message>
    <message>
        <source>Disk %1</source>
        <translation>Datenträger %1</translation>
    </message>
    <message>
        <source>Operation %1</source>
        <translation>Operation %1</translation>
    </message>
    <message>
        <source>To %1</source>
        <translation>Nach %1</translation>
    </message>
    <message>
        <source>Failed with %1</source>
        <translation>Fehlgeschlagen mit %1</translation>
    </message>
    <message>
        <source>&amp;Next Tab</source>
        <translation>&amp;Nächster Tab</translation>
    </message>
    <message>
        <source>&amp;Previous Tab</source>
        <translation>&amp;Vorheriger Tab</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Waiting for the first data</source>
        <translation>Warte auf die ersten Daten</translation>
    </message>
    <message>
        <source>No session</source>
        <translation>Keine Sitzung</translation>
    </message>
    <message>
        <source>Visible: %1 s – %2 s (%3)</source>
        <translation>Sichtbar: %1 s – %2 s (%3)</translation>
    </message>
    <message>
        <source>Flame &amp;Graph</source>
        <translation>Flame-&amp;Graph</translation>
    </message>
    <message>
        <source>Stac&amp;k Chart</source>
        <translation>Stac&amp;k-Diagramm</translation>
    </message>
    <message>
        <source>Container or unit filter</source>
        <translation>Container- oder Unit-Filter</translation>
    </message>
    <message>
        <source>Only the events of one container or systemd unit</source>
        <translation>Nur die Ereignisse eines Containers oder einer systemd-Unit</translation>
    </message>
    <message>
        <source>Container %1</source>
        <translation>Container %1</translation>
    </message>
    <message>
        <source>Every container and unit</source>
        <translation>Alle Container und Units</translation>
    </message>
    <message>
        <source>Unit %1</source>
        <translation>Unit %1</translation>
    </message>
    <message>
        <source>T&amp;hreads</source>
        <translation>&amp;Threads</translation>
    </message>
    <message>
        <source>Top &amp;Stacks</source>
        <translation>Top-Stac&amp;ks</translation>
    </message>
    <message>
        <source>&amp;Memory</source>
        <translation>&amp;Speicher</translation>
    </message>
</context>
<context>
    <name>bpflens::SessionDocument</name>
    <message>
        <source>&amp;Open…</source>
        <translation>Ö&amp;ffnen …</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>Speichern &amp;unter …</translation>
    </message>
    <message>
        <source>Open Session</source>
        <translation>Sitzung öffnen</translation>
    </message>
    <message>
        <source>BPF Lens sessions (*.bpflens);;All files (*)</source>
        <translation>BPF-Lens-Sitzungen (*.bpflens);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>a recording is running: stop it first</source>
        <translation>eine Aufzeichnung läuft: beenden Sie sie zuerst</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>%1 wird geöffnet …</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Cannot open session</source>
        <translation>Sitzung kann nicht geöffnet werden</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>%1 geöffnet</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>%1 gespeichert</translation>
    </message>
    <message>
        <source>Save failed</source>
        <translation>Speichern fehlgeschlagen</translation>
    </message>
    <message>
        <source>Save Session</source>
        <translation>Sitzung speichern</translation>
    </message>
    <message>
        <source>BPF Lens sessions (*.bpflens)</source>
        <translation>BPF-Lens-Sitzungen (*.bpflens)</translation>
    </message>
    <message>
        <source>Unsaved recording</source>
        <translation>Ungespeicherte Aufzeichnung</translation>
    </message>
    <message>
        <source>The recording has not been saved. Save it first?</source>
        <translation>Die Aufzeichnung wurde nicht gespeichert. Zuerst speichern?</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>%1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>A recording is running. Stop it and save what it recorded, or discard it?</source>
        <translation>Eine Aufzeichnung läuft. Anhalten und das Aufgezeichnete speichern oder verwerfen?</translation>
    </message>
    <message>
        <source>Stop and Save…</source>
        <translation>Anhalten und speichern …</translation>
    </message>
    <message>
        <source>Recording not saved</source>
        <translation>Aufzeichnung nicht gespeichert</translation>
    </message>
    <message numerus="yes">
        <source>The recording did not stop within %n second(s). It is still stopping and keeps what it recorded; close the window again once it has stopped.</source>
        <translation>
            <numerusform>Die Aufzeichnung hat innerhalb von %n Sekunde nicht angehalten. Sie wird noch angehalten und behält, was sie aufgezeichnet hat; schließen Sie das Fenster erneut, sobald sie angehalten hat.</numerusform>
            <numerusform>Die Aufzeichnung hat innerhalb von %n Sekunden nicht angehalten. Sie wird noch angehalten und behält, was sie aufgezeichnet hat; schließen Sie das Fenster erneut, sobald sie angehalten hat.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bpflens::StackChartView</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Stack chart</source>
        <translation>Stack-Diagramm</translation>
    </message>
    <message>
        <source>Call stacks over time, one band per thread, the outermost frame at the top. Wheel zooms, drag pans, Shift+wheel scrolls the threads.</source>
        <translation>Aufrufstacks über die Zeit, ein Band je Thread, der äußerste Frame oben. Mausrad zoomt, Ziehen verschiebt, Umschalt+Mausrad blättert durch die Threads.</translation>
    </message>
    <message>
        <source>[no stack]</source>
        <translation>[kein Stack]</translation>
    </message>
    <message>
        <source>[truncated]</source>
        <translation>[abgeschnitten]</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>%1 – %2 (%3)</source>
        <translation>%1 – %2 (%3)</translation>
    </message>
    <message numerus="yes">
        <source>%Ln sample(s)</source>
        <translation>
            <numerusform>%Ln Stichprobe</numerusform>
            <numerusform>%Ln Stichproben</numerusform>
        </translation>
    </message>
    <message>
        <source>off the CPU: waiting</source>
        <translation>nicht auf der CPU: wartet</translation>
    </message>
    <message>
        <source>thread %1, PID %2</source>
        <translation>Thread %1, PID %2</translation>
    </message>
    <message>
        <source>No samples in the visible range.

Zoom out on the timeline (Ctrl+0 shows the whole session).</source>
        <translation>Keine Stichproben im sichtbaren Bereich.

Auf der Zeitleiste herauszoomen (Strg+0 zeigt die ganze Sitzung).</translation>
    </message>
    <message>
        <source>%1
PID %2, TID %3
%4, %5</source>
        <translation>%1
PID %2, TID %3
%4, %5</translation>
    </message>
    <message numerus="yes">
        <source>%Ln off-CPU wait(s)</source>
        <translation>
            <numerusform>%Ln Off-CPU-Wartevorgang</numerusform>
            <numerusform>%Ln Off-CPU-Wartevorgänge</numerusform>
        </translation>
    </message>
    <message>
        <source>Off-CPU waits</source>
        <translation>Off-CPU-Wartezeiten</translation>
    </message>
    <message>
        <source>Also draw where threads waited (the offcpu probe), hatched, as long as they waited</source>
        <translation>Auch zeigen, wo Threads gewartet haben (Probe offcpu): schraffiert, so lang wie die Wartezeit</translation>
    </message>
    <message>
        <source>Scroll the threads</source>
        <translation>Durch die Threads blättern</translation>
    </message>
    <message>
        <source>Call stack of the selected box</source>
        <translation>Aufrufstack des gewählten Kastens</translation>
    </message>
    <message>
        <source>Click a box to see its call stack here. The wheel zooms, dragging pans, Shift+wheel scrolls through the threads.</source>
        <translation>Klicken Sie auf einen Kasten, um hier seinen Aufrufstack zu sehen. Das Mausrad zoomt, Ziehen verschiebt, Umschalt+Mausrad blättert durch die Threads.</translation>
    </message>
    <message numerus="yes">
        <source>%Ln thread(s)</source>
        <translation>
            <numerusform>%Ln Thread</numerusform>
            <numerusform>%Ln Threads</numerusform>
        </translation>
    </message>
    <message>
        <source>No CPU samples in this session.

Record with the profile probe to see each thread&apos;s call stacks over time.</source>
        <translation>Keine CPU-Stichproben in dieser Sitzung.

Mit der Probe profile aufzeichnen, um die Aufrufstacks jedes Threads über die Zeit zu sehen.</translation>
    </message>
    <message>
        <source>This session&apos;s samples have no call stacks.

Record with the profile probe and its kernel or user stacks to see them over time.</source>
        <translation>Die Stichproben dieser Sitzung haben keine Aufrufstacks.

Mit der Probe profile und ihren Kernel- oder User-Stacks aufzeichnen, um sie über die Zeit zu sehen.</translation>
    </message>
    <message>
        <source>No samples of the processes the filter shows.

Clear the PID and command filters.</source>
        <translation>Keine Stichproben der Prozesse, die der Filter zeigt.

Die PID- und Befehlsfilter leeren.</translation>
    </message>
    <message>
        <source>Merging the stacks…</source>
        <translation>Aufrufstacks werden zusammengeführt…</translation>
    </message>
</context>
<context>
    <name>bpflens::StackFramesModel</name>
    <message>
        <source>[no stack]</source>
        <translation>[kein Stack]</translation>
    </message>
    <message>
        <source>[truncated: the unwinder did not reach the thread&apos;s first frame]</source>
        <translation>[abgeschnitten: der Unwinder hat den ersten Frame des Threads nicht erreicht]</translation>
    </message>
    <message>
        <source>[truncated: the kernel stack was deeper than the frames copied]</source>
        <translation>[abgeschnitten: der Kernel-Stack war tiefer als die kopierten Frames]</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>user</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>kernel, address 0x%1</source>
        <translation>Kernel, Adresse 0x%1</translation>
    </message>
    <message>
        <source>user, offset 0x%1 in the file</source>
        <translation>Benutzer, Offset 0x%1 in der Datei</translation>
    </message>
    <message>
        <source>build id %1</source>
        <translation>Build-ID %1</translation>
    </message>
    <message>
        <source>The function the thread blocked in: the frames above it are the scheduler&apos;s.</source>
        <translation>Die Funktion, in der der Thread blockierte: die Frames darüber gehören zum Scheduler.</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>Funktion</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>Modul</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Wo</translation>
    </message>
    <message>
        <source>kernel, inlined</source>
        <translation>Kernel, inline</translation>
    </message>
    <message>
        <source>user, inlined</source>
        <translation>Benutzer, inline</translation>
    </message>
    <message>
        <source>source %1, line %2</source>
        <translation>Quelle %1, Zeile %2</translation>
    </message>
    <message>
        <source>source %1</source>
        <translation>Quelle %1</translation>
    </message>
    <message>
        <source>Inlined: the compiler put this function&apos;s code into its caller, the next frame; it has no call of its own.</source>
        <translation>Inline: Der Compiler hat den Code dieser Funktion in ihren Aufrufer, den nächsten Frame, eingefügt; sie hat keinen eigenen Aufruf.</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
</context>
<context>
    <name>bpflens::StartPage</name>
    <message>
        <source>Record what the kernel sees, then zoom into every event.</source>
        <translation>Aufzeichnen, was der Kernel sieht, dann in jedes Ereignis hineinzoomen.</translation>
    </message>
    <message>
        <source>Record…</source>
        <translation>Aufzeichnen …</translation>
    </message>
    <message>
        <source>Open a Session…</source>
        <translation>Sitzung öffnen …</translation>
    </message>
    <message>
        <source>Open the Example Recording</source>
        <translation>Beispielaufzeichnung öffnen</translation>
    </message>
    <message>
        <source>Documentation</source>
        <translation>Dokumentation</translation>
    </message>
    <message>
        <source>Recent sessions</source>
        <translation>Zuletzt geöffnete Sitzungen</translation>
    </message>
    <message>
        <source>Sessions you open or save appear here.</source>
        <translation>Hier erscheinen Sitzungen, die Sie öffnen oder speichern.</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Record… opens the recording page: tick the probes to run there, then Record. BPF Lens asks for permission once per recording.</source>
        <translation>„Aufzeichnen …“ öffnet die Aufzeichnungsseite: dort die gewünschten Sonden ankreuzen, dann Aufzeichnen. BPF Lens fragt einmal pro Aufzeichnung nach der Berechtigung.</translation>
    </message>
    <message>
        <source>Session files (*.bpflens) can also be dropped on the window.</source>
        <translation>Sitzungsdateien (*.bpflens) lassen sich auch auf das Fenster ziehen.</translation>
    </message>
    <message>
        <source>Recent Sessions</source>
        <translation>Zuletzt geöffnet</translation>
    </message>
</context>
<context>
    <name>bpflens::StreamRecorder</name>
    <message>
        <source>No recording backend is available.</source>
        <translation>Kein Aufzeichnungs-Backend verfügbar.</translation>
    </message>
    <message>
        <source>A recording is already running.</source>
        <translation>Es läuft bereits eine Aufzeichnung.</translation>
    </message>
    <message>
        <source>The recording could not be started.</source>
        <translation>Die Aufzeichnung konnte nicht gestartet werden.</translation>
    </message>
    <message>
        <source>The recording stream cannot be read: %1</source>
        <translation>Der Aufzeichnungsstrom kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>The helper did not end the recording within %1 s; the data received so far is kept.</source>
        <translation>Der Helper hat die Aufzeichnung nicht innerhalb von %1 s beendet; die bisher empfangenen Daten bleiben erhalten.</translation>
    </message>
    <message>
        <source>Recording stopped</source>
        <translation>Aufzeichnung beendet</translation>
    </message>
    <message>
        <source>the stream closed without an end</source>
        <translation>der Datenstrom wurde ohne Endemarke geschlossen</translation>
    </message>
    <message>
        <source>The recording stream broke off: %1</source>
        <translation>Der Aufzeichnungsstrom ist abgebrochen: %1</translation>
    </message>
    <message>
        <source>The helper shut down: %1</source>
        <translation>Der Helper wurde beendet: %1</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>kein Grund angegeben</translation>
    </message>
    <message>
        <source>The recording failed.</source>
        <translation>Die Aufzeichnung ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>The recording ended: the helper lost its connection to this window</source>
        <translation>Die Aufzeichnung wurde beendet: Der Helper hat die Verbindung zu diesem Fenster verloren</translation>
    </message>
    <message>
        <source>The recording ended: its stream was closed</source>
        <translation>Die Aufzeichnung wurde beendet: Ihr Datenstrom wurde geschlossen</translation>
    </message>
    <message>
        <source>The recording ended: the helper shut down</source>
        <translation>Die Aufzeichnung wurde beendet: Der Helper wurde heruntergefahren</translation>
    </message>
    <message>
        <source>The recording ended with an error: %1</source>
        <translation>Die Aufzeichnung wurde mit einem Fehler beendet: %1</translation>
    </message>
</context>
<context>
    <name>bpflens::SummaryPanel</name>
    <message>
        <source>Session</source>
        <translation>Sitzung</translation>
    </message>
    <message>
        <source>Session information</source>
        <translation>Sitzungsinformationen</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>Sonde</translation>
    </message>
    <message>
        <source>Events seen</source>
        <translation>Erfasste Ereignisse</translation>
    </message>
    <message>
        <source>Attached to</source>
        <translation>Angehängt an</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>Optionen</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keine)</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <source>Recorded by</source>
        <translation>Aufgezeichnet mit</translation>
    </message>
    <message>
        <source>BPF Lens %1 (schema %2)</source>
        <translation>BPF Lens %1 (Schema %2)</translation>
    </message>
    <message>
        <source>Started (UTC)</source>
        <translation>Beginn (UTC)</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Dauer</translation>
    </message>
    <message>
        <source>%1 events</source>
        <translation>%1-Ereignisse</translation>
    </message>
    <message>
        <source>Histogram snapshots</source>
        <translation>Histogramm-Snapshots</translation>
    </message>
    <message>
        <source>Memory for events</source>
        <translation>Speicher für Ereignisse</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>no data yet</source>
        <translation>noch keine Daten</translation>
    </message>
    <message>
        <source>Lost</source>
        <translation>Verloren</translation>
    </message>
    <message>
        <source>Not seen</source>
        <translation>Nicht gesehen</translation>
    </message>
    <message>
        <source>Unfinished</source>
        <translation>Unvollendet</translation>
    </message>
    <message>
        <source>defaults</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>none yet: record one, or open a .bpflens file</source>
        <translation>noch keine: eine aufzeichnen oder eine .bpflens-Datei öffnen</translation>
    </message>
    <message>
        <source>BPF Lens %1</source>
        <translation>BPF Lens %1</translation>
    </message>
    <message>
        <source>%1 so far (recording)</source>
        <translation>%1 bisher (Aufzeichnung läuft)</translation>
    </message>
    <message>
        <source>%1 up to the newest data (the recording was not stopped cleanly)</source>
        <translation>%1 bis zu den neuesten Daten (die Aufzeichnung wurde nicht sauber beendet)</translation>
    </message>
    <message>
        <source>%1 via %2</source>
        <translation>%1 über %2</translation>
    </message>
    <message>
        <source>Session details</source>
        <translation>Sitzungsdetails</translation>
    </message>
    <message>
        <source>Probe setup</source>
        <translation>Sonden-Einstellungen</translation>
    </message>
    <message>
        <source>not saved</source>
        <translation>nicht gespeichert</translation>
    </message>
    <message>
        <source>kernel %1</source>
        <translation>Kernel %1</translation>
    </message>
    <message>
        <source>started %1</source>
        <translation>gestartet %1</translation>
    </message>
    <message>
        <source>The events this session holds. The kernel&apos;s own count, %1 at its last sample, is taken once a second and catches up.</source>
        <translation>Die Ereignisse, die diese Sitzung enthält. Die eigene Zählung des Kernels, %1 bei ihrer letzten Messung, wird einmal pro Sekunde erhoben und holt auf.</translation>
    </message>
</context>
<context>
    <name>bpflens::Theme</name>
    <message>
        <source>&amp;Theme</source>
        <translation>&amp;Farbschema</translation>
    </message>
    <message>
        <source>Follow the &amp;Desktop</source>
        <translation>Wie die &amp;Arbeitsumgebung</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>&amp;Hell</translation>
    </message>
    <message>
        <source>D&amp;ark</source>
        <translation>&amp;Dunkel</translation>
    </message>
</context>
<context>
    <name>bpflens::ThreadStateView</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Thread states</source>
        <translation>Thread-Zustände</translation>
    </message>
    <message>
        <source>Each thread&apos;s state over time, one lane per thread under its process. Wheel zooms, drag pans, Shift+wheel scrolls the threads, a click selects a span.</source>
        <translation>Der Zustand jedes Threads über die Zeit, eine Spur pro Thread unter seinem Prozess. Mausrad zoomt, Ziehen verschiebt, Umschalt+Mausrad blättert durch die Threads, ein Klick wählt einen Abschnitt.</translation>
    </message>
    <message>
        <source>CPU %1</source>
        <translation>CPU %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%Ln thread(s))</source>
        <translation>
            <numerusform>%1 (%Ln Thread)</numerusform>
            <numerusform>%1 (%Ln Threads)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 on CPU %2</source>
        <translation>%1 auf CPU %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Duration: %1</source>
        <translation>Dauer: %1</translation>
    </message>
    <message>
        <source>Start: %1</source>
        <translation>Beginn: %1</translation>
    </message>
    <message>
        <source>Blocked on CPU %1</source>
        <translation>Blockiert auf CPU %1</translation>
    </message>
    <message>
        <source>Woken by: %1</source>
        <translation>Geweckt von: %1</translation>
    </message>
    <message>
        <source>Thread %1, PID %2</source>
        <translation>Thread %1, PID %2</translation>
    </message>
    <message>
        <source>Process %1: click to fold or unfold its threads</source>
        <translation>Prozess %1: Klicken klappt seine Threads ein oder aus</translation>
    </message>
    <message>
        <source>Thread %1, PID %2: running %3</source>
        <translation>Thread %1, PID %2: %3 laufend</translation>
    </message>
    <message>
        <source>Critical &amp;Path</source>
        <translation>Kritischer &amp;Pfad</translation>
    </message>
    <message>
        <source>What the chosen thread waited for over the visible range: its wakeups walked back through the threads that woke it</source>
        <translation>Worauf der gewählte Thread im sichtbaren Bereich gewartet hat: seine Aufweckungen rückwärts verfolgt über die Threads, die ihn geweckt haben</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>No thread states in this session. Record with the Thread states probe (threadstate) to see when each thread ran, waited for a CPU or blocked, and why.</source>
        <translation>Diese Sitzung enthält keine Thread-Zustände. Nehmen Sie mit der Sonde Thread-Zustände (threadstate) auf, um zu sehen, wann jeder Thread lief, auf eine CPU wartete oder blockiert war, und warum.</translation>
    </message>
    <message numerus="yes">
        <source>Critical path of %1 from %2 to %3: %Ln step(s).</source>
        <translation>
            <numerusform>Kritischer Pfad von %1 von %2 bis %3: %Ln Schritt.</numerusform>
            <numerusform>Kritischer Pfad von %1 von %2 bis %3: %Ln Schritte.</numerusform>
        </translation>
    </message>
    <message>
        <source>Click a thread&apos;s lane to choose it for the critical path.</source>
        <translation>Klicken Sie auf die Spur eines Threads, um ihn für den kritischen Pfad zu wählen.</translation>
    </message>
    <message>
        <source>Thread: %1</source>
        <translation>Thread: %1</translation>
    </message>
    <message>
        <source>The chain of wakeups was cut at a depth of 64.</source>
        <translation>Die Kette der Aufweckungen wurde bei Tiefe 64 abgeschnitten.</translation>
    </message>
</context>
<context>
    <name>bpflens::ThreadStates</name>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Runnable</source>
        <translation>Lauffähig</translation>
    </message>
    <message>
        <source>Sleeping</source>
        <translation>Schlafend</translation>
    </message>
    <message>
        <source>Uninterruptible (D)</source>
        <translation>Nicht unterbrechbar (D)</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>Angehalten</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>verdrängt</translation>
    </message>
    <message>
        <source>woken, waiting for a CPU</source>
        <translation>geweckt, wartet auf eine CPU</translation>
    </message>
    <message>
        <source>new thread</source>
        <translation>neuer Thread</translation>
    </message>
    <message>
        <source>I/O</source>
        <translation>E/A</translation>
    </message>
    <message>
        <source>futex</source>
        <translation>Futex</translation>
    </message>
    <message>
        <source>kernel lock</source>
        <translation>Kernel-Sperre</translation>
    </message>
    <message>
        <source>sleep</source>
        <translation>Schlaf</translation>
    </message>
    <message>
        <source>pipe</source>
        <translation>Pipe</translation>
    </message>
    <message>
        <source>socket</source>
        <translation>Socket</translation>
    </message>
    <message>
        <source>poll</source>
        <translation>Poll</translation>
    </message>
    <message>
        <source>page fault</source>
        <translation>Seitenfehler</translation>
    </message>
    <message>
        <source>waiting for a child</source>
        <translation>wartet auf Kindprozess</translation>
    </message>
    <message>
        <source>signal</source>
        <translation>Signal</translation>
    </message>
    <message>
        <source>other</source>
        <translation>andere</translation>
    </message>
    <message>
        <source>kernel thread waiting for work</source>
        <translation>Kernel-Thread wartet auf Arbeit</translation>
    </message>
</context>
<context>
    <name>bpflens::TimeAxis</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
</context>
<context>
    <name>bpflens::TimelineWidget</name>
    <message>
        <source>Timeline</source>
        <translation>Zeitleiste</translation>
    </message>
    <message>
        <source>Events over time, one lane per event type. Wheel or +/- zoom, drag pans, Shift+drag zooms to a range, Home resets.</source>
        <translation>Ereignisse über die Zeit, eine Spur pro Ereignistyp. Mausrad oder +/- zoomt, Ziehen verschiebt, Umschalt+Ziehen zoomt auf einen Bereich, Pos1 setzt zurück.</translation>
    </message>
    <message>
        <source>read</source>
        <translation>Lesen</translation>
    </message>
    <message>
        <source>write</source>
        <translation>Schreiben</translation>
    </message>
    <message>
        <source>other</source>
        <translation>Sonstige</translation>
    </message>
    <message>
        <source>other (%1)</source>
        <translation>andere (%1)</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>No events in this session: its probes keep counters and histograms (see the Counters and Histograms tabs).</source>
        <translation>Keine Ereignisse in dieser Sitzung: Die Sonden erfassen Zähler und Histogramme (siehe die Tabs Zähler und Histogramme).</translation>
    </message>
    <message>
        <source>&amp;Explain This Range</source>
        <translation>Diesen Bereich &amp;erklären</translation>
    </message>
    <message>
        <source>What is more common in the visible range than in the rest of the recording</source>
        <translation>Was im sichtbaren Bereich häufiger ist als im Rest der Aufzeichnung</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>Zoom &amp;zurücksetzen</translation>
    </message>
    <message numerus="yes">
        <source>%1 other processes: %Ln CPU sample(s) in view</source>
        <translation>
            <numerusform>%1 andere Prozesse: %Ln CPU-Stichprobe im Blick</numerusform>
            <numerusform>%1 andere Prozesse: %Ln CPU-Stichproben im Blick</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (PID %2): %Ln CPU sample(s) in view</source>
        <translation>
            <numerusform>%1 (PID %2): %Ln CPU-Stichprobe im Blick</numerusform>
            <numerusform>%1 (PID %2): %Ln CPU-Stichproben im Blick</numerusform>
        </translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation>Spitze %1</translation>
    </message>
    <message>
        <source>%1 (PID %2)</source>
        <translation>%1 (PID %2)</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 bei %2</translation>
    </message>
    <message>
        <source>Peak in view: %1 at %2</source>
        <translation>Spitze im Blick: %1 bei %2</translation>
    </message>
    <message>
        <source>Peak of the recording: %1</source>
        <translation>Spitze der Aufzeichnung: %1</translation>
    </message>
    <message>
        <source>%1: memory held in the blocks it allocated while recorded</source>
        <translation>%1: Speicher in den Blöcken, die der Prozess während der Aufzeichnung belegt hat</translation>
    </message>
    <message>
        <source>memory in use</source>
        <translation>belegter Speicher</translation>
    </message>
</context>
<context>
    <name>bpflens::TopModel</name>
    <message>
        <source>Activate to filter every view to %1</source>
        <translation>Aktivieren, um alle Ansichten auf %1 zu filtern</translation>
    </message>
    <message>
        <source>The filter bar cannot select by %1</source>
        <translation>Die Filterleiste kann nicht nach %1 filtern</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>Prozess</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>File</source>
        <translation>Datei</translation>
    </message>
    <message>
        <source>Disk</source>
        <translation>Datenträger</translation>
    </message>
    <message>
        <source>Destination</source>
        <translation>Ziel</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>Operation</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>Ereignisse</translation>
    </message>
    <message>
        <source>Total latency</source>
        <translation>Gesamtlatenz</translation>
    </message>
    <message>
        <source>p99 latency</source>
        <translation>p99-Latenz</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>Bytes</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>bpflens::TopPage</name>
    <message>
        <source>Top list of</source>
        <translation>Rangliste der</translation>
    </message>
    <message>
        <source>Ordered by</source>
        <translation>Sortiert nach</translation>
    </message>
    <message>
        <source>Top:</source>
        <translation>Top:</translation>
    </message>
    <message>
        <source>by</source>
        <translation>nach</translation>
    </message>
    <message>
        <source>Top list</source>
        <translation>Rangliste</translation>
    </message>
    <message>
        <source>Latency statistics</source>
        <translation>Latenzstatistik</translation>
    </message>
    <message>
        <source>&amp;Go to Max</source>
        <translation>Zum &amp;Maximum</translation>
    </message>
    <message>
        <source>Select the slowest event of the selected row and zoom to it</source>
        <translation>Das langsamste Ereignis der gewählten Zeile auswählen und dorthin zoomen</translation>
    </message>
    <message>
        <source>Latency per probe and key</source>
        <translation>Latenz je Sonde und Schlüssel</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>Wird berechnet …</translation>
    </message>
    <message>
        <source>No events. Open a session or record one to see its top processes, files, disks and latencies.</source>
        <translation>Keine Ereignisse. Eine Sitzung öffnen oder aufzeichnen, um ihre häufigsten Prozesse, Dateien, Datenträger und Latenzen zu sehen.</translation>
    </message>
    <message>
        <source>No events in the visible range have a %1 or pass the filter. Zoom out or change the filter.</source>
        <translation>Kein Ereignis im sichtbaren Bereich hat ein(e) %1 oder passt zum Filter. Herauszoomen oder den Filter ändern.</translation>
    </message>
    <message>
        <source>Explain…</source>
        <translation>Erklären …</translation>
    </message>
    <message>
        <source>What is more common in the visible range than in the rest of the recording</source>
        <translation>Was im sichtbaren Bereich häufiger ist als im Rest der Aufzeichnung</translation>
    </message>
    <message>
        <source>Events of</source>
        <translation>Ereignisse von</translation>
    </message>
    <message>
        <source>of</source>
        <translation>von</translation>
    </message>
    <message>
        <source>All probes</source>
        <translation>Alle Sonden</translation>
    </message>
    <message>
        <source> · latencies and bytes of different probes do not add up: choose a probe to see them</source>
        <translation> · Latenzen und Bytes verschiedener Sonden lassen sich nicht addieren: eine Sonde wählen, um sie zu sehen</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <comment>keys, events</comment>
        <extracomment>&quot;10 of 42 keys, 1,234 events in the visible range&quot;</extracomment>
        <translation>%1, %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %Ln key(s)</source>
        <translation>
            <numerusform>%1 von %Ln Schlüssel</numerusform>
            <numerusform>%1 von %Ln Schlüsseln</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) in the visible range</source>
        <translation>
            <numerusform>%Ln Ereignis im sichtbaren Bereich</numerusform>
            <numerusform>%Ln Ereignisse im sichtbaren Bereich</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Views BPF Lens sessions (*.bpflens).</source>
        <translation>Zeigt BPF-Lens-Sitzungen (*.bpflens) an.</translation>
    </message>
    <message>
        <source>Session file to open.</source>
        <translation>Zu öffnende Sitzungsdatei.</translation>
    </message>
</context>
</TS>
