#include "core/protocol.h"

#include "core/counttext.h"
#include "core/varint.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QStringDecoder>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

namespace bpflens {

namespace {

constexpr char Magic[4] = {'B', 'L', 'S', 'T'};
constexpr qsizetype MinPayloadLimit = 256;
constexpr qsizetype MaxEndMessageBytes = 64 * 1024;
// The catalog has about ten probes; this only stops a hello from claiming millions.
constexpr qsizetype MaxProbes = 1024;
// Start wall times are milliseconds since 1970 within +-9e15 (about 285,000 years): every real
// time, and far enough from the ends of qint64 that QDateTime arithmetic cannot overflow.
constexpr qint64 MaxWallMs = 9'000'000'000'000'000;

// Section kinds inside a Batch frame: an event type's section has the type's number
// (BPFLENS_EVENT_TYPES; tppair since minor version 1), the others these.
enum class Section : quint8
{
    Histogram = 16,
    Stats = 17,
    Counter = 18,
    StackFrame = 19, // since minor version 3, with the event types that refer to stacks
    Stack = 20,
    // Since minor version 4: the probe stats with the lost events split by cause. The writer
    // sends the same stats as Stats too, for readers of minor versions up to 3, and a reader of
    // a frame of minor version 4 or later takes these and skips those.
    StatsWithCauses = 21,
    // Since major version 2: the cgroups the batch's events name for the first time, each an id
    // and its path (core/cgroups.h).
    Cgroup = 22,
    // Since minor version 10: the stack frame definitions again, with their source file, line
    // and inlined mark. The writer sends both; a reader of a frame of minor 10 or later takes
    // these and skips the stack frame section, as for StatsWithCauses.
    StackFrameWithSource = 23,
};

// An event type's section is its number: the numbers of the other sections are no event type's
// (reclaim took 24, after them).
static_assert([] {
    for (EventType t : eventTypes) {
        if (int(t) >= int(Section::Histogram) && int(t) <= int(Section::StackFrameWithSource))
            return false;
    }
    return true;
}());

// The frames' minor version from which StatsWithCauses stands for Stats.
constexpr quint8 StatsWithCausesMinor = 4;
static_assert(StackFrameWithSourceMinor > 9 && StackFrameWithSourceMinor <= StreamProtocolMinor);

// A FrameDefinition in the StackFrameWithSource section's encoding.
struct FrameWithSource
{
    FrameDefinition definition;
};

// A ProbeStats record in the StatsWithCauses section's encoding.
struct StatsWithCauses
{
    ProbeStats stats;
};

template<typename E>
constexpr quint8 sectionOf()
{
    return quint8(eventTypeOf<E>);
}

// The fewest bytes one record of a section can take; a count is checked against it before
// anything is decoded, so a claimed count can never outrun the bytes that are there.
qsizetype minRecordBytes(quint8 kind, bool cgroups)
{
    switch (Section(kind)) {
    case Section::Histogram:
        return 7;
    case Section::Stats:
        return 6;
    case Section::StatsWithCauses:
        return 8;
    case Section::Counter:
        return 12;
    case Section::StackFrame:
        return 6;
    case Section::StackFrameWithSource:
        return 9;
    case Section::Stack:
        return 3;
    case Section::Cgroup:
        return 2;
    }
    qsizetype n = 1;
    visitEventType(EventType(kind), [&]<typename E>() {
        // A byte per field; an address takes its length byte and at least 4 more.
        n = 0;
        forEachField<E>([&]<std::size_t I>() {
            if (isCgroupField<E, I>() && !cgroups)
                return; // not in 1.x records
            n += FieldAt<E, I>::kind == FieldKind::Address ? 5 : 1;
        });
    });
    return n;
}

QString sectionName(quint8 kind)
{
    switch (Section(kind)) {
    case Section::Histogram:
        return QStringLiteral("histogram");
    case Section::Stats:
        return QStringLiteral("probe stats");
    case Section::StatsWithCauses:
        return QStringLiteral("probe stats with loss causes");
    case Section::Counter:
        return QStringLiteral("counter");
    case Section::StackFrame:
        return QStringLiteral("stack frame");
    case Section::StackFrameWithSource:
        return QStringLiteral("stack frame with source");
    case Section::Stack:
        return QStringLiteral("stack");
    case Section::Cgroup:
        return QStringLiteral("cgroup");
    }
    QString name = QStringLiteral("kind %1").arg(kind);
    visitEventType(EventType(kind),
                   [&]<typename E>() { name = QLatin1String(EventTraits<E>::wireName); });
    return name;
}

bool isKnownSection(quint8 kind)
{
    return (kind >= quint8(Section::Histogram) && kind <= quint8(Section::StackFrameWithSource)) ||
           visitEventType(EventType(kind), []<typename>() {});
}

QString frameTypeName(quint16 type)
{
    switch (StreamFrameType(type)) {
    case StreamFrameType::Hello:
        return QStringLiteral("hello");
    case StreamFrameType::Batch:
        return QStringLiteral("batch");
    case StreamFrameType::End:
        return QStringLiteral("end");
    }
    return QStringLiteral("type %1").arg(type);
}

bool isKnownFrameType(quint16 type)
{
    return type >= 1 && type <= 3;
}

// Appends to a byte array it does not own, so records go straight into their section.
class Encoder
{
public:
    explicit Encoder(QByteArray &out)
        : out(out)
    {
    }
    QByteArray &out;

    void byte(quint8 b) { out.append(char(b)); }
    void varint(quint64 v) { putVarint(out, v); }
    void signedVarint(qint64 v) { varint(zigzag(v)); }
    // Times are sent as the difference to the previous record of the section: events arrive
    // nearly in order, so a delta of microseconds takes 2-3 bytes instead of 8.
    void time(quint64 t, quint64 &previous)
    {
        signedVarint(qint64(t - previous));
        previous = t;
    }
    void bytes(QByteArrayView b)
    {
        varint(quint64(b.size()));
        out.append(b);
    }
    void text(const QString &s) { bytes(s.toUtf8()); }
    void f64(double d)
    {
        const quint64 bits = std::bit_cast<quint64>(d);
        for (int i = 0; i < 8; ++i)
            byte(quint8(bits >> (8 * i)));
    }
    void address(const std::array<quint8, 16> &a)
    {
        // An IPv4 address occupies the first 4 bytes; only send the other 12 if they are used.
        const bool shortForm = std::all_of(a.begin() + 4, a.end(), [](quint8 x) { return !x; });
        byte(shortForm ? 4 : 16);
        out.append(reinterpret_cast<const char *>(a.data()), shortForm ? 4 : 16);
    }
};

// Reads fields from a byte range and never past it. The first problem is kept (with the
// context in which it happened) and every later read returns zero, so decoders can read a
// whole record and check ok() once.
class Cursor
{
public:
    Cursor(const uchar *data, qsizetype size, QString scope, QString *error)
        : m_p(data)
        , m_end(data + size)
        , m_scope(std::move(scope))
        , m_error(error)
    {
    }

