#pragma once

// Events of every declared type (core/events.h), made from the type's declaration alone: a type
// added to BPFLENS_EVENT_TYPES is sent through every path by tst_eventtypes and tst_gui's
// everyTypeLiveAndSaved without anyone writing a sample for it.

#include "records.h"

namespace bpflens::test {

// Event k of type E: every field set, to values that differ from event to event and from the
// defaults, so a field that a path drops or mixes up shows.
template<typename E>
E synthesizedEvent(int k, quint64 timeNs)
{
    E e{};
    forEachField<E>([&]<std::size_t I>() {
        using F = FieldAt<E, I>;
        auto &v = e.*F::member;
        const int n = k * 16 + int(I) + 1;
        if constexpr (F::kind == FieldKind::Time) {
            v = timeNs;
        } else if constexpr (F::kind == FieldKind::Family) {
            v = k % 2 ? 6 : 4;
        } else if constexpr (F::kind == FieldKind::Flag) {
            v = k % 2 == 0;
        } else if constexpr (F::kind == FieldKind::U8) {
            v = quint8('A' + n % 26);
        } else if constexpr (F::kind == FieldKind::S32) {
            v = k % 2 ? -n : n;
        } else if constexpr (F::kind == FieldKind::Bytes) {
            // Shared by every event (interned once), one of each event, and bytes not UTF-8.
            v = I % 2 ? QByteArray("same") : "f" + QByteArray::number(n) + " \xff,\"x\"";
        } else if constexpr (F::kind == FieldKind::BytesList) {
            for (int a = 0; a <= k % 3; ++a)
                v.append("arg " + QByteArray::number(n + a));
        } else if constexpr (F::kind == FieldKind::Address) {
            v[0] = k % 2 ? 0x20 : 127;
            v[1] = k % 2 ? 0x01 : 0;
            v[3] = quint8(n);
            if (k % 2)
                v[15] = quint8(n);
        } else {
            v = decltype(+v)(1000 * n + k);
        }
    });
    return e;
}

// count events of every type, in time order within each type.
inline RecordBatch everyTypeBatch(int count, quint64 startNs)
{
    RecordBatch b;
    forEachEventType([&]<typename E>() {
        for (int k = 0; k < count; ++k)
            b.events<E>().append(
                synthesizedEvent<E>(k, startNs + quint64(k) * 1000 + quint8(eventTypeOf<E>)));
    });
    return b;
}

} // namespace bpflens::test
