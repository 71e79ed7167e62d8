#include "helper/symbolizerclient.h"

#include "symbolizer/symbolizerprotocol.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <functional>
#include <utility>

extern char **environ;

namespace bpflens {

namespace {

// How long the child may take for one reply before it is considered hung (killed, restarted,
// and the process it was working on left unsymbolised for the rest of the recording). The first
// stack of a process reads its modules' symbol tables: under an emulated CPU on a loaded machine
// (the kernel matrix) that took over 2 s for libQt6Core, and 2 s lost every later stack of it.
constexpr int DefaultReplyTimeoutMs = 10000;
// Its start includes the sandbox and, under the sanitizers, their set-up.
constexpr int HelloTimeoutMs = 10000;
// At most this many files held open between a process's first event of a drain and the resolve
// that sends them (a build starts hundreds of processes per drain); the rest are opened when sent.
constexpr int MaxHeldFiles = 256;
// capture() is called for every event of a process: it looks for an exec this often at most.
constexpr qint64 CaptureExeCheckMs = 10;
// Maps read this soon after a new image was seen may be its exec's or its dynamic loader's, not
// yet its libraries (a process's first events come from its exec): they are read again at each
// exe check until a read finds the executable mapped this long after. A process that exits within
// a drain is then resolved with its libraries. Without the executable in its maps (an overlay's
// inode that differs), the maps settle after the longer time.
constexpr qint64 SettleMs = 100;
constexpr qint64 SettleWithoutExeMs = 1000;
// At most this many restarts in RestartWindowMs: a stream of stacks that crash the child (a
// hostile file in many processes) leaves the frames unknown for a while, never for good.
constexpr int MaxRestarts = 5;
constexpr qint64 RestartWindowMs = 10000;

struct Mapping
{
    quint64 start = 0;
    quint64 end = 0;
    quint64 offset = 0;
    QByteArray path; // empty for anonymous memory; "[vdso]" and the like for special mappings
    quint32 devMajor = 0;
    quint32 devMinor = 0;
    quint64 inode = 0;
    bool sent = false;
    // The file, opened when the process was first seen in a drain and held until it is sent: the
    // process may have exited by then, and with it /proc/<pid>/map_files.
    int fd = -1;
    bool contains(quint64 address) const { return address >= start && address < end; }
    bool isFile() const { return path.startsWith('/'); }
};

struct Process
{
    QList<Mapping> mappings; // the executable ones; their fds are the Private's to close
    bool mapsRead = false;
    // The executable file, to see an exec: the new image can lie in the old one's ranges (always
    // so without address randomisation), where no sample falls outside a known mapping.
    dev_t exeDev = 0;
    ino_t exeIno = 0;
    qint64 exeCheckedMs = -1; // the client's clock
    qint64 exeSeenMs = -1;    // when this image was first seen (the client's clock)
    bool mapsSettled = false; // read late enough after the image was seen (SettleMs)
};

// The executable mappings of /proc/<pid>/maps; false when the process is gone or exiting.
bool readMaps(quint32 pid, QList<Mapping> *out)
{
    QFile file(QStringLiteral("/proc/%1/maps").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return false;
    // /proc files report size 0: read until the end.
    const QByteArray text = file.readAll();
    out->clear();
    for (const QByteArray &line : text.split('\n')) {
        // start-end perms offset dev inode [path]
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() < 5)
            continue;
        const QByteArray &perms = fields.at(1);
        if (perms.size() < 3 || perms.at(2) != 'x')
            continue;
        const qsizetype dash = fields.at(0).indexOf('-');
        bool ok1 = false, ok2 = false, ok3 = false;
        Mapping m;
        m.start = fields.at(0).left(dash).toULongLong(&ok1, 16);
        m.end = fields.at(0).mid(dash + 1).toULongLong(&ok2, 16);
        m.offset = fields.at(2).toULongLong(&ok3, 16);
        if (dash < 0 || !ok1 || !ok2 || !ok3 || m.end <= m.start)
            continue;
        const QList<QByteArray> dev = fields.at(3).split(':');
        if (dev.size() == 2) {
            m.devMajor = dev.at(0).toUInt(nullptr, 16);
            m.devMinor = dev.at(1).toUInt(nullptr, 16);
        }
        m.inode = fields.at(4).toULongLong();
        // The path is the rest of the line after the inode, spaces included.
        qsizetype pos = 0;
        for (int field = 0; field < 5 && pos >= 0; ++field) {
            while (pos < line.size() && line.at(pos) == ' ')
                ++pos;
            pos = line.indexOf(' ', pos);
        }
        if (pos >= 0) {
            while (pos < line.size() && line.at(pos) == ' ')
                ++pos;
            m.path = line.mid(pos);
        }
        out->append(m);
    }
    // A process that has begun to exit, or a zombie not yet reaped, still has its /proc/<pid>/maps
    // but no memory: the file is empty. A live one has at least its [vdso]. Taking none for its
    // maps would forget the ones read while it ran, and its last samples would go unnamed.
    return !out->isEmpty();
}

// A read-only descriptor of file if it is a regular file (and the one mapping maps, if given);
// -1 otherwise.
int openRegular(const QByteArray &file, const Mapping *mapping)
{
    const int fd = open(file.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
        (mapping && (st.st_ino != mapping->inode || major(st.st_dev) != mapping->devMajor ||
                     minor(st.st_dev) != mapping->devMinor))) {
        close(fd);
        return -1;
    }
    return fd;
}

// The file mapping m of pid maps, opened for the child; -1 when it cannot be.
int openMapped(quint32 pid, const Mapping &m)
{
    // map_files opens exactly the mapped file, even deleted or in another mount namespace (root
    // only); the path through the process's root is the fallback.
    QByteArray file = QStringLiteral("/proc/%1/map_files/%2-%3")
                          .arg(pid)
                          .arg(m.start, 0, 16)
                          .arg(m.end, 0, 16)
                          .toLatin1();
    // Only a regular file goes to the child (which is not allowed to hold, say, /dev/mem); by
    // path, only the very file that is mapped: the process's owner controls that path and could
    // have put a link to a file they cannot read there.
    int fd = openRegular(file, nullptr);
    if (fd < 0 && !m.path.endsWith(" (deleted)")) {
        file = QByteArray("/proc/") + QByteArray::number(pid) + "/root" + m.path;
        fd = openRegular(file, &m);
    }
    return fd;
}

bool inKnownMapping(const Process &p, quint64 address)
{
    for (const Mapping &m : p.mappings)
        if (m.contains(address))
            return true;
    return false;
}

SymbolizedStack unknownStack(const UserSample &sample)
{
    SymbolizedStack s;
    s.truncated = true;
    SymbolizedFrame leaf;
    leaf.address = sample.regs.ip();
    s.frames.append(leaf);
    for (qsizetype i = 1; i < sample.framePointerIps.size(); ++i) {
        SymbolizedFrame f;
        f.address = sample.framePointerIps.at(i);
        s.frames.append(f);
    }
    s.usedFramePointers = sample.framePointerIps.size() > 1;
    return s;
}

} // namespace

struct SymbolizerClient::Private
{
    int sock = -1;
    pid_t child = 0;
    quint32 sequence = 0;
    bool wanted = false; // start() succeeded: keep a child running
    QElapsedTimer clock;
    QList<qint64> restarts; // clock times
    QHash<quint32, Process> processes;
    // Processes whose stacks took the child down: their frames stay unknown from then on.
    QSet<quint32> poisoned;
    std::vector<uint8_t> buffer = std::vector<uint8_t>(symproto::MaxMessageBytes);