    bool ok() const { return m_error->isEmpty(); }
    qsizetype left() const { return m_end - m_p; }
    // Whether records carry the cgroup id (major version 2 and later).
    void setCgroups(bool cgroups) { m_cgroups = cgroups; }
    bool cgroups() const { return m_cgroups; }
    // Where the next reads are, for messages: "section 2 (open)" and record 5. Only put into
    // words on failure, so decoding a record costs no string formatting.
    void setContext(const QString &context, qsizetype record = 0)
    {
        m_context = context;
        m_record = record;
    }
    void setRecord(qsizetype record) { m_record = record; }

    void fail(const QString &message)
    {
        if (ok()) {
            QString where = m_context;
            if (m_record)
                where += QStringLiteral(", record %1").arg(m_record);
            *m_error = where.isEmpty() ? message : where + QStringLiteral(": ") + message;
        }
        m_p = m_end;
    }

    // A cursor over the next n bytes, which this one skips.
    Cursor sub(qsizetype n, const QString &scope)
    {
        const uchar *start = m_p;
        m_p += n;
        Cursor c(start, n, scope, m_error);
        c.setCgroups(m_cgroups);
        return c;
    }

    quint64 varint(const char *field)
    {
        quint64 v = 0;
        switch (getVarint(m_p, m_end, &v)) {
        case VarintRead::Ok:
            return v;
        case VarintRead::Truncated:
            fail(QStringLiteral("%1 runs past the end of the %2")
                     .arg(QLatin1String(field), m_scope));
            return 0;
        case VarintRead::TooLong:
            fail(QStringLiteral("%1 is a varint larger than 64 bits").arg(QLatin1String(field)));
            return 0;
        }
        return 0;
    }

    quint64 ranged(const char *field, quint64 max)
    {
        const quint64 v = varint(field);
        if (v > max) {
            fail(QStringLiteral("%1 %2 is out of range (at most %3)")
                     .arg(QLatin1String(field))
                     .arg(v)
                     .arg(max));
            return 0;
        }
        return v;
    }
    quint32 u32(const char *field)
    {
        return quint32(ranged(field, std::numeric_limits<quint32>::max()));
    }
    quint16 u16(const char *field)
    {
        return quint16(ranged(field, std::numeric_limits<quint16>::max()));
    }
    qint64 i64(const char *field) { return unzigzag(varint(field)); }
    qint32 i32(const char *field)
    {
        const qint64 v = i64(field);
        if (v < std::numeric_limits<qint32>::min() || v > std::numeric_limits<qint32>::max()) {
            fail(QStringLiteral("%1 %2 is out of range for a 32-bit signed value")
                     .arg(QLatin1String(field))
                     .arg(v));
            return 0;
        }
        return qint32(v);
    }
    quint64 time(const char *field, quint64 &previous)
    {
        previous += quint64(i64(field));
        return previous;
    }

    quint8 byte(const char *field)
    {
        if (m_p == m_end) {
            fail(QStringLiteral("%1 runs past the end of the %2")
                     .arg(QLatin1String(field), m_scope));
            return 0;
        }
        return *m_p++;
    }
    bool flag(const char *field)
    {
        const quint8 b = byte(field);
        if (b > 1)
            fail(QStringLiteral("%1 is %2, not 0 or 1").arg(QLatin1String(field)).arg(b));
        return b == 1;
    }

    QByteArray bytes(const char *field)
    {
        const quint64 n = varint(field);
        if (!ok())
            return QByteArray();
        if (n > quint64(left())) {
            fail(QStringLiteral("%1 length %2 is more than the %3 bytes left in the %4")
                     .arg(QLatin1String(field))
                     .arg(n)
                     .arg(left())
                     .arg(m_scope));
            return QByteArray();
        }
        const QByteArray b(reinterpret_cast<const char *>(m_p), qsizetype(n));
        m_p += n;
        return b;
    }

    // Bytes of at most limit.
    QByteArray bytes(const char *field, qsizetype limit)
    {
        const uchar *start = m_p;
        quint64 n = 0;
        if (getVarint(start, m_end, &n) == VarintRead::Ok && n > quint64(limit)) {
            fail(QStringLiteral("%1 length %2 exceeds the limit of %3")
                     .arg(QLatin1String(field))
                     .arg(n)
                     .arg(limit));
            return QByteArray();
        }
        return bytes(field);
    }

    QString text(const char *field)
    {
        const QByteArray b = bytes(field);
        // A leading U+FEFF is part of the text, not a byte order mark to drop.
        QStringDecoder decoder(QStringConverter::Utf8,
                               QStringConverter::Flag::Stateless |
                                   QStringConverter::Flag::ConvertInitialBom);
        QString s = decoder.decode(b);
        if (decoder.hasError()) {
            fail(QStringLiteral("%1 is not valid UTF-8").arg(QLatin1String(field)));
            return QString();
        }
        return s;
    }

    double f64(const char *field)
    {
        if (left() < 8) {
            fail(QStringLiteral("%1 runs past the end of the %2")
                     .arg(QLatin1String(field), m_scope));
            return 0;
        }
        quint64 bits = 0;
        for (int i = 0; i < 8; ++i)
            bits |= quint64(m_p[i]) << (8 * i);
        m_p += 8;
        return std::bit_cast<double>(bits);
    }

    // A count of items that each take at least minBytes: it cannot exceed what the remaining
    // bytes could hold, nor limit (when not 0).
    qsizetype count(const char *field, qsizetype minBytes, qsizetype limit = 0)
    {
        const quint64 n = varint(field);
        if (!ok())
            return 0;
        if (n > quint64(left() / minBytes)) {
            fail(QStringLiteral("%1 %2 is more than the %3 bytes left in the %4 can hold")
                     .arg(QLatin1String(field))
                     .arg(n)
                     .arg(left())
                     .arg(m_scope));
            return 0;
        }
        if (limit && n > quint64(limit)) {
            fail(QStringLiteral("%1 %2 exceeds the limit of %3")
                     .arg(QLatin1String(field))
                     .arg(n)
                     .arg(limit));
            return 0;
        }
        return qsizetype(n);
    }

