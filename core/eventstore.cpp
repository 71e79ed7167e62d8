#include "core/eventstore.h"

#include <sys/mman.h>

#include <new>

namespace bpflens {

namespace {
constexpr std::size_t MappedColumnBytes = 128 * 1024;
}

void *allocateColumn(std::size_t bytes)
{
    if (bytes < MappedColumnBytes)
        return ::operator new(bytes);
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw std::bad_alloc();
    return p;
}

void freeColumn(void *p, std::size_t bytes)
{
    if (bytes < MappedColumnBytes)
        ::operator delete(p);
    else
        munmap(p, bytes);
}

bool isMappedColumn(std::size_t bytes)
{
    return bytes >= MappedColumnBytes;
}

void EventStore::reserve(EventType type, qsizetype count)
{
    const auto n = size_t(std::max<qsizetype>(count, 0));
    visitEventType(type, [&]<typename E>() {
        EventColumns<E> &c = columns<E>();
        forEachField<E>([&]<std::size_t I>() {
            if constexpr (!FieldAt<E, I>::keyed)
                std::get<I>(c.fields).reserve(n);
        });
        if constexpr (EventColumns<E>::keyedCount > 0)
            c.key.reserve(n);
    });
}

void EventStore::squeeze()
{
    forEachEventType(
        [&]<typename E>() { columns<E>().forEachVector([](auto &v) { v.shrink_to_fit(); }); });
    // A mapped list's spare capacity was never written, so it is not resident; a copy to fit
    // would briefly hold it twice (the session loader reserves it for the most it could hold).
    if (!isMappedColumn(m_lists.capacity() * sizeof(quint32)))
        m_lists.shrink_to_fit();
}

void EventStore::clear()
{
    *this = EventStore();
}

void EventStore::clearKeepingMemory()
{
    forEachEventType([&]<typename E>() {
        EventColumns<E> &c = columns<E>();
        c.forEachVector([](auto &v) { v.clear(); });
        c.keys.clear();
        c.keyIds.clear();
    });
    m_lists.clear();
    m_strings.clear();
    m_outOfOrder = false;
}

qsizetype EventStore::count(EventType type) const
{
    qsizetype n = 0;
    visitEventType(type, [&]<typename E>() { n = columns<E>().size(); });
    return n;
}

qsizetype EventStore::totalCount() const
{
    qsizetype n = 0;
    forEachEventType([&]<typename E>() { n += columns<E>().size(); });
    return n;
}

quint64 EventStore::timeNs(EventType type, qsizetype i) const
{
    quint64 t = 0;
    visitEventType(type, [&]<typename E>() { t = value<&E::timeNs>(i); });
    return t;
}

quint32 EventStore::pid(EventType type, qsizetype i) const
{
    quint32 p = 0;
    visitEventType(type, [&]<typename E>() { p = value<&E::pid>(i); });
    return p;
}

const QByteArray &EventStore::comm(EventType type, qsizetype i) const
{
    const QByteArray *c = &m_strings.string(0);
    visitEventType(type, [&]<typename E>() { c = &value<&E::comm>(i); });
    return *c;
}

bool EventStore::latencyNs(EventType type, qsizetype i, quint64 *ns) const
{
    bool has = false;
    visitEventType(type, [&]<typename E>() {
        if constexpr (hasLatency<E>) {
            *ns = latencyNs<E>(i);
            has = true;
        }
    });
    return has;
}

EventStore::TimeColumn EventStore::timeColumn(EventType type) const
{
    TimeColumn column;
    visitEventType(type, [&]<typename E>() {
        const ColumnVector<quint64> &t = columns<E>().times();
        column = {reinterpret_cast<const char *>(t.data()), qsizetype(sizeof(quint64)),
                  qsizetype(t.size())};
    });
    return column;
}

qsizetype EventStore::lowerBound(EventType type, quint64 t) const
{
    qsizetype at = 0;
    visitEventType(type, [&]<typename E>() {
        const ColumnVector<quint64> &times = columns<E>().times();
        at = qsizetype(std::lower_bound(times.begin(), times.end(), t) - times.begin());
    });
    return at;
}

quint64 EventStore::firstTimeNs() const
{
    quint64 first = 0;
    bool any = false;
    forEachEventType([&]<typename E>() {
        const ColumnVector<quint64> &t = columns<E>().times();
        if (!t.empty()) {
            first = any ? std::min(first, t.front()) : t.front();
            any = true;
        }
    });
    return first;
}

quint64 EventStore::lastTimeNs() const
{
    quint64 last = 0;
    forEachEventType([&]<typename E>() {
        const ColumnVector<quint64> &t = columns<E>().times();
        if (!t.empty())
            last = std::max(last, t.back());
    });
    return last;
}

qint64 EventStore::memoryBytes() const
{
    auto bytes = [](const auto &v) { return qint64(v.capacity() * sizeof(v[0])); };
    // A mapped list's spare capacity is not resident (squeeze()).
    const qint64 listBytes = isMappedColumn(m_lists.capacity() * sizeof(quint32))
                                 ? (qint64(m_lists.size() * sizeof(quint32)) + 4095) & ~qint64(4095)
                                 : bytes(m_lists);
    qint64 total = qint64(sizeof(*this)) + m_strings.memoryBytes() + listBytes;
    forEachEventType([&]<typename E>() {
        const EventColumns<E> &c = columns<E>();
        c.forEachVector([&](const auto &v) { total += bytes(v); });
        total += bytes(c.keys);
        // QHash: a bucket per entry with its key, value and span bookkeeping.
        total += qint64(c.keyIds.capacity()) *
                 qint64(sizeof(typename EventColumns<E>::Key) + sizeof(quint32) + 1);
    });
    return total;
}

} // namespace bpflens
