#include "core/cgroupfilter.h"

#include <algorithm>

namespace bpflens {

namespace {

constexpr qsizetype MaxLength = 256;

bool allowed(QChar c, bool unit)
{
    const char16_t u = c.unicode();
    const bool hex = (u >= '0' && u <= '9') || (u >= 'a' && u <= 'f') || (u >= 'A' && u <= 'F');
    if (!unit)
        return hex || u == '-';
    return (u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == ':' ||
           u == '-' || u == '_' || u == '.' || u == '\\' || u == '@';
}

} // namespace

QString CgroupFilter::describe() const
{
    QStringList parts;
    if (!container.isEmpty())
        parts << QStringLiteral("container %1").arg(container);
    if (!unit.isEmpty())
        parts << QStringLiteral("unit %1").arg(unit);
    return parts.join(QStringLiteral(", "));
}

bool checkCgroupFilter(const CgroupFilter &filter, QString *why)
{
    for (const auto &[name, value, unit] :
         {std::tuple{QStringLiteral("container"), filter.container, false},
          std::tuple{QStringLiteral("unit"), filter.unit, true}}) {
        if (value.isEmpty())
            continue;
        const bool ok = value.size() <= MaxLength &&
                        std::all_of(value.begin(), value.end(),
                                    [isUnit = unit](QChar c) { return allowed(c, isUnit); });
        if (!ok) {
            *why = unit ? QStringLiteral("%1=%2: not a systemd unit name (letters, digits and "
                                         ":-_.\\@, up to %3 characters)")
                              .arg(name, value.left(64))
                              .arg(MaxLength)
                        : QStringLiteral("%1=%2: not a container id (hex digits, or a pod UID)")
                              .arg(name, value.left(64));
            return false;
        }
    }
    return true;
}

QSet<quint64> matchingCgroups(const CgroupTable &table, const CgroupFilter &filter)
{
    QSet<quint64> ids;
    const QString container = filter.container.toLower();
    const QByteArray unit = filter.unit.toUtf8();
    for (const CgroupPath &c : table.all()) {
        if (!container.isEmpty()) {
            const CgroupNames n = table.names(c.id);
            if (!(!n.container.isEmpty() && n.container.toLower().startsWith(container)) &&
                !(!n.pod.isEmpty() && n.pod.toLower() == container))
                continue;
        }
        // A unit at any depth: the components of the path, not a substring of it
        // ("a.service" is not in "/system.slice/data.service").
        if (!unit.isEmpty() && !c.path.split('/').contains(unit))
            continue;
        ids.insert(c.id);
    }
    return ids;
}

bool workloadCgroup(const QList<CgroupPath> &running, const CgroupFilter &filter, QByteArray *path,
                    QString *why)
{
    if (!checkCgroupFilter(filter, why))
        return false;
    CgroupTable table;
    table.add(running);
    QList<QByteArray> matches;
    for (quint64 id : matchingCgroups(table, filter))
        matches.append(table.path(id)->path);
    // Sorted, a cgroup comes before its descendants: keep only the outermost.
    std::sort(matches.begin(), matches.end());
    QList<QByteArray> outermost;
    for (const QByteArray &m : std::as_const(matches)) {
        const bool inside = std::any_of(outermost.cbegin(), outermost.cend(), [&](const auto &o) {
            return o == "/" || m.startsWith(o + '/');
        });
        if (!inside)
            outermost.append(m);
    }
    if (outermost.size() == 1) {
        *path = outermost.first();
        return true;
    }
    if (outermost.isEmpty()) {
        *why = QStringLiteral("no running cgroup is in %1 (it must run when the recording "
                              "starts; docs/containers.md)")
                   .arg(filter.describe());
        if (!filter.unit.isEmpty() &&
            (filter.unit == QLatin1String("usecs") || filter.unit == QLatin1String("msecs") ||
             filter.unit == QLatin1String("nsecs")))
            *why += QStringLiteral("; a histogram's units are units=%1").arg(filter.unit);
        return false;
    }
    QStringList shown;
    for (qsizetype i = 0; i < outermost.size() && i < 5; ++i)
        shown << QString::fromUtf8(outermost[i]);
    if (outermost.size() > 5)
        shown << QStringLiteral("...");
    *why = QStringLiteral("%1 names %2 cgroups: %3; choose one with cgroup=PATH")
               .arg(filter.describe())
               .arg(outermost.size())
               .arg(shown.join(QStringLiteral(", ")));
    return false;
}

qsizetype keepCgroupEvents(EventStore *events, const QSet<quint64> &ids)
{
    EventStore kept;
    forEachEventType([&]<typename E>() {
        if constexpr (hasCgroupId<E>) {
            const qsizetype n = events->count(eventTypeOf<E>);
            for (qsizetype i = 0; i < n; ++i) {
                if (ids.contains(events->value<&E::cgroupId>(i)))
                    kept.append(events->event<E>(i));
            }
        }
    });
    *events = std::move(kept);
    return events->totalCount();
}

} // namespace bpflens
