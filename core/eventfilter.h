#pragma once

#include "core/eventschema.h"
#include "core/eventstore.h"

#include <QByteArray>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <array>
#include <optional>

namespace bpflens {

// A connection's remote end as the types with a Destination (eventschema.h TopByEndpoint)
// keep it.
struct Endpoint
{
    quint8 family = 4; // 4 or 6
    std::array<quint8, 16> address{};
    quint16 port = 0;
    bool operator==(const Endpoint &) const = default;
};

// What every event view, top list and statistic filters by. Empty/zero fields do not filter.
struct EventFilter
{
    QByteArray text;          // substring of comm, path, file name, argv, disk or op
    qint64 pid = -1;          // exact pid, -1 = any
    QByteArray comm;          // exact comm
    quint64 minLatencyNs = 0; // block: queue + device; fsslow: latency; other types are hidden
    // Exclusive, 0 = none: with minLatencyNs a heatmap cell's bucket [2^n, 2^(n+1)). Like
    // minLatencyNs it applies to types with a latency (eventschema.h's latencyFields) only.
    quint64 maxLatencyNs = 0;
    // A top list's or explanation's destination or error row: only the types that declare that
    // dimension (eventschema.h topKeys), and of them the events with that value; the text
    // filter cannot say either (an address is not searched, an errno is a number).
    std::optional<Endpoint> destination = {}; // unset: any
    qint32 error = 0;                         // a negative errno (-2: ENOENT); 0: any
    // A file, disk or operation row: likewise exact, where the text filter's substring would
    // also find "/etc/passwd-", a command named after the disk, or "Sync-Write" for "Write"
    // (and cannot find fsslower's one-character operations at all). Empty: any. A
    // one-character member compares as that character ("R").
    QByteArray file = {};
    QByteArray disk = {};
    QByteArray operation = {};
    // A container's or systemd unit's cgroups (the filter bar's workload, core/cgroupfilter.h):
    // only the types that carry a cgroup id, and of them the events in one of these. Empty: any.
    QSet<quint64> cgroups = {};
    bool isEmpty() const
    {
        return text.isEmpty() && pid < 0 && comm.isEmpty() && !minLatencyNs && !maxLatencyNs &&
               !destination && !error && file.isEmpty() && disk.isEmpty() && operation.isEmpty() &&
               cgroups.isEmpty();
    }
    bool operator==(const EventFilter &) const = default;
};

// Decides whether one event passes an EventFilter. Each interned string is lower-cased and
// searched once (cached by its data pointer), not once per event. Not thread-safe: a worker
// uses its own copy.
class EventMatcher
{
public:
    EventMatcher() = default;
    explicit EventMatcher(const EventFilter &filter)
        : m_filter(filter)
        , m_needle(filter.text.toLower())
    {
    }
    const EventFilter &filter() const { return m_filter; }
    bool accepts(const EventStore &store, EventType type, qsizetype i) const
    {
        bool accepted = false;
        visitEventType(type, [&]<typename E>() { accepted = accepts<E>(store, i); });
        return accepted;
    }

    template<typename E>
    bool accepts(const EventStore &store, qsizetype i) const
    {
        if (m_filter.pid >= 0 && qint64(store.value<&E::pid>(i)) != m_filter.pid)
            return false;
        if (!m_filter.cgroups.isEmpty()) {
            if constexpr (hasCgroupId<E>) {
                if (!m_filter.cgroups.contains(store.value<&E::cgroupId>(i)))
                    return false;
            } else {
                return false;
            }
        }
        const QByteArray &comm = store.value<&E::comm>(i);
        if (!m_filter.comm.isEmpty() && comm != m_filter.comm)
            return false;
        if constexpr (hasLatency<E>) {
            if (m_filter.minLatencyNs || m_filter.maxLatencyNs) {
                const quint64 ns = store.latencyNs<E>(i);
                if (ns < m_filter.minLatencyNs ||
                    (m_filter.maxLatencyNs && ns >= m_filter.maxLatencyNs))
                    return false;
            }
        }
        if (m_filter.destination && !hasDestination<E>(store, i, *m_filter.destination))
            return false;
        if (m_filter.error && !hasError<E>(store, i, m_filter.error))
            return false;
        if (!m_filter.file.isEmpty() && !hasValue<E, Dimension::File>(store, i, m_filter.file))
            return false;
        if (!m_filter.disk.isEmpty() && !hasValue<E, Dimension::Disk>(store, i, m_filter.disk))
            return false;
        if (!m_filter.operation.isEmpty() &&
            !hasValue<E, Dimension::Operation>(store, i, m_filter.operation))
            return false;
        if (m_needle.isEmpty() || textMatches(comm))
            return true;
        bool found = false;
        auto matches = [this](const auto &value) {
            if constexpr (std::is_same_v<std::remove_cvref_t<decltype(value)>, QByteArray>)
                return textMatches(value);
            else
                return std::any_of(value.begin(), value.end(),
                                   [this](const QByteArray &a) { return textMatches(a); });
        };
        constexpr auto n = std::tuple_size_v<decltype(searchedFields<E>())>;
        [&]<std::size_t... K>(std::index_sequence<K...>)
        {
            ((found = found || matches(store.value<std::get<K>(searchedFields<E>())>(i))), ...);
        }
        (std::make_index_sequence<n>());
        return found;
    }

private:
    // Whether E declares a Destination and event i's is to; false for types without one.
    template<typename E>
    static bool hasDestination(const EventStore &store, qsizetype i, const Endpoint &to)
    {
        return anyTopKey<E>([&]<typename T>(T) {
            if constexpr (T::dimension == Dimension::Destination)
                return store.value<T::family>(i) == to.family &&
                       store.value<T::port>(i) == to.port &&
                       store.value<T::address>(i) == to.address;
            else
                return false;
        });
    }
    // Whether E declares an Error and event i failed with error; false for types without.
    template<typename E>
    static bool hasError(const EventStore &store, qsizetype i, qint32 error)
    {
        return anyTopKey<E>([&]<typename T>(T) {
            if constexpr (T::dimension == Dimension::Error)
                return qint64(store.value<T::member>(i)) == error;
            else
                return false;
        });
    }

    // Whether E declares dimension D (File, Disk or Operation) and event i's value there is
    // value; false for types without.
    template<typename E, Dimension D>
    static bool hasValue(const EventStore &store, qsizetype i, const QByteArray &value)
    {
        return anyTopKey<E>([&]<typename T>(T) {
            if constexpr (T::dimension == D)
                return keyEquals(store.value<T::member>(i), value);
            else
                return false;
        });
    }
    template<typename V>
    static bool keyEquals(const V &member, const QByteArray &value)
    {
        if constexpr (std::is_same_v<V, QByteArray>)
            return member == value;
        else
            return value.size() == 1 && quint8(value[0]) == member;
    }

    bool textMatches(const QByteArray &bytes) const
    {
        if (bytes.isEmpty())
            return false;
        // Interned strings share their data, so the pointer identifies the string: each
        // distinct comm or path is lower-cased and searched once, not once per event.
        const auto it = m_matchCache.constFind(bytes.constData());
        if (it != m_matchCache.constEnd())
            return it.value();
        const bool match = bytes.toLower().contains(m_needle);
        m_matchCache.insert(bytes.constData(), match);
        return match;
    }

    EventFilter m_filter;
    QByteArray m_needle;                            // lower-cased text filter
    mutable QHash<const char *, bool> m_matchCache; // interned bytes -> matched
};

} // namespace bpflens