    void address(const char *field, std::array<quint8, 16> &a)
    {
        const quint8 n = byte(field);
        if (!ok())
            return;
        if (n != 4 && n != 16) {
            fail(QStringLiteral("%1 length %2 is neither 4 nor 16")
                     .arg(QLatin1String(field))
                     .arg(n));
            return;
        }
        if (left() < n) {
            fail(QStringLiteral("%1 runs past the end of the %2")
                     .arg(QLatin1String(field), m_scope));
            return;
        }
        a.fill(0);
        std::copy(m_p, m_p + n, a.begin());
        m_p += n;
    }

private:
    const uchar *m_p;
    const uchar *m_end;
    QString m_scope;
    QString m_context;
    qsizetype m_record = 0;
    QString *m_error;
    bool m_cgroups = true;
};

// ---- records ------------------------------------------------------------------------------

// An event field's name in error messages: its declared wire name, or its column name in words;
// a list's count and entries are "<name> count" and "<name> entry".
enum class WirePart
{
    Value,
    Count,
    Entry,
};

template<typename E, std::size_t I>
const char *wireField(WirePart part = WirePart::Value)
{
    static const QByteArray name = [] {
        const auto &f = std::get<I>(EventTraits<E>::fields);
        if (FieldAt<E, I>::kind == FieldKind::Time)
            return QByteArray("time");
        return f.wireName ? QByteArray(f.wireName) : QByteArray(f.name).replace('_', ' ');
    }();
    static const QByteArray count = name + " count";
    static const QByteArray entry = name + " entry";
    switch (part) {
    case WirePart::Count:
        return count.constData();
    case WirePart::Entry:
        return entry.constData();
    case WirePart::Value:
        break;
    }
    return name.constData();
}

template<typename E>
bool hasOverlongList(const E &ev)
{
    bool overlong = false;
    forEachField<E>([&]<std::size_t I>() {
        if constexpr (FieldAt<E, I>::kind == FieldKind::BytesList)
            overlong = overlong || (ev.*FieldAt<E, I>::member).size() > StreamMaxArgv;
    });
    return overlong;
}

template<typename E, std::size_t I>
void encodeField(Encoder &e, const E &ev, quint64 &previous)
{
    using F = FieldAt<E, I>;
    const auto &v = ev.*F::member;
    if constexpr (F::kind == FieldKind::Time) {
        e.time(v, previous);
    } else if constexpr (F::kind == FieldKind::U8 || F::kind == FieldKind::Family) {
        e.byte(v);
    } else if constexpr (F::kind == FieldKind::Flag) {
        bool flag = v;
        // A list cut to what a stream may carry says so in its flag.
        if constexpr (requires { EventTraits<E>::truncationFlag; }) {
            if (EventTraits<E>::truncationFlag == F::member)
                flag = flag || hasOverlongList(ev);
        }
        e.byte(flag ? 1 : 0);
    } else if constexpr (F::kind == FieldKind::S32) {
        e.signedVarint(v);
    } else if constexpr (F::kind == FieldKind::Bytes) {
        e.bytes(v);
    } else if constexpr (F::kind == FieldKind::BytesList) {
        const qsizetype n = std::min(v.size(), StreamMaxArgv);
        e.varint(quint64(n));
        for (qsizetype i = 0; i < n; ++i)
            e.bytes(v[i]);
    } else if constexpr (F::kind == FieldKind::Address) {
        e.address(v);
    } else {
        e.varint(v);
    }
}

template<typename E, std::size_t I>
void decodeField(Cursor &c, E &ev, quint64 &previous)
{
    using F = FieldAt<E, I>;
    auto &v = ev.*F::member;
    const char *name = wireField<E, I>();
    if constexpr (isCgroupField<E, I>()) {
        if (!c.cgroups())
            return; // not in records of 1.x writers: 0, unknown
    }
    if constexpr (F::kind == FieldKind::Time) {
        v = c.time(name, previous);
    } else if constexpr (F::kind == FieldKind::U8) {
        v = c.byte(name);
    } else if constexpr (F::kind == FieldKind::Family) {
        v = c.byte(name);
        if (c.ok() && v != 4 && v != 6)
            c.fail(QStringLiteral("%1 %2 is neither 4 nor 6").arg(QLatin1String(name)).arg(v));
    } else if constexpr (F::kind == FieldKind::Flag) {
        v = c.flag(name);
    } else if constexpr (F::kind == FieldKind::Port) {
        v = c.u16(name);
    } else if constexpr (F::kind == FieldKind::U32) {
        v = c.u32(name);
    } else if constexpr (F::kind == FieldKind::U64) {
        v = c.varint(name);
    } else if constexpr (F::kind == FieldKind::S32) {
        v = c.i32(name);
    } else if constexpr (F::kind == FieldKind::Bytes) {
        v = c.bytes(name);
    } else if constexpr (F::kind == FieldKind::BytesList) {
        const qsizetype n = c.count(wireField<E, I>(WirePart::Count), 1, StreamMaxArgv);
        for (qsizetype i = 0; i < n && c.ok(); ++i)
            v.append(c.bytes(wireField<E, I>(WirePart::Entry)));
    } else if constexpr (F::kind == FieldKind::Address) {
        c.address(name, v);
    }
}

// Every event type's record: its fields in wire order (eventschema.h's wireOrder).
template<typename E>
requires requires
{
    EventTraits<E>::fields;
}
void encode(Encoder &e, const E &ev, quint64 &previous)
{
    static constexpr auto order = wireOrder<E>();
    [&]<std::size_t... K>(std::index_sequence<K...>)
    {
        (encodeField<E, order[K]>(e, ev, previous), ...);
    }
    (std::make_index_sequence<order.size()>());
}

template<typename E>
requires requires
{
    EventTraits<E>::fields;
}
void decode(Cursor &c, E &ev, quint64 &previous)
{
    static constexpr auto order = wireOrder<E>();
    [&]<std::size_t... K>(std::index_sequence<K...>)
    {
        (decodeField<E, order[K]>(c, ev, previous), ...);
    }
    (std::make_index_sequence<order.size()>());
}

void encode(Encoder &e, const HistogramSnapshot &h, quint64 &previous)
{
    e.text(h.probeId);
    e.text(h.key);
    e.time(h.timeNs, previous);
    e.varint(h.intervalNs);
    e.byte(quint8(h.histogram.unit()));
    e.varint(h.histogram.sum());
    int used = 0;
    for (int i = 0; i < Log2Histogram::MaxSlots; ++i)
        used += h.histogram.slot(i) != 0;
    e.varint(quint64(used));
    for (int i = 0; i < Log2Histogram::MaxSlots; ++i) {
        if (h.histogram.slot(i)) {
            e.byte(quint8(i));
            e.varint(h.histogram.slot(i));
        }
    }
}

void decode(Cursor &c, HistogramSnapshot &h, quint64 &previous)
{
    h.probeId = c.text("probe id");
    h.key = c.text("key");
    h.timeNs = c.time("time", previous);
    h.intervalNs = c.varint("interval ns");
    const quint8 unit = c.byte("unit");
    if (c.ok() && unit > quint8(LastHistogramUnit))
        c.fail(QStringLiteral("unit %1 is not a histogram unit (0 ns, 1 us, 2 ms, 3 KiB, 4 value)")
                   .arg(unit));
    Log2Histogram histogram{HistogramUnit(unit)};
    histogram.setSum(c.varint("sum"));
    const qsizetype slots = c.count("slot count", 2, Log2Histogram::MaxSlots);
    int previousSlot = -1;
    for (qsizetype i = 0; i < slots && c.ok(); ++i) {
        const quint8 slot = c.byte("slot index");
        const quint64 count = c.varint("slot count value");
        if (!c.ok())
            break;
        if (slot >= Log2Histogram::MaxSlots) {
            c.fail(QStringLiteral("slot index %1 is out of range (0-%2)")
                       .arg(slot)
                       .arg(Log2Histogram::MaxSlots - 1));
        } else if (int(slot) <= previousSlot) {
            c.fail(QStringLiteral("slot index %1 does not follow slot %2 (indices must increase)")
                       .arg(slot)
                       .arg(previousSlot));
        } else if (count == 0) {
            c.fail(QStringLiteral("slot %1 has count 0 (only non-empty slots are sent)").arg(slot));
        } else {
            histogram.addToSlot(slot, count);
            previousSlot = slot;
        }
    }
    h.histogram = histogram;
}

void encode(Encoder &e, const ProbeStats &s, quint64 &previous)
{
    e.text(s.probeId);
    e.time(s.timeNs, previous);
    e.varint(s.eventsSeen);
    e.varint(s.eventsLost);
    e.varint(s.runCount);
    e.varint(s.runTimeNs);
}

void decode(Cursor &c, ProbeStats &s, quint64 &previous)
{
    s.probeId = c.text("probe id");
    s.timeNs = c.time("time", previous);
    s.eventsSeen = c.varint("events seen");
    s.eventsLost = c.varint("events lost");
    s.runCount = c.varint("run count");
    s.runTimeNs = c.varint("run time ns");
}

void encode(Encoder &e, const StatsWithCauses &r, quint64 &previous)
{
    encode(e, r.stats, previous);
    e.varint(r.stats.eventsUnseen);
    e.varint(r.stats.unfinished);
}

void decode(Cursor &c, StatsWithCauses &r, quint64 &previous)
{
    decode(c, r.stats, previous);
    r.stats.eventsUnseen = c.varint("events unseen");
    r.stats.unfinished = c.varint("unfinished");
}

void encode(Encoder &e, const CounterSample &s, quint64 &previous)
{
    e.text(s.probeId);
    e.time(s.timeNs, previous);
    e.varint(s.intervalNs);
    e.text(s.name);
    e.f64(s.value);
}

void decode(Cursor &c, CounterSample &s, quint64 &previous)
{
    s.probeId = c.text("probe id");
    s.timeNs = c.time("time", previous);
    s.intervalNs = c.varint("interval ns");
    s.name = c.text("name");
    s.value = c.f64("value");
}

// The first n bytes of b, fewer if that would cut a UTF-8 sequence (symbols are demangled text).
QByteArrayView cutAt(QByteArrayView b, qsizetype n)
{
    if (b.size() <= n)
        return b;
    qsizetype end = n;
    // Back over at most three continuation bytes: bytes that are not UTF-8 are cut anywhere.
    while (end > n - 3 && end > 0 && (uchar(b[end]) & 0xc0) == 0x80)
        --end;
    if ((uchar(b[end]) & 0xc0) == 0x80)
        end = n;
    return b.first(end);
}

void encode(Encoder &e, const FrameDefinition &d, quint64 &)
{
    e.varint(d.id);
    e.byte(quint8(d.frame.kind));
    e.varint(d.frame.address);
    e.bytes(cutAt(d.frame.module, StreamMaxModuleBytes));
    e.bytes(cutAt(d.frame.buildId, StreamMaxBuildIdBytes));
    e.bytes(cutAt(d.frame.symbol, StreamMaxSymbolBytes));
}

void decode(Cursor &c, FrameDefinition &d, quint64 &)
{
    d.id = c.u32("frame id");
    const quint8 kind = c.byte("kind");
    if (c.ok() && kind != quint8(FrameKind::Kernel) && kind != quint8(FrameKind::User))
        c.fail(QStringLiteral("kind %1 is neither 1 (kernel) nor 2 (user)").arg(kind));
    d.frame.kind = FrameKind(kind);
    d.frame.address = c.varint("address");
    d.frame.module = c.bytes("module", StreamMaxModuleBytes);
    d.frame.buildId = c.bytes("build id", StreamMaxBuildIdBytes);
    d.frame.symbol = c.bytes("symbol", StreamMaxSymbolBytes);
}

void encode(Encoder &e, const FrameWithSource &r, quint64 &previous)
{
    encode(e, r.definition, previous);
    e.byte(r.definition.frame.inlined ? 1 : 0);
    e.bytes(cutAt(r.definition.frame.file, StreamMaxModuleBytes));
    e.varint(r.definition.frame.line);
}

void decode(Cursor &c, FrameWithSource &r, quint64 &previous)
{
    decode(c, r.definition, previous);
    const quint8 flags = c.byte("frame flags");
    // Bits this build does not know would change what the frame means: refused.
    if (c.ok() && (flags & ~1u))
        c.fail(
            QStringLiteral("frame flags 0x%1 have bits other than 1 (inlined)").arg(flags, 0, 16));
    r.definition.frame.inlined = flags & 1;
    r.definition.frame.file = c.bytes("file", StreamMaxModuleBytes);
    r.definition.frame.line = c.u32("line");
}

void encode(Encoder &e, const StackDefinition &d, quint64 &)
{
    const qsizetype n = std::min(d.frames.size(), StreamMaxStackFrames);
    e.varint(d.id);
    // Cut at the root end: the frames where the time was spent stay.
    e.byte(quint8(n < d.frames.size() ? d.flags | UserStackTruncated : d.flags));
    e.varint(quint64(n));
    for (qsizetype i = 0; i < n; ++i)
        e.varint(d.frames[i]);
}

void decode(Cursor &c, StackDefinition &d, quint64 &)
{
    d.id = c.u32("stack id");
    // Flag bits this build does not know are kept; they only add information.
    d.flags = c.byte("flags");
    const qsizetype n = c.count("frame count", 1, StreamMaxStackFrames);
    d.frames.reserve(n);
    for (qsizetype i = 0; i < n && c.ok(); ++i)
        d.frames.append(c.u32("frame"));
}

void encode(Encoder &e, const CgroupPath &c, quint64 &)
{
    e.varint(c.id);
    e.bytes(c.path); // at most PATH_MAX, as the kernel keeps them
}

void decode(Cursor &c, CgroupPath &p, quint64 &)
{
    p.id = c.varint("cgroup id");
    p.path = c.bytes("path", StreamMaxCgroupPathBytes);
}

// Why the writer cannot send a record at all, or an empty string if it can.
template<typename E>
requires requires
{
    EventTraits<E>::fields;
}
QString unsendable(const E &ev)
{
    QString why;
    forEachField<E>([&]<std::size_t I>() {
        if constexpr (FieldAt<E, I>::kind == FieldKind::Family) {
            const quint8 family = ev.*FieldAt<E, I>::member;
            if (why.isEmpty() && family != 4 && family != 6)
                why = QStringLiteral("%1 event at %2 ns has family %3, neither 4 nor 6")
                          .arg(QLatin1String(EventTraits<E>::wireName))
                          .arg(ev.timeNs)
                          .arg(family);
        }
    });
    return why;
}

QString unsendable(const HistogramSnapshot &h)
{
    if (quint8(h.histogram.unit()) > quint8(LastHistogramUnit))
        return QStringLiteral("histogram %1 at %2 ns has an invalid unit %3")
            .arg(h.probeId)
            .arg(h.timeNs)
            .arg(quint8(h.histogram.unit()));
    return QString();
}

QString unsendable(const ProbeStats &)
{
    return QString();
}

QString unsendable(const StatsWithCauses &)
{
    return QString();
}

QString unsendable(const CounterSample &)
{
    return QString();
}

QString unsendable(const FrameDefinition &d)
{
    if (d.frame.kind != FrameKind::Kernel && d.frame.kind != FrameKind::User)
        return QStringLiteral("stack frame %1 has kind %2, neither 1 (kernel) nor 2 (user)")
            .arg(d.id)
            .arg(quint8(d.frame.kind));
    return QString();
}

QString unsendable(const FrameWithSource &r)
{
    return unsendable(r.definition);
}

QString unsendable(const StackDefinition &)
{
    return QString();
}

QString unsendable(const CgroupPath &c)
{
    if (c.path.size() > StreamMaxCgroupPathBytes)
        return QStringLiteral("cgroup %1's path is %2 bytes long, more than a stream carries (%3)")
            .arg(c.id)
            .arg(c.path.size())
            .arg(StreamMaxCgroupPathBytes);
    return QString();
}

// A record in an error message: "exec record at 5000 ns", "stack frame 12".
template<typename T>
QString describe(quint8 kind, const T &r)
{
    return QStringLiteral("%1 record at %2 ns").arg(sectionName(kind)).arg(r.timeNs);
}

QString describe(quint8 kind, const StatsWithCauses &r)
{
    return describe(kind, r.stats);
}

QString describe(quint8 kind, const FrameDefinition &d)
{
    return QStringLiteral("%1 %2").arg(sectionName(kind)).arg(d.id);
}

QString describe(quint8 kind, const FrameWithSource &r)
{
    return describe(kind, r.definition);
}

QString describe(quint8 kind, const StackDefinition &d)
{
    return QStringLiteral("%1 %2").arg(sectionName(kind)).arg(d.id);
}

QString describe(quint8 kind, const CgroupPath &c)
{
    return QStringLiteral("%1 %2").arg(sectionName(kind)).arg(c.id);
}

// Packs records into Batch frame payloads of at most maxPayload bytes: one section per record
// kind and frame, a new frame whenever the next record would not fit.
class BatchPacker
{
public:
    BatchPacker(qsizetype maxPayload, QList<QByteArray> *payloads)
        : m_maxPayload(maxPayload)
        , m_payloads(payloads)
    {
    }

