#pragma once

// A memory-limited cgroup for the memory probes' tests (tst_oomkill, tst_reclaim): where the
// memory controller is on cgroup v2 (a systemd machine, the VM matrix's guests), one v2 cgroup
// with memory.max or memory.high; where it is on v1 (this project's hybrid Debian machines), a
// v1 memory cgroup with memory.limit_in_bytes for the limit and a v2 cgroup beside it for the id
// BPF Lens reports (bpf_get_current_cgroup_id and the events' cgroup ids are v2's).
#include "core/cgroups.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace bpflens::test {

class MemoryCgroup
{
public:
    enum Limit
    {
        Max,  // the hard limit: charges over it reclaim, then OOM-kill
        High, // v2's throttling limit (v1 has none: its hard limit instead)
    };

    MemoryCgroup() = default;
    MemoryCgroup(const MemoryCgroup &) = delete;
    MemoryCgroup &operator=(const MemoryCgroup &) = delete;
    ~MemoryCgroup() { remove(); }

    // Makes the cgroup(s) named name with the limit; false with *why (the machine lacks what it
    // needs: no cgroup v2 hierarchy, no memory controller anywhere) or *error (a step failed).
    bool make(const QByteArray &name, Limit limit, quint64 bytes, QString *why, QString *error)
    {
        QString mountError;
        const QString v2 = cgroup2Mount(&mountError);
        if (v2.isEmpty()) {
            *why = QStringLiteral("no cgroup v2 hierarchy: ") + mountError;
            return false;
        }
        const QByteArray root = QFile::encodeName(v2);
        const bool v2Memory =
            readFile(root + "/cgroup.controllers").trimmed().split(' ').contains("memory");
        m_v2 = root + '/' + name;
        if (!makeDir(m_v2, error))
            return false;
        struct stat st
        {
        };
        if (::stat(m_v2.constData(), &st) != 0) {
            *error = QString::fromLocal8Bit(strerror(errno));
            return false;
        }
        m_id = quint64(st.st_ino);
        const QByteArray value = QByteArray::number(bytes);
        if (v2Memory) {
            // The controller must be on in the parent's subtree (the root's, here).
            if (!readFile(root + "/cgroup.subtree_control").contains("memory") &&
                !writeFile(root + "/cgroup.subtree_control", "+memory", error))
                return false;
            if (QFile::exists(QFile::decodeName(m_v2 + "/memory.swap.max")) &&
                !writeFile(m_v2 + "/memory.swap.max", "0", error))
                return false;
            return writeFile(m_v2 + (limit == Max ? "/memory.max" : "/memory.high"), value, error);
        }
        const QByteArray v1 = v1MemoryMount();
        if (v1.isEmpty()) {
            *why =
                QStringLiteral("no memory controller: neither in cgroup v2's %1/cgroup.controllers "
                               "nor a cgroup v1 memory hierarchy in /proc/mounts")
                    .arg(v2);
            return false;
        }
        m_v1 = v1 + '/' + name;
        if (!makeDir(m_v1, error))
            return false;
        // No swapping out of the limit: swappiness 0, and the memory+swap limit where swap is
        // accounted.
        writeFile(m_v1 + "/memory.swappiness", "0", nullptr);
        if (!writeFile(m_v1 + "/memory.limit_in_bytes", value, error))
            return false;
        if (QFile::exists(QFile::decodeName(m_v1 + "/memory.memsw.limit_in_bytes")) &&
            !writeFile(m_v1 + "/memory.memsw.limit_in_bytes", value, error))
            return false;
        return true;
    }

    // Moves a process into the cgroup(s).
    bool add(pid_t pid, QString *error)
    {
        const QByteArray p = QByteArray::number(pid);
        if (!m_v1.isEmpty() && !writeFile(m_v1 + "/cgroup.procs", p, error))
            return false;
        return writeFile(m_v2 + "/cgroup.procs", p, error);
    }

    quint64 id() const { return m_id; } // the v2 cgroup's id, as events carry it
    QByteArray v2Path() const { return m_v2; }
    bool isV1() const { return !m_v1.isEmpty(); }

    // Removes the cgroups (their processes must have exited).
    void remove()
    {
        for (QByteArray *dir : {&m_v1, &m_v2}) {
            if (dir->isEmpty())
                continue;
            // A process that just exited may still be counted for a moment.
            for (int i = 0; i < 100 && ::rmdir(dir->constData()) != 0 && errno == EBUSY; ++i)
                ::usleep(10000);
            dir->clear();
        }
    }