    // Files held open (Mapping::fd) across all processes.
    int heldFiles = 0;
    // In the running resolve(): the processes whose maps were read and whose exe was checked
    // (for an exec), each once per call.
    QSet<quint32> rereadThisCall;
    QSet<quint32> exeCheckedThisCall;

    bool spawn(QString *error);
    void stop(bool kill);
    // Starts the child again if it should run and is not (within the restart limit).
    bool ensureRunning();
    bool running() const { return sock >= 0 && child > 0; }
    bool send(const std::vector<uint8_t> &packet, int fd, const QElapsedTimer &timer, int timeout);
    // The next packet, within the timeout; its size, or -1.
    ssize_t receive(const QElapsedTimer &timer, int timeout);
    void sendModules(quint32 pid, Process &p);
    // Reads the process's maps if new, changed by an exec, or (given a sample) missing one of
    // the sample's addresses (a dlopen), and opens the files the child has not been sent yet.
    // inResolve: once per call for each process; from capture(): the exe at most every
    // CaptureExeCheckMs.
    void observe(quint32 pid, const UserSample *sample, bool inResolve);
    void holdFiles(quint32 pid, Process &p);
    void closeFiles(QList<Mapping> &mappings);
    SymbolizedStack toStack(quint32 pid, const symproto::Stack &stack) const;
    // While requests are in flight: reads the oldest one's reply; false when the child failed.
    // The child answers in order and blocks when its replies fill the socket, so send() reads
    // replies while it waits to send, or both sides would wait on each other.
    std::function<bool()> readReply;
    // Processes found gone at the last sweep; forgotten at the next one if still gone. A
    // process's last samples can still wait in the ring buffer when it exits: they get a
    // sweep interval to be resolved with its modules.
    QSet<quint32> gone;
    qint64 lastSweep = 0;
    qint64 sweepIntervalMs = 2000;
    int replyTimeoutMs = DefaultReplyTimeoutMs;
    void sweepExited();
    void forget(quint32 pid);
};

bool SymbolizerClient::Private::spawn(QString *error)
{
    const QString path = SymbolizerClient::executablePath();
    if (!QFileInfo(path).isExecutable()) {
        *error = QStringLiteral("%1 is missing or not executable").arg(path);
        return false;
    }
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0) {
        *error = QStringLiteral("socketpair: %1").arg(QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    const int bufferSize = 1 << 20;
    setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &bufferSize, sizeof bufferSize);
    setsockopt(fds[0], SOL_SOCKET, SO_RCVBUF, &bufferSize, sizeof bufferSize);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 3); // clears FD_CLOEXEC on 3
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGCHLD);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    // Only the sanitizers' settings pass into its environment.
    QList<QByteArray> env;
    for (char **e = environ; e && *e; ++e) {
        const QByteArray entry(*e);
        if (entry.startsWith("ASAN_OPTIONS=") || entry.startsWith("UBSAN_OPTIONS=") ||
            entry.startsWith("LSAN_OPTIONS="))
            env.append(entry);
    }
    std::vector<char *> envp;
    for (QByteArray &entry : env)
        envp.push_back(entry.data());
    envp.push_back(nullptr);
    QByteArray program = QFile::encodeName(path);
    char fdArgument[] = "--fd";
    char fdNumber[] = "3";
    char *argv[] = {program.data(), fdArgument, fdNumber, nullptr};

    pid_t pid = 0;
    const int rc = posix_spawn(&pid, program.constData(), &actions, &attr, argv, envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        *error =
            QStringLiteral("cannot start %1: %2").arg(path, QString::fromLocal8Bit(strerror(rc)));
        return false;
    }
    sock = fds[0];
    child = pid;

    QElapsedTimer timer;
    timer.start();
    const ssize_t n = receive(timer, HelloTimeoutMs);
    symproto::Header header;
    symproto::Hello hello;
    if (n < 0 || !symproto::decodeHeader({buffer.data(), size_t(n)}, &header) ||
        header.type != symproto::MessageType::Hello ||
        !symproto::decodeHello(header.payload, &hello) || hello.version != symproto::Version) {
        *error = QStringLiteral("%1 did not start (its sandbox could not be set up, or it is "
                                "another version; see its message on stderr)")
                     .arg(path);
        stop(true);
        return false;
    }
    for (Process &p : processes)
        for (Mapping &m : p.mappings)
            m.sent = false;
    return true;
}