    template<typename T>
    void add(quint8 kind, const QList<T> &records)
    {
        for (const T &r : records) {
            const QString why = unsendable(r);
            if (!why.isEmpty()) {
                skip(why);
                continue;
            }
            add(kind, r);
        }
        closeSection();
    }

    void finish()
    {
        closeSection();
        closeFrame();
    }

    int skipped() const { return m_skipped; }
    QString firstSkipReason() const { return m_firstSkip; }

private:
    template<typename T>
    void add(quint8 kind, const T &r)
    {
        m_kind = kind;
        quint64 previous = m_previousTime;
        const qsizetype start = m_section.size();
        Encoder e(m_section);
        encode(e, r, previous);
        if (sizeWith(m_section.size()) > m_maxPayload) {
            // Does not fit: take it back, send what there is, and start a new frame with it.
            m_section.truncate(start);
            closeSection();
            closeFrame();
            previous = 0;
            encode(e, r, previous);
            if (sizeWith(m_section.size()) > m_maxPayload) {
                skip(QStringLiteral("%1 needs a frame payload of %2 bytes, more than the "
                                    "limit of %3")
                         .arg(describe(kind, r))
                         .arg(sizeWith(m_section.size()))
                         .arg(m_maxPayload));
                m_section.truncate(0);
                return;
            }
        }
        ++m_count;
        m_previousTime = previous;
    }