    static QByteArray readFile(const QByteArray &path)
    {
        QFile f(QFile::decodeName(path));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private:
    static bool writeFile(const QByteArray &path, const QByteArray &text, QString *error)
    {
        QFile f(QFile::decodeName(path));
        // Unbuffered: a cgroup file takes one write, and says its error at that write.
        if (f.open(QIODevice::WriteOnly | QIODevice::Unbuffered) && f.write(text) == text.size())
            return true;
        if (error)
            *error = QStringLiteral("writing %1 to %2: %3")
                         .arg(QString::fromLatin1(text), QFile::decodeName(path), f.errorString());
        return false;
    }

    static bool makeDir(const QByteArray &dir, QString *error)
    {
        if (::mkdir(dir.constData(), 0755) == 0 || errno == EEXIST)
            return true;
        *error = QStringLiteral("mkdir %1: %2")
                     .arg(QFile::decodeName(dir), QString::fromLocal8Bit(strerror(errno)));
        return false;
    }

    // The mount point of a cgroup v1 hierarchy with the memory controller, or "".
    static QByteArray v1MemoryMount()
    {
        for (const QByteArray &line : readFile("/proc/mounts").split('\n')) {
            const QList<QByteArray> f = line.split(' ');
            if (f.size() >= 4 && f[2] == "cgroup" && f[3].split(',').contains("memory"))
                return f[1];
        }
        return {};
    }

    QByteArray m_v2;
    QByteArray m_v1;
    quint64 m_id = 0;
};

// Runs body in a child process named comm, moved into cg before it starts; returns its wait
// status, -1 with *error set if it could not run. body makes async-signal-safe calls only.
template<typename Body>
int runInCgroup(MemoryCgroup &cg, const char *comm, Body body, QString *error)
{
    int gate[2];
    if (::pipe2(gate, O_CLOEXEC) != 0) {
        *error = QString::fromLocal8Bit(strerror(errno));
        return -1;
    }
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(gate[1]);
        char c;
        while (::read(gate[0], &c, 1) < 0 && errno == EINTR) {
        }
        ::prctl(PR_SET_NAME, comm, 0, 0, 0);
        body();
        ::_exit(0);
    }
    ::close(gate[0]);
    const bool moved = pid > 0 && cg.add(pid, error);
    if (moved)
        (void)!::write(gate[1], "g", 1);
    ::close(gate[1]);
    int status = -1;
    if (pid > 0) {
        if (!moved)
            ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
    }
    return moved ? status : -1;
}

// A child named comm OOM-killed in a new cgroup name of 32 MiB: whether it was (SIGKILL).
inline bool oomKilledChild(const QByteArray &name, const char *comm, QString *error)
{
    constexpr size_t limit = 32u << 20;
    MemoryCgroup cg;
    QString why;
    if (!cg.make(name, MemoryCgroup::Max, limit, &why, error)) {
        if (error->isEmpty())
            *error = why;
        return false;
    }
    const int status = runInCgroup(
        cg, comm,
        [] {
            auto *p = static_cast<char *>(::mmap(nullptr, 4 * limit, PROT_READ | PROT_WRITE,
                                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
            if (p == MAP_FAILED)
                ::_exit(2);
            for (size_t off = 0; off < 4 * limit; off += 4096)
                p[off] = 1;
            ::_exit(3);
        },
        error);
    if (status != -1 && !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL))
        *error = QStringLiteral("the child was not OOM-killed: status %1").arg(status);
    return status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

// A child named comm in a new cgroup name held to 16 MiB (memory.high, v1's limit) reads 64 MiB
// of a file it makes in dir (on a disk), dropped from the page cache first: it reclaims its own
// page cache (memcg reclaim). Whether it ran to the end.
inline bool childReclaimsPageCache(const QByteArray &name, const char *comm, const QString &dir,
                                   QString *error)
{
    MemoryCgroup cg;
    QString why;
    if (!cg.make(name, MemoryCgroup::High, 16u << 20, &why, error)) {
        if (error->isEmpty())
            *error = why;
        return false;
    }
    const QByteArray path = QFile::encodeName(dir) + '/' + name;
    const int fd = ::open(path.constData(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = QStringLiteral("%1: %2").arg(QFile::decodeName(path),
                                              QString::fromLocal8Bit(strerror(errno)));
        return false;
    }
    const QByteArray block(1 << 20, 'r');
    bool written = true;
    for (int i = 0; i < 64 && written; ++i)
        written = ::write(fd, block.constData(), size_t(block.size())) == block.size();
    written =
        written && ::fdatasync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
    ::close(fd);
    if (!written) {
        ::unlink(path.constData());
        *error = QStringLiteral("cannot write %1").arg(QFile::decodeName(path));
        return false;
    }
    const char *file = path.constData();
    const int status = runInCgroup(
        cg, comm,
        [file] {
            const int in = ::open(file, O_RDONLY | O_CLOEXEC);
            if (in < 0)
                ::_exit(2);
            static char buf[1 << 16];
            ssize_t n;
            while ((n = ::read(in, buf, sizeof buf)) > 0) {
            }
            ::_exit(n == 0 ? 0 : 3);
        },
        error);
    ::unlink(path.constData());
    if (status != -1 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
        *error = QStringLiteral("the reading child failed: status %1").arg(status);
    return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

} // namespace bpflens::test
