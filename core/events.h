#pragma once

#include "core/events/allocation.h"
#include "core/events/block.h"
#include "core/events/exec.h"
#include "core/events/fsslower.h"
#include "core/events/offcpu.h"
#include "core/events/offwake.h"
#include "core/events/oomkill.h"
#include "core/events/open.h"
#include "core/events/pagefault.h"
#include "core/events/profile.h"
#include "core/events/reclaim.h"
#include "core/events/tcpaccept.h"
#include "core/events/tcpconnect.h"
#include "core/events/tcplife.h"
#include "core/events/tcpretrans.h"
#include "core/events/threadstate.h"
#include "core/events/tppair.h"
#include "core/events/uprobe.h"
#include "core/events/usdt.h"

#include <array>
#include <cstdint>
#include <type_traits>

namespace bpflens {

// Timestamps are CLOCK_MONOTONIC nanoseconds (bpf_ktime_get_ns); SessionInfo maps them to
// wall-clock time. Strings that come from the kernel (comm, paths, argv) are bytes, not text:
// file names need not be UTF-8.

// Every event type, once: (EventType name, struct, RecordBatch list and EventStore accessor,
// the number it has in session files and on the wire: never reused; 16 to 23 are the stream's
// other sections, core/protocol.cpp). Each layer walks this
// list; a type's fields, columns and lane are declared with its struct in core/events/<type>.h
// (docs/adding-an-event-type.md).
#define BPFLENS_EVENT_TYPES(X)                                                                     \
    X(Exec, ExecEvent, exec, 1)                                                                    \
    X(Open, OpenEvent, open, 2)                                                                    \
    X(Block, BlockEvent, block, 3)                                                                 \
    X(TcpConnect, TcpConnectEvent, tcpConnect, 4)                                                  \
    X(FsSlow, FsSlowEvent, fsSlow, 5)                                                              \
    X(TpPair, TpPairEvent, tpPair, 6)                                                              \
    X(CpuSample, CpuSampleEvent, cpuSample, 7)                                                     \
    X(OffCpu, OffCpuEvent, offCpu, 8)                                                              \
    X(TcpAccept, TcpAcceptEvent, tcpAccept, 9)                                                     \
    X(TcpRetrans, TcpRetransEvent, tcpRetrans, 10)                                                 \
    X(TcpLife, TcpLifeEvent, tcpLife, 11)                                                          \
    X(UprobeCall, UprobeCallEvent, uprobeCall, 12)                                                 \
    X(Usdt, UsdtEvent, usdt, 13)                                                                   \
    X(OffWake, OffWakeEvent, offWake, 14)                                                          \
    X(OomKill, OomKillEvent, oomKill, 15)                                                          \
    X(Reclaim, ReclaimEvent, reclaim, 24)                                                          \
    X(PageFault, PageFaultEvent, pageFault, 25)                                                    \
    X(ThreadState, ThreadStateEvent, threadState, 26)                                              \
    X(Allocation, AllocationEvent, allocation, 27)

enum class EventType : quint8
{
#define BPFLENS_EVENT_ENUM(Name, Struct, member, number) Name = number,
    BPFLENS_EVENT_TYPES(BPFLENS_EVENT_ENUM)
#undef BPFLENS_EVENT_ENUM
};

// The struct of each type and back: eventTypeOf<ExecEvent> is EventType::Exec.
template<typename E>
inline constexpr EventType eventTypeOf = EventType(0);
#define BPFLENS_EVENT_TYPE_OF(Name, Struct, member, number)                                        \
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
        (f.template operator()<E>(), ...);
    }
};
template<typename Void, typename... E>
struct EventTypeListAfter
{
    using type = EventTypeList<E...>;
};
#define BPFLENS_EVENT_STRUCT(Name, Struct, member, number) , Struct
using EventStructs = EventTypeListAfter<void BPFLENS_EVENT_TYPES(BPFLENS_EVENT_STRUCT)>::type;
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

// Whether a type's events refer to a stack (stackId, an id into the session's StackTable).
template<typename E>
inline constexpr bool hasStackId = requires(const E &e)
{
    e.stackId;
};

// Whether a number (a session file's or the wire's) is one of this build's event types.
inline bool isEventType(int number)
{
    return number > 0 && number < 256 && visitEventType(EventType(number), []<typename>() {});
}

// The probe a type's events come from, also the stem of its CSV file ("exec"); "" for a number
// no type has.
inline const char *probeIdOf(EventType type)
{
    const char *id = "";
    visitEventType(type, [&]<typename E>() { id = EventTraits<E>::probeId; });
    return id;
}

} // namespace bpflens
