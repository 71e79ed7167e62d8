#pragma once

#include "core/events.h"
#include "core/stringpool.h"

#include <QHash>

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>
#include <tuple>
#include <utility>
#include <vector>

namespace bpflens {

// How EventStore keeps a field of each kind (eventschema.h): strings as ids into the store's
// StringPool, lists as a range of string ids.
struct ListRef
{
    quint32 begin = 0;
    quint32 count = 0;
};

// The allocator of EventStore's columns: a block of 128 KiB or more is mapped from the kernel
// and given back to it when freed, as glibc does for a block above its mmap threshold. glibc
// raises that threshold (up to 32 MiB) whenever a mapped block is freed, after which columns of
// a few MiB would come from the heap between a load's temporaries and leave freed pages resident
// (docs/performance.md, run 8).
void *allocateColumn(std::size_t bytes);
void freeColumn(void *p, std::size_t bytes);
// Whether a column of that many bytes is mapped (its pages resident only once written).
bool isMappedColumn(std::size_t bytes);

template<typename T>
struct ColumnAllocator
{
    using value_type = T;
    ColumnAllocator() = default;
    template<typename U>
    ColumnAllocator(const ColumnAllocator<U> &)
    {
    }
    T *allocate(std::size_t n) { return static_cast<T *>(allocateColumn(n * sizeof(T))); }
    void deallocate(T *p, std::size_t n) { freeColumn(p, n * sizeof(T)); }
    // resize(n) default-initialises (leaves a number column's new rows untouched, not zeroed):
    // the parallel session load sizes a column once and each thread then writes, and faults in,
    // its own rows; zeroing them first would touch every page on one thread. Code that needs
    // zeros asks for them (resize(n, {})).
    template<typename U, typename... Args>
    void construct(U *p, Args &&...args)
    {
        if constexpr (sizeof...(Args) == 0)
            ::new (static_cast<void *>(p)) U;
        else
            ::new (static_cast<void *>(p)) U(std::forward<Args>(args)...);
    }
    template<typename U>
    bool operator==(const ColumnAllocator<U> &) const
    {
        return true;
    }
};

template<typename T>
using ColumnVector = std::vector<T, ColumnAllocator<T>>;

template<FieldKind K>
auto storageSample()
{
    if constexpr (K == FieldKind::Time || K == FieldKind::U64)
        return quint64{};
    else if constexpr (K == FieldKind::U8 || K == FieldKind::Family || K == FieldKind::Flag)
        return quint8{};
    else if constexpr (K == FieldKind::Port)
        return quint16{};
    else if constexpr (K == FieldKind::S32)
        return qint32{};
    else if constexpr (K == FieldKind::BytesList)
        return ListRef{};
    else if constexpr (K == FieldKind::Address)
        return std::array<quint8, 16>{};
    else // U32, and Bytes as a string id
        return quint32{};
}

template<typename E, std::size_t I>
using StorageAt = decltype(storageSample<FieldAt<E, I>::kind>());

// The events of one type, one vector per field: a field costs its own size per event and no
// padding. Keyed fields (eventschema.h) are kept once per distinct combination, each event
// holding the combination's index.
template<typename E>
class EventColumns
{
    template<typename Seq>
    struct Vectors;
    template<std::size_t... I>
    struct Vectors<std::index_sequence<I...>>
    {
        using type = std::tuple<ColumnVector<StorageAt<E, I>>...>;
    };

public:
    static_assert(FieldAt<E, 0>::kind == FieldKind::Time, "an event's first field is its time");

    static constexpr std::size_t keyedCount = [] {
        std::size_t n = 0;
        [&]<std::size_t... I>(std::index_sequence<I...>)
        {
            ((n += FieldAt<E, I>::keyed ? 1 : 0), ...);
        }
        (std::make_index_sequence<fieldCount<E>>());
        return n;
    }();
    // Field I's place among the keyed fields.
    template<std::size_t I>
    static constexpr std::size_t keyPosition()
    {
        std::size_t n = 0;
        [&]<std::size_t... J>(std::index_sequence<J...>)
        {
            ((n += (J < I && FieldAt<E, J>::keyed) ? 1 : 0), ...);
        }
        (std::make_index_sequence<fieldCount<E>>());
        return n;
    }

    struct Key
    {
        // 64 bits: a keyed U64 (the cgroup id) is kept whole; these exist once per distinct
        // combination, not per event.
        std::array<quint64, keyedCount> values{};
        bool operator==(const Key &) const = default;
        friend size_t qHash(const Key &k, size_t seed = 0)
        {
            return qHashRange(k.values.begin(), k.values.end(), seed);
        }
    };

    typename Vectors<std::make_index_sequence<fieldCount<E>>>::type fields;
    ColumnVector<quint32> key; // per event, into keys; empty for types without keyed fields
    std::vector<Key> keys;
    QHash<Key, quint32> keyIds;

    qsizetype size() const { return qsizetype(std::get<0>(fields).size()); }
    const ColumnVector<quint64> &times() const { return std::get<0>(fields); }

