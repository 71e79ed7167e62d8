#include "cli/eventlisting.h"

#include "cli/plural.h"
#include "core/events.h"
#include "core/sessionstore.h"
#include "core/toplists.h"

#include <QDateTime>
#include <QTimeZone>

namespace bpflens {

namespace {

// A column's value as the CLI prints it: the declaration's text where it has one, else the
// value in its Format, in the C locale (scripts read this).
template<typename E>
QString cellText(const Column<E> &c, const E &e, quint64 startNs)
{
    return c.text ? c.text(e) : formatPlainValue(c.format, c.value(e), startNs);
}

// Names and paths read from the left, as in the GUI's table; so do names made of a number
// (open flags).
template<typename E>
bool leftAligned(const Column<E> &c)
{
    const Format f = c.format;
    return f == Format::Bytes || f == Format::Char || f == Format::Text || f == Format::Argv ||
           (c.text && f != Format::Number);
}

} // namespace

void EventListing::print(QTextStream &out, const SessionData &data) const
{
    const quint64 startNs = data.info.startMonotonicNs;
    const QDateTime startWall = data.info.startWall.toLocalTime();
    bool first = true;
    forEachEventType([&]<typename E>() {
        using T = EventTraits<E>;
        const EventType type = eventTypeOf<E>;
        if (!probe.isEmpty() && probe != QLatin1String(T::probeId))
            return;
        const qsizetype total = data.events.count(type);
        if (total == 0)
            return;
        const qsizetype n = limit > 0 ? qMin(limit, total) : total;
        QList<const Column<E> *> columns;
        for (const Column<E> &c : T::columns) {
            if (c.show & InTable)
                columns.append(&c);
        }
        // Every cell first: the widths are the widest of what is printed.
        QList<QStringList> rows;
        rows.reserve(n + 1);
        QStringList header{time == TimeStyle::Clock ? QStringLiteral("TIME")
                                                    : QStringLiteral("TIME(s)")};
        // A session that names its cgroups (docs/containers.md) says each event's unit and
        // container, after the time, where tools like systemd-cgtop put them first.
        const bool cgroups = hasCgroupId<E> && !data.cgroups.isEmpty();
        const qsizetype extra = cgroups ? 2 : 0;
        if (cgroups)
            header << QStringLiteral("UNIT") << QStringLiteral("CONTAINER");
        for (const Column<E> *c : std::as_const(columns))
            header << QString::fromLatin1(c->title).toUpper();
        rows.append(header);
        for (qsizetype i = 0; i < n; ++i) {
            const E e = data.events.event<E>(i);
            QStringList row;
            const qint64 relNs = qint64(e.timeNs - qMin(e.timeNs, startNs));
            if (time == TimeStyle::Clock && startWall.isValid())
                row << startWall.addMSecs(relNs / 1000000).toString(QStringLiteral("HH:mm:ss.zzz"));
            else
                row << QString::number(double(relNs) / 1e9, 'f', 6);
            if constexpr (hasCgroupId<E>) {
                if (cgroups) {
                    row << cgroupKeyText(data.cgroups, e.cgroupId, CgroupKey::Unit)
                        << cgroupKeyText(data.cgroups, e.cgroupId, CgroupKey::Container);
                }
            }
            for (const Column<E> *c : std::as_const(columns))
                row << cellText(*c, e, startNs).replace(QLatin1Char('\n'), QLatin1String("\\n"));
            rows.append(row);
        }
        QList<qsizetype> widths(header.size(), 0);
        for (const QStringList &row : std::as_const(rows)) {
            for (qsizetype k = 0; k < row.size(); ++k)
                widths[k] = qMax(widths[k], row[k].size());
        }
        out << (first ? "" : "\n") << T::title << ": "
            << cli::countOf(qint64(total), "event", "events");
        if (n < total)
            out << ", the first " << n;
        out << '\n';
        first = false;
        for (const QStringList &row : std::as_const(rows)) {
            QString line;
            for (qsizetype k = 0; k < row.size(); ++k) {
                const bool last = k == row.size() - 1;
                const bool left = k > 0 && (k <= extra || leftAligned(*columns[k - 1 - extra]));
                if (k)
                    line += QLatin1Char(' ');
                if (last && left)
                    line += row[k]; // no trailing blanks after a path or a command line
                else
                    line +=
                        left ? row[k].leftJustified(widths[k]) : row[k].rightJustified(widths[k]);
            }
            out << line << '\n';
        }
    });
    if (first)
        out << (probe.isEmpty() ? QStringLiteral("No events in this session.\n")
                                : QStringLiteral("No %1 events in this session.\n").arg(probe));
}

} // namespace bpflens
