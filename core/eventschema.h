#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QtGlobal>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>

namespace bpflens {

// The vocabulary in which an event type declares itself (core/events/<type>.h). From one
// declaration, every layer derives what it needs: EventStore's columns, the session chunk codec,
// the wire codec, CSV files, table columns, the details pane, the text filter, latency filters
// and the timeline lane. docs/adding-an-event-type.md walks through a declaration.

// Text forms shared by the CSV files and the GUI (core/textformat.cpp).
// Kernel bytes as reversible text: valid UTF-8 as is, "\\" for a backslash, "\xNN" otherwise.
QByteArray escapeKernelBytes(const QByteArray &bytes);
// An argument list as a shell reads it back, like execsnoop -q: each argument in the kernel
// bytes' text form above, quoted with '…' where it holds anything but [A-Za-z0-9_@%+=:,./-] or
// is empty ("it's" as 'it'\''s'), joined by single spaces.
QByteArray formatArgv(const QList<QByteArray> &argv);
// RFC 5952 for IPv6 (lower-case hex, the longest run of two or more zero groups as "::").
QByteArray formatAddress(quint8 family, const std::array<quint8, 16> &address);
// Whether a value holds a signed integer (it is written with a sign).
bool isSignedValue(const QVariant &value);
// "1.2.3.4:80", "[::1]:80".
QString formatEndpoint(quint8 family, const std::array<quint8, 16> &address, quint16 port);

// How a field is stored in EventStore and encoded in a session chunk and on the wire.
enum class FieldKind : quint8
{
    Time,   // quint64 CLOCK_MONOTONIC ns; zigzag delta to the previous event
    U8,     // one raw byte
    Family, // one byte, 4 or 6 (an address family); the addresses after it follow it
    Flag,   // bool as one byte, 0 or 1
    Port,   // quint16 as a varint, at most 0xffff
    U32,    // varint, at most 0xffffffff
    U64,    // varint
    S32,    // zigzag varint within qint32
    Bytes,  // QByteArray (comm, paths): interned; a string id in chunks, length + bytes on the wire
    BytesList, // QList<QByteArray> (argv): a count, then the strings
    Address,   // std::array<quint8, 16>: a length byte (4 or 16), then the bytes
};

// One field of an event struct: the member, its kind, the name of its chunk column (also what
// error messages about a chunk call it), and the words the wire codec's errors use for it
// (default: the column name with '_' as ' '). Keyed fields take few distinct values together
// (a block request's device, flags, disk and operation): EventStore keeps each distinct
// combination once and one 4-byte key per event, which is what keeps a block event at 48 bytes.
template<auto Member, FieldKind Kind, bool Keyed = false>
struct Field
{
    static constexpr auto member = Member;
    static constexpr FieldKind kind = Kind;
    static constexpr bool keyed = Keyed;
    const char *name;
    const char *wireName = nullptr;
};

// How a column's value is shown: CSV writes numbers as numbers and bytes escaped
// (CsvExport::escapeBytes); the table and the details pane format them for people.
enum class Format : quint8
{
    Number,   // decimal, signed or unsigned as the value's type
    Hex,      // table: 0x1f; CSV: decimal
    Octal,    // table: 0644; CSV: decimal
    Duration, // nanoseconds; table: "1.25 ms"; CSV: ns
    Size,     // a byte count; table: "66.3 MiB" (core/units.h); CSV: bytes
    Bytes,    // kernel bytes (QByteArray), shown escaped where not UTF-8
    Char,     // one byte as a character ('R', 'W')
    Text,     // text made by the declaration (an endpoint "1.2.3.4:80"), written as it is
    Argv,     // QList<QByteArray>; CSV: joined by spaces; the details pane: one row each
    YesNo,    // bool; CSV: 0 or 1
    Time,     // a CLOCK_MONOTONIC time in ns, shown like the Time column
};

// A value in its Format as plain text, in the C locale and untranslated, as the CLI prints it
// (the GUI says durations, yes/no and times in the user's language): "0x80000", "0644",
// "1.25 ms", "12.345678" (seconds after sessionStartNs).
QString formatPlainValue(Format format, const QVariant &value, quint64 sessionStartNs);

// Where a column appears. The Time column is every type's first, implicitly.
enum Show : quint8
{
    InCsv = 1,
    InTable = 2,
    InDetails = 4,
    Everywhere = InCsv | InTable | InDetails,
};

// One column of an event type's views. title is the table header and details label (context
// "EventTableModel", translated by the GUI); detailsTitle overrides it in the details pane.
// text, when set, is what the table shows instead of formatting value.
template<typename E>
struct Column
{
    const char *csvName;
    const char *title;
    Format format;
    quint8 show;
    QVariant (*value)(const E &);
    const char *detailsTitle = nullptr;
    QString (*text)(const E &) = nullptr;
};

namespace schema {

template<auto Member>
QVariant memberValue(const auto &e)
{
    return QVariant::fromValue(e.*Member);
}

} // namespace schema

// A column that shows one member as it is.
template<typename E, auto Member>
constexpr Column<E> column(const char *csvName, const char *title, Format format = Format::Number,
                           quint8 show = Everywhere, const char *detailsTitle = nullptr)
{
    return {csvName, title, format, show, &schema::memberValue<Member>, detailsTitle};
}

// The columns of a type with an address family (a `family` member, 4 or 6) and endpoints: the
// family as a number in CSV and as "IPv4"/"IPv6" in the details; an address as text in CSV; an
// address with its port ("1.2.3.4:80", "[::1]:80") in the table and the details. Titles are
// marked where the type is declared, where lupdate finds them.
template<typename E>
constexpr Column<E> familyCsvColumn(const char *title)
{
    return {"family", title, Format::Number, InCsv, &schema::memberValue<&E::family>};
}
template<typename E>
constexpr Column<E> familyDetailsColumn(const char *title)
{
    return {nullptr, title, Format::Text, InDetails, [](const E &e) {
                return QVariant(e.family == 4 ? QStringLiteral("IPv4") : QStringLiteral("IPv6"));
            }};
}
template<typename E, auto Address>
constexpr Column<E> addressCsvColumn(const char *csvName)
{
    return {csvName, nullptr, Format::Text, InCsv,
            [](const E &e) { return QVariant(formatAddress(e.family, e.*Address)); }};
}
template<typename E, auto Address, auto Port>
constexpr Column<E> endpointColumn(const char *title)
{
    return {nullptr, title, Format::Text, InTable | InDetails,
            [](const E &e) { return QVariant(formatEndpoint(e.family, e.*Address, e.*Port)); }};
}

// How the timeline shows a type: its colour (0xRRGGBB; 0 for the palette's highlight colour),
// and whether its lane is hidden while it has no events (for probes few sessions use).
struct LaneStyle
{
    quint32 rgb = 0;
    bool hiddenWhenEmpty = false;
};

// Specialised by each core/events/<type>.h.
template<typename E>
struct EventTraits;

// ---- walking a declaration ------------------------------------------------------------------

template<typename E>
inline constexpr std::size_t fieldCount = std::tuple_size_v<decltype(EventTraits<E>::fields)>;

template<typename E, std::size_t I>
using FieldAt = std::remove_cvref_t<decltype(std::get<I>(EventTraits<E>::fields))>;

// Whether a type's events carry the task's cgroup v2 id (every type that carries a process:
// core/cgroups.h names it). Its field is the type's last: session chunks of schemas before 4
// and stream records of minor versions before 10 have no such column (read as 0, unknown).
template<typename E>
inline constexpr bool hasCgroupId = requires(const E &e)
{
    e.cgroupId;
};

// Whether field I of E is the cgroup id, the column older files and streams do not have.
template<typename E, std::size_t I>
constexpr bool isCgroupField()
{
    if constexpr (hasCgroupId<E> && I + 1 == fieldCount<E>) {
        using M = std::remove_cv_t<decltype(FieldAt<E, I>::member)>;
        if constexpr (std::is_same_v<M, decltype(&E::cgroupId)>)
            return FieldAt<E, I>::member == &E::cgroupId;
        else
            return false;
    } else {
        return false;
    }
}

// f.template operator()<I>() for every field index I of E, in declaration (chunk) order.
template<typename E, typename F>
void forEachField(F &&f)
{
    [&]<std::size_t... I>(std::index_sequence<I...>)
    {
        (f.template operator()<I>(), ...);
    }
    (std::make_index_sequence<fieldCount<E>>());
}

// The index of the field declared for member M of E.
template<typename E, auto M>
constexpr std::size_t fieldIndexOf()
{
    constexpr std::size_t n = fieldCount<E>;
    std::size_t found = n;
    [&]<std::size_t... I>(std::index_sequence<I...>)
    {
        (
            [&] {
                if constexpr (std::is_same_v<std::remove_cv_t<decltype(FieldAt<E, I>::member)>,
                                             std::remove_cv_t<decltype(M)>>) {
                    if (found == n && FieldAt<E, I>::member == M)
                        found = I;
                }
            }(),
            ...);
    }
    (std::make_index_sequence<n>());
    return found;
}

// The struct a member pointer belongs to.
template<typename T>
struct MemberClass;
template<typename C, typename V>
struct MemberClass<V C::*>
{
    using type = C;
};

// The fields whose values the text filter searches (comm always is), as a tuple of members.
template<typename E>
constexpr auto searchedFields()
{
    if constexpr (requires { EventTraits<E>::searched; })
        return EventTraits<E>::searched;
    else
        return std::tuple<>{};
}

// The members that add up to an event's latency (block: queue + device time), none for types
// without one.
template<typename E>
constexpr auto latencyFields()
{
    if constexpr (requires { EventTraits<E>::latency; })
        return EventTraits<E>::latency;
    else
        return std::tuple<>{};
}

template<typename E>
inline constexpr bool hasLatency = std::tuple_size_v<decltype(latencyFields<E>())> > 0;

// What top lists (core/toplists.h, docs/top.md) group events by. Process (pid and comm) and
// Command (comm) apply to every type; a type declares the others it has in its traits' `top`.
enum class Dimension : quint8
{
    Process,
    Command,
    File,        // a path or file name (a Bytes member)
    Disk,        // a disk name (a Bytes member)
    Destination, // the remote endpoint of a connection (TopByEndpoint)
    Operation,   // a Bytes member ("Sync-Write"), or a U8 character ('R')
    Error,       // an S32 return value: its negative values as errno names ("ENOENT")
};

// One dimension of a type: the member whose value is the key.
template<Dimension D, auto Member>
struct TopBy
{
    static constexpr Dimension dimension = D;
    static constexpr auto member = Member;
};

// The Destination of a type with a `family` member: an address with its port ("1.2.3.4:80").
template<auto Address, auto Port>
struct TopByEndpoint
{
    static constexpr Dimension dimension = Dimension::Destination;
    static constexpr auto address = Address;
    static constexpr auto port = Port;
    static constexpr auto family = &MemberClass<decltype(Address)>::type::family;
};

// The dimensions a type declares besides Process and Command, as a tuple of TopBy and
// TopByEndpoint; latency statistics are kept per value of its Disk and Operation keys.
template<typename E>
constexpr auto topKeys()
{
    if constexpr (requires { EventTraits<E>::top; })
        return EventTraits<E>::top;
    else
        return std::tuple<>{};
}

// Whether test(key) holds for one of E's top keys, tried in declaration order until one does;
// test is a generic lambda ([&]<typename T>(T) {...}) that sees each key's TopBy type.
template<typename E, typename Test>
bool anyTopKey(const Test &test)
{
    return std::apply([&](auto... key) { return (test(key) || ...); }, topKeys<E>());
}

// The members that add up to the bytes an event moved (tcplife: sent + received), none for
// types without.
template<typename E>
constexpr auto byteFields()
{
    if constexpr (requires { EventTraits<E>::bytes; })
        return EventTraits<E>::bytes;
    else
        return std::tuple<>{};
}

template<typename E>
inline constexpr bool hasBytes = std::tuple_size_v<decltype(byteFields<E>())> > 0;

// The order of the fields on the wire, where it differs from the declaration's (exec, for
// historical reasons); otherwise 0, 1, 2, ...
template<typename E>
constexpr auto wireOrder()
{
    if constexpr (requires { EventTraits<E>::wireOrder; }) {
        return EventTraits<E>::wireOrder;
    } else {
        std::array<std::size_t, fieldCount<E>> order{};
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        return order;
    }
}

} // namespace bpflens
