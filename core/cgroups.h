#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

namespace bpflens {

// Containers and services (issue #32 part 4, docs/containers.md). Every event that carries a
// process carries its task's cgroup v2 id (bpf_get_current_cgroup_id(): the inode number of the
// cgroup's directory in the v2 hierarchy). The recorder resolves each id once to the cgroup's
// path (CgroupResolver), the session keeps the paths (table cgroups), and what a path says
// (parseCgroupPath) names the events' container and systemd unit.

// One cgroup of a recording: its id and its path below the v2 hierarchy's mount, as the kernel
// spells it (bytes: a name need not be UTF-8), "/" for the root. An empty path: the id was seen
// but its directory was gone before it could be looked up.
struct CgroupPath
{
    quint64 id = 0;
    QByteArray path;
    bool operator==(const CgroupPath &) const = default;
};

// What a cgroup's path says about who runs in it ('' where it says nothing).
struct CgroupNames
{
    // The container's id as its runtime gives it (Docker, containerd and CRI-O: 64 hex digits).
    QString container;
    // "docker", "containerd", "cri-o", "podman"; "kubernetes" for a container of a kubepods
    // hierarchy whose path does not name its runtime (the cgroupfs driver).
    QString runtime;
    // A Kubernetes pod's UID ("0d8b5a56-…"), with dashes as the API shows it.
    QString pod;
    // The innermost systemd unit: "nginx.service", "docker-<id>.scope", "user@1000.service",
    // "session-2.scope"; the innermost slice where no unit encloses the cgroup ("user-1000.slice",
    // "system.slice"); "-.slice" for the root.
    QString unit;
    bool operator==(const CgroupNames &) const = default;
};

CgroupNames parseCgroupPath(QByteArrayView path);

// The short form of a container id people read (Docker's 12 hex digits); others as they are.
QString shortContainerId(const QString &id);

// The session's cgroups by id. The first path given for an id stays.
class CgroupTable
{
public:
    void add(const CgroupPath &c);
    void add(const QList<CgroupPath> &list);
    bool isEmpty() const { return m_byId.isEmpty(); }
    qsizetype size() const { return m_byId.size(); }
    bool contains(quint64 id) const { return m_byId.contains(id); }
    // nullptr for an id the table does not have.
    const CgroupPath *path(quint64 id) const;
    // Empty names for an unknown id.
    CgroupNames names(quint64 id) const;
    // Every cgroup, by id.
    QList<CgroupPath> all() const;
    void clear() { m_byId.clear(); }

private:
    struct Entry
    {
        CgroupPath path;
        CgroupNames names;
    };
    QHash<quint64, Entry> m_byId;
};

// The mount point of the cgroup v2 hierarchy in mountinfo (/proc/self/mountinfo's format):
// /sys/fs/cgroup on systemd's unified layout, /sys/fs/cgroup/unified on the hybrid one, wherever
// else it was mounted otherwise. Empty, with *error saying so, when nothing mounts cgroup2.
QString findCgroup2Mount(const QByteArray &mountinfo, QString *error);
// The same for this process's mount namespace.
QString cgroup2Mount(QString *error);

// Resolves the cgroup ids of a recording's events to paths, in the process that records. The
// v2 hierarchy is walked when an id is not known yet (at most every rescanMs, so a storm of
// events from a cgroup already gone costs one walk, not one per event); every path ever seen
// is kept, so a cgroup removed after its events were recorded still resolves.
class CgroupResolver
{
public:
    // mount: the v2 hierarchy's mount point; empty to find it (cgroup2Mount()).
    explicit CgroupResolver(const QString &mount = QString(), int rescanMs = 200);
    // Whether the machine has a cgroup v2 hierarchy; error() says why not.
    bool isAvailable() const { return !m_mount.isEmpty(); }
    QString error() const { return m_error; }
    QString mount() const { return m_mount; }

    // The ids of ids not handed out before, with their paths. An id not found even by a fresh
    // walk is tried again on later calls (after rescanMs); 0 (unknown) never is.
    QList<CgroupPath> resolve(const QSet<quint64> &ids);
    // Hands out the ids still unresolved with an empty path (their cgroups are gone), so a
    // recording's table names every id its events do. Called when the recording ends.
    QList<CgroupPath> finish();
    // Walks the hierarchy now: every cgroup any walk of this resolver saw (for a resolver made for
    // it: the cgroups that exist now).
    QList<CgroupPath> walk();
    // How many walks of the hierarchy were made.
    int scans() const { return m_scans; }

private:
    void scan();

    QString m_mount;
    QString m_error;
    int m_rescanMs;
    QElapsedTimer m_lastScan;
    int m_scans = 0;
    QHash<quint64, QByteArray> m_seen; // every directory of every walk
    QSet<quint64> m_handed;
    QSet<quint64> m_pending; // asked for, not found yet
};

} // namespace bpflens