void SymbolizerClient::Private::stop(bool kill)
{
    if (sock >= 0) {
        close(sock);
        sock = -1;
    }
    if (child > 0) {
        if (kill)
            ::kill(child, SIGKILL);
        // Closing the socket ends it; a child that does not go within a second is killed.
        for (int i = 0; i < 100; ++i) {
            const pid_t r = waitpid(child, nullptr, WNOHANG);
            if (r == child || (r < 0 && errno != EINTR))
                break;
            if (i == 99) {
                ::kill(child, SIGKILL);
                waitpid(child, nullptr, 0);
                break;
            }
            usleep(10000);
        }
        child = 0;
    }
}

bool SymbolizerClient::Private::ensureRunning()
{
    if (running())
        return true;
    if (!wanted)
        return false;
    const qint64 now = clock.elapsed();
    while (!restarts.isEmpty() && now - restarts.constFirst() > RestartWindowMs)
        restarts.removeFirst();
    if (restarts.size() >= MaxRestarts)
        return false;
    restarts.append(now);
    QString error;
    if (!spawn(&error)) {
        qWarning("bpflens-symbolizer: %s", qPrintable(error));
        return false;
    }
    return true;
}

bool SymbolizerClient::Private::send(const std::vector<uint8_t> &packet, int fd,
                                     const QElapsedTimer &timer, int timeout)
{
    iovec iov{const_cast<uint8_t *>(packet.data()), packet.size()};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
    if (fd >= 0) {
        std::memset(control, 0, sizeof control);
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    for (;;) {
        if (sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT) >= 0)
            return true;
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN)
            return false;
        const qint64 left = timeout - timer.elapsed();
        if (left <= 0)
            return false;
        pollfd p{sock, short(readReply ? POLLOUT | POLLIN : POLLOUT), 0};
        const int r = poll(&p, 1, int(left));
        if (r < 0 && errno != EINTR)
            return false;
        if (r > 0 && (p.revents & POLLIN) && readReply && !readReply())
            return false;
    }
}