    // The frame payload's size with the current section of body bytes and one more record.
    qsizetype sizeWith(qsizetype body) const
    {
        return m_frame.size() + 1 + varintSize(quint64(m_count + 1)) + varintSize(quint64(body)) +
               body;
    }

    void closeSection()
    {
        if (m_count) {
            Encoder header(m_frame);
            header.byte(m_kind);
            header.varint(quint64(m_count));
            header.varint(quint64(m_section.size()));
            m_frame += m_section;
        }
        m_section.truncate(0);
        m_count = 0;
        m_previousTime = 0;
    }

    void closeFrame()
    {
        if (!m_frame.isEmpty())
            m_payloads->append(m_frame);
        m_frame.clear();
    }

    void skip(const QString &why)
    {
        if (m_skipped++ == 0)
            m_firstSkip = why;
    }

    qsizetype m_maxPayload;
    QList<QByteArray> *m_payloads;
    QByteArray m_frame;
    QByteArray m_section;
    quint8 m_kind = 0;
    qsizetype m_count = 0;
    quint64 m_previousTime = 0;
    int m_skipped = 0;
    QString m_firstSkip;
};

// ---- frames -------------------------------------------------------------------------------

QByteArray encodeHello(const SessionInfo &info)
{
    QByteArray out;
    Encoder e(out);
    e.signedVarint(info.schemaVersion);
    e.text(info.appVersion);
    e.text(info.host);
    e.text(info.kernelRelease);
    if (info.startWall.isValid()) {
        e.byte(1);
        e.signedVarint(info.startWall.toMSecsSinceEpoch());
    } else {
        e.byte(0);
    }
    e.varint(info.startMonotonicNs);
    e.varint(info.endMonotonicNs);
    e.varint(quint64(info.probes.size()));
    for (const ProbeConfig &p : info.probes) {
        e.text(p.id);
        e.bytes(
            QJsonDocument(QJsonObject::fromVariantMap(p.options)).toJson(QJsonDocument::Compact));
        e.text(p.attachPath);
    }
    return out;
}

void decodeHello(Cursor &c, SessionInfo &info)
{
    const qint64 schema = c.i64("schema version");
    if (c.ok() &&
        (schema < std::numeric_limits<int>::min() || schema > std::numeric_limits<int>::max()))
        c.fail(QStringLiteral("schema version %1 is out of range").arg(schema));
    info.schemaVersion = int(schema);
    info.appVersion = c.text("app version");
    info.host = c.text("host");
    info.kernelRelease = c.text("kernel release");
    if (c.flag("start wall present")) {
        const qint64 ms = c.i64("start wall");
        if (c.ok() && (ms > MaxWallMs || ms < -MaxWallMs))
            c.fail(QStringLiteral("start wall %1 ms is not a plausible time").arg(ms));
        info.startWall = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    }
    info.startMonotonicNs = c.varint("start monotonic ns");
    info.endMonotonicNs = c.varint("end monotonic ns");
    const qsizetype probes = c.count("probe count", 3, MaxProbes);
    for (qsizetype i = 0; i < probes && c.ok(); ++i) {
        c.setContext(QStringLiteral("probe %1").arg(i + 1));
        ProbeConfig p;
        p.id = c.text("id");
        const QByteArray json = c.bytes("options");
        if (!c.ok())
            break;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            c.fail(QStringLiteral("options are not a JSON object (%1)")
                       .arg(error.error != QJsonParseError::NoError
                                ? error.errorString()
                                : QStringLiteral("not an object")));
            break;
        }
        p.options = doc.object().toVariantMap();
        p.attachPath = c.text("attach path");
        info.probes.append(p);
    }
    c.setContext(QString());
}

template<typename T>
void decodeRecords(Cursor &section, qsizetype count, const QString &where, QList<T> &out)
{
    // Straight into the batch: if anything fails, the caller drops the whole frame's batch.
    quint64 previous = 0;
    section.setContext(where);
    for (qsizetype i = 0; i < count && section.ok(); ++i) {
        section.setRecord(i + 1);
        T r;
        decode(section, r, previous);
        out.append(std::move(r));
    }
}

void decodeBatch(Cursor &c, quint8 minor, RecordBatch &batch)
{
    const bool newerMinor = minor > StreamProtocolMinor;
    int index = 0;
    while (c.ok() && c.left() > 0) {
        ++index;
        c.setContext(QStringLiteral("section %1").arg(index));
        const quint8 kind = c.byte("kind");
        const quint64 count = c.varint("record count");
        const quint64 length = c.varint("length");
        if (!c.ok())
            return;
        if (length > quint64(c.left())) {
            c.fail(QStringLiteral("length %1 is more than the %2 bytes left in the frame payload")
                       .arg(length)
                       .arg(c.left()));
            return;
        }
        const QString name = sectionName(kind);
        Cursor s = c.sub(qsizetype(length), name + QStringLiteral(" section"));
        if (!isKnownSection(kind)) {
            if (newerMinor)
                continue; // added by a newer minor version: skippable by its length
            c.fail(QStringLiteral("unknown section kind %1").arg(kind));
            return;
        }
        const qsizetype minBytes = minRecordBytes(kind, c.cgroups());
        if (count > quint64(length) / quint64(minBytes)) {
            c.fail(
                QStringLiteral("%1 section claims %2 records in %3 bytes (each takes at least %4)")
                    .arg(name)
                    .arg(count)
                    .arg(length)
                    .arg(minBytes));
            return;
        }
        const qsizetype n = qsizetype(count);
        const QString where = QStringLiteral("section %1 (%2)").arg(index).arg(name);
        switch (Section(kind)) {
        case Section::Histogram:
            decodeRecords(s, n, where, batch.histograms);
            break;
        case Section::Stats:
            if (minor >= StatsWithCausesMinor) {
                QList<ProbeStats> same; // sent again with their causes in StatsWithCauses
                decodeRecords(s, n, where, same);
            } else {
                decodeRecords(s, n, where, batch.stats);
            }
            break;
        case Section::StatsWithCauses: {
            QList<StatsWithCauses> records;
            decodeRecords(s, n, where, records);
            for (StatsWithCauses &r : records)
                batch.stats.append(std::move(r.stats));
            break;
        }
        case Section::Counter:
            decodeRecords(s, n, where, batch.counters);
            break;
        case Section::StackFrame:
            if (minor >= StackFrameWithSourceMinor) {
                QList<FrameDefinition> same; // sent again with their source lines
                decodeRecords(s, n, where, same);
            } else {
                decodeRecords(s, n, where, batch.frames);
            }
            break;
        case Section::StackFrameWithSource: {
            QList<FrameWithSource> records;
            decodeRecords(s, n, where, records);
            for (FrameWithSource &r : records)
                batch.frames.append(std::move(r.definition));
            break;
        }
        case Section::Stack:
            decodeRecords(s, n, where, batch.stacks);
            break;
        case Section::Cgroup:
            decodeRecords(s, n, where, batch.cgroups);
            break;
        default:
            visitEventType(EventType(kind),
                           [&]<typename E>() { decodeRecords(s, n, where, batch.events<E>()); });
        }
        if (s.ok() && s.left() > 0) {
            c.fail(QStringLiteral("%1 bytes left over in the %2 section after its %3 records")
                       .arg(s.left())
                       .arg(name)
                       .arg(count));
        }
    }
    c.setContext(QString());
}

QByteArray encodeEnd(const StreamEnd &end)
{
    QByteArray out;
    Encoder e(out);
    e.byte(quint8(end.reason));
    QByteArray message = end.message.toUtf8();
    if (message.size() > MaxEndMessageBytes) {
        // Cut at a character boundary so the text stays valid UTF-8.
        qsizetype n = MaxEndMessageBytes;
        while (n > 0 && (uchar(message[n]) & 0xc0) == 0x80)
            --n;
        message.truncate(n);
    }
    e.bytes(message);
    e.varint(end.endMonotonicNs);
    return out;
}

void decodeEnd(Cursor &c, bool newerMinor, StreamEnd &end)
{
    const quint8 reason = c.byte("reason");
    if (c.ok() && reason > quint8(StreamEndReason::HelperShutdown)) {
        if (newerMinor) {
            end.reason = StreamEndReason::Error; // a newer reason; its message says what it is
        } else {
            c.fail(QStringLiteral("reason %1 is not an end reason (0 stopped, 1 error, 2 helper "
                                  "shutdown)")
                       .arg(reason));
        }
    } else {
        end.reason = StreamEndReason(reason);
    }
    end.message = c.text("message");
    end.endMonotonicNs = c.varint("end monotonic ns");
}

quint16 readLe16(const uchar *p)
{
    return quint16(p[0] | (p[1] << 8));
}

quint32 readLe32(const uchar *p)
{
    return quint32(p[0]) | (quint32(p[1]) << 8) | (quint32(p[2]) << 16) | (quint32(p[3]) << 24);
}

} // namespace

