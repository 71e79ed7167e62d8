#pragma once

#include "core/cgroups.h"
#include "core/eventstore.h"

#include <QSet>
#include <QString>

namespace bpflens {

// Which container's or systemd unit's events a profile keeps (docs/containers.md): serve's
// pprof endpoint (container=, unit=) and export --pprof (--container, --unit). Both set: the
// events of cgroups that match both.
struct CgroupFilter
{
    // The container's id or a prefix of it (Docker's 12-digit short form), or a Kubernetes
    // pod's UID, which keeps every container of the pod.
    QString container;
    // A systemd unit or slice the cgroup is in, at any depth: "nginx.service",
    // "user@1000.service", "system.slice".
    QString unit;
    bool isEmpty() const { return container.isEmpty() && unit.isEmpty(); }
    // "container 3f2a9c1b, unit nginx.service", for messages and the profile's comments.
    QString describe() const;
};

// A value as a URL or a command line gives it: a container is hex digits (a pod UID hex digits
// and dashes), a unit what systemd allows in a unit name (letters, digits, ":-_.\@"), each at
// most 256 characters. False with *why naming the bad value.
bool checkCgroupFilter(const CgroupFilter &filter, QString *why);

// The ids of the table's cgroups the filter names.
QSet<quint64> matchingCgroups(const CgroupTable &table, const CgroupFilter &filter);

// The one cgroup a recording's container= or unit= option names among the running ones (a
// walk of the v2 hierarchy, CgroupResolver::walk): the outermost match, since a probe's cgroup
// filter takes its descendants too (a pod's slice holds its containers' scopes). False with
// *why when none matches (the container or unit must run when the recording starts) or when
// several do (their paths, for the probe's cgroup= option).
bool workloadCgroup(const QList<CgroupPath> &running, const CgroupFilter &filter, QByteArray *path,
                    QString *why);

// Keeps only the events whose cgroup id is in ids: a type without a cgroup id keeps none.
// Returns how many events are kept.
qsizetype keepCgroupEvents(EventStore *events, const QSet<quint64> &ids);

} // namespace bpflens