ssize_t SymbolizerClient::Private::receive(const QElapsedTimer &timer, int timeout)
{
    for (;;) {
        const qint64 left = timeout - timer.elapsed();
        if (left <= 0)
            return -1;
        pollfd p{sock, POLLIN, 0};
        const int r = poll(&p, 1, int(left));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        const ssize_t n = recv(sock, buffer.data(), buffer.size(), MSG_DONTWAIT | MSG_TRUNC);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0 || size_t(n) > buffer.size())
            return -1; // the child is gone, or sent more than any message can be
        return n;
    }
}

void SymbolizerClient::Private::sendModules(quint32 pid, Process &p)
{
    QElapsedTimer timer;
    timer.start();
    for (Mapping &m : p.mappings) {
        if (m.sent || !m.isFile())
            continue;
        m.sent = true;
        int fd = m.fd;
        if (fd >= 0) {
            m.fd = -1;
            --heldFiles;
        } else {
            fd = openMapped(pid, m);
        }
        if (fd < 0)
            continue;
        symproto::AddModule add;
        add.pid = pid;
        add.start = m.start;
        add.end = m.end;
        add.offset = m.offset;
        add.path = m.path.toStdString();
        const bool ok = send(symproto::encodeAddModule(++sequence, add), fd, timer, replyTimeoutMs);
        close(fd);
        if (!ok) {
            // The child did not take it in time (busy with earlier requests, or gone). Marked
            // sent, the process's stacks would stay unresolved in that module without a word:
            // it goes again with the next stack of the process (opened again, if it still runs).
            m.sent = false;
            qWarning("bpflens-symbolizer: %s of pid %u not taken within %d ms; sent again with "
                     "its next stack",
                     m.path.constData(), pid, replyTimeoutMs);
            return;
        }
    }
}

void SymbolizerClient::Private::holdFiles(quint32 pid, Process &p)
{
    for (Mapping &m : p.mappings) {
        if (heldFiles >= MaxHeldFiles)
            return;
        if (m.sent || m.fd >= 0 || !m.isFile())
            continue;
        m.fd = openMapped(pid, m);
        if (m.fd >= 0)
            ++heldFiles;
    }
}

void SymbolizerClient::Private::closeFiles(QList<Mapping> &mappings)
{
    for (Mapping &m : mappings) {
        if (m.fd >= 0) {
            close(m.fd);
            m.fd = -1;
            --heldFiles;
        }
    }
}