    quint32 internKey(const Key &k)
    {
        const auto it = keyIds.constFind(k);
        if (it != keyIds.constEnd())
            return it.value();
        const auto id = quint32(keys.size());
        keys.push_back(k);
        keyIds.insert(k, id);
        return id;
    }

    template<typename F>
    void forEachVector(F &&f)
    {
        std::apply([&](auto &...v) { (f(v), ...); }, fields);
        f(key);
    }
    template<typename F>
    void forEachVector(F &&f) const
    {
        std::apply([&](const auto &...v) { (f(v), ...); }, fields);
        f(key);
    }

    // Reorders the events from first on: event first + k becomes the one at order[k].
    void permute(qsizetype first, const std::vector<quint32> &order)
    {
        forEachVector([&](auto &v) {
            if (v.empty())
                return;
            std::vector<typename std::remove_cvref_t<decltype(v)>::value_type> moved;
            moved.reserve(order.size());
            for (quint32 k : order)
                moved.push_back(v[size_t(first) + k]);
            std::copy(moved.begin(), moved.end(), v.begin() + first);
        });
    }
};

// The events of a session or a live recording, kept compact enough for tens of millions of
// events: per type one vector per field (EventColumns), with every string interned in one
// StringPool. Accessors return the public structs by value, or single fields in place.
//
// Ordering: each type is kept sorted by timeNs, so lowerBound() is always a binary search.
// The engine appends in time order (O(1)); an append that goes back in time (per-CPU buffers
// can deliver slightly out of order) is inserted after the events with an equal or smaller
// time, which shifts the indices of the later events by one. append() returns where the
// event landed; outOfOrderAppends() says whether that ever happened.
class EventStore
{
public:
    EventStore() = default;

    template<typename E>
    qsizetype append(const E &event);

    // For loaders that know the counts, so vectors do not grow by doubling.
    void reserve(EventType type, qsizetype count);
    // Gives back the spare capacity once loading is done.
    void squeeze();
    void clear();
    // Empties the store but keeps its columns' memory: for a scratch store refilled again and
    // again (the salvage reader decodes every chunk into one to check it whole).
    void clearKeepingMemory();

    qsizetype count(EventType type) const;
    qsizetype totalCount() const;
    bool isEmpty() const { return totalCount() == 0; }

    // Event i of type E as its public struct.
    template<typename E>
    E event(qsizetype i) const;
#define BPFLENS_STORE_ACCESSOR(Name, Struct, member, number)                                       \
    Struct member(qsizetype i) const                                                               \
    {                                                                                              \
        return event<Struct>(i);                                                                   \
    }
    BPFLENS_EVENT_TYPES(BPFLENS_STORE_ACCESSOR)
#undef BPFLENS_STORE_ACCESSOR

    // One field of event i, read in place: value<&BlockEvent::deviceNs>(i). Strings come as
    // references to the pool's shared copy.
    template<auto Member>
    decltype(auto) value(qsizetype i) const;
    // The sum of the type's latency fields (eventschema.h's latencyFields), 0 without any.
    template<typename E>
    quint64 latencyNs(qsizetype i) const;

    // Columns every type has, for any type.
    quint64 timeNs(EventType type, qsizetype i) const;
    quint32 pid(EventType type, qsizetype i) const;
    const QByteArray &comm(EventType type, qsizetype i) const;
    // The latency of event i of a type that has one; false for types without.
    bool latencyNs(EventType type, qsizetype i, quint64 *ns) const;

    // One type's event times read in place, for loops that probe thousands of times per
    // redraw: timeNs() costs a call, a type dispatch and a bounds check per probe. Valid until
    // the store changes.
    struct TimeColumn
    {
        const char *base = nullptr;
        qsizetype stride = 0;
        qsizetype count = 0;
        quint64 operator[](qsizetype i) const
        {
            quint64 t;
            std::memcpy(&t, base + i * stride, sizeof t);
            return t;
        }
    };
    TimeColumn timeColumn(EventType type) const;

    // First index whose timeNs >= timeNs (count(type) if none): [lowerBound(a), lowerBound(b))
    // are the events in [a, b).
    qsizetype lowerBound(EventType type, quint64 timeNs) const;
    quint64 firstTimeNs() const; // over all types; 0 when empty
    quint64 lastTimeNs() const;  // over all types; 0 when empty

    bool outOfOrderAppends() const
    {
        return m_outOfOrder;
    }
    qint64 memoryBytes() const;
    const StringPool &strings() const
    {
        return m_strings;
    }

private:
    template<typename E>
    const EventColumns<E> &columns() const
    {
        return std::get<EventColumns<E>>(m_types);
    }
    // The session file's chunk decoder fills the columns directly: going through the public
    // structs would copy every string once per event.
    friend class EventChunkCodec;

