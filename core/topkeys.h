#pragma once

// How top lists (toplists.cpp) and spike explanations (spikeexplain.cpp) key an event in one
// dimension and name the key, from the declarations in the event types' traits: one place, so
// both group and spell every value alike. Internal to core.

#include "core/eventfilter.h"
#include "core/eventstore.h"
#include "core/openflags.h"
#include "core/scansplit.h"
#include "core/toplists.h"

#include <QHash>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

namespace bpflens::topkeys {

// What groups events: up to three words, equal for equal keys. Strings are interned in the
// store's pool, so their data pointer identifies them across types.
struct Key
{
    quint64 a = 0;
    quint64 b = 0;
    quint64 c = 0;
    bool operator==(const Key &) const = default;
    friend size_t qHash(const Key &k, size_t seed = 0) { return qHashMulti(seed, k.a, k.b, k.c); }
};

// Key -> slot (a row's index) for the per-event loops: a direct-mapped cache in front of a
// QHash. Dimensions have few distinct values (commands, disks, operations) or long runs of one,
// so nearly every lookup is one multiply and one compare instead of a QHash probe.
class KeyIndex
{
public:
    // The slot of key; the first time, make() adds the row and returns its slot.
    template<typename Make>
    qsizetype slot(const Key &key, Make &&make)
    {
        Entry &e = m_cache[size_t(mix(key))];
        if (e.slot >= 0 && e.key == key)
            return e.slot;
        const auto it = m_index.constFind(key);
        const qsizetype slot = it != m_index.constEnd() ? it.value() : make();
        if (it == m_index.constEnd())
            m_index.insert(key, slot);
        e = {key, slot};
        return slot;
    }

private:
    static constexpr int Bits = 10;
    static quint64 mix(const Key &k)
    {
        // Pointer words have their low bits zero: the multiply moves every bit into the top.
        return (k.a * 0x9e3779b97f4a7c15ull ^ k.b * 0xc2b2ae3d27d4eb4full ^
                k.c * 0x165667b19e3779f9ull) >>
               (64 - Bits);
    }
    struct Entry
    {
        Key key;
        qsizetype slot = -1;
    };
    std::vector<Entry> m_cache = std::vector<Entry>(size_t(1) << Bits);
    QHash<Key, qsizetype> m_index;
};

inline quint64 pointerWord(const QByteArray &bytes)
{
    return quint64(quintptr(bytes.constData()));
}

inline QString bytesText(const QByteArray &bytes)
{
    return QString::fromUtf8(escapeKernelBytes(bytes));
}

template<typename E, typename T>
inline constexpr bool isEndpoint = requires
{
    T::address;
};

// Event i's key in one declared dimension T; false when it has none there (an open that
// succeeded has no error, an empty path no file).
template<typename E, typename T>
bool declaredKey(const EventStore &store, qsizetype i, Key *key)
{
    if constexpr (isEndpoint<E, T>) {
        const auto addr = store.value<T::address>(i);
        quint64 hi = 0, lo = 0;
        std::memcpy(&hi, addr.data(), 8);
        std::memcpy(&lo, addr.data() + 8, 8);
        *key = {hi, lo, quint64(store.value<&E::family>(i)) << 16 | store.value<T::port>(i)};
        return true;
    } else {
        const auto &v = store.value<T::member>(i);
        using V = std::remove_cvref_t<decltype(v)>;
        if constexpr (std::is_same_v<V, QByteArray>) {
            if (v.isEmpty())
                return false;
            // One byte keys as its value, as a one-character member does: an operation "W"
            // of two types is one row, as the filter (EventFilter::operation) selects both.
            *key = {v.size() == 1 ? quint64(quint8(v[0])) : pointerWord(v)};
            return true;
        } else if constexpr (T::dimension == Dimension::Error) {
            if (v >= 0)
                return false;
            *key = {quint64(qint64(v))};
            return true;
        } else {
            *key = {quint64(v)};
            return true;
        }
    }
}

template<typename E, typename T>
void declaredRow(const EventStore &store, qsizetype i, TopRow *row)
{
    if constexpr (isEndpoint<E, T>) {
        Endpoint to{store.value<&E::family>(i), store.value<T::address>(i),
                    store.value<T::port>(i)};
        row->key = formatEndpoint(to.family, to.address, to.port);
        EventFilter f;
        f.destination = to;
        row->filter = f;
    } else {
        const auto &v = store.value<T::member>(i);
        using V = std::remove_cvref_t<decltype(v)>;
        if constexpr (T::dimension == Dimension::Error) {
            row->key = errnoName(-int(v));
            EventFilter f;
            f.error = qint32(v);
            row->filter = f;
        } else {
            // File, Disk, Operation (eventschema.h): bytes, or one character.
            static_assert(std::is_same_v<V, QByteArray> || std::is_same_v<V, quint8>);
            QByteArray value;
            if constexpr (std::is_same_v<V, QByteArray>) {
                row->key = bytesText(v);
                value = v;
            } else {
                row->key = QString(QLatin1Char(char(v)));
                value = QByteArray(1, char(v));
            }
            EventFilter f;
            (T::dimension == Dimension::File   ? f.file
             : T::dimension == Dimension::Disk ? f.disk
                                               : f.operation) = value;
            row->filter = f;
        }
    }
}

// Calls f.template operator()<T>() for the first declaration of dimension d in E's top keys;
// false when E has none.
template<typename E, typename F>
bool withDeclared(Dimension d, F &&f)
{
    return anyTopKey<E>([&]<typename T>(T) {
        if (T::dimension != d)
            return false;
        f.template operator()<T>();
        return true;
    });
}

template<typename E>
quint64 bytesOf(const EventStore &store, qsizetype i)
{
    constexpr auto n = std::tuple_size_v<decltype(byteFields<E>())>;
    return [&]<std::size_t... K>(std::index_sequence<K...>)
    {
        return (quint64(0) + ... + quint64(store.value<std::get<K>(byteFields<E>())>(i)));
    }
    (std::make_index_sequence<n>());
}

// Event i's key in dimension d (Process: pid and comm; Command: comm; the others as E
// declares them); false when it has none there.
template<typename E>
bool eventKey(const EventStore &store, qsizetype i, Dimension d, Key *key)
{
    if (d == Dimension::Process) {
        *key = {store.value<&E::pid>(i), pointerWord(store.value<&E::comm>(i))};
        return true;
    }
    if (d == Dimension::Command) {
        *key = {pointerWord(store.value<&E::comm>(i))};
        return true;
    }
    bool has = false;
    withDeclared<E>(d, [&]<typename T>() { has = declaredKey<E, T>(store, i, key); });
    return has;
}

// The same for a dimension known at compile time: no dispatch per event (the spike ranking
// asks every dimension of every event of a type).
template<typename E, Dimension D>
bool eventKeyOf(const EventStore &store, qsizetype i, Key *key)
{
    if constexpr (D == Dimension::Process) {
        *key = {store.value<&E::pid>(i), pointerWord(store.value<&E::comm>(i))};
        return true;
    } else if constexpr (D == Dimension::Command) {
        *key = {pointerWord(store.value<&E::comm>(i))};
        return true;
    } else {
        bool has = false;
        anyTopKey<E>([&]<typename T>(T) {
            if constexpr (T::dimension == D) {
                has = declaredKey<E, T>(store, i, key);
                return true;
            } else {
                return false;
            }
        });
        return has;
    }
}

// The row's key text, pid, comm and filter of event i's value in dimension d.
template<typename E>
void eventRow(const EventStore &store, qsizetype i, Dimension d, TopRow *r)
{
    const QByteArray &comm = store.value<&E::comm>(i);
    if (d == Dimension::Process) {
        r->pid = store.value<&E::pid>(i);
        r->comm = comm;
        r->key = QString::number(r->pid) + QLatin1Char(' ') + bytesText(comm);
        r->filter = EventFilter{{}, r->pid, comm, 0, 0};
    } else if (d == Dimension::Command) {
        r->comm = comm;
        r->key = bytesText(comm);
        r->filter = EventFilter{{}, -1, comm, 0, 0};
    } else {
        withDeclared<E>(d, [&]<typename T>() { declaredRow<E, T>(store, i, r); });
    }
}

// One type's events [first, last) to scan.
struct ScanRange
{
    EventType type = EventType::Exec;
    qsizetype first = 0;
    qsizetype last = 0;
};

// Scans ranges in chunks on up to split.threads threads (the calling one included), each
// thread with its own Partial made by makePartial(); scan(partial, range) is called per chunk,
// in no particular order, so what a Partial tallies must not depend on the order of chunks.
// Returns the partials, to be merged by the caller; empty when cancelled.
template<typename Partial, typename MakePartial, typename Scan>
std::vector<Partial> scanInChunks(const std::vector<ScanRange> &ranges, const ScanSplit &split,
                                  MakePartial &&makePartial, Scan &&scan,
                                  const std::atomic_bool *cancel)
{
    const qsizetype chunk = split.chunkEvents > 0 ? split.chunkEvents : qsizetype(1) << 16;
    std::vector<ScanRange> chunks;
    for (const ScanRange &r : ranges) {
        for (qsizetype i = r.first; i < r.last; i += chunk)
            chunks.push_back({r.type, i, std::min(r.last, i + chunk)});
    }
    int threads = split.threads;
    if (threads <= 0)
        threads = int(std::clamp(std::thread::hardware_concurrency(), 1u, 8u));
    threads = int(std::min<qsizetype>(threads, std::max<qsizetype>(1, qsizetype(chunks.size()))));
    std::vector<Partial> partials;
    partials.reserve(size_t(threads));
    for (int t = 0; t < threads; ++t)
        partials.push_back(makePartial());
    std::atomic<size_t> next{0};
    auto work = [&](Partial &partial) {
        for (size_t c; (c = next.fetch_add(1, std::memory_order_relaxed)) < chunks.size();) {
            if (cancel && cancel->load(std::memory_order_relaxed))
                return;
            scan(partial, chunks[c]);
        }
    };
    {
        std::vector<std::jthread> helpers;
        for (int t = 1; t < threads; ++t)
            helpers.emplace_back([&, t] { work(partials[size_t(t)]); });
        work(partials[0]);
    }
    if (cancel && cancel->load(std::memory_order_relaxed))
        return {};
    return partials;
}

} // namespace bpflens::topkeys