void SymbolizerClient::Private::forget(quint32 pid)
{
    if (auto it = processes.find(pid); it != processes.end())
        closeFiles(it->mappings);
    processes.remove(pid);
    poisoned.remove(pid);
    gone.remove(pid);
    if (running()) {
        QElapsedTimer timer;
        timer.start();
        if (!send(symproto::encodeForgetProcess(++sequence, pid), -1, timer, replyTimeoutMs))
            stop(true); // the next resolve starts another
    }
}

void SymbolizerClient::Private::sweepExited()
{
    const qint64 now = clock.elapsed();
    if (now - lastSweep < sweepIntervalMs)
        return;
    lastSweep = now;
    // Without this the child keeps every process's parsed modules until its LRU limit: a
    // build's thousands of compiler processes, each some megabytes.
    QSet<quint32> stillGone;
    QList<quint32> pids = processes.keys();
    for (quint32 pid : std::as_const(pids)) {
        if (kill(pid_t(pid), 0) == 0 || errno != ESRCH)
            continue;
        if (gone.contains(pid))
            forget(pid);
        else
            stillGone.insert(pid);
    }
    gone = stillGone;
}

SymbolizerClient::SymbolizerClient()
    : d(std::make_unique<Private>())
{
    d->clock.start();
}

SymbolizerClient::~SymbolizerClient()
{
    for (Process &p : d->processes)
        d->closeFiles(p.mappings);
    d->stop(false);
}

bool SymbolizerClient::start(QString *error)
{
    if (isRunning())
        return true;
    QString e;
    const bool ok = d->spawn(&e);
    d->wanted = ok;
    if (!ok && error)
        *error = e;
    return ok;
}

bool SymbolizerClient::isRunning() const
{
    return d->running();
}

qint64 SymbolizerClient::childPid() const
{
    return isRunning() ? d->child : 0;
}

void SymbolizerClient::Private::observe(quint32 pid, const UserSample *sample, bool inResolve)
{
    Process &p = processes[pid];
    const qint64 now = clock.elapsed();
    const bool checkExe = inResolve
                              ? !exeCheckedThisCall.contains(pid)
                              : p.exeCheckedMs < 0 || now - p.exeCheckedMs >= CaptureExeCheckMs;
    if (checkExe) {
        if (inResolve)
            exeCheckedThisCall.insert(pid);
        p.exeCheckedMs = now;
        struct stat st;
        const QByteArray exe = "/proc/" + QByteArray::number(pid) + "/exe";
        if (stat(exe.constData(), &st) == 0) {
            if (p.mapsRead && (st.st_dev != p.exeDev || st.st_ino != p.exeIno)) {
                // An exec: every module the child holds for the pid is gone.
                QElapsedTimer timer;
                timer.start();
                if (running())
                    send(symproto::encodeForgetProcess(++sequence, pid), -1, timer, replyTimeoutMs);
                closeFiles(p.mappings);
                p.mappings.clear();
                p.mapsRead = false;
                rereadThisCall.remove(pid);
            }
            if (p.exeSeenMs < 0 || st.st_dev != p.exeDev || st.st_ino != p.exeIno) {
                p.exeSeenMs = now;
                p.mapsSettled = false;
            }
            p.exeDev = st.st_dev;
            p.exeIno = st.st_ino;
        }
    }
    bool reread = !p.mapsRead || (checkExe && !p.mapsSettled);
    if (!reread && sample && !rereadThisCall.contains(pid)) {
        // Code outside every known mapping: something was mapped since (dlopen).
        reread = !inKnownMapping(p, sample->regs.ip());
        for (qsizetype i = 0; i < sample->framePointerIps.size() && !reread; ++i)
            reread =
                sample->framePointerIps.at(i) && !inKnownMapping(p, sample->framePointerIps.at(i));
    }
    if (reread) {
        if (inResolve)
            rereadThisCall.insert(pid);
        QList<Mapping> fresh;
        if (readMaps(pid, &fresh)) {
            bool unmapped = false;
            for (Mapping &old : p.mappings) {
                bool still = false;
                for (Mapping &m : fresh) {
                    if (old.start == m.start && old.end == m.end && old.offset == m.offset &&
                        old.path == m.path) {
                        m.sent = old.sent;
                        m.fd = std::exchange(old.fd, -1);
                        still = true;
                    }
                }
                unmapped |= old.sent && !still;
            }
            closeFiles(p.mappings);
            // A module the child holds is gone (an exec, a dlclose): its range may now hold
            // another file, and the child would name the new code with the old file's symbols.
            // The child forgets the process and gets its modules again.
            if (unmapped && running()) {
                QElapsedTimer timer;
                timer.start();
                if (send(symproto::encodeForgetProcess(++sequence, pid), -1, timer,
                         replyTimeoutMs)) {
                    for (Mapping &m : fresh)
                        m.sent = false;
                }
            }
            p.mappings = fresh;
            const qint64 age = p.exeSeenMs < 0 ? SettleWithoutExeMs : now - p.exeSeenMs;
            const bool exeMapped = std::any_of(fresh.cbegin(), fresh.cend(), [&](const Mapping &m) {
                return m.isFile() && m.inode == quint64(p.exeIno);
            });
            p.mapsSettled = age >= SettleWithoutExeMs || (exeMapped && age >= SettleMs);
        } else {
            p.mapsSettled = true; // gone: nothing more to read
        }
        p.mapsRead = true;
        // Only when the maps were read: capture() runs for every event, and a process whose
        // files could not all be held (MaxHeldFiles) gets them opened when they are sent.
        holdFiles(pid, p);
    }
}