    template<typename E>
    EventColumns<E> &columns()
    {
        return std::get<EventColumns<E>>(m_types);
    }
    template<typename E, std::size_t I>
    StorageAt<E, I>
    store(const std::remove_cvref_t<decltype(std::declval<E>().*FieldAt<E, I>::member)> &v);
    template<typename E, std::size_t I>
    decltype(auto) load(const StorageAt<E, I> &s) const;
    template<typename E, std::size_t I>
    StorageAt<E, I> stored(qsizetype i) const;

    template<typename Seq>
    struct AllColumns;
    template<typename... E>
    struct AllColumns<EventTypeList<E...>>
    {
        using type = std::tuple<EventColumns<E>...>;
    };

    StringPool m_strings;
    typename AllColumns<EventStructs>::type m_types;
    ColumnVector<quint32> m_lists; // the string ids of every BytesList field, ranges by ListRef
    bool m_outOfOrder = false;
};

// ---- templates --------------------------------------------------------------------------------

template<typename E, std::size_t I>
StorageAt<E, I>
EventStore::store(const std::remove_cvref_t<decltype(std::declval<E>().*FieldAt<E, I>::member)> &v)
{
    constexpr FieldKind kind = FieldAt<E, I>::kind;
    if constexpr (kind == FieldKind::Bytes) {
        return m_strings.intern(v);
    } else if constexpr (kind == FieldKind::BytesList) {
        ListRef r{quint32(m_lists.size()), quint32(v.size())};
        for (const QByteArray &s : v)
            m_lists.push_back(m_strings.intern(s));
        return r;
    } else {
        return StorageAt<E, I>(v);
    }
}

template<typename E, std::size_t I>
decltype(auto) EventStore::load(const StorageAt<E, I> &s) const
{
    constexpr FieldKind kind = FieldAt<E, I>::kind;
    using Value = std::remove_cvref_t<decltype(std::declval<E>().*FieldAt<E, I>::member)>;
    if constexpr (kind == FieldKind::Bytes) {
        return static_cast<const QByteArray &>(m_strings.string(s));
    } else if constexpr (kind == FieldKind::BytesList) {
        QList<QByteArray> list;
        list.reserve(s.count);
        for (quint32 k = 0; k < s.count; ++k)
            list.append(m_strings.string(m_lists[s.begin + k]));
        return list;
    } else if constexpr (std::is_same_v<Value, bool>) {
        return s != 0;
    } else {
        return Value(s);
    }
}

template<typename E, std::size_t I>
StorageAt<E, I> EventStore::stored(qsizetype i) const
{
    const EventColumns<E> &c = columns<E>();
    if constexpr (FieldAt<E, I>::keyed)
        return StorageAt<E, I>(
            c.keys[c.key[size_t(i)]].values[EventColumns<E>::template keyPosition<I>()]);
    else
        return std::get<I>(c.fields)[size_t(i)];
}

template<typename E>
qsizetype EventStore::append(const E &e)
{
    EventColumns<E> &c = columns<E>();
    const ColumnVector<quint64> &times = c.times();
    // upper_bound keeps events with equal times in append order.
    qsizetype at = c.size();
    if (!times.empty() && times.back() > e.timeNs) {
        m_outOfOrder = true;
        at = qsizetype(std::upper_bound(times.begin(), times.end(), e.timeNs) - times.begin());
    }
    typename EventColumns<E>::Key key;
    forEachField<E>([&]<std::size_t I>() {
        auto s = store<E, I>(e.*FieldAt<E, I>::member);
        if constexpr (FieldAt<E, I>::keyed) {
            key.values[EventColumns<E>::template keyPosition<I>()] = s;
        } else {
            auto &v = std::get<I>(c.fields);
            v.insert(v.begin() + at, s);
        }
    });
    if constexpr (EventColumns<E>::keyedCount > 0)
        c.key.insert(c.key.begin() + at, c.internKey(key));
    return at;
}

template<typename E>
E EventStore::event(qsizetype i) const
{
    Q_ASSERT(i >= 0 && i < columns<E>().size());
    E e;
    forEachField<E>(
        [&]<std::size_t I>() { e.*FieldAt<E, I>::member = load<E, I>(stored<E, I>(i)); });
    return e;
}

template<auto Member>
decltype(auto) EventStore::value(qsizetype i) const
{
    using E = typename MemberClass<decltype(Member)>::type;
    constexpr std::size_t I = fieldIndexOf<E, Member>();
    static_assert(I < fieldCount<E>, "the member is not a declared field");
    Q_ASSERT(i >= 0 && i < columns<E>().size());
    return load<E, I>(stored<E, I>(i));
}

template<typename E>
quint64 EventStore::latencyNs(qsizetype i) const
{
    if constexpr (hasLatency<E>) {
        constexpr auto n = std::tuple_size_v<decltype(EventTraits<E>::latency)>;
        return [&]<std::size_t... K>(std::index_sequence<K...>)
        {
            return (quint64(0) + ... + quint64(value<std::get<K>(EventTraits<E>::latency)>(i)));
        }
        (std::make_index_sequence<n>());
    } else {
        Q_UNUSED(i);
        return 0;
    }
}

} // namespace bpflens
