#include "core/cgroups.h"

#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bpflens {

namespace {

bool isHex(QByteArrayView s)
{
    return !s.isEmpty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    });
}

// "<prefix><id><suffix>" -> id, or empty when name is not of that form.
QByteArrayView between(QByteArrayView name, QByteArrayView prefix, QByteArrayView suffix)
{
    if (name.size() <= prefix.size() + suffix.size() || !name.startsWith(prefix) ||
        !name.endsWith(suffix))
        return {};
    return name.sliced(prefix.size(), name.size() - prefix.size() - suffix.size());
}

struct Container
{
    QByteArrayView id;
    const char *runtime = nullptr;
};

// The container a path component names as its runtime's systemd driver names it
// ("docker-<id>.scope") or, for the cgroupfs driver, a bare id under a runtime's directory.
Container containerOf(QByteArrayView name, QByteArrayView parent, bool inKubepods)
{
    static constexpr struct
    {
        const char *prefix;
        const char *runtime;
    } scopes[] = {
        {"docker-", "docker"},
        {"cri-containerd-", "containerd"},
        {"crio-", "cri-o"},
        {"libpod-", "podman"},
    };
    for (const auto &s : scopes) {
        QByteArrayView id = between(name, s.prefix, ".scope");
        if (id.isEmpty() && qstrcmp(s.runtime, "podman") == 0)
            id = between(name, s.prefix, ""); // podman's cgroupfs driver: libpod_parent/libpod-<id>
        // crio-conmon-<id>.scope and libpod-conmon-<id>.scope hold the runtime's monitor, not
        // the container.
        if (!id.isEmpty() && isHex(id))
            return {id, s.runtime};
    }
    if (name.size() >= 32 && isHex(name)) {
        if (parent == "docker")
            return {name, "docker"};
        if (parent == "libpod_parent")
            return {name, "podman"};
        if (inKubepods)
            return {name, "kubernetes"};
    }
    return {};
}

// A Kubernetes pod's UID from "kubepods-burstable-pod<uid>.slice" (systemd driver, '_' for '-')
// or "pod<uid>" (cgroupfs driver).
QString podOf(QByteArrayView name)
{
    if (name.startsWith("kubepods") && name.endsWith(".slice")) {
        const qsizetype at = name.toByteArray().lastIndexOf("-pod");
        if (at < 0)
            return {};
        QByteArray uid = name.sliced(at + 4, name.size() - at - 4 - 6).toByteArray();
        uid.replace('_', '-');
        return uid.isEmpty() ? QString() : QString::fromUtf8(uid);
    }
    if (name.startsWith("pod") && name.size() > 3) {
        const QByteArrayView uid = name.sliced(3);
        const bool looksLikeUid = std::all_of(uid.begin(), uid.end(), [](char c) {
            return c == '-' || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
        });
        if (looksLikeUid)
            return QString::fromUtf8(uid.toByteArray().replace('_', '-'));
    }
    return {};
}

// Mountinfo escapes space, tab, newline and backslash as \ooo.
QByteArray unescapeMountField(QByteArrayView s)
{
    QByteArray out;
    out.reserve(s.size());
    for (qsizetype i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '3' &&
            s[i + 2] >= '0' && s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
            out.append(char((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0')));
            i += 3;
        } else {
            out.append(s[i]);
        }
    }
    return out;
}

} // namespace

CgroupNames parseCgroupPath(QByteArrayView path)
{
    CgroupNames n;
    const QList<QByteArray> parts = path.toByteArray().split('/');
    QList<QByteArrayView> names;
    for (const QByteArray &p : parts) {
        if (!p.isEmpty())
            names.append(p);
    }
    if (names.isEmpty()) {
        if (path == "/")
            n.unit = QStringLiteral("-.slice");
        return n;
    }
    bool inKubepods = false;
    QByteArrayView unit, slice;
    for (qsizetype i = 0; i < names.size(); ++i) {
        const QByteArrayView name = names[i];
        if (name.startsWith("kubepods"))
            inKubepods = true;
        const Container c = containerOf(name, i > 0 ? names[i - 1] : QByteArrayView(), inKubepods);
        if (c.runtime) {
            n.container = QString::fromUtf8(c.id.toByteArray());
            n.runtime = QString::fromLatin1(c.runtime);
        }
        if (inKubepods) {
            if (const QString pod = podOf(name); !pod.isEmpty())
                n.pod = pod;
        }
        if (name.endsWith(".service") || name.endsWith(".scope"))
            unit = name;
        else if (name.endsWith(".slice"))
            slice = name;
    }
    n.unit = QString::fromUtf8((unit.isEmpty() ? slice : unit).toByteArray());
    return n;
}

QString shortContainerId(const QString &id)
{
    return id.size() == 64 ? id.left(12) : id;
}

void CgroupTable::add(const CgroupPath &c)
{
    if (m_byId.contains(c.id))
        return;
    m_byId.insert(c.id, Entry{c, parseCgroupPath(c.path)});
}

void CgroupTable::add(const QList<CgroupPath> &list)
{
    for (const CgroupPath &c : list)
        add(c);
}

const CgroupPath *CgroupTable::path(quint64 id) const
{
    const auto it = m_byId.constFind(id);
    return it == m_byId.constEnd() ? nullptr : &it->path;
}

CgroupNames CgroupTable::names(quint64 id) const
{
    const auto it = m_byId.constFind(id);
    return it == m_byId.constEnd() ? CgroupNames{} : it->names;
}

QList<CgroupPath> CgroupTable::all() const
{
    QList<CgroupPath> out;
    out.reserve(m_byId.size());
    for (const Entry &e : m_byId)
        out.append(e.path);
    std::sort(out.begin(), out.end(),
              [](const CgroupPath &a, const CgroupPath &b) { return a.id < b.id; });
    return out;
}

QString findCgroup2Mount(const QByteArray &mountinfo, QString *error)
{
    // "36 25 0:30 / /sys/fs/cgroup/unified rw,nosuid shared:9 - cgroup2 cgroup2 rw": the
    // mount point is the fifth field, the type the first after the " - " separator.
    for (const QByteArray &line : mountinfo.split('\n')) {
        const qsizetype dash = line.indexOf(" - ");
        if (dash < 0)
            continue;
        const QList<QByteArray> after = line.mid(dash + 3).split(' ');
        if (after.isEmpty() || after[0] != "cgroup2")
            continue;
        const QList<QByteArray> before = line.left(dash).split(' ');
        if (before.size() < 5)
            continue;
        return QFile::decodeName(unescapeMountField(before[4]));
    }
    if (error)
        *error = QStringLiteral("this machine has no cgroup v2 hierarchy mounted (no cgroup2 "
                                "entry in /proc/self/mountinfo): events cannot be named by "
                                "container or systemd unit");
    return {};
}

QString cgroup2Mount(QString *error)
{
    QFile f(QStringLiteral("/proc/self/mountinfo"));
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read /proc/self/mountinfo: %1").arg(f.errorString());
        return {};
    }
    return findCgroup2Mount(f.readAll(), error);
}