SymbolizedStack SymbolizerClient::Private::toStack(quint32 pid, const symproto::Stack &stack) const
{
    const Process p = processes.value(pid);
    SymbolizedStack s;
    s.truncated = stack.truncated;
    s.usedFramePointers = stack.usedFramePointers;
    s.frames.reserve(qsizetype(stack.frames.size()));
    for (const symproto::Frame &f : stack.frames) {
        SymbolizedFrame frame;
        frame.address = f.address;
        frame.symbolStart = f.symbolStart;
        frame.module = QByteArray::fromStdString(f.module);
        frame.buildId = QByteArray::fromStdString(f.buildId);
        frame.symbol = QByteArray::fromStdString(f.symbol);
        frame.file = QByteArray::fromStdString(f.file);
        frame.line = f.line;
        frame.inlined = f.inlined;
        if (frame.module.isEmpty()) {
            // [vdso] and the like: named, relative to the mapping; the rest stays absolute.
            for (const Mapping &m : p.mappings) {
                if (m.contains(f.address) && m.path.startsWith('[')) {
                    frame.module = m.path;
                    frame.address = f.address - m.start;
                    break;
                }
            }
        }
        s.frames.append(frame);
    }
    return s;
}

QList<SymbolizedStack> SymbolizerClient::resolve(const QList<UserSample> &samples)
{
    // Several requests in flight: the child's scheduling latency, which a request at a time
    // paid per sample, is paid about once per window, and the child unwinds while this side
    // reads the next processes' maps.
    constexpr qsizetype Window = 16;
    QList<SymbolizedStack> out(samples.size());
    struct InFlight
    {
        qsizetype index;
        quint32 sequence;
    };
    std::deque<InFlight> inFlight;
    std::deque<qsizetype> todo;
    for (qsizetype i = 0; i < samples.size(); ++i)
        todo.push_back(i);

    // The oldest request's reply; false when the child failed on it (crashed, hung, garbage).
    auto readOne = [&]() -> bool {
        if (inFlight.empty())
            return false;
        const InFlight f = inFlight.front();
        QElapsedTimer timer;
        timer.start();
        for (;;) {
            const ssize_t n = d->receive(timer, d->replyTimeoutMs);
            if (n < 0)
                return false;
            symproto::Header header;
            if (!symproto::decodeHeader({d->buffer.data(), size_t(n)}, &header))
                return false;
            if (header.type != symproto::MessageType::Stack || header.sequence != f.sequence)
                continue; // not an answer to a request of this call (tolerated)
            symproto::Stack stack;
            if (!symproto::decodeStack(header.payload, &stack))
                return false;
            out[f.index] = d->toStack(samples.at(f.index).pid, stack);
            inFlight.pop_front();
            return true;
        }
    };
    // The child failed on the oldest request in flight: the processes are answered in order,
    // so that sample's process took it down. It is left alone from now on; the requests after
    // it go to a new child.
    auto recover = [&]() {
        if (!inFlight.empty()) {
            const qsizetype culprit = inFlight.front().index;
            qWarning("bpflens-symbolizer: failed or took over %d ms on a stack of pid %u; its "
                     "user stacks stay unsymbolised",
                     d->replyTimeoutMs, samples.at(culprit).pid);
            d->poisoned.insert(samples.at(culprit).pid);
            out[culprit] = unknownStack(samples.at(culprit));
            inFlight.pop_front();
            for (auto it = inFlight.rbegin(); it != inFlight.rend(); ++it)
                todo.push_front(it->index);
            inFlight.clear();
        }
        d->stop(true);
        d->ensureRunning();
    };

    // Every process of the call first, before the child is kept busy with the first stacks: a
    // process that exits meanwhile keeps its maps and files.
    if (d->wanted) {
        for (const UserSample &sample : samples)
            if (sample.regs.valid && !d->poisoned.contains(sample.pid))
                d->observe(sample.pid, &sample, true);
    }

    d->readReply = readOne;
    while (!todo.empty() || !inFlight.empty()) {
        if (todo.empty() || qsizetype(inFlight.size()) >= Window) {
            if (!readOne())
                recover();
            continue;
        }
        const qsizetype i = todo.front();
        todo.pop_front();
        const UserSample &sample = samples.at(i);
        if (!sample.regs.valid)
            continue; // an empty stack
        if (d->poisoned.contains(sample.pid) || !d->ensureRunning()) {
            out[i] = unknownStack(sample);
            continue;
        }
        d->sendModules(sample.pid, d->processes[sample.pid]);
        symproto::Unwind u;
        u.pid = sample.pid;
        u.tid = sample.tid;
        std::copy(sample.regs.dwarf.begin(), sample.regs.dwarf.end(), u.registers.begin());
        u.stack = std::span<const uint8_t>(
            reinterpret_cast<const uint8_t *>(sample.stack.constData()),
            std::min<size_t>(sample.stack.size(), symproto::MaxStackBytes));
        u.framePointerIps.assign(sample.framePointerIps.begin(), sample.framePointerIps.end());
        if (u.framePointerIps.size() > symproto::MaxFramePointerIps)
            u.framePointerIps.resize(symproto::MaxFramePointerIps);
        const quint32 seq = ++d->sequence;
        inFlight.push_back({i, seq});
        QElapsedTimer timer;
        timer.start();
        if (!d->send(symproto::encodeUnwind(seq, u), -1, timer, d->replyTimeoutMs))
            recover();
    }
    d->readReply = nullptr;
    d->rereadThisCall.clear();
    d->exeCheckedThisCall.clear();
    d->sweepExited();
    return out;
}

