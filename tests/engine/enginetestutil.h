#pragma once

// Shared by the engine tests: BPF object bookkeeping through libbpf, fd counting, and starting
// a controlled child process.
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QList>
#include <QStringList>

#include <bpf/bpf.h>
#include <linux/bpf.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <functional>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace bpflens::test {

// Mounts tracefs at /sys/kernel/tracing unless it is there (as root): the classic tracepoints
// (tp/syscalls/...) are found in it. "" when it is there afterwards, else why not.
inline QString ensureTracefs()
{
    if (QFileInfo::exists(QStringLiteral("/sys/kernel/tracing/events")))
        return {};
    if (mount("tracefs", "/sys/kernel/tracing", "tracefs", 0, nullptr) != 0)
        return QStringLiteral("mount tracefs at /sys/kernel/tracing: %1")
            .arg(QString::fromLocal8Bit(strerror(errno)));
    return {};
}

inline bool hasOurPrefix(const char *name, const QList<QByteArray> &prefixes)
{
    for (const QByteArray &p : prefixes) {
        if (qstrncmp(name, p.constData(), p.size()) == 0)
            return true;
    }
    return false;
}

inline QByteArray progName(__u32 progId)
{
    const int fd = bpf_prog_get_fd_by_id(progId);
    if (fd < 0)
        return {};
    bpf_prog_info info{};
    __u32 len = sizeof(info);
    QByteArray name;
    if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0)
        name = QByteArray(info.name);
    close(fd);
    return name;
}

// Maps in the kernel (any process's) whose name starts with one of prefixes.
inline int countMaps(const QList<QByteArray> &prefixes)
{
    int n = 0;
    __u32 id = 0;
    while (bpf_map_get_next_id(id, &id) == 0) {
        const int fd = bpf_map_get_fd_by_id(id);
        if (fd < 0)
            continue;
        bpf_map_info info{};
        __u32 len = sizeof(info);
        if (bpf_obj_get_info_by_fd(fd, &info, &len) == 0 && hasOurPrefix(info.name, prefixes))
            ++n;
        close(fd);
    }
    return n;
}

inline int countOpenFds()
{
    return int(QDir(QStringLiteral("/proc/self/fd"))
                   .entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System)
                   .size());
}

// A child that blocks until go() and then runs body (async-signal-safe calls only: the child
// of a Qt process), then _exit(0). Its pid is known before it does anything, so a probe can be
// filtered to it.
class GatedChild
{
public:
    explicit GatedChild(const std::function<void()> &body)
    {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0)
            return;
        m_pid = fork();
        if (m_pid == 0) {
            close(fds[1]);
            char c;
            while (read(fds[0], &c, 1) < 0 && errno == EINTR) {
            }
            body();
            _exit(0);
        }
        close(fds[0]);
        m_gate = fds[1];
    }
    ~GatedChild()
    {
        if (m_gate >= 0)
            close(m_gate);
        if (m_pid > 0 && !m_reaped) {
            kill(m_pid, SIGKILL);
            waitpid(m_pid, nullptr, 0);
        }
    }
    pid_t pid() const { return m_pid; }
    // Lets the child run and waits for it; returns its exit status.
    int run()
    {
        const char c = 1;
        if (write(m_gate, &c, 1) != 1)
            return -1;
        int status = 0;
        waitpid(m_pid, &status, 0);
        m_reaped = true;
        return status;
    }

private:
    pid_t m_pid = -1;
    int m_gate = -1;
    bool m_reaped = false;
};

// A program started stopped at a gate: its pid is known (for a probe's filter) before it
// execs, and the test polls the engine while it runs.
class GatedExec
{
public:
    GatedExec(const QByteArray &program, const QList<QByteArray> &args)
    {
        // Prepared before fork: the child of a Qt process only makes async-signal-safe calls.
        std::vector<QByteArray> storage{program};
        storage.insert(storage.end(), args.begin(), args.end());
        std::vector<char *> argv;
        for (QByteArray &a : storage)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0)
            return;
        m_pid = fork();
        if (m_pid == 0) {
            close(fds[1]);
            char c;
            ssize_t n;
            while ((n = read(fds[0], &c, 1)) < 0 && errno == EINTR) {
            }
            if (n == 1)
                execv(argv[0], argv.data());
            _exit(127);
        }
        close(fds[0]);
        m_gate = fds[1];
    }
    ~GatedExec()
    {
        if (m_gate >= 0)
            close(m_gate);
        if (m_pid > 0 && !m_reaped) {
            kill(m_pid, SIGKILL);
            waitpid(m_pid, nullptr, 0);
        }
    }
    pid_t pid() const { return m_pid; }
    bool go()
    {
        const char c = 1;
        const bool ok = write(m_gate, &c, 1) == 1;
        close(m_gate);
        m_gate = -1;
        return ok;
    }
    // Whether it exited (reaped, with its status and CPU time); false while it runs.
    bool finished()
    {
        if (m_reaped)
            return true;
        if (wait4(m_pid, &m_status, WNOHANG, &m_usage) != m_pid)
            return false;
        m_reaped = true;
        return true;
    }
    bool exitedCleanly() const
    {
        return m_reaped && WIFEXITED(m_status) && WEXITSTATUS(m_status) == 0;
    }
    // User and system CPU time, once finished.
    double cpuSeconds() const
    {
        return double(m_usage.ru_utime.tv_sec + m_usage.ru_stime.tv_sec) +
               double(m_usage.ru_utime.tv_usec + m_usage.ru_stime.tv_usec) / 1e6;
    }