CgroupResolver::CgroupResolver(const QString &mount, int rescanMs)
    : m_rescanMs(rescanMs)
{
    m_mount = mount.isEmpty() ? cgroup2Mount(&m_error) : mount;
    // Every cgroup there is when the recording starts: one that is gone before its events are
    // drained still resolves.
    if (isAvailable())
        scan();
}

QList<CgroupPath> CgroupResolver::resolve(const QSet<quint64> &ids)
{
    QList<CgroupPath> out;
    for (quint64 id : ids) {
        if (id == 0 || m_handed.contains(id))
            continue;
        const auto it = m_seen.constFind(id);
        if (it == m_seen.constEnd()) {
            m_pending.insert(id);
            continue;
        }
        m_pending.remove(id);
        m_handed.insert(id);
        out.append({id, *it});
    }
    if (!m_pending.isEmpty() && isAvailable() &&
        (!m_lastScan.isValid() || m_lastScan.elapsed() >= m_rescanMs)) {
        scan();
        for (auto p = m_pending.begin(); p != m_pending.end();) {
            const auto it = m_seen.constFind(*p);
            if (it == m_seen.constEnd()) {
                ++p;
                continue;
            }
            m_handed.insert(*p);
            out.append({*p, *it});
            p = m_pending.erase(p);
        }
    }
    return out;
}

QList<CgroupPath> CgroupResolver::finish()
{
    QList<CgroupPath> out;
    if (!m_pending.isEmpty() && isAvailable())
        scan();
    for (quint64 id : std::as_const(m_pending)) {
        const auto it = m_seen.constFind(id);
        out.append({id, it == m_seen.constEnd() ? QByteArray() : *it});
        m_handed.insert(id);
    }
    m_pending.clear();
    return out;
}

QList<CgroupPath> CgroupResolver::walk()
{
    if (isAvailable())
        scan();
    QList<CgroupPath> out;
    out.reserve(m_seen.size());
    for (auto it = m_seen.cbegin(); it != m_seen.cend(); ++it)
        out.append({it.key(), it.value()});
    return out;
}

void CgroupResolver::scan()
{
    ++m_scans;
    m_lastScan.start();
    const QByteArray root = QFile::encodeName(m_mount);
    struct stat st
    {
    };
    if (::stat(root.constData(), &st) != 0)
        return;
    m_seen.insert(quint64(st.st_ino), QByteArrayLiteral("/"));
    // Depth first with one open directory per level; cgroup trees are a few levels deep, and
    // the depth is bounded anyway against a hostile or looping tree.
    constexpr int MaxDepth = 64;
    struct Level
    {
        DIR *dir;
        QByteArray path; // below the mount, "" for the root
    };
    QList<Level> stack;
    const int fd = ::open(root.constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return;
    DIR *d = ::fdopendir(fd);
    if (!d) {
        ::close(fd);
        return;
    }
    stack.append({d, QByteArray()});
    while (!stack.isEmpty()) {
        Level &top = stack.last();
        errno = 0;
        const dirent *e = ::readdir(top.dir);
        if (!e) {
            ::closedir(top.dir);
            stack.removeLast();
            continue;
        }
        if (e->d_type != DT_DIR || std::strcmp(e->d_name, ".") == 0 ||
            std::strcmp(e->d_name, "..") == 0)
            continue;
        const QByteArray path = top.path + '/' + QByteArray(e->d_name);
        // On kernfs the entry's inode number is the cgroup's id (what the BPF helper returns).
        m_seen.insert(quint64(e->d_ino), path);
        if (stack.size() >= MaxDepth)
            continue;
        const int child =
            ::openat(::dirfd(top.dir), e->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (child < 0)
            continue; // removed meanwhile
        DIR *cd = ::fdopendir(child);
        if (!cd) {
            ::close(child);
            continue;
        }
        stack.append({cd, path});
    }
}

} // namespace bpflens