bool StreamMessage::operator==(const StreamMessage &o) const
{
    return type == o.type && info == o.info && end == o.end && batch == o.batch;
}

// ---- StreamWriter -------------------------------------------------------------------------

StreamWriter::StreamWriter(qsizetype maxPayloadBytes)
    : m_maxPayload(std::clamp(maxPayloadBytes, MinPayloadLimit, StreamMaxPayloadBytes))
{
}

QByteArray StreamWriter::frame(quint16 type, QByteArrayView payload, quint8 major, quint8 minor)
{
    QByteArray out;
    out.reserve(StreamFrameHeaderBytes + payload.size());
    out.append(Magic, 4);
    out.append(char(major));
    out.append(char(minor));
    out.append(char(type & 0xff));
    out.append(char(type >> 8));
    const quint32 n = quint32(payload.size());
    for (int i = 0; i < 4; ++i)
        out.append(char(n >> (8 * i)));
    out.append(payload);
    return out;
}

void StreamWriter::appendFrame(StreamFrameType type, const QByteArray &payload)
{
    m_pending += frame(quint16(type), payload);
    ++m_frames;
}

bool StreamWriter::writeHello(const SessionInfo &info, QString *error)
{
    const auto refuse = [&](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (info.probes.size() > MaxProbes) {
        return refuse(QStringLiteral("the session has %1 probes, more than a stream can carry (%2)")
                          .arg(info.probes.size())
                          .arg(MaxProbes));
    }
    if (info.startWall.isValid() && std::abs(info.startWall.toMSecsSinceEpoch()) > MaxWallMs) {
        return refuse(QStringLiteral("the session start time %1 is out of range")
                          .arg(info.startWall.toString(Qt::ISODate)));
    }
    const QByteArray payload = encodeHello(info);
    if (payload.size() > m_maxPayload) {
        return refuse(QStringLiteral("the session header is %1 bytes encoded, more than a frame "
                                     "holds (%2 bytes)")
                          .arg(payload.size())
                          .arg(m_maxPayload));
    }
    appendFrame(StreamFrameType::Hello, payload);
    return true;
}

bool StreamWriter::writeBatch(const RecordBatch &batch, QString *error)
{
    QList<QByteArray> payloads;
    BatchPacker packer(m_maxPayload, &payloads);
    // Definitions first: a consumer meets each frame and stack before the events that use it,
    // also when the batch is split over several frames.
    packer.add(quint8(Section::StackFrame), batch.frames);
    // Before the stacks: a reader of minor 10 or later defines its frames from these only.
    QList<FrameWithSource> withSource;
    withSource.reserve(batch.frames.size());
    for (const FrameDefinition &d : batch.frames) {
        // One the stack frame section left out is not counted again.
        if (unsendable(d).isEmpty())
            withSource.append({d});
    }
    packer.add(quint8(Section::StackFrameWithSource), withSource);
    packer.add(quint8(Section::Stack), batch.stacks);
    packer.add(quint8(Section::Cgroup), batch.cgroups);
    forEachEventType([&]<typename E>() { packer.add(sectionOf<E>(), batch.events<E>()); });
    packer.add(quint8(Section::Histogram), batch.histograms);
    packer.add(quint8(Section::Stats), batch.stats);
    QList<StatsWithCauses> withCauses;
    withCauses.reserve(batch.stats.size());
    for (const ProbeStats &st : batch.stats)
        withCauses.append({st});
    packer.add(quint8(Section::StatsWithCauses), withCauses);
    packer.add(quint8(Section::Counter), batch.counters);
    packer.finish();
    for (const QByteArray &p : payloads)
        appendFrame(StreamFrameType::Batch, p);
    if (packer.skipped()) {
        if (error) {
            *error =
                QStringLiteral("%1 could not be sent: %2")
                    .arg(countOf(packer.skipped(), "record", "records"), packer.firstSkipReason());
        }
        return false;
    }
    return true;
}

void StreamWriter::writeEnd(const StreamEnd &end)
{
    appendFrame(StreamFrameType::End, encodeEnd(end));
}

QByteArray StreamWriter::takePending()
{
    QByteArray out = m_sent ? m_pending.mid(m_sent) : m_pending;
    m_pending.clear();
    m_sent = 0;
    return out;
}

// ---- StreamReader -------------------------------------------------------------------------

StreamReader::StreamReader(qsizetype maxPayloadBytes)
    : m_maxPayload(std::clamp(maxPayloadBytes, MinPayloadLimit, StreamMaxPayloadBytes))
{
}

void StreamReader::fail(const QString &message)
{
    if (m_state == State::Failed)
        return;
    m_state = State::Failed;
    m_error = message;
    m_buffer.clear();
    m_pos = 0;
}

StreamMessage StreamReader::takeMessage()
{
    if (m_messages.empty())
        return StreamMessage();
    StreamMessage m = std::move(m_messages.front());
    m_messages.pop_front();
    return m;
}

void StreamReader::feed(QByteArrayView bytes)
{
    if (bytes.isEmpty() || m_state == State::Failed)
        return;
    if (m_state == State::Finished) {
        fail(QStringLiteral("data follows the end-of-stream frame (frame %1)").arg(m_frames));
        return;
    }
    m_buffer.append(bytes);
    decodeFrames();
}

void StreamReader::decodeFrames()
{
    while (m_state == State::Reading) {
        const qsizetype available = m_buffer.size() - m_pos;
        if (available < StreamFrameHeaderBytes)
            break;
        const uchar *h = reinterpret_cast<const uchar *>(m_buffer.constData()) + m_pos;
        const qint64 number = m_frames + 1;
        if (std::memcmp(h, Magic, 4) != 0) {
            fail(QStringLiteral("frame %1 does not start with the magic \"BLST\" (it starts with "
                                "%2): this is not a BPF Lens stream or it is out of step")
                     .arg(number)
                     .arg(QString::fromLatin1(
                         QByteArray(reinterpret_cast<const char *>(h), 4).toHex(' '))));
            return;
        }
        const quint8 major = h[4];
        const quint8 minor = h[5];
        const quint16 type = readLe16(h + 6);
        const quint32 length = readLe32(h + 8);
        const QString typeName = frameTypeName(type);
        if (major < StreamProtocolOldestMajor || major > StreamProtocolMajor) {
            fail(QStringLiteral("frame %1 uses stream protocol %2.%3, but this build reads "
                                "versions %4.x to %5.x only: the helper and this program come "
                                "from incompatible BPF Lens releases")
                     .arg(number)
                     .arg(major)
                     .arg(minor)
                     .arg(StreamProtocolOldestMajor)
                     .arg(StreamProtocolMajor));
            return;
        }
        if (qint64(length) > qint64(m_maxPayload)) {
            fail(QStringLiteral("frame %1 (%2) announces a payload of %3 bytes, more than the "
                                "limit of %4 bytes")
                     .arg(number)
                     .arg(typeName)
                     .arg(length)
                     .arg(m_maxPayload));
            return;
        }
        const bool newerMinor = minor > StreamProtocolMinor;
        if (!isKnownFrameType(type) && !newerMinor) {
            fail(QStringLiteral("frame %1 has the unknown type %2 (protocol %3.%4 has no such "
                                "frame)")
                     .arg(number)
                     .arg(type)
                     .arg(major)
                     .arg(minor));
            return;
        }
        if (!m_helloSeen && type != quint16(StreamFrameType::Hello)) {
            fail(QStringLiteral("frame %1 is a %2 frame, but a stream must start with a hello "
                                "frame")
                     .arg(number)
                     .arg(typeName));
            return;
        }
        if (m_helloSeen && type == quint16(StreamFrameType::Hello)) {
            fail(QStringLiteral("frame %1 is a second hello frame").arg(number));
            return;
        }
        if (available < StreamFrameHeaderBytes + qsizetype(length))
            break; // the rest of the frame has not arrived yet

        const uchar *payload = h + StreamFrameHeaderBytes;
        m_pos += StreamFrameHeaderBytes + qsizetype(length);
        ++m_frames;
        if (!isKnownFrameType(type)) {
            ++m_skipped;
            continue;
        }

        QString error;
        Cursor c(payload, qsizetype(length), QStringLiteral("frame payload"), &error);
        StreamMessage message;
        message.type = StreamFrameType(type);
        switch (message.type) {
        case StreamFrameType::Hello:
            decodeHello(c, message.info);
            break;
        case StreamFrameType::Batch:
            c.setCgroups(major >= 2);
            decodeBatch(c, minor, message.batch);
            break;
        case StreamFrameType::End:
            decodeEnd(c, newerMinor, message.end);
            break;
        }
        // Fields added by a newer minor version are appended, so only then may bytes be left.
        if (c.ok() && c.left() > 0 && !newerMinor)
            c.fail(QStringLiteral("%1 bytes left over at the end of the payload").arg(c.left()));
        if (!c.ok()) {
            fail(QStringLiteral("frame %1 (%2, %3 bytes): %4")
                     .arg(number)
                     .arg(typeName)
                     .arg(length)
                     .arg(error));
            return;
        }
        if (message.type == StreamFrameType::Hello) {
            m_helloSeen = true;
            m_peerMinor = minor;
        }
        const bool end = message.type == StreamFrameType::End;
        if (message.type != StreamFrameType::Batch || !message.batch.isEmpty())
            m_messages.push_back(std::move(message));
        if (end) {
            m_state = State::Finished;
            // The amount is not in the message: it would depend on how the input was split.
            if (m_buffer.size() > m_pos) {
                fail(QStringLiteral("data follows the end-of-stream frame (frame %1)").arg(number));
                return;
            }
        }
    }
    // Drop what has been decoded; keep a small buffer's capacity for the next feed.
    if (m_pos == m_buffer.size()) {
        if (m_buffer.capacity() > 1024 * 1024)
            m_buffer.clear();
        else
            m_buffer.resize(0);
        m_pos = 0;
    } else if (m_pos > 0 && m_pos >= m_buffer.size() / 2) {
        m_buffer.remove(0, m_pos);
        m_pos = 0;
    }
}

void StreamReader::closeInput()
{
    if (m_state != State::Reading)
        return;
    const qsizetype available = m_buffer.size() - m_pos;
    if (available > 0) {
        if (available < StreamFrameHeaderBytes) {
            fail(QStringLiteral("the stream ended in the middle of frame %1 (%2 of its %3 header "
                                "bytes)")
                     .arg(m_frames + 1)
                     .arg(available)
                     .arg(StreamFrameHeaderBytes));
        } else {
            const quint32 length =
                readLe32(reinterpret_cast<const uchar *>(m_buffer.constData()) + m_pos + 8);
            fail(QStringLiteral("the stream ended in the middle of frame %1 (%2 of its %3 bytes)")
                     .arg(m_frames + 1)
                     .arg(available)
                     .arg(StreamFrameHeaderBytes + qint64(length)));
        }
        return;
    }
    fail(QStringLiteral("the stream ended after frame %1 without an end-of-stream frame")
             .arg(m_frames));
}

} // namespace bpflens
