#pragma once

#include <QByteArray>
#include <QList>

#include <array>
#include <cstdint>
#include <type_traits>

namespace bpflens {

// Timestamps are CLOCK_MONOTONIC nanoseconds (bpf_ktime_get_ns); SessionInfo maps them to
// wall-clock time. Strings that come from the kernel (comm, paths, argv) are bytes, not text:
// file names need not be UTF-8.

// Every event type, once: (EventType name, struct, RecordBatch list and EventStore accessor,
// the number it has in session files and on the wire). Each layer walks this list; a type's
// fields and columns are declared next to its struct (docs/adding-an-event-type.md).
#define BPFLENS_EVENT_TYPES(X)                                                                    \
    X(Exec, ExecEvent, exec, 1)                                                                    \
    X(Open, OpenEvent, open, 2)                                                                    \
    X(Block, BlockEvent, block, 3)                                                                 \
    X(TcpConnect, TcpConnectEvent, tcpConnect, 4)                                                  \
    X(FsSlow, FsSlowEvent, fsSlow, 5)                                                              \
    X(TpPair, TpPairEvent, tpPair, 6)

enum class EventType : quint8
{
#define BPFLENS_EVENT_ENUM(Name, Struct, member, number) Name = number,
    BPFLENS_EVENT_TYPES(BPFLENS_EVENT_ENUM)
#undef BPFLENS_EVENT_ENUM
};

struct ExecEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint32 ppid = 0;
    quint32 uid = 0;
    qint32 retval = 0; // 0 or -errno
    QByteArray comm;
    QByteArray filename;
    QList<QByteArray> argv;
    bool argvTruncated = false;
    bool operator==(const ExecEvent &) const = default;
};

struct OpenEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint32 tid = 0;
    quint32 uid = 0;
    qint32 flags = 0;
    quint32 mode = 0;
    qint32 ret = 0; // fd, or -errno
    QByteArray comm;
    QByteArray path;
    bool operator==(const OpenEvent &) const = default;
};

struct BlockEvent
{
    quint64 timeNs = 0;   // completion time
    quint32 dev = 0;      // major << 20 | minor, as the kernel's dev_t
    quint32 cmdFlags = 0; // raw req->cmd_flags
    quint64 sector = 0;
    quint32 bytes = 0;
    quint32 pid = 0;      // the task that issued (or queued) the request
    quint64 queueNs = 0;  // insert -> issue, 0 when not queued through the scheduler
    quint64 deviceNs = 0; // issue -> complete
    QByteArray disk;      // "vda"
    QByteArray op;        // decoded like biolatency -F: "Sync-Write"
    QByteArray comm;
    static quint32 major(quint32 dev) { return dev >> 20; }
    static quint32 minor(quint32 dev) { return dev & ((1u << 20) - 1); }
    bool operator==(const BlockEvent &) const = default;
};

struct TcpConnectEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint32 uid = 0;
    quint8 family = 4; // 4 or 6
    std::array<quint8, 16> saddr{};
    std::array<quint8, 16> daddr{};
    quint16 sport = 0;
    quint16 dport = 0;
    qint32 ret = 0;
    QByteArray comm;
    bool operator==(const TcpConnectEvent &) const = default;
};

// A slow file-system operation (fsslower), or any single operation with a latency.
struct FsSlowEvent
{
    quint64 timeNs = 0;
    quint32 pid = 0;
    quint8 op = 0; // 'R', 'W', 'O', 'F'
    quint64 bytes = 0;
    quint64 offset = 0;
    quint64 latencyNs = 0;
    QByteArray fs; // "ext4"
    QByteArray comm;
    QByteArray filename;
    bool operator==(const FsSlowEvent &) const = default;
};

// Two tracepoints paired by a key (the tppair probe), recorded when the pair was slow enough.
// The identity is the start side's, where the pid/comm filters apply.
struct TpPairEvent
{
    quint64 timeNs = 0; // the end tracepoint
    quint32 pid = 0;
    quint32 tid = 0;
    quint64 key = 0; // the value both sides were paired by (a tid, a pointer, an id)
    quint64 latencyNs = 0;
    QByteArray comm;
    bool operator==(const TpPairEvent &) const = default;
};

// The struct of each type and back: eventTypeOf<ExecEvent> is EventType::Exec.
template<typename E>
inline constexpr EventType eventTypeOf = EventType(0);
#define BPFLENS_EVENT_TYPE_OF(Name, Struct, member, number)                                       \
    template<>                                                                                     \
    inline constexpr EventType eventTypeOf<Struct> = EventType::Name;
BPFLENS_EVENT_TYPES(BPFLENS_EVENT_TYPE_OF)
#undef BPFLENS_EVENT_TYPE_OF

template<typename... E>
struct EventTypeList
{
    template<typename F>
    static void forEach(F &&f)
    {
        (call<E>(f), ...);
    }

private:
    template<typename E1, typename F>
    static void call(F &f)
    {
        if constexpr (!std::is_void_v<E1>)
            f.template operator()<E1>();
    }
};
#define BPFLENS_EVENT_STRUCT(Name, Struct, member, number) Struct,
using EventStructs = EventTypeList<BPFLENS_EVENT_TYPES(BPFLENS_EVENT_STRUCT) void>;
#undef BPFLENS_EVENT_STRUCT

// Every EventType value, in the order of BPFLENS_EVENT_TYPES.
#define BPFLENS_EVENT_VALUE(Name, Struct, member, number) EventType::Name,
inline constexpr EventType eventTypes[] = {BPFLENS_EVENT_TYPES(BPFLENS_EVENT_VALUE)};
#undef BPFLENS_EVENT_VALUE

// Calls f.template operator()<E>() for every event type E, in the order of BPFLENS_EVENT_TYPES.
template<typename F>
void forEachEventType(F &&f)
{
    EventStructs::forEach(f);
}

// Calls f.template operator()<E>() for the struct E of type; false for a number no type has.
template<typename F>
bool visitEventType(EventType type, F &&f)
{
    bool found = false;
    forEachEventType([&]<typename E>() {
        if (!found && eventTypeOf<E> == type) {
            found = true;
            f.template operator()<E>();
        }
    });
    return found;
}

} // namespace bpflens
