#pragma once

// Events of every declared type (core/events.h), made from the type's declaration alone: a type
// added to BPFLENS_EVENT_TYPES is sent through every path by tst_eventtypes and tst_gui's
// everyTypeLiveAndSaved without anyone writing a sample for it.

#include "core/records.h"

namespace bpflens::test {

// The stacks everyTypeBatch() defines; event k of a type with stacks names stack k % 3 + 1.
inline constexpr int SynthesizedStacks = 3;

// Frames and stacks with what paths tend to get wrong: kernel and user frames, a frame with
// neither module nor symbol, a C++ name with spaces, ',' and ';', a module path that is not
// UTF-8, every flag, and a frame shared by two stacks.
inline StackTable synthesizedStacks()
{
    StackTable t;
    const quint32 syscall = t.intern(
        StackFrame{FrameKind::Kernel, 0xffffffff81a00010ull, "vmlinux", "", "do_syscall_64"});
    const quint32 ext4 = t.intern(
        StackFrame{FrameKind::Kernel, 0xffffffffc0123400ull, "ext4", "", "ext4_file_read_iter"});
    const quint32 read =
        t.intern(StackFrame{FrameKind::User, 0x114f10, "/usr/lib/x86_64-linux-gnu/libc.so.6",
                            "c289da5071a3399de893d2af81d6a30c62646e1e", "__GI___libc_read"});
    const quint32 cpp = t.intern(
        StackFrame{FrameKind::User, 0x2a40, "/opt/app/bin/app", "00ff",
                   "app::Reader<std::map<int, int> >::next(int (*)(int; long), \"x\") const"});
    const quint32 unknown = t.intern(StackFrame{FrameKind::User, 0x7f00dead0, "", "", ""});
    const quint32 stripped =
        t.intern(StackFrame{FrameKind::User, 0x1234, "/tmp/lib\xff\xfe.so", "", ""});
    // Leaf first: kernel frames, then user frames.
    t.intern(0, {ext4, syscall, read, cpp});
    t.intern(KernelStackTruncated | UserStackTruncated | UserFramePointers,
             {syscall, stripped, unknown, cpp});
    t.intern(NoUserStack, {syscall});
    return t;
}

template<typename E, std::size_t I>
constexpr bool isStackIdField()
{
    if constexpr (hasStackId<E>)
        return fieldIndexOf<E, &E::stackId>() == I;
    else
        return false;
}

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
        if constexpr (isStackIdField<E, I>()) {
            v = quint32(k % SynthesizedStacks + 1);
        } else if constexpr (F::kind == FieldKind::Time) {
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

// count events of every type, in time order within each type, and the stack definitions their
// stack ids name.
inline RecordBatch everyTypeBatch(int count, quint64 startNs)
{
    RecordBatch b;
    synthesizedStacks().takeNewDefinitions(b);
    forEachEventType([&]<typename E>() {
        for (int k = 0; k < count; ++k)
            b.events<E>().append(
                synthesizedEvent<E>(k, startNs + quint64(k) * 1000 + quint8(eventTypeOf<E>)));
    });
    return b;
}

// The batch in two, as a recording delivers it: the first n events of every type with every
// definition, then the rest.
inline std::pair<RecordBatch, RecordBatch> splitBatch(const RecordBatch &batch, qsizetype n)
{
    RecordBatch first, second;
    first.frames = batch.frames;
    first.stacks = batch.stacks;
    forEachEventType([&]<typename E>() {
        first.events<E>() = batch.events<E>().mid(0, n);
        second.events<E>() = batch.events<E>().mid(n);
    });
    return {first, second};
}

} // namespace bpflens::test