void SymbolizerClient::capture(quint32 pid)
{
    if (d->wanted && pid && !d->poisoned.contains(pid))
        d->observe(pid, nullptr, false);
}

void SymbolizerClient::forgetProcess(quint32 pid)
{
    d->forget(pid);
}

qsizetype SymbolizerClient::processCount() const
{
    return d->processes.size();
}

void SymbolizerClient::setReplyTimeout(int ms)
{
    d->replyTimeoutMs = ms;
}

void SymbolizerClient::setExitSweepInterval(int ms)
{
    d->sweepIntervalMs = ms;
}

QString SymbolizerClient::executablePath()
{
    const QString fromEnvironment = qEnvironmentVariable("BPFLENS_SYMBOLIZER");
    if (!fromEnvironment.isEmpty())
        return fromEnvironment;
    const QString dir =
        QCoreApplication::instance()
            ? QCoreApplication::applicationDirPath()
            : QFileInfo(QFile::symLinkTarget(QStringLiteral("/proc/self/exe"))).absolutePath();
    const QString next = dir + QStringLiteral("/bpflens-symbolizer");
    if (QFileInfo(next).isExecutable())
        return next;
    return QStringLiteral(BPFLENS_SYMBOLIZER_INSTALLED);
}

} // namespace bpflens