private:
    pid_t m_pid = -1;
    int m_gate = -1;
    bool m_reaped = false;
    int m_status = 0;
    rusage m_usage{};
};

// Ids of the BPF programs this process holds an fd of (a program's or a link's) whose name
// starts with one of prefixes. Unlike listing the kernel's programs by name, this never sees
// the programs of other processes, such as the same test running in another build tree.
inline QList<__u32> ownProgramIds(const QList<QByteArray> &prefixes)
{
    QList<__u32> ids;
    const QStringList fds =
        QDir(QStringLiteral("/proc/self/fdinfo")).entryList(QDir::Files | QDir::System);
    for (const QString &fd : fds) {
        QFile f(QStringLiteral("/proc/self/fdinfo/") + fd);
        if (!f.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray &line : f.readAll().split('\n')) {
            if (!line.startsWith("prog_id:"))
                continue;
            const __u32 id = line.mid(8).trimmed().toUInt();
            if (id && !ids.contains(id) && hasOurPrefix(progName(id).constData(), prefixes))
                ids.append(id);
        }
    }
    return ids;
}

// How many of these programs the kernel still has (a freed program's id is not reused soon).
inline int programsAlive(const QList<__u32> &ids)
{
    int n = 0;
    for (__u32 id : ids) {
        const int fd = bpf_prog_get_fd_by_id(id);
        if (fd >= 0) {
            ++n;
            close(fd);
        }
    }
    return n;
}

// What this process still holds of the BPF objects whose name (a link's: its program's) starts
// with one of prefixes (any name when there are none): an fd of a program, map or link; and of any
// BPF object, a mapping of a map (a ring buffer's mmap keeps its map alive after the fd is closed)
// and a perf event's fd (the attachment of a tracepoint or a sampler). One line each, "fd 12: prog
// open_exit". Nothing is pinned, so once this is empty the kernel frees all of it. Unlike listing
// the kernel's objects by name, this never sees the objects of tests running beside this one (ctest
// runs three at a time, and tst_cli records with the same probes).
inline QStringList ownBpfObjects(const QList<QByteArray> &prefixes)
{
    QStringList held;
    const QStringList fds = QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::System);
    for (const QString &entry : fds) {
        bool ok = false;
        const int fd = entry.toInt(&ok);
        if (!ok)
            continue;
        const QByteArray path = QFile::encodeName(QStringLiteral("/proc/self/fd/") + entry);
        char target[64] = {};
        if (readlink(path.constData(), target, sizeof(target) - 1) < 0)
            continue;
        const QByteArray kind(target);
        if (kind == "anon_inode:[perf_event]") {
            held << QStringLiteral("fd %1: a perf event").arg(fd);
            continue;
        }
        // Fills info from the fd, as the kernel describes an object of that kind.
        auto describe = [fd](auto &info) {
            __u32 len = sizeof(info);
            return bpf_obj_get_info_by_fd(fd, &info, &len) == 0;
        };
        const char *what = nullptr;
        QByteArray name;
        if (kind == "anon_inode:bpf-prog") {
            bpf_prog_info info{};
            what = "prog";
            if (describe(info))
                name = QByteArray(info.name);
        } else if (kind == "anon_inode:bpf-map") {
            bpf_map_info info{};
            what = "map";
            if (describe(info))
                name = QByteArray(info.name);
        } else if (kind == "anon_inode:bpf_link") {
            bpf_link_info info{};
            what = "link of prog";
            if (describe(info))
                name = progName(info.prog_id);
        }
        if (what && (prefixes.isEmpty() || hasOurPrefix(name.constData(), prefixes)))
            held << QStringLiteral("fd %1: %2 %3")
                        .arg(fd)
                        .arg(QLatin1String(what), QString::fromLatin1(name));
    }
    QFile maps(QStringLiteral("/proc/self/maps"));
    if (maps.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : maps.readAll().split('\n')) {
            if (line.endsWith("anon_inode:bpf-map"))
                held << QStringLiteral("mapping of a BPF map: ") + QString::fromLatin1(line);
        }
    }
    return held;
}

} // namespace bpflens::test
